// Package foreign records the search trees of other chess engines into
// Horizon traces. An engine instrumented with one of the emitters (the Go
// package emit, the C header emit/c/horizon_trace.h, the Python module
// emit/python/horizon_trace.py) writes a stream in the Horizon trace
// protocol (docs/trace-protocol.md); Import reads it, replays every move
// from the root position, derives what the engine left out (kind, bound,
// cutoff cause, best move) and feeds the nodes to a trace.Recorder, so every
// reader works on the result as on a run of Horizon's own engine.
package foreign

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"time"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// Version is the newest protocol version this package reads (the number
// on the stream's first line, "HZT 1"). Version 2 adds the "mate" and
// "infinity" records, version 3 the "label" record, version 4 nested
// searches (the E record's n=, e= and u= fields); an older Horizon
// refuses each as unknown, so a stream says the oldest version that holds
// its records.
const Version = 4

// maxPly bounds a node's ply (the trace's limit), and so the stack.
const maxPly = 500

// maxQSPly is the deepest QS ply a trace holds: a deeper one would be
// stored as this, misstating the tree.
const maxQSPly = 126

// maxRecord bounds one record. A FEN with a long "moves" list is the
// longest legitimate one.
const maxRecord = 1 << 20

// ErrStream is wrapped by every error about the stream's content; the
// *StreamError says where.
var ErrStream = errors.New("bad trace stream")

// StreamError is a fault in the stream: a malformed record, an illegal move,
// an unbalanced or truncated stream. Offset is the byte offset of the
// record's first byte, Line its line number (1-based); Node and Path name
// the innermost open node (Node -1 when none).
type StreamError struct {
	Offset    int64
	Line      int64
	Node      int64
	Path      []string // UCI moves from the root to the node
	Msg       string
	Truncated bool // the stream ended inside a search, or before anything (empty)
	// AtEnd says the fault is the stream's end itself (nodes still open):
	// Offset is the stream's length and Line its last line, the one the
	// end came after.
	AtEnd bool
}

func (e *StreamError) Error() string {
	if e.Line == 0 {
		return "trace stream: " + e.Msg
	}
	where := fmt.Sprintf("record at byte %d (line %d)", e.Offset, e.Line)
	if e.AtEnd {
		where = fmt.Sprintf("end of the stream at byte %d (after line %d)", e.Offset, e.Line)
	}
	if e.Node >= 0 {
		path := strings.Join(e.Path, " ")
		if path == "" {
			path = trace.RootPath
		}
		where += fmt.Sprintf(", node %d (path %s)", e.Node, path)
	}
	return where + ": " + e.Msg
}

// Unwrap makes errors.Is(err, ErrStream) hold.
func (e *StreamError) Unwrap() error { return ErrStream }

// Options tune Import.
type Options struct {
	// Engine names the engine when the stream does not (an "engine"
	// record overrides it unless PreferName is set).
	Engine string
	// PreferName makes Engine win over the stream's "engine" record
	// (horizon trace --engine names runs after the UCI id name).
	PreferName bool
	// Label, when set, is every run's label (trace.Run.Label: the name
	// readers show for the run's variant), over the stream's "label"
	// record; without either a run is labelled with its engine's name.
	// It tells two builds of one engine apart, whose id names are alike.
	Label string
	// Limits describes the search limits when the stream does not.
	Limits string
	// EPDID, when set, gives the EPD id a run records
	// (trace.RunInfo.EPDID): that of the stream's i-th run (0 for the
	// first), whose root position is root, a FEN.
	EPDID func(i int, root string) string
	// Version is Horizon's version, recorded in every run.
	Version string
	// Record is passed to each run's recorder (MaxNodes and so on);
	// Engine and FailHard are set from the stream.
	Record trace.RecordOptions
	// OnRun, when set, is called as each run starts recording (for a
	// progress line or a live viewer).
	OnRun func(run int64, rec *trace.Recorder)
	// OnFinish, when set, is called as each run is finished.
	OnFinish func(RunResult)
	// StopsOnCancel says the caller stops the engine's search (UCI stop)
	// when ctx is cancelled, as horizon trace --engine does on Ctrl-C: a
	// search that then ends before its depth limit, with an abort record
	// or without, was stopped by the cancel and is interrupted, not
	// truncated (or complete). An imported file's abort records are the
	// engine's own stops and keep their meaning.
	StopsOnCancel bool
	// CancelStopped, with StopsOnCancel, says whether the caller told the
	// engine to stop its current search on the cancel, before the engine
	// answered bestmove: that search is interrupted, even when its stream
	// shows it had begun its last iteration (a stop in the middle of it
	// leaves nodes that close as if it had finished). When nil, a search
	// that ends after the cancel is interrupted when it wrote an abort
	// record or had not begun its last iteration.
	CancelStopped func() bool
	// Waiting, when set, holds the Unix ns since which Import has waited
	// for the stream's next bytes, 0 while it has bytes to read or is busy
	// recording what it read: how long the stream has been silent (the
	// stream is read ahead, so a pending Read of it says less).
	Waiting *atomic.Int64
	// Live says the stream is read as the engine writes it (horizon trace
	// --engine): a search whose end record gives no time= is timed by the
	// clock, from its position record to its end. Without Live such a
	// search's time is unknown (trace.Run.ElapsedKnown): the time a file
	// took to import is no time of the search.
	Live bool
}

// NodesSource says where an engine's own node count came from: a count
// read from a UCI info line may be of another moment than the stream's
// end, so readers say which they compare.
type NodesSource string

// Where RunResult.EngineNodes came from; the values are --json's.
const (
	FromEndRecord NodesSource = "end_record" // the stream's end record, nodes=N
	FromUCIInfo   NodesSource = "uci_info"   // the engine's last UCI info line (its stream's end record gave none)
)

// Words says where the count came from, for a text beside the count.
func (s NodesSource) Words() string {
	switch s {
	case FromEndRecord:
		return "its end record"
	case FromUCIInfo:
		return "its last UCI info line"
	}
	return string(s)
}

// RunResult is one search of the stream, recorded as one run.
type RunResult struct {
	RunID  int64
	Engine string
	// Label is the run's label (Options.Label): its engine's name unless
	// the stream or the caller gave one.
	Label  string
	FEN    string
	Status trace.Status
	// Nodes counts the engine's nodes in the stream (the run's node count
	// less the run node Horizon adds).
	Nodes int64
	// EngineNodes is the node count the engine reported on its "end"
	// record (or, under horizon trace --engine without one, on its last
	// UCI info line), -1 when it reported none. EngineNodesFrom says which.
	EngineNodes     int64
	EngineNodesFrom NodesSource
	BestMove        string
	// Err is the stream error that ended the run, if any.
	Err error
	// Limited says the run reached Options.Record.MaxNodes: the rest of
	// its search is dropped (the engine may still be searching it).
	Limited bool
	// Uncounted is how many of the run's nodes are roots of nested
	// searches the engine said it does not count (u=1): the engine's
	// count is comparable with Nodes - Uncounted.
	Uncounted int64
	// Warning is a doubt about the run that is no error, "" when none:
	// its end record named an illegal best move; under horizon trace
	// --engine, the engine searched the position sent with other castling
	// rights or en-passant square, or overran its movetime.
	Warning string
}

// Import reads a trace stream from r and records each search in it as a
// run in st. It returns the runs recorded and the first error: a
// *StreamError for a fault in the stream (the run it hit is kept, marked
// failed, or interrupted when the stream was cut short), a read or write
// error, or the context's error. Nothing recorded before an error is lost.
func Import(ctx context.Context, st *trace.Store, r io.Reader, opts Options) (runs []RunResult, err error) {
	im := newImporter(ctx, st, opts)
	defer func() {
		// A bug of the importer must not lose the run: close it as failed
		// and report where the stream was.
		if p := recover(); p != nil {
			se := im.fail("internal error reading this record: %v (please report it)", p)
			im.finish(trace.StatusFailed, se)
			runs, err = im.results, se
		}
	}()
	// A cancel ends the read at once, also one waiting on a stream that
	// sends nothing. With StopsOnCancel the caller stops the engine
	// instead, and the engine's last records are read: the reader goes on
	// past a cancel. Either way it commits what a paused stream sent (idle),
	// and its context, and goroutine, end with Import.
	rctx := ctx
	if opts.StopsOnCancel {
		rctx = context.WithoutCancel(ctx)
	}
	rctx, stop := context.WithCancel(rctx)
	defer stop()
	err = im.read(newCtxReader(rctx, r, im.idle, opts.Waiting))
	return im.results, err
}

// frame is one open node.
type frame struct {
	id          int64
	depth       int
	alpha, beta engine.Score
	move        engine.Move
	kind        engine.NodeKind
	qsPly       int
	iteration   int
	moved       bool // move was made on the position
	hasGen      bool // im.legal[its depth] holds its legal moves
	kids        int
	realKids    int // children reached by a move, not a null move
	lastKid     engine.Move
	lastNeg     engine.Score // the last child's score, negated
	// The best move is derived from the children's bounds, not their
	// scores alone: a fail-low child can tie the node's score and a PVS
	// null-window fail-high can exceed it before its exact re-search.
	exactKid    engine.Move  // last exact child with the highest negated score
	exactNeg    engine.Score // its negated score
	hasExact    bool
	highKid     engine.Move // last child that failed high for this node (an upper bound below), highest first
	highNeg     engine.Score
	hasHigh     bool
	stand       engine.Score
	hasStand    bool
	lastIndex   int         // index of the last M record, -1 when none
	pendingExt  int         // X record waiting for the next child
	ext         int         // extension this node's move got
	lastMove    engine.Move // the last M record's: a child reached by a real move must be it, or the cut index read from the M names another
	hasLastMove bool
	lastMLine   int64 // the last M record's line
	mEnteredAt  int64 // the line of the first child of lastMove, 0 for none yet

	// The last exact child. In an engine that searches its moves again
	// (Horizon's unified and threshold variants: a pass per depth or QS
	// level), the node's value comes from the last pass, whose exact
	// child may score below an earlier pass's best.
	lastExactKid engine.Move
	lastExactNeg engine.Score
	hasLastExact bool

	nested bool // the root of a nested search of its parent's position
}

// sink is what the importer feeds: a *trace.Recorder (a benchmark of the
// reading alone feeds a counter).
type sink interface {
	engine.Tracer
	Context() context.Context
	RunID() int64
	Finish(trace.Result) error
	Flush()
}

type importer struct {
	ctx     context.Context
	st      *trace.Store
	opts    Options
	newSink func(trace.RunInfo, trace.RecordOptions) (sink, error)
	flushed time.Time // when idle last committed the run's rows

	// Stream state that persists across searches.
	header   bool
	version  int // the header's
	engine   string
	label    string // the "label" record's text: Options.Label
	failHard bool
	pseudo   bool
	scale    engine.ScoreScale // the "mate" and "infinity" records' values

	// The current search.
	active      bool // a position record started a search not yet ended
	fen         string
	limits      string // the search's limits record, "" when it has none
	nextLimits  string // a limits record written before the next search's position
	pos         *engine.Position
	rec         sink
	runID       int64
	nextID      int64
	stack       []frame
	legal       []engine.MoveList // legal moves by stack depth, generated on demand
	cur         iteration         // the iteration whose roots are being read
	done        iteration         // the last iteration known to have concluded
	aborted     bool
	cutRoot     bool   // an abort closed a root: the iteration's last root was cut short
	stop        string // the stop cause of the run finish ends, when the importer knows it (trace.Result.StopCause)
	limited     bool   // Record.MaxNodes reached: end the run
	skipping    bool   // dropping the rest of a search that reached the limit
	engineNodes int64
	bestMove    string
	warning     string // RunResult.Warning
	// clamped counts the search's nodes whose generated count or cut
	// index is more than a trace stores (trace.CountsClamped), and
	// clampedAt says where the first was: RunResult.Warning says so.
	clamped   int64
	clampedAt string
	start     time.Time
	elapsed   time.Duration // the engine's own search time (end time=), 0 when not given
	zeroTime  bool          // the end record gave time=0, which a trace cannot store (0 is no time)

	// abortLine is the line of the A record that closed the search's open
	// nodes (0: none did); leftID and leftLine are the search's last node
	// closed by an L record and that record's line (leftLine 0: none
	// yet). A record that finds no node open names the later of the two.
	abortLine, leftID, leftLine int64
	// lateLimits is the line of a limits record written after the current
	// search's first node (0: none): nextLimits then holds it, the next
	// search's if a position record follows, and if the search's end
	// record does, a warning's: too late for the run, which it names.
	lateLimits int64

	// exactLine[i] and lastLine[i] are the principal variations of the
	// open node i's exactKid and lastExactKid (a child's best move, then
	// its exact best child's, and so on), kept as nodes close, as an
	// engine's triangular PV array is: the run's PV is its reported root's
	// line, with no second pass over the tree. A level's line is written
	// whole by the child it belongs to, and read only when the node's
	// hasExact or hasLastExact says a child wrote it, so an entered node
	// need not clear it.
	exactLine, lastLine [][]engine.Move
	ownLine             []engine.Move // the closing node's own line (scratch)

	// Where the reader is.
	offset, line int64
	recOffset    int64

	results []RunResult

	// The current search's nested searches, stored as its run ends
	// (trace.Store.AddNested); uncounted of them the engine does not
	// count; reasons interns their reasons.
	nested    []trace.NestedSearch
	uncounted int64
	reasons   map[string]string
}

func newImporter(ctx context.Context, st *trace.Store, opts Options) *importer {
	im := &importer{ctx: ctx, st: st, opts: opts, stack: make([]frame, 0, 256), engine: opts.Engine,
		exactLine: make([][]engine.Move, maxPly+2), lastLine: make([][]engine.Move, maxPly+2)}
	rctx := ctx
	if opts.StopsOnCancel {
		rctx = context.WithoutCancel(ctx) // the engine's records after the cancel are recorded too
	}
	im.newSink = func(info trace.RunInfo, ro trace.RecordOptions) (sink, error) {
		return st.NewRecorder(rctx, info, ro)
	}
	return im
}

// fail builds a StreamError at the current record.
func (im *importer) fail(format string, a ...any) *StreamError {
	e := &StreamError{Offset: im.recOffset, Line: im.line, Node: -1, Msg: fmt.Sprintf(format, a...)}
	// The run node (stack[0]) is Horizon's, no node of the stream: with
	// no other open, the record is at no node (it read "node 0 (path
	// (root))", a node the engine never wrote).
	if n := len(im.stack); n > 1 {
		e.Node = im.stack[n-1].id
		for i := 1; i < n; i++ {
			if m := im.stack[i].move; m != engine.NoMove {
				e.Path = append(e.Path, m.UCI())
			}
		}
	}
	return e
}

func (im *importer) read(r io.Reader) error {
	br := bufio.NewReaderSize(r, 1<<16)
	for {
		if im.line&4095 == 0 {
			// With StopsOnCancel the engine, told to stop, ends the
			// stream itself.
			if err := im.ctx.Err(); err != nil && !im.opts.StopsOnCancel {
				im.finish(trace.StatusInterrupted, err)
				return err
			}
			if im.rec != nil && im.rec.Context().Err() != nil {
				cause := context.Cause(im.rec.Context())
				if errors.Is(cause, trace.ErrNodeLimit) {
					// The recorder's node limit, reached at the last
					// node entered (before enter's own check at the next
					// one): the rest of this search is dropped, and the
					// stream's later searches are read.
					im.stop, im.skipping = trace.StopNodes, true
					im.finish(trace.StatusTruncated, nil)
					continue
				}
				im.finish(trace.StatusFailed, cause) // a write error
				return cause
			}
		}
		line, err := br.ReadSlice('\n')
		im.recOffset = im.offset
		im.offset += int64(len(line))
		if len(line) > 0 {
			im.line++
		}
		if err == bufio.ErrBufferFull {
			// A record longer than the buffer: gather it, within bounds.
			buf := append([]byte(nil), line...)
			for err == bufio.ErrBufferFull && len(buf) <= maxRecord {
				line, err = br.ReadSlice('\n')
				im.offset += int64(len(line))
				buf = append(buf, line...)
			}
			if len(buf) > maxRecord {
				se := im.fail("record longer than %d bytes", maxRecord)
				im.finish(trace.StatusFailed, se)
				return se
			}
			line = buf
		}
		if err == io.EOF {
			if len(line) > 0 && !im.header {
				// One line and no newline: judge it as the header it
				// should be (garbage is no stream cut short).
				if se := im.record(line); se != nil {
					return se
				}
				return im.eof()
			}
			if len(line) > 0 {
				se := im.fail("the stream ends inside a record (no newline after %q)", shortText(line))
				se.Truncated = true
				im.finish(trace.StatusInterrupted, se)
				return se
			}
			return im.eof()
		}
		if err != nil {
			im.finish(trace.StatusInterrupted, err)
			return fmt.Errorf("read the trace stream at byte %d: %w", im.offset, err)
		}
		if im.skipping {
			// After a node limit: the rest of that search is dropped, up
			// to the next position record; the records between searches
			// before it (limits, mate, ...) are the next search's.
			word, _ := cut(line[:len(line)-1])
			if !betweenSearches[string(word)] {
				continue
			}
			im.skipping = string(word) != "position"
		}
		se := im.record(line[:len(line)-1])
		if im.limited {
			im.limited, im.skipping = false, true
			im.finish(trace.StatusTruncated, nil)
			continue
		}
		if se != nil {
			status := trace.StatusFailed
			if se.Truncated {
				status = trace.StatusInterrupted
			}
			im.finish(status, se)
			return se
		}
	}
}

// eof ends the stream: a search whose nodes are all closed is complete; one
// with nodes open was cut short.
func (im *importer) eof() error {
	if !im.header {
		if im.line == 0 {
			// An end, not a fault of what was written: an engine that
			// died before its first record is said to have exited.
			return &StreamError{Node: -1, Msg: "empty stream: want the header line \"HZT 1\"", Truncated: true}
		}
		return nil
	}
	if len(im.stack) > 1 {
		se := im.fail("the stream ends with %s open: the engine stopped writing in the middle of its search", engine.Count(int64(len(im.stack)-1), "node"))
		se.Truncated, se.AtEnd = true, true
		im.finish(trace.StatusInterrupted, se)
		return se
	}
	if im.active {
		im.endSearch()
	}
	return nil
}
