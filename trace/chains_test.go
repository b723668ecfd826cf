package trace

import (
	"context"
	"math"
	"testing"

	"github.com/horizonqs/horizon/engine"
)

// recaptureFEN is issue 11's position where recapture's search grows in
// full-width nodes extended by recaptures, not in QS.
const recaptureFEN = "r1bqkb1r/pp3ppp/2np1n2/4p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R w KQkq - 0 1"

// chainTops lists the run's chain tops by the definition's words: an
// extended node whose parent's move was not extended.
func chainTops(nodes []Node) map[int64]bool {
	byID := map[int64]Node{}
	for _, n := range nodes {
		byID[n.ID] = n
	}
	out := map[int64]bool{}
	for _, n := range nodes {
		if p, ok := byID[n.Parent]; n.Extension > 0 && (!ok || p.Extension == 0) {
			out[n.ID] = true
		}
	}
	return out
}

// TestRecaptureChainFirst: on recapture's blow-up position the biggest
// growth is a recapture-extension chain, not a QS tree, and hotspots say
// so with its share of the run, from the summary the recorder stored, from
// a scan, and from a summary stored before chains were ranked alike.
func TestRecaptureChainFirst(t *testing.T) {
	ctx := context.Background()
	s, path := mustCreate(t)
	rec, res := searchInto(t, ctx, s, recaptureFEN, "recapture", engine.Limits{Depth: 3}, RecordOptions{})
	run := rec.RunID()
	hs, err := s.Hotspots(ctx, run, HotspotBySize, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(hs) == 0 || hs[0].Cause != engine.GrowthRecaptureExt {
		t.Fatalf("first hotspot %+v, want a recapture-ext chain", hs)
	}
	top := hs[0]
	if want := float64(top.Node.SubtreeSize) / float64(res.Stats.Nodes); math.Abs(top.Share-want) > 1e-12 || top.Share < 0.1 {
		t.Errorf("top chain's share %.4f, want %.4f (and at least 10%%)", top.Share, want)
	}
	qs, err := s.Hotspots(ctx, run, HotspotQS, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 1 || qs[0].Cause != engine.GrowthQS || qs[0].Node.SubtreeSize >= top.Node.SubtreeSize {
		t.Errorf("biggest QS tree %+v, want a smaller QS tree than the chain", qs)
	}
	// Every chain top is ranked, each with a cause the options explain.
	nodes := allNodes(t, s, run)
	tops := chainTops(nodes)
	all, err := s.Hotspots(ctx, run, HotspotChains, len(tops)+hotspotsKept) // beyond the summary: a scan
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != len(tops) || len(tops) < 10 {
		t.Fatalf("%d chains ranked, %d chain tops in the run", len(all), len(tops))
	}
	for i, h := range all {
		if !tops[h.Node.ID] || h.Cause != engine.GrowthRecaptureExt {
			t.Errorf("chain %d: node %d (%s) is not a recapture-ext chain top", i, h.Node.ID, h.Cause)
		}
		if i > 0 && all[i-1].Node.SubtreeSize < h.Node.SubtreeSize {
			t.Errorf("chain %d is bigger than chain %d", i, i-1)
		}
	}
	stored, err := s.Hotspots(ctx, run, HotspotChains, 10)
	if err != nil {
		t.Fatal(err)
	}
	for i := range stored {
		if stored[i].Node.ID != all[i].Node.ID {
			t.Errorf("stored chain %d is node %d, the scan says %d", i, stored[i].Node.ID, all[i].Node.ID)
		}
	}
	// A summary stored before chains were ranked (no chain count row) is
	// completed by a scan, so the ranking is the same.
	if _, err := s.db.Exec("DELETE FROM hotspots WHERE run_id = ? AND rank_by = 'chain'", run); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	old, err := s.Hotspots(ctx, run, HotspotBySize, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(old) != len(hs) {
		t.Fatalf("old summary: %d hotspots, want %d", len(old), len(hs))
	}
	for i := range hs {
		if old[i].Node.ID != hs[i].Node.ID || old[i].Cause != hs[i].Cause {
			t.Errorf("old summary #%d: node %d %s, want node %d %s", i, old[i].Node.ID, old[i].Cause, hs[i].Node.ID, hs[i].Cause)
		}
	}
}

// TestCheckExtChains: captures gives one check extension at the horizon;
// its chains are labelled check-ext.
func TestCheckExtChains(t *testing.T) {
	ctx := context.Background()
	s, _ := mustCreate(t)
	rec, _ := searchInto(t, ctx, s, tacticalFEN, "captures", engine.Limits{Depth: 3}, RecordOptions{})
	hs, err := s.Hotspots(ctx, rec.RunID(), HotspotChains, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(hs) == 0 {
		t.Fatal("no check-extension chain in captures' search")
	}
	for _, h := range hs {
		if h.Cause != engine.GrowthCheckExt || !h.Node.InCheck {
			t.Errorf("node %d: %s, in check %v; want check-ext", h.Node.ID, h.Cause, h.Node.InCheck)
		}
	}
}
