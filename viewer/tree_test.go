package viewer

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
	"github.com/horizonqs/horizon/trace/tracetest"
)

// wantRow is one row as the oracle expects it.
type wantRow struct {
	id      int64 // node id; the parent's id for a "hidden" line
	summary bool
}

// oracleKeep decides a filter by reading the whole subtree, a different
// path from the tree's early-stopping walk.
func oracleKeep(tb testing.TB, st *trace.Store, run int64, c trace.Node, f filter) bool {
	tb.Helper()
	if c.SubtreeSize < f.minSize {
		return false
	}
	if !f.onlyQS && !f.onlyCut {
		return true
	}
	key := [2]int64{run, c.ID}
	has, ok := oracleMemo[key]
	if !ok {
		err := st.Subtree(context.Background(), run, c.ID, -1, func(n trace.Node) error {
			has[0] = has[0] || n.Kind == engine.KindQS
			has[1] = has[1] || isCut(n)
			return nil
		})
		if err != nil {
			tb.Fatal(err)
		}
		oracleMemo[key] = has
	}
	return (!f.onlyQS || has[0]) && (!f.onlyCut || has[1])
}

// oracleMemo caches, per node of the fixture, whether its subtree holds a
// QS node and a cutoff node (the fixture never changes).
var oracleMemo = map[[2]int64][2]bool{}

// flatten lists the rows a tree should show: the run node, then for every
// open node its children (those the filter keeps) in the tree's order, with
// a "hidden" line when the filter hid some.
func flatten(tb testing.TB, st *trace.Store, t *tree) []wantRow {
	tb.Helper()
	rows := []wantRow{{id: 0}}
	if t.root == nil {
		return rows
	}
	var walk func(id int64)
	walk = func(id int64) {
		hidden := 0
		for _, c := range allChildren(tb, st, t.run.ID, id, t.order) {
			if !oracleKeep(tb, st, t.run.ID, c, t.filt) {
				hidden++
				continue
			}
			rows = append(rows, wantRow{id: c.ID})
			if _, ok := t.open[c.ID]; ok {
				walk(c.ID)
			}
		}
		if hidden > 0 {
			rows = append(rows, wantRow{id: id, summary: true})
		}
	}
	walk(0)
	return rows
}

// checkRows compares every row of t with the oracle, both ways: row to
// node (locate) and node to row (rowOfChild).
func checkRows(tb testing.TB, st *trace.Store, t *tree) {
	tb.Helper()
	want := flatten(tb, st, t)
	if got := t.rows(); got != len(want) {
		tb.Fatalf("tree has %d rows, want %d", got, len(want))
	}
	for row, w := range want {
		r, ok := t.locate(row)
		if !ok {
			tb.Fatalf("row %d: not found", row)
		}
		n, err := t.nodeAt(r)
		if err != nil {
			tb.Fatalf("row %d: %v", row, err)
		}
		if n.ID != w.id || r.isSummary() != w.summary {
			tb.Fatalf("row %d: node %d (hidden line %v), want %d (hidden line %v)", row, n.ID, r.isSummary(), w.id, w.summary)
		}
		if !r.isRun() {
			if back := t.rowOfChild(r.parent, r.i); back != row {
				tb.Fatalf("row %d: rowOfChild says %d", row, back)
			}
		}
	}
	if _, ok := t.locate(len(want)); ok {
		tb.Fatalf("row %d past the end was found", len(want))
	}
}

func mustTree(tb testing.TB, st *trace.Store, run int64) *tree {
	tb.Helper()
	t, err := newTree(context.Background(), st, run)
	if err != nil {
		tb.Fatal(err)
	}
	t.height = 20
	return t
}

func TestTreeOpensOnLastIteration(t *testing.T) {
	st := openFixture(t)
	for run := int64(1); run <= int64(len(fixtureVariants)); run++ {
		t.Run(fixtureVariants[run-1], func(t *testing.T) {
			tr := mustTree(t, st, run)
			iters := allChildren(t, st, run, 0, trace.BySearch)
			last := iters[len(iters)-1]
			_, n, err := tr.selected()
			if err != nil {
				t.Fatal(err)
			}
			if n.ID != last.ID || n.Kind != engine.KindRoot {
				t.Errorf("selected node %d (%s), want the last iteration root %d", n.ID, n.Kind, last.ID)
			}
			if _, ok := tr.open[last.ID]; !ok {
				t.Errorf("the last iteration is not open")
			}
			checkRows(t, st, tr)
		})
	}
}

// TestTreeExpandCollapse opens and closes nodes in a fixed pseudo-random
// order and checks every row against the oracle after each step, in both
// orders and under each filter.
func TestTreeExpandCollapse(t *testing.T) {
	st := openFixture(t)
	cases := []struct {
		name  string
		run   int64
		order trace.Order
		filt  filter
	}{
		{"captures", 1, trace.BySearch, filter{}},
		{"captures by size", 1, trace.BySize, filter{}},
		{"unified", 3, trace.BySearch, filter{}},
		{"threshold min size", 4, trace.BySearch, filter{minSize: 20}},
		{"see only QS", 2, trace.BySearch, filter{onlyQS: true}},
		{"captures only cutoffs by size", 1, trace.BySize, filter{onlyCut: true}},
		{"see all filters", 2, trace.BySearch, filter{minSize: 5, onlyQS: true, onlyCut: true}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := mustTree(t, st, c.run)
			if err := tr.setOrder(c.order); err != nil {
				t.Fatal(err)
			}
			if err := tr.setFilter(c.filt); err != nil {
				t.Fatal(err)
			}
			checkRows(t, st, tr)
			steps := 15
			if testing.Short() {
				steps = 8
			}
			for i := 0; i < steps; i++ {
				row := (i*7919 + 13) % tr.rows()
				r, _ := tr.locate(row)
				n, err := tr.nodeAt(r)
				if err != nil {
					t.Fatal(err)
				}
				if e, ok := tr.open[n.ID]; ok && !r.isSummary() {
					before := tr.rows()
					tr.collapse(e)
					if tr.rows() >= before && e.rows > 0 {
						t.Fatalf("collapsing node %d left %d rows (was %d)", n.ID, tr.rows(), before)
					}
				} else if err := tr.expandRow(row); err != nil {
					t.Fatal(err)
				}
				checkRows(t, st, tr)
			}
		})
	}
}

// TestTreePaging reads children through a tiny page cache: every row must
// still be right, and the cache must stay within its bound.
func TestTreePaging(t *testing.T) {
	st := openFixture(t)
	for _, order := range []trace.Order{trace.BySearch, trace.BySize} {
		t.Run(fmt.Sprint("order ", order), func(t *testing.T) {
			tr := mustTree(t, st, 1)
			tr.psize, tr.pages = 3, newPageCache(2)
			if err := tr.setOrder(order); err != nil {
				t.Fatal(err)
			}
			// Open every child of the last iteration root.
			e := tr.root.kids[0]
			for i := e.count - 1; i >= 0; i-- {
				n, err := tr.child(e, i)
				if err != nil {
					t.Fatal(err)
				}
				if n.SubtreeSize > 1 {
					if _, err := tr.expandChild(e, i, n); err != nil {
						t.Fatal(err)
					}
				}
			}
			checkRows(t, st, tr)
			if n := tr.pages.len(); n > 2 {
				t.Errorf("page cache holds %d pages, bound is 2", n)
			}
		})
	}
}

func TestTreeCursorAndScroll(t *testing.T) {
	st := openFixture(t)
	tr := mustTree(t, st, 1)
	tr.height = 10
	rows := tr.rows()
	if rows < 30 {
		t.Fatalf("fixture too small: %d rows", rows)
	}
	cases := []struct {
		name        string
		do          func()
		cursor, top int
	}{
		{"home", func() { tr.setCursor(0) }, 0, 0},
		{"down inside the screen", func() { tr.setCursor(5) }, 5, 0},
		{"down to the margin", func() { tr.setCursor(8) }, 8, 1},
		{"far down", func() { tr.setCursor(20) }, 20, 13},
		{"past the end", func() { tr.setCursor(rows + 5) }, rows - 1, rows - 10},
		{"up to the margin", func() { tr.setCursor(rows - 9) }, rows - 9, rows - 11},
		{"before the start", func() { tr.setCursor(-3) }, 0, 0},
		{"wheel down drags the cursor", func() { tr.scroll(6) }, 8, 6},
		{"wheel past the end", func() { tr.scroll(rows) }, rows - 8, rows - 10},
		{"wheel back up", func() { tr.scroll(-rows) }, 7, 0},
		{"centre", func() { tr.setCursor(20); tr.center() }, 20, 15},
	}
	for _, c := range cases {
		c.do()
		if tr.cursor != c.cursor || tr.top != c.top {
			t.Errorf("%s: cursor %d top %d, want cursor %d top %d", c.name, tr.cursor, tr.top, c.cursor, c.top)
		}
	}
}

// TestTreeReveal opens the path to a sample of nodes of every kind.
func TestTreeReveal(t *testing.T) {
	st := openFixture(t)
	for run := int64(1); run <= int64(len(fixtureVariants)); run++ {
		t.Run(fixtureVariants[run-1], func(t *testing.T) {
			tr := mustTree(t, st, run)
			r, err := st.Run(context.Background(), run)
			if err != nil {
				t.Fatal(err)
			}
			step := r.Rows/20 + 1
			for id := int64(0); id < r.Rows; id += step {
				if err := tr.reveal(id); err != nil {
					t.Fatalf("reveal %d: %v", id, err)
				}
				_, n, err := tr.selected()
				if err != nil {
					t.Fatal(err)
				}
				if n.ID != id {
					t.Fatalf("reveal %d selected node %d", id, n.ID)
				}
				if tr.cursor < tr.top || tr.cursor >= tr.top+tr.height {
					t.Fatalf("reveal %d: cursor %d off screen (top %d)", id, tr.cursor, tr.top)
				}
			}
			checkRows(t, st, tr)
		})
	}
}

func TestTreeRevealHidden(t *testing.T) {
	st := openFixture(t)
	tr := mustTree(t, st, 1)
	var leaf trace.Node
	err := st.Subtree(context.Background(), 1, 0, -1, func(n trace.Node) error {
		if n.SubtreeSize == 1 && n.Kind == engine.KindQS {
			leaf = n
			return errFound
		}
		return nil
	})
	if !errors.Is(err, errFound) {
		t.Fatalf("no QS leaf in the fixture: %v", err)
	}
	if err := tr.setFilter(filter{minSize: 2}); err != nil {
		t.Fatal(err)
	}
	var he hiddenError
	if err := tr.reveal(leaf.ID); !errors.As(err, &he) {
		t.Fatalf("reveal of leaf %d under a size filter: %v, want hiddenError", leaf.ID, err)
	}
	if err := tr.reveal(1 << 40); !errors.Is(err, trace.ErrNoNode) {
		t.Fatalf("reveal of a node that does not exist: %v, want ErrNoNode", err)
	}
}

// TestTreeRebuildKeepsCursor changes order and filter with the cursor deep
// in the tree.
func TestTreeRebuildKeepsCursor(t *testing.T) {
	st := openFixture(t)
	tr := mustTree(t, st, 1)
	// A QS node three levels into QS, small enough for a size filter to
	// hide it.
	var deep trace.Node
	st.Subtree(context.Background(), 1, 0, -1, func(n trace.Node) error {
		if n.Kind == engine.KindQS && n.Depth == -2 && n.SubtreeSize < 5 {
			deep = n
			return errFound
		}
		return nil
	})
	if deep.ID == 0 {
		t.Fatal("no QS node at QS ply 2 in the fixture")
	}
	if err := tr.reveal(deep.ID); err != nil {
		t.Fatal(err)
	}
	if err := tr.setOrder(trace.BySize); err != nil {
		t.Fatal(err)
	}
	if _, n, _ := tr.selected(); n.ID != deep.ID {
		t.Fatalf("after sorting by size the cursor is on node %d, want %d", n.ID, deep.ID)
	}
	checkRows(t, st, tr)
	if err := tr.setFilter(filter{minSize: 5}); err != nil {
		t.Fatal(err)
	}
	_, n, _ := tr.selected()
	if !n.Contains(deep.ID) || n.ID == deep.ID || n.SubtreeSize < 5 {
		t.Fatalf("after hiding node %d the cursor is on node %d, want its nearest shown ancestor", deep.ID, n.ID)
	}
	checkRows(t, st, tr)
	tr.collapseAll()
	if tr.rows() != 1+tr.root.count+b2i(tr.root.summary()) || tr.cursor != 0 {
		t.Fatalf("after closing everything: %d rows, cursor %d", tr.rows(), tr.cursor)
	}
	checkRows(t, st, tr)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestTreeDuplicateMoves checks that a node whose children repeat a move
// (one per pass of the unified and threshold searches, or a PVS re-search)
// shows every one of them, in search order.
func TestTreeDuplicateMoves(t *testing.T) {
	st := openFixture(t)
	for _, run := range []int64{3, 4} {
		t.Run(fixtureVariants[run-1], func(t *testing.T) {
			tr := mustTree(t, st, run)
			found := false
			st.Subtree(context.Background(), run, 0, 4, func(n trace.Node) error {
				if n.SubtreeSize <= 1 {
					return nil
				}
				kids := allChildren(t, st, run, n.ID, trace.BySearch)
				seen := map[engine.Move]bool{}
				dup := false
				for _, k := range kids {
					dup = dup || seen[k.Move]
					seen[k.Move] = true
				}
				if !dup {
					return nil
				}
				found = true
				if err := tr.reveal(n.ID); err != nil {
					t.Fatal(err)
				}
				if err := tr.expandRow(tr.cursor); err != nil {
					t.Fatal(err)
				}
				e := tr.open[n.ID]
				if e.count != len(kids) {
					t.Fatalf("node %d shows %d children, has %d", n.ID, e.count, len(kids))
				}
				for i, k := range kids {
					c, err := tr.child(e, i)
					if err != nil {
						t.Fatal(err)
					}
					if c.ID != k.ID {
						t.Fatalf("node %d child %d is %d, want %d", n.ID, i, c.ID, k.ID)
					}
				}
				return errFound
			})
			if !found {
				t.Skip("no node with a repeated move in the first plies of this run")
			}
		})
	}
}

func TestTreeFindPath(t *testing.T) {
	st := openFixture(t)
	tr := mustTree(t, st, 1)
	r := tr.run
	if len(r.PV) < 2 {
		t.Fatalf("run has a short PV: %v", r.PV)
	}
	// The PV given in SAN must lead to a node whose path is the PV.
	pos := engine.MustParseFEN(r.FEN)
	var san []string
	for _, u := range r.PV {
		mv, err := pos.ParseUCI(u)
		if err != nil {
			t.Fatal(err)
		}
		san = append(san, pos.SAN(mv))
		pos.MakeMove(mv)
	}
	n, err := tr.findPath(tr.runNode, "", san)
	if err != nil {
		t.Fatal(err)
	}
	path, err := st.Path(context.Background(), 1, n.ID)
	if err != nil {
		t.Fatal(err)
	}
	var uci []string
	for _, p := range path {
		if p.Move != engine.NoMove {
			uci = append(uci, p.Move.UCI())
		}
	}
	if fmt.Sprint(uci) != fmt.Sprint(r.PV) {
		t.Errorf("path %v leads to node %d whose moves are %v", san, n.ID, uci)
	}
	if want, err := st.Find(context.Background(), 1, 0, san); err != nil || want.ID != n.ID {
		t.Errorf("findPath gave node %d, trace.Find %d (%v)", n.ID, want.ID, err)
	}
	// The path the details print, a re-searched move marked with its
	// visit (Bxc3·2), leads back to the node; ·1 names the first visit,
	// which prints marked ·1 too (bare is the last).
	in := tr.info(n)
	again := slices.IndexFunc(in.uci, func(m string) bool { return strings.Contains(m, trace.VisitSep) })
	if in.err != nil || again < 0 {
		t.Fatalf("the PV's path %v (%v) marks no re-search: the test needs one", in.uci, in.err)
	}
	if m, err := tr.findPath(tr.runNode, "", in.uci); err != nil || m.ID != n.ID {
		t.Errorf("findPath(%v) = node %d, %v; want %d", in.uci, m.ID, err, n.ID)
	}
	first := slices.Clone(in.uci[:again+1])
	mv, _, _ := strings.Cut(first[again], trace.VisitSep)
	first[again] = mv + trace.VisitSep + "1"
	if m, err := tr.findPath(tr.runNode, "", first); err != nil || m.ID == n.ID || tr.info(m).uci[again] != first[again] {
		t.Errorf("findPath(%v) = node %d (path %v), %v; want the first visit of %s", first, m.ID, tr.info(m).uci, err, mv)
	}
	// Errors name the move.
	if _, err := tr.findPath(tr.runNode, "", []string{san[0], "Ke9"}); err == nil || !strings.Contains(err.Error(), "move 2 (Ke9)") {
		t.Errorf("bad move: %v", err)
	}
	if _, err := tr.findPath(tr.runNode, "", []string{"a3", "Kd8", "a4", "Kc8"}); !errors.Is(err, trace.ErrNoMove) {
		t.Errorf("a path the search never took: %v, want ErrNoMove", err)
	}
}

// TestFindPathInReportedIteration: from the run node, the viewer's /
// and --path start in the iteration the run reports (trace.ReportedRoot),
// as trace.Find (export --path) does; they took the last root, so on a
// search stopped inside an iteration it never finished one path led to
// two nodes.
func TestFindPathInReportedIteration(t *testing.T) {
	ctx := context.Background()
	w, path := tracetest.CreateTrace(t)
	id := tracetest.RecordSearch(t, w, engine.StartFEN, tracetest.VariantOptions(t, "see"), engine.Limits{Depth: 9, Nodes: 3000})
	w.Close()
	st := tracetest.Open(t, path)
	tr := mustTree(t, st, id)
	roots := allChildren(t, st, id, 0, trace.BySearch)
	want := roots[trace.ReportedRoot(tr.run, roots)]
	if want.ID == roots[len(roots)-1].ID {
		t.Fatalf("want a run stopped inside an iteration: depth %d, %d roots", tr.run.Depth, len(roots))
	}
	kids := allChildren(t, st, id, want.ID, trace.BySearch)
	pos := engine.MustParseFEN(tr.run.FEN)
	move := []string{pos.SAN(kids[0].Move)}
	n, err := tr.findPath(tr.runNode, "", move)
	if err != nil {
		t.Fatal(err)
	}
	f, err := st.Find(ctx, id, 0, move)
	if err != nil {
		t.Fatal(err)
	}
	if n.ID != f.ID || n.Parent != want.ID {
		t.Errorf("path %v: the viewer reads node %d (parent %d), trace.Find node %d; want a child of the reported root %d",
			move, n.ID, n.Parent, f.ID, want.ID)
	}
}

// TestDetailsPathReadsBack: the path the details pane and the hotspot
// list print (SAN with move numbers, or UCI) reads back through the
// viewer's / (findPath) and trace.Find (view --path, export --path) to the
// node it names. A first search with later ones printed bare, which both
// read as the last search: under the fixture's re-searched moves the
// path led to another node.
func TestDetailsPathReadsBack(t *testing.T) {
	st := openFixture(t)
	ctx := context.Background()
	checked, first := 0, 0
	for run := int64(1); run <= int64(len(fixtureVariants)); run++ {
		tr := mustTree(t, st, run)
		roots := allChildren(t, st, run, 0, trace.BySearch)
		root := roots[trace.ReportedRoot(tr.run, roots)] // findPath from the run node starts here
		stride := max(root.SubtreeSize/100, 1)
		for id := root.ID + 1; id < root.End(); id += stride {
			in := tr.info(trace.Node{RunID: run, ID: id})
			if in.err != nil {
				t.Fatalf("run %d: node %d: %v", run, id, in.err)
			}
			// The numbered path pasted as printed ("1. dxe6·1 Bxe2 2. ..."):
			// SplitPath drops its move numbers.
			san := trace.SplitPath(in.numbered)
			for _, path := range [][]string{san, in.uci} {
				checked++
				if slices.ContainsFunc(path, func(m string) bool { return strings.HasSuffix(m, trace.VisitSep+"1") }) {
					first++
				}
				if n, err := tr.findPath(tr.runNode, "", path); err != nil || n.ID != id {
					t.Errorf("run %d: node %d prints %q, which / reads as node %d (%v)", run, id, path, n.ID, err)
				}
				if n, err := st.Find(ctx, run, root.ID, path); err != nil || n.ID != id {
					t.Errorf("run %d: node %d prints %q, which trace.Find reads as node %d (%v)", run, id, path, n.ID, err)
				}
			}
		}
	}
	if first == 0 {
		t.Errorf("none of %d paths marks a first search ·1: the test needs one", checked)
	}
	t.Logf("%d paths read back, %d with a ·1", checked, first)
}

// listReads counts the whole child lists (search order, no page) read
// through it, the reads a path's visit marks take.
type listReads struct {
	trace.Reader
	n int
}

func (l *listReads) Children(ctx context.Context, run, id int64, order trace.Order, offset, limit int) ([]trace.Node, error) {
	if order == trace.BySearch && offset == 0 && limit <= 0 {
		l.n++
	}
	return l.Reader.Children(ctx, run, id, order, offset, limit)
}

// TestInfoVisitsReadOnce: the details of the selected node mark each
// re-searched move of its path with its visit, which needs the child list
// of every ancestor. A cursor move to a sibling reads none of them again:
// read per move (compare.KeyPath), a cursor move on a 6M-node trace took
// 9.9 ms against 4.3 before the marks and 4.0 read once per parent
// (medians of five interleaved runs).
// A live run's re-search written after its parent's list was read is
// still marked.
func TestInfoVisitsReadOnce(t *testing.T) {
	st := openFixture(t)
	const run = 4 // threshold: level passes search moves again
	src := &listReads{Reader: st}
	tr, err := newTree(context.Background(), src, run)
	if err != nil {
		t.Fatal(err)
	}
	// The deepest node of the run with a sibling searched before it.
	var n, sib trace.Node
	prev := map[int64]trace.Node{} // the last child read, by parent
	st.Subtree(context.Background(), run, 0, -1, func(x trace.Node) error {
		if p, ok := prev[x.Parent]; ok && x.Ply > n.Ply {
			n, sib = x, p
		}
		prev[x.Parent] = x
		return nil
	})
	if n.Ply < 4 {
		t.Fatalf("no node with a sibling below ply 4 (deepest %d)", n.Ply)
	}
	if in := tr.info(sib); in.err != nil {
		t.Fatal(in.err)
	}
	before := src.n
	in := tr.info(n)
	if in.err != nil {
		t.Fatal(in.err)
	}
	if src.n != before {
		t.Errorf("node %d (ply %d) after its sibling %d read %d child lists, want none", n.ID, n.Ply, sib.ID, src.n-before)
	}
	// A re-search recorded after the first look.
	var again, parent trace.Node
	st.Subtree(context.Background(), run, 0, -1, func(x trace.Node) error {
		if again.ID != 0 || x.SubtreeSize <= 1 || x.Kind == engine.KindRun {
			return nil
		}
		kids := allChildren(t, st, run, x.ID, trace.BySearch)
		seen := map[engine.Move]bool{}
		for _, k := range kids {
			if seen[k.Move] {
				again, parent = k, x
				return errFound
			}
			seen[k.Move] = true
		}
		return nil
	})
	if again.ID == 0 {
		t.Fatal("no re-searched move in the run")
	}
	live := &laterKids{Store: st, run: run}
	tl, err := newTree(context.Background(), live, run)
	if err != nil {
		t.Fatal(err)
	}
	live.cut = again.ID
	first := allChildren(t, st, run, parent.ID, trace.BySearch)[0]
	if in := tl.info(first); in.err != nil {
		t.Fatal(in.err)
	}
	live.cut = 0
	in = tl.info(again)
	if in.err != nil || !strings.Contains(in.uci[len(in.uci)-1], trace.VisitSep) {
		t.Errorf("node %d, written after its parent %d was read: path %v (%v), want its last move marked", again.ID, parent.ID, in.uci, in.err)
	}
	// The first search of that move, read while the re-search was not
	// written (its parent smaller then, as a live run's open node is),
	// is marked ·1 once the parent has grown: bare would read as the
	// re-search.
	kids := allChildren(t, st, run, parent.ID, trace.BySearch)
	firstOf := kids[slices.IndexFunc(kids, func(k trace.Node) bool { return k.Move == again.Move })]
	tg, err := newTree(context.Background(), live, run)
	if err != nil {
		t.Fatal(err)
	}
	live.cut = again.ID
	younger := parent
	younger.SubtreeSize = again.ID - parent.ID
	if v, n, err := tg.visit(younger, firstOf); err != nil || v != 1 || n != 1 {
		t.Errorf("node %d before its move's re-search %d was written: visit %d of %d (%v), want 1 of 1", firstOf.ID, again.ID, v, n, err)
	}
	live.cut = 0
	if v, n, err := tg.visit(parent, firstOf); err != nil || v != 1 || n < 2 {
		t.Errorf("node %d after its move's re-search %d was written: visit %d of %d (%v), want 1 of 2 or more", firstOf.ID, again.ID, v, n, err)
	}
}
