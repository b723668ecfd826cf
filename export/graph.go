package export

import (
	"container/heap"
	"context"
	"fmt"
	"sort"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// Options shape a graph.
type Options struct {
	// MaxNodes is the budget of tree nodes shown, the top node included,
	// counted as Graph.Shown counts them (the run node, no position, is
	// drawn beyond it); summary nodes come on top of it, at most one per
	// shown node. <= 0 means DefaultMaxNodes.
	MaxNodes int
	// Depth is how many plies below the top node are shown (with QSOnly:
	// below each QS root); < 0 means no limit. Children below the limit are
	// collapsed into summaries like those over the budget.
	Depth int
	// QSOnly shows only the quiescence searches under the top node: each QS
	// root (a QS node whose parent is full-width) hangs from the top node
	// by an edge labelled with the full-width moves that led to it, the
	// biggest QS trees first; the full-width nodes between are left out
	// and counted in the title. When the top node is itself a QS node the
	// option changes nothing.
	QSOnly bool
	// RankDir is Graphviz's layout direction: "TB" (top-down, the
	// default) or "LR" (left to right).
	RankDir string
}

// Graph is a subtree of a trace cut down to a node budget.
type Graph struct {
	Run     trace.Run
	Top     trace.Node
	TopPath []string // moves in SAN from the run's root position to Top
	// TopVisits is the visit of each move of TopPath and TopSearches its
	// searches under its parent (trace.Visits), by which headings mark a
	// move searched more than once (dxe6·2, dxe6·1: trace.VisitMark).
	TopVisits   []int
	TopSearches []int
	// TopPlace is Top's place as Horizon prints one (trace.Place), which
	// --path reads back; "" for the run node.
	TopPlace string
	Options  Options
	// Nodes are the shown tree nodes in pre-order (ascending id): Nodes[0]
	// is Top and every other node's parent comes before it.
	Nodes []Node
	// Summaries stand for the children each shown node had that are not
	// shown; each belongs to one shown node (Node.Summary).
	Summaries []Summary
	// QSOnly is set when Options.QSOnly took effect (the top node is not a
	// QS node). QSRoots counts the QS trees under Top and QSNodes their
	// rows; FullWidth counts the full-width rows under Top that the graph
	// leaves out.
	QSOnly    bool
	QSRoots   int64
	QSNodes   int64
	FullWidth int64
	// plan is set for a graph written as its rows are read (stream.go),
	// whose Nodes and Summaries stay empty: it holds their counts.
	plan *plan
}

// Node is a shown tree node.
type Node struct {
	trace.Node
	SAN    string // the move into the node in SAN; "" for the run and iteration roots
	Parent int    // index of the parent in Graph.Nodes; -1 for the top node
	// Order is the move's place (1-based) among the parent's distinct
	// moves in the order the search tried them; Repeat counts earlier
	// siblings with the same move (a re-search, or the same move at
	// another QS level or iteration). Both are 0 for the top node and for
	// QS roots hung from the top by QSOnly.
	Order  int
	Repeat int
	// Via holds, for QS roots hung from the top by QSOnly, the full-width
	// moves (SAN) from the top node to the QS root's parent.
	Via []string
	// PV marks the principal variation from the top node: the chain of
	// children reached by each node's best move (the last such child when
	// a move was searched twice).
	PV bool
	// Level is the node's distance in plies below the top node (below its
	// QS root with QSOnly).
	Level int
	// Summary is the index in Graph.Summaries of the node's collapsed
	// children; -1 when every child is shown or it has none.
	Summary int
}

// Summary stands for some children of one shown node, not shown, with
// every node below them.
type Summary struct {
	Parent   int   // index of the shown node in Graph.Nodes
	Children int   // subtrees collapsed (QS trees with QSTrees)
	Nodes    int64 // nodes the search visited in them
	Rows     int64 // rows the trace holds of them (fewer with a recording filter)
	QSRows   int64 // rows of QS nodes among them
	// MaxQSPly is the deepest QS node's distance from its QS root among
	// them; -1 when none is a QS node.
	MaxQSPly int
	// Unrecorded counts nodes the search visited under the shown node that
	// the trace holds no row of (a recording filter left them out); they
	// are part of Nodes.
	Unrecorded int64
	// DepthLimit: the children were cut by Options.Depth, not the budget.
	DepthLimit bool
	// QSTrees: the summary stands for QS trees the QSOnly view left out.
	QSTrees bool
}

// Shown counts the shown nodes that are positions, the figure to set
// against Top.Nodes(): the run node, drawn as the top of a whole run, is
// no position and in neither count (trace.Node.Nodes).
func (g *Graph) Shown() int {
	if len(g.Nodes) > 0 && g.Nodes[0].Kind == engine.KindRun {
		return len(g.Nodes) - 1
	}
	return len(g.Nodes)
}

// shownCount is Shown, or a streamed graph's count of shown nodes.
func (g *Graph) shownCount() int64 {
	if g.plan != nil {
		return g.plan.shown
	}
	return int64(g.Shown())
}

// summaryCount counts the graph's summaries, streamed or not.
func (g *Graph) summaryCount() int64 {
	if g.plan != nil {
		return int64(len(g.plan.sums))
	}
	return int64(len(g.Summaries))
}

// QSShare is the share of the summary's rows that are QS nodes.
func (s Summary) QSShare() float64 {
	if s.Rows == 0 {
		return 0
	}
	return float64(s.QSRows) / float64(s.Rows)
}

// candidate is a child waiting for its turn in the budget.
type candidate struct {
	n      trace.Node
	parent int // index in builder.nodes
	order  int
	repeat int
	pv     bool
	level  int
	via    []string
	san    string           // set when known at push time (QSOnly roots)
	pos    *engine.Position // position at the node, when known at push time
}

// candidates is a max-heap: PV first, then bigger subtrees, then search order.
type candidates []*candidate

func (h candidates) Len() int { return len(h) }
func (h candidates) Less(i, j int) bool {
	a, b := h[i], h[j]
	if a.pv != b.pv {
		return a.pv
	}
	if a.n.SubtreeSize != b.n.SubtreeSize {
		return a.n.SubtreeSize > b.n.SubtreeSize
	}
	return a.n.ID < b.n.ID
}
func (h candidates) Swap(i, j int) { h[i], h[j] = h[j], h[i] }

// top returns the nodes of up to k candidates at the top of the heap:
// the first, then the best of its children in the heap's tree, which hold
// the next ones to be taken.
func (h candidates) top(k int) []trace.Node {
	ns := make([]trace.Node, 0, k)
	for _, c := range h[:min(k, len(h))] {
		ns = append(ns, c.n)
	}
	return ns
}
func (h *candidates) Push(x any) { *h = append(*h, x.(*candidate)) }
func (h *candidates) Pop() any {
	old := *h
	c := old[len(old)-1]
	*h = old[:len(old)-1]
	return c
}

type builder struct {
	ctx  context.Context
	st   trace.Reader
	g    *Graph
	pos  []*engine.Position // position at each shown node, by index
	rule trace.MoveRule     // the run's moves, legal or pseudo-legal
	heap candidates
	sums map[int]int    // node index -> summary index
	pv   map[int64]bool // ids on the principal variation from the top
	src  source
	// nested holds the run's nested searches, whose roots show their
	// reason where a child shows its move.
	nested map[int64]trace.NestedSearch
	// collapsed lists the children standing in summaries (but not the QS
	// roots QSOnly never queued).
	collapsed []collapsed
}

// collapsed is a child of shown node parent that a summary stands for.
type collapsed struct {
	n      trace.Node
	parent int
}

// Build makes the graph of the subtree under top, cut to the options'
// budget. It reads the trace through st's query API only. A subtree of up
// to 100,000 rows, or 16 a node of the budget up to about a million
// (memMaxRows), is read in one stream and the graph built in memory
// (newSource); a bigger one is read one level under each shown node, and
// the summaries' figures are added up by the trace (trace.RangeCounter), a
// query per run of alike collapsed siblings, or else walked side by side:
// each shown subtree of up to chunkRows rows whole, each collapsed child
// of a bigger one on its own (countCollapsedParallel). QSOnly streams the
// subtree once more to find the QS roots. WriteGraph streams a graph that
// shows every node instead of building it.
func Build(ctx context.Context, st trace.Reader, run trace.Run, top trace.Node, opts Options) (*Graph, error) {
	g, tl, err := newGraph(ctx, st, run, top, opts)
	if err != nil {
		return nil, err
	}
	opts = g.Options
	path, topPos, topPath := tl.nodes, tl.pos, tl.san
	src, err := newSource(ctx, st, run, top, opts.MaxNodes)
	if err != nil {
		return nil, err
	}
	pv, err := pvChain(run, top, src.children)
	if err != nil {
		return nil, err
	}
	b := &builder{ctx: ctx, st: st, g: g, rule: g.Run.MoveRule(), sums: map[int]int{}, pv: pv, src: src}
	if b.nested, err = st.NestedSearches(ctx, g.Run.ID); err != nil {
		return nil, err
	}
	topSAN := ""
	if ownStep(top) && len(topPath) > 0 {
		topSAN = topPath[len(topPath)-1]
	}
	if err := b.add(&candidate{n: top, parent: -1, pv: true, pos: topPos, san: topSAN}); err != nil {
		return nil, err
	}
	g.QSOnly = opts.QSOnly && top.Kind != engine.KindQS
	if g.QSOnly {
		if err := b.seedQSRoots(path); err != nil {
			return nil, err
		}
	} else if err := b.expand(0); err != nil {
		return nil, err
	}
	// An ended run's queried lists are read ahead: those of the top of
	// the queue, which the next expansions most likely take.
	var ahead *childrenAhead
	if ss, ok := src.(*storeSource); ok && !run.Status.Partial() {
		ahead = newChildrenAhead(ss)
		ss.ahead = ahead
		defer ahead.stop()
	}
	for g.Shown() < opts.MaxNodes && b.heap.Len() > 0 {
		c := heap.Pop(&b.heap).(*candidate)
		if err := b.add(c); err != nil {
			return nil, err
		}
		if err := b.expand(len(g.Nodes) - 1); err != nil {
			return nil, err
		}
		if ahead != nil && g.Shown() < opts.MaxNodes {
			ahead.want(b.heap.top(aheadWanted))
		}
	}
	if ahead != nil {
		ahead.stop() // the summaries' workers take both cores
	}
	// What is left waiting is collapsed into its parent's summary.
	for _, c := range b.heap {
		s := b.summary(c.parent)
		b.collapsed = append(b.collapsed, collapsed{c.n, c.parent})
		g.Summaries[s].Children++
		g.Summaries[s].Nodes += c.n.SubtreeSize
		if g.QSOnly && c.parent == 0 {
			g.Summaries[s].QSTrees = true
		}
	}
	b.heap = nil
	if len(g.Summaries) > 0 {
		if err := b.countCollapsed(path); err != nil {
			return nil, err
		}
	}
	b.sortByID()
	return g, nil
}

// newGraph checks the options, filling in the defaults, reads the path to
// top (topOf) and returns the graph with its heading's fields: Build's
// start, and a streamed graph's.
func newGraph(ctx context.Context, st trace.Reader, run trace.Run, top trace.Node, opts Options) (*Graph, topLine, error) {
	if opts.MaxNodes <= 0 {
		opts.MaxNodes = DefaultMaxNodes
	}
	if opts.RankDir == "" {
		opts.RankDir = "TB"
	}
	if opts.RankDir != "TB" && opts.RankDir != "LR" {
		return nil, topLine{}, fmt.Errorf("rankdir %q: want TB or LR", opts.RankDir)
	}
	tl, err := topOf(ctx, st, run, top)
	if err != nil {
		return nil, tl, err
	}
	return &Graph{Run: run, Top: top, TopPath: tl.san, TopVisits: tl.visits, TopSearches: tl.searches, TopPlace: tl.place, Options: opts}, tl, nil
}

// topLine is what an export knows of its top node before it reads below
// it: the nodes from the run node down to it, the position there (its
// move made), its SAN path, each move's visit and searches, and its place
// (trace.PlaceOf, one walk), which the headings print and --path
// reads back ("" for the run node; "iteration 2·1: (root)" for the
// first of two roots of iteration 2).
type topLine struct {
	nodes            []trace.Node
	pos              *engine.Position
	san              []string
	visits, searches []int
	place            string
}

// topOf reads the path to top: every export's heading and first node.
func topOf(ctx context.Context, st trace.Reader, run trace.Run, top trace.Node) (topLine, error) {
	var tl topLine
	var err error
	if tl.nodes, err = st.Path(ctx, run.ID, top.ID); err != nil {
		return tl, err
	}
	if tl.pos, tl.san, err = replay(run, tl.nodes); err != nil {
		return tl, err
	}
	pf, place, err := trace.PlaceOf(ctx, st, run.ID, top.ID)
	if len(pf.Path) > 0 {
		// The place's path has a step for every node (a nested search's
		// mark too), as its visits do; replay's has moves alone.
		tl.san = pf.Path
	}
	tl.visits, tl.searches, tl.place = pf.Visits, pf.Searches, place
	return tl, err
}

// ownStep reports whether the last step of the top's place (its path:
// PathSAN) is the top's own: its move, or its mark as a nested search's
// root; an iteration root's place ends above it.
func ownStep(top trace.Node) bool {
	return top.Move != engine.NoMove || trace.IsNested(top)
}

// replay walks a path of nodes from the run's root position and returns the
// position at its end and its moves in SAN.
func replay(run trace.Run, path []trace.Node) (*engine.Position, []string, error) {
	pos, err := engine.ParseFEN(run.FEN)
	if err != nil {
		return nil, nil, fmt.Errorf("run %d: root position: %w", run.ID, err)
	}
	var san []string
	for _, n := range path {
		if n.Move == engine.NoMove {
			continue
		}
		if !run.MoveRule().Playable(pos, n.Move) {
			return nil, nil, fmt.Errorf("run %d: node %d: move %s is not legal in %s: %w",
				run.ID, n.ID, n.Move.UCI(), pos.FEN(), trace.ErrCorrupt)
		}
		san = append(san, pos.SAN(n.Move))
		pos.MakeMove(n.Move)
	}
	return pos, san, nil
}

// add shows a candidate: it becomes the next node of the graph.
func (b *builder) add(c *candidate) error {
	g := b.g
	pos, san := c.pos, c.san
	if pos == nil {
		parent := b.pos[c.parent]
		pos = parent.CopyLean()
		if m := c.n.Move; m != engine.NoMove {
			if !b.rule.Playable(parent, m) {
				return fmt.Errorf("run %d: node %d: move %s is not legal in %s: %w",
					g.Run.ID, c.n.ID, m.UCI(), parent.FEN(), trace.ErrCorrupt)
			}
			san = parent.SAN(m)
			pos.MakeMove(m)
		} else if trace.IsNested(c.n) {
			san = trace.NestedText(b.nested[c.n.ID])
		}
	}
	g.Nodes = append(g.Nodes, Node{Node: c.n, SAN: san, Parent: c.parent, Order: c.order, Repeat: c.repeat,
		Via: c.via, PV: c.pv, Level: c.level, Summary: -1})
	b.pos = append(b.pos, pos)
	return nil
}

// summary returns the index of node i's summary, making it if needed.
func (b *builder) summary(i int) int {
	if s, ok := b.sums[i]; ok {
		return s
	}
	b.g.Summaries = append(b.g.Summaries, Summary{Parent: i, MaxQSPly: -1})
	s := len(b.g.Summaries) - 1
	b.sums[i] = s
	b.g.Nodes[i].Summary = s
	return s
}

// expand queues the children of shown node i, or, at the depth limit,
// collapses them all into its summary.
func (b *builder) expand(i int) error {
	g := b.g
	n := g.Nodes[i]
	if n.SubtreeSize <= 1 {
		return nil
	}
	if g.Options.Depth >= 0 && n.Level >= g.Options.Depth {
		_, kids, err := b.src.children(n.Node)
		if err != nil {
			return err
		}
		count := len(kids)
		if count == 0 {
			return nil
		}
		s := b.summary(i)
		g.Summaries[s].Children = count
		g.Summaries[s].Nodes = n.SubtreeSize - 1
		g.Summaries[s].DepthLimit = true
		for _, k := range kids {
			b.collapsed = append(b.collapsed, collapsed{k, i})
		}
		return nil
	}
	p, kids, err := b.src.children(n.Node)
	if err != nil {
		return err
	}
	// A recording filter may have left out some children: their nodes
	// still count, in the summary.
	missing := trace.Unrecorded(p, kids)
	if missing > 0 && !(g.QSOnly && i == 0) {
		s := b.summary(i)
		g.Summaries[s].Nodes += missing
		g.Summaries[s].Unrecorded += missing
	}
	seen := make(map[engine.Move]int, len(kids)) // move -> order, repeats so far
	repeats := make(map[engine.Move]int)
	for _, kid := range kids {
		order, ok := seen[kid.Move]
		if !ok {
			order = len(seen) + 1
			seen[kid.Move] = order
		}
		c := &candidate{n: kid, parent: i, order: order, repeat: repeats[kid.Move], pv: b.pv[kid.ID], level: n.Level + 1}
		repeats[kid.Move]++
		heap.Push(&b.heap, c)
	}
	return nil
}

// pvChain returns the ids of the principal variation from top, each
// node's child by trace.PVChild.
func pvChain(r trace.Run, top trace.Node, children func(trace.Node) (trace.Node, []trace.Node, error)) (map[int64]bool, error) {
	pv := map[int64]bool{top.ID: true}
	cur := top
	for cur.SubtreeSize > 1 && (cur.Kind == engine.KindRun || cur.Best != engine.NoMove) {
		p, kids, err := children(cur)
		if err != nil {
			return nil, err
		}
		i := trace.PVChild(r, p, kids)
		if i < 0 {
			break
		}
		cur = kids[i]
		pv[cur.ID] = true
	}
	return pv, nil
}

// ancestor is an open node of a streaming walk.
type ancestor struct {
	end     int64
	qs      bool
	rootPly int // ply of the QS root above (or at) a QS node
}

// walker follows a pre-order stream of rows and tells each row's QS ply.
type walker struct {
	stack      []ancestor
	topRootPly int // QS root ply of the walk's first node, when it is a QS node
}

// newWalker prepares a walk of the subtree whose top's path from the run
// node is path.
func newWalker(path []trace.Node) *walker {
	w := &walker{}
	w.topRootPly = -1
	for i := len(path) - 1; i >= 0 && path[i].Kind == engine.KindQS; i-- {
		w.topRootPly = path[i].Ply
	}
	return w
}

// visit takes the next row and returns whether it is a QS node, its QS ply
// (distance from its QS root) and whether it is a QS root.
func (w *walker) visit(n trace.Node) (qs bool, qsPly int, qsRoot bool) {
	for len(w.stack) > 0 && w.stack[len(w.stack)-1].end <= n.ID {
		w.stack = w.stack[:len(w.stack)-1]
	}
	qs = n.Kind == engine.KindQS
	rootPly := -1
	if qs {
		switch {
		case len(w.stack) > 0 && w.stack[len(w.stack)-1].qs:
			rootPly = w.stack[len(w.stack)-1].rootPly
		case len(w.stack) == 0 && w.topRootPly >= 0:
			rootPly = w.topRootPly
		default:
			rootPly, qsRoot = n.Ply, true
		}
		qsPly = n.Ply - rootPly
	}
	w.stack = append(w.stack, ancestor{end: n.End(), qs: qs, rootPly: rootPly})
	return qs, qsPly, qsRoot
}

// seedQSRoots finds the QS roots under the top node in one streaming pass
// and queues the biggest of them as the top node's children; the others go
// straight into the top node's summary.
func (b *builder) seedQSRoots(path []trace.Node) error {
	g := b.g
	keep := g.Options.MaxNodes - g.Shown() // the top node is in
	var roots qsRootHeap                   // min-heap of the biggest roots seen so far
	var rootNodes int64
	w := newWalker(path)
	err := b.src.walk(func(n trace.Node) error {
		qs, _, root := w.visit(n)
		if !qs {
			if n.ID != g.Top.ID {
				g.FullWidth++
			}
			return nil
		}
		g.QSNodes++
		if !root {
			return nil
		}
		g.QSRoots++
		rootNodes += n.SubtreeSize
		switch {
		case keep <= 0:
		case len(roots) < keep:
			heap.Push(&roots, n)
		case roots.less(roots[0], n):
			roots[0] = n
			heap.Fix(&roots, 0)
		}
		return nil
	})
	if err != nil {
		return err
	}
	var queued int64
	for _, r := range roots {
		queued += r.SubtreeSize
		below, err := b.src.below(r.ID)
		if err != nil {
			return err
		}
		pos := b.pos[0].CopyLean()
		var via []string
		san := ""
		for i, n := range below {
			if n.Kind == engine.KindRoot {
				continue // an iteration's root, below the run node: no move
			}
			if !b.rule.Playable(pos, n.Move) {
				return fmt.Errorf("run %d: node %d: move %s is not legal in %s: %w",
					g.Run.ID, n.ID, n.Move.UCI(), pos.FEN(), trace.ErrCorrupt)
			}
			if s := pos.SAN(n.Move); i == len(below)-1 {
				san = s
			} else {
				via = append(via, s)
			}
			pos.MakeMove(n.Move)
		}
		heap.Push(&b.heap, &candidate{n: r, parent: 0, pv: b.pv[r.ID], via: via, san: san, pos: pos})
	}
	if left := g.QSRoots - int64(len(roots)); left > 0 {
		s := b.summary(0)
		g.Summaries[s].Children += int(left)
		g.Summaries[s].Nodes += rootNodes - queued
		g.Summaries[s].QSTrees = true
	}
	return nil
}

// nodesBelow returns the nodes of path after the node with id top.
func nodesBelow(path []trace.Node, top int64) []trace.Node {
	for i, n := range path {
		if n.ID == top {
			return path[i+1:]
		}
	}
	return nil
}

// qsRootHeap is a min-heap by (subtree size, then later id first), so its
// top is the root to drop when a bigger one turns up.
type qsRootHeap []trace.Node

func (qsRootHeap) less(a, b trace.Node) bool {
	if a.SubtreeSize != b.SubtreeSize {
		return a.SubtreeSize < b.SubtreeSize
	}
	return a.ID > b.ID
}
func (h qsRootHeap) Len() int           { return len(h) }
func (h qsRootHeap) Less(i, j int) bool { return h.less(h[i], h[j]) }
func (h qsRootHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *qsRootHeap) Push(x any)        { *h = append(*h, x.(trace.Node)) }
func (h *qsRootHeap) Pop() any {
	old := *h
	n := old[len(old)-1]
	*h = old[:len(old)-1]
	return n
}

// sortByID puts the shown nodes in pre-order and renumbers the indexes.
func (b *builder) sortByID() {
	g := b.g
	idx := make([]int, len(g.Nodes))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(i, j int) bool { return g.Nodes[idx[i]].ID < g.Nodes[idx[j]].ID })
	newIndex := make([]int, len(g.Nodes))
	nodes := make([]Node, len(g.Nodes))
	for to, from := range idx {
		newIndex[from] = to
		nodes[to] = g.Nodes[from]
	}
	for i := range nodes {
		if nodes[i].Parent >= 0 {
			nodes[i].Parent = newIndex[nodes[i].Parent]
		}
	}
	g.Nodes = nodes
	// Summaries follow their shown nodes' order.
	sums := make([]Summary, 0, len(g.Summaries))
	for i := range g.Nodes {
		if s := g.Nodes[i].Summary; s >= 0 {
			g.Nodes[i].Summary = len(sums)
			sums = append(sums, g.Summaries[s])
			sums[len(sums)-1].Parent = i
		}
	}
	g.Summaries = sums
}
