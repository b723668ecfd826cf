package trace

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/horizonqs/horizon/engine"
)

// tacticalFEN has captures on both sides, so synthetic QS trees are deep.
const tacticalFEN = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"

// mustCreate creates a trace in a temp dir and closes it with the test.
func mustCreate(tb testing.TB) (*Store, string) {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "t.trace")
	s, err := Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s, path
}

// record feeds a synthetic tree into a new run and returns the run id and
// the reference copy of the nodes.
func record(tb testing.TB, s *Store, seed uint64, iters int, opts RecordOptions, tweak func(*synth)) (int64, *memTracer) {
	tb.Helper()
	rec, err := s.NewRecorder(context.Background(), RunInfo{FEN: tacticalFEN, Variant: "synthetic"}, opts)
	if err != nil {
		tb.Fatal(err)
	}
	mem := newMemTracer()
	g := newSynth(teeTracer{rec, mem}, seed, engine.MustParseFEN(tacticalFEN))
	if tweak != nil {
		tweak(g)
	}
	g.run(iters)
	if err := rec.Finish(Result{}); err != nil {
		tb.Fatal(err)
	}
	return rec.RunID(), mem
}

// startRecording starts a run on s and a synthetic search feeding it that
// polls the recorder's context, as an engine does, so that a limit or a
// write error stops it: the caller shapes the search, runs it and
// finishes the recorder.
func startRecording(tb testing.TB, s *Store, opts RecordOptions, seed uint64, pos *engine.Position) (*Recorder, *synth) {
	tb.Helper()
	rec, err := s.NewRecorder(context.Background(), RunInfo{FEN: tacticalFEN}, opts)
	if err != nil {
		tb.Fatal(err)
	}
	g := newSynth(rec, seed, pos)
	g.ctx = rec.Context()
	return rec, g
}

// recordedFile is the content of a closed trace file at path holding runs
// synthetic runs of iters iterations: a good file to damage.
func recordedFile(tb testing.TB, path string, runs, iters int) []byte {
	tb.Helper()
	s, err := Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	for i := range runs {
		record(tb, s, uint64(i), iters, RecordOptions{}, nil)
	}
	if err := s.Close(); err != nil {
		tb.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// allNodes reads every row of a run in id order.
func allNodes(tb testing.TB, s *Store, run int64) []Node {
	tb.Helper()
	var out []Node
	if err := s.Subtree(context.Background(), run, 0, -1, func(n Node) error {
		out = append(out, n)
		return nil
	}); err != nil {
		tb.Fatal(err)
	}
	return out
}

func TestRecordMatchesReference(t *testing.T) {
	tests := []struct {
		name  string
		seed  uint64
		iters int
		batch int
	}{
		{"default batches", 1, 4, 0},
		{"tiny batches force late rows", 2, 4, 7},
		{"one-row batches", 3, 3, 1},
		{"deeper", 4, 5, 1000},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := mustCreate(t)
			run, mem := record(t, s, tc.seed, tc.iters, RecordOptions{BatchRows: tc.batch}, nil)
			got := allNodes(t, s, run)
			if len(got) != len(mem.nodes) {
				t.Fatalf("rows = %d, nodes fed = %d", len(got), len(mem.nodes))
			}
			r, err := s.Run(context.Background(), run)
			if err != nil {
				t.Fatal(err)
			}
			if r.Nodes != int64(len(mem.nodes))-1 || r.Rows != int64(len(mem.nodes)) || r.Status != StatusComplete {
				t.Errorf("run: nodes %d rows %d status %s, want %d, %d, complete", r.Nodes, r.Rows, r.Status, len(mem.nodes)-1, len(mem.nodes))
			}
			for i, n := range got {
				want := *mem.nodes[n.ID]
				want.RunID = run
				if n.ID != int64(i) {
					t.Fatalf("row %d has id %d: ids must be 0..n-1 in order", i, n.ID)
				}
				if !reflect.DeepEqual(n, want) {
					t.Fatalf("node %d:\n got %+v\nwant %+v", n.ID, n, want)
				}
			}
			checkTreeShape(t, got)
		})
	}
}

// checkTreeShape checks that every parent exists and that every subtree
// range holds exactly the node's descendants.
func checkTreeShape(t *testing.T, nodes []Node) {
	t.Helper()
	byID := map[int64]Node{}
	for _, n := range nodes {
		byID[n.ID] = n
	}
	for _, n := range nodes {
		if n.ID == 0 {
			if n.Parent != -1 {
				t.Errorf("run node's parent = %d, want -1", n.Parent)
			}
			continue
		}
		p, ok := byID[n.Parent]
		if !ok {
			t.Fatalf("node %d: parent %d has no row", n.ID, n.Parent)
		}
		if !p.Contains(n.ID) || p.ID >= n.ID {
			t.Fatalf("node %d outside its parent %d's range [%d,%d)", n.ID, p.ID, p.ID, p.End())
		}
	}
	// A node is in n's range iff n is among its ancestors.
	for _, n := range nodes {
		for id := n.ID + 1; id < n.End(); id++ {
			c, ok := byID[id]
			if !ok {
				continue
			}
			a := c
			for a.ID > n.ID {
				a = byID[a.Parent]
			}
			if a.ID != n.ID {
				t.Fatalf("node %d lies in %d's range but descends from %d", id, n.ID, a.ID)
			}
		}
	}
}

func TestSameInputSameRows(t *testing.T) {
	s, _ := mustCreate(t)
	a, _ := record(t, s, 7, 4, RecordOptions{BatchRows: 50}, nil)
	b, _ := record(t, s, 7, 4, RecordOptions{BatchRows: 50}, nil)
	na, nb := allNodes(t, s, a), allNodes(t, s, b)
	if len(na) != len(nb) || len(na) == 0 {
		t.Fatalf("rows %d vs %d", len(na), len(nb))
	}
	for i := range na {
		na[i].RunID, nb[i].RunID = 0, 0
		if na[i] != nb[i] {
			t.Fatalf("row %d differs:\n%+v\n%+v", i, na[i], nb[i])
		}
	}
	sa, err := s.Stats(context.Background(), a)
	if err != nil {
		t.Fatal(err)
	}
	sb, _ := s.Stats(context.Background(), b)
	sa.RunID, sb.RunID = 0, 0
	if !reflect.DeepEqual(sa, sb) {
		t.Errorf("stats differ:\n%+v\n%+v", sa, sb)
	}
}

func TestInterrupted(t *testing.T) {
	tests := []struct {
		name   string
		abrupt bool // the search stops sending events instead of unwinding
	}{
		{"search unwinds with CauseStop", false},
		{"search stops sending events", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, path := mustCreate(t)
			ctx, cancel := context.WithCancel(context.Background())
			rec, err := s.NewRecorder(ctx, RunInfo{FEN: tacticalFEN}, RecordOptions{BatchRows: 100})
			if err != nil {
				t.Fatal(err)
			}
			mem := newMemTracer()
			g := newSynth(teeTracer{rec, mem}, 11, engine.MustParseFEN(tacticalFEN))
			g.ctx, g.abrupt = rec.Context(), tc.abrupt
			// Cancel as Ctrl-C would, from another goroutine, mid-search.
			g.tr = teeTracer{g.tr, cancelAfter{n: 500, cancel: cancel}}
			g.run(50)
			if !g.stopped {
				t.Fatal("the synthetic search did not notice the cancellation")
			}
			if err := rec.Finish(Result{}); err != nil {
				t.Fatal(err)
			}
			s.Close()

			s2, r := reopenInterrupted(t, path, rec.RunID())
			nodes := allNodes(t, s2, r.ID)
			if int64(len(nodes)) != g.next {
				t.Errorf("rows = %d, nodes visited = %d", len(nodes), g.next)
			}
			checkTreeShape(t, nodes)
			// The incomplete nodes are exactly the path to the last node.
			var incomplete []int64
			for _, n := range nodes {
				if n.Incomplete {
					incomplete = append(incomplete, n.ID)
				}
			}
			open, err := s2.Path(context.Background(), r.ID, g.next-1)
			if err != nil {
				t.Fatal(err)
			}
			var want []int64
			for _, n := range open {
				want = append(want, n.ID)
			}
			if !reflect.DeepEqual(incomplete, want) {
				t.Errorf("incomplete nodes %v, want the open path %v", incomplete, want)
			}
		})
	}
}

// cancelAfter cancels a context when the n-th node is entered.
type cancelAfter struct {
	n      int64
	cancel func()
}

func (c cancelAfter) Enter(e engine.EnterInfo) {
	if e.ID == c.n {
		c.cancel()
	}
}
func (cancelAfter) StandPat(engine.StandPatInfo)   {}
func (cancelAfter) Move(engine.MoveInfo)           {}
func (cancelAfter) Extension(engine.ExtensionInfo) {}
func (cancelAfter) Leave(engine.LeaveInfo)         {}

// TestLimitsTruncate: a node limit and a file size limit stop recording
// alike: the recorder's context ends with the limit's error, the run is
// truncated near its limit (within it, for the size) and its tree is whole.
func TestLimitsTruncate(t *testing.T) {
	for _, tc := range []struct {
		name         string
		opts         RecordOptions
		seed         uint64
		width, iters int
		cause        error
		near         func(r Run) bool // the run stopped near its limit
	}{
		// The synthetic search polls every 64 nodes, so it overshoots a little.
		{"nodes", RecordOptions{MaxNodes: 300, BatchRows: 64}, 5, 3, 50, ErrNodeLimit,
			func(r Run) bool { return r.Nodes >= 300 && r.Nodes <= 300+64 && r.Rows == r.Nodes+1 }},
		{"bytes", RecordOptions{BatchRows: 500, MaxBytes: 1 << 20}, 4, 5, 9, ErrSizeLimit,
			// The cap holds for the finished file (TestMaxBytesHolds), so
			// the run stops short of it, by a few batches at most.
			func(r Run) bool { return r.FileBytes >= 512<<10 && r.FileBytes <= 1<<20 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := mustCreate(t)
			rec, g := startRecording(t, s, tc.opts, tc.seed, engine.MustParseFEN(tacticalFEN))
			g.width = tc.width
			g.run(tc.iters)
			if err := rec.Finish(Result{}); err != nil {
				t.Fatal(err)
			}
			if cause := context.Cause(rec.Context()); !errors.Is(cause, tc.cause) {
				t.Errorf("the recorder's context ended by %v, want %v", cause, tc.cause)
			}
			r, err := s.Run(context.Background(), rec.RunID())
			if err != nil {
				t.Fatal(err)
			}
			if r.Status != StatusTruncated || !tc.near(r) {
				t.Errorf("run %s with %d rows, %d nodes, %d bytes of file; want truncated near %+v", r.Status, r.Rows, r.Nodes, r.FileBytes, tc.opts)
			}
			checkTreeShape(t, allNodes(t, s, r.ID))
		})
	}
}

// TestKeepSearching: with KeepSearching the node cap bounds the recording
// alone: the search is not stopped (the context stays live), the run's
// nodes are the search's, its rows the first MaxNodes nodes and the
// iteration roots after them, each as the search left it, and its filter
// says so. Before, the cap stopped the search itself.
func TestKeepSearching(t *testing.T) {
	s, _ := mustCreate(t)
	const max = 300
	rec, err := s.NewRecorder(context.Background(), RunInfo{FEN: tacticalFEN, Variant: "synthetic"},
		RecordOptions{MaxNodes: max, KeepSearching: true, BatchRows: 64})
	if err != nil {
		t.Fatal(err)
	}
	mem := newMemTracer()
	g := newSynth(teeTracer{rec, mem}, 9, engine.MustParseFEN(tacticalFEN))
	g.ctx = rec.Context()
	g.run(4)
	if err := context.Cause(rec.Context()); err != nil || !rec.Capped() {
		t.Fatalf("the search was stopped (%v), or the cap not reached (capped %v)", err, rec.Capped())
	}
	if err := rec.Finish(Result{Depth: 4}); err != nil {
		t.Fatal(err)
	}
	if int64(len(mem.nodes))-1 <= max+64 {
		t.Fatalf("the synthetic search entered %d nodes: too few to test a cap of %d", len(mem.nodes)-1, max)
	}
	var want []int64
	for id := int64(0); id < int64(len(mem.nodes)); id++ {
		if n := mem.nodes[id]; id <= max || n.Kind == engine.KindRoot {
			want = append(want, id)
		}
	}
	var ids []int64
	for _, n := range allNodes(t, s, rec.RunID()) {
		ids = append(ids, n.ID)
		if w := *mem.nodes[n.ID]; n.Score != w.Score || n.SubtreeSize != w.SubtreeSize || n.Cause != w.Cause {
			t.Errorf("node %d differs from the search's", n.ID)
		}
	}
	if !reflect.DeepEqual(ids, want) {
		t.Fatalf("kept %d rows, want the run node, the first %d nodes and the later roots (%d rows)", len(ids), max, len(want))
	}
	r, _ := s.Run(context.Background(), rec.RunID())
	if r.Status != StatusComplete || r.StopCause != "" || r.Nodes != int64(len(mem.nodes))-1 || r.Rows != int64(len(want)) || r.Filter != "first 300 nodes" {
		t.Errorf("run %s (%q), %d nodes, %d rows, filter %q; want complete, %d nodes, %d rows, first 300 nodes",
			r.Status, r.StopCause, r.Nodes, r.Rows, r.Filter, len(mem.nodes)-1, len(want))
	}
	if r.FirstNodes() != max {
		t.Errorf("FirstNodes %d, want %d", r.FirstNodes(), max)
	}
	// Branching factors only for the iterations recorded whole.
	st, err := s.Stats(context.Background(), r.ID)
	if err != nil {
		t.Fatal(err)
	}
	for i, it := range st.Iterations {
		end := r.Nodes
		if i+1 < len(st.Iterations) {
			end = st.Iterations[i+1].RootID - 1
		}
		if whole := end <= max; (it.PlyEBF != nil) != whole || it.Partial {
			t.Errorf("iteration %d (ids %d to %d): nodes^(1/d) %v, partial %v; want one only when recorded whole, never partial",
				it.Iteration, it.RootID, end, it.PlyEBF, it.Partial)
		}
	}
	if lim := (RecordOptions{MaxNodes: max, KeepSearching: true}).Limit(engine.Limits{Depth: 5}); lim != (engine.Limits{Depth: 5}) {
		t.Errorf("Limit gave the search %+v: the cap must not limit it", lim)
	}
}

func TestLastIterationOnly(t *testing.T) {
	s, _ := mustCreate(t)
	run, mem := record(t, s, 9, 4, RecordOptions{LastIterationOnly: true, BatchRows: 30}, nil)
	got := allNodes(t, s, run)
	var want []int64
	for id := int64(0); id < int64(len(mem.nodes)); id++ {
		if n := mem.nodes[id]; n.Kind == engine.KindRun || n.Iteration == 4 {
			want = append(want, id)
		}
	}
	var ids []int64
	for _, n := range got {
		ids = append(ids, n.ID)
		if w := *mem.nodes[n.ID]; n.Score != w.Score || n.SubtreeSize != w.SubtreeSize {
			t.Fatalf("node %d differs from the reference", n.ID)
		}
	}
	if !reflect.DeepEqual(ids, want) {
		t.Fatalf("kept %d rows, want the run node and iteration 4 (%d rows)", len(ids), len(want))
	}
	roots, err := s.Children(context.Background(), run, 0, BySearch, 0, 0)
	if err != nil || len(roots) != 1 || roots[0].Iteration != 4 {
		t.Fatalf("run node's children = %+v, %v; want iteration 4's root", roots, err)
	}
	st, _ := s.Stats(context.Background(), run)
	if st.Nodes != int64(len(want))-1 || len(st.Iterations) != 1 {
		t.Errorf("stats count %d nodes in %d iterations, want %d (the rows but the run node) in 1", st.Nodes, len(st.Iterations), len(want)-1)
	}
	r, _ := s.Run(context.Background(), run)
	if r.Rows != int64(len(want)) || r.Nodes != int64(len(mem.nodes))-1 || r.Filter != "last-iteration" {
		t.Errorf("run rows %d nodes %d filter %q", r.Rows, r.Nodes, r.Filter)
	}
}

func TestUnderPath(t *testing.T) {
	pos := engine.MustParseFEN(tacticalFEN)
	// Find a two-move path the synthetic search will take: record once
	// without a filter and take the first grandchild of the last root.
	s, _ := mustCreate(t)
	full, _ := record(t, s, 13, 3, RecordOptions{}, nil)
	ctx := context.Background()
	roots, _ := s.Children(ctx, full, 0, BySearch, 0, 0)
	kids, _ := s.Children(ctx, full, roots[len(roots)-1].ID, BySearch, 0, 0)
	grand, _ := s.Children(ctx, full, kids[0].ID, BySearch, 0, 0)
	if len(grand) == 0 {
		t.Fatal("synthetic tree too small")
	}
	san1 := pos.SAN(kids[0].Move)
	pos.MakeMove(kids[0].Move)
	uci2 := grand[0].Move.UCI()

	run, mem := record(t, s, 13, 3, RecordOptions{Under: []string{san1, uci2}}, nil)
	got := allNodes(t, s, run)
	keep := func(n *Node) bool {
		if n.Kind == engine.KindRun || n.Kind == engine.KindRoot {
			return true
		}
		// Walk up to the root, collecting the moves.
		var moves []engine.Move
		for a := n; a.Kind != engine.KindRoot; a = mem.nodes[a.Parent] {
			moves = append([]engine.Move{a.Move}, moves...)
		}
		path := []engine.Move{kids[0].Move, grand[0].Move}
		for i := 0; i < len(moves) && i < len(path); i++ {
			if moves[i] != path[i] {
				return false
			}
		}
		return true
	}
	var want, ids []int64
	for id := int64(0); id < int64(len(mem.nodes)); id++ {
		if keep(mem.nodes[id]) {
			want = append(want, id)
		}
	}
	for _, n := range got {
		ids = append(ids, n.ID)
	}
	if !reflect.DeepEqual(ids, want) {
		t.Fatalf("kept %v\nwant %v", ids, want)
	}
	checkTreeShape(t, got)
	if _, err := s.NewRecorder(ctx, RunInfo{FEN: tacticalFEN}, RecordOptions{Under: []string{"Ke3"}}); err == nil {
		t.Error("an illegal move in the path was accepted")
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	// A good trace to damage.
	good := filepath.Join(dir, "good.trace")
	data := recordedFile(t, good, 3, 4)
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	other := filepath.Join(dir, "other.db")
	{
		// A SQLite file some other program wrote.
		o, err := Create(filepath.Join(dir, "scratch.trace"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := o.db.Exec("VACUUM INTO ?", other); err != nil {
			t.Fatal(err)
		}
		o.Close()
		raw, err := os.ReadFile(other)
		if err != nil {
			t.Fatal(err)
		}
		raw[68], raw[69], raw[70], raw[71] = 0, 0, 0, 1 // application_id
		write("other.db", raw)
	}
	newer := filepath.Join(dir, "newer.trace")
	{
		n, err := Create(newer)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := n.db.Exec("PRAGMA user_version = 99"); err != nil {
			t.Fatal(err)
		}
		n.Close()
	}
	tests := []struct {
		name string
		path string
		want error
		says string // in the message, when not empty
	}{
		{"text file", write("notes.txt", []byte("hello, this is not a database at all, it is long enough to have a header......................................")), ErrNotTrace, "not a SQLite file"},
		// A stream given where its trace belongs ('horizon view s.hzt')
		// said "not a SQLite file" alone.
		{"trace stream", write("s.hzt", []byte("HZT 1\nengine Tiny\nposition startpos\n")), ErrNotTrace, "a trace stream, the text an engine writes ('horizon import' records it into a trace file): not a Horizon trace"},
		{"empty file", write("empty.trace", nil), ErrNotTrace, ""},
		{"other SQLite file", other, ErrNotTrace, ""},
		{"cut in the header", write("short.trace", data[:40]), ErrCorrupt, ""},
		{"truncated", write("half.trace", data[:len(data)/2]), ErrCorrupt, ""},
		{"newer schema", newer, ErrNewerSchema, ""},
		{"missing", filepath.Join(dir, "nope.trace"), os.ErrNotExist, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, open := range []func(string) (*Store, error){Open, OpenReadOnly} {
				s, err := open(tc.path)
				if err == nil {
					s.Close()
					t.Fatalf("opened %s", tc.path)
				}
				if !errors.Is(err, tc.want) {
					t.Errorf("error %q does not wrap %q", err, tc.want)
				}
				if !strings.Contains(err.Error(), tc.says) {
					t.Errorf("error %q does not say %q", err, tc.says)
				}
				if !containsPath(err.Error(), tc.path) {
					t.Errorf("error %q does not name the file", err)
				}
				// One wording for every command: the path once, no OS
				// "open x: no such file or directory" after it.
				if n := strings.Count(err.Error(), tc.path); n != 1 || strings.Contains(err.Error(), "or directory") {
					t.Errorf("error %q names the file %d times", err, n)
				}
			}
		})
	}
	// Create must not clobber a file that is not a trace.
	if _, err := Create(filepath.Join(dir, "notes.txt")); !errors.Is(err, ErrNotTrace) {
		t.Errorf("Create on a text file: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "notes.txt")); len(b) == 0 {
		t.Error("Create changed a file that is not a trace")
	}
	// The good file still opens, read-only too, with its runs.
	for _, open := range []func(string) (*Store, error){Open, OpenReadOnly} {
		s, err := open(good)
		if err != nil {
			t.Fatal(err)
		}
		runs, err := s.Runs(context.Background())
		if err != nil || len(runs) != 3 {
			t.Errorf("runs = %d, %v", len(runs), err)
		}
		s.Close()
	}
}

func containsPath(msg, path string) bool { return path != "" && strings.Contains(msg, path) }

// reopenInterrupted opens (read-write, closed when the test ends) a trace
// whose recording of run id was interrupted, and returns the run, checking
// that it says interrupted.
func reopenInterrupted(t *testing.T, path string, id int64) (*Store, Run) {
	t.Helper()
	s, err := Open(path)
	if err != nil {
		t.Fatalf("interrupted trace does not open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	r, err := s.Run(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != StatusInterrupted {
		t.Errorf("status = %s, want interrupted", r.Status)
	}
	return s, r
}

// TestCloseDoesNotHang: Close of a store whose recorder was not finished,
// or while a query of the process still holds a connection, returns an
// error that names the cause, where it used to wait forever in
// database/sql for a connection never released (a test failing with a
// recorder open hung until go test's timeout). The runs stay whole.
func TestCloseDoesNotHang(t *testing.T) {
	defer func(w time.Duration) { closeWait = w }(closeWait)
	closeWait = 100 * time.Millisecond
	ctx := context.Background()
	for _, c := range []struct {
		name string
		// hold leaves a connection held and returns what releases it.
		hold func(t *testing.T, s *Store) func() error
		want string
	}{
		{"unfinished recorder", func(t *testing.T, s *Store) func() error {
			rec, g := startRecording(t, s, RecordOptions{BatchRows: 64}, 2, engine.MustParseFEN(tacticalFEN))
			g.run(2)
			return func() error { return rec.Finish(Result{}) }
		}, "run 2 is still being recorded"},
		{"rows left open", func(t *testing.T, s *Store) func() error {
			rows, err := s.db.QueryContext(ctx, "SELECT id FROM runs")
			if err != nil {
				t.Fatal(err)
			}
			return rows.Close
		}, "still holds the file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, path := mustCreate(t)
			_, mem := record(t, s, 1, 2, RecordOptions{}, nil)
			release := c.hold(t, s)
			done := make(chan error, 1)
			go func() { done <- s.Close() }()
			var err error
			select {
			case err = <-done:
			case <-time.After(time.Minute):
				t.Fatal("Close still waits after a minute")
			}
			if err == nil || !strings.Contains(err.Error(), c.want) || !containsPath(err.Error(), path) {
				t.Errorf("Close = %v, want an error naming %s and saying %q", err, path, c.want)
			}
			// Whatever held the connection still ends without waiting
			// forever, before or after the store is closed.
			go func() { done <- release() }()
			select {
			case <-done:
			case <-time.After(time.Minute):
				t.Fatal("releasing the connection after Close still waits after a minute")
			}
			r, err := OpenReadOnly(path)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if got := allNodes(t, r, 1); len(got) != len(mem.nodes) {
				t.Errorf("the finished run reads %d nodes after the Close, want %d", len(got), len(mem.nodes))
			}
		})
	}
}

// TestReadsOnOneConnection: every read of the API holds one connection at
// a time. A read that queried again while its rows were open (Children did,
// for the run node's iterations) needs a second connection, and waits
// forever for it when the pool allows one (as Close's does): here it ends
// with its context's deadline instead.
func TestReadsOnOneConnection(t *testing.T) {
	s, _ := mustCreate(t)
	run, mem := record(t, s, 1, 3, RecordOptions{}, nil)
	s.db.SetMaxOpenConns(1)
	deep := int64(0)
	for id := range mem.nodes {
		deep = max(deep, id)
	}
	for _, c := range []struct {
		name string
		read func(ctx context.Context) error
	}{
		{"Children of the run node", func(ctx context.Context) error {
			_, err := s.Children(ctx, run, 0, BySize, 0, 0)
			return err
		}},
		{"Children", func(ctx context.Context) error { _, err := s.Children(ctx, run, 1, BySearch, 0, 0); return err }},
		{"ChildCount", func(ctx context.Context) error { _, err := s.ChildCount(ctx, run, 0); return err }},
		{"Path", func(ctx context.Context) error { _, err := s.Path(ctx, run, deep); return err }},
		{"PathSAN", func(ctx context.Context) error { _, err := s.PathSAN(ctx, run, deep); return err }},
		{"Position", func(ctx context.Context) error { _, err := s.Position(ctx, run, deep); return err }},
		{"Subtree", func(ctx context.Context) error {
			return s.Subtree(ctx, run, 0, -1, func(Node) error { return nil })
		}},
		{"Hotspots", func(ctx context.Context) error { _, err := s.Hotspots(ctx, run, HotspotByGrowth, 10); return err }},
		{"Stats", func(ctx context.Context) error { _, err := s.Stats(ctx, run); return err }},
		{"Runs", func(ctx context.Context) error { _, err := s.Runs(ctx); return err }},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		if err := c.read(ctx); err != nil {
			t.Errorf("%s with one connection: %v", c.name, err)
		}
		cancel()
	}
}

// TestRowsNeedingAQueryOnOneConnection: a row that takes a second query to
// read (a searched count the file stores saturated, counted from the
// child rows; a schema-1 placeholder size, cut to the rows the run has)
// is read with the first query's rows closed. Read while they were open,
// the second query needed a second connection: with one allowed (as in
// Close) the saturated count waited until the context's deadline and the
// placeholder, which had no context, for ever.
func TestRowsNeedingAQueryOnOneConnection(t *testing.T) {
	for _, tc := range []struct {
		name string
		path func(t *testing.T) string // run 1's last iteration root is the row
		read func(Node) bool           // whether the row reads as changed
	}{
		{"saturated searched count", func(t *testing.T) string {
			p, _, _ := damageFile(t, "UPDATE node_rows SET counts = counts | (255 << 8) "+
				"WHERE run_id = 1 AND id = (SELECT max(id) FROM node_rows WHERE run_id = 1 AND id = up)")
			return p
		}, func(n Node) bool { return n.SearchedAtLeast }},
		{"schema-1 placeholder", func(t *testing.T) string {
			// As a recorder of schema 1 left an open node: incomplete,
			// its size to the end of the ids.
			p := copyFixtureV1(t)
			alterFile(t, p, "UPDATE node_rows SET size = 4294967296 - (k & 4294967295), info = info | (1 << 35) "+
				"WHERE k = (SELECT max(k) FROM node_rows WHERE k >> 32 = 1 AND k - up = 1 << 32)")
			return p
		}, func(n Node) bool { return n.Open }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := OpenReadOnly(tc.path(t))
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			const run = 1
			roots, err := s.Children(context.Background(), run, 0, BySearch, 0, 0)
			if err != nil || len(roots) == 0 {
				t.Fatalf("iteration roots: %v (%d)", err, len(roots))
			}
			last := roots[len(roots)-1]
			if !tc.read(last) {
				t.Fatalf("node %d does not read as changed: %+v", last.ID, last)
			}
			s.db.SetMaxOpenConns(1)
			for _, r := range []struct {
				name string
				read func(ctx context.Context) error
			}{
				{"Children", func(ctx context.Context) error {
					kids, err := s.Children(ctx, run, 0, BySearch, 0, 0)
					if err == nil && len(kids) == 0 {
						err = fmt.Errorf("no children")
					}
					return err
				}},
				{"Subtree", func(ctx context.Context) error {
					return s.Subtree(ctx, run, 0, -1, func(Node) error { return nil })
				}},
				{"Subtree to depth 1", func(ctx context.Context) error {
					return s.Subtree(ctx, run, 0, 1, func(Node) error { return nil })
				}},
				{"Path", func(ctx context.Context) error {
					path, err := s.Path(ctx, run, last.ID+1)
					if err == nil && (len(path) != 3 || path[1].ID != last.ID || path[1].SubtreeSize != last.SubtreeSize || path[1].Searched != last.Searched) {
						err = fmt.Errorf("path %v, want the run node, %v and its first child", path, last)
					}
					return err
				}},
			} {
				done := make(chan error, 1)
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				go func() { done <- r.read(ctx) }()
				select {
				case err := <-done:
					if err != nil {
						t.Errorf("%s with one connection: %v", r.name, err)
					}
				case <-time.After(20 * time.Second):
					t.Errorf("%s with one connection: still waiting after 20 s, past its context's deadline", r.name)
				}
				cancel()
			}
		})
	}
}

// TestRunList: a long list of runs keeps its first and last and says how
// many it left out (600 runs made a 6.8 KB message, cut at the newest).
func TestRunList(t *testing.T) {
	runs := func(n int) []Run {
		var rs []Run
		for i := 1; i <= n; i++ {
			rs = append(rs, Run{ID: int64(i), Variant: "see"})
		}
		return rs
	}
	for _, tc := range []struct {
		n    int
		want string
	}{
		{0, "none"},
		{2, "1 see, 2 see"},
		{9, "1 see, 2 see, 3 see, 4 see, 5 see, 6 see, 7 see, 8 see, 9 see"},
		{600, "1 see, 2 see, 3 see, ... 592 more, 596 see, 597 see, 598 see, 599 see, 600 see"},
	} {
		if got := RunList(runs(tc.n)); got != tc.want {
			t.Errorf("%d runs: %q, want %q", tc.n, got, tc.want)
		}
	}
}

// TestEPDIDRecorded: a run's EPD id reads back as recorded, through Runs
// and the runs table's epd_id; a run without one has NULL there, not "".
func TestEPDIDRecorded(t *testing.T) {
	s, _ := mustCreate(t)
	ids := map[int64]string{}
	for _, id := range []string{"WAC.002", ""} {
		rec, err := s.NewRecorder(context.Background(), RunInfo{FEN: tacticalFEN, EPDID: id, Variant: "synthetic"}, RecordOptions{})
		if err != nil {
			t.Fatal(err)
		}
		newSynth(rec, 1, engine.MustParseFEN(tacticalFEN)).run(1)
		if err := rec.Finish(Result{}); err != nil {
			t.Fatal(err)
		}
		ids[rec.RunID()] = id
	}
	runs, err := s.Runs(context.Background())
	if err != nil || len(runs) != len(ids) {
		t.Fatalf("%d runs, %v; want %d", len(runs), err, len(ids))
	}
	for _, r := range runs {
		var stored sql.NullString
		if err := s.db.QueryRow("SELECT epd_id FROM runs WHERE id = ?", r.ID).Scan(&stored); err != nil {
			t.Fatal(err)
		}
		if want := ids[r.ID]; r.EPDID != want || stored.Valid != (want != "") || stored.String != want {
			t.Errorf("run %d: EPDID %q, epd_id %v; want %q (NULL when empty)", r.ID, r.EPDID, stored, want)
		}
	}
}

// TestCloseBesideReader: a recorder closing while another process reads
// the file. One in a read transaction keeps the checkpoint from moving the
// WAL in: Close said nothing, and the runs stayed in t.trace-wal, which a
// copy of t.trace alone loses (the README said the last writer moves the
// WAL in). Close now says so, after one closeWait, and the next writer's
// Close moves it in. A reader merely open leaves the WAL empty: no error,
// and the .trace alone holds every run.
func TestCloseBesideReader(t *testing.T) {
	defer func(w time.Duration) { closeWait = w }(closeWait)
	closeWait = 200 * time.Millisecond
	ctx := context.Background()
	for _, c := range []struct {
		name string
		open func(path string) (*Store, error)
		kept bool // Close reports the WAL kept
	}{
		{"in a read transaction", func(path string) (*Store, error) { return OpenSnapshot(ctx, path) }, true},
		{"open, reading nothing", OpenReadOnly, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, path := mustCreate(t)
			id, _ := record(t, s, 1, 2, RecordOptions{}, nil)
			reader, err := c.open(path) // in WAL mode, as the file is while s has it
			if err != nil {
				t.Fatal(err)
			}
			defer reader.Close()
			if _, err := reader.Run(ctx, id); err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			err = s.Close()
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("Close took %v beside a reader, want at most about closeWait (%v)", d, closeWait)
			}
			var kept *WALKeptError
			if !c.kept {
				if err != nil {
					t.Fatalf("Close = %v, want nil", err)
				}
			} else if !errors.As(err, &kept) || kept.Path != path || !strings.Contains(err.Error(), "t.trace-wal") {
				t.Fatalf("Close = %v, want a WALKeptError naming t.trace-wal", err)
			}
			wal, err := os.Stat(path + "-wal")
			if c.kept && err != nil {
				t.Fatalf("the WAL the error names: %v", err)
			}
			if !c.kept && err == nil && wal.Size() > 0 {
				t.Fatalf("t.trace-wal holds %d bytes after a Close that said nothing", wal.Size())
			}
			reader.Close()
			if c.kept {
				// The next writer's Close moves the WAL in.
				w, err := Open(path)
				if err != nil {
					t.Fatal(err)
				}
				if err := w.Close(); err != nil {
					t.Fatalf("Close with no reader = %v", err)
				}
			}
			// The .trace alone, copied, holds the run.
			r, err := OpenReadOnly(copyTrace(t, path, "copy.trace"))
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if _, err := r.Run(ctx, id); err != nil {
				t.Errorf("the copied .trace: %v", err)
			}
		})
	}
}
