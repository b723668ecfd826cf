package export

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
	"github.com/horizonqs/horizon/trace/tracetest"
)

// fixedFEN is WAC.001 (testdata/wacnew.epd): a mate-threat position whose
// captures make QS trees of some size even at a small depth.
const fixedFEN = "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1"

// recordSearchTT searches fen with a QS variant to depth with the
// transposition table on, as a user's search runs (fewer nodes for the
// depth, and not the same tree on every run), records it into path and
// returns the run id.
func recordSearchTT(tb testing.TB, path, fen, variant string, depth int) int64 {
	tb.Helper()
	return record(tb, path, fen, variant, depth, true, trace.RecordOptions{})
}

// record searches fen with a QS variant to depth, with the transposition
// table on or off (off: the tree is the same on every run), records it
// into path and returns the run id.
func record(tb testing.TB, path, fen, variant string, depth int, tt bool, ro trace.RecordOptions) int64 {
	tb.Helper()
	st, err := trace.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer st.Close()
	o := tracetest.VariantOptions(tb, variant)
	o.TT = tt
	return tracetest.RecordSearch(tb, st, fen, o, engine.Limits{Depth: depth}, ro)
}

// recordedTrace records fen to depth once per variant (run ids 1, 2, ...
// in that order), with the transposition table on or off, into a fresh
// file called name (pages name their file), and opens it for reading until
// the test ends.
func recordedTrace(tb testing.TB, name, fen string, depth int, tt bool, variants ...string) (*trace.Store, string) {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), name)
	for _, v := range variants {
		record(tb, path, fen, v, depth, tt, trace.RecordOptions{})
	}
	return tracetest.Open(tb, path), path
}

// fixedTrace records the small fixed trace of the golden tests (WAC.001,
// see, depth 3, TT off) into a fresh file and opens it for reading.
func fixedTrace(tb testing.TB) (*trace.Store, string) {
	tb.Helper()
	return recordedTrace(tb, "fixed.horizon", fixedFEN, 3, false, "see")
}

// filteredTrace records the fixed position (see QS, depth 3, TT off) with
// a recording filter, only the nodes under Qg6 plus the roots, and opens
// it for reading: ids have gaps, and subtree sizes count nodes the file
// does not hold.
func filteredTrace(tb testing.TB) *trace.Store {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "under.trace")
	record(tb, path, fixedFEN, "see", 3, false, trace.RecordOptions{Under: []string{"Qg6"}})
	return tracetest.Open(tb, path)
}

// resolve resolves sel in st: the run and the top node an export draws.
func resolve(tb testing.TB, st *trace.Store, sel Selection) (trace.Run, trace.Node) {
	tb.Helper()
	run, top, err := Resolve(context.Background(), st, sel)
	if err != nil {
		tb.Fatal(err)
	}
	return run, top
}

// buildPage builds the data of the HTML page of the node sel selects.
func buildPage(tb testing.TB, st *trace.Store, sel Selection, opts HTMLOptions) (trace.Run, trace.Node, *PageData) {
	tb.Helper()
	run, top := resolve(tb, st, sel)
	d, err := BuildPage(context.Background(), st, run, top, opts)
	if err != nil {
		tb.Fatal(err)
	}
	return run, top, d
}

// queried makes Build query the trace node by node, whatever the size of
// the subtree and the budget, until restore puts the limits back.
func queried() (restore func()) {
	m, r := memLimit, rowsPerShown
	memLimit, rowsPerShown = 0, 0
	return func() { memLimit, rowsPerShown = m, r }
}
