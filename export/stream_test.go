package export

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// TestStreamMatchesBuild writes graphs whose budget shows every node
// through WriteGraph, which streams them, and checks the bytes against
// Build's graph written by WriteDOT and WriteJSON: tops of every kind
// (the run node, an iteration root, a full-width node, a QS node), depth
// limits (summaries of collapsed children), a file with a recording
// filter (summaries of unrecorded children) and each layout direction.
func TestStreamMatchesBuild(t *testing.T) {
	fixed, _ := fixedTrace(t)
	filtered := filteredTrace(t)
	// The threshold variant searches a move once per level pass: cut
	// moves searched more than once, whose last search alone is marked.
	passes, _ := recordedTrace(t, "passes.trace", kiwipete, 2, false, "threshold")
	ctx := context.Background()
	// A QS node with a subtree below it, and a full-width node under the
	// last iteration's root.
	qsTop, fwTop := int64(-1), int64(-1)
	run, _ := resolve(t, fixed, Selection{Node: 0})
	err := fixed.Subtree(ctx, run.ID, 0, -1, func(n trace.Node) error {
		if n.Kind == engine.KindQS && n.SubtreeSize > 5 && qsTop < 0 {
			qsTop = n.ID
		}
		if n.Kind == engine.KindNonPV && n.SubtreeSize > 20 {
			fwTop = n.ID
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if qsTop < 0 || fwTop < 0 {
		t.Fatalf("the fixed trace has no QS subtree of 6 nodes (%d) or full-width one of 21 (%d)", qsTop, fwTop)
	}
	for _, c := range []struct {
		name  string
		st    *trace.Store
		sel   Selection
		depth int
		dir   string
	}{
		{"run", fixed, Selection{Node: 0}, -1, ""},
		{"run-depth-2", fixed, Selection{Node: 0}, 2, ""},
		{"iteration", fixed, Selection{Node: -1}, -1, "LR"},
		{"iteration-depth-0", fixed, Selection{Node: -1}, 0, ""},
		{"full-width", fixed, Selection{Node: fwTop}, -1, ""},
		{"full-width-depth-1", fixed, Selection{Node: fwTop}, 1, ""},
		{"qs", fixed, Selection{Node: qsTop}, -1, ""},
		{"qs-depth-1", fixed, Selection{Node: qsTop}, 1, ""},
		{"filtered-run", filtered, Selection{Node: 0}, -1, ""},
		{"filtered-iteration", filtered, Selection{Node: -1}, -1, ""},
		{"filtered-depth-3", filtered, Selection{Node: 0}, 3, ""},
		{"passes", passes, Selection{Node: 0}, -1, ""},
	} {
		run, top := resolve(t, c.st, c.sel)
		for _, extra := range []int64{0, 1000} {
			opts := Options{MaxNodes: int(top.Nodes() + extra), Depth: c.depth, RankDir: c.dir}
			if !Streams(top, opts) {
				t.Fatalf("%s: a budget of %d does not stream %d nodes", c.name, opts.MaxNodes, top.Nodes())
			}
			for _, f := range []Format{DOT, JSON} {
				t.Run(fmt.Sprintf("%s-%d-%s", c.name, opts.MaxNodes, f), func(t *testing.T) {
					g, err := Build(ctx, c.st, run, top, opts)
					if err != nil {
						t.Fatal(err)
					}
					var want, got bytes.Buffer
					if f == DOT {
						err = g.WriteDOT(&want)
					} else {
						err = g.WriteJSON(&want)
					}
					if err != nil {
						t.Fatal(err)
					}
					counts, err := WriteGraph(ctx, c.st, run, top, opts, f, &got)
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(got.Bytes(), want.Bytes()) {
						t.Fatalf("streamed %s differs from Build's:\n%s", f, firstDiff(got.Bytes(), want.Bytes()))
					}
					if counts != (Counts{int64(g.Shown()), int64(len(g.Summaries))}) {
						t.Fatalf("counts %+v, Build's graph shows %d with %d summaries", counts, g.Shown(), len(g.Summaries))
					}
				})
			}
		}
	}
}

// firstDiff shows where two texts part, a few lines of each.
func firstDiff(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := bytes.LastIndexByte(a[:i], '\n') + 1
	cut := func(s []byte) []byte {
		s = s[from:]
		if len(s) > 400 {
			s = s[:400]
		}
		return s
	}
	return fmt.Sprintf("at byte %d:\ngot:  %s\nwant: %s", i, cut(a), cut(b))
}

// TestSourceMemoryCap checks which source Build reads a subtree through:
// in memory up to memLimit rows, or 16 rows a node of the budget up to
// memMaxRows, queried node by node past that, whatever the budget.
func TestSourceMemoryCap(t *testing.T) {
	st, _ := fixedTrace(t)
	run, top := resolve(t, st, Selection{Node: 0})
	defer func(l, m int64) { memLimit, memMaxRows = l, m }(memLimit, memMaxRows)
	memLimit = top.SubtreeSize / 4
	for _, c := range []struct {
		maxRows int64
		budget  int
		inMem   bool
	}{
		{top.SubtreeSize, int(top.SubtreeSize / 16), true},
		{top.SubtreeSize, int(top.SubtreeSize/16) - 1, false},
		{top.SubtreeSize - 1, int(top.SubtreeSize), false},
		{top.SubtreeSize - 1, 1 << 30, false},
	} {
		memMaxRows = c.maxRows
		src, err := newSource(context.Background(), st, run, top, c.budget)
		if err != nil {
			t.Fatal(err)
		}
		if _, inMem := src.(*memSource); inMem != c.inMem {
			t.Errorf("%d rows, budget %d, cap %d: in memory %v, want %v", top.SubtreeSize, c.budget, c.maxRows, inMem, c.inMem)
		}
	}
}

// cancelAfter is a trace reader whose Subtree cancels its context after
// some rows, as Ctrl-C does in the middle of a walk.
type cancelAfter struct {
	trace.Reader
	rows   int
	cancel context.CancelFunc
}

func (c *cancelAfter) Subtree(ctx context.Context, run, id int64, maxDepth int, fn func(trace.Node) error) error {
	return c.Reader.Subtree(ctx, run, id, maxDepth, func(n trace.Node) error {
		if c.rows--; c.rows == 0 {
			c.cancel()
		}
		return fn(n)
	})
}

// TestStreamStops cancels a streamed graph in each of its walks: it
// returns context.Canceled, whichever walk was reading.
func TestStreamStops(t *testing.T) {
	st, _ := fixedTrace(t)
	run, top := resolve(t, st, Selection{Node: 0})
	opts := Options{MaxNodes: int(top.Nodes()), Depth: -1}
	rows := int(top.SubtreeSize)
	for _, after := range []int{10, rows + 10, 2*rows + 10} {
		ctx, cancel := context.WithCancel(context.Background())
		src := &cancelAfter{Reader: st, rows: after, cancel: cancel}
		_, err := WriteGraph(ctx, src, run, top, opts, DOT, io.Discard)
		cancel()
		if !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled after %d rows: %v, want context.Canceled", after, err)
		}
	}
}
