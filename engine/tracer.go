package engine

// NodeKind tells what role a node plays in the tree.
type NodeKind uint8

// Node kinds. A run's tree is: one KindRun node (id 0), whose children are one
// KindRoot node per iteration of iterative deepening, whose descendants are
// KindPV / KindNonPV full-width nodes and KindQS quiescence nodes.
const (
	KindRun NodeKind = iota
	KindRoot
	KindPV
	KindNonPV
	KindQS
	numKinds
)

var kindNames = [...]string{"run", "root", "pv", "nonpv", "qs"}

// String returns the short lower-case name used in traces and output.
func (k NodeKind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "?"
}

// Bound tells how a node's score relates to the true minimax value.
// BoundExact is BoundUpper|BoundLower, as in Stockfish.
type Bound uint8

// Bounds.
const (
	BoundNone  Bound = 0
	BoundUpper Bound = 1 // fail low: score <= alpha, the true value is at most score
	BoundLower Bound = 2 // fail high: score >= beta, the true value is at least score
	BoundExact Bound = BoundUpper | BoundLower
)

// BoundOf is the bound of a score searched with window (alpha, beta): a
// fail high (score >= beta) is a lower bound, a fail low (score <= alpha)
// an upper bound, and a score inside the window exact. The search and an
// importer that derives the bound an engine left out take it here.
func BoundOf(score, alpha, beta Score) Bound {
	switch {
	case score >= beta:
		return BoundLower
	case score > alpha:
		return BoundExact
	}
	return BoundUpper
}

var boundNames = [...]string{"none", "upper", "lower", "exact"}

// String returns "none", "upper", "lower" or "exact".
func (b Bound) String() string { return boundNames[b&3] }

// Cause is why a node stopped searching before trying all its moves, or how
// it got its score without searching them.
type Cause uint8

// Cutoff causes.
const (
	CauseNone           Cause = iota // searched every move it meant to
	CauseBeta                        // a move scored >= beta; CutIndex says which
	CauseStandPat                    // the static eval was >= beta in QS
	CauseTT                          // a transposition table entry answered
	CauseMateDistance                // mate distance pruning closed the window
	CauseRepetition                  // draw by repetition
	CauseFifty                       // draw by the fifty-move rule
	CauseMaterial                    // draw by insufficient material
	CauseAutoFailHigh                // threshold QS: levels ran out, the node fails high by rule
	CauseLevelExhausted              // threshold QS root: all levels iterated, the last pass still met auto-fail-highs
	CauseDelta                       // delta pruning: even the best capture cannot reach alpha
	CauseSEE                         // every capture left was pruned as losing by SEE
	CauseHorizon                     // static eval at the horizon, no QS (variant none)
	CauseMaxPly                      // the ply limit was reached
	CauseStop                        // the search was stopped (time, nodes, signal)
	CauseMate                        // no legal move: checkmate or stalemate
	numCauses
)

var causeNames = [...]string{"none", "beta", "standpat", "tt", "matedist", "repetition", "fifty",
	"material", "autofailhigh", "levels", "delta", "see", "horizon", "maxply", "stop", "nomoves"}

// String returns the short name used in traces and output.
func (c Cause) String() string {
	if int(c) < len(causeNames) {
		return causeNames[c]
	}
	return "?"
}

var kindMeanings = [...]string{
	"the run itself (id 0); its children are the iterations",
	"root of one iteration of iterative deepening",
	"full-width node searched with an open window",
	"full-width node searched with a null window",
	"quiescence search node",
}

var boundMeanings = [...]string{
	"no score bound (node not finished)",
	"fail low: the true value is at most score",
	"fail high: the true value is at least score",
	"score is exact",
}

var causeMeanings = [...]string{
	"searched every move it meant to",
	"a move scored >= beta: the node cut at it",
	"the static eval was >= beta in QS",
	"a transposition table entry answered",
	"mate distance pruning closed the window",
	"draw by repetition",
	"draw by the fifty-move rule",
	"draw by insufficient material",
	"threshold QS: a capture had no level left, so the node fails high by rule",
	"threshold QS root: all levels iterated, the last pass still met auto-fail-highs",
	"delta pruning: even the best capture cannot reach alpha",
	"every capture left was pruned as losing by SEE",
	"static eval at the horizon, no QS",
	"the ply limit was reached",
	"the search was stopped (time, nodes, signal)",
	"no legal move: checkmate or stalemate",
}

// Short labels fit a narrow column (the viewer's tree); long labels are
// for prose (export's node labels, diff's report). Names are the stable
// identifiers stored in traces and JSON.
var kindLabels = [...]string{"run", "root", "pv", "nonpv", "qs"}

var kindLongLabels = [...]string{"run node", "iteration root", "PV node (open window)",
	"non-PV node (null window)", "QS node"}

var boundLabels = [...]string{"?", "<=", ">=", "="}

var boundLongLabels = [...]string{"none (not finished)", "upper bound (fail low)",
	"lower bound (fail high)", "exact"}

var causeLabels = [...]string{"", "beta", "standpat", "tt", "matedist", "rep", "50move",
	"insuff", "autofh", "levels", "delta", "see", "horizon", "maxply", "stop", "nomoves"}

var causeLongLabels = [...]string{"", "beta cutoff", "stand-pat cutoff", "TT cutoff",
	"mate-distance cutoff", "draw: repetition", "draw: fifty moves", "draw: material",
	"auto fail high", "QS levels exhausted", "delta pruned", "SEE pruned",
	"static eval (no QS)", "max ply", "stopped", "no legal move"}

// Label is the kind's short label, for a narrow column.
func (k NodeKind) Label() string { return lookup(kindLabels[:], int(k)) }

// LongLabel is the kind's label in words.
func (k NodeKind) LongLabel() string { return lookup(kindLongLabels[:], int(k)) }

// Label is the bound's short label: "=" exact, ">=" fail high, "<=" fail
// low, "?" none.
func (b Bound) Label() string { return lookup(boundLabels[:], int(b)) }

// LongLabel is the bound's label in words.
func (b Bound) LongLabel() string { return lookup(boundLongLabels[:], int(b)) }

// Label is the cause's short label, for a narrow column; "" for CauseNone.
func (c Cause) Label() string { return lookup(causeLabels[:], int(c)) }

// LongLabel is the cause's label in words; "" for CauseNone.
func (c Cause) LongLabel() string { return lookup(causeLongLabels[:], int(c)) }

// Meaning explains the kind in one line, for lookup tables and help.
func (k NodeKind) Meaning() string { return lookup(kindMeanings[:], int(k)) }

// Meaning explains the bound in one line.
func (b Bound) Meaning() string { return lookup(boundMeanings[:], int(b)) }

// Meaning explains the cause in one line.
func (c Cause) Meaning() string { return lookup(causeMeanings[:], int(c)) }

func lookup(table []string, i int) string {
	if i >= 0 && i < len(table) {
		return table[i]
	}
	return "?"
}

// KindNames lists every node kind's name by its code, so a trace file can
// carry a lookup table of them.
func KindNames() []string { return kindNames[:] }

// BoundNames lists every bound's name by its code.
func BoundNames() []string { return boundNames[:] }

// CauseNames lists every cutoff cause's name by its code.
func CauseNames() []string { return causeNames[:] }

// EnterInfo describes a node as the search enters it.
type EnterInfo struct {
	ID        int64 // pre-order visit number within the run; the run node is 0
	Parent    int64 // -1 for the run node
	Ply       int   // distance from the iteration root (run and iteration roots are ply 0)
	Depth     int   // remaining depth; <= 0 in QS
	Alpha     Score
	Beta      Score
	Kind      NodeKind
	QSPly     int  // distance from the QS root for QS nodes (0 at the QS root), -1 otherwise
	QSLevel   int  // the level of level-based QS (the threshold routine), -1 everywhere else
	Move      Move // move from the parent; NoMove for run and iteration roots
	InCheck   bool
	Iteration int // iteration of iterative deepening (its nominal depth)
}

// StandPatInfo reports the static evaluation a QS node stood pat on.
type StandPatInfo struct {
	ID     int64
	Eval   Score
	Cutoff bool // the stand pat alone was >= beta
}

// MoveInfo reports a move about to be searched, by its index in the ordering.
type MoveInfo struct {
	ID    int64
	Move  Move
	Index int
}

// ExtensionInfo reports a search extension given to a move.
type ExtensionInfo struct {
	ID    int64 // the node whose move is extended
	Move  Move
	Plies int
}

// LeaveInfo describes a node as the search leaves it.
type LeaveInfo struct {
	ID        int64
	Score     Score
	Bound     Bound
	Cause     Cause
	CutIndex  int  // index of the move that failed high, -1 when none
	Best      Move // NoMove when no move was best (all failed low, stand pat, ...)
	Generated int  // moves generated (after the variant's move set filter)
	Searched  int  // moves actually searched
	StandPat  Score
	HasStand  bool // StandPat holds the static eval this node computed
	Extension int  // plies of extension this node's move got from its parent
}

// Tracer receives every node the search visits. Events for one node come in
// the order Enter, StandPat?, (Move, (Extension?, child)+)*, Leave, with
// children's events nested between their parent's Move and Leave: a move
// searched twice (a PVS re-search) has one Move and two children, each
// extended child preceded by its Extension. A nil Tracer costs the search
// one predictable branch per event.
type Tracer interface {
	Enter(EnterInfo)
	StandPat(StandPatInfo)
	Move(MoveInfo)
	Extension(ExtensionInfo)
	Leave(LeaveInfo)
}
