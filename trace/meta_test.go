package trace

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/horizonqs/horizon/engine"
)

func presetOf(t testing.TB, name string) engine.Options {
	t.Helper()
	o, err := engine.VariantOptions(name)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// TestSearchOptions reads a run's recorded options, and its label from them.
func TestSearchOptions(t *testing.T) {
	want := presetOf(t, "threshold")
	want.QSLevels = 6
	capLevels := presetOf(t, "captures")
	capLevels.QSLevels = 3
	thrNoLevels := presetOf(t, "threshold")
	thrNoLevels.QSLevels = 0
	noTT := want
	noTT.TT = false
	typed := `{"variant":"threshold","qs-levels":6,"tt":false,"stand-pat":true,"qs-moves":"captures"}`
	strs := `{"variant":"threshold","qs-levels":"6","tt":"false"}`
	for _, tc := range []struct {
		name, options, variant, engine string
		want                           *engine.Options
		levels                         bool
		err                            bool
		// label is Run.Label: the options' variant spec, or the
		// variant column where there are none that read.
		label string
	}{
		{"String form", want.String(), "threshold", "", &want, true, false, "threshold+qs-levels=6"},
		{"JSON, typed values", typed, "threshold", "", &noTT, true, false, "threshold+qs-levels=6+tt=false"},
		{"JSON, string values", strs, "threshold", "", &noTT, true, false, "threshold+qs-levels=6+tt=false"},
		{"captures with levels", capLevels.JSON(), "captures", "", &capLevels, true, false, "captures+qs-levels=3"},
		{"threshold without levels", thrNoLevels.JSON(), "threshold", "", &thrNoLevels, false, false, "threshold+qs-levels=0"},
		{"none recorded", "{}", "see", "", func() *engine.Options { o := presetOf(t, "see"); return &o }(), false, false, "see"},
		{"another engine", `{"moves":"pseudo","scores":"hard"}`, "Ethereal", "Ethereal", nil, false, false, "Ethereal"},
		{"unknown switch", `{"variant":"see","warp":"9"}`, "see", "", nil, false, true, "see"},
		{"bad value", `{"variant":"see","qs-levels":"many"}`, "see", "", nil, false, true, "see"},
		{"unknown variant", "", "nosuch", "", nil, false, true, "nosuch"},
		{"broken JSON", `{"variant":`, "see", "", nil, false, true, "see"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := Run{Options: tc.options, Variant: tc.variant, Engine: tc.engine}
			if l := r.Label(); l != tc.label {
				t.Errorf("label %q, want %q", l, tc.label)
			}
			got, err := r.SearchOptions()
			switch {
			case tc.err:
				if err == nil {
					t.Fatalf("got %v, want an error", got)
				}
				return
			case err != nil:
				t.Fatal(err)
			case (got == nil) != (tc.want == nil):
				t.Fatalf("got %v, want %v", got, tc.want)
			case got == nil:
				return
			case got.String() != tc.want.String():
				t.Errorf("got  %s\nwant %s", got, tc.want)
			case got.UsesLevels() != tc.levels:
				t.Errorf("uses levels %v, want %v", got.UsesLevels(), tc.levels)
			}
		})
	}
}

// FuzzSearchOptions: any recorded options text either fails with an error
// or gives options that survive a round trip through Options.String.
func FuzzSearchOptions(f *testing.F) {
	o, _ := engine.VariantOptions("threshold")
	f.Add(o.String(), "threshold")
	f.Add(`{"variant":"see","qs-levels":3,"tt":false}`, "see")
	f.Add(`{"variant":"see","qs-levels":"3"}`, "")
	f.Add("{}", "unified")
	f.Add("", "none")
	f.Add(`{"variant":["x"]}`, "see")
	f.Fuzz(func(t *testing.T, options, variant string) {
		got, err := Run{Options: options, Variant: variant}.SearchOptions()
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("%q: error on more than one line: %v", options, err)
			}
			return
		}
		again, err := Run{Options: got.String()}.SearchOptions()
		if err != nil || again.String() != got.String() {
			t.Errorf("%q: %s does not round-trip: %v, %s", options, got, err, again)
		}
	})
}

// FuzzSearchLimits: any limits text gives typed limits or an error.
func FuzzSearchLimits(f *testing.F) {
	f.Add(`{"depth":2,"last_iteration":false,"max_nodes":50000000,"movetime_ms":0,"nodes":50000000,"under":""}`)
	f.Add(`{"source":"uci","position":"startpos","moves":["e2e4"],"go":"go depth 3","depth":3}`)
	f.Add(`{"go":"go depth 5","max_nodes":0}`)
	f.Add(`{"depth":"2"}`)
	f.Fuzz(func(t *testing.T, text string) {
		l, err := Run{Limits: text}.SearchLimits()
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("%q: error on more than one line: %v", text, err)
			}
			return
		}
		// What reads, written back as JSON, reads the same.
		b, err := json.Marshal(l)
		if err != nil {
			t.Fatal(err)
		}
		if again, err := (Run{Limits: string(b)}).SearchLimits(); err != nil || !reflect.DeepEqual(again, l) {
			t.Fatalf("%q read as %+v, written as %s, which reads as %+v (%v)", text, l, b, again, err)
		}
	})
}

func TestSearchLimits(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       Limits
		err        bool
	}{
		{"trace", `{"depth":5,"last_iteration":true,"max_nodes":3000000,"movetime_ms":250,"nodes":0,"under":"e2e4 e7e5"}`,
			Limits{Depth: 5, LastIteration: true, MaxNodes: 3000000, MoveTimeMS: 250, Under: "e2e4 e7e5"}, false},
		{"qs-only", `{"qs_only":true,"nodes":0,"movetime_ms":0,"max_nodes":10,"last_move":"d7d5","lmpos":"8/8/8/8/8/8/8/K6k b - - 0 1"}`,
			Limits{QSOnly: true, MaxNodes: 10, LastMove: "d7d5", LMPos: "8/8/8/8/8/8/8/K6k b - - 0 1"}, false},
		{"uci", `{"source":"uci","position":"startpos","moves":[],"go":"go depth 3","depth":3,"trace_max_nodes":9}`,
			Limits{Source: "uci", Position: "startpos", Moves: []string{}, Go: "go depth 3", Depth: 3, TraceMaxNodes: 9}, false},
		{"another engine", `{"go":"go nodes 5000","max_nodes":0}`, Limits{Go: "go nodes 5000"}, false},
		{"none", "", Limits{}, false},
		{"wrong type", `{"depth":"deep"}`, Limits{}, true},
		{"not an object", `[1]`, Limits{}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Run{ID: 4, Limits: tc.text}.SearchLimits()
			if tc.err {
				if err == nil {
					t.Fatalf("got %+v, want an error", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Depth != tc.want.Depth || got.Nodes != tc.want.Nodes || got.MoveTimeMS != tc.want.MoveTimeMS ||
				got.MaxNodes != tc.want.MaxNodes || got.LastIteration != tc.want.LastIteration || got.Under != tc.want.Under ||
				got.QSOnly != tc.want.QSOnly || got.LastMove != tc.want.LastMove || got.LMPos != tc.want.LMPos ||
				got.Source != tc.want.Source || got.Go != tc.want.Go || got.TraceMaxNodes != tc.want.TraceMaxNodes ||
				len(got.Moves) != len(tc.want.Moves) {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

// TestOldFixtureMetadata: runs written by schema 1 and 2 Horizons read as
// the options and limits they recorded.
func TestOldFixtureMetadata(t *testing.T) {
	for _, f := range oldFixtures {
		t.Run(f.name, func(t *testing.T) {
			_, runs := openOldFixture(t, f.name)
			for _, r := range runs {
				o, err := r.SearchOptions()
				if r.Engine != "" {
					// Another engine's run (v3's imported stream) has no
					// Horizon options.
					if err != nil || o != nil {
						t.Errorf("run %d of %s: options %v, %v; want none", r.ID, r.Engine, o, err)
					}
					continue
				}
				if err != nil || o == nil {
					t.Fatalf("run %d: options %v, %v", r.ID, o, err)
				}
				// Every switch recorded reads back as recorded.
				again, err := engine.ParseOptionsJSON(o.JSON(), "")
				if err != nil || again.String() != o.String() || o.UsesLevels() {
					t.Errorf("run %d: %s reads back as %s (%v); uses levels %v", r.ID, o, again, err, o.UsesLevels())
				}
				// The recorded switch, not today's preset (captures turned
				// check-ext on later; v1's captures run has it off).
				if o.CheckExt != strings.Contains(r.Options, `"check-ext":true`) {
					t.Errorf("run %d: check-ext %v, recorded %s", r.ID, o.CheckExt, r.Options)
				}
				lim, err := r.SearchLimits()
				// (A truncated run, v4's, stopped before its depth.)
				if err != nil || lim.Depth != r.Depth && r.Status != StatusTruncated || lim.MaxNodes != 50000000 ||
					lim.LastIteration != strings.Contains(r.Filter, "last-iteration") {
					t.Errorf("run %d: limits %+v, %v", r.ID, lim, err)
				}
			}
		})
	}
}

// TestRunMovesText: another engine's node that did not record its
// generated count says so and never claims passes (Ethereal's node 508
// once read "0 generated, 1 searched counted over all its passes"), and
// its cutoff gives the cutting move's number alone (fairymax's node 63
// read "beta cutoff at move 5 of 0 generated" beside "generated not
// recorded").
func TestRunMovesText(t *testing.T) {
	foreign := Run{Engine: "Ethereal", Options: `{"moves":"legal"}`}
	own := Run{Variant: "captures"}
	cases := []struct {
		r         Run
		n         Node
		want, cut string
	}{
		{foreign, Node{Kind: engine.KindQS, Generated: 0, Searched: 1, CutIndex: -1}, "generated not recorded, 1 searched", "searched every move"},
		{foreign, Node{Kind: engine.KindPV, Generated: 3, Searched: 5, CutIndex: -1}, "3 generated, 5 searched", "searched every move"},
		{foreign, Node{Kind: engine.KindPV, Cause: engine.CauseBeta, CutIndex: 4, Searched: 2}, "generated not recorded, 2 searched", "beta cutoff at move 5"},
		{foreign, Node{Kind: engine.KindPV, Cause: engine.CauseBeta, CutIndex: 4, Generated: 20, Searched: 2}, "20 generated, 2 searched", "beta cutoff at move 5 of 20 generated"},
		{own, Node{Kind: engine.KindQS, Generated: 4, Searched: 2, QSPly: 1, CutIndex: -1}, "4 generated, 2 searched", "searched every move"},
		// Horizon records every count: its 0 is a real 0.
		{own, Node{Kind: engine.KindQS, Cause: engine.CauseAutoFailHigh, CutIndex: 0, QSPly: 1}, "0 generated, 0 searched",
			"auto fail high: move 1 of 0 generated had no level left (not searched)"},
		// Counts the file stores clamped read as lower bounds (they read
		// "255 generated" and "beta cutoff at move 255 of 255 generated").
		{foreign, Node{Kind: engine.KindPV, Cause: engine.CauseBeta, CutIndex: 254, CutIndexAtLeast: true, Generated: 255,
			GeneratedAtLeast: true, Searched: 3}, "255+ generated, 3 searched", "beta cutoff at move 255+ of 255+ generated"},
		{own, Node{Kind: engine.KindQS, Cause: engine.CauseBeta, CutIndex: 1, Generated: 255, GeneratedAtLeast: true,
			Searched: 2, QSPly: 1}, "255+ generated, 2 searched", "beta cutoff at move 2 of 255+ generated"},
	}
	for i, c := range cases {
		if got := c.r.MovesText(c.n); got != c.want {
			t.Errorf("case %d: %q, want %q", i, got, c.want)
		}
		if got := c.r.CutText(c.n); got != c.cut {
			t.Errorf("case %d: cut %q, want %q", i, got, c.cut)
		}
	}
}

// TestReportedRoot: readers start in the last root of the reported
// iteration, not in a later unfinished one.
func TestReportedRoot(t *testing.T) {
	roots := []Node{{ID: 1, Iteration: 1}, {ID: 5, Iteration: 2}, {ID: 9, Iteration: 2}, {ID: 20, Iteration: 3}}
	for _, c := range []struct{ depth, want int }{{2, 2}, {3, 3}, {0, 3}, {1, 0}} {
		if got := ReportedRoot(Run{Depth: c.depth}, roots); got != c.want {
			t.Errorf("depth %d: root %d, want %d", c.depth, got, c.want)
		}
	}
	// Another engine's search of QS alone, scored at depth 0 (iteration
	// 0), before an iteration 1 it did not finish: iteration 0's last root.
	qsRoots := []Node{{ID: 1}, {ID: 4}, {ID: 9, Iteration: 1}}
	if got := ReportedRoot(Run{scored: true}, qsRoots); got != 1 {
		t.Errorf("scored at depth 0: root %d, want 1", got)
	}
	if got := ReportedRoot(Run{}, qsRoots); got != 2 {
		t.Errorf("no answer: root %d, want the last, 2", got)
	}
}

// TestFilterText: the node cap of KeepSearching says the iteration roots
// it kept past the cap, so the filter agrees with the rows: a run of 102
// rows (the run node, 100 nodes and a later root) read "first 100 nodes".
func TestFilterText(t *testing.T) {
	for _, c := range []struct {
		filter string
		rows   int64
		want   string
	}{
		{"first 100 nodes", 101, "first 100 nodes"},
		{"first 100 nodes", 102, "first 100 nodes and 1 later iteration root"},
		{"first 100 nodes", 104, "first 100 nodes and 3 later iteration roots"},
		{"under e4; first 100 nodes", 60, "under e4; first 100 nodes and the roots of later iterations"},
		{"last-iteration", 50, "last-iteration"},
		{"", 50, ""},
	} {
		if got := (Run{Filter: c.filter, Rows: c.rows}).FilterText(); got != c.want {
			t.Errorf("filter %q, %d rows: %q, want %q", c.filter, c.rows, got, c.want)
		}
	}
}

// TestEvalWords: the static eval a node computed is a stand pat only where
// its variant stands pat there; elsewhere readers call it the static eval
// (every reader showed "stand pat" on none's horizon nodes and on QS nodes
// of stand-pat false).
func TestEvalWords(t *testing.T) {
	qs := Node{Kind: engine.KindQS, HasStandPat: true}
	tests := []struct {
		name string
		run  Run
		n    Node
		want string
	}{
		{"captures QS node", Run{Variant: "captures"}, qs, "stand pat"},
		{"none horizon node", Run{Variant: "none"}, Node{Kind: engine.KindNonPV, HasStandPat: true}, "static eval"},
		{"stand-pat false", Run{Variant: "captures", Options: `{"variant":"captures","stand-pat":false}`}, qs, "static eval"},
		{"see in check (evasions)", Run{Variant: "see"}, Node{Kind: engine.KindQS, HasStandPat: true, InCheck: true}, "static eval"},
		{"see not in check", Run{Variant: "see"}, qs, "stand pat"},
		{"another engine's QS node", Run{Engine: "sunfish"}, qs, "stand pat"},
		{"another engine's full-width node", Run{Engine: "sunfish"}, Node{Kind: engine.KindPV, HasStandPat: true}, "static eval"},
	}
	for _, tc := range tests {
		if got := tc.run.EvalWords().Label(tc.n); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestSearchOptionsCopies: the options SearchOptions keeps parsed are
// given as a copy each time: a caller that changes its copy changes no
// other reader's, and runs with other texts get their own.
func TestSearchOptionsCopies(t *testing.T) {
	see, err := engine.VariantOptions("see")
	if err != nil {
		t.Fatal(err)
	}
	r := Run{ID: 1, Variant: "see", Options: see.JSON()}
	first, err := r.SearchOptions()
	if err != nil {
		t.Fatal(err)
	}
	first.DeltaMargin, first.StandPat = -7, !first.StandPat
	again, err := r.SearchOptions()
	if err != nil {
		t.Fatal(err)
	}
	if *again != see {
		t.Errorf("the second read gives %+v, want the recorded %+v", *again, see)
	}
	other := see
	other.DeltaMargin = see.DeltaMargin + 50
	r2 := Run{ID: 2, Variant: "see", Options: other.JSON()}
	if got, err := r2.SearchOptions(); err != nil || *got != other {
		t.Errorf("a run with other options reads %+v, %v; want %+v", got, err, other)
	}
}
