package render

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/fogleman/gg"
	"github.com/golang/freetype/truetype"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
)

// PNG is painted here from Graphviz's layout, not by go-graphviz's own PNG
// renderer: in go-graphviz v0.2.10 that renderer is told every shape is
// filled, so it fills outlines and strokes nothing (no borders, no edges;
// see goccy/go-graphviz issue 106). Graphviz's JSON output carries the
// layout as xdot drawing operations that do say which shapes are filled,
// and this file paints those with gg, the library go-graphviz paints with.
//
// The same build marks bezier curves filled the wrong way round (edges as
// filled, rounded boxes as not), so a curve is filled only when it is
// closed; polygons and ellipses are taken as marked.

// PNG size cap: the image is drawn at PNGDPI, scaled down as needed so that
// neither side exceeds MaxPNGSide pixels and the area stays within
// MaxPNGPixels (4 bytes each while drawing). A 10,000-node tree at its
// natural size would need gigabytes.
const (
	PNGDPI       = 96
	MaxPNGSide   = 8000
	MaxPNGPixels = 24_000_000
)

// xop is one xdot drawing operation as Graphviz's JSON output gives it.
type xop struct {
	Op       string       `json:"op"`
	Color    string       `json:"color"`
	Points   [][2]float64 `json:"points"`
	Rect     []float64    `json:"rect"`
	Size     float64      `json:"size"`
	Face     string       `json:"face"`
	Pt       []float64    `json:"pt"`
	Align    string       `json:"align"`
	Text     string       `json:"text"`
	Style    string       `json:"style"`
	Fontchar int          `json:"fontchar"`
}

// xobj holds the drawing operations of the graph, a node or an edge.
type xobj struct {
	Draw   []xop `json:"_draw_"`
	LDraw  []xop `json:"_ldraw_"`
	HDraw  []xop `json:"_hdraw_"`
	TDraw  []xop `json:"_tdraw_"`
	HLDraw []xop `json:"_hldraw_"`
	TLDraw []xop `json:"_tldraw_"`
	XLDraw []xop `json:"_xldraw_"` // external labels (xlabel)
}

type xgraph struct {
	xobj
	BB      string `json:"bb"`
	Objects []xobj `json:"objects"`
	Edges   []xobj `json:"edges"`
}

// paintPNG paints Graphviz's JSON layout output as a PNG.
func paintPNG(layout []byte, w io.Writer) error {
	var g xgraph
	if err := json.Unmarshal(layout, &g); err != nil {
		return fmt.Errorf("read Graphviz layout: %w", err)
	}
	var bb [4]float64
	parts := strings.Split(g.BB, ",")
	if len(parts) != 4 {
		return fmt.Errorf("read Graphviz layout: bounding box %q", g.BB)
	}
	for i, p := range parts {
		v, err := strconv.ParseFloat(p, 64)
		if err != nil {
			return fmt.Errorf("read Graphviz layout: bounding box %q", g.BB)
		}
		bb[i] = v
	}
	const pad = 4.0 // points of margin, as Graphviz's own renderers leave
	wPt, hPt := bb[2]-bb[0]+2*pad, bb[3]-bb[1]+2*pad
	scale := pngScale(wPt, hPt)
	width, height := max(1, int(math.Ceil(wPt*scale))), max(1, int(math.Ceil(hPt*scale)))

	p := &painter{dc: gg.NewContext(width, height), scale: scale, x0: bb[0] - pad, y1: bb[3] + pad}
	p.dc.SetColor(color.White)
	p.dc.Clear()
	p.run(g.Draw)
	// Edges under nodes, so that node fills tidy the edges' ends; labels
	// last, so that no shape hides them.
	for _, e := range g.Edges {
		p.run(e.Draw)
		p.run(e.HDraw)
		p.run(e.TDraw)
	}
	for _, o := range g.Objects {
		p.run(o.Draw)
		p.run(o.LDraw)
		p.run(o.XLDraw)
	}
	for _, e := range g.Edges {
		p.run(e.LDraw)
		p.run(e.HLDraw)
		p.run(e.TLDraw)
		p.run(e.XLDraw)
	}
	p.run(g.LDraw)
	return p.dc.EncodePNG(w)
}

// pngScale returns pixels per point for a drawing of w x h points.
func pngScale(w, h float64) float64 {
	s := PNGDPI / 72.0
	s = min(s, MaxPNGSide/w, MaxPNGSide/h)
	if area := w * h * s * s; area > MaxPNGPixels {
		s *= math.Sqrt(MaxPNGPixels / area)
	}
	return s
}

// painter carries xdot's drawing state through one list of operations.
type painter struct {
	dc     *gg.Context
	scale  float64
	x0, y1 float64 // Graphviz's origin is at the bottom left

	pen, fill color.Color
	lineWidth float64
	dash      []float64
	fontSize  float64
	bold      bool
}

func (p *painter) x(v float64) float64 { return (v - p.x0) * p.scale }
func (p *painter) y(v float64) float64 { return (p.y1 - v) * p.scale }

func (p *painter) run(ops []xop) {
	p.pen, p.fill = color.Black, color.Black
	p.lineWidth, p.dash, p.fontSize, p.bold = 1, nil, 14, false
	for _, op := range ops {
		switch op.Op {
		case "c":
			p.pen = parseColor(op.Color)
		case "C":
			p.fill = parseColor(op.Color)
		case "S":
			p.style(op.Style)
		case "F":
			p.fontSize = op.Size
			p.bold = strings.Contains(strings.ToLower(op.Face), "bold")
		case "t":
			p.bold = op.Fontchar&1 != 0
		case "T":
			p.text(op)
		case "E", "e":
			if len(op.Rect) == 4 {
				p.dc.DrawEllipse(p.x(op.Rect[0]), p.y(op.Rect[1]), op.Rect[2]*p.scale, op.Rect[3]*p.scale)
				p.paint(op.Op == "E")
			}
		case "P", "p":
			if len(op.Points) > 1 {
				p.path(op.Points)
				p.dc.ClosePath()
				p.paint(op.Op == "P")
			}
		case "L":
			if len(op.Points) > 1 {
				p.path(op.Points)
				p.paint(false)
			}
		case "B", "b":
			if len(op.Points) > 1 {
				p.bezier(op.Points)
				first, last := op.Points[0], op.Points[len(op.Points)-1]
				p.paint(first == last)
			}
		}
	}
}

func (p *painter) style(s string) {
	switch {
	case strings.HasPrefix(s, "setlinewidth("):
		if v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimPrefix(s, "setlinewidth("), ")"), 64); err == nil {
			p.lineWidth = v
		}
	case s == "dashed":
		p.dash = []float64{6, 4}
	case s == "dotted":
		p.dash = []float64{1.5, 3}
	case s == "solid":
		p.dash = nil
	case s == "bold":
		p.lineWidth = 2
	}
}

func (p *painter) path(pts [][2]float64) {
	p.dc.NewSubPath()
	p.dc.MoveTo(p.x(pts[0][0]), p.y(pts[0][1]))
	for _, pt := range pts[1:] {
		p.dc.LineTo(p.x(pt[0]), p.y(pt[1]))
	}
}

func (p *painter) bezier(pts [][2]float64) {
	p.dc.NewSubPath()
	p.dc.MoveTo(p.x(pts[0][0]), p.y(pts[0][1]))
	for i := 1; i+2 < len(pts); i += 3 {
		p.dc.CubicTo(p.x(pts[i][0]), p.y(pts[i][1]), p.x(pts[i+1][0]), p.y(pts[i+1][1]), p.x(pts[i+2][0]), p.y(pts[i+2][1]))
	}
}

// paint fills the current path if asked, then strokes it with the pen.
func (p *painter) paint(filled bool) {
	if filled && visible(p.fill) {
		p.dc.SetColor(p.fill)
		p.dc.FillPreserve()
	}
	if visible(p.pen) {
		p.dc.SetColor(p.pen)
		p.dc.SetLineWidth(max(p.lineWidth*p.scale, 0.5))
		if p.dash != nil {
			d := make([]float64, len(p.dash))
			for i, v := range p.dash {
				d[i] = v * p.scale
			}
			p.dc.SetDash(d...)
		} else {
			p.dc.SetDash()
		}
		p.dc.StrokePreserve()
	}
	p.dc.ClearPath()
}

func (p *painter) text(op xop) {
	if len(op.Pt) != 2 || op.Text == "" || !visible(p.pen) {
		return
	}
	ax := 0.5
	switch op.Align {
	case "l":
		ax = 0
	case "r":
		ax = 1
	}
	p.drawString(op.Text, p.x(op.Pt[0]), p.y(op.Pt[1]), ax, p.bold, p.fontSize, p.pen)
}

// drawString draws s at pixel (x, y), anchored ax of its width to the
// left, in Go's font at size points scaled to the image.
func (p *painter) drawString(s string, x, y, ax float64, bold bool, size float64, c color.Color) {
	p.dc.SetFontFace(fontFace(bold, size*p.scale))
	p.dc.SetColor(c)
	p.dc.DrawStringAnchored(s, x, y, ax, 0)
}

// Go's own fonts, so PNGs look the same on every machine and no font file
// is looked up; faces are cached by weight and pixel size.
var (
	fontOnce  sync.Once
	fontReg   *truetype.Font
	fontBold  *truetype.Font
	faceMu    sync.Mutex
	faceCache = map[[2]float64]font.Face{}
)

func fontFace(bold bool, px float64) font.Face {
	fontOnce.Do(func() {
		fontReg, _ = truetype.Parse(goregular.TTF) // embedded, known good
		fontBold, _ = truetype.Parse(gobold.TTF)
	})
	px = math.Round(px*4) / 4
	key := [2]float64{0, px}
	f := fontReg
	if bold {
		key[0], f = 1, fontBold
	}
	faceMu.Lock()
	defer faceMu.Unlock()
	if face, ok := faceCache[key]; ok {
		return face
	}
	face := truetype.NewFace(f, &truetype.Options{Size: px, DPI: 72, Hinting: font.HintingFull})
	faceCache[key] = face
	return face
}

func visible(c color.Color) bool {
	_, _, _, a := c.RGBA()
	return a > 0
}

// parseColor reads "#rrggbb" or "#rrggbbaa" (what Graphviz's JSON output
// writes) and a few names; anything else is black.
func parseColor(s string) color.Color {
	switch strings.ToLower(s) {
	case "", "black":
		return color.Black
	case "white":
		return color.White
	case "none", "transparent", "invis":
		return color.Transparent
	}
	if strings.HasPrefix(s, "#") && (len(s) == 7 || len(s) == 9) {
		v, err := strconv.ParseUint(s[1:], 16, 32)
		if err == nil {
			if len(s) == 7 {
				v = v<<8 | 0xff
			}
			return color.NRGBA{R: uint8(v >> 24), G: uint8(v >> 16), B: uint8(v >> 8), A: uint8(v)}
		}
	}
	return color.Black
}

// PaintFlatSVG paints the flat SVG that Horizon's charts are written as
// (the icicle chart's filled and stroked rect elements and text elements,
// in groups that may set font-size and font-weight; the QS benchmark's
// plot's lines, circles, polylines and rotated text) as a PNG, with the same fonts and the
// same size cap as the graph PNGs. It is no general SVG renderer: an
// element it does not know is an error, so a chart that grows a new kind
// of shape fails loudly instead of printing without it.
func PaintFlatSVG(svg []byte, w io.Writer) error {
	dec := xml.NewDecoder(bytes.NewReader(svg))
	type style struct {
		size float64
		bold bool
		fill color.Color
	}
	var (
		p     *painter
		stack []style
		text  *xml.StartElement
		chars strings.Builder
	)
	attr := func(e xml.StartElement, name string) (string, bool) {
		for _, a := range e.Attr {
			if a.Name.Local == name {
				return a.Value, true
			}
		}
		return "", false
	}
	attrOf := func(e xml.StartElement, name string) string { v, _ := attr(e, name); return v }
	num := func(e xml.StartElement, name string) float64 {
		v, _ := strconv.ParseFloat(attrOf(e, name), 64)
		return v
	}
	inherit := func(e xml.StartElement) style {
		s := style{size: 12, fill: color.Black}
		if len(stack) > 0 {
			s = stack[len(stack)-1]
		}
		if v := num(e, "font-size"); v > 0 {
			s.size = v
		}
		if v, ok := attr(e, "font-weight"); ok {
			s.bold = v == "bold"
		}
		if v, ok := attr(e, "fill"); ok {
			s.fill = parseColor(v)
		}
		return s
	}
	titles := 0 // inside <title>: tooltips, not drawn
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("read the chart's SVG: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			st := inherit(t)
			stack = append(stack, st)
			switch t.Name.Local {
			case "svg":
				if p, err = flatPainter(num(t, "width"), num(t, "height")); err != nil {
					return err
				}
			case "g":
			case "title":
				titles++
			case "rect":
				if p == nil {
					return fmt.Errorf("read the chart's SVG: rect outside svg")
				}
				x, y, rw, rh := num(t, "x")*p.scale, num(t, "y")*p.scale, num(t, "width")*p.scale, num(t, "height")*p.scale
				fill := st.fill
				if op, ok := attr(t, "opacity"); ok {
					a, _ := strconv.ParseFloat(op, 64)
					r, g, b, _ := fill.RGBA()
					fill = color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(255 * a)}
				}
				p.dc.DrawRectangle(x, y, rw, rh)
				p.fill, p.pen, p.dash = fill, color.Transparent, nil
				if s, ok := attr(t, "stroke"); ok {
					p.pen, p.lineWidth = parseColor(s), num(t, "stroke-width")
				}
				p.paint(true)
			case "line", "circle", "polyline":
				if p == nil {
					return fmt.Errorf("read the chart's SVG: %s outside svg", t.Name.Local)
				}
				p.shape(t, st.fill)
			case "text":
				text = &t
				chars.Reset()
			default:
				return fmt.Errorf("read the chart's SVG: element <%s> is not painted", t.Name.Local)
			}
		case xml.CharData:
			if text != nil && titles == 0 {
				chars.Write(t)
			}
		case xml.EndElement:
			st := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			switch t.Name.Local {
			case "title":
				titles--
			case "text":
				if p != nil && text != nil && chars.Len() > 0 {
					ax := map[string]float64{"end": 1, "middle": 0.5}[attrOf(*text, "text-anchor")]
					p.dc.Push()
					p.transform(attrOf(*text, "transform"))
					p.drawString(chars.String(), num(*text, "x")*p.scale, num(*text, "y")*p.scale, ax, st.bold, st.size, st.fill)
					p.dc.Pop()
				}
				text = nil
			}
		}
	}
	if p == nil {
		return fmt.Errorf("read the chart's SVG: no svg element")
	}
	return p.dc.EncodePNG(w)
}

// flatAttr is an attribute of a flat SVG element, "" when it has none.
func flatAttr(e xml.StartElement, name string) string {
	for _, a := range e.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// shape paints a line, circle or polyline element of a flat SVG: filled
// with its fill (a circle; fill is the inherited one), stroked with its
// stroke, stroke-width and stroke-dasharray.
func (p *painter) shape(e xml.StartElement, fill color.Color) {
	num := func(name string) float64 {
		v, _ := strconv.ParseFloat(flatAttr(e, name), 64)
		return v * p.scale
	}
	p.fill, p.pen, p.lineWidth, p.dash = fill, color.Transparent, 1, nil
	if s := flatAttr(e, "stroke"); s != "" {
		p.pen = parseColor(s)
	}
	if w, err := strconv.ParseFloat(flatAttr(e, "stroke-width"), 64); err == nil {
		p.lineWidth = w
	}
	for _, f := range strings.Fields(strings.ReplaceAll(flatAttr(e, "stroke-dasharray"), ",", " ")) {
		if v, err := strconv.ParseFloat(f, 64); err == nil {
			p.dash = append(p.dash, v)
		}
	}
	switch e.Name.Local {
	case "line":
		p.dc.NewSubPath()
		p.dc.MoveTo(num("x1"), num("y1"))
		p.dc.LineTo(num("x2"), num("y2"))
		p.paint(false)
	case "circle":
		p.dc.DrawCircle(num("cx"), num("cy"), num("r"))
		p.paint(true)
	case "polyline":
		p.dc.NewSubPath()
		for i, pt := range strings.Fields(flatAttr(e, "points")) {
			xs, ys, _ := strings.Cut(pt, ",")
			x, _ := strconv.ParseFloat(xs, 64)
			y, _ := strconv.ParseFloat(ys, 64)
			if i == 0 {
				p.dc.MoveTo(x*p.scale, y*p.scale)
			} else {
				p.dc.LineTo(x*p.scale, y*p.scale)
			}
		}
		p.paint(flatAttr(e, "fill") != "none")
	}
}

// transform applies a text element's transform, of the forms the charts
// write: translate(x y) and rotate(a), in that order, either left out.
func (p *painter) transform(t string) {
	for _, part := range strings.SplitAfter(t, ")") {
		name, args, ok := strings.Cut(strings.TrimSpace(part), "(")
		if !ok {
			continue
		}
		var v []float64
		for _, f := range strings.Fields(strings.ReplaceAll(strings.TrimSuffix(args, ")"), ",", " ")) {
			x, _ := strconv.ParseFloat(f, 64)
			v = append(v, x)
		}
		switch {
		case name == "translate" && len(v) == 2:
			p.dc.Translate(v[0]*p.scale, v[1]*p.scale)
		case name == "rotate" && len(v) == 1:
			p.dc.Rotate(gg.Radians(v[0]))
		}
	}
}

// flatPainter is the painter of a flat SVG of w x h user units, on white.
func flatPainter(w, h float64) (*painter, error) {
	if w <= 0 || h <= 0 {
		return nil, fmt.Errorf("read the chart's SVG: size %gx%g", w, h)
	}
	// SVG user units are pixels already: 1, within the caps.
	scale := min(1, MaxPNGSide/w, MaxPNGSide/h)
	if area := w * h * scale * scale; area > MaxPNGPixels {
		scale *= math.Sqrt(MaxPNGPixels / area)
	}
	width, height := max(1, int(math.Ceil(w*scale))), max(1, int(math.Ceil(h*scale)))
	p := &painter{dc: gg.NewContext(width, height), scale: scale, x0: 0, y1: 0}
	p.dc.SetColor(color.White)
	p.dc.Clear()
	return p, nil
}
