package export

import (
	"context"
	"reflect"
	"testing"

	"github.com/horizonqs/horizon/trace"
)

// TestChildrenAhead: a child list read ahead is the one read when it is
// needed; a list not asked for is not there to take; after stop, a list
// asked for before is still taken whole, and asking for more does nothing.
func TestChildrenAhead(t *testing.T) {
	st, _ := fixedTrace(t)
	run, top := resolve(t, st, Selection{Run: 1, Node: -1})
	src := &storeSource{ctx: context.Background(), st: st, run: run, top: top}
	a := newChildrenAhead(src)
	defer a.stop()
	queue := []trace.Node{top}
	taken, read := 0, 0
	for len(queue) > 0 && read+taken < 3000 {
		n := queue[0]
		queue = queue[1:]
		a.want(queue[:min(len(queue), aheadWanted)])
		wantP, wantKids, wantErr := src.read(n)
		gotP, gotKids, gotErr := wantP, wantKids, wantErr
		if l, ok := a.take(n); ok {
			gotP, gotKids, gotErr = l.p, l.kids, l.err
			taken++
		} else if n.SubtreeSize > 1 {
			read++
		}
		if wantErr != nil || gotErr != nil || gotP != wantP || !reflect.DeepEqual(gotKids, wantKids) {
			t.Fatalf("node %d: read ahead %d children (%v), read now %d (%v)", n.ID, len(gotKids), gotErr, len(wantKids), wantErr)
		}
		queue = append(queue, wantKids...)
	}
	if taken < read {
		t.Errorf("%d lists taken read ahead, %d of nodes with children read when needed: want most read ahead", taken, read)
	}
	if _, ok := a.take(top); ok {
		t.Error("a list taken twice")
	}
	kids := queue[:min(len(queue), 3)]
	a.want(kids)
	a.stop()
	a.stop()
	a.want(queue)
	for _, k := range kids {
		if k.SubtreeSize <= 1 {
			continue
		}
		l, ok := a.take(k)
		if !ok {
			t.Fatalf("node %d, asked for before stop: not taken", k.ID)
		}
		if _, wantKids, _ := src.read(k); !reflect.DeepEqual(l.kids, wantKids) {
			t.Errorf("node %d, asked for before stop: %d children, want %d", k.ID, len(l.kids), len(wantKids))
		}
	}
	t.Logf("%d lists read ahead, %d when needed", taken, read)
}

// TestChildrenAheadStopsAtOnce: a reader stopped before its goroutines
// ran stops (they once ranged over the field stop had set to nil, and
// waited for ever).
func TestChildrenAheadStopsAtOnce(t *testing.T) {
	st, _ := fixedTrace(t)
	run, top := resolve(t, st, Selection{Run: 1, Node: -1})
	src := &storeSource{ctx: context.Background(), st: st, run: run, top: top}
	for range 200 {
		newChildrenAhead(src).stop()
	}
}
