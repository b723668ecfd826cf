package trace

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/internal/cputime"
)

// searchInto traces one real search into s.
func searchInto(tb testing.TB, ctx context.Context, s *Store, fen, variant string, lim engine.Limits, opts RecordOptions) (*Recorder, engine.Result) {
	tb.Helper()
	rec, o := newSearchRun(tb, ctx, s, fen, variant, opts)
	res := engine.NewSearcher(o).Search(rec.Context(), engine.MustParseFEN(fen), lim, rec)
	if err := rec.Finish(Result{Stopped: res.Stopped, BestMove: res.BestMove, Score: res.Score, PV: res.PV, Depth: res.Depth, Elapsed: res.Elapsed}); err != nil {
		tb.Fatal(err)
	}
	return rec, res
}

// newSearchRun opens the run of a search of fen with variant's preset, for
// the tests that run and finish the search themselves; it returns the
// recorder and the preset.
func newSearchRun(tb testing.TB, ctx context.Context, s *Store, fen, variant string, opts RecordOptions) (*Recorder, engine.Options) {
	tb.Helper()
	o := presetOf(tb, variant)
	rec, err := s.NewRecorder(ctx, RunInfo{FEN: fen, Variant: variant, Options: o.String()}, opts)
	if err != nil {
		tb.Fatal(err)
	}
	return rec, o
}

func TestRealSearchRowsMatchEngineCounter(t *testing.T) {
	depth := 4
	if testing.Short() {
		depth = 3
	}
	for _, v := range engine.VariantNames() {
		t.Run(v, func(t *testing.T) {
			s, _ := mustCreate(t)
			rec, res := searchInto(t, context.Background(), s, tacticalFEN, v, engine.Limits{Depth: depth}, RecordOptions{})
			r, err := s.Run(context.Background(), rec.RunID())
			if err != nil {
				t.Fatal(err)
			}
			if r.Rows != res.Stats.Nodes+1 || r.Nodes != res.Stats.Nodes || r.QSNodes != res.Stats.QSNodes {
				t.Errorf("rows %d nodes %d qs %d; engine counted %d nodes, %d QS", r.Rows, r.Nodes, r.QSNodes, res.Stats.Nodes, res.Stats.QSNodes)
			}
			if r.MaxPly != res.Stats.MaxPly || r.Status != StatusComplete || r.BestMove != res.BestMove.UCI() {
				t.Errorf("run %+v; engine max ply %d best %s", r, res.Stats.MaxPly, res.BestMove.UCI())
			}
			nodes := allNodes(t, s, r.ID)
			if int64(len(nodes)) != res.Stats.Nodes+1 {
				t.Fatalf("%d rows read back, engine counted %d", len(nodes), res.Stats.Nodes)
			}
			checkTreeShape(t, nodes)
			// Every move replays legally (a sample: Position replays the path).
			for i := 0; i < len(nodes); i += 1 + len(nodes)/50 {
				if _, err := s.Position(context.Background(), r.ID, nodes[i].ID); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

func TestRealSearchCancelled(t *testing.T) {
	s, path := mustCreate(t)
	ctx, cancel := context.WithCancel(context.Background())
	rec, o := newSearchRun(t, ctx, s, tacticalFEN, "captures", RecordOptions{})
	// Cancel from another goroutine once the search is well under way, as
	// a Ctrl-C would.
	go func() {
		for rec.Nodes() < 20000 {
			if rec.Context().Err() != nil {
				return
			}
		}
		cancel()
	}()
	res := engine.NewSearcher(o).Search(rec.Context(), engine.MustParseFEN(tacticalFEN), engine.Limits{Depth: 60}, rec)
	if err := rec.Finish(Result{BestMove: res.BestMove, Score: res.Score, PV: res.PV, Depth: res.Depth}); err != nil {
		t.Fatal(err)
	}
	if res.Stopped != engine.StopCancel {
		t.Fatalf("search stopped: %s", res.Stopped)
	}
	s.Close()
	s2, r := reopenInterrupted(t, path, rec.RunID())
	if r.Rows != res.Stats.Nodes+1 {
		t.Errorf("%d rows, want %d positions and the run node", r.Rows, res.Stats.Nodes)
	}
	nodes := allNodes(t, s2, r.ID)
	checkTreeShape(t, nodes)
	var incomplete int
	for _, n := range nodes {
		if n.Incomplete {
			incomplete++
		}
	}
	if incomplete == 0 {
		t.Error("no node is marked incomplete")
	}
	if !nodes[0].Incomplete {
		t.Error("the run node is not marked incomplete")
	}
}

// TestCancelAfterFinish: a cancellation that arrives after the search has
// finished (a Ctrl-C or a UCI quit racing the last node) stopped nothing:
// the run is complete, with or without the search's stop reason given.
func TestCancelAfterFinish(t *testing.T) {
	for _, tc := range []struct {
		name   string
		result func(engine.Result) Result
	}{
		{"with the search's result", func(res engine.Result) Result {
			return Result{Stopped: res.Stopped, BestMove: res.BestMove, Score: res.Score, PV: res.PV, Depth: res.Depth}
		}},
		{"with no stop reason given", func(engine.Result) Result { return Result{} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := mustCreate(t)
			ctx, cancel := context.WithCancel(context.Background())
			rec, o := newSearchRun(t, ctx, s, tacticalFEN, "captures", RecordOptions{})
			res := engine.NewSearcher(o).Search(rec.Context(), engine.MustParseFEN(tacticalFEN), engine.Limits{Depth: 3}, rec)
			cancel()
			if err := rec.Finish(tc.result(res)); err != nil {
				t.Fatal(err)
			}
			r, err := s.Run(context.Background(), rec.RunID())
			if err != nil {
				t.Fatal(err)
			}
			if res.Stopped != engine.StopNone || r.Status != StatusComplete || r.Rows != res.Stats.Nodes+1 {
				t.Errorf("search %s, run %s with %d rows; want complete with %d", res.Stopped, r.Status, r.Rows, res.Stats.Nodes)
			}
		})
	}
}

func TestRealSearchNodeLimit(t *testing.T) {
	s, _ := mustCreate(t)
	rec, res := searchInto(t, context.Background(), s, tacticalFEN, "captures", engine.Limits{Depth: 60, Nodes: 5000}, RecordOptions{MaxNodes: 5000})
	r, _ := s.Run(context.Background(), rec.RunID())
	if r.Status != StatusTruncated || r.Nodes != 5000 || r.Rows != res.Stats.Nodes+1 {
		t.Errorf("status %s, %d nodes, %d rows; want truncated with 5000 nodes and the run node's row", r.Status, r.Nodes, r.Rows)
	}
}

// TestMaxBytesHolds: the file a size-capped run ends with is within the
// cap, its parent index (built at Finish for a big run) and the rows the
// search adds before it sees the stop included. The check once compared
// the size after each commit with the cap, and a 20 MB cap made a file of
// 29.7 MB; then it ran only after a commit, and a first batch of the
// default 16,384 rows overran small caps (64 KiB made 1.3 MB, 1 MB made
// 1.7 MB): batches are now sized to the cap.
func TestMaxBytesHolds(t *testing.T) {
	if testing.Short() {
		t.Skip("records about 150,000 nodes: skipped with -short")
	}
	for _, maxBytes := range []int64{MinMaxBytes, 500e3, 1e6, 8 << 20} {
		s, path := mustCreate(t)
		rec, _ := searchInto(t, context.Background(), s, tacticalFEN, "captures", engine.Limits{Depth: 60}, RecordOptions{MaxBytes: maxBytes})
		r, err := s.Run(context.Background(), rec.RunID())
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		size := traceBytes(path)
		if r.Status != StatusTruncated || r.Rows == 0 || maxBytes >= 8<<20 && r.Rows < parentIndexMinRows {
			t.Fatalf("cap %d: run %s with %d rows; want truncated by the cap with rows (%d or more for the big cap, so it is indexed)", maxBytes, r.Status, r.Rows, parentIndexMinRows)
		}
		// Half used: a run stopped before it wrote much holds any cap.
		if size > maxBytes || size < maxBytes/2 {
			t.Errorf("a run of %d rows capped at %d bytes ends with a file of %d bytes; want at most the cap, and half of it used at least", r.Rows, maxBytes, size)
		}
	}
}

// BenchmarkTracedSearch records a real search of about 900k nodes, enough
// for the recorder's pipeline to reach its steady state; compare its rows/s
// with BenchmarkBareInsert's (goal: at least 70%).
func BenchmarkTracedSearch(b *testing.B) {
	s, _ := mustCreate(b)
	var rows int64
	b.ResetTimer()
	cpu := cputime.Used()
	for i := 0; i < b.N; i++ {
		_, res := searchInto(b, context.Background(), s, tacticalFEN, "captures", engine.Limits{Depth: 7}, RecordOptions{})
		rows += res.Stats.Nodes
	}
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
	b.ReportMetric(float64(cputime.Used()-cpu)/float64(rows), "cpu-ns/row")
}

// BenchmarkUntracedSearch is the same search with no tracer, for the
// engine's own node rate.
func BenchmarkUntracedSearch(b *testing.B) {
	o, _ := engine.VariantOptions("captures")
	var nodes int64
	cpu := cputime.Used()
	for i := 0; i < b.N; i++ {
		res := engine.NewSearcher(o).Search(context.Background(), engine.MustParseFEN(tacticalFEN), engine.Limits{Depth: 6}, nil)
		nodes += res.Stats.Nodes
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(float64(cputime.Used()-cpu)/float64(nodes), "cpu-ns/node")
}

// TestSearchNodeLimitTruncates: a search stopped by its own node limit (not
// the recorder's) is recorded as truncated, not complete.
func TestSearchNodeLimitTruncates(t *testing.T) {
	s, _ := mustCreate(t)
	rec, res := searchInto(t, context.Background(), s, tacticalFEN, "captures", engine.Limits{Depth: 20, Nodes: 5000}, RecordOptions{})
	if res.Stopped != engine.StopNodes {
		t.Fatalf("search stopped by %v, want the node limit", res.Stopped)
	}
	r, err := s.Run(context.Background(), rec.RunID())
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != StatusTruncated || r.Nodes != 5000 {
		t.Errorf("status %s with %d nodes, want truncated with 5000", r.Status, r.Nodes)
	}
}

// TestMaxBytesAppend: runs appended to a file under a size cap keep the
// finished file within it, and a run the file has no room for is refused
// before it writes anything. The recorder stopped only after its first
// batch, so each run appended to a file at or near the cap added 257 rows
// and a summary past it (a file capped at its own 69,632 bytes grew to
// 86,016, 94,208 and 110,592 bytes in three runs).
func TestMaxBytesAppend(t *testing.T) {
	// appendRun records a deep search into the file at path under maxBytes
	// (the search stops at the cap) and closes the file; it returns the
	// run, or the error of a run refused, and the runs in the file.
	appendRun := func(t *testing.T, path string, maxBytes int64) (Run, int, error) {
		t.Helper()
		s, err := Create(path)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		o := presetOf(t, "captures")
		rec, err := s.NewRecorder(context.Background(), RunInfo{FEN: tacticalFEN, Variant: "captures", Options: o.String()}, RecordOptions{MaxBytes: maxBytes})
		if err != nil {
			runs, rerr := s.Runs(context.Background())
			if rerr != nil {
				t.Fatal(rerr)
			}
			return Run{}, len(runs), err
		}
		res := engine.NewSearcher(o).Search(rec.Context(), engine.MustParseFEN(tacticalFEN), engine.Limits{Depth: 60}, rec)
		if err := rec.FinishSearch(res); err != nil {
			t.Fatal(err)
		}
		r, err := s.Run(context.Background(), rec.RunID())
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		return r, int(r.ID), nil // runs are 1, 2, ... in these files
	}
	// refused appends a run to the file at path, holding want runs, that
	// must be refused and leave the file as it was.
	refused := func(t *testing.T, path string, maxBytes int64, want int) {
		t.Helper()
		before := traceBytes(path)
		_, runs, err := appendRun(t, path, maxBytes)
		var room *RoomError
		if !errors.Is(err, ErrNoRoom) || !errors.As(err, &room) || room.Max != maxBytes || room.Used != before {
			t.Fatalf("a file of %d bytes under a cap of %d: %v; want no room for another run, with the figures", before, maxBytes, err)
		}
		if after := traceBytes(path); after > maxBytes || after != before || runs != want {
			t.Errorf("the refused run left a file of %d bytes (was %d, cap %d), %d runs (want %d)", after, before, maxBytes, runs, want)
		}
	}

	t.Run("at the cap", func(t *testing.T) {
		// A file written without a cap, then capped at its own size.
		s, path := mustCreate(t)
		searchInto(t, context.Background(), s, tacticalFEN, "captures", engine.Limits{Depth: 2}, RecordOptions{})
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		size := traceBytes(path)
		refused(t, path, size, 1)
		refused(t, path, size+MinRunBytes-1, 1)
	})
	for _, maxBytes := range []int64{MinMaxBytes, 500e3, 1e6, 3e6} {
		t.Run(fmt.Sprint(maxBytes), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "t.trace")
			n := 0
			for ; n < 10; n++ {
				r, _, err := appendRun(t, path, maxBytes)
				if errors.Is(err, ErrNoRoom) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				size := traceBytes(path)
				t.Logf("run %d: %s, %d rows; file %d bytes of the cap's %d", r.ID, r.Status, r.Rows, size, maxBytes)
				if r.Status != StatusTruncated || r.Rows == 0 || size > maxBytes {
					t.Fatalf("run %d: %s with %d rows, file %d bytes; want truncated by the cap with rows, the file within %d", r.ID, r.Status, r.Rows, size, maxBytes)
				}
			}
			if n == 0 || n == 10 {
				t.Fatalf("%d runs recorded under a cap of %d; want at least one, then no room", n, maxBytes)
			}
			refused(t, path, maxBytes, n)
		})
	}
}

// traceBytes is the size of the trace file at path with its -wal and
// -journal, as os.Stat gives them.
func traceBytes(path string) int64 {
	var size int64
	for _, suffix := range []string{"", "-wal", "-journal"} {
		if fi, err := os.Stat(path + suffix); err == nil {
			size += fi.Size()
		}
	}
	return size
}

// TestStopCauseStored: a run keeps what stopped it (runs.stop_cause, schema
// 5), as 'horizon search' and 'trace' say it: the search's own node or time
// limit, the recorder's node or size cap, a cancel; none for a complete
// run. Runs kept only their status: a truncated run did not say which
// limit.
func TestStopCauseStored(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name   string
		ctx    context.Context
		lim    engine.Limits
		opts   RecordOptions
		status Status
		cause  string
	}{
		{"complete", context.Background(), engine.Limits{Depth: 2}, RecordOptions{}, StatusComplete, ""},
		{"search nodes", context.Background(), engine.Limits{Depth: 30, Nodes: 3000}, RecordOptions{}, StatusTruncated, StopNodes},
		{"search time", context.Background(), engine.Limits{Depth: 60, MoveTime: 20 * time.Millisecond}, RecordOptions{}, StatusTruncated, StopTime},
		{"max nodes", context.Background(), engine.Limits{Depth: 30}, RecordOptions{MaxNodes: 2000}, StatusTruncated, StopNodes},
		{"max bytes", context.Background(), engine.Limits{Depth: 60}, RecordOptions{MaxBytes: MinMaxBytes}, StatusTruncated, StopSize},
		{"cancel", cancelled, engine.Limits{Depth: 30}, RecordOptions{}, StatusInterrupted, StopCancel},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, path := mustCreate(t)
			rec, _ := searchInto(t, tc.ctx, s, tacticalFEN, "captures", tc.lim, tc.opts)
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			r, err := OpenReadOnly(path)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			run, err := r.Run(context.Background(), rec.RunID())
			if err != nil {
				t.Fatal(err)
			}
			var stored sql.NullString
			if err := r.db.QueryRow("SELECT stop_cause FROM runs WHERE id = ?", run.ID).Scan(&stored); err != nil {
				t.Fatal(err)
			}
			if run.Status != tc.status || run.StopCause != tc.cause || stored.String != tc.cause || stored.Valid != (tc.cause != "") {
				t.Errorf("run %s, stop cause %q (stored %v); want %s, %q", run.Status, run.StopCause, stored, tc.status, tc.cause)
			}
		})
	}
}
