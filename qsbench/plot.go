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
	var b strings.Builder
	px0, px1 := float64(marginL), float64(plotW-marginR)
	py0, py1 := float64(plotH-marginB), float64(marginT)

	// x: whole decades around the data. A log scale has no 0: a variant
	// with under one QS node per position (none has 0) is drawn at 1, the
	// axis' left end, which then reads "≤1", and its label gives its mean.
	lo, hi := math.Inf(1), math.Inf(-1)
	ymax := 0.0
	underOne := false
	for _, s := range sums {
		underOne = underOne || s.QSNodesMean < 1
		x := math.Log10(math.Max(s.QSNodesMean, 1))
		lo, hi = math.Min(lo, x), math.Max(hi, x)
		ymax = math.Max(ymax, s.Error.MAE)
	}
	if len(sums) == 0 {
		lo, hi = 0, 1
	}
	dlo, dhi := math.Floor(lo), math.Ceil(hi)
	if dhi == dlo {
		dhi++
	}
	xs := func(n float64) float64 {
		return px0 + (math.Log10(math.Max(n, 1))-dlo)/(dhi-dlo)*(px1-px0)
	}
	// y: from 0 to a round step above the largest error.
	step := niceStep(ymax / 5)
	ytop := math.Max(step, math.Ceil(ymax*1.08/step)*step)
	ys := func(v float64) float64 { return py0 - v/ytop*(py0-py1) }

	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="Helvetica, Arial, sans-serif" font-size="12">`+"\n",
		plotW, plotH, plotW, plotH)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="#ffffff"/>`+"\n")
	fmt.Fprintf(&b, `<text x="%d" y="24" font-size="15" font-weight="bold" fill="#222">%s</text>`+"\n", marginL, esc(title))
	fmt.Fprintf(&b, `<text x="%d" y="42" fill="#555">%s</text>`+"\n", marginL, esc(subtitle))

	// Grid and ticks.
	for d := dlo; d <= dhi; d++ {
		for _, m := range []float64{1, 2, 5} {
			v := m * math.Pow(10, d)
			if d == dhi && m > 1 {
				break
			}
			x := xs(v)
			stroke, width := "#e6e6e6", 1.0
			if m == 1 {
				stroke = "#cccccc"
			}
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="%.1f"/>`+"\n", x, py0, x, py1, stroke, width)
			label := tickLabel(v)
			if v == 1 && underOne {
				label = "≤1"
			}
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle" fill="#444">%s</text>`+"\n", x, py0+16, label)
		}
	}
	for v := 0.0; v <= ytop+step/2; v += step {
		y := ys(v)
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#e6e6e6"/>`+"\n", px0, y, px1, y)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="end" fill="#444">%g</text>`+"\n", px0-6, y+4, v)
	}
	fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="#888"/>`+"\n", px0, py1, px1-px0, py0-py1)
	fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle" fill="#222">mean QS nodes per position (log scale)</text>`+"\n", (px0+px1)/2, plotH-28)
	fmt.Fprintf(&b, `<text transform="translate(20 %.1f) rotate(-90)" text-anchor="middle" fill="#222">mean absolute error against the oracle (cp)</text>`+"\n", (py0+py1)/2)

	// The Pareto front as a step line: from each front point right to the
	// next one's cost, then down to its error.
	var front []Summary
	for _, s := range sums {
		if s.Pareto {
			front = append(front, s)
		}
	}
	sort.SliceStable(front, func(i, j int) bool { return front[i].QSNodesMean < front[j].QSNodesMean })
	// Labels are placed around their points so that they overlap neither
	// each other, nor the points, nor the front's line.
	type box struct{ x0, y0, x1, y1 float64 }
	var placed []box
	if len(front) > 0 {
		var pts []string
		var px, py float64
		for i, s := range front {
			x, y := xs(s.QSNodesMean), ys(s.Error.MAE)
			if i > 0 {
				pts = append(pts, fmt.Sprintf("%.1f,%.1f", x, py))
				placed = append(placed, box{px, py - 2, x, py + 2}, box{x - 2, py, x + 2, y})
			}
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", x, y))
			px, py = x, y
		}
		pts = append(pts, fmt.Sprintf("%.1f,%.1f", px1, py))
		placed = append(placed, box{px, py - 2, px1, py + 2})
		fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="#d9480f" stroke-width="1.6" stroke-dasharray="6 4"/>`+"\n", strings.Join(pts, " "))
	}

	placed = append(placed, box{px1 - 306, py1 + 4, px1, py1 + 48}) // the legend
	// Points, then labels.
	for _, s := range sums {
		x, y := xs(s.QSNodesMean), ys(s.Error.MAE)
		fill := "#1c7ed6"
		if s.Pareto {
			fill = "#d9480f"
		}
		fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="5" fill="%s" stroke="#ffffff" stroke-width="1"><title>%s: %.1f QS nodes, MAE %.1f cp</title></circle>`+"\n",
			x, y, fill, esc(s.Variant), s.QSNodesMean, s.Error.MAE)
		placed = append(placed, box{x - 5, y - 5, x + 5, y + 5})
	}
	for _, s := range sums {
		x, y := xs(s.QSNodesMean), ys(s.Error.MAE)
		label := fmt.Sprintf("%s (%.0f cp)", s.Variant, s.Error.MAE)
		if s.QSNodesMean < 1 {
			label = fmt.Sprintf("%s (%s QS nodes, %.0f cp)", s.Variant, strconv.FormatFloat(math.Round(s.QSNodesMean*10)/10, 'f', -1, 64), s.Error.MAE)
		}
		w := float64(len(label)) * charW
		best, bestAnchor, bestY := 0.0, "", 0.0
		found := false
		for _, dy := range []float64{4, -10, 18, -24, 32, -38, 46} {
			for _, right := range []bool{true, false} {
				lx0, anchor := x+9, "start"
				if !right {
					lx0, anchor = x-9-w, "end"
				}
				bx := box{lx0, y + dy - 11, lx0 + w, y + dy + 3}
				if bx.x0 < px0 || bx.x1 > float64(plotW)-4 || bx.y0 < py1 || bx.y1 > py0 {
					continue
				}
				clash := false
				for _, p := range placed {
					if bx.x0 < p.x1 && p.x0 < bx.x1 && bx.y0 < p.y1 && p.y0 < bx.y1 {
						clash = true
						break
					}
				}
				if !clash {
					best, bestAnchor, bestY, found = lx0, anchor, y+dy, true
					placed = append(placed, bx)
					break
				}
			}
			if found {
				break
			}
		}
		if !found {
			best, bestAnchor, bestY = x+9, "start", y+4
		}
		tx := best
		if bestAnchor == "end" {
			tx = best + w
		}
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="%s" fill="#222">%s</text>`+"\n", tx, bestY, bestAnchor, esc(label))
	}

	// Legend.
	lx, ly := px1-300, py1+16
	fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="294" height="40" fill="#ffffff" stroke="#cccccc"/>`+"\n", lx-6, ly-12)
	fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="5" fill="#d9480f"/><text x="%.1f" y="%.1f" fill="#222">Pareto front: no variant dominates it</text>`+"\n", lx+4, ly-2, lx+14, ly+2)
	fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="5" fill="#1c7ed6"/><text x="%.1f" y="%.1f" fill="#222">dominated by a variant on the front</text>`+"\n", lx+4, ly+16, lx+14, ly+20)
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
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
