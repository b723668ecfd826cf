package render

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

// slowDOT is a graph Graphviz lays out for tens of seconds: many nodes in
// few ranks, with edges crossing every way, keep dot's crossing
// minimisation busy.
func slowDOT(nodes int) []byte {
	var b strings.Builder
	b.WriteString("digraph g {\n")
	x := uint32(1)
	for i := 0; i < nodes*3; i++ {
		x = x*1664525 + 1013904223
		from := int(x>>8) % nodes
		x = x*1664525 + 1013904223
		to := int(x>>8) % nodes
		if from/(nodes/8) < to/(nodes/8) {
			fmt.Fprintf(&b, "\tn%d -> n%d;\n", from, to)
		}
	}
	b.WriteString("}\n")
	return []byte(b.String())
}

// TestRenderCancel cancels a layout that runs for tens of seconds: Render
// returns the context's error (it finished the layout and ignored Ctrl-C
// before the runtime was made to close on a done context), and the next
// Render starts Graphviz again and draws.
func TestRenderCancel(t *testing.T) {
	if testing.Short() {
		t.Skip("lays out a big graph")
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	err := Render(ctx, slowDOT(4000), SVG, io.Discard)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled layout returned %v, want context.Canceled", err)
	}
	var svg bytes.Buffer
	if err := Render(context.Background(), []byte("digraph { a -> b }"), SVG, &svg); err != nil {
		t.Fatalf("render after a cancelled one: %v", err)
	}
	if !bytes.Contains(svg.Bytes(), []byte("<svg")) {
		t.Fatalf("render after a cancelled one wrote no SVG: %.200s", svg.String())
	}
}
