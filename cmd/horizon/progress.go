package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
	"golang.org/x/term"
)

// countingReader counts the rows a long command reads through it, for its
// progress line; everything else is the trace's own reader.
type countingReader struct {
	trace.Reader
	rows *atomic.Int64
}

func (r countingReader) Subtree(ctx context.Context, run, id int64, maxDepth int, fn func(trace.Node) error) error {
	return r.Reader.Subtree(ctx, run, id, maxDepth, func(n trace.Node) error {
		r.rows.Add(1)
		return fn(n)
	})
}

func (r countingReader) Children(ctx context.Context, run, id int64, order trace.Order, offset, limit int) ([]trace.Node, error) {
	kids, err := r.Reader.Children(ctx, run, id, order, offset, limit)
	r.rows.Add(int64(len(kids)))
	return kids, err
}

// ChildrenOf passes trace.ChildrenOf on to the reader; the children
// count as read.
func (r countingReader) ChildrenOf(ctx context.Context, parent trace.Node, order trace.Order, offset, limit int) ([]trace.Node, error) {
	kids, err := trace.ChildrenOf(ctx, r.Reader, parent, order, offset, limit)
	r.rows.Add(int64(len(kids)))
	return kids, err
}

// rowsProgress shows "what: N of TOTAL rows (P%)" on w while it is a
// terminal (TOTAL <= 0: the count alone); the returned func clears it.
func rowsProgress(w io.Writer, what string, rows *atomic.Int64, total int64) func() {
	return progressLine(w, func(el time.Duration) string {
		n := rows.Load()
		if total <= 0 {
			return fmt.Sprintf("%s: %s rows read  %.1fs", what, engine.Commas(n), el.Seconds())
		}
		return fmt.Sprintf("%s: %s of %s rows (%d%%)  %.1fs  Ctrl-C stops", what, engine.Commas(n), engine.Commas(total),
			100*min(n, total)/max(total, 1), el.Seconds())
	})
}

// isTerminal reports whether w is a terminal: not a pipe, a file or
// another character device such as /dev/null (trace --view > /dev/null
// recorded, then the viewer refused). A variable, so that tests can have a
// progress line drawn into a buffer.
var isTerminal = func(w io.Writer) bool {
	f, ok := file(w)
	return ok && term.IsTerminal(int(f.Fd()))
}

// progressLine draws line(elapsed) on w at once and then five times a
// second while w is a terminal; the returned func stops and clears it.
// The line is made engine.Printable: it names runs, files and EPD ids.
func progressLine(w io.Writer, line func(time.Duration) string) func() {
	if !isTerminal(w) {
		return func() {}
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	start := time.Now()
	fmt.Fprint(w, "\r\033[K"+engine.Printable(line(0)))
	go func() {
		defer close(finished)
		tick := time.NewTicker(200 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				fmt.Fprint(w, "\r\033[K")
				return
			case <-tick.C:
				fmt.Fprint(w, "\r\033[K"+engine.Printable(line(time.Since(start))))
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}

// progress is work done toward a known total, drawn as a bar on a
// terminal while the work runs. Set and Add may be called from any
// goroutine; Stop may be called more than once (a deferred Stop after
// the one that clears the bar before a table is printed).
type progress struct {
	done atomic.Int64
	stop func()
	once sync.Once
}

// countProgress shows "[###...] done/total what" on w while it is a
// terminal, until Stop.
func countProgress(w io.Writer, what string, total int) *progress {
	p := &progress{}
	p.stop = progressLine(w, func(el time.Duration) string {
		n := p.done.Load()
		const width = 30
		fill := int(int64(width) * n / int64(max(total, 1)))
		eta := ""
		if n > 0 && n < int64(total) {
			left := time.Duration(float64(el) / float64(n) * float64(int64(total)-n))
			eta = fmt.Sprintf("  about %s left", left.Round(time.Second))
		}
		return fmt.Sprintf("[%s%s] %d/%d %s  %.0fs%s", strings.Repeat("#", fill), strings.Repeat(".", width-fill),
			n, total, what, el.Seconds(), eta)
	})
	return p
}

// Add counts n more done.
func (p *progress) Add(n int) { p.done.Add(int64(n)) }

// Set says n are done in all: the form of the callbacks by which qsbench
// reports its progress.
func (p *progress) Set(n int) { p.done.Store(int64(n)) }

// Stop stops the bar and clears it.
func (p *progress) Stop() { p.once.Do(p.stop) }

// RangeCounts is the reader's (trace.RangeCounter), ok false when it
// has none; the rows it adds up count as read.
func (r countingReader) RangeCounts(ctx context.Context, run, id, end int64) (trace.RangeCounts, bool, error) {
	rc, ok := r.Reader.(trace.RangeCounter)
	if !ok {
		return trace.RangeCounts{}, false, nil
	}
	c, ok, err := rc.RangeCounts(ctx, run, id, end)
	r.rows.Add(c.Rows)
	return c, ok, err
}

// RangeCountsMany is the reader's (trace.RangeManyCounter), ok false when
// it has none; the rows it adds up count as read.
func (r countingReader) RangeCountsMany(ctx context.Context, run int64, ranges []trace.IDRange) ([]trace.RangeCounts, bool, error) {
	rc, ok := r.Reader.(trace.RangeManyCounter)
	if !ok {
		return nil, false, nil
	}
	cs, ok, err := rc.RangeCountsMany(ctx, run, ranges)
	for _, c := range cs {
		r.rows.Add(c.Rows)
	}
	return cs, ok, err
}

// StoredSubtreeCounts is the reader's (trace.SubtreeCountsStore): none
// where it has none.
func (r countingReader) StoredSubtreeCounts(ctx context.Context, run int64) (map[int64]trace.RangeCounts, error) {
	if fs, ok := r.Reader.(trace.SubtreeCountsStore); ok {
		return fs.StoredSubtreeCounts(ctx, run)
	}
	return map[int64]trace.RangeCounts{}, nil
}
