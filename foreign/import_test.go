package foreign

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/horizonqs/horizon/check"
	"github.com/horizonqs/horizon/emit"
	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/export"
	"github.com/horizonqs/horizon/trace"
	"github.com/horizonqs/horizon/trace/tracetest"
	"github.com/horizonqs/horizon/viewer"
)

const kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

// mustCreate makes an empty trace file (tracetest.CreateTrace) and returns
// its store.
func mustCreate(tb testing.TB) *trace.Store {
	tb.Helper()
	st, _ := tracetest.CreateTrace(tb)
	return st
}

// importRun imports a stream of one search into a new trace and returns
// the trace, the run as a reader sees it and as Import reported it; the
// test stops unless the stream held exactly one run.
func importRun(t *testing.T, stream string) (*trace.Store, trace.Run, RunResult) {
	t.Helper()
	st := mustCreate(t)
	runs, err := Import(context.Background(), st, strings.NewReader(stream), Options{})
	if len(runs) != 1 {
		t.Fatalf("runs %+v (%v), want one", runs, err)
	}
	run, err := st.Run(context.Background(), runs[0].RunID)
	if err != nil {
		t.Fatal(err)
	}
	return st, run, runs[0]
}

// TestEndBestMove: the end record's best move is the run's when it is
// legal in the searched position; UCI's "0000" is no move; an illegal one
// is a warning naming the record, and the run's best move is its tree's.
// best=a1a8 in the start position was dropped without a word.
func TestEndBestMove(t *testing.T) {
	const search = "HZT 1\nposition startpos\nE - 1 -50 50 i=1\nE e2e4 0 -50 50\nL -10\nE d2d4 0 -50 50\nL -20\nL 20\n"
	for _, tc := range []struct {
		end, best, warning string
	}{
		{"end best=e2e4\n", "e2e4", ""}, // the engine's choice over its tree's
		{"end\n", "d2d4", ""},
		{"end best=0000\n", "d2d4", ""},
		{"end best=a1a8\n", "d2d4", "the end record at byte 90 (line 9) names best move a1a8, no legal move of the searched position"},
	} {
		_, run, r := importRun(t, search+tc.end)
		if got := run.BestMove; got != tc.best || !strings.Contains(r.Warning, tc.warning) || (tc.warning == "") != (r.Warning == "") {
			t.Errorf("%q: best %s, warning %q; want %s, %q", tc.end, got, r.Warning, tc.best, tc.warning)
		}
	}
}

// emitter turns Horizon's own search into a protocol stream, as an
// instrumented engine would write it. A bare emitter writes only what the
// protocol requires (move, depth, window, score), as a minimal
// instrumentation does, and leaves the rest for Horizon to derive.
type emitter struct {
	w    *emit.Writer
	bare bool
}

func (e emitter) Enter(n engine.EnterInfo) {
	switch {
	case n.Kind == engine.KindRun:
	case n.Kind == engine.KindRoot:
		e.w.Root(n.Depth, int(n.Alpha), int(n.Beta), n.Iteration)
	case e.bare:
		e.w.Enter(n.Move.UCI(), n.Depth, int(n.Alpha), int(n.Beta))
	default:
		e.w.EnterWith(n.Move.UCI(), n.Depth, int(n.Alpha), int(n.Beta), n.Kind.String(), n.QSPly, n.QSLevel)
	}
}
func (e emitter) StandPat(s engine.StandPatInfo) { e.w.StandPat(int(s.Eval)) }
func (e emitter) Move(m engine.MoveInfo) {
	if !e.bare {
		e.w.Move(m.Move.UCI(), m.Index)
	}
}
func (e emitter) Extension(x engine.ExtensionInfo) { e.w.Extension(x.Plies) }
func (e emitter) Leave(l engine.LeaveInfo) {
	switch {
	case l.ID == 0:
		return
	case e.bare:
		e.w.Leave(int(l.Score))
		return
	}
	e.w.LeaveWith(int(l.Score), emit.LeaveInfo{Bound: l.Bound.String(), Cause: l.Cause.String(), Best: bestText(l.Best),
		Counts: true, Generated: l.Generated, Searched: l.Searched, CutIndex: l.CutIndex})
}

func bestText(m engine.Move) string {
	if m == engine.NoMove {
		return "-"
	}
	return m.UCI()
}

// horizonStream searches fen with Horizon's engine and returns the stream
// an emitter writes for it, and the search's node count (positions: the
// run node Horizon adds is not one).
func horizonStream(tb testing.TB, fen, variant string, depth int) ([]byte, int64) {
	tb.Helper()
	stream, res := searchStream(tb, fen, variant, depth, false)
	return stream, res.Stats.Nodes
}

// searchStream searches fen with Horizon's engine and returns the stream
// a full or a bare emitter writes for it, and the search's result.
func searchStream(tb testing.TB, fen, variant string, depth int, bare bool) ([]byte, engine.Result) {
	tb.Helper()
	var buf bytes.Buffer
	w := emit.New(&buf, "Horizon (via the protocol)", false)
	w.Position("fen " + fen)
	w.Limits("depth " + string(rune('0'+depth)))
	o, err := engine.VariantOptions(variant)
	if err != nil {
		tb.Fatal(err)
	}
	pos, err := engine.ParseFEN(fen)
	if err != nil {
		tb.Fatal(err)
	}
	res := engine.NewSearcher(o).Search(context.Background(), pos, engine.Limits{Depth: depth}, emitter{w: w, bare: bare})
	w.End(res.BestMove.UCI(), res.Stats.Nodes)
	if err := w.Err(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes(), res
}

// TestHorizonRoundTrip records Horizon's search once directly and once
// through the protocol: the trees must be the same node for node.
func TestHorizonRoundTrip(t *testing.T) {
	for _, variant := range []string{"captures", "see", "threshold"} {
		t.Run(variant, func(t *testing.T) {
			stream, nodes := horizonStream(t, kiwipete, variant, 3)
			st := mustCreate(t)
			runs, err := Import(context.Background(), st, bytes.NewReader(stream), Options{Version: "test"})
			if err != nil {
				t.Fatal(err)
			}
			if len(runs) != 1 {
				t.Fatalf("%d runs, want 1", len(runs))
			}
			r := runs[0]
			if r.Status != trace.StatusComplete || r.Err != nil {
				t.Fatalf("status %s, err %v", r.Status, r.Err)
			}
			if r.Nodes != nodes || r.EngineNodes != nodes {
				t.Errorf("nodes %d (engine says %d), want %d", r.Nodes, r.EngineNodes, nodes)
			}
			run, err := st.Run(context.Background(), r.RunID)
			if err != nil {
				t.Fatal(err)
			}
			if run.Engine != "Horizon (via the protocol)" || run.Nodes != nodes || run.FailHard {
				t.Errorf("run: engine %q, nodes %d, fail hard %v", run.Engine, run.Nodes, run.FailHard)
			}

			// The same search recorded directly.
			direct := mustCreate(t)
			o, _ := engine.VariantOptions(variant)
			pos, _ := engine.ParseFEN(kiwipete)
			rec, err := direct.NewRecorder(context.Background(), trace.RunInfo{FEN: kiwipete, Variant: variant}, trace.RecordOptions{})
			if err != nil {
				t.Fatal(err)
			}
			res := engine.NewSearcher(o).Search(context.Background(), pos, engine.Limits{Depth: 3}, rec)
			if err := rec.FinishSearch(res); err != nil {
				t.Fatal(err)
			}
			var want, got []trace.Node
			collect := func(s *trace.Store, run int64, out *[]trace.Node) {
				if err := s.Subtree(context.Background(), run, 0, -1, func(n trace.Node) error {
					n.RunID = 0
					*out = append(*out, n)
					return nil
				}); err != nil {
					t.Fatal(err)
				}
			}
			collect(direct, rec.RunID(), &want)
			collect(st, r.RunID, &got)
			if len(got) != len(want) {
				t.Fatalf("%d rows through the protocol, %d direct", len(got), len(want))
			}
			for i := 1; i < len(want); i++ { // the run node differs (depth, counts)
				if got[i] != want[i] {
					t.Fatalf("node %d differs:\n got %+v\nwant %+v", i, got[i], want[i])
				}
			}
		})
	}
}

// TestDerived: what the engine leaves out, Horizon derives.
func TestDerived(t *testing.T) {
	stream := `HZT 1
engine Tiny
position startpos
E - 2 -100 100
E e2e4 1 -100 100
E e7e5 0 -100 100
S 30
L 30
L -30
E 0000 0 -100 -99
L 250
L 120
end best=e2e4 nodes=4
`
	st := mustCreate(t)
	runs, err := Import(context.Background(), st, strings.NewReader(stream), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var nodes []trace.Node
	st.Subtree(context.Background(), runs[0].RunID, 0, -1, func(n trace.Node) error { nodes = append(nodes, n); return nil })
	if len(nodes) != 5 {
		t.Fatalf("%d nodes, want 5", len(nodes))
	}
	tests := []struct {
		id    int
		kind  engine.NodeKind
		bound engine.Bound
		cause engine.Cause
		best  string
	}{
		{1, engine.KindRoot, engine.BoundLower, engine.CauseNone, "0000"},
		{2, engine.KindPV, engine.BoundExact, engine.CauseNone, "e7e5"},
		{3, engine.KindQS, engine.BoundExact, engine.CauseNone, "0000"},
		{4, engine.KindQS, engine.BoundLower, engine.CauseNone, "0000"},
	}
	for _, tc := range tests {
		n := nodes[tc.id]
		if n.Kind != tc.kind || n.Bound != tc.bound || n.Cause != tc.cause || n.Best.UCI() != tc.best {
			t.Errorf("node %d: kind %s bound %s cause %s best %s, want %s %s %s %s", tc.id, n.Kind, n.Bound, n.Cause,
				n.Best.UCI(), tc.kind, tc.bound, tc.cause, tc.best)
		}
	}
	if nodes[4].Move != engine.NullMove || nodes[3].StandPat != 30 || !nodes[3].HasStandPat {
		t.Errorf("null move node %+v, QS node %+v", nodes[4], nodes[3])
	}
	if p, err := st.PathSAN(context.Background(), runs[0].RunID, 4); err != nil || strings.Join(p, " ") != "--" {
		t.Errorf("path to the null move: %v, %v", p, err)
	}
}

// TestCutIndexFromM: what a node's M records may legitimately be followed
// by (no child for a pruned move, a null move, a re-search of the same
// move), and the cut index read from the last.
func TestCutIndexFromM(t *testing.T) {
	stream := `HZT 1
position startpos
E - 2 -50 50
M a2a3 0
E 0000 0 -50 -49
L -10
M e2e4 1
E e2e4 1 -50 -49
L -60
E e2e4 1 -50 50
L -60
L 60
end best=e2e4
`
	st := mustCreate(t)
	runs, err := Import(context.Background(), st, strings.NewReader(stream), Options{})
	if err != nil {
		t.Fatal(err)
	}
	root, err := st.Node(context.Background(), runs[0].RunID, 1)
	if err != nil {
		t.Fatal(err)
	}
	if root.Cause != engine.CauseBeta || root.CutIndex != 1 || root.Best.UCI() != "e2e4" {
		t.Errorf("root: cause %s, cut index %d, best %s; want beta, 1, e2e4", root.Cause, root.CutIndex, root.Best.UCI())
	}
}

// TestStreamErrors: every fault is a StreamError that says where, and the
// run keeps what came before it, whole.
func TestStreamErrors(t *testing.T) {
	head := "HZT 1\nposition startpos\nE - 1 -50 50\n"
	tests := []struct {
		name, stream string
		want         string // in the error
		status       trace.Status
		rows         int64 // rows kept, run node included
	}{
		{"illegal move", head + "E e2e5 0 -50 50\n", "byte 37 (line 4), node 1 (path (root)): illegal move e2e5", trace.StatusFailed, 2},
		{"malformed move", head + "E e2 0 -50 50\n", "malformed move \"e2\"", trace.StatusFailed, 2},
		{"malformed number", head + "E e2e4 x -50 50\n", "depth, alpha and beta must be integers", trace.StatusFailed, 2},
		// Its negation, the score seen from the parent, overflowed: a
		// fail high read as no cutoff.
		{"score without a negation", head + "E e2e4 0 -50 50\nL -2147483648\n", `L record: score "-2147483648" is not an integer from -2147483647 to 2147483647`, trace.StatusFailed, 3},
		{"window without a negation", head + "E e2e4 0 -2147483648 50\n", "depth, alpha and beta must be integers from -2147483647", trace.StatusFailed, 2},
		// With no node of the stream open, the error named "node 0 (path
		// (root))", Horizon's run node, and not the L that closed the last.
		{"too many leaves", head + "L 0\nL 0\n", "(line 5): L record with no node open (more leaves than enters): the last node open, node 1, was left at line 4", trace.StatusFailed, 2},
		// An engine that writes A as it notices its stop, and then an L at
		// each return, leaves every node twice: "more leaves than enters".
		{"leaves after an abort", head + "E e2e4 0 -50 50\nA\nL 0\n",
			"(line 6): L record with no node open (more leaves than enters): the A record at line 5 closed every node open then (write A instead of the L records", trace.StatusFailed, 3},
		{"leaves after an abort and a new root", head + "A\nE - 2 -50 50\nL 0\nL 0\n", "(line 7): L record with no node open (more leaves than enters): the last node open, node 2, was left at line 6", trace.StatusFailed, 3},
		{"move record after its node's enter", head + "E e2e4 0 -50 50\nM e2e4 0\n",
			"(line 5), node 2 (path e2e4): M record: illegal move e2e4 in rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1: no piece on e2 (e2e4 is the move that entered node 2: a move's M record comes before the E record of the node it leads to)", trace.StatusFailed, 3},
		// The cut index is read from the last M record: a child of another
		// move made it name the wrong move without a word.
		{"child of another move than its M", head + "M e2e4 0\nE d2d4 0 -50 50\n",
			"byte 46 (line 5), node 1 (path (root)): E record enters d2d4, but the M record before it (line 4) named e2e4", trace.StatusFailed, 2},
		{"child of another move than its M, deeper", head + "M e2e4 0\nE e2e4 1 -50 50\nM e7e5 0\nE e7e6 0 -50 50\n",
			"(line 7), node 2 (path e2e4): E record enters e7e6, but the M record before it (line 6) named e7e5", trace.StatusFailed, 3},
		{"child without an M after one with", head + "M e2e4 0\nE e2e4 0 -50 50\nL 0\nE d2d4 0 -50 50\n",
			"(line 7), node 1 (path (root)): E record enters d2d4 with no M record of its own: node 1's last M (line 4) named e2e4, entered at line 5", trace.StatusFailed, 3},
		{"move after the search", head + "L 0\nM e2e4 0\n", "(line 5): M record with no node open: the last node open, node 1, was left at line 4", trace.StatusFailed, 2},
		{"root out of range", "HZT 1\nposition startpos\nE - 200 -50 50\n", "(line 3): depth 200 out of range", trace.StatusFailed, 1},
		// Illegal moves an instrumentation writes by mistake say what it
		// should have written.
		{"castling as king takes rook", "HZT 1\nposition fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\nE - 1 0 1\nE e1h1 0 -1 0\n",
			"node 1 (path (root)): illegal move e1h1 in r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1: castling is written as the king's move, e1g1, not as the king taking its rook", trace.StatusFailed, 2},
		{"castling as king takes rook, pseudo", "HZT 1\nmoves pseudo\nposition fen r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1\nE - 1 0 1\nE e8a8 0 -1 0\n",
			"move e8a8 cannot be played in r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1 (not even ignoring checks): castling is written as the king's move, e8c8", trace.StatusFailed, 2},
		{"promotion without its piece", "HZT 1\nposition fen 8/P6k/8/8/8/8/8/K7 w - - 0 1\nE - 1 0 1\nE a7a8 0 -1 0\n",
			"illegal move a7a8 in 8/P6k/8/8/8/8/8/K7 w - - 0 1: a promotion names its piece: a7a8q (or r, b, n)", trace.StatusFailed, 2},
		{"piece of the side not to move", head + "E e7e5 0 -50 50\n", "illegal move e7e5 in rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1: the piece on e7 is not the side to move's", trace.StatusFailed, 2},
		{"end inside node", head + "E e2e4 0 -50 50\nend\n", "node 2 (path e2e4): end record with 2 nodes open", trace.StatusFailed, 3},
		{"truncated", head + "E e2e4 0 -50 50\nL 1", "ends inside a record", trace.StatusInterrupted, 3},
		{"cut short", head + "E e2e4 0 -50 50\nL 1\n", "ends with 1 node open", trace.StatusInterrupted, 3},
		{"root with move", head + "L 0\nE e2e4 1 0 1\n", "a root has no move", trace.StatusFailed, 2},
		{"unknown record", head + "Q 1\n", "unknown record", trace.StatusFailed, 2},
		{"fields separated by tabs", head + "E\te2e4\t0\t-50\t50\n", `(line 4), node 1 (path (root)): unknown record "E\te2e4\t0\t-50\t50": fields are separated by single spaces, not tabs`, trace.StatusFailed, 2},
		// A time past a time.Duration's range was stored wrapped (99999999999999
		// read 7,766,279,631,451 ms), one past int64's as no time at all.
		{"time out of range", head + "L 0\nend time=99999999999999\n", `(line 5): end record: time "99999999999999" is out of range (milliseconds, at most 9223372036854)`, trace.StatusFailed, 2},
		{"time at int64's end", head + "L 0\nend time=9223372036854775807\n", `end record: time "9223372036854775807" is out of range`, trace.StatusFailed, 2},
		{"time past int64", head + "L 0\nend time=9223372036854775808\n", `end record: time "9223372036854775808" is not a number of milliseconds`, trace.StatusFailed, 2},
		// A trace holds QS plies 0 to 126: a greater one was stored as 126,
		// and q=2147483647 made the run's summary grow a slice that long
		// (the import was killed for memory).
		{"QS ply past a trace's", head + "E e2e4 0 -50 50 q=127\n", `(line 4), node 1 (path (root)): E record: QS ply "127": want 0 to 126`, trace.StatusFailed, 2},
		{"QS ply far past", head + "E e2e4 0 -50 50 q=1000000\n", `E record: QS ply "1000000": want 0 to 126`, trace.StatusFailed, 2},
		{"derived QS ply past a trace's", head + "E e2e4 0 -50 50 q=126\nE e7e5 0 -50 50\n",
			"(line 5), node 2 (path e2e4): QS ply 127: deeper than a trace holds (126)", trace.StatusFailed, 3},
		// The value is quoted as written, without the space before it.
		{"S not a number", head + "S x\n", `S record: eval "x" is not an integer`, trace.StatusFailed, 2},
		{"X out of range", head + "X 16\n", `X record: plies "16": want -15 to 15`, trace.StatusFailed, 2},
		{"no position", "HZT 1\nE - 1 0 1\n", "before any position", "", 0},
		{"bad header", "hello\n", "not a Horizon trace stream", "", 0},
		// Two streams joined: it read "unknown record".
		{"second header", "HZT 1\nposition startpos\nE - 1 -50 50\nL 0\nend\nHZT 1\n", `(line 6): a second header "HZT 1": a stream has one; import each stream on its own`, trace.StatusComplete, 2},
		// A trace file given for its stream read as a stream whose first
		// record is "SQLite format 3\x00\x10...".
		{"a trace file", "SQLite format 3\x00\x10\x00\x02\x02\x00@  \x00\n", "(line 1): a SQLite file (a trace file, which every other command reads), not a trace stream", "", 0},
		// A field named in full read "malformed option (want key=value)".
		{"E field unknown", head + "E e2e4 0 -50 50 kind=qs\n", `E record: unknown field "kind=qs" (want k=, q=, l=, i=, c=, n=, e= or u=)`, trace.StatusFailed, 2},
		{"E field letter unknown", head + "E e2e4 0 -50 50 z=1\n", `E record: unknown field "z=1" (want k=, q=, l=, i=, c=, n=, e= or u=)`, trace.StatusFailed, 2},
		{"E field without value", head + "E e2e4 0 -50 50 k=\n", `E record: malformed field "k=" (want k=, q=, l=, i=, c=, n=, e= or u=, each with a value)`, trace.StatusFailed, 2},
		{"L field unknown", head + "E e2e4 0 -50 50\nL 5 bound=exact\n", `L record: unknown field "bound=exact" (want b=, c=, m=, g=, s= or x=)`, trace.StatusFailed, 3},
		{"L field malformed", head + "E e2e4 0 -50 50\nL 5 exact\n", `L record: malformed field "exact" (want b=, c=, m=, g=, s= or x=, each with a value)`, trace.StatusFailed, 3},
		{"newer", "HZT 9\n", "protocol version 9", "", 0},
		{"pseudo move in legal mode", "HZT 1\nposition fen 4k3/8/8/8/8/8/3r4/4K3 w - - 0 1\nE - 1 0 1\nE e1d1 0 -1 0\n",
			"illegal move e1d1 in 4k3/8/8/8/8/8/3r4/4K3 w - - 0 1: it leaves its own king in check (a stream of an engine that searches pseudo-legal moves says 'moves pseudo')", trace.StatusFailed, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := mustCreate(t)
			runs, err := Import(context.Background(), st, strings.NewReader(tc.stream), Options{})
			var se *StreamError
			if !errors.As(err, &se) || !errors.Is(err, ErrStream) {
				t.Fatalf("error %v, want a StreamError", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q, want it to contain %q", err, tc.want)
			}
			if tc.status == "" {
				if len(runs) != 0 {
					t.Errorf("%d runs, want none", len(runs))
				}
				return
			}
			if len(runs) != 1 || runs[0].Status != tc.status {
				t.Fatalf("runs %+v, want one %s", runs, tc.status)
			}
			run, _ := st.Run(context.Background(), runs[0].RunID)
			if run.Rows != tc.rows {
				t.Errorf("%d rows kept, want %d", run.Rows, tc.rows)
			}
			// A stream cut short stopped the run: it says so; a failed one
			// says nothing (its error does).
			if want := map[trace.Status]string{trace.StatusInterrupted: trace.StopStream}[tc.status]; run.StopCause != want {
				t.Errorf("stop cause %q, want %q", run.StopCause, want)
			}
			// The tree is whole: sizes tile.
			var n int64
			st.Subtree(context.Background(), run.ID, 0, -1, func(x trace.Node) error {
				n++
				if x.ID == 0 && x.SubtreeSize != run.Nodes+1 {
					t.Errorf("run node subtree %d, nodes %d", x.SubtreeSize, run.Nodes)
				}
				return nil
			})
			if n != run.Rows {
				t.Errorf("%d rows readable, run says %d", n, run.Rows)
			}
		})
	}
}

// TestPseudoLegal: a king-capture engine's move into check replays when
// the stream says so.
func TestPseudoLegal(t *testing.T) {
	stream := "HZT 1\nmoves pseudo\nposition fen 4k3/8/8/8/8/8/3r4/4K3 w - - 0 1\nE - 1 0 1\nE e1d1 0 -1 0\nL 0\nE e1f1 0 -1 0\nL 5\nL -5\nend\n"
	st := mustCreate(t)
	runs, err := Import(context.Background(), st, strings.NewReader(stream), Options{})
	if err != nil || runs[0].Status != trace.StatusComplete || runs[0].Nodes != 3 {
		t.Fatalf("runs %+v, err %v", runs, err)
	}
	bad := strings.Replace(stream, "e1f1", "e1c3", 1)
	if _, err := Import(context.Background(), mustCreate(t), strings.NewReader(bad), Options{}); err == nil ||
		!strings.Contains(err.Error(), "cannot be played") {
		t.Errorf("a king jumping two squares: %v", err)
	}
	// The king's capture is no node: the engine scores the node that
	// could make it. It read "cannot be played (not even ignoring
	// checks)", as if the rook could not reach d1.
	capture := strings.Replace(stream, "E e1d1 0 -1 0\nL 0\n", "E e1d1 1 -1 0\nE d2d1 0 0 1\nL 30000\nL -30000\n", 1)
	if _, err := Import(context.Background(), mustCreate(t), strings.NewReader(capture), Options{}); err == nil ||
		!strings.Contains(err.Error(), "d2d1 captures the king: a king-capture engine's refutation is the score of the node that could capture, not a node") {
		t.Errorf("a king's capture: %v", err)
	}
}

// TestSeveralSearches: one run per position record; an abort marks the
// run truncated.
func TestSeveralSearches(t *testing.T) {
	stream := "HZT 1\nengine E\nposition startpos\nE - 1 0 1\nE e2e4 0 -1 0\nA\nend nodes=2\nposition startpos moves e2e4\nE - 1 0 1\nL 3\n"
	st := mustCreate(t)
	runs, err := Import(context.Background(), st, strings.NewReader(stream), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 || runs[0].Status != trace.StatusTruncated || runs[1].Status != trace.StatusComplete {
		t.Fatalf("runs %+v", runs)
	}
	if runs[0].EngineNodes != 2 || runs[0].Nodes != 2 || !strings.Contains(runs[1].FEN, " b KQkq") {
		t.Errorf("runs %+v", runs)
	}
}

// TestLimitStopStatus: a search that ends by itself is truncated when its
// own time or node limit stopped it before its depth, complete otherwise
// (trace.StatusTruncated), whether or not the engine wrote an abort record;
// the run's stop cause names the limit when the search had one kind. An
// abort record is that limit's too (Ethereal writes one when its time runs
// out, and its runs said "abort" where other engines' said "time"); with
// no such limit, or both, it says abort. A node limit the search did not
// reach (its stream's 2 nodes and the engine's count under it) stopped
// nothing: Ethereal 12, which ignores go nodes and stops after depth 1,
// read "truncated (stop cause: nodes)" at 6 nodes of 5000.
func TestLimitStopStatus(t *testing.T) {
	for _, tc := range []struct {
		limits     string
		want       trace.Status
		cause      string
		abortCause string // the stop cause of the search aborted (always truncated)
	}{
		{"", trace.StatusComplete, "", trace.StopAbort},
		{"go depth 1", trace.StatusComplete, "", trace.StopAbort},
		{"go nodes 2", trace.StatusTruncated, trace.StopNodes, trace.StopNodes},
		{"go nodes 5000", trace.StatusComplete, "", trace.StopAbort}, // 2 nodes: not its limit
		{"go movetime 200", trace.StatusTruncated, trace.StopTime, trace.StopTime},
		{"go wtime 1000 btime 1000", trace.StatusTruncated, trace.StopTime, trace.StopTime},
		{"go depth 1 nodes 2", trace.StatusComplete, "", trace.StopNodes}, // reached its depth
		{"go depth 1 nodes 5000", trace.StatusComplete, "", trace.StopAbort},
		{"go depth 3 movetime 200", trace.StatusTruncated, trace.StopTime, trace.StopTime},
		{"go nodes 2 movetime 200", trace.StatusTruncated, "", trace.StopAbort},               // the stream does not say which
		{"go nodes 5000 movetime 200", trace.StatusTruncated, trace.StopTime, trace.StopTime}, // not the nodes'
		{"go nodes 3 movetime 200", trace.StatusTruncated, "", trace.StopAbort},               // the engine counted 3 (end nodes=3)
	} {
		for _, abort := range []bool{false, true} {
			tail, want, cause := "L 0\nL 0\n", tc.want, tc.cause
			if abort {
				tail, want, cause = "A\n", trace.StatusTruncated, tc.abortCause
			}
			count := "2"
			if strings.Contains(tc.limits, "nodes 3 ") {
				count = "3" // more than the stream holds, as Fairy-Max counts passes
			}
			stream := "HZT 1\nengine E\nposition startpos\nlimits " + tc.limits + "\nE - 1 0 1\nE e2e4 0 -1 0\n" + tail + "end nodes=" + count + "\n"
			st := mustCreate(t)
			runs, err := Import(context.Background(), st, strings.NewReader(stream), Options{})
			if err != nil || len(runs) != 1 {
				t.Fatalf("limits %q: runs %+v, err %v", tc.limits, runs, err)
			}
			run, err := st.Run(context.Background(), runs[0].RunID)
			if runs[0].Status != want || err != nil || run.StopCause != cause {
				t.Errorf("limits %q, abort %v: status %s, stop cause %q (%v); want %s, %q", tc.limits, abort, runs[0].Status, run.StopCause, err, want, cause)
			}
		}
	}
}

// TestStopOnCancelStatus: with StopsOnCancel (horizon trace --engine), a
// search that ends before its depth after the caller's cancel was stopped
// by it (Horizon's UCI stop on Ctrl-C) and is interrupted, with or without
// an abort record; one that reached its depth is complete, and an abort
// with no cancel, or in an imported file, stays the engine's own stop. (A
// cancel of an import ends its read where it comes: TestImportCancelWhileWaiting.)
func TestStopOnCancelStatus(t *testing.T) {
	const head = "HZT 1\nengine E\nlimits go depth %d\nposition startpos\nE - 1 0 1\nE e2e4 0 -1 0\n"
	for _, tc := range []struct {
		name          string
		depth         int // the go command's depth limit
		stopsOnCancel bool
		cancel        bool
		tail          string // the records read after the cancel
		want          trace.Status
		cause         string // the run's stop cause
	}{
		{"abort after the cancel", 30, true, true, "A\nend nodes=2\n", trace.StatusInterrupted, trace.StopCancel},
		{"no abort record, depth not reached", 30, true, true, "L 0\nL 0\nend nodes=2\n", trace.StatusInterrupted, trace.StopCancel},
		{"depth reached", 1, true, true, "L 0\nL 0\nend nodes=2\n", trace.StatusComplete, ""},
		{"no cancel", 30, true, false, "A\nend nodes=2\n", trace.StatusTruncated, trace.StopAbort},
		{"an imported file", 30, false, false, "A\nend nodes=2\n", trace.StatusTruncated, trace.StopAbort},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stream := fmt.Sprintf(head, tc.depth)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			in := &cancelReader{parts: []string{stream, tc.tail}}
			if tc.cancel {
				in.cancel = cancel
			}
			st := mustCreate(t)
			runs, err := Import(ctx, st, in, Options{StopsOnCancel: tc.stopsOnCancel})
			if err != nil || len(runs) != 1 {
				t.Fatalf("runs %+v, err %v", runs, err)
			}
			run, err := st.Run(context.Background(), runs[0].RunID)
			if runs[0].Status != tc.want || err != nil || run.StopCause != tc.cause {
				t.Errorf("status %s, stop cause %q (%v); want %s, %q", runs[0].Status, run.StopCause, err, tc.want, tc.cause)
			}
		})
	}
}

// TestStopOnCancelReadsToTheEnd: with StopsOnCancel, what the engine
// writes after the cancel (its search unwinding after Horizon's stop) is
// read to the stream's end, however long: the importer's periodic check
// of ctx, every 4,096 lines, ended the run there, dropping the rest.
func TestStopOnCancelReadsToTheEnd(t *testing.T) {
	const pairs = 3000 // 6,000 lines after the cancel
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	in := &cancelReader{parts: []string{"HZT 1\nengine E\nlimits go depth 30\nposition startpos\nE - 1 0 1\n",
		strings.Repeat("E e2e4 0 -1 0\nL 0\n", pairs) + "A\nend\n"}, cancel: cancel}
	runs, err := Import(ctx, mustCreate(t), in, Options{StopsOnCancel: true})
	if err != nil || len(runs) != 1 {
		t.Fatalf("runs %+v, err %v", runs, err)
	}
	if r := runs[0]; r.Status != trace.StatusInterrupted || r.Nodes != pairs+1 {
		t.Errorf("%s with %d nodes, want interrupted with %d", r.Status, r.Nodes, pairs+1)
	}
}

// cancelReader reads parts in turn, one a Read, and calls cancel (if set)
// before it gives the second: the stream's reader has consumed the first
// part when the "Ctrl-C" comes.
type cancelReader struct {
	parts  []string
	cancel func()
	i      int
}

func (r *cancelReader) Read(p []byte) (int, error) {
	if r.i >= len(r.parts) {
		return 0, io.EOF
	}
	if r.i == 1 && r.cancel != nil {
		r.cancel()
	}
	n := copy(p, r.parts[r.i])
	r.parts[r.i] = r.parts[r.i][n:]
	if r.parts[r.i] == "" {
		r.i++
	}
	return n, nil
}

// fuzzSeeds are the hand-written streams both fuzz targets start from:
// every record and option, pseudo-legal moves and fail-hard scores, and the
// score scale's records, declared again between searches.
var fuzzSeeds = []string{
	"HZT 1\nposition startpos\nE - 1 0 1\nE e2e4 0 -1 0\nS 3\nM e7e5 0\nX 1\nE e7e5 -1 0 1\nL 2 b=exact c=none m=- g=1 s=0 x=-1\nL 1\nA\nend best=e2e4 nodes=3 time=4\n",
	"HZT 1\nmoves pseudo\nscores hard\nposition fen 4k3/8/8/8/8/8/4r3/4K3 w - - 0 1\nE - 1 0 1\nE e1f1 0 -1 0 k=qs q=0 l=1\nL 0\n",
	"HZT 1\nmoves pseudo\nposition fen 4k3/8/8/8/8/8/3r4/4K3 w - - 0 1\nE - 1 0 1\nE e1d1 0 -1 0\nE d2d1 0 0 1\nL 0\nL 0\n",
	"HZT 2\nmate 32000 31872 plies\ninfinity 32000\nposition startpos\nE - 1 -32000 32000\nL 31998\nend\n" +
		"mate 8000 7745 turns\ninfinity 8000\nposition startpos\nE - 1 -8000 8000\nL -7998\n",
	// Counts above what a trace stores (g= above 255, x= above 254): a
	// warning once per run naming the first such leave record; the
	// second search has one at the cap, which is no warning.
	"HZT 1\nengine Tiny\nposition startpos\nE - 1 -100 100\nE e2e4 0 -100 50\nE e7e5 -1 -50 100\nL -60\nL 60 g=300 x=280\n" +
		"E d2d4 0 -100 50\nL 70 g=256 x=255\nL -60 g=999\nend best=e2e4 nodes=4\n" +
		"position startpos\nE - 1 -100 100\nE e2e4 0 -100 50\nL 60 g=255 x=254\nL -60\nend best=e2e4 nodes=2\n",
	// QS alone under the root (iteration 0): concluded, so scored from
	// iteration 0's roots; then cut short; then a bound only; then
	// iteration 0 concluded and iteration 1 cut short (the score stays
	// iteration 0's).
	"HZT 1\nengine Tiny\nposition startpos\nE - 0 -100 100\nS 10\nE e2e4 -1 -100 100\nS -5\nL -5\nL 10\nend best=e2e4 nodes=2\n" +
		"position startpos\nE - 0 -100 100\nS 10\nE e2e4 -1 -100 100\nA\nend nodes=2\n" +
		"position startpos\nE - 0 -100 0\nS 10\nL 10\nend nodes=1\n" +
		"position startpos\nE - 0 -100 100\nS 10\nE e2e4 -1 -100 100\nS -5\nL -5\nL 10\nE - 1 -100 100\nE e2e4 0 -100 100\nA\nend nodes=4\n",
	// end time=0: a real time the trace stores as none, which the import
	// says; with a QS-only root and clamped counts in the same run.
	"HZT 1\nengine Tiny\nposition startpos\nE - 1 -50 50\nE e2e4 0 -50 50\nL 10\nL -10\nend nodes=2 time=0\n" +
		"position startpos\nE - -1 -50 50\nS 3\nE e2e4 -2 -50 50\nL -20 g=4000\nL 20 x=300 c=beta\nend nodes=2 time=0\n",
	// Records a warning or an error names by its line: a limits record
	// too late for its search, an illegal best move, and an A record
	// followed by the L records it already closed.
	"HZT 1\nposition startpos\nE - 1 -50 50\nL 0\nlimits depth 1\nend best=a1a8\n" +
		"position startpos\nE - 1 -50 50\nE e2e4 0 -50 50\nE e7e5 -1 -50 50\nA\nL 0\nL 0\n",
}

// addSeeds adds to f the stream of Horizon's own search of Kiwipete with
// variant, and fuzzSeeds.
func addSeeds(f *testing.F, variant string) {
	stream, _ := horizonStream(f, kiwipete, variant, 2)
	f.Add(stream)
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Add([]byte(nestedStream)) // nested searches (version 4)
}

// lineRef finds where an error message names another record by its line:
// the A record that closed the nodes, the L record that left the last.
var lineRef = regexp.MustCompile(`(the A record|was left) at line (\d+)`)

// checkStreamError checks the error of reading data, a stream with no read
// errors: none, or a *StreamError, no bug of the importer (its recover's
// "internal error"), on one line, whose byte offset starts the line it
// names.
func checkStreamError(t *testing.T, data []byte, err error) {
	t.Helper()
	if err == nil {
		return
	}
	var se *StreamError
	if !errors.As(err, &se) {
		t.Fatalf("error %v is not a StreamError", err)
	}
	if msg := err.Error(); strings.Contains(msg, "internal error") || strings.Contains(msg, "\n") {
		t.Fatalf("error %q", msg)
	}
	if se.Node == 0 {
		t.Fatalf("%v: names node 0, Horizon's run node, which no record of the stream is", err)
	}
	if se.Line == 0 {
		return
	}
	// A line the message points back to is the record it says it is.
	for _, m := range lineRef.FindAllStringSubmatch(se.Msg, -1) {
		n, _ := strconv.Atoi(m[2])
		rec := map[string]string{"the A record": "A", "was left": "L"}[m[1]]
		lines := bytes.Split(data, []byte("\n"))
		if n < 1 || int64(n) >= se.Line || !bytes.HasPrefix(bytes.TrimLeft(lines[n-1], "\ufeff"), []byte(rec)) {
			t.Fatalf("%v: line %d is no %s record before line %d", err, n, rec, se.Line)
		}
	}
	if se.AtEnd {
		if se.Offset != int64(len(data)) || se.Line != int64(bytes.Count(data, []byte("\n"))) {
			t.Fatalf("%v: the stream has %d bytes, %d lines", err, len(data), bytes.Count(data, []byte("\n")))
		}
		return
	}
	if se.Offset < 0 || se.Offset >= int64(len(data)) || se.Offset > 0 && data[se.Offset-1] != '\n' {
		t.Fatalf("%v: byte %d of %d starts no record", err, se.Offset, len(data))
	}
	if line := int64(bytes.Count(data[:se.Offset], []byte("\n"))) + 1; line != se.Line {
		t.Fatalf("%v: byte %d is on line %d", err, se.Offset, line)
	}
	if m := recordNamed.FindStringSubmatch(se.Msg); m != nil {
		word := m[1] + m[2] + m[3]
		if got := recordWord(data, se.Offset); got != word {
			t.Fatalf("%v: the message is about a %s record, line %d is a %q record", err, word, se.Line, got)
		}
	}
}

// recordNamed finds the record a stream error's message says it is about:
// "L record ...", "end record ...", "\"limits\" record inside a node",
// "mate \"...\": ...".
var recordNamed = regexp.MustCompile(`^(?:([ELSMXA]|end) record|"(\w+)" record|(scores|moves|mate|infinity|position) ")`)

// recordWord is the first word of the record at byte off of data, as the
// importer reads it (a byte-order mark at the stream's start, spaces and a
// carriage return set aside): its type.
func recordWord(data []byte, off int64) string {
	rec, _, _ := bytes.Cut(data[off:], []byte("\n"))
	if off == 0 {
		rec = bytes.TrimPrefix(rec, []byte(engine.BOM))
	}
	if f := fields(bytes.TrimSuffix(rec, []byte("\r"))); len(f) > 0 {
		return string(f[0])
	}
	return ""
}

// nodeNamed finds a node a stream error's message names.
var nodeNamed = regexp.MustCompile(`\bnode (\d+)`)

// checkErrorNode checks the nodes a stream error names against the trace:
// each is a node of the run the fault ended (the last); the innermost node
// open at the faulty record was closed as stopped, and the path the error
// gives is the moves from its root down to it, as the trace reads them.
func checkErrorNode(t *testing.T, st *trace.Store, runs []RunResult, err error) {
	t.Helper()
	var se *StreamError
	if !errors.As(err, &se) {
		return
	}
	// Every node the message names (the node that entered a move, the
	// last node left, a parent) is one of the stream's, in the run.
	for _, m := range nodeNamed.FindAllStringSubmatch(se.Msg, -1) {
		id, _ := strconv.ParseInt(m[1], 10, 64)
		if len(runs) == 0 || id < 1 {
			t.Fatalf("%v: names node %d, no node of the stream", err, id)
		}
		if _, e := st.Node(context.Background(), runs[len(runs)-1].RunID, id); e != nil {
			t.Fatalf("%v: names node %d: %v", err, id, e)
		}
	}
	if se.Node < 0 {
		return
	}
	if len(runs) == 0 {
		t.Fatalf("%v: names node %d, but no run was recorded", err, se.Node)
	}
	ctx := context.Background()
	run := runs[len(runs)-1].RunID
	n, err1 := st.Node(ctx, run, se.Node)
	path, err2 := st.Path(ctx, run, se.Node)
	if e := errors.Join(err1, err2); e != nil {
		t.Fatalf("%v: run %d: the node named: %v", err, run, e)
	}
	if n.Cause != engine.CauseStop {
		t.Fatalf("%v: run %d: node %d was open, but closed with cause %s", err, run, se.Node, n.Cause)
	}
	var moves []string
	for _, p := range path[1:] {
		if p.Move != engine.NoMove {
			moves = append(moves, p.Move.UCI())
		}
	}
	if !slices.Equal(moves, se.Path) {
		t.Fatalf("%v: run %d: the path to node %d reads %q", err, run, se.Node, moves)
	}
}

// FuzzImport: no stream makes the importer panic, and what it keeps is a
// whole tree; an error names the record it is about.
func FuzzImport(f *testing.F) {
	tracetest.KeepCrashOutput(f)
	addSeeds(f, "see")
	st, path := tracetest.CreateTrace(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		runs, err := Import(context.Background(), st, bytes.NewReader(data), Options{})
		checkStreamError(t, data, err)
		checkErrorNode(t, st, runs, err)
		checkWarnings(t, data, runs, err)
		checkReadBack(t, st, path, data, runs)
		for _, r := range runs {
			run, err := st.Run(context.Background(), r.RunID)
			if err != nil {
				t.Fatal(err)
			}
			var rows int64
			var leaf int64 // the last node without children: the deepest path walked
			err = st.Subtree(context.Background(), run.ID, 0, -1, func(n trace.Node) error {
				rows++
				if n.SubtreeSize < 1 || n.End() > run.Nodes+1 {
					t.Fatalf("node %d: subtree [%d, %d) outside the run's %d nodes", n.ID, n.ID, n.End(), run.Nodes)
				}
				if n.SubtreeSize == 1 {
					leaf = n.ID
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if rows != run.Rows || rows != run.Nodes+1 {
				t.Fatalf("run %d: %d rows readable, %d listed, %d nodes", run.ID, rows, run.Rows, run.Nodes)
			}
			// What the importer wrote, the readers read: no trace of its
			// own is damaged.
			ctx := context.Background()
			_, err1 := st.Stats(ctx, run.ID)
			_, err2 := st.Hotspots(ctx, run.ID, trace.HotspotBySize, 5)
			_, err3 := st.Children(ctx, run.ID, 0, trace.BySearch, 0, 10)
			_, err4 := st.Position(ctx, run.ID, leaf)
			if err := errors.Join(err1, err2, err3, err4); err != nil {
				t.Fatalf("run %d: %v", run.ID, err)
			}
		}
	})
}

// streamLeaves returns the L records of data (without their "L"), as the
// importer splits a stream into records.
func streamLeaves(data []byte) [][][]byte {
	var out [][][]byte
	for _, b := range bytes.Split(data, []byte("\n")) {
		b = bytes.TrimSuffix(b, []byte("\r"))
		if len(b) >= 2 && b[0] == 'L' && b[1] == ' ' {
			out = append(out, fields(b[1:]))
		}
	}
	return out
}

// clampedLeave reports whether an L record's fields give a generated
// count or a cut index above what a trace stores.
func clampedLeave(f [][]byte) bool {
	for _, kv := range f[min(len(f), 1):] {
		if len(kv) > 2 && kv[1] == '=' && (kv[0] == 'g' || kv[0] == 'x') {
			if x, ok := atoi(kv[2:]); ok && (kv[0] == 'g' && trace.CountsClamped(x, -1) || kv[0] == 'x' && trace.CountsClamped(0, x)) {
				return true
			}
		}
	}
	return false
}

// clampWarning is what a run's warning says of counts a trace cannot
// store, and clampWhere where it names the first such record.
var (
	clampWarning = "with counts above what a trace stores"
	clampWhere   = regexp.MustCompile(`the first is node (\d+) \(g=-?\d+, x=-?\d+; the leave record at byte (\d+), line (\d+)\)`)
)

// warnedRecord finds where a warning names a record of the stream: an end
// record's best move, a limits record too late for its search.
var warnedRecord = regexp.MustCompile(`the (end|limits) record at (?:byte (\d+) \()?line (\d+)`)

// checkWarnings checks the runs' warnings against the stream: each is one
// line; counts above what a trace stores are said once per run, naming a
// leave record of the stream that gives such a count and a node that reads
// back as a lower bound; a stream imported whole that gives such a count
// warns of it; a record a warning names is one of its kind, at the byte
// and line it says; time=0 is said only of a stream whose end record gives
// it.
func checkWarnings(t *testing.T, data []byte, runs []RunResult, err error) {
	t.Helper()
	warned := false
	for _, r := range runs {
		w := r.Warning
		if strings.Contains(w, "\n") {
			t.Fatalf("run %d: a warning of more than one line: %q", r.RunID, w)
		}
		if n := strings.Count(w, clampWarning); n > 1 {
			t.Fatalf("run %d: counts a trace cannot store said %d times: %q", r.RunID, n, w)
		} else if n == 1 {
			warned = true
			m := clampWhere.FindStringSubmatch(w)
			if m == nil {
				t.Fatalf("run %d: the warning names no record: %q", r.RunID, w)
			}
			off, _ := strconv.ParseInt(m[2], 10, 64)
			line, _ := strconv.ParseInt(m[3], 10, 64)
			if off < 0 || off >= int64(len(data)) || off > 0 && data[off-1] != '\n' ||
				int64(bytes.Count(data[:off], []byte("\n")))+1 != line {
				t.Fatalf("run %d: %q: byte %d does not start line %d", r.RunID, w, off, line)
			}
			rec, _, _ := bytes.Cut(data[off:], []byte("\n"))
			if l := streamLeaves(rec); len(l) != 1 || !clampedLeave(l[0]) {
				t.Fatalf("run %d: %q names record %q, no leave with a count above what a trace stores", r.RunID, w, rec)
			}
		}
		for _, m := range warnedRecord.FindAllStringSubmatch(w, -1) {
			line, _ := strconv.ParseInt(m[3], 10, 64)
			lines := bytes.SplitAfter(data, []byte("\n"))
			off := int64(0)
			if line >= 1 && line <= int64(len(lines)) {
				off = int64(len(bytes.Join(lines[:line-1], nil)))
			}
			if line < 1 || line > int64(len(lines)) || m[2] != "" && m[2] != strconv.FormatInt(off, 10) || recordWord(data, off) != m[1] {
				t.Fatalf("run %d: %q: line %d is no %s record (or starts at no byte %s)", r.RunID, w, line, m[1], m[2])
			}
		}
		if strings.Contains(w, "time=0") && !regexp.MustCompile(`(?m)^[ \t]*end[ \t](.*[ \t])?time=[+-]?0+([ \t\r]|$)`).Match(data) {
			t.Fatalf("run %d: %q, but no end record gives time=0", r.RunID, w)
		}
	}
	if err == nil && !warned && slices.ContainsFunc(streamLeaves(data), clampedLeave) {
		t.Fatalf("the stream gives counts above what a trace stores and imported with no warning (runs %+v)", runs)
	}
}

// checkReadBack reads every run imported into the trace at path through
// the one-shot readers' snapshot (trace.OpenSnapshot), export's JSON graph,
// check and the viewer (viewerPlays): none fails. A snapshot reads the run as the store does, and a
// score the file claims the run has is the score of an L record of the
// stream (no reading invents one), the node a clamped-count warning names
// reads its counts as lower bounds.
func checkReadBack(t *testing.T, st *trace.Store, path string, data []byte, runs []RunResult) {
	t.Helper()
	if len(runs) == 0 {
		return
	}
	ctx := context.Background()
	snap, err := trace.OpenSnapshot(ctx, path)
	if err != nil {
		t.Fatalf("OpenSnapshot: %v", err)
	}
	defer snap.Close()
	scores := map[int]bool{}
	for _, f := range streamLeaves(data) {
		if len(f) > 0 {
			if x, ok := atoi(f[0]); ok {
				scores[x] = true
			}
		}
	}
	for _, r := range runs {
		run, err1 := st.Run(ctx, r.RunID)
		sr, err2 := snap.Run(ctx, r.RunID)
		if err := errors.Join(err1, err2); err != nil {
			t.Fatalf("run %d: %v", r.RunID, err)
		}
		if sr.Scored() != run.Scored() || sr.Score != run.Score || sr.Depth != run.Depth || sr.Status != run.Status {
			t.Fatalf("run %d: the snapshot reads %s depth %d score %d (scored %v), the store %s depth %d score %d (scored %v)",
				r.RunID, sr.Status, sr.Depth, sr.Score, sr.Scored(), run.Status, run.Depth, run.Score, run.Scored())
		}
		if run.Scored() && !scores[run.Score] {
			t.Fatalf("run %d: scored %d at depth %d, a score no L record of the stream gives", r.RunID, run.Score, run.Depth)
		}
		if m := clampWhere.FindStringSubmatch(r.Warning); m != nil {
			id, _ := strconv.ParseInt(m[1], 10, 64)
			n, err := snap.Node(ctx, r.RunID, id)
			if err != nil {
				t.Fatalf("run %d: the node the warning names: %v", r.RunID, err)
			}
			if !n.GeneratedAtLeast && !n.CutIndexAtLeast {
				t.Fatalf("run %d: %q, but node %d reads %d generated, cut index %d, as exact", r.RunID, r.Warning, id, n.Generated, n.CutIndex)
			}
		}
		// Node -1, as export's default: the root the run reports
		// (trace.ReportedRoot), iteration 0's for a run that searched QS
		// alone under its root.
		er, top, err := export.Resolve(ctx, snap, export.Selection{Run: r.RunID, Node: -1})
		if err != nil {
			t.Fatalf("run %d: export: %v", r.RunID, err)
		}
		if run.Scored() && top.Kind == engine.KindRoot && top.Iteration != run.Depth {
			t.Fatalf("run %d: scored at depth %d, but export shows the root of iteration %d (node %d)", r.RunID, run.Depth, top.Iteration, top.ID)
		}
		g, err := export.Build(ctx, snap, er, top, export.Options{MaxNodes: 40})
		if err == nil {
			err = g.WriteJSON(io.Discard)
		}
		if err != nil {
			t.Fatalf("run %d: export JSON: %v", r.RunID, err)
		}
		if _, err := check.Run(ctx, snap, r.RunID, check.Options{}); err != nil {
			t.Fatalf("run %d: check: %v", r.RunID, err)
		}
		viewerPlays(t, snap, r.RunID)
	}
}

// viewerPlays opens run in the viewer and walks it as a user does (the PV,
// the heaviest line, the next hotspot, nodes opened and closed): the
// viewer opens every run the importer kept and plays every move on its
// way, all of which the importer played by the run's own rule (legal or
// pseudo-legal moves), so it never says one is not legal.
func viewerPlays(t *testing.T, src trace.Reader, run int64) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	m, err := viewer.New(ctx, src, viewer.Options{Run: run})
	if err != nil {
		t.Fatalf("run %d: the viewer: %v", run, err)
	}
	s := tcell.NewSimulationScreen("UTF-8")
	if err := s.Init(); err != nil {
		t.Fatal(err)
	}
	defer s.Fini()
	s.SetSize(200, 60)
	for _, k := range "vhnjjlljjlGgjl" {
		m.Handle(tcell.NewEventKey(tcell.KeyRune, k, tcell.ModNone))
		m.Draw(s)
		s.Show()
		cells, _, _ := s.GetContents()
		var text strings.Builder
		for _, c := range cells {
			text.WriteString(string(c.Runes))
		}
		if strings.Contains(text.String(), "is not legal") {
			t.Fatalf("run %d: after key %c the viewer says a move is not legal: %s", run, k, text.String())
		}
	}
}

// docBlock returns the first fenced block after heading in the protocol's
// document, whatever its fence's info string (text).
func docBlock(t *testing.T, doc, heading string) string {
	t.Helper()
	_, rest, ok := strings.Cut(doc, "\n"+heading+"\n")
	if !ok {
		t.Fatalf("docs/trace-protocol.md has no %q", heading)
	}
	_, rest, ok = strings.Cut(rest, "\n```")
	_, rest, _ = strings.Cut(rest, "\n") // the rest of the fence's line
	block, _, ok2 := strings.Cut(rest, "```\n")
	if !ok || !ok2 {
		t.Fatalf("docs/trace-protocol.md: no code block under %q", heading)
	}
	return block
}

// TestDocExample: the protocol document's example imports as what its text
// says (a concluded depth-2 search, best e2e4, score 30 exact, four nodes
// and the run node), passes the checks that hold for any engine, and its
// error example is what a bad move in it gives. The example once imported
// as "depth 0, score none": its root failed low, so no iteration concluded.
func TestDocExample(t *testing.T) {
	b, err := os.ReadFile("../docs/trace-protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	example := docBlock(t, doc, "## Example")
	st, run, res := importRun(t, example)
	ctx := context.Background()
	root, err := st.Node(ctx, run.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if run.Status != "complete" || run.Depth != 2 || !run.Scored() || run.Score != 30 || run.BestMove != "e2e4" ||
		root.Bound != engine.BoundExact || run.Nodes != 4 || res.EngineNodes != 4 || run.Engine != "Tiny 1.0" {
		t.Errorf("the example imports as %s, depth %d, score %d (scored %v, %s), best %s, %d nodes (engine says %d), engine %q;"+
			" want complete, depth 2, score 30 exact, best e2e4, 4 nodes (engine 4), engine Tiny 1.0",
			run.Status, run.Depth, run.Score, run.Scored(), root.Bound, run.BestMove, run.Nodes, res.EngineNodes, run.Engine)
	}
	rep, err := check.Run(ctx, st, run.ID, check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Violations) > 0 {
		t.Errorf("the example breaks the checks: %+v", rep.Violations)
	}

	wantErr := strings.TrimSpace(docBlock(t, doc, "## Errors"))
	bad := strings.Replace(example, "E e2e4 1", "E e2e5 1", 1)
	_, err = Import(ctx, mustCreate(t), strings.NewReader(bad), Options{})
	if err == nil || err.Error() != wantErr {
		t.Errorf("the example with e2e5 fails with\n%v\nthe document says\n%s", err, wantErr)
	}
}

// TestDocScaleExample: the protocol document's score scale example prints
// as its text says, and without its records (a version 1 stream) as the
// engine's numbers.
func TestDocScaleExample(t *testing.T) {
	b, err := os.ReadFile("../docs/trace-protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	example := docBlock(t, string(b), "## Score scale")
	plain := strings.NewReplacer("HZT 2", "HZT 1", "mate 32000 31872\n", "", "infinity 32000\n", "").Replace(example)
	for _, tc := range []struct {
		stream string
		want   [4]string // the run's score, the root's window, Rd8's score, f6's stand pat
	}{
		{example, [4]string{"#1", "[-∞, ∞]", "-#0", "+40"}},
		{plain, [4]string{"+31999", "[-32000, 32000]", "-31999", "+40"}},
	} {
		st, run, _ := importRun(t, tc.stream)
		ctx := context.Background()
		root, err1 := st.Node(ctx, run.ID, 1)
		rd8, err2 := st.Node(ctx, run.ID, 2)
		f6, err3 := st.Node(ctx, run.ID, 4)
		if err := errors.Join(err1, err2, err3); err != nil {
			t.Fatal(err)
		}
		sf, wf := run.Scores(), run.WindowScores(root)
		got := [4]string{sf.Signed(engine.Score(run.Score)), "[" + wf.Text(root.Alpha) + ", " + wf.Text(root.Beta) + "]",
			sf.Text(rd8.Score), sf.Signed(f6.StandPat)}
		if got != tc.want {
			t.Errorf("the example prints %q, the document says %q", got, tc.want)
		}
	}
}

// FuzzRead fuzzes the reader alone (no trace file, so many more inputs a
// second than FuzzImport): no input panics, and every node entered is left,
// whatever the stream did.
func FuzzRead(f *testing.F) {
	addSeeds(f, "captures")
	f.Fuzz(func(t *testing.T, data []byte) {
		im := newImporter(context.Background(), nil, Options{})
		var c counter
		im.newSink = func(trace.RunInfo, trace.RecordOptions) (sink, error) {
			if c.entered != c.left {
				t.Fatalf("a new run while %d nodes of the last are open", c.entered-c.left)
			}
			return &c, nil
		}
		checkStreamError(t, data, im.read(bytes.NewReader(data)))
		if c.entered != c.left {
			t.Fatalf("%d nodes entered, %d left", c.entered, c.left)
		}
	})
}

// TestMaxNodes: the node limit ends a run exactly there, marked truncated,
// and the next search of the stream is recorded again.
func TestMaxNodes(t *testing.T) {
	stream, nodes := horizonStream(t, kiwipete, "see", 2)
	two := append(append([]byte(nil), stream...), stream...)
	st := mustCreate(t)
	runs, err := Import(context.Background(), st, bytes.NewReader(two), Options{Record: trace.RecordOptions{MaxNodes: 100}})
	if err != nil || len(runs) != 2 || nodes <= 100 {
		t.Fatalf("runs %+v, err %v (the search has %d nodes)", runs, err, nodes)
	}
	for _, r := range runs {
		run, _ := st.Run(context.Background(), r.RunID)
		if r.Status != trace.StatusTruncated || run.Nodes != 100 || run.Rows != 101 {
			t.Errorf("run %+v: %d nodes, %d rows, want 100 truncated (and the run node's row)", r, run.Nodes, run.Rows)
		}
	}
}

// TestMaxNodesAnyLine: wherever the node limit falls, the rest of its
// search is dropped and the stream's later searches are recorded, with the
// records between searches that come before them. When the limit fell on
// the importer's every-4,096-lines check (cap 2,047 here), the import
// ended there with exit 0 and every later search lost; and the skipping
// dropped a limits record between the searches, so the next run read
// complete with no limits.
func TestMaxNodesAnyLine(t *testing.T) {
	const kids = 3000
	stream := "HZT 1\nposition startpos\nE - 1 -50 50\n" + strings.Repeat("E e2e4 0 -50 50\nL 10\n", kids) + "L -10\nend\n" +
		"limits depth 9\nposition startpos\nE - 1 -50 50\nE d2d4 0 -50 50\nL 10\nL -10\nend\n"
	for mx := int64(2030); mx <= 2060; mx++ {
		st := mustCreate(t)
		runs, err := Import(context.Background(), st, strings.NewReader(stream), Options{Record: trace.RecordOptions{MaxNodes: mx}})
		if err != nil || len(runs) != 2 {
			t.Fatalf("cap %d: runs %+v, err %v; want both searches", mx, runs, err)
		}
		first, _ := st.Run(context.Background(), runs[0].RunID)
		second, _ := st.Run(context.Background(), runs[1].RunID)
		if first.Status != trace.StatusTruncated || first.Nodes != mx || first.StopCause != trace.StopNodes || !runs[0].Limited {
			t.Errorf("cap %d: run 1 %s (%s) with %d nodes, want truncated by the cap", mx, first.Status, first.StopCause, first.Nodes)
		}
		if second.Status != trace.StatusComplete || second.Nodes != 2 || !strings.Contains(second.Limits, "depth 9") {
			t.Errorf("cap %d: run 2 %s with %d nodes, limits %s; want complete, 2 nodes, depth 9", mx, second.Status, second.Nodes, second.Limits)
		}
	}
}

// TestDerivedBest: the best move the engine did not name is the child whose
// negated score is the node's, read through the children's bounds: a PVS
// null-window fail-high is re-searched and the exact re-search is the best;
// a fail-low child tying the score is never the best of an exact node.
func TestDerivedBest(t *testing.T) {
	stream := `HZT 1
position startpos
E - 3 -100 100 i=3
E e2e4 2 -100 100
L -10
E d2d4 2 -11 -10
L -10
E g1f3 2 -11 -10
L -40
E g1f3 2 -100 -10
L -15
E c2c4 2 -16 -15
L -15
L 15
E - 4 -100 100 i=4
E e2e4 3 -100 100
L -10
E d2d4 3 -11 -10
L -10
L 10
E - 5 50 60 i=5
E e2e4 4 -60 -50
L -70
E d2d4 4 -60 -50
L -80
L 80
end
`
	st := mustCreate(t)
	runs, err := Import(context.Background(), st, strings.NewReader(stream), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int64]string{1: "g1f3", 7: "e2e4", 10: "d2d4"}
	ctx := context.Background()
	for id, best := range want {
		n, err := st.Node(ctx, runs[0].RunID, id)
		if err != nil {
			t.Fatal(err)
		}
		if n.Kind != engine.KindRoot || n.Best.UCI() != best {
			t.Errorf("root %d (%s, score %d, %s): best %s, want %s", id, n.Kind, n.Score, n.Bound, n.Best.UCI(), best)
		}
	}
}

// mtdStart is an MTD-bi search's first probe (a null-window root at depth
// 1 that fails high at 30), which the run-result and PV tests continue.
const mtdStart = `HZT 1
moves pseudo
position startpos
limits depth 1
E - 1 -1 0 i=1
E e2e4 0 0 1
L -30
L 30
`

// TestRunResult: a run reports its last concluded iteration, never the first
// probe of the next one (Sunfish's MTD driver probes depth d+1 before it
// knows depth d converged) nor the roots of an interrupted iteration.
func TestRunResult(t *testing.T) {
	// MTD-bi: null-window roots; depth 1 converges on the fail-high at
	// 30, then one probe of depth 2 fails high at 43 and the search ends.
	mtd := mtdStart + `E - 1 30 31 i=1
E d2d4 0 -31 -30
L -20
E e2e4 0 -31 -30
L -30
L 30
E - 2 14 15 i=2
E g1f3 1 -15 -14
L -43
L 43
end best=e2e4
`
	// The aspiration and complete runs share iteration 1: e2e4 at 20.
	iter1 := `HZT 1
position startpos
E - 1 -100 100 i=1
E e2e4 0 -100 100
L -20
L 20
`
	// Aspiration: iteration 2 is cut short after a fail-high root.
	cut := iter1 + `E - 2 10 30 i=2
E d2d4 1 -30 -10
L -50
L 50
E - 2 10 200 i=2
E d2d4 1 -200 -10
`
	// Complete: the last iteration's exact root concludes it.
	full := iter1 + `E - 2 -100 100 i=2
E d2d4 1 -100 100
L -25
L 25
end
`
	// No iteration concludes: the only root fails low.
	low := `HZT 1
position startpos
E - 1 -10 10 i=1
E e2e4 0 -10 10
L 20
L -20
end
`
	// The run node's bound is the reported root's: an MTD value is its
	// fail-high probe's lower bound, not exact (Sunfish's "=38 exact").
	tests := []struct {
		name, stream string
		depth, score int
		best         string
		bound        engine.Bound
	}{
		{"mtd", mtd, 1, 30, "e2e4", engine.BoundLower},
		{"cut", cut, 1, 20, "e2e4", engine.BoundExact},
		{"complete", full, 2, 25, "d2d4", engine.BoundExact},
		{"no iteration", low, 0, 0, "", engine.BoundNone},
		// A fault or an abort after a concluded iteration keeps it, as
		// the end of the search would (a stray leave wiped it out).
		{"extra leave", strings.TrimSuffix(full, "end\n") + "L 0\n", 2, 25, "d2d4", engine.BoundExact},
		{"unknown record", strings.TrimSuffix(full, "end\n") + "Q 1\n", 2, 25, "d2d4", engine.BoundExact},
		{"abort between iterations", iter1 + "A\nend\n", 1, 20, "e2e4", engine.BoundExact},
	}
	ctx := context.Background()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st, run, imported := importRun(t, tc.stream)
			root, err := st.Node(ctx, run.ID, 0)
			if err != nil {
				t.Fatal(err)
			}
			rootBest := ""
			if root.Best != engine.NoMove {
				rootBest = root.Best.UCI()
			}
			if run.Depth != tc.depth || run.Score != tc.score || run.BestMove != tc.best || int(root.Score) != tc.score ||
				rootBest != tc.best || imported.BestMove != tc.best {
				t.Errorf("run depth %d score %d best %s, run node score %d best %s, result best %s; want depth %d score %d best %s",
					run.Depth, run.Score, run.BestMove, root.Score, root.Best.UCI(), imported.BestMove, tc.depth, tc.score, tc.best)
			}
			if root.Bound != tc.bound {
				t.Errorf("run node bound %s, want %s", root.Bound, tc.bound)
			}
		})
	}
}

// TestPVRoundTrip: a foreign run's principal variation is the engine's own.
// Horizon's search keeps a triangular PV as engines do (a move that raises
// alpha takes its child's line); the run read back through the protocol
// derives its PV from the tree's exact nodes and must give the same line,
// whether the stream names bounds and best moves or Horizon derives them.
func TestPVRoundTrip(t *testing.T) {
	ctx := context.Background()
	fens := map[string]string{"kiwipete": kiwipete,
		"wac001":  "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
		"endgame": "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"}
	longest := 0
	for name, fen := range fens {
		for _, variant := range []string{"captures", "see", "threshold", "unified"} {
			for _, bare := range []bool{false, true} {
				stream, res := searchStream(t, fen, variant, 4, bare)
				st := mustCreate(t)
				runs, err := Import(ctx, st, bytes.NewReader(stream), Options{})
				if err != nil {
					t.Fatal(err)
				}
				run, err := st.Run(ctx, runs[0].RunID)
				if err != nil {
					t.Fatal(err)
				}
				var want []string
				for _, m := range res.PV {
					want = append(want, m.UCI())
				}
				if strings.Join(run.PV, " ") != strings.Join(want, " ") {
					t.Errorf("%s %s (bare %v): PV %v through the protocol, the search's own %v", name, variant, bare, run.PV, want)
				}
				longest = max(longest, len(run.PV))
			}
		}
	}
	if longest < 5 {
		t.Errorf("the longest PV has %d moves: the test says little", longest)
	}
}

// TestPV: a run's PV is its reported root's best move followed, through
// exact nodes only, by each node's best move; it ends where the line
// reaches a node with no best move or a bound, and never takes a line left
// from another child, another pass or another iteration.
func TestPV(t *testing.T) {
	head := "HZT 1\nposition startpos\n"
	tests := []struct{ name, stream, want string }{
		{"exact chain", head + `E - 3 -100 100 i=3
E e2e4 2 -100 100
E e7e5 1 -100 100
E g1f3 0 -100 100
S 20
L 20
L -20
L 20
E d2d4 2 19 20
L 50
L -20
end
`, "e2e4 e7e5 g1f3"},
		{"PVS re-search", head + `E - 2 -100 100 i=2
E e2e4 1 -100 100
E e7e5 0 -100 100
L 10
L -10
E d2d4 1 -11 -10
E d7d5 0 10 11
L 30
L -30
E d2d4 1 -100 -10
E g8f6 0 10 100
L 25
E d7d5 0 10 25
L 20
L -20
L 20
end
`, "d2d4 d7d5"},
		{"a bound ends it", head + `E - 2 -100 100 i=2
E e2e4 1 -100 100
E e7e5 0 -100 100 k=qs
E g1f3 -1 -100 100
L 40
L -40 b=upper
L 40 m=e7e5
L -40
end
`, "e2e4 e7e5"},
		{"a later iteration's shorter line", head + `E - 1 -100 100 i=1
E e2e4 0 -100 100
E e7e5 -1 -100 100
L 20
L -20
L 20
E - 2 -100 100 i=2
E e2e4 1 -100 100
L -15
L 15
end
`, "e2e4"},
		{"an iteration cut short", head + `E - 1 -100 100 i=1
E e2e4 0 -100 100
E e7e5 -1 -100 100
L 20
L -20
L 20
E - 2 10 30 i=2
E d2d4 1 -30 -10
E d7d5 0 10 30
L 50
L -50
L 50
E - 2 10 200 i=2
E d2d4 1 -200 -10
`, "e2e4 e7e5"},
		{"mtd probes", mtdStart + "end best=e2e4\n", "e2e4"},
		{"the engine plays another move", head + `E - 1 -100 100 i=1
E e2e4 0 -100 100
E e7e5 -1 -100 100
L 20
L -20
L 20
end best=d2d4
`, "d2d4"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, run, _ := importRun(t, tc.stream)
			if got := strings.Join(run.PV, " "); got != tc.want {
				t.Errorf("PV %q, want %q", got, tc.want)
			}
		})
	}
}

// TestScaleRecords: the "mate" and "infinity" records are kept in the
// run's options and give its scores their meaning (trace.Run.Scores); a
// bad one stops the import naming its line, and a version 1 stream may
// not hold them (an older Horizon refuses them as unknown records).
func TestScaleRecords(t *testing.T) {
	search := "position startpos\nE - 1 -32000 32000\nE e2e4 0 -32000 32000\nL -31998\nL 31998\nend\n"
	for _, tc := range []struct {
		name, head string
		want       trace.EngineDeclared
		texts      map[engine.Score]string // score: as the run prints it
	}{
		{"none", "HZT 1\n", trace.EngineDeclared{Moves: "legal", Scores: "soft"},
			map[engine.Score]string{31998: "31998", -32000: "-32000", 35: "35"}},
		{"ethereal", "HZT 2\nmate 32000 31872\ninfinity 32000\n",
			trace.EngineDeclared{Moves: "legal", Scores: "soft", Mate: 32000, MateMin: 31872, MateUnit: "plies", Infinity: 32000},
			map[engine.Score]string{31999: "#1", 31998: "#1", 31997: "#2", -31998: "-#1", -31996: "-#2", 31872: "#64",
				31871: "31871", -31871: "-31871", 32000: "∞", -32000: "-∞", 35: "35"}},
		{"plies named, infinity first", "HZT 2\ninfinity 32001\nmate 32000 31754 plies\n",
			trace.EngineDeclared{Moves: "legal", Scores: "soft", Mate: 32000, MateMin: 31754, MateUnit: "plies", Infinity: 32001},
			map[engine.Score]string{32000: "#0", 32001: "∞", -32000: "-#0"}},
		{"turns", "HZT 2\nmate 8000 7745 turns\ninfinity 8000\n",
			trace.EngineDeclared{Moves: "legal", Scores: "soft", Mate: 8000, MateMin: 7745, MateUnit: "turns", Infinity: 8000},
			map[engine.Score]string{7999: "#1", -7999: "-#0", -7998: "-#1", 7998: "#2", 8000: "∞", 7744: "7744"}},
		{"infinity alone", "HZT 2\ninfinity 69290\n",
			trace.EngineDeclared{Moves: "legal", Scores: "soft", Infinity: 69290},
			map[engine.Score]string{69290: "∞", -69290: "-∞", 69289: "69289", 47998: "47998"}},
		{"mate alone", "HZT 2\nmate 32000 31872\n",
			trace.EngineDeclared{Moves: "legal", Scores: "soft", Mate: 32000, MateMin: 31872, MateUnit: "plies"},
			map[engine.Score]string{31998: "#1", 32001: "32001"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, run, _ := importRun(t, tc.head+search)
			d, ok := run.Declared()
			if !ok || d != tc.want {
				t.Errorf("declared %+v (%v), want %+v; options %s", d, ok, tc.want, run.Options)
			}
			for s, want := range tc.texts {
				if got := run.Scores().Text(s); got != want {
					t.Errorf("score %d prints %q, want %q", s, got, want)
				}
			}
		})
	}
	for _, tc := range []struct{ name, stream, want string }{
		{"version 1", "HZT 1\nmate 32000 31872\n", `record at byte 6 (line 2): "mate" record in a version 1 stream: the header must say "HZT 2"`},
		{"infinity in version 1", "HZT 1\nengine E\ninfinity 32000\n", `(line 3): "infinity" record in a version 1 stream`},
		{"mate one value", "HZT 2\nmate 32000\n", `(line 2): mate "32000": want VALUE MIN [plies|turns]`},
		{"mate four values", "HZT 2\nmate 32000 31872 plies 1\n", "want VALUE MIN [plies|turns]"},
		{"mate min above value", "HZT 2\nmate 32000 32001\n", `(line 2): mate "32000 32001": want 0 < MIN <= VALUE`},
		{"mate min 0", "HZT 2\nmate 32000 0\n", "want 0 < MIN <= VALUE"},
		{"mate negative", "HZT 2\nmate -32000 -31000\n", "want 0 < MIN <= VALUE"},
		{"mate not a number", "HZT 2\nmate MATE 31872\n", "want 0 < MIN <= VALUE"},
		{"mate unit", "HZT 2\nmate 32000 31872 moves\n", `unit "moves": want plies or turns`},
		{"infinity 0", "HZT 2\ninfinity 0\n", `(line 2): infinity "0": want a score above 0`},
		{"infinity word", "HZT 2\ninfinity inf\n", `infinity "inf": want a score above 0`},
		{"infinity two", "HZT 2\ninfinity 1 2\n", "want one value"},
		{"infinity overflow", "HZT 2\ninfinity 99999999999\n", "want a score above 0"},
		{"infinity below mates", "HZT 2\nmate 32000 31872\ninfinity 31000\n",
			`(line 3): infinity "31000": the mate scores 31872 to 32000 do not fit below infinity 31000`},
		{"mates above infinity", "HZT 2\ninfinity 8000\nmate 9000 8500\n", "do not fit below infinity 8000"},
		{"inside a node", "HZT 2\nposition startpos\nE - 1 0 1\nmate 32000 31872\n", `(line 4), node 1 (path (root)): "mate" record inside a node`},
		{"version 5", "HZT 5\n", "protocol version 5, this Horizon reads up to 4"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Import(context.Background(), mustCreate(t), strings.NewReader(tc.stream), Options{})
			if !errors.Is(err, ErrStream) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestScaleRoundTrip: Horizon's own search of a mate in 2, streamed with
// Horizon's scale declared, prints every score and window of the imported
// run as Horizon's own run prints them, #2 at the root.
func TestScaleRoundTrip(t *testing.T) {
	const fen = "7k/8/8/8/8/8/R7/1R4K1 w - - 0 1"
	var buf bytes.Buffer
	w := emit.NewHeader(&buf, emit.Header{Engine: "Horizon (via the protocol)",
		Scale: emit.Scale{Mate: int(engine.MateScore), MateMin: int(engine.MateBound + 1), Infinity: int(engine.Infinity)}})
	w.Position("fen " + fen)
	o, _ := engine.VariantOptions("see")
	pos, _ := engine.ParseFEN(fen)
	res := engine.NewSearcher(o).Search(context.Background(), pos, engine.Limits{Depth: 4}, emitter{w: w})
	w.End(res.BestMove.UCI(), res.Stats.Nodes)
	st, run, _ := importRun(t, buf.String())
	sf, mates := run.Scores(), 0
	if got := sf.Signed(engine.Score(run.Score)); got != "#2" || res.Score.String() != "#2" {
		t.Errorf("run score %d prints %q, Horizon's own %s; want #2", run.Score, got, res.Score)
	}
	err := st.Subtree(context.Background(), run.ID, 0, -1, func(n trace.Node) error {
		if n.Kind == engine.KindRun {
			return nil // Horizon's own node in every run
		}
		wf := run.WindowScores(n)
		for _, s := range []engine.Score{n.Score, n.StandPat} {
			if sf.Text(s) != s.String() || sf.Signed(s) != s.Signed() {
				t.Fatalf("node %d: score %d prints %q (%q), Horizon's own %q (%q)", n.ID, s, sf.Text(s), sf.Signed(s), s, s.Signed())
			}
		}
		for _, s := range []engine.Score{n.Alpha, n.Beta} {
			if wf.Text(s) != s.String() {
				t.Fatalf("node %d: window end %d prints %q, Horizon's own %q", n.ID, s, wf.Text(s), s)
			}
		}
		if n.Score.IsMate() {
			mates++
		}
		return nil
	})
	if err != nil || mates == 0 {
		t.Fatalf("%d mate scores in the tree (%v)", mates, err)
	}
}

// TestImportCancelWhileWaiting: an import reading a stream that pauses (a
// FIFO, an engine thinking) commits the nodes it has, so a reader of the
// file sees them, and a cancel (Ctrl-C) ends it while it waits: the run is
// interrupted with every node received. The walkthrough's 'import -' from
// a FIFO ignored Ctrl-C and SIGTERM until the writer closed, and a live
// viewer saw none of its ~2,000 nodes.
func TestImportCancelWhileWaiting(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	path, pw, done := importPiped(t, ctx, Options{})
	// The root and three replies left; the root stays open, as in an
	// engine that is still thinking.
	stream := "HZT 1\nengine Slow\nposition startpos\nE - 2 -50 50\n" + strings.Repeat("E e2e4 1 -50 50\nE e7e5 0 -50 50\nL 10\nL -10\n", 3)
	if _, err := io.WriteString(pw, stream); err != nil {
		t.Fatal(err)
	}

	// A reader of the file sees the nodes while the stream pauses.
	const sent = 7 // the root and three moves with a reply each
	seesWhilePaused(t, path, sent)

	cancel()
	select {
	case r := <-done:
		if !errors.Is(r.err, context.Canceled) || len(r.runs) != 1 {
			t.Fatalf("runs %+v, err %v; want one run and the cancel", r.runs, r.err)
		}
		if got := r.runs[0]; got.Status != trace.StatusInterrupted || got.Nodes != sent {
			t.Errorf("run: %s with %d nodes, want interrupted with %d", got.Status, got.Nodes, sent)
		}
	case <-time.After(10 * time.Second):
		pw.Close() // let the import end, so the test does not hang
		t.Fatal("the import kept waiting for the stream after the cancel")
	}
}

// TestImportCommitsEveryPause: nodes that came less than flushEvery after
// the last commit are committed when the stream then pauses, also for
// trace --engine (StopsOnCancel). They waited for the stream's next
// record: a viewer saw the first burst of a thinking engine and nothing
// after, and trace --engine committed nothing before a batch was full,
// so a Horizon killed during a long think lost the whole run.
func TestImportCommitsEveryPause(t *testing.T) {
	for _, stopsOnCancel := range []bool{false, true} {
		t.Run(fmt.Sprint("StopsOnCancel=", stopsOnCancel), func(t *testing.T) {
			path, pw, done := importPiped(t, context.Background(), Options{StopsOnCancel: stopsOnCancel})
			// The second burst comes 100 ms after the first, then the
			// stream pauses with the root open.
			bursts := []string{"HZT 1\nengine Slow\nposition startpos\nE - 2 -50 50\nE e2e4 1 -50 50\nE e7e5 0 -50 50\nL 10\nL -10\n",
				"E d2d4 1 -50 50\nE d7d5 0 -50 50\nL 10\nL -10\n"}
			const sent = 5
			for _, b := range bursts {
				if _, err := io.WriteString(pw, b); err != nil {
					t.Fatal(err)
				}
				time.Sleep(100 * time.Millisecond)
			}
			seesWhilePaused(t, path, sent)
			pw.Close()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("the import did not end at the stream's end")
			}
		})
	}
}

// imported is what Import returned.
type imported struct {
	runs []RunResult
	err  error
}

// importPiped runs Import into a new trace file from a pipe that the test
// writes, and returns the file's path, the pipe's write end and where
// Import's result comes. The pipe is closed when the test ends.
func importPiped(t *testing.T, ctx context.Context, opts Options) (path string, pw *os.File, done <-chan imported) {
	t.Helper()
	st, path := tracetest.CreateTrace(t)
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		pw.Close()
		pr.Close()
	})
	ch := make(chan imported, 1)
	go func() {
		runs, err := Import(ctx, st, pr, opts)
		ch <- imported{runs, err}
	}()
	return path, pw, ch
}

// seesWhilePaused fails unless a reader of the file at path sees the sent
// nodes of its first run within 10 s (a stream paused after them).
func seesWhilePaused(t *testing.T, path string, sent int64) {
	t.Helper()
	seen := int64(-1)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if seen = recordedNodes(t, path); seen == sent {
			return
		}
	}
	t.Errorf("while the stream paused a reader saw %d nodes, want the %d sent", seen, sent)
}

// recordedNodes returns the nodes a reader of the file sees in its first
// run, -1 when it has none yet.
func recordedNodes(t *testing.T, path string) int64 {
	t.Helper()
	st, err := trace.OpenReadOnly(path)
	if err != nil {
		return -1
	}
	defer st.Close()
	runs, err := st.Runs(context.Background())
	if err != nil || len(runs) == 0 {
		return -1
	}
	return runs[0].Recorded()
}

// TestImportLeavesNoReader: an import that stops early at a fault in the
// stream, while its writer goes on writing, leaves no goroutine reading
// the stream behind (the reader's goroutine outlived Import, blocked
// handing over a chunk no one would take).
func TestImportLeavesNoReader(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	go func() {
		io.WriteString(pw, "HZT 1\nengine Busy\nposition startpos\nE - 2 -50 50\nE e2e4 1 -50 50\nnot a record\n")
		for {
			if _, err := io.WriteString(pw, strings.Repeat("E e2e4 1 -50 50\nL 10\n", 100)); err != nil {
				return
			}
		}
	}()
	st := mustCreate(t) // its own goroutines are no reader's
	time.Sleep(50 * time.Millisecond)
	before := runtime.NumGoroutine()
	if _, err := Import(context.Background(), st, pr, Options{}); err == nil {
		t.Fatal("a stream with a bad record imported without an error")
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if after := runtime.NumGoroutine(); after > before {
		t.Errorf("%d goroutines before Import, %d after it returned", before, after)
	}
}

// TestLimitsPerSearch: a limits record is its search's alone; the limits
// of one search leaked into every later one of the stream.
func TestLimitsPerSearch(t *testing.T) {
	const search = "E - 1 -100 100\nL 5\n"
	for _, tc := range []struct {
		name, stream string
		want         []string // each run's go limits
	}{
		{"after the position", "position startpos\nlimits depth 9\n" + search + "position startpos moves e2e4\n" + search, []string{"depth 9", ""}},
		{"each its own", "position startpos\nlimits depth 9\n" + search + "position startpos\nlimits nodes 5\n" + search, []string{"depth 9", "nodes 5"}},
		{"before the position", "limits depth 3\nposition startpos\n" + search + "position startpos\n" + search, []string{"depth 3", ""}},
		{"after a search: the next one's", "position startpos\n" + search + "limits depth 4\nposition startpos\n" + search, []string{"", "depth 4"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := mustCreate(t)
			runs, err := Import(context.Background(), st, strings.NewReader("HZT 1\n"+tc.stream), Options{})
			if err != nil || len(runs) != len(tc.want) {
				t.Fatalf("runs %+v, error %v; want %d", runs, err, len(tc.want))
			}
			for i, r := range runs {
				run, err := st.Run(context.Background(), r.RunID)
				if err != nil {
					t.Fatal(err)
				}
				if lim, err := run.SearchLimits(); err != nil || lim.Go != tc.want[i] {
					t.Errorf("run %d: limits %s (%v), want go %q", i+1, run.Limits, err, tc.want[i])
				}
			}
		})
	}
}

// TestByteOrderMark: a stream a Windows editor saved starts with a UTF-8
// byte-order mark, and was refused as "not a Horizon trace stream". The
// mark is skipped at the stream's start (before a comment too), and only
// there: one inside the stream is still no record.
func TestByteOrderMark(t *testing.T) {
	const search = "position startpos\nE - 1 -50 50\nE e2e4 0 -50 50\nL 10\nL -10\nend nodes=2\n"
	for _, tc := range []struct{ name, stream, err string }{
		{"header", "\ufeffHZT 1\n" + search, ""},
		{"comment first", "\ufeff# saved on Windows\r\nHZT 1\r\n" + strings.ReplaceAll(search, "\n", "\r\n"), ""},
		{"later", "HZT 1\n\ufeff" + search, "unknown record"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := mustCreate(t)
			runs, err := Import(context.Background(), st, strings.NewReader(tc.stream), Options{})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || len(runs) != 1 || runs[0].Nodes != 2 {
				t.Errorf("runs %+v, error %v; want one run of 2 nodes", runs, err)
			}
		})
	}
}

// TestLateLimits: a limits record written after a search's first node is
// too late for its run, which records its limits as it begins: the run
// says so in its warning when the search's end record, the stream's end or
// a fault follows (the record was dropped without a word, the run's go
// null; at the stream's end and at a fault it still was), and
// the record is the next search's when a position record follows, as the
// protocol says.
func TestLateLimits(t *testing.T) {
	const search = "HZT 1\nposition startpos\nE - 1 -50 50\nL 0\nlimits depth 1\n"
	for _, end := range []string{"end\n", "", "E e2e5 0 -50 50\n"} {
		_, run, r := importRun(t, search+end)
		if lim, err := run.SearchLimits(); err != nil || lim.Go != "" {
			t.Errorf("%q: limits %+v (%v), want no go command", end, lim, err)
		}
		if want := "the limits record at line 5 (depth 1) came after the search's first node: not recorded"; !strings.Contains(r.Warning, want) {
			t.Errorf("%q: warning %q, want %q", end, r.Warning, want)
		}
	}
	st := mustCreate(t)
	runs, err := Import(context.Background(), st, strings.NewReader(search+"position startpos\nE - 1 -50 50\nL 0\nend\n"), Options{})
	if err != nil || len(runs) != 2 {
		t.Fatalf("runs %+v, %v", runs, err)
	}
	for i, want := range []string{"", "depth 1"} {
		run, err := st.Run(context.Background(), runs[i].RunID)
		if err != nil {
			t.Fatal(err)
		}
		lim, _ := run.SearchLimits()
		if got := lim.Go; got != want || runs[i].Warning != "" {
			t.Errorf("run %d: go %q, warning %q; want %q and none", i+1, got, runs[i].Warning, want)
		}
	}
}

// TestChildrenBound: a node's children are read back up to
// trace.MaxChildren, and the stream's child past that bound stops the
// import, naming it; a search's root past it too (it named node 0, the
// run node, which is no node of the stream). Readers stopped at 4,096
// children while the importer took any number: a stream of 5,000 re-searches under one node imported
// whole, passed check, and export called its trace damaged ("node 1 has
// more than 4096 children").
func TestChildrenBound(t *testing.T) {
	stream := func(kids int) string {
		var b strings.Builder
		b.WriteString("HZT 1\nposition startpos\nE - 2 -50 50\n")
		for range kids {
			b.WriteString("E e2e4 1 -50 50\nL 0\n")
		}
		b.WriteString("L 0\nend\n")
		return b.String()
	}
	ctx := context.Background()
	st, _, r := importRun(t, stream(5000))
	if kids, err := st.Children(ctx, r.RunID, 1, trace.BySearch, 0, 0); err != nil || len(kids) != 5000 {
		t.Errorf("Children: %d, %v; want 5000", len(kids), err)
	}
	if n, err := st.ChildCount(ctx, r.RunID, 1); err != nil || n != 5000 {
		t.Errorf("ChildCount: %d, %v; want 5000", n, err)
	}
	st = mustCreate(t)
	runs, err := Import(ctx, st, strings.NewReader(stream(trace.MaxChildren+1)), Options{})
	line := 3 + 2*trace.MaxChildren + 1
	want := fmt.Sprintf("(line %d), node 1 (path (root)): node 1 already has 65,536 children, the most a trace holds", line)
	if err == nil || !strings.Contains(err.Error(), want) || len(runs) != 1 {
		t.Fatalf("runs %+v, error %v; want one, and %q", runs, err, want)
	}
	if n, err := st.ChildCount(ctx, runs[0].RunID, 1); err != nil || n != trace.MaxChildren {
		t.Errorf("ChildCount of what was kept: %d, %v; want %d", n, err, trace.MaxChildren)
	}
	// Roots past the bound: the error names the search's roots, not
	// node 0, Horizon's run node, which is no node of the stream (it
	// said "node 0 already has 65,536 children").
	var b strings.Builder
	b.WriteString("HZT 1\nposition startpos\n")
	for range trace.MaxChildren + 1 {
		b.WriteString("E - 0 -50 50\nL 0\n")
	}
	st = mustCreate(t)
	runs, err = Import(ctx, st, strings.NewReader(b.String()), Options{})
	want = fmt.Sprintf("(line %d): the search already has 65,536 roots (iterations and probes), the most a trace holds", 2+2*trace.MaxChildren+1)
	if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "node 0") || len(runs) != 1 {
		t.Errorf("runs %+v, error %v; want one, and %q", runs, err, want)
	}
}

// TestFullmoveZero: a position record whose FEN gives fullmove 0 (one
// engine's own start position) imports, read as fullmove 1 with a warning
// saying so; before, the whole stream was refused. Other bad clocks are
// still refused, naming the field.
func TestFullmoveZero(t *testing.T) {
	const body = "E - 1 -50 50 i=1\nE e2e4 0 -50 50\nL -10\nL 10\nend\n"
	for _, tc := range []struct {
		position, fen, warning string
	}{
		{"fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0",
			"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "fullmove number 0"},
		{"fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 0 moves e7e5",
			"rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 2", "fullmove number 0"},
		{"fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", engine.StartFEN, ""},
	} {
		_, run, r := importRun(t, "HZT 1\nposition "+tc.position+"\n"+body)
		if run.FEN != tc.fen || !strings.Contains(r.Warning, tc.warning) || (tc.warning == "") != (r.Warning == "") {
			t.Errorf("%s: FEN %q, warning %q; want %q, %q", tc.position, run.FEN, r.Warning, tc.fen, tc.warning)
		}
	}
	for _, bad := range []string{"- 0 -1", "- -1 0", "- 0 x"} {
		stream := "HZT 1\nposition fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq " + bad + "\n" + body
		runs, err := Import(context.Background(), mustCreate(t), strings.NewReader(stream), Options{})
		if err == nil || len(runs) != 0 || !strings.Contains(err.Error(), "move") {
			t.Errorf("%s: runs %+v, err %v; want refused naming the clock", bad, runs, err)
		}
	}
}

// TestNullMovePathReadsBack: a path through another engine's null-move
// probe, written as Horizon prints the move ("--") or as UCI writes it
// ("0000"), finds the probe's nodes; before, "--" and "0000" were no legal
// move and every printed path through a null-move QS tree (the top
// hotspots of two engines) did not read back.
func TestNullMovePathReadsBack(t *testing.T) {
	const stream = "HZT 1\nposition startpos\nE - 2 -50 50 i=2\nE e2e4 1 -50 50\nE 0000 0 -50 50\nE d2d4 0 -50 50 k=qs\nL 0\nL 0\nL 0\nL 0\nend\n"
	st, run, _ := importRun(t, stream)
	ctx := context.Background()
	for _, path := range [][]string{{"e4", "--", "d4"}, {"e2e4", "0000", "d2d4"}, {"e4", "--·1"}, {"e4", "--.1"}} {
		n, err := st.Find(ctx, run.ID, 0, path)
		if err != nil {
			t.Errorf("%v: %v", path, err)
			continue
		}
		if want := int64(len(path) + 1); strings.HasPrefix(path[len(path)-1], "--") && len(path[len(path)-1]) > 2 && n.ID != 3 || !strings.HasPrefix(path[len(path)-1], "--") && n.ID != want {
			t.Errorf("%v: node %d", path, n.ID)
		}
	}
	if _, err := st.Find(ctx, run.ID, 0, []string{"--"}); err == nil || !strings.Contains(err.Error(), "not searched") {
		t.Errorf("a null move the root never searched: %v", err)
	}
}

// TestRunLabel: two builds of one engine are told apart by their label,
// from the stream's label record (emit.Header.Label) or Options.Label
// (--label), which wins; without either a run is labelled with the
// engine's name. A label record in a stream older than version 3 is
// refused, naming the version it needs.
func TestRunLabel(t *testing.T) {
	search := func(label string) string {
		var buf bytes.Buffer
		w := emit.NewHeader(&buf, emit.Header{Engine: "Eth 12", Label: label})
		w.Position("startpos")
		w.Root(1, -50, 50, 1)
		w.Enter("e2e4", 0, -50, 50)
		w.Leave(-10)
		w.Leave(10)
		w.End("e2e4", 2)
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	for _, tc := range []struct{ stream, opt, want string }{
		{search(""), "", "Eth 12"},
		{search("eth-lmr-off"), "", "eth-lmr-off"},
		{search("eth-lmr-off"), "eth-new", "eth-new"},
		{search(""), "eth-new", "eth-new"},
	} {
		st := mustCreate(t)
		runs, err := Import(context.Background(), st, strings.NewReader(tc.stream), Options{Label: tc.opt})
		if err != nil || len(runs) != 1 {
			t.Fatalf("runs %+v, %v", runs, err)
		}
		run, err := st.Run(context.Background(), runs[0].RunID)
		if err != nil {
			t.Fatal(err)
		}
		if run.Label() != tc.want || runs[0].Label != tc.want || run.Engine != "Eth 12" {
			t.Errorf("label %q, opt %q: run labelled %q (result %q), engine %q; want %q, engine Eth 12",
				tc.stream, tc.opt, run.Label(), runs[0].Label, run.Engine, tc.want)
		}
	}
	_, err := Import(context.Background(), mustCreate(t), strings.NewReader("HZT 2\nlabel x\nposition startpos\n"), Options{})
	if err == nil || !strings.Contains(err.Error(), `"label" record in a version 2 stream`) {
		t.Errorf("label in a version 2 stream: %v", err)
	}
}
