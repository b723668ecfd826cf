// Command horizon is a quiescence-search debugger for chess engines: it runs
// a chess search with a pluggable quiescence search, records every node into a
// SQLite trace, and browses, exports and compares those traces.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/foreign"
	"github.com/horizonqs/horizon/internal/outfile"
	"github.com/horizonqs/horizon/trace"
)

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM,
		// A closed terminal or SSH session (SIGHUP) stops a trace as cleanly
		// as Ctrl-C: the run is finished, marked interrupted, its file whole.
		syscall.SIGHUP)
	go stopOnSignals(sigs, cancel, os.Stderr)
	// SIGPIPE is received and dropped, so that a write to a closed pipe
	// fails with EPIPE instead of killing the process (Go's default for
	// stdout): run's outputGuard stops the command when stdout's reader
	// is gone, and a write to an engine that died is an error its caller
	// handles.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	if code != 0 && ctx.Err() != nil {
		code = 130 // stopped by a signal, as shells report it
	}
	os.Exit(code)
}

// forceNoteAfter is how long Horizon may take to stop after a first
// signal before it says how to quit at once.
var forceNoteAfter = 2 * time.Second

// fullScreen is the viewer's terminal while it runs (tcell's Fini): a
// quit at once restores the terminal first, and no note is written over
// the screen. Ctrl-C in the viewer is a key; signals come from elsewhere
// (kill, a closed terminal).
var fullScreen screenFini

type screenFini struct {
	mu   sync.Mutex
	fini func()
}

func (s *screenFini) set(fini func()) {
	s.mu.Lock()
	s.fini = fini
	s.mu.Unlock()
}

func (s *screenFini) get() func() {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.fini
}

// stopOnSignals stops the command on the first signal (cancel: a search
// is finished and its run marked interrupted, an engine told to stop and
// quit, an output dropped) and quits at once on the second, for when that
// stopping waits on something that does not answer (an engine that
// ignores stop and quit is waited for 10 s before it is killed). Quitting
// at once loses nothing committed: a trace keeps its committed rows and
// reads its unfinished run as one whose recorder died; engines started in
// their own process groups are killed, no output's temporary file is
// left, and the viewer's terminal is restored.
func stopOnSignals(sigs <-chan os.Signal, cancel context.CancelFunc, stderr io.Writer) {
	<-sigs
	cancel()
	select {
	case <-sigs:
	case <-time.After(forceNoteAfter):
		if fullScreen.get() == nil {
			fmt.Fprintln(stderr, "horizon: stopping; press Ctrl-C again to quit at once")
		}
		<-sigs
	}
	if fini := fullScreen.get(); fini != nil {
		fini() // the terminal back to its modes, before the line below
	}
	foreign.KillEngines()
	outfile.RemoveTemps()
	fmt.Fprintln(stderr, "horizon: quit at once on a second signal; a trace being written keeps what it had committed")
	os.Exit(130)
}

// env is what a subcommand gets from the outside world; tests pass buffers.
type env struct {
	ctx    context.Context
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	// outClosed reports whether stdout's reader went away (see
	// outputGuard); the command's context is then cancelled.
	outClosed func() bool
	cmd       string // the command's name ("trace"), for notef
}

// prefix starts every line Horizon writes on stderr about command cmd,
// its notes and its error alike: "horizon trace: ".
func prefix(cmd string) string { return "horizon " + cmd + ": " }

// notef writes a note on stderr, a line prefixed as the command's errors.
// Notes name files, runs and engines: the line is made engine.Printable.
func (e *env) notef(format string, a ...any) {
	fmt.Fprintln(e.stderr, prefix(e.cmd)+engine.Printable(fmt.Sprintf(format, a...)))
}

// closeTrace closes a trace the command wrote. Runs that stay in the
// file's WAL (another process was using it, or the disk is full), and
// a file deleted or moved while it was written (written back, or found
// where it went), are safe, so those are said as notes, not errors; any
// other error is.
func (e *env) closeTrace(st *trace.Store) error {
	_, err := e.closeTraceAt(st)
	return err
}

// closeTraceAt is closeTrace, and returns where the runs are now: the
// store's file, or where Close put or found them (a file deleted while
// it was written is written back, beside its name when another file, a
// planted symlink say, took the name; a moved one is where it went).
func (e *env) closeTraceAt(st *trace.Store) (string, error) {
	at := st.File()
	err := st.Close()
	errs := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	}
	var failed []error
	for _, err := range errs {
		var kept *trace.WALKeptError
		var gone *trace.FileGoneError
		if errors.As(err, &gone) {
			at = gone.To
		}
		if errors.As(err, &kept) || errors.As(err, &gone) {
			e.notef("%v", err)
		} else if err != nil {
			failed = append(failed, err)
		}
	}
	return at, errors.Join(failed...)
}

// stopped says what stopped the command when its context ended: a
// signal (Ctrl-C, SIGTERM, SIGHUP), or its output's reader going away
// (outputGuard), which stops it the same way.
func (e *env) stopped() string {
	if e.outClosed != nil && e.outClosed() {
		return "standard output closed (broken pipe)"
	}
	return "interrupted"
}

// stoppedErr is the error of a command stopped with nothing more to say
// than what stopped it.
func (e *env) stoppedErr() error { return errors.New(e.stopped()) }

// outputGuard is a command's standard output. When the reader goes away
// (EPIPE: '| head' has what it wanted, a GUI closed its pipe), it stops
// the command like Ctrl-C does (cancelling its context: a search in
// progress is finished and its run marked interrupted, nothing more is
// started) and drops whatever else is written, so no command dies halfway
// through writing its trace.
type outputGuard struct {
	w      io.Writer
	stop   context.CancelFunc
	closed atomic.Bool
}

func (g *outputGuard) Write(p []byte) (int, error) {
	if g.closed.Load() {
		return len(p), nil
	}
	n, err := g.w.Write(p)
	if errors.Is(err, syscall.EPIPE) {
		g.closed.Store(true)
		g.stop()
		return len(p), nil
	}
	return n, err
}

// file returns the *os.File under w, for terminal checks.
func file(w io.Writer) (*os.File, bool) {
	if g, ok := w.(*outputGuard); ok {
		w = g.w
	}
	f, ok := w.(*os.File)
	return f, ok
}

// readerLeftAfterAll reports whether standard output's reader went away
// (| head) only after every piece of the command's work ran to its end
// (done): the context was cancelled but nothing was stopped, so the
// command succeeded and has nothing to say.
func (e *env) readerLeftAfterAll(done bool) bool {
	return done && e.outClosed != nil && e.outClosed()
}

// command is one subcommand. run parses its own flags from args.
type command struct {
	name    string
	summary string // one line for the command list
	run     func(e *env, args []string) error
}

// commands is every subcommand, in the order 'horizon --help' lists them:
// the one place a command is added.
var commands = []command{
	{name: "bench", summary: "node counts and speed of every QS variant on the bench positions, beside Stockfish", run: runBench},
	{name: "check", summary: "check a trace's nodes against the rules of alpha-beta and of their QS variant", run: runCheck},
	{name: "compare", summary: "run QS variants over positions and compare nodes, QS share, speed and solutions", run: runCompare},
	{name: "diff", summary: "line up two runs node by node and show where their trees differ", run: runDiff},
	{name: "explain", summary: "say why a subtree is big: its nodes by cause, its shape, and what-if re-searches", run: runExplain},
	{name: "export", summary: "draw a subtree of a trace: Graphviz DOT/SVG/PNG, JSON, an icicle chart, or an HTML page", run: runExport},
	{name: "hotspots", summary: "list where a run's tree explodes: the biggest QS trees and extension chains", run: runHotspots},
	{name: "import", summary: "record another engine's trace stream (docs/trace-protocol.md) into a trace file", run: runImport},
	{name: "perft", summary: "count the legal move tree (move generator check and speed benchmark)", run: runPerft},
	{name: "qsbench", summary: "QS cost against QS accuracy: each variant's QS alone on horizon positions, against an oracle", run: runQSBench},
	{name: "runs", summary: "list the runs in a trace file", run: runRuns},
	{name: "search", summary: "search a position with a QS variant and print info lines and the best move", run: runSearch},
	{name: "stats", summary: "count a run's nodes by ply, QS ply, QS level and iteration", run: runStats},
	{name: "trace", summary: "search positions with QS variants and record every node into a trace file", run: runTrace},
	{name: "uci", summary: "run as a UCI engine for chess GUIs, with optional tracing", run: runUCI},
	{name: "variants", summary: "list the QS variants, their source documents and their switches", run: runVariants},
	{name: "view", summary: "browse a trace in the terminal: tree, board, details, hotspots", run: runView},
}

// lookup finds a subcommand by name.
func lookup(name string) (*command, bool) {
	for i := range commands {
		if commands[i].name == name {
			return &commands[i], true
		}
	}
	return nil, false
}

// usageError marks an error in how the command was called: exit status 2.
// help is the (sub)command whose --help the message points to, when it is
// not the command itself (qsbench collect).
type usageError struct{ msg, help string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return &usageError{msg: fmt.Sprintf(format, a...)} }

// subUsage points a subcommand's usage error at the subcommand's --help
// (name is "qsbench collect"); other errors pass unchanged.
func subUsage(name string, err error) error {
	var ue *usageError
	if errors.As(err, &ue) && ue.help == "" {
		ue.help = name
	}
	return err
}

// errHelp is returned when the user asked for help and got it: exit status 0.
var errHelp = errors.New("help shown")

// run executes one horizon invocation and returns the process exit status:
// 0 success, 1 failure, 2 usage error. It never panics outward.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "horizon: internal error: %s (please report it)\n", oneLine(fmt.Sprint(r)))
			code = 1
		}
	}()
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		if len(args) > 1 && args[0] == "help" {
			args = []string{args[1], "--help"}
		} else {
			if len(args) == 0 {
				// No command is a usage error: its text goes where
				// usage errors go, stdout stays empty.
				printUsage(stderr)
				return 2
			}
			printUsage(stdout)
			return 0
		}
	}
	if args[0] == "--version" || args[0] == "version" {
		fmt.Fprintln(stdout, "horizon", version())
		return 0
	}
	c, ok := lookup(args[0])
	if !ok {
		fmt.Fprintf(stderr, "horizon: unknown command %q; run 'horizon --help' for the list\n", args[0])
		return 2
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := &outputGuard{w: stdout, stop: cancel}
	e := &env{ctx: ctx, stdin: stdin, stdout: out, stderr: stderr, outClosed: out.closed.Load, cmd: c.name}
	err := c.run(e, args[1:])
	var ue *usageError
	switch {
	case err == nil, errors.Is(err, errHelp):
		return 0
	case errors.As(err, &ue):
		help := c.name
		if ue.help != "" {
			help = ue.help
		}
		fmt.Fprintf(stderr, "%s%s\nrun 'horizon %s --help' for usage\n", prefix(help), oneLine(ue.msg), help)
		return 2
	case out.closed.Load() && errors.Is(err, context.Canceled):
		// The reader of the output went away (| head): stop quietly, as
		// after a SIGPIPE; commands that record say what they kept.
		return 130
	case ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)):
		// Ctrl-C or SIGTERM reached a query: say so, not "context canceled".
		fmt.Fprintln(stderr, prefix(c.name)+"interrupted")
		return 130
	case ctx.Err() != nil && out.closed.Load():
		fmt.Fprintln(stderr, prefix(c.name)+oneLine(err.Error()))
		return 130
	default:
		msg := err.Error()
		if path, ok := trace.MissingFile(err); ok && dirExists(filepath.Dir(path)) {
			// The --help examples read sample.trace, which a new user
			// has not made yet. The command must work as printed: the
			// path quoted for a shell, and none where its directory is
			// missing too (trace cannot create the file there).
			msg += fmt.Sprintf(" (record one with 'horizon trace -o %s')", shellQuote(path))
		}
		fmt.Fprintln(stderr, prefix(c.name)+oneLine(msg))
		return 1
	}
}

// dirExists reports whether dir is a directory.
func dirExists(dir string) bool {
	fi, err := os.Stat(dir)
	return err == nil && fi.IsDir()
}

// oneLine makes an error one line of bounded length: the parts that quote
// the user's input bound themselves (a FEN, an EPD line), and this catches
// any that does not. Errors quote files, engines' words and stored
// strings: control characters are escaped (engine.Printable).
func oneLine(s string) string {
	return engine.Clip(engine.Printable(strings.ReplaceAll(strings.TrimSpace(s), "\n", "; ")), maxErrorLine)
}

const maxErrorLine = 1000

func printUsage(w io.Writer) {
	fmt.Fprint(w, `horizon: a quiescence-search debugger for chess engines.

Horizon searches a position with a chosen quiescence-search (QS) variant,
records every node into a SQLite trace, and lets you browse, export and
compare the trees to see where QS explodes.

Usage: horizon <command> [flags]

Commands:
`)
	for _, c := range commands {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, `
Run 'horizon <command> --help' for a command's flags and an example.
Positions are given as --fen FEN ('startpos' works) or --epd FILE; QS
variants as --qs NAME[,NAME] ('horizon variants' lists them).

Start here:
  horizon trace --view          trace the built-in sample and browse it
`)
}

func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		v := bi.Main.Version
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				if v == "" || v == "(devel)" {
					v = "devel"
				}
				v += "+" + s.Value[:12]
			}
		}
		if v != "" {
			return v
		}
	}
	return "devel"
}
