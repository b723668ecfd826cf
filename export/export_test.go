package export

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/internal/golden"
	"github.com/horizonqs/horizon/trace"
)

// checkGolden compares got with testdata/name (-update rewrites it).
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), got)
}

// graphCases are the graphs of the golden tests, all on the fixed trace.
var graphCases = []struct {
	name string
	sel  Selection
	opts Options
}{
	{"last-iteration-25", Selection{Node: -1}, Options{MaxNodes: 25, Depth: -1}},
	{"path-qg6-lr-12", Selection{Node: -1, Path: []string{"Qg6"}}, Options{MaxNodes: 12, Depth: -1, RankDir: "LR"}},
	{"run-depth-1", Selection{Node: 0}, Options{MaxNodes: 30, Depth: 1}},
	{"qs-only-15", Selection{Node: -1}, Options{MaxNodes: 15, Depth: -1, QSOnly: true}},
	{"qs-only-depth-0", Selection{Node: -1}, Options{MaxNodes: 8, Depth: 0, QSOnly: true}},
}

func buildCase(t *testing.T, st *trace.Store, sel Selection, opts Options) *Graph {
	t.Helper()
	ctx := context.Background()
	run, top := resolve(t, st, sel)
	g, err := Build(ctx, st, run, top, opts)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestGoldenDOT(t *testing.T) {
	st, _ := fixedTrace(t)
	for _, c := range graphCases {
		t.Run(c.name, func(t *testing.T) {
			g := buildCase(t, st, c.sel, c.opts)
			var dot bytes.Buffer
			if err := g.WriteDOT(&dot); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, c.name+".dot", dot.Bytes())
			// The same graph built again gives the same bytes.
			var again bytes.Buffer
			if err := buildCase(t, st, c.sel, c.opts).WriteDOT(&again); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(dot.Bytes(), again.Bytes()) {
				t.Fatal("two builds of the same graph wrote different DOT")
			}
		})
	}
}

func TestGoldenJSON(t *testing.T) {
	st, _ := fixedTrace(t)
	c := graphCases[0]
	g := buildCase(t, st, c.sel, c.opts)
	var out bytes.Buffer
	if err := g.WriteJSON(&out); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, c.name+".json", out.Bytes())
	var back jsonGraph
	if err := json.Unmarshal(out.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Nodes) != len(g.Nodes) || len(back.Summaries) != len(g.Summaries) {
		t.Fatalf("JSON holds %d nodes and %d summaries, the graph %d and %d",
			len(back.Nodes), len(back.Summaries), len(g.Nodes), len(g.Summaries))
	}
}

// TestJSONNulls: the top node's parent is its real parent's id (null only
// for the run node, which has none), and qs_level is null where the engine
// has no QS level, as SQL and the other JSON say it (both were -1); qs_ply
// is the trace's, null outside QS (it was left out).
func TestJSONNulls(t *testing.T) {
	st, _ := recordedTrace(t, "levels.horizon", fixedFEN, 2, false, "threshold")
	for name, sel := range map[string]Selection{"run node": {Node: 0}, "last iteration": {Node: -1}, "Qg6": {Node: -1, Path: []string{"Qg6"}}} {
		t.Run(name, func(t *testing.T) {
			g := buildCase(t, st, sel, Options{MaxNodes: 400, Depth: -1})
			var out bytes.Buffer
			if err := g.WriteJSON(&out); err != nil {
				t.Fatal(err)
			}
			var back struct {
				Nodes []struct {
					ID      int64
					Parent  *int64
					Kind    string
					QSLevel *int `json:"qs_level"`
					QSPly   *int `json:"qs_ply"`
				}
			}
			if err := json.Unmarshal(out.Bytes(), &back); err != nil {
				t.Fatal(err)
			}
			top := back.Nodes[0]
			if g.Top.Parent < 0 != (top.Parent == nil) || top.Parent != nil && *top.Parent != g.Top.Parent {
				t.Fatalf("the top node %d's parent is %v, want %d (null for the run node)", top.ID, top.Parent, g.Top.Parent)
			}
			levels := 0
			for i, n := range back.Nodes {
				if (n.QSLevel == nil) != (g.Nodes[i].QSLevel < 0) || n.QSLevel != nil && *n.QSLevel != g.Nodes[i].QSLevel {
					t.Fatalf("node %d (%s): qs_level %v, the trace's %d", n.ID, n.Kind, n.QSLevel, g.Nodes[i].QSLevel)
				}
				if n.QSLevel != nil {
					levels++
				}
				if qs := g.Nodes[i].Kind == engine.KindQS; qs != (n.QSPly != nil) || qs && *n.QSPly != g.Nodes[i].QSPly {
					t.Fatalf("node %d (%s): qs_ply %v, the trace's %d", n.ID, n.Kind, n.QSPly, g.Nodes[i].QSPly)
				}
			}
			if levels == 0 || levels == len(back.Nodes) {
				t.Fatalf("%d of %d nodes have a QS level: want some of each", levels, len(back.Nodes))
			}
		})
	}
}

// dotNodeLine matches a tree node's or a summary's statement in the DOT text.
var dotNodeLine = regexp.MustCompile(`(?m)^\t([ns])\d+ \[`)

// TestBudget checks, over budgets from 1 to more than the tree, from the
// last iteration and from the run node, that the graph keeps to the budget
// and that no node is lost: the shown nodes and the summaries' counts add
// up to the subtree. From the run node the budget counted the run node
// ("9 of 122 nodes shown" under --max-nodes 10), and --qs-only failed,
// calling the file damaged when it met an iteration's root.
func TestBudget(t *testing.T) {
	st, _ := fixedTrace(t)
	for _, top := range []int64{-1, 0} {
		for _, qsOnly := range []bool{false, true} {
			for _, depth := range []int{-1, 2} {
				for _, budget := range []int{1, 2, 5, 40, 200, 20000} {
					name := fmt.Sprintf("top=%d/qsonly=%v/depth=%d/max=%d", top, qsOnly, depth, budget)
					t.Run(name, func(t *testing.T) {
						g := buildCase(t, st, Selection{Node: top}, Options{MaxNodes: budget, Depth: depth, QSOnly: qsOnly})
						checkGraph(t, g, budget)
						if top == 0 && budget < 40 && g.Shown() != budget {
							t.Errorf("%d nodes shown under a budget of %d", g.Shown(), budget)
						}
					})
				}
			}
		}
	}
}

func checkGraph(t *testing.T, g *Graph, budget int) {
	t.Helper()
	var dot bytes.Buffer
	if err := g.WriteDOT(&dot); err != nil {
		t.Fatal(err)
	}
	var shown, sums int
	for _, m := range dotNodeLine.FindAllStringSubmatch(dot.String(), -1) {
		if m[1] == "n" {
			shown++
		} else {
			sums++
		}
	}
	if shown != len(g.Nodes) || sums != len(g.Summaries) {
		t.Fatalf("DOT has %d nodes and %d summaries, the graph %d and %d", shown, sums, len(g.Nodes), len(g.Summaries))
	}
	if g.Shown() > budget {
		t.Fatalf("%d nodes shown, budget %d", g.Shown(), budget)
	}
	if sums > shown {
		t.Fatalf("%d summaries for %d shown nodes: at most one each", sums, shown)
	}
	if g.Nodes[0].ID != g.Top.ID || g.Nodes[0].Parent != -1 {
		t.Fatalf("first node %d (parent %d), want the top %d", g.Nodes[0].ID, g.Nodes[0].Parent, g.Top.ID)
	}
	seen := map[int]bool{}
	for i, n := range g.Nodes[1:] {
		i++
		if n.Parent < 0 || n.Parent >= i {
			t.Fatalf("node %d: parent index %d does not come before it (%d)", n.ID, n.Parent, i)
		}
		if !g.Nodes[n.Parent].Contains(n.ID) {
			t.Fatalf("node %d is not in its parent %d's subtree", n.ID, g.Nodes[n.Parent].ID)
		}
		if d := g.Options.Depth; d >= 0 && n.Level > d {
			t.Fatalf("node %d at level %d, depth limit %d", n.ID, n.Level, d)
		}
		if n.PV && !g.Nodes[n.Parent].PV {
			t.Fatalf("node %d is on the PV but its parent is not", n.ID)
		}
		if n.PV && seen[n.Parent] {
			t.Fatalf("node %d: two PV children", g.Nodes[n.Parent].ID)
		}
		if n.PV {
			seen[n.Parent] = true
		}
	}
	var nodes, rows int64
	for _, s := range g.Summaries {
		nodes += s.Nodes
		rows += s.Rows
		if s.Children < 1 || s.Nodes < int64(s.Children) {
			t.Fatalf("summary of node %d: %d children, %d nodes", g.Nodes[s.Parent].ID, s.Children, s.Nodes)
		}
		if s.QSRows > s.Rows || (s.QSRows > 0) != (s.MaxQSPly >= 0) {
			t.Fatalf("summary of node %d: %d QS rows of %d, max QS ply %d", g.Nodes[s.Parent].ID, s.QSRows, s.Rows, s.MaxQSPly)
		}
	}
	if g.QSOnly {
		// Every QS row under the top is shown or in a summary.
		if got := int64(len(g.Nodes)-1) + rows; got != g.QSNodes {
			t.Fatalf("%d QS nodes shown or summarised, %d under the top", got, g.QSNodes)
		}
		if got := int64(len(g.Nodes)-1) + rows + g.FullWidth + 1; got != g.Top.SubtreeSize {
			t.Fatalf("QS %d + full-width %d + top = %d, subtree %d", g.QSNodes, g.FullWidth, got, g.Top.SubtreeSize)
		}
		return
	}
	if got := int64(len(g.Nodes)) + nodes; got != g.Top.SubtreeSize {
		t.Fatalf("%d nodes shown + %d in summaries = %d, subtree holds %d", len(g.Nodes), nodes, got, g.Top.SubtreeSize)
	}
	if got := int64(len(g.Nodes)) + rows; got != g.Top.SubtreeSize {
		t.Fatalf("%d nodes shown + %d rows counted in summaries = %d, subtree holds %d", len(g.Nodes), rows, got, g.Top.SubtreeSize)
	}
}

// TestShownCount: a graph that shows everything says "N nodes; N shown",
// N the top node's Nodes(), whether the top is the run node (no position,
// so in neither figure: it said "88 of 87") or an iteration root.
func TestShownCount(t *testing.T) {
	st, _ := recordedTrace(t, "small.horizon", fixedFEN, 1, false, "see")
	for _, node := range []int64{0, -1} {
		t.Run(fmt.Sprintf("node %d", node), func(t *testing.T) {
			g := buildCase(t, st, Selection{Node: node}, Options{MaxNodes: 100000, Depth: -1})
			if len(g.Summaries) != 0 {
				t.Fatalf("%d summaries: the trace does not fit the budget", len(g.Summaries))
			}
			if int64(g.Shown()) != g.Top.Nodes() {
				t.Fatalf("Shown() = %d of %d nodes", g.Shown(), g.Top.Nodes())
			}
			var dot bytes.Buffer
			if err := g.WriteDOT(&dot); err != nil {
				t.Fatal(err)
			}
			want := fmt.Sprintf(": %d nodes; %d shown, 0 summaries", g.Top.Nodes(), g.Top.Nodes())
			if !strings.Contains(dot.String(), want) {
				t.Fatalf("the title does not say %q:\n%.600s", want, dot.String())
			}
		})
	}
}

// TestBudgetKeepsBigAndPV checks the choice of children: the PV is shown
// as far as the budget goes, and a node left out is never bigger than a
// shown non-PV sibling.
func TestBudgetKeepsBigAndPV(t *testing.T) {
	st, _ := fixedTrace(t)
	ctx := context.Background()
	g := buildCase(t, st, Selection{Node: -1}, Options{MaxNodes: 20, Depth: -1})
	// Follow the PV in the trace and in the graph together.
	cur := 0
	for {
		n := g.Nodes[cur]
		next := -1
		for i := range g.Nodes {
			if g.Nodes[i].Parent == cur && g.Nodes[i].PV {
				next = i
			}
		}
		if next < 0 {
			if n.Best != engine.NoMove && n.SubtreeSize > 1 && len(g.Nodes) < 20 {
				t.Fatalf("PV stops at node %d (best %s) with budget left", n.ID, n.Best.UCI())
			}
			break
		}
		if g.Nodes[next].Move != n.Best {
			t.Fatalf("PV child of node %d plays %s, best is %s", n.ID, g.Nodes[next].Move.UCI(), n.Best.UCI())
		}
		cur = next
	}
	for i, n := range g.Nodes {
		if n.Summary < 0 {
			continue
		}
		kids, err := st.Children(ctx, g.Run.ID, n.ID, trace.BySearch, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		shown := map[int64]bool{}
		var smallest int64 = -1
		for _, m := range g.Nodes {
			if m.Parent == i {
				shown[m.ID] = true
				if !m.PV && (smallest < 0 || m.SubtreeSize < smallest) {
					smallest = m.SubtreeSize
				}
			}
		}
		for _, k := range kids {
			if !shown[k.ID] && smallest >= 0 && k.SubtreeSize > smallest {
				t.Fatalf("node %d: child %d (%d nodes) collapsed while a sibling of %d nodes is shown", n.ID, k.ID, k.SubtreeSize, smallest)
			}
		}
	}
}

// TestGoldenSizeMaps checks the two maps of subtree sizes, the icicle SVG
// and the data an HTML tree page embeds, for the fixed trace: the subtree
// after Qg6, and the whole run two levels deep.
func TestGoldenSizeMaps(t *testing.T) {
	st, _ := fixedTrace(t)
	icicle := func(opts IcicleOptions) func(*testing.T, Selection) []byte {
		return func(t *testing.T, sel Selection) []byte {
			run, top := resolve(t, st, sel)
			var out bytes.Buffer
			if err := WriteIcicle(context.Background(), st, run, top, opts, &out); err != nil {
				t.Fatal(err)
			}
			return out.Bytes()
		}
	}
	page := func(opts HTMLOptions) func(*testing.T, Selection) []byte {
		return func(t *testing.T, sel Selection) []byte {
			_, _, d := buildPage(t, st, sel, opts)
			checkPageData(t, st, d)
			return pageJSON(t, d)
		}
	}
	qg6, whole := Selection{Node: -1, Path: []string{"Qg6"}}, Selection{Node: 0}
	for _, c := range []struct {
		golden string
		sel    Selection
		draw   func(*testing.T, Selection) []byte
	}{
		{"icicle-qg6.svg", qg6, icicle(IcicleOptions{Width: 400, Depth: -1})},
		{"icicle-run-depth-2.svg", whole, icicle(IcicleOptions{Width: 600, Depth: 2})},
		{"html-qg6-120.json", qg6, page(HTMLOptions{Width: 120, Depth: -1})},
		{"html-run-depth-2.json", whole, page(HTMLOptions{Width: 300, Depth: 2})},
	} {
		t.Run(c.golden, func(t *testing.T) { checkGolden(t, c.golden, c.draw(t, c.sel)) })
	}
}

// svgRect is what the icicle test reads of the SVG.
type svgDoc struct {
	Width  float64  `xml:"width,attr"`
	Groups []svgG   `xml:"g"`
	Rects  []svgRct `xml:"rect"`
}

type svgG struct {
	Class  string  `xml:"class,attr"`
	Groups []svgG  `xml:"g"`
	Rect   *svgRct `xml:"rect"`
	Title  string  `xml:"title"`
}

type svgRct struct {
	X     float64 `xml:"x,attr"`
	Y     float64 `xml:"y,attr"`
	Width float64 `xml:"width,attr"`
}

// TestIcicleShape checks the whole fixed trace's icicle: valid XML, the
// top node spans the chart, and every row's rectangles stay inside the
// chart and do not overlap.
func TestIcicleShape(t *testing.T) {
	st, _ := fixedTrace(t)
	ctx := context.Background()
	run, top := resolve(t, st, Selection{Node: 0})
	for _, width := range []int{300, 1600} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			var out bytes.Buffer
			if err := WriteIcicle(ctx, st, run, top, IcicleOptions{Width: width, Depth: -1}, &out); err != nil {
				t.Fatal(err)
			}
			var doc svgDoc
			if err := xml.Unmarshal(out.Bytes(), &doc); err != nil {
				t.Fatalf("icicle is not valid XML: %v", err)
			}
			var items []svgG
			for _, g := range doc.Groups {
				items = append(items, g.Groups...)
			}
			byRow := map[float64][]svgRct{}
			nodes := 0
			for _, g := range items {
				if g.Rect == nil {
					t.Fatalf("group %q without a rectangle", g.Class)
				}
				if g.Title == "" {
					t.Fatalf("rectangle at %v,%v without a tooltip", g.Rect.X, g.Rect.Y)
				}
				if g.Class == "node" {
					nodes++
				}
				byRow[g.Rect.Y] = append(byRow[g.Rect.Y], *g.Rect)
			}
			if nodes == 0 {
				t.Fatal("no node rectangles")
			}
			first := byRow[icicleHeader]
			if len(first) != 1 || first[0].X != icicleMargin || abs(first[0].Width-float64(width-icicleMargin)) > 0.01 {
				t.Fatalf("top row %+v, want one rectangle spanning %d..%d", first, icicleMargin, width)
			}
			for y, rs := range byRow {
				for i, r := range rs {
					if r.X < icicleMargin-0.01 || r.X+r.Width > float64(width)+0.01 {
						t.Fatalf("row y=%v: rectangle %+v outside the chart", y, r)
					}
					for _, s := range rs[i+1:] {
						if r.X+r.Width > s.X+0.02 && s.X+s.Width > r.X+0.02 {
							t.Fatalf("row y=%v: rectangles %+v and %+v overlap", y, r, s)
						}
					}
				}
			}
			if nodes > width*len(byRow) {
				t.Fatalf("%d node rectangles in %d rows of %d pixels", nodes, len(byRow), width)
			}
		})
	}
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

func TestResolveErrors(t *testing.T) {
	st, _ := fixedTrace(t)
	ctx := context.Background()
	cases := []struct {
		name string
		sel  Selection
		want error
		text string
	}{
		{"unknown run", Selection{Run: 7, Node: -1}, trace.ErrNoRun, "run 7"},
		{"unknown node", Selection{Node: 123456789}, trace.ErrNoNode, "123456789"},
		{"illegal move", Selection{Node: -1, Path: []string{"Qg6", "Ke9"}}, trace.ErrNoMove, "Ke9"},
		{"legal move not searched", Selection{Node: -1, Path: []string{"Qg6", "Kg8"}}, trace.ErrNoMove, "Kg8"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := Resolve(ctx, st, c.sel)
			if !errors.Is(err, c.want) {
				t.Fatalf("error %v, want %v", err, c.want)
			}
			if !strings.Contains(err.Error(), c.text) {
				t.Fatalf("error %q does not name %q", err, c.text)
			}
		})
	}
}

func TestParseFormat(t *testing.T) {
	for _, f := range Formats() {
		if g, err := ParseFormat(strings.ToUpper(string(f))); err != nil || g != f {
			t.Fatalf("ParseFormat(%q) = %q, %v", f, g, err)
		}
	}
	if _, err := ParseFormat("gif"); err == nil || !strings.Contains(err.Error(), "icicle") {
		t.Fatalf("ParseFormat(gif): %v, want an error listing the formats", err)
	}
	for path, want := range map[string]Format{"a.dot": DOT, "a.GV": DOT, "x/y.svg": SVG, "t.png": PNG, "t.json": JSON} {
		if f, ok := FormatOf(path); !ok || f != want {
			t.Fatalf("FormatOf(%q) = %q, %v; want %q", path, f, ok, want)
		}
	}
	if _, ok := FormatOf("tree.txt"); ok {
		t.Fatal("FormatOf(tree.txt) guessed a format")
	}
}

// TestFormatTable: the format table is the one home of the formats: each
// extension names one format and comes back as it, a format drawn as
// another is written by neither extension alone, a Graphviz layout is a
// graph's, and the help's lists come from the table.
func TestFormatTable(t *testing.T) {
	claimed := map[string]Format{}
	for _, s := range Specs() {
		if (s.Write == nil) == (s.WriteFiles == nil) || (s.WriteFiles == nil) != (len(s.Files) == 0) || s.Reading == nil {
			t.Errorf("%s: not one writer (of a file or of files), or no progress words", s.Format)
		}
		if s.Layout && !s.Graph {
			t.Errorf("%s: laid out by Graphviz, yet no graph", s.Format)
		}
		for _, ext := range s.Exts {
			if other, ok := claimed[ext]; ok {
				t.Errorf("%s names both %s and %s", ext, other, s.Format)
			}
			claimed[ext] = s.Format
			if f, ok := FormatOf("x/out" + strings.ToUpper(ext)); !ok || f != s.Format {
				t.Errorf("FormatOf(out%s) = %q, %v; want %s", ext, f, ok, s.Format)
			}
		}
		for _, d := range s.DrawnAs {
			if _, ok := SpecOf(d); !ok {
				t.Errorf("%s is drawn as %s, which is no format", s.Format, d)
			}
		}
		if len(s.Exts) == 0 && len(s.DrawnAs) == 0 && len(s.Files) == 0 {
			t.Errorf("%s: no file may hold it", s.Format)
		}
	}
	if got, want := FormatNames(", ", " or "), "dot, svg, png, json, icicle, html or parquet"; got != want {
		t.Errorf("FormatNames = %q, want %q", got, want)
	}
	if got := FormatExts(); !strings.HasPrefix(got, ".dot, .svg, .png, .json") || strings.Contains(got, ".gv") {
		t.Errorf("FormatExts = %q: want each format's first extension", got)
	}
	if s, _ := SpecOf(Icicle); s.ExtText() != "svg or .png" {
		t.Errorf("icicle's ExtText = %q", s.ExtText())
	}
}

func TestLabels(t *testing.T) {
	openRoot := trace.Node{ID: 9, Kind: engine.KindRoot, Iteration: 8, Depth: 8, Alpha: -engine.Infinity, Beta: engine.Infinity,
		Cause: engine.CauseStop, Incomplete: true, Open: true, SubtreeSize: 4}
	closedRoot := openRoot
	closedRoot.Open, closedRoot.Score = false, 5
	openRun := trace.Node{Kind: engine.KindRun, RunID: 1, Cause: engine.CauseStop, Incomplete: true, Open: true, SubtreeSize: 13}
	openPage := PageSide{Run: pageRun(trace.Run{Status: trace.StatusAbandoned})}
	openPage.add(openRun, -1, "", 1, 1, "", -1, false)
	cases := []struct{ got, want string }{
		{quote(`a"b\c`, "d"), `"a\"b\\c\nd"`},
		{xmlText(`<a & "b">`), "&lt;a &amp; &quot;b&quot;&gt;"},
		{px(1.5), "1.5"}, {px(2), "2"}, {px(0.126), "0.13"},
		// A QS-only run's QS root has no move (it was labelled "0000").
		{labelLines(trace.Run{}, trace.Node{ID: 1, Kind: engine.KindQS, QSLevel: -1}, "")[0], trace.QSRootLabel},
		// Another engine's scores are its numbers (Sunfish's 34663 is no
		// ∞); its run node's window is Horizon's full window.
		{strings.Join(labelLines(trace.Run{Engine: "sunfish"}, trace.Node{ID: 3, Kind: engine.KindQS, Move: engine.NullMove, Alpha: 34663, Beta: 34664,
			Score: 84, Bound: engine.BoundUpper, QSLevel: -1}, "Qxf7"), "|"), "Qxf7|qs 0|[34663, 34664]|score +84 upper|id 3, 0 nodes"},
		{trace.Run{Engine: "sunfish"}.WindowText(trace.Node{Kind: engine.KindRun, Alpha: -engine.Infinity, Beta: engine.Infinity}), "[-∞, ∞]"},
		// A node still open when its rows were written never stopped:
		// its run's word for it (the viewer's), no score.
		{strings.Join(labelLines(trace.Run{Status: trace.StatusRunning}, openRoot, ""), "|"), "root|iteration 8, d8|[-∞, ∞]|score not known|running|incomplete|id 9, 4 nodes"},
		{strings.Join(labelLines(trace.Run{Status: trace.StatusAbandoned}, openRun, ""), "|"), "run 1|run|score not known|abandoned|incomplete|id 0, 13 nodes"},
		// The eval a node computed is a stand pat only where its variant
		// stands pat: none's horizon nodes and stand-pat false name it
		// the static eval (trace.EvalWords).
		{labelLines(trace.Run{Variant: "none"}, trace.Node{ID: 2, Kind: engine.KindNonPV, HasStandPat: true, StandPat: 12, QSLevel: -1}, "e4")[3], "static eval +12"},
		{labelLines(trace.Run{Variant: "captures"}, trace.Node{ID: 2, Kind: engine.KindQS, HasStandPat: true, StandPat: 12, QSLevel: -1}, "e4")[3], "stand pat +12"},
		{labelLines(trace.Run{Variant: "captures", Options: `{"variant":"captures","stand-pat":false}`}, trace.Node{ID: 2, Kind: engine.KindQS, HasStandPat: true, StandPat: 12, QSLevel: -1}, "e4")[3], "static eval +12"},
		{labelLines(trace.Run{Variant: "see"}, trace.Node{ID: 2, Kind: engine.KindQS, InCheck: true, HasStandPat: true, StandPat: 12, QSLevel: -1}, "e4")[3], "static eval +12"},
		{strings.Join(labelLines(trace.Run{Status: trace.StatusTruncated}, closedRoot, ""), "|"), "root|iteration 8, d8|[-∞, ∞]|score +5 none|stopped|incomplete|id 9, 4 nodes"},
		{fmt.Sprintf("%v %s", openPage.Nodes.Open, openPage.Run.OpenWord), "[0] abandoned"},
		{trace.Run{}.WindowText(trace.Node{Kind: engine.KindQS, Alpha: 34663, Beta: engine.MateScore - 5}), "[∞, #3]"},
	}
	for i, c := range cases {
		if c.got != c.want {
			t.Errorf("case %d: got %q, want %q", i, c.got, c.want)
		}
	}
}

// TestIcicleReads checks what the icicle claims against the whole subtree
// read row by row: every node tooltip's QS share and max QS ply are the
// true ones where stated exactly and bound them where given as a range;
// the drawn nodes and the merged runs' subtrees account for every node;
// and the chart reads exactly the children of the nodes it draws.
func TestIcicleReads(t *testing.T) {
	st, _ := fixedTrace(t)
	ctx := context.Background()
	idRe := regexp.MustCompile(`\nid (\d+), `)
	subRe := regexp.MustCompile(`\nsubtree: [\d.]+% of the chart, (\d+)%(?: to (\d+)% QS \(not all of it read\)| QS)(?:, max QS ply (?:(\d+)( or more)?|not read))?$`)
	mergedRe := regexp.MustCompile(`^([\d,]+) nodes merged, each narrower than a pixel(?:, ([\d,]+) with their subtrees)?\n`)
	number := func(s string) int64 {
		v, err := strconv.ParseInt(strings.ReplaceAll(s, ",", ""), 10, 64)
		if err != nil {
			t.Fatalf("number %q: %v", s, err)
		}
		return v
	}
	for _, sel := range []Selection{{Node: 0}, {Node: -1, Path: []string{"Qg6"}}} {
		run, top := resolve(t, st, sel)
		// The truth: every node's subtree QS count and deepest QS ply.
		path, err := st.Path(ctx, run.ID, top.ID)
		if err != nil {
			t.Fatal(err)
		}
		type figures struct {
			qs       int64
			maxQSPly int
		}
		truth := map[int64]*figures{}
		var open []trace.Node
		shut := func(n trace.Node) {
			open = open[:len(open)-1]
			if len(open) > 0 {
				f, up := truth[n.ID], truth[open[len(open)-1].ID]
				up.qs += f.qs
				up.maxQSPly = max(up.maxQSPly, f.maxQSPly)
			}
		}
		w := newWalker(path)
		err = st.Subtree(ctx, run.ID, top.ID, -1, func(n trace.Node) error {
			for len(open) > 0 && open[len(open)-1].End() <= n.ID {
				shut(open[len(open)-1])
			}
			f := &figures{maxQSPly: -1}
			if qs, qsPly, _ := w.visit(n); qs {
				f.qs, f.maxQSPly = 1, qsPly
			}
			truth[n.ID] = f
			open = append(open, n)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for len(open) > 0 {
			shut(open[len(open)-1])
		}
		for _, width := range []int{300, 1600} {
			for _, depth := range []int{-1, 3} {
				t.Run(fmt.Sprintf("node %d width %d depth %d", top.ID, width, depth), func(t *testing.T) {
					var out bytes.Buffer
					read, err := writeIcicle(ctx, st, run, top, IcicleOptions{Width: width, Depth: depth}, &out)
					if err != nil {
						t.Fatal(err)
					}
					var doc svgDoc
					if err := xml.Unmarshal(out.Bytes(), &doc); err != nil {
						t.Fatal(err)
					}
					var drawn, merged, children int64
					for _, g := range doc.Groups[0].Groups {
						if g.Class == "merged" {
							m := mergedRe.FindStringSubmatch(g.Title)
							if m == nil {
								t.Fatalf("merged run tooltip %q", g.Title)
							}
							if m[2] == "" {
								m[2] = m[1]
							}
							merged += number(m[2])
							continue
						}
						drawn++
						id := number(idRe.FindStringSubmatch(g.Title)[1])
						n, err := st.Node(ctx, run.ID, id)
						if err != nil {
							t.Fatal(err)
						}
						if row := (int(g.Rect.Y) - icicleHeader) / 18; depth < 0 || row < depth {
							k, err := st.ChildCount(ctx, run.ID, id)
							if err != nil {
								t.Fatal(err)
							}
							children += int64(k)
						}
						m := subRe.FindStringSubmatch(g.Title)
						if m == nil {
							t.Fatalf("node %d: tooltip %q", id, g.Title)
						}
						f := truth[id]
						share := engine.WholePercent(float64(f.qs) / float64(n.SubtreeSize))
						lo, hi := number(m[1]), number(m[1])
						if m[2] != "" {
							hi = number(m[2])
						}
						if got := number(strings.TrimSuffix(share, "%")); got < lo || got > hi {
							t.Fatalf("node %d: %s QS, tooltip says %d%% to %d%%", id, share, lo, hi)
						}
						switch {
						case m[3] == "" && f.maxQSPly >= 0 && lo == hi && !strings.HasSuffix(g.Title, "not read"):
							t.Fatalf("node %d: max QS ply %d not given", id, f.maxQSPly)
						case m[3] != "" && m[4] == "" && int(number(m[3])) != f.maxQSPly:
							t.Fatalf("node %d: max QS ply %d, tooltip says %s", id, f.maxQSPly, m[3])
						case m[3] != "" && int(number(m[3])) > f.maxQSPly:
							t.Fatalf("node %d: max QS ply %d, tooltip says %s or more", id, f.maxQSPly, m[3])
						}
					}
					if read != children {
						t.Fatalf("read %d rows; the drawn nodes above the depth limit have %d children", read, children)
					}
					if depth < 0 && drawn+merged != top.SubtreeSize {
						t.Fatalf("%d drawn + %d in merged runs, subtree of %d", drawn, merged, top.SubtreeSize)
					}
				})
			}
		}
	}
}

// TestSourcesAgree builds every golden graph twice: from the subtree read
// into memory and from node-by-node queries, on one walk or three, walking
// every collapsed child alone (chunk 0), the shown nodes of a few rows
// whole, or the top's subtree; the DOT must be the same.
func TestSourcesAgree(t *testing.T) {
	st, _ := fixedTrace(t)
	for _, c := range graphCases {
		t.Run(c.name, func(t *testing.T) {
			var mem, q bytes.Buffer
			if err := buildCase(t, st, c.sel, c.opts).WriteDOT(&mem); err != nil {
				t.Fatal(err)
			}
			oldWorkers, oldChunk := statsWorkers, chunkRows
			defer func() { statsWorkers, chunkRows = oldWorkers, oldChunk }()
			defer queried()()
			for _, workers := range []int{1, 3} {
				for _, chunk := range []int64{0, 3, 40, 1 << 40} {
					statsWorkers, chunkRows = workers, chunk
					q.Reset()
					if err := buildCase(t, st, c.sel, c.opts).WriteDOT(&q); err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(mem.Bytes(), q.Bytes()) {
						t.Fatalf("the graph read from memory and the graph queried node by node (%d walks, chunks of %d rows) differ", workers, chunk)
					}
				}
			}
		})
	}
}

// TestFilteredTrace exports a trace recorded with a filter (only the nodes
// under one move, plus the roots): ids have gaps, and subtree sizes count
// nodes the file does not hold.
func TestFilteredTrace(t *testing.T) {
	ctx := context.Background()
	st := filteredTrace(t)
	for _, byQuery := range []bool{false, true} {
		t.Run(fmt.Sprint("queried=", byQuery), func(t *testing.T) {
			if byQuery {
				defer queried()()
			}
			for _, qsOnly := range []bool{false, true} {
				g := buildCase(t, st, Selection{Node: -1}, Options{MaxNodes: 12, Depth: -1, QSOnly: qsOnly})
				if len(g.Nodes) > 12 || len(g.Nodes) < 2 {
					t.Fatalf("qs-only %v: %d nodes shown", qsOnly, len(g.Nodes))
				}
				var rows, nodes, unrecorded int64
				for _, s := range g.Summaries {
					rows += s.Rows
					nodes += s.Nodes
					unrecorded += s.Unrecorded
				}
				if !qsOnly {
					// Every node the search visited is shown or counted.
					if got := int64(len(g.Nodes)) + nodes; got != g.Top.SubtreeSize {
						t.Fatalf("%d shown + %d in summaries = %d, subtree of %d visited nodes", len(g.Nodes), nodes, got, g.Top.SubtreeSize)
					}
					if unrecorded == 0 || int64(len(g.Nodes))+rows+unrecorded != g.Top.SubtreeSize {
						t.Fatalf("%d shown + %d rows + %d unrecorded, subtree of %d", len(g.Nodes), rows, unrecorded, g.Top.SubtreeSize)
					}
				}
				var dot bytes.Buffer
				if err := g.WriteDOT(&dot); err != nil {
					t.Fatal(err)
				}
				if !qsOnly && !strings.Contains(dot.String(), "not recorded (recording filter)") {
					t.Fatal("no summary says which nodes were not recorded")
				}
			}
			run, top := resolve(t, st, Selection{Node: 0})
			var out bytes.Buffer
			if err := WriteIcicle(ctx, st, run, top, IcicleOptions{Depth: -1}, &out); err != nil {
				t.Fatal(err)
			}
			if err := xml.Unmarshal(out.Bytes(), new(svgDoc)); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestHeadingsMarkVisits: the DOT, icicle and HTML headings of a subtree
// under a re-searched move mark its visit (dxe6·2), as every path Horizon
// prints; they read as the first search's path.
func TestHeadingsMarkVisits(t *testing.T) {
	st, _ := recordedTrace(t, "kiwi.trace", kiwipete, 4, true, "captures")
	ctx := context.Background()
	run, _ := resolve(t, st, Selection{Node: -1})
	hs, err := st.Hotspots(ctx, run.ID, trace.HotspotBySize, 50)
	if err != nil {
		t.Fatal(err)
	}
	var top trace.Node
	var visits, searches []int
	for _, h := range hs {
		v, n, err := trace.Visits(ctx, st, run.ID, h.Node.ID)
		if err != nil {
			t.Fatal(err)
		}
		if slices.ContainsFunc(v, func(n int) bool { return n > 1 }) {
			top, visits, searches = h.Node, v, n
			break
		}
	}
	if visits == nil {
		t.Fatal("no hotspot lies under a re-searched move: the test needs one")
	}
	san, err := st.PathSAN(ctx, run.ID, top.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Join(trace.MarkVisits(san, visits, searches), " ")
	g, err := Build(ctx, st, run, top, Options{MaxNodes: 10, Depth: -1})
	if err != nil {
		t.Fatal(err)
	}
	var dot, icicle, page bytes.Buffer
	if err := g.WriteDOT(&dot); err != nil {
		t.Fatal(err)
	}
	if err := WriteIcicle(ctx, st, run, top, IcicleOptions{Width: 800}, &icicle); err != nil {
		t.Fatal(err)
	}
	p, err := BuildPage(ctx, st, run, top, HTMLOptions{Depth: 2})
	if err != nil {
		t.Fatal(err)
	}
	page.WriteString(p.Title)
	for name, b := range map[string]*bytes.Buffer{"DOT": &dot, "icicle": &icicle, "HTML title": &page} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the %s heading does not say the path %q:\n%.600s", name, want, b.String())
		}
	}
}

// labelLines is nodeLines with the run's own EvalWords.
func labelLines(r trace.Run, n trace.Node, san string) []string {
	return nodeLines(r, r.EvalWords(), n, san)
}

// TestJSONNamesViewColumns: export's JSON names a node's fields as the
// trace's SQL view nodes does (its --help says so), every column of the
// view a key, but for the three it gives another way: run_id (the run
// object), parent_id (parent) and move (move_uci and move_san). qs_ply was
// missing, so a script read a QS node's ply from -depth, which a threshold
// QS or an extension makes wrong.
func TestJSONNamesViewColumns(t *testing.T) {
	st, path := fixedTrace(t)
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query("SELECT name FROM pragma_table_info('nodes')")
	if err != nil {
		t.Fatal(err)
	}
	var cols []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			t.Fatal(err)
		}
		cols = append(cols, c)
	}
	if err := rows.Err(); err != nil || len(cols) < 20 {
		t.Fatalf("columns of the view nodes: %v (%v)", cols, err)
	}
	var out bytes.Buffer
	if err := buildCase(t, st, graphCases[0].sel, graphCases[0].opts).WriteJSON(&out); err != nil {
		t.Fatal(err)
	}
	var back struct{ Nodes []map[string]any }
	if err := json.Unmarshal(out.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	given := map[string]string{"run_id": "", "parent_id": "parent", "move": "move_uci"}
	for _, c := range cols {
		key, ok := given[c]
		if !ok {
			key = c
		}
		if _, has := back.Nodes[0][key]; key != "" && !has {
			t.Errorf("the view's column %s has no key %s in export's JSON", c, key)
		}
	}
}

// TestMemSourceStops: a subtree read into memory is still walked under the
// export's context, so Ctrl-C stops a build of a big budget from memory.
func TestMemSourceStops(t *testing.T) {
	st, _ := fixedTrace(t)
	run, top := resolve(t, st, Selection{Node: 0})
	ctx, cancel := context.WithCancel(context.Background())
	src, err := newSource(ctx, st, run, top, DefaultMaxNodes)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := src.(*memSource); !ok || top.SubtreeSize < ctxRows {
		t.Fatalf("want a memSource of at least %d rows; got %T of %d", ctxRows, src, top.SubtreeSize)
	}
	cancel()
	if err := src.walk(func(trace.Node) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("walk after cancel: %v, want context.Canceled", err)
	}
}
