// Package hostile holds trace files made to harm their reader, for tests
// of every reader of traces (issue 33): SQL to apply to a good trace. It
// imports nothing of Horizon's, so that the trace package's own tests
// use it too.
package hostile

import (
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	_ "github.com/mattn/go-sqlite3" // the plain driver: SQL as any author runs it
)

// Apply copies the closed trace file at path into a test directory as
// name, runs the SQL statements on the copy through a plain SQLite
// connection, as the file's author (or damage) would, and returns the
// copy's path: the file at path is left as it is.
func Apply(tb testing.TB, path, name string, stmts ...string) string {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	p := filepath.Join(tb.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		tb.Fatal(err)
	}
	db, err := sql.Open("sqlite3", p)
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			tb.Fatalf("%s: %v", q, err)
		}
	}
	return p
}

// Files are what the author of a trace file can put in it to make
// Horizon run code, spin, take memory or read slowly (issue 33): SQL that
// Apply applies to a good trace. Refused is what the error of opening
// such a file names ("" for a file that opens: a value over the bound
// is refused where it is read, and statistics change no plan).
var Files = []struct {
	Name, Refused string
	Stmts         []string
}{
	{"trigger on runs", "a trigger 'x' on 'runs' that Horizon did not make",
		[]string{"CREATE TRIGGER x AFTER INSERT ON runs BEGIN DELETE FROM node_rows; END"}},
	{"recursive view as runs", "a view 'runs' that Horizon did not make", []string{
		"ALTER TABLE runs RENAME TO runs_real",
		"CREATE VIEW runs AS WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) SELECT runs_real.* FROM runs_real, r"}},
	{"huge fen from a view", "a view 'runs' that Horizon did not make", []string{
		"ALTER TABLE runs RENAME TO runs_real",
		"CREATE VIEW runs AS SELECT id, created, printf('%.*c', 400000000, ' ') AS fen, variant, options, limits, version, status, filter, nodes, qs_nodes, rows, max_ply, max_qs_ply, elapsed_ms, best_move, score, pv, depth, engine, fail_hard, writer, summary_at, file_bytes, stop_cause, epd_id FROM runs_real"}},
	{"table shadowing a pragma", "a table 'pragma_user_version' that Horizon did not make",
		[]string{"CREATE TABLE pragma_user_version (user_version)", "INSERT INTO pragma_user_version VALUES (1)"}},
	{"index on node_rows", "an index 'by_score' on 'node_rows' that Horizon did not make",
		[]string{"CREATE INDEX by_score ON node_rows (score)"}},
	{"huge stored fen", "", []string{"UPDATE runs SET fen = fen || printf('%.*c', 1100000, ' ')"}},
	{"poisoned statistics", "", []string{"ANALYZE", "DELETE FROM sqlite_stat1",
		"INSERT INTO sqlite_stat1 VALUES ('node_rows', 'node_rows', '100000000 100000000 100000000')",
		"INSERT INTO sqlite_stat1 VALUES ('iterations', 'iterations', '100000000 100000000 100000000')"}},
}
