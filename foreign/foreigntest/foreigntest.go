// Package foreigntest holds what the tests of trace's readers (check, the
// viewer, emit) share of another engine's runs: a Horizon trace stream
// imported into a fresh trace file.
package foreigntest

import (
	"context"
	"strings"
	"testing"

	"github.com/horizonqs/horizon/foreign"
	"github.com/horizonqs/horizon/trace"
	"github.com/horizonqs/horizon/trace/tracetest"
)

// Import imports stream into a fresh trace file (tracetest.CreateTrace)
// with o and returns the trace and the runs Import reports; the test stops
// on an import error, which names the stream.
func Import(tb testing.TB, stream string, o foreign.Options) (*trace.Store, []foreign.RunResult) {
	tb.Helper()
	st, _ := tracetest.CreateTrace(tb)
	runs, err := foreign.Import(context.Background(), st, strings.NewReader(stream), o)
	if err != nil {
		tb.Fatalf("import: %v\n%s", err, stream)
	}
	return st, runs
}
