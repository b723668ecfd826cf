package export

import (
	"bytes"
	"context"
	"encoding/xml"
	"image/png"
	"io"
	"strings"
	"testing"

	"github.com/horizonqs/horizon/export/render"
)

// countNodeGroups counts the <g class="node"> elements of an SVG, parsing
// it as XML (so a file that is not well-formed fails).
func countNodeGroups(t *testing.T, svg []byte) int {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(svg))
	dec.Strict = true
	// Graphviz's SVG has a DOCTYPE with an external DTD: no entity needs it.
	n := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return n
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "g" {
			for _, a := range se.Attr {
				if a.Name.Local == "class" && a.Value == "node" {
					n++
				}
			}
		}
	}
}

// TestRenderSVG lays the golden graphs out with Graphviz and checks that
// the SVG is XML with one node group per shown node and summary.
func TestRenderSVG(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Graphviz (WebAssembly)")
	}
	st, _ := fixedTrace(t)
	for _, c := range graphCases {
		t.Run(c.name, func(t *testing.T) {
			g := buildCase(t, st, c.sel, c.opts)
			var dot, svg bytes.Buffer
			if err := g.WriteDOT(&dot); err != nil {
				t.Fatal(err)
			}
			if err := render.Render(context.Background(), dot.Bytes(), render.SVG, &svg); err != nil {
				t.Fatal(err)
			}
			if got, want := countNodeGroups(t, svg.Bytes()), len(g.Nodes)+len(g.Summaries); got != want {
				t.Fatalf("SVG has %d node groups, want %d (%d nodes + %d summaries)", got, want, len(g.Nodes), len(g.Summaries))
			}
			if !strings.Contains(svg.String(), "Legend") {
				t.Fatal("SVG has no legend")
			}
		})
	}
}

// TestRenderPNG checks the PNG painter: the image decodes, stays within the
// size cap, and has the borders and edges go-graphviz's own PNG renderer
// leaves out (a pixel on the edge between the two nodes is dark).
func TestRenderPNG(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Graphviz (WebAssembly)")
	}
	dot := `digraph g { graph [pad=0]; node [shape=box, style=filled, fillcolor="#FFFFFF"]; a -> b [penwidth=4]; }`
	var out bytes.Buffer
	if err := render.Render(context.Background(), []byte(dot), render.PNG, &out); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&out)
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	if b.Dx() < 40 || b.Dy() < 80 || b.Dx() > render.MaxPNGSide || b.Dy() > render.MaxPNGSide {
		t.Fatalf("image %dx%d", b.Dx(), b.Dy())
	}
	// The edge runs down the middle between the boxes; look for a dark
	// pixel in the middle column, away from the boxes' text.
	dark := 0
	x := b.Min.X + b.Dx()/2
	for y := b.Min.Y + b.Dy()*2/5; y < b.Min.Y+b.Dy()*3/5; y++ {
		r, g, bl, _ := img.At(x, y).RGBA()
		if r+g+bl < 3*0x4000 {
			dark++
		}
	}
	if dark == 0 {
		t.Fatal("no edge drawn between the nodes")
	}
}

func TestRenderBadInput(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Graphviz (WebAssembly)")
	}
	var out bytes.Buffer
	if err := render.Render(context.Background(), []byte("digraph { a -> "), render.SVG, &out); err == nil {
		t.Fatal("bad DOT rendered")
	}
	if err := render.Render(context.Background(), []byte("digraph { a }"), "gif", &out); err == nil {
		t.Fatal("unknown format rendered")
	}
	if out.Len() != 0 {
		t.Fatalf("failed renders wrote %d bytes", out.Len())
	}
}
