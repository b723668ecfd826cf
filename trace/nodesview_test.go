package trace

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/horizonqs/horizon/engine"
)

// kiwipeteFEN is the position of the view tests' real searches: its trees
// hold every kind, bound and most cutoff causes at depth 3.
const kiwipeteFEN = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

// lookupView is the schema's nodes view, lookups and all, as the temporary
// view lookup_nodes: the view the written-out one must answer as.
func lookupView() string {
	return strings.Replace(schemaNodesView(), "CREATE VIEW nodes AS", "CREATE TEMP VIEW lookup_nodes AS", 1)
}

// openForWriting opens the trace at p as a recorder does (upgrading it,
// filling the lookup tables and writing the view) and returns the store.
func openForWriting(t *testing.T, p string) *Store {
	t.Helper()
	s, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if err := s.prepareWrite(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s
}

// viewRows reads every row of view on conn in key order, with the type of
// each value of kind, bound and cutoff, and returns them with the
// view's column names.
func viewRows(t *testing.T, conn *sql.Conn, view string) ([]string, [][]any) {
	t.Helper()
	cols, all, err := readView(conn, view)
	if err != nil {
		t.Fatal(err)
	}
	return cols, all
}

// readView is viewRows returning its error: on a damaged file (FuzzOpen)
// a query may fail.
func readView(conn *sql.Conn, view string) ([]string, [][]any, error) {
	rows, err := conn.QueryContext(context.Background(),
		"SELECT *, typeof(kind), typeof(bound), typeof(cutoff) FROM "+view+" ORDER BY run_id, id")
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, nil, err
	}
	var all [][]any
	for rows.Next() {
		row := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range row {
			ptrs[i] = &row[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, nil, err
		}
		all = append(all, row)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	return cols[:len(cols)-3], all, nil
}

// sameAsLookups fails unless the file's nodes view answers every row as
// the schema's lookups do, value for value and type for type, under the
// same column names in the same order, and returns the rows it read.
func sameAsLookups(t *testing.T, s *Store) [][]any {
	t.Helper()
	ctx := context.Background()
	conn, err := s.db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, lookupView()); err != nil {
		t.Fatal(err)
	}
	defer conn.ExecContext(ctx, "DROP VIEW temp.lookup_nodes")
	oldCols, old := viewRows(t, conn, "lookup_nodes")
	newCols, now := viewRows(t, conn, "nodes")
	if !slices.Equal(oldCols, newCols) {
		t.Fatalf("columns %v, the lookups' view has %v", newCols, oldCols)
	}
	if len(old) != len(now) {
		t.Fatalf("%d rows, the lookups' view has %d", len(now), len(old))
	}
	bad := 0
	for i := range old {
		if !reflect.DeepEqual(old[i], now[i]) {
			if bad++; bad <= 5 {
				t.Errorf("row %d: %v\nthe lookups' view: %v", i, now[i], old[i])
			}
		}
	}
	if bad > 5 {
		t.Errorf("%d rows differ in all", bad)
	}
	return now
}

// namesSeen returns the values of the named column in rows (as viewRows
// returns them), NULL as "NULL".
func namesSeen(cols []string, rows [][]any, col string) map[string]bool {
	i := slices.Index(cols, col)
	seen := map[string]bool{}
	for _, r := range rows {
		seen[fmt.Sprint(r[i])] = true
	}
	return seen
}

// TestNodesViewAnswersAsLookups: the nodes view Horizon writes, its names
// spelled out, answers row for row, value and type, what the schema's
// lookups answer: on real searches of every preset (every kind and bound,
// the cutoff causes they take, a search stopped by a node limit), on
// files of every earlier schema upgraded by a write, and on codes the
// tables lack (NULL) or a newer Horizon added to them (its name).
func TestNodesViewAnswersAsLookups(t *testing.T) {
	ctx := context.Background()
	t.Run("real searches", func(t *testing.T) {
		s, p := mustCreate(t)
		for _, v := range engine.VariantNames() {
			searchInto(t, ctx, s, kiwipeteFEN, v, engine.Limits{Depth: 3}, RecordOptions{})
		}
		searchInto(t, ctx, s, kiwipeteFEN, "threshold", engine.Limits{Depth: 6, Nodes: 3000}, RecordOptions{})
		s.Close()
		w := openForWriting(t, p)
		rows := sameAsLookups(t, w)
		conn, err := w.db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		cols, _ := viewRows(t, conn, "nodes")
		for col, want := range map[string][]string{
			"kind":   engine.KindNames(),
			"bound":  engine.BoundNames(),
			"cutoff": {"none", "beta", "standpat", "tt", "autofailhigh", "delta", "see", "horizon", "stop", "nomoves"},
		} {
			seen := namesSeen(cols, rows, col)
			for _, name := range want {
				if !seen[name] {
					t.Errorf("no %s %q in the searches (seen %v): the comparison misses it", col, name, seen)
				}
			}
		}
	})
	for _, f := range []string{"v1.trace", "v2.trace", "v3.trace", "v4.trace", "v5.trace", "v6.trace", "v7.trace"} {
		t.Run(f, func(t *testing.T) {
			p := copyFixture(t, f)
			// The view the file has, as its Horizon wrote it (schemas 1
			// and 2: their own layout's), against the one written now,
			// where the upgrade leaves the rows as they were (schema 3's
			// upgrade clears the level bits of its runs without levels).
			var before [][]any
			if old, err := OpenReadOnly(p); err != nil {
				t.Fatal(err)
			} else {
				conn, err := old.db.Conn(ctx)
				if err != nil {
					t.Fatal(err)
				}
				_, before = viewRows(t, conn, "nodes")
				conn.Close()
				old.Close()
			}
			s := openForWriting(t, p)
			now := sameAsLookups(t, s)
			if f != "v1.trace" && f != "v2.trace" && f != "v3.trace" && !reflect.DeepEqual(before, now) {
				t.Errorf("the view the file had and the one written answer differently")
			}
			if len(now) == 0 {
				t.Fatal("no rows compared")
			}
		})
	}
	t.Run("codes the tables lack or a newer Horizon added", func(t *testing.T) {
		s, p := mustCreate(t)
		record(t, s, 1, 2, RecordOptions{}, nil)
		s.Close()
		db, err := sql.Open("sqlite3", p)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{
			"INSERT INTO causes (code, name, meaning) VALUES (20, 'future', 'a cause of a newer Horizon')",
			"INSERT INTO kinds (code, name, meaning) VALUES (6, 'it''s', 'a name with a quote')",
			// kind 7, bound from bits 3-4 = 3, cause 31 / 20 / kind 6: rows of a newer Horizon.
			`INSERT INTO node_rows (run_id, id, up, size, info, counts, alpha, width, score, stand_diff, move, best)
				VALUES (99, 0, 1, 3, 7 | (3 << 3) | (31 << 5), 0, -10, 20, 0, NULL, 0, 0),
				       (99, 1, 1, 1, 4 | (20 << 5), 0, -10, 20, 0, 0, 0, 0),
				       (99, 2, 2, 1, 6 | (20 << 5), 0, -10, 20, 0, 0, 0, 0)`,
		} {
			if _, err := db.Exec(q); err != nil {
				t.Fatalf("%v\n%s", err, q)
			}
		}
		db.Close()
		w := openForWriting(t, p)
		rows := sameAsLookups(t, w)
		// The last three rows are run 99's.
		last := rows[len(rows)-3:]
		kind, bound, cutoff := 9, 15, 16
		if last[0][kind] != nil || last[0][bound] != "exact" || last[0][cutoff] != nil ||
			last[1][kind] != "qs" || last[1][cutoff] != "future" || last[2][kind] != "it's" {
			t.Errorf("run 99's names: %v, %v, %v", last[0][kind:cutoff+1], last[1][kind:cutoff+1], last[2][kind:cutoff+1])
		}
	})
}

// TestNodesViewLooksNothingUp: a query of a new file's nodes that names
// kind, bound and cutoff reads the node table alone; the schema's lookups
// searched kinds, bounds and causes once per row. A second open for
// writing leaves the view (and the schema) as it is; a view written out
// from other names is written anew, a missing one made again; a view of
// the user's own, and a trigger of the user's on it, are refused.
func TestNodesViewLooksNothingUp(t *testing.T) {
	ctx := context.Background()
	s, p := mustCreate(t)
	record(t, s, 1, 2, RecordOptions{}, nil)
	for _, step := range queryPlan(t, s, "SELECT count(*) FROM nodes WHERE kind = 'qs' OR bound = 'lower' OR cutoff = 'beta'") {
		for _, table := range []string{"kinds", "bounds", "causes"} {
			if strings.Contains(step, table) {
				t.Errorf("the plan looks %s up: %s", table, step)
			}
		}
	}
	s.Close()
	schemaVersion := func(s *Store) (v int) {
		if err := s.db.QueryRowContext(ctx, "PRAGMA schema_version").Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	r, err := OpenReadOnly(p)
	if err != nil {
		t.Fatal(err)
	}
	before := schemaVersion(r)
	r.Close()
	w := openForWriting(t, p)
	if after := schemaVersion(w); after != before {
		t.Errorf("a second open for writing changed the schema (version %d, was %d)", after, before)
	}

	viewSQL := func(s *Store) (v string) {
		if err := s.db.QueryRowContext(ctx, "SELECT coalesce((SELECT sql FROM sqlite_schema WHERE name = 'nodes'), '')").Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	written := viewSQL(w)
	for _, c := range []struct {
		name, change string
		kept         bool
	}{
		{"other names", "DROP VIEW nodes; " + nodesView(map[string][]codeName{"causes": {{1, "b"}}}), false},
		{"missing", "DROP VIEW nodes", false},
		{"the schema's", "DROP VIEW nodes; " + schemaNodesView(), false},
	} {
		if _, err := w.db.ExecContext(ctx, c.change); err != nil {
			t.Fatal(err)
		}
		w.Close()
		w = openForWriting(t, p)
		if got := viewSQL(w); got != written {
			t.Errorf("%s view, opened for writing: %q", c.name, got)
		}
	}

	// A file is untrusted input: a view of another's under the name
	// Horizon reads, or a trigger of another's, is refused at open, for
	// reading and for writing, and the file is left as it is.
	other := nodesView(map[string][]codeName{"kinds": {{0, "a"}, {4, "b"}}})
	for _, c := range []struct{ name, change, refused string }{
		{"the user's view", "DROP VIEW nodes; CREATE VIEW nodes AS SELECT run_id, id, 'mine' AS kind FROM node_rows", "a view 'nodes' that is not the one Horizon made"},
		{"the user's trigger", `DROP VIEW nodes; ` + other + `; CREATE TABLE mine (id INTEGER);
			CREATE TRIGGER mine_into_nodes INSTEAD OF INSERT ON nodes BEGIN INSERT INTO mine VALUES (NEW.id); END`,
			"a trigger 'mine_into_nodes' on 'nodes' that Horizon did not make"},
	} {
		if _, err := w.db.ExecContext(ctx, c.change); err != nil {
			t.Fatal(err)
		}
		w.Close()
		before, _ := os.ReadFile(p)
		for _, open := range []func(string) (*Store, error){Open, OpenReadOnly} {
			s, err := open(p)
			if err == nil {
				s.Close()
			}
			if !errors.Is(err, ErrForeignSchema) || !strings.Contains(err.Error(), c.refused) {
				t.Errorf("%s: opened with %v; want it refused naming %s", c.name, err, c.refused)
			}
		}
		if after, _ := os.ReadFile(p); !bytes.Equal(before, after) {
			t.Errorf("%s: the refused file changed", c.name)
		}
		// Put Horizon's view back, as the user would after reading the error.
		db, err := sql.Open("sqlite3", p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec("DROP TRIGGER IF EXISTS mine_into_nodes; DROP VIEW nodes; " + written); err != nil {
			t.Fatal(err)
		}
		db.Close()
		w = openForWriting(t, p)
	}
}
