// Package export turns a subtree of a search trace into a diagram: a
// Graphviz graph (DOT text, or JSON of the same graph) cut down to a node
// budget, or an icicle chart (SVG) of the whole subtree.
//
// It reads traces only through the trace package's query API. DOT, JSON and
// icicle SVG are written by this package, byte for byte deterministic; laying
// the DOT out as SVG or PNG is export/render's job, so that go-graphviz stays
// out of every package but that one.
//
// The graph keeps the tree readable at any trace size: children are kept by
// principal-variation membership and subtree size, best first, until the
// budget is spent; the children left out of each shown node are collapsed
// into one summary node that says how many nodes they hold, which share of
// them is QS and how deep QS went there. Nothing is dropped silently.
package export

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/horizonqs/horizon/trace"
)

// Format is an output format of horizon export.
type Format string

// Output formats. DOT, JSON and Icicle are written by this package; SVG and
// PNG are the DOT laid out by Graphviz (export/render). HTML is an
// interactive page (html.go).
const (
	DOT    Format = "dot"
	SVG    Format = "svg"
	PNG    Format = "png"
	JSON   Format = "json"
	Icicle Format = "icicle"
	HTML   Format = "html"
)

// Formats lists every format, in the order help texts show them.
func Formats() []Format { return []Format{DOT, SVG, PNG, JSON, Icicle, HTML} }

// ParseFormat checks a format name (case-insensitive).
func ParseFormat(s string) (Format, error) {
	f := Format(strings.ToLower(strings.TrimSpace(s)))
	for _, g := range Formats() {
		if f == g {
			return f, nil
		}
	}
	names := make([]string, 0, len(Formats()))
	for _, g := range Formats() {
		names = append(names, string(g))
	}
	return "", fmt.Errorf("unknown format %q (valid: %s)", s, strings.Join(names, ", "))
}

// FormatOf guesses the format from an output file's extension; ok is false
// when the extension says nothing. An .svg file is taken as a Graphviz SVG;
// the icicle must be asked for by name.
func FormatOf(path string) (f Format, ok bool) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".dot", ".gv":
		return DOT, true
	case ".svg":
		return SVG, true
	case ".png":
		return PNG, true
	case ".json":
		return JSON, true
	case ".html", ".htm":
		return HTML, true
	}
	return "", false
}

// DefaultMaxNodes is the default node budget of a graph: about what a
// diagram can show and still be read.
const DefaultMaxNodes = 300

// Selection says which subtree of which run to export.
type Selection struct {
	// Run is the run id; 0 picks the file's last run.
	Run int64
	// Node is the id of the subtree's top node; -1 picks the run's last
	// iteration root (or, with Path, the start of the path: the last
	// iteration).
	Node int64
	// Path is a move path (SAN or UCI) followed down from Node.
	Path []string
	// Root, when not nil, starts Path (or, with no path, the subtree) at
	// that iteration root (trace.IterationRoot) instead of the reported
	// iteration's: a place diff or check printed ("iteration 2: ...",
	// "iteration 2·1: ..." for the first of several roots of iteration 2,
	// trace.ParsePlace; iteration 0 included). Node must then be -1.
	Root *trace.PlaceRoot
}

// Resolve finds the run and the top node a Selection names. Errors name
// what was not found and wrap trace's sentinels (trace.ErrNoRun,
// trace.ErrNoNode, trace.ErrNoMove).
func Resolve(ctx context.Context, st trace.Reader, sel Selection) (trace.Run, trace.Node, error) {
	var run trace.Run
	if sel.Run == 0 {
		runs, err := st.Runs(ctx)
		if err != nil {
			return trace.Run{}, trace.Node{}, err
		}
		if len(runs) == 0 {
			return trace.Run{}, trace.Node{}, fmt.Errorf("%s holds no runs: %w", st.File(), trace.ErrNoRun)
		}
		run = runs[0]
		for _, r := range runs[1:] {
			if r.ID > run.ID {
				run = r
			}
		}
	} else {
		r, err := st.Run(ctx, sel.Run)
		if err != nil {
			return trace.Run{}, trace.Node{}, err
		}
		run = r
	}
	from := sel.Node
	if from < 0 {
		from = 0 // Find starts in the last iteration when given the run node
	}
	if sel.Root != nil {
		roots, err := st.Children(ctx, run.ID, 0, trace.BySearch, 0, 0)
		if err != nil {
			return trace.Run{}, trace.Node{}, err
		}
		i, ok := trace.IterationRoot(roots, sel.Root.It, sel.Root.Visit)
		if !ok {
			return trace.Run{}, trace.Node{}, fmt.Errorf("%s: run %d: %s: %w", st.File(), run.ID, trace.NoIterationText(roots, sel.Root.It, sel.Root.Visit), trace.ErrNoMove)
		}
		from = roots[i].ID
	}
	if sel.Node < 0 || len(sel.Path) > 0 {
		n, err := st.Find(ctx, run.ID, from, sel.Path)
		if err != nil {
			return trace.Run{}, trace.Node{}, err
		}
		return run, n, nil
	}
	n, err := st.Node(ctx, run.ID, sel.Node)
	if err != nil {
		return trace.Run{}, trace.Node{}, err
	}
	return run, n, nil
}
