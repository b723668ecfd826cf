package engine

import (
	"context"
	"time"
)

// QSResult is the outcome of a quiescence search run alone (Quiesce).
type QSResult struct {
	Score    Score
	Bound    Bound // of Score against the window Quiesce was given
	QSNodes  int64 // quiescence nodes, the QS root included
	Nodes    int64 // positions the QS visited (as in Stats.Nodes; the run node is not one)
	MaxQSPly int   // deepest QS ply reached (0: the root alone)
	Stats    Stats // the engine's counters for this QS
	Elapsed  time.Duration
	Stopped  StopReason // StopNone when the QS finished
	PV       []Move     // the QS line from pos; empty when the root stood pat
}

// Quiesce runs the searcher's quiescence search alone from pos, as if pos
// were a horizon node of a search (depth 0, ply 0), with the window
// (alpha, beta), and leaves pos as it found it. It calls the same QS
// dispatcher a search calls at its horizon, so every QS switch of the
// options applies as it does there; with no QS (qs-moves none) the node is
// a horizon node that returns the static evaluation, and QSNodes is 0. The moves made on pos before the call are its history: the
// recapture variant reads the last of them, as at a real horizon node.
//
// The tracer, if not nil, sees a run node (id 0) and the QS tree under it,
// so a recorder stores a QS-only run like any other. lim.Nodes and
// lim.MoveTime stop a runaway QS (Stopped says so); lim.Depth is ignored.
func (s *Searcher) Quiesce(ctx context.Context, pos *Position, alpha, beta Score, lim Limits, tr Tracer) QSResult {
	s.begin(ctx, pos, lim, tr)
	s.iteration = 0
	root := &s.stack[0]
	root.checkExt, root.ext = false, 0

	s.enterRun(0, alpha, beta)
	score := s.quiesce(alpha, beta, 0)
	bound := BoundOf(score, alpha, beta)
	if s.stopped {
		bound = BoundNone
	}
	f := &s.stack[0]
	pv := append([]Move{}, f.pv[:f.pvLen]...)
	best := NoMove
	if len(pv) > 0 {
		best = pv[0]
	}
	if traceHooks && s.tr != nil {
		cause := CauseNone
		if s.stopped {
			cause = CauseStop
		}
		s.tr.Leave(LeaveInfo{ID: 0, Score: score, Bound: bound, Cause: cause, CutIndex: -1,
			Best: best, Generated: 1, Searched: 1})
	}
	return QSResult{Score: score, Bound: bound, QSNodes: s.stats.QSNodes, Nodes: s.stats.Nodes,
		MaxQSPly: s.stats.MaxQSPly, Stats: s.stats, Elapsed: time.Since(s.start), Stopped: s.stopReason, PV: pv}
}
