package trace

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/horizonqs/horizon/engine"
)

// MaxChildren bounds the children of one node: what readers read of a
// node's children before they call the file damaged, and what the
// importer of other engines' streams records. A position has at most 218
// legal moves; re-searches (PVS, the threshold variant's level passes, the
// unified variant's internal iterations, Fairy-Max's passes inside every
// node) visit a move a few times more, and the run node has one child per
// iteration. More rows claiming one parent mean a damaged file, never a
// reason to read without end. (Readers stopped at 4,096 while the importer
// took any number: a stream that imported whole and passed check was
// "damaged" to export and the viewer.)
const MaxChildren = 1 << 16

// maxTreeDepth bounds how deep a walk down (or up) a run's tree goes: plies
// are stored in 9 bits, plus the run and iteration roots.
const maxTreeDepth = 520

// The node queries, in the two layouts. Every query takes ?1 run, ?2 id,
// ?3 end (an exclusive id bound) and ?4 a row cap, so callers need not know
// the layout; schema version 1 computes its key, run << 32 | id, in SQL
// (a constant expression, so the lookup still seeks).
type nodeQueries struct {
	node, children, childCount, path, subtree string
}

// A layout is how a schema keys node_rows, as the pieces nodeSQL fills in:
// {k} the key column, {run} and {n.run} the test for run ?1 (unqualified
// and on n) where the key does not hold the run, {?2} and {?3} the keys of
// ids ?2 and ?3 of run ?1, {id} row n's node id, {cols} the columns
// scanNode reads.
type layout struct {
	k, run, key, id, cols string
}

// nodeSQL is the one text of the node queries. Children are found by
// hopping over subtrees on the key (the first child is the row after the
// node, each next one the first row after the previous child's subtree),
// which needs no parent index. Sizes below 1 are read as 1 so that a
// damaged row cannot make the walk stand still. Callers join c to
// node_rows with CROSS JOIN, which in SQLite fixes the join order: with a
// plain JOIN the planner may scan the whole table and probe c. A row found
// this way whose parent is not ?2 belongs to a child that has no row (open
// while recording, or filtered out); the query drops it, and the walk has
// already jumped past its subtree.
//
// Their plans are fixed: a trace file may carry planner statistics
// (ANALYZE's, or planted to slow Horizon down) and indexes. Every read of
// node_rows is NOT INDEXED (the key alone: Horizon needs no index of its
// own, and no user's index is opened with, checkSchema), joins are CROSS
// JOINs, and the parent test is written as up = id - parent, which SQLite
// cannot answer from a parent index on (id - up): SQLite still considers a
// partial index of a WITHOUT ROWID table under NOT INDEXED, and picked it
// or the key by the statistics (TestPlansIgnoreStats).
var nodeSQL = func() nodeQueries {
	const walk = `WITH RECURSIVE c({k}) AS (
		SELECT (SELECT {k} FROM node_rows NOT INDEXED WHERE {run}{k} > {?2} AND {k} < {?3} ORDER BY {k} LIMIT 1)
		UNION ALL
		SELECT (SELECT n.{k} FROM node_rows n NOT INDEXED WHERE {n.run}n.{k} >= c.{k} + max(1, (SELECT size FROM node_rows NOT INDEXED WHERE {run}{k} = c.{k})) AND n.{k} < {?3} ORDER BY n.{k} LIMIT 1)
		FROM c WHERE c.{k} IS NOT NULL
		LIMIT ?4
	)`
	return nodeQueries{
		node:       "SELECT {cols} FROM node_rows n NOT INDEXED WHERE {n.run}n.{k} = {?2}",
		children:   walk + " SELECT {cols} FROM c CROSS JOIN node_rows n NOT INDEXED ON {n.run}n.{k} = c.{k} WHERE n.up = n.{k} - ({?2}) ORDER BY c.{k}",
		childCount: walk + " SELECT count(*) FROM c CROSS JOIN node_rows n NOT INDEXED ON {n.run}n.{k} = c.{k} WHERE n.up = n.{k} - ({?2})",
		// Each step goes to a strictly smaller id (up > 0), so the walk
		// ends even on a damaged file; ?4 caps it anyway. The step joins
		// with CROSS JOIN too: planner statistics in the file (ANALYZE's,
		// or planted) turned a plain JOIN into a read of the run's every
		// row per step (TestPlansIgnoreStats).
		path: `WITH RECURSIVE p({k}) AS (
			SELECT {?2}
			UNION ALL
			SELECT n.{k} - n.up FROM p CROSS JOIN node_rows n NOT INDEXED ON {n.run}n.{k} = p.{k} WHERE n.up > 0 AND {id} >= n.up AND ?3 >= 0
			LIMIT ?4
		) SELECT {cols} FROM p CROSS JOIN node_rows n NOT INDEXED ON {n.run}n.{k} = p.{k} ORDER BY n.{k}`,
		subtree: "SELECT {cols} FROM node_rows n NOT INDEXED WHERE {n.run}n.{k} >= {?2} AND n.{k} < {?3} AND ?4 <> 0 ORDER BY n.{k}",
	}
}()

// queries fills nodeSQL in for layout l.
func (l layout) queries() nodeQueries {
	runOn := ""
	if l.run != "" {
		runOn = "n." + l.run
	}
	r := strings.NewReplacer("{k}", l.k, "{run}", l.run, "{n.run}", runOn,
		"{?2}", l.key+"?2", "{?3}", l.key+"?3", "{id}", l.id, "{cols}", l.cols)
	q := nodeSQL
	for _, s := range []*string{&q.node, &q.children, &q.childCount, &q.path, &q.subtree} {
		*s = r.Replace(*s)
	}
	return q
}

// queries2: node_rows keyed by (run_id, id), hopping over subtrees as
// queries1 does: the per-run parent indexes exist only once a run has
// finished, and the hop needs none. info comes back in schema 3's order;
// scanNode reorders it.
var queries2 = layout{k: "id", run: "run_id = ?1 AND ", id: "n.id", cols: queries2Cols}.queries()

// queries2Cols are the columns scanNode reads, of node_rows n keyed by
// (run_id, id).
const queries2Cols = "n.id, n.up, n.size, n.info, n.counts, n.alpha, n.alpha + n.width, n.score, n.score - n.stand_diff, n.move, n.best"

// parentIndexMinRows is the smallest run that gets a parent index. Building
// one reads the whole node table (SQLite fills a partial index by a full
// scan, about 30 ns a row), which a file of many small runs (a compare
// sweep) would pay once per run; a run below this size answers a lookup by
// parent_id by reading its own rows through the key, in a few milliseconds.
var parentIndexMinRows int64 = 100_000 // a var: tests lower it

// parentIndexSQL creates run's parent index: node_parent_<run> on
// (id - up), the expression nodes.parent_id is, for the run's rows only.
// The run id is an integer this package owns.
func parentIndexSQL(run int64) string {
	return fmt.Sprintf("CREATE INDEX IF NOT EXISTS node_parent_%d ON node_rows (id - up) WHERE run_id = %d", run, run)
}

// queries1: schema version 1, node_rows keyed by k = run << 32 | id. It has
// no parent index.
var queries1 = layout{
	k: "k", key: "(?1 << 32) + ", id: "(n.k & 4294967295)",
	cols: "n.k & 4294967295, n.up, n.size, n.info, n.counts, n.alpha, n.beta, n.score, n.stand_pat, n.move, n.best",
}.queries()

func (s *Store) q() *nodeQueries {
	if s.v1() {
		return &queries1
	}
	return &queries2
}

// nodeQuery runs the node query pick takes from the layout of the file's
// schema version, and once more when it fails because another process
// upgraded the file since this store read the version (see upgraded): the
// query of the old layout then fails to prepare, before any row is read.
func (s *Store) nodeQuery(ctx context.Context, pick func(*nodeQueries) string, args ...any) (*sql.Rows, error) {
	rows, err := s.queryStmt(ctx, pick(s.q()), args...)
	if err != nil && s.upgraded(ctx) {
		rows, err = s.queryStmt(ctx, pick(s.q()), args...)
	}
	return rows, err
}

// queryStmt runs query prepared once (stmt): a diagram reads the
// children of thousands of nodes, and preparing the recursive children
// query cost as much as running it. Where it cannot be prepared it runs
// as it is.
func (s *Store) queryStmt(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if st := s.stmt(ctx, query); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return s.read().QueryContext(ctx, query, args...)
}

// The node queries, for nodeQuery.
func childrenSQL(q *nodeQueries) string { return q.children }
func pathSQL(q *nodeQueries) string     { return q.path }
func subtreeSQL(q *nodeQueries) string  { return q.subtree }

// scanNode reads the one row of a QueryRow and completes it (complete):
// Scan has let the row's connection go by then.
func (s *Store) scanNode(ctx context.Context, row *sql.Row, run int64) (Node, error) {
	n, err := s.scanRow(row, run)
	if err == nil && s.needsQuery(n) {
		err = s.complete(ctx, &n)
	}
	return n, err
}

// needsQuery reports whether row n, as scanRow read it, takes a query of
// its own to complete: a schema-1 placeholder size, or a searched count
// the file stores saturated. A reader walking rows runs complete once it
// has closed them: while they are open the query needs a second
// connection, and waits for one for ever where the store allows one (as
// Close does).
func (s *Store) needsQuery(n Node) bool {
	return s.placeholder(n) || n.Searched >= maxCountStored && !n.Open
}

// placeholder reports whether n is schema version 1's placeholder for an
// open node: incomplete, its size reaching to the end of the id space.
func (s *Store) placeholder(n Node) bool {
	return s.v1() && n.Incomplete && n.SubtreeSize >= 1<<31
}

// complete finishes a row needsQuery named: a placeholder's size is cut
// to the rows the run has and the row is checked (checkRow); a saturated
// searched count is made true (searchedFromRows).
func (s *Store) complete(ctx context.Context, n *Node) error {
	if s.placeholder(*n) {
		var last sql.NullInt64
		err := s.read().QueryRowContext(ctx, "SELECT max(k) & 4294967295 FROM node_rows WHERE k >= (?1 << 32) + ?2 AND k < (?1 + 1) << 32", n.RunID, n.ID).Scan(&last)
		if err != nil {
			return sqliteErr(s.path, err)
		}
		if last.Valid {
			n.SubtreeSize = last.Int64 - n.ID + 1
		}
		if err := s.checkRow(n); err != nil {
			return err
		}
	}
	if n.Searched >= maxCountStored && !n.Open {
		key := searchedKey{n.RunID, n.ID}
		if v, ok := s.searched.Load(key); ok {
			c := v.(searchedCount)
			n.Searched, n.SearchedAtLeast = c.n, c.atLeast
			return nil
		}
		if err := s.searchedFromRows(ctx, n); err != nil {
			return err
		}
		if s.searchedCached.Add(1) <= maxSearchedCached {
			s.searched.Store(key, searchedCount{n.Searched, n.SearchedAtLeast})
		}
	}
	return nil
}

// searchedKey names a node in Store.searched; searchedCount is what
// searchedFromRows made of its count.
type (
	searchedKey   struct{ run, id int64 }
	searchedCount struct {
		n       int
		atLeast bool
	}
)

// maxSearchedCached bounds Store.searched (about 100 bytes an entry). A
// run of 1,000 nodes of 999 children each had its summary's five visit
// marks read the root's children, and so a million rows, five times.
const maxSearchedCached = 1 << 20

// completeRows ends a walk of rows that read nodes: it closes them, then
// completes the nodes that need it (needsQuery); where names the walk in
// an error (placeErr).
func (s *Store) completeRows(ctx context.Context, rows *sql.Rows, nodes []Node, where string) error {
	if err := rows.Err(); err != nil {
		return s.placeErr(err, where)
	}
	rows.Close()
	for i := range nodes {
		if s.needsQuery(nodes[i]) {
			if err := s.complete(ctx, &nodes[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

// searchedFromRows gives node n, whose searched count node_rows.counts
// stores saturated (8 bits: a node of the threshold QS or the unified
// search passes over its moves again and again, and searches hundreds),
// its true count from its child rows: a search of each move made a child,
// and a PVS re-search a second one, right after the null-window try of
// the same move, at the same depth, with a wider window (a later pass's
// try of the same move never widens it: alpha only rises; the next
// iteration of the unified search may, after a null-window try that cut
// the last one off, but one ply deeper). Where the rows cannot give the
// count, because a recording filter left the children out, n keeps the
// stored count and says it is a lower bound (SearchedAtLeast).
func (s *Store) searchedFromRows(ctx context.Context, n *Node) error {
	rows, err := s.nodeQuery(ctx, childrenSQL, n.RunID, n.ID, n.End(), MaxChildren+1)
	if err != nil {
		return sqliteErr(s.path, err)
	}
	defer rows.Close()
	count := 0
	var prev Node
	for i := 0; rows.Next(); i++ {
		k, err := s.scanRow(rows, n.RunID)
		if err != nil {
			return err
		}
		if i == 0 || k.Move != prev.Move || k.Depth != prev.Depth || k.Beta-k.Alpha <= prev.Beta-prev.Alpha {
			count++
		}
		prev = k
	}
	if err := rows.Err(); err != nil {
		return sqliteErr(s.path, err)
	}
	if count >= n.Searched {
		n.Searched = count
	} else {
		n.SearchedAtLeast = true
	}
	return nil
}

// scanRow reads one row of a node query as the file stores it, and checks
// it (see checkRow), but for a placeholder (see needsQuery), which complete
// checks once its size is cut.
func (s *Store) scanRow(sc interface{ Scan(...any) error }, run int64) (Node, error) {
	if rows, ok := sc.(*sql.Rows); ok {
		if v, ok := scanInts(rows); ok {
			c := &v.cols
			return s.decodeRow(run, c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], sql.NullInt64{Int64: c[standColumn], Valid: !v.standNull}, c[9], c[10])
		}
	}
	return s.scanConverted(sc, run)
}

// scanConverted is scanRow with Scan's conversions (a column's text read
// as a number) and its errors, for a row scanInts did not take. Its own
// function, as the columns it scans into live on the heap.
func (s *Store) scanConverted(sc interface{ Scan(...any) error }, run int64) (Node, error) {
	var id, up, size, info, counts, alpha, beta, score, move, best int64
	var stand sql.NullInt64
	if err := sc.Scan(&id, &up, &size, &info, &counts, &alpha, &beta, &score, &stand, &move, &best); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return Node{}, err
		}
		where := fmt.Sprintf("run %d node %d", run, id)
		if strings.Contains(err.Error(), "column index 0,") {
			where = fmt.Sprintf("run %d: a node row with a damaged id", run)
		}
		return Node{}, s.readErr(err, where)
	}
	return s.decodeRow(run, id, up, size, info, counts, alpha, beta, score, stand, move, best)
}

// nodeColumns is how many columns a node query returns ({cols}).
const nodeColumns = 11

// rowScan is scanRow's buffer for a row of *sql.Rows: Scan into *any takes
// the driver's value as it is, where Scan into *int64 converts each column
// through reflection, which was a seventh of the time a diff of two runs
// spent reading them.
type rowScan struct {
	vals [nodeColumns]any
	dest [nodeColumns]any
}

var rowScans = sync.Pool{New: func() any {
	r := new(rowScan)
	for i := range r.vals {
		r.dest[i] = &r.vals[i]
	}
	return r
}}

// scanInts reads the current row of rows when every column is an integer
// (the stand pat column may be NULL), as a file Horizon wrote holds them,
// and returns its integers; ok is false otherwise, and scanRow scans the
// row again with Scan's conversions and errors, so that a damaged row reads
// as it always did.
func scanInts(rows *sql.Rows) (v intRow, ok bool) {
	r := rowScans.Get().(*rowScan)
	defer rowScans.Put(r)
	if rows.Scan(r.dest[:]...) != nil {
		return v, false
	}
	ok = true
	for i, x := range r.vals {
		switch x := x.(type) {
		case int64:
			v.cols[i] = x
		case nil:
			v.standNull = true
			ok = ok && i == standColumn
		default:
			ok = false
		}
		r.vals[i] = nil
	}
	return v, ok
}

// intRow is a node query's row of integers (scanInts), but for the stand
// pat, which may be NULL.
type intRow struct {
	cols      [nodeColumns]int64
	standNull bool
}

// standColumn is the stand pat's column in a node query ({cols}).
const standColumn = 8

// decodeRow makes the Node of a row's columns and checks it as scanRow
// says.
func (s *Store) decodeRow(run, id, up, size, info, counts, alpha, beta, score int64, stand sql.NullInt64, move, best int64) (Node, error) {
	if !s.v1() {
		info = loadedInfo(info)
	}
	var sp *int64
	if stand.Valid {
		sp = &stand.Int64
	}
	n := decode(run, id, up, size, info, counts, alpha, beta, score, sp, move, best)
	if s.levelless[run] {
		n.QSLevel = -1
	}
	if s.noQS[run] {
		noQSNode(&n)
	}
	if s.placeholder(n) {
		n.Open = true
		return n, nil
	}
	if err := s.checkRow(&n); err != nil {
		return Node{}, err
	}
	return n, nil
}

// queryRows runs query and reads each row with read, whose errors come
// back as they are; the query's and the row walk's are wrapped as the
// file's (sqliteErr).
func queryRows[T any](ctx context.Context, s *Store, read func(*sql.Rows) (T, error), query string, args ...any) ([]T, error) {
	rows, err := s.read().QueryContext(ctx, query, args...)
	if err != nil {
		return nil, sqliteErr(s.path, err)
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := read(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, sqliteErr(s.path, err)
	}
	return out, nil
}

// iterations returns the run's iteration roots by id.
func (s *Store) iterations(ctx context.Context, run int64) ([]iterRoot, error) {
	return queryRows(ctx, s, func(rows *sql.Rows) (iterRoot, error) {
		var it iterRoot
		if err := rows.Scan(&it.id, &it.iteration); err != nil {
			return it, s.readErr(err, fmt.Sprintf("run %d: an iteration row", run))
		}
		if !validID(it.id) || it.iteration < 0 || it.iteration > maxTreeDepth {
			return it, damagedf("trace %s: run %d: iteration %d has root node %d", s.path, run, it.iteration, it.id)
		}
		return it, nil
	}, "SELECT root_id, iteration FROM iterations WHERE run_id = ? ORDER BY root_id LIMIT 10000", run)
}

// iterationOf returns the iteration of node id: that of the last root at
// or before it.
func iterationOf(its []iterRoot, id int64) int {
	i := sort.Search(len(its), func(i int) bool { return its[i].id > id })
	if i == 0 {
		return 0
	}
	return its[i-1].iteration
}

// nodeErr wraps a query error, turning "no rows" into ErrNoNode.
func (s *Store) nodeErr(err error, run, id int64) error {
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("trace %s: run %d: node %d: %w", s.path, run, id, ErrNoNode)
	}
	return sqliteErr(s.path, err)
}

func (s *Store) checkRun(ctx context.Context, run int64) error {
	var one int
	err := s.read().QueryRowContext(ctx, "SELECT 1 FROM runs WHERE id = ?", run).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return s.noRun(ctx, run)
	}
	if err != nil {
		return sqliteErr(s.path, err)
	}
	return nil
}

func validID(id int64) bool { return id >= 0 && id < maxNodesPerRun }

// ScoreBound is the bound of run's score (Run.Score), the one rule for
// every reader: its run node's. Another engine's run reports only a bound
// when its last concluded iteration's root proved one (an MTD search ends
// on a fail-high probe); Horizon's runs report exact scores. A run with
// no run node row (abandoned before its first commit) reports none.
func (s *Store) ScoreBound(ctx context.Context, run int64) (engine.Bound, error) {
	n, err := s.Node(ctx, run, 0)
	if errors.Is(err, ErrNoNode) {
		return engine.BoundNone, nil
	}
	return n.Bound, err
}

// BoundWord is a run score's bound (ScoreBound) as every command says it,
// in text and as --json's score_bound: "lower" or "upper" when the score
// is only a bound, "" when it is exact (or unknown).
func BoundWord(b engine.Bound) string {
	if b == engine.BoundLower || b == engine.BoundUpper {
		return b.String()
	}
	return ""
}

// Node returns one node; the error wraps ErrNoNode when the run has no row
// with that id (and ErrNoRun when there is no such run), and ErrCorrupt
// when the row breaks the rules every trace keeps.
func (s *Store) Node(ctx context.Context, run, id int64) (Node, error) {
	return s.nodeIn(ctx, run, id, nil)
}

// nodeIn is Node with the run's iteration roots its as the caller read
// them (iterations) for many nodes; nil reads them.
func (s *Store) nodeIn(ctx context.Context, run, id int64, its []iterRoot) (Node, error) {
	if !validID(id) {
		return Node{}, s.nodeErr(sql.ErrNoRows, run, id)
	}
	n, err := s.scanNode(ctx, s.read().QueryRowContext(ctx, s.q().node, run, id), run)
	if err != nil && !errors.Is(err, sql.ErrNoRows) && s.upgraded(ctx) {
		// As nodeQuery: the file was upgraded since the version was read.
		n, err = s.scanNode(ctx, s.read().QueryRowContext(ctx, s.q().node, run, id), run)
	}
	if err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			if rerr := s.checkRun(ctx, run); rerr != nil {
				return Node{}, rerr
			}
			return Node{}, s.nodeErr(err, run, id)
		}
		return Node{}, err
	}
	if its == nil {
		if its, err = s.iterations(ctx, run); err != nil {
			return Node{}, err
		}
	}
	n.Iteration = iterationOf(its, n.ID)
	return n, nil
}

// nodesByIDSQL reads the nodes of run ?1 whose ids the JSON array ?2
// lists, by key.
const nodesByIDSQL = "SELECT " + queries2Cols +
	" FROM node_rows n NOT INDEXED WHERE n.run_id = ?1 AND n.id IN (SELECT value FROM json_each(?2))"

// nodesIn reads the nodes ids of run, each as Node reads it (its: the
// run's iteration roots, iterations), in one query: by id. A file of
// schema version 1 or 2, a failed query or an id with no row reads the
// nodes one by one, so every error is Node's.
func (s *Store) nodesIn(ctx context.Context, run int64, ids []int64, its []iterRoot) (map[int64]Node, error) {
	out := make(map[int64]Node, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	one := func() (map[int64]Node, error) {
		for _, id := range ids {
			n, err := s.nodeIn(ctx, run, id, its)
			if err != nil {
				return nil, err
			}
			out[id] = n
		}
		return out, nil
	}
	if s.v1() {
		return one()
	}
	list, err := json.Marshal(ids)
	if err != nil {
		return nil, err
	}
	rows, err := s.read().QueryContext(ctx, nodesByIDSQL, run, string(list))
	if err != nil {
		return one()
	}
	defer rows.Close()
	var read []Node
	for rows.Next() {
		n, err := s.scanRow(rows, run)
		if err != nil {
			return nil, err
		}
		read = append(read, n)
	}
	if err := s.completeRows(ctx, rows, read, fmt.Sprintf("run %d: %d nodes by id", run, len(ids))); err != nil {
		return nil, err
	}
	for _, n := range read {
		n.Iteration = iterationOf(its, n.ID)
		out[n.ID] = n
	}
	for _, id := range ids {
		if _, ok := out[id]; !ok {
			return one() // Node's error for it
		}
	}
	return out, nil
}

// Children returns up to limit children of node id, skipping the first
// offset of them in the given order, so a node with many children can be
// paged. limit <= 0 means all.
func (s *Store) Children(ctx context.Context, run, id int64, order Order, offset, limit int) ([]Node, error) {
	parent, err := s.Node(ctx, run, id)
	if err != nil {
		return nil, err
	}
	return s.childrenOf(ctx, parent, order, offset, limit)
}

// childrenOf is Children of parent as the caller read it from s, which
// must be the node as it reads now (a node of a run whose recorder has
// finished it): it spares the two queries Children makes first, of the
// node and of the run's iterations, a third of a child list's cost to a
// reader walking down a tree (ChildrenOf).
func (s *Store) childrenOf(ctx context.Context, parent Node, order Order, offset, limit int) ([]Node, error) {
	run := parent.RunID
	var err error
	offset = max(offset, 0)
	// A node has at most a few hundred children (legal moves and their
	// re-searches), so the query reads them all and pages here.
	// The iterations first: a second query while rows is open would need
	// a second connection.
	var its []iterRoot
	if parent.Kind != engine.KindRun {
		its = []iterRoot{{id: 0, iteration: parent.Iteration}}
	} else if its, err = s.iterations(ctx, run); err != nil {
		return nil, err
	}
	kids, ok := s.indexedChildren(ctx, parent, its)
	if !ok {
		if kids, err = s.hoppedChildren(ctx, parent, its); err != nil {
			return nil, err
		}
	}
	if order == BySize {
		slices.SortStableFunc(kids, func(a, b Node) int {
			switch {
			case a.SubtreeSize > b.SubtreeSize:
				return -1
			case a.SubtreeSize < b.SubtreeSize:
				return 1
			}
			return 0
		})
	}
	if offset >= len(kids) {
		return nil, nil
	}
	kids = kids[offset:]
	if limit > 0 && limit < len(kids) {
		kids = kids[:limit]
	}
	return kids, nil
}

// hoppedChildren reads parent's children by the hop over their subtrees
// (nodeSQL's children query), which needs no index and reads a run being
// recorded as well as a finished one.
func (s *Store) hoppedChildren(ctx context.Context, parent Node, its []iterRoot) ([]Node, error) {
	run, id := parent.RunID, parent.ID
	where := fmt.Sprintf("run %d: the children of node %d", run, id)
	rows, err := s.nodeQuery(ctx, childrenSQL, run, id, parent.End(), MaxChildren+1)
	if err != nil {
		return nil, s.placeErr(err, where)
	}
	defer rows.Close()
	var kids []Node
	prevEnd := id + 1
	for rows.Next() {
		n, err := s.scanRow(rows, run)
		if err != nil {
			return nil, err
		}
		// (A child reaching past the parent's end is not checked: the
		// parent was read by another statement, and a live run's open
		// nodes grow between the two.)
		if n.ID < prevEnd {
			return nil, damagedf("trace %s: run %d node %d overlaps the subtree of its previous sibling (ids up to %d)",
				s.path, run, n.ID, prevEnd-1)
		}
		prevEnd = n.End()
		if len(kids) == MaxChildren {
			return nil, damagedf("trace %s: run %d node %d has more than %d children", s.path, run, id, MaxChildren)
		}
		n.Iteration = iterationOf(its, n.ID)
		kids = append(kids, n)
	}
	if err := s.completeRows(ctx, rows, kids, where); err != nil {
		return nil, err
	}
	return kids, nil
}

// indexedChildren reads parent's children through its run's parent index
// (parentIndexSQL: a finished run of parentIndexMinRows rows or more has
// one), a lookup in the index and a seek for each child's row, where the
// hop seeks each child's row three times: a child list costs 3.9 against
// 9.3 µs a child on the 2,000 biggest subtrees of a 1.1M-node iteration. The file is
// untrusted and its index may be damaged, so the list is taken only when
// the children it names tile the parent's ids exactly, one after
// another, each whole: then the hop would find those rows and no others.
// Anything else (no index, a gap a recording filter left, a row that does
// not read, an open node) returns false, and the caller hops, which finds
// and reports what it always has. Statistics in the file cannot change
// the plan: INDEXED BY names the one index the query may use, and the
// query fails to prepare without it.
func (s *Store) indexedChildren(ctx context.Context, parent Node, its []iterRoot) ([]Node, bool) {
	run, id := parent.RunID, parent.ID
	if s.v1() || parent.SubtreeSize <= 1 {
		return nil, false
	}
	if _, no := s.unindexed.Load(run); no {
		return nil, false
	}
	st := s.stmt(ctx, indexedChildrenSQL(run))
	if st == nil {
		s.unindexed.Store(run, true)
		return nil, false
	}
	rows, err := st.QueryContext(ctx, id, MaxChildren+1)
	if err != nil {
		return nil, false
	}
	defer rows.Close()
	var kids []Node
	next := id + 1
	for rows.Next() {
		n, err := s.scanRow(rows, run)
		if err != nil || n.Open || n.ID != next || n.Parent != id || n.SubtreeSize < 1 || len(kids) == MaxChildren {
			return nil, false
		}
		next = n.End()
		n.Iteration = iterationOf(its, n.ID)
		kids = append(kids, n)
	}
	if rows.Err() != nil || next != parent.End() {
		return nil, false
	}
	rows.Close()
	for i := range kids {
		if s.needsQuery(kids[i]) {
			if err := s.complete(ctx, &kids[i]); err != nil {
				return nil, false
			}
		}
	}
	return kids, true
}

// indexedChildrenSQL reads the children of node ?1 of run through the
// run's parent index, ?2 of them at most. The run is in the text: SQLite
// uses a partial index only where the query's terms imply its WHERE.
func indexedChildrenSQL(run int64) string {
	return fmt.Sprintf("SELECT %s FROM node_rows n INDEXED BY node_parent_%d WHERE n.run_id = %d AND n.id - n.up = ?1 LIMIT ?2",
		queries2Cols, run, run)
}

// ChildCount returns how many children node id has.
func (s *Store) ChildCount(ctx context.Context, run, id int64) (int, error) {
	parent, err := s.Node(ctx, run, id)
	if err != nil {
		return 0, err
	}
	if parent.SubtreeSize <= 1 {
		return 0, nil
	}
	var n int
	err = s.read().QueryRowContext(ctx, s.q().childCount, run, id, parent.End(), MaxChildren+1).Scan(&n)
	if err != nil && s.upgraded(ctx) {
		err = s.read().QueryRowContext(ctx, s.q().childCount, run, id, parent.End(), MaxChildren+1).Scan(&n)
	}
	if err != nil {
		return 0, sqliteErr(s.path, err)
	}
	if n > MaxChildren {
		return 0, damagedf("trace %s: run %d node %d has more than %d children", s.path, run, id, MaxChildren)
	}
	return n, nil
}

// Path returns the nodes from the run node (id 0) down to node id, both
// included.
func (s *Store) Path(ctx context.Context, run, id int64) ([]Node, error) {
	if !validID(id) {
		return nil, s.nodeErr(sql.ErrNoRows, run, id)
	}
	// Follow parent links up; the run node (id 0, up 1) ends the walk.
	where := fmt.Sprintf("run %d: the path to node %d", run, id)
	rows, err := s.nodeQuery(ctx, pathSQL, run, id, 0, maxTreeDepth+1)
	if err != nil {
		return nil, s.placeErr(err, where)
	}
	defer rows.Close()
	var path []Node
	for rows.Next() {
		n, err := s.scanRow(rows, run)
		if err != nil {
			return nil, err
		}
		if len(path) > 0 && !path[len(path)-1].Contains(n.ID) {
			p := path[len(path)-1]
			return nil, damagedf("trace %s: run %d node %d has parent %d, whose subtree %d..%d does not hold it",
				s.path, run, n.ID, p.ID, p.ID, p.End()-1)
		}
		path = append(path, n)
	}
	if err := s.completeRows(ctx, rows, path, where); err != nil {
		return nil, err
	}
	if len(path) > maxTreeDepth {
		return nil, damagedf("trace %s: run %d node %d is more than %d levels below the run node", s.path, run, id, maxTreeDepth)
	}
	if len(path) == 0 || path[len(path)-1].ID != id {
		if rerr := s.checkRun(ctx, run); rerr != nil {
			return nil, rerr
		}
		return nil, s.nodeErr(sql.ErrNoRows, run, id)
	}
	if path[0].ID != 0 {
		return nil, damagedf("trace %s: run %d node %d: the path up from it stops at node %d, whose parent %d has no row",
			s.path, run, id, path[0].ID, path[0].Parent)
	}
	its, err := s.iterations(ctx, run)
	if err != nil {
		return nil, err
	}
	for i := range path {
		path[i].Iteration = iterationOf(its, path[i].ID)
	}
	return path, nil
}

// replay walks the moves of path from the run's root position, calling fn
// with the position before each move.
func (s *Store) replay(ctx context.Context, run int64, path []Node, fn func(*engine.Position, Node) error) (*engine.Position, error) {
	r, err := s.Run(ctx, run)
	if err != nil {
		return nil, err
	}
	return replayRun(s.path, r, path, fn)
}

// replayRun is replay of run r, read already, of the trace file named file.
func replayRun(file string, r Run, path []Node, fn func(*engine.Position, Node) error) (*engine.Position, error) {
	run := r.ID
	pos, err := engine.ParseFEN(r.FEN)
	if err != nil {
		return nil, fmt.Errorf("trace %s: run %d: root position: %w", file, run, err)
	}
	rule := r.MoveRule()
	for _, n := range path {
		if n.Move == engine.NoMove {
			continue
		}
		if !rule.Playable(pos, n.Move) {
			return nil, fmt.Errorf("trace %s: run %d: node %d: move %s is not legal in %s: %w",
				file, run, n.ID, n.Move.UCI(), pos.FEN(), ErrCorrupt)
		}
		if fn != nil {
			if err := fn(pos, n); err != nil {
				return nil, err
			}
		}
		pos.MakeMove(n.Move)
	}
	return pos, nil
}

// PathSAN returns the moves from the run's root position to node id in SAN
// (iteration roots and the run node have no move and contribute nothing),
// a nested search's root marked as NestedText marks it ("[iid]"), so that
// the path has a step for every node below its iteration root, as
// PathVisits and PathMarks count them.
func (s *Store) PathSAN(ctx context.Context, run, id int64) ([]string, error) {
	path, err := s.Path(ctx, run, id)
	if err != nil {
		return nil, err
	}
	r, err := s.Run(ctx, run)
	if err != nil {
		return nil, err
	}
	var nested map[int64]NestedSearch
	for i := range path {
		if IsNested(path[i]) {
			if nested, err = s.NestedSearches(ctx, run); err != nil {
				return nil, err
			}
			break
		}
	}
	return pathSAN(s.path, r, path, nested)
}

// pathSAN is PathSAN of path, as Path read it, in run r of file, with
// the run's nested searches (NestedSearches; nil where path has none).
func pathSAN(file string, r Run, path []Node, nested map[int64]NestedSearch) ([]string, error) {
	var san []string
	last := 0 // the index in path of the last move replayed
	pos, err := replayRun(file, r, path, func(p *engine.Position, n Node) error {
		san = appendNested(san, path, &last, n.ID, nested)
		san = append(san, p.SAN(n.Move))
		return nil
	})
	if err == nil && pos != nil {
		san = appendNested(san, path, &last, -1, nested)
	}
	return san, err
}

// appendNested appends to san the marks of the nested searches' roots on
// path after index *last up to node upTo (-1: to the path's end), and
// leaves *last at upTo's index.
func appendNested(san []string, path []Node, last *int, upTo int64, nested map[int64]NestedSearch) []string {
	for *last++; *last < len(path) && path[*last].ID != upTo; *last++ {
		if n := path[*last]; IsNested(n) {
			san = append(san, NestedText(nested[n.ID]))
		}
	}
	return san
}

// Position returns the position at node id, replayed from the run's FEN.
func (s *Store) Position(ctx context.Context, run, id int64) (*engine.Position, error) {
	path, err := s.Path(ctx, run, id)
	if err != nil {
		return nil, err
	}
	return s.replay(ctx, run, path, nil)
}

// PVChild returns the index among kids (node n's children, in search
// order) of the child the principal variation goes on through: under the
// run node, the root the run reports (ReportedRoot); under another node,
// the last child playing its best move (a re-search replaces the earlier
// try: its score is the one the node took). -1 when there is none.
func PVChild(r Run, n Node, kids []Node) int {
	if n.Kind == engine.KindRun {
		return ReportedRoot(r, kids)
	}
	if n.Best == engine.NoMove {
		return -1
	}
	for i := len(kids) - 1; i >= 0; i-- {
		if kids[i].Move == n.Best {
			return i
		}
	}
	return -1
}

// Find follows a move path (each move in SAN or UCI) down from node from
// and returns the node reached. When from is the run node (0), the path
// starts in the last iteration (ReportedRoot). When a node has several children for the
// same move (a re-search), the last one is taken: it is the one whose score
// the parent used; a move marked with its visit (dxe6·2, as paths print)
// takes that visit. The error wraps ErrNoMove and names the first move
// that did not match.
func (s *Store) Find(ctx context.Context, run, from int64, moves []string) (Node, error) {
	cur, err := s.Node(ctx, run, from)
	if err != nil {
		return Node{}, err
	}
	r, err := s.Run(ctx, run)
	if err != nil {
		return Node{}, err
	}
	// A finished run's nodes read as they did in their parent's child
	// list: each step reads its children without reading the node again
	// (a third of a step's queries). A run still recorded re-reads it.
	kidsOf := func(n Node) ([]Node, error) {
		if r.Status.Partial() {
			return s.Children(ctx, run, n.ID, BySearch, 0, 0)
		}
		return s.childrenOf(ctx, n, BySearch, 0, 0)
	}
	if cur.Kind == engine.KindRun {
		roots, err := kidsOf(cur)
		if err != nil {
			return Node{}, err
		}
		if len(roots) == 0 {
			if len(moves) == 0 {
				return cur, nil
			}
			return Node{}, fmt.Errorf("trace %s: run %d has no iteration: %w", s.path, run, ErrNoMove)
		}
		cur = roots[ReportedRoot(r, roots)]
	}
	pos, err := s.Position(ctx, run, cur.ID)
	if err != nil {
		return Node{}, err
	}
	var nested map[int64]NestedSearch
	for i, text := range moves {
		if IsNestedStep(text) {
			if nested == nil {
				if nested, err = s.NestedSearches(ctx, run); err != nil {
					return Node{}, err
				}
			}
			if cur, err = s.findNested(ctx, run, cur, nested, i, text); err != nil {
				return Node{}, err
			}
			continue
		}
		m, visit, err := ParsePathMove(pos, text)
		if err != nil {
			return Node{}, fmt.Errorf("trace %s: run %d: move %d (%q) at node %d: %v: %w", s.path, run, i+1, text, cur.ID, err, ErrNoMove)
		}
		kids, err := kidsOf(cur)
		if err != nil {
			return Node{}, err
		}
		next, n, ok := ChildByMove(kids, m, visit)
		if !ok {
			return Node{}, fmt.Errorf("trace %s: run %d: move %d (%s) %s at node %d: %w",
				s.path, run, i+1, VisitMark(pos.SAN(m), visit, n), NotSearchedText(n), cur.ID, ErrNoMove)
		}
		cur = next
		pos.MakeMove(m)
	}
	return cur, nil
}

// findNested is Find's step i (text, a nested search's mark: "[iid]",
// "[singular -e2e4]·2") from node cur: the nested search's root, whose
// position is cur's.
func (s *Store) findNested(ctx context.Context, run int64, cur Node, nested map[int64]NestedSearch, i int, text string) (Node, error) {
	mark, visit, err := SplitNestedStep(text)
	if err != nil {
		return Node{}, fmt.Errorf("trace %s: run %d: step %d at node %d: %v: %w", s.path, run, i+1, cur.ID, err, ErrNoMove)
	}
	kids, err := s.Children(ctx, run, cur.ID, BySearch, 0, 0)
	if err != nil {
		return Node{}, err
	}
	next, n, ok := ChildByNested(cur, kids, nested, mark, visit)
	if !ok {
		return Node{}, fmt.Errorf("trace %s: run %d: step %d (%s) at node %d: %s (%s): %w",
			s.path, run, i+1, VisitMark(mark, visit, n), cur.ID, NestedNotMadeText(n), NestedMarks(cur, kids, nested), ErrNoMove)
	}
	return next, nil
}

// ParsePathMove reads a move of a path, SAN or UCI (a null move "--" or
// "0000") with its visit marked or not (SplitVisit), in pos.
func ParsePathMove(pos *engine.Position, text string) (engine.Move, int, error) {
	mv, visit, err := SplitVisit(text)
	if err != nil {
		return engine.NoMove, 0, err
	}
	m, err := pos.ParseTreeMove(mv)
	if err != nil && mv != text {
		err = fmt.Errorf("%w (%s is read as %s marked with its visit)", err, engine.Clip(text, 40), engine.Clip(mv, 40))
	} else if err != nil && strings.ContainsAny(text, VisitSep+VisitSepsASCII) {
		// A mark not followed by a number ("dxe6.x") is no mark: say how
		// one is written rather than leave "dxe6.x" a mere illegal move.
		err = fmt.Errorf("%w (a move's visit is marked with a number: dxe6%s2, dxe6.2 or dxe6#2)", err, VisitSep)
	}
	return m, visit, err
}

// NotSearchedText says why a path's move found no child: it "was not
// searched", or was searched fewer times than its visit mark asks ("was
// searched once").
func NotSearchedText(n int) string {
	if n == 0 {
		return "was not searched"
	}
	return "was searched " + engine.Times(n)
}

// Subtree calls fn for node id and its descendants in pre-order (search
// order), at most maxDepth levels below id (0: the node alone; < 0: no
// limit). Rows are streamed, never loaded all at once. An error from fn
// stops the walk and is returned.
func (s *Store) Subtree(ctx context.Context, run, id int64, maxDepth int, fn func(Node) error) error {
	its, err := s.iterations(ctx, run)
	if err != nil {
		return err
	}
	// The top read with the same iteration roots (Node would read them
	// again: a tenth of the walks of a thousand small subtrees).
	top, err := s.nodeIn(ctx, run, id, its)
	if err != nil {
		return err
	}
	end := top.End()
	if maxDepth < 0 && s.snap == nil && end-id >= aheadMinRows {
		return s.subtreeAhead(ctx, run, id, end, its, fn)
	}
	if maxDepth < 0 && s.snap == nil && end-id <= rawMaxRows {
		if nodes, ok := s.rawRows(ctx, run, id, end); ok {
			return s.walkRows(ctx, run, end, its, nodes, fn)
		}
	}
	// ends[i] is where the subtree of the open ancestor at depth i ends.
	var ends []int64
	next := id
	for next < end {
		resume, err := s.subtreeFrom(ctx, run, next, end, its, &ends, maxDepth, fn)
		if err != nil {
			return err
		}
		next = resume
	}
	return nil
}

// subtreeFrom streams rows from id next to end. When a node at maxDepth
// has descendants it stops and returns where to resume, so the rows below
// are skipped by a seek instead of being read. Rows nested deeper than any
// search goes are damage.
func (s *Store) subtreeFrom(ctx context.Context, run, next, end int64, its []iterRoot, ends *[]int64, maxDepth int, fn func(Node) error) (int64, error) {
	rows, err := s.nodeQuery(ctx, subtreeSQL, run, next, end, 1)
	if err != nil {
		return 0, sqliteErr(s.path, err)
	}
	defer rows.Close()
	last := int64(-1) // the last row read, to say where damage stopped the walk
	for rows.Next() {
		n, err := s.scanRow(rows, run)
		if err != nil {
			return 0, err
		}
		last = n.ID
		// A row that needs a query of its own (needsQuery) ends this
		// one: its rows close first, and the stream resumes after it.
		resume := int64(-1)
		if s.needsQuery(n) {
			if err := rows.Close(); err != nil {
				return 0, sqliteErr(s.path, err)
			}
			if err := s.complete(ctx, &n); err != nil {
				return 0, err
			}
			resume = n.ID + 1
		}
		nEnd, err := s.nest(run, n, end, ends)
		if err != nil {
			return 0, err
		}
		n.Iteration = iterationOf(its, n.ID)
		if err := fn(n); err != nil {
			return 0, err
		}
		if maxDepth >= 0 && len(*ends) >= maxDepth {
			if n.SubtreeSize > 1 {
				return n.End(), rows.Close()
			}
		} else {
			*ends = append(*ends, nEnd)
		}
		if resume >= 0 {
			return resume, nil
		}
	}
	if err := rows.Err(); err != nil {
		return 0, s.walkErr(err, run, next, last)
	}
	return end, nil
}

// nest pops the open ancestors (ends: where the subtree of the open
// ancestor at each depth ends) that row n of a walk to end is past, and
// returns where n's subtree ends as the walk nests it.
func (s *Store) nest(run int64, n Node, end int64, ends *[]int64) (int64, error) {
	for len(*ends) > 0 && n.ID >= (*ends)[len(*ends)-1] {
		*ends = (*ends)[:len(*ends)-1]
	}
	// A subtree reaching past its parent's is passed on as it is (check
	// reports it), but nests no deeper than the parent's end: the stack
	// stays nested, and bounded by maxTreeDepth.
	nEnd := min(n.End(), end)
	if len(*ends) > 0 {
		nEnd = min(nEnd, (*ends)[len(*ends)-1])
	}
	if len(*ends) > maxTreeDepth {
		return 0, damagedf("trace %s: run %d node %d is nested more than %d levels deep", s.path, run, n.ID, maxTreeDepth)
	}
	return nEnd, nil
}

// Subtree reads a big subtree ahead (subtreeAhead): its id range in
// chunks of aheadChunk ids, aheadReaders chunks at a time, each on a
// goroutine and connection of its own, while the caller's goroutine nests
// the rows and calls fn in order. Reading and decoding rows was most of
// a check's time, on one core of two; the rows, their order, their
// checks and the errors are the walk's. A snapshot reads in its one
// transaction, on one connection, and walks as before (subtreeFrom).
const aheadReaders = 2

var (
	aheadChunk   int64 = 1 << 15 // vars: tests lower them
	aheadMinRows       = 4 * aheadChunk
)

// aheadPart is a chunk's rows as a reader read them: err is what ended
// the reading early (already the walk's error), rowsErr a failed row
// walk, which the caller names by the last row it passed on (walkErr).
type aheadPart struct {
	nodes        []Node
	err, rowsErr error
}

// subtreeAhead is Subtree's walk of the rows id..end of run with the
// rows read ahead (aheadChunk).
func (s *Store) subtreeAhead(ctx context.Context, run, id, end int64, its []iterRoot, fn func(Node) error) error {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer func() {
		cancel() // readers blocked on a part the walk no longer takes
		wg.Wait()
	}()
	parts := make([]chan aheadPart, aheadReaders)
	// Chunks' buffers go back to the readers once walked: growing a fresh
	// one per chunk was a sixth of the reading.
	free := make(chan []Node, 2*aheadReaders)
	for r := range parts {
		parts[r] = make(chan aheadPart, 1)
		wg.Add(1)
		go func(r int) {
			defer wg.Done()
			defer close(parts[r])
			for from := id + int64(r)*aheadChunk; from < end; from += int64(aheadReaders) * aheadChunk {
				var buf []Node
				select {
				case buf = <-free:
				default:
					buf = make([]Node, 0, aheadChunk)
				}
				p := s.readChunk(ctx, run, from, min(from+aheadChunk, end), buf[:0])
				select {
				case parts[r] <- p:
				case <-ctx.Done():
					return
				}
				if p.err != nil || p.rowsErr != nil {
					return
				}
			}
		}(r)
	}
	var ends []int64
	last := int64(-1)
	for k := 0; ; k++ {
		p, ok := <-parts[k%aheadReaders]
		if !ok {
			return ctx.Err() // every chunk read (or the walk was cancelled)
		}
		for _, n := range p.nodes {
			last = n.ID
			if err := s.visitNested(run, n, end, its, &ends, fn); err != nil {
				return err
			}
		}
		if p.err != nil {
			return p.err
		}
		if p.rowsErr != nil {
			return s.walkErr(p.rowsErr, run, id, last)
		}
		select {
		case free <- p.nodes:
		default:
		}
	}
}

// readChunk reads the rows from to end of run for subtreeAhead into buf, each
// checked and completed as subtreeFrom does (a row that needs a query of
// its own ends a query, which resumes after it).
func (s *Store) readChunk(ctx context.Context, run, from, end int64, buf []Node) aheadPart {
	p := aheadPart{nodes: buf}
	for from < end {
		rows, err := s.nodeQuery(ctx, subtreeSQL, run, from, end, 1)
		if err != nil {
			p.err = sqliteErr(s.path, err)
			return p
		}
		from = end
		for rows.Next() {
			n, err := s.scanRow(rows, run)
			if err != nil {
				rows.Close()
				p.err = err
				return p
			}
			if s.needsQuery(n) {
				if err := rows.Close(); err != nil {
					p.err = sqliteErr(s.path, err)
					return p
				}
				if err := s.complete(ctx, &n); err != nil {
					p.err = err
					return p
				}
				p.nodes = append(p.nodes, n)
				from = n.ID + 1
				break
			}
			p.nodes = append(p.nodes, n)
		}
		if err := rows.Err(); err != nil {
			p.rowsErr = err
		}
		rows.Close()
		if p.rowsErr != nil {
			return p
		}
	}
	return p
}
