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

// icicleEntry is an open node of the walk: drawn when it is closed, once
// its subtree's figures are known.
type icicleEntry struct {
	n        trace.Node
	row      int
	san      string
	wide     bool // at least icicleMinRect wide: drawn on its own
	made     bool // its move was made on the walk's position
	pv       bool // on the principal variation (only looked up for wide nodes)
	qs       bool
	rootPly  int   // ply of the QS root above (or at) a QS node
	qsPly    int   // distance from the QS root
	rows     int64 // rows in the subtree so far
	qsRows   int64
	maxQSPly int // deepest QS ply in the subtree, -1 when none
}

// icicleMerge is a run of narrow nodes in one row drawn as one rectangle.
type icicleMerge struct {
	x0, x1 float64
	nodes  int64 // nodes in the run (each one's own row)
	qs     int64
	active bool
}

// icicle writes the chart's body into a buffer while the walk goes on; the
// header, whose height depends on the rows seen, is written at the end.
type icicle struct {
	opts    IcicleOptions
	run     trace.Run
	top     trace.Node
	topPath []string
	scale   float64 // pixels per node
	pos     *engine.Position
	stack   []icicleEntry
	merges  []icicleMerge // by row
	rows    int           // rows seen
	body    bytes.Buffer
	rects   int
	merged  int
	total   int64 // rows walked
	qsTotal int64
	walker  *walker
	pv      map[int64]bool // ids on the principal variation from the top
}

// WriteIcicle writes an SVG icicle chart of the subtree under top: one
// rectangle per node, as wide as its subtree, one row per level below top,
// QS nodes coloured apart from full-width ones. Nodes narrower than a pixel
// are merged with their neighbours in the row. The subtree is streamed
// through trace's Subtree query, so memory does not grow with its size;
// the output holds at most about one rectangle per pixel column and row.
func WriteIcicle(ctx context.Context, st *trace.Store, run trace.Run, top trace.Node, opts IcicleOptions, w io.Writer) error {
	if opts.Width <= 0 {
		opts.Width = 1600
	}
	if opts.RowHeight <= 0 {
		opts.RowHeight = 18
	}
	if opts.Width < icicleMargin+100 {
		return fmt.Errorf("icicle width %d: want at least %d pixels", opts.Width, icicleMargin+100)
	}
	path, err := st.Path(ctx, run.ID, top.ID)
	if err != nil {
		return err
	}
	pos, topPath, err := replay(run, path)
	if err != nil {
		return err
	}
	ic := &icicle{opts: opts, run: run, top: top, topPath: topPath, pos: pos, walker: newWalker(path)}
	ic.scale = float64(opts.Width-icicleMargin) / float64(max(top.SubtreeSize, 1))
	if ic.pv, err = pvChain(ctx, st, run.ID, top); err != nil {
		return err
	}
	err = st.Subtree(ctx, run.ID, top.ID, opts.Depth, ic.visit)
	if err != nil {
		return err
	}
	ic.closeTo(-1)
	for r := range ic.merges {
		ic.flush(r)
	}
	return ic.write(w)
}

// visit takes the next row of the walk.
func (ic *icicle) visit(n trace.Node) error {
	ic.closeTo(n.ID)
	qs, qsPly, _ := ic.walker.visit(n)
	ic.total++
	if qs {
		ic.qsTotal++
	}
	row := len(ic.stack)
	ic.rows = max(ic.rows, row+1)
	for len(ic.merges) <= row {
		ic.merges = append(ic.merges, icicleMerge{})
	}
	e := icicleEntry{n: n, row: row, qs: qs, qsPly: qsPly, rows: 1, maxQSPly: -1}
	if qs {
		e.qsRows, e.maxQSPly = 1, qsPly
	}
	x, width := ic.x(n.ID), float64(n.SubtreeSize)*ic.scale
	e.wide = width >= icicleMinRect
	if e.wide {
		e.pv = ic.pv[n.ID]
		ic.flush(row)
		// A wide node's ancestors are all wide and have made their moves,
		// so the position is the parent's; make this node's move for its
		// children. The top node's move is in the replayed position already.
		switch m := n.Move; {
		case row == 0 && m != engine.NoMove && len(ic.topPath) > 0:
			e.san = ic.topPath[len(ic.topPath)-1]
		case row > 0 && m != engine.NoMove:
			if !ic.pos.IsLegal(m) {
				return fmt.Errorf("run %d: node %d: move %s is not legal in %s: %w",
					ic.run.ID, n.ID, m.UCI(), ic.pos.FEN(), trace.ErrCorrupt)
			}
			e.san = ic.pos.SAN(m)
			ic.pos.MakeMove(m)
			e.made = true
		}
	} else {
		m := &ic.merges[row]
		if m.active && x-m.x1 > icicleMinRect {
			ic.flush(row)
		}
		if !m.active {
			*m = icicleMerge{x0: x, active: true}
		}
		m.x1 = x + width
		m.nodes++
		if qs {
			m.qs++
		}
	}
	ic.stack = append(ic.stack, e)
	return nil
}

// closeTo closes every open node whose subtree ends at or before id (all
// of them when id < 0): it draws the wide ones and hands their figures up.
func (ic *icicle) closeTo(id int64) {
	for len(ic.stack) > 0 {
		e := &ic.stack[len(ic.stack)-1]
		if id >= 0 && e.n.End() > id {
			return
		}
		if e.wide {
			ic.rect(e)
		}
		if e.made {
			ic.pos.UnmakeMove()
		}
		if len(ic.stack) > 1 {
			p := &ic.stack[len(ic.stack)-2]
			p.rows += e.rows
			p.qsRows += e.qsRows
			p.maxQSPly = max(p.maxQSPly, e.maxQSPly)
		}
		ic.stack = ic.stack[:len(ic.stack)-1]
	}
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

func (ic *icicle) rect(e *icicleEntry) {
	x, w := ic.x(e.n.ID), float64(e.n.SubtreeSize)*ic.scale
	y, h := ic.y(e.row), ic.opts.RowHeight
	ic.rects++
	b := &ic.body
	stroke := `stroke="#FFFFFF" stroke-width="0.5"`
	if e.pv {
		stroke = `stroke="#000000" stroke-width="1.5"`
	}
	fmt.Fprintf(b, `<g class="node"><rect x="%s" y="%d" width="%s" height="%d" fill="%s" %s/>`,
		px(x), y, px(w), h-1, fill(e), stroke)
	lines := nodeLines(e.n, e.san)
	sub := "subtree: " + fine(float64(e.n.SubtreeSize)/float64(max(ic.top.SubtreeSize, 1))) + " of the chart"
	if e.rows > 0 {
		sub += ", " + percent(float64(e.qsRows)/float64(e.rows)) + " QS"
	}
	if e.maxQSPly >= 0 {
		sub += ", max QS ply " + strconv.Itoa(e.maxQSPly)
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
		name = "iteration " + strconv.Itoa(e.n.Iteration)
	case name == "":
		name = e.n.Move.UCI()
	}
	fits := func(s string) bool { return float64(len(s))*icicleCharW+6 <= w }
	if long := name + " " + count(e.n.SubtreeSize); fits(long) {
		return long
	}
	if fits(name) {
		return name
	}
	return ""
}

// flush draws row r's pending run of merged narrow nodes.
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
	w := m.x1 - m.x0
	tip := fmt.Sprintf("%s nodes merged, each narrower than a pixel\n%s of them QS", count(m.nodes), count(m.qs))
	fmt.Fprintf(&ic.body, `<g class="merged"><rect x="%s" y="%d" width="%s" height="%d" fill="%s" opacity="0.7"/><title>%s</title></g>`+"\n",
		px(m.x0), ic.y(r), px(w), ic.opts.RowHeight-1, col, xmlText(tip))
}

// write puts the header, the row numbers and the body together.
func (ic *icicle) write(w io.Writer) error {
	width := ic.opts.Width
	height := icicleHeader + ic.rows*ic.opts.RowHeight + 8
	r := ic.run
	var b bytes.Buffer
	fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8"?>`+"\n")
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="Helvetica,Arial,sans-serif" font-size="%d">`+"\n",
		width, height, width, height, icicleFont)
	fmt.Fprintf(&b, "<title>Horizon icicle: run %d, node %d</title>\n", r.ID, ic.top.ID)
	fmt.Fprintf(&b, `<rect x="0" y="0" width="%d" height="%d" fill="#FFFFFF"/>`+"\n", width, height)
	where := "node " + strconv.FormatInt(ic.top.ID, 10)
	if len(ic.topPath) > 0 {
		where += " (" + strings.Join(ic.topPath, " ") + ")"
	}
	lines := []string{
		fmt.Sprintf("Horizon trace, run %d: variant %s, depth %d (%s), %s nodes", r.ID, r.Variant, r.Depth, r.Status, count(r.Nodes)),
		"FEN " + r.FEN,
		fmt.Sprintf("Icicle of %s: %s nodes, %s drawn (%s QS); width = subtree size; %d rectangles, %d merged runs of nodes narrower than a pixel",
			where, count(ic.top.SubtreeSize), count(ic.total), percent(float64(ic.qsTotal)/float64(max(ic.total, 1))), ic.rects, ic.merged),
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
	for row := 0; row < ic.rows; row++ {
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end" fill="#666666">%d</text>`+"\n", icicleMargin-6, ic.y(row)+ic.opts.RowHeight-5, row)
	}
	b.WriteString(`<g font-size="10">` + "\n")
	if _, err := w.Write(b.Bytes()); err != nil {
		return err
	}
	if _, err := w.Write(ic.body.Bytes()); err != nil {
		return err
	}
	_, err := io.WriteString(w, "</g>\n</svg>\n")
	return err
}

// fine formats a share as a percentage with two significant digits below
// 10%: "0.064%", "3.2%", "45%".
func fine(f float64) string {
	p := f * 100
	if p >= 10 {
		return strconv.Itoa(int(p+0.5)) + "%"
	}
	return strconv.FormatFloat(p, 'g', 2, 64) + "%"
}

// px formats a pixel coordinate with at most two decimals.
func px(v float64) string {
	s := strconv.FormatFloat(v, 'f', 2, 64)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

var xmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")

func xmlText(s string) string { return xmlEscaper.Replace(s) }
