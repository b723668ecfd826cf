package engine

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

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
	const golden = "../testdata/bench.golden"
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got := b.String(); got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range max(len(gl), len(wl)) {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Errorf("bench signature changed (run -update if intended), line %d:\n got: %.200s\nwant: %.200s", i+1, g, w)
			}
		}
	}
}
