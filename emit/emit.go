// Package emit writes the Horizon trace protocol (docs/trace-protocol.md)
// for chess engines written in Go, so that `horizon trace --engine` and
// `horizon import` can record their search trees. It depends on nothing but
// the standard library: no cgo, no Horizon engine.
//
// An engine calls Open once (it reads HORIZON_TRACE: a file path, or
// "fd:N" for a file descriptor the parent process left open), then for each
// search Position, the node events in the order the search visits them, and
// End. A nil *Writer ignores every call, so an engine keeps one pointer
// whether tracing is on or not. Guard each call with On: a call through a
// nil Writer still evaluates its arguments (move.String() allocates a
// string per node), and one engine ran 1.29x slower with tracing off for
// that alone; behind `if tw.On()` the cost is one nil check.
//
//	tw, _ := emit.Open("MyEngine 1.0", false) // nil when HORIZON_TRACE is unset
//	if tw.On() {
//		tw.Position("startpos moves e2e4")
//		tw.Root(depth, alpha, beta, depth)
//	}
//	... if tw.On() { tw.Enter(m.String(), depth-1, -beta, -alpha) } ...
//	... if tw.On() { tw.Leave(score) } ...
//	if tw.On() {
//		tw.End(best.String(), nodes)
//	}
//
// Three conventions (docs/trace-protocol.md, "Conventions"): a QS node's
// depth is 0 where QS begins and one less each QS ply below, as Horizon's
// own engine writes it (Horizon reads a node at depth <= 0 as QS; a QS ply
// written as a positive depth reads as full-width nodes unless EnterKind
// says "qs"). When the main search hands depth <= 0 to QS, the node is
// entered once, by whichever function counts it. After the stop flag,
// call Abort once the search has unwound, then End, and nothing between:
// no Leave of the nodes Abort closed, no node of a search that carries on.
//
// The package is its own module (github.com/horizonqs/horizon/emit) with a
// go line of 1.18 and nothing but the standard library, so an engine can
// `go get` it, vendor it, or copy this one file into its own package.
package emit

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// EnvVar names the environment variable Open reads.
const EnvVar = "HORIZON_TRACE"

// Version is the newest protocol version this package writes. A stream
// says the oldest version that holds its records: 1 without a Scale or a
// Label, so older Horizons keep reading it, 2 with a Scale (the "mate" and
// "infinity" records, which an older Horizon refuses as unknown), 3 with a
// Label (the "label" record), 4 when it declares Nested (nested searches,
// Writer.Nested).
const Version = 4

// Writer writes one trace stream. Its methods are not safe for concurrent
// use: trace one search thread. Write errors are sticky and reported by
// Err, Flush and Close.
type Writer struct {
	w   *bufio.Writer
	c   io.Closer
	buf []byte
	err error
}

// On reports whether w writes a stream: false for a nil Writer, which is
// tracing off. Guard calls with it so that tracing off costs one
// predictable branch and no argument is built for nothing.
func (t *Writer) On() bool { return t != nil }

// Header is what a stream declares about its engine before its first
// search.
type Header struct {
	Engine string // the engine's name
	// Label names the build's runs apart from Engine: two builds of one
	// engine ("eth-lmr-off") that share an id name. "" labels runs with
	// the engine's name.
	Label       string
	FailHard    bool // every score lies inside its node's window
	PseudoLegal bool // the engine searches pseudo-legal moves (Writer.PseudoLegal)
	// Nested says the engine writes nested searches (Writer.Nested): the
	// stream is version 4, which a Horizon that cannot read them refuses
	// whole. Without it, Horizon refuses the first nested search.
	Nested bool
	Scale  Scale // its mate and infinity values; the zero Scale declares none
}

// Scale is an engine's score scale, so that Horizon prints its mates as
// #N and its window's ends as ∞ (the protocol's "mate" and "infinity"
// records). A zero field is not declared.
type Scale struct {
	// Mate is the score of a mate at distance 0: a score of Mate - k is a
	// mate k plies away (k turns of the mated side with MateTurns), and
	// -(Mate - k) the side to move's loss. Ethereal: MATE (32000).
	Mate int
	// MateMin is the smallest score that is a mate, MATE_IN_MAX in
	// Ethereal (32000 - 128); required with Mate.
	MateMin int
	// MateTurns counts the distance in the mated side's turns, its mated
	// position included (micro-Max's delayed-loss bonus), not in plies.
	MateTurns bool
	// Infinity is the engine's window end for "no bound" (Ethereal: MATE,
	// the root's window [-MATE, MATE]).
	Infinity int
}

// declared says whether s declares anything.
func (s Scale) declared() bool { return s.Mate != 0 || s.Infinity != 0 }

// Open starts a stream at the destination HORIZON_TRACE names, writing the
// header with the engine's name and its score convention. It returns nil
// and no error when HORIZON_TRACE is unset or empty: tracing is off.
func Open(engineName string, failHard bool) (*Writer, error) {
	return OpenHeader(Header{Engine: engineName, FailHard: failHard})
}

// OpenHeader is Open with everything a header may declare.
func OpenHeader(h Header) (*Writer, error) {
	dest := os.Getenv(EnvVar)
	if dest == "" {
		return nil, nil
	}
	return OpenDestHeader(dest, h)
}

// OpenDest starts a stream at dest, a path or "fd:N": what a UCI engine
// calls for "setoption name HorizonTrace value PATH".
func OpenDest(dest, engineName string, failHard bool) (*Writer, error) {
	return OpenDestHeader(dest, Header{Engine: engineName, FailHard: failHard})
}

// OpenDestHeader is OpenDest with everything a header may declare.
func OpenDestHeader(dest string, h Header) (*Writer, error) {
	var f *os.File
	if fd, ok := strings.CutPrefix(dest, "fd:"); ok {
		n, err := strconv.Atoi(fd)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("%s=%q: want a path or fd:N", EnvVar, dest)
		}
		f = os.NewFile(uintptr(n), "horizon-trace")
		if f == nil {
			return nil, fmt.Errorf("%s=%q: not an open file descriptor", EnvVar, dest)
		}
	} else {
		var err error
		f, err = os.Create(dest)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", EnvVar, err)
		}
	}
	w := NewHeader(f, h)
	w.c = f
	return w, w.err
}

// New starts a stream on w (the caller closes w after Close).
func New(w io.Writer, engineName string, failHard bool) *Writer {
	return NewHeader(w, Header{Engine: engineName, FailHard: failHard})
}

// NewHeader is New with everything a header may declare.
func NewHeader(w io.Writer, h Header) *Writer {
	t := &Writer{w: bufio.NewWriterSize(w, 1<<16), buf: make([]byte, 0, 128)}
	version := 1
	if h.Scale.declared() {
		version = 2
	}
	if h.Label != "" {
		version = 3
	}
	if h.Nested {
		version = 4
	}
	t.line("HZT " + strconv.Itoa(version))
	if h.Engine != "" {
		t.line("engine " + oneLine(h.Engine))
	}
	if h.Label != "" {
		t.line("label " + oneLine(h.Label))
	}
	if h.FailHard {
		t.line("scores hard")
	} else {
		t.line("scores soft")
	}
	if h.PseudoLegal {
		t.PseudoLegal()
	}
	if sc := h.Scale; sc.Mate != 0 {
		unit := " plies"
		if sc.MateTurns {
			unit = " turns"
		}
		t.line("mate " + strconv.Itoa(sc.Mate) + " " + strconv.Itoa(sc.MateMin) + unit)
	}
	if h.Scale.Infinity != 0 {
		t.line("infinity " + strconv.Itoa(h.Scale.Infinity))
	}
	return t
}

// PseudoLegal declares that the engine searches pseudo-legal moves (moves
// that may leave its own king attacked, refuted by capturing the king).
func (t *Writer) PseudoLegal() {
	if t != nil {
		t.line("moves pseudo")
	}
}

// Position starts a search from a position given as the arguments of a UCI
// position command: "startpos", "startpos moves e2e4", "fen FEN moves ...".
func (t *Writer) Position(uciArgs string) {
	if t != nil {
		t.line("position " + oneLine(uciArgs))
	}
}

// Limits describes the search's limits, as free text ("depth 13").
func (t *Writer) Limits(text string) {
	if t != nil {
		t.line("limits " + oneLine(text))
	}
}

// Root enters a root node: one search of the root position (one iteration
// of iterative deepening, or one aspiration or MTD probe of it).
func (t *Writer) Root(depth, alpha, beta, iteration int) {
	if t == nil {
		return
	}
	b := append(t.buf[:0], "E - "...)
	b = appendInts(b, depth, alpha, beta)
	b = append(b, " i="...)
	b = strconv.AppendInt(b, int64(iteration), 10)
	t.flushLine(b)
}

// Enter enters a node reached by move (UCI; "0000" for a null move) with
// its remaining depth and window. Horizon derives the kind (QS at depth <= 0).
func (t *Writer) Enter(move string, depth, alpha, beta int) {
	if t == nil {
		return
	}
	b := t.enter(move, depth, alpha, beta)
	t.flushLine(b)
}

// enter starts an enter line in the buffer: the move, depth and window.
func (t *Writer) enter(move string, depth, alpha, beta int) []byte {
	b := append(t.buf[:0], "E "...)
	b = append(b, move...)
	b = append(b, ' ')
	return appendInts(b, depth, alpha, beta)
}

// EnterKind is Enter with the node's kind given: "pv", "nonpv" or "qs"
// (for engines whose QS is not simply depth <= 0).
func (t *Writer) EnterKind(move string, depth, alpha, beta int, kind string) {
	if t == nil {
		return
	}
	b := t.enter(move, depth, alpha, beta)
	b = append(b, " k="...)
	b = append(b, kind...)
	t.flushLine(b)
}

// EnterWith is Enter with everything an engine may add: the kind ("" to
// let Horizon derive it), the QS ply and the QS level (negative: not given).
func (t *Writer) EnterWith(move string, depth, alpha, beta int, kind string, qsPly, level int) {
	if t == nil {
		return
	}
	b := t.enter(move, depth, alpha, beta)
	if kind != "" {
		b = append(b, " k="...)
		b = append(b, kind...)
	}
	if qsPly >= 0 {
		b = append(b, " q="...)
		b = strconv.AppendInt(b, int64(qsPly), 10)
	}
	if level >= 0 {
		b = append(b, " l="...)
		b = strconv.AppendInt(b, int64(level), 10)
	}
	t.flushLine(b)
}

// Nested enters the root of a nested search: the current node searches
// its own position again (internal iterative deepening, a singular
// extension's test, a razoring probe, ProbCut, a null-move
// verification), with its own depth and window, seen from the same side
// as the node (not negated). Leave closes it as any node, with its score
// from that side too. reason says why ("iid", "singular", "razor",
// "probcut", "verify", or a word of the engine's own: letters, digits, -
// and _); excluded is the move a singular test leaves out ("" for none);
// counted says whether the engine counts the root as one of its nodes
// (true where it calls its search function on the position, false for a
// loop over the node's moves, as Ethereal's singular test), so Horizon
// compares its node count with the right number. Declare Header.Nested.
func (t *Writer) Nested(reason string, depth, alpha, beta int, excluded string, counted bool) {
	if t == nil {
		return
	}
	b := t.enter("-", depth, alpha, beta)
	b = append(b, " n="...)
	b = append(b, reason...)
	if excluded != "" {
		b = append(b, " e="...)
		b = append(b, excluded...)
	}
	if !counted {
		b = append(b, " u=1"...)
	}
	t.flushLine(b)
}

// StandPat reports the static evaluation the current node stood pat on.
func (t *Writer) StandPat(eval int) {
	if t == nil {
		return
	}
	t.intLine("S ", eval)
}

// Move reports the move about to be searched and its index in the ordering.
func (t *Writer) Move(move string, index int) {
	if t == nil {
		return
	}
	b := append(t.buf[:0], "M "...)
	b = append(b, move...)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(index), 10)
	t.flushLine(b)
}

// Extension reports plies of extension given to the next child.
func (t *Writer) Extension(plies int) {
	if t == nil {
		return
	}
	t.intLine("X ", plies)
}

// Leave leaves the current node with its score; Horizon derives the bound,
// the cutoff and the best move.
func (t *Writer) Leave(score int) {
	if t == nil {
		return
	}
	t.intLine("L ", score)
}

// intLine writes a line of a tag and one number.
func (t *Writer) intLine(tag string, v int) {
	b := append(t.buf[:0], tag...)
	b = strconv.AppendInt(b, int64(v), 10)
	t.flushLine(b)
}

// LeaveInfo holds what an engine may add to a leave; empty strings are
// left out, and the counts unless Counts is set.
type LeaveInfo struct {
	Bound     string // upper, lower, exact
	Cause     string // beta, standpat, tt, ... (docs/trace-protocol.md)
	Best      string // UCI
	Counts    bool   // Generated, Searched and CutIndex are reported
	Generated int    // moves generated
	Searched  int    // moves searched
	CutIndex  int    // index of the move that failed high, -1 for none
}

// LeaveWith leaves the current node with its score and the details given.
func (t *Writer) LeaveWith(score int, l LeaveInfo) {
	if t == nil {
		return
	}
	b := append(t.buf[:0], "L "...)
	b = strconv.AppendInt(b, int64(score), 10)
	for _, kv := range [...]struct {
		k byte
		v string
	}{{'b', l.Bound}, {'c', l.Cause}, {'m', l.Best}} {
		if kv.v != "" {
			b = append(b, ' ', kv.k, '=')
			b = append(b, kv.v...)
		}
	}
	for _, kv := range [...]struct {
		k byte
		v int
	}{{'g', l.Generated}, {'s', l.Searched}, {'x', l.CutIndex}} {
		if l.Counts && kv.v >= 0 {
			b = append(b, ' ', kv.k, '=')
			b = strconv.AppendInt(b, int64(kv.v), 10)
		}
	}
	t.flushLine(b)
}

// Abort reports that the search unwound every open node (stopped). Call
// it once, after the unwinding, and then only End: a Leave of a node it
// closed fails the import, and a node entered after it is recorded as a
// search the engine made after its stop flag.
func (t *Writer) Abort() {
	if t != nil {
		t.line("A")
	}
}

// End ends the search with its best move ("" when none) and the engine's
// own node count (negative: not reported), and flushes the stream.
func (t *Writer) End(best string, nodes int64) {
	if t == nil {
		return
	}
	b := t.end(best, nodes)
	t.flushLine(b)
	t.Flush()
}

// end starts an end line in the buffer: the best move and node count.
func (t *Writer) end(best string, nodes int64) []byte {
	b := append(t.buf[:0], "end"...)
	if best != "" {
		b = append(b, " best="...)
		b = append(b, best...)
	}
	if nodes >= 0 {
		b = append(b, " nodes="...)
		b = strconv.AppendInt(b, nodes, 10)
	}
	return b
}

// EndTime is End with the search's time in milliseconds.
func (t *Writer) EndTime(best string, nodes, ms int64) {
	if t == nil {
		return
	}
	b := t.end(best, nodes)
	b = append(b, " time="...)
	b = strconv.AppendInt(b, ms, 10)
	t.flushLine(b)
	t.Flush()
}

// Flush writes out the buffer.
func (t *Writer) Flush() error {
	if t == nil {
		return nil
	}
	if t.err == nil {
		t.err = t.w.Flush()
	}
	return t.err
}

// Err returns the first write error.
func (t *Writer) Err() error {
	if t == nil {
		return nil
	}
	return t.err
}

// Close flushes the stream and closes what Open opened.
func (t *Writer) Close() error {
	if t == nil {
		return nil
	}
	err := t.Flush()
	if t.c != nil {
		if cerr := t.c.Close(); err == nil && cerr != nil && !errors.Is(cerr, os.ErrClosed) {
			err = cerr
		}
		t.c = nil
	}
	return err
}

func (t *Writer) line(s string) {
	b := append(t.buf[:0], s...)
	t.flushLine(b)
}

func (t *Writer) flushLine(b []byte) {
	b = append(b, '\n')
	t.buf = b[:0]
	if t.err != nil {
		return
	}
	_, t.err = t.w.Write(b)
}

func appendInts(b []byte, depth, alpha, beta int) []byte {
	b = strconv.AppendInt(b, int64(depth), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(alpha), 10)
	b = append(b, ' ')
	return strconv.AppendInt(b, int64(beta), 10)
}

// oneLine keeps a header value on its line.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, s)
}
