package viewer

import (
	"strings"
	"testing"

	"github.com/horizonqs/horizon/foreign"
	"github.com/horizonqs/horizon/foreign/foreigntest"
)

// TestForeignScores: another engine's windows and scores show as its own
// numbers, never on Horizon's scale: Sunfish's MTD probe at 34663 read as
// "[∞, ∞]" beside a score of +84. The run node keeps Horizon's full window.
func TestForeignScores(t *testing.T) {
	const failLow = "HZT 1\nengine Sunfish\nposition startpos\n" +
		"E - 1 34663 34664 i=1\nM e2e4 0\nE e2e4 0 -34664 -34663\nS -84\nL -84\nL 84\nend best=e2e4 nodes=2\n"
	for _, tc := range []struct {
		name, stream string
		node         int64 // 0: the run's first screen
		want, not    []string
	}{
		// The root failed low: no iteration concluded, so the run has
		// no score (the header said "best e4 0").
		{"fail low, run node", failLow, 1, []string{"best e4 no score", "[-∞,∞]", "d1 [34663,34664]", "≤84", "window    [34663, 34664]", "score     +84 upper bound"}, []string{"[∞,∞]", "[∞, ∞]"}},
		{"fail low, child", failLow, 2, []string{"window    [-34664, -34663]", "stand pat -84", "score     -84 lower bound"}, []string{"[-∞,-∞]", "[-∞, -∞]"}},
		// An MTD run reports its last fail-high probe, a lower bound: the
		// header says ≥, not a bare score.
		{"lower bound", mtdStream, 0, []string{"best e4 ≥+34700"}, nil},
		// An engine that declared its mate and infinity values: its mates
		// show as #N, its window's ends as ∞; other scores stay numbers.
		{"declared, run", declaredStream, 1, []string{"best Rd8# #1", "root     d2        [-∞,∞]", "=#1", "window    [-∞, ∞]", "score     #1 exact"}, []string{"31999", "32000"}},
		{"declared, mated", declaredStream, 2, []string{"=-#0", "[-#0,-#1]", "≥-40", "score     -#0 exact"}, []string{"31999", "31998"}},
		{"declared, QS", declaredStream, 4, []string{"[#1,#1]", "stand pat +40", "score     +40 upper bound"}, []string{"31998"}},
		// A stream that gives a cut index but no generated count: the
		// cutoff names the move alone (fairymax's node 63 read "beta
		// cutoff at move 5 of 0 generated").
		{"cut, generated not recorded", cutStream, 2, []string{"cause     beta cutoff at move 2\n", "generated not recorded"}, []string{"of 0 generated"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, _ := foreigntest.Import(t, tc.stream, foreign.Options{})
			opt := Options{Run: 1}
			if tc.node != 0 {
				opt.Node = &tc.node
			}
			text := newRig(t, st, 140, 40, opt).text()
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("screen lacks %q:\n%s", w, text)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(text, w) {
					t.Errorf("screen shows %q:\n%s", w, text)
				}
			}
		})
	}
}

// mtdStream is a Sunfish-like MTD search: iteration 1's probe fails high
// at 34700 and so does iteration 2's first, where the stream ends.
const mtdStream = "HZT 1\nengine Sunfish\nposition startpos\nE - 1 34663 34664 i=1\nE e2e4 0 -34664 -34663\nS -34700\nL -34700\nL 34700\n" +
	"E - 2 34699 34700 i=2\nE d2d4 1 -34700 -34699\nL -34710\nL 34710\nend best=e2e4\n"

// cutStream is a search whose node after 1. e4 fails high on its second
// move, with the cut index given and the generated count left out.
const cutStream = "HZT 1\nengine Cutter\nposition startpos\nE - 2 -100 100 i=2\nM e2e4 0\nE e2e4 1 -100 100\n" +
	"M a7a6 0\nE a7a6 0 -100 100\nL -10\nM e7e5 1\nE e7e5 0 -100 100\nL -200\nL 200 c=beta x=1\nL -200\nend best=e2e4 nodes=4\n"

// declaredStream is an Ethereal-like search of a mate in 1 whose stream
// declares Ethereal's values (MATE 32000, MATE_IN_MAX 31872, the root's
// window [-MATE, MATE]).
const declaredStream = "HZT 2\nengine Ethereal-like\nmate 32000 31872\ninfinity 32000\nposition fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1\n" +
	"E - 2 -32000 32000 i=2\nE d1d8 1 -32000 32000\nL -31999\nE d1d2 1 -31999 -31998\nE f7f6 0 31998 31999\nS 40\nL 40\nL -40\nL 31999\nend best=d1d8 nodes=4\n"

// TestCompareLostNamesVisit: where the lead's node is a later search of
// an iteration or a move that the other run searched fewer times, the
// following pane says so. It said "the other run has no iteration 1" of an
// engine whose aspiration window failed (Ethereal's re-search, against a
// run without aspiration), and "did not search e4 here" of a PVS
// re-search, while the other pane showed that iteration and that move.
func TestCompareLostNamesVisit(t *testing.T) {
	const (
		// Run 1 searches iteration 1 twice (the first window fails
		// high), run 2 once.
		aspiration = "HZT 1\nposition startpos\nE - 1 -10 10 i=1\nE e2e4 0 -10 10\nS -50\nL -50\nL 50\n" +
			"E - 1 -100 100 i=1\nE e2e4 0 -100 100\nS -50\nL -50\nL 50\nend best=e2e4\n" +
			"position startpos\nE - 1 -100 100 i=1\nE e2e4 0 -100 100\nS -50\nL -50\nL 50\nend best=e2e4\n"
		// Run 1 searches e4 twice (a null window, then the full one),
		// run 2 once.
		research = "HZT 1\nposition startpos\nE - 1 -100 100 i=1\nE e2e4 0 -100 -99\nS -50\nL -50\nE e2e4 0 -100 100\nS -50\nL -50\nL 50\nend best=e2e4\n" +
			"position startpos\nE - 1 -100 100 i=1\nE e2e4 0 -100 100\nS -50\nL -50\nL 50\nend best=e2e4\n"
		// Run 1's root makes two IID searches (nodes 2 and 3), run 2's
		// one: the second is lost, and named by its mark, not as an
		// iteration.
		iid   = "E - 0 -100 100 n=iid\nS 10\nL 10\n"
		twice = "HZT 4\nposition startpos\nE - 1 -100 100 i=1\n" + iid + iid + "M e2e4 0\nE e2e4 0 -100 100\nS -50\nL -50\nL 50\nend best=e2e4\n" +
			"position startpos\nE - 1 -100 100 i=1\n" + iid + "M e2e4 0\nE e2e4 0 -100 100\nS -50\nL -50\nL 50\nend best=e2e4\n"
	)
	for _, tc := range []struct {
		name, stream string
		node         int64 // of run 1, which the other run searched fewer times
		want         string
	}{
		{"iteration", aspiration, 3, "the other run searched iteration 1 once; this is its 2nd search"},
		{"move", research, 3, "the other run searched e4 here once; this is its 2nd search (node 3)"},
		{"nested", twice, 3, "the other run made the [iid] search here once; this is its 2nd (node 3)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, _ := foreigntest.Import(t, tc.stream, foreign.Options{})
			r := newRig(t, st, 160, 40, Options{Run: 1})
			r.run("=")
			if len(r.m.panes) != 2 || r.m.panes[1].t.run.ID != 2 {
				t.Fatal("compare mode did not open run 2 beside run 1")
			}
			if err := r.m.reveal(tc.node); err != nil {
				t.Fatal(err)
			}
			r.m.afterChange()
			if got := r.m.panes[1].lost; got != tc.want {
				t.Errorf("on run 1's node %d the other pane says %q, want %q", tc.node, got, tc.want)
			}
		})
	}
}

// TestCompareWindowsOnTwoScales: two runs of one search whose windows
// differ only in the number each declared infinity is (30000, 32000)
// read alike, and the other pane's line said their roots "differ" (the
// window column compared the numbers; diff reads them on the runs' scales,
// compare.SameWindow, and the viewer now does too).
func TestCompareWindowsOnTwoScales(t *testing.T) {
	search := "position startpos\nE - 1 -INF INF\nE e2e4 0 -INF INF\nL -10\nL 10\nend best=e2e4\n"
	stream := "HZT 2\nengine Tiny\ninfinity 30000\n" + strings.ReplaceAll(search, "INF", "30000") +
		"infinity 32000\n" + strings.ReplaceAll(search, "INF", "32000")
	st, _ := foreigntest.Import(t, stream, foreign.Options{})
	r := newRig(t, st, 160, 40, Options{Run: 1})
	r.run("=")
	if len(r.m.panes) != 2 || r.m.panes[1].t.run.ID != 2 {
		t.Fatal("compare mode did not open run 2 beside run 1")
	}
	for _, id := range []int64{1, 2} {
		if err := r.m.reveal(id); err != nil {
			t.Fatal(err)
		}
		r.m.afterChange()
		text := r.text()
		if !strings.Contains(text, " same") || strings.Contains(text, "differs") {
			t.Errorf("node %d: the other run's line does not say same:\n%s", id, text)
		}
	}
}
