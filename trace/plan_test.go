package trace

import (
	"context"
	"strings"
	"testing"
)

// queryPlan returns the steps of SQLite's plan for q.
func queryPlan(t *testing.T, s *Store, q string, args ...any) []string {
	t.Helper()
	rows, err := s.db.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+q, args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, q)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	return plan
}

// TestQueriesSeek checks that the node queries of both layouts, and the
// documented names' lookups users write, seek and never scan the node
// table: SQLite's planner is free to turn a join around or ignore an
// index, and a scan costs seconds per call on a trace of millions of nodes.
func TestQueriesSeek(t *testing.T) {
	s2, _ := mustCreate(t)
	defer s2.Close()
	defer func(n int64) { parentIndexMinRows = n }(parentIndexMinRows)
	parentIndexMinRows = 1 // index the small run too
	record(t, s2, 1, 3, RecordOptions{}, nil)
	s1 := openFixtureV1(t)
	defer s1.Close()
	for _, c := range []struct {
		name string
		s    *Store
		q    string
		// the table the query would scan; the self-join scans its outer side
		// once, which is the point of it.
		scanOK string
	}{
		{"v2 node", s2, queries2.node, ""},
		{"v2 children", s2, queries2.children, ""},
		{"v2 child count", s2, queries2.childCount, ""},
		{"v2 path", s2, queries2.path, ""},
		{"v2 subtree", s2, queries2.subtree, ""},
		{"v1 node", s1, queries1.node, ""},
		{"v1 children", s1, queries1.children, ""},
		{"v1 child count", s1, queries1.childCount, ""},
		{"v1 path", s1, queries1.path, ""},
		{"nodes by id", s2, "SELECT * FROM nodes WHERE run_id = ?1 AND id = ?2", ""},
		{"nodes by parent", s2, "SELECT * FROM nodes WHERE run_id = 1 AND parent_id = ?2", "node_parent_1"},
		{"nodes by id range", s2, "SELECT id, score FROM nodes WHERE run_id = ?1 AND id BETWEEN ?2 AND ?3", ""},
		{"nodes with parents", s2, `SELECT c.id, p.id FROM nodes c JOIN nodes p ON p.run_id = c.run_id AND p.id = c.parent_id
			WHERE c.run_id = ?1`, "c"},
	} {
		plan := queryPlan(t, c.s, c.q, 1, 1, 1<<20, 100)
		if strings.HasPrefix(c.scanOK, "node_parent") {
			if !strings.Contains(strings.Join(plan, "\n"), "USING INDEX "+c.scanOK) {
				t.Errorf("%s does not use %s:\n%s", c.name, c.scanOK, strings.Join(plan, "\n"))
			}
			continue
		}
		scans := 0
		for _, step := range plan {
			if strings.HasPrefix(step, "SCAN") && strings.Contains(step, "node_rows") || strings.HasPrefix(step, "SCAN n") {
				if c.scanOK != "" && scans == 0 {
					scans++
					continue
				}
				t.Errorf("%s scans the node table:\n%s", c.name, strings.Join(plan, "\n"))
			}
		}
	}
}

// openFixtureV1 opens a copy of testdata/v1.trace, a trace written by
// Horizon's schema version 1, read-only.
func openFixtureV1(t *testing.T) *Store {
	t.Helper()
	s, err := OpenReadOnly(copyFixtureV1(t))
	if err != nil {
		t.Fatal(err)
	}
	return s
}
