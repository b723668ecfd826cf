package trace

import (
	"strconv"

	"github.com/horizonqs/horizon/engine"
)

// Where a node stands prints two ways from one vocabulary: short for a
// narrow column (DepthLabel: "d3", "q2", "q2L1") and in words for a label
// (DepthText: "d3 nonpv", "qs 2", "qs 2, level 1"). "d" is a full-width
// node's remaining depth, "q"/"qs" a QS node's QS ply (stored, not -depth:
// another engine's null move at depth -2 that opens a QS is at QS ply 0),
// "L"/"level" its QS level.

// DepthLabel is where n stands, short, for a narrow column (the viewer's
// d/q column and status line): "d3" for full-width nodes, "q2" (QS ply 2)
// in QS, with the QS level when levels (the run's QS uses levels:
// engine.Options.UsesLevels) and the node has one ("q2L1"); "" for the
// run node.
func (n Node) DepthLabel(levels bool) string {
	switch n.Kind {
	case engine.KindRun:
		return ""
	case engine.KindQS:
		s := "q" + strconv.Itoa(n.QSPly)
		if levels && n.QSLevel >= 0 {
			s += "L" + strconv.Itoa(n.QSLevel)
		}
		return s
	}
	return "d" + strconv.Itoa(n.Depth)
}

// DepthText is where n stands in words, for the diagrams' labels: "d3
// nonpv" for full-width nodes (with their kind), "qs 2" for QS nodes (with
// the engine's QS level where it differs from the QS ply: "qs 2, level
// 1"), "iteration 4, d4" and "run" for the roots.
func (n Node) DepthText() string {
	switch n.Kind {
	case engine.KindRun:
		return "run"
	case engine.KindRoot:
		return IterationLabel(n.Iteration) + ", d" + strconv.Itoa(n.Depth)
	case engine.KindQS:
		s := "qs " + strconv.Itoa(n.QSPly)
		if n.QSLevel >= 0 && n.QSLevel != n.QSPly {
			s += ", level " + strconv.Itoa(n.QSLevel)
		}
		return s
	}
	return "d" + strconv.Itoa(n.Depth) + " " + n.Kind.String()
}
