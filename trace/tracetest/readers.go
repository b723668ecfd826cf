package tracetest

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

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
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
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
				tb.Errorf("%s: still running after %v (%v)", what, limit, err)
			}
			return err
		case <-ctx.Done():
			// fn must end soon once cancelled; one that does not would
			// hang the test binary instead of failing this test.
			select {
			case err := <-done:
				tb.Errorf("%s: still running after %v (%v)", what, limit, err)
				return err
			case <-time.After(limit):
				tb.Fatalf("%s: still running %v after its context was cancelled at %v", what, limit, limit)
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
