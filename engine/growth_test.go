package engine

import (
	"context"
	"testing"
)

// causeTracer classifies every extension the search reports with
// ExtensionCause, from what a trace holds: the move into the extending
// node, the extended move, and whether the child is in check.
type causeTracer struct {
	nopTracer
	opts    *Options
	moves   map[int64]Move // move into each node
	pending *ExtensionInfo
	causes  map[GrowthCause]int
}

func (x *causeTracer) Enter(e EnterInfo) {
	x.moves[e.ID] = e.Move
	if p := x.pending; p != nil {
		x.pending = nil
		x.causes[x.opts.ExtensionCause(x.moves[p.ID], e.Move, e.InCheck, e.Kind == KindQS)]++
	}
}
func (x *causeTracer) Extension(e ExtensionInfo) {
	x.pending = &e
}

// TestExtensionCauseExplainsTheSearch: every extension the search gives is
// one ExtensionCause names from the tree (never "cause unknown"), and only
// causes whose switch is on.
func TestExtensionCauseExplainsTheSearch(t *testing.T) {
	const fen = "r1bqkb1r/pp3ppp/2np1n2/4p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R w KQkq - 0 1"
	for _, tc := range []struct {
		variant                     string
		recapture, check, threshold bool
	}{
		{"recapture", true, false, false},
		{"captures", false, true, false},
		{"recapture", true, true, false},
		{"see", false, true, false},
		{"threshold", false, false, true},
	} {
		o, err := VariantOptions(tc.variant)
		if err != nil {
			t.Fatal(err)
		}
		o.RecaptureExt, o.CheckExt = tc.recapture, tc.check
		x := &causeTracer{opts: &o, moves: map[int64]Move{}, causes: map[GrowthCause]int{}}
		NewSearcher(o).Search(context.Background(), MustParseFEN(fen), Limits{Depth: 3}, x)
		if x.causes[GrowthExt] != 0 {
			t.Errorf("%s recapture-ext=%v check-ext=%v: %d extensions ExtensionCause cannot explain (%v)",
				tc.variant, tc.recapture, tc.check, x.causes[GrowthExt], x.causes)
		}
		if (x.causes[GrowthRecaptureExt] > 0) != tc.recapture || (x.causes[GrowthCheckExt] > 0) != tc.check ||
			(x.causes[GrowthThresholdExt] > 0) != tc.threshold {
			t.Errorf("%s recapture-ext=%v check-ext=%v: causes %v", tc.variant, tc.recapture, tc.check, x.causes)
		}
	}
}
