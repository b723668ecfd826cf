package check

import (
	"strings"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// foreignRules is how Run treats the run of another engine (recorded by
// horizon trace --engine or horizon import): it knows nothing of that
// engine's switches, so it applies only what holds for any alpha-beta
// engine: the tree's shape and sizes, legal moves (pseudo-legal ones for an
// engine that declared them), in-check flags, bounds that agree with the
// window, a real move failing high ending its node with a fail high, a QS
// node that wrote its stand pat keeping to it, and, for an engine that
// declared fail-hard scores, every score inside its window.
type foreignRules struct {
	pseudo   bool // the engine searches pseudo-legal moves (king-capture engines)
	failHard bool
}

func newForeignRules(r trace.Run) *foreignRules {
	return &foreignRules{pseudo: r.MoveRule().Pseudo, failHard: r.FailHard}
}

// SkippedOtherEngine is Skipped.Reason for another engine's run, checked
// only by the rules that hold for any engine.
const SkippedOtherEngine = "other_engine"

// Skipped is the rules a run was not checked by and why: a reason code
// (SkippedOtherEngine), the rules by name, and the sentence the report
// prints.
type Skipped struct {
	Reason string   `json:"reason"`
	Rules  []string `json:"rules"`
	Text   string   `json:"text"`
}

// skipped says which rules are not applied and why.
func (fr *foreignRules) skipped() *Skipped {
	skip := []string{RuleQSMoves, RuleLeaf, RuleBest, RuleRun, RuleCounts, RuleKind}
	why := "rules of Horizon's own engine (its QS variants' move sets, its leaf causes, best moves, run node, move counts " +
		"and node kinds: a stream's kinds may be read off its windows, and an engine need not keep a scout's subtree nonpv)"
	if !fr.failHard {
		skip = append(skip, RuleScore)
		why += "; score: the engine declared fail-soft, whose scores may leave the window"
	}
	return &Skipped{Reason: SkippedOtherEngine, Rules: skip,
		Text: "skipped for another engine's run: " + strings.Join(skip, ", ") + " (" + why + ")"}
}

// legalFor reports whether m may be played at p's position: legal, or for
// an engine that declared it, pseudo-legal; a null move always may.
func (c *checker) legalFor(p *cframe, m engine.Move) bool {
	if c.foreign == nil {
		return c.legal(p, m)
	}
	if m == engine.NullMove {
		return true
	}
	if c.foreign.pseudo {
		return c.pos.IsPseudoLegal(m)
	}
	return c.legal(p, m)
}

// foreignScores checks a finished node of another engine's run.
func (c *checker) foreignScores(f *cframe) {
	n := f.n
	if n.Incomplete || n.Cause == engine.CauseStop || n.Kind == engine.KindRun {
		return
	}
	if n.Bound != engine.BoundNone {
		c.windowBound(n)
	}
	if c.foreign.failHard && (n.Score < n.Alpha || n.Score > n.Beta) {
		c.violate(n.ID, RuleScore, "fail-hard engine scored %s outside its window %s", c.score(n, n.Score), c.run.WindowText(n))
	}
	c.foreignStandPat(f)
	// A real move searched against the node's beta (its child's alpha is
	// -beta) that fails high cuts the node off: when it is the last child,
	// the node must fail high too. (Null moves, probes at other windows and
	// re-searches after it are not cutoffs.)
	if len(f.kids) == 0 || !f.tiled && c.filtered {
		return
	}
	k := f.kids[len(f.kids)-1]
	if k.incomplete || k.move == engine.NullMove || k.move == engine.NoMove || k.alpha != -n.Beta {
		return
	}
	if -k.score >= n.Beta && n.Score < n.Beta {
		c.violate(n.ID, RuleCutoff, "its last move %s failed high (%s >= beta %s), but the node scored %s", c.san(f, k.move),
			c.sc(-k.score), c.window(n, n.Beta), c.score(n, n.Score))
	}
}

// foreignStandPat checks a QS node that wrote its stand pat (an S record:
// "the static evaluation the current node stood pat on") against it, as
// any engine's QS keeps to the value it stands pat on: its score is never
// below it (a fail-hard engine's, below it or beta),
// and a stand pat at or above beta cuts the node off before any move. An
// engine that returns beta on a stand-pat cutoff while declaring fail-soft
// scores (a fail-soft/fail-hard mix), or searches on past its cutoff,
// breaks it. Nodes ended by a rule of their own (a hash hit, a draw, no
// moves, a stop) are left out: an engine may have written its eval before
// it found them.
func (c *checker) foreignStandPat(f *cframe) {
	n := f.n
	if n.Kind != engine.KindQS || !n.HasStandPat {
		return
	}
	switch n.Cause {
	case engine.CauseNone, engine.CauseBeta, engine.CauseStandPat, engine.CauseDelta, engine.CauseSEE:
	default:
		return
	}
	floor := n.StandPat
	if c.foreign.failHard {
		if n.Score < n.Alpha || n.Score > n.Beta {
			return // the score rule says so
		}
		floor = min(floor, n.Beta)
	}
	if n.Score < floor {
		c.violate(n.ID, RuleStandPat, "scored %s, below the stand pat %s it wrote", c.score(n, n.Score), c.sc(n.StandPat))
	}
	if n.StandPat < n.Beta {
		return
	}
	real := 0
	for _, k := range f.kids {
		if k.move != engine.NullMove && k.move != engine.NoMove {
			real++
		}
	}
	if real > 0 {
		c.violate(n.ID, RuleStandPat, "stand pat %s reaches beta %s, but the node searched %s after it",
			c.sc(n.StandPat), c.window(n, n.Beta), engine.CountOf(int64(real), "move", "moves"))
	}
}
