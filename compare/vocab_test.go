package compare

import (
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
