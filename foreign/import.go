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
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"sync/atomic"
	"time"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// Version is the newest protocol version this package reads (the number
// on the stream's first line, "HZT 1"). Version 2 adds the "mate" and
// "infinity" records, version 3 the "label" record; an older Horizon
// refuses each as unknown, so a stream says the oldest version that holds
// its records.
const Version = 3

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

func shortText(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "..."
	}
	return string(b)
}

// record handles one line (without its newline).
// maxTimeMS is the longest search time an end record may give, in
// milliseconds: the most a time.Duration holds (292 years).
const maxTimeMS = math.MaxInt64 / int64(time.Millisecond)

// betweenSearches are the records that come between searches (a search
// begins with its position record).
var betweenSearches = map[string]bool{"engine": true, "label": true, "scores": true, "moves": true, "mate": true, "infinity": true, "limits": true, "position": true}

func (im *importer) record(b []byte) *StreamError {
	if im.recOffset == 0 {
		b = bytes.TrimPrefix(b, []byte(engine.BOM)) // a stream saved by a Windows editor
	}
	if n := len(b); n > 0 && b[n-1] == '\r' {
		b = b[:n-1]
	}
	if len(b) == 0 || b[0] == '#' {
		return nil
	}
	if !im.header {
		f := fields(b)
		if bytes.HasPrefix(b, []byte(sqliteMagic)) {
			return im.fail("a SQLite file (a trace file, which every other command reads), not a trace stream: import reads the text an engine writes")
		}
		if len(f) != 2 || string(f[0]) != "HZT" {
			return im.fail("not a Horizon trace stream: the first record is %q, want \"HZT 1\"", shortText(b))
		}
		v, ok := atoi(f[1])
		if !ok || v < 1 {
			return im.fail("malformed version %q in the header", f[1])
		}
		if v > Version {
			return im.fail("protocol version %d, this Horizon reads up to %d; upgrade Horizon", v, Version)
		}
		im.header, im.version = true, v
		return nil
	}
	if len(b) >= 2 && b[1] == ' ' || len(b) == 1 {
		switch b[0] {
		case 'E':
			return im.enter(b)
		case 'L':
			return im.leave(b)
		case 'S':
			return im.standPat(b)
		case 'M':
			return im.moveRec(b)
		case 'X':
			return im.extension(b)
		case 'A':
			return im.abort(b)
		}
	}
	word, rest := cut(b)
	if string(word) == "end" {
		return im.end(rest)
	}
	if !betweenSearches[string(word)] {
		if string(word) == "HZT" {
			// Two streams joined ('cat a.hzt b.hzt').
			return im.fail("a second header %q: a stream has one; import each stream on its own (into one trace file, if you like)", shortText(b))
		}
		if i := bytes.IndexByte(b, '\t'); i >= 0 && i < 12 {
			// A C engine's printf("%c\t%d...") read "unknown record" alone.
			return im.fail("unknown record %q: fields are separated by single spaces, not tabs", shortText(b))
		}
		return im.fail("unknown record %q", shortText(b))
	}
	if len(im.stack) > 1 {
		return im.fail("%q record inside a node: header records come between searches", word)
	}
	switch string(word) {
	case "engine":
		im.engine = strings.TrimSpace(string(rest))
	case "label":
		if im.version < 3 {
			return im.fail("\"label\" record in a version %d stream: the header must say \"HZT 3\" (older Horizons refuse the record)", im.version)
		}
		im.label = strings.TrimSpace(string(rest))
	case "scores":
		switch strings.TrimSpace(string(rest)) {
		case "soft", "fail-soft":
			im.failHard = false
		case "hard", "fail-hard":
			im.failHard = true
		default:
			return im.fail("scores %q: want soft or hard", rest)
		}
	case "moves":
		switch strings.TrimSpace(string(rest)) {
		case "legal":
			im.pseudo = false
		case "pseudo":
			im.pseudo = true
		default:
			return im.fail("moves %q: want legal or pseudo", rest)
		}
	case "mate", "infinity":
		return im.scaleRecord(string(word), rest)
	case "limits":
		// A search's limits are its own: written after its position
		// record (the emitters do), before its first node; one written
		// between searches is the next search's.
		// One written after the search's first node is the next search's
		// if a position record follows, a warning if the search's end
		// does (see lateLimits).
		if im.active && im.rec == nil {
			im.limits = strings.TrimSpace(string(rest))
		} else {
			im.nextLimits = strings.TrimSpace(string(rest))
			if im.active {
				im.lateLimits = im.line
			}
		}
	case "position":
		return im.position(string(rest))
	}
	return nil
}

// scaleRecord reads "mate VALUE MIN [plies|turns]" or "infinity VALUE":
// the engine's score scale, kept for later searches.
func (im *importer) scaleRecord(word string, rest []byte) *StreamError {
	if im.version < 2 {
		return im.fail("%q record in a version %d stream: the header must say \"HZT 2\" (older Horizons refuse the record)", word, im.version)
	}
	sc := im.scale
	f := fields(rest)
	if word == "infinity" {
		if len(f) != 1 {
			return im.fail("infinity %q: want one value, the engine's window end for no bound", rest)
		}
		v, ok := atoi(f[0])
		if !ok || v <= 0 {
			return im.fail("infinity %q: want a score above 0", f[0])
		}
		sc.Infinity = engine.Score(v)
	} else {
		if len(f) < 2 || len(f) > 3 {
			return im.fail("mate %q: want VALUE MIN [plies|turns]: the score of a mate at distance 0 and the smallest mate score", rest)
		}
		v, ok1 := atoi(f[0])
		lo, ok2 := atoi(f[1])
		if !ok1 || !ok2 || lo <= 0 || lo > v {
			return im.fail("mate %q: want 0 < MIN <= VALUE", rest)
		}
		sc.Mate, sc.MateMin, sc.MateTurns = engine.Score(v), engine.Score(lo), false
		if len(f) == 3 {
			switch string(f[2]) {
			case "plies":
			case "turns":
				sc.MateTurns = true
			default:
				return im.fail("mate %q: unit %q: want plies or turns", rest, f[2])
			}
		}
	}
	// A mate score at or beyond infinity would print as ∞: no engine's
	// mates lie outside its window.
	if sc.Mate > 0 && sc.Infinity > 0 && (sc.Mate > sc.Infinity || sc.MateMin >= sc.Infinity) {
		return im.fail("%s %q: the mate scores %d to %d do not fit below infinity %d", word, rest, sc.MateMin, sc.Mate, sc.Infinity)
	}
	im.scale = sc
	return nil
}

// position starts a search: "position startpos|fen FEN [moves ...]".
func (im *importer) position(text string) *StreamError {
	if im.active {
		if len(im.stack) > 1 {
			return im.fail("a new position with %s open", engine.Count(int64(len(im.stack)-1), "node"))
		}
		im.lateLimits = 0 // this search's (nextLimits), no warning of the last
		im.endSearch()
	}
	pos, note, err := parsePosition(text)
	if err != nil {
		return im.fail("position %q: %v", shortText([]byte(text)), err)
	}
	im.pos = pos
	im.fen = pos.FEN()
	im.active = true
	im.limits, im.nextLimits, im.lateLimits = im.nextLimits, "", 0
	im.aborted, im.cutRoot, im.abortLine, im.leftLine = false, false, 0, 0
	im.engineNodes = -1
	im.bestMove = ""
	im.warning = note
	im.clamped, im.clampedAt = 0, ""
	im.elapsed, im.zeroTime = 0, false
	im.cur, im.done = iteration{}, iteration{}
	im.start = time.Now()
	return nil
}

// ParsePosition reads the arguments of a UCI position command:
// "startpos [moves ...]" or "fen FEN [moves ...]" (a bare FEN is accepted too).
// A FEN whose fullmove number is 0, as some engines write their own start
// position, reads as fullmove 1 (the run's searched position is the same).
func ParsePosition(text string) (*engine.Position, error) {
	pos, _, err := parsePosition(text)
	return pos, err
}

// parsePosition is ParsePosition with a note for the run's warning when it
// read the position leniently: "" when the text was a FEN as written.
func parsePosition(text string) (pos *engine.Position, note string, err error) {
	f := strings.Fields(text)
	var fen string
	var moves []string
	switch {
	case len(f) == 0:
		return nil, "", errors.New("empty position")
	case f[0] == "startpos":
		fen = "startpos"
		f = f[1:]
	default:
		if f[0] == "fen" {
			f = f[1:]
		}
		i := 0
		for i < len(f) && f[i] != "moves" {
			i++
		}
		fen = strings.Join(f[:i], " ")
		f = f[i:]
	}
	if len(f) > 0 {
		if f[0] != "moves" {
			return nil, "", fmt.Errorf("unexpected %q after the position", f[0])
		}
		moves = f[1:]
	}
	pos, err = engine.ParseFEN(fen) // "startpos" too
	if ff := strings.Fields(fen); err != nil && len(ff) == 6 && ff[5] == "0" {
		// Engines write fullmove 0 for a position of their own (FEN
		// counts from 1); refusing it would lose the whole stream for a
		// number the search never reads.
		var fe *engine.FENError
		if errors.As(err, &fe) && fe.Field == "fullmove" {
			ff[5] = "1"
			if pos, err = engine.ParseFEN(strings.Join(ff, " ")); err == nil {
				note = "its position record gives fullmove number 0, which FEN counts from 1: read as 1"
			}
		}
	}
	if err != nil {
		return nil, "", err
	}
	if i, err := pos.PlayUCI(moves); err != nil {
		return nil, "", fmt.Errorf("move %d (%s): %v", i+1, moves[i], err)
	}
	// The search starts from here: a fresh position without the game's
	// history, as the trace's root.
	pos, err = engine.ParseFEN(pos.FEN())
	return pos, note, err
}

// begin creates the run and enters the run node, at the first node of a
// search.
func (im *importer) begin() *StreamError {
	if !im.active {
		return im.fail("a node before any position record: the stream must say where the search starts")
	}
	name := im.engine
	if im.opts.PreferName && im.opts.Engine != "" || name == "" {
		name = im.opts.Engine
	}
	if name == "" {
		name = "unknown engine"
	}
	lim := im.searchLimits()
	var goCmd any // null without a limits record: a fact that does not apply
	if lim != "" {
		goCmd = lim
	}
	limJSON, _ := json.Marshal(map[string]any{"go": goCmd, "max_nodes": im.opts.Record.MaxNodes})
	ro := im.opts.Record
	ro.Engine, ro.FailHard = name, im.failHard
	// Options holds what the stream declared about the engine's moves,
	// for the checks (check.Run reads "moves").
	moves := "legal"
	if im.pseudo {
		moves = "pseudo"
	}
	decl := trace.EngineDeclared{Moves: moves, Scores: map[bool]string{false: "soft", true: "hard"}[im.failHard],
		Mate: int(im.scale.Mate), MateMin: int(im.scale.MateMin), Infinity: int(im.scale.Infinity)}
	if decl.Mate > 0 {
		decl.MateUnit = map[bool]string{false: "plies", true: "turns"}[im.scale.MateTurns]
	}
	optJSON, _ := json.Marshal(decl)
	epdID := ""
	if im.opts.EPDID != nil {
		epdID = im.opts.EPDID(len(im.results), im.fen)
	}
	label := cmp.Or(im.opts.Label, im.label, name)
	rec, err := im.newSink(trace.RunInfo{FEN: im.fen, EPDID: epdID, Variant: label, Options: string(optJSON),
		Limits: string(limJSON), Version: im.opts.Version}, ro)
	if err != nil {
		return &StreamError{Offset: im.recOffset, Line: im.line, Node: -1, Msg: err.Error()}
	}
	im.rec, im.runID, im.nextID = rec, rec.RunID(), 1
	im.results = append(im.results, RunResult{RunID: im.runID, Engine: name, Label: label, FEN: im.fen, EngineNodes: -1})
	if r, ok := rec.(*trace.Recorder); ok && im.opts.OnRun != nil {
		im.opts.OnRun(im.runID, r)
	}
	im.stack = im.stack[:0]
	im.stack = append(im.stack, frame{id: 0, kind: engine.KindRun, alpha: -engine.Infinity, beta: engine.Infinity,
		qsPly: -1, lastIndex: -1})
	rec.Enter(engine.EnterInfo{ID: 0, Parent: -1, Depth: depthLimit(lim), Alpha: -engine.Infinity, Beta: engine.Infinity, Kind: engine.KindRun,
		QSPly: -1, QSLevel: -1, InCheck: im.pos.InCheck()})
	return nil
}

// enter: "E move depth alpha beta [k=kind] [q=qsply] [l=level] [i=iteration]".
func (im *importer) enter(b []byte) *StreamError {
	if im.rec == nil {
		if se := im.begin(); se != nil {
			return se
		}
	}
	if mx := im.opts.Record.MaxNodes; mx > 0 && im.nextID > mx {
		// The recorder's node limit, checked here so it is exact: ids
		// count the run node, so nextID-1 positions are in.
		im.limited, im.stop = true, trace.StopNodes
		return nil
	}
	var tok [12][]byte
	f := splitInto(b[1:], tok[:])
	if len(f) < 4 {
		return im.fail("E record needs move, depth, alpha and beta: %q", shortText(b))
	}
	depth, ok1 := atoi(f[1])
	alpha, ok2 := atoi(f[2])
	beta, ok3 := atoi(f[3])
	if !ok1 || !ok2 || !ok3 {
		return im.fail("E record: depth, alpha and beta must be integers from -%d to %d: %q", maxInt, maxInt, shortText(b))
	}
	if depth < -127 || depth > 127 {
		return im.fail("depth %d out of range (-127 to 127)", depth)
	}
	if alpha > beta {
		return im.fail("window [%d, %d]: alpha above beta", alpha, beta)
	}
	n := len(im.stack)
	parent := &im.stack[n-1]
	top := n == 1
	if parent.kids >= trace.MaxChildren {
		// Readers call a node with more damaged (trace.MaxChildren): a
		// run that imported whole would not open in export or the viewer.
		if top {
			// The parent is Horizon's run node, no node of the stream.
			return im.fail("the search already has %s (iterations and probes), the most a trace holds: a search that starts over that often is caught in a loop",
				engine.CountOf(int64(parent.kids), "root", "roots"))
		}
		return im.fail("node %d already has %s, the most a trace holds: a search that enters children that often is caught in a loop",
			parent.id, engine.CountOf(int64(parent.kids), "child", "children"))
	}
	fr := frame{id: im.nextID, depth: depth, alpha: engine.Score(alpha), beta: engine.Score(beta), qsPly: -1, lastIndex: -1}
	kind, level, iter, qsPly := engine.NodeKind(255), -1, -1, -1
	for _, kv := range f[4:] {
		if len(kv) < 3 || kv[1] != '=' {
			return im.fail("E record: %s", badOption(kv, eOptions))
		}
		v := kv[2:]
		switch kv[0] {
		case 'k':
			k, ok := byName[engine.NodeKind](engine.KindNames(), v)
			if !ok {
				return im.fail("E record: unknown kind %q (want root, pv, nonpv or qs)", v)
			}
			kind = k
		case 'q':
			x, ok := atoi(v)
			if !ok || x < 0 || x > maxQSPly {
				return im.fail("E record: QS ply %q: want 0 to %d", v, maxQSPly)
			}
			qsPly = x
		case 'l':
			x, ok := atoi(v)
			if !ok || x < 0 || x > 125 {
				return im.fail("E record: QS level %q: want 0 to 125", v)
			}
			level = x
		case 'i':
			x, ok := atoi(v)
			if !ok || x < 0 || x > 255 {
				return im.fail("E record: iteration %q: want 0 to 255", v)
			}
			iter = x
		case 'c':
			// In check is derived from the position; the flag is accepted
			// for emitters that send it.
		default:
			return im.fail("E record: %s", badOption(kv, eOptions))
		}
	}
	if top {
		if string(f[0]) != "-" {
			return im.fail("a root node (no node open) with move %q: a root has no move, write -", f[0])
		}
		if kind != 255 && kind != engine.KindRoot {
			return im.fail("a root node of kind %s", kind)
		}
		fr.kind = engine.KindRoot
		if iter < 0 {
			// A root below depth 1 (a search of QS alone) is iteration
			// 0: a trace has no negative iterations.
			iter = max(depth, 0)
		}
		fr.iteration = iter
		if im.cur.roots > 0 && iter != im.cur.iter {
			// Engines start an iteration only when the one before has
			// concluded (Sunfish's driver finds that out by probing the
			// next depth).
			im.done = im.cur
		}
		if im.cur.roots == 0 || iter != im.cur.iter {
			im.cur = iteration{iter: iter}
		}
	} else {
		if string(f[0]) == "-" {
			return im.fail("a node with no move below node %d: only roots have none (a null move is 0000)", parent.id)
		}
		m, msg := im.parseMove(n-1, f[0])
		if msg != "" {
			return im.fail("%s", msg)
		}
		if se := im.checkAnnounced(parent, m); se != nil {
			return se
		}
		if kind == 255 {
			switch {
			case depth <= 0:
				kind = engine.KindQS
			case beta-alpha == 1:
				kind = engine.KindNonPV
			default:
				kind = engine.KindPV
			}
		}
		if kind == engine.KindRoot || kind == engine.KindRun {
			return im.fail("a %s node below node %d", kind, parent.id)
		}
		fr.kind = kind
		fr.move = m
		fr.iteration = parent.iteration
		fr.ext = parent.pendingExt
		parent.pendingExt = 0
		im.pos.MakeMove(m)
		fr.moved = true
	}
	if fr.kind == engine.KindQS && qsPly < 0 {
		qsPly = 0
		if parent.kind == engine.KindQS {
			qsPly = parent.qsPly + 1
		}
	}
	if fr.kind != engine.KindQS {
		qsPly, level = -1, -1
	}
	if qsPly > maxQSPly {
		return im.fail("QS ply %d: deeper than a trace holds (%d)", qsPly, maxQSPly)
	}
	fr.qsPly = qsPly
	im.nextID++
	ply := n - 1
	if ply > maxPly {
		return im.fail("ply %d: deeper than a trace holds (%d)", ply, maxPly)
	}
	im.stack = append(im.stack, fr)
	im.rec.Enter(engine.EnterInfo{ID: fr.id, Parent: parent.id, Ply: ply, Depth: depth, Alpha: fr.alpha, Beta: fr.beta,
		Kind: fr.kind, QSPly: qsPly, QSLevel: level, Move: fr.move, InCheck: im.pos.InCheck(), Iteration: fr.iteration})
	return nil
}

// parseMove reads a UCI move (0000: a null move) played at the position of
// the open node at stack depth at (the current position).
func (im *importer) parseMove(at int, text []byte) (engine.Move, string) {
	if string(text) == engine.NullUCI {
		return engine.NullMove, ""
	}
	if len(text) < 4 || len(text) > 5 {
		return engine.NoMove, fmt.Sprintf("malformed move %q: want UCI, like e2e4, e7e8q, or 0000 for a null move", text)
	}
	from, ok1 := square(text[0], text[1])
	to, ok2 := square(text[2], text[3])
	promo := engine.NoPieceType
	if len(text) == 5 {
		switch text[4] {
		case 'n':
			promo = engine.Knight
		case 'b':
			promo = engine.Bishop
		case 'r':
			promo = engine.Rook
		case 'q':
			promo = engine.Queen
		default:
			ok1 = false
		}
	}
	if !ok1 || !ok2 {
		return engine.NoMove, fmt.Sprintf("malformed move %q: want UCI, like e2e4, e7e8q, or 0000 for a null move", text)
	}
	if im.pseudo {
		if m, ok := im.pos.PseudoMove(from, to, promo); ok {
			return m, ""
		}
		if pc := im.pos.PieceAt(to); pc != engine.NoPiece && pc.Type() == engine.King && pc.Color() != im.pos.SideToMove() {
			// No position follows it (PseudoMove).
			return engine.NoMove, fmt.Sprintf("move %s captures the king: a king-capture engine's refutation is the score of the node that could capture, not a node (in %s)", text, im.pos.FEN())
		}
		msg := fmt.Sprintf("move %s cannot be played in %s (not even ignoring checks)", text, im.pos.FEN())
		if why := im.pos.IllegalReason(from, to, promo); why != "" {
			msg += ": " + why
		}
		return engine.NoMove, msg
	}
	for len(im.legal) <= at {
		im.legal = append(im.legal, engine.MoveList{})
	}
	parent := &im.stack[at]
	if !parent.hasGen {
		im.pos.Generate(engine.GenAll, &im.legal[at])
		parent.hasGen = true
	}
	for _, m := range im.legal[at].Slice() {
		if m.From() == from && m.To() == to && m.Promotion() == promo {
			return m, ""
		}
	}
	msg := fmt.Sprintf("illegal move %s in %s", text, im.pos.FEN())
	if why := im.pos.IllegalReason(from, to, promo); why != "" {
		msg += ": " + why
		if _, ok := im.pos.PseudoMove(from, to, promo); ok {
			// An engine that searches such moves on purpose, refuting
			// them by taking the king, says so in its header.
			msg += " (a stream of an engine that searches pseudo-legal moves says 'moves pseudo')"
		}
	}
	return engine.NoMove, msg
}

func square(f, r byte) (engine.Square, bool) {
	if f < 'a' || f > 'h' || r < '1' || r > '8' {
		return 0, false
	}
	return engine.MakeSquare(int(f-'a'), int(r-'1')), true
}

// The optional fields of E and L records, as badOption lists them.
const (
	eOptions = "k=, q=, l=, i= or c="
	lOptions = "b=, c=, m=, g=, s= or x="
)

// badOption says what is wrong with an optional field kv of a record whose
// fields are known (E, L): no key=value at all, or a key it does not take,
// such as "kind=pv" for "k=pv" (which read "malformed option (want
// key=value)" though it was one).
func badOption(kv []byte, known string) string {
	if i := bytes.IndexByte(kv, '='); i > 0 && i < len(kv)-1 {
		return fmt.Sprintf("unknown field %q (want %s)", kv, known)
	}
	return fmt.Sprintf("malformed field %q (want %s, each with a value)", kv, known)
}

// sqliteMagic begins every SQLite file, and so every trace file.
const sqliteMagic = "SQLite format 3\x00"

// leave: "L score [b=bound] [c=cause] [m=best] [g=generated] [s=searched] [x=cutindex]".
func (im *importer) leave(b []byte) *StreamError {
	n := len(im.stack)
	if n <= 1 {
		return im.noNodeOpen("L", " (more leaves than enters)")
	}
	var tok [10][]byte
	f := splitInto(b[1:], tok[:])
	if len(f) < 1 {
		return im.fail("L record needs the score")
	}
	sc, ok := atoi(f[0])
	if !ok {
		return im.fail("L record: score %q is not an integer from -%d to %d", f[0], maxInt, maxInt)
	}
	fr := &im.stack[n-1]
	score := engine.Score(sc)
	l := engine.LeaveInfo{ID: fr.id, Score: score, Bound: 255, Cause: 255, CutIndex: -2, Best: engine.NoMove,
		Generated: -1, Searched: -1, StandPat: fr.stand, HasStand: fr.hasStand, Extension: fr.ext}
	hasBest := false
	for _, kv := range f[1:] {
		if len(kv) < 3 || kv[1] != '=' {
			return im.fail("L record: %s", badOption(kv, lOptions))
		}
		v := kv[2:]
		switch kv[0] {
		case 'b':
			bd, ok := byName[engine.Bound](engine.BoundNames(), v)
			if !ok {
				return im.fail("L record: unknown bound %q (want upper, lower or exact)", v)
			}
			l.Bound = bd
		case 'c':
			c, ok := byName[engine.Cause](engine.CauseNames(), v)
			if !ok {
				return im.fail("L record: unknown cause %q (see the protocol's list)", v)
			}
			l.Cause = c
		case 'm':
			if string(v) == "-" || string(v) == "0000" {
				hasBest = true
				break
			}
			// The best move is one of this node's moves: parse it at
			// this node's position.
			m, msg := im.parseMove(n-1, v)
			if msg != "" {
				return im.fail("L record: best move: %s", msg)
			}
			l.Best, hasBest = m, true
		case 'g', 's', 'x':
			x, ok := atoi(v)
			if !ok || x < -1 {
				return im.fail("L record: %c=%s is not a count", kv[0], v)
			}
			switch kv[0] {
			case 'g':
				l.Generated = x
			case 's':
				l.Searched = x
			default:
				l.CutIndex = x
			}
		default:
			return im.fail("L record: %s", badOption(kv, lOptions))
		}
	}
	// Derive what the engine left out.
	if l.Bound == 255 {
		l.Bound = engine.BoundOf(score, fr.alpha, fr.beta)
	}
	failedHigh := fr.kids > 0 && fr.lastNeg >= fr.beta && score >= fr.beta
	if l.Cause == 255 {
		switch {
		case failedHigh && fr.lastKid != engine.NullMove:
			l.Cause = engine.CauseBeta
		case fr.kids == 0 && fr.hasStand && fr.stand >= fr.beta && score >= fr.beta:
			l.Cause = engine.CauseStandPat
		default:
			l.Cause = engine.CauseNone
		}
	}
	if l.CutIndex == -2 {
		l.CutIndex = -1
		if l.Cause == engine.CauseBeta && fr.lastIndex >= 0 {
			l.CutIndex = fr.lastIndex
		}
	}
	if !hasBest {
		l.Best = fr.derivedBest(l.Cause, l.Bound, score)
	}
	if l.Searched < 0 {
		l.Searched = fr.realKids
	}
	if l.Generated < 0 {
		l.Generated = 0
	}
	if trace.CountsClamped(l.Generated, l.CutIndex) {
		if im.clamped == 0 {
			im.clampedAt = fmt.Sprintf("node %d (g=%d, x=%d; the leave record at byte %d, line %d)",
				fr.id, l.Generated, l.CutIndex, im.recOffset, im.line)
		}
		im.clamped++
	}
	im.rec.Leave(l)
	if fr.moved {
		im.pos.UnmakeMove()
	}
	id, move, kind, iter := fr.id, fr.move, fr.kind, fr.iteration
	p := &im.stack[n-2]
	neg := -score
	exact := l.Bound == engine.BoundExact
	// The node's principal variation: its best move, continued by the line
	// of the exact child its score came from. Only an exact node hands its
	// line up (a bound's best move is a refutation or a guess, no
	// variation), and a root keeps its own for the run.
	if exact || kind == engine.KindRoot {
		im.ownLine = im.ownLine[:0]
		if l.Best != engine.NoMove {
			im.ownLine = append(im.ownLine, l.Best)
			switch {
			case fr.hasExact && fr.exactKid == l.Best && fr.exactNeg == score:
				im.ownLine = append(im.ownLine, im.exactLine[n-1]...)
			case fr.hasLastExact && fr.lastExactKid == l.Best && fr.lastExactNeg == score:
				im.ownLine = append(im.ownLine, im.lastLine[n-1]...)
			}
		}
		if exact {
			if !p.hasExact || neg >= p.exactNeg {
				im.exactLine[n-2] = append(im.exactLine[n-2][:0], im.ownLine...)
			}
			im.lastLine[n-2] = append(im.lastLine[n-2][:0], im.ownLine...)
		}
	}
	im.stack = im.stack[:n-1]
	p.kids++
	if move != engine.NullMove && move != engine.NoMove {
		p.realKids++
	}
	p.lastKid, p.lastNeg = move, neg
	switch l.Bound {
	case engine.BoundExact:
		if !p.hasExact || neg >= p.exactNeg {
			p.exactKid, p.exactNeg, p.hasExact = move, neg, true
		}
		p.lastExactKid, p.lastExactNeg, p.hasLastExact = move, neg, true
	case engine.BoundUpper:
		if !p.hasHigh || neg >= p.highNeg {
			p.highKid, p.highNeg, p.hasHigh = move, neg, true
		}
	}
	if kind == engine.KindRoot {
		im.cur.add(iter, score, l.Bound, l.Best, im.ownLine)
	}
	im.leftID, im.leftLine = id, im.line
	return nil
}

// noNodeOpen is the error for a node record (rec: L, S, M, X) that finds
// no node open, what (" (more leaves than enters)") added to it. It says
// what closed the last node: an A record, which closes every open node
// (an engine that writes A and then an L for each node it unwinds leaves
// twice), or the L record that closed it.
func (im *importer) noNodeOpen(rec, what string) *StreamError {
	switch {
	case im.abortLine > im.leftLine:
		return im.fail("%s record with no node open%s: the A record at line %d closed every node open then (write A instead of the L records of the nodes it closes, not before them)",
			rec, what, im.abortLine)
	case im.leftLine > 0:
		return im.fail("%s record with no node open%s: the last node open, node %d, was left at line %d", rec, what, im.leftID, im.leftLine)
	}
	return im.fail("%s record with no node open%s", rec, what)
}

// derivedBest is the best move of a node the engine named none for: the
// child whose negated score equals the node's (docs/trace-protocol.md).
// An exact child is preferred (the last one when PVS re-searched it, or
// the last pass's when an earlier pass of the node scored higher); a
// fail-high node may take the child that failed high; an exact node never
// takes a child that failed low, nor a lower bound, whose score is no
// node's value.
func (fr *frame) derivedBest(cause engine.Cause, bound engine.Bound, score engine.Score) engine.Move {
	var m engine.Move
	switch {
	case cause == engine.CauseBeta:
		m = fr.lastKid
	case bound == engine.BoundUpper:
	case fr.hasExact && fr.exactNeg == score:
		m = fr.exactKid
	case bound == engine.BoundExact && fr.hasLastExact && fr.lastExactNeg == score:
		m = fr.lastExactKid
	case bound == engine.BoundLower && fr.hasHigh && (fr.highNeg == score || !fr.hasExact || fr.exactNeg < score):
		m = fr.highKid
	}
	if m == engine.NullMove {
		return engine.NoMove // a null move is no move to play
	}
	return m
}

// iteration sums up the roots of one iteration of iterative deepening (its
// aspiration or MTD probes) as the run reports it once it concluded.
type iteration struct {
	iter  int
	roots int
	// The last root's result, and the last exact and fail-high roots'
	// (an MTD iteration has no exact root: its value is the bracket's
	// lower bound, the last fail-high probe, which holds its best move).
	last, exact, high rootResult
}

type rootResult struct {
	ok    bool
	score engine.Score
	best  engine.Move
	bound engine.Bound
	pv    []engine.Move // its principal variation, from best
}

func (it *iteration) add(iter int, score engine.Score, bound engine.Bound, best engine.Move, pv []engine.Move) {
	it.iter = iter
	it.roots++
	r := rootResult{ok: true, score: score, best: best, bound: bound, pv: append([]engine.Move(nil), pv...)}
	it.last = r
	switch bound {
	case engine.BoundExact:
		it.exact = r
	case engine.BoundLower:
		it.high = r
	}
}

// result is the root whose score, best move and principal variation the
// iteration reports.
func (it *iteration) result() rootResult {
	switch {
	case it.exact.ok:
		return it.exact
	case it.high.ok:
		return it.high
	}
	return it.last
}

// standPat: "S eval".
func (im *importer) standPat(b []byte) *StreamError {
	n := len(im.stack)
	if n <= 1 {
		return im.noNodeOpen("S", "")
	}
	text := trimSpace(b[1:])
	v, ok := atoi(text)
	if !ok {
		return im.fail("S record: eval %q is not an integer from -%d to %d", text, maxInt, maxInt)
	}
	fr := &im.stack[n-1]
	fr.stand, fr.hasStand = engine.Score(v), true
	im.rec.StandPat(engine.StandPatInfo{ID: fr.id, Eval: fr.stand, Cutoff: fr.stand >= fr.beta})
	return nil
}

// moveRec: "M move index".
func (im *importer) moveRec(b []byte) *StreamError {
	n := len(im.stack)
	if n <= 1 {
		return im.noNodeOpen("M", "")
	}
	var tok [3][]byte
	f := splitInto(b[1:], tok[:])
	if len(f) != 2 {
		return im.fail("M record needs a move and its index: %q", shortText(b))
	}
	idx, ok := atoi(f[1])
	if !ok || idx < 0 {
		return im.fail("M record: index %q: want a number >= 0", f[1])
	}
	fr := &im.stack[n-1]
	m, msg := im.parseMove(n-1, f[0])
	if msg != "" {
		if fr.move != engine.NoMove && fr.move != engine.NullMove && fr.move.UCI() == string(f[0]) {
			// The M of the move that led here, written after its E.
			msg += fmt.Sprintf(" (%s is the move that entered node %d: a move's M record comes before the E record of the node it leads to)", f[0], fr.id)
		}
		return im.fail("M record: %s", msg)
	}
	fr.lastIndex = idx
	fr.lastMove, fr.hasLastMove, fr.lastMLine, fr.mEnteredAt = m, true, im.line, 0
	im.rec.Move(engine.MoveInfo{ID: fr.id, Move: m, Index: idx})
	return nil
}

// checkAnnounced holds a child reached by real move m to the parent's last
// M record: the cut index is read from that record, so a child of another
// move would make it name the wrong move. A null move has no M (Fairy-Max
// writes none for its null move, between its passes' moves), an M may have
// no child (a pruned move), and a re-search enters the M's move again.
func (im *importer) checkAnnounced(parent *frame, m engine.Move) *StreamError {
	if m == engine.NullMove || !parent.hasLastMove {
		return nil
	}
	if m == parent.lastMove {
		if parent.mEnteredAt == 0 {
			parent.mEnteredAt = im.line
		}
		return nil
	}
	if parent.mEnteredAt == 0 {
		return im.fail("E record enters %s, but the M record before it (line %d) named %s: an M names the next child's move",
			m.UCI(), parent.lastMLine, parent.lastMove.UCI())
	}
	return im.fail("E record enters %s with no M record of its own: node %d's last M (line %d) named %s, entered at line %d; "+
		"a node that writes M records writes one before each move's child",
		m.UCI(), parent.id, parent.lastMLine, parent.lastMove.UCI(), parent.mEnteredAt)
}

// extension: "X plies", for the next child entered.
func (im *importer) extension(b []byte) *StreamError {
	n := len(im.stack)
	if n <= 1 {
		return im.noNodeOpen("X", "")
	}
	text := trimSpace(b[1:])
	v, ok := atoi(text)
	if !ok || v < -15 || v > 15 {
		return im.fail("X record: plies %q: want -15 to 15", text)
	}
	fr := &im.stack[n-1]
	fr.pendingExt = v
	im.rec.Extension(engine.ExtensionInfo{ID: fr.id, Plies: v})
	return nil
}

// abort: "A": the search unwound every open node (a stop, a time limit);
// they are closed as stopped.
func (im *importer) abort(b []byte) *StreamError {
	if len(b) > 1 && len(trimSpace(b[1:])) > 0 {
		return im.fail("A record takes no arguments")
	}
	if im.rec == nil {
		return nil
	}
	im.cutRoot = im.cutRoot || len(im.stack) > 1
	if len(im.stack) > 1 {
		im.abortLine = im.line
	}
	for n := len(im.stack); n > 1; n = len(im.stack) {
		fr := &im.stack[n-1]
		im.rec.Leave(engine.LeaveInfo{ID: fr.id, Cause: engine.CauseStop, CutIndex: -1})
		if fr.moved {
			im.pos.UnmakeMove()
		}
		im.stack = im.stack[:n-1]
	}
	im.aborted = true
	return nil
}

// end: "end [best=MOVE] [nodes=N]".
func (im *importer) end(rest []byte) *StreamError {
	if !im.active {
		return im.fail("end record without a search (no position record before it)")
	}
	if len(im.stack) > 1 {
		return im.fail("end record with %s open (fewer leaves than enters)", engine.Count(int64(len(im.stack)-1), "node"))
	}
	for _, kv := range fields(rest) {
		key, v, ok := strings.Cut(string(kv), "=")
		if !ok {
			return im.fail("end record: malformed option %q (want key=value)", kv)
		}
		switch key {
		case "best":
			switch _, err := im.pos.ParseUCI(v); {
			case v == "0000" || v == "(none)":
				// UCI's words for no move (a mated or stalemated root).
			case err != nil:
				// The tree is sound; the engine's claim about it is not.
				// Said, not fatal: the run's best move is its tree's.
				im.warning = fmt.Sprintf("the end record at byte %d (line %d) names best move %s, no legal move of the searched position: "+
					"the run's best move is read from its tree", im.recOffset, im.line, v)
			default:
				im.bestMove = v
			}
		case "nodes":
			x, ok := atoi64([]byte(v))
			if !ok || x < 0 {
				return im.fail("end record: nodes %q is not a count", v)
			}
			im.engineNodes = x
		case "time":
			x, ok := atoi64([]byte(v))
			if !ok || x < 0 {
				return im.fail("end record: time %q is not a number of milliseconds", v)
			}
			if x > maxTimeMS {
				return im.fail("end record: time %q is out of range (milliseconds, at most %d)", v, int64(maxTimeMS))
			}
			im.elapsed = time.Duration(x) * time.Millisecond
			im.zeroTime = x == 0
		default:
			// Unknown keys are allowed: later protocol versions may add some.
		}
	}
	im.endSearch()
	return nil
}

// warnLateLimits says, in the run's warning, that a limits record written
// after the search's first node (lateLimits) is not the run's, as the
// search finishes with no next search to take it: by its end record, the
// stream's end (where it was dropped without a word too), or a fault. The
// run, and the limits it records, began at the search's first node.
// Dropped without a word, a late record left the run with no limits (or
// another's) and the user wondering why. A position record that ends the
// search takes the record as its own instead (position), as does the
// search after one the node limit ended (skipping).
func (im *importer) warnLateLimits() {
	if im.lateLimits == 0 {
		return
	}
	im.warning = alsoWarn(im.warning, fmt.Sprintf("the limits record at line %d (%s) came after the search's first node: not recorded "+
		"(a search's limits come after its position record, before its first node)", im.lateLimits, im.nextLimits))
	im.nextLimits, im.lateLimits = "", 0
}

// endSearch finishes the current search's run. A search that ended by
// itself is truncated when its own time or node limit stopped it before
// its depth (trace.StatusTruncated), as Horizon's own runs are, whether it
// wrote an abort record (Ethereal) or not (Sunfish, Fairy-Max); the stop
// cause names the limit when the search had one of the two. One that the
// caller stopped on a cancel (Options.StopsOnCancel) is interrupted.
func (im *importer) endSearch() {
	status := trace.StatusComplete
	lim := withoutUnreachedNodes(im.searchLimits(), int64(im.nextID-1), im.engineNodes)
	switch {
	case im.opts.StopsOnCancel && im.ctx.Err() != nil && im.cancelStopped(lim):
		status = trace.StatusInterrupted
	case im.aborted:
		// An abort that no cancel of the caller's asked for, in a search
		// with one time or node limit, is that limit running out (Ethereal
		// writes one then, where others end without one): the same limit
		// gets the same cause. A file's stream cannot say whether a GUI's
		// stop came first; with both limits, or none, it stays an abort.
		status, im.stop = trace.StatusTruncated, trace.StopAbort
		if c := limitCause(lim); c != "" {
			im.stop = c
		}
	case limitStopped(lim, im.cur.iter):
		status, im.stop = trace.StatusTruncated, limitCause(lim)
	}
	im.finish(status, nil)
}

// cancelStopped says whether the cancel stopped the search that ends
// (Options.CancelStopped); lim is its limits text.
func (im *importer) cancelStopped(lim string) bool {
	if im.opts.CancelStopped != nil {
		return im.opts.CancelStopped()
	}
	return im.aborted || !depthReached(lim, im.cur.iter)
}

// limitCause names the limit of lim that stopped a search limitStopped
// says a limit stopped (trace.StopNodes or StopTime), "" when it had both
// and the stream does not say which.
func limitCause(lim string) string {
	var nodes, time bool
	for _, f := range strings.Fields(lim) {
		switch f {
		case "nodes":
			nodes = true
		case "movetime", "wtime", "btime":
			time = true
		}
	}
	switch {
	case nodes && !time:
		return trace.StopNodes
	case time && !nodes:
		return trace.StopTime
	}
	return ""
}

// searchLimits is the current search's limits text: the go command the
// caller sent when it drives the engine live (Options.Live: trace
// --engine), whatever the engine's limits record says it made of it (the
// Fairy-Max adapter writes "depth 60" for go nodes 3000); otherwise the
// stream's limits record, or Options.Limits without one.
func (im *importer) searchLimits() string {
	if im.limits == "" || im.opts.Live && im.opts.Limits != "" {
		return im.opts.Limits
	}
	return im.limits
}

// limitStopped says whether a search with limits text lim ("go nodes 5000",
// "movetime 200") that reached iteration reached was stopped by a time or
// node limit: it has one, and no depth limit it reached.
func limitStopped(lim string, reached int) bool {
	limited := false
	for _, f := range strings.Fields(lim) {
		switch f {
		case "nodes", "movetime", "wtime", "btime":
			limited = true
		}
	}
	return limited && !depthReached(lim, reached)
}

// depthReached says whether a search with limits text lim reached its
// depth limit (it has one) by iteration reached.
func depthReached(lim string, reached int) bool {
	d := depthLimit(lim)
	return d > 0 && reached >= d
}

// finish closes the current run with status (open nodes are closed as
// stopped by the recorder) and records err as the reason.
func (im *importer) finish(status trace.Status, cause error) {
	if !im.active {
		return
	}
	im.active = false
	if im.rec == nil {
		return // a position with no node: nothing to record
	}
	rec := im.rec
	im.rec = nil
	var best engine.Move
	if im.bestMove != "" {
		if pos, err := engine.ParseFEN(im.fen); err == nil {
			if m, err := pos.ParseUCI(im.bestMove); err == nil {
				best = m
			}
		}
	}
	// The run reports its last concluded iteration, as the engine's own
	// info lines do: one that a later iteration followed, or the last one
	// when its last root closed with an exact score and nothing opened
	// after it, however the search then ended (by itself, at a limit, an
	// abort or a fault in the stream). A probe of an iteration cut short
	// (a root still open, or closed by an abort) is no conclusion of the
	// engine.
	if len(im.stack) <= 1 && !im.cutRoot && im.cur.roots > 0 && im.cur.last.bound == engine.BoundExact {
		im.done = im.cur
	}
	reported := im.done.result()
	score := reported.score
	if best == engine.NoMove {
		best = reported.best
	}
	// Close the nodes still open (a stream cut short or broken) before
	// the run node, so the run node's score is that of the last root.
	for n := len(im.stack); n > 1; n = len(im.stack) {
		fr := &im.stack[n-1]
		rec.Leave(engine.LeaveInfo{ID: fr.id, Cause: engine.CauseStop, CutIndex: -1})
		if fr.moved {
			im.pos.UnmakeMove()
		}
		im.stack = im.stack[:n-1]
	}
	runCause := engine.CauseNone
	if status != trace.StatusComplete {
		runCause = engine.CauseStop
	}
	if len(im.stack) == 1 {
		// The run's score is the reported root's, with its bound: an MTD
		// iteration's value is its last fail-high probe, a lower bound
		// (Sunfish), and a run with no concluded iteration has none.
		rec.Leave(engine.LeaveInfo{ID: 0, Score: score, Bound: reported.bound, Cause: runCause, CutIndex: -1,
			Best: best, Searched: im.stack[0].kids, Generated: im.stack[0].kids})
		im.stack = im.stack[:0]
	}
	if status == trace.StatusComplete {
		status = "" // let the recorder tell a node limit apart
	}
	stop := im.stop
	im.stop = ""
	if status == trace.StatusInterrupted && cause != nil && im.ctx.Err() == nil {
		// Not a cancel: the stream ended or broke in the middle of the
		// search.
		stop = trace.StopStream
	}
	elapsed := im.elapsed
	if elapsed == 0 && im.opts.Live {
		elapsed = max(time.Since(im.start), time.Millisecond) // a stored 0 is "unknown"
	}
	res := trace.Result{Status: status, StopCause: stop, BestMove: best, Score: score, Depth: im.done.iter, Elapsed: elapsed,
		TimeUnknown: elapsed == 0}
	switch {
	case len(reported.pv) > 0 && reported.pv[0] == best:
		res.PV = reported.pv
	case best != engine.NoMove:
		// The engine played a move its reported iteration did not
		// prefer: the tree holds no line for it.
		res.PV = []engine.Move{best}
	}
	werr := rec.Finish(res)
	if !im.skipping {
		im.warnLateLimits()
	}
	r := &im.results[len(im.results)-1]
	r.EngineNodes = im.engineNodes
	if r.EngineNodes >= 0 {
		r.EngineNodesFrom = FromEndRecord
	}
	r.BestMove = im.bestMove
	r.Warning = im.warning
	if im.zeroTime && elapsed == 0 {
		// runs.elapsed_ms keeps 0 for a time not known (schema 1 on):
		// a real 0 reads as unknown, and the user is told so here.
		r.Warning = alsoWarn(r.Warning, "its end record gives time=0, which a trace stores as no time: the run's time reads as unknown")
	}
	if im.clamped > 0 {
		r.Warning = alsoWarn(r.Warning, fmt.Sprintf("%s with counts above what a trace stores (a generated count above %d, "+
			"a cut index above %d): the trace keeps lower bounds, read as \"%d+ generated\"; the first is %s",
			engine.Count(im.clamped, "node"), trace.MaxStoredGenerated, trace.MaxStoredCutIndex,
			trace.MaxStoredGenerated, im.clampedAt))
	}
	if r.BestMove == "" && best != engine.NoMove {
		r.BestMove = best.UCI()
	}
	r.Nodes = im.nextID - 1
	if cause == nil {
		cause = werr
	}
	r.Err = cause
	r.Limited = im.skipping // set by read as the limit ends the run
	if im.st == nil {
		r.Status = status
	} else if run, err := im.st.Run(context.WithoutCancel(im.ctx), im.runID); err == nil {
		r.Status = run.Status
	}
	if im.opts.OnFinish != nil {
		im.opts.OnFinish(*r)
	}
}

// withoutUnreachedNodes is lim without its node limit when the search
// did not reach it: neither the nodes in its stream nor the engine's own
// count (engineNodes, -1 for none) came to it, so it is not what stopped
// the search. Ethereal 12 ignores go nodes and stops after its first
// iteration: its 6 nodes under go nodes 5000 read "truncated (stop cause:
// nodes)". An engine counts at least the nodes it writes (Fairy-Max counts
// passes, more than its stream's calls), so one that stops at its limit
// is seen to reach it.
func withoutUnreachedNodes(lim string, nodes, engineNodes int64) string {
	f := strings.Fields(lim)
	for i := 0; i+1 < len(f); i++ {
		if f[i] != "nodes" {
			continue
		}
		if n, ok := atoi64([]byte(f[i+1])); ok && n > 0 && nodes < n && engineNodes < n {
			return strings.Join(append(f[:i:i], f[i+2:]...), " ")
		}
	}
	return lim
}

// depthLimit reads the depth out of limits text ("depth 13", "go depth
// 13"), 0 when there is none; the run node carries it, as Horizon's own do.
func depthLimit(lim string) int {
	f := strings.Fields(lim)
	for i := 0; i+1 < len(f); i++ {
		if f[i] == "depth" {
			if d, ok := atoi([]byte(f[i+1])); ok && d > 0 && d < 128 {
				return d
			}
		}
	}
	return 0
}

// byName returns the code whose name is s in names, the engine's list of
// one code's names (engine.KindNames, BoundNames, CauseNames), indexed by
// code.
func byName[T ~uint8](names []string, s []byte) (T, bool) {
	for i, n := range names {
		if n == string(s) {
			return T(i), true
		}
	}
	return 0, false
}

// splitInto splits b on spaces into dst's backing array (no allocation
// while it fits) and returns the fields.
func splitInto(b []byte, dst [][]byte) [][]byte {
	out := dst[:0]
	i := 0
	for i < len(b) {
		for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
			i++
		}
		j := i
		for j < len(b) && b[j] != ' ' && b[j] != '\t' {
			j++
		}
		if j > i {
			out = append(out, b[i:j])
		}
		i = j
	}
	return out
}

func fields(b []byte) [][]byte { return splitInto(b, nil) }

func cut(b []byte) (word, rest []byte) {
	b = trimSpace(b)
	for i, c := range b {
		if c == ' ' || c == '\t' {
			return b[:i], trimSpace(b[i+1:])
		}
	}
	return b, nil
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	return b
}

// maxInt bounds the stream's numbers either way: an int32, less its
// minimum, whose negation (a child's score seen from its parent)
// overflows: a child's score of -2147483648 made its parent's fail high
// read as no cutoff.
const maxInt = 1<<31 - 1

// atoi parses a decimal within maxInt either way without allocating.
func atoi(b []byte) (int, bool) {
	x, ok := atoi64(b)
	if !ok || x < -maxInt || x > maxInt {
		return 0, false
	}
	return int(x), true
}

func atoi64(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 19 {
		return 0, false
	}
	neg := false
	if b[0] == '-' || b[0] == '+' {
		neg = b[0] == '-'
		b = b[1:]
		if len(b) == 0 {
			return 0, false
		}
	}
	var x int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		d := int64(c - '0')
		if x > (math.MaxInt64-d)/10 {
			return 0, false // out of int64's range
		}
		x = x*10 + d
	}
	if neg {
		x = -x
	}
	return x, true
}

// flushEvery is how often, at most, a stream that pauses has its nodes
// committed (sink.Flush): often enough for a live viewer, rarely enough
// that an engine writing in bursts does not turn each burst into a
// transaction.
const flushEvery = 500 * time.Millisecond

// idle is called when the stream has sent everything it has for now: the
// run's rows so far are committed, so a viewer of the file sees them while
// the engine thinks, and a Horizon killed then loses none of them. Within
// flushEvery of the last commit it commits nothing and returns how long
// until it may: the reader calls it again then if the stream still
// pauses.
func (im *importer) idle() (again time.Duration) {
	if im.rec == nil {
		return 0
	}
	if wait := flushEvery - time.Since(im.flushed); wait > 0 {
		return wait
	}
	im.rec.Flush()
	im.flushed = time.Now()
	return 0
}
