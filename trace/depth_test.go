package trace

import (
	"testing"

	"github.com/horizonqs/horizon/engine"
)

// TestDepthLabels: where a node stands, short and in words; a QS node's is
// its stored QS ply, not -depth (another engine's null move at depth -2
// can open a QS at QS ply 0); the short form names the level when the run
// uses levels, the words where the level differs from the ply.
func TestDepthLabels(t *testing.T) {
	for _, c := range []struct {
		n           Node
		levels      bool
		label, text string
	}{
		{Node{Kind: engine.KindQS, Depth: -2, QSPly: 0, QSLevel: -1}, false, "q0", "qs 0"},
		{Node{Kind: engine.KindQS, Depth: 0, QSPly: 4, QSLevel: 2}, true, "q4L2", "qs 4, level 2"},
		{Node{Kind: engine.KindQS, Depth: 0, QSPly: 3, QSLevel: 1}, false, "q3", "qs 3, level 1"},
		{Node{Kind: engine.KindQS, Depth: 0, QSPly: 2, QSLevel: 2}, true, "q2L2", "qs 2"},
		{Node{Kind: engine.KindPV, Depth: 3}, false, "d3", "d3 pv"},
		{Node{Kind: engine.KindRoot, Iteration: 4, Depth: 4}, false, "d4", "iteration 4, d4"},
		{Node{Kind: engine.KindRun}, true, "", "run"},
	} {
		if got := c.n.DepthLabel(c.levels); got != c.label {
			t.Errorf("%+v: DepthLabel(%v) = %q, want %q", c.n, c.levels, got, c.label)
		}
		if got := c.n.DepthText(); got != c.text {
			t.Errorf("%+v: DepthText = %q, want %q", c.n, got, c.text)
		}
	}
}
