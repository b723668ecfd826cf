package foreign

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/horizonqs/horizon/check"
	"github.com/horizonqs/horizon/compare"
	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/export"
	"github.com/horizonqs/horizon/trace"
	"github.com/horizonqs/horizon/viewer"
)

// nestedStream is a depth-2 search of the start position whose root makes
// an IID search (the engine calls its search on the position: a node it
// counts) and, before e2e4, a singular test of e2e4 (a loop over the
// other moves: no node it counts, u=1).
const nestedStream = `HZT 4
position startpos
E - 2 -100 100 i=2
E - 1 -100 100 n=iid
M e2e4 0
E e2e4 0 -100 100
S -20
L -20
L 20
E - 1 9 10 n=singular e=e2e4 u=1
M d2d4 0
E d2d4 0 -10 -9
S 5
L 5
L -5
M e2e4 0
E e2e4 1 -100 100
E e7e5 0 -100 100
S 10
L 10
L -10
L 10
end nodes=6
`

// TestNestedImport: a nested search's root is a child without a move of
// the node that makes it, its reason and excluded move are stored, its
// score is not its parent's move's (the root's best move and PV are
// e2e4's, not the nested searches'), and the engine's count is held to
// the stream's nodes less the roots it does not count.
func TestNestedImport(t *testing.T) {
	st, run, r := importRun(t, nestedStream)
	ctx := context.Background()
	if r.Nodes != 7 || r.Uncounted != 1 {
		t.Errorf("nodes %d, uncounted %d; want 7 and 1", r.Nodes, r.Uncounted)
	}
	if run.BestMove != "e2e4" || run.Score != 10 {
		t.Errorf("best %q score %v, want e2e4 10", run.BestMove, run.Score)
	}
	ns, err := st.NestedSearches(ctx, r.RunID)
	if err != nil {
		t.Fatal(err)
	}
	start, err := engine.ParseFEN("startpos")
	if err != nil {
		t.Fatal(err)
	}
	e2e4, err := start.ParseUCI("e2e4")
	if err != nil {
		t.Fatal(err)
	}
	want := map[int64]trace.NestedSearch{
		2: {ID: 2, Reason: "iid"},
		4: {ID: 4, Reason: "singular", Excluded: e2e4, Uncounted: true},
	}
	if len(ns) != len(want) {
		t.Fatalf("nested searches %+v, want %+v", ns, want)
	}
	for id, w := range want {
		if got := ns[id]; got != w {
			t.Errorf("nested search %d: %+v, want %+v", id, got, w)
		}
		n, err := st.Node(ctx, r.RunID, id)
		if err != nil {
			t.Fatal(err)
		}
		if !trace.IsNested(n) || n.Parent != 1 || n.Ply != 1 {
			t.Errorf("node %d: %+v: want a nested search below node 1 at ply 1", id, n)
		}
	}
	if got := trace.NestedText(ns[4]); got != "[singular -e2e4]" {
		t.Errorf("NestedText = %q", got)
	}
	root, err := st.Node(ctx, r.RunID, 1)
	if err != nil {
		t.Fatal(err)
	}
	if root.Best != e2e4 || root.Cause != engine.CauseNone || root.Searched != 1 {
		t.Errorf("root: best %s cause %s searched %d; want e2e4, none, 1 (nested searches are no moves)", root.Best.Text(), root.Cause, root.Searched)
	}
}

// TestNestedErrors: what a nested search's fields refuse, each naming
// the fault.
func TestNestedErrors(t *testing.T) {
	head := "HZT 4\nposition startpos\nE - 2 -100 100\n"
	for _, tc := range []struct{ stream, want string }{
		{strings.Replace(head, "HZT 4", "HZT 3", 1) + "E - 1 -100 100 n=iid\n", `n= (a nested search) in a version 3 stream: the header must say "HZT 4"`},
		{head + "E - 1 -100 100 n=i*d\n", `nested search reason "i*d"`},
		{head + "E - 1 -100 100 n=" + strings.Repeat("x", 33) + "\n", "nested search reason"},
		{head + "E e2e4 1 -100 100 n=iid\n", `a nested search (n=iid) with move "e2e4"`},
		{head + "E - 1 -100 100 n=singular e=e2e5\n", "excluded move: illegal move e2e5"},
		{head + "E e2e4 1 -100 100 e=d2d4\n", "e= and u= are a nested search's"},
		{head + "E - 1 -100 100 u=1\n", "a node with no move below node 1: only roots and nested searches (n=) have none"},
		{head + "E - 1 -100 100 n=iid u=2\n", "u=2: want 0 or 1"},
		{"HZT 4\nposition startpos\nE - 1 -100 100 n=iid\n", "a root (no node open) is no nested search"},
	} {
		st := mustCreate(t)
		_, err := Import(context.Background(), st, strings.NewReader(tc.stream), Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one with %q", tc.stream, err, tc.want)
		}
	}
}

// TestNestedCheck: check holds a nested search to being shallower than
// its node and a singular test to leaving its move out; the example
// stream keeps both.
func TestNestedCheck(t *testing.T) {
	for _, tc := range []struct {
		name, from, to string
		want           []string
	}{
		{"clean", "", "", nil},
		{"as deep as its node", "E - 1 -100 100 n=iid", "E - 2 -100 100 n=iid", []string{"a nested [iid] search at depth 2 in a node of depth 2"}},
		{"searched its excluded move", "E - 1 9 10 n=singular e=e2e4 u=1\nM d2d4 0\nE d2d4", "E - 1 9 10 n=singular e=d2d4 u=1\nM d2d4 0\nE d2d4",
			[]string{"the singular search at node 4 leaves d2d4 out, but searched it"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, run, _ := importRun(t, strings.Replace(nestedStream, tc.from, tc.to, 1))
			rep, err := check.Run(context.Background(), st, run.ID, check.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, v := range rep.Violations {
				got = append(got, v.Detail)
			}
			if len(got) != len(tc.want) || len(got) > 0 && !strings.Contains(got[0], tc.want[0]) {
				t.Errorf("violations %q, want %q", got, tc.want)
			}
		})
	}
}

// TestNestedShown: export's DOT and the viewer mark a nested search's
// root by its reason where a child shows its move.
func TestNestedShown(t *testing.T) {
	st, run, _ := importRun(t, nestedStream)
	ctx := context.Background()
	er, top, err := export.Resolve(ctx, st, export.Selection{Run: run.ID, Node: 1})
	if err != nil {
		t.Fatal(err)
	}
	g, err := export.Build(ctx, st, er, top, export.Options{MaxNodes: 40, Depth: 3})
	if err != nil {
		t.Fatal(err)
	}
	var dot strings.Builder
	if err := g.WriteDOT(&dot); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"[iid]", "[singular -e2e4]"} {
		if !strings.Contains(dot.String(), want) {
			t.Errorf("DOT has no %q:\n%s", want, dot.String())
		}
	}
	m, err := viewer.New(ctx, st, viewer.Options{Run: run.ID})
	if err != nil {
		t.Fatal(err)
	}
	text := screenText(t, m)
	for _, want := range []string{"[iid]", "[singular -e"} { // the move column cuts the rest
		if !strings.Contains(text, want) {
			t.Errorf("the viewer shows no %q:\n%s", want, text)
		}
	}
}

// screenText is what m draws on a 160x40 screen, a line a row.
func screenText(t *testing.T, m *viewer.Model) string {
	t.Helper()
	s := tcell.NewSimulationScreen("UTF-8")
	if err := s.Init(); err != nil {
		t.Fatal(err)
	}
	defer s.Fini()
	s.SetSize(160, 40)
	m.Draw(s)
	s.Show()
	cells, w, _ := s.GetContents()
	var text strings.Builder
	for i, c := range cells {
		if i%w == 0 {
			text.WriteByte('\n')
		}
		text.WriteString(string(c.Runes))
	}
	return text.String()
}

// nestedTwiceStream is nestedStream with a second IID search at the root
// (node 4, after the first): the two are "[iid]·1" and "[iid]·2".
const nestedTwiceStream = `HZT 4
position startpos
E - 2 -100 100 i=2
E - 1 -100 100 n=iid
M e2e4 0
E e2e4 0 -100 100
S -20
L -20
L 20
E - 1 -100 100 n=iid
M d2d4 0
E d2d4 0 -100 100
S -10
L -10
L 10
E - 1 9 10 n=singular e=e2e4 u=1
M d2d4 0
E d2d4 0 -10 -9
S 5
L 5
L -5
M e2e4 0
E e2e4 1 -100 100
E e7e5 0 -100 100
S 10
L 10
L -10
L 10
end nodes=8
`

// TestNestedPlaces: a place through a nested search names it by its mark
// (its visit marked as a move's), its path has a step for every node (the
// JSON path and visits line up), and it reads back (ParsePlace, Find, the
// viewer's --path and /) to the node; a mark the node has no search for
// is an error naming the ones it has.
func TestNestedPlaces(t *testing.T) {
	st, run, _ := importRun(t, nestedTwiceStream)
	ctx := context.Background()
	want := map[int64]string{
		1: "iteration 2: (root)",
		2: "iteration 2: [iid]·1",
		3: "iteration 2: [iid]·1 e4",
		4: "iteration 2: [iid]·2",
		5: "iteration 2: [iid]·2 d4",
		6: "iteration 2: [singular -e2e4]",
		7: "iteration 2: [singular -e2e4] d4",
		8: "iteration 2: e4",
		9: "iteration 2: e4 e5",
	}
	for id, w := range want {
		pf, text, err := trace.PlaceOf(ctx, st, run.ID, id)
		if err != nil {
			t.Fatal(err)
		}
		if text != w {
			t.Errorf("node %d: place %q, want %q", id, text, w)
		}
		if len(pf.Path) != len(pf.Visits) {
			t.Errorf("node %d: path %q and visits %v do not line up", id, pf.Path, pf.Visits)
		}
		// Typed with other spacing, case and the ASCII visit mark too.
		for _, typed := range []string{text, strings.NewReplacer("·", ".", "[singular -", "[SINGULAR  -").Replace(text)} {
			root, moves, err := trace.ParsePlace(typed)
			if err != nil {
				t.Fatalf("node %d: ParsePlace(%q): %v", id, typed, err)
			}
			n, err := st.Find(ctx, run.ID, 0, moves)
			if err != nil || n.ID != id || root.It != 2 {
				t.Errorf("node %d: %q reads back to node %d (iteration %d, %v)", id, typed, n.ID, root.It, err)
			}
			m, err := viewer.New(ctx, st, viewer.Options{Run: run.ID, Path: moves})
			if err != nil || m.SelectedNode().ID != id {
				t.Errorf("node %d: the viewer's --path %q selects node %d (%v)", id, typed, m.SelectedNode().ID, err)
			}
			// The viewer's / from another node, as a user types it.
			from := int64(9)
			m, err = viewer.New(ctx, st, viewer.Options{Run: run.ID, Node: &from})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range "/" + typed {
				m.Handle(tcell.NewEventKey(tcell.KeyRune, r, tcell.ModNone))
			}
			m.Handle(tcell.NewEventKey(tcell.KeyEnter, 0, tcell.ModNone))
			if m.SelectedNode().ID != id {
				t.Errorf("node %d: the viewer's / %q selects node %d", id, typed, m.SelectedNode().ID)
			}
		}
	}
	// The viewer's details print the path with the mark, which / reads.
	from := int64(5)
	m, err := viewer.New(ctx, st, viewer.Options{Run: run.ID, Node: &from})
	if err != nil {
		t.Fatal(err)
	}
	if text := screenText(t, m); !strings.Contains(text, "path      [iid]·2 1. d4") {
		t.Errorf("the details of node 5 give no path [iid]·2 1. d4:\n%s", text)
	}
	for _, tc := range []struct{ path, want string }{
		{"[razor]", "step 1 ([razor]) at node 1: no such nested search was made (its nested searches: [iid], [singular -e2e4])"},
		{"[iid]·3", "step 1 ([iid]·3) at node 1: such a search was made twice"},
		{"e4 [iid]", "it made no nested search"},
		{"[iid]x", `"x" after [iid] is no visit mark`},
	} {
		_, err := st.Find(ctx, run.ID, 0, trace.SplitPath(tc.path))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Find(%q): %v, want an error with %q", tc.path, err, tc.want)
		}
		_, err = viewer.New(ctx, st, viewer.Options{Run: run.ID, Path: trace.SplitPath(tc.path)})
		if err == nil {
			t.Errorf("viewer --path %q: no error", tc.path)
		}
	}
}

// TestNestedDiffAligns: diff lines a nested search up with its
// counterpart of the same reason and excluded move, not with whichever
// nested search came first: run B makes the singular test before the IID
// search.
func TestNestedDiffAligns(t *testing.T) {
	iid := "E - 1 -100 100 n=iid\nM e2e4 0\nE e2e4 0 -100 100\nS -20\nL -20\nL 20\n"
	sing := "E - 1 9 10 n=singular e=e2e4 u=1\nM d2d4 0\nE d2d4 0 -10 -9\nS 5\nL 5\nL -5\n"
	if !strings.Contains(nestedStream, iid+sing) {
		t.Fatal("nestedStream changed: the test swaps its two nested searches")
	}
	sta, runA, _ := importRun(t, nestedStream)
	stb, runB, _ := importRun(t, strings.Replace(nestedStream, iid+sing, sing+iid, 1))
	ctx := context.Background()
	a, b := compare.Side{Store: sta, Run: runA.ID}, compare.Side{Store: stb, Run: runB.ID}
	pairs, err := compare.AlignChildren(ctx, a, 1, b, 1)
	if err != nil {
		t.Fatal(err)
	}
	nsA, _ := sta.NestedSearches(ctx, runA.ID)
	nsB, _ := stb.NestedSearches(ctx, runB.ID)
	var got []string
	for _, p := range pairs {
		if p.A == nil || p.B == nil {
			t.Errorf("key %+v: only one run has it", p.Key)
			continue
		}
		la, lb := p.A.Move.UCI(), p.B.Move.UCI()
		if trace.IsNested(*p.A) {
			la = trace.NestedText(nsA[p.A.ID])
		}
		if trace.IsNested(*p.B) {
			lb = trace.NestedText(nsB[p.B.ID])
		}
		got = append(got, la+"="+lb)
	}
	if want := "[iid]=[iid] [singular -e2e4]=[singular -e2e4] e2e4=e2e4"; strings.Join(got, " ") != want {
		t.Errorf("pairs %q, want %q", strings.Join(got, " "), want)
	}
	// The same through a node's counterpart (diff's places and --node).
	twin, ok, err := compare.Counterpart(ctx, a, 2, b) // A's IID root
	if err != nil || !ok || nsB[twin.ID].Reason != "iid" {
		t.Errorf("counterpart of A's [iid]: node %d (%v, %v), want B's IID root", twin.ID, ok, err)
	}
	rep, err := compare.Align(ctx, a, b, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.OnlyA != 0 || rep.OnlyB != 0 {
		t.Errorf("diff: %d nodes only in A, %d only in B; want none", rep.OnlyA, rep.OnlyB)
	}
	// The diff page labels both sides' nested roots with their marks.
	page, err := export.BuildDiffPage(ctx, a, b, export.HTMLOptions{Depth: -1})
	if err != nil {
		t.Fatal(err)
	}
	for si, want := range []map[int64]string{{2: "[iid]", 4: "[singular -e2e4]"}, {2: "[singular -e2e4]", 4: "[iid]"}} {
		nodes := page.Sides[si].Nodes
		for i, id := range nodes.ID {
			if w, ok := want[id]; ok && nodes.SAN[i] != w {
				t.Errorf("diff page, side %d: node %d labelled %q, want %q", si, id, nodes.SAN[i], w)
			}
		}
	}
}

// TestNestedPage: the HTML page labels a nested search's root with its
// mark, as the viewer does, and its place reads back.
func TestNestedPage(t *testing.T) {
	st, run, _ := importRun(t, nestedStream)
	ctx := context.Background()
	top, err := st.Node(ctx, run.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	page, err := export.BuildPage(ctx, st, run, top, export.HTMLOptions{Depth: -1})
	if err != nil {
		t.Fatal(err)
	}
	nodes := page.Sides[0].Nodes
	label := map[int64]string{}
	for i, id := range nodes.ID {
		label[id] = nodes.SAN[i]
	}
	if label[2] != "[iid]" || label[4] != "[singular -e2e4]" || label[3] != "e4" {
		t.Errorf("labels of nodes 2, 3, 4: %q, %q, %q; want [iid], e4, [singular -e2e4]", label[2], label[3], label[4])
	}
}

// TestNestedPython: the nested searches examples/python/nested.py writes
// through the Python emitter import (skipped without python3): the
// engine's count is the stream's nodes less the root it does not count,
// and the nested table holds both reasons and the excluded move.
func TestNestedPython(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not on PATH: the Python emitter is not tried")
	}
	stream := filepath.Join(t.TempDir(), "nested.hzt")
	cmd := exec.Command(py, "-B", filepath.Join("..", "examples", "python", "nested.py"))
	cmd.Env = append(os.Environ(), "HORIZON_TRACE="+stream)
	said, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3: %v\n%s", err, said)
	}
	out, err := os.ReadFile(stream)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(out), "HZT 4\n") || string(said) != "nodes 6\n" {
		t.Errorf("stream starts %q, the script said %q; want a version 4 header and 6 nodes", engine.Clip(string(out), 40), said)
	}
	st, _, r := importRun(t, string(out))
	if r.Nodes != 7 || r.Uncounted != 1 || r.EngineNodes != 6 {
		t.Errorf("nodes %d, uncounted %d, the engine's %d; want 7, 1, 6", r.Nodes, r.Uncounted, r.EngineNodes)
	}
	ns, err := st.NestedSearches(context.Background(), r.RunID)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for id := int64(0); id <= 7; id++ {
		if n, ok := ns[id]; ok {
			got = append(got, fmt.Sprintf("%d %s %v", id, trace.NestedText(n), n.Uncounted))
		}
	}
	if want := "2 [iid] false, 4 [singular -e2e4] true"; strings.Join(got, ", ") != want {
		t.Errorf("nested table %q, want %q", strings.Join(got, ", "), want)
	}
}

// TestNestedCheckPlace: check's violations name a place through a nested
// search as every reader does, and it reads back: here the second IID
// search, as deep as its node.
func TestNestedCheckPlace(t *testing.T) {
	second := "E - 1 -100 100 n=iid\nM d2d4 0"
	if strings.Count(nestedTwiceStream, second) != 1 {
		t.Fatal("nestedTwiceStream changed: the test deepens its second IID search")
	}
	st, run, _ := importRun(t, strings.Replace(nestedTwiceStream, second, "E - 2 -100 100 n=iid\nM d2d4 0", 1))
	ctx := context.Background()
	rep, err := check.Run(ctx, st, run.ID, check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Violations) != 1 || rep.Violations[0].Node != 4 || rep.Violations[0].Place != "iteration 2: [iid]·2" ||
		strings.Join(rep.Violations[0].Path, " ") != "[iid]" {
		t.Fatalf("violations %+v, want one at node 4, iteration 2: [iid]·2", rep.Violations)
	}
	_, moves, err := trace.ParsePlace(rep.Violations[0].Place)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := st.Find(ctx, run.ID, 0, moves); err != nil || n.ID != 4 {
		t.Errorf("the place reads back to node %d (%v)", n.ID, err)
	}
}
