package export

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"

	"github.com/horizonqs/horizon/compare"
	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// diffBuilder reads two runs' trees pair by pair, as compare aligns them.
type diffBuilder struct {
	ctx    context.Context
	pairs  *compare.PairReader
	ra, rb trace.Run
	opts   HTMLOptions
	sa, sb *PageSide
	scaleA float64
	scaleB float64
}

func (d *diffBuilder) wide(n *trace.Node, scale float64) bool {
	return n != nil && float64(n.SubtreeSize)*scale >= icicleMinRect
}

// walk reads the aligned children of the drawn pair (ia, ib; -1 for a side
// that lacks the node), adds the wide pairs and merges the narrow ones per
// side. Matched nodes are reached by the same moves, so pos is both
// sides' position.
func (d *diffBuilder) walk(ia, ib int, na, nb *trace.Node, pos *engine.Position, row, qa, qb int, pvA, pvB bool) error {
	if d.opts.Depth >= 0 && row >= d.opts.Depth {
		return nil
	}
	if (na == nil || na.SubtreeSize <= 1) && (nb == nil || nb.SubtreeSize <= 1) {
		return nil
	}
	if err := d.ctx.Err(); err != nil {
		return err
	}
	pairs, err := d.pairs.Children(d.ctx, na, nb)
	if err != nil {
		return err
	}
	// The principal variations, from each side's own child list.
	pvSet := func(r trace.Run, n *trace.Node, pv bool, pick func(compare.Pair) *trace.Node) int64 {
		if n == nil || !pv {
			return -1
		}
		var kids []trace.Node
		for _, p := range pairs {
			if k := pick(p); k != nil {
				kids = append(kids, *k)
			}
		}
		// AlignChildren gives A's children in search order, then B's only
		// children: sort each side's back into search order.
		sortByID(kids)
		if i := trace.PVChild(r, *n, kids); i >= 0 {
			return kids[i].ID
		}
		return -1
	}
	pvIDA := pvSet(d.ra, na, pvA, func(p compare.Pair) *trace.Node { return p.A })
	pvIDB := pvSet(d.rb, nb, pvB, func(p compare.Pair) *trace.Node { return p.B })
	// Each side's narrow children, merged once all are known: the pairs
	// come in A's search order, so B's children arrive out of its own,
	// and merging them as they came split B's runs at every step back
	// (27,442 one-node runs of 40,846 against A's 6,423 on one diff).
	var narrowA, narrowB []narrowKid
	d.opts.read(len(pairs))
	// The wide pairs are walked next, in this order: their chunks are
	// read ahead while the walk draws the ones before (reading was most
	// of a page's walk, on one core of two).
	if d.opts.Depth < 0 || row+1 < d.opts.Depth {
		var next []compare.Pair
		for _, p := range pairs {
			if d.wide(p.A, d.scaleA) || d.wide(p.B, d.scaleB) {
				next = append(next, p)
			}
		}
		defer d.pairs.ReadAhead(d.ctx, next)()
	}
	for _, p := range pairs {
		if p.A != nil {
			d.sa.Read++
		}
		if p.B != nil {
			d.sb.Read++
		}
		if !d.wide(p.A, d.scaleA) && !d.wide(p.B, d.scaleB) {
			if p.A != nil {
				narrowA = append(narrowA, narrowKid{*p.A, p.B == nil})
			}
			if p.B != nil {
				narrowB = append(narrowB, narrowKid{*p.B, p.A == nil})
			}
			continue
		}
		k := p.A
		if k == nil {
			k = p.B
		}
		san, err := makeMove(d.ra.ID, d.ra.MoveRule().Either(d.rb.MoveRule()), pos, *k)
		if err != nil {
			return err
		}
		if p.Key.Nested != "" {
			san = p.Key.Nested // a nested search's mark (trace.NestedText), as the tree page labels it
		}
		fen := pos.FEN()
		ja, jb, kqa, kqb := -1, -1, -1, -1
		kpvA, kpvB := false, false
		if p.A != nil {
			kqa = qsPlyOf(*p.A, qa)
			kpvA = p.A.ID == pvIDA
			ja = d.sa.add(*p.A, ia, san, p.Key.Occurrence+1, p.Searches, fen, kqa, kpvA)
			d.sa.Nodes.Match = append(d.sa.Nodes.Match, -1)
		}
		if p.B != nil {
			kqb = qsPlyOf(*p.B, qb)
			kpvB = p.B.ID == pvIDB
			jb = d.sb.add(*p.B, ib, san, p.Key.Occurrence+1, p.Searches, fen, kqb, kpvB)
			d.sb.Nodes.Match = append(d.sb.Nodes.Match, -1)
		}
		if ja >= 0 && jb >= 0 {
			d.sa.Nodes.Match[ja], d.sb.Nodes.Match[jb] = jb, ja
		}
		err = d.walk(ja, jb, p.A, p.B, pos, row+1, kqa, kqb, kpvA, kpvB)
		if k.Move != engine.NoMove {
			pos.UnmakeMove()
		}
		if err != nil {
			return err
		}
	}
	mergeNarrow(d.sa, ia, narrowA)
	mergeNarrow(d.sb, ib, narrowB)
	return nil
}

// narrowKid is a child too narrow to draw, and whether the other side
// lacks it.
type narrowKid struct {
	n    trace.Node
	only bool
}

// mergeNarrow merges the narrow children ks of side s's drawn node parent
// in the side's own search order, as a tree page merges them: a run
// breaks only where a drawn child (or a gap a recording filter left) lies
// between two.
func mergeNarrow(s *PageSide, parent int, ks []narrowKid) {
	slices.SortFunc(ks, func(a, b narrowKid) int { return cmp.Compare(a.n.ID, b.n.ID) })
	var p pending
	for _, k := range ks {
		p.take(s, parent, k.n, k.only)
	}
	p.flush(s, parent)
}

func sortByID(ns []trace.Node) {
	slices.SortFunc(ns, func(a, b trace.Node) int { return cmp.Compare(a.ID, b.ID) })
}

// BuildDiffPage lines up the whole trees of runs a and b (from their run
// nodes) into the data of a diff page: both trees, each pair of aligned
// nodes linked, nodes only one side has marked, and the divergences
// compare.Align reports (the first one and the subtrees whose sizes differ
// most).
func BuildDiffPage(ctx context.Context, a, b compare.Side, opts HTMLOptions) (*PageData, error) {
	opts.defaults()
	// compare.Align's report is wanted only for the list at the end: it
	// runs beside the walk of the trees, each reading both runs, on two
	// cores. Its error, when it has one, is the page's, as when it ran
	// first: the walk's counts only once Align has none.
	type aligned struct {
		rep *compare.Report
		err error
	}
	walkCtx, stopWalk := context.WithCancel(ctx)
	defer stopWalk()
	done := make(chan aligned, 1)
	go func() {
		rep, err := compare.Align(ctx, a, b, compare.Options{Top: opts.Hotspots})
		if err != nil {
			stopWalk() // the page fails with Align's error
		}
		done <- aligned{rep, err}
	}()
	d, err := walkDiff(walkCtx, a, b, opts)
	al := <-done
	if al.err != nil {
		return nil, al.err
	}
	if err != nil {
		return nil, err
	}
	rep, sa, sb := al.rep, d.sa, d.sb
	ra, rb := d.ra, d.rb
	sa.findHotspots(opts.Hotspots)
	sb.findHotspots(opts.Hotspots)
	// A diff page reads each run's whole tree already; walking both again
	// for causes would double its time: it names the command instead.
	for _, s := range []*PageSide{sa, sb} {
		s.CauseMixNode, s.CauseMix = []int{}, [][]int64{}
		s.CauseNote = "a diff page carries no causes"
	}

	index := func(s *PageSide) map[int64]int {
		m := make(map[int64]int, len(s.Nodes.ID))
		for i, id := range s.Nodes.ID {
			m[id] = i
		}
		return m
	}
	ixA, ixB := index(sa), index(sb)
	at := func(ix map[int64]int, id *int64) int {
		if id == nil {
			return -1
		}
		if i, ok := ix[*id]; ok {
			return i
		}
		return -1
	}
	top := &PageDiffTop{Matched: rep.Matched, OnlyA: rep.OnlyA, OnlyB: rep.OnlyB, Changed: rep.Changed, Items: []PageDiffItem{}}
	if f := rep.First; f != nil {
		it := PageDiffItem{What: "first", PlaceFields: pagePlace(f.PlaceFields), Place: rep.Place(f.Root(), f.Path, f.Visits, f.Searches), A: -1, B: -1, Reason: f.Reason}
		if f.Why != nil {
			it.Why = f.Why.Rule + ": " + f.Why.Text
		}
		if f.A != nil {
			it.A, it.NodesA = at(ixA, &f.A.ID), f.A.Nodes
		}
		if f.B != nil {
			it.B, it.NodesB = at(ixB, &f.B.ID), f.B.Nodes
		}
		top.Items = append(top.Items, it)
	}
	for _, s := range rep.Top {
		top.Items = append(top.Items, PageDiffItem{What: "size", PlaceFields: pagePlace(s.PlaceFields), Place: rep.Place(s.Root(), s.Path, s.Visits, s.Searches), A: at(ixA, s.IDA), B: at(ixB, s.IDB),
			NodesA: s.NodesA, NodesB: s.NodesB})
	}
	return &PageData{Version: 1, Kind: "diff", Width: opts.Width, Labels: pageLabels(), Colors: pageColors(),
		Title: fmt.Sprintf("Horizon diff: run %d (%s) vs run %d (%s)", ra.ID, ra.Label(), rb.ID, rb.Label()),
		Sides: []*PageSide{sa, sb}, Diff: top}, nil
}

// walkDiff reads both trees of the page (from their run nodes) pair by
// pair into its two sides.
func walkDiff(ctx context.Context, a, b compare.Side, opts HTMLOptions) (*diffBuilder, error) {
	ra, topA, rb, topB, err := compare.OpenPair(ctx, a, b)
	if err != nil {
		return nil, err
	}
	sa, pos, _, err := newSide(ctx, a.Store, ra, topA, fmt.Sprintf("A: run %d (%s)", ra.ID, ra.Label()))
	if err != nil {
		return nil, err
	}
	sb, _, _, err := newSide(ctx, b.Store, rb, topB, fmt.Sprintf("B: run %d (%s)", rb.ID, rb.Label()))
	if err != nil {
		return nil, err
	}
	sa.Nodes.Match, sb.Nodes.Match = []int{0}, []int{0}
	sa.Merged.Only, sb.Merged.Only = []int64{}, []int64{}
	d := &diffBuilder{ctx: ctx, pairs: compare.NewPairReader(a, b), ra: ra, rb: rb, opts: opts, sa: sa, sb: sb,
		scaleA: float64(opts.Width) / float64(max(topA.SubtreeSize, 1)),
		scaleB: float64(opts.Width) / float64(max(topB.SubtreeSize, 1))}
	return d, d.walk(0, 0, &topA, &topB, pos, 0, -1, -1, true, true)
}

// pagePlace is p with empty lists for none, as the page's data has them.
func pagePlace(p trace.PlaceFields) trace.PlaceFields {
	p.Path, p.Visits, p.Searches = orNone(p.Path), orNone(p.Visits), orNone(p.Searches)
	return p
}

// WriteDiffHTML writes a self-contained page of two runs' trees side by
// side, aligned node by node (see BuildDiffPage).
func WriteDiffHTML(ctx context.Context, a, b compare.Side, opts HTMLOptions, w io.Writer) error {
	d, err := BuildDiffPage(ctx, a, b, opts)
	if err != nil {
		return err
	}
	return d.WritePage(w)
}
