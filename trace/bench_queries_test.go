package trace

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

// Sizes of the query benchmark's trace: run 1 for the self-join, run 2 for
// lookups and the README's idioms.
const (
	benchJoinNodes   = 1_000_000
	benchLookupNodes = 10_000_000
)

// benchQueryFiles returns the query benchmark's trace in both layouts: the
// file this build writes and the same rows in schema version 1.
// They take a minute to build, so they are kept in $HORIZON_BENCH_DIR (or
// the temp dir) for the next run.
func benchQueryFiles(b *testing.B) (v1, v2 string) {
	dir := os.Getenv("HORIZON_BENCH_DIR")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "horizon-query-bench")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	tag := fmt.Sprintf("%d-%d-v%d", benchJoinNodes, benchLookupNodes, SchemaVersion())
	v2 = filepath.Join(dir, "q-"+tag+".trace")
	v1 = filepath.Join(dir, "q-"+tag+"-as-v1.trace")
	if _, err := os.Stat(v1); err == nil {
		// A kept file gets this build's nodes view, as a user's file
		// does when this Horizon records into it.
		s, err := Open(v2)
		if err == nil {
			err = s.prepareWrite(context.Background())
			err = errors.Join(err, s.Close())
		}
		if err != nil {
			b.Fatal(err)
		}
		return v1, v2
	}
	os.Remove(v2)
	s, err := Create(v2)
	if err != nil {
		b.Fatal(err)
	}
	for i, n := range []int64{benchJoinNodes, benchLookupNodes} {
		rec, err := s.NewRecorder(context.Background(), RunInfo{FEN: tacticalFEN, Variant: "synthetic"}, RecordOptions{})
		if err != nil {
			b.Fatal(err)
		}
		g := newSynth(rec, uint64(100+i), nil)
		g.width, g.stopAt = 5, n
		g.run(40)
		if err := rec.Finish(Result{}); err != nil {
			b.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
	// The same rows in the version 1 layout: its schema file, then a copy.
	os.Remove(v1)
	db, err := sql.Open("sqlite3", v1)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, q := range []string{
		migrations()[0].sql,
		fmt.Sprintf("PRAGMA application_id=%d; PRAGMA user_version=1", applicationID),
		"ATTACH '" + strings.ReplaceAll(v2, "'", "''") + "' AS src",
		"INSERT INTO kinds SELECT * FROM src.kinds",
		"INSERT INTO bounds SELECT * FROM src.bounds",
		"INSERT INTO causes SELECT * FROM src.causes",
		`INSERT INTO runs SELECT id, created, fen, variant, options, limits, version, status, filter, nodes, qs_nodes,
			rows, max_ply, max_qs_ply, elapsed_ms, best_move, score, pv, depth FROM src.runs`,
		"INSERT INTO iterations (run_id, iteration, root_id) SELECT run_id, iteration, root_id FROM src.iterations",
		"INSERT INTO stats SELECT * FROM src.stats",
		"INSERT INTO hotspots SELECT * FROM src.hotspots",
		`INSERT INTO node_rows SELECT (run_id << 32) + id, up, size,
			(info & 134217727) | (((info >> 34) & 127) << 27) | (((info >> 41) & 3) << 34) | (((info >> 43) & 15) << 36),
			counts, alpha, alpha + width, score, score - stand_diff, move, best FROM src.node_rows ORDER BY run_id, id`,
		"DETACH src",
	} {
		if _, err := db.Exec(q); err != nil {
			os.Remove(v1)
			b.Fatalf("%v\n%s", err, q)
		}
	}
	return v1, v2
}

// benchQuery is one question a user asks of a trace, in SQL over the
// documented names.
type benchQuery struct {
	name   string
	v1, v2 string  // the SQL in each layout ("" in v1: the same as v2)
	args   []int64 // ?1.. values; -1 is replaced by a random node id per call
	calls  int
	// lookups: "before" is the same file through the schema's nodes view,
	// which looks kind, bound and cutoff up per row (lookup_nodes), not
	// schema 1; the two are timed call by call in turn.
	lookups bool
}

// nameQueries are the questions over a whole run that name a node's kind,
// bound or cutoff, of run.
func nameQueries(run int64) []benchQuery {
	return []benchQuery{
		{name: "whole run: count kind = 'qs'", calls: 5, lookups: true,
			v2: fmt.Sprintf("SELECT count(*) FROM nodes WHERE run_id = %d AND kind = 'qs'", run)},
		{name: "whole run: count bound = 'lower'", calls: 5, lookups: true,
			v2: fmt.Sprintf("SELECT count(*) FROM nodes WHERE run_id = %d AND bound = 'lower'", run)},
		{name: "whole run: count cutoff = 'beta'", calls: 5, lookups: true,
			v2: fmt.Sprintf("SELECT count(*) FROM nodes WHERE run_id = %d AND cutoff = 'beta'", run)},
		{name: "whole run: rows by cutoff", calls: 3, lookups: true,
			v2: fmt.Sprintf("SELECT cutoff, count(*) FROM nodes WHERE run_id = %d GROUP BY cutoff", run)},
	}
}

// timeAB times the queries a on dbA and b on dbB call by call in turn, as
// timeQuery does each, and returns the median of each.
func timeAB(dbA *sql.DB, a string, dbB *sql.DB, b string, calls int) (ta, tb time.Duration, ok bool) {
	var as, bs []time.Duration
	for i := 0; i < calls; i++ {
		da, oka := timeQuery(dbA, a, nil, 1, nil, nil)
		db, okb := timeQuery(dbB, b, nil, 1, nil, nil)
		if !oka || !okb {
			return da, db, false
		}
		as, bs = append(as, da), append(bs, db)
	}
	slices.Sort(as)
	slices.Sort(bs)
	return as[len(as)/2], bs[len(bs)/2], true
}

// withLookupView opens the trace at p read-only on one connection, which
// holds the schema's nodes view as the temporary view lookup_nodes.
func withLookupView(b *testing.B, p string) *sql.DB {
	db, err := sql.Open("sqlite3", "file:"+p+"?mode=ro")
	if err != nil {
		b.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(strings.Replace(schemaNodesView(), "CREATE VIEW nodes AS", "CREATE TEMP VIEW lookup_nodes AS", 1)); err != nil {
		b.Fatal(err)
	}
	return db
}

// timeQuery runs q calls times (fewer once a call runs past the cap) and
// returns the median time of a call, or the cap when a call did not finish.
func timeQuery(db *sql.DB, q string, args []int64, calls int, ids []int64, rng *rand.Rand) (time.Duration, bool) {
	const limit = 20 * time.Second
	var times []time.Duration
	for i := 0; i < calls; i++ {
		var a []any
		for _, v := range args {
			if v == -1 {
				v = ids[rng.Intn(len(ids))]
			}
			a = append(a, v)
		}
		ctx, cancel := context.WithTimeout(context.Background(), limit)
		start := time.Now()
		rows, err := db.QueryContext(ctx, q, a...)
		if err == nil {
			for rows.Next() {
			}
			err = rows.Err()
			rows.Close()
		}
		d := time.Since(start)
		cancel()
		if err != nil {
			return limit, false
		}
		times = append(times, d)
		if d > 2*time.Second {
			break
		}
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	return times[len(times)/2], true
}

// BenchmarkQueryTimes prints the time of the questions of issue 12 through
// the documented names, on schema version 1 (before) and this build's
// schema (after), as bars: a self-join of nodes with their parents over a
// 1M-node run, point and child lookups and a subtree range on a 10M-row
// run, and the README's idioms. Run it alone:
//
//	go test ./trace -run '^$' -bench QueryTimes -benchtime 1x
//
// Calls that run past 20 s are stopped and shown as "> 20s".
func BenchmarkQueryTimes(b *testing.B) {
	v1, v2 := benchQueryFiles(b)
	s, err := OpenReadOnly(v2)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	// Random ids of run 2, and internal nodes for child lookups.
	var ids, parents []int64
	var subtreeID, subtreeEnd int64
	rng := rand.New(rand.NewSource(1))
	for len(parents) < 200 {
		id := rng.Int63n(benchLookupNodes)
		n, err := s.Node(context.Background(), 2, id)
		if err != nil {
			continue
		}
		ids = append(ids, id)
		if n.SubtreeSize > 1 {
			parents = append(parents, id)
		}
	}
	// A subtree of 5,000 to 50,000 rows: down from the run node, always
	// into the biggest child.
	for n, err := s.Node(context.Background(), 2, 0); err == nil && n.SubtreeSize > 50000; {
		kids, kerr := s.Children(context.Background(), 2, n.ID, BySize, 0, 1)
		if kerr != nil || len(kids) == 0 {
			break
		}
		n = kids[0]
		subtreeID, subtreeEnd = n.ID, n.End()
	}
	queries := []benchQuery{
		{name: "point lookup, 10M-row run", calls: 50, args: []int64{-1},
			v2: "SELECT * FROM nodes WHERE run_id = 2 AND id = ?1"},
		{name: "children of a node, 10M-row run", calls: 50, args: []int64{-1},
			v2: "SELECT * FROM nodes WHERE run_id = 2 AND parent_id = ?1"},
		{name: fmt.Sprintf("subtree by id range (%d rows)", subtreeEnd-subtreeID), calls: 10, args: []int64{subtreeID, subtreeEnd},
			v2: "SELECT count(*), max(score) FROM nodes WHERE run_id = 2 AND id >= ?1 AND id < ?2"},
		{name: "nodes joined to parents, 1M-node run", calls: 1,
			v2: "SELECT count(*) FROM nodes c JOIN nodes p ON p.run_id = c.run_id AND p.id = c.parent_id WHERE c.run_id = 1 AND p.score = -c.score"},
		{name: "idiom: QS nodes per QS ply (stats)", calls: 10,
			v2: "SELECT value AS qs_ply, nodes FROM stats WHERE run_id = 2 AND dim = 'qs_ply' ORDER BY value"},
		{name: "  the same, counted over nodes", calls: 1,
			v1: "SELECT -depth AS qs_ply, count(*) FROM nodes WHERE run_id = 2 AND kind = 'qs' GROUP BY 1",
			v2: "SELECT qs_ply, count(*) FROM nodes WHERE run_id = 2 AND qs_ply IS NOT NULL GROUP BY qs_ply"},
		{name: "idiom: the biggest QS trees", calls: 5,
			v2: `SELECT n.id, n.subtree_size, n.ply FROM hotspots h JOIN nodes n ON n.run_id = h.run_id AND n.id = h.node_id
				WHERE h.run_id = 2 AND h.rank_by = 'size' ORDER BY h.rank LIMIT 20`},
		{name: "idiom: |score - stand_pat| > 300", calls: 3,
			v2: "SELECT count(*) FROM nodes WHERE run_id = 2 AND abs(score - stand_pat) > 300"},
	}
	queries = append(queries, nameQueries(2)...)
	open := func(p string) *sql.DB {
		db, err := sql.Open("sqlite3", "file:"+p+"?mode=ro")
		if err != nil {
			b.Fatal(err)
		}
		db.SetMaxOpenConns(1)
		return db
	}
	db1, db2 := open(v1), open(v2)
	defer db1.Close()
	defer db2.Close()
	dbLookups := withLookupView(b, v2)
	defer dbLookups.Close()
	fmt.Printf("\nquery times through nodes/runs/stats/hotspots, median of calls (schema 1 = before, %d = after;\n"+
		"whole run: before = the schema's view, which looks the names up per row)\n", SchemaVersion())
	for _, q := range queries {
		qv1 := q.v1
		if qv1 == "" {
			qv1 = q.v2
		}
		pick := ids
		if strings.Contains(q.name, "children") {
			pick = parents
		}
		var b1, b2 time.Duration
		ok1, ok2 := true, true
		if q.lookups {
			b1, b2, ok1 = timeAB(dbLookups, strings.Replace(q.v2, "FROM nodes", "FROM lookup_nodes", 1), db2, q.v2, q.calls)
			ok2 = ok1
		} else {
			b1, ok1 = timeQuery(db1, qv1, q.args, q.calls, pick, rng)
			b2, ok2 = timeQuery(db2, q.v2, q.args, q.calls, pick, rng)
		}
		printBeforeAfter(q.name, b1, ok1, b2, ok2)
	}
	b.ReportMetric(0, "ns/op")
}

// printBeforeAfter prints a query's times before and after, as bars, and
// their ratio.
func printBeforeAfter(name string, b1 time.Duration, ok1 bool, b2 time.Duration, ok2 bool) {
	bar := func(d time.Duration) string {
		// One '#' per factor of 10 above 10 µs, in quarters.
		n := int(math.Round(4 * math.Log10(float64(d)/float64(10*time.Microsecond))))
		return strings.Repeat("#", max(n, 1))
	}
	show := func(d time.Duration, ok bool) string {
		if !ok {
			return "> " + d.String()
		}
		return d.Round(10 * time.Microsecond).String()
	}
	ratio := float64(b1) / float64(b2)
	prec := 0
	if ratio < 10 {
		prec = 2
	}
	fmt.Printf("%-42s before %-12s %s\n%-42s after  %-12s %s  (%.*fx)\n", name, show(b1, ok1), bar(b1), "", show(b2, ok2), bar(b2), prec, ratio)
}

// BenchmarkNodesViewNames times the whole-run questions on kind, bound and
// cutoff (nameQueries) through the schema's nodes view, which looks the
// names up per row (before), and the view this build writes (after), call
// by call in turn, on the biggest run of a trace of your own (a copy of
// it: the benchmark writes this build's view into the file, as a
// recording would):
//
//	horizon trace --depth 7 --qs captures -o k7.trace   # Kiwipete, 1.5M rows
//	HORIZON_BENCH_TRACE=k7.trace go test ./trace -run '^$' -bench NodesViewNames -benchtime 1x
func BenchmarkNodesViewNames(b *testing.B) {
	src := os.Getenv("HORIZON_BENCH_TRACE")
	if src == "" {
		b.Skip("set HORIZON_BENCH_TRACE to a trace file (a copy is timed)")
	}
	p := copyTrace(b, src, "bench.trace")
	s, err := Open(p)
	if err != nil {
		b.Fatal(err)
	}
	if err := s.prepareWrite(context.Background()); err != nil {
		b.Fatal(err)
	}
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
	db := withLookupView(b, p)
	defer db.Close()
	var run, rows int64
	if err := db.QueryRow("SELECT id, rows FROM runs ORDER BY rows DESC LIMIT 1").Scan(&run, &rows); err != nil {
		b.Fatal(err)
	}
	fmt.Printf("\nrun %d of %s, %d rows: before = the schema's view (names looked up per row), after = this build's\n", run, src, rows)
	for _, q := range nameQueries(run) {
		b1, b2, ok := timeAB(db, strings.Replace(q.v2, "FROM nodes", "FROM lookup_nodes", 1), db, q.v2, q.calls)
		printBeforeAfter(q.name, b1, ok, b2, ok)
	}
	b.ReportMetric(0, "ns/op")
}

// readmeSearchedQuery is the SQL of docs/trace-file.md (once the
// README's) for the moves a node searched past the stored cap, for node id
// of run.
func readmeSearchedQuery(t *testing.T, run, id int64) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "docs", "trace-file.md"))
	if err != nil {
		t.Skipf("no docs/trace-file.md: %v", err)
	}
	const marker = "-- moves node 5000000 of run 2 searched"
	text := string(b)
	i := strings.Index(text, marker)
	if i < 0 {
		t.Fatalf("docs/trace-file.md has no query for a node's searched count (%q)", marker)
	}
	q, _, _ := strings.Cut(text[i:], ";")
	q = strings.Replace(q, "run_id = 2", fmt.Sprintf("run_id = %d", run), 1)
	return strings.Replace(q, "parent_id = 5000000", fmt.Sprintf("parent_id = %d", id), 1)
}
