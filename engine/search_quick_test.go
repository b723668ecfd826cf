package engine

import (
	"context"
	"testing"
)

func TestSearchQuickAllVariants(t *testing.T) {
	for _, fen := range []string{
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
	} {
		for _, v := range Variants() {
			o := v.Options
			o.Variant = v.Name
			s := NewSearcher(o)
			p := MustParseFEN(fen)
			r := s.Search(context.Background(), p, Limits{Depth: 6}, nil)
			t.Logf("%-10s best %s score %d nodes %d qs %d maxqs %d nps %.0fk", v.Name, r.BestMove, r.Score, r.Stats.Nodes, r.Stats.QSNodes, r.Stats.MaxQSPly, float64(r.Stats.Nodes)/r.Elapsed.Seconds()/1000)
		}
	}
}
