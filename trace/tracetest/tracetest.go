// Package tracetest holds what the tests of trace's readers (compare,
// check) share: a fresh trace file and a real search recorded into it.
package tracetest

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
	"github.com/horizonqs/horizon/trace/tracetest/hostile"
)

// CreateTrace makes an empty trace file in a test directory.
func CreateTrace(tb testing.TB) (*trace.Store, string) {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "t.db")
	st, err := trace.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	return st, path
}

// VariantOptions returns a preset with the hash table off, so that trees
// are reproducible node for node.
func VariantOptions(tb testing.TB, name string) engine.Options {
	tb.Helper()
	o, err := engine.VariantOptions(name)
	if err != nil {
		tb.Fatal(err)
	}
	o.TT = false
	return o
}

// RecordSearch runs one real search into st and returns its run id.
func RecordSearch(tb testing.TB, st *trace.Store, fen string, o engine.Options, lim engine.Limits, ro ...trace.RecordOptions) int64 {
	tb.Helper()
	pos, err := engine.ParseFEN(fen)
	if err != nil {
		tb.Fatal(err)
	}
	limits, _ := json.Marshal(map[string]any{"depth": lim.Depth, "nodes": lim.Nodes})
	rec, err := st.NewRecorder(context.Background(), trace.RunInfo{FEN: fen, Variant: o.Variant, Options: o.String(),
		Limits: string(limits), Version: "test"}, append(ro, trace.RecordOptions{})[0])
	if err != nil {
		tb.Fatal(err)
	}
	res := engine.NewSearcher(o).Search(rec.Context(), pos, lim, rec)
	if err := rec.FinishSearch(res); err != nil { // the one way a search's result is stored
		tb.Fatal(err)
	}
	return rec.RunID()
}

// BenchFENs returns the first n positions of the repository's
// testdata/stockfish_bench.fen; the caller is a package directory.
func BenchFENs(tb testing.TB, n int) []string {
	tb.Helper()
	f, err := os.Open("../testdata/stockfish_bench.fen")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() && len(out) < n {
		if line := strings.TrimSpace(sc.Text()); line != "" {
			out = append(out, line)
		}
	}
	return out
}

// Kiwipete is the perft position of many captures, castlings and checks.
const Kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10"

// FirstNode returns the first node of run, in search order, that pick
// accepts; the test stops when there is none (what names it).
func FirstNode(tb testing.TB, st trace.Reader, run int64, what string, pick func(trace.Node) bool) trace.Node {
	tb.Helper()
	var found trace.Node
	err := st.Subtree(context.Background(), run, 0, -1, func(n trace.Node) error {
		if pick(n) {
			found = n
			return errFound
		}
		return nil
	})
	if !errors.Is(err, errFound) {
		tb.Fatalf("run %d has no %s (%v)", run, what, err)
	}
	return found
}

// errFound ends FirstNode's walk at the node it looked for.
var errFound = errors.New("found")

// Damaged copies the closed trace file at path into a test directory,
// applies the SQL statements to the copy, as a damaged file would hold
// them, and returns the copy's path: the file at path is left as it is.
func Damaged(tb testing.TB, path string, stmts ...string) string {
	tb.Helper()
	return hostile.Apply(tb, path, "damaged.trace", stmts...)
}

// CachedKiwipete returns a trace of one run per variant, each a search of
// Kiwipete stopped at nodes nodes, for benchmarks that need a big trace.
// It is built once, on the first -bench run, in the user's cache directory
// (outside the repository) and reused while its runs still have those
// sizes; its name carries the schema version, so a schema change rebuilds it.
func CachedKiwipete(b *testing.B, name string, nodes int64, variants ...string) string {
	b.Helper()
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	dir = filepath.Join(dir, "horizon-bench")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(dir, fmt.Sprintf("%s-v%d.trace", name, trace.SchemaVersion()))
	if st, err := trace.OpenReadOnly(path); err == nil {
		runs, err := st.Runs(context.Background())
		st.Close()
		ok := err == nil && len(runs) == len(variants)
		for i := 0; ok && i < len(runs); i++ {
			ok = runs[i].Rows == nodes
		}
		if ok {
			return path
		}
	}
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(path + suffix)
	}
	b.Logf("building %s (%d runs of %d nodes; once)", path, len(variants), nodes)
	st, err := trace.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	for _, v := range variants {
		RecordSearch(b, st, Kiwipete, VariantOptions(b, v), engine.Limits{Depth: 12, Nodes: nodes})
	}
	return path
}
