package compare

import (
	"slices"
	"testing"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// TestChildVisitsSearches: each child's visit numbers it among its move's
// searches under the parent, and searches counts them all, the later
// ones too, which a path needs to mark a first search (trace.VisitMark);
// two aligned lists count the most either made (Pair.Searches).
func TestChildVisitsSearches(t *testing.T) {
	kids := func(moves ...engine.Move) []trace.Node {
		out := make([]trace.Node, len(moves))
		for i, m := range moves {
			out[i] = trace.Node{ID: int64(10 + i), Move: m}
		}
		return out
	}
	parent := trace.Node{ID: 1, Kind: engine.KindPV}
	for _, c := range []struct {
		moves            []engine.Move
		visits, searches []int
	}{
		{nil, []int{}, []int{}},
		{[]engine.Move{7}, []int{1}, []int{1}},
		{[]engine.Move{7, 8, 7}, []int{1, 1, 2}, []int{2, 1, 2}},
		{[]engine.Move{5, 6, 5, 9, 5, 6}, []int{1, 1, 2, 1, 3, 2}, []int{3, 2, 3, 1, 3, 2}},
	} {
		v, s := ChildVisits(parent, kids(c.moves...))
		if !slices.Equal(v, c.visits) || !slices.Equal(s, c.searches) {
			t.Errorf("moves %v: visits %v, searches %v; want %v, %v", c.moves, v, s, c.visits, c.searches)
		}
	}
	a, b := kids(5, 6, 5), kids(5, 6, 6, 6)
	for _, p := range pairUp(keyChildren(parent, a), keyChildren(parent, b)) {
		want := map[engine.Move]int{5: 2, 6: 3}[p.Key.Move]
		if p.Searches != want {
			t.Errorf("pair %+v: searches %d, want %d (the most either list made)", p.Key, p.Searches, want)
		}
	}
}
