package engine

import (
	"fmt"
	"slices"
	"strconv"
)

// This file is the one home of what the switches mean at a node: which
// routine searches it, which moves QS allows there, whether it may stand
// pat, and the score adjustment of the delayed-gain penalty. The search
// calls these, and so do the readers (the checker, the viewer, export,
// diff), so a reader never keeps a copy of the engine's rules.

// Routine names the search routine that searches a node.
type Routine uint8

// Routines.
const (
	RoutineSearch    Routine = iota // full-width alpha-beta (search)
	RoutineQS                       // the switch-driven capture search (qsearch)
	RoutineThreshold                // hgm's multi-level QS (001), qs-levels > 0
	RoutineUnified                  // 000's unified search: iterative deepening in every node, QS as its depth<=0 iteration
	RoutineHorizon                  // no QS (qs-moves none): the node is a static-evaluation leaf
)

var routineNames = [...]string{"search", "qsearch", "threshold", "unified", "horizon"}

// String returns the routine's short name.
func (r Routine) String() string { return lookup(routineNames[:], int(r)) }

// Passes reports whether the routine may pass over a node's moves more than
// once: the threshold QS iterates levels at its QS root, the unified search
// iterates depths in every node.
func (r Routine) Passes() bool { return r == RoutineThreshold || r == RoutineUnified }

// NodeRoutine returns the routine that searches a node with depth plies
// left (<= 0 past the horizon).
func (o *Options) NodeRoutine(depth int) Routine {
	switch {
	case depth > 0 && o.Unified:
		return RoutineUnified
	case depth > 0:
		return RoutineSearch
	case o.QSMoves == QSNone:
		return RoutineHorizon
	case o.Unified:
		// Before the levels: the unified search runs its own QS (traces of
		// unified with qs-levels, refused now, were searched this way).
		return RoutineUnified
	case o.QSLevels > 0:
		return RoutineThreshold
	}
	return RoutineQS
}

// QSUsesTT reports whether QS nodes probe and store the transposition
// table: only the unified search's QS iteration does (000's listing probes
// and stores in every node). qsearch and the threshold QS neither probe nor
// store it, whatever the tt switch says: tt then serves full-width nodes
// alone. 'horizon variants' prints it per preset.
func (o *Options) QSUsesTT() bool { return o.TT && o.HasQS() && o.NodeRoutine(0) == RoutineUnified }

// HasQS reports whether the options search a quiescence search at all.
func (o *Options) HasQS() bool { return o.QSMoves != QSNone }

// UsesLevels reports whether QS nodes carry a level (the threshold QS).
func (o *Options) UsesLevels() bool { return o.NodeRoutine(0) == RoutineThreshold }

// Evades reports whether a QS node searches every evasion instead of its
// move set: it is in check and qs-evasions is on.
func (o *Options) Evades(inCheck bool) bool { return inCheck && o.QSEvasions }

// StandsPat reports whether a QS node may stand pat on its static eval:
// the variant stands pat and the node is not searching evasions.
func (o *Options) StandsPat(inCheck bool) bool {
	return o.QSMoves != QSNone && o.StandPat && !o.Evades(inCheck)
}

// QSAllows reports whether QS may search m in pos, the position of a QS node
// qsPly plies past the horizon that is not searching evasions (see Evades:
// those search every legal move). pos.LastMove is the move into the node.
func (o *Options) QSAllows(pos *Position, m Move, qsPly int) bool {
	tactical := pos.IsCapture(m) || m.Promotion() != NoPieceType
	switch o.QSMoves {
	case QSNone:
		return false
	case QSRecaptures:
		if lm := pos.LastMove(); lm != NoMove && pos.IsCapture(m) && m.To() == lm.To() {
			return true
		}
	case QSBeal:
		if tactical || (pos.board[m.From()].Type() == Pawn && seventhRank(pos.side).Has(m.To())) {
			return true
		}
	default:
		if tactical {
			return true
		}
	}
	return o.QSChecks && qsPly == 0 && !tactical && pos.GivesCheck(m)
}

// DeltaPrunes is delta pruning's rule on one capture m of a QS node that is
// not searching evasions, with static eval eval and alpha alpha: with delta
// on, a capture that promotes nothing is skipped when even winning its
// victim and the margin (opt, the most it is assumed to reach) does not
// lift eval above alpha. The search (qsPrune) and diff's reasons read it.
func (o *Options) DeltaPrunes(pos *Position, m Move, eval, alpha Score) (opt Score, pruned bool) {
	if !o.DeltaPrune || !pos.DeltaFutile(m, eval, alpha, o.DeltaMargin) {
		return 0, false
	}
	return pos.DeltaOptimum(m, eval, o.DeltaMargin), true
}

// SEEPrunes is SEE pruning's rule on one capture m of a QS node that is not
// searching evasions: with see-prune on, a capture whose static exchange
// loses material is skipped. see is the exchange's value, computed only
// when the rule applies (0 otherwise).
func (o *Options) SEEPrunes(pos *Position, m Move) (see int, pruned bool) {
	if !o.SEEPrune || !pos.IsCapture(m) {
		return 0, false
	}
	// SEELoses's rule, keeping the exchange's value: the search computes
	// it once per capture.
	see = pos.SEE(m)
	return see, see < 0
}

// QSMovesText says in words which moves QS allows at qsPly, for messages.
func (o *Options) QSMovesText(pos *Position, qsPly int) string {
	var s string
	switch o.QSMoves {
	case QSNone:
		return "no moves (no QS)"
	case QSRecaptures:
		s = "recaptures"
		if lm := pos.LastMove(); lm != NoMove {
			s += " on " + lm.To().String()
		}
	case QSBeal:
		s = "captures, promotions and pushes to the 7th rank"
	default:
		s = "captures and promotions"
	}
	if o.QSChecks && qsPly == 0 {
		s += " and quiet checks (first QS ply)"
	}
	return s
}

// PawnOnSeventh reports whether the side to move has a pawn on its 7th
// rank, one push from promoting: delta pruning then counts a promotion in
// the most a QS node's moves can win. The search and the checker take
// the rule here.
func (p *Position) PawnOnSeventh() bool {
	return p.pieces[p.side][Pawn]&seventhRank(p.side) != 0
}

// seventhRank is side's 7th rank.
func seventhRank(side Color) Bitboard {
	if side == Black {
		return rank2
	}
	return rank7
}

// Penalty is the score adjustment a parent applies to a child's negated
// score: micro-Max's delayed-gain penalty (002), v -= v > eval, when
// delay-penalty is on. Mate scores are exempt: their distance already
// prefers the faster mate, and a penalised mate would no longer be one.
func (o *Options) Penalty(score, eval Score) Score {
	if o.DelayPenalty && score > eval && !score.IsMate() {
		return score - 1
	}
	return score
}

// A dependency is a switch (child) that only matters while another
// (parent) is on: with the parent off, the child set to anything but its
// inert value changes nothing the search does, so a run labelled with it
// would claim a difference that is not there. This table is the one home
// of such rules: Validate refuses them (a command line asked for
// something that cannot happen), DropInert sets them back (a UCI GUI sends
// every option, in its own order). Parents come before children whose own
// switch is a child further down (delta before delta-margin, qs-levels
// before qs-threshold), so one pass of DropInert leaves a valid set.
type dependency struct {
	child, parent string
	off           func(o *Options) bool // the parent leaves the child without effect
	isSet         func(o *Options) bool // the child is away from its inert value
	reset         func(o *Options)      // sets the child to its inert value
	needs         string                // what the child needs of the parent
	why           string
}

func boolDep(child, parent string, off func(*Options) bool, f func(*Options) *bool, needs, why string) dependency {
	return dependency{child: child, parent: parent, off: off, needs: needs, why: why,
		isSet: func(o *Options) bool { return *f(o) },
		reset: func(o *Options) { *f(o) = false }}
}

func intDep(child, parent string, off func(*Options) bool, f func(*Options) *int, inert int, needs, why string) dependency {
	return dependency{child: child, parent: parent, off: off, needs: needs, why: why,
		isSet: func(o *Options) bool { return *f(o) != inert },
		reset: func(o *Options) { *f(o) = inert }}
}

func noQS(o *Options) bool { return o.QSMoves == QSNone }

const (
	needsQS = "qs-moves other than none"
	whyNoQS = "qs-moves none has no QS: horizon nodes return the static eval"
)

var dependencies = []dependency{
	boolDep("stand-pat", "qs-moves", noQS, func(o *Options) *bool { return &o.StandPat }, needsQS, whyNoQS),
	boolDep("see-prune", "qs-moves", noQS, func(o *Options) *bool { return &o.SEEPrune }, needsQS, whyNoQS),
	boolDep("delta", "qs-moves", noQS, func(o *Options) *bool { return &o.DeltaPrune }, needsQS, whyNoQS),
	boolDep("qs-checks", "qs-moves", noQS, func(o *Options) *bool { return &o.QSChecks }, needsQS, whyNoQS),
	boolDep("qs-evasions", "qs-moves", noQS, func(o *Options) *bool { return &o.QSEvasions }, needsQS, whyNoQS),
	intDep("qs-levels", "qs-moves", noQS, func(o *Options) *int { return &o.QSLevels }, 0, needsQS, whyNoQS),
	intDep("max-qs-ply", "qs-moves", noQS, func(o *Options) *int { return &o.MaxQSPly }, base().MaxQSPly, needsQS, whyNoQS),
	intDep("qs-levels", "unified", func(o *Options) bool { return o.Unified }, func(o *Options) *int { return &o.QSLevels }, 0,
		"unified false", "the unified search runs its own QS as its depth<=0 iteration"),
	intDep("qs-threshold", "qs-levels", func(o *Options) bool { return o.QSLevels == 0 }, func(o *Options) *int { return &o.Threshold }, 0,
		"qs-levels above 0", "it is an argument of the threshold QS, which qs-levels 0 turns off"),
	intDep("delta-margin", "delta", func(o *Options) bool { return !o.DeltaPrune }, func(o *Options) *int { return &o.DeltaMargin }, base().DeltaMargin,
		"delta true", "it is the margin of delta pruning, which delta false turns off"),
	intDep("hash", "tt", func(o *Options) bool { return !o.TT }, func(o *Options) *int { return &o.HashMB }, base().HashMB,
		"tt true", "it sizes the transposition table, which tt false turns off"),
}

// Validate refuses a combination of switches that cannot mean anything: a
// switch set while the switch it needs leaves it without effect (see
// dependencies). given names the switches a user set by name (a command's
// switch flags, a variant spec's +name=value): such a switch is judged set
// whatever its value, so --delta false --delta-margin 200 is refused as
// --delta-margin 50 is, though 200 is every preset's margin. The one
// exception is a given switch set to its inert value away from the
// preset's: that is what turns it off (see+qs-moves=none+stand-pat=false,
// DropInert's label, must parse back). The one line names the switch and
// the variant, of the two switches the one the user set, and says which
// switch needs which. Presets are valid. Readers of traces do not call it
// (see ParseOptionsJSON).
func (o Options) Validate(given ...string) error {
	preset, err := VariantOptions(o.Variant)
	if err != nil {
		preset = base()
	}
	for _, d := range dependencies {
		if !d.off(&o) {
			continue
		}
		s := optionSpecByName(d.child)
		atPreset := s.get(&o) == s.get(&preset)
		childGiven := slices.Contains(given, d.child)
		if !d.isSet(&o) && !(childGiven && atPreset) {
			continue
		}
		sw := d.child
		if atPreset && !childGiven {
			sw = d.parent // the preset set the child: the user changed the parent
		}
		in := Inert{Switch: d.child, Parent: d.parent, Needs: d.needs, Why: d.why}
		return fmt.Errorf("switch %s cannot apply to variant %s: %s", sw, o.Variant, in.Reason())
	}
	return nil
}

// Inert is a switch that DropInert set back because the switch it needs
// left it without effect.
type Inert struct {
	Switch string // the switch set back, e.g. "hash"
	Parent string // the switch it needs, e.g. "tt"
	Value  string // the value it had
	Needs  string // what it needs of the parent, e.g. "tt true"
	Why    string // why, e.g. "it sizes the transposition table, which tt false turns off"
}

// Reason says which switch needs which, and why, in Validate's words.
func (in Inert) Reason() string { return fmt.Sprintf("%s needs %s (%s)", in.Switch, in.Needs, in.Why) }

// DropInert returns o with every switch that has no effect under the
// others set back to its inert value (false, or the value of every
// preset), and those switches: the options the search then really runs,
// which pass Validate. A UCI session applies the GUI's options through it:
// a GUI sends every option in an order of its own, so a switch set while
// the one it needs is off is kept for when that is on, as engines keep
// UCI_Elo while UCI_LimitStrength is off.
func (o Options) DropInert() (Options, []Inert) {
	var dropped []Inert
	for _, d := range dependencies {
		if d.off(&o) && d.isSet(&o) {
			dropped = append(dropped, Inert{Switch: d.child, Parent: d.parent,
				Value: optionSpecByName(d.child).get(&o), Needs: d.needs, Why: d.why})
			d.reset(&o)
		}
	}
	return o, dropped
}

func optionSpecByName(name string) OptionSpec {
	for _, s := range optionSpecs {
		if s.Name == name {
			return s
		}
	}
	panic("engine: no option " + name)
}

// NodePasses reports whether the routine searching a node with depth plies
// left, qsPly plies past the horizon, may pass over its moves more than
// once: the threshold QS at its QS root (one pass a level), the unified
// search in every node (one pass a depth).
func (o *Options) NodePasses(depth, qsPly int) bool {
	r := o.NodeRoutine(depth)
	return r.Passes() && (r != RoutineThreshold || qsPly <= 0)
}

// MovesText is the one wording of a node's move counts (LeaveInfo's
// Generated and Searched). Searched counts a search of every move in every
// pass, so a node that passed more than once (passes, see NodePasses) says
// so: it may have searched more moves than it generated. generatedAtLeast
// and searchedAtLeast say a count is only a lower bound ("255+ generated":
// a trace stores 255 at most; a searched count past it is read from the
// node's child rows where a recording filter did not leave them out).
func MovesText(generated, searched int, generatedAtLeast, searchedAtLeast, passes bool) string {
	s := CountText(generated, generatedAtLeast) + " generated, " + SearchedText(searched, searchedAtLeast)
	if passes {
		s += " counted over all its passes"
	}
	return s
}

// SearchedText is MovesText's wording of the searched count alone.
func SearchedText(searched int, atLeast bool) string {
	return CountText(searched, atLeast) + " searched"
}

// CountText is the one wording of a count that may be a lower bound:
// "255+" when atLeast (the count is that or more), "255" when exact.
func CountText(n int, atLeast bool) string {
	if atLeast {
		return strconv.Itoa(n) + "+"
	}
	return strconv.Itoa(n)
}

// CutText is the one wording of why a node stopped with its cut index
// (LeaveInfo's Cause and CutIndex, the index of the move in the node's
// order of its generated moves). An auto-fail-high's move is not searched:
// it is the move that had no level left, and the node fails high on it by
// rule. A generated count below 0 is one nobody recorded (another
// engine's stream may leave it out): the move's number stands alone, with
// no "of N generated". cutAtLeast and generatedAtLeast say the move's
// index or the generated count is a lower bound (a trace stores 255 at
// most: "at move 255+ of 255+ generated").
func CutText(c Cause, cutIndex, generated int, cutAtLeast, generatedAtLeast bool) string {
	s := c.LongLabel()
	if s == "" {
		s = "searched every move"
	}
	if cutIndex < 0 {
		return s
	}
	of := ""
	if generated >= 0 {
		of = " of " + CountText(generated, generatedAtLeast) + " generated"
	}
	move := CountText(cutIndex+1, cutAtLeast)
	if c == CauseAutoFailHigh {
		return fmt.Sprintf("%s: move %s%s had no level left (not searched)", s, move, of)
	}
	return fmt.Sprintf("%s at move %s%s", s, move, of)
}
