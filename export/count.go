package export

import (
	"context"
	"runtime"
	"sort"
	"sync"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// The figures of a cut graph's summaries: the rows, QS rows and deepest QS
// ply of the children each shown node leaves out.

// countCollapsed streams the top node's subtree once and adds each row
// that is not shown to the summary of its nearest shown ancestor. Over a
// big subtree read from the trace it walks the collapsed children instead,
// side by side.
func (b *builder) countCollapsed(path []trace.Node) error {
	g := b.g
	workers := min(runtime.GOMAXPROCS(0), 4)
	if statsWorkers > 0 {
		workers = statsWorkers
	}
	if _, queried := b.src.(*storeSource); queried && !g.QSOnly && workers > 1 {
		return b.countCollapsedParallel(path, workers)
	}
	ow := ownerWalk{shown: g.shownIndex()}
	w := newWalker(path)
	return b.src.walk(func(n trace.Node) error {
		qs, qsPly, _ := w.visit(n)
		owner, ok := ow.owner(n)
		if !ok {
			return nil
		}
		if owner == 0 && g.QSOnly && !qs {
			return nil // full-width nodes are left out, not collapsed
		}
		s := &g.Summaries[b.summary(owner)]
		s.Rows++
		if qs {
			s.QSRows++
			s.MaxQSPly = max(s.MaxQSPly, qsPly)
		}
		return nil
	})
}

// shownIndex maps each shown node's id to its index in g.Nodes.
func (g *Graph) shownIndex() map[int64]int {
	shown := make(map[int64]int, len(g.Nodes))
	for i, n := range g.Nodes {
		shown[n.ID] = i
	}
	return shown
}

// ownerWalk follows a pre-order walk of a shown node's rows and names,
// for each row that is not shown, its nearest shown ancestor: the node
// whose summary counts it.
type ownerWalk struct {
	shown map[int64]int // Graph.shownIndex
	opens []struct {
		end int64
		idx int
	}
}

// owner returns the index in g.Nodes of row n's nearest shown ancestor;
// ok is false for a shown row, and for a row under none (a damaged
// file's, outside the walk's top).
func (o *ownerWalk) owner(n trace.Node) (idx int, ok bool) {
	for len(o.opens) > 0 && o.opens[len(o.opens)-1].end <= n.ID {
		o.opens = o.opens[:len(o.opens)-1]
	}
	if i, shown := o.shown[n.ID]; shown {
		o.opens = append(o.opens, struct {
			end int64
			idx int
		}{n.End(), i})
		return i, false
	}
	if len(o.opens) == 0 {
		return -1, false
	}
	return o.opens[len(o.opens)-1].idx, true
}

// statsWorkers, when > 0, overrides the number of parallel walks of
// countCollapsed.
var statsWorkers = 0

// chunkRows is the biggest shown subtree countCollapsedParallel reads in
// one walk for all the collapsed children below it, where it would
// otherwise send a query for each: most collapsed children of a big
// budget are a node or a few, and a query costs as much as reading
// hundreds of rows.
var chunkRows = int64(16_384)

// countedChunkRows is chunkRows where the trace adds up a collapsed
// child's rows in place (trace.RangeCounter): a query of a child's figures
// costs about as much as walking a few rows, so only small shown subtrees
// are walked whole.
var countedChunkRows = int64(64)

// walkRowsPerShown is how many rows a shown node of a subtree may stand
// for and the subtree still be walked whole where the trace adds up rows
// (countCollapsedParallel): a walk costs about 3 us a row, a query about
// 50 us and 0.3 us a row, and each shown node leaves a run or two of
// collapsed siblings to add up. (20,000 of 334,711 nodes took 14.4 s of
// CPU with a query per run, 11.3 s walked in chunks.)
var walkRowsPerShown = int64(32)

// countCollapsedParallel walks the collapsed rows on up to workers
// goroutines and adds the figures to their summaries. Each walk is either
// a shown node of at most chunkRows rows, whose rows below go to their
// nearest shown ancestor's summary as countCollapsed's single stream
// does, or one collapsed child of a bigger shown node. A collapsed child
// of one node needs no walk: its row is at hand.
func (b *builder) countCollapsedParallel(path []trace.Node, workers int) error {
	g := b.g
	counter, _ := b.src.(*storeSource).st.(trace.RangeCounter)
	c := countPlan{counter: counter, shown: g.shownIndex()}
	chunk := b.planChunks(&c, path)
	local := b.planCollapsed(&c, chunk)
	sort.SliceStable(c.tasks, func(i, j int) bool { return c.tasks[i].size > c.tasks[j].size })
	if err := b.countMany(&c, workers); err != nil {
		return err
	}
	results, err := b.runCountTasks(&c, workers)
	if err != nil {
		return err
	}
	for _, parts := range append(results, local) {
		for _, p := range parts {
			s := &g.Summaries[b.summary(p.owner)]
			s.Rows += p.rows
			s.QSRows += p.qs
			s.MaxQSPly = max(s.MaxQSPly, p.maxQSPly)
		}
	}
	return nil
}

// countPlan is the walks countCollapsedParallel makes.
type countPlan struct {
	counter trace.RangeCounter // the trace's, nil where it adds up no rows
	shown   map[int64]int      // Graph.shownIndex
	// rootPly is the QS root ply above each shown node (-1 for none), so
	// that the walks below them measure QS plies from the right root.
	rootPly []int
	tasks   []countTask
}

// countTask is one walk: a shown node's index (chunk) or collapsed
// children's (node < 0).
type countTask struct {
	node int
	kids []int // indexes in b.collapsed, side by side
	size int64
	rc   *trace.RangeCounts // the kids' figures, where countMany added them up
}

// countMany adds up the collapsed children of every task the trace counts
// in place in batches where it can (trace.RangeManyCounter), one for each
// of up to workers goroutines: a query for each cost more than the rows
// of most, and where the trace stores subtree figures, a batch costs the
// stored subtrees and small children in the ranges, not their rows.
func (b *builder) countMany(c *countPlan, workers int) error {
	many, ok := c.counter.(trace.RangeManyCounter)
	if !ok {
		return nil
	}
	var ranges []trace.IDRange
	var tasks []int
	for k, t := range c.tasks {
		if t.node >= 0 {
			continue
		}
		first, last := b.collapsed[t.kids[0]], b.collapsed[t.kids[len(t.kids)-1]]
		ranges = append(ranges, trace.IDRange{From: first.n.ID, End: last.n.End()})
		tasks = append(tasks, k)
	}
	if len(ranges) == 0 {
		return nil
	}
	// Tasks are sorted biggest first: dealt out in turn, each batch gets
	// its share of the big ones.
	workers = max(min(workers, len(ranges)/64), 1)
	parts := make([][]trace.IDRange, workers)
	for i, r := range ranges {
		parts[i%workers] = append(parts[i%workers], r)
	}
	counts := make([][]trace.RangeCounts, workers)
	oks := make([]bool, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			counts[w], oks[w], errs[w] = many.RangeCountsMany(b.ctx, b.g.Run.ID, parts[w])
		}()
	}
	wg.Wait()
	for w := range parts {
		if errs[w] != nil || !oks[w] {
			return errs[w]
		}
	}
	for i, k := range tasks {
		c.tasks[k].rc = &counts[i%workers][i/workers]
	}
	return nil
}

// planChunks sets c.rootPly and plans a walk of each shown node whose
// subtree is walked whole (walkWhole); chunk[i] says shown node i is
// walked whole, or lies under one that is.
func (b *builder) planChunks(c *countPlan, path []trace.Node) (chunk []bool) {
	g := b.g
	c.rootPly = make([]int, len(g.Nodes))
	chunk = make([]bool, len(g.Nodes))
	// shownUnder[i] counts the shown nodes in shown node i's subtree
	// (Nodes lists parents before children).
	shownUnder := make([]int64, len(g.Nodes))
	for i := len(g.Nodes) - 1; i >= 0; i-- {
		shownUnder[i]++
		if p := g.Nodes[i].Parent; p >= 0 {
			shownUnder[p] += shownUnder[i]
		}
	}
	// walkWhole: shown node i's subtree is walked in one stream. Where the
	// trace adds up collapsed rows, only where that is cheaper: a small
	// subtree, or one dense with shown nodes (each leaves a run or two of
	// collapsed siblings, a query each).
	walkWhole := func(i int) bool {
		size := g.Nodes[i].SubtreeSize
		if c.counter == nil {
			return size <= chunkRows
		}
		return size <= chunkRows && (size <= countedChunkRows || size <= walkRowsPerShown*shownUnder[i])
	}
	for i, n := range g.Nodes {
		c.rootPly[i] = -1
		switch {
		case n.Kind != engine.KindQS:
		case i == 0:
			_, qsPly, _ := newWalker(path).visit(n.Node)
			c.rootPly[i] = n.Ply - qsPly
		case g.Nodes[n.Parent].Kind == engine.KindQS:
			c.rootPly[i] = c.rootPly[n.Parent]
		default:
			c.rootPly[i] = n.Ply
		}
		switch {
		case i > 0 && chunk[n.Parent]:
			chunk[i] = true
		case walkWhole(i):
			chunk[i] = true
			if n.Summary >= 0 || n.SubtreeSize > 1 {
				c.tasks = append(c.tasks, countTask{node: i, size: n.SubtreeSize})
			}
		}
	}
	return chunk
}

// planCollapsed plans the walks of the collapsed children outside the
// chunks, and returns the figures of those of one row, which need none.
func (b *builder) planCollapsed(c *countPlan, chunk []bool) (local []part) {
	var counted []int // collapsed children the trace adds up (counter), by id
	for k, cc := range b.collapsed {
		switch {
		case chunk[cc.parent]:
		case cc.n.SubtreeSize <= 1:
			qs, qsPly, _ := (&walker{topRootPly: c.rootPly[cc.parent]}).visit(cc.n)
			local = addPart(local, cc.parent, qs, qsPly)
		case c.counter != nil:
			counted = append(counted, k)
		default:
			c.tasks = append(c.tasks, countTask{node: -1, kids: []int{k}, size: cc.n.SubtreeSize})
		}
	}
	// Siblings collapsed side by side, alike (QS or not, at one ply), are
	// added up in one query: a shown node's collapsed children lie in a
	// few runs of ids between its shown ones, and a query costs as much as
	// a hundred rows.
	sort.Slice(counted, func(i, j int) bool { return b.collapsed[counted[i]].n.ID < b.collapsed[counted[j]].n.ID })
	for i := 0; i < len(counted); {
		first := b.collapsed[counted[i]]
		t := countTask{node: -1, kids: []int{counted[i]}, size: first.n.SubtreeSize}
		end := first.n.End()
		for i++; i < len(counted); i++ {
			cc := b.collapsed[counted[i]]
			if cc.parent != first.parent || cc.n.ID != end || (cc.n.Kind == engine.KindQS) != (first.n.Kind == engine.KindQS) || cc.n.Ply != first.n.Ply {
				break
			}
			t.kids = append(t.kids, counted[i])
			t.size += cc.n.SubtreeSize
			end = cc.n.End()
		}
		c.tasks = append(c.tasks, t)
	}
	return local
}

// addPart counts one row for owner's summary in parts, whose last part
// takes it when it is owner's.
func addPart(parts []part, owner int, qs bool, qsPly int) []part {
	if len(parts) == 0 || parts[len(parts)-1].owner != owner {
		parts = append(parts, part{owner: owner, maxQSPly: -1})
	}
	p := &parts[len(parts)-1]
	p.rows++
	if qs {
		p.qs++
		p.maxQSPly = max(p.maxQSPly, qsPly)
	}
	return parts
}

// runCountTasks runs c's walks on up to workers goroutines, biggest
// first, and returns each one's figures; the first error stops them all.
func (b *builder) runCountTasks(c *countPlan, workers int) ([][]part, error) {
	results := make([][]part, len(c.tasks))
	ctx, cancel := context.WithCancel(b.ctx)
	defer cancel()
	src := *b.src.(*storeSource)
	src.ctx = ctx
	next := make(chan int)
	errs := make(chan error, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range next {
				parts, err := b.countTask(ctx, &src, c, c.tasks[k])
				if err != nil {
					errs <- err
					cancel()
					return
				}
				results[k] = parts
			}
		}()
	}
feed:
	for k := range c.tasks {
		select {
		case next <- k:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return nil, err
	}
	return results, ctx.Err()
}

// countTask makes one walk of c and returns its figures: a chunk's rows
// go to their nearest shown ancestors' summaries; collapsed children are
// added up where the trace stores their figures (countInPlace), else
// walked.
func (b *builder) countTask(ctx context.Context, src *storeSource, c *countPlan, t countTask) ([]part, error) {
	var parts []part
	if t.node >= 0 {
		ow := ownerWalk{shown: c.shown} // one per walk; the map is only read
		wk := &walker{topRootPly: c.rootPly[t.node]}
		err := src.st.Subtree(ctx, src.run.ID, b.g.Nodes[t.node].ID, -1, func(n trace.Node) error {
			qs, qsPly, _ := wk.visit(n)
			if owner, ok := ow.owner(n); ok {
				parts = addPart(parts, owner, qs, qsPly)
			}
			return nil
		})
		return parts, err
	}
	parts, counted, err := b.countInPlace(ctx, c.counter, t, c.rootPly)
	if counted || err != nil {
		return parts, err
	}
	for _, kid := range t.kids {
		cc := b.collapsed[kid]
		wk := &walker{topRootPly: c.rootPly[cc.parent]}
		err := src.st.Subtree(ctx, src.run.ID, cc.n.ID, -1, func(n trace.Node) error {
			qs, qsPly, _ := wk.visit(n)
			parts = addPart(parts, cc.parent, qs, qsPly)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return parts, nil
}

// part is figures of collapsed rows for the summary of shown node owner.
type part struct {
	owner    int // shown node whose summary takes the figures
	rows, qs int64
	maxQSPly int
}

// countInPlace adds up the rows of task t's collapsed children (indexes
// in b.collapsed: siblings side by side, alike) where the trace stores them
// (trace.RangeCounter), when their figures tell what a walk would: the
// rows and QS rows always; the deepest QS ply of QS children all of whose
// rows are QS nodes from their plies (rootPly is the QS root ply above
// each shown node, -1 for none), and of full-width children from the
// stored QS plies, which Horizon's own engine records as the walk counts
// them (another engine's stream may not). counted is false where the
// caller must walk the rows. t's figures are countMany's where it added
// them up.
func (b *builder) countInPlace(ctx context.Context, counter trace.RangeCounter, t countTask, rootPly []int) (parts []part, counted bool, err error) {
	if counter == nil {
		return nil, false, nil
	}
	kids := t.kids
	first, last := b.collapsed[kids[0]], b.collapsed[kids[len(kids)-1]]
	var rc trace.RangeCounts
	if t.rc != nil {
		rc = *t.rc
	} else {
		var ok bool
		rc, ok, err = counter.RangeCounts(ctx, b.g.Run.ID, first.n.ID, last.n.End())
		if err != nil || !ok {
			return nil, false, err
		}
	}
	p := part{owner: first.parent, rows: rc.Rows, qs: rc.QSRows, maxQSPly: -1}
	switch {
	case rc.QSRows == 0:
	case first.n.Kind == engine.KindQS && rc.QSRows == rc.Rows:
		root := rootPly[first.parent]
		if root < 0 {
			root = first.n.Ply // each child is a QS root, at this ply
		}
		p.maxQSPly = rc.MaxQSNodePly - root
	case first.n.Kind != engine.KindQS && b.g.Run.Engine == "" && rc.MaxQSPly >= 0:
		p.maxQSPly = rc.MaxQSPly
	default:
		return nil, false, nil
	}
	if p.rows == 0 {
		return nil, true, nil
	}
	return []part{p}, true, nil
}
