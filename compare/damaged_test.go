package compare

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// Bounds a reader must keep on a damaged trace of a few thousand rows.
const (
	damagedTime = 20 * time.Second
	damagedHeap = 512 << 20
)

// bounded runs fn with a context that is cancelled after damagedTime, or
// as soon as the heap grows past damagedHeap, and fails the test in either
// case: a reader on a damaged file must end on its own, with an error or a
// result, in bounded time and memory.
func bounded(t *testing.T, what string, fn func(ctx context.Context) error) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), damagedTime)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- fn(ctx) }()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	var ms runtime.MemStats
	for {
		select {
		case err := <-done:
			if ctx.Err() != nil {
				t.Fatalf("%s: still running after %v (%v)", what, damagedTime, err)
			}
			return err
		case <-tick.C:
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > damagedHeap {
				cancel()
				<-done
				t.Fatalf("%s: heap grew to %d MB", what, ms.HeapAlloc>>20)
			}
		}
	}
}

// damage runs an UPDATE on node_rows of a closed trace file; ?1 is the
// row's key (run << 32 | id).
func damage(t *testing.T, path string, run, id int64, update string) {
	t.Helper()
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	res, err := db.Exec(update, run<<32|id)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := res.RowsAffected(); n < 1 {
		t.Fatalf("%s: no row changed", update)
	}
}

// damagedTrace records a small search, picks a node with pick among the
// last iteration's nodes, damages its row and reopens the file.
func damagedTrace(t *testing.T, pick func(trace.Node) bool, update string) (*trace.Store, int64, trace.Node) {
	t.Helper()
	ctx := context.Background()
	st, path := createTrace(t)
	run := recordSearch(t, st, kiwipete, variantOptions(t, "captures"), engine.Limits{Depth: 3})
	roots, err := st.Children(ctx, run, 0, trace.BySearch, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var target trace.Node
	err = st.Subtree(ctx, run, roots[len(roots)-1].ID, -1, func(n trace.Node) error {
		if pick(n) {
			target = n
			return errFound
		}
		return nil
	})
	if !errors.Is(err, errFound) {
		t.Fatalf("no node to damage (%v)", err)
	}
	st.Close()
	damage(t, path, run, target.ID, update)
	st, err = trace.OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st, run, target
}

var errFound = errors.New("found")

// Issue 17 item 1: diff on a node whose subtree size is 0 or negative grew
// without bound and ignored Ctrl-C. Every damage here must give an error
// naming the node (or a result), in bounded time and memory, with both
// ways of reading a subtree (one streamed chunk, child list by child list).
func TestAlignDamagedSizes(t *testing.T) {
	qsInner := func(n trace.Node) bool { return n.Kind == engine.KindQS && n.SubtreeSize > 2 && n.Ply > 2 }
	leaf := func(n trace.Node) bool { return n.Kind == engine.KindQS && n.SubtreeSize == 1 && n.Ply > 3 }
	for _, tc := range []struct {
		name   string
		pick   func(trace.Node) bool
		update string
		want   string // in the error; %d is the node id
	}{
		{"negative size of a leaf", leaf, "UPDATE node_rows SET size = -5 WHERE k = ?1", "damaged trace: node %d has subtree size -5"},
		{"zero size of a leaf", leaf, "UPDATE node_rows SET size = 0 WHERE k = ?1", "damaged trace: node %d has subtree size 0"},
		{"negative size of an inner node", qsInner, "UPDATE node_rows SET size = -5 WHERE k = ?1", "damaged trace: node %d has subtree size -5"},
		{"zero size of an inner node", qsInner, "UPDATE node_rows SET size = 0 WHERE k = ?1", "damaged trace: node %d has subtree size 0"},
		{"size past the parent", qsInner, "UPDATE node_rows SET size = 1 << 20 WHERE k = ?1", "damaged trace: node %d has subtree size 1048576"},
		{"size past the id space", leaf, "UPDATE node_rows SET size = 1 << 40 WHERE k = ?1", "damaged trace: node %d has subtree size"},
	} {
		for _, chunk := range []int{chunkNodes, 4} {
			t.Run(fmt.Sprintf("%s/chunk %d", tc.name, chunk), func(t *testing.T) {
				defer func(c int) { chunkNodes = c }(chunkNodes)
				chunkNodes = chunk
				st, run, n := damagedTrace(t, tc.pick, tc.update)
				side := Side{st, run}
				err := bounded(t, "diff", func(ctx context.Context) error {
					_, err := Align(ctx, side, side, Options{})
					return err
				})
				if err == nil {
					t.Fatalf("diff of a trace with damaged node %d: no error", n.ID)
				}
				if !errors.Is(err, trace.ErrCorrupt) {
					t.Errorf("error %q does not wrap trace.ErrCorrupt", err)
				}
				if want := fmt.Sprintf(tc.want, n.ID); !strings.Contains(err.Error(), want) {
					t.Errorf("error %q, want it to contain %q", err, want)
				}
			})
		}
	}
}

// A cancelled context stops diff promptly (Ctrl-C, SIGTERM).
func TestAlignHonoursCancel(t *testing.T) {
	st, _ := createTrace(t)
	run := recordSearch(t, st, kiwipete, variantOptions(t, "captures"), engine.Limits{Depth: 3})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Align(ctx, Side{st, run}, Side{st, run}, Options{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Align with a cancelled context: %v, want context.Canceled", err)
	}
}

// Issue 17 item 7: check looped forever on a node that is its own parent.
// Damaged parents and sizes are violations, found in bounded time.
func TestCheckDamagedParents(t *testing.T) {
	inner := func(n trace.Node) bool { return n.Kind == engine.KindQS && n.SubtreeSize > 2 && n.Ply > 2 }
	leaf := func(n trace.Node) bool { return n.Kind == engine.KindQS && n.SubtreeSize == 1 && n.Ply > 3 }
	for _, tc := range []struct {
		name   string
		pick   func(trace.Node) bool
		update string
		rule   string
	}{
		{"own parent", leaf, "UPDATE node_rows SET up = 0 WHERE k = ?1", RuleStructure},
		{"own parent, inner node", inner, "UPDATE node_rows SET up = 0 WHERE k = ?1", RuleStructure},
		{"parent after the node", leaf, "UPDATE node_rows SET up = -3 WHERE k = ?1", RuleStructure},
		{"parent before the run", leaf, "UPDATE node_rows SET up = 1 << 33 WHERE k = ?1", RuleStructure},
		{"negative size", inner, "UPDATE node_rows SET size = -5 WHERE k = ?1", RuleSize},
		{"zero size", leaf, "UPDATE node_rows SET size = 0 WHERE k = ?1", RuleSize},
		{"every size to the end of the run", inner, "UPDATE node_rows SET size = 4294967295 - (k & 4294967295) WHERE k >= ?1", RuleSize},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, run, n := damagedTrace(t, tc.pick, tc.update)
			var rep *CheckReport
			err := bounded(t, "check", func(ctx context.Context) error {
				var err error
				rep, err = Check(ctx, st, run, CheckOptions{})
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, v := range rep.Violations {
				found = found || (v.Node == n.ID && v.Rule == tc.rule)
			}
			if !found {
				t.Errorf("no %s violation at node %d: %+v", tc.rule, n.ID, rep.Violations)
			}
		})
	}
}
