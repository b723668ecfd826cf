//go:build horizonassert

package engine

import (
	"strings"
	"testing"
)

// TestAssertsFire shows that each invariant check of the tagged build
// catches what it is there for; the untagged build compiles them away.
func TestAssertsFire(t *testing.T) {
	o, err := ParseVariantSpec("captures")
	if err != nil {
		t.Fatal(err)
	}
	kiwipete := "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
	for _, c := range []struct {
		name, want string
		break_     func(s *Searcher)
	}{
		{"empty window", "window [30, 30] is empty", func(s *Searcher) {
			s.assertEnter(&s.stack[1], 1, 3, 30, 30, KindPV)
		}},
		{"QS depth", "want -QS ply", func(s *Searcher) {
			s.stack[2].qsPly = 1
			s.assertEnter(&s.stack[2], 2, 0, -10, 10, KindQS)
		}},
		{"illegal move", "is not legal", func(s *Searcher) {
			s.assertMove(&s.stack[0], newMove(sqE1, sqE1+16, NoPieceType, flagNormal), 0) // Ke1-e3
		}},
		{"board changed", "key changed", func(s *Searcher) {
			s.assertUnmade(&s.stack[0], NoMove, s.pos.key^1)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := NewSearcher(o)
			s.pos = MustParseFEN(kiwipete)
			defer func() {
				r := recover()
				msg, _ := r.(string)
				if !strings.Contains(msg, c.want) {
					t.Errorf("panic %v, want one containing %q", r, c.want)
				}
			}()
			c.break_(s)
		})
	}
}
