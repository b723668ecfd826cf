package main

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/horizonqs/horizon/compare"
	"github.com/horizonqs/horizon/trace"
)

// readBack reads place, a path as placeText prints it ("iteration 3:
// Nxe5 dxe6·1"), back through trace.Find, as 'export --path' and 'view
// --path' read it, from the root of node id's iteration in run, and
// reports what it reached when that is not node id.
func readBack(t *testing.T, st *trace.Store, run, id int64, place string) string {
	t.Helper()
	ctx := context.Background()
	path, err := st.Path(ctx, run, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(path) < 2 {
		return "" // the run node: no path names it
	}
	if _, rest, ok := strings.Cut(place, ": "); ok && strings.HasPrefix(place, "iteration ") {
		place = rest
	}
	var moves []string
	if place != "(root)" {
		moves = strings.Fields(place)
	}
	got, err := st.Find(ctx, run, path[1].ID, moves)
	switch {
	case err != nil:
		return err.Error()
	case got.ID != id:
		return fmt.Sprintf("node %d", got.ID)
	}
	return ""
}

// TestPrintedPathsReadBack: every path Horizon prints leads back to the
// node it names. A move searched more than once under one node (a PVS
// re-search, a threshold level pass, the unified search's internal
// iterations) reads bare as its last search, so a first search with later
// ones prints "·1": it printed bare, and on Kiwipete at depth 5, 251 of
// 1,367 sampled captures nodes (534 of 1,942 threshold) led to another
// node. Checked here on sampled nodes and on every hotspot (hotspots,
// trace's summary) and every place diff prints, for four presets.
func TestPrintedPathsReadBack(t *testing.T) {
	file, _ := traceFile(t, "--fen", kiwipete, "--depth", "3", "--qs", "captures,threshold,unified,see")
	st, err := trace.OpenReadOnly(file)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	checked, first := 0, 0
	check := func(what string, run, id int64, place string) {
		t.Helper()
		checked++
		if strings.Contains(place, trace.VisitSep+"1") {
			first++
		}
		if got := readBack(t, st, run, id, place); got != "" {
			t.Errorf("run %d: %s of node %d prints %q, which reads back to %s", run, what, id, place, got)
		}
	}
	for run := int64(1); run <= 4; run++ {
		side := compare.Side{Store: st, Run: run}
		r, err := st.Run(ctx, run)
		if err != nil {
			t.Fatal(err)
		}
		// Sampled nodes, as hotspots and the exports' headings print them.
		stride := max(r.Nodes/150, 1)
		for id := int64(1); id < r.Nodes; id += stride {
			san, err := st.PathSAN(ctx, run, id)
			if err != nil {
				t.Fatal(err)
			}
			visits, searches, err := compare.Visits(ctx, side, id)
			if err != nil {
				t.Fatal(err)
			}
			check("the path", run, id, placeText(0, san, visits, searches))
		}
		for _, order := range []trace.HotspotOrder{trace.HotspotBySize, trace.HotspotByGrowth} {
			hs, err := hotspotsJSON(ctx, st, run, order, 100)
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range hs {
				check("the hotspot", run, h.Node, placeText(0, h.Path, h.Visits, h.Searches))
			}
		}
	}
	// diff's places name the node in both runs (B's own where it is
	// another node).
	for _, p := range [][2]int64{{1, 2}, {2, 1}, {2, 3}, {1, 4}} {
		a, b := compare.Side{Store: st, Run: p[0]}, compare.Side{Store: st, Run: p[1]}
		rep, err := compare.Align(ctx, a, b, compare.Options{Top: 50, Changed: 50})
		if err != nil {
			t.Fatal(err)
		}
		diffs := append([]compare.Difference{}, rep.ChangedNodes...)
		if rep.First != nil {
			diffs = append(diffs, *rep.First)
		}
		for _, d := range diffs {
			place := placeText(d.Iteration, d.Path, d.Visits, d.Searches)
			switch {
			case d.A != nil && d.PathB != nil:
				check("diff's A place", p[0], d.A.ID, place)
				check("diff's B place", p[1], d.B.ID, placeText(d.Iteration, d.PathB, d.VisitsB, d.SearchesB))
			case d.A != nil && d.B != nil:
				check("diff's place", p[0], d.A.ID, place)
				check("diff's place", p[1], d.B.ID, place)
			case d.A != nil:
				check("diff's place", p[0], d.A.ID, place)
			case d.B != nil:
				check("diff's place", p[1], d.B.ID, place)
			}
		}
		for _, s := range rep.Top {
			place := placeText(s.Iteration, s.Path, s.Visits, s.Searches)
			if s.IDA != nil {
				check("diff's subtree", p[0], *s.IDA, place)
			}
			if s.IDB != nil {
				check("diff's subtree", p[1], *s.IDB, place)
			}
		}
	}
	if first == 0 {
		t.Errorf("none of %d paths marks a first search ·1: the test needs one", checked)
	}
	t.Logf("%d printed paths read back, %d with a ·1", checked, first)
}
