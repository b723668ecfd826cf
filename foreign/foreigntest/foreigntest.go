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

// AspirationStream is a search whose iteration 2 is searched twice, as an
// aspiration window's re-search searches it (Ethereal's): its first root
// fails low, with a stand pat check flags below it; with again false,
// iteration 2 is searched once.
func AspirationStream(again bool) string {
	first := `E - 2 -20 0 i=2
E e2e4 1 0 20
E e7e5 0 -20 0
S 5
E g1f3 -1 -20 0
S 8
L 3
L 5
L -5
E d2d4 1 0 20
E d7d5 0 -20 0
S 2
L 2
L -2
L 5
`
	if !again {
		first = ""
	}
	return `HZT 1
engine Asp
position startpos
E - 1 -50 50 i=1
E e2e4 0 -50 50
S 10
L 10
L -10
` + first + `E - 2 -100 100 i=2
E e2e4 1 -100 100
E e7e5 0 -100 100
S 5
L 5
L -5
E d2d4 1 -100 100
E d7d5 0 -100 100
S 2
L 2
L -2
L 5
end best=e2e4
`
}

// QSTwiceStream is a search of QS alone under its root (iteration 0, as
// Fairy-Max's first) made twice, with no later iteration: a bare path
// reads in the second root only, so places name "iteration 0·1:".
const QSTwiceStream = `HZT 1
engine Q
position startpos moves e2e4 d7d5
E - 0 -5 5 i=0
S 1
E e4d5 0 -5 5
S -90
E d8d5 0 -5 5
S 5
L 5
L -5
L 1
E - 0 -100 100 i=0
S 10
E e4d5 0 -100 -10
S -90
E d8d5 0 10 100
S 5
L 5
L -5
L 10
end best=e4d5
`
