package trace

import (
	"context"
	"slices"
	"testing"
)

// TestRawRows: Subtree's driver-level read of a small subtree (rawRows)
// gives the nodes the usual read gives (subtreeFrom), and steps aside on
// a row it does not take plainly, so that the usual read meets the row
// and reports it as it always did.
func TestRawRows(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name  string
		stmts []string
		plain bool // rawRows takes every row
	}{
		{"sound", nil, true},
		{"text in an integer column", []string{"UPDATE node_rows SET score = 'abc' WHERE run_id = 1 AND id = 26"}, false},
		{"a real in an integer column", []string{"UPDATE node_rows SET alpha = 1.5 WHERE run_id = 1 AND id = 26"}, false},
		{"negative size", []string{"UPDATE node_rows SET size = -5 WHERE run_id = 1 AND id = 26"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			path, run, _ := damageFile(t, c.stmts...)
			s, err := OpenReadOnly(path)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			top, err := s.Node(ctx, run, 0)
			if err != nil {
				t.Fatal(err)
			}
			if top.End() > rawMaxRows {
				t.Fatalf("run of %d rows: the test wants one rawRows reads", top.SubtreeSize)
			}
			raw, ok := s.rawRows(ctx, run, 0, top.End())
			if ok != c.plain {
				t.Fatalf("rawRows took every row: %v, want %v", ok, c.plain)
			}
			if !ok {
				return
			}
			var want []Node
			var ends []int64
			if _, err := s.subtreeFrom(ctx, run, 0, top.End(), nil, &ends, -1, func(n Node) error {
				n.Iteration = 0 // as rawRows reads it: Subtree numbers iterations after
				want = append(want, n)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if len(raw) < 100 || !slices.Equal(raw, want) {
				t.Errorf("rawRows read %d nodes, the usual read %d; equal: %v", len(raw), len(want), slices.Equal(raw, want))
			}
		})
	}
}
