package main

import (
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/horizonqs/horizon/compare"
	"github.com/horizonqs/horizon/trace"
	"github.com/horizonqs/horizon/trace/tracetest"
)

// recordWith records one search per variant into file with 'horizon
// compare --trace' (hash table off, so trees are reproducible).
func recordWith(t *testing.T, file, fen, depth, qs string) {
	t.Helper()
	code, _, errOut := runCLI(t, "", "compare", "--fen", fen, "--depth", depth, "--qs", qs, "--tt", "false", "--trace", file, "--csv")
	if code != 0 {
		t.Fatalf("recording %s: exit %d: %s", qs, code, errOut)
	}
}

func TestDiffSelf(t *testing.T) {
	dir := t.TempDir()
	one := filepath.Join(dir, "one.trace")
	other := filepath.Join(dir, "other.trace")
	recordWith(t, one, kiwipete, "3", "unified")
	recordWith(t, one, kiwipete, "3", "unified") // run 2: the same search again
	recordWith(t, other, kiwipete, "3", "unified")
	for _, args := range [][]string{
		{one, "--run", "1", "--run", "2"},
		{one}, // a file with two runs needs no --run
		{one, other, "--run", "2", "--run", "1"},
		{"--run", "1", one, "--run", "1", other}, // flags anywhere
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var r compare.Report
			out := cliJSON(t, &r, append([]string{"diff", "--json"}, args...)...)
			if r.OnlyA != 0 || r.OnlyB != 0 || r.Changed != 0 || r.First != nil || len(r.Top) != 0 || r.Matched != r.A.Rows-1 || r.Matched == 0 {
				t.Errorf("a run against itself: %s", out)
			}
			code, out, _ := runCLI(t, "", append([]string{"diff"}, args...)...)
			if code != 0 || !strings.Contains(out, "the trees are identical") {
				t.Errorf("text: exit %d\n%s", code, out)
			}
		})
	}
}

// TestDiffOutputs checks the three outputs of one diff against the
// library's report.
func TestDiffOutputs(t *testing.T) {
	file := filepath.Join(t.TempDir(), "cmp.trace")
	recordWith(t, file, kiwipete, "3", "captures,see")
	st := tracetest.Open(t, file)
	want, err := compare.Align(context.Background(), compare.Side{Store: st, Run: 1}, compare.Side{Store: st, Run: 2}, compare.Options{Top: 5})
	if err != nil {
		t.Fatal(err)
	}

	var got compare.Report
	out := cliJSON(t, &got, "diff", file, "--run", "1", "--run", "2", "--top", "5", "--json")
	for _, key := range []string{"a", "b", "matched", "only_a", "only_b", "changed", "changed_nodes", "first_difference", "top", "plies", "qs_plies", "qs_levels"} {
		if !strings.Contains(out, `"`+key+`":`) {
			t.Errorf("--json has no key %q", key)
		}
	}
	if got.Matched != want.Matched || got.OnlyA != want.OnlyA || got.OnlyB != want.OnlyB || got.Changed != want.Changed ||
		len(got.Top) != len(want.Top) || got.First.Reason != want.First.Reason {
		t.Errorf("--json differs from compare.Align:\n%s", out)
	}

	code, out, _ := runCLI(t, "", "diff", file, "--run", "1", "--run", "2", "--top", "5")
	for _, s := range []string{"variant captures", "variant see", "first difference", want.First.Reason, "nodes by ply",
		"subtrees whose sizes differ most", want.Place(want.Top[0].Root(), want.Top[0].Path, want.Top[0].Visits, want.Top[0].Searches), "changed nodes"} {
		if !strings.Contains(out, s) {
			t.Errorf("text output lacks %q", s)
		}
	}
	if code != 0 {
		t.Errorf("text: exit %d", code)
	}
	// The iteration is named as the viewer and the reasons name it: "d1"
	// read as a remaining depth, which is what d means in the viewer and
	// exports. The subtrees' legend said "dN: iteration N" over rows
	// written "it 8: (root)": legend and rows use one vocabulary.
	if it := fmt.Sprintf("at iteration %d: ", want.First.Iteration); !strings.Contains(out, it) || strings.Contains(out, fmt.Sprintf("at d%d: ", want.First.Iteration)) {
		t.Errorf("the first difference is not placed %q:\n%s", it, out)
	}
	_, top, _ := strings.Cut(out, "subtrees whose sizes differ most")
	top, _, _ = strings.Cut(top, "changed nodes")
	legend, below, _ := strings.Cut(top, "\n")
	if strings.Contains(legend, "dN") || strings.Contains(legend, "it N") {
		t.Errorf("the subtrees' legend names iterations in words its rows do not use: %s", legend)
	}
	for _, s := range want.Top {
		if row := trace.IterationLabel(s.Iteration) + ": "; !strings.Contains(below, row) {
			t.Errorf("no subtree row places its path %q:\n%s", row, below)
		}
	}
	if strings.Contains(out, "it 1: ") || strings.Contains(out, "it 2: ") || strings.Contains(out, "it 3: ") {
		t.Errorf("a path is placed \"it N:\", which nothing else says:\n%s", out)
	}
	// check places its violations as diff does, and its help shows one.
	if place := trace.PlaceText(trace.PlaceRoot{It: 3}, []string{"Bxa6", "bxc3"}, []int{1, 2}, []int{1, 2}); !helpSays(helpOf(t, "check"), `"`+place+`"`) {
		t.Errorf("check --help does not show a place as check prints it, %q", place)
	}

	code, out, _ = runCLI(t, "", "diff", file, "--run", "1", "--run", "2", "--top", "5", "--csv")
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if code != 0 || err != nil {
		t.Fatalf("csv: exit %d, %v", code, err)
	}
	found := map[string][]string{}
	tops := 0
	for _, r := range rows {
		if len(r) != 5 {
			t.Fatalf("csv row %v: want 5 fields", r)
		}
		found[r[0]+"/"+r[1]] = r
		if r[0] == "top" {
			tops++
		}
	}
	if r := found["total/nodes"]; r == nil || r[2] != strconv.FormatInt(want.A.Nodes, 10) || r[3] != strconv.FormatInt(want.B.Nodes, 10) {
		t.Errorf("csv total/nodes row %v, want %d and %d", r, want.A.Nodes, want.B.Nodes)
	}
	if r := found["align/only"]; r == nil || r[2] != strconv.FormatInt(want.OnlyA, 10) || r[3] != strconv.FormatInt(want.OnlyB, 10) {
		t.Errorf("csv align/only row %v", r)
	}
	if tops != len(want.Top) {
		t.Errorf("csv has %d top rows, want %d", tops, len(want.Top))
	}
}

func TestDiffErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "two.trace")
	recordWith(t, file, kiwipete, "1", "captures,see")
	three := filepath.Join(dir, "three.trace")
	recordWith(t, three, kiwipete, "1", "captures,see,none")
	mixed := filepath.Join(dir, "mixed.trace")
	recordWith(t, mixed, kiwipete, "1", "captures")
	recordWith(t, mixed, "startpos", "1", "captures")
	notTrace := writeFile(t, "notes.txt", "hello\n")
	for _, tc := range []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"unknown run", []string{file, "--run", "1", "--run", "9"}, 1, []string{"run 9: no such run", "1 captures", "2 see"}},
		{"different positions", []string{mixed, "--run", "1", "--run", "2"}, 1, []string{"different positions", "run 1", "run 2"}},
		{"three runs, no --run", []string{three}, 2, []string{"holds 3 runs", "--run"}},
		// "not 1 times" was the grammar of both messages.
		{"one --run", []string{file, "--run", "1"}, 2, []string{"--run twice", "not once"}},
		{"three --run", []string{file, "--run", "1", "--run", "2", "--run", "1"}, 2, []string{"--run twice", "not 3 times"}},
		{"one --run, two files", []string{file, file, "--run", "1"}, 2, []string{"--run twice", "not once"}},
		{"two files of several runs", []string{file, three}, 2, []string{"choose with --run"}},
		{"bad run id", []string{file, "--run", "0", "--run", "1"}, 2, []string{"not a run id"}},
		{"no such record", []string{file, "--run", "x", "--run", "1"}, 1, []string{"--run x:", "has no run of an EPD record with that id"}},
		{"no file", nil, 2, []string{"trace file"}},
		{"three files", []string{file, file, file}, 2, []string{"one or two trace files"}},
		{"not a trace", []string{notTrace, file}, 1, []string{"notes.txt", "not"}},
		{"json and csv", []string{file, "--json", "--csv"}, 2, []string{"--csv"}},
		{"html without -o", []string{file, "--html"}, 2, []string{"--html", "-o"}},
		{"-o without html", []string{file, "-o", filepath.Join(dir, "d.html")}, 2, []string{"--html", "-o"}},
		{"html and json", []string{file, "--html", "--json", "-o", filepath.Join(dir, "d.html")}, 2, []string{"--html"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkFails(t, append([]string{"diff"}, tc.args...), tc.code, tc.want...)
		})
	}
}

// TestDiffHTML writes the diff page of two runs and checks its data: two
// sides, aligned, with the divergences listed.
func TestDiffHTML(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "two.trace")
	recordWith(t, file, kiwipete, "2", "captures,see")
	out := filepath.Join(dir, "diff.html")
	code, stdout, stderr := runCLI(t, "", "diff", file, "--run", "1", "--run", "2", "--html", "-o", out)
	if code != 0 || stdout != "" || !strings.HasPrefix(stderr, "wrote ") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	// The message names the files as well as the runs (two files' runs are often both run 1).
	if want := fmt.Sprintf("run 1 of %s and run 2 of %s side by side", file, file); !strings.Contains(stderr, want) {
		t.Errorf("stderr %q does not say %q", stderr, want)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	d := pageData(t, b)
	if d.Kind != "diff" || len(d.Sides) != 2 || d.Diff == nil || len(d.Diff.Items) == 0 {
		t.Fatalf("page data: kind %q, %d sides, diff %+v", d.Kind, len(d.Sides), d.Diff)
	}
	if a, b := d.Sides[0], d.Sides[1]; a.Run.Variant != "captures+tt=false" || b.Run.Variant != "see+tt=false" || a.Nodes.Match[0] != 0 || b.Nodes.Match[0] != 0 {
		t.Fatalf("sides %s/%s, run nodes matched %d/%d", a.Run.Variant, b.Run.Variant, a.Nodes.Match[0], b.Nodes.Match[0])
	}
}

// TestDiffScoreBound: an MTD engine's score is a bound, and diff dropped
// it: its table read "score 40 35 -5" where runs says "+40 (lower
// bound)", and --json's a and b had no score_bound. The table writes the
// score as runs does and leaves B-A out (two bounds, or a bound and a
// score, are no distance); --json and --csv give the bound.
func TestDiffScoreBound(t *testing.T) {
	file := filepath.Join(t.TempDir(), "mtd.trace")
	for _, stream := range []string{
		// A fail-high probe ends the search: +40 is a lower bound (as in
		// TestImportNodeCounts).
		"HZT 1\nengine Sunfish\nposition startpos\nE - 1 29 30 i=1\nE e2e4 0 -30 -29\nS -40\nL -40\nL 40\n" +
			"E - 2 39 40 i=2\nE d2d4 1 -40 -39\nL -50\nL 50\nend best=e2e4\n",
		// A full window: +35 is exact.
		"HZT 1\nengine Sunfish\nposition startpos\nE - 1 -100 100 i=1\nE e2e4 0 -100 100\nS -35\nL -35\nL 35\nend best=e2e4\n",
	} {
		if code, _, stderr := runCLI(t, "", "import", writeFile(t, "s.hzt", stream), "-o", file); code != 0 {
			t.Fatalf("import: %s", stderr)
		}
	}
	code, out, stderr := runCLI(t, "", "diff", file, "--run", "1", "--run", "2")
	if code != 0 {
		t.Fatalf("diff: exit %d: %s", code, stderr)
	}
	var row string
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) > 0 && f[0] == "score" {
			row = strings.Join(f, " ")
		}
	}
	if want := "score +40 (lower bound) +35"; row != want {
		t.Errorf("score row %q, want %q\n%s", row, want, out)
	}
	var rep compare.Report
	js := cliJSON(t, &rep, "diff", file, "--run", "1", "--run", "2", "--json")
	if cell(rep.A.ScoreBound) != "lower" || rep.B.ScoreBound != nil || !strings.Contains(js, `"score_bound": "lower"`) || !strings.Contains(js, `"score_bound": null`) {
		t.Errorf("--json: a.score_bound %q, b.score_bound %q, want lower and null\n%s", cell(rep.A.ScoreBound), cell(rep.B.ScoreBound), js)
	}
	_, out, _ = runCLI(t, "", "diff", file, "--run", "1", "--run", "2", "--csv")
	for _, want := range []string{"\ntotal,score,40,35,\n", "\ntotal,score_bound,lower,,\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("--csv has no %q:\n%s", want, out)
		}
	}
}

// TestDiffPositionNamesBothRecords: diff's position line is both runs'.
// It gave A's position as runs shows it (trace.Run.Position), so a diff
// of WAC.002's run against a run of the same FEN from another record (or
// from --fen) named WAC.002 as B's record too. The line names the record
// when both runs share it, and each run's id when they differ.
func TestDiffPositionNamesBothRecords(t *testing.T) {
	const fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	for _, tc := range []struct {
		a, b string // the runs' EPD ids, "" for none
		want string
	}{
		{"", "", "position: " + fen},
		{"WAC.002", "WAC.002", "position: WAC.002 " + fen},
		{"WAC.002", "", "position: " + fen + " (EPD id: A WAC.002, B none)"},
		{"", "WAC.002", "position: " + fen + " (EPD id: A none, B WAC.002)"},
		{"WAC.002", "ECM.5", "position: " + fen + " (EPD id: A WAC.002, B ECM.5)"},
	} {
		side := func(id string) compare.Totals {
			r := trace.Run{FEN: fen, EPDID: id}
			return compare.Totals{RunFacts: trace.RunFacts{FEN: fen, EPDID: orNull(id)}, Position: r.Position()}
		}
		var b strings.Builder
		if err := (diffResult{&compare.Report{A: side(tc.a), B: side(tc.b)}}).writeText(&b); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "\n"+tc.want+"\n") {
			t.Errorf("ids %q and %q: want the line %q in\n%s", tc.a, tc.b, tc.want, b.String())
		}
	}
}

// TestDiffWindowsOnTwoScales: two runs of one search whose windows differ
// only in the number each engine's infinity is (30000 and 32000) are
// identical trees; diff found a difference by the numbers and worded none,
// printing "first difference, in visit order, at iteration 1: (root):"
// over an empty line.
func TestDiffWindowsOnTwoScales(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for _, inf := range []string{"30000", "32000"} {
		stream := strings.ReplaceAll("HZT 2\nengine Tiny\ninfinity INF\nposition startpos\nE - 1 -INF INF\n"+
			"E e2e4 0 -INF INF\nL -10\nE d2d4 0 -INF 10\nL -5\nL 10\nend best=e2e4\n", "INF", inf)
		file := filepath.Join(dir, inf+".trace")
		if code, _, stderr := runCLI(t, "", "import", writeFile(t, inf+".hzt", stream), "-o", file); code != 0 {
			t.Fatalf("import: %s", stderr)
		}
		files = append(files, file)
	}
	code, out, stderr := runCLI(t, "", "diff", files[0], files[1])
	if code != 0 || strings.Contains(out, "first difference") || !strings.Contains(out, "the trees are identical") {
		t.Errorf("diff: exit %d, %s; want identical trees\n%s", code, stderr, out)
	}
}

// TestDiffFilteredFirstKeepsSearches: under a recording filter the first
// difference (a node only one run recorded) gives each move's searches as
// every other difference does; it gave "searches": null, and its place
// lost the ·1 of a first search with later ones.
func TestDiffFilteredFirstKeepsSearches(t *testing.T) {
	file, _ := traceFile(t, "--fen", kiwipete, "--depth", "4", "--qs", "captures,see", "--last-iteration")
	var d struct {
		First *struct {
			Path     []string `json:"path"`
			Visits   []int    `json:"visits"`
			Searches []int    `json:"searches"`
			Fields   []string `json:"fields"`
		} `json:"first_difference"`
	}
	cliJSON(t, &d, "diff", file, "--run", "1", "--run", "2", "--json")
	if d.First == nil || len(d.First.Fields) == 0 || d.First.Fields[0] != "only_a" && d.First.Fields[0] != "only_b" {
		t.Fatalf("first difference %+v: the test needs a node only one run recorded", d.First)
	}
	if d.First.Searches == nil || len(d.First.Searches) != len(d.First.Path) {
		t.Errorf("first difference: path %q, visits %v, searches %v", d.First.Path, d.First.Visits, d.First.Searches)
	}
}
