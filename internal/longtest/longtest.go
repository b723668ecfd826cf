// Package longtest sorts the tests into the quick run a developer waits
// for ('go test ./...', a few minutes on two cores) and the long run CI
// makes (.ci/run sets HORIZON_TEST_LONG=1): the longest tests run lighter
// (Quick) or not at all (Skip) in the quick run, and whole in the long
// one. -short makes every run quick.
package longtest

import (
	"os"
	"testing"
)

// Env is the variable that asks for the long run.
const Env = "HORIZON_TEST_LONG"

// Quick reports whether this is the quick run: -short, or Env not set to
// 1. A long test then runs its lighter form (a smaller depth, fewer
// positions) and says so in its log.
func Quick() bool {
	return testing.Short() || os.Getenv(Env) != "1"
}

// Skip skips tb in the quick run, saying what it would have done and how
// to run it.
func Skip(tb testing.TB, what string) {
	tb.Helper()
	if Quick() {
		tb.Skipf("a long test (%s): %s=1 runs it, as .ci/run does", what, Env)
	}
}
