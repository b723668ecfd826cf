package tracetest

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/horizonqs/horizon/internal/cputime"
	"github.com/horizonqs/horizon/trace"
)

// Open opens the trace file at path read-only, as readers do, until the
// test ends.
func Open(tb testing.TB, path string) *trace.Store {
	tb.Helper()
	st, err := trace.OpenReadOnly(path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	return st
}

// Runs opens the trace file at path read-only and returns its runs, as a
// reader that comes after the writer sees them.
func Runs(tb testing.TB, path string) []trace.Run {
	tb.Helper()
	st, err := trace.OpenReadOnly(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer st.Close()
	runs, err := st.Runs(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	return runs
}

// Bounded runs fn with a context that is cancelled after limit, or as soon
// as the heap grows past heap bytes, and reports either overrun as an error
// of the test: a reader of a damaged trace must end on its own, in bounded
// time and memory. It returns fn's error, or the panic fn raised (with its
// stack) as an error that says "panic". An fn that does not end within
// another limit once its context is cancelled fails the test at once
// (Fatal), where waiting for it would hang the test binary.
func Bounded(tb testing.TB, what string, limit time.Duration, heap uint64, fn func(ctx context.Context) error) error {
	tb.Helper()
	return bounded(tb, what, limit, 0, heap, fn)
}

// ErrStarved is BoundedCPU's error for an fn that ran past its time on a
// machine too busy to tell a slow reader from a stuck one; fn may still be
// running.
var ErrStarved = errors.New("out of time with little CPU used: the machine is too busy to tell")

// BoundedCPU is Bounded for a time limit that a busy machine can overrun
// with no fault of fn's: a fuzz worker's input must end within 10 s of
// wall time (InFuzzWorker), and a fuzzer run at low priority beside other
// work may get a few percent of a core. fn past its limit (or still
// running another limit after its context is cancelled) is reported only
// when the process used cpu of CPU time since fn started, which a slow or
// looping reader does whatever the load; otherwise BoundedCPU returns
// ErrStarved. A reader stuck without using CPU, on a busy machine, is
// then not caught: Bounded, without the fuzzer's clock, catches it.
func BoundedCPU(tb testing.TB, what string, limit, cpu time.Duration, heap uint64, fn func(ctx context.Context) error) error {
	tb.Helper()
	return bounded(tb, what, limit, cpu, heap, fn)
}

// cpuTime is the CPU time the process has used (a variable for the
// tests).
var cpuTime = cputime.Used

// bounded is Bounded, and BoundedCPU when cpu > 0.
func bounded(tb testing.TB, what string, limit, cpu time.Duration, heap uint64, fn func(ctx context.Context) error) error {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	startCPU := cpuTime()
	// overrun reports fn past its time, or says why it is not reported.
	overrun := func(format string, a ...any) error {
		if used := cpuTime() - startCPU; cpu > 0 && used < cpu {
			return fmt.Errorf("%s: %w (%v of CPU in %v)", what, ErrStarved, used.Round(time.Millisecond), limit)
		}
		tb.Errorf(format, a...)
		return nil
	}
	done := make(chan error, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				buf := make([]byte, 16<<10)
				done <- fmt.Errorf("panic: %v\n%s", r, buf[:runtime.Stack(buf, false)])
			}
		}()
		done <- fn(ctx)
	}()
	// The heap is sampled often enough to catch a reader that allocates
	// without bound long before it takes the machine's memory.
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	var ms runtime.MemStats
	for {
		select {
		case err := <-done:
			if ctx.Err() != nil {
				if starved := overrun("%s: still running after %v (%v)", what, limit, err); starved != nil && err == nil {
					return starved
				}
			}
			return err
		case <-ctx.Done():
			// fn must end soon once cancelled; one that does not would
			// hang the test binary instead of failing this test.
			select {
			case err := <-done:
				if starved := overrun("%s: still running after %v (%v)", what, limit, err); starved != nil && err == nil {
					return starved
				}
				return err
			case <-time.After(limit):
				if starved := overrun("%s: still running %v after its context was cancelled at %v", what, limit, limit); starved != nil {
					return starved
				}
				tb.FailNow()
				return nil
			}
		case <-tick.C:
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > heap {
				cancel()
				select {
				case err := <-done:
					tb.Errorf("%s: heap grew to %d MB", what, ms.HeapAlloc>>20)
					return err
				case <-time.After(limit):
					tb.Fatalf("%s: heap grew to %d MB, and it is still running %v after its context was cancelled", what, ms.HeapAlloc>>20, limit)
				}
			}
		}
	}
}
