package trace

import (
	"context"
	"slices"
	"testing"

	"github.com/horizonqs/horizon/engine"
)

// TestRankRowsAsScan: Hotspots beyond the stored summary ranks an ended
// run's rows in SQLite (rankRows), and must rank them as the walk of every
// row (scanSummary) does, ties (equal sizes, ordered by id) and the bound
// included: QS trees (a threshold run's levels too), extension chains (a
// recapture run's), full-width growth, and a run filtered under a move
// path.
func TestRankRowsAsScan(t *testing.T) {
	ctx := context.Background()
	s, _ := mustCreate(t)
	for _, c := range []struct {
		name, fen, variant string
		depth              int
		opts               RecordOptions
	}{
		{"captures", kiwipeteFEN, "captures", 3, RecordOptions{}},
		{"threshold", kiwipeteFEN, "threshold", 3, RecordOptions{}},
		{"recapture", recaptureFEN, "recapture", 3, RecordOptions{}},
		{"under", recaptureFEN, "recapture", 3, RecordOptions{Under: []string{"Nxe5"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec, _ := searchInto(t, ctx, s, c.fen, c.variant, engine.Limits{Depth: c.depth}, c.opts)
			run := rec.RunID()
			r, err := s.Run(ctx, run)
			if err != nil {
				t.Fatal(err)
			}
			if !s.rankable(r) {
				t.Fatalf("run %s is not ranked in SQLite", c.name)
			}
			for _, keep := range []int{5, 40, 100000} {
				sum, err := s.scanSummary(ctx, run, keep)
				if err != nil {
					t.Fatal(err)
				}
				for by, want := range map[string]topK{"size": sum.bySize, "chain": sum.chains, "growth": sum.byGrowth} {
					got, err := s.rankRows(ctx, run, []string{by}, keep)
					if err != nil {
						t.Fatal(err)
					}
					if g, w := got.sorted(), want.sorted(); !slices.Equal(g, w) {
						t.Errorf("keep %d, by %s: ranked %d nodes %v, the scan %d: %v", keep, by, len(g), head(g), len(w), head(w))
					}
					if keep == 5 && len(want) < keep && by != "chain" {
						t.Errorf("by %s: only %d ranked: the bound is not tested", by, len(want))
					}
				}
			}
		})
	}
}

// head is the first few of a ranking, for a message.
func head(h []hotspot) []hotspot { return h[:min(len(h), 8)] }
