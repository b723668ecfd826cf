// Package viewer is Horizon's terminal tree browser: a tcell screen over a
// trace file in which an engine author finds where a quiescence search
// explodes and why.
//
// The viewer holds only what is on screen: the nodes the user opened, a
// bounded cache of pages of their children and a few positions. Everything
// else stays in the trace file and is read through trace's query API (the
// Source interface below), so memory does not grow with the trace.
//
// A Model owns the state (runs, trees, cursor, expanded set, scroll) and has
// Draw(tcell.Screen) and Handle(tcell.Event); Run is the event loop that ties
// a Model to a screen.
package viewer

import (
	"context"

	"github.com/horizonqs/horizon/trace"
)

// Source is the part of *trace.Store the viewer reads through. Tests may
// pass another implementation; the viewer never writes.
type Source interface {
	Runs(ctx context.Context) ([]trace.Run, error)
	Run(ctx context.Context, id int64) (trace.Run, error)
	Node(ctx context.Context, run, id int64) (trace.Node, error)
	ChildCount(ctx context.Context, run, id int64) (int, error)
	Children(ctx context.Context, run, id int64, order trace.Order, offset, limit int) ([]trace.Node, error)
	Path(ctx context.Context, run, id int64) ([]trace.Node, error)
	Subtree(ctx context.Context, run, id int64, maxDepth int, fn func(trace.Node) error) error
	Hotspots(ctx context.Context, run int64, order trace.HotspotOrder, limit int) ([]trace.Hotspot, error)
}

var _ Source = (*trace.Store)(nil)
