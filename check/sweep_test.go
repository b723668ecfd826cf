package check

import (
	"flag"
	"fmt"
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
				rows += checkClean(t, st, run, 3, fmt.Sprintf("%s tt=%v %s", name, tt, fen)).Rows
			}
			t.Logf("%s tt=%v: %d rows checked", name, tt, rows)
		}
	}
}
