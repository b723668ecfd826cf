package trace_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
	"github.com/horizonqs/horizon/trace/tracetest"
)

// nodeCounter counts Node reads, the query RunChildren spares a run whose
// file no longer changes.
type nodeCounter struct {
	trace.Reader
	nodes int
}

func (c *nodeCounter) Node(ctx context.Context, run, id int64) (trace.Node, error) {
	c.nodes++
	return c.Reader.Node(ctx, run, id)
}

// TestRunChildren: a run that may still grow (running, abandoned, failed)
// has its node read again after its children, so the run node read
// before them, which a growing run outgrows, does not make it damaged; a
// run with a final status is checked against the node it was given, with
// no second read, and a damaged size is still found.
func TestRunChildren(t *testing.T) {
	ctx := context.Background()
	st, _ := tracetest.CreateTrace(t)
	id := tracetest.RecordSearch(t, st, engine.StartFEN, tracetest.VariantOptions(t, "captures"), engine.Limits{Depth: 3})
	for _, tc := range []struct {
		status trace.Status
		reread bool
	}{
		{trace.StatusRunning, true},
		{trace.StatusAbandoned, true},
		{trace.StatusFailed, true},
		{trace.StatusComplete, false},
		{trace.StatusInterrupted, false},
		{trace.StatusTruncated, false},
	} {
		t.Run(string(tc.status), func(t *testing.T) {
			c := &nodeCounter{Reader: st}
			var r trace.Reader = c
			if tc.reread {
				r = &tracetest.Growing{Reader: c, Behind: 50, Status: tc.status}
			}
			run, err := r.Run(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			top, err := r.Node(ctx, id, 0)
			if err != nil {
				t.Fatal(err)
			}
			c.nodes = 0
			p, kids, err := trace.RunChildren(ctx, r, run, top, trace.BySearch, 0, 0)
			if err != nil {
				t.Fatalf("%s run: %v", tc.status, err)
			}
			if len(kids) == 0 || p.ID != top.ID {
				t.Fatalf("%s run: node %d with %d children, want node %d's children", tc.status, p.ID, len(kids), top.ID)
			}
			if reread := c.nodes > 0; reread != tc.reread {
				t.Errorf("%s run: %d Node reads, want a re-read: %v", tc.status, c.nodes, tc.reread)
			}
			if tc.reread {
				return
			}
			short := top
			short.SubtreeSize = kids[len(kids)-1].ID - top.ID
			var d *trace.DamagedError
			if _, _, err := trace.RunChildren(ctx, r, run, short, trace.BySearch, 0, 0); !errors.As(err, &d) {
				t.Errorf("%s run, node given short of its last child: %v, want a DamagedError", tc.status, err)
			}
		})
	}
}

// dropFirst is a trace whose Children leave the first child out: a type
// that embeds a *trace.Store to change what Children gives.
type dropFirst struct{ *trace.Store }

func (d dropFirst) Children(ctx context.Context, run, id int64, order trace.Order, offset, limit int) ([]trace.Node, error) {
	kids, err := d.Store.Children(ctx, run, id, order, offset, limit)
	if len(kids) > 0 {
		kids = kids[1:]
	}
	return kids, err
}

// TestChildrenOf: the children of a node the caller holds, read without
// reading the node again, are Children's, in both orders and pages, for
// every node of a run; a type that embeds a Store and changes Children
// gets its own Children, not the Store's shortcut.
func TestChildrenOf(t *testing.T) {
	ctx := context.Background()
	st, _ := tracetest.CreateTrace(t)
	id := tracetest.RecordSearch(t, st, engine.StartFEN, tracetest.VariantOptions(t, "captures"), engine.Limits{Depth: 3})
	var parents []trace.Node
	if err := st.Subtree(ctx, id, 0, -1, func(n trace.Node) error {
		if n.SubtreeSize > 1 {
			parents = append(parents, n)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(parents) < 20 {
		t.Fatalf("%d nodes with children: too few to test", len(parents))
	}
	for _, p := range parents {
		for _, pg := range []struct {
			order         trace.Order
			offset, limit int
		}{{trace.BySearch, 0, 0}, {trace.BySize, 0, 0}, {trace.BySize, 1, 2}} {
			want, err := st.Children(ctx, id, p.ID, pg.order, pg.offset, pg.limit)
			if err != nil {
				t.Fatal(err)
			}
			got, err := trace.ChildrenOf(ctx, st, p, pg.order, pg.offset, pg.limit)
			if err != nil || !slices.Equal(got, want) {
				t.Fatalf("node %d %+v: ChildrenOf gives %d children (%v), Children %d", p.ID, pg, len(got), err, len(want))
			}
		}
		if p.Kind == engine.KindRun {
			continue
		}
		want, _ := dropFirst{st}.Children(ctx, id, p.ID, trace.BySearch, 0, 0)
		got, err := trace.ChildrenOf(ctx, dropFirst{st}, p, trace.BySearch, 0, 0)
		if err != nil || !slices.Equal(got, want) {
			t.Fatalf("node %d: ChildrenOf through a type embedding the Store gives %d children (%v), its Children %d", p.ID, len(got), err, len(want))
		}
	}
}
