package trace

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	sqlite3 "github.com/mattn/go-sqlite3"

	"github.com/horizonqs/horizon/engine"
)

// errWrite wraps a write failure as the cause of the recorder's context
// (beside ErrNodeLimit and ErrSizeLimit, api.go).
var errWrite = errors.New("writing the trace failed")

// RoomError is NewRecorder's refusal of a run under a size cap: the file
// already uses Used of the cap's Max bytes, and a run needs Need bytes
// free to stay within the cap (its first rows, the rows a search adds
// before it sees the stop, and its summary). It matches ErrNoRoom.
type RoomError struct {
	Path            string
	Used, Max, Need int64
}

func (e *RoomError) Error() string {
	return fmt.Sprintf("%s: %s of the size cap's %s bytes used, a run needs %s free: %v",
		e.Path, engine.Commas(e.Used), engine.Commas(e.Max), engine.Commas(e.Need), ErrNoRoom)
}

// Is makes errors.Is(err, ErrNoRoom) hold.
func (e *RoomError) Is(target error) bool { return target == ErrNoRoom }

// room returns the bytes the file uses now, or a *RoomError when a run
// capped at maxBytes has no room in it.
func (s *Store) room(ctx context.Context, maxBytes int64) (int64, error) {
	used, err := s.fileBytes(ctx)
	if err != nil {
		return 0, err
	}
	if used+MinRunBytes > maxBytes {
		return used, &RoomError{Path: s.path, Used: used, Max: maxBytes, Need: MinRunBytes}
	}
	return used, nil
}

// fileBytes is the file's size: its pages, those still in the WAL too.
func (s *Store) fileBytes(ctx context.Context) (int64, error) {
	var pages, pageSize int64
	err := s.db.QueryRowContext(ctx, "PRAGMA page_count").Scan(&pages)
	if err == nil {
		err = s.db.QueryRowContext(ctx, "PRAGMA page_size").Scan(&pageSize)
	}
	if err != nil {
		return 0, sqliteErr(s.path, err)
	}
	return pages * pageSize, nil
}

const (
	// defaultBatchRows: rows per batch and per transaction. Small enough
	// that the writer starts soon after the search does (the first batch is
	// written only once it is full), large enough to amortise a commit.
	defaultBatchRows = 1 << 14
	numBatches       = 3 // one filling, one writing, one spare
	// summaryEvery is how often the writer stores a running run's stats
	// and hotspots, so that readers of a live run read them, not its rows.
	summaryEvery = time.Second
)

// batch is a unit of work for the writer: rows in pre-order (slots reserved
// at Enter, filled at Leave; slots of nodes still open when the batch was
// handed off stay invalid and their rows come later as late rows).
type batch struct {
	rows  []row
	late  []row      // rows of nodes entered in an earlier batch, in leave order
	iters []iterRoot // iteration roots entered in this batch
	subs  []subRow   // the figures of the subtrees to store (subtree_counts) closed in this batch
	del   [2]int64   // LastIterationOnly: delete ids in [del[0], del[1]) before inserting the rows
	last  bool       // the final batch of the run
	// filter, when not "", is the run's filter from this batch on: the
	// node cap of KeepSearching was reached while it filled.
	filter string
	// The search's totals when the batch was handed off, stored in the
	// run's row with it.
	entered, qsNodes int64
	maxPly, maxQSPly int
}

// subRow is a closed subtree's figures to store: one spanning
// subtreeCountsMin ids or more.
type subRow struct {
	id int64
	c  subCounts
}

// openNode is a node the search has entered and not yet left.
type openNode struct {
	row        row
	slot       int32
	gen        uint32
	keep       bool // the node has a row (recording filters)
	slotted    bool // its row has a slot (in the batch of generation gen)
	incomplete bool // a descendant was cut short by a stop
	kind       engine.NodeKind
	matched    int32     // Under filter: moves of the path matched down to here
	ext        int32     // plies of extension the node's move got (from the Extension event before it)
	sub        subCounts // the rows of its subtree closed so far
}

// Recorder writes one run into a trace as the search reports it. It
// implements engine.Tracer; its event methods must be called from one
// goroutine (the search's) and allocate nothing in the steady state. Rows
// are handed in batches to a writer goroutine that inserts them with
// prepared multi-row INSERTs, one transaction per batch.
type Recorder struct {
	s       *Store
	parent  context.Context
	ctx     context.Context
	cancel  context.CancelCauseFunc
	run     int64
	opts    RecordOptions
	under   []engine.Move
	start   time.Time
	release func() // gives the writer's connection back

	// Search goroutine state.
	stack     []openNode
	cur       *batch
	gen       uint32
	lastID    int64
	entered   int64 // positions the search entered: every node but the run node
	qsNodes   int64
	maxPly    int
	maxQSPly  int
	truncated bool
	capped    bool     // KeepSearching: the node cap was reached, later nodes get no rows
	filters   []string // the recording filters in runs.filter
	stopSeen  bool     // a node left with CauseStop: the search was stopped, not finished
	prevRoot  int64    // LastIterationOnly: id of the previous iteration root, -1 before the first
	underHits int64    // Under: times the search entered the path's last node, in the iterations kept
	nextExt   int32    // plies of extension reported for the next child entered
	finished  bool
	progress  atomic.Int64

	// Writer side.
	full      chan *batch
	free      chan *batch
	done      chan struct{}
	werr      error // set by the writer before done is closed
	wrow      int64 // rows written, set by the writer
	committed int64 // rows in committed batches, set by the writer
	open      []row // the open path's placeholders in the batch being written
	// The last finished iteration's answer in the rows written, for a run
	// whose recorder dies before Finish.
	depth     int
	score     int64
	best      string
	sum       *summary // owned by the writer until done
	lastSum   time.Time
	fileBytes atomic.Int64 // the file's size after the last commit
	sizeHit   atomic.Bool  // MaxBytes reached

	startBytes int64 // the file's size before the run's first batch, for MaxBytes
}

var _ engine.Tracer = (*Recorder)(nil)

// NewRecorder starts a run: it inserts the run row (status running) and
// starts the writer goroutine. Pass Recorder.Context to the search so that
// the node limit or a write error stops it; cancelling ctx stops it too and
// marks the run interrupted. Finish must be called in every case.
func (s *Store) NewRecorder(ctx context.Context, info RunInfo, opts RecordOptions) (*Recorder, error) {
	if s.readOnly {
		return nil, fmt.Errorf("trace %s: opened read-only, cannot record", s.path)
	}
	if opts.MaxBytes > 0 {
		// Before an older file is upgraded too: its upgrade is a write.
		if _, err := s.room(ctx, opts.MaxBytes); err != nil {
			return nil, err
		}
	}
	if err := s.prepareWrite(ctx); err != nil {
		return nil, err
	}
	filters, under, err := recordFilters(info.FEN, opts)
	if err != nil {
		return nil, fmt.Errorf("record into %s: %w", s.path, err)
	}
	if opts.BatchRows <= 0 {
		opts.BatchRows = defaultBatchRows
	}
	if opts.MaxNodes < 0 || opts.MaxNodes >= maxNodesPerRun {
		opts.MaxNodes = 0
	}
	orEmpty := func(s, def string) string {
		if s == "" {
			return def
		}
		return s
	}
	if opts.MaxBytes > 0 {
		// The room is measured before the run's row is written: a run
		// refused leaves the file as it was (finishBytes holds the row).
		used, err := s.room(ctx, opts.MaxBytes)
		if err != nil {
			return nil, err
		}
		opts.BatchRows = batchRowsWithin(opts.MaxBytes-used, opts.BatchRows)
	}
	if why := s.goneWhy(); why != "" {
		return nil, fmt.Errorf("record into %s: it %s", s.path, why)
	}
	start := time.Now()
	var engineName, writer, epdID any // NULL when ""
	if opts.Engine != "" {
		engineName = opts.Engine
	}
	if writerID != "" {
		writer = writerID
	}
	if info.EPDID != "" {
		epdID = info.EPDID
	}
	res, err := s.db.ExecContext(context.Background(),
		`INSERT INTO runs (created, fen, variant, options, limits, version, status, filter, engine, fail_hard, writer, epd_id)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		start.UTC().Format(time.RFC3339Nano), info.FEN, info.Variant, orEmpty(info.Options, "{}"), orEmpty(info.Limits, "{}"),
		info.Version, string(StatusRunning), strings.Join(filters, filterSep), engineName, opts.FailHard, writer, epdID)
	if err != nil {
		return nil, fmt.Errorf("record into %s: %w", s.path, s.idsUsedUp(err))
	}
	run, err := res.LastInsertId()
	if err != nil {
		return nil, fmt.Errorf("record into %s: %w", s.path, diskFull(err))
	}
	conn, err := s.openWriter()
	if err != nil {
		return nil, fmt.Errorf("record into %s: %w", s.path, diskFull(err))
	}
	r := &Recorder{
		s:        s,
		parent:   ctx,
		run:      run,
		opts:     opts,
		filters:  filters,
		under:    under,
		start:    start,
		stack:    make([]openNode, 0, 256),
		lastID:   -1,
		prevRoot: -1,
		full:     make(chan *batch, numBatches),
		free:     make(chan *batch, numBatches),
		done:     make(chan struct{}),
		sum:      newSummary(),
	}
	r.ctx, r.cancel = context.WithCancelCause(ctx)
	for i := 0; i < numBatches; i++ {
		b := &batch{rows: make([]row, 0, opts.BatchRows), late: make([]row, 0, 256)}
		if i == 0 {
			r.cur = b
		} else {
			r.free <- b
		}
	}
	r.release = func() { conn.Close() }
	s.mu.Lock()
	if s.recording == nil {
		s.recording = make(map[int64]bool)
	}
	s.recording[run] = true
	s.mu.Unlock()
	go r.writer(conn)
	return r, nil
}

// recordFilters reads the recording filters of opts: their words in
// runs.filter, and the Under path as moves from the root position fen.
func recordFilters(fen string, opts RecordOptions) (filters []string, under []engine.Move, err error) {
	pos, err := engine.ParseFEN(fen)
	if err != nil {
		return nil, nil, fmt.Errorf("root position: %w", err)
	}
	if opts.LastIterationOnly {
		filters = append(filters, "last-iteration")
	}
	if len(opts.Under) > 0 {
		var uci []string
		for i, text := range opts.Under {
			m, err := pos.ParseMove(text)
			if err != nil {
				return nil, nil, fmt.Errorf("move %d of the path (%q): %w", i+1, text, err)
			}
			under = append(under, m)
			uci = append(uci, m.UCI())
			pos.MakeMove(m)
		}
		filters = append(filters, filterUnder+strings.Join(uci, " "))
	}
	return filters, under, nil
}

// idsUsedUp words err, the error of inserting a run's row: SQLite
// answers SQLITE_FULL ("database or disk is full", which diskFull words
// as the OS's "no space left on device") also when runs.id, an
// AUTOINCREMENT key, has reached the largest id it gives, which only a
// file edited by hand holds; that is said as it is.
func (s *Store) idsUsedUp(err error) error {
	var se sqlite3.Error
	if !errors.As(err, &se) || se.Code != sqlite3.ErrFull {
		return diskFull(err)
	}
	var top int64
	if s.db.QueryRow(`SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'runs'), 0),
		coalesce((SELECT max(id) FROM runs), 0))`).Scan(&top) != nil || top != math.MaxInt64 {
		return diskFull(err)
	}
	return &shortErr{msg: fmt.Sprintf("its run ids are used up: runs.id counts up from the largest id ever given (sqlite_sequence), which is %d, the largest SQLite has; record into a new trace", top), err: err}
}

// openWriter opens the connection a recorder's writer inserts through, its
// own and not one of the store's pool: it is opened without SQLite's
// mutex (SQLITE_OPEN_NOMUTEX), which SQLite would otherwise take in every
// call (eleven binds a row, about a tenth of the CPU of recording), and is
// used by one goroutine at a time (the writer, then Finish, which closes
// it). It skips fsync: a trace is cheap to redo, and the WAL keeps the file
// consistent on a crash of this process.
func (s *Store) openWriter() (*sqlite3.SQLiteConn, error) {
	dc, err := sqliteDriver.Open(dsn(s.path, false) + "&_mutex=no")
	if err != nil {
		return nil, err
	}
	c := dc.(*sqlite3.SQLiteConn)
	pragmas := []string{"PRAGMA synchronous=OFF"}
	if s.maxPages > 0 {
		pragmas = append(pragmas, fmt.Sprintf("PRAGMA max_page_count=%d", s.maxPages))
	}
	for _, p := range pragmas {
		if _, err := c.Exec(p, nil); err != nil {
			c.Close()
			return nil, err
		}
	}
	return c, nil
}

// Context is cancelled when the run's context is, when MaxNodes is reached
// and when writing fails: the search should stop then. context.Cause tells
// which (ErrNodeLimit for the node limit).
func (r *Recorder) Context() context.Context { return r.ctx }

// RunID returns the id of the run being recorded.
func (r *Recorder) RunID() int64 { return r.run }

// Capped reports whether the node cap of KeepSearching was reached: the
// nodes after it were searched but not recorded. Call it from the search's
// goroutine or after Finish.
func (r *Recorder) Capped() bool { return r.capped }

// Nodes returns how many positions the search has entered so far (the run
// node is not one), updated every 256 nodes and at every Flush (a source
// that pauses); it may be called from any goroutine (for a progress line).
func (r *Recorder) Nodes() int64 { return r.progress.Load() }

// UnderReached returns how many times the search entered the node at the
// end of the RecordOptions.Under path, in the iterations the trace keeps.
// 0 means the filter kept no node below the roots: alpha-beta never
// searched that line (a cutoff above it, or a move order that never got
// there), which the user should be told rather than shown an empty run.
// Call it from the search's goroutine or after Finish.
func (r *Recorder) UnderReached() int64 { return r.underHits }

// FileBytes returns the trace file's size after the writer's last commit;
// it may be called from any goroutine (for a progress line).
func (r *Recorder) FileBytes() int64 { return r.fileBytes.Load() }

// handoff gives the current batch to the writer and takes a free one.
// The batch carries a placeholder row for every node still open (marked
// incomplete, its subtree reaching to the last node entered), so each
// commit leaves a whole tree: a reader, or a file whose recorder is killed,
// sees no node without its parent. The node's real row replaces the
// placeholder when it leaves.
func (r *Recorder) handoff() {
	for i := len(r.stack) - 1; i >= 0; i-- {
		o := &r.stack[i]
		if !o.keep || !o.slotted {
			continue
		}
		p := o.row
		p.size = r.lastID - p.id + 1
		p.info = packLeave(p.info, &engine.LeaveInfo{Cause: engine.CauseStop, Extension: int(o.ext)}, true)
		p.counts = packCounts(0, 0, -1) | countsOpenBit
		p.valid, p.placeholder = true, true
		if o.gen == r.gen {
			r.cur.rows[o.slot] = p
		} else {
			r.cur.late = append(r.cur.late, p)
		}
	}
	r.cur.entered, r.cur.qsNodes, r.cur.maxPly, r.cur.maxQSPly = r.entered, r.qsNodes, r.maxPly, r.maxQSPly
	r.full <- r.cur
	b := <-r.free
	b.rows, b.late, b.iters, b.subs = b.rows[:0], b.late[:0], b.iters[:0], b.subs[:0]
	b.del, b.filter = [2]int64{}, ""
	r.cur = b
	r.gen++
}

// Flush hands the rows recorded so far to the writer, as a full batch
// would be, so that readers see them soon: for a tracer whose source
// pauses (another engine's stream, waiting for the engine). Between
// batches nothing else commits a run's rows. It does nothing when no row
// was recorded since the last batch, and after Finish. It also publishes
// the count of nodes entered (Nodes), so a progress line moves while the
// source pauses with fewer than 256 new nodes.
func (r *Recorder) Flush() {
	if r.finished {
		return
	}
	r.progress.Store(r.entered)
	if len(r.cur.rows) == 0 && len(r.cur.late) == 0 {
		return
	}
	r.handoff()
}

// Enter implements engine.Tracer.
func (r *Recorder) Enter(e engine.EnterInfo) {
	if r.finished {
		return
	}
	if len(r.cur.rows) == cap(r.cur.rows) {
		// Before this node is counted: the batch's totals and its
		// placeholders' sizes then cover exactly the rows it holds.
		r.handoff()
	}
	if e.Kind != engine.KindRun {
		// The run node is Horizon's, not a position the search visited:
		// nodes are counted as engines count them.
		r.entered++
	}
	if r.entered&255 == 0 {
		r.progress.Store(r.entered)
	}
	if r.opts.MaxNodes > 0 && r.entered > r.opts.MaxNodes && !r.capped && r.opts.KeepSearching {
		// The cap's first node past it: the search goes on, its
		// nodes from here on are counted but get no rows.
		r.capped = true
		r.cur.filter = strings.Join(append(r.filters, filterFirst(r.opts.MaxNodes)), filterSep)
	} else if r.opts.MaxNodes > 0 && r.entered >= r.opts.MaxNodes && !r.truncated && !r.opts.KeepSearching {
		r.truncated = true
		r.cancel(ErrNodeLimit)
	}
	r.lastID = e.ID
	if e.Ply > r.maxPly {
		r.maxPly = e.Ply
	}

	var parent *openNode
	if n := len(r.stack); n > 0 {
		parent = &r.stack[n-1]
	}
	r.stack = append(r.stack, openNode{})
	o := &r.stack[len(r.stack)-1]
	o.kind = e.Kind
	o.ext, r.nextExt = r.nextExt, 0
	qsPly := int32(-1)
	if e.Kind == engine.KindQS {
		qsPly = int32(max(e.QSPly, 0))
		r.qsNodes++
		if int(qsPly) > r.maxQSPly {
			r.maxQSPly = int(qsPly)
		}
	}

	// Recording filters.
	o.keep = true
	switch {
	case e.Kind == engine.KindRun:
	case e.Kind == engine.KindRoot:
		if r.opts.LastIterationOnly {
			if r.prevRoot >= 0 {
				r.dropIteration(r.prevRoot, e.ID)
			}
			r.prevRoot = e.ID
			r.underHits = 0
		}
	case parent == nil || !parent.keep || r.capped:
		o.keep = false
	case len(r.under) > 0:
		o.matched = parent.matched
		if int(o.matched) < len(r.under) {
			if e.Move == r.under[o.matched] {
				o.matched++
				if int(o.matched) == len(r.under) {
					r.underHits++
				}
			} else {
				o.keep = false
			}
		}
	}
	if !o.keep {
		return
	}

	if e.Kind == engine.KindRoot {
		r.cur.iters = append(r.cur.iters, iterRoot{id: e.ID, iteration: e.Iteration})
	}
	o.slot = int32(len(r.cur.rows))
	o.gen = r.gen
	o.slotted = true
	r.cur.rows = r.cur.rows[:o.slot+1]
	r.cur.rows[o.slot].valid = false
	o.row = row{
		id:        e.ID,
		parent:    e.Parent,
		info:      packEnter(&e),
		alpha:     int32(e.Alpha),
		beta:      int32(e.Beta),
		move:      uint32(e.Move),
		iteration: int32(e.Iteration),
		qsPly:     qsPly,
	}
}

// dropIteration removes the previous iteration, ids [from, to), from the
// trace: from the batch being filled, and from the file by a delete that
// runs after the rows already handed off are in.
func (r *Recorder) dropIteration(from, to int64) {
	for i := range r.cur.rows {
		if id := r.cur.rows[i].id; id >= from && id < to {
			r.cur.rows[i].valid = false
		}
	}
	for i := range r.cur.late {
		if id := r.cur.late[i].id; id >= from && id < to {
			r.cur.late[i].valid = false
		}
	}
	r.cur.subs = slices.DeleteFunc(r.cur.subs, func(s subRow) bool { return s.id >= from && s.id < to })
	r.cur.del = [2]int64{from, to}
	// The run node's figures counted the dropped iteration, its only rows
	// but its own (earlier ones were dropped before): it starts anew.
	if n := len(r.stack); n >= 2 {
		r.stack[n-2].sub = subCounts{}
	}
	// The new root (id to) is counted but has no row yet: the batch's
	// totals and placeholders must not cover it.
	r.entered--
	r.lastID--
	r.handoff()
	r.entered++
	r.lastID++
}

// StandPat implements engine.Tracer.
func (r *Recorder) StandPat(e engine.StandPatInfo) {
	if n := len(r.stack); n > 0 {
		o := &r.stack[n-1]
		o.row.stand, o.row.hasStand = int32(e.Eval), true
	}
}

// Move implements engine.Tracer. Moves are counted by the node's
// LeaveInfo, so the recorder needs nothing from this event.
func (r *Recorder) Move(e engine.MoveInfo) {}

// Extension implements engine.Tracer. The extension is stored with the
// child, from its LeaveInfo; the recorder notes it for the child's Enter so
// that the child's own children can tell whether they head an extension
// chain before their parent leaves.
func (r *Recorder) Extension(e engine.ExtensionInfo) { r.nextExt = int32(e.Plies) }

// Leave implements engine.Tracer.
func (r *Recorder) Leave(l engine.LeaveInfo) {
	n := len(r.stack)
	if n == 0 || r.finished {
		return
	}
	o := &r.stack[n-1]
	if l.Cause == engine.CauseStop {
		r.stopSeen = true
	}
	incomplete := o.incomplete || l.Cause == engine.CauseStop
	if incomplete && n > 1 {
		r.stack[n-2].incomplete = true
	}
	if o.keep {
		w := &o.row
		w.size = r.lastID - w.id + 1
		w.info = packLeave(w.info, &l, incomplete)
		w.counts = packCounts(l.Generated, l.Searched, l.CutIndex)
		w.score = int32(l.Score)
		w.best = uint32(l.Best)
		if l.HasStand {
			w.stand, w.hasStand = int32(l.StandPat), true
		}
		w.valid = true
		parentExt := 0
		if n >= 2 {
			parentExt = int(r.stack[n-2].ext)
		}
		w.chainTop = IsChainTop(l.Extension, parentExt)
		// The subtree's figures, its own row's added to its children's:
		// the same figures as rangeCountsSQL reads from the stored info.
		o.sub.rows++
		if o.kind == engine.KindQS {
			o.sub.qsRows++
			o.sub.maxQSPly1 = max(o.sub.maxQSPly1, int32(w.info>>infoQSPlyShift&infoQSPlyMask))
			o.sub.maxQSNode1 = max(o.sub.maxQSNode1, int32(w.info>>infoPlyShift&infoPlyMask)+1)
		}
		if w.size >= subtreeCountsMin {
			r.cur.subs = append(r.cur.subs, subRow{w.id, o.sub})
		}
		r.emit(o)
	}
	if n > 1 {
		r.stack[n-2].sub.add(o.sub)
	}
	r.stack = r.stack[:n-1]
}

// emit puts a finished row into its reserved slot, or among the late rows
// when its slot went to the writer with an earlier batch.
func (r *Recorder) emit(o *openNode) {
	if o.gen == r.gen {
		r.cur.rows[o.slot] = o.row
		return
	}
	r.cur.late = append(r.cur.late, o.row)
}

// FinishSearch is Finish with the answer and stop reason of the engine's
// search that was recorded.
func (r *Recorder) FinishSearch(res engine.Result) error {
	return r.Finish(Result{Stopped: res.Stopped, NoAnswer: !res.Finished(), BestMove: res.BestMove, Score: res.Score, PV: res.PV,
		Depth: res.Depth, Elapsed: res.Elapsed})
}

// Limit caps the search's node limit at the recorder's, so that the search
// stops at the node limit itself: the recorder's own stop, through the
// context, is seen only at the search's next poll. With KeepSearching the
// cap bounds the recording alone, and lim is returned as it is.
func (o RecordOptions) Limit(lim engine.Limits) engine.Limits {
	if o.MaxNodes > 0 && !o.KeepSearching && (lim.Nodes == 0 || lim.Nodes > o.MaxNodes) {
		lim.Nodes = o.MaxNodes
	}
	return lim
}

// status is the one rule for how a run of Horizon's search ended (see
// Status): stopped is the search's own word, a node left with CauseStop or
// one still open at Finish proves a stop too. A search that finished is
// complete whatever happened to its context afterwards: a Ctrl-C or a UCI
// stop arriving after the last node left stopped nothing. A stopped search
// is truncated when a limit stopped it (its own, or the recorder's node or
// size cap), interrupted otherwise (its context was cancelled).
func (r *Recorder) status(stopped engine.StopReason, hadOpen bool) Status {
	switch {
	case StopStatus(stopped) == StatusTruncated:
		return StatusTruncated
	case stopped == engine.StopNone && !r.stopSeen && !hadOpen:
		return StatusComplete
	case r.truncated, r.sizeHit.Load():
		return StatusTruncated
	}
	return StatusInterrupted
}

// stopCause is what stopped a run that ended with status st (Run.StopCause):
// the caller's word (res.StopCause), else the recorder's cap when one
// cancelled the search (cause, its context's cause: the search saw a
// cancel), else the search's own reason. "" for a complete or failed run
// (the write error says why a run failed).
func stopCause(st Status, res Result, cause error) string {
	switch {
	case st == StatusComplete, st == StatusFailed:
		return ""
	case res.StopCause != "":
		return res.StopCause
	case st == StatusTruncated && errors.Is(cause, ErrSizeLimit):
		return StopSize
	case st == StatusTruncated && errors.Is(cause, ErrNodeLimit):
		return StopNodes
	case st == StatusInterrupted:
		return StopCancel
	case res.Stopped != engine.StopNone:
		return res.Stopped.String()
	}
	return ""
}

// StopStatus is the status of a search that ended for reason stopped, in
// the words of a run's status, for commands that report searches they do
// not record (search, compare): complete, truncated by its node or time
// limit, interrupted when cancelled.
func StopStatus(stopped engine.StopReason) Status {
	switch stopped {
	case engine.StopNone:
		return StatusComplete
	case engine.StopNodes, engine.StopTime:
		return StatusTruncated
	}
	return StatusInterrupted
}

// Finish writes the nodes still open (marked Incomplete), waits for the
// writer, stores the totals, the summary and the result, and sets the
// run's status. It returns the first write error, if any. Call it exactly
// once, even after an interruption.
func (r *Recorder) Finish(res Result) error {
	if r.finished {
		return fmt.Errorf("record into %s: run %d finished twice", r.s.path, r.run)
	}
	hadOpen := len(r.stack) > 0
	for n := len(r.stack); n > 0; n = len(r.stack) {
		r.Leave(engine.LeaveInfo{ID: r.stack[n-1].row.id, Cause: engine.CauseStop, CutIndex: -1})
	}
	r.finished = true
	r.progress.Store(r.entered)
	r.cur.last = true
	r.cur.entered, r.cur.qsNodes, r.cur.maxPly, r.cur.maxQSPly = r.entered, r.qsNodes, r.maxPly, r.maxQSPly
	r.full <- r.cur
	close(r.full)
	<-r.done
	r.release()
	r.s.mu.Lock()
	delete(r.s.recording, r.run)
	r.s.mu.Unlock()

	status := res.Status
	if status == "" {
		status = r.status(res.Stopped, hadOpen)
	}
	if r.werr != nil {
		status = StatusFailed
	}
	elapsed := res.Elapsed
	switch {
	case res.TimeUnknown:
		elapsed = 0
	case elapsed == 0:
		elapsed = time.Since(r.start)
	}
	var best, pv any
	var score any = int(res.Score)
	if res.NoAnswer {
		res.BestMove, res.PV, score = engine.NoMove, nil, nil
	}
	if res.BestMove != engine.NoMove {
		best = res.BestMove.UCI()
	}
	if len(res.PV) > 0 {
		var sb strings.Builder
		for i, m := range res.PV {
			if i > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString(m.UCI())
		}
		pv = sb.String()
	}
	capCause := context.Cause(r.ctx) // before Finish cancels it
	update := func(tx *sql.Tx) error {
		var cause any
		if c := stopCause(status, res, capCause); c != "" {
			cause = c
		}
		_, err := tx.Exec(`UPDATE runs SET status = ?, nodes = ?, qs_nodes = ?, rows = ?, max_ply = ?, max_qs_ply = ?,
			elapsed_ms = ?, best_move = ?, score = ?, pv = ?, depth = ?, writer = NULL, file_bytes = ?, stop_cause = ? WHERE id = ?`,
			string(status), r.entered, r.qsNodes, r.committed, r.maxPly, r.maxQSPly, elapsed.Milliseconds(),
			best, score, pv, res.Depth, r.fileBytes.Load(), cause, r.run)
		return err
	}
	var err error
	if r.werr == nil {
		err = r.s.writeFinish(r.run, r.sum, update)
	}
	if r.werr != nil || err != nil {
		// Writing failed (a full disk, most often): the summary in memory
		// counts rows of the batch that was rolled back, so the one the
		// writer stored with its last commit stays. Mark the run failed in
		// the smallest transaction there is; after a failed write the WAL
		// has room for it.
		status = StatusFailed
		tx, terr := r.s.db.Begin()
		if terr == nil {
			if terr = update(tx); terr == nil {
				terr = tx.Commit()
			} else {
				tx.Rollback()
			}
		}
		if err == nil {
			err = terr
		}
	}
	if err == nil && r.committed >= parentIndexMinRows {
		// The run's parent index, built sorted in one pass now that its
		// rows are all in (see parentIndexSQL). Without it users' SQL on
		// nodes.parent_id is slower, and readers' child lists hop instead
		// (indexedChildren); a failure here (a full disk) is reported, the
		// run itself is whole.
		if _, ierr := r.s.db.Exec(parentIndexSQL(r.run)); ierr != nil {
			err = fmt.Errorf("indexing the run's parents: %w", ierr)
		}
	}
	r.cancel(context.Canceled)
	if r.werr != nil {
		return r.werr
	}
	if err != nil {
		return fmt.Errorf("record into %s: run %d: %w", r.s.path, r.run, diskFull(err))
	}
	return nil
}
