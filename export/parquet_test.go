package export

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3"
	"github.com/parquet-go/parquet-go"

	"github.com/horizonqs/horizon/internal/cputime"
	"github.com/horizonqs/horizon/trace"
)

// writeParquetFiles writes every run of st as Parquet into dir.
func writeParquetFiles(tb testing.TB, st trace.Reader, dir string) ParquetCounts {
	tb.Helper()
	runs, err := st.Runs(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	var nodes, rs bytes.Buffer
	c, err := WriteParquet(context.Background(), st, runs, &nodes, &rs)
	if err != nil {
		tb.Fatal(err)
	}
	for name, b := range map[string]*bytes.Buffer{ParquetNodes: &nodes, ParquetRuns: &rs} {
		if err := os.WriteFile(filepath.Join(dir, name), b.Bytes(), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return c
}

// readParquet reads every row of a Parquet file with parquet-go.
func readParquet[T any](tb testing.TB, path string) []T {
	tb.Helper()
	rows, err := parquet.ReadFile[T](path)
	if err != nil {
		tb.Fatalf("read %s: %v", path, err)
	}
	return rows
}

// sqlRows runs query on the trace file at path with SQLite itself and
// returns its rows, each value as database/sql scans it (int64, string,
// nil, ...).
func sqlRows(tb testing.TB, path, query string) [][]any {
	tb.Helper()
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(query)
	if err != nil {
		tb.Fatalf("%s: %v", query, err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out [][]any
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			tb.Fatal(err)
		}
		for i, v := range vals {
			if b, ok := v.([]byte); ok {
				vals[i] = string(b)
			}
		}
		out = append(out, vals)
	}
	if err := rows.Err(); err != nil {
		tb.Fatal(err)
	}
	return out
}

// sqlValue is v as database/sql gives SQLite's value of the column: int64
// for integers and flags, string for text, nil for NULL.
func sqlValue(v any) any {
	switch v := v.(type) {
	case int32:
		return int64(v)
	case bool:
		if v {
			return int64(1)
		}
		return int64(0)
	case *int32:
		if v == nil {
			return nil
		}
		return int64(*v)
	case *string:
		if v == nil {
			return nil
		}
		return *v
	}
	return v
}

// TestParquetMatchesSQL: nodes.parquet, read back with parquet-go, holds
// every row of the trace's SQL view nodes, in the same order, and each
// column as the view gives it, by the same name; runs.parquet holds the
// runs table's documented columns. Two runs: one of a variant with QS
// levels (threshold), one without (see: qs_level NULL).
func TestParquetMatchesSQL(t *testing.T) {
	st, path := recordedTrace(t, "pq.trace", fixedFEN, 3, false, "see", "threshold")
	dir := t.TempDir()
	c := writeParquetFiles(t, st, dir)
	nodes := readParquet[NodeRow](t, filepath.Join(dir, ParquetNodes))
	cols := []string{"run_id", "id", "parent_id", "ply", "iteration", "move", "depth", "alpha", "beta", "kind", "qs_ply", "qs_level",
		"in_check", "stand_pat", "score", "bound", "cutoff", "cut_index", "best", "generated", "searched", "extension", "subtree_size", "incomplete"}
	want := sqlRows(t, path, "SELECT "+strings.Join(cols, ", ")+" FROM nodes ORDER BY run_id, id")
	if int64(len(nodes)) != c.Nodes || len(nodes) != len(want) {
		t.Fatalf("%d rows read back, %d counted, %d in SQL", len(nodes), c.Nodes, len(want))
	}
	schema := parquet.SchemaOf(NodeRow{})
	for i, f := range schema.Fields() {
		if f.Name() != cols[i] {
			t.Fatalf("column %d is %q, the view's is %q", i, f.Name(), cols[i])
		}
	}
	levels := 0
	for i, n := range nodes {
		got := []any{n.RunID, n.ID, n.ParentID, n.Ply, n.Iteration, n.Move, n.Depth, n.Alpha, n.Beta, n.Kind, n.QSPly, n.QSLevel,
			n.InCheck, n.StandPat, n.Score, n.Bound, n.Cutoff, n.CutIndex, n.Best, n.Generated, n.Searched, n.Extension, n.SubtreeSize, n.Incomplete}
		for j, v := range got {
			g, w := sqlValue(v), want[i][j]
			if cols[j] == "searched" && w == int64(255) && g.(int64) >= 255 {
				continue // the view's count saturates; Horizon reads the true one
			}
			if g != w {
				t.Fatalf("run %v node %v: %s is %v (%T), the view says %v (%T)", want[i][0], want[i][1], cols[j], g, g, w, w)
			}
		}
		if n.QSLevel != nil {
			levels++
		}
	}
	if levels == 0 {
		t.Error("no node has a QS level: the test covers only NULL levels")
	}

	runs := readParquet[RunRow](t, filepath.Join(dir, ParquetRuns))
	rcols := []string{"id", "fen", "variant", "options", "limits", "version", "status", "stop_cause", "filter", "nodes", "qs_nodes",
		"rows", "max_ply", "max_qs_ply", "elapsed_ms", "best_move", "score", "pv", "depth", "engine", "fail_hard", "epd_id", "created"}
	wantRuns := sqlRows(t, path, "SELECT "+strings.Join(rcols, ", ")+" FROM runs ORDER BY id")
	if len(runs) != len(wantRuns) || int64(len(runs)) != c.Runs {
		t.Fatalf("%d runs read back, %d in SQL", len(runs), len(wantRuns))
	}
	for i, r := range runs {
		got := []any{r.ID, r.FEN, r.Variant, r.Options, r.Limits, r.Version, r.Status, r.StopCause, r.Filter, r.Nodes, r.QSNodes,
			r.Rows, r.MaxPly, r.MaxQSPly, r.ElapsedMS, r.BestMove, r.Score, r.PV, r.Depth, r.Engine, r.FailHard, r.EPDID}
		for j, v := range got {
			if g, w := sqlValue(v), wantRuns[i][j]; g != w {
				t.Errorf("run %d: %s is %v (%T), SQL says %v (%T)", r.ID, rcols[j], g, g, w, w)
			}
		}
		created, err := time.Parse(time.RFC3339Nano, wantRuns[i][len(rcols)-1].(string))
		if err != nil || !r.Created.Equal(created.Truncate(time.Microsecond)) {
			t.Errorf("run %d: created %v, SQL says %v (%v)", r.ID, r.Created, created, err)
		}
	}
}

// duckDB runs query in DuckDB itself, through the npm package
// @duckdb/node-api on the machine's node, and returns the rows as JSON
// values (DuckDB's BIGINTs as strings, as the package gives them). The
// package is looked for under $HORIZON_DUCKDB, else
// ~/.cache/horizon/duckdb, where .ci/run installs it; the test skips when
// node or the package is absent.
func duckDB(tb testing.TB, dir, query string) [][]any {
	tb.Helper()
	node, mods := duckDBFound(tb)
	script := `const { DuckDBInstance } = require('@duckdb/node-api');
(async () => {
  const inst = await DuckDBInstance.create(':memory:');
  const conn = await inst.connect();
  const r = await conn.runAndReadAll(process.argv[1]);
  process.stdout.write(JSON.stringify(r.getRowsJson()));
})().catch(e => { console.error(String(e)); process.exit(1); });`
	cmd := exec.Command(node, "-e", script, query)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NODE_PATH="+mods)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		tb.Fatalf("duckdb: %s: %v: %s", query, err, stderr.String())
	}
	var rows [][]any
	if err := json.Unmarshal(out, &rows); err != nil {
		tb.Fatalf("duckdb: %s: %v", out, err)
	}
	return rows
}

// duckDBFound returns node's path and the node_modules directory holding
// @duckdb/node-api (see duckDB), and skips the test when either is absent.
func duckDBFound(tb testing.TB) (node, mods string) {
	tb.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		tb.Skip("DuckDB check skipped: no node on PATH (Debian's nodejs; .ci/run installs the package)")
	}
	prefix := os.Getenv("HORIZON_DUCKDB")
	if prefix == "" {
		c, err := os.UserCacheDir()
		if err != nil {
			tb.Skip("DuckDB check skipped: no cache directory; set HORIZON_DUCKDB to an npm prefix holding @duckdb/node-api")
		}
		prefix = filepath.Join(c, "horizon", "duckdb")
	}
	mods = filepath.Join(prefix, "node_modules")
	if _, err := os.Stat(filepath.Join(mods, "@duckdb", "node-api")); err != nil {
		tb.Skipf("DuckDB check skipped: @duckdb/node-api is not installed under %s (npm install --prefix %s @duckdb/node-api, as .ci/run does)", prefix, prefix)
	}
	return node, mods
}

// docsQuery is docs/parquet.md's query over several exported traces, each
// in a directory of its own under the current one (nodes per QS ply per
// variant): the sql block after the marker <!-- parquet-query -->.
func docsQuery(tb testing.TB) string {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("..", "docs", "parquet.md"))
	if err != nil {
		tb.Fatalf("docs/parquet.md: %v", err)
	}
	_, rest, ok := strings.Cut(string(b), "<!-- parquet-query -->\n```sql\n")
	query, _, closed := strings.Cut(rest, "```")
	if !ok || !closed {
		tb.Fatal("docs/parquet.md has no sql block after <!-- parquet-query -->")
	}
	return query
}

// TestParquetInDuckDB: the exports of two traces read in DuckDB itself
// give the counts SQLite gives on the traces: rows and QS rows per run,
// and docs/parquet.md's query (nodes per QS ply per variant, over both
// exports) the sums of the same query on each trace.
func TestParquetInDuckDB(t *testing.T) {
	duckDBFound(t)
	dir := t.TempDir()
	want := map[string]int64{}
	perRun := map[string][]any{}
	for i, variants := range [][]string{{"see", "threshold"}, {"captures", "see"}} {
		st, path := recordedTrace(t, fmt.Sprintf("t%d.trace", i), fixedFEN, 3, false, variants...)
		sub := filepath.Join(dir, fmt.Sprintf("trace%d", i))
		if err := os.Mkdir(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		writeParquetFiles(t, st, sub)
		for _, r := range sqlRows(t, path, "SELECT r.variant, n.qs_ply, count(*) FROM nodes n JOIN runs r ON r.id = n.run_id WHERE n.qs_ply IS NOT NULL GROUP BY 1, 2") {
			want[fmt.Sprintf("%v/%v", r[0], r[1])] += r[2].(int64)
		}
		for _, r := range sqlRows(t, path, "SELECT run_id, count(*), count(qs_ply), sum(in_check), max(subtree_size) FROM nodes GROUP BY 1") {
			perRun[fmt.Sprintf("trace%d/%v", i, r[0])] = r[1:]
		}
	}
	got := duckDB(t, dir, docsQuery(t))
	if len(got) != len(want) {
		t.Errorf("DuckDB: %d (variant, qs_ply) groups, SQLite %d", len(got), len(want))
	}
	for _, r := range got {
		key := fmt.Sprintf("%v/%v", r[0], r[1])
		if n := fmt.Sprint(r[2]); n != fmt.Sprint(want[key]) {
			t.Errorf("%s: DuckDB counts %s nodes, SQLite %d", key, n, want[key])
		}
	}
	rows := duckDB(t, dir, `SELECT parse_dirpath(filename) || '/' || run_id, count(*), count(qs_ply), sum(in_check::INT), max(subtree_size)
		FROM read_parquet('*/nodes.parquet', filename = true) GROUP BY ALL`)
	if len(rows) != len(perRun) {
		t.Errorf("DuckDB: %d runs, SQLite %d", len(rows), len(perRun))
	}
	for _, r := range rows {
		key := filepath.Base(fmt.Sprint(r[0]))
		if k := strings.SplitN(fmt.Sprint(r[0]), "/", -1); len(k) >= 2 {
			key = k[len(k)-2] + "/" + k[len(k)-1]
		}
		if g, w := fmt.Sprint(r[1:]), fmt.Sprint(perRun[key]); g != w {
			t.Errorf("%s: DuckDB rows, QS rows, in check, max size %s; SQLite %s", key, g, w)
		}
	}
}

// TestParquetStopsOnCancel: a cancelled export stops with the context's
// error and writes no more.
func TestParquetStopsOnCancel(t *testing.T) {
	st, _ := fixedTrace(t)
	runs, err := st.Runs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := WriteParquet(ctx, st, runs, io.Discard, io.Discard); !errors.Is(err, context.Canceled) {
		t.Fatalf("WriteParquet with a cancelled context: %v, want context.Canceled", err)
	}
}

// BenchmarkParquetExport writes the 1.55-million-node run of Kiwipete
// (captures QS, depth 7, TT on; the benchmark cache's, as
// BenchmarkBudgetBound's) as Parquet, and reports the process's peak RSS
// (peak-rss-MB: row groups of parquetRowGroup rows are held, never the
// run), the rows per CPU second and the bytes written. Run it alone:
// -bench ParquetExport -benchtime 1x.
func BenchmarkParquetExport(b *testing.B) {
	st, run := cachedTrace(b, "export-kiwipete-captures-d7.trace", "captures", 7, 1_000_000)
	defer st.Close()
	var nodes, runs countWriter
	var peak int64
	var c ParquetCounts
	c0 := cputime.Used()
	t0 := time.Now()
	for i := 0; i < b.N; i++ {
		nodes, runs = 0, 0
		peak = max(peak, peakRSS(b, func() {
			var err error
			if c, err = WriteParquet(context.Background(), st, []trace.Run{run}, &nodes, &runs); err != nil {
				b.Fatal(err)
			}
		}))
	}
	cpu := (cputime.Used() - c0).Seconds() / float64(b.N)
	b.ReportMetric(float64(peak)/1e6, "peak-rss-MB")
	b.ReportMetric(float64(c.Nodes), "rows")
	b.ReportMetric(float64(c.Nodes)/cpu, "rows/cpu-s")
	b.ReportMetric(float64(nodes)/1e6, "out-MB")
	b.ReportMetric(cpu, "cpu-s/op")
	b.ReportMetric(time.Since(t0).Seconds()/float64(b.N), "wall-s/op")
}
