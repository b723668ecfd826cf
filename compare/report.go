// The report side of Align: how a matched pair differs (describePair), the
// first difference and the ranked lists the walk offers its pairs to, and
// finish, which looks up their paths once the walk is done.

package compare

import (
	"cmp"
	"container/heap"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// describePair says how two matched nodes, a of run ra and b of run rb,
// differ; each run's scores print in its own format (trace.Run.Scores).
func describePair(ra, rb trace.Run, a, b trace.Node, ids bool) Difference {
	var fields, why []string
	add := func(field, format string, args ...any) {
		fields = append(fields, field)
		why = append(why, fmt.Sprintf(format, args...))
	}
	if !SameWindow(ra, rb, a, b) {
		wa, wb := ra.WindowText(a), rb.WindowText(b)
		if wa == wb {
			// Mates a ply apart print alike: the numbers tell them apart.
			wa, wb = fmt.Sprintf("%s = [%d, %d]", wa, a.Alpha, a.Beta), fmt.Sprintf("%s = [%d, %d]", wb, b.Alpha, b.Beta)
		}
		add("window", "window A %s, B %s", wa, wb)
	}
	if a.Depth != b.Depth {
		add("depth", "depth A %d, B %d", a.Depth, b.Depth)
	}
	if a.Kind != b.Kind {
		add("kind", "kind A %s, B %s", a.Kind, b.Kind)
	}
	if !SameLevel(a, b) {
		add("qs_level", "QS level A %s, B %s", levelText(a.QSLevel), levelText(b.QSLevel))
	}
	if !SameScore(ra, rb, a, b) {
		sa, sb := ra.NodeScores(a).Text(a.Score), rb.NodeScores(b).Text(b.Score)
		if sa == sb {
			// Mates a ply apart print alike: the numbers tell them apart.
			sa, sb = fmt.Sprintf("%s = %d", sa, a.Score), fmt.Sprintf("%s = %d", sb, b.Score)
		}
		add("score", "score A %s, B %s", sa, sb)
	}
	if a.Bound != b.Bound {
		add("bound", "bound A %s, B %s", a.Bound.LongLabel(), b.Bound.LongLabel())
	}
	if a.Cause != b.Cause || a.CutIndex != b.CutIndex {
		add("cutoff", "A %s, B %s", ra.CutText(a), rb.CutText(b))
	}
	if a.Best != b.Best {
		add("best", "best move A %s, B %s", a.Best.Text(), b.Best.Text())
	}
	if !sameMoves(ra, rb, a, b) {
		add("moves", "moves A %s, B %s", ra.MovesText(a), rb.MovesText(b))
	}
	if a.SubtreeSize != b.SubtreeSize {
		add("size", "subtree A %s nodes, B %s", engine.Commas(a.SubtreeSize), engine.Commas(b.SubtreeSize))
	}
	if ids && a.ID != b.ID {
		// True of every node after the first difference: listed last,
		// and in words only when nothing else differs.
		fields = append(fields, "visit")
		if len(why) == 0 {
			why = append(why, fmt.Sprintf("visited as A node %d, B node %d", a.ID, b.ID))
		}
	}
	return Difference{PlaceFields: trace.PlaceFields{Iteration: a.Iteration}, A: ref(a), B: ref(b), Fields: fields, Reason: strings.Join(why, "; ")}
}

func (w *walker) noteFirst(it *diffItem) {
	if w.first == nil || it.ev.less(w.first.ev) {
		it.d.IterationVisit, it.d.IterationSearches, it.d.Visits, it.d.Searches = w.visits()
		w.first = it
	}
}

// offer puts a subtree forward for the top list.
func (w *walker) offer(a, b *trace.Node, diff int64) {
	w.offerTo(&w.top, a, b, diff, 0)
}

// offerGrowth puts a pair forward for the growth list, ranked by its
// excess over its parent's ratio pr.
func (w *walker) offerGrowth(a, b *trace.Node, ex int64, pr float64) {
	w.offerTo(&w.growth, a, b, ex, pr)
}

// offerTo puts a subtree forward for list h, ranked by diff.
func (w *walker) offerTo(h *rankHeap[*topItem], a, b *trace.Node, diff int64, pr float64) {
	if diff == 0 {
		return
	}
	if h.Len() == w.opts.Top && abs(diff) <= abs(h.s[0].diff) {
		return // it would be dropped at once (ties go to the earlier)
	}
	s := &topItem{seq: w.seq, diff: diff, parentRatio: pr}
	s.s.IterationVisit, s.s.IterationSearches, s.s.Visits, s.s.Searches = w.visits()
	// The item keeps copies: a and b point into the walk's own rows.
	if a != nil {
		s.a = new(trace.Node)
		*s.a = *a
		s.s.IDA, s.s.NodesA, s.s.Iteration = &s.a.ID, a.SubtreeSize, a.Iteration
	}
	if b != nil {
		s.b = new(trace.Node)
		*s.b = *b
		s.s.IDB, s.s.NodesB, s.s.Iteration = &s.b.ID, b.SubtreeSize, b.Iteration
	}
	s.s.Diff = s.s.NodesB - s.s.NodesA // the growth list ranks by its excess, not this
	heap.Push(h, s)
	if h.Len() > w.opts.Top {
		heap.Pop(h)
	}
}

// visitCount is a move's visit on a walked path and its searches under
// the parent (Subtree's Visits and Searches).
type visitCount struct{ visit, searches int }

// visits returns the 1-based visit number of the current node's
// iteration root among its iteration's roots and their number, then those
// of the moves on the path to the node, and their searches.
func (w *walker) visits() (rootVisit, rootSearches int, visits, searches []int) {
	visits, searches = []int{}, []int{}
	if len(w.occ) > 0 {
		rootVisit, rootSearches = w.occ[0].visit, w.occ[0].searches
	}
	if len(w.occ) > 1 {
		for _, o := range w.occ[1:] {
			visits, searches = append(visits, o.visit), append(searches, o.searches)
		}
	}
	return rootVisit, rootSearches, visits, searches
}

// parting describes where the searches part: the nodes the two searches
// entered at visit number id, which are different nodes (or one search
// had ended).
func (w *walker) parting(id int64) (*Difference, error) {
	at := func(t *tree) (*trace.Node, error) {
		n, err := t.Store.Node(w.ctx, t.Run, id)
		if errors.Is(err, trace.ErrNoNode) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		return &n, nil
	}
	na, err := at(w.ta)
	if err != nil {
		return nil, err
	}
	nb, err := at(w.tb)
	if err != nil {
		return nil, err
	}
	d := &Difference{Fields: []string{"order"}, PlaceFields: trace.PlaceFields{Path: []string{}}}
	// describe names the node one search entered, by its place as diff
	// prints one (Report.Place, which --path reads back), and where (or whether) the other search entered
	// it.
	describe := func(n *trace.Node, from, to *tree, self, other string) (string, []string, trace.PlaceRoot, []int, []int, error) {
		if n == nil {
			return fmt.Sprintf("%s's search had ended", self), nil, trace.BareRoot, nil, nil, nil
		}
		p, err := from.Store.PathSAN(w.ctx, from.Run, n.ID)
		if err != nil {
			return "", nil, trace.BareRoot, nil, nil, err
		}
		root, visits, searches, twin, ok, err := pathMarks(w.ctx, from.Side, n.ID, to.Side)
		if err != nil {
			return "", nil, trace.BareRoot, nil, nil, err
		}
		what := w.rep.Place(root, p, visits, searches)
		if ok {
			return fmt.Sprintf("%s enters %s, which %s enters as node %d", self, what, other, twin.ID), p, root, visits, searches, nil
		}
		return fmt.Sprintf("%s enters %s, which %s never searches", self, what, other), p, root, visits, searches, nil
	}
	ta, pa, ra, va, sa, err := describe(na, w.ta, w.tb, "A", "B")
	if err != nil {
		return nil, err
	}
	tb, pb, rb, vb, sb, err := describe(nb, w.tb, w.ta, "B", "A")
	if err != nil {
		return nil, err
	}
	if na != nil {
		d.A, d.Path, d.Visits, d.Searches, d.Iteration = ref(*na), orEmpty(pa), va, sa, na.Iteration
		d.IterationVisit, d.IterationSearches = ra.Visit, ra.Searches
	}
	if nb != nil {
		d.B, d.PathB, d.VisitsB, d.SearchesB = ref(*nb), orEmpty(pb), vb, sb
		d.IterationB, d.IterationVisitB, d.IterationSearchesB = &nb.Iteration, &rb.Visit, &rb.Searches
		if na == nil {
			d.Path, d.Visits, d.Searches, d.Iteration = d.PathB, d.VisitsB, d.SearchesB, nb.Iteration
			d.IterationVisit, d.IterationSearches = rb.Visit, rb.Searches
		}
	}
	d.Reason = fmt.Sprintf("the searches part at node %d: %s; %s", id, ta, tb)
	// Every node before id is the same in both searches: the node whose
	// child lists part first is the deeper of the two parents.
	p := int64(-1)
	for _, n := range []*trace.Node{na, nb} {
		if n != nil {
			p = max(p, n.Parent)
		}
	}
	if p >= 0 {
		if d.Why, err = w.whyAt(p); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// finish looks up the SAN paths of the reported nodes and sorts the lists.
func (w *walker) finish() error {
	path := func(a, b *trace.Node) ([]string, error) {
		if a != nil {
			return w.ta.Store.PathSAN(w.ctx, w.ta.Run, a.ID)
		}
		return w.tb.Store.PathSAN(w.ctx, w.tb.Run, b.ID)
	}
	if w.first != nil {
		f := w.first
		switch {
		case f.a == nil || f.b == nil:
			if !w.filtered {
				d, err := w.parting(f.ev.at)
				if err != nil {
					return err
				}
				w.rep.First = d
				break
			}
			p, err := path(f.a, f.b)
			if err != nil {
				return err
			}
			d := Difference{PlaceFields: trace.PlaceFields{Iteration: f.iter, IterationVisit: f.d.IterationVisit, IterationSearches: f.d.IterationSearches, Path: orEmpty(p), Visits: f.d.Visits, Searches: f.d.Searches}, Fields: []string{"only_a"}, Why: f.d.Why}
			side := "A"
			if f.a != nil {
				d.A = ref(*f.a)
			} else {
				d.B, d.Fields, side = ref(*f.b), []string{"only_b"}, "B"
			}
			n := f.a
			if n == nil {
				n = f.b
			}
			// The other run may have searched it and not recorded it: a
			// recording filter (first N nodes, last iteration, a path)
			// says nothing of what the search left out.
			other, ro := "B", w.rb
			if side == "B" {
				other, ro = "A", w.ra
			}
			switch {
			case ro.Filter != "" && n.Kind == engine.KindRoot:
				d.Reason = fmt.Sprintf("iteration %d is recorded only in %s (%s's recording filter: %s)", n.Iteration, side, other, ro.FilterText())
			case ro.Filter != "":
				d.Reason = fmt.Sprintf("move %s is recorded only in %s (%s's recording filter: %s)", lastOr(p, "?"), side, other, ro.FilterText())
			case n.Kind == engine.KindRoot:
				d.Reason = fmt.Sprintf("iteration %d is only in %s", n.Iteration, side)
			default:
				d.Reason = fmt.Sprintf("move %s searched only by %s", lastOr(p, "?"), side)
			}
			w.rep.First = &d
		case f.ev.phase == 0 && !w.filtered && !(f.a.ID == f.ev.at && f.b.ID == f.ev.at):
			d, err := w.parting(f.ev.at)
			if err != nil {
				return err
			}
			w.rep.First = d
		default:
			p, err := path(f.a, f.b)
			if err != nil {
				return err
			}
			d := f.d
			d.Path, d.Iteration = orEmpty(p), f.iter
			w.rep.First = &d
		}
	}
	// The lists: the heap's items in report order, each with its path.
	var err error
	bySize := func(x, y *topItem) int {
		if c := cmp.Compare(abs(y.diff), abs(x.diff)); c != 0 {
			return c
		}
		return cmp.Compare(x.seq, y.seq)
	}
	itemPath := func(it *topItem) ([]string, error) { return path(it.a, it.b) }
	w.rep.Top, err = reportRows(w.top.s, bySize, itemPath,
		func(it *topItem, p []string) Subtree { s := it.s; s.Path = p; return s })
	if err != nil {
		return err
	}
	w.rep.Growth, err = reportRows(w.growth.s, bySize, itemPath, func(it *topItem, p []string) Growth {
		s := it.s
		s.Path = p
		return Growth{Subtree: s, Ratio: float64(s.NodesB) / float64(max(s.NodesA, 1)), ParentRatio: it.parentRatio, Excess: it.diff}
	})
	if err != nil {
		return err
	}
	w.rep.ChangedNodes, err = reportRows(w.changed.s, func(x, y *diffItem) int {
		if x.left.less(y.left) {
			return -1
		}
		return 1
	}, func(it *diffItem) ([]string, error) { return path(it.a, it.b) },
		func(it *diffItem, p []string) Difference { d := it.d; d.Path = p; return d })
	return err
}

// reportRows sorts a copy of a heap's items by order and makes each its
// report row, given the item's move path (never nil, for JSON's []).
func reportRows[T, R any](items []T, order func(x, y T) int, path func(T) ([]string, error), row func(T, []string) R) ([]R, error) {
	items = slices.Clone(items)
	slices.SortFunc(items, order)
	rows := []R{}
	for _, it := range items {
		p, err := path(it)
		if err != nil {
			return nil, err
		}
		rows = append(rows, row(it, orEmpty(p)))
	}
	return rows, nil
}

func orEmpty(p []string) []string {
	if p == nil {
		return []string{}
	}
	return p
}

func lastOr(p []string, def string) string {
	if len(p) == 0 {
		return def
	}
	return p[len(p)-1]
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// topItem is a subtree in the top-N heap.
type topItem struct {
	s    Subtree
	a, b *trace.Node // nil on the side that has no such node
	seq  int64
	diff int64
	// parentRatio is the parent's size ratio B/A (growth list only).
	parentRatio float64
}

// rankHeap is container/heap over a slice ordered by less; the walker
// keeps its best N items in one, so that its root (s[0]) is the item
// dropped next.
type rankHeap[T any] struct {
	s    []T
	less func(a, b T) bool
}

func (h *rankHeap[T]) Len() int           { return len(h.s) }
func (h *rankHeap[T]) Less(i, j int) bool { return h.less(h.s[i], h.s[j]) }
func (h *rankHeap[T]) Swap(i, j int)      { h.s[i], h.s[j] = h.s[j], h.s[i] }
func (h *rankHeap[T]) Push(x any)         { h.s = append(h.s, x.(T)) }
func (h *rankHeap[T]) Pop() any {
	x := h.s[len(h.s)-1]
	h.s = h.s[:len(h.s)-1]
	return x
}

// topFirstDropped orders the top list's heap: its root is the item the
// list drops first (the smallest difference, the latest on a tie).
func topFirstDropped(a, b *topItem) bool {
	if abs(a.diff) != abs(b.diff) {
		return abs(a.diff) < abs(b.diff)
	}
	return a.seq > b.seq
}

// changedFirstDropped orders the changed nodes' heap by the time a pair
// was left, latest at the root: the walk keeps the changed nodes the
// searches finished first, which are the deepest of a chain of changed
// ancestors.
func changedFirstDropped(a, b *diffItem) bool { return b.left.less(a.left) }

// levelText is a node's engine QS level, "none" outside level-based QS.
func levelText(l int) string {
	if l < 0 {
		return "none"
	}
	return strconv.Itoa(l)
}
