package engine

// This file is the one home of why a node is in a search tree: the causes
// 'horizon explain' counts nodes under (their names, meanings and what
// removes them), and the rules of a single move searched in QS, read on
// its position alone (a losing capture, a futile one, an underpromotion, a
// quiet check, an evasion). The QS guard (qsPrune) calls the same rules,
// so a reader's "this capture loses by SEE" is the engine's.

// Reason is why a node is in a tree: the first cause met on the way down
// from a subtree's top to it. The order of the constants is the order in
// which a move with several causes takes one: the first.
type Reason uint8

// Reasons, in the order a move with several takes the first.
const (
	ReasonLosingCapture  Reason = iota // a capture with SEE < 0, searched in QS
	ReasonFutileCapture                // a capture that cannot lift stand pat to alpha, searched in QS
	ReasonUnderpromotion               // a promotion to a knight, bishop or rook in QS
	ReasonQuietCheck                   // a non-capture check searched in QS
	ReasonEvasion                      // a reply to check in QS, where there is no stand pat
	ReasonLateCutoff                   // searched before the move that cut its node, which failed high on a later move
	ReasonReSearch                     // a second or later visit of the same move from the same node
	ReasonTransposition                // a position searched before in the subtree, as deep or deeper
	ReasonExtension                    // an extended move
	ReasonNecessary                    // none of the above
	NumReasons
)

var reasonNames = [...]string{"losing-capture", "futile-capture", "underpromotion", "quiet-check", "evasion",
	"late-cutoff", "re-search", "transposition", "extension", "necessary"}

var reasonMeanings = [...]string{
	"a capture searched in QS that loses material by SEE (SEE < 0 on its board)",
	"a capture searched in QS that cannot lift the node's stand pat to alpha even with its victim and the delta margin (the run's, 200 where it declared none)",
	"a promotion to a knight, bishop or rook searched in QS",
	"a non-capture check searched in QS",
	"a reply to check in QS, where the node does not stand pat",
	"a move searched before the one that cut its node, which failed high on a later move",
	"a second or later visit of the same move from the same node (PVS, aspiration, fail-high or level re-search)",
	"a position (Zobrist key of the replayed board) already searched earlier in the subtree, as deep or deeper",
	"a move the search extended (a check, recapture or threshold extension)",
	"none of the above: what the search needs",
}

var reasonRemedies = [...]string{"SEE pruning (see-prune)", "delta pruning (delta)", "leaving underpromotions out of QS",
	"no checks in QS (qs-checks false)", "", "better move ordering (qs-order, killers, history)", "",
	"a hash table in QS", "the extension's limit", ""}

// String is the reason's name as output and JSON give it: "losing-capture".
func (r Reason) String() string { return lookup(reasonNames[:], int(r)) }

// Meaning explains the reason in one line.
func (r Reason) Meaning() string { return lookup(reasonMeanings[:], int(r)) }

// Remedy says what would remove the nodes under the reason; "" when
// nothing would (evasions, re-searches and necessary nodes are what the
// search needs).
func (r Reason) Remedy() string { return lookup(reasonRemedies[:], int(r)) }

// Reasons lists every reason, in table order.
func Reasons() []Reason {
	out := make([]Reason, NumReasons)
	for i := range out {
		out[i] = Reason(i)
	}
	return out
}

// DefaultDeltaMargin is the delta margin a run that declared none is read
// with: every preset's.
const DefaultDeltaMargin = 200

// SEELoses reports whether capture m loses material by SEE: the rule of
// SEE pruning (see-prune) on a single capture. A move that captures
// nothing (a quiet promotion) is not one.
func (p *Position) SEELoses(m Move) bool { return p.IsCapture(m) && p.SEE(m) < 0 }

// DeltaFutile reports whether capture m, at a QS node whose static eval is
// eval and whose alpha is alpha at the time, cannot lift the score above
// alpha even with its victim and margin: the rule of delta pruning on a
// single capture. A promotion is never futile: it may gain the promoted
// piece.
func (p *Position) DeltaFutile(m Move, eval, alpha Score, margin int) bool {
	return p.IsCapture(m) && m.Promotion() == NoPieceType && p.DeltaOptimum(m, eval, margin) <= alpha
}

// DeltaOptimum is the most capture m may lift a QS node's score to in
// delta pruning's reckoning: the node's eval, the victim and the margin.
func (p *Position) DeltaOptimum(m Move, eval Score, margin int) Score {
	return Score(int32(eval) + seeValue[p.Captured(m)] + int32(margin))
}

// IsUnderpromotion reports whether m promotes to a knight, bishop or rook.
func (m Move) IsUnderpromotion() bool {
	pr := m.Promotion()
	return pr == Knight || pr == Bishop || pr == Rook
}

// QSMove describes a QS node's state when it searched a move: what the
// rules of QSMoveReason read besides the board.
type QSMove struct {
	// Evasions: the node is in check and does not stand pat, so it
	// answers check and prunes nothing.
	Evasions bool
	// HasEval: Eval is the node's static eval (its stand pat), which
	// delta pruning compares against Alpha, alpha when the move was
	// searched (raised by the stand pat and the moves before).
	HasEval bool
	Eval    Score
	Alpha   Score
	Margin  int // the delta margin
}

// QSMoveReason is the first position-local reason of move m searched at
// a QS node whose position is p (before m) and state is q: a losing
// capture, a futile capture, an underpromotion, a quiet check, an evasion,
// or ReasonNecessary when none applies. Pruning never applies at a node
// searching evasions (qsPrune), so an evasion is never a losing or futile
// capture.
func (p *Position) QSMoveReason(m Move, q QSMove) Reason {
	if m == NoMove || m == NullMove {
		return ReasonNecessary
	}
	if !q.Evasions {
		if p.SEELoses(m) {
			return ReasonLosingCapture
		}
		if q.HasEval && p.DeltaFutile(m, q.Eval, q.Alpha, q.Margin) {
			return ReasonFutileCapture
		}
	}
	if m.IsUnderpromotion() {
		return ReasonUnderpromotion
	}
	if !p.IsCapture(m) && m.Promotion() == NoPieceType && !q.Evasions && p.GivesCheck(m) {
		return ReasonQuietCheck
	}
	if q.Evasions {
		return ReasonEvasion
	}
	return ReasonNecessary
}

// whatIfSwitches are the switches 'explain --what-if' flips one at a time,
// in this order: the QS switches (every QS routine reads them), then the
// full-width ones, which apply to a whole search alone.
var whatIfSwitches = []struct {
	name      string
	fullWidth bool
}{
	{"see-prune", false}, {"delta", false}, {"qs-order", false}, {"qs-checks", false}, {"qs-evasions", false},
	{"stand-pat", false}, {"pvs", true}, {"check-ext", true}, {"recapture-ext", true},
}

// Flip is o with one switch set to its other value, and the change as
// "see-prune=true".
type Flip struct {
	Options Options
	Change  string
}

// WhatIfFlips returns o with each switch of the what-if table flipped in
// turn (a boolean to its other value, the capture ordering to the other
// ordering), leaving out those that do not apply: a full-width switch
// when fullWidth is false (a QS root's re-search), and a flip Validate
// refuses (a QS switch of a search without QS). The switch table
// (OptionSpecs) sets them.
func (o Options) WhatIfFlips(fullWidth bool) []Flip {
	var out []Flip
	for _, sw := range whatIfSwitches {
		if sw.fullWidth && !fullWidth {
			continue
		}
		spec := optionSpecByName(sw.name)
		cur := spec.get(&o)
		var next string
		switch spec.Kind {
		case "bool":
			next = "true"
			if cur == "true" {
				next = "false"
			}
		case "enum":
			for _, e := range spec.Enum {
				if e != cur {
					next = e
					break
				}
			}
		}
		f := o
		if next == "" || spec.set(&f, next) != nil || f.Validate(sw.name) != nil {
			continue
		}
		out = append(out, Flip{Options: f, Change: sw.name + "=" + next})
	}
	return out
}
