package export

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"strconv"
	"strings"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// WriteDOT writes the graph in Graphviz's DOT language. The text depends
// only on the graph (no times, no versions), so the same trace and options
// give the same bytes.
func (g *Graph) WriteDOT(w io.Writer) error {
	if g.plan != nil {
		return g.writeStreamDOT(w)
	}
	bw := bufio.NewWriter(w)
	p := func(format string, a ...any) { fmt.Fprintf(bw, format, a...) }
	g.dotHead(p)
	words := g.Run.EvalWords() // the run's options, parsed once
	for i := range g.Nodes {
		g.dotNode(p, &g.Nodes[i], words)
	}
	for i := range g.Summaries {
		s := &g.Summaries[i]
		dotSummary(p, g.Nodes[s.Parent].ID, s)
	}
	// Edges in pre-order of the child; with ordering=out each node's
	// children then stand left to right in the order the search tried
	// them, and its summary, written last, to their right.
	last := g.lastSearches()
	for i := 1; i < len(g.Nodes); i++ {
		n := &g.Nodes[i]
		g.dotEdge(p, &g.Nodes[n.Parent], n, last[i])
	}
	for i := range g.Summaries {
		dotSummaryEdge(p, g.Nodes[g.Summaries[i].Parent].ID)
	}
	p("}\n")
	return bw.Flush()
}

// printer is fmt.Fprintf to the DOT being written.
type printer func(format string, a ...any)

// dotHead writes the DOT up to the first node: the heading and defaults.
func (g *Graph) dotHead(p printer) {
	p("// horizon export: run %d, node %d\n", g.Run.ID, g.Top.ID)
	p("digraph horizon {\n")
	p("\tgraph [rankdir=%s, ordering=out, fontname=\"Helvetica\", fontsize=12, labelloc=t, labeljust=l, nodesep=0.15, ranksep=0.35,\n", g.Options.RankDir)
	p("\t\tlabel=<%s>];\n", g.headingHTML())
	p("\tnode [fontname=\"Helvetica\", fontsize=10, style=filled, margin=\"0.06,0.03\"];\n")
	p("\tedge [fontname=\"Helvetica\", fontsize=9, color=%q, fontcolor=%q, arrowsize=0.6];\n", colEdge, colEdge)
}

// dotNode writes shown node n; words are the run's g.Run.EvalWords().
func (g *Graph) dotNode(p printer, n *Node, words trace.EvalWords) {
	p("\t%s [%s];\n", nodeName(n), g.nodeAttrs(n, words))
}

// dotSummary writes summary s of the shown node with id parent.
func dotSummary(p printer, parent int64, s *Summary) {
	p("\t%s [shape=note, style=\"filled,dashed\", fillcolor=%q, color=%q, label=%s];\n",
		summaryName(parent), colSummaryFill, colSummaryLine, quote(summaryLines(*s)...))
}

// dotEdge writes the edge from shown node parent to its shown child n;
// lastSearch: no later shown sibling of n has its move (lastSearches).
func (g *Graph) dotEdge(p printer, parent, n *Node, lastSearch bool) {
	p("\t%s -> %s [%s];\n", nodeName(parent), nodeName(n), g.edgeAttrs(parent, n, lastSearch))
}

// dotSummaryEdge writes the edge from the shown node with id parent to
// its summary.
func dotSummaryEdge(p printer, parent int64) {
	p("\t%s -> %s [style=dashed, color=%q];\n", shownName(parent), summaryName(parent), colSummaryLine)
}

func nodeName(n *Node) string { return shownName(n.ID) }

// shownName names the shown node with id id.
func shownName(id int64) string { return "n" + strconv.FormatInt(id, 10) }

// summaryName names the summary of the shown node with id parent.
func summaryName(parent int64) string { return "s" + strconv.FormatInt(parent, 10) }

// title is the graph's heading: the run, the position and what is shown.
func (g *Graph) title() []string {
	r := g.Run
	lines := []string{fmt.Sprintf("Horizon trace, run %d: variant %s, depth %d (%s), %s nodes",
		r.ID, r.Label(), r.Depth, r.Status, engine.Commas(r.Nodes))}
	lines = append(lines, positionLine(r))
	where, size := topWhere(g.Top, g.TopPlace), g.Top.Nodes()
	lines = append(lines, fmt.Sprintf("Subtree of %s: %s; %d shown, %s (budget %d)",
		where, engine.Count(size, "node"), g.shownCount(), engine.CountOf(g.summaryCount(), "summary", "summaries"), g.Options.MaxNodes))
	if g.QSOnly {
		lines = append(lines, fmt.Sprintf("QS only: %s QS trees (%s nodes) under it; %s full-width nodes left out",
			engine.Commas(g.QSRoots), engine.Commas(g.QSNodes), engine.Commas(g.FullWidth)))
	}
	if g.Options.Depth >= 0 {
		below := "below the top node"
		if g.QSOnly {
			below = "below each QS root"
		}
		lines = append(lines, fmt.Sprintf("Depth limit: %d plies %s", g.Options.Depth, below))
	}
	// The run's name, EPD id and position come from the file: a hostile
	// one's escape sequences would reach a terminal showing the DOT text
	// and make the SVG ill-formed.
	for i, l := range lines {
		lines[i] = engine.Printable(l)
	}
	return lines
}

// nodeAttrs gives a node its shape, colours and label; w is the run's
// g.Run.EvalWords().
func (g *Graph) nodeAttrs(n *Node, w trace.EvalWords) string {
	shape, style := "box", "filled"
	switch n.Kind {
	case engine.KindQS:
		shape = "ellipse"
	case engine.KindRun, engine.KindRoot:
		style = "filled,rounded"
	}
	fill, line := colLowFill, colLowLine
	peripheries := 1
	switch outcomeOf(n.Node) {
	case outBetaCut:
		fill, line, peripheries = colBetaFill, colBetaLine, 2
	case outStandPat:
		fill, line = colStandFill, colStandLine
		style += ",dashed"
	case outExact:
		fill, line = colExactFill, colExactLine
	}
	width := "1"
	if n.PV {
		width = "3"
	}
	a := fmt.Sprintf("shape=%s, style=%q, fillcolor=%q, color=%q, penwidth=%s", shape, style, fill, line, width)
	if peripheries > 1 {
		a += ", peripheries=2"
	}
	return a + ", label=" + quote(nodeLines(g.Run, w, n.Node, n.SAN)...)
}

// edgeAttrs labels an edge with the move's place in the search order and
// draws the PV bold.
func (g *Graph) edgeAttrs(parent, n *Node, lastSearch bool) string {
	var label string
	style := ""
	switch {
	case n.Kind == engine.KindRoot:
		label = trace.IterationLabel(n.Iteration)
	case n.Via != nil || (g.QSOnly && n.Parent == 0):
		label = strings.Join(n.Via, " ")
		if label == "" {
			label = "(direct)"
		}
		style = ", style=dashed"
	default:
		label = "#" + strconv.Itoa(n.Order)
		if n.Repeat > 0 {
			label += " (" + engine.Ordinal(n.Repeat+1) + ")"
		}
		if parent.Cause == engine.CauseBeta && n.Move == parent.Best && lastSearch {
			label += " cut"
		}
	}
	// xlabel, not label: dot gives a labelled edge a node of its own in an
	// extra rank, which makes big layouts markedly slower; external
	// labels are placed after the layout.
	a := "xlabel=" + quote(label) + style
	if n.PV {
		a += fmt.Sprintf(", penwidth=2.5, color=%q, fontcolor=%q", colPV, colPV)
	}
	return a
}

// lastSearches marks each shown node that no later shown sibling shares
// its move with, so a re-searched cutoff move marks only its last search.
func (g *Graph) lastSearches() []bool {
	type key struct {
		parent int
		move   engine.Move
	}
	lastOf := make(map[key]int, len(g.Nodes))
	for i := 1; i < len(g.Nodes); i++ {
		lastOf[key{g.Nodes[i].Parent, g.Nodes[i].Move}] = i // ascending ids: the last write wins
	}
	last := make([]bool, len(g.Nodes))
	for i := 1; i < len(g.Nodes); i++ {
		last[i] = lastOf[key{g.Nodes[i].Parent, g.Nodes[i].Move}] == i
	}
	return last
}

// quote makes a DOT string of lines, centred.
func quote(lines ...string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i, l := range lines {
		if i > 0 {
			b.WriteString(`\n`)
		}
		for _, r := range l {
			switch r {
			case '"', '\\':
				b.WriteByte('\\')
				b.WriteRune(r)
			case '\n':
				b.WriteString(`\n`)
			default:
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// headingHTML is the graph's label: the title on the left, the legend on
// the right. Being the graph's label rather than a node, the legend takes
// no part in the layout of the tree.
func (g *Graph) headingHTML() string {
	var b strings.Builder
	b.WriteString(`<TABLE BORDER="0" CELLSPACING="0" CELLPADDING="4"><TR><TD ALIGN="LEFT" VALIGN="TOP" BALIGN="LEFT">`)
	for i, l := range g.title() {
		if i > 0 {
			b.WriteString(`<BR/>`)
		}
		if i == 0 {
			b.WriteString("<B>" + html.EscapeString(l) + "</B>")
		} else {
			b.WriteString(html.EscapeString(l))
		}
	}
	b.WriteString(`</TD><TD VALIGN="TOP">` + legendHTML + `</TD></TR></TABLE>`)
	return b.String()
}

// legendHTML is the legend's HTML-like table.
var legendHTML = func() string {
	row := func(fill, line, text string) string {
		return fmt.Sprintf(`<TR><TD BGCOLOR="%s" COLOR="%s" WIDTH="24"> </TD><TD ALIGN="LEFT">%s</TD></TR>`, fill, line, text)
	}
	return `<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="2" CELLPADDING="2">` +
		`<TR><TD COLSPAN="2" ALIGN="LEFT"><B>Legend</B></TD></TR>` +
		`<TR><TD COLSPAN="2" ALIGN="LEFT">box: full-width node, ellipse: QS node</TD></TR>` +
		row(colBetaFill, colBetaLine, "fail high / beta cutoff (double border)") +
		row(colStandFill, colStandLine, "stand-pat cutoff (dashed border)") +
		row(colExactFill, colExactLine, "exact score (inside the window)") +
		row(colLowFill, colLowLine, "fail low") +
		row(colSummaryFill, colSummaryLine, "collapsed children (summary)") +
		`<TR><TD COLSPAN="2" ALIGN="LEFT">bold: principal variation; edge #k: k-th move searched</TD></TR>` +
		`</TABLE>`
}()
