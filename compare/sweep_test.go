package compare

import (
	"context"
	"os"
	"strconv"
	"testing"

	"github.com/horizonqs/horizon/engine"
)

func TestSweepTmp(t *testing.T) {
	if os.Getenv("SWEEP") == "" {
		t.Skip()
	}
	n, _ := strconv.Atoi(os.Getenv("SWEEP"))
	depth, _ := strconv.Atoi(os.Getenv("DEPTH"))
	tt := os.Getenv("TT") != ""
	fens := benchFENs(t, n)
	for _, name := range engine.VariantNames() {
		st, _ := createTrace(t)
		total := 0
		for _, fen := range fens {
			o := variantOptions(t, name)
			o.TT = tt
			run := recordSearch(t, st, fen, o, engine.Limits{Depth: depth, Nodes: 300000})
			rep, err := Check(context.Background(), st, run, CheckOptions{Max: 3})
			if err != nil {
				t.Fatal(err)
			}
			total += int(rep.Rows)
			for _, v := range rep.Violations {
				t.Errorf("%s %s: node %d %v: %s: %s", name, fen, v.Node, v.Path, v.Rule, v.Detail)
			}
			if rep.Count > 3 {
				t.Errorf("%s %s: %d violations %v", name, fen, rep.Count, rep.ByRule)
			}
		}
		t.Logf("%s: %d rows", name, total)
	}
}
