// The score rules: a finished node's score, bound and cutoff against its
// window, its stand pat and its searched children, and the run's totals.

package check

import (
	"fmt"
	"slices"
	"strings"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// boundOf is engine.BoundOf written again on purpose: the checker is an
// independent check of the engine (N-version checking), so a fault in the
// engine's rule shows up as violations rather than being shared.
func boundOf(score, alpha, beta engine.Score) engine.Bound {
	switch {
	case score >= beta:
		return engine.BoundLower
	case score > alpha:
		return engine.BoundExact
	}
	return engine.BoundUpper
}

// scores checks a finished node's score, bound and cutoff.
func (c *checker) scores(f *cframe) {
	n := f.n
	if n.Incomplete || n.Cause == engine.CauseStop {
		return // a stopped node's score describes a partial search
	}
	if n.Kind == engine.KindRun {
		c.runNode(f)
		return
	}
	switch n.Bound {
	case engine.BoundNone:
		c.violate(n.ID, RuleBound, "bound none on a node that finished (%s)", cutText(n))
		return
	case engine.BoundLower:
		if n.Score < n.Beta {
			c.violate(n.ID, RuleBound, "fails high (lower bound) with score %s below beta %s", c.score(n, n.Score), c.window(n, n.Beta))
		}
	case engine.BoundUpper:
		if n.Score > n.Alpha {
			c.violate(n.ID, RuleBound, "fails low (upper bound) with score %s above alpha %s", c.score(n, n.Score), c.window(n, n.Alpha))
		}
	}
	searched := isSearchCause(n.Cause)
	if searched || n.Cause == engine.CauseStandPat {
		c.windowBound(n)
	}
	if isLeafCause(n.Cause) && len(f.kids) > 0 {
		c.violate(n.ID, RuleLeaf, "ended before its moves (%s), but has %d children", n.Cause.LongLabel(), len(f.kids))
	}
	qs := n.Kind == engine.KindQS
	sp := qs && c.standsPat(n)
	switch n.Cause {
	case engine.CauseRepetition, engine.CauseFifty, engine.CauseMaterial:
		if n.Score != engine.DrawScore {
			c.violate(n.ID, RuleScore, "%s scored %s, want %s", n.Cause.LongLabel(), c.score(n, n.Score), c.score(n, engine.DrawScore))
		}
	case engine.CauseMate:
		want := engine.DrawScore
		if n.InCheck {
			want = -engine.MateScore + engine.Score(n.Ply)
		}
		if n.Score != want {
			c.violate(n.ID, RuleScore, "no legal move (%s) scored %s, want %s", inCheckWord(n.InCheck), c.score(n, n.Score), c.score(n, want))
		}
	case engine.CauseHorizon:
		if !n.HasStandPat || n.Score != n.StandPat {
			c.violate(n.ID, RuleScore, "horizon node scored %s, want its static eval %s", c.score(n, n.Score), c.standText(n))
		}
	case engine.CauseStandPat:
		switch {
		case !qs || !sp:
			c.violate(n.ID, RuleStandPat, "a stand-pat cutoff in a node whose variant does not stand pat here")
		case !n.HasStandPat:
			c.violate(n.ID, RuleStandPat, "a stand-pat cutoff with no stand pat recorded")
		case n.Score != n.StandPat || n.StandPat < n.Beta:
			c.violate(n.ID, RuleStandPat, "stand-pat cutoff scored %s with stand pat %s and beta %s, want score = stand pat >= beta",
				c.score(n, n.Score), c.sc(n.StandPat), c.window(n, n.Beta))
		}
	}
	// Nodes ended before their stand pat (a hash hit, a draw, the ply
	// limit) have none to keep to.
	if sp && (searched || n.Cause == engine.CauseStandPat) {
		switch {
		case !n.HasStandPat:
			c.violate(n.ID, RuleStandPat, "variant %s stands pat here, but no stand pat is recorded", c.rep.Variant)
		case n.Score < n.StandPat:
			c.violate(n.ID, RuleStandPat, "scored %s, below its stand pat %s", c.score(n, n.Score), c.sc(n.StandPat))
		case n.StandPat >= n.Beta && n.Cause != engine.CauseStandPat:
			c.violate(n.ID, RuleStandPat, "stand pat %s reaches beta %s, but the node did not cut off (%s, %d children)",
				c.sc(n.StandPat), c.window(n, n.Beta), cutText(n), len(f.kids))
		}
	}
	if n.Cause == engine.CauseSEE || n.Cause == engine.CauseDelta {
		c.prunedCause(f)
	}
	if searched {
		c.searchedScore(f, sp)
	}
}

// deltaMargin is what delta pruning adds to a capture's victim.
func (c *checker) deltaMargin() int { return c.opts.DeltaMargin }

// prunedCause checks a node that reports every move pruned, by SEE or by
// delta pruning (the checker's own arithmetic on the node's position).
func (c *checker) prunedCause(f *cframe) {
	n, o, pos := f.n, &c.opts, c.pos
	if f.broken {
		return
	}
	rule, on := RuleSEE, o.SEEPrune
	if n.Cause == engine.CauseDelta {
		rule, on = RuleDelta, o.DeltaPrune
	}
	switch {
	case !on:
		c.violate(n.ID, rule, "%s, but the run's options have %s off", n.Cause.LongLabel(), rule)
		return
	case n.Kind != engine.KindQS:
		c.violate(n.ID, rule, "%s in a %s node: only QS prunes", n.Cause.LongLabel(), n.Kind)
		return
	case o.Evades(n.InCheck):
		c.violate(n.ID, rule, "%s in a node searching evasions, which prunes nothing", n.Cause.LongLabel())
		return
	case len(f.kids) > 0:
		c.violate(n.ID, rule, "%s says every move was pruned, but the node searched %d", n.Cause.LongLabel(), len(f.kids))
		return
	case !n.HasStandPat:
		c.violate(n.ID, rule, "%s with no static eval recorded", n.Cause.LongLabel())
		return
	}
	eval := int(n.StandPat)
	alpha := int(n.Alpha)
	if o.StandsPat(n.InCheck) {
		alpha = max(alpha, eval)
	}
	if n.Cause == engine.CauseDelta && n.Generated == 0 {
		swing := c.deltaSwing()
		if !o.StandsPat(n.InCheck) || eval+swing >= alpha {
			c.violate(n.ID, rule, "delta-pruned before its moves, but stand pat %s + %d (queen, margin%s) reaches alpha %s",
				c.sc(engine.Score(eval)), swing, map[bool]string{true: ", promotion", false: ""}[swing > engine.PieceValue(engine.Queen)+c.deltaMargin()], c.window(n, engine.Score(alpha)))
		}
		return
	}
	var l engine.MoveList
	pos.Generate(engine.GenAll, &l)
	for _, m := range l.Slice() {
		if !pos.IsCapture(m) || !o.QSAllows(pos, m, f.qsPly) {
			continue
		}
		if n.Cause == engine.CauseSEE && pos.SEE(m) < 0 {
			return
		}
		if n.Cause == engine.CauseDelta && m.Promotion() == engine.NoPieceType &&
			eval+engine.PieceValue(pos.Captured(m))+c.deltaMargin() <= alpha {
			return
		}
	}
	if n.Cause == engine.CauseSEE {
		c.violate(n.ID, rule, "%s: every capture pruned as losing by SEE, but none of the captures allowed here loses material", n.Cause.LongLabel())
	} else {
		c.violate(n.ID, rule, "%s: every capture delta-pruned, but none here is below alpha %s with eval %s and margin %d", n.Cause.LongLabel(), c.window(n, engine.Score(alpha)), c.sc(engine.Score(eval)), c.deltaMargin())
	}
}

// deltaSwing is the most delta pruning of a whole QS node assumes its
// moves can win: a queen plus the margin, and a promotion when a pawn of
// the side to move stands on its 7th rank (engine.Position.PawnOnSeventh,
// the engine's rule). The sum is written again on purpose: the checker is
// an independent check of the engine's arithmetic.
func (c *checker) deltaSwing() int {
	swing := engine.PieceValue(engine.Queen) + c.deltaMargin()
	if c.pos.PawnOnSeventh() {
		return swing + engine.PieceValue(engine.Queen) - engine.PieceValue(engine.Pawn)
	}
	return swing
}

// deltaBound is the most the captures QS node f delta-pruned were assumed
// to win, with a term naming it; ok is false when the node pruned none by
// delta (or the run has delta off, or the node searched evasions). The
// captures pruned are those its move set allows that its last pass did not
// search with eval + victim + margin at or below the alpha the node had
// after its stand pat; one pruned later, under an alpha its searched moves
// raised, is below that alpha and so below the node's score already.
func (c *checker) deltaBound(f *cframe, pass []kid) (bound engine.Score, term string, ok bool) {
	n, o, pos := f.n, &c.opts, c.pos
	if !o.DeltaPrune || n.Kind != engine.KindQS || o.Evades(n.InCheck) || !n.HasStandPat || f.broken {
		return 0, "", false
	}
	eval := int(n.StandPat)
	if n.Cause == engine.CauseDelta && n.Generated == 0 {
		return engine.Score(eval + c.deltaSwing()), fmt.Sprintf("delta-pruned node: eval %s + %d", c.sc(engine.Score(eval)), c.deltaSwing()), true
	}
	alpha := int(n.Alpha)
	if o.StandsPat(n.InCheck) {
		alpha = max(alpha, eval)
	}
	var l engine.MoveList
	pos.Generate(engine.GenAll, &l)
	best, bestMove := -engine.Infinity, engine.NoMove
	for _, m := range l.Slice() {
		if !pos.IsCapture(m) || m.Promotion() != engine.NoPieceType || !o.QSAllows(pos, m, f.qsPly) ||
			slices.ContainsFunc(pass, func(k kid) bool { return k.move == m }) {
			continue
		}
		if opt := eval + engine.PieceValue(pos.Captured(m)) + c.deltaMargin(); opt <= alpha && engine.Score(opt) > best {
			best, bestMove = engine.Score(opt), m
		}
	}
	if bestMove == engine.NoMove {
		return 0, "", false
	}
	return best, fmt.Sprintf("delta-pruned %s %s", pos.SAN(bestMove), c.sc(best)), true
}

// deltaSearched checks, in pass order, that no capture a QS node searched
// was one delta pruning skips: eval + victim + margin at or below the
// alpha the node had when it came to the move.
func (c *checker) deltaSearched(f *cframe, pass []kid) {
	n, o, pos := f.n, &c.opts, c.pos
	if !o.DeltaPrune || n.Kind != engine.KindQS || o.Evades(n.InCheck) || !n.HasStandPat || f.broken {
		return
	}
	eval := int(n.StandPat)
	alpha := int(n.Alpha)
	if o.StandsPat(n.InCheck) {
		alpha = max(alpha, eval)
	}
	for i := len(pass) - 1; i >= 0; i-- {
		k := pass[i]
		if pos.IsCapture(k.move) && k.move.Promotion() == engine.NoPieceType {
			if gain := engine.PieceValue(pos.Captured(k.move)); eval+gain+c.deltaMargin() <= alpha {
				c.violate(k.id, RuleDelta, "QS node %d searched %s with eval %s + victim %d + margin %d at or below alpha %s; delta pruning skips it",
					n.ID, pos.SAN(k.move), c.sc(engine.Score(eval)), gain, c.deltaMargin(), c.window(n, engine.Score(alpha)))
			}
		}
		alpha = max(alpha, int(c.value(f, k)))
	}
}

func (c *checker) standText(n trace.Node) string {
	if n.HasStandPat {
		return c.sc(n.StandPat)
	}
	return "(none recorded)"
}

// sc formats a score of the run as every reader does (trace.Run.Scores):
// ∞ and #N on Horizon's scale or the one another engine declared, as
// the viewer, export and diff print them. It is the format of a stand pat
// and of a node below the roots; a node's own score prints with score and
// its window with window, since a root's score and the run node's window
// print differently (trace.Run.NodeScores, WindowScores).
func (c *checker) sc(s engine.Score) string { return c.run.Scores().Text(s) }

// score formats s as node n's score prints in every reader
// (trace.Run.NodeScores): a root's score as a root's, which a micro-Max
// engine reports before its delayed-loss bonus.
func (c *checker) score(n trace.Node, s engine.Score) string { return c.run.NodeScores(n).Text(s) }

// window formats s as an end of node n's window prints
// (trace.Run.WindowScores).
func (c *checker) window(n trace.Node, s engine.Score) string { return c.run.WindowScores(n).Text(s) }

// routine is the engine routine that searched n (engine.NodeRoutine);
// the routines differ in how often they pass over the moves. Nodes of
// the full-width kind at depth 0 are the horizon leaves of a run without
// QS; QS nodes of old traces of none are horizon leaves too.
func (c *checker) routine(n trace.Node) engine.Routine {
	if n.Kind != engine.KindQS && n.Depth <= 0 {
		return engine.RoutineHorizon
	}
	if n.Kind == engine.KindQS {
		return c.opts.NodeRoutine(min(n.Depth, 0))
	}
	return c.opts.NodeRoutine(max(n.Depth, 1))
}

// lastPass returns the children whose scores the node's final score came
// from, last first: one per move, from the last pass over the move list.
// ok is false when the node's counts cannot describe its children (a
// violation is reported then).
func (c *checker) lastPass(f *cframe) (pass []kid, ok bool) {
	n, kids := f.n, f.kids
	r := c.routine(n)
	switch {
	case r == engine.RoutineUnified:
		// Iteration d searches its children at depth d-1 plus their
		// extension (QS children: one below the node).
		iter := func(k kid) int { return k.depth - k.ext }
		i := len(kids)
		for i > 0 && iter(kids[i-1]) == iter(kids[len(kids)-1]) {
			i--
		}
		kids = kids[i:]
	case r == engine.RoutineThreshold && (c.opts.SEEPrune || c.opts.DeltaPrune):
		// Pruned moves leave the counts short of the passes. Every pass
		// starts with alpha at the stand pat, so the first move it
		// searches is the same move: the last pass starts at its last
		// visit. (A pass with no child is only ever the single pass.)
		if len(kids) > 0 {
			first := kids[0].move
			i := len(kids) - 1
			for kids[i].move != first {
				i--
			}
			kids = kids[i:]
		}
	case r == engine.RoutineThreshold:
		// Every pass walks the same move order from its start, so the
		// cutoff says how many children the last pass has: up to the
		// move that failed high, before an auto-fail-high, or all.
		want, atLeast := n.Generated, n.GeneratedAtLeast
		switch n.Cause {
		case engine.CauseBeta:
			want, atLeast = n.CutIndex+1, n.CutIndexAtLeast
		case engine.CauseAutoFailHigh:
			want, atLeast = n.CutIndex, n.CutIndexAtLeast
		}
		if atLeast {
			// The file stores the count clamped: how many children the
			// last pass has is not known, and no rule about it can fail.
			return nil, false
		}
		if want < 0 || want > len(kids) {
			c.violate(n.ID, RuleCutoff, "%s implies %d moves in the last pass, but the node has %d children",
				cutText(n), want, len(kids))
			return nil, false
		}
		kids = kids[len(kids)-want:]
	}
	pvs := c.opts.PVS && n.Kind != engine.KindQS && (r == engine.RoutineSearch || r == engine.RoutineUnified)
	for i := len(kids) - 1; i >= 0; i-- {
		k := kids[i]
		if pvs && i+1 < len(kids) && kids[i+1].move == k.move {
			continue // the null-window search before its re-search
		}
		if slices.ContainsFunc(pass, func(x kid) bool { return x.move == k.move }) {
			c.violate(n.ID, RuleStructure, "move %s searched twice in one pass (nodes %d and %d)", c.san(f, k.move), k.id,
				pass[slices.IndexFunc(pass, func(x kid) bool { return x.move == k.move })].id)
			return nil, false
		}
		pass = append(pass, k)
	}
	return pass, true
}

// value is a child's score from the parent's side, with micro-Max's
// delayed-gain penalty when the variant uses it.
func (c *checker) value(f *cframe, k kid) engine.Score { return c.opts.Penalty(-k.score, f.eval) }

// scoreTerms writes the terms of the maximum searchedScore wants, as a
// violation quotes them: the stand pat, the last pass's moves (the first
// six terms, then "..."), auto-fail-high's beta, the delta-pruned bound
// (withDelta), or the static eval alone when there is none of them. Only
// a violation writes them: a SAN per move of every node was an eighth of
// a check.
func (c *checker) scoreTerms(f *cframe, pass []kid, standsPat bool, deltaTerm string, withDelta bool) string {
	n := f.n
	var terms []string
	if standsPat && n.HasStandPat {
		terms = append(terms, "stand pat "+c.sc(n.StandPat))
	}
	for i := len(pass) - 1; i >= 0; i-- {
		k := pass[i]
		if len(terms) < 6 {
			terms = append(terms, fmt.Sprintf("%s %s (node %d)", c.san(f, k.move), c.sc(c.value(f, k)), k.id))
		} else if len(terms) == 6 {
			terms = append(terms, "...")
		}
	}
	if n.Cause == engine.CauseAutoFailHigh {
		terms = append(terms, "auto-fail-high beta "+c.window(n, n.Beta))
	}
	if withDelta {
		terms = append(terms, deltaTerm)
	}
	if len(terms) == 0 && n.Kind == engine.KindQS && n.HasStandPat {
		terms = append(terms, "static eval "+c.sc(n.StandPat))
	}
	return strings.Join(terms, ", ")
}

// searchedScore checks the fail-soft maximum, the cutoff and the best move
// of a node that searched its moves.
func (c *checker) searchedScore(f *cframe, standsPat bool) {
	n := f.n
	if c.opts.DelayPenalty && f.broken {
		return // the penalty needs the eval, which needs the position
	}
	pass, ok := c.lastPass(f)
	if !ok {
		return
	}
	for _, k := range pass {
		if k.incomplete {
			return
		}
	}
	c.deltaSearched(f, pass)
	best, have := -engine.Infinity, false
	if standsPat && n.HasStandPat {
		best, have = n.StandPat, true
	}
	for _, k := range pass {
		best, have = max(best, c.value(f, k)), true
	}
	if n.Cause == engine.CauseAutoFailHigh {
		best, have = max(best, n.Beta), true
	}
	// A Horizon before 2026-11-25 did not count delta-pruned captures.
	oldBest, oldHave := best, have
	deltaB, deltaTerm, withDelta := c.deltaBound(f, pass)
	if withDelta {
		if !have || deltaB > best {
			best = deltaB
		}
		have = true
	}
	staticEval := func(best engine.Score, have bool) (engine.Score, bool) {
		if !have && n.Kind == engine.KindQS && n.HasStandPat {
			// Nothing searched and no stand pat: the static eval is all there is.
			return n.StandPat, true
		}
		return best, have
	}
	best, have = staticEval(best, have)
	oldBest, oldHave = staticEval(oldBest, oldHave)
	if !have {
		c.violate(n.ID, RuleScore, "searched no move (%s) and has nothing to score", cutText(n))
		return
	}
	differs := oldHave && oldBest != best
	switch {
	case best == n.Score:
		if differs {
			c.deltaNew++
		}
	case differs && oldBest == n.Score:
		c.deltaFaults.add(c, n.ID, fmt.Sprintf("scored %s, want %s = max(%s)", c.score(n, n.Score), c.score(n, best), c.scoreTerms(f, pass, standsPat, deltaTerm, withDelta)))
	default:
		c.violate(n.ID, RuleScore, "scored %s, want %s = max(%s)", c.score(n, n.Score), c.score(n, best), c.scoreTerms(f, pass, standsPat, deltaTerm, withDelta))
	}
	// A move that fails high ends its pass: it is the last one searched
	// and the node reports the cutoff.
	for i, k := range pass {
		v := c.value(f, k)
		switch {
		case v < n.Beta:
		case i > 0:
			c.violate(n.ID, RuleCutoff, "%s (node %d) scored %s at or above beta %s, but the search went on to %d more moves",
				c.san(f, k.move), k.id, c.sc(v), c.window(n, n.Beta), i)
		case n.Cause != engine.CauseBeta:
			c.violate(n.ID, RuleCutoff, "%s (node %d) scored %s at or above beta %s, but the node reports %s",
				c.san(f, k.move), k.id, c.sc(v), c.window(n, n.Beta), cutText(n))
		}
	}
	if n.Cause == engine.CauseBeta {
		if len(pass) == 0 {
			c.violate(n.ID, RuleCutoff, "beta cutoff with no move searched")
		} else if v := c.value(f, pass[0]); v < n.Beta {
			c.violate(n.ID, RuleCutoff, "beta cutoff, but the last move searched, %s (node %d), scored %s below beta %s",
				c.san(f, pass[0].move), pass[0].id, c.sc(v), c.window(n, n.Beta))
		}
	}
	if n.Best != engine.NoMove && n.Cause != engine.CauseAutoFailHigh {
		i := slices.IndexFunc(pass, func(k kid) bool { return k.move == n.Best })
		switch {
		case i < 0:
			c.violate(n.ID, RuleBest, "best move %s was not searched in the last pass", c.san(f, n.Best))
		case c.value(f, pass[i]) != n.Score:
			c.violate(n.ID, RuleBest, "best move %s (node %d) scored %s, the node %s", c.san(f, n.Best), pass[i].id, c.sc(c.value(f, pass[i])), c.score(n, n.Score))
		case n.Bound == engine.BoundExact && pass[i].bound != engine.BoundExact:
			c.violate(n.ID, RuleProved, "exact score %s taken from %s (node %d), whose search proved only a bound: %s",
				c.score(n, n.Score), c.san(f, n.Best), pass[i].id, pass[i].bound.LongLabel())
		}
	}
}

// counts checks a finished node's move counts against its children, all
// of which the walk has seen. The file stores counts up to 255; trace
// reads a larger searched count from the child rows, so there the rule
// checks that reading.
func (c *checker) counts(f *cframe) {
	n := f.n
	if n.Incomplete || n.Cause == engine.CauseStop {
		return // a stopped node counted what it had searched so far
	}
	searched := len(f.kids)
	if n.Kind != engine.KindRun { // the run node's children are its iterations, one search each
		for i := 1; i < len(f.kids); i++ {
			prev, k := f.kids[i-1], f.kids[i]
			// The re-search of a move PVS tried with a null window: the
			// same move, depth and extension, a wider window. The
			// extension tells it from the unified search's next
			// iteration, which may search the same move at the same depth
			// with a wider window when the check extension gave it a ply
			// in the iteration before (depth d-1 = d-2 + 1).
			if k.move == prev.move && k.depth == prev.depth && k.ext == prev.ext && k.beta-k.alpha > prev.beta-prev.alpha {
				searched--
			}
		}
	}
	if n.Searched != searched || n.SearchedAtLeast {
		c.violate(n.ID, RuleCounts, "%s, but its children are searches of %d moves", engine.SearchedText(n.Searched, n.SearchedAtLeast), searched)
	}
	// A clamped generated count (GeneratedAtLeast) says 255 or more: any
	// number of different moves past it may have been generated.
	if n.Kind == engine.KindRun || n.Generated >= searched || n.GeneratedAtLeast {
		return
	}
	// A pass searches each move once: the moves of the largest pass (PVS
	// re-searches and later passes repeat moves) were all generated.
	if distinct := c.distinctMoves(f.kids); n.Generated < distinct {
		c.violate(n.ID, RuleCounts, "generated %d, but it searched %d different moves", n.Generated, distinct)
	}
}

// distinctMoves counts the different moves among kids.
func (c *checker) distinctMoves(kids []kid) int {
	c.moves = c.moves[:0]
	for _, k := range kids {
		c.moves = append(c.moves, k.move)
	}
	slices.Sort(c.moves)
	return len(slices.Compact(c.moves))
}

// runNode checks the run node against its last iteration.
func (c *checker) runNode(f *cframe) {
	n := f.n
	if n.Cause != engine.CauseNone || len(f.kids) == 0 {
		return
	}
	last := f.kids[len(f.kids)-1]
	if last.incomplete {
		return
	}
	if n.Score != last.score {
		c.violate(n.ID, RuleRun, "run scored %s, its last iteration (node %d) %s", c.score(n, n.Score), last.id,
			c.score(trace.Node{Kind: last.kind}, last.score))
	}
}

// runTotals compares the run's totals with the rows walked.
func (c *checker) runTotals() {
	r := c.run
	if c.filtered || r.Status.Partial() {
		return
	}
	if c.rows != r.Rows {
		c.violate(0, RuleSize, "the run lists %s rows, the file holds %s", engine.Commas(r.Rows), engine.Commas(c.rows))
	}
	// The run node is a row but no position visited.
	if c.rootEnd != r.Nodes+1 {
		c.violate(0, RuleSize, "the run visited %s nodes, its run node's subtree holds %s (itself and %s)", engine.Commas(r.Nodes),
			engine.Commas(c.rootEnd), engine.Commas(c.rootEnd-1))
	}
	if c.qsRows != r.QSNodes {
		c.violate(0, RuleSize, "the run counts %s QS nodes, the file holds %s", engine.Commas(r.QSNodes), engine.Commas(c.qsRows))
	}
}

// lastMoveHistory returns a QS-only run's root position with the move that
// led to it made, when the run's limits record it ("lmpos", the position it
// was played from, and "last_move"; 'horizon trace --qs-only' writes them),
// so that a QS that reads the last move is checked against the same one.
func lastMoveHistory(r trace.Run) (*engine.Position, bool) {
	lim, err := r.SearchLimits()
	if err != nil || lim.LMPos == "" || lim.LastMove == "" {
		return nil, false
	}
	pos, err := engine.ParseFEN(lim.LMPos)
	if err != nil {
		return nil, false
	}
	m, err := pos.ParseUCI(lim.LastMove)
	if err != nil {
		return nil, false
	}
	pos.MakeMove(m)
	if pos.FEN() != r.FEN {
		return nil, false
	}
	return pos, true
}

// windowBound reports a node whose bound is not the one its score makes
// in its window (boundOf).
func (c *checker) windowBound(n trace.Node) {
	if want := boundOf(n.Score, n.Alpha, n.Beta); n.Bound != want {
		c.violate(n.ID, RuleBound, "score %s in window %s makes the bound %s, the node says %s", c.score(n, n.Score), c.run.WindowText(n), want, n.Bound)
	}
}
