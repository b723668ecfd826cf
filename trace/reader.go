package trace

import (
	"context"

	"github.com/horizonqs/horizon/engine"
)

// Reader is the read side of a trace: what the viewer, export and compare
// use, so each works on any source of runs and nodes (a trace file, or a
// test's stand-in). *Store implements it.
type Reader interface {
	// File names the source in messages: the trace file's path.
	File() string
	Runs(ctx context.Context) ([]Run, error)
	Run(ctx context.Context, id int64) (Run, error)
	Node(ctx context.Context, run, id int64) (Node, error)
	ChildCount(ctx context.Context, run, id int64) (int, error)
	Children(ctx context.Context, run, id int64, order Order, offset, limit int) ([]Node, error)
	Path(ctx context.Context, run, id int64) ([]Node, error)
	PathSAN(ctx context.Context, run, id int64) ([]string, error)
	Position(ctx context.Context, run, id int64) (*engine.Position, error)
	Find(ctx context.Context, run, from int64, moves []string) (Node, error)
	Subtree(ctx context.Context, run, id int64, maxDepth int, fn func(Node) error) error
	Hotspots(ctx context.Context, run int64, order HotspotOrder, limit int) ([]Hotspot, error)
	Stats(ctx context.Context, run int64) (Stats, error)
	// NestedSearches is in the interface, not looked for beside it, so
	// that a Reader wrapping another (a progress counter) passes a run's
	// nested searches on: without them places, keys and labels of
	// nested searches come out wrong, not merely bare.
	NestedSearches(ctx context.Context, run int64) (map[int64]NestedSearch, error)
}

var _ Reader = (*Store)(nil)
