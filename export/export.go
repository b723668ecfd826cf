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

	"github.com/horizonqs/horizon/trace"
)

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
