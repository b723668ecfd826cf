package trace

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	sqlite3 "github.com/mattn/go-sqlite3"

	"github.com/horizonqs/horizon/engine"
)

// rowsPerInsert is how many rows one prepared INSERT carries: enough to
// amortise the statement's overhead, few enough that its parameters
// (rowsPerInsert*rowParams) stay under SQLite's limit.
const (
	rowsPerInsert = 100
	rowParams     = 11
)

// boxedSmall holds pre-boxed driver.Values for -32768..32767, so binding a
// score or a move does not allocate (a boxed int64 outside 0..255 would).
var boxedSmall = sync.OnceValue(func() []driver.Value {
	v := make([]driver.Value, 1<<16)
	for i := range v {
		v[i] = int64(i - 1<<15)
	}
	return v
})

var bg = context.Background()

// inserter writes node rows through the raw driver connection with
// prepared multi-row INSERTs. It runs them through the driver's query path,
// which binds every parameter and steps the statement in one cgo call (its
// exec path makes one cgo call per parameter). The run id is a literal of
// the statement, the other eleven columns parameters, stored as schema 3
// has them (storedInfo, beta - alpha, score - stand pat). Packing two
// columns into one parameter and taking them apart in SQL was measured
// and dropped: binding is not the cost, SQLite's own per-row work is, and
// the unpacking added to it.
type inserter struct {
	c       *sqlite3.SQLiteConn
	many    driver.StmtQueryContext // rowsPerInsert rows
	one     driver.StmtQueryContext // one row
	sub     driver.StmtQueryContext // one subtree's figures (subtree_counts)
	subArgs []driver.NamedValue
	stmts   []driver.Stmt
	args    []driver.NamedValue
	n       int // rows staged in args
	run     int64
	small   []driver.Value
}

func insertSQL(run int64, rows int) string {
	var sb strings.Builder
	sb.WriteString("INSERT OR REPLACE INTO node_rows (run_id, id, up, size, info, counts, alpha, width, score, stand_diff, move, best) VALUES ")
	for i := 0; i < rows; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, "(%d,?,?,?,?,?,?,?,?,?,?,?)", run)
	}
	return sb.String()
}

func newInserter(c *sqlite3.SQLiteConn, run int64) (*inserter, error) {
	ins := &inserter{c: c, run: run, small: boxedSmall()}
	for _, n := range []int{rowsPerInsert, 1} {
		st, err := c.Prepare(insertSQL(run, n))
		if err != nil {
			ins.close()
			return nil, err
		}
		ins.stmts = append(ins.stmts, st)
	}
	st, err := c.Prepare(fmt.Sprintf("INSERT OR REPLACE INTO subtree_counts (run_id, id, rows, qs_rows, max_qs_ply, max_qs_node_ply) VALUES (%d, ?, ?, ?, ?, ?)", run))
	if err != nil {
		ins.close()
		return nil, err
	}
	ins.stmts = append(ins.stmts, st)
	ins.many = ins.stmts[0].(driver.StmtQueryContext)
	ins.one = ins.stmts[1].(driver.StmtQueryContext)
	ins.sub = ins.stmts[2].(driver.StmtQueryContext)
	ins.subArgs = make([]driver.NamedValue, 5)
	for i := range ins.subArgs {
		ins.subArgs[i].Ordinal = i + 1
	}
	ins.args = make([]driver.NamedValue, rowsPerInsert*rowParams)
	for i := range ins.args {
		ins.args[i].Ordinal = i + 1
	}
	return ins, nil
}

func (ins *inserter) close() {
	for _, st := range ins.stmts {
		st.Close()
	}
}

func (ins *inserter) box(v int64) driver.Value {
	if v >= -1<<15 && v < 1<<15 {
		return ins.small[v+1<<15]
	}
	return v
}

// add stages one row, executing the multi-row INSERT when it is full.
func (ins *inserter) add(w *row) error {
	a := ins.args[ins.n*rowParams : (ins.n+1)*rowParams]
	a[0].Value = w.id
	a[1].Value = ins.box(w.id - w.parent)
	a[2].Value = ins.box(w.size)
	a[3].Value = storedInfo(w.info)
	a[4].Value = ins.box(w.counts)
	a[5].Value = ins.box(int64(w.alpha))
	a[6].Value = ins.box(int64(w.beta) - int64(w.alpha))
	a[7].Value = ins.box(int64(w.score))
	if w.hasStand {
		a[8].Value = ins.box(int64(w.score) - int64(w.stand))
	} else {
		a[8].Value = nil
	}
	a[9].Value = ins.box(int64(w.move))
	a[10].Value = ins.box(int64(w.best))
	ins.n++
	if ins.n == rowsPerInsert {
		ins.n = 0
		return run(ins.many, ins.args)
	}
	return nil
}

// flush inserts the rows staged since the last full INSERT one by one.
func (ins *inserter) flush() error {
	one := make([]driver.NamedValue, rowParams)
	for i := 0; i < ins.n; i++ {
		a := ins.args[i*rowParams : (i+1)*rowParams]
		for j := range one {
			one[j] = driver.NamedValue{Ordinal: j + 1, Value: a[j].Value}
		}
		if err := run(ins.one, one); err != nil {
			ins.n = 0
			return err
		}
	}
	ins.n = 0
	return nil
}

// run executes an INSERT: the driver's Query binds and takes the first (and
// only) step eagerly.
func run(st driver.StmtQueryContext, args []driver.NamedValue) error {
	rows, err := st.QueryContext(bg, args)
	if err != nil {
		return err
	}
	return rows.Close()
}

func (ins *inserter) exec(query string, args ...driver.Value) (int64, error) {
	res, err := ins.c.Exec(query, args)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// execAny is exec for values of any type the driver takes.
func (ins *inserter) execAny(query string, args ...any) error {
	vals := make([]driver.Value, len(args))
	for i, a := range args {
		switch v := a.(type) {
		case int:
			vals[i] = int64(v)
		case bool:
			vals[i] = v
		default:
			vals[i] = v
		}
	}
	_, err := ins.exec(query, vals...)
	return err
}

// queryInt runs a query that returns one integer.
func (ins *inserter) queryInt(query string) (int64, error) {
	rows, err := ins.c.Query(query, nil)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	v := make([]driver.Value, len(rows.Columns()))
	if err := rows.Next(v); err != nil {
		return 0, err
	}
	n, _ := v[0].(int64)
	return n, nil
}

// fileBytes is the file's size as the connection sees it: its pages, the
// ones in the WAL included.
func (ins *inserter) fileBytes() (int64, error) {
	pages, err := ins.queryInt("PRAGMA page_count")
	if err != nil {
		return 0, err
	}
	size, err := ins.queryInt("PRAGMA page_size")
	return pages * size, err
}

// writer is the recorder's writer goroutine: it writes each batch in one
// transaction and feeds the summary. After a failure it keeps taking
// batches (so the search never blocks) but writes nothing more.
func (r *Recorder) writer(c *sqlite3.SQLiteConn) {
	defer close(r.done)
	fail := func(err error) {
		if r.werr == nil {
			err = diskFull(err)
			r.werr = fmt.Errorf("record into %s: run %d: %w", r.s.path, r.run, err)
			r.cancel(errors.Join(errWrite, err))
		}
	}
	var batches <-chan *batch = r.full
	err := func() error {
		ins, err := newInserter(c, r.run)
		if err != nil {
			return err
		}
		defer ins.close()
		if r.startBytes, err = ins.fileBytes(); err != nil {
			return err
		}
		for b := range batches {
			if r.werr == nil {
				if err := r.writeBatch(ins, b); err != nil {
					fail(err)
				}
			}
			if !b.last {
				r.free <- b
			}
		}
		return nil
	}()
	if err != nil {
		fail(err)
	}
	// Drain whatever is left if the inserter failed before the loop.
	for b := range batches {
		if !b.last {
			r.free <- b
		}
	}
}

func (r *Recorder) writeBatch(ins *inserter, b *batch) (err error) {
	if _, err := ins.exec("BEGIN IMMEDIATE"); err != nil {
		return err
	}
	defer func() {
		if err != nil {
			ins.n = 0
			ins.exec("ROLLBACK")
		}
	}()
	for _, it := range b.iters {
		if _, err := ins.exec("INSERT OR REPLACE INTO iterations (run_id, iteration, root_id) VALUES (?, ?, ?)",
			r.run, int64(it.iteration), it.id); err != nil {
			return err
		}
	}
	if b.del[1] > b.del[0] {
		n, err := ins.exec("DELETE FROM node_rows WHERE run_id = ? AND id >= ? AND id < ?", r.run, b.del[0], b.del[1])
		if err != nil {
			return err
		}
		if _, err := ins.exec("DELETE FROM iterations WHERE run_id = ? AND root_id >= ? AND root_id < ?", r.run, b.del[0], b.del[1]); err != nil {
			return err
		}
		if _, err := ins.exec("DELETE FROM subtree_counts WHERE run_id = ? AND id >= ? AND id < ?", r.run, b.del[0], b.del[1]); err != nil {
			return err
		}
		// Rows of the dropped iteration still in this batch were
		// invalidated by the recorder; the summary restarts with the
		// iteration that replaces it.
		r.wrow -= n
		r.sum.reset()
	}
	r.open = r.open[:0]
	// Late rows are ancestors of this batch's rows; they left deepest
	// first, so reversing them inserts them in ascending id order.
	for i := len(b.late) - 1; i >= 0; i-- {
		if w := &b.late[i]; w.valid {
			if err := r.put(ins, w); err != nil {
				return err
			}
		}
	}
	for i := range b.rows {
		if w := &b.rows[i]; w.valid {
			if err := r.put(ins, w); err != nil {
				return err
			}
		}
	}
	if err := ins.flush(); err != nil {
		return err
	}
	// The figures of the subtrees closed in this batch, in the
	// transaction that writes their tops' rows (their other rows are in it
	// or committed before): a reader never sees figures without the rows
	// they add up, even in a run whose recorder died.
	for _, s := range b.subs {
		a := ins.subArgs
		a[0].Value, a[1].Value, a[2].Value = s.id, s.c.rows, s.c.qsRows
		a[3].Value, a[4].Value = int64(s.c.maxQSPly1)-1, int64(s.c.maxQSNode1)-1
		if err := run(ins.sub, a); err != nil {
			return err
		}
	}
	// The run's row keeps the totals so far (rows: every row committed,
	// the open path's placeholders too, which is what the file holds
	// should the recorder die now), the last finished iteration's answer,
	// and the stats of the same rows; every summaryEvery the hotspots
	// too. Readers of a live or abandoned run (runs, stats, hotspots, the
	// viewer) read these instead of scanning the rows.
	rows := r.wrow + int64(len(r.open))
	var best, score any
	if r.depth > 0 {
		score = r.score
		if r.best != "" {
			best = r.best
		}
	}
	if err := ins.execAny("UPDATE runs SET nodes = ?, qs_nodes = ?, rows = ?, max_ply = ?, max_qs_ply = ?, file_bytes = ?, depth = ?, score = ?, best_move = ? WHERE id = ?",
		b.entered, b.qsNodes, rows, b.maxPly, b.maxQSPly, r.fileBytes.Load(), r.depth, score, best, r.run); err != nil {
		return err
	}
	if b.filter != "" {
		// In the commit whose totals first count nodes without rows.
		if err := ins.execAny("UPDATE runs SET filter = ? WHERE id = ?", b.filter, r.run); err != nil {
			return err
		}
	}
	if !b.last {
		hot := time.Since(r.lastSum) >= summaryEvery
		if err := writeSummary(ins.execAny, r.run, r.sum.withOpen(r.open), hot); err != nil {
			return err
		}
		if hot {
			r.lastSum = time.Now()
		}
	}
	if _, err = ins.exec("COMMIT"); err != nil {
		return err
	}
	r.committed = rows
	now, err := ins.fileBytes()
	if err != nil {
		return err
	}
	r.fileBytes.Store(now)
	if r.opts.MaxBytes > 0 && !r.sizeHit.Load() && r.projectedBytes(now) >= r.opts.MaxBytes {
		r.sizeHit.Store(true)
		r.cancel(ErrSizeLimit)
	}
	return nil
}

// Reserves of the MaxBytes check (see projectedBytes).
const (
	// indexRowBytes: a row's share of the parent index Finish builds for
	// a run of parentIndexMinRows rows or more (13 bytes measured on a
	// 622,848-row run; ids past 2^23 take a byte more).
	indexRowBytes = 14
	// stopLatencyRows: rows a search may still add after the recorder's
	// context is cancelled: Horizon's search polls it every 256 nodes,
	// the importer of another engine's stream every 4,096 lines (about
	// 2,048 nodes).
	stopLatencyRows = 2048
	// finishBytes: what Finish writes besides rows and the index (the
	// summary, the hotspots, the run's row).
	finishBytes = 64 << 10
	// rowBytesGuess: a row's bytes before a commit measures them (34 to
	// 38 measured; a row is not much bigger).
	rowBytesGuess = 64
	// minBatchRows: the smallest batch a size cap makes the recorder use.
	minBatchRows = 256
	// emptyFileBytes: a new trace file before its first batch, the schema
	// and the run's row (53,248 bytes measured), rounded up.
	emptyFileBytes = 64 << 10
)

// MinMaxBytes is the smallest RecordOptions.MaxBytes a new trace file can
// be held to: the empty file, what Finish writes, and the rows a run may
// write before its first size check (a first batch, the batches queued
// behind it, and the search's latency in seeing the stop), at the smallest
// batch size.
const MinMaxBytes = emptyFileBytes + MinRunBytes

// MinRunBytes is the room a run under a size cap needs in the file: a
// first batch of the smallest size and what may follow it before the first
// size check (reserveBytes). NewRecorder refuses a run with less
// (ErrNoRoom): it could not stop within the cap.
const MinRunBytes = minBatchRows*rowBytesGuess + numBatches*minBatchRows*rowBytesGuess + stopLatencyRows*rowBytesGuess + finishBytes

// reserveBytes is what projectedBytes adds to the file's size for batches
// of batchRows rows before a commit has measured a row (no parent index:
// a run that small gets none).
func reserveBytes(batchRows int) int64 {
	return int64(numBatches*batchRows+stopLatencyRows)*rowBytesGuess + finishBytes
}

// batchRowsWithin sizes batches to a size cap: the first batch is written
// before any size check, so it and what may follow it (reserveBytes) must
// fit in budget, the bytes the cap leaves above the file's size now. The
// default size is kept where it fits; below minBatchRows rows a commit
// costs more than it is worth.
func batchRowsWithin(budget int64, batchRows int) int {
	fit := (budget - finishBytes - stopLatencyRows*rowBytesGuess) / ((numBatches + 1) * rowBytesGuess)
	return int(max(min(int64(batchRows), fit), minBatchRows))
}

// projectedBytes is the size the file could end with if the run goes on to
// the next commit, when it is now bytes: the rows still to come at most
// (every batch but the one just written, the one before the next check,
// and what the search adds before it sees the stop) at the bytes a row has
// cost so far, the parent index of every row, and what Finish writes.
// MaxBytes holds against this, not the size now: the finished file must
// stay within the cap. The rows to come are the worst case, not the
// search's progress: a search that is slow at one check may fill every
// batch before the next.
func (r *Recorder) projectedBytes(now int64) int64 {
	ahead := int64(numBatches*r.opts.BatchRows + stopLatencyRows)
	rowBytes := int64(rowBytesGuess) // until a commit gives the file's own figure
	if r.committed > 0 {
		rowBytes = max((now-r.startBytes)/r.committed, 1)
	}
	total := r.committed + ahead
	index := int64(0)
	if total >= parentIndexMinRows {
		index = total * indexRowBytes
	}
	return now + ahead*rowBytes + index + finishBytes
}

func (r *Recorder) put(ins *inserter, w *row) error {
	if w.placeholder {
		r.open = append(r.open, *w)
	} else {
		r.wrow++
		r.sum.addRow(w)
		// A finished iteration root: the run's answer so far.
		if engine.NodeKind(w.info>>infoKindShift&infoKindMask) == engine.KindRoot && w.info>>infoIncShift&1 == 0 &&
			int(w.iteration) > r.depth {
			r.depth, r.score = int(w.iteration), int64(w.score)
			r.best = engine.Move(w.best).UCI()
			if engine.Move(w.best) == engine.NoMove {
				r.best = ""
			}
		}
	}
	return ins.add(w)
}
