package compare

import (
	"context"

	"github.com/horizonqs/horizon/trace"
)

// SamePosition returns an error wrapping ErrDifferentPositions unless the
// two runs searched the same root position (and ErrNoRun from the trace
// package when a run does not exist). A viewer calls it once before it
// lines up two runs node by node. It is OpenPair's check alone.
func SamePosition(ctx context.Context, a, b Side) error {
	_, _, _, _, err := OpenPair(ctx, a, b)
	return err
}

// KeyPath returns the key of every node on the path from the run node (not
// included) down to node id.
func KeyPath(ctx context.Context, s Side, id int64) ([]Key, error) {
	path, err := trace.PathVisits(ctx, s.Store, s.Run, id)
	if err != nil {
		return nil, err
	}
	return keysOf(path), nil
}

// keysOf returns the keys of the nodes of a path (trace.PathVisits).
func keysOf(path []trace.PathVisit) []Key {
	keys := make([]Key, len(path))
	for i, v := range path {
		keys[i] = keyOf(v)
	}
	return keys
}

// pathMarks returns the visits and searches of the moves on the path to
// node id of from (trace.Visits), and its counterpart in to (Counterpart).
// Where to has the node, each move's searches are the most either run
// made (trace.PathMarks), so the path marked with them (trace.MarkVisits)
// reads back to the node in both runs. It stays here, beside Resolve,
// because finding the counterpart is aligning two runs.
func pathMarks(ctx context.Context, from Side, id int64, to Side) (root trace.PlaceRoot, visits, searches []int, twin trace.Node, ok bool, err error) {
	own, err := trace.PathVisits(ctx, from.Store, from.Run, id)
	if err != nil {
		return root, nil, nil, twin, false, err
	}
	if twin, ok, err = Resolve(ctx, to, keysOf(own)); err != nil {
		return root, nil, nil, twin, false, err
	}
	var theirs []trace.PathVisit
	if ok {
		if theirs, err = trace.PathVisits(ctx, to.Store, to.Run, twin.ID); err != nil {
			return root, nil, nil, twin, false, err
		}
	}
	root, visits, searches = trace.PathMarks(own, theirs)
	return root, visits, searches, twin, ok, nil
}

// Resolve follows keys down from the run node of s and returns the node
// reached; ok is false when some key has no node in s.
func Resolve(ctx context.Context, s Side, keys []Key) (n trace.Node, ok bool, err error) {
	n, err = s.Store.Node(ctx, s.Run, 0)
	if err != nil {
		return n, false, err
	}
	if len(keys) > trace.MaxNesting {
		return n, false, trace.CheckDepth(n, len(keys))
	}
	nested, err := s.Store.NestedSearches(ctx, s.Run)
	if err != nil {
		return n, false, err
	}
	for _, want := range keys {
		parent, kids, err := childList(ctx, s, n.ID)
		if err != nil {
			return n, false, err
		}
		found := false
		for _, k := range keyChildren(parent, kids, nested) {
			if k.K == want {
				n, found = k.N, true
				break
			}
		}
		if !found {
			return trace.Node{}, false, nil
		}
	}
	return n, true, nil
}

// Counterpart returns the node of run to that lines up with node id of run
// from (same iteration, same move path, same occurrences), or ok false
// when to has no such node. It costs two child-list queries per ply of the
// node's path.
func Counterpart(ctx context.Context, from Side, id int64, to Side) (trace.Node, bool, error) {
	keys, err := KeyPath(ctx, from, id)
	if err != nil {
		return trace.Node{}, false, err
	}
	return Resolve(ctx, to, keys)
}

// Pair is one line of two aligned child lists: A or B is nil when only the
// other run has the node.
type Pair struct {
	Key Key
	A   *trace.Node
	B   *trace.Node
	// Searches is how many times the key's move was searched under the
	// parent: the most either run made, as diff counts them, so that a
	// path marked with it (trace.VisitMark) reads back in both runs.
	Searches int
}

// AlignChildren lines up the children of node idA of run a with those of
// node idB of run b (either id may be negative for "no node": every child
// of the other is then unmatched). Pairs come in A's search order, then
// the children only B has in B's search order.
func AlignChildren(ctx context.Context, a Side, idA int64, b Side, idB int64) ([]Pair, error) {
	list := func(s Side, id int64) ([]keyed, error) {
		if id < 0 {
			return nil, nil
		}
		parent, kids, err := childList(ctx, s, id)
		if err != nil {
			return nil, err
		}
		nested, err := s.Store.NestedSearches(ctx, s.Run)
		if err != nil {
			return nil, err
		}
		return keyChildren(parent, kids, nested), nil
	}
	ka, err := list(a, idA)
	if err != nil {
		return nil, err
	}
	kb, err := list(b, idB)
	if err != nil {
		return nil, err
	}
	return pairUp(ka, kb), nil
}

// PairReader reads two runs' trees for a walk that lines them up child
// list by child list, depth first (the diff page), as Align reads them:
// a subtree of up to chunkNodes rows per run is streamed once and the
// child lists below it are cut from memory, so the walk costs a scan per
// chunk, not queries per node, and holds at most a chunk per run.
type PairReader struct{ a, b *tree }

// NewPairReader returns a PairReader of runs a and b.
func NewPairReader(a, b Side) *PairReader { return &PairReader{a: newTree(a), b: newTree(b)} }

// Children lines up the children of na (a node of run a) with those of nb
// (of run b), either nil for "no node", as AlignChildren does.
func (r *PairReader) Children(ctx context.Context, na, nb *trace.Node) ([]Pair, error) {
	list := func(t *tree, n *trace.Node) ([]keyed, error) {
		if n == nil {
			return nil, nil
		}
		ks, _, err := t.keyedChildren(ctx, *n)
		return ks, err
	}
	ka, err := list(r.a, na)
	if err != nil {
		return nil, err
	}
	kb, err := list(r.b, nb)
	if err != nil {
		return nil, err
	}
	return pairUp(ka, kb), nil
}

// ReadAhead tells r that the walk, below the pair whose children pairs
// are, will next ask for the children of each of them in turn (Children),
// in that order: those read as one chunk are read ahead on a goroutine per
// run (tree.plan), as Align's walk reads them, so that reading A, reading
// B and the walk overlap. The walk must ask for exactly these, and call
// the returned stop when it leaves the pair, whether or not it asked for
// them all (those it skips after one it asked for are read when asked).
func (r *PairReader) ReadAhead(ctx context.Context, pairs []Pair) (stop func()) {
	var na, nb []trace.Node
	for _, p := range pairs {
		if p.A != nil {
			na = append(na, *p.A)
		}
		if p.B != nil {
			nb = append(nb, *p.B)
		}
	}
	stopA, stopB := r.a.plan(ctx, na), r.b.plan(ctx, nb)
	return func() { stopA(); stopB() }
}

// pairUp lines up two keyed child lists: pairs in A's search order, then
// the children only B has in B's search order.
func pairUp(ka, kb []keyed) []Pair {
	inB := make(map[Key]*keyed, len(kb))
	for i := range kb {
		inB[kb[i].K] = &kb[i]
	}
	pairs := make([]Pair, 0, max(len(ka), len(kb)))
	used := make(map[Key]bool, len(ka))
	// keyChildren sorted by key; A's search order is ascending id.
	byID := func(ks []keyed) []keyed {
		out := append([]keyed(nil), ks...)
		sortByID(out)
		return out
	}
	for _, k := range byID(ka) {
		n := k.N
		p := Pair{Key: k.K, A: &n, Searches: k.Searches}
		if m, ok := inB[k.K]; ok {
			p.B, p.Searches = &m.N, max(k.Searches, m.Searches)
			used[k.K] = true
		}
		pairs = append(pairs, p)
	}
	for _, k := range byID(kb) {
		if !used[k.K] {
			n := k.N
			pairs = append(pairs, Pair{Key: k.K, B: &n, Searches: k.Searches})
		}
	}
	return pairs
}
