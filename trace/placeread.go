package trace

import (
	"cmp"
	"context"
	"slices"

	"github.com/horizonqs/horizon/engine"
)

// SiblingKey tells one of a node's children from another for visit
// numbering (ChildVisits) and for lining two runs up (package compare):
// the Iteration of a child of the run node (an iteration root; Move is
// engine.NoMove), the Move of any other child (Iteration is 0), and for a
// nested search's root (no move) its Nested mark (NestedText: its reason
// and excluded move), so that an IID search lines up with an IID search
// and not with a singular test. Transpositions are not merged: a node is
// known by the keys on its path.
type SiblingKey struct {
	Iteration int
	Move      engine.Move
	Nested    string
}

// KeyOf is child k's SiblingKey under parent, nested being the run's
// nested searches (Reader.NestedSearches).
func KeyOf(parent, k Node, nested map[int64]NestedSearch) SiblingKey {
	if parent.Kind == engine.KindRun {
		return SiblingKey{Iteration: k.Iteration}
	}
	if nestedChild(parent, k) {
		return SiblingKey{Move: k.Move, Nested: NestedText(nested[k.ID])}
	}
	return SiblingKey{Move: k.Move}
}

// CompareKeys orders sibling keys: by iteration, then by move, then by
// nested mark.
func CompareKeys(a, b SiblingKey) int {
	if c := cmp.Compare(a.Iteration, b.Iteration); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Move, b.Move); c != 0 {
		return c
	}
	return cmp.Compare(a.Nested, b.Nested)
}

// ChildVisits returns the visit of each of parent's children, kids in
// search order: 1 for the first search of a move under parent, 2 for the
// second (a PVS re-search, an internal iteration of the unified search, a
// level pass of the threshold search), counting children of equal
// SiblingKey; and the searches of each one's move there (2 for both
// searches of a move searched twice), which say whether a path must mark
// a first visit (VisitMark). A page that draws children one by one marks
// their paths with them as Visits does; diff lines up the n-th visit in
// one run with the n-th in the other. nested are the run's nested
// searches (Reader.NestedSearches): a node's second IID search is its "[iid]·2".
func ChildVisits(parent Node, kids []Node, nested map[int64]NestedSearch) (visits, searches []int) {
	visits, searches = make([]int, len(kids)), make([]int, len(kids))
	for _, c := range KeyedChildren(parent, kids, nested) {
		visits[c.Index], searches[c.Index] = c.Visit, c.Searches
	}
	return visits, searches
}

// ChildKey is one child's place among its siblings (KeyedChildren): its
// key, its index in the child list, its visit among the children of that
// key and their number (ChildVisits).
type ChildKey struct {
	Key             SiblingKey
	Index           int
	Visit, Searches int
}

// KeyedChildren returns the ChildKey of each of parent's children (kids in
// search order) in key order: by SiblingKey, then by visit. It is
// ChildVisits' numbering in the order package compare walks two runs,
// which sorts once by it instead of once per number and once per walk.
func KeyedChildren(parent Node, kids []Node, nested map[int64]NestedSearch) []ChildKey {
	out := make([]ChildKey, len(kids))
	for i, k := range kids {
		out[i] = ChildKey{Key: KeyOf(parent, k, nested), Index: i}
	}
	// Sorted by key, stable: a run of equal keys is in search order, so a
	// child's rank in its run is its visit, with no map per child list.
	slices.SortStableFunc(out, func(a, b ChildKey) int { return CompareKeys(a.Key, b.Key) })
	for s := 0; s < len(out); {
		e := s + 1
		for e < len(out) && out[e].Key == out[s].Key {
			e++
		}
		for r := s; r < e; r++ {
			out[r].Visit, out[r].Searches = r-s+1, e-s
		}
		s = e
	}
	return out
}

// PathVisit is one node of the path to a node (PathVisits): the node, its
// key among its parent's children, its visit among the children of that
// key and their number (ChildVisits).
type PathVisit struct {
	Node     Node
	Key      SiblingKey
	Visit    int
	Searches int
}

// PathVisits returns every node on the path from the run node (not
// included) down to node id of run, each with its visit among its
// siblings (ChildVisits). The path is checked (CheckPath) and each child
// list is read as ReadChildren reads it, so a damaged file gives one
// clear error. It costs two queries per ply of the node's path.
func PathVisits(ctx context.Context, r Reader, run, id int64) ([]PathVisit, error) {
	return NewPlacer(r, run).PathVisits(ctx, id)
}

// Placer reads the places of many nodes of one run (PathVisits, PlaceOf),
// each child list on their paths read once: the paths of a list of
// hotspots share their top plies, which a place per node read again for
// every node, two queries a ply.
type Placer struct {
	r      Reader
	run    int64
	lists  map[int64]childList    // by parent id
	nested map[int64]NestedSearch // the run's (Reader.NestedSearches), read with the first list
	// info is the run as read once, for the SAN of paths and for
	// RunChildren: an ended run's child lists take one query, not the
	// four of ReadChildren (which were half of a thousand places' cost).
	info    Run
	hasInfo bool
	// paths holds the paths PlaceOf read, by node, for Position.
	paths map[int64][]Node
	// root is the run node, read once for descend.
	root    Node
	hasRoot bool
	// pathOnly reads every path with Reader.Path: tests compare.
	pathOnly bool
}

// childList is a child list as PathVisits reads it, with the children's
// visits and searches (ChildVisits).
type childList struct {
	parent           Node
	kids             []Node
	visits, searches []int
}

// maxPlacerLists bounds a Placer's child lists (each at most MaxChildren
// rows): past it they are dropped and read again as needed.
const maxPlacerLists = 4096

// NewPlacer returns a Placer of run's nodes read through r.
func NewPlacer(r Reader, run int64) *Placer {
	return &Placer{r: r, run: run, lists: map[int64]childList{}, paths: map[int64][]Node{}}
}

// runInfo is the Placer's run, read on first use.
func (p *Placer) runInfo(ctx context.Context) (Run, error) {
	if !p.hasInfo {
		r, err := p.r.Run(ctx, p.run)
		if err != nil {
			return Run{}, err
		}
		p.info, p.hasInfo = r, true
	}
	return p.info, nil
}

// children reads the child list of node n, as read on a path
// (RunChildren), or returns it from an earlier read.
func (p *Placer) children(ctx context.Context, n Node) (childList, error) {
	if l, ok := p.lists[n.ID]; ok {
		return l, nil
	}
	r, err := p.runInfo(ctx)
	if err != nil {
		return childList{}, err
	}
	parent, kids, err := RunChildren(ctx, p.r, r, n, BySearch, 0, 0)
	if err != nil {
		return childList{}, err
	}
	if p.nested == nil {
		if p.nested, err = p.r.NestedSearches(ctx, p.run); err != nil {
			return childList{}, err
		}
	}
	l := childList{parent: parent, kids: kids}
	l.visits, l.searches = ChildVisits(parent, kids, p.nested)
	if len(p.lists) >= maxPlacerLists {
		clear(p.lists)
	}
	p.lists[n.ID] = l
	return l, nil
}

// descend returns the path from the run node down to node id of an ended
// run through the child lists the Placer holds or reads, which the visits
// of its moves need anyway: a path from them costs no query of its own
// (Reader.Path's was a third of placing a thousand hotspots). Each step
// takes the child whose subtree holds id, so the path is id's chain of
// parents, the one Path reads up. ok is false where the lists do not lead
// there (a running run, a node without a row, a damaged file): the caller
// reads the path with Reader.Path, which says what is wrong.
func (p *Placer) descend(ctx context.Context, id int64) ([]Node, bool) {
	r, err := p.runInfo(ctx)
	if err != nil || r.Status.Partial() || p.pathOnly {
		return nil, false
	}
	if !p.hasRoot {
		if p.root, err = p.r.Node(ctx, p.run, 0); err != nil {
			return nil, false
		}
		p.hasRoot = true
	}
	path := []Node{p.root}
	for n := p.root; n.ID != id; {
		if len(path) > maxTreeDepth || !n.Contains(id) {
			return nil, false
		}
		l, err := p.children(ctx, n)
		if err != nil {
			return nil, false
		}
		// The last child starting at or before id (the list is in search
		// order, by id).
		i, _ := slices.BinarySearchFunc(l.kids, id+1, func(k Node, id int64) int { return cmp.Compare(k.ID, id) })
		if i == 0 || !l.kids[i-1].Contains(id) {
			return nil, false
		}
		n = l.kids[i-1]
		path = append(path, n)
	}
	return path, true
}

// PathVisits is the package's PathVisits of node id of the Placer's run.
func (p *Placer) PathVisits(ctx context.Context, id int64) ([]PathVisit, error) {
	_, out, err := p.pathVisits(ctx, id)
	return out, err
}

// pathVisits is PathVisits with the path it read (descend, or
// Reader.Path).
func (p *Placer) pathVisits(ctx context.Context, id int64) ([]Node, []PathVisit, error) {
	path, ok := p.descend(ctx, id)
	if !ok {
		var err error
		if path, err = p.r.Path(ctx, p.run, id); err != nil {
			return nil, nil, err
		}
	}
	if err := CheckPath(path); err != nil {
		return nil, nil, err
	}
	out := make([]PathVisit, 0, len(path))
	for i := 1; i < len(path); i++ {
		l, err := p.children(ctx, path[i-1])
		if err != nil {
			return nil, nil, err
		}
		for j, k := range l.kids {
			if k.ID == path[i].ID {
				out = append(out, PathVisit{Node: k, Key: KeyOf(l.parent, k, p.nested), Visit: l.visits[j], Searches: l.searches[j]})
				break
			}
		}
	}
	return path, out, nil
}

// Visits returns the 1-based visit of each move on the path to node id
// (the iteration root's key is left out, as PathSAN leaves it out): 2 for
// a move searched a second time under the same parent, as a PVS
// re-search; and how many times each move was searched there. Paths are
// marked with both (VisitMark) wherever Horizon prints them, so a printed
// path reads back to its node.
func Visits(ctx context.Context, r Reader, run, id int64) (visits, searches []int, err error) {
	path, err := PathVisits(ctx, r, run, id)
	if err != nil {
		return nil, nil, err
	}
	_, visits, searches = PathMarks(path, nil)
	return visits, searches, nil
}

// Place returns node id's place as Horizon prints it (PlaceText), which
// reads back to the node (ParsePlace): the iteration of its root, named
// unless the run searched QS alone (PlaceIteration), and marked with the
// root's visit where the iteration has several roots, and its SAN path
// (Reader.PathSAN) marked with its visits (Visits). The exports' headings
// print a node's place with it; the run node, which no path names, has
// none ("").
func Place(ctx context.Context, r Reader, run, id int64) (string, error) {
	_, text, err := PlaceOf(ctx, r, run, id)
	return text, err
}

// PlaceOf returns node id's place as --json gives it and as Horizon
// prints it (Place); hotspots give both.
func PlaceOf(ctx context.Context, r Reader, run, id int64) (PlaceFields, string, error) {
	return NewPlacer(r, run).PlaceOf(ctx, id)
}

// PlaceOf is the package's PlaceOf of node id of the Placer's run.
func (p *Placer) PlaceOf(ctx context.Context, id int64) (PlaceFields, string, error) {
	pf := PlaceFields{Path: []string{}, Visits: []int{}, Searches: []int{}}
	path, own, err := p.pathVisits(ctx, id)
	if err != nil || len(own) == 0 {
		return pf, "", err
	}
	r, err := p.runInfo(ctx)
	if err != nil {
		return pf, "", err
	}
	// The SAN of the path read (Reader.PathSAN would read it again).
	san, err := pathSAN(p.r.File(), r, path, p.nested)
	if err != nil {
		return pf, "", err
	}
	if len(p.paths) >= maxPlacerLists {
		clear(p.paths)
	}
	p.paths[id] = path
	runNode, err := p.children(ctx, path[0])
	if err != nil {
		return pf, "", err
	}
	roots := runNode.kids
	root, visits, searches := PathMarks(own, nil)
	pf = PlaceFields{Iteration: root.It, IterationVisit: root.Visit, IterationSearches: root.Searches, Path: san, Visits: visits, Searches: searches}
	if pf.Path == nil {
		pf.Path = []string{}
	}
	root.It = PlaceIteration(roots, root.It)
	return pf, PlaceText(root, san, visits, searches), nil
}

// Position returns the position at node id (Reader.Position), replayed
// from the path PlaceOf read for it where it placed the node: hotspots
// place each of their nodes, then walk its subtree from its position.
func (p *Placer) Position(ctx context.Context, id int64) (*engine.Position, error) {
	path, ok := p.paths[id]
	if !ok {
		return p.r.Position(ctx, p.run, id)
	}
	r, err := p.runInfo(ctx)
	if err != nil {
		return nil, err
	}
	return replayRun(p.r.File(), r, path, nil)
}

// PathMarks returns the root and the visits and searches of the moves of
// a path (PathVisits), the iteration root's left out; where theirs, the
// same path in another run (diff's counterpart), is there too, each
// move's searches are the most either run made, so the path marked with
// them (MarkVisits) reads back to the node in both runs.
func PathMarks(own, theirs []PathVisit) (root PlaceRoot, visits, searches []int) {
	visits, searches = []int{}, []int{}
	if len(own) > 0 {
		root = PlaceRoot{It: own[0].Node.Iteration, Visit: own[0].Visit, Searches: own[0].Searches}
		if len(theirs) > 0 {
			root.Searches = max(root.Searches, theirs[0].Searches)
		}
	}
	for i := 1; i < len(own); i++ {
		n := own[i].Searches
		if i < len(theirs) {
			n = max(n, theirs[i].Searches)
		}
		visits, searches = append(visits, own[i].Visit), append(searches, n)
	}
	return root, visits, searches
}
