package trace

import (
	"context"
	"strings"
	"testing"
)

// TestChildQueriesSeek checks that the child walks seek on the primary key
// and never scan node_rows: SQLite's planner is free to turn a join around,
// and a scan costs seconds per call on a trace of millions of nodes.
func TestChildQueriesSeek(t *testing.T) {
	s, _ := mustCreate(t)
	defer s.Close()
	run, _ := record(t, s, 1, 3, RecordOptions{}, nil)
	for name, q := range map[string]string{"Children": childrenQuery, "ChildCount": childCountQuery} {
		rows, err := s.db.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+q, nodeKey(run, 1), nodeKey(run, 1<<20), -1)
		if err != nil {
			t.Fatal(err)
		}
		var plan []string
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, detail)
		}
		rows.Close()
		for _, step := range plan {
			if strings.HasPrefix(step, "SCAN n") || strings.HasPrefix(step, "SCAN node_rows") {
				t.Errorf("%s scans the node table:\n%s", name, strings.Join(plan, "\n"))
			}
		}
	}
}
