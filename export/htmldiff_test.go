package export

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/horizonqs/horizon/compare"
	"github.com/horizonqs/horizon/trace"
	"github.com/horizonqs/horizon/trace/tracetest"
)

// TestDiffPageErrors: the diff page runs compare.Align beside its own walk
// of the trees; it still fails as one step after the other did: with
// ErrDifferentPositions for runs of two positions, with the context's
// error when cancelled, and whole or not at all (no data beside an error).
func TestDiffPageErrors(t *testing.T) {
	path := filepath.Join(t.TempDir(), "two.horizon")
	record(t, path, fixedFEN, "captures", 2, false, trace.RecordOptions{})
	record(t, path, "startpos", "captures", 2, false, trace.RecordOptions{})
	record(t, path, fixedFEN, "see", 2, false, trace.RecordOptions{})
	st := tracetest.Open(t, path)
	side := func(run int64) compare.Side { return compare.Side{Store: st, Run: run} }
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		name string
		ctx  context.Context
		b    compare.Side
		want error
	}{
		{"two positions", context.Background(), side(2), compare.ErrDifferentPositions},
		{"cancelled", cancelled, side(3), context.Canceled},
		{"no run", context.Background(), side(9), trace.ErrNoRun},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, err := BuildDiffPage(c.ctx, side(1), c.b, HTMLOptions{Depth: -1})
			if !errors.Is(err, c.want) || d != nil {
				t.Errorf("page %v, error %v; want none and %v", d != nil, err, c.want)
			}
		})
	}
	if _, err := BuildDiffPage(context.Background(), side(1), side(3), HTMLOptions{Depth: -1}); err != nil {
		t.Errorf("runs 1 and 3: %v", err)
	}
}
