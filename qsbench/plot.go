package qsbench

import (
	"fmt"
	"html"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Plot geometry, in SVG user units (pixels at 100%).
const (
	plotW, plotH                       = 760, 500
	marginL, marginR, marginT, marginB = 78, 40, 62, 70
	charW                              = 7.2 // average glyph width of the 12px labels, for collision tests
)

// WritePlot writes an SVG scatter plot of the summaries: x is the mean QS
// nodes per position on a log scale, y the mean absolute error against the
// oracle; each variant is a labelled point, and the Pareto front (the
// variants no other dominates: ParetoRule) is drawn as a step line. The SVG is
// self-contained (no scripts, no external fonts) and has a white
// background, so it reads the same in a browser and in a README.
func WritePlot(w io.Writer, sums []Summary, title, subtitle string) error {
	p := newPlot(sums)
	b := &p.b
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="Helvetica, Arial, sans-serif" font-size="12">`+"\n",
		plotW, plotH, plotW, plotH)
	fmt.Fprintf(b, `<rect width="100%%" height="100%%" fill="#ffffff"/>`+"\n")
	fmt.Fprintf(b, `<text x="%d" y="24" font-size="15" font-weight="bold" fill="#222">%s</text>`+"\n", marginL, esc(title))
	fmt.Fprintf(b, `<text x="%d" y="42" fill="#555">%s</text>`+"\n", marginL, esc(subtitle))
	p.grid()
	p.front(sums)
	p.placed = append(p.placed, box{p.px1 - 306, p.py1 + 4, p.px1, p.py1 + 48}) // the legend
	p.points(sums)
	for _, s := range sums {
		p.label(s)
	}
	p.legend()
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// box is a rectangle of the plot that a label must not cover.
type box struct{ x0, y0, x1, y1 float64 }

// plot is a plot being written: its SVG so far, its frame, its scales and
// the boxes taken.
type plot struct {
	b                  strings.Builder
	px0, px1, py0, py1 float64 // the frame: x from px0 to px1, y from py0 (bottom) up to py1
	dlo, dhi           float64 // the x axis' decades
	ytop, step         float64 // the y axis' top and grid step
	underOne           bool    // a variant has under one QS node per position
	placed             []box
}

// newPlot sets the scales around the summaries.
func newPlot(sums []Summary) *plot {
	p := &plot{px0: float64(marginL), px1: float64(plotW - marginR), py0: float64(plotH - marginB), py1: float64(marginT)}
	// x: whole decades around the data. A log scale has no 0: a variant
	// with under one QS node per position (none has 0) is drawn at 1, the
	// axis' left end, which then reads "≤1", and its label gives its mean.
	lo, hi := math.Inf(1), math.Inf(-1)
	ymax := 0.0
	for _, s := range sums {
		p.underOne = p.underOne || s.QSNodesMean < 1
		x := math.Log10(math.Max(s.QSNodesMean, 1))
		lo, hi = math.Min(lo, x), math.Max(hi, x)
		ymax = math.Max(ymax, s.Error.MAE)
	}
	if len(sums) == 0 {
		lo, hi = 0, 1
	}
	p.dlo, p.dhi = math.Floor(lo), math.Ceil(hi)
	if p.dhi == p.dlo {
		p.dhi++
	}
	// y: from 0 to a round step above the largest error.
	p.step = niceStep(ymax / 5)
	p.ytop = math.Max(p.step, math.Ceil(ymax*1.08/p.step)*p.step)
	return p
}

func (p *plot) xs(n float64) float64 {
	return p.px0 + (math.Log10(math.Max(n, 1))-p.dlo)/(p.dhi-p.dlo)*(p.px1-p.px0)
}

func (p *plot) ys(v float64) float64 { return p.py0 - v/p.ytop*(p.py0-p.py1) }

// grid draws the grid, the ticks, the frame and the axes' titles.
func (p *plot) grid() {
	b := &p.b
	for d := p.dlo; d <= p.dhi; d++ {
		for _, m := range []float64{1, 2, 5} {
			v := m * math.Pow(10, d)
			if d == p.dhi && m > 1 {
				break
			}
			x := p.xs(v)
			stroke, width := "#e6e6e6", 1.0
			if m == 1 {
				stroke = "#cccccc"
			}
			fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="%.1f"/>`+"\n", x, p.py0, x, p.py1, stroke, width)
			label := tickLabel(v)
			if v == 1 && p.underOne {
				label = "≤1"
			}
			fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="middle" fill="#444">%s</text>`+"\n", x, p.py0+16, label)
		}
	}
	for v := 0.0; v <= p.ytop+p.step/2; v += p.step {
		y := p.ys(v)
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#e6e6e6"/>`+"\n", p.px0, y, p.px1, y)
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="end" fill="#444">%g</text>`+"\n", p.px0-6, y+4, v)
	}
	fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="#888"/>`+"\n", p.px0, p.py1, p.px1-p.px0, p.py0-p.py1)
	fmt.Fprintf(b, `<text x="%.1f" y="%d" text-anchor="middle" fill="#222">mean QS nodes per position (log scale)</text>`+"\n", (p.px0+p.px1)/2, plotH-28)
	fmt.Fprintf(b, `<text transform="translate(20 %.1f) rotate(-90)" text-anchor="middle" fill="#222">mean absolute error against the oracle (cp)</text>`+"\n", (p.py0+p.py1)/2)
}

// front draws the Pareto front as a step line: from each front point right
// to the next one's cost, then down to its error. Its segments are taken,
// so that labels overlap neither each other, nor the points, nor the line.
func (p *plot) front(sums []Summary) {
	var front []Summary
	for _, s := range sums {
		if s.Pareto {
			front = append(front, s)
		}
	}
	sort.SliceStable(front, func(i, j int) bool { return front[i].QSNodesMean < front[j].QSNodesMean })
	if len(front) == 0 {
		return
	}
	var pts []string
	var px, py float64
	for i, s := range front {
		x, y := p.xs(s.QSNodesMean), p.ys(s.Error.MAE)
		if i > 0 {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", x, py))
			p.placed = append(p.placed, box{px, py - 2, x, py + 2}, box{x - 2, py, x + 2, y})
		}
		pts = append(pts, fmt.Sprintf("%.1f,%.1f", x, y))
		px, py = x, y
	}
	pts = append(pts, fmt.Sprintf("%.1f,%.1f", p.px1, py))
	p.placed = append(p.placed, box{px, py - 2, p.px1, py + 2})
	fmt.Fprintf(&p.b, `<polyline points="%s" fill="none" stroke="#d9480f" stroke-width="1.6" stroke-dasharray="6 4"/>`+"\n", strings.Join(pts, " "))
}

// points draws each variant's point, each taken.
func (p *plot) points(sums []Summary) {
	for _, s := range sums {
		x, y := p.xs(s.QSNodesMean), p.ys(s.Error.MAE)
		fill := "#1c7ed6"
		if s.Pareto {
			fill = "#d9480f"
		}
		fmt.Fprintf(&p.b, `<circle cx="%.1f" cy="%.1f" r="5" fill="%s" stroke="#ffffff" stroke-width="1"><title>%s: %.1f QS nodes, MAE %.1f cp</title></circle>`+"\n",
			x, y, fill, esc(s.Variant), s.QSNodesMean, s.Error.MAE)
		p.placed = append(p.placed, box{x - 5, y - 5, x + 5, y + 5})
	}
}

// label writes a variant's label at the first place around its point,
// nearest first, right before left, that is free and inside the frame;
// right of the point when none is.
func (p *plot) label(s Summary) {
	x, y := p.xs(s.QSNodesMean), p.ys(s.Error.MAE)
	label := fmt.Sprintf("%s (%.0f cp)", s.Variant, s.Error.MAE)
	if s.QSNodesMean < 1 {
		label = fmt.Sprintf("%s (%s QS nodes, %.0f cp)", s.Variant, strconv.FormatFloat(math.Round(s.QSNodesMean*10)/10, 'f', -1, 64), s.Error.MAE)
	}
	w := float64(len(label)) * charW
	tx, anchor, ty := x+9, "start", y+4
search:
	for _, dy := range []float64{4, -10, 18, -24, 32, -38, 46} {
		for _, right := range []bool{true, false} {
			lx0, a := x+9, "start"
			if !right {
				lx0, a = x-9-w, "end"
			}
			bx := box{lx0, y + dy - 11, lx0 + w, y + dy + 3}
			if bx.x0 < p.px0 || bx.x1 > float64(plotW)-4 || bx.y0 < p.py1 || bx.y1 > p.py0 || p.taken(bx) {
				continue
			}
			p.placed = append(p.placed, bx)
			tx, anchor, ty = lx0, a, y+dy
			if a == "end" {
				tx = lx0 + w
			}
			break search
		}
	}
	fmt.Fprintf(&p.b, `<text x="%.1f" y="%.1f" text-anchor="%s" fill="#222">%s</text>`+"\n", tx, ty, anchor, esc(label))
}

// taken says whether bx overlaps a box already taken.
func (p *plot) taken(bx box) bool {
	for _, q := range p.placed {
		if bx.x0 < q.x1 && q.x0 < bx.x1 && bx.y0 < q.y1 && q.y0 < bx.y1 {
			return true
		}
	}
	return false
}

// legend draws the legend in the frame's top right corner.
func (p *plot) legend() {
	lx, ly := p.px1-300, p.py1+16
	fmt.Fprintf(&p.b, `<rect x="%.1f" y="%.1f" width="294" height="40" fill="#ffffff" stroke="#cccccc"/>`+"\n", lx-6, ly-12)
	fmt.Fprintf(&p.b, `<circle cx="%.1f" cy="%.1f" r="5" fill="#d9480f"/><text x="%.1f" y="%.1f" fill="#222">Pareto front: no variant dominates it</text>`+"\n", lx+4, ly-2, lx+14, ly+2)
	fmt.Fprintf(&p.b, `<circle cx="%.1f" cy="%.1f" r="5" fill="#1c7ed6"/><text x="%.1f" y="%.1f" fill="#222">dominated by a variant on the front</text>`+"\n", lx+4, ly+16, lx+14, ly+20)
}

func esc(s string) string { return html.EscapeString(s) }

// niceStep rounds a raw step up to 1, 2 or 5 times a power of ten.
func niceStep(raw float64) float64 {
	if raw <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= raw {
			return m * p
		}
	}
	return 10 * p
}

func tickLabel(v float64) string {
	switch {
	case v >= 1e6:
		return fmt.Sprintf("%gM", v/1e6)
	case v >= 1e3:
		return fmt.Sprintf("%gk", v/1e3)
	}
	return fmt.Sprintf("%g", v)
}
