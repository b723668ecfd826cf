package check

import (
	"fmt"
	"testing"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/internal/longtest"
	"github.com/horizonqs/horizon/trace/tracetest"
)

// TestCheckRecaptureBoundsProved is the audit of issue 11 as a test: on
// the positions where recapture's exact scores used to rest on replies
// that proved only ">= beta" (the delayed-gain penalty pulled them inside
// the window), every node's exact score now comes from an exact child.
func TestCheckRecaptureBoundsProved(t *testing.T) {
	st, _ := tracetest.CreateTrace(t)
	depth := 5
	if longtest.Quick() {
		depth = 4
	}
	for _, fen := range []string{
		tracetest.Kiwipete,
		"2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",    // WAC.001
		"R7/P4k2/8/8/8/8/r7/6K1 w - - 0 1",                               // WAC.018
		"2r3k1/1p2q1pp/2b1pr2/p1pp4/6Q1/1P1PP1R1/P1PN2PP/5RK1 w - - 0 1", // BK.15
	} {
		for _, tt := range []bool{false, true} {
			o := tracetest.VariantOptions(t, "recapture")
			o.TT = tt
			run := tracetest.RecordSearch(t, st, fen, o, engine.Limits{Depth: depth, Nodes: 400_000})
			checkClean(t, st, run, 5, fmt.Sprintf("%s (tt %v)", fen, tt))
		}
	}
}
