package export

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
	"github.com/horizonqs/horizon/trace/tracetest"
)

// TestPVUnderRunNode: drawn from the run node, the principal variation
// goes through the root of the iteration the run reports
// (trace.ReportedRoot), not the last root: here a search stopped by its
// node limit inside an iteration it never finished. The diagram, the
// HTML page and the icicle agree.
func TestPVUnderRunNode(t *testing.T) {
	ctx := context.Background()
	w, path := tracetest.CreateTrace(t)
	id := tracetest.RecordSearch(t, w, fixedFEN, tracetest.VariantOptions(t, "see"), engine.Limits{Depth: 9, Nodes: 3000})
	w.Close()
	st := tracetest.Open(t, path)
	run, top := resolve(t, st, Selection{Run: id, Node: 0})
	roots, err := st.Children(ctx, id, 0, trace.BySearch, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := roots[trace.ReportedRoot(run, roots)]
	last := roots[len(roots)-1]
	if want.ID == last.ID || want.Iteration != run.Depth {
		t.Fatalf("want a run stopped inside an iteration: depth %d, last root %d of iteration %d",
			run.Depth, last.ID, last.Iteration)
	}
	onPV := func(what string, ids []int64) {
		t.Helper()
		if len(ids) != 1 || ids[0] != want.ID {
			t.Errorf("%s: roots on the PV %v, want %d (iteration %d of the run's depth %d; the last root is %d)",
				what, ids, want.ID, want.Iteration, run.Depth, last.ID)
		}
	}

	g, err := Build(ctx, st, run, top, Options{MaxNodes: 40, Depth: -1})
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, n := range g.Nodes {
		if n.PV && n.Kind == engine.KindRoot {
			ids = append(ids, n.ID)
		}
	}
	onPV("diagram", ids)

	_, _, d := buildPage(t, st, Selection{Run: id, Node: 0}, HTMLOptions{Depth: -1})
	ids = nil
	nodes := d.Sides[0].Nodes
	for i, pv := range nodes.PV {
		if pv == 1 && engine.NodeKind(nodes.Kind[i]) == engine.KindRoot {
			ids = append(ids, nodes.ID[i])
		}
	}
	onPV("HTML page", ids)

	var svg bytes.Buffer
	if err := WriteIcicle(ctx, st, run, top, IcicleOptions{Depth: -1}, &svg); err != nil {
		t.Fatal(err)
	}
	// The icicle strokes PV nodes black; a node's tooltip gives its id.
	ids = nil
	for _, r := range roots {
		for _, g := range strings.Split(svg.String(), `<g class="node">`) {
			if strings.Contains(g, `stroke="#000000"`) && strings.Contains(g, "id "+strconv.FormatInt(r.ID, 10)+", ") {
				ids = append(ids, r.ID)
			}
		}
	}
	onPV("icicle", ids)
}
