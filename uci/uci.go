// Package uci runs Horizon's engine as a UCI engine, so that chess GUIs,
// match runners (cutechess-cli, fastchess) and adapters (polyglot) can drive
// it, and so that any search they ask for can be recorded into a trace file.
//
// Run reads commands from one stream and writes answers to another. The
// command loop never blocks on a search: searches run on their own
// goroutine, so stop and isready are answered at once. Malformed input is
// never fatal: it is ignored with an "info string" saying why, as GUIs
// expect.
package uci

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// Config identifies the engine to the GUI and to the trace files it writes.
type Config struct {
	Name    string // "id name"; "Horizon" when empty
	Author  string // "id author"; "the Horizon authors" when empty
	Version string // appended to the name and recorded in every traced run
}

// maxLine bounds a UCI line read, a GUI's to Horizon or an engine's to
// Horizon (Engine). A game of 500 moves needs about 3 KiB, an info line
// with a long PV a few; a longer line is not buffered without end.
const maxLine = 1 << 20

// Run plays the UCI protocol: commands from in, answers to out, until quit,
// the end of in, or ctx is cancelled. A search still running then is
// stopped, as Stockfish stops at the end of its input (the GUI is gone; a
// script that wants a whole search waits before it closes the input), its
// bestmove sent and its trace completed. Run returns nil after quit or the
// end of in, ctx's error when cancelled, and otherwise the error that made
// it stop (a failed read or write).
//
// The goroutine reading in may outlive Run when a Read blocks forever; it
// ends when in is closed.
func Run(ctx context.Context, in io.Reader, out io.Writer, cfg Config) error {
	if cfg.Name == "" {
		cfg.Name = "Horizon"
	}
	if cfg.Author == "" {
		cfg.Author = "the Horizon authors"
	}
	s := newSession(ctx, out, cfg)
	lines := make(chan inputLine)
	quit := make(chan struct{})
	defer close(quit)
	var readErr error
	go func() {
		readErr = readLines(in, lines, quit)
		close(lines)
	}()
	for {
		select {
		case <-ctx.Done():
			s.shutdown()
			return ctx.Err()
		case <-s.queuedReady():
			s.startQueued()
		case l, ok := <-lines:
			if !ok {
				s.shutdown()
				if readErr != nil {
					return fmt.Errorf("uci: reading commands: %w", readErr)
				}
				return s.out.error()
			}
			if l.tooLong {
				s.info("ignored a line longer than %d bytes", maxLine)
				continue
			}
			if s.handle(l.text) {
				s.shutdown()
				return s.out.error()
			}
			if err := s.out.error(); err != nil {
				s.shutdown()
				return err
			}
		}
	}
}

// inputLine is one line read, or the news that one was too long.
type inputLine struct {
	text    string
	tooLong bool
}

// readLines sends every line of in until the end of in or quit is closed.
func readLines(in io.Reader, lines chan<- inputLine, quit <-chan struct{}) error {
	br := bufio.NewReaderSize(in, 64<<10)
	for {
		buf, tooLong, err := readLine(br)
		// A last line without a newline still counts.
		if err == nil || len(buf) > 0 || tooLong {
			if send(lines, quit, inputLine{text: string(bytes.TrimSpace(buf)), tooLong: tooLong}) != nil {
				return nil
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// readLine reads up to and including '\n'; a line longer than maxLine is
// consumed whole but only reported as too long.
func readLine(br *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > maxLine {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if err != bufio.ErrBufferFull {
			return line, tooLong, err
		}
	}
}

var errQuit = errors.New("session over")

func send(lines chan<- inputLine, quit <-chan struct{}, l inputLine) error {
	select {
	case lines <- l:
		return nil
	case <-quit:
		return errQuit
	}
}

// writer serialises the lines of the command loop and the search goroutine
// and remembers the first write error (the GUI has gone).
type writer struct {
	mu  sync.Mutex
	w   io.Writer
	err error
}

func (w *writer) line(s string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err == nil {
		_, w.err = io.WriteString(w.w, s+"\n")
	}
}

func (w *writer) error() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return fmt.Errorf("uci: writing answers: %w", w.err)
	}
	return nil
}

// session is the engine's state between commands. Only the command loop
// touches it; a search works on copies.
type session struct {
	ctx   context.Context
	cfg   Config
	out   *writer
	debug bool

	options []option
	byName  map[string]int // normName -> index in options

	variant   string
	overrides map[string]string // engine option name -> value set by the GUI
	traceFile string
	store     *trace.Store
	traceMax  int64

	pos      *engine.Position
	posRoot  string   // "startpos" or the FEN given to position
	posMoves []string // the moves played from posRoot

	searcher     *engine.Searcher
	searcherOpts engine.Options
	job          *job      // the running search, nil when idle
	queued       *queuedGo // a go waiting for job to end
}

func newSession(ctx context.Context, out io.Writer, cfg Config) *session {
	def, err := engine.VariantOptions(DefaultVariant)
	if err != nil {
		panic("uci: default variant missing from engine: " + err.Error())
	}
	s := &session{ctx: ctx, cfg: cfg, out: &writer{w: out}, variant: DefaultVariant,
		overrides: map[string]string{}, traceMax: DefaultTraceMaxNodes, byName: map[string]int{}}
	s.options = buildOptions(def)
	for i, o := range s.options {
		s.byName[normName(o.name)] = i
		if o.spec != "" {
			s.byName[normName(o.spec)] = i
		}
	}
	s.pos, _ = engine.ParseFEN("startpos")
	s.posRoot = "startpos"
	return s
}

// info sends an "info string" line: the one way UCI lets an engine say
// something to the user.
func (s *session) info(format string, a ...any) {
	msg := strings.Join(strings.Fields(fmt.Sprintf(format, a...)), " ") // one line
	s.out.line("info string " + engine.Clip(escapeControls(msg), maxInfo))
}

// escapeControls writes the control characters of s as Go escapes (\x00):
// an info string may quote a token the GUI sent, and a NUL or an escape
// sequence sent back raw would end or garble the GUI's line.
func escapeControls(s string) string {
	if !strings.ContainsFunc(s, unicode.IsControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if unicode.IsControl(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// maxInfo bounds an info string: it quotes what the GUI sent, which may be
// a line of a megabyte, and a GUI shows it as one line of its log.
const maxInfo = 400

// handle runs one command line and reports whether the session should end.
func (s *session) handle(line string) (quit bool) {
	// A go that waited for a search that has ended starts before the
	// commands sent after it.
	s.startQueued()
	cmd, rest, skipped := splitCommand(line)
	if cmd == "" {
		if len(skipped) > 0 {
			s.info("unknown command %q ignored", truncate(line, 80))
		}
		return false
	}
	if len(skipped) > 0 {
		s.info("unknown token(s) %q before %s skipped", strings.Join(skipped, " "), cmd)
	}
	args := strings.Fields(rest)
	switch cmd {
	case "uci":
		s.uci()
	case "debug":
		switch {
		case len(args) == 1 && args[0] == "on":
			s.debug = true
		case len(args) == 1 && args[0] == "off":
			s.debug = false
		default:
			s.info("debug: want on or off, got %q", rest)
		}
	case "isready":
		s.out.line("readyok")
	case "setoption":
		if s.busy() {
			s.info("setoption ignored: a search is running (send stop first)")
			return false
		}
		s.setOption(rest)
	case "register":
		s.info("register ignored: Horizon needs no registration")
	case "ucinewgame":
		if s.busy() {
			s.info("ucinewgame ignored: a search is running (send stop first)")
			return false
		}
		// Every search starts with a clear hash table already, so a new
		// game only resets the position.
		s.pos, _ = engine.ParseFEN("startpos")
		s.posRoot, s.posMoves = "startpos", nil
	case "position":
		s.position(args)
	case "go":
		switch {
		case !s.busy():
			s.goCmd(args, line, s.pos)
		case !s.job.limited || s.job.pondering:
			s.info("go ignored: a search under go infinite or ponder is running (send stop first)")
		case s.queued != nil:
			s.info("go ignored: a search is running and another go waits for it (send stop first)")
		default:
			// A search that ends by itself is let finish first, as
			// Stockfish does, so a script of position/go pairs loses no
			// go; the command loop goes on meanwhile, so stop, isready and
			// quit are answered at once. The go searches the position of
			// its time.
			s.queued = &queuedGo{args: args, line: line, pos: s.pos.Copy(), root: s.posRoot, moves: s.posMoves}
		}
	case "stop":
		if s.queued != nil {
			s.info("stop: the go waiting for the running search is dropped")
			s.queued = nil
		}
		s.stop()
	case "ponderhit":
		s.ponderhit()
	case "quit":
		return true
	}
	return false
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

func (s *session) uci() {
	name := s.cfg.Name
	if s.cfg.Version != "" {
		name += " " + s.cfg.Version
	}
	s.out.line("id name " + name)
	s.out.line("id author " + s.cfg.Author)
	for _, o := range s.options {
		s.out.line(o.line())
	}
	s.out.line("uciok")
}

// setOption applies `setoption name N value V`.
func (s *session) setOption(rest string) {
	name, value, err := parseSetOption(rest)
	if err != nil {
		s.info("%v", err)
		return
	}
	i, ok := s.byName[normName(name)]
	if !ok {
		s.info("setoption: unknown option %q ignored (options: %s)", name, optionNames(s.options))
		return
	}
	o := s.options[i]
	v, err := o.check(value)
	if err != nil {
		s.info("setoption ignored: %v", err)
		return
	}
	switch o.name {
	case "QSVariant":
		_, inert, err := withOverrides(v, s.overrides)
		if err != nil {
			s.info("setoption QSVariant %s ignored, the variant stays %s: %v", v, s.variant, err)
			return
		}
		s.variant = v
		s.sayInert(inert, "")
	case "Trace":
		s.setTrace(v)
	case "TraceMaxNodes":
		n, _ := strconv.ParseInt(v, 10, 64)
		s.traceMax = n
	default:
		// Validate against the engine now, so a bad value or combination
		// is reported at once rather than at the next go.
		next := maps.Clone(s.overrides)
		if v == Preset {
			delete(next, o.spec)
		} else {
			next[o.spec] = v
		}
		_, inert, err := withOverrides(s.variant, next)
		if err != nil {
			s.info("setoption %s %s ignored (QSVariant is %s): %v", o.name, v, s.variant, err)
			return
		}
		s.overrides = next
		s.sayInert(inert, o.spec)
	}
	if s.debug {
		s.info("%s set to %q", o.name, v)
	}
}

// setTrace starts recording every go into path ("" stops recording). The
// file is opened now so that a bad path is reported at once.
func (s *session) setTrace(path string) {
	if s.store != nil {
		if path == s.traceFile {
			return
		}
		if err := s.store.Close(); err != nil {
			s.info("closing trace %s: %v", s.traceFile, err)
		}
		s.store, s.traceFile = nil, ""
	}
	if path == "" {
		s.info("tracing off")
		return
	}
	st, err := trace.Create(path)
	if err != nil {
		s.info("Trace: %v; tracing stays off", err)
		return
	}
	s.store, s.traceFile = st, path
	shown := path
	if abs, err := filepath.Abs(path); err == nil {
		shown = abs
	}
	s.info("tracing every go into %s", shown)
}

// position applies `position startpos|fen FEN [moves ...]`. The new
// position replaces the old one only when every part of the command is
// valid.
func (s *session) position(args []string) {
	// The verdict comes first: the reason may quote a long token the GUI
	// sent, and the info string is clipped at its end (maxInfo), which cut
	// "previous position kept" off a refusal of 500 bytes.
	refuse := func(format string, a ...any) {
		s.info("position refused, previous position kept: "+format, a...)
	}
	pa, err := parsePosition(args)
	if err != nil {
		refuse("%s", strings.TrimPrefix(err.Error(), "position: "))
		return
	}
	pos, err := engine.ParseFEN(pa.fen)
	if err != nil {
		refuse("%v", err)
		return
	}
	if i, err := pos.PlayUCI(pa.moves); err != nil {
		refuse("move %d of %d: %v", i+1, len(pa.moves), err)
		return
	}
	s.pos, s.posRoot, s.posMoves = pos, pa.fen, append([]string(nil), pa.moves...)
}

// engineOptions returns the preset with the GUI's overrides applied, as
// the search runs them (withOverrides).
func (s *session) engineOptions() (engine.Options, error) {
	o, _, err := withOverrides(s.variant, s.overrides)
	return o, err
}

// sayInert tells the GUI, in one info string, which switches have no
// effect for now because a switch they need is off (withOverrides): those
// that the option spec, just set, is or needs, or all when spec is "" (a
// new QSVariant). Switches with the same need are named together.
func (s *session) sayInert(inert []engine.Inert, spec string) {
	var parts []string
	for i := 0; i < len(inert); {
		j, said, shown := i, []engine.Inert{}, []string{}
		for ; j < len(inert) && inert[j].Needs == inert[i].Needs && inert[j].Why == inert[i].Why; j++ {
			in := inert[j]
			if spec != "" && in.Switch != spec && in.Parent != spec {
				continue
			}
			name := in.Switch
			if k, ok := s.byName[normName(in.Switch)]; ok {
				name = s.options[k].name
			}
			said, shown = append(said, in), append(shown, name+" "+in.Value)
		}
		if len(said) > 0 {
			parts = append(parts, inertText(said, shown))
		}
		i = j
	}
	if len(parts) > 0 {
		s.info("%s", strings.Join(parts, "; "))
	}
}

// inertText says that the switches said, which share one need, have no
// effect for now; shown are their UCI names and values. Every word comes
// from the switches said: the group they were found in may hold others
// (QSMoves none leaves StandPat and SEEPrune without effect, but a
// SEEPrune just set names see-prune alone).
func inertText(said []engine.Inert, shown []string) string {
	if len(said) == 1 {
		return fmt.Sprintf("%s has no effect for now: %s", shown[0], said[0].Reason())
	}
	names := make([]string, len(said))
	for i, in := range said {
		names[i] = in.Switch
	}
	return fmt.Sprintf("%s have no effect for now: %s need %s (%s)",
		strings.Join(shown, ", "), strings.Join(names, ", "), said[0].Needs, said[0].Why)
}

// busy reports whether a search is running. A search that has sent its
// bestmove is waited for: the GUI may answer that bestmove before the
// search goroutine has quite ended.
func (s *session) busy() bool {
	if s.job == nil {
		return false
	}
	select {
	case <-s.job.done:
		s.job = nil
		return false
	default:
	}
	if s.job.answered.Load() {
		<-s.job.done
		s.job = nil
		return false
	}
	return true
}

// stop ends the running search; its bestmove is sent before stop returns,
// so that the commands after stop see an idle engine.
func (s *session) stop() {
	if s.job == nil {
		return
	}
	s.job.stop()
	<-s.job.done
	s.job = nil
}

// queuedGo is a go received while a limited search ran, with the
// position it was sent for.
type queuedGo struct {
	args  []string
	line  string
	pos   *engine.Position
	root  string
	moves []string
}

// queuedReady returns a channel that is closed when a queued go may start
// (the search before it has ended), or nil (never ready) when none waits.
func (s *session) queuedReady() <-chan struct{} {
	switch {
	case s.queued == nil:
		return nil
	case s.job == nil:
		return closed
	}
	return s.job.done
}

var closed = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// startQueued starts the go that waited for the search before it, once
// that search has ended.
func (s *session) startQueued() {
	select {
	case <-s.queuedReady():
	default:
		return
	}
	q := s.queued
	s.queued, s.job = nil, nil
	root, moves := s.posRoot, s.posMoves
	s.posRoot, s.posMoves = q.root, q.moves
	s.goCmd(q.args, q.line, q.pos)
	s.posRoot, s.posMoves = root, moves
}

// shutdown ends the session: the running search is stopped, a queued go
// dropped and the trace file closed.
func (s *session) shutdown() {
	s.queued = nil
	if s.job != nil {
		s.job.stop()
		<-s.job.done
		s.job = nil
	}
	if s.store != nil {
		if err := s.store.Close(); err != nil {
			s.info("closing trace %s: %v", s.traceFile, err)
		}
		s.store = nil
	}
}
