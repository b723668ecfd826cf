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

// Key identifies a node among its siblings. Transpositions are not merged:
// a node is known by the keys on its path from the run node.
type Key struct {
	// Iteration is the nominal depth of an iteration root (a child of the
	// run node); 0 for every other node.
	Iteration int
	// Move is the move from the parent; engine.NoMove for iteration roots.
	Move engine.Move
	// Occurrence counts the earlier siblings with the same Iteration and
	// Move: a PVS re-search, an internal iteration of the unified search or
	// a level pass of the threshold search visits the same move again, and
	// the n-th visit in one tree lines up with the n-th in the other.
	Occurrence int
}

func compareKeys(a, b Key) int {
	if c := cmp.Compare(a.Iteration, b.Iteration); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Move, b.Move); c != 0 {
		return c
	}
	return cmp.Compare(a.Occurrence, b.Occurrence)
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

// keyChildren gives each child of parent its key and returns them in key
// order, the canonical order both trees are walked in. kids must be in
// search order.
func keyChildren(parent trace.Node, kids []trace.Node) []keyed {
	out := make([]keyed, len(kids))
	for i, k := range kids {
		out[i].N = k
		if parent.Kind == engine.KindRun {
			out[i].K.Iteration = k.Iteration
		} else {
			out[i].K.Move = k.Move
		}
	}
	// Stable: equal keys keep search order, so the occurrence is the rank
	// within a run of equal (iteration, move).
	slices.SortStableFunc(out, func(a, b keyed) int { return compareKeys(a.K, b.K) })
	for i := 1; i < len(out); i++ {
		if k, prev := &out[i].K, out[i-1].K; k.Iteration == prev.Iteration && k.Move == prev.Move {
			k.Occurrence = prev.Occurrence + 1
		}
	}
	// The last of a run of equal keys holds the run's length.
	for i := len(out) - 1; i >= 0; i-- {
		out[i].Searches = out[i].K.Occurrence + 1
		if i+1 < len(out) && out[i+1].K.Occurrence > 0 {
			out[i].Searches = out[i+1].Searches
		}
	}
	return out
}

// ChildVisits returns the visit of each of parent's children, kids in
// search order: 1 for the first search of a move under parent, 2 for the
// second (a PVS re-search), as the children's keys number them; and the
// searches of each one's move there (2 for both searches of a move
// searched twice). A page that draws children one by one marks their
// paths with them (trace.VisitMark) as Visits does.
func ChildVisits(parent trace.Node, kids []trace.Node) (visits, searches []int) {
	at := make(map[int64]keyed, len(kids))
	for _, k := range keyChildren(parent, kids) {
		at[k.N.ID] = k
	}
	visits, searches = make([]int, len(kids)), make([]int, len(kids))
	for i, k := range kids {
		visits[i], searches[i] = at[k.ID].K.Occurrence+1, at[k.ID].Searches
	}
	return visits, searches
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
}

func newTree(s Side) *tree { return &tree{Side: s, chunk: chunkNodes} }

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
		t.buf = t.buf[:0]
		err := t.Store.Subtree(ctx, t.Run, n.ID, -1, func(x trace.Node) error {
			t.buf = append(t.buf, x)
			return nil
		})
		if err != nil {
			t.buf = t.buf[:0]
			return nil, err
		}
		// The buffer holds n's subtree as far as n reached when read;
		// rows past that may be missing.
		t.end = n.End()
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
		from := j
		j = from + sort.Search(len(t.buf)-from, func(k int) bool { return t.buf[from+k].ID >= c.End() })
	}
	return kids, trace.CheckChildren(p, kids)
}

// holds reports whether n's whole subtree is in the buffer.
func (t *tree) holds(n trace.Node) bool {
	return len(t.buf) > 0 && n.ID >= t.buf[0].ID && n.End() <= t.end
}

// index returns the buffer position of id, or -1.
func (t *tree) index(id int64) int {
	i := sort.Search(len(t.buf), func(i int) bool { return t.buf[i].ID >= id })
	if i < len(t.buf) && t.buf[i].ID == id {
		return i
	}
	return -1
}

// keyedChildren returns n's children in canonical order.
func (t *tree) keyedChildren(ctx context.Context, n trace.Node) ([]keyed, error) {
	kids, err := t.children(ctx, n)
	if err != nil {
		return nil, err
	}
	return keyChildren(n, kids), nil
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
