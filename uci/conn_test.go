package uci

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/internal/horizonbin"
)

// hangTimeout only turns a hung engine into a failure; it is no speed goal.
const hangTimeout = 60 * time.Second

// conn is one side of a line-based engine conversation (UCI or xboard),
// over pipes to an in-process session or to a child process: an Engine
// whose failures fail the test.
type conn struct {
	t    testing.TB
	name string
	e    *Engine
	wait func() error
}

// send writes command lines.
func (c *conn) send(lines ...string) {
	c.t.Helper()
	if err := c.e.Send(lines...); err != nil {
		c.t.Fatalf("%s: %v", c.name, err)
	}
}

// until returns the lines received (as sent, untrimmed) up to and
// including the first one for which match is true.
func (c *conn) until(what string, match func(string) bool) []string {
	c.t.Helper()
	var got []string
	timer := time.NewTimer(hangTimeout)
	defer timer.Stop()
	for {
		select {
		case l, ok := <-c.e.Lines():
			if !ok {
				c.t.Fatalf("%s: output ended while waiting for %s; got:\n%s", c.name, what, strings.Join(got, "\n"))
			}
			got = append(got, l)
			if match(l) {
				return got
			}
		case <-timer.C:
			c.t.Fatalf("%s: no %s after %v; got:\n%s", c.name, what, hangTimeout, strings.Join(got, "\n"))
		}
	}
}

func (c *conn) untilPrefix(prefix string) []string {
	c.t.Helper()
	return c.until(fmt.Sprintf("%q", prefix), func(l string) bool { return strings.HasPrefix(l, prefix) })
}

// close ends the input and waits for the other side to end, returning how
// it ended.
func (c *conn) close() error {
	c.e.CloseInput()
	for range c.e.Lines() {
	}
	return c.wait()
}

// exits closes the input and fails the test unless the other side then
// ends cleanly (the process exits 0, Run returns nil); after says what
// ended it.
func (c *conn) exits(after string) {
	c.t.Helper()
	if err := c.close(); err != nil {
		c.t.Errorf("%s: after %s: %v", c.name, after, err)
	}
}

// quit says "quit" (in UCI and xboard alike) and fails the test unless the
// other side then ends cleanly.
func (c *conn) quit() {
	c.t.Helper()
	c.send("quit")
	c.exits("quit")
}

// searching sets up the start position and sends goCmd, returning once
// the search has reported its first depth.
func (c *conn) searching(goCmd string) {
	c.t.Helper()
	c.send("position startpos", goCmd)
	c.untilPrefix("info depth 1 ")
}

// startSession runs Run in-process over pipes.
func startSession(t testing.TB) *conn {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		err := Run(ctx, inR, outW, Config{Version: "test"})
		outW.Close()
		inR.Close()
		errc <- err
	}()
	var once sync.Once
	var runErr error
	c := &conn{t: t, name: "session", e: talkOver(ctx, inW, outR), wait: func() error {
		once.Do(func() { runErr = <-errc })
		return runErr
	}}
	t.Cleanup(func() {
		cancel()
		c.close()
	})
	return c
}

// TestMain removes the horizon command the binary tests built.
func TestMain(m *testing.M) {
	code := m.Run()
	horizonbin.Remove()
	os.Exit(code)
}

// startProcess runs a program and talks to it over its standard input and
// output, saying nothing first.
func startProcess(t testing.TB, name string, args ...string) *conn {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = t.TempDir() // whatever a child writes (logs, relative traces) is cleaned up
	cmd.Stderr = &testWriter{t: t, prefix: filepath.Base(name) + " stderr: "}
	e, err := StartChild(context.Background(), cmd)
	if err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
	var once sync.Once
	var waitErr error
	c := &conn{t: t, name: filepath.Base(name), e: e, wait: func() error {
		once.Do(func() { waitErr = cmd.Wait() })
		return waitErr
	}}
	t.Cleanup(func() {
		done := make(chan struct{})
		go func() { c.close(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			e.Kill()
			<-done
		}
	})
	return c
}

type testWriter struct {
	t      testing.TB
	prefix string
}

func (w *testWriter) Write(p []byte) (int, error) {
	w.t.Logf("%s%s", w.prefix, strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// legalBestmove reads up to the engine's bestmove line and checks it with
// checkBestmove.
func (c *conn) legalBestmove(moves ...string) string {
	c.t.Helper()
	got := c.untilPrefix("bestmove")
	return checkBestmove(c.t, got[len(got)-1], moves...)
}

// readyWithoutBestmove sends isready and reads up to readyok, failing
// (saying when) if a bestmove came first.
func (c *conn) readyWithoutBestmove(when string) {
	c.t.Helper()
	c.send("isready")
	got := c.untilPrefix("readyok")
	if slices.ContainsFunc(got, func(l string) bool { return strings.HasPrefix(l, "bestmove") }) {
		c.t.Fatalf("%s: %q", when, got)
	}
}

// bestmove extracts the move (and ponder move) of a bestmove line.
func bestmove(t testing.TB, line string) (best, ponder string) {
	t.Helper()
	f := strings.Fields(line)
	if len(f) < 2 || f[0] != "bestmove" {
		t.Fatalf("not a bestmove line: %q", line)
	}
	if len(f) == 4 && f[2] == "ponder" {
		return f[1], f[3]
	}
	if len(f) != 2 {
		t.Fatalf("malformed bestmove line: %q", line)
	}
	return f[1], ""
}

// mustPosition plays moves from fen.
func mustPosition(t testing.TB, fen string, moves ...string) *engine.Position {
	t.Helper()
	pos, err := engine.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range moves {
		mv, err := pos.ParseUCI(m)
		if err != nil {
			t.Fatal(err)
		}
		pos.MakeMove(mv)
	}
	return pos
}

// checkBestmove fails unless line is a bestmove line whose move (and
// ponder move, after it) are legal after moves from the start position,
// and returns the move.
func checkBestmove(t testing.TB, line string, moves ...string) string {
	t.Helper()
	best, ponder := bestmove(t, line)
	pos := mustPosition(t, "startpos", moves...)
	m, err := pos.ParseUCI(best)
	if err != nil {
		t.Fatalf("bestmove %s: %v", best, err)
	}
	if ponder != "" {
		pos.MakeMove(m)
		if _, err := pos.ParseUCI(ponder); err != nil {
			t.Fatalf("ponder move %s after %s: %v", ponder, best, err)
		}
	}
	return best
}

// info is a parsed "info" line.
type info struct {
	fields map[string]string
	pv     []string
}

func parseInfo(line string) (info, bool) {
	f := strings.Fields(line)
	if len(f) == 0 || f[0] != "info" || (len(f) > 1 && f[1] == "string") {
		return info{}, false
	}
	in := info{fields: map[string]string{}}
	for i := 1; i < len(f); i++ {
		switch f[i] {
		case "pv":
			in.pv = f[i+1:]
			i = len(f)
		case "score":
			if i+2 < len(f) {
				in.fields["score "+f[i+1]] = f[i+2]
				i += 2
			}
		default:
			if i+1 < len(f) {
				in.fields[f[i]] = f[i+1]
				i++
			}
		}
	}
	return in, true
}

// infos returns the search info lines among lines.
func infos(lines []string) []info {
	var out []info
	for _, l := range lines {
		if in, ok := parseInfo(l); ok {
			out = append(out, in)
		}
	}
	return out
}

// answers sends line, then isready, and fails unless the answer up to
// readyok holds one info string, containing want, or none if want is "".
func (c *conn) answers(line, want string) {
	c.t.Helper()
	c.send(line, "isready")
	msgs := infoStrings(c.untilPrefix("readyok"))
	switch {
	case want == "" && len(msgs) != 0:
		c.t.Errorf("%q: info strings %q, want none", line, msgs)
	case want != "" && (len(msgs) != 1 || !strings.Contains(msgs[0], want)):
		c.t.Errorf("%q: info strings %q, want one containing %q", line, msgs, want)
	}
}

// infoStrings returns the text of the "info string" lines among lines.
func infoStrings(lines []string) []string {
	var out []string
	for _, l := range lines {
		if s, ok := strings.CutPrefix(l, "info string "); ok {
			out = append(out, s)
		}
	}
	return out
}
