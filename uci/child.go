package uci

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/horizonqs/horizon/engine"
)

// Engine is another UCI engine run as a child process: Horizon's side of
// the conversation, for the speed and perft comparisons with Stockfish
// (horizon perft --bench, horizon bench) and the tests that use an
// outside engine as an oracle.
type Engine struct {
	// Name is what the engine calls itself ("id name"), "engine" if it
	// does not say.
	Name  string
	ctx   context.Context
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
	// program is the engine's program's file name, for messages before
	// it says its name.
	program string
	// readErr is why lines was closed before the output's end (a line
	// over maxLine), set before the close.
	readErr error
	// drained is closed at the output's end: after a line too long the
	// reader reads on to it, so that the engine never blocks writing and
	// can read its quit.
	drained chan struct{}
	// stderr is the end of the engine's standard error (nil when the
	// caller set cmd.Stderr).
	stderr *stderrTail
}

// StderrNote is "; its last line on stderr: ..." for an error that says
// the engine exited, or "" when it wrote nothing there (or its standard
// error went elsewhere). It waits a moment for the pipe's end: the
// engine's last words may still be in it.
func (e *Engine) StderrNote() string {
	if e.stderr == nil {
		return ""
	}
	return e.stderr.note()
}

// stderrTail keeps the end of what an engine writes on its standard error,
// read from its own pipe (to its end, so the engine never blocks on it):
// when the engine exits, its last line (a traceback's, an assertion's)
// says why, which Horizon would otherwise drop.
type stderrTail struct {
	mu   sync.Mutex
	buf  []byte
	r    *os.File
	done chan struct{} // closed at the pipe's end
}

// tailKeep is how much of an engine's standard error stderrTail keeps.
const tailKeep = 4096

func newStderrTail(r *os.File) *stderrTail {
	t := &stderrTail{r: r, done: make(chan struct{})}
	go func() {
		defer close(t.done)
		b := make([]byte, tailKeep)
		for {
			n, err := r.Read(b)
			t.mu.Lock()
			t.buf = append(t.buf, b[:n]...)
			if len(t.buf) > 2*tailKeep {
				t.buf = append(t.buf[:0], t.buf[len(t.buf)-tailKeep:]...)
			}
			t.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	return t
}

// note is StderrNote's.
func (t *stderrTail) note() string {
	select {
	case <-t.done:
	case <-time.After(time.Second): // a process the engine started holds it
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(string(t.buf), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" {
			if r := []rune(l); len(r) > 200 {
				l = string(r[:200]) + "..."
			}
			return fmt.Sprintf("; its last line on stderr: %q", l)
		}
	}
	return ""
}

// errLongLine is an engine's line over maxLine: a line that long is no
// UCI, and the conversation has lost its place.
var errLongLine = fmt.Errorf("the engine sent a line longer than %d MiB, the longest Horizon reads: no UCI line is that long", maxLine>>20)

// uciokWait is how long in all an engine may take to answer uci with
// uciok (however much else it says first).
var uciokWait = 10 * time.Second

// StartEngine starts the engine at path and waits for its uciok. The
// engine is killed when ctx ends.
func StartEngine(ctx context.Context, path string, args ...string) (*Engine, error) {
	e, err := StartCmd(ctx, exec.CommandContext(ctx, path, args...))
	if err != nil {
		return nil, err
	}
	if e.Name == "" {
		e.Name = "engine"
	}
	return e, nil
}

// StartCmd starts cmd, which the caller has set up (its environment, extra
// files), as a UCI engine and waits for its uciok (Handshake); ctx ends
// the waits. Name is "" when the engine does not say its name. When the
// handshake fails the engine is killed (with its process group, when cmd
// starts one: Kill).
func StartCmd(ctx context.Context, cmd *exec.Cmd) (*Engine, error) {
	e, err := StartChild(ctx, cmd)
	if err != nil {
		return nil, err
	}
	if err := e.Handshake(ctx); err != nil {
		e.Kill()
		e.Close()
		return nil, err
	}
	return e, nil
}

// Handshake says uci and waits for uciok, uciokWait in all, reading Name
// from the engine's id name on the way; ctx ends the wait. Its errors name
// the engine's program. It leaves the engine running either way: StartCmd
// is the start and handshake together, for a caller that need not know of
// the engine before its uciok.
func (e *Engine) Handshake(ctx context.Context) error {
	err := e.Ask(ctx, uciokWait, "uciok", func(line string) {
		if name, ok := strings.CutPrefix(line, "id name "); ok {
			e.Name = strings.TrimSpace(name)
		}
	}, "uci")
	if err != nil {
		note := ""
		if errors.Is(err, ErrExited) {
			note = e.StderrNote()
		}
		return fmt.Errorf("%s: waiting for \"uciok\": %w%s", e.program, err, note)
	}
	return nil
}

// StartChild starts cmd with its standard input and output piped to an
// Engine, before any word is said: StartCmd's start without the
// handshake, for a caller that must know of the engine while it answers
// uci (to kill it on a forced quit), and for a test that sends "uci"
// itself or speaks xboard.
func StartChild(ctx context.Context, cmd *exec.Cmd) (*Engine, error) {
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	// The engine's standard error is read to its end and its last line
	// kept, for the error that says it exited (it was dropped).
	var er, ew *os.File
	if cmd.Stderr == nil {
		if er, ew, err = os.Pipe(); err != nil {
			return nil, err
		}
		cmd.Stderr = ew
	}
	err = start(cmd) // dies with Horizon (Linux)
	if ew != nil {
		ew.Close() // the engine holds the write end
	}
	if err != nil {
		if er != nil {
			er.Close()
		}
		return nil, err
	}
	e := talkOver(ctx, in, out)
	if er != nil {
		e.stderr = newStderrTail(er)
	}
	e.cmd = cmd
	e.program = filepath.Base(cmd.Args[0])
	return e, nil
}

// talkOver is an Engine that sends to in and reads the lines of out, with
// no process of its own (Close and Kill need one): StartChild's talk, and
// a test's to a session run in-process over pipes.
func talkOver(ctx context.Context, in io.WriteCloser, out io.Reader) *Engine {
	// The buffer lets a chatty engine run ahead of a reader busy elsewhere.
	e := &Engine{ctx: ctx, in: in, lines: make(chan string, 4096), program: "engine", drained: make(chan struct{})}
	go func() {
		defer close(e.drained)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<16), maxLine)
		for sc.Scan() {
			e.lines <- sc.Text()
		}
		if errors.Is(sc.Err(), bufio.ErrTooLong) {
			e.readErr = errLongLine
		}
		close(e.lines)
		io.Copy(io.Discard, out)
	}()
	return e
}

// Lines is the engine's output, one line a value (untrimmed), closed when
// the engine closes its output or sent a line too long to read (Err says
// which): for a caller that waits on it together with other events; Next
// is the plain read.
func (e *Engine) Lines() <-chan string { return e.lines }

// Err is why Lines was closed, once it is: ErrExited when the engine
// closed its output, else what it sent that cannot be read.
func (e *Engine) Err() error {
	if e.readErr != nil {
		return e.readErr
	}
	return ErrExited
}

// Send writes command lines to the engine.
func (e *Engine) Send(lines ...string) error {
	for _, l := range lines {
		if _, err := io.WriteString(e.in, l+"\n"); err != nil {
			return fmt.Errorf("send %q: %w", l, err)
		}
	}
	return nil
}

// ErrExited is the engine closing its output (it exited).
var ErrExited = errors.New("the engine exited")

// Next returns the engine's next output line, trimmed; an error when the
// engine exited (ErrExited) or its output cannot be read on (Err), the
// context ended or nothing came within timeout.
func (e *Engine) Next(timeout time.Duration) (string, error) {
	return e.NextContext(e.ctx, timeout)
}

// NextContext is Next with its wait ended by ctx rather than StartCmd's
// (a caller whose own cancel must not end the engine's other waits).
func (e *Engine) NextContext(ctx context.Context, timeout time.Duration) (string, error) {
	t := time.NewTimer(timeout)
	defer t.Stop()
	line, err := e.next(ctx, t.C)
	if errors.Is(err, errTimedOut) {
		return "", fmt.Errorf("no answer in %s", timeout)
	}
	return line, err
}

// errTimedOut is next's wait ended by its timer.
var errTimedOut = errors.New("timed out")

// next returns the engine's next output line, trimmed, or an error: the
// output's end (Err), ctx's, errTimedOut when timeout fires first.
func (e *Engine) next(ctx context.Context, timeout <-chan time.Time) (string, error) {
	select {
	case line, ok := <-e.lines:
		if !ok {
			return "", e.Err()
		}
		return strings.TrimSpace(line), nil
	case <-ctx.Done():
		return "", ctx.Err()
	case <-timeout:
		return "", errTimedOut
	}
}

// Each reads lines up to and including the first whose first word is
// word ("bestmove" for "bestmove e2e4 ponder e7e5"), calling fn (when not
// nil) with each, and keeps none of them: an engine may send anything
// before word (1.15 GB of binary garbage in 10 s while uciok was
// awaited). timeout bounds the whole wait, not each line's, so an engine
// that talks on without ever sending word (info strings, a program that
// is not UCI) is given up on in time; ctx ends the wait too. The
// timeout's error says how many lines came ("sent 1,234 other lines in
// 10s"), for the caller to say what was awaited and from whom.
func (e *Engine) Each(ctx context.Context, timeout time.Duration, word string, fn func(line string)) error {
	t := time.NewTimer(timeout)
	defer t.Stop()
	var n int64
	for {
		line, err := e.next(ctx, t.C)
		switch {
		case errors.Is(err, errTimedOut) && n == 0:
			return fmt.Errorf("no answer in %s", timeout)
		case errors.Is(err, errTimedOut):
			return fmt.Errorf("sent %s other lines in %s", engine.Commas(n), timeout)
		case err != nil:
			return err
		}
		n++
		if fn != nil {
			fn(line)
		}
		if first, _, _ := strings.Cut(line, " "); first == word {
			return nil
		}
	}
}

// untilKept bounds the bytes of the lines Until returns: the last lines
// read, word's included, that fit in it (one line at the least).
const untilKept = 1 << 20

// Until is Each returning the lines read, with any error; only the last
// ones are kept, untilKept bytes of them, for a caller that looks at the
// answer and the lines just before it (a search's last info line).
func (e *Engine) Until(ctx context.Context, timeout time.Duration, word string) ([]string, error) {
	var got []string
	size := 0
	err := e.Each(ctx, timeout, word, func(line string) {
		got = append(got, line)
		size += len(line)
		drop := 0
		for size > untilKept && drop < len(got)-1 {
			size -= len(got[drop])
			drop++
		}
		if drop > 0 {
			got = append(got[:0:0], got[drop:]...)
		}
	})
	return got, err
}

// Ask sends lines and then reads until word (Each, fn called with every
// line). A send to an engine that exited fails with a broken pipe, which
// its closed output explains (ErrExited); a send error is said only after
// an error of the wait that says less.
func (e *Engine) Ask(ctx context.Context, timeout time.Duration, word string, fn func(line string), lines ...string) error {
	serr := e.Send(lines...)
	err := e.Each(ctx, timeout, word, fn)
	if err != nil && serr != nil && !errors.Is(err, ErrExited) && ctx.Err() == nil {
		err = fmt.Errorf("%w (%v)", err, serr)
	}
	return err
}

// SetPosition starts a new game at fen (after moves, in UCI notation) and
// waits until the engine is ready, so that what follows can be timed alone.
func (e *Engine) SetPosition(fen string, moves ...string) error {
	pos := "position fen " + fen
	if len(moves) > 0 {
		pos += " moves " + strings.Join(moves, " ")
	}
	if err := e.Ask(e.ctx, 10*time.Second, "readyok", nil, "ucinewgame", pos, "isready"); err != nil {
		return fmt.Errorf("%s: waiting for \"readyok\": %w", e.who(), err)
	}
	return nil
}

// who is the engine's name for messages: its id name, else its program's
// file name.
func (e *Engine) who() string {
	if e.Name != "" {
		return e.Name
	}
	return e.program
}

// Perft runs Stockfish's "go perft depth" on fen: the count of each root
// move (UCI notation), the total, and the time from sending the command
// to reading the total.
func (e *Engine) Perft(fen string, depth int) (divide map[string]uint64, total uint64, elapsed time.Duration, err error) {
	if err := e.SetPosition(fen); err != nil {
		return nil, 0, 0, err
	}
	start := time.Now()
	if err := e.Send("go perft " + strconv.Itoa(depth)); err != nil {
		return nil, 0, 0, err
	}
	divide = map[string]uint64{}
	for {
		line, err := e.Next(5 * time.Minute)
		if err != nil {
			return nil, 0, 0, err
		}
		if rest, ok := strings.CutPrefix(line, "Nodes searched:"); ok {
			elapsed = time.Since(start)
			total, err = strconv.ParseUint(strings.TrimSpace(rest), 10, 64)
			return divide, total, elapsed, err
		}
		mv, count, ok := strings.Cut(line, ": ")
		if !ok {
			continue
		}
		n, err := strconv.ParseUint(count, 10, 64)
		if err != nil {
			return nil, 0, 0, fmt.Errorf("bad divide line %q", line)
		}
		divide[mv] = n
	}
}

// GoCommand is the go command that searches with lim's limits: go
// infinite when it has none.
func GoCommand(lim engine.Limits) string {
	s := "go"
	if lim.Depth > 0 {
		s += " depth " + strconv.Itoa(lim.Depth)
	}
	if lim.Nodes > 0 {
		s += " nodes " + strconv.FormatInt(lim.Nodes, 10)
	}
	if lim.MoveTime > 0 {
		// UCI counts whole milliseconds, and to Stockfish "movetime 0"
		// is no limit at all: a limit under 1ms is sent as 1.
		s += " movetime " + strconv.FormatInt(max(lim.MoveTime.Milliseconds(), 1), 10)
	}
	if s == "go" {
		s += " infinite"
	}
	return s
}

// CloseInput closes the engine's standard input, as after "quit", without
// waiting for it to exit.
func (e *Engine) CloseInput() { e.in.Close() }

// Kill kills the engine's process at once; one started in a process group
// of its own (Setpgid) is killed with its group: a wrapper script's engine
// would run on, and hold what the script passed it, after the script died.
func (e *Engine) Kill() {
	if a := e.cmd.SysProcAttr; a != nil && a.Setpgid && a.Pgid == 0 {
		if err := syscall.Kill(-e.cmd.Process.Pid, syscall.SIGKILL); err == nil {
			return
		}
	}
	e.cmd.Process.Kill()
}

// Close asks the engine to quit and waits for it, killing it when it does
// not exit within two seconds.
func (e *Engine) Close() error {
	e.Send("quit")
	e.in.Close()
	go func() {
		for range e.lines {
		}
	}()
	select {
	case <-e.drained:
	case <-time.After(2 * time.Second):
		e.Kill()
	}
	err := e.cmd.Wait()
	if e.stderr != nil {
		e.stderr.r.Close() // a process the engine started may hold its end
	}
	return err
}

// FindStockfish returns the path of a Stockfish binary on PATH or in
// /usr/games, or "".
func FindStockfish() string {
	path, _ := LookPath("stockfish")
	return path
}

// LookPath finds an engine's program as exec.LookPath does and then, for
// a bare name, in /usr/games, where Debian installs chess engines (often
// not on PATH). The error is the PATH lookup's.
func LookPath(name string) (string, error) {
	path, err := exec.LookPath(name)
	if err == nil || strings.ContainsRune(name, '/') {
		return path, err
	}
	if p, gerr := exec.LookPath(filepath.Join("/usr/games", name)); gerr == nil {
		return p, nil
	}
	return "", err
}
