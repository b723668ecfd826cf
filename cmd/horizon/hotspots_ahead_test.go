package main

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/explain"
	"github.com/horizonqs/horizon/trace"
	"github.com/horizonqs/horizon/trace/tracetest"
)

// TestPlaceAhead: hotspots placed ahead come in order, each as placed
// alone, with its position; a hotspot that cannot be placed gives its
// error in its turn, and a cancelled placing ends with the cancellation;
// stop returns either way (the store outlives the goroutine).
func TestPlaceAhead(t *testing.T) {
	ctx := context.Background()
	st, _ := tracetest.CreateTrace(t)
	run := tracetest.RecordSearch(t, st, tracetest.Kiwipete, tracetest.VariantOptions(t, "captures"), engine.Limits{Depth: 2})
	hs, err := st.Hotspots(ctx, run, trace.HotspotBySize, 20)
	if err != nil || len(hs) < 5 {
		t.Fatalf("%d hotspots, %v; the test wants 5", len(hs), err)
	}
	want, err := hotspotsJSONOf(ctx, st, run, hs)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("in order", func(t *testing.T) {
		a := placeAhead(ctx, st, run, hs)
		defer a.stop()
		for i, h := range hs {
			p, err := a.next()
			if err != nil {
				t.Fatal(err)
			}
			pos, err := st.Position(ctx, run, h.Node.ID)
			if err != nil {
				t.Fatal(err)
			}
			if p.line.Place != want[i].Place || p.line.Node != h.Node.ID || p.pos.FEN() != pos.FEN() {
				t.Errorf("hotspot %d: placed #%d %q at %s, alone #%d %q at %s", i, p.line.Node, p.line.Place, p.pos.FEN(), h.Node.ID, want[i].Place, pos.FEN())
			}
		}
	})
	t.Run("an error in its turn", func(t *testing.T) {
		bad := append([]trace.Hotspot{}, hs[:3]...)
		bad[2].Node.ID = 1 << 40
		a := placeAhead(ctx, st, run, bad)
		defer a.stop()
		for i := range 2 {
			if _, err := a.next(); err != nil {
				t.Fatalf("hotspot %d: %v", i, err)
			}
		}
		if _, err := a.next(); !errors.Is(err, trace.ErrNoNode) {
			t.Fatalf("a hotspot with no node: %v, want ErrNoNode", err)
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		a := placeAhead(cctx, st, run, hs)
		defer a.stop()
		cancel()
		for range hs {
			if _, err := a.next(); err != nil {
				if !errors.Is(err, context.Canceled) {
					t.Fatalf("cancelled: %v", err)
				}
				return
			}
		}
		t.Fatal("every hotspot placed after the placing was cancelled")
	})
	t.Run("stopped early", func(t *testing.T) {
		a := placeAhead(ctx, st, run, hs)
		a.next()
		a.stop() // returns: the goroutine ends
	})
}

// TestHotspotCauses: the causes counted side by side are each hotspot's
// own, in the list's order, as counted one by one; the error of a list
// with failing hotspots is the first one's.
func TestHotspotCauses(t *testing.T) {
	ctx := context.Background()
	st, _ := tracetest.CreateTrace(t)
	run := tracetest.RecordSearch(t, st, tracetest.Kiwipete, tracetest.VariantOptions(t, "captures"), engine.Limits{Depth: 3})
	r, err := st.Run(ctx, run)
	if err != nil {
		t.Fatal(err)
	}
	hs, err := st.Hotspots(ctx, run, trace.HotspotBySize, 30)
	if err != nil || len(hs) < 10 {
		t.Fatalf("%d hotspots, %v; the test wants 10", len(hs), err)
	}
	got, err := hotspotCauses(ctx, st, r, hs, placeAhead(ctx, st, run, hs))
	if err != nil {
		t.Fatal(err)
	}
	for i, h := range hs {
		pos, err := st.Position(ctx, run, h.Node.ID)
		if err != nil {
			t.Fatal(err)
		}
		want, err := explain.CountAt(ctx, st, r, h.Node, pos)
		if err != nil {
			t.Fatal(err)
		}
		if got[i].line.Node != h.Node.ID || !reflect.DeepEqual(got[i].causes, want.Causes) {
			t.Errorf("hotspot %d (#%d): line of #%d, causes %v; counted alone %v", i, h.Node.ID, got[i].line.Node, got[i].causes, want.Causes)
		}
	}
	bad := append([]trace.Hotspot{}, hs...)
	bad[4].Node.ID, bad[7].Node.ID = 1<<40, 1<<41
	a := placeAhead(ctx, st, run, bad)
	defer a.stop()
	if _, err := hotspotCauses(ctx, st, r, bad, a); !errors.Is(err, trace.ErrNoNode) || !strings.Contains(err.Error(), fmt.Sprint(int64(1<<40))) {
		t.Errorf("hotspots 4 and 7 without nodes: %v, want hotspot 4's ErrNoNode", err)
	}
}
