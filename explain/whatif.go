package explain

import (
	"context"
	"fmt"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// WhatIf is one re-search of a subtree's position with Horizon's engine.
type WhatIf struct {
	// Change names what the re-search changed: RecordedChange (the run's
	// own options), a switch flipped ("see-prune=true"), or for another
	// engine's run a Horizon preset ("horizon see").
	Change string
	Nodes  int64
	Score  engine.Score
	// Reproduces, for the recorded options' line: the re-search gave the
	// recorded subtree's nodes and score exactly.
	Reproduces *bool
	// ScoreChanged: the score differs from the recorded subtree's (a
	// cheaper search that changes the score is no free win).
	ScoreChanged bool
	// Why says why the line has no figures ("" when it has): the
	// recorded options' line of a subtree whose search depended on state
	// the trace does not hold.
	Why string
}

// RecordedChange is the Change of the line with the run's own options.
const RecordedChange = "recorded options"

// whatIfTarget is what a subtree's re-search searches: the position, the
// window, and a QS alone or a whole search to a depth.
type whatIfTarget struct {
	pos         *engine.Position
	alpha, beta engine.Score
	qs          bool
	depth       int
}

// WhatIfs re-searches the position of top, a node of run r, with
// Horizon's engine, the window and depth it was searched with: a QS root
// by the QS alone, the run node by the whole search to the run's depth.
// For Horizon's runs the first line has the recorded options and must
// reproduce the recorded subtree (nodes and score) where the run's state
// allows, then one line per switch that applies, flipped; for another
// engine's run, one line per Horizon preset, as a reference. A subtree of
// another kind (a full-width node below an iteration's root, a QS node
// below its root) depends on its ancestors' state (killers, history, the
// hash table, the check extension on its path, the QS ply): the one line
// says so. lim bounds each re-search (its Nodes, its MoveTime).
func WhatIfs(ctx context.Context, st trace.Reader, r trace.Run, top trace.Node, lim engine.Limits) ([]WhatIf, error) {
	opts, err := r.SearchOptions()
	if err != nil {
		return nil, err
	}
	tg, why, err := target(ctx, st, r, top)
	if err != nil {
		return nil, err
	}
	if why != "" {
		return []WhatIf{{Change: RecordedChange, Why: why}}, nil
	}
	recNodes, recScore := top.Nodes(), top.Score
	if top.Kind == engine.KindRun {
		recNodes, recScore = r.Nodes, engine.Score(r.Score)
	}
	var out []WhatIf
	s := new(engine.Searcher) // one for every line: SetOptions keeps its hash table's memory
	line := func(change string, o engine.Options) error {
		n, sc, stopped := searchAt(ctx, s, tg, o, lim)
		if err := ctx.Err(); err != nil {
			return err
		}
		w := WhatIf{Change: change, Nodes: n, Score: sc, ScoreChanged: sc != recScore}
		if stopped != engine.StopNone {
			w.Why = fmt.Sprintf("stopped by its %s limit after %s nodes", stopped, engine.Commas(n))
		}
		out = append(out, w)
		return nil
	}
	if opts == nil {
		for _, v := range engine.Variants() {
			o := v.Options
			o.Variant = v.Name
			if err := line("horizon "+v.Name, o); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	if err := line(RecordedChange, *opts); err != nil {
		return nil, err
	}
	rec := &out[0]
	ok := rec.Why == "" && rec.Nodes == recNodes && rec.Score == recScore
	rec.Reproduces = &ok
	if why := unreproducible(r, top, opts, tg.qs); why != "" && !ok {
		rec.Why = why
	}
	for _, f := range opts.WhatIfFlips(!tg.qs) {
		if err := line(f.Change, f.Options); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// target is the re-search a subtree gets, or why it gets none.
func target(ctx context.Context, st trace.Reader, r trace.Run, top trace.Node) (whatIfTarget, string, error) {
	lim, err := r.SearchLimits()
	if err != nil {
		return whatIfTarget{}, "", err
	}
	qsRoot := top.Kind == engine.KindQS && top.QSPly == 0
	if top.Kind == engine.KindRun && lim.QSOnly {
		// A QS-only run's run node stands for its QS root.
		qsRoot = true
	}
	if top.Kind != engine.KindRun && !qsRoot {
		return whatIfTarget{}, "a re-search starts at a QS root or the run node: this node's search depended on its ancestors' (killers, history, the hash table, the check extension on its path, its QS ply)", nil
	}
	pos, err := st.Position(ctx, r.ID, top.ID)
	if err != nil {
		return whatIfTarget{}, "", err
	}
	if lim.QSOnly && lim.LMPos != "" {
		// The move that led to a QS-only run's position is its history
		// (the recapture QS reads it).
		if p, err := engine.ParseFEN(lim.LMPos); err == nil {
			if m, err := p.ParseUCI(lim.LastMove); err == nil && p.IsLegal(m) {
				p.MakeMove(m)
				if p.Key() == pos.Key() {
					pos = p
				}
			}
		}
	}
	if qsRoot {
		alpha, beta := top.Alpha, top.Beta
		if top.Kind == engine.KindRun {
			alpha, beta = -engine.Infinity, engine.Infinity
		}
		return whatIfTarget{pos: pos, alpha: alpha, beta: beta, qs: true}, "", nil
	}
	if lim.Depth <= 0 {
		return whatIfTarget{}, "the run recorded no depth to search to", nil
	}
	return whatIfTarget{pos: pos, depth: lim.Depth}, "", nil
}

// searchAt runs one re-search and returns its nodes, score and stop.
func searchAt(ctx context.Context, s *engine.Searcher, tg whatIfTarget, o engine.Options, lim engine.Limits) (int64, engine.Score, engine.StopReason) {
	s.SetOptions(o)
	pos := tg.pos.Copy()
	if tg.qs {
		q := s.Quiesce(ctx, pos, tg.alpha, tg.beta, engine.Limits{Nodes: lim.Nodes, MoveTime: lim.MoveTime}, nil)
		return q.Nodes, q.Score, q.Stopped
	}
	res := s.Search(ctx, pos, engine.Limits{Depth: tg.depth, Nodes: lim.Nodes, MoveTime: lim.MoveTime}, nil)
	return res.Stats.Nodes, res.Score, res.Stopped
}

// unreproducible says why the recorded options' re-search of top may not
// give the recorded subtree: state of the run's search that the trace
// does not hold. "" when nothing known stands in the way.
func unreproducible(r trace.Run, top trace.Node, o *engine.Options, qs bool) string {
	lim, _ := r.SearchLimits()
	switch {
	case !r.Status.Ended() || r.Status == trace.StatusInterrupted || r.Status == trace.StatusTruncated || r.Status == trace.StatusFailed:
		return fmt.Sprintf("the run is %s: its search did not run to its end", r.Status)
	case top.Incomplete:
		return "the node was still open when the search stopped"
	case qs && o.QSUsesTT():
		return "its QS probes the hash table, whose entries from the search before it the trace does not hold"
	case qs && o.History && (o.QSChecks || o.QSMoves == engine.QSBeal) && !(top.Kind == engine.KindRun && lim.QSOnly):
		return "its QS orders quiet moves by the history table, which the search before it filled and the trace does not hold"
	case !qs && (lim.Nodes > 0 || lim.MoveTimeMS > 0):
		return "the run had a node or time limit"
	}
	return "the re-search differs from the recorded tree (please report it)"
}
