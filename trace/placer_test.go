package trace_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
	"github.com/horizonqs/horizon/trace/tracetest"
)

// TestPlacerSharesChildLists: one Placer places many nodes of a run, each
// as PlaceOf alone places it, and the shared plies cost fewer child lists
// than a place read afresh per node.
func TestPlacerSharesChildLists(t *testing.T) {
	ctx := context.Background()
	st, _ := tracetest.CreateTrace(t)
	run := tracetest.RecordSearch(t, st, tracetest.Kiwipete, tracetest.VariantOptions(t, "captures"), engine.Limits{Depth: 3})
	var ids []int64
	if err := st.Subtree(ctx, run, 0, -1, func(n trace.Node) error {
		if n.ID%37 == 0 || n.Kind == engine.KindRoot {
			ids = append(ids, n.ID)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(ids) < 100 {
		t.Fatalf("%d nodes to place; the test wants 100", len(ids))
	}
	fresh := &countingChildren{Reader: st}
	shared := &countingChildren{Reader: st}
	placer := trace.NewPlacer(shared, run)
	for _, id := range ids {
		wantF, wantText, err := trace.PlaceOf(ctx, fresh, run, id)
		if err != nil {
			t.Fatal(err)
		}
		gotF, gotText, err := placer.PlaceOf(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if gotText != wantText || !reflect.DeepEqual(gotF, wantF) {
			t.Errorf("node %d: placed %q %+v, alone %q %+v", id, gotText, gotF, wantText, wantF)
		}
	}
	if fresh.lists == 0 || 2*shared.lists > fresh.lists {
		t.Errorf("a Placer read %d child lists for %d places, PlaceOf alone %d: want at most half", shared.lists, len(ids), fresh.lists)
	}
}

// countingChildren counts the child lists read through it.
type countingChildren struct {
	trace.Reader
	lists int
}

func (c *countingChildren) Children(ctx context.Context, run, id int64, order trace.Order, offset, limit int) ([]trace.Node, error) {
	c.lists++
	return c.Reader.Children(ctx, run, id, order, offset, limit)
}

// TestPlacerPosition: a Placer's Position of a node it placed (replayed
// from the path it read) and of one it did not (read) is the Reader's.
func TestPlacerPosition(t *testing.T) {
	ctx := context.Background()
	st, _ := tracetest.CreateTrace(t)
	run := tracetest.RecordSearch(t, st, tracetest.Kiwipete, tracetest.VariantOptions(t, "captures"), engine.Limits{Depth: 3})
	placer := trace.NewPlacer(st, run)
	checked := 0
	if err := st.Subtree(ctx, run, 0, -1, func(n trace.Node) error {
		if n.ID%41 != 0 {
			return nil
		}
		if n.ID%2 == 0 { // every other one placed first
			if _, _, err := placer.PlaceOf(ctx, n.ID); err != nil {
				return err
			}
		}
		want, err := st.Position(ctx, run, n.ID)
		if err != nil {
			return err
		}
		got, err := placer.Position(ctx, n.ID)
		if err != nil {
			return err
		}
		if got.FEN() != want.FEN() {
			t.Errorf("node %d: placer's position %s, the reader's %s", n.ID, got.FEN(), want.FEN())
		}
		checked++
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Fatalf("%d nodes checked; the test wants 50", checked)
	}
}
