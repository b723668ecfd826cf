package export

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/horizonqs/horizon/compare"
	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/explain"
	"github.com/horizonqs/horizon/trace"
	"github.com/horizonqs/horizon/trace/tracetest"
)

// pageJSON is the data of a page as indented JSON, for the golden files.
func pageJSON(t *testing.T, d *PageData) []byte {
	t.Helper()
	b, err := json.MarshalIndent(d, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

// checkPageData checks a page's data against the trace: every drawn node
// is the trace's node with the FEN of its position, the drawn nodes and
// merged runs under each node account for its whole subtree, and each
// merged run holds only nodes narrower than a pixel.
func checkPageData(t *testing.T, st *trace.Store, d *PageData) {
	t.Helper()
	ctx := context.Background()
	for si, s := range d.Sides {
		c := &s.Nodes
		n := len(c.ID)
		for _, col := range [][]int{c.Parent, c.Kind, c.Ply, c.Depth, c.QSPly, c.Bound, c.Cause, c.PV} {
			if len(col) != n {
				t.Fatalf("side %d: a column has %d entries, want %d", si, len(col), n)
			}
		}
		run, err := st.Run(ctx, s.Run.ID)
		if err != nil {
			t.Fatal(err)
		}
		top := c.Size[0]
		covered := make([]int64, n) // nodes of each subtree drawn or merged below it
		for i := 1; i < n; i++ {
			covered[c.Parent[i]] += c.Size[i]
		}
		for m, p := range s.Merged.Parent {
			covered[p] += s.Merged.Size[m]
			if s.Merged.End[m]-s.Merged.From[m] != s.Merged.Size[m] {
				t.Errorf("side %d: merged run %d: ids [%d, %d) but %d nodes", si, m, s.Merged.From[m], s.Merged.End[m], s.Merged.Size[m])
			}
			if s.Merged.Size[m]*int64(d.Width) >= top*s.Merged.Count[m] && s.Merged.Count[m] == 1 {
				t.Errorf("side %d: merged run %d: one node of %d nodes is a pixel wide", si, m, s.Merged.Size[m])
			}
		}
		for i := 0; i < n; i++ {
			want, err := st.Node(ctx, s.Run.ID, c.ID[i])
			if err != nil {
				t.Fatal(err)
			}
			if want.SubtreeSize != c.Size[i] || int(want.Kind) != c.Kind[i] || want.Score.Signed() != c.Score[i] || int(want.Cause) != c.Cause[i] {
				t.Errorf("side %d: node %d differs from the trace", si, c.ID[i])
			}
			// The page words a cut as the viewer and diff do.
			if want.CutIndex >= 0 && c.CutText[i] != run.CutText(want) {
				t.Errorf("side %d: node %d: cut text %q", si, c.ID[i], c.CutText[i])
			}
			{
				pos, err := st.Position(ctx, s.Run.ID, c.ID[i])
				if err != nil {
					t.Fatal(err)
				}
				if pos.FEN() != c.FEN[i] {
					t.Errorf("side %d: node %d: FEN %s, want %s", si, c.ID[i], c.FEN[i], pos.FEN())
				}
			}
			if kids := covered[i]; kids > c.Size[i]-1 {
				t.Errorf("side %d: node %d: %d nodes drawn or merged below, more than its subtree (%d)", si, c.ID[i], kids, c.Size[i]-1)
			}
		}
	}
}

// TestHTMLMergesAndCovers checks on a whole run that every child of a
// drawn node is either drawn or in a merged run, and that the page is one
// self-contained file.
func TestHTMLMergesAndCovers(t *testing.T) {
	st, _ := fixedTrace(t)
	ctx := context.Background()
	run, top, d := buildPage(t, st, Selection{Node: 0}, HTMLOptions{Width: 800, Depth: -1})
	s := d.Sides[0]
	merged := map[int][]int{}
	for m, p := range s.Merged.Parent {
		merged[p] = append(merged[p], m)
	}
	drawn := map[int64]bool{}
	for _, id := range s.Nodes.ID {
		drawn[id] = true
	}
	for i, id := range s.Nodes.ID {
		kids, err := st.Children(ctx, run.ID, id, trace.BySearch, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range kids {
			in := drawn[k.ID]
			for _, m := range merged[i] {
				if k.ID >= s.Merged.From[m] && k.End() <= s.Merged.End[m] {
					if in {
						t.Errorf("node %d is both drawn and merged", k.ID)
					}
					in = true
				}
			}
			if !in {
				t.Errorf("child %d of node %d is neither drawn nor merged", k.ID, id)
			}
			wide := float64(k.SubtreeSize)*float64(d.Width)/float64(top.SubtreeSize) >= 1
			if wide != drawn[k.ID] {
				t.Errorf("node %d: %d nodes of %d at %d px: drawn %v", k.ID, k.SubtreeSize, top.SubtreeSize, d.Width, drawn[k.ID])
			}
		}
	}
	var page bytes.Buffer
	if err := d.WritePage(&page); err != nil {
		t.Fatal(err)
	}
	p := page.String()
	for _, bad := range []string{"http://", "https://", "<script src", "<link ", "@import", "fetch(", "XMLHttpRequest"} {
		if strings.Contains(strings.ReplaceAll(p, "http://www.w3.org", ""), bad) {
			t.Errorf("the page contains %q: it must fetch nothing", bad)
		}
	}
	if n := strings.Count(p, "</script>"); n != 2 {
		t.Errorf("%d </script> tags, want 2 (the data must not close its script element)", n)
	}
}

// TestHTMLHotspots checks the hotspot lists: QS roots by size, biggest
// first, and extension chains starting at an extended move whose parent
// was not extended.
func TestHTMLHotspots(t *testing.T) {
	st, _ := fixedTrace(t)
	_, _, d := buildPage(t, st, Selection{Node: 0}, HTMLOptions{Width: 4000, Depth: -1, Hotspots: 5})
	s := d.Sides[0]
	c := &s.Nodes
	var qs int
	last := int64(1 << 62)
	for _, h := range s.Hotspots {
		i, p := h.Node, c.Parent[h.Node]
		switch h.What {
		case "qs":
			qs++
			if c.Kind[i] != int(engine.KindQS) || (p >= 0 && c.Kind[p] == int(engine.KindQS)) {
				t.Errorf("hotspot node %d is not a QS root", c.ID[i])
			}
			if h.Size > last {
				t.Errorf("QS hotspots not biggest first")
			}
			last = h.Size
		case "ext":
			if c.Extension[i] == 0 || (p >= 0 && c.Extension[p] > 0) || h.Chain < 1 {
				t.Errorf("hotspot node %d does not start an extension chain", c.ID[i])
			}
		default:
			t.Errorf("hotspot kind %q", h.What)
		}
	}
	if qs != 5 {
		t.Errorf("%d QS hotspots, want 5", qs)
	}
}

// TestGoldenHTMLDiff checks the data of a diff page of two small runs of
// WAC.001 (captures and see, depth 2) and that aligned nodes point at
// each other and are the nodes compare aligns.
func TestGoldenHTMLDiff(t *testing.T) {
	st, _ := recordedTrace(t, "two.horizon", fixedFEN, 2, false, "captures", "see")
	ctx := context.Background()
	a, b := compare.Side{Store: st, Run: 1}, compare.Side{Store: st, Run: 2}
	d, err := BuildDiffPage(ctx, a, b, HTMLOptions{Width: 60, Depth: -1, Hotspots: 5})
	if err != nil {
		t.Fatal(err)
	}
	checkPageData(t, st, d)
	sa, sb := d.Sides[0], d.Sides[1]
	onlyA := 0
	for i, j := range sa.Nodes.Match {
		if j < 0 {
			onlyA++
			continue
		}
		if sb.Nodes.Match[j] != i {
			t.Fatalf("A node %d matches B node %d, which matches %d", sa.Nodes.ID[i], sb.Nodes.ID[j], sb.Nodes.Match[j])
		}
		got, ok, err := compare.Counterpart(ctx, a, sa.Nodes.ID[i], b)
		if err != nil {
			t.Fatal(err)
		}
		if !ok || got.ID != sb.Nodes.ID[j] {
			t.Errorf("A node %d: page matches B node %d, compare says %d (%v)", sa.Nodes.ID[i], sb.Nodes.ID[j], got.ID, ok)
		}
	}
	if onlyA == 0 && len(d.Diff.Items) == 0 {
		t.Errorf("the runs differ but the page shows no difference")
	}
	checkGolden(t, "html-diff-captures-see.json", pageJSON(t, d))
}

// TestHTMLFilteredTrace builds a page of a trace recorded with a filter
// (only the moves under Qg6): the rows the filter left out leave gaps in
// the id ranges, which merged runs must not span.
func TestHTMLFilteredTrace(t *testing.T) {
	ctx := context.Background()
	st := filteredTrace(t)
	run, _, d := buildPage(t, st, Selection{Node: 0}, HTMLOptions{Width: 2000, Depth: -1})
	checkPageData(t, st, d)
	s := d.Sides[0]
	if s.Run.Filter == "" {
		t.Errorf("the page does not name the recording filter")
	}
	for m, p := range s.Merged.Parent {
		// A merged run spans only rows that exist: its ids are the
		// subtrees of the nodes merged, back to back.
		kids, err := st.Children(ctx, run.ID, s.Nodes.ID[p], trace.BySearch, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		var size int64
		for _, k := range kids {
			if k.ID >= s.Merged.From[m] && k.End() <= s.Merged.End[m] {
				size += k.SubtreeSize
			}
		}
		if size != s.Merged.End[m]-s.Merged.From[m] {
			t.Errorf("merged run [%d, %d) under node %d holds %d nodes of children: it spans a gap", s.Merged.From[m], s.Merged.End[m], s.Nodes.ID[p], size)
		}
	}
}

// TestHTMLPageSize holds the page to the size export's help states:
// HTMLPageBytes, then at most HTMLNodeBytes per drawn node or merged run,
// for bushy and narrow trees and for widths that draw few nodes or all.
func TestHTMLPageSize(t *testing.T) {
	st, _ := recordedTrace(t, "size.trace", kiwipete, 2, false, "captures")
	for _, width := range []int{100, 1600, 1 << 20} {
		_, top, d := buildPage(t, st, Selection{Node: 0}, HTMLOptions{Width: width, Depth: -1})
		var page bytes.Buffer
		if err := d.WritePage(&page); err != nil {
			t.Fatal(err)
		}
		s := d.Sides[0]
		drawn := len(s.Nodes.ID) + len(s.Merged.Parent)
		if limit := HTMLPageBytes + HTMLNodeBytes*drawn; page.Len() > limit {
			t.Errorf("width %d: page of %d drawn nodes and merged runs is %d bytes, over the %d the help states",
				width, drawn, page.Len(), limit)
		}
		if script := len(pageCSS) + len(pageJS); script > HTMLPageBytes || script < HTMLPageBytes/2 {
			t.Errorf("script and styles are %d bytes; the help states %d", script, HTMLPageBytes)
		}
		t.Logf("width %d: %d nodes, %d drawn, %d bytes (%.0f per drawn)", width, top.SubtreeSize, drawn, page.Len(),
			float64(page.Len()-HTMLPageBytes)/float64(drawn))
	}
}

// TestPageWordsCutsAsTheEngine: the page shows the data's cut_text
// (trace.Run.CutText) and words no cut of its own ("by move N of <searched>"
// once disagreed with the viewer's "move N of M generated").
func TestPageWordsCutsAsTheEngine(t *testing.T) {
	if !strings.Contains(pageJS, "N.cut_text[i]") || strings.Contains(pageJS, "' by move '") {
		t.Error("page.js words cuts itself instead of showing cut_text")
	}
}

// TestHTMLDiffMergesBAsA: a run's merged runs number the same on either
// side of a diff page. B's children arrive in A's search order, and
// merging them as they came split B's runs at every step back (on one
// pair B drew 40,846 merged runs, 27,442 of them one node, against A's
// 6,423; swapping the runs moved the problem to the new B).
func TestHTMLDiffMergesBAsA(t *testing.T) {
	st, _ := recordedTrace(t, "pair.trace", kiwipete, 3, false, "mvv-lva", "see")
	ctx := context.Background()
	x, y := compare.Side{Store: st, Run: 1}, compare.Side{Store: st, Run: 2}
	opts := HTMLOptions{Width: 500, Depth: -1}
	xy, err := BuildDiffPage(ctx, x, y, opts)
	if err != nil {
		t.Fatal(err)
	}
	yx, err := BuildDiffPage(ctx, y, x, opts)
	if err != nil {
		t.Fatal(err)
	}
	checkPageData(t, st, xy)
	checkPageData(t, st, yx)
	for _, c := range []struct {
		run  string
		a, b *PageSide
	}{{"1", xy.Sides[0], yx.Sides[1]}, {"2", yx.Sides[0], xy.Sides[1]}} {
		na, nb := len(c.a.Merged.Parent), len(c.b.Merged.Parent)
		if na < 20 {
			t.Fatalf("run %s: %d merged runs as A: the test needs more", c.run, na)
		}
		if 10*max(nb-na, na-nb) > na {
			t.Errorf("run %s: %d merged runs as B, %d as A: more than 10%% apart", c.run, nb, na)
		}
		t.Logf("run %s: %d merged runs as A, %d as B", c.run, na, nb)
	}
}

// TestHTMLElsewhere: a page of one iteration names the run's biggest QS
// trees that lie in other iterations, by a place that reads back to each
// (the page left the run's biggest explosion out when it was in another
// iteration than the drawn one); a page of the whole run names none.
func TestHTMLElsewhere(t *testing.T) {
	st, _ := recordedTrace(t, "kiwi.trace", kiwipete, 4, true, "captures")
	ctx := context.Background()
	hs, err := st.Hotspots(ctx, 1, trace.HotspotQS, 1)
	if err != nil || len(hs) != 1 {
		t.Fatalf("hotspots: %v %v", hs, err)
	}
	biggest := hs[0].Node
	roots, err := st.Children(ctx, 1, 0, trace.BySearch, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, root := range roots {
		if root.Contains(biggest.ID) {
			continue
		}
		_, _, d := buildPage(t, st, Selection{Run: 1, Node: root.ID}, HTMLOptions{Depth: 2})
		el := d.Sides[0].Elsewhere
		if len(el) == 0 || el[0].ID != biggest.ID || el[0].Size != biggest.SubtreeSize {
			t.Errorf("the page of iteration %d lists %+v elsewhere, want the run's biggest QS tree %d first", root.Iteration, el, biggest.ID)
			continue
		}
		for _, e := range el {
			if root.Contains(e.ID) {
				t.Errorf("node %d is on the page of iteration %d, listed as elsewhere", e.ID, root.Iteration)
			}
			if !findsBack(t, st, 1, e.ID, e.Place) {
				t.Errorf("elsewhere: %q does not read back to node %d", e.Place, e.ID)
			}
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("every iteration holds the biggest QS tree (the test needs one that does not)")
	}
	if _, _, d := buildPage(t, st, Selection{Run: 1, Node: 0}, HTMLOptions{Depth: 1}); len(d.Sides[0].Elsewhere) != 0 {
		t.Errorf("the page of the whole run lists %+v elsewhere", d.Sides[0].Elsewhere)
	}
}

// TestHTMLCauses: a page's causes are horizon explain's. The top's mix is
// explain.Explain's count of its subtree, cause for cause; every carried
// mix adds up to its node's subtree; and a drawn node whose move has a
// reason lends its whole subtree to that reason in its parent's mix.
func TestHTMLCauses(t *testing.T) {
	st, _ := recordedTrace(t, "kiwi.trace", kiwipete, 3, false, "mvv-lva")
	ctx := context.Background()
	for _, node := range []int64{0, -1} {
		run, top, d := buildPage(t, st, Selection{Run: 1, Node: node}, HTMLOptions{Width: 2000, Depth: -1})
		s := d.Sides[0]
		c := &s.Nodes
		mix := map[int]map[int64]int64{}
		for k, i := range s.CauseMixNode {
			m := map[int64]int64{}
			var sum int64
			for p := 0; p+1 < len(s.CauseMix[k]); p += 2 {
				m[s.CauseMix[k][p]] += s.CauseMix[k][p+1]
				sum += s.CauseMix[k][p+1]
			}
			want := c.Size[i]
			if i == 0 {
				want = top.Nodes()
			}
			if sum != want {
				t.Errorf("node %d: causes count %d nodes, its subtree %d", c.ID[i], sum, want)
			}
			mix[i] = m
		}
		ex, err := explain.Explain(ctx, st, run, top)
		if err != nil {
			t.Fatal(err)
		}
		if len(ex.Causes) == 0 || len(mix[0]) != len(ex.Causes) {
			t.Errorf("top %d: the page counts %v, explain %+v", top.ID, mix[0], ex.Causes)
		}
		for _, cause := range ex.Causes {
			if got := mix[0][int64(cause.Reason)]; got != cause.Nodes {
				t.Errorf("top %d: %s: the page counts %d nodes, explain %d", top.ID, cause.Reason, got, cause.Nodes)
			}
		}
		judged := 0
		for i := 1; i < len(c.ID); i++ {
			r, p := c.Reason[i], c.Parent[i]
			if r < 0 {
				t.Errorf("drawn node %d has no reason", c.ID[i])
				continue
			}
			if r == int(engine.ReasonNecessary) || mix[p] == nil {
				continue
			}
			judged++
			if mix[p][int64(r)] < c.Size[i] {
				t.Errorf("node %d's move is %s, but its parent counts %d nodes under it, fewer than its %d", c.ID[i], engine.Reason(r), mix[p][int64(r)], c.Size[i])
			}
		}
		if judged == 0 {
			t.Errorf("top %d: no drawn move has a reason (the test needs one)", top.ID)
		}
		if c.Reason[0] != -1 {
			t.Errorf("the top's move is judged %d; the page does not judge it", c.Reason[0])
		}
	}
}

// TestPageListsAsQueries: a page whose child lists come from one stream of
// the subtree (readLists) is the page built with a query for each drawn
// node, on whole runs, subtrees, a trace with gaps in its ids (a recording
// filter: rows whose parent has no row are left out with their subtree)
// and damaged files, which both ways refuse.
func TestPageListsAsQueries(t *testing.T) {
	fixed, fixedPath := fixedTrace(t)
	tt, _ := recordedTrace(t, "tt.trace", kiwipete, 2, true, "captures", "threshold")
	cases := []struct {
		name string
		st   *trace.Store
		sel  Selection
		opts HTMLOptions
	}{
		{"last iteration", fixed, Selection{Run: 1, Node: -1}, HTMLOptions{Depth: -1}},
		{"narrow width", fixed, Selection{Run: 1, Node: -1}, HTMLOptions{Depth: -1, Width: 300}},
		{"gaps in the ids", filteredTrace(t), Selection{Run: 1, Node: 0}, HTMLOptions{Depth: -1}},
		{"tt, threshold", tt, Selection{Run: 2, Node: -1}, HTMLOptions{Depth: -1}},
		{"tt, a subtree", tt, Selection{Run: 1, Node: -1, Path: []string{"dxe6"}}, HTMLOptions{Depth: -1}},
		// Rows that name another parent than the node whose range holds
		// them: each is left out with its subtree.
		{"a wrong parent", tracetest.Open(t, tracetest.Damaged(t, fixedPath,
			"UPDATE node_rows SET up = up + 1 WHERE run_id = 1 AND id IN (30, 500, 2000) AND up > 1")), Selection{Run: 1, Node: 0}, HTMLOptions{Depth: -1}},
	}
	both := func(t *testing.T, st *trace.Store, sel Selection, opts HTMLOptions) (listed, queried []byte, errL, errQ error) {
		t.Helper()
		run, top, err := Resolve(context.Background(), st, sel)
		if err != nil {
			t.Fatal(err)
		}
		build := func(max int64) ([]byte, error) {
			defer func(m int64) { listedMaxRows = m }(listedMaxRows)
			listedMaxRows = max
			d, err := BuildPage(context.Background(), st, run, top, opts)
			if err != nil {
				return nil, err
			}
			return json.Marshal(d)
		}
		listed, errL = build(1 << 40)
		queried, errQ = build(0)
		return listed, queried, errL, errQ
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			listed, queried, errL, errQ := both(t, tc.st, tc.sel, tc.opts)
			if errL != nil || errQ != nil {
				t.Fatalf("listed: %v; queried: %v", errL, errQ)
			}
			if !bytes.Equal(listed, queried) {
				t.Errorf("the page read from one stream differs from the page queried node by node (%d and %d bytes)", len(listed), len(queried))
			}
		})
	}
	// A child whose size runs past its parent's range, and one of size 0.
	st := tracetest.Open(t, fixedPath)
	root, err := st.Node(context.Background(), 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	for _, stmt := range []string{
		fmt.Sprintf("UPDATE node_rows SET size = %d WHERE run_id = 1 AND id = 2", root.SubtreeSize),
		"UPDATE node_rows SET size = 0 WHERE run_id = 1 AND id = 3",
	} {
		t.Run(stmt, func(t *testing.T) {
			st := tracetest.Open(t, tracetest.Damaged(t, fixedPath, stmt))
			_, _, errL, errQ := both(t, st, Selection{Run: 1, Node: 0}, HTMLOptions{Depth: -1})
			if !errors.Is(errL, trace.ErrCorrupt) || !errors.Is(errQ, trace.ErrCorrupt) {
				t.Errorf("listed: %v; queried: %v; want both to say the file is damaged", errL, errQ)
			}
		})
	}
}
