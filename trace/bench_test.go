package trace

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/internal/cputime"
	sqlite3 "github.com/mattn/go-sqlite3"
)

// benchTree is the synthetic search both benchmarks store: the same nodes,
// so the same rows.
const (
	benchSeed  = 42
	benchIters = 9
)

// recordBench records the benchmark tree into s and returns the run.
func recordBench(tb testing.TB, s *Store) (run, nodes int64) {
	rec, err := s.NewRecorder(context.Background(), RunInfo{FEN: tacticalFEN, Variant: "synthetic"}, RecordOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	g := newSynth(rec, benchSeed, nil)
	g.width = 4
	nodes = g.run(benchIters)
	if err := rec.Finish(Result{}); err != nil {
		tb.Fatal(err)
	}
	return rec.RunID(), nodes
}

// BenchmarkRecorder measures a recorder fed a synthetic event stream: the
// event generator and the recorder's tracer methods on this goroutine, the
// writer goroutine inserting. rows/s is the figure to compare with
// BenchmarkBareInsert's.
func BenchmarkRecorder(b *testing.B) {
	s, _ := mustCreate(b)
	var rows int64
	b.ResetTimer()
	start, cpu := time.Now(), cputime.Used()
	for i := 0; i < b.N; i++ {
		_, n := recordBench(b, s)
		rows += n
	}
	b.ReportMetric(float64(rows)/time.Since(start).Seconds(), "rows/s")
	b.ReportMetric(float64(cputime.Used()-cpu)/float64(rows), "cpu-ns/row")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkBareInsert measures inserting the same rows with nothing else
// going on: rows prepared in memory, the recorder's multi-row prepared
// INSERTs through the recorder's own connection (openWriter), one
// transaction per defaultBatchRows rows, WAL.
func BenchmarkBareInsert(b *testing.B) {
	s, _ := mustCreate(b)
	run, _ := recordBench(b, s)
	prepared := rowsOf(b, s, run)
	conn, err := s.openWriter()
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	var rows int64
	b.ResetTimer()
	start, cpu := time.Now(), cputime.Used()
	for i := 0; i < b.N; i++ {
		// Keys of runs that do not exist; the bare table does not care.
		if err := insertBare(conn, int64(1000+i), prepared); err != nil {
			b.Fatal(err)
		}
		rows += int64(len(prepared))
	}
	b.ReportMetric(float64(rows)/time.Since(start).Seconds(), "rows/s")
	b.ReportMetric(float64(cputime.Used()-cpu)/float64(rows), "cpu-ns/row")
	b.ReportMetric(0, "ns/op")
}

// rowsOf reads run's rows back as the recorder hands them to its writer.
func rowsOf(tb testing.TB, s *Store, run int64) []row {
	tb.Helper()
	var rows []row
	if err := s.Subtree(context.Background(), run, 0, -1, func(n Node) error {
		rows = append(rows, rowOf(n))
		return nil
	}); err != nil {
		tb.Fatal(err)
	}
	return rows
}

// insertBare is the bare INSERT loop, the ceiling of what the recorder's
// writer can do: rows inserted under run's key through the writer's own
// inserter, one transaction per defaultBatchRows rows, and nothing else (no
// summary, no run row, no size check, no parent index).
func insertBare(conn *sqlite3.SQLiteConn, run int64, rows []row) error {
	ins, err := newInserter(conn, run)
	if err != nil {
		return err
	}
	defer ins.close()
	for lo := 0; lo < len(rows); lo += defaultBatchRows {
		if _, err := ins.exec("BEGIN IMMEDIATE"); err != nil {
			return err
		}
		for j := lo; j < min(lo+defaultBatchRows, len(rows)); j++ {
			if err := ins.add(&rows[j]); err != nil {
				return err
			}
		}
		if err := ins.flush(); err != nil {
			return err
		}
		if _, err := ins.exec("COMMIT"); err != nil {
			return err
		}
	}
	return nil
}

// ratioDepth is BenchmarkTraceRatio's depth: 7 by default (1.5M nodes), 8
// for the row (5.7M nodes): go test -bench TraceRatio -ratio-depth 8.
var ratioDepth = flag.Int("ratio-depth", 7, "depth of BenchmarkTraceRatio's searches")

// BenchmarkTraceRatio states the recording goal as one figure measured in
// one run: the wall time of a traced search over the same search untraced,
// at the same depth on the same position (Kiwipete, captures, depth 7: 1.5M
// nodes; -ratio-depth 8: 5.7M). The traced side is what `horizon trace`
// does: a new file, the search recorded, Finish (its parent index
// included) and Close. Beside it, the ceiling: the same rows inserted by
// the bare INSERT loop (insertBare) into a new file. Each iteration times
// the three, in an order that rotates so that a drift in the shared
// machine's speed hits all; the medians of the iterations are reported:
//
//   - speed-ratio: the goal, the traced search's speed over the untraced
//     one's (untraced wall time / traced); cpu-speed-ratio the same in CPU
//     time, steadier on a loaded machine;
//   - bare-rows/s: the ceiling, rows per second of the bare INSERT loop;
//   - search-rows/s: rows per second of the recorder while the search runs
//     (the search's wall time), against the ceiling;
//   - traced-rows/s: the rows over the traced wall time, Finish and Close
//     included; finish-share: their share of it;
//   - ceiling-ratio: the speed ratio if recording cost only the bare
//     INSERTs, on the other core while the search runs; indexed-ceiling-ratio
//     with the run's parent index built after them, as Finish builds it.
func BenchmarkTraceRatio(b *testing.B) {
	depth := *ratioDepth
	o := presetOf(b, "captures")
	pos := engine.MustParseFEN(cutFEN)
	dir := b.TempDir()
	type cost struct{ wall, cpu time.Duration }
	measure := func(f func()) cost {
		start, cpu := time.Now(), cputime.Used()
		f()
		return cost{time.Since(start), cputime.Used() - cpu}
	}
	var nodes int64
	untraced := func() {
		nodes += engine.NewSearcher(o).Search(context.Background(), pos, engine.Limits{Depth: depth}, nil).Stats.Nodes
	}
	create := func(name string) *Store {
		s, err := Create(filepath.Join(dir, name))
		if err != nil {
			b.Fatal(err)
		}
		return s
	}
	var searchWall time.Duration // the traced search's, Finish excluded
	traced := func() {
		s := create("traced.trace")
		rec, o := newSearchRun(b, context.Background(), s, cutFEN, "captures", RecordOptions{})
		start := time.Now()
		res := engine.NewSearcher(o).Search(rec.Context(), pos, engine.Limits{Depth: depth}, rec)
		searchWall = time.Since(start)
		if err := rec.FinishSearch(res); err != nil {
			b.Fatal(err)
		}
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
	}
	src := create("rows.trace")
	rec, _ := searchInto(b, context.Background(), src, cutFEN, "captures", engine.Limits{Depth: depth}, RecordOptions{})
	prepared := rowsOf(b, src, rec.RunID())
	if err := src.Close(); err != nil {
		b.Fatal(err)
	}
	var insertWall, indexWall time.Duration // the bare loop's, and its parent index's
	bare := func() {
		s := create("bare.trace")
		conn, err := s.openWriter()
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		if err := insertBare(conn, 1, prepared); err != nil {
			b.Fatal(err)
		}
		insertWall = time.Since(start)
		if _, err := conn.Exec(parentIndexSQL(1), nil); err != nil {
			b.Fatal(err)
		}
		indexWall = time.Since(start) - insertWall
		conn.Close()
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
	}
	rows := float64(len(prepared))
	var ratio, cpu, bareRate, searchRate, tracedRate, finish, ceiling, indexed []float64
	var plain time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var u, t cost
		steps := []func(){func() { u = measure(untraced) }, func() { t = measure(traced) }, bare}
		for j := range steps {
			steps[(i+j)%len(steps)]()
		}
		for _, name := range []string{"traced.trace", "bare.trace"} {
			os.Remove(filepath.Join(dir, name))
		}
		ratio = append(ratio, u.wall.Seconds()/t.wall.Seconds())
		cpu = append(cpu, u.cpu.Seconds()/t.cpu.Seconds())
		bareRate = append(bareRate, rows/insertWall.Seconds())
		searchRate = append(searchRate, rows/searchWall.Seconds())
		tracedRate = append(tracedRate, rows/t.wall.Seconds())
		finish = append(finish, (t.wall-searchWall).Seconds()/t.wall.Seconds())
		ceiling = append(ceiling, u.wall.Seconds()/max(u.wall, insertWall).Seconds())
		indexed = append(indexed, u.wall.Seconds()/max(u.wall, insertWall+indexWall).Seconds())
		plain += u.wall
	}
	median := func(x []float64) float64 {
		slices.Sort(x)
		return x[len(x)/2]
	}
	b.ReportMetric(median(ratio), "speed-ratio")
	b.ReportMetric(median(cpu), "cpu-speed-ratio")
	b.ReportMetric(median(bareRate), "bare-rows/s")
	b.ReportMetric(median(searchRate), "search-rows/s")
	b.ReportMetric(median(tracedRate), "traced-rows/s")
	b.ReportMetric(median(finish), "finish-share")
	b.ReportMetric(median(ceiling), "ceiling-ratio")
	b.ReportMetric(median(indexed), "indexed-ceiling-ratio")
	b.ReportMetric(float64(nodes)/plain.Seconds(), "untraced-nodes/s")
	b.ReportMetric(0, "ns/op")
}

// TestRowSizeBudget records the benchmark tree and checks the file's bytes
// per node row, parent index included. The synthetic tree costs more than a
// real search (55.6 bytes against 52.2 on Kiwipete): its ids, parents and
// windows are less regular. The bound catches a layout change that grows
// rows.
func TestRowSizeBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("records a few hundred thousand rows")
	}
	s, path := mustCreate(t)
	_, nodes := recordBench(t, s)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	perRow := float64(st.Size()) / float64(nodes)
	t.Logf("%d rows, %d bytes: %.1f bytes/row", nodes, st.Size(), perRow)
	if perRow > 58 {
		t.Errorf("%.1f bytes per node row, bound 58", perRow)
	}
}
