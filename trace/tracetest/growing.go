package tracetest

import (
	"context"
	"fmt"
	"sync"

	"github.com/horizonqs/horizon/trace"
)

// Growing shows the finished runs of a Reader as if they were being
// recorded: each read (Node, Children, Path, Subtree) sees a later commit
// than the one before. The first read's commit holds a run's nodes up to
// Behind ids short of its end, and each read one more; a commit holds the
// nodes with ids before it, and the open ones (the run node down to the
// node being searched, which reach past it) end at it, as a recorder's do.
// A reader that checks children against a parent read earlier finds the
// last child running past it, though the run is sound. Run and Runs say
// what a run being recorded says, Status (running, unless set): a reader
// that trusts a final status to skip a read must not skip it here.
type Growing struct {
	trace.Reader
	Behind int64
	// Status is the status Run and Runs give every run; empty means
	// trace.StatusRunning.
	Status trace.Status

	mu    sync.Mutex
	reads int64
	ends  map[int64]int64 // each run's end in the finished file
}

// commit returns the id the next read's commit of run ends at.
func (g *Growing) commit(ctx context.Context, run int64) (int64, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	end, ok := g.ends[run]
	if !ok {
		n, err := g.Reader.Node(ctx, run, 0)
		if err != nil {
			return 0, err
		}
		end = n.End()
		if g.ends == nil {
			g.ends = map[int64]int64{}
		}
		g.ends[run] = end
	}
	g.reads++
	return min(end, end-g.Behind+g.reads), nil
}

// clip returns n as a commit ending at bound holds it, and whether it
// holds it at all.
func clip(n trace.Node, bound int64) (trace.Node, bool) {
	if n.ID >= bound {
		return n, false
	}
	if n.End() > bound {
		n.SubtreeSize = bound - n.ID
	}
	return n, true
}

// status returns the status Growing gives its runs.
func (g *Growing) status() trace.Status {
	if g.Status == "" {
		return trace.StatusRunning
	}
	return g.Status
}

// Run implements trace.Reader.
func (g *Growing) Run(ctx context.Context, id int64) (trace.Run, error) {
	r, err := g.Reader.Run(ctx, id)
	r.Status = g.status()
	return r, err
}

// Runs implements trace.Reader.
func (g *Growing) Runs(ctx context.Context) ([]trace.Run, error) {
	runs, err := g.Reader.Runs(ctx)
	for i := range runs {
		runs[i].Status = g.status()
	}
	return runs, err
}

// Node implements trace.Reader.
func (g *Growing) Node(ctx context.Context, run, id int64) (trace.Node, error) {
	bound, err := g.commit(ctx, run)
	if err != nil {
		return trace.Node{}, err
	}
	n, err := g.Reader.Node(ctx, run, id)
	if err != nil {
		return n, err
	}
	n, ok := clip(n, bound)
	if !ok {
		return trace.Node{}, fmt.Errorf("run %d: node %d not recorded yet: %w", run, id, trace.ErrNoNode)
	}
	return n, nil
}

// Children implements trace.Reader.
func (g *Growing) Children(ctx context.Context, run, id int64, order trace.Order, offset, limit int) ([]trace.Node, error) {
	bound, err := g.commit(ctx, run)
	if err != nil {
		return nil, err
	}
	kids, err := g.Reader.Children(ctx, run, id, order, offset, limit)
	out := kids[:0]
	for _, k := range kids {
		if k, ok := clip(k, bound); ok {
			out = append(out, k)
		}
	}
	return out, err
}

// Path implements trace.Reader.
func (g *Growing) Path(ctx context.Context, run, id int64) ([]trace.Node, error) {
	bound, err := g.commit(ctx, run)
	if err != nil {
		return nil, err
	}
	if id >= bound {
		return nil, fmt.Errorf("run %d: node %d not recorded yet: %w", run, id, trace.ErrNoNode)
	}
	path, err := g.Reader.Path(ctx, run, id)
	for i := range path {
		path[i], _ = clip(path[i], bound)
	}
	return path, err
}

// Subtree implements trace.Reader.
func (g *Growing) Subtree(ctx context.Context, run, id int64, maxDepth int, fn func(trace.Node) error) error {
	bound, err := g.commit(ctx, run)
	if err != nil {
		return err
	}
	return g.Reader.Subtree(ctx, run, id, maxDepth, func(n trace.Node) error {
		if n, ok := clip(n, bound); ok {
			return fn(n)
		}
		return nil
	})
}
