package compare

import (
	"strings"
	"testing"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// Issue 8: diff said "B auto fail high at move 1; moves generated/searched
// B 7/0": a cut at a move that was not searched. The reason names the move
// that had no level left as not searched, and searches counted over a
// threshold QS root's level passes as such. The counts are worded by each
// run's rule (trace.Run.MovesText): another engine's node never claims
// passes, and its generated count of 0 is one the stream left out.
func TestDescribePairCutsAndCounts(t *testing.T) {
	see, threshold := trace.Run{Variant: "see"}, trace.Run{Variant: "threshold"}
	foreign := trace.Run{Engine: "Ethereal 12.00", Variant: "Ethereal 12.00"}
	fwd := trace.Node{Kind: engine.KindPV, Depth: 3, QSLevel: -1, QSPly: -1, Generated: 4, Searched: 9, CutIndex: -1}
	unrecorded := fwd
	unrecorded.Generated = 0
	fewer := unrecorded // a count left out is no difference by itself (TestDescribePairInfiniteWindows)
	fewer.Searched = 8
	cutUnrecorded := unrecorded
	cutUnrecorded.Cause, cutUnrecorded.CutIndex = engine.CauseBeta, 4
	beta := trace.Node{Kind: engine.KindQS, QSLevel: -1, QSPly: 1, Cause: engine.CauseBeta, CutIndex: 0, Generated: 7, Searched: 1}
	afh := trace.Node{Kind: engine.KindQS, QSLevel: 0, QSPly: 1, Cause: engine.CauseAutoFailHigh, CutIndex: 0, Generated: 7}
	root := trace.Node{Kind: engine.KindQS, QSLevel: 2, QSPly: 0, Generated: 12, Searched: 60, CutIndex: -1}
	plain := trace.Node{Kind: engine.KindQS, QSLevel: -1, QSPly: 0, Generated: 12, Searched: 5, CutIndex: -1}
	for _, tc := range []struct {
		name    string
		ra, rb  trace.Run
		a, b    trace.Node
		want    []string
		wantNot []string
	}{
		{"auto fail high", threshold, threshold, beta, afh,
			[]string{"A beta cutoff at move 1 of 7 generated", "B auto fail high: move 1 of 7 generated had no level left (not searched)",
				"moves A 7 generated, 1 searched, B 7 generated, 0 searched"},
			[]string{"auto fail high at move"}},
		{"level passes", see, threshold, plain, root,
			[]string{"B 12 generated, 60 searched counted over all its passes"}, []string{"A 12 generated, 5 searched counted"}},
		{"another engine's searches", foreign, foreign, fwd, fewer,
			[]string{"moves A 4 generated, 9 searched, B generated not recorded, 8 searched"}, []string{"passes"}},
		// fairymax's node read "B beta cutoff at move 5 of 0 generated".
		{"another engine's cut", see, foreign, beta, cutUnrecorded,
			[]string{"A beta cutoff at move 1 of 7 generated, B beta cutoff at move 5;", "B generated not recorded, 9 searched"}, []string{"of 0 generated"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := describePair(tc.ra, tc.rb, tc.a, tc.b, false)
			for _, w := range tc.want {
				if !strings.Contains(d.Reason, w) {
					t.Errorf("reason %q lacks %q", d.Reason, w)
				}
			}
			for _, w := range tc.wantNot {
				if strings.Contains(d.Reason, w) {
					t.Errorf("reason %q says %q", d.Reason, w)
				}
			}
		})
	}
}
