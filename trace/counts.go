package trace

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/horizonqs/horizon/engine"
)

// RangeCounts are the figures RangeCounts adds up over a range of a
// run's rows.
type RangeCounts struct {
	Rows   int64 // rows in the range
	QSRows int64 // of them, QS nodes
	// MaxQSPly is the deepest QS ply stored with the QS rows (Node.QSPly),
	// MaxQSNodePly the deepest ply (Node.Ply) among them; -1 when there is
	// no QS row.
	MaxQSPly, MaxQSNodePly int
}

// countsAggs add up rows of schema 3's node_rows inside SQLite (info:
// kind in bits 0-2, ply in 10-18, QS ply + 1 in 27-33) into RangeCounts'
// four figures, in its order: no row leaves the library, where streaming
// them costs some 3 µs each.
var countsAggs = [...]string{
	"count(*)",
	fmt.Sprintf("coalesce(sum((info & %d) = %d), 0)", infoKindMask, int(engine.KindQS)),
	fmt.Sprintf("coalesce(max(CASE WHEN (info & %d) = %d THEN (info >> %d & %d) - 1 END), -1)", infoKindMask, int(engine.KindQS), storedQSPlyShift, infoQSPlyMask),
	fmt.Sprintf("coalesce(max(CASE WHEN (info & %d) = %d THEN info >> %d & %d END), -1)", infoKindMask, int(engine.KindQS), infoPlyShift, infoPlyMask),
}

// countsCols are countsAggs as one select list.
var countsCols = strings.Join(countsAggs[:], ", ")

// rangeCountsSQL adds up a range of a run's rows (countsCols).
var rangeCountsSQL = "SELECT " + countsCols + " FROM node_rows WHERE run_id = ?1 AND id >= ?2 AND id < ?3"

// RangeCounts counts run's rows with ids from id up to end (exclusive),
// the QS ones among them and their deepest plies: a summary of a
// subtree's rows in a fraction of the time a walk takes. Where the file
// stores subtree figures (schema 8), a stored subtree inside the range is
// added up in one lookup and only the rows under none are counted, so a
// range costs the stored subtrees it holds, not its rows; elsewhere its
// rows are counted in one query. ok is false where the stored rows do not
// say what readers see (a file of schema version 1, read as it is, or a
// run whose old horizon nodes readers turn into full-width ones): walk the
// rows there.
func (s *Store) RangeCounts(ctx context.Context, run, id, end int64) (c RangeCounts, ok bool, err error) {
	if s.v1() || s.noQS[run] || s.levelless[run] {
		return c, false, nil
	}
	if s.schema() >= subtreeCountsSchema && end-id >= subtreeCountsMin {
		cs, ok, err := s.RangeCountsMany(ctx, run, []IDRange{{id, end}})
		if err != nil || !ok {
			return RangeCounts{}, ok, err
		}
		return cs[0], true, nil
	}
	var row *sql.Row
	if st := s.stmt(ctx, rangeCountsSQL); st != nil {
		row = st.QueryRowContext(ctx, run, id, end)
	} else {
		row = s.read().QueryRowContext(ctx, rangeCountsSQL, run, id, end)
	}
	if err = row.Scan(&c.Rows, &c.QSRows, &c.MaxQSPly, &c.MaxQSNodePly); err != nil {
		return RangeCounts{}, false, sqliteErr(s.path, err)
	}
	return c, true, nil
}

// RangeCounter is a Reader that adds up ranges of rows where they are
// stored (Store.RangeCounts); readers that walk rows to count them use it
// when their source has it.
type RangeCounter interface {
	RangeCounts(ctx context.Context, run, id, end int64) (c RangeCounts, ok bool, err error)
}

// RangeManyCounter is a RangeCounter that adds up many ranges of a run
// in a few queries (Store.RangeCountsMany): readers that add up many
// use it when their source has it.
type RangeManyCounter interface {
	RangeCounter
	RangeCountsMany(ctx context.Context, run int64, ranges []IDRange) (counts []RangeCounts, ok bool, err error)
}

var _ RangeManyCounter = (*Store)(nil)

// stmt is one of RangeCounts' statements, prepared once: a summary of a
// big graph adds up thousands of ranges, and preparing the query costs as
// much as running it. A snapshot's is prepared in its transaction (SQLite
// closes it with it), a snapshot's without one in the store it was taken
// from; nil where none can be.
func (s *Store) stmt(ctx context.Context, query string) *sql.Stmt {
	if s.snap == nil && s.snapshot && s.origin != nil {
		return s.origin.prepared(ctx, query)
	}
	if s.snap == nil {
		return s.prepared(ctx, query)
	}
	if st, ok := s.stmts.Load(query); ok {
		return st.(*sql.Stmt)
	}
	st, err := s.snap.PrepareContext(ctx, query)
	if err != nil {
		return nil
	}
	if old, loaded := s.stmts.LoadOrStore(query, st); loaded {
		st.Close()
		return old.(*sql.Stmt)
	}
	return st
}
