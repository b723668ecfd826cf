package viewer

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/internal/horizonbin"
	"github.com/horizonqs/horizon/trace"
	"github.com/horizonqs/horizon/trace/tracetest"
)

// kiwipete is the position of the test traces: a middlegame full of
// captures, so every variant's QS has work to do.
const kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

// fixtureVariants are the runs of the shared test trace, in run id order:
// two plain QS variants to compare, and the two whose nodes can have the same
// move among their children several times.
var fixtureVariants = []string{"captures", "see", "unified", "threshold"}

var tmpDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "horizon-viewer-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	tmpDir = dir
	code := m.Run()
	horizonbin.Remove()
	os.RemoveAll(dir)
	os.Exit(code)
}

// record searches fen with variant (TT off, so the tree is the same on
// every machine) into st and returns the run id.
func record(tb testing.TB, st *trace.Store, fen, variant string, depth int) int64 {
	tb.Helper()
	id, err := recordErr(st, fen, variant, depth)
	if err != nil {
		tb.Fatal(err)
	}
	return id
}

// recordRuns records a run of each FEN and variant, in order (run ids 1,
// 2, ...), to depth into a new trace, and opens it for reading as a
// viewer does; the store is closed when the test ends.
func recordRuns(t *testing.T, depth int, runs [][2]string) *trace.Store {
	t.Helper()
	w, path := tracetest.CreateTrace(t)
	for _, run := range runs {
		record(t, w, run[0], run[1], depth)
	}
	w.Close()
	return tracetest.Open(t, path)
}

func recordErr(st *trace.Store, fen, variant string, depth int) (int64, error) {
	o, err := engine.VariantOptions(variant)
	if err != nil {
		return 0, err
	}
	o.TT = false
	// The screens were drawn from captures before its preset took 003's
	// check extension (issue 11); they test drawing, not the preset, so the
	// fixture keeps that tree.
	o.CheckExt = false
	pos, err := engine.ParseFEN(fen)
	if err != nil {
		return 0, err
	}
	rec, err := st.NewRecorder(context.Background(), trace.RunInfo{FEN: fen, Variant: variant, Options: o.String()}, trace.RecordOptions{})
	if err != nil {
		return 0, err
	}
	res := engine.NewSearcher(o).Search(rec.Context(), pos, engine.Limits{Depth: depth}, rec)
	if err := rec.Finish(trace.Result{BestMove: res.BestMove, Score: res.Score, PV: res.PV, Depth: res.Depth}); err != nil {
		return 0, err
	}
	return rec.RunID(), nil
}

var fixture struct {
	once sync.Once
	path string
	err  error
}

// fixturePath returns the shared test trace: kiwipete at depth 3, one run
// per fixtureVariants entry (run ids 1..4), recorded once per test binary.
func fixturePath(tb testing.TB) string {
	tb.Helper()
	fixture.once.Do(func() {
		path := filepath.Join(tmpDir, "fixture.trace")
		st, err := trace.Create(path)
		if err != nil {
			fixture.err = err
			return
		}
		defer st.Close()
		for _, v := range fixtureVariants {
			if _, err := recordErr(st, kiwipete, v, 3); err != nil {
				fixture.err = err
				return
			}
		}
		fixture.path = path
	})
	if fixture.err != nil {
		tb.Fatal(fixture.err)
	}
	return fixture.path
}

// openFixture opens the shared trace read-only, closed with the test.
func openFixture(tb testing.TB) *trace.Store {
	tb.Helper()
	return tracetest.Open(tb, fixturePath(tb))
}

// allChildren lists a node's children straight from the store.
func allChildren(tb testing.TB, st *trace.Store, run, id int64, order trace.Order) []trace.Node {
	tb.Helper()
	kids, err := st.Children(context.Background(), run, id, order, 0, 0)
	if err != nil {
		tb.Fatal(err)
	}
	return kids
}
