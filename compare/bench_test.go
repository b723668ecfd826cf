package compare

import (
	"context"
	"testing"

	"github.com/horizonqs/horizon/check"
	"github.com/horizonqs/horizon/trace"
	"github.com/horizonqs/horizon/trace/tracetest"
)

// benchNodes is the size of each benchmark run: searches stopped by the
// node limit, so both runs have exactly this many nodes.
const benchNodes = 1_000_000

// benchTrace returns a trace holding two runs of benchNodes nodes each
// (captures and mvv-lva on Kiwipete: similar trees that part early, the
// common case for a diff). It is built once, on the first -bench run, in
// the user's cache directory (outside the repository) and reused; its name
// carries the schema version so a schema change rebuilds it.
func benchTrace(b *testing.B) string {
	b.Helper()
	return tracetest.CachedKiwipete(b, "align-1m", benchNodes, "captures", "mvv-lva")
}

// openBenchTrace opens the benchmarks' trace read-only until b ends.
func openBenchTrace(b *testing.B) *trace.Store {
	st, err := trace.OpenReadOnly(benchTrace(b))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	return st
}

// BenchmarkAlign1M diffs two runs of a million nodes each.
func BenchmarkAlign1M(b *testing.B) {
	st := openBenchTrace(b)
	ctx := context.Background()
	b.ResetTimer()
	var rep *Report
	var err error
	for i := 0; i < b.N; i++ {
		if rep, err = Align(ctx, Side{st, 1}, Side{st, 2}, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(2*benchNodes)*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
	b.Logf("matched %d, only A %d, only B %d, changed %d", rep.Matched, rep.OnlyA, rep.OnlyB, rep.Changed)
}

// BenchmarkCheck1M checks one run of a million nodes.
func BenchmarkCheck1M(b *testing.B) {
	st := openBenchTrace(b)
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rep, err := check.Run(ctx, st, 1, check.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if rep.Count != 0 {
			b.Fatalf("%d violations: %v", rep.Count, rep.Violations[0])
		}
	}
	b.ReportMetric(float64(benchNodes)*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
}
