package compare

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// Rule names: why two searches part at a node. ruleTable is their one
// home; the extension rules are the engine's growth causes' names.
const (
	RuleNoQS         = "no-qs"
	RuleQSMoves      = "qs-moves"
	RuleQSChecks     = "qs-checks"
	RuleEvasions     = "evasions"
	RuleSEEPrune     = "see-prune"
	RuleDeltaPrune   = "delta-prune"
	RuleStandPat     = "stand-pat"
	RuleOrder        = "order"
	RulePVS          = "pvs"
	RuleLevelPass    = "level-pass"
	RuleAutoFailHigh = "auto-fail-high"
	RuleQSLevels     = "qs-levels"
	RuleIteration    = "iteration"
	RuleTT           = "tt"
	RuleWindow       = "window"
	RuleDepth        = "depth"
	RuleBelow        = "below"
	RuleSearched     = "searched"
	RuleEval         = "eval"
)

// RuleInfo is one row of the rule table: a rule's name, what it means, and
// how a count of it reads in diff's summary.
type RuleInfo struct {
	Name    string
	Meaning string
	// Summary words one divergence of the rule in the summary; %[1]s is
	// the run that does what the rule says, %[2]s the other.
	Summary string
	// Caused: the rule names a difference that follows from an earlier
	// one (Why.CausedBy points to it), so the summary counts it apart.
	Caused bool
}

var ruleTable = []RuleInfo{
	{RuleNoQS, "one run has no QS (qs-moves none): its horizon node returns the static eval where the other searches QS", "%[1]s has no QS where %[2]s searches one", false},
	{RuleQSMoves, "the QS move sets differ (qs-moves): a move one QS allows the other's does not", "%[1]s's QS leaves out a move %[2]s's searches", false},
	{RuleQSChecks, "one QS searches quiet checks at its first ply (qs-checks)", "%[1]s searches a quiet check in QS", false},
	{RuleEvasions, "in check in QS one searches every evasion (qs-evasions) where the other stands pat or searches its move set", "%[1]s searches every evasion in check", false},
	{RuleSEEPrune, "one prunes a capture that loses material by SEE (see-prune)", "%[1]s prunes a losing capture %[2]s searches", false},
	{RuleDeltaPrune, "one prunes a capture, or gives a node up, that cannot lift the eval to alpha (delta)", "%[1]s delta-prunes what %[2]s searches", false},
	{RuleStandPat, "one stands pat on a static eval at or above beta where the other searches on (stand-pat)", "%[1]s stands pat where %[2]s searches on", false},
	{RuleOrder, "the same moves in another order (qs-order, killers, history, hash moves)", "%[1]s cuts later: another move order", false},
	{engine.GrowthCheckExt.String(), "one extends a check at the horizon (check-ext)", "%[1]s extends a check", false},
	{engine.GrowthRecaptureExt.String(), "one extends a recapture (recapture-ext)", "%[1]s extends a recapture", false},
	{engine.GrowthThresholdExt.String(), "one threshold QS extends a cheap capture (keeps its level)", "%[1]s extends a cheap capture", false},
	{engine.GrowthExt.String(), "one extends a move for a reason the trace does not record", "%[1]s extends a move", false},
	{RulePVS, "one searches with a null window (pvs) where the other gives the full window, or re-searches after a scout", "%[1]s scouts or re-searches (pvs)", false},
	{RuleLevelPass, "the threshold QS searches its QS root's moves again at the next level (qs-levels)", "%[1]s searches a QS root again at the next level", false},
	{RuleAutoFailHigh, "a threshold QS node fails high by rule: a capture had no level left (qs-levels)", "%[1]s fails high by rule (no level left)", false},
	{RuleQSLevels, "the threshold QS's levels differ (qs-levels)", "%[1]s has other QS levels", false},
	{RuleIteration, "the unified search searches a node's moves again in its next iteration (unified)", "%[1]s searches a node again in its next iteration", false},
	{RuleTT, "one takes a hash-table answer (tt)", "%[1]s takes a hash-table answer", false},
	{RuleEval, "the static evaluations of the position differ (another engine's evaluation)", "the static evaluations differ", false},
	{RuleSearched, "what the records show: one searched a move the other did not, for a reason no switch of Horizon's names", "%[1]s searches a move %[2]s does not", false},
	{RuleWindow, "the windows differ because of an earlier difference (caused_by)", "the windows differ", true},
	{RuleDepth, "the depths differ because of an earlier difference (caused_by)", "the depths differ", true},
	{RuleBelow, "a score differs because of a difference below the node (caused_by)", "a score differs below", true},
}

// Rules returns the rule table: every rule diff's reasons name, in a
// fixed order.
func Rules() []RuleInfo { return slices.Clone(ruleTable) }

func ruleInfo(name string) RuleInfo {
	for _, r := range ruleTable {
		if r.Name == name {
			return r
		}
	}
	return RuleInfo{Name: name, Summary: name}
}

// Why is the reason of one divergence: the rule that made it, in words,
// and, for a difference that follows from an earlier one, where that is.
type Why struct {
	Rule string `json:"rule"`
	Text string `json:"text"`
	// CausedBy is the node (A's id, B's where A has none) of the earlier
	// difference this one follows from; null for a difference of its own.
	CausedBy *int64 `json:"caused_by"`
	// actor is the run that does what the rule says ("A", "B"; "" when
	// neither alone).
	actor string
	// follows: the difference follows from earlier ones that no one node
	// holds (two hash tables filled by trees that differ); the summary
	// counts it with the caused ones.
	follows bool
	// origin is the difference of its own this one follows from, where
	// a parent's is (see firstWhy).
	origin *Why
}

// view is one run's side of a matched pair of nodes.
type view struct {
	name string // "A" or "B"
	run  trace.Run
	opts *engine.Options // nil: another engine's run
	n    trace.Node
	kids []trace.Node // in search order
	up   *trace.Node  // the parent; nil above the iterations
}

// explain says why the matched pair v[0] (A) and v[1] (B) differ, at
// position pos (nil where the moves could not be replayed): what the
// nodes show on entry, how they stop, then the first of their children,
// in search order, that differs. upWhy is the parent pair's reason (nil
// when it has none). It returns nil when the pair's own search does not
// differ.
func explain(pos *engine.Position, v [2]view, upWhy *Why) *Why {
	a, b := v[0].n, v[1].n
	// Entry.
	if (a.Kind == engine.KindQS) != (b.Kind == engine.KindQS) {
		for i := range v {
			if n := v[i].n; n.Kind != engine.KindQS && n.Cause == engine.CauseHorizon {
				o := v[1-i]
				return &Why{Rule: RuleNoQS, actor: v[i].name, Text: fmt.Sprintf("%s has no QS (qs-moves none): its horizon node returns the static eval %s; %s searches QS here (%s)",
					v[i].name, v[i].run.NodeScores(n).Text(n.Score), o.name, o.run.MovesText(o.n))}
			}
		}
	}
	if a.Depth != b.Depth {
		if a.Extension != b.Extension {
			i := 0
			if b.Extension > a.Extension {
				i = 1
			}
			n := v[i].n
			prev := engine.NoMove
			if v[i].up != nil {
				prev = v[i].up.Move
			}
			rule := trace.ChainCause(v[i].opts, prev, n.Move, n.InCheck, n.Kind == engine.KindQS).String()
			return &Why{Rule: rule, actor: v[i].name, Text: fmt.Sprintf("%s extends %s by %s (%s), %s by %s",
				v[i].name, moveSAN(pos, n.Move), plies(n.Extension), rule, v[1-i].name, plies(v[1-i].n.Extension))}
		}
		return caused(RuleDepth, v, upWhy, fmt.Sprintf("the depths differ, %d vs %d", a.Depth, b.Depth))
	}
	if !SameWindow(v[0].run, v[1].run, a, b) || a.Kind != b.Kind {
		null := [2]bool{a.Beta-a.Alpha == 1, b.Beta-b.Alpha == 1}
		for i := range v {
			if o := v[1-i].opts; null[i] && !null[1-i] && v[i].opts != nil && v[i].opts.PVS && o != nil && !o.PVS {
				return &Why{Rule: RulePVS, actor: v[i].name, Text: fmt.Sprintf("%s searches %s with a null window %s (pvs), %s with %s (pvs false)",
					v[i].name, moveSAN(pos, v[i].n.Move), v[i].run.WindowText(v[i].n), v[1-i].name, v[1-i].run.WindowText(v[1-i].n))}
			}
		}
		return caused(RuleWindow, v, upWhy, fmt.Sprintf("the windows differ, %s vs %s", v[0].run.WindowText(a), v[1].run.WindowText(b)))
	}
	if !SameLevel(a, b) {
		// QS roots' levels (the runs' qs-levels) are the same by
		// SameLevel: where the levels make the searches part, a root's
		// extra pass says so (researchWhy).
		return caused(RuleQSLevels, v, upWhy, fmt.Sprintf("QS level %d in A, %d in B", a.QSLevel, b.QSLevel))
	}
	// How each node stops before its moves.
	if a.Cause != b.Cause {
		for i := range v {
			if w := stopWhy(pos, v[i], v[1-i]); w != nil {
				return w
			}
		}
	}
	if a.HasStandPat && b.HasStandPat && !sameOnScales(v[0].run.NodeScores(a), v[1].run.NodeScores(b), a.StandPat, b.StandPat) {
		return &Why{Rule: RuleEval, Text: fmt.Sprintf("the static evals differ, A %s, B %s", v[0].run.NodeScores(a).Signed(a.StandPat), v[1].run.NodeScores(b).Signed(b.StandPat))}
	}
	if w := standWhy(v); w != nil {
		return w
	}
	if w := unrecordedStandWhy(v); w != nil {
		return w
	}
	// The first child, in search order, that differs.
	if w := childWhy(pos, v); w != nil {
		return w
	}
	// The same moves searched in the same order.
	if v[0].run.GeneratedRecorded(a) && v[1].run.GeneratedRecorded(b) && a.Generated != b.Generated {
		if w := moveSetWhy(pos, v); w != nil {
			return w
		}
	}
	for i := range min(len(v[0].kids), len(v[1].kids)) {
		ka, kb := v[0].kids[i], v[1].kids[i]
		if !SameScore(v[0].run, v[1].run, ka, kb) || ka.Bound != kb.Bound {
			id := ka.ID
			return &Why{Rule: RuleBelow, CausedBy: &id, Text: fmt.Sprintf("%s scores %s in A, %s in B: from the difference below at node %d",
				moveSAN(pos, ka.Move), v[0].run.NodeScores(ka).Text(ka.Score), v[1].run.NodeScores(kb).Text(kb.Score), id)}
		}
	}
	if a.Cause == engine.CauseTT && b.Cause == engine.CauseTT {
		return &Why{Rule: RuleTT, follows: true, Text: fmt.Sprintf("both take a hash-table answer, A %s, B %s: the tables were filled by trees that differ (tt)",
			v[0].run.NodeScores(a).Text(a.Score), v[1].run.NodeScores(b).Text(b.Score))}
	}
	if a.Cause != b.Cause || a.CutIndex != b.CutIndex || !SameScore(v[0].run, v[1].run, a, b) {
		return &Why{Rule: RuleSearched, Text: fmt.Sprintf("the same moves searched: A %s, B %s", v[0].run.CutText(a), v[1].run.CutText(b))}
	}
	return nil
}

// caused is a difference that follows from the parent pair's: the rule
// and text given, pointing to where the parent's difference shows.
func caused(rule string, v [2]view, upWhy *Why, text string) *Why {
	w := &Why{Rule: rule, Text: text}
	if upWhy != nil {
		w.origin = upWhy.origin
		if w.origin == nil && upWhy.CausedBy == nil {
			w.origin = upWhy
		}
	}
	var at *int64
	switch {
	case upWhy != nil && upWhy.CausedBy != nil && *upWhy.CausedBy < v[0].n.ID:
		// The parent's difference follows from an earlier one: so does
		// this. (A parent's "below" points to this node or later: then
		// the parent is where this one comes from.)
		at = upWhy.CausedBy
	case v[0].up != nil && isPosition(*v[0].up):
		id := v[0].up.ID
		at = &id
	}
	if at != nil {
		w.CausedBy = at
		w.Text += fmt.Sprintf(": from the earlier difference at node %d", *at)
	}
	return w
}

// firstWhy is the reason of a first difference: one that follows from a
// difference of its parents' (windows a stand pat raised in one run only)
// says the rule it follows from, with its own words after.
func firstWhy(w *Why) *Why {
	if w == nil || w.origin == nil {
		return w
	}
	return &Why{Rule: w.origin.Rule, actor: w.origin.actor, Text: w.origin.Text + "; so " + w.Text}
}

// unrecordedStandWhy: another engine's QS node whose stand pat its
// stream did not record passes its children another window than the
// other run's node, which records its eval: the evals (or whether one
// stands pat) differ, as far as the records show.
func unrecordedStandWhy(v [2]view) *Why {
	a, b := v[0].n, v[1].n
	if a.Kind != engine.KindQS || b.Kind != engine.KindQS || a.HasStandPat == b.HasStandPat ||
		len(v[0].kids) == 0 || len(v[1].kids) == 0 || v[0].kids[0].Move != v[1].kids[0].Move ||
		SameWindow(v[0].run, v[1].run, v[0].kids[0], v[1].kids[0]) {
		return nil
	}
	s, o := v[0], v[1] // s records no stand pat
	if s.n.HasStandPat {
		s, o = o, s
	}
	if s.opts != nil {
		return nil
	}
	return &Why{Rule: RuleEval, Text: fmt.Sprintf("%s's stream records no stand pat here, %s's eval is %s: the evals differ, or whether %s stands pat",
		s.name, o.name, o.run.NodeScores(o.n).Signed(o.n.StandPat), s.name)}
}

// standWhy: one run's QS node stands pat and raises alpha (or cuts), the
// other's may not stand pat there: the windows below part.
func standWhy(v [2]view) *Why {
	a, b := v[0].n, v[1].n
	if a.Kind != engine.KindQS || b.Kind != engine.KindQS || !a.HasStandPat || v[0].opts == nil || v[1].opts == nil {
		return nil
	}
	for i := range v {
		s, o := v[i], v[1-i]
		if !s.opts.StandsPat(s.n.InCheck) || o.opts.StandsPat(o.n.InCheck) || s.n.StandPat <= s.n.Alpha {
			continue
		}
		stand := fmt.Sprintf("%s stands pat on %s, above alpha %s", s.name, s.run.NodeScores(s.n).Signed(s.n.StandPat), s.run.WindowScores(s.n).Text(s.n.Alpha))
		if o.opts.Evades(o.n.InCheck) {
			return &Why{Rule: RuleEvasions, actor: o.name, Text: fmt.Sprintf("%s is in check and searches every evasion with no stand pat (qs-evasions); %s", o.name, stand)}
		}
		return &Why{Rule: RuleStandPat, actor: s.name, Text: fmt.Sprintf("%s; %s does not stand pat (stand-pat false)", stand, o.name)}
	}
	return nil
}

// stopWhy says why node s stopped (its cause) where o did not stop so.
func stopWhy(pos *engine.Position, s, o view) *Why {
	n := s.n
	switch n.Cause {
	case engine.CauseStandPat:
		if o.n.Cause == engine.CauseStandPat {
			return nil
		}
		stand := fmt.Sprintf("%s stands pat: %s >= beta %s", s.name, s.run.NodeScores(n).Signed(n.StandPat), s.run.WindowScores(n).Text(n.Beta))
		if o.opts != nil && o.opts.Evades(o.n.InCheck) {
			return &Why{Rule: RuleEvasions, actor: o.name, Text: fmt.Sprintf("%s is in check and searches every evasion (qs-evasions); %s", o.name, stand)}
		}
		if o.opts != nil && !o.opts.StandPat {
			return &Why{Rule: RuleStandPat, actor: s.name, Text: stand + fmt.Sprintf("; %s does not stand pat (stand-pat false)", o.name)}
		}
		return &Why{Rule: RuleStandPat, actor: s.name, Text: stand + fmt.Sprintf("; %s searches on (%s)", o.name, o.run.MovesText(o.n))}
	case engine.CauseDelta:
		if len(s.kids) > 0 || o.n.Cause == engine.CauseDelta {
			return nil
		}
		if n.Generated > 0 {
			// Its moves were generated, so the node was not given up
			// whole: each capture was pruned by itself (qsPrune), with
			// its own victim, and a queen capture may not have been one.
			return &Why{Rule: RuleDeltaPrune, actor: s.name, Text: fmt.Sprintf("%s prunes each of its %s: none lifts the eval %s to alpha %s with its victim and the margin (delta)",
				s.name, engine.CountOf(int64(n.Generated), "move", "moves"), s.run.NodeScores(n).Signed(n.StandPat), s.run.WindowScores(n).Text(n.Alpha))}
		}
		return &Why{Rule: RuleDeltaPrune, actor: s.name, Text: fmt.Sprintf("%s gives the node up: not even a queen lifts the eval %s to alpha %s (delta)",
			s.name, s.run.NodeScores(n).Signed(n.StandPat), s.run.WindowScores(n).Text(n.Alpha))}
	case engine.CauseTT:
		return &Why{Rule: RuleTT, actor: s.name, Text: fmt.Sprintf("%s takes a hash-table answer here, %s (tt)", s.name, s.run.NodeScores(n).Text(n.Score))}
	}
	return nil
}

// childWhy compares the pair's children in search order and says why the
// first that differs does.
func childWhy(pos *engine.Position, v [2]view) *Why {
	ka, kb := v[0].kids, v[1].kids
	i := 0
	for i < len(ka) && i < len(kb) && ka[i].Move == kb[i].Move {
		i++
	}
	if i == len(ka) && i == len(kb) {
		return nil
	}
	at := func(s int) (trace.Node, bool) {
		if i < len(v[s].kids) {
			return v[s].kids[i], true
		}
		return trace.Node{}, false
	}
	// A second visit of a move the other run visits once more rarely:
	// a re-search.
	for s := range v {
		k, ok := at(s)
		if !ok || !slices.ContainsFunc(v[s].kids[:i], func(x trace.Node) bool { return x.Move == k.Move }) {
			continue
		}
		return researchWhy(pos, v[s], v[1-s], k, i)
	}
	// A move one searches and the other never does, by the other's rules.
	for s := range v {
		k, ok := at(s)
		if ok && !slices.ContainsFunc(v[1-s].kids, func(x trace.Node) bool { return x.Move == k.Move }) {
			if w := ruleWhy(pos, v[s], v[1-s], k); w != nil {
				return w
			}
		}
	}
	// Both searched another move at i: the orders differ; or one stopped.
	ma, okA := at(0)
	mb, okB := at(1)
	if okA && okB {
		return orderWhy(pos, v, i, ma, mb)
	}
	s := 0 // the run that went on
	if okB {
		s = 1
	}
	o := v[1-s]
	if o.n.CutIndex >= 0 && i > 0 {
		last := o.kids[i-1]
		// o cut on its move i (the same move s searched there without a cut):
		// the move's score differs, which its subtree says why.
		twin := v[s].kids[i-1]
		id := v[0].kids[i-1].ID
		return &Why{Rule: RuleBelow, CausedBy: &id, Text: fmt.Sprintf("%s cuts at move %d, %s: it scores %s there, %s in %s, against beta %s: from the difference below at node %d",
			o.name, i, moveSAN(pos, last.Move), o.run.NodeScores(last).Text(-last.Score), v[s].run.NodeScores(twin).Text(-twin.Score), v[s].name,
			o.run.WindowScores(o.n).Text(o.n.Beta), id)}
	}
	k, _ := at(s)
	return recordsWhy(pos, v[s], o, k, i)
}

// researchWhy says why s visits move k a second time at node s.n, as its
// move i+1 (0-based i).
func researchWhy(pos *engine.Position, s, o view, k trace.Node, i int) *Why {
	m := moveSAN(pos, k.Move)
	if s.opts != nil {
		switch r := s.opts.NodeRoutine(s.n.Depth); {
		case r == engine.RoutineThreshold && s.opts.NodePasses(s.n.Depth, s.n.QSPly) && o.opts != nil &&
			o.opts.QSLevels > 0 && o.opts.QSLevels < s.opts.QSLevels && i >= len(o.kids):
			// The passes so far were alike (the children up to i are):
			// o stopped where its levels end, s goes on to the next.
			return &Why{Rule: RuleQSLevels, actor: s.name, Text: fmt.Sprintf("%s searches %s again in its level %d pass, past %s's last level (qs-levels %d vs %d): its level %d pass met an auto-fail-high",
				s.name, m, o.opts.QSLevels+1, o.name, s.opts.QSLevels, o.opts.QSLevels, o.opts.QSLevels)}
		case r == engine.RoutineThreshold && s.opts.NodePasses(s.n.Depth, s.n.QSPly):
			return &Why{Rule: RuleLevelPass, actor: s.name, Text: fmt.Sprintf("%s searches %s again in its next level pass: the pass before met an auto-fail-high (qs-levels %d)", s.name, m, s.opts.QSLevels)}
		case r == engine.RoutineUnified:
			return &Why{Rule: RuleIteration, actor: s.name, Text: fmt.Sprintf("%s searches %s again in the node's next iteration (unified)", s.name, m)}
		case s.opts.PVS:
			return &Why{Rule: RulePVS, actor: s.name, Text: fmt.Sprintf("%s re-searches %s with the full window after its null-window search failed high (pvs)", s.name, m)}
		}
	}
	return &Why{Rule: RuleSearched, actor: s.name, Text: fmt.Sprintf("%s searches %s again under this node, %s does not", s.name, m, o.name)}
}

// recordsWhy says what the records show of move k, which s searches as
// its move i+1 (0-based i) and o never does, where no rule of Horizon's
// tells why: its SEE, o's cut, o's stand pat against its window.
func recordsWhy(pos *engine.Position, s, o view, k trace.Node, i int) *Why {
	see := ""
	if pos != nil && pos.IsCapture(k.Move) {
		see = fmt.Sprintf(" (SEE %+d)", pos.SEE(k.Move))
	}
	n := o.n
	text := fmt.Sprintf("%s searches %s%s as its move %d, %s does not", s.name, moveSAN(pos, k.Move), see, i+1, o.name)
	if n.CutIndex >= 0 || n.Cause != engine.CauseNone {
		text += fmt.Sprintf(" (%s)", o.run.CutText(n))
	}
	if n.HasStandPat {
		text += fmt.Sprintf("; %s's eval %s, window %s", o.name, o.run.NodeScores(n).Signed(n.StandPat), o.run.WindowText(n))
	}
	return &Why{Rule: RuleSearched, actor: s.name, Text: text}
}

// ruleWhy says which rule of o's options keeps o from searching move k,
// which s searches at the same node; nil when none does (another engine's
// run, a full-width node, or a move o's rules allow).
func ruleWhy(pos *engine.Position, s, o view, k trace.Node) *Why {
	m := moveSAN(pos, k.Move)
	n := o.n
	if o.opts == nil || pos == nil || n.Kind != engine.KindQS {
		return nil
	}
	oe := o.opts.Evades(n.InCheck)
	if s.opts != nil && s.opts.Evades(k.InCheck || s.n.InCheck) && !oe {
		return &Why{Rule: RuleEvasions, actor: s.name, Text: fmt.Sprintf("%s is in check and searches every evasion, %s too (qs-evasions); %s does not", s.name, m, o.name)}
	}
	if !oe && !o.opts.QSAllows(pos, k.Move, n.QSPly) {
		tactical := pos.IsCapture(k.Move) || k.Move.Promotion() != engine.NoPieceType
		if s.opts != nil && s.opts.QSChecks && !o.opts.QSChecks && !tactical && pos.GivesCheck(k.Move) {
			return &Why{Rule: RuleQSChecks, actor: s.name, Text: fmt.Sprintf("%s searches the quiet check %s at its first QS ply (qs-checks); %s does not", s.name, m, o.name)}
		}
		return &Why{Rule: RuleQSMoves, actor: o.name, Text: fmt.Sprintf("%s's QS searches %s (qs-moves %s): %s, which %s searches, is not one",
			o.name, o.opts.QSMovesText(pos, n.QSPly), qsMovesName(o.opts), m, s.name)}
	}
	if !oe {
		if v, pruned := o.opts.SEEPrunes(pos, k.Move); pruned {
			return &Why{Rule: RuleSEEPrune, actor: o.name, Text: fmt.Sprintf("%s prunes %s: SEE %+d (see-prune)", o.name, m, v)}
		}
		if n.HasStandPat {
			// Alpha as the node raised it: by its stand pat and the
			// moves it searched (the last alpha the rule may have met).
			alpha := n.Alpha
			if o.opts.StandsPat(n.InCheck) {
				alpha = max(alpha, n.StandPat)
			}
			for _, c := range o.kids {
				if sc := o.opts.Penalty(-c.Score, n.StandPat); sc < n.Beta {
					alpha = max(alpha, sc)
				}
			}
			if opt, pruned := o.opts.DeltaPrunes(pos, k.Move, n.StandPat, alpha); pruned {
				return &Why{Rule: RuleDeltaPrune, actor: o.name, Text: fmt.Sprintf("%s prunes %s: eval %s + victim %d + margin %d = %s cannot lift it above alpha %s (delta)",
					o.name, m, o.run.NodeScores(n).Signed(n.StandPat), engine.PieceValue(pos.Captured(k.Move)), o.opts.DeltaMargin,
					o.run.NodeScores(n).Signed(opt), o.run.WindowScores(n).Text(alpha))}
			}
		}
	}
	if n.Cause == engine.CauseAutoFailHigh {
		return &Why{Rule: RuleAutoFailHigh, actor: o.name, Text: fmt.Sprintf("%s fails high by rule: its move %d is a capture with no level left (qs-levels %d), so it never searches %s, which %s does",
			o.name, n.CutIndex+1, o.opts.QSLevels, m, s.name)}
	}
	return nil
}

// orderWhy: both runs searched both moves at index i, in other orders.
func orderWhy(pos *engine.Position, v [2]view, i int, ma, mb trace.Node) *Why {
	// where says where run s searches move m, that run's move at i in the
	// other run.
	where := func(s int, m engine.Move) string {
		if j := slices.IndexFunc(v[s].kids, func(x trace.Node) bool { return x.Move == m }); j >= 0 {
			return fmt.Sprintf("%s's move %d", v[s].name, j+1)
		}
		return fmt.Sprintf("%s never searches it", v[s].name)
	}
	cut := func(s int) string {
		if c := v[s].n.CutIndex; c >= 0 {
			return fmt.Sprintf("at move %d", c+1)
		}
		return "nowhere"
	}
	text := fmt.Sprintf("A cuts %s, B %s: %s is A's move %d, %s; %s is B's move %d, %s", cut(0), cut(1),
		moveSAN(pos, ma.Move), i+1, where(1, ma.Move), moveSAN(pos, mb.Move), i+1, where(0, mb.Move))
	oa, ob := v[0].opts, v[1].opts
	switch {
	case oa != nil && ob != nil && oa.Ordering != ob.Ordering && v[0].n.Kind == engine.KindQS:
		text += fmt.Sprintf(": A orders captures by %s, B by %s (qs-order)", optionText(oa, "qs-order"), optionText(ob, "qs-order"))
	case oa != nil && ob != nil && (oa.Killers != ob.Killers || oa.History != ob.History):
		text += fmt.Sprintf(": killers %v vs %v, history %v vs %v", oa.Killers, ob.Killers, oa.History, ob.History)
	default:
		text += ": the orders differ (killers, history and hash moves learnt from trees that differ)"
	}
	// The run that cuts later, or searches on where the other cuts.
	actor := ""
	ca, cb := v[0].n.CutIndex, v[1].n.CutIndex
	switch {
	case cb > ca && ca >= 0 || cb < 0 && ca >= 0:
		actor = "B"
	case ca > cb && cb >= 0 || ca < 0 && cb >= 0:
		actor = "A"
	}
	return &Why{Rule: RuleOrder, actor: actor, Text: text}
}

// moveSetWhy: the same moves searched, but one generated more: a move one
// QS allows and the other's does not, left unsearched by a cut.
func moveSetWhy(pos *engine.Position, v [2]view) *Why {
	if pos == nil || v[0].opts == nil || v[1].opts == nil || v[0].n.Kind != engine.KindQS {
		return nil
	}
	for s := range v {
		o := v[1-s]
		se, oe := v[s].opts.Evades(v[s].n.InCheck), o.opts.Evades(o.n.InCheck)
		for _, m := range pos.LegalMoves() {
			mine := se || v[s].opts.QSAllows(pos, m, v[s].n.QSPly)
			theirs := oe || o.opts.QSAllows(pos, m, o.n.QSPly)
			if !mine || theirs {
				continue
			}
			if se {
				return &Why{Rule: RuleEvasions, actor: v[s].name, Text: fmt.Sprintf("%s is in check and generates every evasion, %s too (qs-evasions): %s generated, %s", v[s].name, pos.SAN(m), v[s].run.MovesText(v[s].n), o.run.MovesText(o.n))}
			}
			if tactical := pos.IsCapture(m) || m.Promotion() != engine.NoPieceType; !tactical && v[s].opts.QSChecks && pos.GivesCheck(m) {
				return &Why{Rule: RuleQSChecks, actor: v[s].name, Text: fmt.Sprintf("%s generates the quiet check %s at its first QS ply (qs-checks); %s does not", v[s].name, pos.SAN(m), o.name)}
			}
			return &Why{Rule: RuleQSMoves, actor: o.name, Text: fmt.Sprintf("%s's QS allows %s (qs-moves %s), %s's does not (%s): moves %s %s, %s %s",
				v[s].name, pos.SAN(m), qsMovesName(v[s].opts), o.name, o.opts.QSMovesText(pos, o.n.QSPly), v[s].name, v[s].run.MovesText(v[s].n), o.name, o.run.MovesText(o.n))}
		}
	}
	return nil
}

func qsMovesName(o *engine.Options) string { return optionText(o, "qs-moves") }

// optionText is switch name's value in o, as command lines write it.
func optionText(o *engine.Options, name string) string {
	for _, s := range engine.OptionSpecs() {
		if s.Name == name {
			return s.Get(o)
		}
	}
	return "?"
}

func plies(n int) string {
	if n == 0 {
		return "none"
	}
	return engine.CountOf(int64(n), "ply", "plies")
}

// moveSAN is move m in SAN at the position before it: pos is either that
// position or the one after m (a node's own move), or nil (UCI then).
func moveSAN(pos *engine.Position, m engine.Move) string {
	if m == engine.NoMove {
		return "the iteration root"
	}
	if pos == nil {
		return m.UCI()
	}
	if pos.Plies() > 0 && pos.LastMove() == m {
		pos.UnmakeMove()
		s := pos.SAN(m)
		pos.MakeMove(m)
		return s
	}
	return pos.SAN(m)
}

// why says why the matched pair a, b (children ka, kb in key order; kidsA,
// kidsB the same in search order) differs, and counts it.
func (w *walker) why(a, b trace.Node, ka, kb []keyed, kidsA, kidsB []trace.Node) *Why {
	if !isPosition(a) || w.filtered {
		// A recording filter leaves child rows out: the child lists do
		// not tell what the searches did.
		return nil
	}
	if w.plainlySame(a, b, ka, kb) {
		return nil
	}
	var up [2]*trace.Node
	var upWhy *Why
	if n := len(w.up); n > 0 {
		u := &w.up[n-1]
		up = [2]*trace.Node{&u.a, &u.b}
		upWhy = u.why
	}
	x := explain(w.pos, w.views(a, b, kidsA, kidsB, up), upWhy)
	w.tally.add(x)
	return x
}

// plainlySame reports whether a pair shows no difference of its own: the
// same fields and stand pat, and the same children, searched in the same
// order at the same distances. Most pairs are so, and explain is then
// spared (it sorts the children and words its reasons).
func (w *walker) plainlySame(a, b trace.Node, ka, kb []keyed) bool {
	if a.SubtreeSize != b.SubtreeSize || a.Depth != b.Depth || a.Kind != b.Kind || a.Bound != b.Bound || a.Cause != b.Cause ||
		a.CutIndex != b.CutIndex || a.QSLevel != b.QSLevel || a.HasStandPat != b.HasStandPat || a.StandPat != b.StandPat || len(ka) != len(kb) ||
		!SameWindow(w.ra, w.rb, a, b) || !SameScore(w.ra, w.rb, a, b) || !sameMoves(w.ra, w.rb, a, b) {
		return false
	}
	for i := range ka {
		if ka[i].K != kb[i].K || ka[i].N.ID-a.ID != kb[i].N.ID-b.ID || !SameScore(w.ra, w.rb, ka[i].N, kb[i].N) {
			return false
		}
	}
	return true
}

// views makes the two sides of a pair.
func (w *walker) views(a, b trace.Node, ka, kb []trace.Node, up [2]*trace.Node) [2]view {
	return [2]view{{name: "A", run: w.ra, opts: w.search[0], n: a, kids: ka, up: up[0]},
		{name: "B", run: w.rb, opts: w.search[1], n: b, kids: kb, up: up[1]}}
}

// whyAt is the reason of the pair at node id, which both runs reached
// alike (every node before the searches part is): read afresh, as the
// walk has left it.
func (w *walker) whyAt(id int64) (*Why, error) {
	var v [2]trace.Node
	var kids [2][]trace.Node
	var up [2]*trace.Node
	for i, t := range []*tree{w.ta, w.tb} {
		n, k, err := childList(w.ctx, t.Side, id)
		if err != nil {
			return nil, err
		}
		v[i], kids[i] = n, k
		if n.Parent >= 0 {
			u, err := t.Store.Node(w.ctx, t.Run, n.Parent)
			if err != nil {
				return nil, err
			}
			up[i] = &u
		}
	}
	if !isPosition(v[0]) {
		return nil, nil
	}
	pos, err := w.ta.Store.Position(w.ctx, w.ta.Run, id)
	if err != nil {
		pos = nil // the reason then tells what the records show
	}
	return explain(pos, w.views(v[0], v[1], kids[0], kids[1], up), nil), nil
}

// play makes move m on the walk's position for a child pair and returns
// what takes it back; a move that does not replay leaves the subtree
// without a position.
func (w *walker) play(m engine.Move) func() {
	p := w.pos
	switch {
	case p == nil || m == engine.NoMove:
		return func() {}
	case !w.moves.Playable(p, m):
		w.pos = nil
		return func() { w.pos = p }
	}
	p.MakeMove(m)
	return func() { p.UnmakeMove() }
}

// tally counts reasons by rule and run.
type tally map[tallyKey]int64

type tallyKey struct {
	rule, actor string
	caused      bool
}

func (t tally) add(x *Why) {
	if x != nil {
		t[tallyKey{x.Rule, x.actor, x.follows || x.CausedBy != nil || ruleInfo(x.Rule).Caused}]++
	}
}

// Divergences counts the matched pairs whose own searches differ: those of
// their own by rule, and those that follow from an earlier difference.
type Divergences struct {
	// Count is the divergences of their own; Caused those that follow
	// from an earlier one (windows, depths, scores from below).
	Count  int64       `json:"count"`
	Caused int64       `json:"caused"`
	ByRule []RuleCount `json:"by_rule"`
}

// RuleCount is one rule's share of the divergences of their own, for one
// run doing what the rule says (actor "A" or "B"; "" when neither alone).
type RuleCount struct {
	Rule  string  `json:"rule"`
	Actor string  `json:"actor"`
	Text  string  `json:"text"`
	Count int64   `json:"count"`
	Share float64 `json:"share"`
}

// summary sorts the tally, the biggest count first.
func (t tally) summary() Divergences {
	d := Divergences{ByRule: []RuleCount{}}
	for k, n := range t {
		info := ruleInfo(k.rule)
		if k.caused {
			d.Caused += n
			continue
		}
		d.Count += n
		actor, other := "A", "B"
		if k.actor == "B" {
			actor, other = "B", "A"
		}
		text := info.Summary
		switch {
		case !strings.Contains(info.Summary, "%"):
		case k.actor == "":
			text = info.Meaning // the summary names a run; none alone does it
		default:
			text = fmt.Sprintf(info.Summary, actor, other)
		}
		d.ByRule = append(d.ByRule, RuleCount{Rule: k.rule, Actor: k.actor, Text: text, Count: n})
	}
	for i := range d.ByRule {
		d.ByRule[i].Share = float64(d.ByRule[i].Count) / float64(d.Count)
	}
	slices.SortFunc(d.ByRule, func(x, y RuleCount) int {
		if c := cmp.Compare(y.Count, x.Count); c != 0 {
			return c
		}
		return cmp.Compare(x.Rule+x.Actor, y.Rule+y.Actor)
	})
	return d
}
