package explain

import (
	"context"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
	"github.com/horizonqs/horizon/trace/tracetest"
)

// options is a preset with switches set on top ("see-prune=true"), the
// hash table off so that trees are reproducible.
func options(tb testing.TB, preset string, sets ...string) engine.Options {
	tb.Helper()
	o := tracetest.VariantOptions(tb, preset)
	for _, kv := range sets {
		k, v, _ := strings.Cut(kv, "=")
		if err := o.Set(k, v); err != nil {
			tb.Fatal(err)
		}
	}
	return o
}

// recordQS records the quiescence search of fen alone (a QS-only run, as
// 'horizon trace --qs-only' records one) and returns its run id.
func recordQS(tb testing.TB, st *trace.Store, fen string, o engine.Options) int64 {
	tb.Helper()
	pos, err := engine.ParseFEN(fen)
	if err != nil {
		tb.Fatal(err)
	}
	rec, err := st.NewRecorder(context.Background(), trace.RunInfo{FEN: fen, Variant: o.Variant, Options: o.JSON(),
		Limits: `{"qs_only":true}`, Version: "test"}, trace.RecordOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	q := engine.NewSearcher(o).Quiesce(rec.Context(), pos, -engine.Infinity, engine.Infinity, engine.Limits{}, rec)
	if err := rec.Finish(trace.Result{Score: q.Score}); err != nil {
		tb.Fatal(err)
	}
	return rec.RunID()
}

// explainNode explains node id of run.
func explainNode(tb testing.TB, st *trace.Store, run, id int64) *Subtree {
	tb.Helper()
	ctx := context.Background()
	r, err := st.Run(ctx, run)
	if err != nil {
		tb.Fatal(err)
	}
	top, err := st.Node(ctx, run, id)
	if err != nil {
		tb.Fatal(err)
	}
	res, err := Explain(ctx, st, r, top)
	if err != nil {
		tb.Fatal(err)
	}
	return res
}

// mass is the nodes res counts under reason r.
func mass(res *Subtree, r engine.Reason) int64 {
	for _, c := range res.Causes {
		if c.Reason == r {
			return c.Nodes
		}
	}
	return 0
}

// checkSums checks that res's causes add up to its nodes and to 100%.
func checkSums(t *testing.T, what string, res *Subtree) {
	t.Helper()
	var n int64
	var share float64
	for _, c := range res.Causes {
		n += c.Nodes
		share += c.Share
	}
	if n != res.Nodes || math.Abs(share-1) > 1e-9 {
		t.Errorf("%s: causes sum to %d nodes and %.6f, want %d and 1", what, n, share, res.Nodes)
	}
}

// TestCauseMassMatchesSwitch plants each cause a switch removes and finds
// it: the first run's mass under the cause is within 15% of the nodes the
// second run, with the switch that removes it, saves. A node is counted
// under the first cause on its path, so the relation holds where the
// switch's nodes seldom lie under an earlier cause: QS-only runs for the
// QS rules; for delta pruning, runs that prune losing captures both (else
// most futile captures are losing ones first) and search full width to
// depth 3, where few futile captures lie under a late cutoff (QS-only runs
// from the bench positions give 1,713 futile nodes for a saving of 4,257:
// most of the saving is under late cutoffs, and delta's fail-soft bounds
// move the windows); for the check extension, shallow searches of the
// bench positions (at depth 4 on Kiwipete most extended moves are late
// cutoffs or re-searches first: 2,324 extension nodes, 15,239 saved). The
// causes no switch removes alone are tested where planted
// (TestCausePlanted).
func TestCauseMassMatchesSwitch(t *testing.T) {
	st, _ := tracetest.CreateTrace(t)
	tests := []struct {
		reason engine.Reason
		fens   []string
		a, b   engine.Options
		depth  int // full-width depth; 0: QS-only runs
	}{
		{engine.ReasonLosingCapture, []string{tracetest.Kiwipete}, options(t, "mvv-lva"), options(t, "mvv-lva", "see-prune=true"), 0},
		{engine.ReasonQuietCheck, tracetest.BenchFENs(t, 40), options(t, "see"), options(t, "see", "qs-checks=false"), 0},
		{engine.ReasonFutileCapture, []string{tracetest.Kiwipete}, options(t, "mvv-lva", "see-prune=true"), options(t, "mvv-lva", "see-prune=true", "delta=true"), 3},
		{engine.ReasonExtension, tracetest.BenchFENs(t, 20), options(t, "captures"), options(t, "captures", "check-ext=false"), 2},
	}
	for _, tc := range tests {
		t.Run(tc.reason.String(), func(t *testing.T) {
			var m, na, nb int64
			for _, fen := range tc.fens {
				var ra, rb int64
				if tc.depth == 0 {
					ra, rb = recordQS(t, st, fen, tc.a), recordQS(t, st, fen, tc.b)
				} else {
					lim := engine.Limits{Depth: tc.depth}
					ra, rb = tracetest.RecordSearch(t, st, fen, tc.a, lim), tracetest.RecordSearch(t, st, fen, tc.b, lim)
				}
				ea, eb := explainNode(t, st, ra, 0), explainNode(t, st, rb, 0)
				checkSums(t, fen, ea)
				m, na, nb = m+mass(ea, tc.reason), na+ea.Nodes, nb+eb.Nodes
			}
			diff := na - nb
			t.Logf("%s mass %d, the switch saves %d nodes (%d -> %d)", tc.reason, m, diff, na, nb)
			if diff <= 0 || math.Abs(float64(m-diff)) > 0.15*float64(diff) {
				t.Errorf("%s mass %d, the switch saves %d nodes (%d -> %d): want within 15%%", tc.reason, m, diff, na, nb)
			}
		})
	}
}

// TestCauseGoneWithSwitch: a run whose switch removes a cause has none of
// it (the rules are the engine's own, so a pruned move is never counted),
// and the run without the switch has some, its example a node whose move
// has the cause.
func TestCauseGoneWithSwitch(t *testing.T) {
	st, _ := tracetest.CreateTrace(t)
	ctx := context.Background()
	lim := engine.Limits{Depth: 4}
	tests := []struct {
		reason engine.Reason
		with   engine.Options
		gone   engine.Options
		// holds checks the example's move has the cause.
		holds func(pos *engine.Position, parent, n trace.Node) bool
	}{
		{engine.ReasonLosingCapture, options(t, "mvv-lva"), options(t, "mvv-lva", "see-prune=true"),
			func(p *engine.Position, _, n trace.Node) bool { return p.SEELoses(n.Move) }},
		{engine.ReasonFutileCapture, options(t, "mvv-lva"), options(t, "mvv-lva", "delta=true"),
			func(p *engine.Position, _, n trace.Node) bool { return p.IsCapture(n.Move) }},
		{engine.ReasonQuietCheck, options(t, "see"), options(t, "see", "qs-checks=false"),
			func(p *engine.Position, _, n trace.Node) bool { return !p.IsCapture(n.Move) && p.GivesCheck(n.Move) }},
		{engine.ReasonEvasion, options(t, "see"), options(t, "see", "qs-evasions=false"),
			func(p *engine.Position, parent, _ trace.Node) bool {
				return p.InCheck() && parent.Kind == engine.KindQS
			}},
		{engine.ReasonReSearch, options(t, "mvv-lva"), options(t, "mvv-lva", "pvs=false"),
			func(p *engine.Position, parent, n trace.Node) bool { return n.ID > parent.ID+1 }},
		{engine.ReasonExtension, options(t, "captures"), options(t, "captures", "check-ext=false"),
			func(p *engine.Position, _, n trace.Node) bool { return n.Extension > 0 }},
	}
	for _, tc := range tests {
		t.Run(tc.reason.String(), func(t *testing.T) {
			with := tracetest.RecordSearch(t, st, tracetest.Kiwipete, tc.with, lim)
			gone := tracetest.RecordSearch(t, st, tracetest.Kiwipete, tc.gone, lim)
			ew, eg := explainNode(t, st, with, 0), explainNode(t, st, gone, 0)
			checkSums(t, "with", ew)
			checkSums(t, "gone", eg)
			if m := mass(eg, tc.reason); m != 0 {
				t.Errorf("%s counts %d nodes under %s, which it leaves out", tc.gone.Variant, m, tc.reason)
			}
			if mass(ew, tc.reason) == 0 {
				t.Fatalf("%s counts no node under %s", tc.with.Variant, tc.reason)
			}
			var ex Cause
			for _, c := range ew.Causes {
				if c.Reason == tc.reason {
					ex = c
				}
			}
			n, err := st.Node(ctx, with, ex.Example)
			if err != nil {
				t.Fatal(err)
			}
			parent, err := st.Node(ctx, with, n.Parent)
			if err != nil {
				t.Fatal(err)
			}
			pos, err := st.Position(ctx, with, parent.ID)
			if err != nil {
				t.Fatal(err)
			}
			if !tc.holds(pos, parent, n) {
				t.Errorf("example node %d (%s) has no %s", n.ID, ex.Place, tc.reason)
			}
			if ex.Place == "" {
				t.Errorf("example node %d has no place", n.ID)
			}
		})
	}
}

// TestShape checks the shape's counts against the trace's own: the QS
// nodes and trees of the whole run, the plies' sum, the verdict's rule.
func TestShape(t *testing.T) {
	st, _ := tracetest.CreateTrace(t)
	ctx := context.Background()
	run := tracetest.RecordSearch(t, st, tracetest.Kiwipete, options(t, "mvv-lva"), engine.Limits{Depth: 3})
	res := explainNode(t, st, run, 0)
	stats, err := st.Stats(ctx, run)
	if err != nil {
		t.Fatal(err)
	}
	if res.Nodes != stats.Nodes || res.Shape.QSNodes != stats.QSNodes || res.Shape.QSTrees != stats.QSRoots || res.Shape.MaxQSPly != stats.MaxQSPly {
		t.Errorf("explain: %d nodes, %d QS, %d QS trees, max QS ply %d; stats: %d, %d, %d, %d", res.Nodes, res.Shape.QSNodes,
			res.Shape.QSTrees, res.Shape.MaxQSPly, stats.Nodes, stats.QSNodes, stats.QSRoots, stats.MaxQSPly)
	}
	var sum int64
	for _, l := range res.Shape.Plies {
		sum += l.Nodes
	}
	if sum != res.Nodes {
		t.Errorf("plies sum to %d, want %d", sum, res.Nodes)
	}
	hs, err := st.Hotspots(ctx, run, trace.HotspotQS, 1)
	if err != nil || len(hs) == 0 {
		t.Fatalf("hotspots: %v %v", hs, err)
	}
	if res.Shape.BiggestQSTree != hs[0].Node.ID {
		t.Errorf("biggest QS tree %d, hotspots say %d", res.Shape.BiggestQSTree, hs[0].Node.ID)
	}
	// The biggest QS tree explained alone is one tree: deep.
	qs := explainNode(t, st, run, hs[0].Node.ID)
	if qs.Shape.QSTrees != 1 || qs.Shape.Verdict != VerdictDeep || qs.Shape.Plies != nil || qs.Nodes != hs[0].Node.SubtreeSize {
		t.Errorf("QS tree %d: %d trees, verdict %s, plies %v, %d nodes", hs[0].Node.ID, qs.Shape.QSTrees, qs.Shape.Verdict, qs.Shape.Plies, qs.Nodes)
	}
	checkSums(t, "QS tree", qs)
	for _, tc := range []struct {
		biggest, qs int64
		want        string
	}{{5, 10, VerdictDeep}, {4, 10, VerdictBroad}, {0, 0, VerdictNoQS}} {
		if got := Verdict(tc.biggest, tc.qs); got != tc.want {
			t.Errorf("Verdict(%d, %d) = %s, want %s", tc.biggest, tc.qs, got, tc.want)
		}
	}
}

// TestCausePlanted finds the causes no one switch removes alone, each
// where it is planted, against counts made here from the records without
// explain's walk:
//   - underpromotion: no switch leaves underpromotions out of QS. A pawn
//     about to promote, a QS-only run: the mass is exactly the subtrees of
//     the root's underpromotions (nothing else can underpromote).
//   - evasion: nothing removes an evasion (qs-evasions false stands pat
//     instead, another search); explain says how many nodes: below a QS
//     node in check every node is under evasion, and the node searched
//     its legal moves.
//   - transposition: the hash table in QS (tt, unified alone) also orders
//     moves and bootstraps depths, so its saving is no measure (a QS-only
//     unified run on the bench positions counts 33,558 transposition nodes
//     against 61,745 saved). The biggest example is a position searched
//     earlier in the subtree, by a node done before it, as deep or deeper.
func TestCausePlanted(t *testing.T) {
	st, _ := tracetest.CreateTrace(t)
	ctx := context.Background()
	kids := func(run, id int64) []trace.Node {
		t.Helper()
		k, err := st.Children(ctx, run, id, trace.BySearch, 0, -1)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	t.Run("underpromotion", func(t *testing.T) {
		run := recordQS(t, st, "r7/1P6/8/8/8/8/k7/4K3 w - - 0 1", options(t, "mvv-lva"))
		res := explainNode(t, st, run, 0)
		checkSums(t, "underpromotion", res)
		root := kids(run, 0)[0]
		var want int64
		var under int
		for _, k := range kids(run, root.ID) {
			if k.Move.IsUnderpromotion() {
				want += k.SubtreeSize
				under++
			}
		}
		if under != 6 { // b8 and bxa8 to a knight, a bishop or a rook
			t.Fatalf("%d underpromotions searched, want 6", under)
		}
		if got := mass(res, engine.ReasonUnderpromotion); got != want {
			t.Errorf("underpromotion mass %d, the underpromotions' subtrees hold %d", got, want)
		}
	})
	t.Run("evasion", func(t *testing.T) {
		// Every QS node in check of a search with qs-evasions, explained
		// alone: all below it is evasion (an evasion is never pruned, and
		// comes before a late cutoff in the table), and it searched its
		// legal moves, all of them where it did not cut.
		o := options(t, "see")
		run := tracetest.RecordSearch(t, st, tracetest.Kiwipete, o, engine.Limits{Depth: 3})
		nodes, all := 0, 0
		err := st.Subtree(ctx, run, 0, -1, func(n trace.Node) error {
			if n.Kind != engine.KindQS || !n.InCheck || n.SubtreeSize < 2 || nodes >= 40 {
				return nil
			}
			nodes++
			res := explainNode(t, st, run, n.ID)
			checkSums(t, "evasion", res)
			if got := mass(res, engine.ReasonEvasion); got != n.SubtreeSize-1 {
				t.Errorf("node %d in check: evasion mass %d, its subtree below holds %d", n.ID, got, n.SubtreeSize-1)
			}
			pos, err := st.Position(ctx, run, n.ID)
			if err != nil {
				return err
			}
			k, legal := len(kids(run, n.ID)), len(pos.LegalMoves())
			if k > legal || n.CutIndex < 0 && k != legal {
				t.Errorf("node %d in check: %d evasions searched of %d legal moves, cut index %d", n.ID, k, legal, n.CutIndex)
			}
			if k == legal && k > 1 {
				all++
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if nodes == 0 || all == 0 {
			t.Fatalf("%d QS nodes in check, %d searching every legal move: want some", nodes, all)
		}
		t.Logf("%d QS nodes in check, %d searched all their legal moves", nodes, all)
	})
	t.Run("transposition", func(t *testing.T) {
		run := recordQS(t, st, tracetest.Kiwipete, options(t, "mvv-lva"))
		res := explainNode(t, st, run, 0)
		checkSums(t, "transposition", res)
		var ex Cause
		for _, c := range res.Causes {
			if c.Reason == engine.ReasonTransposition {
				ex = c
			}
		}
		if ex.Nodes == 0 {
			t.Fatal("no transposition counted")
		}
		n, err := st.Node(ctx, run, ex.Example)
		if err != nil {
			t.Fatal(err)
		}
		pos, err := st.Position(ctx, run, n.ID)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		err = st.Subtree(ctx, run, 0, -1, func(e trace.Node) error {
			if found || e.Parent < 0 || e.End() > n.ID || e.Depth < n.Depth {
				return nil // not done before n, or shallower
			}
			p, err := st.Position(ctx, run, e.ID)
			if err != nil {
				return err
			}
			found = p.Key() == pos.Key() && p.FEN() == pos.FEN()
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !found {
			t.Errorf("example node %d (%s): no node done before it searched its position %s", n.ID, ex.Place, pos.FEN())
		}
	})
}

// TestCausesOfSearchOrder checks late-cutoff and re-search, the causes the
// order of a node's children gives (no switch removes them alone: the
// qs-order that orders better, or pvs false, changes every window of the
// search; on the bench positions tutorial ordering's 79,543 late-cutoff
// nodes against mvv-lva's QS-only runs save 21,922), at full-width nodes
// of a search with PVS, explained alone, against the rule applied here to
// the records: a child searched before the move that cut its node, which
// failed high, is a late cutoff; a later visit of a move the node searched
// before is a re-search; either's whole subtree counts so. A child with
// neither counts itself as something else, and at most what is below it
// under the cause.
func TestCausesOfSearchOrder(t *testing.T) {
	st, _ := tracetest.CreateTrace(t)
	ctx := context.Background()
	run := tracetest.RecordSearch(t, st, tracetest.Kiwipete, options(t, "mvv-lva"), engine.Limits{Depth: 4})
	checked := map[engine.Reason]int{}
	err := st.Subtree(ctx, run, 0, -1, func(n trace.Node) error {
		if n.Parent < 0 || n.Kind == engine.KindQS || n.Kind == engine.KindRoot {
			return nil
		}
		kids, err := st.Children(ctx, run, n.ID, trace.BySearch, 0, -1)
		if err != nil {
			return err
		}
		var lo, hi [engine.NumReasons]int64
		var seen []engine.Move
		for _, k := range kids {
			own := engine.ReasonNecessary
			switch {
			case n.CutIndex >= 0 && n.Best != engine.NoMove && n.Bound == engine.BoundLower && k.Move != n.Best:
				own = engine.ReasonLateCutoff
			case slices.Contains(seen, k.Move):
				own = engine.ReasonReSearch
			}
			seen = append(seen, k.Move)
			for _, r := range []engine.Reason{engine.ReasonLateCutoff, engine.ReasonReSearch} {
				if own == r {
					lo[r] += k.SubtreeSize
					hi[r] += k.SubtreeSize
				} else if own == engine.ReasonNecessary {
					hi[r] += k.SubtreeSize - 1
				}
			}
		}
		var res *Subtree
		for _, r := range []engine.Reason{engine.ReasonLateCutoff, engine.ReasonReSearch} {
			if lo[r] == 0 || checked[r] >= 20 {
				continue
			}
			if res == nil {
				res = explainNode(t, st, run, n.ID)
			}
			checked[r]++
			if m := mass(res, r); m < lo[r] || m > hi[r] {
				t.Errorf("node %d: %s mass %d, want %d to %d", n.ID, r, m, lo[r], hi[r])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []engine.Reason{engine.ReasonLateCutoff, engine.ReasonReSearch} {
		if checked[r] == 0 {
			t.Errorf("no node with a %s found", r)
		}
	}
	t.Logf("nodes checked: %v late cutoffs, %v re-searches", checked[engine.ReasonLateCutoff], checked[engine.ReasonReSearch])
}

// TestMoveReason: the reason MoveReason gives a node's move is the one
// Explain gives the node's subtree at its parent: explained at the
// parent, the child's whole subtree is under it (a late cutoff or a
// re-search, whose subtrees the rules give whole), or the child's own
// reason is necessary and then it is not all under one cause it lacks.
func TestMoveReason(t *testing.T) {
	st, _ := tracetest.CreateTrace(t)
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		run  int64
	}{
		{"full width", tracetest.RecordSearch(t, st, tracetest.Kiwipete, options(t, "see"), engine.Limits{Depth: 2})},
		{"QS", recordQS(t, st, tracetest.Kiwipete, options(t, "mvv-lva"))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := st.Run(ctx, tc.run)
			if err != nil {
				t.Fatal(err)
			}
			seen := map[engine.Reason]int{}
			checked := 0
			err = st.Subtree(ctx, tc.run, 0, -1, func(n trace.Node) error {
				if n.Parent <= 0 || n.ID%7 != 0 || checked >= 150 {
					return nil // a sample of the run's nodes
				}
				checked++
				got, err := MoveReason(ctx, st, r, n)
				if err != nil {
					return err
				}
				seen[got]++
				// The parent's subtree explained: n's rows all under got
				// when got is a cause; n's own row necessary otherwise.
				parent, err := st.Node(ctx, tc.run, n.Parent)
				if err != nil {
					return err
				}
				if parent.SubtreeSize > 1000 {
					return nil
				}
				res, err := Explain(ctx, st, r, parent)
				if err != nil {
					return err
				}
				if got != engine.ReasonNecessary && mass(res, got) < n.SubtreeSize {
					t.Errorf("node %d: MoveReason %s, but its parent's %s mass %d is less than its %d nodes", n.ID, got, got, mass(res, got), n.SubtreeSize)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(seen) < 2 {
				t.Errorf("reasons given: %v; want more than one", seen)
			}
			t.Logf("%v", seen)
		})
	}
	// The run node and an iteration root have no move.
	r, err := st.Run(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []int64{0, 1} {
		n, err := st.Node(ctx, 1, id)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := MoveReason(ctx, st, r, n); err != nil || got != engine.ReasonNecessary {
			t.Errorf("node %d: %s, %v; want necessary", id, got, err)
		}
	}
}

// TestCountIsExplainWithoutPlaces: Count walks the subtree as Explain does
// and leaves the places out (hotspots prints no place of its causes).
func TestCountIsExplainWithoutPlaces(t *testing.T) {
	ctx := context.Background()
	st, _ := tracetest.CreateTrace(t)
	run := tracetest.RecordSearch(t, st, tracetest.Kiwipete, options(t, "captures"), engine.Limits{Depth: 3})
	r, err := st.Run(ctx, run)
	if err != nil {
		t.Fatal(err)
	}
	root, err := st.Node(ctx, run, 0)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Explain(ctx, st, r, root)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Count(ctx, st, r, root)
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Causes) == 0 {
		t.Fatal("no causes: the test wants some")
	}
	want.Place = ""
	for i := range want.Causes {
		want.Causes[i].Place = ""
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Count = %+v, want Explain without places %+v", got, want)
	}
}
