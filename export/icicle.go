package export

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"

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

// icicle holds what every walk of the chart shares; it is read-only while
// the walks run.
type icicle struct {
	opts    IcicleOptions
	run     trace.Run
	top     trace.Node
	topPath []string
	scale   float64        // pixels per node
	pv      map[int64]bool // ids on the principal variation from the top
}

// part is one walk: the subtree of one node, streamed in pre-order. Big
// charts are cut into parts walked side by side, each on its own
// connection; the nodes above the parts are drawn from their own rows.
type part struct {
	ic      *icicle
	roots   []trace.Node // siblings, ascending ids: walked one after the other
	size    int64        // nodes under the roots
	rowOff  int          // row of the roots
	isTop   bool         // the part is the whole chart: its root's move is made already
	pos     *engine.Position
	walker  *walker
	stack   []icicleEntry
	merges  []icicleMerge // by row, from rowOff
	rows    int           // rows reached (absolute)
	body    bytes.Buffer
	rects   int
	merged  int
	total   int64 // rows walked
	qsTotal int64
	// The roots' subtrees' figures, for the node above the part.
	rootRows, rootQS int64
	rootMaxQSPly     int
}

// Splitting: charts of at least icicleSplitMin nodes are cut into parts of
// at most a 32nd of the chart where the depth limit allows, found by
// opening the biggest node first, at most icicleMaxUpper nodes in all.
// icicleWorkers, when > 0, overrides the number of parallel walks.
var (
	icicleSplitMin = int64(500_000)
	icicleMaxUpper = 512
	icicleWorkers  = 0
)

// WriteIcicle writes an SVG icicle chart of the subtree under top: one
// rectangle per node, as wide as its subtree, one row per level below top,
// QS nodes coloured apart from full-width ones. Nodes narrower than a pixel
// are merged with their neighbours in the row. The subtree is streamed
// through trace's Subtree query, so memory does not grow with its size;
// the output holds at most about one rectangle per pixel column and row.
// A big subtree is cut into parts streamed in parallel (up to GOMAXPROCS,
// at most 4), as reading the rows is nearly all the work.
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
	ic := &icicle{opts: opts, run: run, top: top, topPath: topPath}
	ic.scale = float64(opts.Width-icicleMargin) / float64(max(top.SubtreeSize, 1))
	storeKids := &storeSource{ctx: ctx, st: st, run: run.ID, top: top}
	if ic.pv, err = pvChain(top, storeKids.children); err != nil {
		return err
	}
	workers := min(runtime.GOMAXPROCS(0), 4)
	if icicleWorkers > 0 {
		workers = icicleWorkers
	}
	var upper []upperNode
	var parts []*part
	if workers > 1 && top.SubtreeSize >= icicleSplitMin && opts.Depth != 0 {
		upper, parts, err = ic.split(ctx, st, path, pos)
		if err != nil {
			return err
		}
	} else {
		parts = []*part{{ic: ic, roots: []trace.Node{top}, size: top.SubtreeSize, isTop: true, pos: pos, walker: newWalker(path)}}
	}
	if err := walkParts(ctx, st, parts, workers); err != nil {
		return err
	}
	return ic.write(w, upper, parts)
}

// walkParts walks the parts, biggest first, on up to workers goroutines;
// the first error stops the others.
func walkParts(ctx context.Context, st *trace.Store, parts []*part, workers int) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	order := make([]*part, len(parts))
	copy(order, parts)
	sort.SliceStable(order, func(i, j int) bool { return order[i].size > order[j].size })
	next := make(chan *part)
	errs := make(chan error, workers)
	var wg sync.WaitGroup
	for i := 0; i < min(workers, len(order)); i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range next {
				if err := p.walk(ctx, st); err != nil {
					errs <- err
					cancel()
					return
				}
			}
		}()
	}
feed:
	for _, p := range order {
		select {
		case next <- p:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return err
	}
	return ctx.Err()
}

// walk streams the part's subtrees, one after the other; runs of merged
// nodes carry on from one to the next.
func (p *part) walk(ctx context.Context, st *trace.Store) error {
	depth := p.ic.opts.Depth
	if depth >= 0 {
		depth -= p.rowOff
	}
	p.rootMaxQSPly = -1
	for _, r := range p.roots {
		if err := st.Subtree(ctx, p.ic.run.ID, r.ID, depth, p.visit); err != nil {
			return err
		}
		p.closeTo(-1)
	}
	for r := range p.merges {
		p.flush(r)
	}
	return nil
}

// visit takes the next row of the walk.
func (p *part) visit(n trace.Node) error {
	ic := p.ic
	p.closeTo(n.ID)
	qs, qsPly, _ := p.walker.visit(n)
	p.total++
	if qs {
		p.qsTotal++
	}
	level := len(p.stack)
	row := p.rowOff + level
	p.rows = max(p.rows, row+1)
	for len(p.merges) <= level {
		p.merges = append(p.merges, icicleMerge{})
	}
	e := icicleEntry{n: n, row: row, qs: qs, qsPly: qsPly, rows: 1, maxQSPly: -1}
	if qs {
		e.qsRows, e.maxQSPly = 1, qsPly
	}
	x, width := ic.x(n.ID), float64(n.SubtreeSize)*ic.scale
	e.wide = width >= icicleMinRect
	if e.wide {
		e.pv = ic.pv[n.ID]
		p.flush(level)
		// A wide node's ancestors are all wide and have made their moves,
		// so the position is the parent's; make this node's move for its
		// children. The chart's top has its move made already.
		switch m := n.Move; {
		case level == 0 && p.isTop:
			if m != engine.NoMove && len(ic.topPath) > 0 {
				e.san = ic.topPath[len(ic.topPath)-1]
			}
		case m != engine.NoMove:
			if !p.pos.IsLegal(m) {
				return fmt.Errorf("run %d: node %d: move %s is not legal in %s: %w",
					ic.run.ID, n.ID, m.UCI(), p.pos.FEN(), trace.ErrCorrupt)
			}
			e.san = p.pos.SAN(m)
			p.pos.MakeMove(m)
			e.made = true
		}
	} else {
		m := &p.merges[level]
		if m.active && x-m.x1 > icicleMinRect {
			p.flush(level)
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
	p.stack = append(p.stack, e)
	return nil
}

// closeTo closes every open node whose subtree ends at or before id (all
// of them when id < 0): it draws the wide ones and hands their figures up.
func (p *part) closeTo(id int64) {
	for len(p.stack) > 0 {
		e := &p.stack[len(p.stack)-1]
		if id >= 0 && e.n.End() > id {
			return
		}
		if e.wide {
			p.ic.rect(&p.body, e)
			p.rects++
		}
		if e.made {
			p.pos.UnmakeMove()
		}
		if len(p.stack) > 1 {
			up := &p.stack[len(p.stack)-2]
			up.rows += e.rows
			up.qsRows += e.qsRows
			up.maxQSPly = max(up.maxQSPly, e.maxQSPly)
		} else {
			p.rootRows += e.rows
			p.rootQS += e.qsRows
			p.rootMaxQSPly = max(p.rootMaxQSPly, e.maxQSPly)
		}
		p.stack = p.stack[:len(p.stack)-1]
	}
}

// upperNode is a node above the parts of a split chart.
type upperNode struct {
	e       icicleEntry
	parent  int // index in the upper nodes; -1 for the top
	rootPly int // its QS root's ply when it is a QS node
}

// split cuts the chart into parts: it opens the biggest node until every
// part is small enough, reading only the opened nodes' children.
func (ic *icicle) split(ctx context.Context, st *trace.Store, path []trace.Node, topPos *engine.Position) ([]upperNode, []*part, error) {
	target := max(ic.top.SubtreeSize/32, 1)
	type pending struct {
		n      trace.Node
		row    int
		parent int
	}
	var heap []pending // few: kept sorted by hand, biggest last
	push := func(p pending) {
		i := sort.Search(len(heap), func(i int) bool {
			a, b := heap[i].n, p.n
			return a.SubtreeSize > b.SubtreeSize || (a.SubtreeSize == b.SubtreeSize && a.ID < b.ID)
		})
		heap = append(heap, pending{})
		copy(heap[i+1:], heap[i:])
		heap[i] = p
	}
	var upper []upperNode
	var positions []*engine.Position
	push(pending{n: ic.top, row: 0, parent: -1})
	tw := newWalker(path)
	for len(heap) > 0 {
		c := heap[len(heap)-1]
		depthOK := ic.opts.Depth < 0 || c.row < ic.opts.Depth
		if c.n.SubtreeSize <= target || len(upper) >= icicleMaxUpper || !depthOK || c.n.SubtreeSize <= 1 {
			break
		}
		heap = heap[:len(heap)-1]
		// Open c: it is drawn from its own row, and its children wait.
		u := upperNode{parent: c.parent, rootPly: -1}
		e := icicleEntry{n: c.n, row: c.row, wide: true, pv: ic.pv[c.n.ID], maxQSPly: -1, rows: 1}
		var pos *engine.Position
		if c.parent < 0 {
			qs, qsPly, _ := tw.visit(c.n)
			e.qs, e.qsPly = qs, qsPly
			if qs {
				u.rootPly = c.n.Ply - qsPly
			}
			pos = topPos
			if c.n.Move != engine.NoMove && len(ic.topPath) > 0 {
				e.san = ic.topPath[len(ic.topPath)-1]
			}
		} else {
			par := upper[c.parent]
			if e.qs = c.n.Kind == engine.KindQS; e.qs {
				u.rootPly = c.n.Ply
				if par.e.qs {
					u.rootPly = par.rootPly
				}
				e.qsPly = c.n.Ply - u.rootPly
			}
			pos = positions[c.parent].Copy()
			if m := c.n.Move; m != engine.NoMove {
				if !pos.IsLegal(m) {
					return nil, nil, fmt.Errorf("run %d: node %d: move %s is not legal in %s: %w",
						ic.run.ID, c.n.ID, m.UCI(), pos.FEN(), trace.ErrCorrupt)
				}
				e.san = pos.SAN(m)
				pos.MakeMove(m)
			}
		}
		if e.qs {
			e.qsRows, e.maxQSPly = 1, e.qsPly
		}
		u.e = e
		upper = append(upper, u)
		positions = append(positions, pos)
		idx := len(upper) - 1
		err := st.Subtree(ctx, ic.run.ID, c.n.ID, 1, func(n trace.Node) error {
			if n.ID != c.n.ID {
				push(pending{n: n, row: c.row + 1, parent: idx})
			}
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
	}
	// What is left waiting becomes parts: siblings in id order, grouped
	// up to the target size, so that few runs of merged nodes break at a
	// part's edge. (Siblings with an opened node between them may share a
	// part: the opened node is wider than a pixel, so no run spans it.)
	sort.Slice(heap, func(i, j int) bool { return heap[i].n.ID < heap[j].n.ID })
	var parts []*part
	var cur *part
	for _, c := range heap {
		if cur == nil || cur.roots[0].Parent != c.n.Parent || cur.size+c.n.SubtreeSize > target {
			par := upper[c.parent]
			w := &walker{topRootPly: -1}
			if par.e.qs {
				w.topRootPly = par.rootPly
			}
			cur = &part{ic: ic, rowOff: c.row, pos: positions[c.parent].Copy(), walker: w}
			parts = append(parts, cur)
		}
		cur.roots = append(cur.roots, c.n)
		cur.size += c.n.SubtreeSize
	}
	return upper, parts, nil
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

// flush draws the pending run of merged narrow nodes of the part's level
// r (row rowOff+r).
func (p *part) flush(r int) {
	if r >= len(p.merges) || !p.merges[r].active {
		return
	}
	ic := p.ic
	m := p.merges[r]
	p.merges[r] = icicleMerge{}
	p.merged++
	col := colIcicleFW2
	if m.qs*2 >= m.nodes {
		col = colIcicleQS2
	}
	w := m.x1 - m.x0
	tip := fmt.Sprintf("%s nodes merged, each narrower than a pixel\n%s of them QS", count(m.nodes), count(m.qs))
	fmt.Fprintf(&p.body, `<g class="merged"><rect x="%s" y="%d" width="%s" height="%d" fill="%s" opacity="0.7"/><title>%s</title></g>`+"\n",
		px(m.x0), ic.y(p.rowOff+r), px(w), ic.opts.RowHeight-1, col, xmlText(tip))
}

// write puts the header, the row numbers, the nodes above the parts and
// the parts' bodies together, in the parts' id order.
func (ic *icicle) write(w io.Writer, upper []upperNode, parts []*part) error {
	// The nodes above the parts get their subtrees' figures from the parts
	// below them, then from each other, deepest first.
	var rows, rects, merged int
	var total, qsTotal int64
	for _, p := range parts {
		rows, rects, merged = max(rows, p.rows), rects+p.rects, merged+p.merged
		total, qsTotal = total+p.total, qsTotal+p.qsTotal
		if len(upper) > 0 {
			// Parts hang from upper nodes; a lone part is the whole chart.
			for i := range upper {
				if upper[i].e.n.ID == p.roots[0].Parent {
					u := &upper[i].e
					u.rows += p.rootRows
					u.qsRows += p.rootQS
					u.maxQSPly = max(u.maxQSPly, p.rootMaxQSPly)
				}
			}
		}
	}
	for i := len(upper) - 1; i > 0; i-- {
		u, par := &upper[i].e, &upper[upper[i].parent].e
		par.rows += u.rows
		par.qsRows += u.qsRows
		par.maxQSPly = max(par.maxQSPly, u.maxQSPly)
	}
	var top bytes.Buffer
	for i := range upper {
		ic.rect(&top, &upper[i].e)
		rects++
		total++
		if upper[i].e.qs {
			qsTotal++
		}
		rows = max(rows, upper[i].e.row+1)
	}
	width := ic.opts.Width
	height := icicleHeader + rows*ic.opts.RowHeight + 8
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
			where, count(ic.top.SubtreeSize), count(total), percent(float64(qsTotal)/float64(max(total, 1))), rects, merged),
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
	for row := 0; row < rows; row++ {
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end" fill="#666666">%d</text>`+"\n", icicleMargin-6, ic.y(row)+ic.opts.RowHeight-5, row)
	}
	b.WriteString(`<g font-size="10">` + "\n")
	if _, err := w.Write(b.Bytes()); err != nil {
		return err
	}
	if _, err := w.Write(top.Bytes()); err != nil {
		return err
	}
	for _, p := range parts {
		if _, err := w.Write(p.body.Bytes()); err != nil {
			return err
		}
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
