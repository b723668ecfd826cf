package check

import (
	"context"
	"flag"
	"testing"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace/tracetest"
)

var sweep = flag.Bool("check.sweep", false, "check every bench position at depth 4, hash table on and off, for every variant (minutes)")

// TestCheckSweep is the long form of TestCheckEngineTracesClean: all 49
// bench positions, depth 4, with and without the hash table (whose cutoffs
// and unified-search bootstrapping only show with it on).
func TestCheckSweep(t *testing.T) {
	if !*sweep {
		t.Skip("long: run with -check.sweep")
	}
	fens := tracetest.BenchFENs(t, 49)
	for _, tt := range []bool{false, true} {
		for _, name := range engine.VariantNames() {
			st, _ := tracetest.CreateTrace(t)
			rows := int64(0)
			for _, fen := range fens {
				o := tracetest.VariantOptions(t, name)
				o.TT = tt
				run := tracetest.RecordSearch(t, st, fen, o, engine.Limits{Depth: 4, Nodes: 300000})
				rep, err := Run(context.Background(), st, run, Options{Max: 3})
				if err != nil {
					t.Fatal(err)
				}
				rows += rep.Rows
				for _, v := range rep.Violations {
					t.Errorf("%s tt=%v %s: node %d %v: %s: %s", name, tt, fen, v.Node, v.Path, v.Rule, v.Detail)
				}
				if rep.Count > int64(len(rep.Violations)) {
					t.Errorf("%s tt=%v %s: %d violations in all %v", name, tt, fen, rep.Count, rep.ByRule)
				}
			}
			t.Logf("%s tt=%v: %d rows checked", name, tt, rows)
		}
	}
}
