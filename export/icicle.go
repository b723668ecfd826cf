package export

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// IcicleOptions shape an icicle chart.
type IcicleOptions struct {
	Width     int // pixels; <= 0 means 1600
	RowHeight int // pixels; <= 0 means 18
	// Depth is how many levels below the top node are drawn; < 0 means
	// all. The rows below are not read at all.
	Depth int
}

// Icicle layout constants (pixels).
const (
	icicleMargin  = 40 // left column with the row numbers
	icicleHeader  = 84 // title and legend
	icicleFont    = 11
	icicleCharW   = 6.3 // a generous average glyph width at icicleFont
	icicleMinRect = 1.0 // nodes narrower than this are merged with their row neighbours
)

// icicleEntry is a node drawn on its own (at least icicleMinRect wide),
// or a narrow one on its way into a merged run.
//
// The subtree figures are what is known without reading below the narrow
// nodes. QS only ever recurses into QS, so a QS node's subtree is all QS
// and its share is known from its size; below a narrow full-width node,
// below the depth limit and where a recording filter left nodes out, the
// kind of a node is not known.
type icicleEntry struct {
	n       trace.Node
	row     int
	san     string
	pv      bool // on the principal variation (only looked up for wide nodes)
	qs      bool
	rootPly int // ply of the QS root above (or at) a QS node
	qsPly   int // distance from the QS root

	qsNodes  int64 // nodes of the subtree known to be QS
	unread   int64 // nodes of the subtree of unknown kind
	maxQSPly int   // deepest QS ply known in the subtree, -1 when none
	partial  bool  // part of the subtree was not read: QS may go deeper than maxQSPly
}

// icicleMerge is a run of narrow nodes in one row drawn as one rectangle.
// Only the nodes themselves are read, not their subtrees.
type icicleMerge struct {
	x0, x1 float64
	nodes  int64 // narrow nodes in the run
	qs     int64 // of them QS
	size   int64 // nodes in their subtrees
	qsSize int64 // nodes in the QS ones' subtrees
	active bool
}

// icicle is one chart being drawn.
type icicle struct {
	ctx      context.Context
	st       trace.Reader
	opts     IcicleOptions
	run      trace.Run
	words    trace.EvalWords // how a node's static eval is named
	rule     trace.MoveRule  // the run's moves, legal or pseudo-legal
	top      trace.Node
	topPlace string        // the heading's (topLine.place)
	scale    float64       // pixels per node
	merges   []icicleMerge // by row: the run being merged there
	body     bytes.Buffer
	rows     int   // rows drawn
	rects    int   // nodes drawn on their own
	merged   int   // merged runs drawn
	read     int64 // rows read from the trace below the top node
	// totals are the exact figures of a few whole subtrees (the run's and
	// its iterations'), known from the run's summary without reading them.
	totals map[int64]subtreeTotals
}

// subtreeTotals are a subtree's figures from the run's summary.
type subtreeTotals struct {
	nodes, qs int64
	maxQSPly  int // -1 when not known
}

// WriteIcicle writes an SVG icicle chart of the subtree under top: one
// rectangle per node, as wide as its subtree, one row per level below top,
// QS nodes coloured apart from full-width ones. Runs of neighbouring nodes
// narrower than a pixel are merged into one rectangle, and what lies below
// them is not read: the chart reads the children of each node it draws and
// nothing else, so its cost follows the number of rectangles, not the size
// of the subtree. Subtree figures in the tooltips are exact where the
// subtree was read whole and given as bounds where it was not.
func WriteIcicle(ctx context.Context, st trace.Reader, run trace.Run, top trace.Node, opts IcicleOptions, w io.Writer) error {
	_, err := writeIcicle(ctx, st, run, top, opts, w)
	return err
}

// writeIcicle is WriteIcicle; it also returns how many rows it read below
// the top node, for the tests.
func writeIcicle(ctx context.Context, st trace.Reader, run trace.Run, top trace.Node, opts IcicleOptions, w io.Writer) (int64, error) {
	if opts.Width <= 0 {
		opts.Width = 1600
	}
	if opts.RowHeight <= 0 {
		opts.RowHeight = 18
	}
	if opts.Width < icicleMargin+100 {
		return 0, fmt.Errorf("icicle width %d: want at least %d pixels", opts.Width, icicleMargin+100)
	}
	tl, err := topOf(ctx, st, run, top)
	if err != nil {
		return 0, err
	}
	path, pos, topPath := tl.nodes, tl.pos, tl.san
	ic := &icicle{ctx: ctx, st: st, opts: opts, run: run, words: run.EvalWords(), rule: run.MoveRule(), top: top, topPlace: tl.place}
	ic.scale = float64(opts.Width-icicleMargin) / float64(max(top.SubtreeSize, 1))
	if ic.totals, err = summaryTotals(ctx, st, run, top); err != nil {
		return 0, err
	}
	e := icicleEntry{n: top, pv: true, rootPly: -1}
	e.qs, e.qsPly, _ = newWalker(path).visit(top)
	if e.qs {
		e.rootPly = top.Ply - e.qsPly
	}
	if ownStep(top) && len(topPath) > 0 {
		e.san = topPath[len(topPath)-1] // its move is made on pos already
	}
	if err := ic.walk(&e, pos); err != nil {
		return ic.read, err
	}
	for r := range ic.merges {
		ic.flush(r)
	}
	return ic.read, ic.write(w, &e)
}

// walk draws the wide node e, whose move is made on pos: it reads e's
// children, draws the wide ones (depth first, in search order, so that
// each row's runs of narrow nodes are met left to right) and merges the
// narrow ones. e is drawn last, once its subtree's figures are known.
func (ic *icicle) walk(e *icicleEntry, pos *engine.Position) error {
	ic.rows = max(ic.rows, e.row+1)
	e.maxQSPly = -1
	if e.qs {
		e.qsNodes, e.maxQSPly = e.n.SubtreeSize, e.qsPly
	}
	var kids []trace.Node
	switch {
	case e.n.SubtreeSize <= 1:
	case ic.opts.Depth < 0 || e.row < ic.opts.Depth:
		// The layout adds up the children's sizes and descends into
		// them: a damaged file's numbers must not send it round in
		// circles or down without end. While the run is recorded they
		// are checked against e's node as read after them, as it grows
		// between the reads.
		var err error
		if _, kids, err = trace.RunChildren(ic.ctx, ic.st, ic.run, e.n, trace.BySearch, 0, 0); err != nil {
			return err
		}
		if e.row >= trace.MaxNesting && len(kids) > 0 {
			return &trace.DamagedError{Run: ic.run.ID, Node: kids[0].ID,
				Detail: fmt.Sprintf("lies more than %d levels below the chart's top; no search goes that deep", trace.MaxNesting)}
		}
		ic.read += int64(len(kids))
	case e.qs:
		e.maxQSPly++ // at the depth limit, with children, all QS
	}
	pvKid := -1
	if e.pv {
		pvKid = trace.PVChild(ic.run, e.n, kids)
	}
	covered := int64(1)
	for i, k := range kids {
		covered += k.SubtreeSize
		c := icicleEntry{n: k, row: e.row + 1, pv: i == pvKid, qs: k.Kind == engine.KindQS, rootPly: -1}
		if c.qs {
			c.rootPly = k.Ply
			if e.qs {
				c.rootPly = e.rootPly
			}
			c.qsPly = k.Ply - c.rootPly
		}
		if float64(k.SubtreeSize)*ic.scale < icicleMinRect {
			c.narrow()
			ic.merge(&c)
			e.add(&c)
			continue
		}
		ic.flush(c.row)
		m := k.Move
		if m != engine.NoMove {
			if !ic.rule.Playable(pos, m) {
				return fmt.Errorf("run %d: node %d: move %s is not legal in %s: %w",
					ic.run.ID, k.ID, m.UCI(), pos.FEN(), trace.ErrCorrupt)
			}
			c.san = pos.SAN(m)
			pos.MakeMove(m)
		}
		err := ic.walk(&c, pos)
		if m != engine.NoMove {
			pos.UnmakeMove()
		}
		if err != nil {
			return err
		}
		e.add(&c)
	}
	// Nodes of the subtree not under a child read here: below the depth
	// limit, or left out by a recording filter.
	if gap := e.n.SubtreeSize - covered; gap > 0 {
		e.partial = true
		if !e.qs {
			e.unread += gap
		}
	}
	if t, ok := ic.totals[e.n.ID]; ok && t.nodes == e.n.SubtreeSize {
		e.qsNodes, e.unread = t.qs, 0
		if t.maxQSPly >= 0 {
			e.maxQSPly, e.partial = t.maxQSPly, false
		}
	}
	ic.rect(&ic.body, e)
	ic.rects++
	return nil
}

// summaryTotals reads the figures of the run's and its iterations' whole
// subtrees from the summary written when recording finished, for a chart
// whose top is the run node or an iteration root. A run still being
// recorded (or whose recording failed) has no trustworthy summary.
func summaryTotals(ctx context.Context, st trace.Reader, run trace.Run, top trace.Node) (map[int64]subtreeTotals, error) {
	if run.Status.Partial() ||
		(top.Kind != engine.KindRun && top.Kind != engine.KindRoot) {
		return nil, nil
	}
	stats, err := st.Stats(ctx, run.ID)
	if err != nil {
		return nil, err
	}
	// Node counts are compared with subtree sizes before use: they count
	// rows, which a recording filter makes fewer than the nodes visited.
	totals := map[int64]subtreeTotals{}
	for _, it := range stats.Iterations {
		totals[it.RootID] = subtreeTotals{nodes: it.Nodes, qs: it.QSNodes, maxQSPly: -1}
	}
	if top.Kind == engine.KindRun {
		// The run node's subtree is its positions and itself.
		totals[top.ID] = subtreeTotals{nodes: run.Nodes + 1, qs: run.QSNodes, maxQSPly: run.MaxQSPly}
	}
	return totals, nil
}

// narrow sets the subtree figures of a node narrower than a pixel from
// the node alone: its subtree is not read.
func (c *icicleEntry) narrow() {
	c.partial = c.n.SubtreeSize > 1
	if !c.qs {
		c.unread, c.maxQSPly = c.n.SubtreeSize-1, -1
		return
	}
	c.qsNodes, c.maxQSPly = c.n.SubtreeSize, c.qsPly
	if c.partial {
		c.maxQSPly++ // it has children, all QS
	}
}

// add hands a child's subtree figures up to e.
func (e *icicleEntry) add(c *icicleEntry) {
	if !e.qs {
		e.qsNodes += c.qsNodes
		e.unread += c.unread
	}
	e.maxQSPly = max(e.maxQSPly, c.maxQSPly)
	e.partial = e.partial || c.partial
}

// merge adds a narrow node to the run being merged in its row; a gap of
// more than a pixel since the run's end starts a new run.
func (ic *icicle) merge(c *icicleEntry) {
	for len(ic.merges) <= c.row {
		ic.merges = append(ic.merges, icicleMerge{})
	}
	ic.rows = max(ic.rows, c.row+1)
	x, width := ic.x(c.n.ID), float64(c.n.SubtreeSize)*ic.scale
	m := &ic.merges[c.row]
	if m.active && x-m.x1 > icicleMinRect {
		ic.flush(c.row)
	}
	if !m.active {
		*m = icicleMerge{x0: x, active: true}
	}
	m.x1 = x + width
	m.nodes++
	m.size += c.n.SubtreeSize
	if c.qs {
		m.qs++
		m.qsSize += c.n.SubtreeSize
	}
}

// flush draws the pending run of merged narrow nodes of row r.
func (ic *icicle) flush(r int) {
	if r >= len(ic.merges) || !ic.merges[r].active {
		return
	}
	m := ic.merges[r]
	ic.merges[r] = icicleMerge{}
	ic.merged++
	col := colIcicleFW2
	if m.qs*2 >= m.nodes {
		col = colIcicleQS2
	}
	tip := engine.Commas(m.nodes) + " nodes merged, each narrower than a pixel"
	if m.size > m.nodes {
		tip += ", " + engine.Commas(m.size) + " with their subtrees"
	}
	tip += "\n" + engine.Commas(m.qs) + " of them QS"
	if m.qsSize > m.qs {
		tip += " (" + engine.Commas(m.qsSize) + " with their subtrees, all QS)"
	}
	if below := m.size - m.qsSize - (m.nodes - m.qs); below > 0 {
		tip += "\nbelow the full-width ones: " + engine.Commas(below) + " nodes, not read"
	}
	fmt.Fprintf(&ic.body, `<g class="merged"><rect x="%s" y="%d" width="%s" height="%d" fill="%s" opacity="0.7"/><title>%s</title></g>`+"\n",
		px(m.x0), ic.y(r), px(m.x1-m.x0), ic.opts.RowHeight-1, col, xmlText(tip))
}

func (ic *icicle) x(id int64) float64 { return icicleMargin + float64(id-ic.top.ID)*ic.scale }

func (ic *icicle) y(row int) int { return icicleHeader + row*ic.opts.RowHeight }

// fill picks a node's colour: grey for roots, blue tints for full-width
// rows, orange tints for QS plies (alternating, so that neighbouring rows
// stay apart).
func fill(e *icicleEntry) string {
	switch {
	case e.n.Kind == engine.KindRun || e.n.Kind == engine.KindRoot:
		return colIcicleRoot
	case e.qs && e.qsPly%2 == 0:
		return colIcicleQS
	case e.qs:
		return colIcicleQS2
	case e.row%2 == 0:
		return colIcicleFW
	}
	return colIcicleFW2
}

// qsShare says which share of a subtree of size nodes is QS, knowing that
// qs nodes are and unread nodes may be: "92% QS", or "40% to 75% QS (not
// all of it read)".
func qsShare(qs, unread, size int64) string {
	size = max(size, 1)
	lo, hi := engine.WholePercent(float64(qs)/float64(size)), engine.WholePercent(float64(qs+unread)/float64(size))
	if lo == hi {
		return lo + " QS"
	}
	return lo + " to " + hi + " QS (not all of it read)"
}

// rect draws a wide node with its tooltip and, where it fits, its label.
func (ic *icicle) rect(b *bytes.Buffer, e *icicleEntry) {
	x, w := ic.x(e.n.ID), float64(e.n.SubtreeSize)*ic.scale
	y, h := ic.y(e.row), ic.opts.RowHeight
	stroke := `stroke="#FFFFFF" stroke-width="0.5"`
	if e.pv {
		stroke = `stroke="#000000" stroke-width="1.5"`
	}
	fmt.Fprintf(b, `<g class="node"><rect x="%s" y="%d" width="%s" height="%d" fill="%s" %s/>`,
		px(x), y, px(w), h-1, fill(e), stroke)
	lines := nodeLines(ic.run, ic.words, e.n, e.san)
	sub := "subtree: " + engine.SharePercent(float64(e.n.SubtreeSize)/float64(max(ic.top.SubtreeSize, 1))) + " of the chart, " +
		qsShare(e.qsNodes, e.unread, e.n.Nodes())
	switch {
	case e.maxQSPly >= 0:
		sub += ", max QS ply " + strconv.Itoa(e.maxQSPly)
		if e.partial {
			sub += " or more"
		}
	case e.qsNodes > 0: // known from the run's summary alone
		sub += ", max QS ply not read"
	}
	lines = append(lines, sub)
	fmt.Fprintf(b, "<title>%s</title>", xmlText(strings.Join(lines, "\n")))
	if label := ic.label(e, w); label != "" {
		fmt.Fprintf(b, `<text x="%s" y="%d">%s</text>`, px(x+3), y+h-5, xmlText(label))
	}
	b.WriteString("</g>\n")
}

// label is the text drawn in a node's rectangle: its move, and its subtree
// size when there is room; "" when not even the move fits.
func (ic *icicle) label(e *icicleEntry, w float64) string {
	name := e.san
	switch {
	case e.n.Kind == engine.KindRun:
		name = "run " + strconv.FormatInt(e.n.RunID, 10)
	case e.n.Kind == engine.KindRoot:
		name = trace.IterationLabel(e.n.Iteration)
	case name == "":
		name = e.n.Move.UCI()
	}
	fits := func(s string) bool { return float64(len(s))*icicleCharW+6 <= w }
	if long := name + " " + engine.Commas(e.n.SubtreeSize); fits(long) {
		return long
	}
	if fits(name) {
		return name
	}
	return ""
}

// write puts the header, the row numbers and the drawn rectangles
// together; top is the chart's top node, with its subtree's figures.
func (ic *icicle) write(w io.Writer, top *icicleEntry) error {
	width := ic.opts.Width
	height := icicleHeader + ic.rows*ic.opts.RowHeight + 8
	r := ic.run
	var b bytes.Buffer
	fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8"?>`+"\n")
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="Helvetica,Arial,sans-serif" font-size="%d">`+"\n",
		width, height, width, height, icicleFont)
	fmt.Fprintf(&b, "<title>Horizon icicle: run %d, node %d</title>\n", r.ID, ic.top.ID)
	fmt.Fprintf(&b, `<rect x="0" y="0" width="%d" height="%d" fill="#FFFFFF"/>`+"\n", width, height)
	where := topWhere(ic.top, ic.topPlace)
	lines := []string{
		fmt.Sprintf("Horizon trace, run %d: variant %s, depth %d (%s), %s nodes", r.ID, r.Label(), r.Depth, r.Status, engine.Commas(r.Nodes)),
		positionLine(r),
		fmt.Sprintf("Icicle of %s: %s nodes, %s; width = subtree size; %d rectangles, %d merged runs of nodes narrower than a pixel (not read below); %s rows read",
			where, engine.Commas(ic.top.Nodes()), qsShare(top.qsNodes, top.unread, ic.top.Nodes()), ic.rects, ic.merged, engine.Commas(ic.read+1)),
	}
	for i, l := range lines {
		weight := ""
		if i == 0 {
			weight = ` font-weight="bold"`
		}
		fmt.Fprintf(&b, `<text x="6" y="%d"%s>%s</text>`+"\n", 16+i*15, weight, xmlText(l))
	}
	legend := []struct{ col, text string }{
		{colIcicleRoot, "root"}, {colIcicleFW, "full-width"}, {colIcicleFW2, "full-width (next ply)"},
		{colIcicleQS, "QS (even QS ply)"}, {colIcicleQS2, "QS (odd QS ply)"},
	}
	x := 6
	for _, l := range legend {
		fmt.Fprintf(&b, `<rect x="%d" y="62" width="14" height="12" fill="%s" stroke="#666666" stroke-width="0.5"/><text x="%d" y="72">%s</text>`+"\n",
			x, l.col, x+18, xmlText(l.text))
		x += 24 + int(float64(len(l.text))*icicleCharW)
	}
	fmt.Fprintf(&b, `<rect x="%d" y="62" width="14" height="12" fill="#FFFFFF" stroke="#000000" stroke-width="1.5"/><text x="%d" y="72">principal variation</text>`+"\n", x, x+18)
	x += 144 // past "principal variation"
	fmt.Fprintf(&b, `<rect x="%d" y="62" width="14" height="12" fill="%s" opacity="0.7"/><text x="%d" y="72">faded: runs of nodes narrower than a pixel, merged</text>`+"\n", x, colIcicleQS2, x+18)
	for row := 0; row < ic.rows; row++ {
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end" fill="#666666">%d</text>`+"\n", icicleMargin-6, ic.y(row)+ic.opts.RowHeight-5, row)
	}
	b.WriteString(`<g font-size="10">` + "\n")
	b.Write(ic.body.Bytes())
	b.WriteString("</g>\n</svg>\n")
	_, err := w.Write(b.Bytes())
	return err
}

// px formats a pixel coordinate with at most two decimals.
func px(v float64) string {
	s := strconv.FormatFloat(v, 'f', 2, 64)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

var xmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")

// xmlText is s as XML character data. Control characters but tab and
// newline, and bytes that are not UTF-8, have no place in XML 1.0 (a
// parser refuses the file): they come written out as %q writes them.
func xmlText(s string) string { return xmlEscaper.Replace(engine.PrintableLines(s)) }
