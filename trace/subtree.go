package trace

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
)

// subtreeCountsSchema is the schema version from which a file has the
// subtree_counts table (008_subtree_counts.sql).
const subtreeCountsSchema = 8

// subtreeCountsMin is the smallest subtree (in ids) whose figures are
// stored. A subtree is then added up from the stored figures of the
// biggest subtrees inside it and a scan of the rows under none, at most a
// node's small children (each under subtreeCountsMin ids). On the
// depth-7 captures search of Kiwipete (1,547,551 rows) 10,958 nodes span
// 64 ids or more (0.7% of the rows; 4,359 at 256, 50,643 at 32): the
// table is some 0.3% of the file. A var: tests lower it.
var subtreeCountsMin int64 = 64

// IDRange is a range of a run's ids: From up to End (exclusive).
type IDRange struct{ From, End int64 }

// rangeParams is ranges as the JSON array of [from, end] pairs the
// batched queries read with json_each: one statement text for any number
// of ranges, prepared once.
func rangeParams(ranges []IDRange) string {
	b := make([]byte, 0, 24*len(ranges)+2)
	b = append(b, '[')
	for i, r := range ranges {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = strconv.AppendInt(b, r.From, 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, r.End, 10)
		b = append(b, ']')
	}
	return string(append(b, ']'))
}

// rangesPerQuery bounds the ranges one batched query takes.
const rangesPerQuery = 4096

// storedTopsSQL lists, for each range of ?2 (rangeParams) by its index,
// the stored subtrees of run ?1 whose tops lie in it and whose parents
// do not (a top's parent is id - up): the biggest stored subtrees there,
// which do not overlap, as a subtree's descendants lie inside it. Those
// under them are passed by in SQLite, a lookup each. The lookup's key is
// +c.id, not c.id: SQLite carries c.id's bounds over to n.id, and with
// planted statistics turned the lookup into a skip-scan of every run's ids
// in those bounds (TestPlansIgnoreStats).
const storedTopsSQL = `SELECT r.key, c.id, n.size, c.rows, c.qs_rows, c.max_qs_ply, c.max_qs_node_ply
	FROM json_each(?2) r
	CROSS JOIN subtree_counts c NOT INDEXED ON c.run_id = ?1 AND c.id >= json_extract(r.value, '$[0]') AND c.id < json_extract(r.value, '$[1]')
	CROSS JOIN node_rows n NOT INDEXED ON n.run_id = ?1 AND n.id = +c.id
	WHERE n.up <= 0 OR c.id - n.up < json_extract(r.value, '$[0]')
	ORDER BY r.key, c.id`

// rangesCountsSQL is rangeCountsSQL for each range of ?2 (rangeParams),
// by its index, a range without rows included (its figures add nothing):
// one scan of each range's rows, its four figures packed into one integer
// (packedCounts) by a subquery. A scan with GROUP BY put every row through
// a sorter, and a subquery a figure scanned each range four times: 112
// and 117 ms against 55 ms for the 350,381 rows of 2,557 ranges a
// 2,000-node diagram sums up. (SQLite's << and | bind alike, left to
// right: the parentheses are needed.)
var rangesCountsSQL = fmt.Sprintf(`SELECT r.key, (SELECT (%[1]s << %[5]d) | (%[2]s << %[6]d) | ((%[3]s + 1) << %[7]d) | (%[4]s + 1)
		FROM node_rows n NOT INDEXED WHERE n.run_id = ?1 AND n.id >= r.f AND n.id < r.e)
	FROM (SELECT key, json_extract(value, '$[0]') f, json_extract(value, '$[1]') e FROM json_each(?2)) r`,
	countsAggs[0], countsAggs[1], countsAggs[2], countsAggs[3], packedRowsShift, packedQSRowsShift, packedQSPlyShift)

// The fields of rangesCountsSQL's packed figures: the deepest ply + 1 in
// bits 0-9 (infoPlyMask + 1 at most), the deepest QS ply + 1 in 10-16
// (infoQSPlyMask), the QS rows in 17-39 and the rows in 40-62, which
// hold the rows of a range of up to packedMaxSpan ids: countRanges cuts
// longer ones.
const (
	packedQSPlyShift  = 10
	packedQSRowsShift = 17
	packedRowsShift   = 40
)

// packedMaxSpan is the longest range rangesCountsSQL counts at once (the
// rows field holds 23 bits). A var: tests lower it.
var packedMaxSpan int64 = 1 << 22

// unpackCounts reads rangesCountsSQL's packed figures.
func unpackCounts(v int64) RangeCounts {
	return RangeCounts{
		Rows:         v >> packedRowsShift,
		QSRows:       v >> packedQSRowsShift & (1<<(packedRowsShift-packedQSRowsShift) - 1),
		MaxQSPly:     int(v>>packedQSPlyShift&(1<<(packedQSRowsShift-packedQSPlyShift)-1)) - 1,
		MaxQSNodePly: int(v&(1<<packedQSPlyShift-1)) - 1,
	}
}

// add adds o's figures to c's.
func (c *RangeCounts) add(o RangeCounts) {
	c.Rows += o.Rows
	c.QSRows += o.QSRows
	c.MaxQSPly = max(c.MaxQSPly, o.MaxQSPly)
	c.MaxQSNodePly = max(c.MaxQSNodePly, o.MaxQSNodePly)
}

// noCounts is the figures of no rows.
var noCounts = RangeCounts{MaxQSPly: -1, MaxQSNodePly: -1}

// storedSpan is a subtree whose figures are stored (or being worked
// out): ids id to end (exclusive).
type storedSpan struct {
	id, end int64
	c       RangeCounts
}

// plausible reports whether stored figures could be those of a subtree
// of ids [id, end) inside a range ending at limit: a file is untrusted,
// and figures out of these bounds are not used (the rows are counted
// instead). Figures within them that the rows disagree with are found by
// check (a subtree-size violation).
func (s storedSpan) plausible(limit int64) bool {
	c := s.c
	switch {
	case s.end <= s.id || s.end > limit:
		return false
	case c.Rows < 0 || c.Rows > s.end-s.id || c.QSRows < 0 || c.QSRows > c.Rows:
		return false
	case c.QSRows == 0:
		return c.MaxQSPly == -1 && c.MaxQSNodePly == -1
	}
	return c.MaxQSPly >= -1 && c.MaxQSPly < infoQSPlyMask && c.MaxQSNodePly >= -1 && c.MaxQSNodePly <= infoPlyMask
}

// countRanges runs rangesCountsSQL over ranges, in batches, and adds
// each range's figures to sums[to[i]]. A range of more than packedMaxSpan
// ids is counted in parts.
func countRanges(ctx context.Context, q rowsQuery, run int64, ranges []IDRange, to []int, sums []RangeCounts) error {
	ranges, to = cutRanges(ranges, to, packedMaxSpan)
	for len(ranges) > 0 {
		n := min(len(ranges), rangesPerQuery)
		rows, err := q(ctx, run, rangeParams(ranges[:n]))
		if err != nil {
			return err
		}
		for rows.Next() {
			var k int
			var v int64
			if err := rows.Scan(&k, &v); err != nil {
				rows.Close()
				return err
			}
			if k >= 0 && k < n {
				sums[to[k]].add(unpackCounts(v))
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		ranges, to = ranges[n:], to[n:]
	}
	return nil
}

// cutRanges returns ranges with each range of more than span ids cut
// into parts of span ids at most, and to with each part's entry its
// range's; ranges and to themselves when none is that long.
func cutRanges(ranges []IDRange, to []int, span int64) ([]IDRange, []int) {
	if !slices.ContainsFunc(ranges, func(r IDRange) bool { return r.End-r.From > span }) {
		return ranges, to
	}
	var cr []IDRange
	var ct []int
	for i, r := range ranges {
		if r.End-r.From <= span {
			cr, ct = append(cr, r), append(ct, to[i])
			continue
		}
		for from := r.From; from < r.End; from += span {
			cr = append(cr, IDRange{from, min(from+span, r.End)})
			ct = append(ct, to[i])
		}
	}
	return cr, ct
}

// rowsQuery runs one query with the arguments given.
type rowsQuery func(ctx context.Context, args ...any) (*sql.Rows, error)

// rowsQuery returns query as a rowsQuery, prepared once where it can be
// (stmt).
func (s *Store) rowsQuery(ctx context.Context, query string) rowsQuery {
	if st := s.stmt(ctx, query); st != nil {
		return st.QueryContext
	}
	q := s.read()
	return func(ctx context.Context, args ...any) (*sql.Rows, error) { return q.QueryContext(ctx, query, args...) }
}

// RangeCountsMany is RangeCounts of many ranges of one run, in a few
// queries whatever their number: a diagram's summaries add up thousands,
// and a query costs as much as counting a hundred rows. Where the file
// stores subtree figures (schema 8) the biggest stored subtrees in each
// range are added up from them, and only the rows under none of them are
// counted; so a range costs the stored subtrees inside it and a node's
// small children, not its rows. ok is false where RangeCounts' is.
func (s *Store) RangeCountsMany(ctx context.Context, run int64, ranges []IDRange) (counts []RangeCounts, ok bool, err error) {
	if s.v1() || s.noQS[run] || s.levelless[run] {
		return nil, false, nil
	}
	counts = make([]RangeCounts, len(ranges))
	for i := range counts {
		counts[i] = noCounts
	}
	// gaps are the ranges' parts that no stored subtree covers, each
	// counted for its range (gapOf).
	gaps, gapOf, err := s.addStored(ctx, run, ranges, counts)
	if err != nil {
		return nil, false, sqliteErr(s.path, err)
	}
	if err := countRanges(ctx, s.rowsQuery(ctx, rangesCountsSQL), run, gaps, gapOf, counts); err != nil {
		return nil, false, sqliteErr(s.path, err)
	}
	return counts, true, nil
}

// addStored adds to counts[i] the figures of the biggest stored subtrees
// inside ranges[i] (storedTopsSQL) and returns the parts of the ranges
// they leave, with the index of the range each lies in. A range too small
// to hold a stored subtree is left whole, as is one whose stored subtrees
// are out of bounds or overlap (a damaged file).
func (s *Store) addStored(ctx context.Context, run int64, ranges []IDRange, counts []RangeCounts) (gaps []IDRange, gapOf []int, err error) {
	var big []int // the ranges that may hold a stored subtree
	for i, r := range ranges {
		if s.schema() >= subtreeCountsSchema && r.End-r.From >= subtreeCountsMin {
			big = append(big, i)
		} else if r.End > r.From {
			gaps, gapOf = append(gaps, r), append(gapOf, i)
		}
	}
	q := s.rowsQuery(ctx, storedTopsSQL)
	for len(big) > 0 {
		n := min(len(big), rangesPerQuery)
		batch := make([]IDRange, n)
		for k, i := range big[:n] {
			batch[k] = ranges[i]
		}
		tops := make([][]storedSpan, n)
		rows, err := q(ctx, run, rangeParams(batch))
		if err != nil {
			return nil, nil, err
		}
		for rows.Next() {
			// Read as values, not scanned into integers: a figure stored
			// as text or a real (a damaged file's) refuses its range's
			// stored subtrees, as one out of bounds does, instead of
			// failing the reader.
			var v [7]any
			if err := rows.Scan(&v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6]); err != nil {
				rows.Close()
				return nil, nil, err
			}
			key, isKey := v[0].(int64)
			if !isKey || key < 0 || key >= int64(n) {
				continue
			}
			k := int(key)
			var f [6]int64
			plain := true
			for i, x := range v[1:] {
				if f[i], plain = x.(int64); !plain {
					break
				}
			}
			sp := storedSpan{id: f[0], c: RangeCounts{Rows: f[2], QSRows: f[3], MaxQSPly: int(f[4]), MaxQSNodePly: int(f[5])}}
			size := f[1]
			if !plain || size < 1 || size > batch[k].End-sp.id {
				size = 0 // not a plain figure, or out of bounds: plausible refuses it
			}
			sp.end = sp.id + size
			tops[k] = append(tops[k], sp)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, nil, err
		}
		for k, i := range big[:n] {
			r := batch[k]
			if !tilesWithin(tops[k], r) {
				gaps, gapOf = append(gaps, r), append(gapOf, i)
				continue
			}
			cur := r.From
			for _, sp := range tops[k] {
				if sp.id > cur {
					gaps, gapOf = append(gaps, IDRange{cur, sp.id}), append(gapOf, i)
				}
				counts[i].add(sp.c)
				cur = sp.end
			}
			if cur < r.End {
				gaps, gapOf = append(gaps, IDRange{cur, r.End}), append(gapOf, i)
			}
		}
		big = big[n:]
	}
	return gaps, gapOf, nil
}

// tilesWithin reports whether stored subtrees tops (by id) are plausible
// (storedSpan.plausible), lie inside r and do not overlap.
func tilesWithin(tops []storedSpan, r IDRange) bool {
	cur := r.From
	for _, sp := range tops {
		if sp.id < cur || !sp.plausible(r.End) {
			return false
		}
		cur = sp.end
	}
	return true
}

// subtreeFigures works out the figures of subtrees tops (sorted by id,
// ascending; id and end set) from run's rows: each from the figures of
// the biggest tops inside it and the rows under none of them, which
// count (rangesCountsSQL, batched) reads, so each row is read once. ok
// is false where the tops do not nest (a damaged file's sizes): the run
// gets no figures then.
func subtreeFigures(tops []storedSpan, count func(gaps []IDRange, to []int, sums []RangeCounts) error) (ok bool, err error) {
	sums := make([]RangeCounts, len(tops))
	parent := make([]int, len(tops))
	var gaps []IDRange
	var gapOf []int
	var stack []int
	// A top's gaps: its ids less its child tops' (the tops up to the
	// next one not inside it, those of the stack's next level).
	cur := make([]int64, len(tops)) // the end of what of each top's ids is accounted for
	for i, t := range tops {
		sums[i] = noCounts
		for len(stack) > 0 && tops[stack[len(stack)-1]].end <= t.id {
			j := stack[len(stack)-1]
			if cur[j] < tops[j].end {
				gaps, gapOf = append(gaps, IDRange{cur[j], tops[j].end}), append(gapOf, j)
			}
			stack = stack[:len(stack)-1]
		}
		parent[i] = -1
		if len(stack) > 0 {
			j := stack[len(stack)-1]
			if t.end > tops[j].end || t.id < cur[j] {
				return false, nil
			}
			if t.id > cur[j] {
				gaps, gapOf = append(gaps, IDRange{cur[j], t.id}), append(gapOf, j)
			}
			cur[j] = t.end
			parent[i] = j
		}
		if t.end <= t.id {
			return false, nil
		}
		cur[i] = t.id
		stack = append(stack, i)
	}
	for _, j := range slices.Backward(stack) {
		if cur[j] < tops[j].end {
			gaps, gapOf = append(gaps, IDRange{cur[j], tops[j].end}), append(gapOf, j)
		}
	}
	if err := count(gaps, gapOf, sums); err != nil {
		return false, err
	}
	// Children come after their parents: fold from the end.
	for i := len(tops) - 1; i >= 0; i-- {
		tops[i].c = sums[i]
		if p := parent[i]; p >= 0 {
			sums[p].add(sums[i])
		}
	}
	return true, nil
}

// writeSubtreeCounts stores the figures of run's subtrees of
// subtreeCountsMin ids or more (subtreeFigures) in subtree_counts, in
// the caller's transaction: the upgrade's, for a run an older Horizon
// recorded (the recorder adds them up as each node closes, and stores them
// with its row).
func writeSubtreeCounts(ctx context.Context, tx *sql.Tx, run int64) error {
	rows, err := tx.QueryContext(ctx, "SELECT id, size FROM node_rows WHERE run_id = ? AND size >= ? ORDER BY id", run, subtreeCountsMin)
	if err != nil {
		return err
	}
	var tops []storedSpan
	for rows.Next() {
		var t storedSpan
		var size int64
		if err := rows.Scan(&t.id, &size); err != nil {
			rows.Close()
			return err
		}
		t.end = t.id + size
		tops = append(tops, t)
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(tops) == 0 {
		return err
	}
	scan, err := tx.PrepareContext(ctx, rangesCountsSQL)
	if err != nil {
		return err
	}
	defer scan.Close()
	ok, err := subtreeFigures(tops, func(gaps []IDRange, to []int, sums []RangeCounts) error {
		return countRanges(ctx, scan.QueryContext, run, gaps, to, sums)
	})
	if err != nil || !ok {
		return err
	}
	ins, err := tx.PrepareContext(ctx, "INSERT OR REPLACE INTO subtree_counts (run_id, id, rows, qs_rows, max_qs_ply, max_qs_node_ply) VALUES (?, ?, ?, ?, ?, ?)")
	if err != nil {
		return err
	}
	defer ins.Close()
	for _, t := range tops {
		if _, err := ins.ExecContext(ctx, run, t.id, t.c.Rows, t.c.QSRows, t.c.MaxQSPly, t.c.MaxQSNodePly); err != nil {
			return err
		}
	}
	return nil
}

// upgradeSubtreeCounts writes the subtree figures of every finished run
// of a file upgraded from a version before subtreeCountsSchema, in the
// upgrade's transaction. A run still running (abandoned, or another
// process's live one) gets none, nor the runs whose rows readers read
// otherwise than stored (noQS, levelless: RangeCounts does not count
// them).
func (s *Store) upgradeSubtreeCounts(ctx context.Context, tx *sql.Tx) error {
	finished, err := txRunIDs(ctx, tx, "SELECT id FROM runs WHERE status IN (?, ?, ?, ?) ORDER BY id",
		string(StatusComplete), string(StatusInterrupted), string(StatusTruncated), string(StatusFailed))
	if err != nil {
		return err
	}
	var ids []int64
	for _, id := range finished {
		if !s.noQS[id] && !s.levelless[id] {
			ids = append(ids, id)
		}
	}
	for _, id := range ids {
		// A run whose rows do not read as a sound run's (a damaged file's:
		// a size stored as text, say) gets no figures, which its readers
		// count from its rows as in a file before version 8; the upgrade,
		// and the write that asked for it, go on. A cancelled upgrade stops.
		if _, err := tx.ExecContext(ctx, "SAVEPOINT subtree_figures"); err != nil {
			return err
		}
		if err := writeSubtreeCounts(ctx, tx, id); err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("run %d's subtree figures: %w", id, err)
			}
			if _, err := tx.ExecContext(ctx, "ROLLBACK TO subtree_figures"); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, "RELEASE subtree_figures"); err != nil {
			return err
		}
	}
	return nil
}

// StoredSubtreeCounts returns the subtree figures the file stores for
// run (schema 8's subtree_counts), by the id of each subtree's top, as
// they are stored: empty for a file older than schema 8 and for a run
// without them. For check, which holds them against the rows; readers
// get them through RangeCounts.
func (s *Store) StoredSubtreeCounts(ctx context.Context, run int64) (map[int64]RangeCounts, error) {
	out := map[int64]RangeCounts{}
	if s.schema() < subtreeCountsSchema {
		return out, nil
	}
	rows, err := s.read().QueryContext(ctx, "SELECT id, rows, qs_rows, max_qs_ply, max_qs_node_ply FROM subtree_counts WHERE run_id = ? ORDER BY id", run)
	if err != nil {
		return nil, s.readErr(err, fmt.Sprintf("run %d: subtree figures", run))
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var c RangeCounts
		if err := rows.Scan(&id, &c.Rows, &c.QSRows, &c.MaxQSPly, &c.MaxQSNodePly); err != nil {
			return nil, s.readErr(err, fmt.Sprintf("run %d: subtree figures", run))
		}
		out[id] = c
	}
	if err := rows.Err(); err != nil {
		return nil, s.readErr(err, fmt.Sprintf("run %d: subtree figures", run))
	}
	return out, nil
}

// SubtreeCountsStore is a Reader that stores subtree figures
// (Store.StoredSubtreeCounts): check holds them against the rows.
type SubtreeCountsStore interface {
	StoredSubtreeCounts(ctx context.Context, run int64) (map[int64]RangeCounts, error)
}

var _ SubtreeCountsStore = (*Store)(nil)
