package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/horizonqs/horizon/compare"
	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/export"
	"github.com/horizonqs/horizon/foreign/foreigntest"
	"github.com/horizonqs/horizon/trace"
	"github.com/horizonqs/horizon/trace/tracetest"
)

// readBack reads place, a node's place as Horizon prints it ("iteration
// 3: Nxe5 dxe6·1", trace.PlaceText), back as 'export --path' reads it
// (trace.ParsePlace, then export.Resolve: from its iteration's root, or
// the reported iteration's when it names none), and reports what it
// reached when that is not node id.
func readBack(t *testing.T, st *trace.Store, run, id int64, place string) string {
	t.Helper()
	if id == 0 {
		return "" // the run node: no path names it
	}
	root, moves, err := trace.ParsePlace(place)
	if err != nil {
		return err.Error()
	}
	sel := export.Selection{Run: run, Node: -1, Path: moves, Root: namedRoot(root)}
	_, got, err := export.Resolve(context.Background(), st, sel)
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
	st := tracetest.Open(t, file)
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
		// Sampled nodes, as the exports' headings print them.
		stride := max(r.Nodes/150, 1)
		for id := int64(1); id < r.Nodes; id += stride {
			place, err := trace.Place(ctx, side.Store, side.Run, id)
			if err != nil {
				t.Fatal(err)
			}
			check("the place", run, id, place)
		}
		for _, order := range []trace.HotspotOrder{trace.HotspotBySize, trace.HotspotByGrowth} {
			hs, err := hotspotsJSON(ctx, st, run, order, 100)
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range hs {
				check("the hotspot", run, h.Node, h.Place)
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
			place := rep.Place(d.Root(), d.Path, d.Visits, d.Searches)
			switch {
			case d.A != nil && d.PathB != nil:
				check("diff's A place", p[0], d.A.ID, place)
				check("diff's B place", p[1], d.B.ID, rep.Place(d.RootB(), d.PathB, d.VisitsB, d.SearchesB))
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
			place := rep.Place(s.Root(), s.Path, s.Visits, s.Searches)
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

// TestPathNamesItsIteration: a place diff and check print ("iteration 2:
// e4 e5") reads back through --path in that iteration, not the one the
// run reports, where "iteration" was refused as no move; an iteration the
// run lacks, or one given beside --node, is said.
func TestPathNamesItsIteration(t *testing.T) {
	file, _ := traceFile(t, "--fen", "startpos", "--depth", "3", "--qs", "see")
	st := tracetest.Open(t, file)
	ctx := context.Background()
	roots, err := st.Children(ctx, 1, 0, trace.BySearch, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	i, ok := trace.IterationRoot(roots, 2, 0)
	if !ok {
		t.Fatal("the run has no iteration 2")
	}
	kids, err := st.Children(ctx, 1, roots[i].ID, trace.BySearch, 0, 0)
	if err != nil || len(kids) == 0 {
		t.Fatalf("iteration 2's root has no children (%v)", err)
	}
	want := kids[len(kids)-1]
	move := engine.MustParseFEN(engine.StartFEN).SAN(want.Move)
	for _, place := range []string{"iteration 2: " + move, "iteration 2:" + move, "Iteration 2: 1. " + move} {
		code, out, stderr := runCLI(t, "", "export", file, "--path", place, "--format", "json", "--max-nodes", "1")
		if code != 0 || !strings.Contains(out, fmt.Sprintf(`"top": %d`, want.ID)) {
			t.Errorf("export --path %q: exit %d, stderr %q; want node %d at the top", place, code, stderr, want.ID)
		}
	}
	if code, out, _ := runCLI(t, "", "export", file, "--path", "iteration 2: (root)", "--format", "json", "--max-nodes", "1"); code != 0 || !strings.Contains(out, fmt.Sprintf(`"top": %d`, roots[i].ID)) {
		t.Errorf("export --path 'iteration 2: (root)': exit %d; want iteration 2's root %d at the top", code, roots[i].ID)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--path", "iteration 9: " + move}, 1, "the run has no iteration 9 (its iterations: 1, 2, 3)"},
		{[]string{"--path", "iteration two: " + move}, 2, "want an iteration number"},
		{[]string{"--node", "5", "--path", "iteration 2: " + move}, 2, "--node and --path's \"iteration 2\" both say where the path starts"},
	} {
		args := append([]string{"export", file, "--format", "json"}, c.args...)
		code, _, stderr := runCLI(t, "", args...)
		if line, _, _ := strings.Cut(stderr, "\n"); code != c.code || !strings.Contains(line, c.want) {
			t.Errorf("export %q: exit %d, stderr %q; want exit %d, its first line saying %q", c.args, code, stderr, c.code, c.want)
		}
	}
	// view --path reads it too (the viewer's start node).
	if code, _, stderr := runCLI(t, "", "view", file, "--path", "iteration 9: "+move); code != 1 || !strings.Contains(stderr, "no iteration 9") {
		t.Errorf("view --path 'iteration 9: ...': exit %d, stderr %q", code, stderr)
	}
}

// iterationZeroStream is another engine's search that searched QS alone
// under its root (iteration 0) before iterations 1 and 2, as Fairy-Max's
// streams do; its run reports iteration 2. standPat is iteration 0's
// root's stand pat, so that two streams differ there.
func iterationZeroStream(standPat int) string {
	return fmt.Sprintf(`HZT 1
engine Tiny
position startpos
E - 0 -100 100
S %d
E e2e4 -1 -100 100
S -5
L -5
E d2d4 -1 -100 100
S -3
L -3
L %d
E - 1 -100 100
E e2e4 0 -100 100
S -5
E e7e5 -1 -100 100
S 4
L 4
L -4
E d2d4 0 -100 100
S -3
L -3
L 4
E - 2 -100 100
E e2e4 1 -100 100
E e7e5 0 -100 100
S 4
L 4
L -4
E d2d4 1 -100 100
E d7d5 0 -100 100
S 2
L 2
L -2
L 4
end best=e2e4
`, standPat, max(standPat, 5))
}

// TestIterationZeroReadsBack: in a run whose iteration 0 (QS alone under
// the root) has later iterations, "iteration 0: e4" names iteration 0's
// node, where the prefix's 0 read as no iteration and led into the
// reported iteration; a bare path still starts there. Every place printed
// of such a run (each node's, as the exports' headings print it, the
// hotspots', diff's) names iteration 0 and reads back: they
// printed iteration 0's places bare, and hotspots printed none's.
func TestIterationZeroReadsBack(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "z.trace")
	for i, sp := range []int{10, 30} {
		in := writeFile(t, fmt.Sprintf("z%d.hzt", i), iterationZeroStream(sp))
		if code, _, stderr := runCLI(t, "", "import", in, "-o", file); code != 0 {
			t.Fatalf("import: exit %d: %s", code, stderr)
		}
	}
	st := tracetest.Open(t, file)
	ctx := context.Background()
	roots, err := st.Children(ctx, 1, 0, trace.BySearch, 0, 0)
	if err != nil || len(roots) != 3 || roots[0].Iteration != 0 {
		t.Fatalf("roots %+v (%v): want iterations 0, 1, 2", roots, err)
	}
	zero, err := st.Children(ctx, 1, roots[0].ID, trace.BySearch, 0, 0)
	if err != nil || len(zero) == 0 {
		t.Fatalf("iteration 0's root has no children (%v)", err)
	}
	reported, err := st.Find(ctx, 1, 0, []string{"e4"})
	if err != nil || reported.Iteration != 2 {
		t.Fatalf("e4 from the run node: node %+v, %v; want iteration 2's", reported, err)
	}
	for place, want := range map[string]int64{"iteration 0: e4": zero[0].ID, "e4": reported.ID, "iteration 0: (root)": roots[0].ID} {
		if got := readBack(t, st, 1, want, place); got != "" {
			t.Errorf("%q reads back to %s, want node %d", place, got, want)
		}
	}
	checked := 0
	check := func(what string, run, id int64, place string) {
		t.Helper()
		checked++
		if got := readBack(t, st, run, id, place); got != "" {
			t.Errorf("run %d: %s of node %d prints %q, which reads back to %s", run, what, id, place, got)
		}
	}
	r, err := st.Run(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	side := compare.Side{Store: st, Run: 1}
	for id := int64(1); id < r.Rows; id++ {
		place, err := trace.Place(ctx, side.Store, side.Run, id)
		if err != nil {
			t.Fatal(err)
		}
		check("the place", 1, id, place)
	}
	hs, err := hotspotsJSON(ctx, st, 1, trace.HotspotBySize, 100)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hs {
		check("the hotspot", 1, h.Node, h.Place)
	}
	rep, err := compare.Align(ctx, side, compare.Side{Store: st, Run: 2}, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.First == nil || rep.First.Iteration != 0 || rep.First.A == nil {
		t.Fatalf("the runs' first difference is not in iteration 0: %+v", rep.First)
	}
	f := rep.First
	check("diff's first difference", 1, f.A.ID, rep.Place(f.Root(), f.Path, f.Visits, f.Searches))
	check("diff's first difference", 2, f.B.ID, rep.Place(f.Root(), f.Path, f.Visits, f.Searches))
	if !strings.HasPrefix(rep.Place(f.Root(), f.Path, f.Visits, f.Searches), "iteration 0: ") {
		t.Errorf("diff places iteration 0's node %q", rep.Place(f.Root(), f.Path, f.Visits, f.Searches))
	}
	t.Logf("%d places of a run with an iteration 0 read back", checked)
}

// TestAspirationRootsReadBack: in a run that searched an iteration twice
// (an aspiration re-search), a node under the first root prints its place
// with the root's visit ("iteration 2·1: e4 e5"), which reads back to it;
// "iteration 2: e4 e5" read back into the last root (export said "move 1
// (e4) was not searched at node 10"). Every place of the run (trace.Place:
// hotspots', the headings'), check's and diff's read back.
func TestAspirationRootsReadBack(t *testing.T) {
	file := filepath.Join(t.TempDir(), "asp.trace")
	for i, stream := range []string{foreigntest.AspirationStream(true), foreigntest.AspirationStream(false), foreigntest.QSTwiceStream} {
		in := writeFile(t, fmt.Sprintf("asp%d.hzt", i), stream)
		if code, _, stderr := runCLI(t, "", "import", in, "-o", file); code != 0 {
			t.Fatalf("import: exit %d: %s", code, stderr)
		}
	}
	st := tracetest.Open(t, file)
	ctx := context.Background()
	side := compare.Side{Store: st, Run: 1}
	check := func(what string, run, id int64, place string) {
		t.Helper()
		if got := readBack(t, st, run, id, place); got != "" {
			t.Errorf("run %d: %s of node %d prints %q, which reads back to %s", run, what, id, place, got)
		}
	}
	// Every node's place, in the aspiration run and in the run that
	// searched QS alone twice (which printed bare places, read in its
	// second root).
	for run, first := range map[int64]string{1: "iteration 2" + trace.VisitSep + "1: ", 3: "iteration 0" + trace.VisitSep + "1: "} {
		r, err := st.Run(ctx, run)
		if err != nil {
			t.Fatal(err)
		}
		marked := 0
		for id := int64(1); id < r.Rows; id++ {
			place, err := trace.Place(ctx, st, run, id)
			if err != nil {
				t.Fatal(err)
			}
			check("the place", run, id, place)
			if strings.HasPrefix(place, first) {
				marked++
			}
		}
		if marked == 0 {
			t.Errorf("run %d: no place begins %q (the test needs one)", run, first)
		}
	}
	// An export's heading names a root by its visit, and picking one
	// with --path says nothing of a root "the run reports".
	code, out, errOut := runCLI(t, "", "export", file, "--run", "1", "--path", "iteration 2"+trace.VisitSep+"1:", "--format", "dot")
	if code != 0 || !strings.Contains(out, "(root of iteration 2"+trace.VisitSep+"1)") || strings.Contains(errOut, "the run reports") {
		t.Errorf("export --path 'iteration 2·1:': exit %d, heading and notes:\n%.600s\n%s", code, out, errOut)
	}
	hs, err := hotspotsJSON(ctx, st, 1, trace.HotspotBySize, 100)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hs {
		check("the hotspot", 1, h.Node, h.Place)
	}
	var reps []checkedRunJSON
	_, out, _ = runCLI(t, "", "check", file, "--run", "1", "--json") // exit 1: it finds violations
	if err := json.Unmarshal([]byte(out), &reps); err != nil || len(reps) != 1 || len(reps[0].Violations) == 0 {
		t.Fatalf("check --json: %+v (the stream's first root of iteration 2 has a score below its stand pat)", reps)
	}
	for _, v := range reps[0].Violations {
		check("check's violation", 1, v.Node, v.Place)
	}
	rep, err := compare.Align(ctx, side, compare.Side{Store: st, Run: 2}, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	places := 0
	for _, d := range append([]compare.Difference{*rep.First}, rep.ChangedNodes...) {
		for run, ref := range map[int64]*compare.NodeRef{1: d.A, 2: d.B} {
			if ref != nil && d.PathB == nil {
				check("diff's difference", run, ref.ID, rep.Place(d.Root(), d.Path, d.Visits, d.Searches))
				places++
			}
		}
	}
	for _, s := range rep.Top {
		for run, id := range map[int64]*int64{1: s.IDA, 2: s.IDB} {
			if id != nil {
				check("diff's subtree", run, *id, rep.Place(s.Root(), s.Path, s.Visits, s.Searches))
				places++
			}
		}
	}
	if places == 0 {
		t.Error("diff placed no node (the test needs one)")
	}
}

// TestQSOnlyPlaceIsBare: a run of QS alone (--qs-only) has no iteration
// to name: its places print bare, as before, and read back.
func TestQSOnlyPlaceIsBare(t *testing.T) {
	file, _ := traceFile(t, "--fen", kiwipete, "--qs-only", "--qs", "see")
	st := tracetest.Open(t, file)
	ctx := context.Background()
	hs, err := hotspotsJSON(ctx, st, 1, trace.HotspotBySize, 20)
	if err != nil || len(hs) == 0 {
		t.Fatalf("hotspots: %d, %v", len(hs), err)
	}
	for _, h := range hs {
		if strings.Contains(h.Place, "iteration") {
			t.Errorf("node %d: a QS-only run's place names an iteration: %q", h.Node, h.Place)
		}
		if got := readBack(t, st, 1, h.Node, h.Place); got != "" {
			t.Errorf("node %d: %q reads back to %s", h.Node, h.Place, got)
		}
	}
}
