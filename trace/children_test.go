package trace

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/horizonqs/horizon/engine"
)

// childListTraces records a file of five runs (captures, threshold, one
// filtered under a move, one capped, each with a parent index, and a run
// too small for one) and a copy with damaged rows: a row naming the node
// whose subtree ends before it as its parent, rows naming a wrong parent,
// sizes 0 and a size too big.
func childListTraces(t *testing.T) (path, damaged string) {
	t.Helper()
	ctx := context.Background()
	defer func(n int64) { parentIndexMinRows = n }(parentIndexMinRows)
	parentIndexMinRows = 1
	s, path := mustCreate(t)
	for _, c := range []struct {
		variant string
		opts    RecordOptions
	}{
		{"captures", RecordOptions{}},
		{"threshold", RecordOptions{}},
		{"captures", RecordOptions{Under: []string{"dxe6"}}},
		{"captures", RecordOptions{MaxNodes: 300, KeepSearching: true}},
	} {
		searchInto(t, ctx, s, kiwipeteFEN, c.variant, engine.Limits{Depth: 2}, c.opts)
	}
	parentIndexMinRows = 1 << 40
	searchInto(t, ctx, s, kiwipeteFEN, "captures", engine.Limits{Depth: 1}, RecordOptions{})
	// The row right after a subtree claims its top as parent: the hop
	// never reaches it.
	var after string
	for id := int64(100); after == ""; id++ {
		n, err := s.Node(ctx, 1, id)
		if err != nil {
			t.Fatal(err)
		}
		if n.SubtreeSize > 1 {
			after = fmt.Sprintf("UPDATE node_rows SET up = id - %d WHERE run_id = 1 AND id = %d", n.ID, n.End())
		}
	}
	s.Close()
	damaged = copyTrace(t, path, "damaged.trace")
	plant(t, damaged, after,
		"UPDATE node_rows SET up = up + 1 WHERE run_id = 1 AND id IN (30, 500, 2000) AND up > 1",
		"UPDATE node_rows SET size = 0 WHERE run_id = 2 AND id IN (40, 700)",
		"UPDATE node_rows SET size = size + 3 WHERE run_id = 2 AND id = 1500")
	return path, damaged
}

// eachChildListRun calls fn with each run of childListTraces' two files,
// as a parallel subtest per file, each file open read-only.
func eachChildListRun(t *testing.T, fn func(t *testing.T, st *Store, r Run, damaged bool)) {
	path, damaged := childListTraces(t)
	for _, file := range []struct {
		name   string
		path   string
		damage bool
	}{{"recorded", path, false}, {"damaged", damaged, true}} {
		t.Run(file.name, func(t *testing.T) {
			t.Parallel()
			st, err := OpenReadOnly(file.path)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			runs, err := st.Runs(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range runs {
				fn(t, st, r, file.damage)
			}
		})
	}
}

// TestIndexedChildren: a child list read through the run's parent index
// is the one the hop reads, errors included, on whole runs (where the
// index is taken for every node with children), runs a recording filter
// left gaps in, rows naming a wrong parent and damaged sizes (where it
// is not taken, and the hop finds what it always found); a run without an
// index is asked for one once.
func TestIndexedChildren(t *testing.T) {
	ctx := context.Background()
	// whole: the runs whose every list must come through the index.
	whole := map[int64]bool{1: true, 2: true}
	eachChildListRun(t, func(t *testing.T, st *Store, r Run, damaged bool) {
		its, err := st.iterations(ctx, r.ID)
		if err != nil {
			t.Fatal(err)
		}
		indexed := 0
		for id := int64(0); id < r.Rows+8; id++ {
			n, err := st.Node(ctx, r.ID, id)
			if err != nil {
				continue
			}
			got, gotErr := st.childrenOf(ctx, n, BySearch, 0, 0)
			want, wantErr := st.hoppedChildren(ctx, n, its)
			if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) && len(got)+len(want) > 0 {
				t.Fatalf("run %d node %d: read %d children (%v), the hop %d (%v)", r.ID, id, len(got), gotErr, len(want), wantErr)
			}
			if _, ok := st.indexedChildren(ctx, n, its); ok {
				indexed++
			} else if len(want) > 0 && whole[r.ID] && !damaged {
				t.Errorf("run %d node %d: its %d children were not read through the index", r.ID, id, len(want))
			}
		}
		_, unindexed := st.unindexed.Load(r.ID)
		if r.ID == 5 && (indexed > 0 || !unindexed) {
			t.Errorf("run 5 has no parent index, but %d lists were read through one (unindexed %v)", indexed, unindexed)
		}
		if r.ID != 5 && indexed == 0 {
			t.Errorf("run %d: no list was read through its parent index", r.ID)
		}
		t.Logf("run %d (%s, %d rows): %d lists through the index", r.ID, r.Variant, r.Rows, indexed)
	})
}

// pathCounter counts the paths read through it.
type pathCounter struct {
	*Store
	paths int
}

func (c *pathCounter) Path(ctx context.Context, run, id int64) ([]Node, error) {
	c.paths++
	return c.Store.Path(ctx, run, id)
}

// TestPlacerDescends: a Placer of an ended run reads each node's path down
// the child lists it reads for the path's visits, with no Path query
// where the run is whole, and places every node, errors included, as it
// does from the path Reader.Path reads, on whole, filtered and damaged
// runs.
func TestPlacerDescends(t *testing.T) {
	ctx := context.Background()
	eachChildListRun(t, func(t *testing.T, st *Store, r Run, damaged bool) {
		counted := &pathCounter{Store: st}
		placer, ref := NewPlacer(counted, r.ID), NewPlacer(st, r.ID)
		ref.pathOnly = true
		failed := 0
		for id := int64(0); id < r.Rows+8; id += 3 {
			gotF, got, gotErr := placer.PlaceOf(ctx, id)
			wantF, want, wantErr := ref.PlaceOf(ctx, id)
			if wantErr != nil {
				failed++
			}
			if got != want || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || !reflect.DeepEqual(gotF, wantF) {
				t.Fatalf("run %d node %d: placed %q (%v), from its path %q (%v)", r.ID, id, got, gotErr, want, wantErr)
			}
			if gotErr == nil && !reflect.DeepEqual(placer.paths[id], ref.paths[id]) {
				t.Fatalf("run %d node %d: descended %d nodes, the path has %d", r.ID, id, len(placer.paths[id]), len(ref.paths[id]))
			}
		}
		// (A node without a row is looked for with Path, which
		// says so.)
		if !damaged && (r.ID == 1 || r.ID == 2) && counted.paths > failed {
			t.Errorf("run %d: %d paths read with Path for %d nodes without a row; the child lists lead to every other node", r.ID, counted.paths, failed)
		}
		t.Logf("run %d: %d paths read with Path, %d places failed", r.ID, counted.paths, failed)
	})
}
