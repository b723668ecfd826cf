package compare

import (
	"context"
	"testing"

	"github.com/horizonqs/horizon/engine"
)

func TestCheckEngineTracesClean(t *testing.T) {
	fens := benchFENs(t, 4)
	depth := 3
	if testing.Short() {
		fens = fens[:2]
	}
	for _, name := range engine.VariantNames() {
		t.Run(name, func(t *testing.T) {
			st, _ := createTrace(t)
			for _, fen := range fens {
				run := recordSearch(t, st, fen, variantOptions(t, name), engine.Limits{Depth: depth})
				rep, err := Check(context.Background(), st, run, CheckOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if rep.Rows < 10 {
					t.Fatalf("%s: only %d rows walked", fen, rep.Rows)
				}
				for _, v := range rep.Violations {
					t.Errorf("%s: node %d %v: %s: %s", fen, v.Node, v.Path, v.Rule, v.Detail)
				}
			}
		})
	}
}
