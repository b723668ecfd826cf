package trace

import (
	"context"

	"github.com/horizonqs/horizon/engine"
)

// synth feeds a tracer a deterministic pseudo-random search tree shaped
// like the engine's: a run node, one root per iteration, full-width nodes
// down to depth 0, then QS subtrees. With a position it plays legal moves
// (QS plays captures), so paths replay; without one the moves are
// arbitrary codes and generating them costs next to nothing (benchmarks).
type synth struct {
	tr    engine.Tracer
	rng   uint64
	next  int64
	pos   *engine.Position
	width int // children of a full-width node: 1..width
	qsMax int // deepest QS ply

	// Stopping, as the engine does it: poll ctx (every 64 nodes) or stop
	// at node stopAt; then the node returns with CauseStop and so do its
	// ancestors. abrupt: stop sending events at all (a crash, or a search
	// that does not unwind through the tracer).
	ctx     context.Context
	stopAt  int64
	abrupt  bool
	stopped bool
	nextExt int // plies of extension reported for the next child
}

func newSynth(tr engine.Tracer, seed uint64, pos *engine.Position) *synth {
	return &synth{tr: tr, rng: seed*0x9E3779B97F4A7C15 + 1, pos: pos, width: 3, qsMax: 6}
}

func (g *synth) rand(n int) int {
	g.rng ^= g.rng << 13
	g.rng ^= g.rng >> 7
	g.rng ^= g.rng << 17
	return int(g.rng % uint64(n))
}

// run searches iterations 1..iters and returns the number of nodes entered.
func (g *synth) run(iters int) int64 {
	g.tr.Enter(engine.EnterInfo{ID: 0, Parent: -1, Kind: engine.KindRun, QSLevel: -1, QSPly: -1, Alpha: -engine.Infinity, Beta: engine.Infinity})
	g.next = 1
	for it := 1; it <= iters && !g.stopped; it++ {
		g.node(0, 0, it, engine.KindRoot, engine.NoMove, it, -engine.Infinity, engine.Infinity, 0)
	}
	if !g.abrupt || !g.stopped {
		cause := engine.CauseNone
		if g.stopped {
			cause = engine.CauseStop
		}
		g.tr.Leave(engine.LeaveInfo{ID: 0, Cause: cause, CutIndex: -1})
	}
	return g.next
}

func (g *synth) shouldStop(id int64) bool {
	if g.stopAt > 0 && id >= g.stopAt {
		return true
	}
	return g.ctx != nil && id&63 == 0 && g.ctx.Err() != nil
}

func (g *synth) moves(qs bool) []engine.Move {
	if g.pos == nil {
		return nil
	}
	all := g.pos.LegalMoves()
	if !qs {
		return all
	}
	var caps []engine.Move
	for _, m := range all {
		if g.pos.IsCapture(m) {
			caps = append(caps, m)
		}
	}
	return caps
}

func (g *synth) node(parent int64, ply, depth int, kind engine.NodeKind, move engine.Move, iter int, alpha, beta engine.Score, qsPly int) {
	id := g.next
	g.next++
	myExt := g.nextExt // the Extension event before this node
	g.nextExt = 0
	qsLevel, enterQSPly := -1, -1
	if kind == engine.KindQS {
		qsLevel, enterQSPly = g.rand(3), qsPly
	}
	g.tr.Enter(engine.EnterInfo{ID: id, Parent: parent, Ply: ply, Depth: depth, Alpha: alpha, Beta: beta,
		Kind: kind, QSLevel: qsLevel, QSPly: enterQSPly, Move: move, InCheck: g.rand(9) == 0, Iteration: iter})
	if g.shouldStop(id) {
		g.stopped = true
		if !g.abrupt {
			g.tr.Leave(engine.LeaveInfo{ID: id, Cause: engine.CauseStop, CutIndex: -1})
		}
		return
	}
	stand := engine.Score(g.rand(600) - 300)
	if kind == engine.KindQS {
		g.tr.StandPat(engine.StandPatInfo{ID: id, Eval: stand, Cutoff: stand >= beta})
	}
	legal := g.moves(kind == engine.KindQS)
	n := 1 + g.rand(g.width)
	if kind == engine.KindQS {
		n = 0
		if qsPly < g.qsMax {
			n = g.rand(4)
		}
	}
	if g.pos != nil {
		n = min(n, len(legal))
	}
	var best engine.Move
	searched := 0
	for i := 0; i < n && !g.stopped; i++ {
		var m engine.Move
		if g.pos != nil {
			m = legal[(i*7+g.rand(3))%len(legal)]
		} else {
			m = engine.Move(g.rand(1 << 12))
		}
		g.tr.Move(engine.MoveInfo{ID: id, Move: m, Index: i})
		ext := 0
		if g.rand(25) == 0 {
			ext = 1
			g.tr.Extension(engine.ExtensionInfo{ID: id, Move: m, Plies: 1})
			g.nextExt = 1
		}
		ck := engine.KindQS
		cd := depth - 1 + ext
		if kind != engine.KindQS && cd > 0 {
			ck = engine.KindNonPV
			if (kind == engine.KindPV || kind == engine.KindRoot) && i == 0 {
				ck = engine.KindPV
			}
		}
		cq := 0
		if kind == engine.KindQS {
			cq = qsPly + 1
		}
		if g.pos != nil {
			g.pos.MakeMove(m)
		}
		g.node(id, ply+1, cd, ck, m, iter, -beta, -alpha, cq)
		if g.pos != nil {
			g.pos.UnmakeMove()
		}
		searched++
		if i == 0 {
			best = m
		}
	}
	if g.stopped && g.abrupt {
		return
	}
	l := engine.LeaveInfo{ID: id, Score: engine.Score(g.rand(2000) - 1000), Bound: engine.Bound(g.rand(4)),
		Cause: engine.Cause(g.rand(4)), CutIndex: -1, Best: best, Generated: len(legal) + n, Searched: searched,
		Extension: myExt}
	if l.Cause == engine.CauseBeta && searched > 0 {
		l.CutIndex = searched - 1
	}
	if kind == engine.KindQS {
		l.StandPat, l.HasStand = stand, true
	}
	if g.stopped {
		l.Cause = engine.CauseStop
	}
	g.tr.Leave(l)
}

// memTracer is the reference the recorder is checked against: it keeps
// every node in memory the obvious way.
type memTracer struct {
	nodes map[int64]*Node
	stack []int64
	last  int64
}

func newMemTracer() *memTracer { return &memTracer{nodes: map[int64]*Node{}} }

func (m *memTracer) Enter(e engine.EnterInfo) {
	m.nodes[e.ID] = &Node{ID: e.ID, Parent: e.Parent, Ply: e.Ply, Iteration: e.Iteration, Depth: e.Depth,
		Move: e.Move, Alpha: e.Alpha, Beta: e.Beta, Kind: e.Kind, QSLevel: e.QSLevel, QSPly: e.QSPly, InCheck: e.InCheck, CutIndex: -1}
	m.stack = append(m.stack, e.ID)
	m.last = e.ID
}
func (m *memTracer) StandPat(e engine.StandPatInfo) {
	n := m.nodes[e.ID]
	n.StandPat, n.HasStandPat = e.Eval, true
}
func (m *memTracer) Move(engine.MoveInfo)           {}
func (m *memTracer) Extension(engine.ExtensionInfo) {}
func (m *memTracer) Leave(l engine.LeaveInfo) {
	n := m.nodes[l.ID]
	m.stack = m.stack[:len(m.stack)-1]
	n.Score, n.Bound, n.Cause, n.CutIndex, n.Best = l.Score, l.Bound, l.Cause, l.CutIndex, l.Best
	n.Generated, n.Searched, n.Extension = l.Generated, l.Searched, l.Extension
	if l.HasStand {
		n.StandPat, n.HasStandPat = l.StandPat, true
	}
	n.SubtreeSize = m.last - n.ID + 1
}

// teeTracer sends every event to two tracers.
type teeTracer struct{ a, b engine.Tracer }

func (t teeTracer) Enter(e engine.EnterInfo)         { t.a.Enter(e); t.b.Enter(e) }
func (t teeTracer) StandPat(e engine.StandPatInfo)   { t.a.StandPat(e); t.b.StandPat(e) }
func (t teeTracer) Move(e engine.MoveInfo)           { t.a.Move(e); t.b.Move(e) }
func (t teeTracer) Extension(e engine.ExtensionInfo) { t.a.Extension(e); t.b.Extension(e) }
func (t teeTracer) Leave(e engine.LeaveInfo)         { t.a.Leave(e); t.b.Leave(e) }
