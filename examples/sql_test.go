package examples

import (
	"context"
	"database/sql"
	"strings"
	"testing"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace/tracetest"
)

// TestDocsSQL runs every statement of the docs' SQL blocks on a trace the
// test records (two runs of Kiwipete, so that the blocks' run 2 exists),
// through SQLite as a user's sqlite3 shell would: each must succeed and
// answer at least one row. DuckDB's query over Parquet exports
// (read_parquet) is TestParquetInDuckDB's.
func TestDocsSQL(t *testing.T) {
	st, path := tracetest.CreateTrace(t)
	for _, v := range []string{"see", "captures"} {
		tracetest.RecordSearch(t, st, tracetest.Kiwipete, tracetest.VariantOptions(t, v), engine.Limits{Depth: 3})
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ran := 0
	for _, p := range pages {
		for _, b := range blocks(t, p.page) {
			if b.lang != "sql" {
				continue
			}
			text := strings.Join(b.lines, "\n")
			if strings.Contains(text, "read_parquet(") {
				t.Logf("%s:%d: DuckDB's, run by TestParquetInDuckDB", p.page, b.at)
				continue
			}
			for _, stmt := range statements(b.lines) {
				rows := queryRows(t, db, stmt)
				if rows == 0 {
					t.Errorf("%s:%d: %s\n  answers no row", p.page, b.at, stmt)
				}
				ran++
			}
		}
	}
	if ran == 0 {
		t.Fatal("no SQL statement found in the docs")
	}
}

// statements splits a block's lines into its statements, comment lines
// dropped.
func statements(lines []string) []string {
	var out []string
	var cur []string
	for _, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "--") {
			continue
		}
		cur = append(cur, l)
		if strings.HasSuffix(strings.TrimSpace(l), ";") {
			out = append(out, strings.TrimSpace(strings.Join(cur, "\n")))
			cur = nil
		}
	}
	if s := strings.TrimSpace(strings.Join(cur, "\n")); s != "" {
		out = append(out, s)
	}
	return out
}

// queryRows runs stmt and returns how many rows it answered.
func queryRows(t *testing.T, db *sql.DB, stmt string) int {
	t.Helper()
	rows, err := db.QueryContext(context.Background(), stmt)
	if err != nil {
		t.Errorf("%s\n  %v", stmt, err)
		return -1
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		n++
	}
	if err := rows.Err(); err != nil {
		t.Errorf("%s\n  %v", stmt, err)
	}
	return n
}
