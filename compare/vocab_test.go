package compare

import (
	"fmt"
	"slices"
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

// TestDescribePairForeign: each run's scores read in its own format: an
// engine's 34663 and 30995 are its numbers, not Horizon's ∞ and #3.
func TestDescribePairForeign(t *testing.T) {
	a := trace.Node{ID: 3, Kind: engine.KindQS, Alpha: 34663, Beta: 34664, Score: 84, Bound: engine.BoundUpper}
	b := a
	b.Alpha, b.Beta, b.Score = 34000, 34001, engine.MateScore-5
	sunfish := trace.Run{Engine: "Sunfish"}
	d := describePair(sunfish, trace.Run{}, a, b, false)
	for _, want := range []string{"window A [34663, 34664], B [∞, ∞]", "score A 84, B #3"} {
		if !strings.Contains(d.Reason, want) {
			t.Errorf("reason %q lacks %q", d.Reason, want)
		}
	}
	d = describePair(sunfish, sunfish, a, b, false)
	if want := "window A [34663, 34664], B [34000, 34001]; score A 84, B 30995"; !strings.Contains(d.Reason, want) {
		t.Errorf("reason %q lacks %q", d.Reason, want)
	}
}

// TestDescribePairInfiniteWindows: two windows that both read [-∞, ∞],
// each on its own run's scale (an engine that declared infinity 30000, and
// Horizon's 32000), are no difference, nor is a generated count the
// engine's stream left out: diff of such an engine against a Horizon preset
// gave "window A [-∞, ∞], B [-∞, ∞]; ...; moves A generated not recorded,
// 48 searched, B 48 generated, 48 searched" as the first difference at
// every root. A window that reads differently still is one.
func TestDescribePairInfiniteWindows(t *testing.T) {
	tiny := trace.Run{Engine: "Tiny", Options: `{"moves":"legal","scores":"soft","infinity":30000}`}
	a := trace.Node{ID: 1, Kind: engine.KindRoot, Alpha: -30000, Beta: 30000, Score: 5, Bound: engine.BoundExact, Searched: 48}
	b := a
	b.Alpha, b.Beta, b.Score, b.Generated = -engine.Infinity, engine.Infinity, 26, 48
	d := describePair(tiny, trace.Run{Variant: "mvv-lva"}, a, b, false)
	if strings.Contains(d.Reason, "window") || slices.Contains(d.Fields, "window") || d.Reason != "score A 5, B 26" {
		t.Errorf("fields %v, reason %q; want the score alone", d.Fields, d.Reason)
	}
	b.Alpha, b.Searched = -50, 47
	want := "window A [-∞, ∞], B [-50, ∞]; score A 5, B 26; moves A generated not recorded, 48 searched, B 48 generated, 47 searched"
	if d := describePair(tiny, trace.Run{Variant: "mvv-lva"}, a, b, false); d.Reason != want {
		t.Errorf("reason %q, want %q", d.Reason, want)
	}
}

// TestWindowsReadAlike: diff finds a pair different (comparePair) and
// words how (describePair) by one rule. Two windows reading [-∞, ∞] on
// two engines' scales were worded as no difference yet still found one,
// so diff printed an empty first difference ("at (root):" and nothing
// after it). And since a mate's text is lossy (mate in 5 plies and in 6
// both print #3), two of Horizon's windows in the mate band that print
// alike are still a difference, worded with their numbers.
func TestWindowsReadAlike(t *testing.T) {
	tiny := trace.Run{Engine: "Tiny", Options: `{"moves":"legal","scores":"soft","infinity":30000}`}
	horizon := trace.Run{Variant: "see"}
	node := trace.Node{ID: 1, Kind: engine.KindQS, Alpha: -50, Beta: 50, Score: 5, Bound: engine.BoundExact, Searched: 3}
	for _, c := range []struct {
		name           string
		ra, rb         trace.Run
		alphaA, alphaB engine.Score
		betaA, betaB   engine.Score
		same           bool
	}{
		{"equal numbers", horizon, horizon, -50, -50, 50, 50, true},
		{"one alpha apart", horizon, horizon, -50, -49, 50, 50, false},
		{"∞ on two scales", tiny, horizon, -30000, -engine.Infinity, 30000, engine.Infinity, true},
		{"past ∞ on one scale", tiny, tiny, -30000, -30001, 30000, 30000, true},
		{"mate in 5 and 6 plies on one scale", horizon, horizon, engine.MateScore - 6, engine.MateScore - 5,
			engine.MateScore - 1, engine.MateScore - 1, false},
		{"a number and ∞", tiny, horizon, -30000, -50, 30000, engine.Infinity, false},
	} {
		a, b := node, node
		a.Alpha, b.Alpha, a.Beta, b.Beta = c.alphaA, c.alphaB, c.betaA, c.betaB
		if got := SameWindow(c.ra, c.rb, a, b); got != c.same {
			t.Errorf("%s: SameWindow %v, want %v", c.name, got, c.same)
		}
		d := describePair(c.ra, c.rb, a, b, false)
		if worded := slices.Contains(d.Fields, "window"); worded == c.same {
			t.Errorf("%s: fields %v, reason %q; window worded %v, want %v", c.name, d.Fields, d.Reason, worded, !c.same)
		}
		if c.alphaA == engine.MateScore-6 {
			if want := "window A [#3, #1] = [30994, 30999], B [#3, #1] = [30995, 30999]"; d.Reason != want {
				t.Errorf("%s: reason %q, want %q", c.name, d.Reason, want)
			}
		}
	}
}

// TestScoresReadAlike: a score is compared as a window is (SameScore): one
// engine's mate and Horizon's that read the same on their own scales are
// no difference (diff printed "score A #3, B #3"); two of Horizon's mates
// a ply apart print alike and differ, and the numbers say how.
func TestScoresReadAlike(t *testing.T) {
	tiny := trace.Run{Engine: "Tiny", Options: `{"moves":"legal","scores":"soft","infinity":30000,"mate":29000}`}
	horizon := trace.Run{Variant: "see"}
	a := trace.Node{ID: 4, Kind: engine.KindPV, Alpha: -50, Beta: 50, Bound: engine.BoundExact}
	b := a
	tf, hf := tiny.NodeScores(a), horizon.NodeScores(b)
	var ta, hb engine.Score
	for s := engine.Score(28000); s < 30000; s++ { // Tiny's mate in 3, if it declares mates
		if tf.Text(s) == "#3" {
			ta = s
			break
		}
	}
	for s := engine.MateScore - 10; s <= engine.MateScore; s++ {
		if hf.Text(s) == "#3" {
			hb = s
			break
		}
	}
	if ta == 0 || hb == 0 || ta == hb {
		t.Fatalf("the test needs a mate in 3 on two scales: Tiny %d, Horizon %d", ta, hb)
	}
	a.Score, b.Score = ta, hb
	if !SameScore(tiny, horizon, a, b) {
		t.Errorf("Tiny's %d and Horizon's %d both read #3 and differ", ta, hb)
	}
	if d := describePair(tiny, horizon, a, b, false); slices.Contains(d.Fields, "score") {
		t.Errorf("fields %v, reason %q: no score difference wanted", d.Fields, d.Reason)
	}
	a.Score, b.Score = hb, hb+1 // mate in 5 plies and in 6 both read #3 on one scale
	if hf.Text(a.Score) != hf.Text(b.Score) {
		t.Fatalf("%d and %d should read alike (%s, %s)", a.Score, b.Score, hf.Text(a.Score), hf.Text(b.Score))
	}
	d := describePair(horizon, horizon, a, b, false)
	if want := fmt.Sprintf("score A #3 = %d, B #3 = %d", a.Score, b.Score); d.Reason != want {
		t.Errorf("reason %q, want %q", d.Reason, want)
	}
}
