package render

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/fogleman/gg"
)

// PaintFlatSVG paints the flat SVG that Horizon's icicle chart is written
// as (filled and stroked rect elements and text elements, in groups that
// may set font-size and font-weight) as a PNG, with the same fonts and the
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
				wPt, hPt := num(t, "width"), num(t, "height")
				if wPt <= 0 || hPt <= 0 {
					return fmt.Errorf("read the chart's SVG: size %gx%g", wPt, hPt)
				}
				// SVG user units are pixels already: 1, within the caps.
				scale := min(1, MaxPNGSide/wPt, MaxPNGSide/hPt)
				if area := wPt * hPt * scale * scale; area > MaxPNGPixels {
					scale *= math.Sqrt(MaxPNGPixels / area)
				}
				width, height := max(1, int(math.Ceil(wPt*scale))), max(1, int(math.Ceil(hPt*scale)))
				p = &painter{dc: gg.NewContext(width, height), scale: scale, x0: 0, y1: 0}
				p.dc.SetColor(color.White)
				p.dc.Clear()
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
					p.drawString(chars.String(), num(*text, "x")*p.scale, num(*text, "y")*p.scale, ax, st.bold, st.size, st.fill)
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
