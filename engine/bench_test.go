package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/horizonqs/horizon/internal/golden"
)

// TestBenchSignature keeps the node count of every bench position and
// variant in testdata/bench.golden: any change to the search shows up in
// review as a change to that file (go test ./engine/ -run BenchSignature -update).
func TestBenchSignature(t *testing.T) {
	fens := benchFENs(t)
	lim := Limits{Depth: 3, Nodes: 100_000} // horizon bench's defaults: its signature equals the totals here
	var b strings.Builder
	fmt.Fprintf(&b, "# bench signature: nodes per position (testdata/stockfish_bench.fen line) and variant, depth %d, node cap %d\n", lim.Depth, lim.Nodes)
	for _, v := range VariantNames() {
		s := NewSearcher(mustVariant(v))
		var total int64
		var counts []string
		for _, fen := range fens {
			r := s.Search(context.Background(), MustParseFEN(fen), lim, nil)
			total += r.Stats.Nodes
			counts = append(counts, fmt.Sprint(r.Stats.Nodes))
		}
		fmt.Fprintf(&b, "%s total %d\n%s %s\n", v, total, v, strings.Join(counts, " "))
	}
	golden.CheckString(t, "../testdata/bench.golden", b.String())
}
