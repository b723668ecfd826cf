package foreign

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/horizonqs/horizon/check"
	"github.com/horizonqs/horizon/emit"
	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace/tracetest"
)

// nestEngine is a small alpha-beta engine that makes nested searches as
// real engines do, traced through package emit: internal iterative
// deepening (a call of its search on the node's own position at a lower
// depth, a node it counts) finds the move to try first, and a singular
// test (a loop over the node's other moves at a lowered null window,
// calling nothing for the node itself, so no node it counts) extends that
// move when every other move fails low. Its node count is its own, kept
// where it counts, as an engine's is.
type nestEngine struct {
	pos       *engine.Position
	tw        *emit.Writer
	nodes     int64
	iid, sing int // nested searches made
	extended  int // singular extensions on the current path: one at most, so depth falls
}

const nestInf = 30000

// nestFEN is the position nestEngine's tests search: the Italian game
// after 3. Bc4, small enough for a full-width search of depth 4 in a test.
const nestFEN = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3"

// search searches the node its caller entered (Root, Enter or Nested) and
// leaves it: its score, fail-soft, and its best move.
func (e *nestEngine) search(depth, alpha, beta int) (int, engine.Move) {
	e.nodes++
	if depth <= 0 {
		return e.qs(depth, alpha, beta), engine.NoMove
	}
	moves := e.pos.LegalMoves()
	if len(moves) == 0 {
		v := 0
		if e.pos.InCheck() {
			v = -nestInf + 100
		}
		if e.tw.On() {
			e.tw.Leave(v)
		}
		return v, engine.NoMove
	}
	first, iidScore := moves[0], 0
	if depth >= 3 {
		e.iid++
		if e.tw.On() {
			e.tw.Nested("iid", depth-2, alpha, beta, "", true)
		}
		var m engine.Move
		iidScore, m = e.search(depth-2, alpha, beta)
		if m != engine.NoMove {
			first = m
		}
	}
	for i, m := range moves {
		if m == first {
			moves[0], moves[i] = moves[i], moves[0]
			break
		}
	}
	ext := 0
	if depth >= 3 && e.extended == 0 && len(moves) > 1 {
		ext = e.singular(moves, depth, iidScore-50)
	}
	best, bestMove := -nestInf, engine.NoMove
	for i, m := range moves {
		x := 0
		if i == 0 {
			x = ext
		}
		if e.tw.On() {
			e.tw.Move(m.UCI(), i)
			if x > 0 {
				e.tw.Extension(x)
			}
			e.tw.Enter(m.UCI(), depth-1+x, -beta, -max(alpha, best))
		}
		e.pos.MakeMove(m)
		e.extended += x
		v, _ := e.search(depth-1+x, -beta, -max(alpha, best))
		e.extended -= x
		e.pos.UnmakeMove()
		if v = -v; v > best {
			best, bestMove = v, m
		}
		if best >= beta {
			break
		}
	}
	if e.tw.On() {
		e.tw.Leave(best)
	}
	return best, bestMove
}

// singular tests whether moves[0] is singular: every other move fails low
// against sb at half the depth. It returns the extension moves[0] gets.
func (e *nestEngine) singular(moves []engine.Move, depth, sb int) int {
	e.sing++
	if e.tw.On() {
		e.tw.Nested("singular", depth/2, sb-1, sb, moves[0].UCI(), false)
	}
	best := -nestInf
	for i, m := range moves[1:] {
		if e.tw.On() {
			e.tw.Move(m.UCI(), i)
			e.tw.Enter(m.UCI(), depth/2-1, -sb, -sb+1)
		}
		e.pos.MakeMove(m)
		v, _ := e.search(depth/2-1, -sb, -sb+1)
		e.pos.UnmakeMove()
		best = max(best, -v)
		if best >= sb {
			break
		}
	}
	if e.tw.On() {
		e.tw.Leave(best)
	}
	if best < sb {
		return 1
	}
	return 0
}

// qs is a captures-only quiescence search that stands pat.
func (e *nestEngine) qs(depth, alpha, beta int) int {
	stand := int(e.pos.Evaluate())
	if e.tw.On() {
		e.tw.StandPat(stand)
	}
	best := stand
	if best < beta {
		var l engine.MoveList
		e.pos.Generate(engine.GenCaptures, &l)
		for _, m := range l.Slice() {
			if e.tw.On() {
				e.tw.Enter(m.UCI(), depth-1, -beta, -max(alpha, best))
			}
			e.pos.MakeMove(m)
			e.nodes++
			v := -e.qs(depth-1, -beta, -max(alpha, best))
			e.pos.UnmakeMove()
			best = max(best, v)
			if best >= beta {
				break
			}
		}
	}
	if e.tw.On() {
		e.tw.Leave(best)
	}
	return best
}

// run searches fen to depth by iterative deepening and returns the
// stream it wrote and its node count.
func (e *nestEngine) run(tb testing.TB, fen string, depth int) []byte {
	tb.Helper()
	var buf bytes.Buffer
	pos, err := engine.ParseFEN(fen)
	if err != nil {
		tb.Fatal(err)
	}
	e.pos = pos
	e.tw = emit.NewHeader(&buf, emit.Header{Engine: "Nest 1.0", Nested: true, Scale: emit.Scale{Infinity: nestInf}})
	e.tw.Position("fen " + fen)
	e.tw.Limits("depth " + string(rune('0'+depth)))
	best := engine.NoMove
	for d := 1; d <= depth; d++ {
		e.tw.Root(d, -nestInf, nestInf, d)
		_, best = e.search(d, -nestInf, nestInf)
	}
	e.tw.End(best.UCI(), e.nodes)
	if err := e.tw.Flush(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// TestNestedEngine: an engine that makes IID and singular searches is
// recorded with its own node count equal to the stream's (less the roots
// of its singular tests, which it does not count and says so), every
// nested search is stored with its reason, and every reader (the
// snapshot, export, check, the viewer) reads the run.
func TestNestedEngine(t *testing.T) {
	e := &nestEngine{}
	stream := e.run(t, nestFEN, 4)
	if e.iid == 0 || e.sing == 0 {
		t.Fatalf("the engine made %d IID and %d singular searches, want some of each", e.iid, e.sing)
	}
	st, path := tracetest.CreateTrace(t)
	runs, err := Import(context.Background(), st, bytes.NewReader(stream), Options{})
	if err != nil || len(runs) != 1 {
		t.Fatalf("runs %+v, error %v", runs, err)
	}
	r := runs[0]
	if r.EngineNodes != e.nodes || r.Nodes-r.Uncounted != e.nodes || r.Uncounted != int64(e.sing) {
		t.Errorf("the engine counted %d nodes (end record: %d); the stream holds %d, %d of them uncounted; it made %d singular tests",
			e.nodes, r.EngineNodes, r.Nodes, r.Uncounted, e.sing)
	}
	ns, err := st.NestedSearches(context.Background(), r.RunID)
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, n := range ns {
		count[n.Reason]++
		if (n.Reason == "singular") != (n.Excluded != engine.NoMove) || (n.Reason == "singular") != n.Uncounted {
			t.Errorf("nested search %+v: only singular tests leave a move out, uncounted", n)
		}
	}
	if count["iid"] != e.iid || count["singular"] != e.sing {
		t.Errorf("stored %v, the engine made %d IID and %d singular searches", count, e.iid, e.sing)
	}
	checkReadBack(t, st, path, stream, runs)
	rep, err := check.Run(context.Background(), st, r.RunID, check.Options{})
	if err != nil || len(rep.Violations) > 0 {
		t.Errorf("check: %v, %+v", err, rep.Violations)
	}
}

// TestNestedLive: the same engine's stream recorded by trace --engine
// (an engine in sh that replays it on fd 3) holds the same nested
// searches as its import.
func TestNestedLive(t *testing.T) {
	e := &nestEngine{}
	stream := e.run(t, nestFEN, 3)
	file := filepath.Join(t.TempDir(), "nest.hzt")
	if err := os.WriteFile(file, stream, 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := StartEngine(context.Background(), []string{fakeEngine(t, `cat '`+file+`' >&3; echo "bestmove e2e4"`)})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	st := mustCreate(t)
	runs, err := g.Trace(context.Background(), st, []string{nestFEN}, EngineOptions{Limits: engine.Limits{Depth: 3}})
	if err != nil && !strings.Contains(err.Error(), "best") || len(runs) != 1 {
		t.Fatalf("runs %+v, error %v", runs, err)
	}
	ns, err := st.NestedSearches(context.Background(), runs[0].RunID)
	if err != nil {
		t.Fatal(err)
	}
	if len(ns) != e.iid+e.sing || runs[0].Nodes-runs[0].Uncounted != e.nodes {
		t.Errorf("live: %d nested searches, %d nodes (%d uncounted); the engine made %d, counted %d",
			len(ns), runs[0].Nodes, runs[0].Uncounted, e.iid+e.sing, e.nodes)
	}
}
