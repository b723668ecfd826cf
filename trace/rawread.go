package trace

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"sync"
)

// rawMaxRows is the biggest subtree Subtree reads through the driver
// directly (rawRows): its rows are held until all have read plainly.
const rawMaxRows = 1 << 16

// errNotPlain ends rawRows on anything but a plain row: the caller then
// reads the rows as before, with their conversions, checks and errors.
var errNotPlain = errors.New("not a plain row")

// rawRows reads the rows ids id..end of run into buf through the SQLite
// driver itself, sparing database/sql's per-row locking and Scan (about a
// third of the Go side of reading a row). It returns ok only when every
// row read plainly: integers (the stand pat may be NULL), no row needing a
// query of its own (needsQuery), each decoded and checked as scanRow
// does; on anything else, an error included, it returns false and the
// caller reads the rows the usual way, which meets the same row and says
// what is wrong with it as it always did.
func (s *Store) rawRows(ctx context.Context, run, id, end int64) ([]Node, bool) {
	if s.snap != nil {
		return nil, false
	}
	buf := rawBufs.Get().([]Node)[:0]
	if want := int(end - id); cap(buf) < want {
		buf = make([]Node, 0, want) // end - id is at most rawMaxRows
	}
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return nil, false
	}
	defer conn.Close()
	q := s.q().subtree
	err = conn.Raw(func(dc any) error {
		qc, ok := dc.(driver.QueryerContext)
		if !ok {
			return errNotPlain
		}
		rows, err := qc.QueryContext(ctx, q, []driver.NamedValue{{Ordinal: 1, Value: run}, {Ordinal: 2, Value: id}, {Ordinal: 3, Value: end}, {Ordinal: 4, Value: int64(1)}})
		if err != nil {
			return err
		}
		defer rows.Close()
		if len(rows.Columns()) != nodeColumns {
			return errNotPlain
		}
		var v [nodeColumns]driver.Value
		var c [nodeColumns]int64
		for {
			if err := rows.Next(v[:]); err != nil {
				if err == io.EOF {
					return nil
				}
				return err
			}
			standNull := false
			for i, x := range v {
				switch x := x.(type) {
				case int64:
					c[i] = x
				case nil:
					if i != standColumn {
						return errNotPlain
					}
					standNull = true
				default:
					return errNotPlain
				}
			}
			n, err := s.decodeRow(run, c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], sql.NullInt64{Int64: c[standColumn], Valid: !standNull}, c[9], c[10])
			if err != nil || s.needsQuery(n) {
				return errNotPlain
			}
			buf = append(buf, n)
		}
	})
	if err != nil {
		rawBufs.Put(buf[:0])
		return nil, false
	}
	return buf, true
}

// rawBufs holds rawRows' buffers for reuse.
var rawBufs = sync.Pool{New: func() any { return []Node(nil) }}

// walkRows nests the rows rawRows read of a subtree ending at end and
// calls fn for each, as subtreeFrom does, and gives their buffer back. A
// cancelled ctx ends it, as it ends the walk of rows read one by one.
func (s *Store) walkRows(ctx context.Context, run, end int64, its []iterRoot, nodes []Node, fn func(Node) error) error {
	defer rawBufs.Put(nodes[:0])
	var ends []int64
	for i, n := range nodes {
		if i%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if err := s.visitNested(run, n, end, its, &ends, fn); err != nil {
			return err
		}
	}
	return nil
}

// visitNested nests row n of a walk to end (nest), gives it its
// iteration and calls fn with it, as every whole walk of a subtree does.
func (s *Store) visitNested(run int64, n Node, end int64, its []iterRoot, ends *[]int64, fn func(Node) error) error {
	nEnd, err := s.nest(run, n, end, ends)
	if err != nil {
		return err
	}
	n.Iteration = iterationOf(its, n.ID)
	if err := fn(n); err != nil {
		return err
	}
	*ends = append(*ends, nEnd)
	return nil
}
