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
// threshold QS root's level passes as such.
func TestDescribePairCutsAndCounts(t *testing.T) {
	beta := trace.Node{Kind: engine.KindQS, QSLevel: -1, QSPly: 1, Cause: engine.CauseBeta, CutIndex: 0, Generated: 7, Searched: 1}
	afh := trace.Node{Kind: engine.KindQS, QSLevel: 0, QSPly: 1, Cause: engine.CauseAutoFailHigh, CutIndex: 0, Generated: 7}
	root := trace.Node{Kind: engine.KindQS, QSLevel: 2, QSPly: 0, Generated: 12, Searched: 60, CutIndex: -1}
	plain := trace.Node{Kind: engine.KindQS, QSLevel: -1, QSPly: 0, Generated: 12, Searched: 5, CutIndex: -1}
	for _, tc := range []struct {
		name    string
		a, b    trace.Node
		want    []string
		wantNot []string
	}{
		{"auto fail high", beta, afh,
			[]string{"A beta cutoff at move 1 of 7 generated", "B auto fail high: move 1 of 7 generated had no level left (not searched)",
				"moves A 7 generated, 1 searched, B 7 generated, 0 searched"},
			[]string{"auto fail high at move"}},
		{"level passes", plain, root,
			[]string{"B 12 generated, 60 searched counted over all its passes"}, []string{"A 12 generated, 5 searched counted"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := describePair(tc.a, tc.b, false)
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
