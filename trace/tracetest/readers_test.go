package tracetest

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"testing"
	"time"
)

// failures is a testing.TB that records what would fail the test.
type failures struct {
	testing.TB
	msgs []string
}

func (f *failures) Errorf(format string, a ...any) {
	f.msgs = append(f.msgs, fmt.Sprintf(format, a...))
}
func (f *failures) Fatalf(format string, a ...any) { f.Errorf(format, a...); f.FailNow() }
func (f *failures) FailNow()                       { f.msgs = append(f.msgs, "FailNow"); runtime.Goexit() }

// TestBoundedCPU: a reader past its time is a failure when it used the CPU
// allowed, whatever the wall clock says, and ErrStarved when the machine
// gave it too little CPU to tell; Bounded reports every overrun. The
// first FuzzTraceReaders crash was the fuzz worker's 10 s clock, on a
// machine that gave the fuzzer a few percent of a core.
func TestBoundedCPU(t *testing.T) {
	defer func(f func() time.Duration) { cpuTime = f }(cpuTime)
	// Readers that end when cancelled, and one that ignores it until the
	// test lets it go.
	polite := func(ctx context.Context) error { <-ctx.Done(); return nil }
	release := make(chan struct{})
	defer close(release)
	stuck := func(ctx context.Context) error { <-release; return nil }
	for _, tc := range []struct {
		name      string
		cpu, used time.Duration // allowed, and what the process used meanwhile
		fn        func(ctx context.Context) error
		starved   bool
		failed    bool
	}{
		{"starved", time.Second, 10 * time.Millisecond, polite, true, false},
		{"starved and stuck", time.Second, 10 * time.Millisecond, stuck, true, false},
		{"busy", time.Second, 2 * time.Second, polite, false, true},
		{"busy and stuck", time.Second, 2 * time.Second, stuck, false, true},
		{"Bounded", 0, 0, polite, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var calls time.Duration
			cpuTime = func() time.Duration { calls++; return (calls - 1) * tc.used } // start, then start+used
			tb := &failures{TB: t}
			var err error
			done := make(chan struct{})
			go func() {
				defer close(done)
				err = bounded(tb, "r", time.Millisecond, tc.cpu, 1<<40, tc.fn)
			}()
			<-done
			if errors.Is(err, ErrStarved) != tc.starved || (len(tb.msgs) > 0) != tc.failed {
				t.Errorf("error %v, failures %q; want starved %v, failed %v", err, tb.msgs, tc.starved, tc.failed)
			}
		})
	}
}
