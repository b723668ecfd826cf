package trace

import (
	"slices"
	"testing"

	"github.com/horizonqs/horizon/engine"
)

// TestChildVisitsSearches: each child's visit numbers it among its key's
// searches under the parent (its move; its iteration under the run node),
// and searches counts them all, the later ones too, which a path needs to
// mark a first search (VisitMark).
func TestChildVisitsSearches(t *testing.T) {
	kids := func(moves ...engine.Move) []Node {
		out := make([]Node, len(moves))
		for i, m := range moves {
			out[i] = Node{ID: int64(10 + i), Move: m}
		}
		return out
	}
	parent := Node{ID: 1, Kind: engine.KindPV}
	for _, c := range []struct {
		moves            []engine.Move
		visits, searches []int
	}{
		{nil, []int{}, []int{}},
		{[]engine.Move{7}, []int{1}, []int{1}},
		{[]engine.Move{7, 8, 7}, []int{1, 1, 2}, []int{2, 1, 2}},
		{[]engine.Move{5, 6, 5, 9, 5, 6}, []int{1, 1, 2, 1, 3, 2}, []int{3, 2, 3, 1, 3, 2}},
	} {
		v, s := ChildVisits(parent, kids(c.moves...), nil)
		if !slices.Equal(v, c.visits) || !slices.Equal(s, c.searches) {
			t.Errorf("moves %v: visits %v, searches %v; want %v, %v", c.moves, v, s, c.visits, c.searches)
		}
	}
	// Under the run node the iteration, not the move, tells roots apart:
	// two roots of iteration 2 (an aspiration re-search) with different
	// moves are its first and second.
	run := Node{ID: 0, Kind: engine.KindRun}
	roots := []Node{{ID: 1, Iteration: 1, Move: 5}, {ID: 2, Iteration: 2, Move: 5}, {ID: 3, Iteration: 2, Move: 6}}
	v, s := ChildVisits(run, roots, nil)
	if want := []int{1, 1, 2}; !slices.Equal(v, want) || !slices.Equal(s, []int{1, 2, 2}) {
		t.Errorf("iteration roots: visits %v, searches %v; want %v, [1 2 2]", v, s, want)
	}
}

// TestKeyedChildrenOrder: KeyedChildren lists the children by key, a
// key's visits in search order, each with its index in the child list and
// ChildVisits' numbers.
func TestKeyedChildrenOrder(t *testing.T) {
	parent := Node{ID: 1, Kind: engine.KindPV}
	moves := []engine.Move{9, 5, 6, 5, 9, 5}
	kids := make([]Node, len(moves))
	for i, m := range moves {
		kids[i] = Node{ID: int64(10 + i), Move: m}
	}
	got := KeyedChildren(parent, kids, nil)
	want := []ChildKey{
		{Key: SiblingKey{Move: 5}, Index: 1, Visit: 1, Searches: 3},
		{Key: SiblingKey{Move: 5}, Index: 3, Visit: 2, Searches: 3},
		{Key: SiblingKey{Move: 5}, Index: 5, Visit: 3, Searches: 3},
		{Key: SiblingKey{Move: 6}, Index: 2, Visit: 1, Searches: 1},
		{Key: SiblingKey{Move: 9}, Index: 0, Visit: 1, Searches: 2},
		{Key: SiblingKey{Move: 9}, Index: 4, Visit: 2, Searches: 2},
	}
	if !slices.Equal(got, want) {
		t.Errorf("KeyedChildren(%v) =\n%v, want\n%v", moves, got, want)
	}
}
