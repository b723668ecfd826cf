package trace

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/horizonqs/horizon/internal/golden"
)

// plannedQueries are the queries of Horizon's whose plans must not depend
// on what the file holds: the node queries of both layouts and the
// summary's lookups. Arguments: run 1, node 1, end 1<<20, limit 100.
func plannedQueries(s *Store) map[string]string {
	q := s.q()
	planned := map[string]string{
		"node": q.node, "children": q.children, "child count": q.childCount, "path": q.path, "subtree": q.subtree,
		"hotspots":   "SELECT node_id, MAX(growth) FROM hotspots WHERE run_id = ?1 AND rank > 0 AND rank_by IN (?2, ?3) GROUP BY node_id ORDER BY MAX(growth) DESC, node_id LIMIT ?4",
		"chains":     "SELECT COUNT(*) FROM hotspots WHERE run_id = ?1 AND rank_by = 'chain' AND rank = 0 AND ?2 AND ?3 AND ?4",
		"stats":      "SELECT dim, value, nodes, qs_nodes, root_id FROM stats WHERE run_id = ?1 AND ?2 AND ?3 AND ?4 ORDER BY dim, value",
		"iterations": "SELECT root_id, iteration FROM iterations WHERE run_id = ?1 AND ?2 AND ?3 ORDER BY root_id LIMIT ?4",
	}
	if !s.v1() {
		// (Wrapped to take the four arguments every query here is given.)
		planned["indexed children"] = "SELECT * FROM (" + indexedChildrenSQL(1) + ") WHERE ?3 AND ?4"
		planned["ranges counts"] = "SELECT * FROM (" + rangesCountsSQL + ") WHERE ?3 AND ?4"
		planned["stored tops"] = "SELECT * FROM (" + storedTopsSQL + ") WHERE ?3 AND ?4"
	}
	return planned
}

// poisons are planner statistics a file may carry (ANALYZE's, or planted
// to slow Horizon down): each says the opposite of the truth about one of
// Horizon's b-trees.
var poisons = map[string][]string{
	"ANALYZE": {"ANALYZE"},
	"key matches everything": {
		"ANALYZE", "DELETE FROM sqlite_stat1",
		"INSERT INTO sqlite_stat1 VALUES ('node_rows', 'node_rows', '100000000 100000000 100000000')",
		"INSERT INTO sqlite_stat1 VALUES ('node_rows', 'node_parent_1', '100000000 1')",
		"INSERT INTO sqlite_stat1 VALUES ('hotspots', 'hotspots', '100000000 100000000 100000000 100000000')",
		"INSERT INTO sqlite_stat1 VALUES ('stats', 'stats', '100000000 100000000 100000000 100000000')",
		"INSERT INTO sqlite_stat1 VALUES ('iterations', 'iterations', '100000000 100000000 100000000')",
	},
	"tables empty, keys unique": {
		"ANALYZE", "DELETE FROM sqlite_stat1",
		"INSERT INTO sqlite_stat1 VALUES ('node_rows', 'node_rows', '1 1 1')",
		"INSERT INTO sqlite_stat1 VALUES ('node_rows', 'node_parent_1', '100000000 100000000')",
		"INSERT INTO sqlite_stat1 VALUES ('runs', NULL, '100000000')",
		"INSERT INTO sqlite_stat1 VALUES ('iterations', 'iterations', '1 1 1')",
	},
}

// TestPlansIgnoreStats: planner statistics in the file, true or planted,
// change no plan of Horizon's queries (EXPLAIN QUERY PLAN): poisoned
// statistics turned the path query's step into a read of the run's every
// row and made hotspots 2,000 times slower. Both node layouts.
func TestPlansIgnoreStats(t *testing.T) {
	defer func(n int64) { parentIndexMinRows = n }(parentIndexMinRows)
	parentIndexMinRows = 1 // a parent index the statistics could pick
	s, fresh := mustCreate(t)
	record(t, s, 1, 3, RecordOptions{}, nil)
	s.Close()
	for _, file := range []struct{ name, path string }{{"v6", fresh}, {"v1", copyFixtureV1(t)}} {
		plans := func(t *testing.T, path string) map[string]string {
			s, err := OpenReadOnly(path)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			out := map[string]string{}
			for name, q := range plannedQueries(s) {
				out[name] = strings.Join(queryPlan(t, s, q, 1, 1, 1<<20, 100), "\n")
			}
			return out
		}
		want := plans(t, file.path)
		for name, stmts := range poisons {
			t.Run(file.name+"/"+name, func(t *testing.T) {
				p := copyTrace(t, file.path, "t.trace")
				db, err := sql.Open("sqlite3", p)
				if err != nil {
					t.Fatal(err)
				}
				for _, st := range stmts {
					if _, err := db.Exec(st); err != nil {
						t.Fatal(st, err)
					}
				}
				db.Close()
				for q, plan := range plans(t, p) {
					if plan != want[q] {
						t.Errorf("%s: the plan without statistics:\n%s\nwith them:\n%s", q, want[q], plan)
					}
				}
			})
		}
	}
}

// plant runs stmts on the trace at path through a plain SQLite connection,
// as a file's author would.
func plant(t *testing.T, path string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, st := range stmts {
		if _, err := db.Exec(st); err != nil {
			t.Fatalf("%s: %v", st, err)
		}
	}
}

// TestForeignSchemaRefused: a file holding a schema object Horizon did not
// make that would run code, shadow a name Horizon reads or writes, or
// change its plans is refused at open, for reading and for writing, naming
// the object, before any statement of Horizon's touches the data (the
// trigger would have fired, the view never ended); the file is left as
// it is. A user's own table, and its index, are opened with.
func TestForeignSchemaRefused(t *testing.T) {
	s, good := mustCreate(t)
	record(t, s, 1, 2, RecordOptions{}, nil)
	s.Close()
	for _, c := range []struct {
		name   string
		stmts  []string
		refuse string // "" when the file opens
	}{
		{"trigger on runs", []string{"CREATE TABLE log (x); CREATE TRIGGER x AFTER INSERT ON runs BEGIN DELETE FROM node_rows; END"},
			"holds a trigger 'x' on 'runs' that Horizon did not make: refusing to open it"},
		{"trigger on the user's table", []string{"CREATE TABLE notes (x); CREATE TRIGGER n AFTER INSERT ON notes BEGIN SELECT 1; END"},
			"a trigger 'n' on 'notes' that Horizon did not make"},
		{"runs a recursive view", []string{"ALTER TABLE runs RENAME TO runs_real",
			"CREATE VIEW runs AS WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) SELECT * FROM runs_real, r"},
			"a view 'runs' that Horizon did not make, in place of its table"},
		{"a view of the user's", []string{"CREATE VIEW mine AS SELECT 1"}, "a view 'mine' that Horizon did not make"},
		{"a table shadowing a pragma", []string{"CREATE TABLE pragma_user_version (user_version)"},
			"a table 'pragma_user_version' that Horizon did not make, under a name Horizon reads or writes"},
		{"a table of an upgrade's", []string{"CREATE TABLE node_rows2 (x)"}, "a table 'node_rows2' that Horizon did not make, under a name"},
		{"a generated column in runs", []string{"PRAGMA writable_schema = ON",
			"UPDATE sqlite_schema SET sql = replace(sql, 'epd_id TEXT', 'epd_id TEXT, big AS (zeroblob(1000))') WHERE name = 'runs'"},
			fmt.Sprintf("a table 'runs' that is not the one Horizon made for schema version %d", SchemaVersion())},
		{"an index on node_rows", []string{"CREATE INDEX by_score ON node_rows (score)"},
			"an index 'by_score' on 'node_rows' that Horizon did not make"},
		{"a parent index that is not", []string{"CREATE INDEX node_parent_1 ON node_rows (score) WHERE run_id = 1"},
			"an index 'node_parent_1' on 'node_rows' that is not the one Horizon made"},
		{"a table of the user's", []string{"CREATE TABLE notes (run_id INTEGER, text TEXT); CREATE INDEX notes_run ON notes (run_id)"}, ""},
		{"statistics", []string{"ANALYZE"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := copyTrace(t, good, "t.trace")
			plant(t, p, c.stmts...)
			for _, open := range []struct {
				name string
				fn   func(string) (*Store, error)
			}{{"read-only", OpenReadOnly}, {"read-write", Open}, {"create", Create}} {
				s, err := open.fn(p)
				if c.refuse == "" {
					if err != nil {
						t.Fatalf("%s: %v", open.name, err)
					}
					if _, err := s.Runs(context.Background()); err != nil {
						t.Errorf("%s: %v", open.name, err)
					}
					s.Close()
					continue
				}
				if err == nil {
					s.Close()
					t.Fatalf("%s: opened", open.name)
				}
				if !errors.Is(err, ErrForeignSchema) || !strings.Contains(err.Error(), c.refuse) || !strings.Contains(err.Error(), p) {
					t.Errorf("%s: %v; want it to name %s", open.name, err, c.refuse)
				}
			}
		})
	}
}

// TestNormalSQL: normalising keeps what a statement does: text in string
// literals and quoted names stays, comments go only outside them.
func TestNormalSQL(t *testing.T) {
	for _, c := range []struct{ a, b string }{
		{"CREATE TABLE t (a INTEGER, -- x\n b TEXT /* y */)", "CREATE TABLE t(a INTEGER,b TEXT)"},
		{`CREATE TABLE "t"(a)`, "CREATE TABLE t(a)"},
		{"CREATE TABLE t (a DEFAULT '--', b)", "CREATE TABLE t(a DEFAULT '--',b)"},
	} {
		if got, want := normalSQL(c.a), normalSQL(c.b); got != want {
			t.Errorf("%q normalises to %q, %q to %q", c.a, got, c.b, want)
		}
	}
	for _, c := range []struct{ a, b string }{
		{"CREATE TABLE t (a DEFAULT '/*', evil AS (1), z '*/')", "CREATE TABLE t (a DEFAULT '  ')"},
		{"CREATE TABLE t (a DEFAULT 'x y')", "CREATE TABLE t (a DEFAULT 'x  y')"},
		{"SELECT a - -1", "SELECT a --1"},
		{`CREATE TABLE "a b"(x)`, `CREATE TABLE a b(x)`},
	} {
		if normalSQL(c.a) == normalSQL(c.b) {
			t.Errorf("%q and %q normalise alike: %q", c.a, c.b, normalSQL(c.a))
		}
	}
}

// TestHugeValue: a value longer than maxValueBytes (a view gave a 400 MB
// fen, which took 2.9 GB to read and wrote 400 MB of NULs to the
// terminal) is refused as SQLite reads it, before it is copied anywhere,
// with an error that names the run and the column; the file's other
// runs, and a value just under the bound, read.
func TestHugeValue(t *testing.T) {
	s, good := mustCreate(t)
	record(t, s, 1, 2, RecordOptions{}, nil)
	record(t, s, 2, 2, RecordOptions{}, nil)
	s.Close()
	ctx := context.Background()
	for _, c := range []struct {
		name, stmt, want string
	}{
		{"fen", "UPDATE runs SET fen = fen || printf('%.*c', 50000000, ' ') WHERE id = 2", "run 2: its fen is longer than 1 MiB"},
		{"pv", "UPDATE runs SET pv = printf('%.*c', 2000000, 'x') WHERE id = 2", "run 2: its pv is longer than 1 MiB"},
		{"just under", "UPDATE runs SET variant = printf('%.*c', 1000000, 'x') WHERE id = 2", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := copyTrace(t, good, "t.trace")
			plant(t, p, c.stmt)
			s, err := OpenReadOnly(p)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			runs, err := s.Runs(ctx)
			_, err1 := s.Run(ctx, 2)
			if c.want == "" {
				if err != nil || err1 != nil || len(runs) != 2 {
					t.Fatalf("%d runs, %v, %v", len(runs), err, err1)
				}
				return
			}
			for _, err := range []error{err, err1} {
				if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), p) {
					t.Errorf("%v; want an error naming %s", err, c.want)
				}
			}
			if _, err := s.Run(ctx, 1); err != nil {
				t.Errorf("run 1: %v", err)
			}
			// A store that writes reads with a bound of its own, for the
			// values it was given to write (a stream's header record).
			w, err := Open(p)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			_, err = w.Runs(ctx)
			if c.name == "fen" && (err == nil || !strings.Contains(err.Error(), "run 2: its fen is longer than 16 MiB")) {
				t.Errorf("a writer's Runs: %v; want the 50 MB fen named", err)
			}
			if c.name == "pv" && err != nil {
				t.Errorf("a writer's Runs: %v; want the 2 MB pv read", err)
			}
		})
	}
}

// TestHardened: every connection Horizon opens a trace with is in SQLite's
// defensive mode (the schema cannot be written as data) with
// trusted_schema off, and cannot load an extension.
func TestHardened(t *testing.T) {
	s, _ := mustCreate(t)
	record(t, s, 1, 1, RecordOptions{}, nil)
	ctx := context.Background()
	conn, err := s.db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var trusted int
	if err := conn.QueryRowContext(ctx, "PRAGMA trusted_schema").Scan(&trusted); err != nil || trusted != 0 {
		t.Errorf("trusted_schema = %d, %v; want 0", trusted, err)
	}
	if _, err := conn.ExecContext(ctx, "PRAGMA writable_schema = ON; UPDATE sqlite_schema SET sql = sql WHERE name = 'runs'"); err == nil {
		t.Error("the schema was written as data: defensive mode is off")
	}
	if _, err := conn.ExecContext(ctx, "SELECT load_extension('/nonexistent')"); err == nil || !strings.Contains(err.Error(), "not authorized") {
		t.Errorf("load_extension: %v; want not authorized", err)
	}
	w, err := s.openWriter()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := w.Exec("PRAGMA writable_schema = ON; UPDATE sqlite_schema SET sql = sql WHERE name = 'runs'", nil); err == nil {
		t.Error("the recorder's connection wrote the schema as data: defensive mode is off")
	}
}

// TestOpenSnapshotStops: a one-shot reader's Ctrl-C (its context
// cancelled) stops the open itself, which read the file with a context of
// its own: a file of 100,000 runs of variant none (each read at open,
// noQS) kept OpenSnapshot going for seconds after the cancel.
func TestOpenSnapshotStops(t *testing.T) {
	if testing.Short() {
		t.Skip("a file of 100,000 runs")
	}
	s, p := mustCreate(t)
	record(t, s, 1, 1, RecordOptions{}, nil)
	s.Close()
	plant(t, p, `INSERT INTO runs (created, fen, variant, options, limits, version, status)
		SELECT created, fen, 'none', options, limits, version, status FROM runs,
		(WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r LIMIT 100000) SELECT i FROM r)`)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		snap, err := OpenSnapshot(ctx, p)
		if err == nil {
			snap.Close()
		}
		done <- err
	}()
	time.Sleep(100 * time.Millisecond)
	cancel()
	// Liveness, not speed: the whole open takes seconds; a cancelled one
	// returns at its next statement.
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("OpenSnapshot after the cancel: %v; want context.Canceled", err)
		}
	case <-time.After(time.Second):
		t.Fatal("OpenSnapshot went on a second after its context was cancelled")
	}
}

// TestDoubleSlashPath: a path that begins with // (POSIX: the same as
// one /) is a file like any other; it failed with "invalid uri
// authority", the file: URI reading its first name as a host.
func TestDoubleSlashPath(t *testing.T) {
	dir := t.TempDir()
	if !strings.HasPrefix(dir, "/") {
		t.Skip("the temporary directory is not an absolute POSIX path")
	}
	p := "/" + dir + "/t.trace"
	s, err := Create(p)
	if err != nil {
		t.Fatal(err)
	}
	record(t, s, 1, 1, RecordOptions{}, nil)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	for _, open := range []func(string) (*Store, error){OpenReadOnly, Open} {
		s, err := open(p)
		if err != nil {
			t.Fatal(err)
		}
		if runs, err := s.Runs(context.Background()); err != nil || len(runs) != 1 {
			t.Errorf("%d runs, %v", len(runs), err)
		}
		s.Close()
	}
}

// TestRunIDsUsedUp: a file whose run ids are used up (runs.id is
// AUTOINCREMENT; its counter at the largest id) refuses a new run saying
// so, where it said "no space left on device" (SQLite's SQLITE_FULL).
func TestRunIDsUsedUp(t *testing.T) {
	s, p := mustCreate(t)
	record(t, s, 1, 1, RecordOptions{}, nil)
	s.Close()
	plant(t, p, "UPDATE sqlite_sequence SET seq = 9223372036854775807 WHERE name = 'runs'")
	w, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	_, err = w.NewRecorder(context.Background(), RunInfo{FEN: tacticalFEN}, RecordOptions{})
	if err == nil || strings.Contains(err.Error(), "no space") || !strings.Contains(err.Error(), "run ids are used up") || !strings.Contains(err.Error(), p) {
		t.Errorf("NewRecorder: %v; want it to say the run ids are used up", err)
	}
}

// TestKnownSchemas: schema/known.json is what the migrations make: each
// version's objects, replayed into an empty database, and the names they
// create (go test ./trace -run TestKnownSchemas -update rewrites it).
func TestKnownSchemas(t *testing.T) {
	db, err := sql.Open(driverName, "file:known?mode=memory")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1) // one connection: one in-memory database
	ctx := context.Background()
	f := knownFile{Versions: [][]knownObject{}, Names: []string{}, Tables: []string{}}
	names, tables := map[string]bool{}, map[string]bool{}
	created := regexp.MustCompile(`(?i)\bCREATE\s+(TABLE|VIEW|INDEX|TRIGGER)\s+(?:IF\s+NOT\s+EXISTS\s+)?"?(\w+)`)
	renamed := regexp.MustCompile(`(?i)\bRENAME\s+TO\s+"?(\w+)`)
	for _, m := range migrations() {
		if _, err := db.ExecContext(ctx, m.sql); err != nil {
			t.Fatalf("%s: %v", m.name, err)
		}
		objs, err := readSchema(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		var v []knownObject
		for _, o := range objs {
			v = append(v, knownObject{Type: o.typ, Name: o.name, Table: o.tbl, SQL: o.sql})
		}
		f.Versions = append(f.Versions, v)
		text := normalSQL(m.sql) // no comments: names in them are not made
		for _, c := range created.FindAllStringSubmatch(text, -1) {
			names[strings.ToLower(c[2])] = true
			if strings.EqualFold(c[1], "table") {
				tables[strings.ToLower(c[2])] = true
			}
		}
		for _, c := range renamed.FindAllStringSubmatch(text, -1) {
			names[strings.ToLower(c[1])], tables[strings.ToLower(c[1])] = true, true
		}
	}
	for n := range names {
		f.Names = append(f.Names, n)
	}
	for n := range tables {
		f.Tables = append(f.Tables, n)
	}
	slices.Sort(f.Names)
	slices.Sort(f.Tables)
	b, err := json.MarshalIndent(f, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("schema", "known.json"), append(b, '\n'))
}
