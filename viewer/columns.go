package viewer

import (
	"sort"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/horizonqs/horizon/compare"
	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// The tree pane's columns are one table, after tview's table content:
// each column says once its title, width, help line, how a row fills it
// and, in compare mode, when two nodes differ in it. Adding a column is
// one entry.

// column ids of the tree pane, in screen order.
const (
	colKind = iota
	colDepth
	colWindow
	colStand
	colScore
	colCause
	colSize
	colPct
	colBar
	numCols
)

// barWidth is the width of the share bar column.
const barWidth = 5

// rowCell is what a column reads to fill the cell of one row.
type rowCell struct {
	n         trace.Node
	run       *trace.Run // the node's run: how its scores print
	open      bool       // the recorder was in the node when its rows were written: no result
	openWord  string     // what an open node is called: its run's Status.OpenNode
	levels    bool       // the run's QS has levels
	share     float64    // of the parent's subtree; -1 when it has no size
	moveStyle tcell.Style
}

// column is one column of the tree pane.
type column struct {
	title string
	width int
	left  bool   // left-aligned (text), else right-aligned (numbers)
	prio  int    // columns get space in prio order, 0 first
	help  string // the help screen's line ("" for none)
	cell  func(m *Model, r *rowCell) (string, tcell.Style)
	// differs reports whether two runs' nodes, a of run ra and b of rb,
	// differ in the column; nil: never marked.
	differs func(ra, rb trace.Run, a, b trace.Node) bool
}

var treeColumns = [numCols]column{
	colKind: {title: "kind", width: 5, left: true, prio: 2,
		help:    "run, root (iteration), pv, nonpv (null window), qs",
		cell:    func(m *Model, r *rowCell) (string, tcell.Style) { return kindLabel(r.n), r.moveStyle },
		differs: func(_, _ trace.Run, a, b trace.Node) bool { return a.Kind != b.Kind }},
	colDepth: {title: "d/q", width: 5, prio: 3,
		help:    "remaining depth (d3), or QS ply past the horizon (q2) and level (L1)",
		cell:    func(m *Model, r *rowCell) (string, tcell.Style) { return r.n.DepthLabel(r.levels), m.st.base },
		differs: func(_, _ trace.Run, a, b trace.Node) bool { return a.Depth != b.Depth || a.QSLevel != b.QSLevel }},
	colWindow: {title: "window", width: 13, prio: 7,
		help:    "[alpha,beta] on entry, for the side to move at the node, as the score",
		cell:    func(m *Model, r *rowCell) (string, tcell.Style) { return m.g.fmtWindow(*r.run, r.n, ""), m.st.base },
		differs: func(ra, rb trace.Run, a, b trace.Node) bool { return !compare.SameWindow(ra, rb, a, b) }},
	colStand: {title: "stand", width: 6, prio: 6,
		help: "stand pat: the static eval a QS node stood on (nodes that do not stand pat show the eval they computed)",
		cell: func(m *Model, r *rowCell) (string, tcell.Style) {
			if !r.n.HasStandPat {
				return "", m.st.base
			}
			return m.g.fmtScore(r.run.Scores(), r.n.StandPat), m.st.base
		},
		differs: func(_, _ trace.Run, a, b trace.Node) bool {
			return a.HasStandPat != b.HasStandPat || (a.HasStandPat && a.StandPat != b.StandPat)
		}},
	colScore: {title: "score", width: 7, prio: 0,
		help: "=exact  ≥ fail high (lower bound)  ≤ fail low (upper bound)  #N mate in N moves counted from the root, as engines score mates; for the side to move at the node (negamax: a child's -38 is +38 for its parent)",
		cell: func(m *Model, r *rowCell) (string, tcell.Style) {
			if r.open {
				return m.g.ellipsis, m.st.dim
			}
			switch r.n.Bound {
			case engine.BoundExact:
				return m.g.fmtResult(r.run.NodeScores(r.n), r.n), m.st.exact
			case engine.BoundLower:
				return m.g.fmtResult(r.run.NodeScores(r.n), r.n), m.st.beta
			}
			return m.g.fmtResult(r.run.NodeScores(r.n), r.n), m.st.base
		},
		differs: func(ra, rb trace.Run, a, b trace.Node) bool {
			return !compare.SameScore(ra, rb, a, b) || a.Bound != b.Bound
		}},
	colCause: {title: "cause", width: 10, left: true, prio: 4,
		help: "why the node stopped: beta@k (move k failed high), standpat, delta, see, tt, ...",
		cell: func(m *Model, r *rowCell) (string, tcell.Style) {
			text := m.g.causeLabel(r.n)
			if r.open {
				text = r.openWord
			}
			switch r.n.Cause {
			case engine.CauseBeta:
				return text, m.st.beta
			case engine.CauseStandPat:
				return text, m.st.standPat
			}
			return text, m.st.cut
		},
		differs: func(_, _ trace.Run, a, b trace.Node) bool { return a.Cause != b.Cause || a.CutIndex != b.CutIndex }},
	colSize: {title: "nodes", width: 5, prio: 1,
		help: "subtree size, and its share of the parent's subtree",
		cell: func(m *Model, r *rowCell) (string, tcell.Style) {
			if r.open {
				return "open", m.st.base
			}
			return engine.Short(r.n.Nodes()), m.st.base
		},
		differs: func(_, _ trace.Run, a, b trace.Node) bool { return a.SubtreeSize != b.SubtreeSize }},
	colPct: {title: "%", width: 3, prio: 8,
		cell: func(m *Model, r *rowCell) (string, tcell.Style) {
			if r.share < 0 || r.open {
				return "", m.st.base
			}
			return strings.TrimSuffix(engine.WholePercent(r.share), "%"), m.st.base // the title says %
		}},
	colBar: {title: "share", width: barWidth, left: true, prio: 5,
		cell: func(m *Model, r *rowCell) (string, tcell.Style) {
			if r.share < 0 || r.open {
				return "", r.moveStyle
			}
			return m.g.shareBar(r.share, barWidth), r.moveStyle
		}},
}

// colPriority lists the column ids in the order they are given space.
var colPriority = func() []int {
	ids := make([]int, numCols)
	for i := range ids {
		ids[i] = i
	}
	sort.Slice(ids, func(i, j int) bool { return treeColumns[ids[i]].prio < treeColumns[ids[j]].prio })
	return ids
}()

// minTree is the width kept for indentation, marker and move.
const minTree = 16

// columns picks the columns that fit in width w, in priority order.
func columns(w int) (show [numCols]bool, used int) {
	for _, c := range colPriority {
		if w-used-treeColumns[c].width-1 < minTree {
			break
		}
		show[c] = true
		used += treeColumns[c].width + 1
	}
	return show, used
}

// diffMask has a bit per column that differs from the other run.
type diffMask uint16

// diffNodes marks the columns in which two nodes, a of run ra and b of
// rb, differ.
func diffNodes(ra, rb trace.Run, a, b trace.Node) diffMask {
	var d diffMask
	for c, col := range treeColumns {
		if col.differs != nil && col.differs(ra, rb, a, b) {
			d |= 1 << c
		}
	}
	return d
}

// fit fits a cell's text to its column.
func (c column) fit(text, ell string) string {
	text = clip(text, c.width, ell)
	if c.left {
		return padRight(text, c.width)
	}
	return padLeft(text, c.width)
}
