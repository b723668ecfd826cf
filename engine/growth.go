package engine

// GrowthCause is why a part of a search tree is there beyond the nominal
// full-width tree of the iteration's depth: a quiescence search, or a chain
// of moves the search extended. Readers of traces (hotspots, the viewer,
// export) label the biggest subtrees with it.
type GrowthCause uint8

// Growth causes.
const (
	GrowthNone         GrowthCause = iota // not a hotspot of its own (a full-width node ranked by growth)
	GrowthQS                              // a QS tree: a QS node whose parent is a full-width node
	GrowthRecaptureExt                    // an extension chain whose first move recaptured on the square the previous move landed on
	GrowthCheckExt                        // an extension chain whose first move gave check
	GrowthThresholdExt                    // an extension chain in a threshold QS: its first move was a cheap capture, which keeps its level
	GrowthExt                             // an extension chain whose first move's reason the trace does not tell (another engine's extension)
	numGrowthCauses
)

var growthNames = [...]string{"", "qs", "recapture-ext", "check-ext", "threshold-ext", "ext"}

var growthLongLabels = [...]string{"", "QS tree", "recapture-extension chain", "check-extension chain",
	"threshold-extension chain", "extension chain"}

var growthMeanings = [...]string{
	"a full-width node, ranked by its own growth",
	"a quiescence search: a QS node below a full-width node, with its subtree",
	"a chain of extended moves whose first move recaptured on the square the previous move landed on (recapture-ext)",
	"a chain of extended moves whose first move gave check (check-ext)",
	"a chain of extended moves in a threshold QS whose first move was a capture cheap enough to keep its level (threshold-ext)",
	"a chain of extended moves whose cause the trace does not record (another engine's extension)",
}

// String returns the name used in output and JSON: "qs", "recapture-ext",
// "check-ext", "threshold-ext", "ext"; "" for GrowthNone.
func (g GrowthCause) String() string { return lookup(growthNames[:], int(g)) }

// LongLabel is the cause's label in words ("recapture-extension chain").
func (g GrowthCause) LongLabel() string { return lookup(growthLongLabels[:], int(g)) }

// Meaning explains the cause in one line.
func (g GrowthCause) Meaning() string { return lookup(growthMeanings[:], int(g)) }

// ExtensionCause says why a search with options o extended move m, made
// after prev (the move into the node searching m), given whether the side to
// move after m is in check and whether m was searched in QS. It is the rule
// of Searcher.extend and the threshold QS read back from a tree: in a
// threshold QS, a capture cheap enough to keep its level; in full width,
// with recapture-ext, a move to the square prev landed on (which captures
// what just moved there); else with check-ext, a move that gives check. An
// extension none explains is GrowthExt.
func (o *Options) ExtensionCause(prev, m Move, givesCheck, inQS bool) GrowthCause {
	switch {
	case inQS && o.UsesLevels():
		return GrowthThresholdExt
	case inQS:
		return GrowthExt
	case o.RecaptureExt && prev != NoMove && m != NoMove && m.To() == prev.To():
		return GrowthRecaptureExt
	case o.CheckExt && givesCheck:
		return GrowthCheckExt
	}
	return GrowthExt
}
