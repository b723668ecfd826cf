package compare

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/internal/longtest"
	"github.com/horizonqs/horizon/trace"
	"github.com/horizonqs/horizon/trace/tracetest"
)

// kiwipete1 is Kiwipete as the issue gives it (fullmove 1).
const kiwipete1 = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

// TestFirstDifferenceNamesARule: for every pair of the eight presets, as
// 'horizon trace' searches them (hash table on), on Kiwipete at depth 4,
// diff's first difference names the rule of the switch that parts the
// two searches there: never a QS-level numbering, never only what the
// records show, never one that follows from an earlier difference.
func TestFirstDifferenceNamesARule(t *testing.T) {
	longtest.Skip(t, "records eight depth-4 searches and aligns 28 pairs")
	ctx := context.Background()
	st, _ := tracetest.CreateTrace(t)
	runs := map[string]int64{}
	names := engine.VariantNames()
	for _, name := range names {
		o, err := engine.VariantOptions(name)
		if err != nil {
			t.Fatal(err)
		}
		runs[name] = tracetest.RecordSearch(t, st, kiwipete1, o, engine.Limits{Depth: 4})
	}
	// The rule each pair parts by first. Most pairs part where one of the
	// switches they differ in first acts: none has no QS, recapture's QS
	// allows no capture at Bxa6 but a recapture on a6, threshold's level 0
	// pass fails high by rule, see prunes Qxf6 (SEE -580), mvv-lva's PVS
	// scouts where unified (pvs false) gives the full window; captures
	// (tutorial ordering) tries Kxf7 first where mvv-lva and its
	// successors try Qxf7; beal generates c2 (a push to the 7th rank).
	want := map[[2]string]string{
		{"none", "captures"}: RuleNoQS, {"none", "mvv-lva"}: RuleNoQS, {"none", "recapture"}: RuleNoQS,
		{"none", "beal"}: RuleNoQS, {"none", "threshold"}: RuleNoQS, {"none", "unified"}: RuleNoQS, {"none", "see"}: RuleNoQS,
		{"captures", "mvv-lva"}: RuleOrder, {"captures", "recapture"}: RuleQSMoves, {"captures", "beal"}: RuleOrder,
		{"captures", "threshold"}: RuleAutoFailHigh, {"captures", "unified"}: RuleOrder, {"captures", "see"}: RuleSEEPrune,
		{"mvv-lva", "recapture"}: RuleQSMoves, {"mvv-lva", "beal"}: RuleQSMoves, {"mvv-lva", "threshold"}: RuleAutoFailHigh,
		{"mvv-lva", "unified"}: RulePVS, {"mvv-lva", "see"}: RuleSEEPrune,
		{"recapture", "beal"}: RuleQSMoves, {"recapture", "threshold"}: RuleQSMoves, {"recapture", "unified"}: RuleQSMoves,
		{"recapture", "see"}:  RuleQSMoves,
		{"beal", "threshold"}: RuleAutoFailHigh, {"beal", "unified"}: RulePVS, {"beal", "see"}: RuleSEEPrune,
		{"threshold", "unified"}: RuleAutoFailHigh, {"threshold", "see"}: RuleSEEPrune,
		{"unified", "see"}: RuleSEEPrune,
	}
	pairs := 0
	for i, a := range names {
		for _, b := range names[i+1:] {
			pairs++
			t.Run(a+"_"+b, func(t *testing.T) {
				rep, err := Align(ctx, Side{st, runs[a]}, Side{st, runs[b]}, Options{})
				if err != nil {
					t.Fatal(err)
				}
				f := rep.First
				if f == nil || f.Why == nil {
					t.Fatalf("first difference %+v: no reason", f)
				}
				if !slices.ContainsFunc(f.Fields, func(s string) bool { return s != "qs_level" && s != "visit" }) {
					t.Errorf("first difference is a label: fields %v (%s)", f.Fields, f.Reason)
				}
				if f.Why.CausedBy != nil || ruleInfo(f.Why.Rule).Caused || f.Why.Rule == RuleSearched {
					t.Errorf("first difference's rule %s (caused by %v) names no switch: %s", f.Why.Rule, f.Why.CausedBy, f.Why.Text)
				}
				if w, ok := want[[2]string{a, b}]; !ok || f.Why.Rule != w {
					t.Errorf("rule %s, want %s: %s", f.Why.Rule, w, f.Why.Text)
				}
				if rep.Divergences.Count == 0 {
					t.Errorf("no divergence counted, first difference %s", f.Why.Text)
				}
			})
		}
	}
	if pairs != 28 || len(want) != 28 {
		t.Fatalf("%d pairs, %d expected rules: want 28 of the eight presets", pairs, len(want))
	}
}

// TestRulePerSwitch: two runs that differ in one switch part by that
// switch's rule, the run with the switch doing what it says; with a hash
// table off, so that nothing else differs.
func TestRulePerSwitch(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		a, b  string
		depth int
		rule  string
		actor string
		first bool   // the first difference is the rule's; else the summary counts it
		fen   string // Kiwipete when empty
	}{
		{"none", "mvv-lva", 2, RuleNoQS, "A", true, ""},
		{"mvv-lva", "beal", 3, RuleQSMoves, "A", false, ""},
		{"mvv-lva", "mvv-lva+qs-moves=recaptures", 2, RuleQSMoves, "B", true, ""},
		{"mvv-lva", "mvv-lva+qs-checks=true", 2, RuleQSChecks, "B", true, ""},
		{"mvv-lva", "mvv-lva+qs-evasions=true", 3, RuleEvasions, "B", false, ""},
		{"mvv-lva", "mvv-lva+see-prune=true", 2, RuleSEEPrune, "B", true, ""},
		{"mvv-lva", "mvv-lva+delta=true", 2, RuleDeltaPrune, "B", true, ""},
		// Without stand pat every capture sequence is searched: a quiet
		// position keeps the tree small.
		{"mvv-lva", "mvv-lva+stand-pat=false", 2, RuleStandPat, "A", true, "4k3/8/3p4/8/3P4/2N5/8/4K3 w - - 0 1"},
		{"captures", "captures+qs-order=mvv-lva", 3, RuleOrder, "", true, ""},
		{"mvv-lva", "mvv-lva+check-ext=true", 3, engine.GrowthCheckExt.String(), "B", false, ""},
		{"mvv-lva", "mvv-lva+recapture-ext=true", 2, engine.GrowthRecaptureExt.String(), "B", false, ""},
		{"mvv-lva", "mvv-lva+pvs=false", 2, RulePVS, "A", true, ""},
		{"mvv-lva", "threshold", 2, RuleAutoFailHigh, "B", true, ""},
		{"mvv-lva", "threshold", 2, RuleLevelPass, "B", false, ""},
		// A QS root's level is its run's qs-levels, a numbering: the runs
		// part where A's root makes a pass past B's last level.
		{"threshold", "threshold+qs-levels=2", 2, RuleQSLevels, "A", true, ""},
		{"mvv-lva+pvs=false", "unified", 3, RuleIteration, "B", false, ""},
	} {
		t.Run(tc.a+"_"+tc.b+"_"+tc.rule, func(t *testing.T) {
			st, _ := tracetest.CreateTrace(t)
			run := func(spec string) int64 {
				o, err := engine.ParseVariantSpec(spec)
				if err != nil {
					t.Fatal(err)
				}
				o.TT = false
				fen := kiwipete1
				if tc.fen != "" {
					fen = tc.fen
				}
				return tracetest.RecordSearch(t, st, fen, o, engine.Limits{Depth: tc.depth})
			}
			a, b := run(tc.a), run(tc.b)
			rep, err := Align(ctx, Side{st, a}, Side{st, b}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if tc.first {
				if w := rep.First.Why; w == nil || w.Rule != tc.rule || w.actor != tc.actor {
					t.Fatalf("first difference's reason %+v, want rule %s by %q (%s)", w, tc.rule, tc.actor, rep.First.Reason)
				}
				if !slices.ContainsFunc(rep.First.Fields, func(s string) bool { return s != "qs_level" && s != "visit" }) {
					t.Errorf("first difference is a label: fields %v (%s)", rep.First.Fields, rep.First.Reason)
				}
				return
			}
			i := slices.IndexFunc(rep.Divergences.ByRule, func(c RuleCount) bool {
				return c.Rule == tc.rule && (tc.actor == "" || c.Actor == tc.actor)
			})
			if i < 0 {
				t.Fatalf("no %s divergence by %q among %+v", tc.rule, tc.actor, rep.Divergences.ByRule)
			}
		})
	}
}

// TestCausedPointsToADifference: a difference that follows from an earlier
// one points to a node that holds a difference: a node of A's whose pair
// differs, or a move one run searched alone.
func TestCausedPointsToADifference(t *testing.T) {
	ctx := context.Background()
	st, _ := tracetest.CreateTrace(t)
	o := tracetest.VariantOptions(t, "mvv-lva")
	a := tracetest.RecordSearch(t, st, kiwipete1, o, engine.Limits{Depth: 3})
	o.SEEPrune = true
	b := tracetest.RecordSearch(t, st, kiwipete1, o, engine.Limits{Depth: 3})
	rep, err := Align(ctx, Side{st, a}, Side{st, b}, Options{Changed: 200})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Divergences.Caused == 0 {
		t.Fatal("no difference follows from another")
	}
	seen := 0
	for _, d := range rep.ChangedNodes {
		w := d.Why
		if w == nil || w.CausedBy == nil {
			continue
		}
		seen++
		if !ruleInfo(w.Rule).Caused {
			t.Errorf("node %d: rule %s is not one that follows from another, yet caused by %d", d.A.ID, w.Rule, *w.CausedBy)
		}
		if *w.CausedBy <= 0 || !(*w.CausedBy > d.A.ID && *w.CausedBy < d.A.ID+d.A.SubtreeSize || *w.CausedBy < d.A.ID) {
			t.Errorf("node %d (%s): caused by node %d, neither below it nor before it", d.A.ID, w.Text, *w.CausedBy)
		}
		n, err := st.Node(ctx, a, *w.CausedBy)
		if err != nil {
			t.Fatalf("node %d: caused by node %d: %v", d.A.ID, *w.CausedBy, err)
		}
		if n.ID == 0 {
			t.Errorf("node %d: caused by the run node", d.A.ID)
		}
	}
	if seen == 0 {
		t.Error("no changed node points to an earlier difference")
	}
}

// TestForeignRunWhyIsWhatRecordsShow: a run of another engine has no
// Horizon options; its differences say what the records show.
func TestForeignRunWhyIsWhatRecordsShow(t *testing.T) {
	v := [2]view{
		{name: "A", run: trace.Run{Engine: "other"}, n: trace.Node{ID: 5, Parent: 4, Kind: engine.KindQS, QSLevel: -1, CutIndex: -1, Alpha: 10, Beta: 60}},
		{name: "B", run: trace.Run{Engine: "other"}, n: trace.Node{ID: 5, Parent: 4, Kind: engine.KindQS, QSLevel: -1, CutIndex: -1, HasStandPat: true, StandPat: 40, Alpha: 10, Beta: 60}},
	}
	pos, err := engine.ParseFEN(kiwipete1)
	if err != nil {
		t.Fatal(err)
	}
	m, err := pos.ParseSAN("Bxa6")
	if err != nil {
		t.Fatal(err)
	}
	n, err := pos.ParseSAN("Nxf7")
	if err != nil {
		t.Fatal(err)
	}
	v[0].kids = []trace.Node{{ID: 6, Move: m}, {ID: 7, Move: n}}
	v[1].kids = []trace.Node{{ID: 6, Move: m}}
	w := explain(pos, v, nil)
	if w == nil || w.Rule != RuleSearched || w.actor != "A" {
		t.Fatalf("reason %+v, want %s by A", w, RuleSearched)
	}
	for _, part := range []string{"A searches Nxf7 (SEE ", "as its move 2, B does not", "B's eval +40, window [10, 60]"} {
		if !strings.Contains(w.Text, part) {
			t.Errorf("%q does not say %q", w.Text, part)
		}
	}
	// B cut on the move both searched, A did not: the move's score
	// differs, which the pair below says why.
	v[1].n.CutIndex, v[1].n.Cause = 0, engine.CauseBeta
	v[0].kids[0].Score, v[1].kids[0].Score = 30, -80
	if w := explain(pos, v, nil); w == nil || w.Rule != RuleBelow || w.CausedBy == nil || *w.CausedBy != 6 {
		t.Fatalf("reason %+v, want %s caused by node 6", w, RuleBelow)
	}
}

// TestGrowthBelowTheRoots: the growth list names matched places below the
// iteration roots, biggest excess first, each excess B's size against A's
// grown by the parent's ratio; the whole-iteration rows the size list
// starts with ("iteration 4: (root)") are never in it.
func TestGrowthBelowTheRoots(t *testing.T) {
	ctx := context.Background()
	st, _ := tracetest.CreateTrace(t)
	o := tracetest.VariantOptions(t, "mvv-lva")
	a := tracetest.RecordSearch(t, st, kiwipete1, o, engine.Limits{Depth: 3})
	o.SEEPrune, o.DeltaPrune = true, true
	b := tracetest.RecordSearch(t, st, kiwipete1, o, engine.Limits{Depth: 3})
	rep, err := Align(ctx, Side{st, a}, Side{st, b}, Options{Top: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Growth) == 0 {
		t.Fatal("no growth listed for runs 1/3 of each other's size")
	}
	for i, g := range rep.Growth {
		if len(g.Path) == 0 || g.IDA == nil || g.IDB == nil {
			t.Errorf("growth %d: %+v is an iteration root or not a matched pair", i, g)
		}
		if want := g.NodesB - int64(math.Round(g.ParentRatio*float64(g.NodesA))); g.Excess != want {
			t.Errorf("growth %d: excess %d, want %d", i, g.Excess, want)
		}
		if i > 0 && abs(g.Excess) > abs(rep.Growth[i-1].Excess) {
			t.Errorf("growth %d: excess %d after %d", i, g.Excess, rep.Growth[i-1].Excess)
		}
	}
}

// TestRuleTable: rule names are short, stable, kebab-case and unique; every
// summary reads whichever run does it, or none (no format residue), and no
// text names a SQL column.
func TestRuleTable(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range Rules() {
		if seen[r.Name] || r.Name == "" || strings.Trim(r.Name, "abcdefghijklmnopqrstuvwxyz-") != "" {
			t.Errorf("rule %q: a duplicate, or not kebab-case", r.Name)
		}
		seen[r.Name] = true
		for _, actor := range []string{"A", "B", ""} {
			d := tally{{r.Name, actor, false}: 3}.summary()
			if len(d.ByRule) != 1 || strings.Contains(d.ByRule[0].Text, "%!") || d.ByRule[0].Text == "" || d.ByRule[0].Share != 1 {
				t.Errorf("rule %s by %q: summary %+v", r.Name, actor, d.ByRule)
			}
		}
		for _, col := range []string{"parent_id", "cut_index", "stand_pat", "qs_level", "subtree_size"} {
			if strings.Contains(r.Meaning+r.Summary, col) {
				t.Errorf("rule %s names column %s", r.Name, col)
			}
		}
	}
	if d := (tally{{RuleWindow, "", true}: 2, {RuleSEEPrune, "B", false}: 1}).summary(); d.Count != 1 || d.Caused != 2 {
		t.Errorf("summary %+v: want 1 of its own, 2 caused", d)
	}
}

// TestSameLevel: a QS level is a numbering of the threshold QS, so a node
// without one matches any level, and two QS roots match whatever their
// runs' qs-levels (their passes start at level 0 alike); below the roots
// the levels of one pass are the same in two runs that search alike, so
// there a difference is one.
func TestSameLevel(t *testing.T) {
	qs := func(ply, level int) trace.Node { return trace.Node{Kind: engine.KindQS, QSPly: ply, QSLevel: level} }
	for _, tc := range []struct {
		name string
		a, b trace.Node
		want bool
	}{
		{"same level", qs(2, 3), qs(2, 3), true},
		{"one has none", qs(2, -1), qs(2, 3), true},
		{"QS roots of qs-levels 4 and 2", qs(0, 4), qs(0, 2), true},
		{"below the roots", qs(1, 3), qs(1, 1), false},
		{"a root and a node below", qs(0, 4), qs(1, 2), false},
		{"full-width against a QS root", trace.Node{Kind: engine.KindPV, QSPly: 0, QSLevel: 2}, qs(0, 4), false},
	} {
		if got := SameLevel(tc.a, tc.b); got != tc.want {
			t.Errorf("%s: SameLevel = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestDeltaPruneWording: a QS node delta pruning ends says how: given up
// whole before its moves (not even a queen lifts its eval to alpha), or
// each of its generated captures pruned by itself, where a queen capture
// need not have been one (Kiwipete's QS-only runs of mvv-lva+see-prune
// without and with delta part at such a node: 8 moves, eval -619, alpha
// 189, which a queen would lift).
func TestDeltaPruneWording(t *testing.T) {
	node := func(generated int) trace.Node {
		return trace.Node{ID: 9, Parent: 8, Kind: engine.KindQS, QSLevel: -1, CutIndex: -1, Cause: engine.CauseDelta,
			HasStandPat: true, StandPat: -619, Alpha: 189, Beta: 190, Generated: generated}
	}
	other := view{name: "A", n: trace.Node{ID: 9, Parent: 8, Kind: engine.KindQS, QSLevel: -1, CutIndex: -1, HasStandPat: true, StandPat: -619, Alpha: 189, Beta: 190}}
	for _, tc := range []struct {
		generated int
		want      string
	}{
		{0, "B gives the node up: not even a queen lifts the eval -619 to alpha 189 (delta)"},
		{8, "B prunes each of its 8 moves: none lifts the eval -619 to alpha 189 with its victim and the margin (delta)"},
	} {
		w := stopWhy(nil, view{name: "B", n: node(tc.generated)}, other)
		if w == nil || w.Rule != RuleDeltaPrune || w.actor != "B" || w.Text != tc.want {
			t.Errorf("%d generated: %+v, want %s by B: %q", tc.generated, w, RuleDeltaPrune, tc.want)
		}
	}
}

// TestRulesThatFollow: the rules a difference that follows from an earlier
// one takes (window, depth, below) and the hash table's (tt) are found on
// pairs of runs where they arise, among the changed nodes' reasons or the
// divergences counted by rule. (The table's threshold-ext cannot part two
// searches at one node: a threshold extension keeps a QS level, and a QS
// node's depth is its QS ply, the same in both runs.)
func TestRulesThatFollow(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		a, b  string
		depth int
		tt    bool
		rules []string
	}{
		{"mvv-lva", "mvv-lva+recapture-ext=true", 3, false, []string{RuleDepth, RuleBelow}},
		{"captures", "threshold", 3, false, []string{RuleWindow}},
		{"see", "see+delta=false", 4, true, []string{RuleTT}},
	} {
		t.Run(tc.a+"_"+tc.b, func(t *testing.T) {
			st, _ := tracetest.CreateTrace(t)
			run := func(spec string) int64 {
				o, err := engine.ParseVariantSpec(spec)
				if err != nil {
					t.Fatal(err)
				}
				o.TT = tc.tt
				return tracetest.RecordSearch(t, st, kiwipete1, o, engine.Limits{Depth: tc.depth})
			}
			a, b := run(tc.a), run(tc.b)
			rep, err := Align(ctx, Side{st, a}, Side{st, b}, Options{Changed: 100_000})
			if err != nil {
				t.Fatal(err)
			}
			seen := map[string]bool{}
			for _, c := range rep.Divergences.ByRule {
				seen[c.Rule] = true
			}
			for _, d := range rep.ChangedNodes {
				if d.Why != nil {
					seen[d.Why.Rule] = true
				}
			}
			for _, r := range tc.rules {
				if !seen[r] {
					t.Errorf("no difference by %s; rules seen %v", r, seen)
				}
			}
		})
	}
}

// TestRulesOfOtherEngines: another engine's runs have no options, so an
// extension one run made and the other did not is 'ext' (its cause is not
// recorded), and QS nodes whose static evals differ are 'eval'.
func TestRulesOfOtherEngines(t *testing.T) {
	other := trace.Run{Engine: "other"}
	qs := func(depth, ext int, stand engine.Score) trace.Node {
		return trace.Node{ID: 5, Parent: 4, Kind: engine.KindQS, QSLevel: -1, CutIndex: -1, Depth: depth, Extension: ext,
			HasStandPat: true, StandPat: stand, Alpha: -50, Beta: 50}
	}
	pos, err := engine.ParseFEN(kiwipete1)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		a, b   trace.Node
		rule   string
		actor  string
		phrase string
	}{
		{"extension", qs(0, 0, 10), qs(1, 1, 10), engine.GrowthExt.String(), "B", "B extends"},
		{"eval", qs(0, 0, 10), qs(0, 0, 35), RuleEval, "", "the static evals differ, A +10, B +35"},
	} {
		w := explain(pos, [2]view{{name: "A", run: other, n: tc.a}, {name: "B", run: other, n: tc.b}}, nil)
		if w == nil || w.Rule != tc.rule || w.actor != tc.actor || !strings.Contains(w.Text, tc.phrase) {
			t.Errorf("%s: %+v, want %s by %q saying %q", tc.name, w, tc.rule, tc.actor, tc.phrase)
		}
	}
}
