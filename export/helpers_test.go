package export

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// fixedFEN is WAC.001 (testdata/wacnew.epd): a mate-threat position whose
// captures make QS trees of some size even at a small depth.
const fixedFEN = "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1"

// recordSearch searches fen with a QS variant to depth, with the
// transposition table off so the tree is the same on every run, records it
// into path and returns the run id.
func recordSearch(tb testing.TB, path, fen, variant string, depth int) int64 {
	tb.Helper()
	return record(tb, path, fen, variant, depth, false, trace.RecordOptions{})
}

// recordSearchTT is recordSearch with the transposition table on, as a
// user's search runs: fewer nodes for the depth, and not the same tree on
// every run.
func recordSearchTT(tb testing.TB, path, fen, variant string, depth int) int64 {
	tb.Helper()
	return record(tb, path, fen, variant, depth, true, trace.RecordOptions{})
}

func record(tb testing.TB, path, fen, variant string, depth int, tt bool, ro trace.RecordOptions) int64 {
	tb.Helper()
	ctx := context.Background()
	st, err := trace.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer st.Close()
	opts, err := engine.VariantOptions(variant)
	if err != nil {
		tb.Fatal(err)
	}
	opts.TT = tt
	pos, err := engine.ParseFEN(fen)
	if err != nil {
		tb.Fatal(err)
	}
	rec, err := st.NewRecorder(ctx, trace.RunInfo{FEN: fen, Variant: variant, Options: opts.String()}, ro)
	if err != nil {
		tb.Fatal(err)
	}
	res := engine.NewSearcher(opts).Search(rec.Context(), pos, engine.Limits{Depth: depth}, rec)
	if err := rec.Finish(trace.Result{BestMove: res.BestMove, Score: res.Score, PV: res.PV, Depth: res.Depth, Elapsed: 1}); err != nil {
		tb.Fatal(err)
	}
	return rec.RunID()
}

// fixedTrace records the small fixed trace of the golden tests into a
// fresh file and opens it for reading.
func fixedTrace(tb testing.TB) (*trace.Store, string) {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "fixed.horizon")
	recordSearch(tb, path, fixedFEN, "see", 3)
	st, err := trace.OpenReadOnly(path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	return st, path
}

// filteredTrace records the fixed position (see QS, depth 3, TT off) with
// a recording filter, only the nodes under Qg6 plus the roots, and opens
// it for reading: ids have gaps, and subtree sizes count nodes the file
// does not hold.
func filteredTrace(tb testing.TB) *trace.Store {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "under.trace")
	record(tb, path, fixedFEN, "see", 3, false, trace.RecordOptions{Under: []string{"Qg6"}})
	st, err := trace.OpenReadOnly(path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	return st
}
