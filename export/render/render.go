// Package render lays out DOT text with Graphviz and draws it as SVG or PNG.
//
// It is the only package in Horizon that imports go-graphviz, which runs
// Graphviz compiled to WebAssembly; the engine, the trace store and the
// viewer must not import it (see Render for what that costs).
package render

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/goccy/go-graphviz"
)

// Format is an output format Render draws.
type Format string

// Formats Render draws.
const (
	SVG Format = "svg"
	PNG Format = "png"
)

// MaxNodes is the most shown nodes Horizon asks Graphviz to lay out (and
// up to as many summaries): export refuses a budget over it for SVG and
// PNG, before any work. The dot layout's time grows faster than its graph:
// 'export --node 0 --max-nodes N -o x.svg' of Kiwipete captures depth 7
// (1.55M nodes) on the 2-core machine at load 12-18 took 63 s and 117 MB
// for 2,000, 114 s and 179 MB for 5,000, 566 s and 268 MB for 10,000;
// 10,000 of a 17.9M-node subtree peak at 430 MB of the process's RSS
// (BenchmarkExportMemory10M/svg), near the 500 MB every export keeps
// under. Ctrl-C stops a layout (Render's context).
const MaxNodes = 10_000

// mu serialises renders: go-graphviz drives one WebAssembly instance shared
// by the whole process.
var mu sync.Mutex

// Render lays out dot (a digraph in the DOT language) with Graphviz's dot
// layout and writes it to w in format f. The output is produced in memory
// and written to w only when rendering succeeded, so a failed render writes
// nothing.
func Render(ctx context.Context, dot []byte, f Format, w io.Writer) error {
	if f != SVG && f != PNG {
		return fmt.Errorf("render: unknown format %q (want svg or png)", f)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	mu.Lock()
	defer mu.Unlock()
	gv, err := graphviz.New(ctx)
	if err != nil {
		return fmt.Errorf("render: start Graphviz: %w", err)
	}
	defer gv.Close()
	g, err := graphviz.ParseBytes(dot)
	if err != nil {
		return fmt.Errorf("render: parse DOT: %w", err)
	}
	defer g.Close()
	out := graphviz.SVG
	if f == PNG {
		out = "json" // the layout as drawing operations, painted by paintPNG
	}
	var buf bytes.Buffer
	if err := gv.Render(ctx, g, out, &buf); err != nil {
		return fmt.Errorf("render %s: %w", f, err)
	}
	if buf.Len() == 0 {
		return errors.New("render: Graphviz produced no output")
	}
	if f == PNG {
		var img bytes.Buffer
		if err := paintPNG(buf.Bytes(), &img); err != nil {
			return fmt.Errorf("render png: %w", err)
		}
		buf = img
	}
	_, err = w.Write(buf.Bytes())
	return err
}
