package trace

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/internal/cputime"
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
	var prepared []row
	if err := s.Subtree(context.Background(), run, 0, -1, func(n Node) error {
		prepared = append(prepared, rowOf(n))
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	conn, err := s.openWriter()
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	var rows int64
	b.ResetTimer()
	start, cpu := time.Now(), cputime.Used()
	for i := 0; i < b.N; i++ {
		run := int64(1000 + i) // keys of runs that do not exist; the bare table does not care
		err := func() error {
			ins, err := newInserter(conn, run)
			if err != nil {
				return err
			}
			defer ins.close()
			for lo := 0; lo < len(prepared); lo += defaultBatchRows {
				if _, err := ins.exec("BEGIN IMMEDIATE"); err != nil {
					return err
				}
				for j := lo; j < min(lo+defaultBatchRows, len(prepared)); j++ {
					if err := ins.add(&prepared[j]); err != nil {
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
		}()
		if err != nil {
			b.Fatal(err)
		}
		rows += int64(len(prepared))
	}
	b.ReportMetric(float64(rows)/time.Since(start).Seconds(), "rows/s")
	b.ReportMetric(float64(cputime.Used()-cpu)/float64(rows), "cpu-ns/row")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkTraceRatio states the recording goal as one figure measured in
// one run: the wall time of a traced search over the same search untraced,
// at the same depth on the same position (Kiwipete, captures, depth 7: 1.5M
// nodes). The traced side is what `horizon trace` does: a new file, the
// search recorded, Finish (its parent index included) and Close. Each
// iteration times one pair, the two in alternating order so that a drift
// in the shared machine's speed hits both; the median pair's ratios are
// reported, wall time (the goal) and CPU time (steadier on a loaded
// machine), with the untraced search's node rate for scale.
func BenchmarkTraceRatio(b *testing.B) {
	const depth = 7
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
	traced := func(i int) func() {
		return func() {
			path := filepath.Join(dir, fmt.Sprintf("%d.trace", i))
			s, err := Create(path)
			if err != nil {
				b.Fatal(err)
			}
			searchInto(b, context.Background(), s, cutFEN, "captures", engine.Limits{Depth: depth}, RecordOptions{})
			if err := s.Close(); err != nil {
				b.Fatal(err)
			}
		}
	}
	var wall, cpu []float64
	var plain time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var u, t cost
		if i%2 == 0 {
			u, t = measure(untraced), measure(traced(i))
		} else {
			t, u = measure(traced(i)), measure(untraced)
		}
		os.Remove(filepath.Join(dir, fmt.Sprintf("%d.trace", i)))
		wall = append(wall, t.wall.Seconds()/u.wall.Seconds())
		cpu = append(cpu, t.cpu.Seconds()/u.cpu.Seconds())
		plain += u.wall
	}
	median := func(x []float64) float64 {
		slices.Sort(x)
		return x[len(x)/2]
	}
	b.ReportMetric(median(wall), "traced/untraced")
	b.ReportMetric(median(cpu), "traced-cpu/untraced-cpu")
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
