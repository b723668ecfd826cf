package viewer

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// A tree is one run's tree as the user sees it: the run node on row 0, the
// children of every expanded node below it, indented. Only the expanded
// nodes are held (one small record each, with the count of their visible
// children); the children themselves are read in pages when drawn. A row
// number is turned into a node by walking the expanded records, so a node
// with a hundred thousand children costs no more than one with three.
type tree struct {
	src     trace.Reader
	ctx     context.Context
	run     trace.Run
	runNode trace.Node
	root    *expanded // the run node's record; nil while the run node is collapsed
	open    map[int64]*expanded
	order   trace.Order
	filt    filter
	pages   *pageCache
	psize   int // children per page
	pos     *posCache
	visits  map[int64]childVisits        // by parent id (visit)
	bare    bareRoot                     // where a bare path starts (reportedRoot)
	nested  map[int64]trace.NestedSearch // the run's nested searches, labelled by their reason

	cursor int // selected row
	top    int // first row on screen
	height int // rows on screen, set by the drawing code
	// recenter: center ran before the first draw, when the height was not
	// known; the first draw centres the cursor again at the real height.
	recenter bool
}

// expanded is an open node: its visible children are rows below it.
type expanded struct {
	node   trace.Node
	parent *expanded // nil for the run node
	pos    int       // index among the parent's visible children
	level  int       // 0 for the run node
	fen    string    // position at the node

	total       int     // children in the trace
	count       int     // children shown
	idx         []int32 // with a filter on: offsets (in the current order) of the children shown
	hidden      int     // children a filter hides
	hiddenNodes int64   // nodes in their subtrees

	kids []*expanded // expanded children, by pos
	rows int         // rows below the node: shown children, their rows, the "hidden" line
}

// summary reports whether the node ends with a line counting hidden children.
func (e *expanded) summary() bool { return e.hidden > 0 }

// filter hides children. A child is shown when its subtree is big enough and,
// for the QS and cutoff filters, when it matches or leads to a match.
type filter struct {
	minSize int64 // hide subtrees smaller than this
	onlyQS  bool  // only QS nodes and the nodes above them
	onlyCut bool  // only cutoff nodes and the nodes above them
}

func (f filter) active() bool { return f.minSize > 1 || f.onlyQS || f.onlyCut }

// isCut reports whether a node stopped before trying every move it meant
// to (a beta or stand-pat cutoff, a pruning rule, a table hit).
func isCut(n trace.Node) bool {
	switch n.Cause {
	case engine.CauseBeta, engine.CauseStandPat, engine.CauseTT, engine.CauseMateDistance,
		engine.CauseAutoFailHigh, engine.CauseLevelExhausted, engine.CauseDelta, engine.CauseSEE:
		return true
	}
	return false
}

func isQS(n trace.Node) bool { return n.Kind == engine.KindQS }

// stillOpen reports whether n is the stand-in row a recorder writes for a
// node it has entered and not yet left: its result is not known yet, and
// its subtree size covers only the rows written so far.
func stillOpen(n trace.Node) bool { return n.Open }

// sizeOf is n's node count (trace.Node.Nodes) for shares, 0 when it is
// not known yet.
func sizeOf(n trace.Node) int64 {
	if stillOpen(n) {
		return 0
	}
	return n.Nodes()
}

// matches reports whether n itself passes the QS and cutoff filters (as
// opposed to being shown only because a match lies below it).
func (f filter) matches(n trace.Node) bool {
	return (!f.onlyQS || isQS(n)) && (!f.onlyCut || isCut(n))
}

// ref names a row: child i of parent, or the run node when parent is nil.
// i == parent.count is the parent's "hidden" line.
type ref struct {
	parent *expanded
	i      int
}

func (r ref) isRun() bool     { return r.parent == nil }
func (r ref) isSummary() bool { return r.parent != nil && r.i >= r.parent.count }

var errFound = errors.New("found")

// children reads up to limit children of node id (all when limit <= 0)
// after skipping offset of them, in the given order. Every read of
// children goes through here.
func (t *tree) children(id int64, order trace.Order, offset, limit int) ([]trace.Node, error) {
	return t.src.Children(t.ctx, t.run.ID, id, order, offset, limit)
}

// newTree opens run id of src with the run node and the last iteration
// expanded.
func newTree(ctx context.Context, src trace.Reader, id int64) (*tree, error) {
	if _, ok := src.(checked); !ok {
		src = checked{src}
	}
	t := &tree{src: src, ctx: ctx, open: map[int64]*expanded{}, pages: newPageCache(maxPages), psize: pageSize, pos: newPosCache(32)}
	if err := t.load(id); err != nil {
		return nil, err
	}
	if err := t.expandRow(0); err != nil {
		return nil, err
	}
	// Open the last iteration, whose children are the root moves: what a
	// user looks at first.
	if t.root != nil && t.root.count > 0 {
		// The iteration the run reports (trace.ReportedRoot), as runs and
		// export take it: not an unfinished deeper one.
		roots := make([]trace.Node, 0, t.root.count)
		for i := 0; i < t.root.count; i++ {
			n, err := t.child(t.root, i)
			if err != nil {
				return nil, err
			}
			roots = append(roots, n)
		}
		last := trace.ReportedRoot(t.run, roots)
		if n := roots[last]; n.SubtreeSize > 1 {
			if _, err := t.expandChild(t.root, last, n); err != nil {
				return nil, err
			}
			t.cursor = t.rowOfChild(t.root, last)
		}
	}
	return t, nil
}

// load reads the run and its run node.
func (t *tree) load(id int64) error {
	run, err := t.src.Run(t.ctx, id)
	if err != nil {
		return err
	}
	n, err := t.src.Node(t.ctx, id, 0)
	if err != nil {
		return fmt.Errorf("run %d: %w", id, err)
	}
	if _, err := engine.ParseFEN(run.FEN); err != nil {
		return fmt.Errorf("run %d: root position: %w", id, err)
	}
	nested, err := t.src.NestedSearches(t.ctx, id)
	if err != nil {
		return fmt.Errorf("run %d: %w", id, err)
	}
	t.run, t.runNode, t.nested = run, n, nested
	return nil
}

// rows returns the number of rows.
func (t *tree) rows() int {
	if t.root == nil {
		return 1
	}
	return 1 + t.root.rows
}

// locate turns a row number into a ref.
func (t *tree) locate(row int) (ref, bool) {
	if row < 0 || row >= t.rows() {
		return ref{}, false
	}
	if row == 0 {
		return ref{}, true
	}
	e, r := t.root, row-1
descend:
	for {
		extra := 0 // rows of expanded children above r
		for _, k := range e.kids {
			kr := k.pos + extra
			switch {
			case r < kr:
				return ref{e, r - extra}, true
			case r == kr:
				return ref{e, k.pos}, true
			case r <= kr+k.rows:
				e, r = k, r-kr-1
				continue descend
			}
			extra += k.rows
		}
		return ref{e, r - extra}, true
	}
}

// rowOf returns the row of an expanded node.
func (t *tree) rowOf(e *expanded) int {
	if e.parent == nil {
		return 0
	}
	return t.rowOfChild(e.parent, e.pos)
}

// rowOfChild returns the row of child i of e.
func (t *tree) rowOfChild(e *expanded, i int) int {
	row := t.rowOf(e) + 1 + i
	for _, k := range e.kids {
		if k.pos >= i {
			break
		}
		row += k.rows
	}
	return row
}

// nodeAt returns the node on a ref (the run node for the run row). For a
// "hidden" line it returns the parent.
func (t *tree) nodeAt(r ref) (trace.Node, error) {
	switch {
	case r.isRun():
		return t.runNode, nil
	case r.isSummary():
		return r.parent.node, nil
	}
	return t.child(r.parent, r.i)
}

// child returns visible child i of e, reading its page if needed.
func (t *tree) child(e *expanded, i int) (trace.Node, error) {
	if i < 0 || i >= e.count {
		return trace.Node{}, fmt.Errorf("node %d: no child %d", e.node.ID, i)
	}
	o := i
	if e.idx != nil {
		o = int(e.idx[i])
	}
	k := pageKey{t.run.ID, e.node.ID, t.order, o / t.psize}
	p, ok := t.pages.get(k)
	if !ok {
		var err error
		p, err = t.children(e.node.ID, t.order, k.page*t.psize, t.psize)
		if err != nil {
			return trace.Node{}, err
		}
		t.pages.put(k, p)
	}
	if o%t.psize >= len(p) {
		return trace.Node{}, fmt.Errorf("node %d: child %d is missing from the trace (press r to reload)", e.node.ID, o)
	}
	return p[o%t.psize], nil
}

// fenAfter returns the position reached from the position fen by n's move.
func (t *tree) fenAfter(fen string, n trace.Node) (string, error) {
	if n.Move == engine.NoMove {
		return fen, nil
	}
	p, err := t.pos.get(fen)
	if err != nil {
		return "", err
	}
	if !t.run.MoveRule().Playable(p, n.Move) {
		return "", fmt.Errorf("node %d: move %s is not legal in %s", n.ID, n.Move.UCI(), fen)
	}
	p.MakeMove(n.Move)
	out := p.FEN()
	p.UnmakeMove()
	return out, nil
}

// expandRow opens the node on a row (no-op when it is open or has no
// children).
func (t *tree) expandRow(row int) error {
	r, ok := t.locate(row)
	if !ok || r.isSummary() {
		return nil
	}
	if r.isRun() {
		if t.root != nil {
			return nil
		}
		pos, err := engine.ParseFEN(t.run.FEN)
		if err != nil {
			return err
		}
		e := &expanded{node: t.runNode, pos: -1, fen: pos.FEN()}
		if err := t.fill(e); err != nil {
			return err
		}
		t.root = e
		t.open[e.node.ID] = e
		return nil
	}
	n, err := t.child(r.parent, r.i)
	if err != nil {
		return err
	}
	_, err = t.expandChild(r.parent, r.i, n)
	return err
}

// expandChild opens child i (node n) of p and returns its record.
func (t *tree) expandChild(p *expanded, i int, n trace.Node) (*expanded, error) {
	if e, ok := t.open[n.ID]; ok {
		return e, nil
	}
	fen, err := t.fenAfter(p.fen, n)
	if err != nil {
		return nil, err
	}
	e := &expanded{node: n, parent: p, pos: i, level: p.level + 1, fen: fen}
	if err := t.fill(e); err != nil {
		return nil, err
	}
	k := sort.Search(len(p.kids), func(j int) bool { return p.kids[j].pos >= i })
	p.kids = append(p.kids, nil)
	copy(p.kids[k+1:], p.kids[k:])
	p.kids[k] = e
	t.open[n.ID] = e
	for a := p; a != nil; a = a.parent {
		a.rows += e.rows
	}
	return e, nil
}

// fill counts e's children and, with a filter on, picks the ones shown.
func (t *tree) fill(e *expanded) error {
	e.count, e.total, e.idx, e.hidden, e.hiddenNodes, e.kids = 0, 0, nil, 0, 0, nil
	if e.node.SubtreeSize > 1 {
		n, err := t.src.ChildCount(t.ctx, t.run.ID, e.node.ID)
		if err != nil {
			return err
		}
		e.total = n
	}
	if !t.filt.active() {
		e.count = e.total
	} else {
		idx := make([]int32, 0, 16)
		kids, err := t.children(e.node.ID, t.order, 0, 0)
		if err != nil {
			return err
		}
		for j, c := range kids {
			keep, err := t.keep(c)
			if err != nil {
				return err
			}
			if keep {
				idx = append(idx, int32(j))
			} else {
				e.hidden++
				e.hiddenNodes += c.SubtreeSize
			}
		}
		e.idx, e.count = idx, len(idx)
	}
	e.rows = e.count
	if e.summary() {
		e.rows++
	}
	return nil
}

// keep applies the filter to one child.
func (t *tree) keep(c trace.Node) (bool, error) {
	f := t.filt
	if c.SubtreeSize < f.minSize {
		return false, nil
	}
	if f.onlyQS && !isQS(c) {
		if !t.run.Status.Partial() && t.run.QSNodes == 0 {
			return false, nil
		}
		ok, err := t.below(c, isQS)
		if !ok || err != nil {
			return false, err
		}
	}
	if f.onlyCut && !isCut(c) {
		ok, err := t.below(c, isCut)
		if !ok || err != nil {
			return false, err
		}
	}
	return true, nil
}

// below reports whether a node strictly below n satisfies pred. The walk is
// in search order and stops at the first match, which in a real tree is a
// few plies down.
func (t *tree) below(n trace.Node, pred func(trace.Node) bool) (bool, error) {
	if n.SubtreeSize <= 1 {
		return false, nil
	}
	err := t.src.Subtree(t.ctx, t.run.ID, n.ID, -1, func(d trace.Node) error {
		if d.ID != n.ID && pred(d) {
			return errFound
		}
		return nil
	})
	if errors.Is(err, errFound) {
		return true, nil
	}
	return false, err
}

// collapse closes e and everything open below it.
func (t *tree) collapse(e *expanded) {
	t.forget(e)
	if e.parent == nil {
		t.root = nil
		return
	}
	p := e.parent
	for j, k := range p.kids {
		if k == e {
			p.kids = append(p.kids[:j], p.kids[j+1:]...)
			break
		}
	}
	for a := p; a != nil; a = a.parent {
		a.rows -= e.rows
	}
}

func (t *tree) forget(e *expanded) {
	delete(t.open, e.node.ID)
	for _, k := range e.kids {
		t.forget(k)
	}
}

// collapseAll closes every node but the run node.
func (t *tree) collapseAll() {
	if t.root == nil {
		return
	}
	for _, k := range append([]*expanded(nil), t.root.kids...) {
		t.collapse(k)
	}
	t.setCursor(0)
}

// indexOf returns the index of node id among e's visible children, or -1.
func (t *tree) indexOf(e *expanded, id int64) (int, error) {
	if !e.node.Contains(id) || id == e.node.ID {
		return -1, nil
	}
	for i := 0; i < e.count; i++ {
		c, err := t.child(e, i)
		if err != nil {
			return -1, err
		}
		if c.ID == id {
			return i, nil
		}
		if t.order == trace.BySearch && c.ID > id {
			break // children come in ascending id order
		}
	}
	return -1, nil
}

// hiddenError says that a node exists but the filters hide it.
type hiddenError struct{ id int64 }

func (e hiddenError) Error() string {
	return fmt.Sprintf("node %d is hidden by the current filters", e.id)
}

// missingError says that a node's path runs through a parent whose
// children do not include it: the trace is damaged, or (while a run is
// recorded) the node's parent has no row yet.
type missingError struct{ n, parent trace.Node }

func (e missingError) Error() string {
	if stillOpen(e.parent) || e.parent.Incomplete {
		return fmt.Sprintf("node %d is not among the children of node %d yet (still being recorded; r reloads)", e.n.ID, e.parent.ID)
	}
	return fmt.Sprintf("damaged trace: node %d has parent %d, which does not list it among its children", e.n.ID, e.parent.ID)
}

// Unwrap lets errors.Is match trace.ErrCorrupt.
func (e missingError) Unwrap() error {
	if stillOpen(e.parent) || e.parent.Incomplete {
		return nil
	}
	return trace.ErrCorrupt
}

// reveal expands the path to node id and puts the cursor on it.
func (t *tree) reveal(id int64) error {
	if id == 0 {
		t.setCursor(0)
		return nil
	}
	path, err := t.src.Path(t.ctx, t.run.ID, id)
	if err != nil {
		return err
	}
	return t.revealPath(path)
}

// revealPath expands a path (run node first) and selects its last node.
func (t *tree) revealPath(path []trace.Node) error {
	if len(path) == 0 {
		return nil
	}
	if err := t.expandRow(0); err != nil {
		return err
	}
	e := t.root
	for k := 1; k < len(path); k++ {
		n := path[k]
		i, err := t.indexOf(e, n.ID)
		if err != nil {
			return err
		}
		if i < 0 {
			if !t.filt.active() {
				// Nothing is hidden: the node's parent does not list it.
				return missingError{n, e.node}
			}
			return hiddenError{n.ID}
		}
		if k == len(path)-1 {
			t.setCursor(t.rowOfChild(e, i))
			t.center()
			return nil
		}
		if e, err = t.expandChild(e, i, n); err != nil {
			return err
		}
	}
	t.setCursor(0)
	return nil
}

// chain returns the ids from the node on row up to the run node.
func (t *tree) chain(row int) []int64 {
	r, ok := t.locate(row)
	if !ok || r.isRun() {
		return []int64{0}
	}
	var ids []int64
	if !r.isSummary() {
		if n, err := t.child(r.parent, r.i); err == nil {
			ids = append(ids, n.ID)
		}
	}
	for e := r.parent; e != nil; e = e.parent {
		ids = append(ids, e.node.ID)
	}
	return ids
}

// rebuild applies change (a new order or filter; nil after the file
// changed) and re-reads every open node, keeping what was open (where still
// visible) and the cursor on the same node or the nearest visible node
// above it.
func (t *tree) rebuild(change func()) error {
	keep := t.chain(t.cursor) // before change: rows are read in the old order
	type saved struct {
		id     int64
		parent int64
		level  int
	}
	var opened []saved
	for _, e := range t.open {
		if e.parent != nil {
			opened = append(opened, saved{e.node.ID, e.parent.node.ID, e.level})
		}
	}
	sort.Slice(opened, func(i, j int) bool {
		if opened[i].level != opened[j].level {
			return opened[i].level < opened[j].level
		}
		return opened[i].id < opened[j].id
	})
	wasOpen := t.root != nil
	if change != nil {
		change()
	}
	t.root, t.open = nil, map[int64]*expanded{}
	t.pages.clear()
	if !wasOpen {
		t.setCursor(0)
		return nil
	}
	if err := t.expandRow(0); err != nil {
		return err
	}
	for _, s := range opened {
		p, ok := t.open[s.parent]
		if !ok {
			continue
		}
		i, err := t.indexOf(p, s.id)
		if err != nil {
			return err
		}
		if i < 0 {
			continue
		}
		n, err := t.child(p, i)
		if err != nil {
			return err
		}
		if _, err := t.expandChild(p, i, n); err != nil {
			return err
		}
	}
	// The cursor goes to the first node of its old chain still on screen.
	for j, id := range keep {
		if e, ok := t.open[id]; ok {
			t.setCursor(t.rowOf(e))
			return nil
		}
		if j+1 < len(keep) {
			if p, ok := t.open[keep[j+1]]; ok {
				i, err := t.indexOf(p, id)
				if err != nil {
					return err
				}
				if i >= 0 {
					t.setCursor(t.rowOfChild(p, i))
					return nil
				}
			}
		}
	}
	t.setCursor(0)
	return nil
}

// setCursor moves the cursor to row (clamped) and scrolls it into view.
func (t *tree) setCursor(row int) {
	t.cursor = max(0, min(row, t.rows()-1))
	t.scrollToCursor()
}

// margin is how many rows stay visible above and below the cursor.
func (t *tree) margin() int { return min(2, max(0, (t.height-1)/2)) }

func (t *tree) scrollToCursor() {
	t.recenter = false
	h := max(t.height, 1)
	m := t.margin()
	if t.cursor < t.top+m {
		t.top = t.cursor - m
	}
	if t.cursor > t.top+h-1-m {
		t.top = t.cursor - h + 1 + m
	}
	t.clampTop()
}

func (t *tree) clampTop() {
	t.top = max(0, min(t.top, t.rows()-max(t.height, 1)))
}

// center scrolls so the cursor is in the middle of the pane.
func (t *tree) center() {
	t.recenter = t.height == 0
	t.top = t.cursor - max(t.height, 1)/2
	t.clampTop()
}

// scroll moves the view by delta rows, dragging the cursor along when it
// would leave the screen.
func (t *tree) scroll(delta int) {
	t.top += delta
	t.clampTop()
	h := max(t.height, 1)
	m := t.margin()
	if t.cursor < t.top+m {
		t.cursor = min(t.top+m, t.rows()-1)
	}
	if t.cursor > t.top+h-1-m {
		t.cursor = max(t.top+h-1-m, 0)
	}
}

// selected returns the ref and node under the cursor.
func (t *tree) selected() (ref, trace.Node, error) {
	r, ok := t.locate(t.cursor)
	if !ok {
		return ref{}, t.runNode, nil
	}
	n, err := t.nodeAt(r)
	return r, n, err
}

// setOrder changes the order of children and rebuilds.
func (t *tree) setOrder(o trace.Order) error {
	if t.order == o {
		return nil
	}
	return t.rebuild(func() { t.order = o })
}

// setFilter changes the filter and rebuilds.
func (t *tree) setFilter(f filter) error {
	if t.filt == f {
		return nil
	}
	return t.rebuild(func() { t.filt = f })
}
