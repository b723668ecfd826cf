package trace

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/horizonqs/horizon/engine"
)

// TestIndexedChildren: a child list read through the run's parent index
// is the one the hop reads, errors included, on whole runs (where the
// index is taken for every node with children), runs a recording filter
// left gaps in, rows naming a wrong parent and damaged sizes (where it
// is not taken, and the hop finds what it always found); a run without an
// index is asked for one once.
func TestIndexedChildren(t *testing.T) {
	defer func(n int64) { parentIndexMinRows = n }(parentIndexMinRows)
	parentIndexMinRows = 1
	ctx := context.Background()
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
	damaged := copyTrace(t, path, "damaged.trace")
	plant(t, damaged, after,
		"UPDATE node_rows SET up = up + 1 WHERE run_id = 1 AND id IN (30, 500, 2000) AND up > 1",
		"UPDATE node_rows SET size = 0 WHERE run_id = 2 AND id IN (40, 700)",
		"UPDATE node_rows SET size = size + 3 WHERE run_id = 2 AND id = 1500")

	// whole: the runs whose every list must come through the index.
	whole := map[int64]bool{1: true, 2: true}
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
			runs, err := st.Runs(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range runs {
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
					} else if len(want) > 0 && whole[r.ID] && !file.damage {
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
			}
		})
	}
}
