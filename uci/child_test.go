package uci

import (
	"cmp"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/horizonqs/horizon/engine"
)

func TestEngineStockfishPerft(t *testing.T) {
	path := FindStockfish()
	if path == "" {
		t.Skip("stockfish not found (PATH or /usr/games/stockfish); install it to run this test")
	}
	sf, err := StartEngine(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer sf.Close()
	if !strings.Contains(sf.Name, "Stockfish") {
		t.Errorf("engine name %q", sf.Name)
	}
	for _, c := range []struct {
		fen       string
		depth     int
		want      uint64
		moves     int
		firstMove string
		firstN    uint64
	}{
		{"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3, 97862, 48, "e1g1", 2059},
		{"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4, 43238, 14, "e2e4", 2748},
	} {
		div, n, d, err := sf.Perft(c.fen, c.depth)
		if err != nil || n != c.want || d <= 0 || len(div) != c.moves || div[c.firstMove] != c.firstN {
			t.Errorf("Perft(%s, %d) = %d moves (%s: %d), %d in %s, %v; want %d moves (%s: %d), %d",
				c.fen, c.depth, len(div), c.firstMove, div[c.firstMove], n, d, err, c.moves, c.firstMove, c.firstN, c.want)
		}
	}
}

// TestEngineNotUCI: a program that does not speak UCI is an error, not a
// hang, and a cancelled context ends the wait.
func TestEngineNotUCI(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := StartEngine(ctx, "/bin/true"); err == nil {
		t.Errorf("StartEngine(/bin/true) = %v, want an error", err)
	}
	ctx2, cancel2 := context.WithCancel(context.Background())
	cancel2()
	if _, err := StartEngine(ctx2, "/bin/cat"); err == nil {
		t.Errorf("StartEngine with a cancelled context succeeded")
	}
	if _, err := StartEngine(ctx, "/nonexistent/engine"); err == nil {
		t.Errorf("StartEngine of a missing file succeeded")
	}
}

// TestGoCommand: the go command for each limit, and for none.
func TestGoCommand(t *testing.T) {
	for _, c := range []struct {
		lim  engine.Limits
		want string
	}{
		{engine.Limits{}, "go infinite"},
		{engine.Limits{Depth: 8}, "go depth 8"},
		{engine.Limits{Nodes: 100000}, "go nodes 100000"},
		{engine.Limits{MoveTime: 1500 * time.Millisecond}, "go movetime 1500"},
		{engine.Limits{Depth: 5, Nodes: 10, MoveTime: time.Second}, "go depth 5 nodes 10 movetime 1000"},
		// "movetime 0" would be no limit to Stockfish.
		{engine.Limits{MoveTime: 500 * time.Microsecond}, "go movetime 1"},
	} {
		if got := GoCommand(c.lim); got != c.want {
			t.Errorf("GoCommand(%+v) = %q, want %q", c.lim, got, c.want)
		}
	}
}

// shEngine writes script, a program in sh, as the file name in a new
// directory and returns its path; the test is skipped without sh.
func shEngine(t *testing.T, name, script string) string {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestStartNoUciok: the wait for uciok is uciokWait in all, however much
// else the program says (it was 10 s for each line, so a program that
// never stops talking, `horizon trace --engine yes`, was waited for
// forever), and its error names the program and says what it did.
func TestStartNoUciok(t *testing.T) {
	defer func(w time.Duration) { uciokWait = w }(uciokWait)
	for _, tc := range []struct {
		name, script string
		want         []string
		wait         time.Duration // uciokWait; 300ms when 0
	}{
		{"chatty", "while :; do echo 'info string still here'; sleep 0.02; done\n",
			[]string{`chatty.sh: waiting for "uciok": sent `, ` other lines in 300ms`}, 0},
		{"silent", "exec sleep 30\n", []string{`silent.sh: waiting for "uciok": no answer in 300ms`}, 0},
		{"exits", "echo 'id name Quitter'\n", []string{`exits.sh: waiting for "uciok": the engine exited`}, 0},
		// What it wrote on stderr was dropped: an engine that cannot
		// start (a Python error, a missing file) said only that it exited.
		{"exits saying why", "echo 'Traceback (most recent call last):' >&2; echo 'ImportError: no module named chess' >&2\n",
			[]string{`waiting for "uciok": the engine exited; its last line on stderr: "ImportError: no module named chess"`}, 0},
		// It was said to have exited.
		{"long line", "head -c 2000000 /dev/zero | tr '\\0' a; echo; echo uciok; exec sleep 30\n",
			// A long wait: the line, not the deadline, must end it, however
			// slowly a loaded machine pipes 2 MB (300ms was missed once).
			[]string{`long line.sh: waiting for "uciok": the engine sent a line longer than 1 MiB, the longest Horizon reads`}, 15 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			uciokWait = cmp.Or(tc.wait, 300*time.Millisecond)
			path := shEngine(t, tc.name+".sh", tc.script)
			done := make(chan error, 1)
			go func() {
				e, err := StartEngine(context.Background(), path)
				if err == nil {
					e.Close()
				}
				done <- err
			}()
			var err error
			select {
			case err = <-done:
			case <-time.After(20 * time.Second):
				t.Fatal("StartEngine still waits for uciok after 20s")
			}
			if err == nil {
				t.Fatal("StartEngine succeeded")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}

// discard is an engine's standard input that takes everything.
type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
func (discard) Close() error                { return nil }

// TestUntilKeepsTheLastLines: an engine that sends 20 MB of binary
// garbage before its uciok (one sent 1.15 GB in 10 s) has its id name
// read and its garbage dropped as it comes: Until keeps only the last
// untilKept bytes of lines.
func TestUntilKeepsTheLastLines(t *testing.T) {
	garbage := make([]byte, 1000)
	for i := range garbage {
		garbage[i] = byte(i*7 + 1)
		if garbage[i] == '\n' {
			garbage[i] = 0
		}
	}
	const lines = 20000
	talk := func() *Engine {
		r, w := io.Pipe()
		go func() {
			defer w.Close()
			io.WriteString(w, "id name Noisy 1.0\n")
			for i := 0; i < lines; i++ {
				w.Write(append(garbage, '\n'))
			}
			io.WriteString(w, "uciok\n")
		}()
		return talkOver(context.Background(), discard{}, r)
	}
	got, err := talk().Until(context.Background(), time.Minute, "uciok")
	if err != nil {
		t.Fatal(err)
	}
	size := 0
	for _, l := range got {
		size += len(l)
	}
	if size > untilKept || len(got) == 0 || got[len(got)-1] != "uciok" || len(got) < untilKept/len(garbage)-1 {
		t.Errorf("Until kept %d lines, %d bytes (last %.20q); want the last ones to uciok within %d bytes", len(got), size, got[len(got)-1], untilKept)
	}
	e := talk()
	if err := e.Handshake(context.Background()); err != nil || e.Name != "Noisy 1.0" {
		t.Errorf("handshake: name %q, error %v", e.Name, err)
	}
}
