package explain

import (
	"context"
	"math"
	"reflect"
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
// second run, with the switch that removes it, saves.
func TestCauseMassMatchesSwitch(t *testing.T) {
	st, _ := tracetest.CreateTrace(t)
	tests := []struct {
		reason engine.Reason
		fens   []string
		a, b   engine.Options
	}{
		{engine.ReasonLosingCapture, []string{tracetest.Kiwipete}, options(t, "mvv-lva"), options(t, "mvv-lva", "see-prune=true")},
		{engine.ReasonQuietCheck, tracetest.BenchFENs(t, 40), options(t, "see"), options(t, "see", "qs-checks=false")},
	}
	for _, tc := range tests {
		t.Run(tc.reason.String(), func(t *testing.T) {
			var m, na, nb int64
			for _, fen := range tc.fens {
				ra, rb := recordQS(t, st, fen, tc.a), recordQS(t, st, fen, tc.b)
				ea, eb := explainNode(t, st, ra, 0), explainNode(t, st, rb, 0)
				checkSums(t, fen, ea)
				m, na, nb = m+mass(ea, tc.reason), na+ea.Nodes, nb+eb.Nodes
			}
			diff := na - nb
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
