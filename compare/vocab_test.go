package compare

import (
	"strings"
	"testing"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// TestDescribePairVocabulary: diff speaks the viewer's words (issue 16): a
// cutoff by the first move is "at move 1" (the viewer's beta@1), and the
// window's ends are ∞, not 32000.
func TestDescribePairVocabulary(t *testing.T) {
	a := trace.Node{ID: 5, Alpha: -engine.Infinity, Beta: engine.Infinity, Score: 40, Bound: engine.BoundLower,
		Cause: engine.CauseBeta, CutIndex: 0, Generated: 3, Searched: 1}
	b := a
	b.Alpha, b.Score, b.Bound, b.Cause, b.CutIndex = -50, engine.MateScore-3, engine.BoundExact, engine.CauseNone, -1
	d := describePair(trace.Run{Variant: "see"}, trace.Run{Variant: "see"}, a, b, false)
	for _, want := range []string{"window A [-∞, ∞], B [-50, ∞]", "score A 40, B #2", "A beta cutoff at move 1"} {
		if !strings.Contains(d.Reason, want) {
			t.Errorf("reason %q lacks %q", d.Reason, want)
		}
	}
	for _, bad := range []string{"32000", "at move 0"} {
		if strings.Contains(d.Reason, bad) {
			t.Errorf("reason %q says %q", d.Reason, bad)
		}
	}
}
