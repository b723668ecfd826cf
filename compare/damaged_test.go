package compare

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/horizonqs/horizon/check"
	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
	"github.com/horizonqs/horizon/trace/tracetest"
)

// Bounds a reader must keep on a damaged trace of a few thousand rows.
const (
	damagedTime = 20 * time.Second
	damagedHeap = 512 << 20
)

// damage changes node_rows of a closed trace file: set is the SET clause,
// in which {id} stands for the node id column; the rows changed are node
// id of run, or with from every row of the run from it on. It writes the
// SQL for either key of node_rows (schema 1: k = run << 32 | id; schema 2:
// run_id, id).
func damage(t *testing.T, path string, run, id int64, set string, from bool) {
	t.Helper()
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var hasK bool
	if err := db.QueryRow("SELECT count(*) > 0 FROM pragma_table_info('node_rows') WHERE name = 'k'").Scan(&hasK); err != nil {
		t.Fatal(err)
	}
	op := "="
	if from {
		op = ">="
	}
	var q string
	if hasK {
		q = "UPDATE node_rows SET " + strings.ReplaceAll(set, "{id}", "(k & 4294967295)") +
			fmt.Sprintf(" WHERE k %s %d AND k >> 32 = %d", op, run<<32|id, run)
	} else {
		q = "UPDATE node_rows SET " + strings.ReplaceAll(set, "{id}", "id") +
			fmt.Sprintf(" WHERE run_id = %d AND id %s %d", run, op, id)
	}
	res, err := db.Exec(q)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := res.RowsAffected(); n < 1 {
		t.Fatalf("%s: no row changed", q)
	}
}

// damagedTrace records a small search, picks a node with pick among the
// last iteration's nodes, damages its row and reopens the file.
func damagedTrace(t *testing.T, pick func(trace.Node) bool, set string) (*trace.Store, int64, trace.Node) {
	t.Helper()
	ctx := context.Background()
	st, path := tracetest.CreateTrace(t)
	run := tracetest.RecordSearch(t, st, tracetest.Kiwipete, tracetest.VariantOptions(t, "captures"), engine.Limits{Depth: 3})
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
	damage(t, path, run, target.ID, strings.TrimPrefix(set, ">= "), strings.HasPrefix(set, ">= "))
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
	checked := traceChecksSizes(t)
	qsInner := func(n trace.Node) bool { return n.Kind == engine.KindQS && n.SubtreeSize > 2 && n.Ply > 2 }
	leaf := func(n trace.Node) bool { return n.Kind == engine.KindQS && n.SubtreeSize == 1 && n.Ply > 3 }
	for _, tc := range []struct {
		name string
		pick func(trace.Node) bool
		set  string // see damage; ">= " first: the node and every later row
		want string // in the error; %d is the node id
	}{
		{"negative size of a leaf", leaf, "size = -5", "node %d has subtree size -5"},
		{"zero size of a leaf", leaf, "size = 0", "node %d has subtree size 0"},
		{"negative size of an inner node", qsInner, "size = -5", "node %d has subtree size -5"},
		{"zero size of an inner node", qsInner, "size = 0", "node %d has subtree size 0"},
		{"size past the parent", qsInner, "size = 1 << 20", "node %d "},
		{"size past the id space", leaf, "size = 1 << 40", "node %d has subtree size"},
	} {
		for _, chunk := range []int{chunkNodes, 4} {
			t.Run(fmt.Sprintf("%s/chunk %d", tc.name, chunk), func(t *testing.T) {
				defer func(c int) { chunkNodes = c }(chunkNodes)
				chunkNodes = chunk
				if chunk < 16 && tc.name == "zero size of an inner node" && !checked {
					t.Skip("trace's child walk does not check subtree sizes yet (the trace package's part of issue 17 item 1)")
				}
				st, run, n := damagedTrace(t, tc.pick, tc.set)
				side := Side{st, run}
				err := tracetest.Bounded(t, "diff", damagedTime, damagedHeap, func(ctx context.Context) error {
					_, err := Align(ctx, side, side, Options{})
					return err
				})
				if err == nil {
					t.Fatalf("diff of a trace with damaged node %d: no error", n.ID)
				}
				if !errors.Is(err, trace.ErrCorrupt) {
					t.Errorf("error %q does not wrap trace.ErrCorrupt", err)
				}
				// The trace package or diff's own checks may see the damage
				// first; either says the trace is damaged and where.
				if want := fmt.Sprintf(tc.want, n.ID); !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "damaged trace") {
					t.Errorf("error %q, want it to contain %q", err, want)
				}
			})
		}
	}
}

// A cancelled context stops diff promptly (Ctrl-C, SIGTERM).
func TestAlignHonoursCancel(t *testing.T) {
	st, _ := tracetest.CreateTrace(t)
	run := tracetest.RecordSearch(t, st, tracetest.Kiwipete, tracetest.VariantOptions(t, "captures"), engine.Limits{Depth: 3})
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
		name string
		pick func(trace.Node) bool
		set  string
		rule string
	}{
		{"own parent", leaf, "up = 0", check.RuleStructure},
		{"own parent, inner node", inner, "up = 0", check.RuleStructure},
		{"parent after the node", leaf, "up = -3", check.RuleStructure},
		{"parent before the run", leaf, "up = 1 << 33", check.RuleStructure},
		{"negative size", inner, "size = -5", check.RuleSize},
		{"zero size", leaf, "size = 0", check.RuleSize},
		{"every size to the end of the run", inner, ">= size = 4294967295 - {id}", check.RuleSize},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, run, n := damagedTrace(t, tc.pick, tc.set)
			var rep *check.Report
			err := tracetest.Bounded(t, "check", damagedTime, damagedHeap, func(ctx context.Context) error {
				var err error
				rep, err = check.Run(ctx, st, run, check.Options{})
				return err
			})
			// The trace package may refuse the row itself (a damaged-trace
			// error naming it); otherwise the damage is a violation there.
			if err != nil {
				if !errors.Is(err, trace.ErrCorrupt) || !strings.Contains(err.Error(), "damaged trace") || !strings.Contains(err.Error(), "node ") {
					t.Fatalf("check: %v, want a violation at node %d or a damaged-trace error naming a node", err, n.ID)
				}
				return
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

// traceChecksSizes reports whether trace's read API refuses a child list
// with a subtree size of 0 (issue 17 gives that to the trace package). Its
// child walk hops by sizes in SQL, where no reader can guard it, so the
// cases that reach that walk need it.
func traceChecksSizes(t *testing.T) bool {
	t.Helper()
	st, run, n := damagedTrace(t, func(n trace.Node) bool { return n.SubtreeSize > 2 && n.Ply > 2 }, "size = 0")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err := st.Children(ctx, run, n.Parent, trace.BySearch, 0, 0)
	return errors.Is(err, trace.ErrCorrupt)
}

// TestLiveRunNotDamaged: diff and the pair readers read a run being
// recorded though it grows between their reads. They checked a node's
// children against the node as read before them, so the last child,
// still open and grown since, ran past it and a sound run was called
// damaged ("node N has subtree size S, which runs past its parent 0's
// subtree").
func TestLiveRunNotDamaged(t *testing.T) {
	st, _ := tracetest.CreateTrace(t)
	run := tracetest.RecordSearch(t, st, tracetest.Kiwipete, tracetest.VariantOptions(t, "captures"), engine.Limits{Depth: 3})
	ctx := context.Background()
	root, err := st.Node(ctx, run, 0)
	if err != nil {
		t.Fatal(err)
	}
	// A node under the last iteration, in the first read's commit (see
	// Growing): the nodes above it are open and grow.
	deep := root.End() - 60
	for _, tc := range []struct {
		name string
		read func(ctx context.Context, s Side) error
	}{
		{"diff", func(ctx context.Context, s Side) error {
			_, err := Align(ctx, s, s, Options{})
			return err
		}},
		{"pair reader", func(ctx context.Context, s Side) error {
			root, err := s.Store.Node(ctx, s.Run, 0)
			if err != nil {
				return err
			}
			_, err = NewPairReader(s, s).Children(ctx, &root, &root)
			return err
		}},
		{"align children", func(ctx context.Context, s Side) error {
			_, err := AlignChildren(ctx, s, 0, s, 0)
			return err
		}},
		{"counterpart", func(ctx context.Context, s Side) error {
			n, ok, err := Counterpart(ctx, s, deep, s)
			if err == nil && (!ok || n.ID != deep) {
				err = fmt.Errorf("counterpart of node %d: %d, %v", deep, n.ID, ok)
			}
			return err
		}},
	} {
		for _, chunk := range []int{chunkNodes, 4} {
			t.Run(fmt.Sprintf("%s/chunk %d", tc.name, chunk), func(t *testing.T) {
				defer func(c int) { chunkNodes = c }(chunkNodes)
				chunkNodes = chunk
				s := Side{&tracetest.Growing{Reader: st, Behind: 50}, run}
				if err := tc.read(ctx, s); err != nil {
					t.Errorf("%s of a run being recorded: %v", tc.name, err)
				}
			})
		}
	}
}
