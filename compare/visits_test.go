package compare

import (
	"testing"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// TestPairSearches: two aligned child lists count the most searches
// either made of a move (Pair.Searches), so a path marked with them
// (trace.VisitMark) reads back in both runs.
func TestPairSearches(t *testing.T) {
	kids := func(moves ...engine.Move) []trace.Node {
		out := make([]trace.Node, len(moves))
		for i, m := range moves {
			out[i] = trace.Node{ID: int64(10 + i), Move: m}
		}
		return out
	}
	parent := trace.Node{ID: 1, Kind: engine.KindPV}
	a, b := kids(5, 6, 5), kids(5, 6, 6, 6)
	for _, p := range pairUp(keyChildren(parent, a, nil), keyChildren(parent, b, nil)) {
		want := map[engine.Move]int{5: 2, 6: 3}[p.Key.Move]
		if p.Searches != want {
			t.Errorf("pair %+v: searches %d, want %d (the most either list made)", p.Key, p.Searches, want)
		}
	}
}
