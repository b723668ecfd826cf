package engine

import "fmt"

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

// Validate refuses a combination of switches that cannot mean anything,
// in one line naming the switch and the variant: of the two switches in
// conflict, the one set away from the variant's preset. Presets are valid.
// Readers of traces do not call it (see ParseOptionsJSON).
func (o Options) Validate() error {
	preset, err := VariantOptions(o.Variant)
	if err != nil {
		preset = base()
	}
	// pick names the switch of the pair that the user changed.
	pick := func(a, b string) string {
		sa := optionSpecByName(a)
		if sa.get(&o) != sa.get(&preset) {
			return a
		}
		return b
	}
	refuse := func(sw, why string) error {
		return fmt.Errorf("switch %s cannot apply to variant %s: %s", sw, o.Variant, why)
	}
	if o.QSMoves == QSNone {
		const why = "there is no QS (qs-moves none: horizon nodes return the static eval)"
		switch {
		case o.StandPat:
			return refuse(pick("stand-pat", "qs-moves"), why)
		case o.SEEPrune:
			return refuse(pick("see-prune", "qs-moves"), why)
		case o.DeltaPrune:
			return refuse(pick("delta", "qs-moves"), why)
		case o.QSChecks:
			return refuse(pick("qs-checks", "qs-moves"), why)
		case o.QSEvasions:
			return refuse(pick("qs-evasions", "qs-moves"), why)
		case o.QSLevels > 0:
			return refuse(pick("qs-levels", "qs-moves"), why)
		case o.MaxQSPly != base().MaxQSPly:
			return refuse(pick("max-qs-ply", "qs-moves"), why)
		}
	}
	if o.Unified && o.QSLevels > 0 {
		return refuse(pick("qs-levels", "unified"), "the unified search runs its own QS as its depth<=0 iteration, so threshold levels (qs-levels) cannot apply with unified")
	}
	if o.Threshold != 0 && o.QSLevels == 0 {
		return refuse(pick("qs-threshold", "qs-levels"), "qs-threshold is an argument of the threshold QS, which is off (qs-levels 0)")
	}
	// A parameter set away from its default without its switch. (hash is
	// not refused with tt off: GUIs send Hash whatever else they set.)
	if !o.DeltaPrune && o.DeltaMargin != base().DeltaMargin {
		return refuse(pick("delta-margin", "delta"), "delta-margin is the margin of delta pruning, which is off (delta false)")
	}
	return nil
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
// so: it may have searched more moves than it generated. atLeast says
// searched is only a lower bound ("255+ searched": a trace stores 255 at
// most, and a recording filter left out the rows that would count it).
func MovesText(generated, searched int, atLeast, passes bool) string {
	s := fmt.Sprintf("%d generated, %s", generated, SearchedText(searched, atLeast))
	if passes {
		s += " counted over all its passes"
	}
	return s
}

// SearchedText is MovesText's wording of the searched count alone.
func SearchedText(searched int, atLeast bool) string {
	if atLeast {
		return fmt.Sprintf("%d+ searched", searched)
	}
	return fmt.Sprintf("%d searched", searched)
}

// CutText is the one wording of why a node stopped with its cut index
// (LeaveInfo's Cause and CutIndex, the index of the move in the node's
// order of its generated moves). An auto-fail-high's move is not searched:
// it is the move that had no level left, and the node fails high on it by
// rule.
func CutText(c Cause, cutIndex, generated int) string {
	s := c.LongLabel()
	if s == "" {
		s = "searched every move"
	}
	switch {
	case cutIndex < 0:
		return s
	case c == CauseAutoFailHigh:
		return fmt.Sprintf("%s: move %d of %d generated had no level left (not searched)", s, cutIndex+1, generated)
	}
	return fmt.Sprintf("%s at move %d of %d generated", s, cutIndex+1, generated)
}
