package export

import (
	"context"
	"sort"

	"github.com/horizonqs/horizon/trace"
)

// source gives the graph builder the rows of the top node's subtree.
type source interface {
	// children returns n's children in search order, and n,
	// checked with trace.CheckChildren: the builder adds up their sizes and
	// descends into them, which a damaged file's numbers must not derail.
	// The node is as the source read it with (or after) its children: a
	// run being recorded grows between two reads, and a copy read before
	// can end before its last child.
	children(n trace.Node) (trace.Node, []trace.Node, error)
	// walk streams the top node's subtree in pre-order.
	walk(fn func(trace.Node) error) error
	// below returns the nodes from just below the top node down to node
	// id (id included).
	below(id int64) ([]trace.Node, error)
}

// memLimit is the biggest subtree the builder reads into memory (about
// 200 bytes a row) instead of querying the trace node by node, whatever
// the budget: reading it whole is one query, and a small tree's graph is
// then built at once.
var memLimit = int64(100_000)

// rowsPerShown is how many rows of the subtree per node of the budget the
// builder also reads into memory. A queried node costs a query of its
// children, as long as reading some 30 rows in one stream; shown, it holds
// its position and its children wait in the queue, about 16 rows' memory.
// Every row is read once anyway, for the summaries' QS figures. 0 reads
// no subtree over memLimit into memory.
var rowsPerShown = int64(16)

// memMaxRows caps what rowsPerShown reads into memory whatever the
// budget: about 200 MB. A budget of a million nodes read every row of a
// subtree of 16 million (3 GB and more); a bigger subtree is queried node
// by node (a budget that shows every node is streamed: WriteGraph).
var memMaxRows = int64(1 << 20)

// newSource picks the in-memory source for subtrees up to memLimit rows,
// or up to rowsPerShown rows a node of the budget and memMaxRows.
func newSource(ctx context.Context, st trace.Reader, run trace.Run, top trace.Node, budget int) (source, error) {
	whole := top.SubtreeSize <= memLimit ||
		(rowsPerShown > 0 && top.SubtreeSize/rowsPerShown <= int64(budget) && top.SubtreeSize <= memMaxRows)
	if !whole {
		return &storeSource{ctx: ctx, st: st, run: run, top: top}, nil
	}
	m := &memSource{ctx: ctx}
	// Room for every row a sound file holds (a damaged size reserves no
	// more than a million).
	if rows := int(min(top.SubtreeSize, 1<<20)); rows > 0 {
		m.nodes = make([]trace.Node, 0, rows)
		m.parent = make([]int32, 0, rows)
		m.first = make([]int32, 0, rows)
		m.next = make([]int32, 0, rows)
		m.last = make([]int32, 0, rows)
	}
	var stack []int32
	err := st.Subtree(ctx, run.ID, top.ID, -1, func(n trace.Node) error {
		for len(stack) > 0 && m.nodes[stack[len(stack)-1]].End() <= n.ID {
			stack = stack[:len(stack)-1]
		}
		parent := int32(-1)
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		i := int32(len(m.nodes))
		m.nodes = append(m.nodes, n)
		m.parent = append(m.parent, parent)
		m.first = append(m.first, -1)
		m.next = append(m.next, -1)
		m.last = append(m.last, -1)
		if parent >= 0 {
			if m.last[parent] < 0 {
				m.first[parent] = i
			} else {
				m.next[m.last[parent]] = i
			}
			m.last[parent] = i
		}
		stack = append(stack, i)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// storeSource queries the trace for each node.
type storeSource struct {
	ctx   context.Context
	st    trace.Reader
	run   trace.Run
	top   trace.Node
	ahead *childrenAhead // nil: none read ahead
}

func (s *storeSource) children(n trace.Node) (trace.Node, []trace.Node, error) {
	if s.ahead != nil {
		if l, ok := s.ahead.take(n); ok {
			return l.p, l.kids, l.err
		}
	}
	return s.read(n)
}

// read reads n's children from the trace.
func (s *storeSource) read(n trace.Node) (trace.Node, []trace.Node, error) {
	return trace.RunChildren(s.ctx, s.st, s.run, n, trace.BySearch, 0, 0)
}

func (s *storeSource) walk(fn func(trace.Node) error) error {
	return s.st.Subtree(s.ctx, s.run.ID, s.top.ID, -1, fn)
}

func (s *storeSource) below(id int64) ([]trace.Node, error) {
	path, err := s.st.Path(s.ctx, s.run.ID, id)
	if err != nil {
		return nil, err
	}
	return nodesBelow(path, s.top.ID), nil
}

// memSource holds the whole subtree, in pre-order, with child links.
type memSource struct {
	ctx               context.Context // checked every ctxRows rows walked and children read
	reads             int
	nodes             []trace.Node
	parent            []int32
	first, next, last []int32 // first child, next sibling, last child; -1 for none
}

func (m *memSource) index(id int64) (int, bool) {
	i := sort.Search(len(m.nodes), func(i int) bool { return m.nodes[i].ID >= id })
	return i, i < len(m.nodes) && m.nodes[i].ID == id
}

// ctxRows is how many rows a memSource hands out between two looks at
// its context: a budget of a million nodes is built from memory for
// seconds, and Ctrl-C must still stop it.
const ctxRows = 4096

// stopped reports the context's error every ctxRows calls.
func (m *memSource) stopped() error {
	m.reads++
	if m.reads%ctxRows != 0 || m.ctx == nil {
		return nil
	}
	return m.ctx.Err()
}

func (m *memSource) children(n trace.Node) (trace.Node, []trace.Node, error) {
	if err := m.stopped(); err != nil {
		return n, nil, err
	}
	i, ok := m.index(n.ID)
	if !ok {
		return n, nil, nil
	}
	var kids []trace.Node
	for c := m.first[i]; c >= 0; c = m.next[c] {
		kids = append(kids, m.nodes[c])
	}
	return m.nodes[i], kids, trace.CheckChildren(m.nodes[i], kids)
}

func (m *memSource) walk(fn func(trace.Node) error) error {
	for _, n := range m.nodes {
		if err := m.stopped(); err != nil {
			return err
		}
		if err := fn(n); err != nil {
			return err
		}
	}
	return nil
}

func (m *memSource) below(id int64) ([]trace.Node, error) {
	i, ok := m.index(id)
	if !ok {
		return nil, nil
	}
	var path []trace.Node
	for j := int32(i); j > 0; j = m.parent[j] { // index 0 is the top
		path = append(path, m.nodes[j])
	}
	for l, r := 0, len(path)-1; l < r; l, r = l+1, r-1 {
		path[l], path[r] = path[r], path[l]
	}
	return path, nil
}
