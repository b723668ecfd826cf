package compare

import (
	"cmp"
	"context"
	"slices"
	"sort"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// Side names one run of one trace source: one of the two trees being
// compared.
type Side struct {
	Store trace.Reader
	Run   int64
}

// Open reads the side's run and its run node (node 0), where every walk
// of two trees starts.
func (s Side) Open(ctx context.Context) (trace.Run, trace.Node, error) {
	r, err := s.Store.Run(ctx, s.Run)
	if err != nil {
		return r, trace.Node{}, err
	}
	n, err := s.Store.Node(ctx, s.Run, 0)
	return r, n, err
}

// Key identifies a node among its siblings: its trace.SiblingKey (the
// iteration of an iteration root, the move of any other node) and its
// visit among the siblings of that key. Transpositions are not merged: a
// node is known by the keys on its path from the run node.
type Key struct {
	// Iteration is the nominal depth of an iteration root (a child of the
	// run node); 0 for every other node.
	Iteration int
	// Move is the move from the parent; engine.NoMove for iteration roots
	// and nested searches.
	Move engine.Move
	// Nested is a nested search's mark (trace.NestedText: its reason and
	// excluded move), "" for every other node: an IID search lines up
	// with an IID search, not with a singular test.
	Nested string
	// Occurrence counts the earlier siblings with the same Iteration and
	// Move (trace.ChildVisits' visit less one): a PVS re-search, an
	// internal iteration of the unified search or a level pass of the
	// threshold search visits the same move again, and the n-th visit in
	// one tree lines up with the n-th in the other.
	Occurrence int
}

func compareKeys(a, b Key) int {
	if c := trace.CompareKeys(a.sibling(), b.sibling()); c != 0 {
		return c
	}
	return cmp.Compare(a.Occurrence, b.Occurrence)
}

// sibling is k without its occurrence.
func (k Key) sibling() trace.SiblingKey {
	return trace.SiblingKey{Iteration: k.Iteration, Move: k.Move, Nested: k.Nested}
}

// keyOf is the Key of a node on a path (trace.PathVisits).
func keyOf(v trace.PathVisit) Key {
	return Key{Iteration: v.Key.Iteration, Move: v.Key.Move, Nested: v.Key.Nested, Occurrence: v.Visit - 1}
}

// keyed is a node with its key among its siblings.
type keyed struct {
	K Key
	N trace.Node
	// Searches counts the siblings with N's Iteration and Move, N among
	// them: how many times the move was searched under the parent, which
	// says whether a path must mark a first visit (trace.VisitMark).
	Searches int
}

// keyChildren gives each child of parent its key (its visit numbered by
// trace.ChildVisits) and returns them in key order, the canonical order
// both trees are walked in. kids must be in search order; nested are the
// run's nested searches (trace.Reader.NestedSearches).
func keyChildren(parent trace.Node, kids []trace.Node, nested map[int64]trace.NestedSearch) []keyed {
	out := make([]keyed, len(kids))
	// trace.KeyedChildren's order is the key order: by sibling key, then
	// by visit (Occurrence).
	for i, c := range trace.KeyedChildren(parent, kids, nested) {
		out[i] = keyed{K: Key{Iteration: c.Key.Iteration, Move: c.Key.Move, Nested: c.Key.Nested, Occurrence: c.Visit - 1}, N: kids[c.Index], Searches: c.Searches}
	}
	return out
}

// chunkNodes is the largest subtree a tree reader loads in one streamed
// query; bigger subtrees are walked child list by child list. It bounds
// the memory of a walk to about chunkNodes rows per tree. A variable so
// that tests can shrink it and exercise both ways of reading.
var chunkNodes = 1 << 14

// tree reads one run's nodes for a walk in canonical order. Reading child
// lists one query at a time would cost a query per node, so a subtree of
// at most chunkNodes rows is streamed once into buf and its child lists
// are cut from that buffer; only the few nodes above the chunks are read
// with Children.
type tree struct {
	Side
	chunk int
	buf   []trace.Node // one loaded subtree in pre-order
	end   int64        // buf holds the rows of ids [buf[0].ID, end)
	// ahead are the read-aheads planned (plan) for the big nodes on the
	// walked path, innermost last; spare holds buffers the walk is done
	// with, for them to fill again.
	ahead []*readAhead
	spare chan []trace.Node
	// nested are the run's nested searches (nestedSearches), nil until read.
	nested map[int64]trace.NestedSearch
}

// readAhead loads, on a goroutine of its own, the subtrees a walk is going
// to ask for next (one chunk each, in the order it will ask), while the
// walk compares the chunk before: on two cores the reading of one run, the
// other and the comparing overlap. It runs at most one chunk ahead of the
// walk, so a tree holds at most three chunks per level of read-ahead.
type readAhead struct {
	want   []trace.Node // the nodes still to be handed over, in order
	got    chan chunk
	cancel context.CancelFunc
	done   chan struct{}
}

// chunk is one subtree read by a readAhead.
type chunk struct {
	buf []trace.Node
	end int64
	err error
}

func newTree(s Side) *tree {
	return &tree{Side: s, chunk: chunkNodes, spare: make(chan []trace.Node, 2)}
}

// children returns n's children in search order, in a fresh slice, checked
// with trace.CheckChildren against n as read with them. That copy of n, not the
// caller's, is the parent: in a run being recorded the open nodes grow
// between two reads, and the last child, read later, can run past a copy
// read before it.
func (t *tree) children(ctx context.Context, n trace.Node) ([]trace.Node, error) {
	if n.SubtreeSize <= 1 {
		return nil, nil
	}
	if err := trace.CheckNode(n); err != nil {
		return nil, err
	}
	if !t.holds(n) {
		if n.SubtreeSize > int64(t.chunk) {
			_, kids, err := childList(ctx, t.Side, n.ID)
			return kids, err
		}
		if ra := t.next(n); ra != nil {
			c, ok := <-ra.got
			ra.want = ra.want[1:]
			if !ok {
				// The read-ahead ended before it handed n over: its
				// context, the walk's, ended (waiting for a chunk it
				// would never send hung the walk, and with it an
				// interrupted diff).
				c.err = ctx.Err()
				if c.err == nil {
					c.buf, c.end, c.err = t.load(ctx, n, nil)
				}
			}
			if c.err != nil {
				t.buf = t.buf[:0]
				return nil, c.err
			}
			select {
			case t.spare <- t.buf[:0]: // cut from, never handed out
			default:
			}
			t.buf, t.end = c.buf, c.end
		} else {
			var err error
			if t.buf, t.end, err = t.load(ctx, n, t.buf[:0]); err != nil {
				return nil, err
			}
		}
	}
	i := t.index(n.ID)
	if i < 0 {
		return nil, nil
	}
	p := t.buf[i]
	var kids []trace.Node
	for j := i + 1; j < len(t.buf) && t.buf[j].ID < p.End(); {
		c := t.buf[j]
		// The hop below moves on only when c's size is at least 1; a size
		// from a damaged file must not make it stand still.
		if err := trace.CheckChild(p, c); err != nil {
			return nil, err
		}
		// A row whose parent is not n belongs to a child that has no row
		// (still open while recording, or filtered out): Children drops
		// those too, after hopping over their subtrees.
		if c.Parent == p.ID {
			kids = append(kids, c)
		}
		// Hop over c's subtree; rows may be missing under a recording
		// filter, so search for the next id rather than add the size.
		j = t.seek(j, c.End())
	}
	return kids, trace.CheckChildren(p, kids)
}

// load reads n's subtree into buf and returns it with the end of the ids
// it holds: n's subtree as far as n reached when read; rows past that may
// be missing.
func (t *tree) load(ctx context.Context, n trace.Node, buf []trace.Node) ([]trace.Node, int64, error) {
	// Room for the whole subtree at once, as far as a damaged size can
	// claim no more than a default chunk's.
	buf = slices.Grow(buf[:0], int(min(max(n.SubtreeSize, 0), int64(t.chunk), 1<<14)))
	err := t.Store.Subtree(ctx, t.Run, n.ID, -1, func(x trace.Node) error {
		buf = append(buf, x)
		return nil
	})
	if err != nil {
		return buf[:0], 0, err
	}
	return buf, n.End(), nil
}

// plan tells the tree that the walk, below the big node whose children
// kids are (in the order the walk takes them), will ask for the children
// of each in turn: those whose subtrees are read as one chunk are read
// ahead. The returned stop ends the read-ahead; the walk calls it when it
// leaves the big node, whether or not it asked for them all.
func (t *tree) plan(ctx context.Context, kids []trace.Node) (stop func()) {
	var want []trace.Node
	for _, k := range kids {
		if k.SubtreeSize > 1 && k.SubtreeSize <= int64(t.chunk) && !t.holds(k) {
			want = append(want, k)
		}
	}
	if len(want) < 2 {
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	ra := &readAhead{want: want, got: make(chan chunk), cancel: cancel, done: make(chan struct{})}
	t.ahead = append(t.ahead, ra)
	go func() {
		defer close(ra.done)
		defer close(ra.got) // a walk waiting for a chunk not read learns so
		for _, n := range want {
			var buf []trace.Node
			select {
			case buf = <-t.spare:
			default:
			}
			buf, end, err := t.load(ctx, n, buf)
			select {
			case ra.got <- chunk{buf, end, err}:
			case <-ctx.Done():
				return
			}
			if err != nil {
				return
			}
		}
	}()
	return func() {
		cancel()
		<-ra.done
		t.ahead = t.ahead[:len(t.ahead)-1]
	}
}

// next returns the innermost read-ahead when n is the node it hands over
// next, else nil.
func (t *tree) next(n trace.Node) *readAhead {
	if len(t.ahead) == 0 {
		return nil
	}
	ra := t.ahead[len(t.ahead)-1]
	if len(ra.want) == 0 || ra.want[0].ID != n.ID {
		return nil
	}
	return ra
}

// holds reports whether n's whole subtree is in the buffer.
func (t *tree) holds(n trace.Node) bool {
	return len(t.buf) > 0 && n.ID >= t.buf[0].ID && n.End() <= t.end
}

// index returns the buffer position of id, or -1.
func (t *tree) index(id int64) int {
	i := t.seek(0, id)
	if i < len(t.buf) && t.buf[i].ID == id {
		return i
	}
	return -1
}

// seek returns the position of the first row at or after from whose id is
// at least id (len(buf) if none). The buffer's ids ascend and are
// consecutive unless a recording filter left rows out, so id's row is
// looked for first where consecutive ids put it: cutting child lists by
// binary search was a fifth of a diff's walk.
func (t *tree) seek(from int, id int64) int {
	n := len(t.buf)
	if from >= n || t.buf[from].ID >= id {
		return from
	}
	if i := from + int(min(id-t.buf[from].ID, int64(n-from))); i < n && t.buf[i].ID == id {
		return i
	} else if i == n && t.buf[n-1].ID < id {
		return n
	}
	return from + sort.Search(n-from, func(k int) bool { return t.buf[from+k].ID >= id })
}

// keyedChildren returns n's children in canonical order, and in search
// order as read (the walk's reasons take them so, and sorting the keyed
// ones back by id per pair was a tenth of a diff's walk).
func (t *tree) keyedChildren(ctx context.Context, n trace.Node) ([]keyed, []trace.Node, error) {
	kids, err := t.children(ctx, n)
	if err != nil {
		return nil, nil, err
	}
	nested, err := t.nestedSearches(ctx)
	if err != nil {
		return nil, nil, err
	}
	return keyChildren(n, kids, nested), kids, nil
}

// nestedSearches returns the run's nested searches, read once.
func (t *tree) nestedSearches(ctx context.Context) (map[int64]trace.NestedSearch, error) {
	if t.nested == nil {
		nested, err := t.Store.NestedSearches(ctx, t.Run)
		if err != nil {
			return nil, err
		}
		t.nested = nested
	}
	return t.nested, nil
}

// sortByID puts keyed nodes back in search order.
func sortByID(ks []keyed) {
	slices.SortFunc(ks, func(a, b keyed) int { return cmp.Compare(a.N.ID, b.N.ID) })
}

// childList returns node id's children in search order and the node, as
// trace.ReadChildren reads and checks them: the node after its children,
// which in a run being recorded may have grown since a copy read before.
func childList(ctx context.Context, s Side, id int64) (trace.Node, []trace.Node, error) {
	return trace.ReadChildren(ctx, s.Store, s.Run, id, trace.BySearch, 0, 0)
}
