package compare

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/horizonqs/horizon/check"
	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/internal/golden"
	"github.com/horizonqs/horizon/trace"
	"github.com/horizonqs/horizon/trace/tracetest"
)

const kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10"

func TestAlignSelfIsIdentical(t *testing.T) {
	ctx := context.Background()
	// Unified and threshold visit the same move several times under one
	// node: the occurrence index must line those up.
	for _, name := range []string{"captures", "unified", "threshold", "recapture"} {
		t.Run(name, func(t *testing.T) {
			st, _ := tracetest.CreateTrace(t)
			other, _ := tracetest.CreateTrace(t)
			o := tracetest.VariantOptions(t, name)
			run := tracetest.RecordSearch(t, st, kiwipete, o, engine.Limits{Depth: 3})
			again := tracetest.RecordSearch(t, other, kiwipete, o, engine.Limits{Depth: 3})
			r, err := st.Run(ctx, run)
			if err != nil {
				t.Fatal(err)
			}
			for _, tc := range []struct {
				name string
				b    Side
			}{{"same run", Side{st, run}}, {"re-recorded in another file", Side{other, again}}} {
				t.Run(tc.name, func(t *testing.T) {
					rep, err := Align(ctx, Side{st, run}, tc.b, Options{})
					if err != nil {
						t.Fatal(err)
					}
					if !rep.Identical() || rep.OnlyA != 0 || rep.OnlyB != 0 || rep.Changed != 0 || rep.First != nil || len(rep.Top) != 0 {
						t.Fatalf("differences in a run against itself: only_a %d only_b %d changed %d first %+v top %v",
							rep.OnlyA, rep.OnlyB, rep.Changed, rep.First, rep.Top)
					}
					if rep.Matched != r.Recorded() {
						t.Errorf("matched %d nodes, the run has %d recorded (%d rows with the run node's)", rep.Matched, r.Recorded(), r.Rows)
					}
					for _, p := range rep.Plies {
						if p.NodesA != p.NodesB || p.QSNodesA != p.QSNodesB {
							t.Errorf("ply %d: %+v", p.Ply, p)
						}
					}
				})
			}
		})
	}
}

// TestAlignRunNodeIsNoDifference: B searched one iteration more than A,
// which matches B's first iterations. The first difference was the run
// nodes' pair ("at (root): depth A 2, B 3", their totals), before the
// iteration only B has; the run node is no position, as in Matched and
// Changed.
func TestAlignRunNodeIsNoDifference(t *testing.T) {
	st, _ := tracetest.CreateTrace(t)
	o := tracetest.VariantOptions(t, "captures")
	a := tracetest.RecordSearch(t, st, kiwipete, o, engine.Limits{Depth: 2})
	b := tracetest.RecordSearch(t, st, kiwipete, o, engine.Limits{Depth: 3})
	rep, err := Align(context.Background(), Side{st, a}, Side{st, b}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.OnlyA != 0 || rep.OnlyB == 0 || rep.Changed != 0 {
		t.Fatalf("only A %d, only B %d, changed %d: want B's third iteration only in B, nothing else", rep.OnlyA, rep.OnlyB, rep.Changed)
	}
	if f := rep.First; f == nil || f.A != nil || f.B == nil || f.Iteration != 3 || len(f.Path) != 0 {
		t.Errorf("first difference %+v, want B's iteration 3 root", f)
	}
}

// goldenReport is a report with the fields that change from run to run
// (times, file names) cleared.
func goldenReport(rep *Report) []byte {
	r := *rep
	for _, tot := range []*Totals{&r.A, &r.B} {
		zero := int64(0)
		tot.ElapsedMS, tot.File = &zero, ""
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		panic(err)
	}
	return append(b, '\n')
}

func TestAlignGolden(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		golden string
		fen    string
		a, b   string
		depth  int
	}{
		{"diff_kiwipete_captures_see.golden", kiwipete, "captures", "see", 3},
		{"diff_kiwipete_mvv-lva_threshold.golden", kiwipete, "mvv-lva", "threshold", 2},
		// The root scores differ (-455 and 26): the run nodes' pair,
		// which is no position, was counted changed though not matched.
		{"diff_kiwipete_none_captures.golden", kiwipete, "none", "captures", 1},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			st, _ := tracetest.CreateTrace(t)
			a := tracetest.RecordSearch(t, st, tc.fen, tracetest.VariantOptions(t, tc.a), engine.Limits{Depth: tc.depth})
			b := tracetest.RecordSearch(t, st, tc.fen, tracetest.VariantOptions(t, tc.b), engine.Limits{Depth: tc.depth})
			rep, err := Align(ctx, Side{st, a}, Side{st, b}, Options{Top: 8, Changed: 5})
			if err != nil {
				t.Fatal(err)
			}
			checkCounts(t, ctx, st, a, b, rep)
			got := goldenReport(rep)
			golden.Check(t, filepath.Join("testdata", tc.golden), got)
		})
	}
}

// checkCounts checks the report's bookkeeping against the runs: every
// node (every row but the run node's) is matched or counted on one side,
// and each top subtree's sizes are the nodes' sizes.
func checkCounts(t *testing.T, ctx context.Context, st *trace.Store, a, b int64, rep *Report) {
	t.Helper()
	if rep.Matched+rep.OnlyA != rep.A.Rows-1 {
		t.Errorf("matched %d + only A %d != A's %d nodes recorded", rep.Matched, rep.OnlyA, rep.A.Rows-1)
	}
	if rep.Matched+rep.OnlyB != rep.B.Rows-1 {
		t.Errorf("matched %d + only B %d != B's %d nodes recorded", rep.Matched, rep.OnlyB, rep.B.Rows-1)
	}
	if rep.Identical() {
		t.Errorf("two variants gave identical trees")
	}
	// Changed counts what Matched counts: positions, not the run node.
	if rep.Changed > rep.Matched {
		t.Errorf("%d changed nodes of %d matched", rep.Changed, rep.Matched)
	}
	// Where the searches part, the reason names A's node by its place as
	// diff prints one, which --path reads back; it wrote "[Bxa6 bxc3
	// Qxf6] (iteration 1)".
	if f := rep.First; f != nil && f.A != nil && strings.HasPrefix(f.Reason, "the searches part") {
		if place := rep.Place(f.Root(), f.Path, f.Visits, f.Searches); !strings.Contains(f.Reason, "A enters "+place+",") {
			t.Errorf("the parting's reason does not name A's node as %q: %s", place, f.Reason)
		}
	}
	for _, d := range rep.ChangedNodes {
		if d.A == nil || d.A.ID == 0 || len(d.Path) == 0 {
			t.Errorf("changed nodes list the run node, or a node of one side: %+v", d)
		}
	}
	for _, s := range rep.Top {
		if s.IDA != nil {
			n, err := st.Node(ctx, a, *s.IDA)
			if err != nil || n.SubtreeSize != s.NodesA {
				t.Errorf("top %v: node %d of A: %v, size %d, report says %d", s.Path, *s.IDA, err, n.SubtreeSize, s.NodesA)
			}
		}
		if s.IDB != nil {
			n, err := st.Node(ctx, b, *s.IDB)
			if err != nil || n.SubtreeSize != s.NodesB {
				t.Errorf("top %v: node %d of B: %v, size %d, report says %d", s.Path, *s.IDB, err, n.SubtreeSize, s.NodesB)
			}
			// The viewer's lookup agrees with the walk.
			if s.IDA != nil {
				got, ok, err := Counterpart(ctx, Side{st, a}, *s.IDA, Side{st, b})
				if err != nil || !ok || got.ID != *s.IDB {
					t.Errorf("Counterpart(A %d) = %d, %v, %v; the walk matched B %d", *s.IDA, got.ID, ok, err, *s.IDB)
				}
			}
		}
		if s.Diff != s.NodesB-s.NodesA {
			t.Errorf("top %v: diff %d, sizes %d and %d", s.Path, s.Diff, s.NodesA, s.NodesB)
		}
	}
}

// TestAlignChunking reads the same pair of runs with tiny chunks (child
// lists from Children queries) and with the default (from streamed
// subtrees): the reports must be the same.
func TestAlignChunking(t *testing.T) {
	ctx := context.Background()
	st, _ := tracetest.CreateTrace(t)
	a := tracetest.RecordSearch(t, st, kiwipete, tracetest.VariantOptions(t, "unified"), engine.Limits{Depth: 2})
	b := tracetest.RecordSearch(t, st, kiwipete, tracetest.VariantOptions(t, "threshold"), engine.Limits{Depth: 2})
	want, err := Align(ctx, Side{st, a}, Side{st, b}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func(old int) { chunkNodes = old }(chunkNodes)
	for _, chunk := range []int{3, 300} {
		chunkNodes = chunk
		got, err := Align(ctx, Side{st, a}, Side{st, b}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if g, w := goldenReport(got), goldenReport(want); !bytes.Equal(g, w) {
			t.Errorf("chunk %d: report differs:\n%s\nwant:\n%s", chunk, g, w)
		}
	}
}

// TestPairReaderChunking: the diff page's walk reads the same pairs
// through a PairReader, with tiny chunks (child lists from Children
// queries), small and default ones (cut from streamed subtrees), as
// through AlignChildren's queries.
func TestPairReaderChunking(t *testing.T) {
	ctx := context.Background()
	st, _ := tracetest.CreateTrace(t)
	sa := Side{st, tracetest.RecordSearch(t, st, kiwipete, tracetest.VariantOptions(t, "unified"), engine.Limits{Depth: 1})}
	sb := Side{st, tracetest.RecordSearch(t, st, kiwipete, tracetest.VariantOptions(t, "threshold"), engine.Limits{Depth: 1})}
	_, ra, err := sa.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	_, rb, err := sb.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	text := func(n *trace.Node) string {
		if n == nil {
			return "-"
		}
		return fmt.Sprintf("%+v", *n)
	}
	// walk lists every pair depth first, in the page's order; ahead, if
	// not nil, is called with a pair's children before the walk takes
	// them, and what it returns when it leaves them.
	walk := func(children func(na, nb *trace.Node) ([]Pair, error), ahead func([]Pair) func()) []string {
		var out []string
		var rec func(na, nb *trace.Node)
		rec = func(na, nb *trace.Node) {
			pairs, err := children(na, nb)
			if err != nil {
				t.Fatal(err)
			}
			if ahead != nil {
				defer ahead(pairs)()
			}
			for _, p := range pairs {
				out = append(out, fmt.Sprintf("%+v %s %s", p.Key, text(p.A), text(p.B)))
				rec(p.A, p.B)
			}
		}
		rec(&ra, &rb)
		return out
	}
	want := walk(func(na, nb *trace.Node) ([]Pair, error) {
		idA, idB := int64(-1), int64(-1)
		if na != nil {
			idA = na.ID
		}
		if nb != nil {
			idB = nb.ID
		}
		return AlignChildren(ctx, sa, idA, sb, idB)
	}, nil)
	defer func(old int) { chunkNodes = old }(chunkNodes)
	for _, chunk := range []int{3, 300, chunkNodes} {
		for _, readAhead := range []bool{false, true} {
			chunkNodes = chunk
			r := NewPairReader(sa, sb)
			hits := 0 // children handed over by a read-ahead
			children := func(na, nb *trace.Node) ([]Pair, error) {
				if na != nil && r.a.next(*na) != nil {
					hits++
				}
				if nb != nil && r.b.next(*nb) != nil {
					hits++
				}
				return r.Children(ctx, na, nb)
			}
			var ahead func([]Pair) func()
			if readAhead {
				ahead = func(ps []Pair) func() { return r.ReadAhead(ctx, ps) }
			}
			got := walk(children, ahead)
			if len(got) != len(want) || len(want) < 500 {
				t.Fatalf("chunk %d, read-ahead %v: %d pairs, AlignChildren %d", chunk, readAhead, len(got), len(want))
			}
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("chunk %d, read-ahead %v: pair %d is\n%s\nAlignChildren's\n%s", chunk, readAhead, i, got[i], want[i])
				}
			}
			// Small chunks leave children of big nodes to be read as
			// chunks of their own: ahead when asked to. The default
			// holds the whole tree.
			if wantHits := readAhead && chunk <= 300; (hits > 0) != wantHits {
				t.Errorf("chunk %d, read-ahead %v: %d child lists from a read-ahead", chunk, readAhead, hits)
			}
		}
	}
}

func TestCounterpartSelf(t *testing.T) {
	ctx := context.Background()
	st, _ := tracetest.CreateTrace(t)
	other, _ := tracetest.CreateTrace(t)
	o := tracetest.VariantOptions(t, "threshold")
	a := tracetest.RecordSearch(t, st, kiwipete, o, engine.Limits{Depth: 2})
	b := tracetest.RecordSearch(t, other, kiwipete, o, engine.Limits{Depth: 2})
	var ids []int64
	err := st.Subtree(ctx, a, 0, -1, func(n trace.Node) error {
		if n.ID%101 == 0 || n.Kind == engine.KindRoot {
			ids = append(ids, n.ID)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Look nodes up after the walk (not while its query is open).
	for _, id := range ids {
		got, ok, err := Counterpart(ctx, Side{st, a}, id, Side{other, b})
		if err != nil || !ok || got.ID != id {
			t.Fatalf("Counterpart(%d) = %d, %v, %v; want the same id in a re-recording", id, got.ID, ok, err)
		}
	}
	pairs, err := AlignChildren(ctx, Side{st, a}, 0, Side{other, b}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(pairs) != 2 {
		t.Fatalf("run node: %d pairs, want one per iteration (2)", len(pairs))
	}
	for _, p := range pairs {
		if p.A == nil || p.B == nil || p.A.ID != p.B.ID {
			t.Errorf("iteration pair %+v not matched", p.Key)
		}
	}
}

func TestAlignErrors(t *testing.T) {
	ctx := context.Background()
	st, _ := tracetest.CreateTrace(t)
	o := tracetest.VariantOptions(t, "captures")
	a := tracetest.RecordSearch(t, st, kiwipete, o, engine.Limits{Depth: 1})
	b := tracetest.RecordSearch(t, st, engine.StartFEN, o, engine.Limits{Depth: 1})
	if _, err := Align(ctx, Side{st, a}, Side{st, b}, Options{}); !errors.Is(err, ErrDifferentPositions) {
		t.Errorf("different positions: err = %v, want ErrDifferentPositions", err)
	}
	if _, err := Align(ctx, Side{st, a}, Side{st, 99}, Options{}); !errors.Is(err, trace.ErrNoRun) {
		t.Errorf("unknown run: err = %v, want trace.ErrNoRun", err)
	}
	if _, _, err := Counterpart(ctx, Side{st, a}, 1<<20, Side{st, a}); !errors.Is(err, trace.ErrNoNode) {
		t.Errorf("unknown node: err = %v, want trace.ErrNoNode", err)
	}
}

// TestAlignFiltered lines up runs a recording filter thinned out against
// the full run of the same search: every row of the filtered run matches,
// nothing differs, and the left-out part shows as only in the full run.
func TestAlignFiltered(t *testing.T) {
	ctx := context.Background()
	st, _ := tracetest.CreateTrace(t)
	o := tracetest.VariantOptions(t, "captures")
	lim := engine.Limits{Depth: 3}
	full := tracetest.RecordSearch(t, st, kiwipete, o, lim)
	for _, tc := range []struct {
		name  string
		ro    trace.RecordOptions
		first string
	}{
		// What A did not record it may have searched: said so, not
		// "only in B" (it read "iteration 1 is only in B").
		{"last iteration", trace.RecordOptions{LastIterationOnly: true}, "iteration 1 is recorded only in B (A's recording filter: last-iteration)"},
		{"under a path", trace.RecordOptions{Under: []string{"dxe6"}}, "is recorded only in B (A's recording filter: under "},
		// The roots of the iterations begun past the cap are kept, and
		// the filter says so (trace.Run.FilterText).
		{"first nodes", trace.RecordOptions{MaxNodes: 300, KeepSearching: true}, "is recorded only in B (A's recording filter: first 300 nodes and 2 later iteration roots)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := tracetest.RecordSearch(t, st, kiwipete, o, lim, tc.ro)
			rep, err := Align(ctx, Side{st, run}, Side{st, full}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !rep.Filtered || rep.Matched != rep.A.Rows-1 || rep.OnlyA != 0 || rep.Changed != 0 || rep.OnlyB != rep.B.Rows-rep.A.Rows {
				t.Errorf("filtered %v: matched %d of %d rows, only A %d, only B %d (full run %d rows), changed %d",
					rep.Filtered, rep.Matched, rep.A.Rows, rep.OnlyA, rep.OnlyB, rep.B.Rows, rep.Changed)
			}
			if rep.First == nil || !strings.Contains(rep.First.Reason, tc.first) {
				t.Errorf("first difference %+v, want %q", rep.First, tc.first)
			}
			chk, err := check.Run(ctx, st, run, check.Options{})
			if err != nil || chk.Count != 0 {
				t.Errorf("check of the filtered run: %v, %+v", err, chk)
			}
		})
	}
}

// TestTreeReadAhead: subtrees a walk plans to read (tree.plan) come from
// the read-ahead, in the order planned, the same as read when asked; a
// node asked out of turn is read then; stopping part-way ends the
// goroutine (the test's leak check is the race detector's and -count).
func TestTreeReadAhead(t *testing.T) {
	ctx := context.Background()
	side, kids := lastIterationKids(t, ctx)
	// Each child is a chunk of its own: the parent is bigger than one.
	plain := &tree{Side: side, chunk: 1 << 30}
	want := map[int64][]trace.Node{}
	var big []trace.Node
	for _, k := range kids {
		if k.SubtreeSize > 1 {
			big = append(big, k)
			var err error
			if want[k.ID], err = plain.children(ctx, k); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(big) < 4 {
		t.Fatalf("%d children with subtrees; the test wants 4", len(big))
	}
	chunk := 0
	for _, k := range big {
		chunk = max(chunk, int(k.SubtreeSize))
	}
	slices.Reverse(big) // not the search order
	tr := &tree{Side: side, chunk: chunk, spare: make(chan []trace.Node, 2)}
	stop := tr.plan(ctx, big)
	if len(tr.ahead) != 1 {
		t.Fatalf("%d read-aheads planned, want 1", len(tr.ahead))
	}
	for i, k := range big[:len(big)-1] {
		if i == 1 {
			continue // skipped: the rest are read when asked
		}
		fromAhead := tr.next(k) != nil
		if wantAhead := i == 0; fromAhead != wantAhead {
			t.Errorf("child %d (node %d): from the read-ahead %v, want %v", i, k.ID, fromAhead, wantAhead)
		}
		got, err := tr.children(ctx, k)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want[k.ID]) {
			t.Errorf("node %d: children differ from a plain read", k.ID)
		}
	}
	stop()
	if len(tr.ahead) != 0 {
		t.Errorf("%d read-aheads left after stop", len(tr.ahead))
	}
}

// TestTreeReadAheadCancelled: a walk whose context ends while it waits
// for a chunk the read-ahead will not read gets the context's error; it
// waited for ever (a diff interrupted at the wrong moment hung, and a
// diff page whose Align failed beside it).
func TestTreeReadAheadCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	side, kids := lastIterationKids(t, ctx)
	var big []trace.Node
	chunk := 0
	for _, k := range kids {
		if k.SubtreeSize > 1 {
			big = append(big, k)
			chunk = max(chunk, int(k.SubtreeSize))
		}
	}
	if len(big) < 2 {
		t.Fatalf("%d children with subtrees; the test wants 2", len(big))
	}
	tr := &tree{Side: side, chunk: chunk, spare: make(chan []trace.Node, 2)}
	stop := tr.plan(ctx, big)
	defer stop()
	ra := tr.next(big[0])
	if ra == nil {
		t.Fatal("no read-ahead planned")
	}
	cancel()
	<-ra.done // the reader has given up: it sends nothing more
	got := make(chan error, 1)
	go func() {
		_, err := tr.children(ctx, big[0])
		got <- err
	}()
	select {
	case err := <-got:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("children after the cancel: %v, want context.Canceled", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("children still waits for the read-ahead a minute after the cancel")
	}
}

// lastIterationKids records a captures search of Kiwipete to depth 3 and
// returns its side and the children of its last iteration's root.
func lastIterationKids(t *testing.T, ctx context.Context) (Side, []trace.Node) {
	t.Helper()
	st, _ := tracetest.CreateTrace(t)
	run := tracetest.RecordSearch(t, st, kiwipete, tracetest.VariantOptions(t, "captures"), engine.Limits{Depth: 3})
	side := Side{st, run}
	root, err := st.Node(ctx, run, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, its, err := childList(ctx, side, root.ID)
	if err != nil {
		t.Fatal(err)
	}
	_, kids, err := childList(ctx, side, its[len(its)-1].ID)
	if err != nil {
		t.Fatal(err)
	}
	return side, kids
}
