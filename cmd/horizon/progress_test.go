package main

import (
	"bytes"
	"context"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeTerminal makes every writer count as a terminal for one test, so
// that progress lines are drawn into buffers.
func fakeTerminal(t *testing.T) {
	t.Helper()
	old := isTerminal
	isTerminal = func(io.Writer) bool { return true }
	t.Cleanup(func() { isTerminal = old })
}

// lockedBuffer is a buffer the progress goroutine and the test may share.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
	// onWrite, when set, is called once at the first write.
	onWrite func()
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.onWrite != nil {
		l.onWrite()
		l.onWrite = nil
	}
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestLongCommandsShowProgress: check, export, compare, diff, perft and bench
// draw a progress line on a terminal's stderr, and clear it (issue 16;
// diff drew none: 37 s of silence aligning a 4.4M-node run of Ethereal).
func TestLongCommandsShowProgress(t *testing.T) {
	tr := exportTrace(t)
	fakeTerminal(t)
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"check", []string{"check", tr}, "checking run 1: 0 of "},
		{"export dot", []string{"export", tr, "--node", "0"}, "reading node 0's subtree"},
		{"export icicle", []string{"export", tr, "--node", "0", "--format", "icicle"}, "reading node 0's subtree"},
		{"export html", []string{"export", tr, "--node", "0", "--format", "html"}, "building the page: 0 rows read"},
		{"compare", []string{"compare", "--fen", "startpos", "--depth", "2", "--qs", "see,unified"}, "[" + strings.Repeat(".", 30) + "] 0/2 searches"},
		{"import", []string{"import", writeFile(t, "s.hzt", "HZT 1\nposition startpos\nE - 1 -50 50\nE e2e4 0 -50 50\nL 10\nL -10\nend\n"),
			"-o", filepath.Join(t.TempDir(), "i.trace")}, "importing s.hzt: 0% of 68 B"},
		{"diff", []string{"diff", tr, tr}, "aligning the runs: 0 of "},
		// perft --depth 7 counted for minutes in silence.
		{"perft", []string{"perft", "--fen", "startpos", "--depth", "3"}, "[" + strings.Repeat(".", 30) + "] 0/20 root moves counted"},
		{"bench", []string{"bench", "--fen", "startpos", "--depth", "2", "--qs", "see,unified", "--stockfish", "none"}, "[" + strings.Repeat(".", 30) + "] 0/2 searches"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out, errOut lockedBuffer
			code := run(context.Background(), c.args, strings.NewReader(""), &out, &errOut)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut.String())
			}
			e := errOut.String()
			if !strings.Contains(e, "\r\033[K"+c.want) {
				t.Errorf("stderr holds no progress line %q: %q", c.want, e)
			}
			if !strings.HasSuffix(e, "\r\033[K") {
				t.Errorf("the progress line is not cleared at the end: %q", e)
			}
		})
	}
}

// TestCountProgress: a bar counts what any goroutine adds, and a second
// Stop (a deferred one after the one before the table) is harmless.
func TestCountProgress(t *testing.T) {
	fakeTerminal(t)
	var w lockedBuffer
	p := countProgress(&w, "things", 40)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 5 {
				p.Add(1)
			}
		}()
	}
	wg.Wait()
	if got := p.done.Load(); got != 20 {
		t.Errorf("after 4x5 Adds the count is %d", got)
	}
	p.Set(30)
	// The bar is drawn on a tick: wait for it to show 30 (a loaded
	// machine may take many ticks), not for a fixed time.
	bar := "[" + strings.Repeat("#", 22) + strings.Repeat(".", 8) + "] 30/40 things"
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(w.String(), bar) && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	p.Stop()
	p.Stop()
	s := w.String()
	if !strings.Contains(s, bar) {
		t.Errorf("no bar at 30 of 40 in %q", s)
	}
	if !strings.HasSuffix(s, "\r\033[K") {
		t.Errorf("the bar is not cleared at the end: %q", s)
	}
}

// TestLongCommandsStop: Ctrl-C while check or export reads stops it with
// exit 130 and "interrupted", and export writes no file.
func TestLongCommandsStop(t *testing.T) {
	tr := exportTrace(t)
	fakeTerminal(t)
	out := filepath.Join(t.TempDir(), "x.svg")
	for _, args := range [][]string{{"check", tr}, {"export", tr, "--node", "0", "--format", "icicle", "-o", out}} {
		t.Run(args[0], func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var stdout lockedBuffer
			errOut := &lockedBuffer{}
			// The first progress line is drawn once the reading starts:
			// Ctrl-C then.
			errOut.onWrite = cancel
			code := run(ctx, args, strings.NewReader(""), &stdout, errOut)
			if code != 130 || !strings.Contains(errOut.String(), "interrupted") {
				t.Errorf("exit %d, stderr %q; want 130 and interrupted", code, errOut.String())
			}
			// Nothing half-written is left: no output, no temporary file.
			if left, _ := filepath.Glob(filepath.Join(filepath.Dir(out), "*")); len(left) > 0 {
				t.Errorf("an interrupted %s left %v", args[0], left)
			}
		})
	}
}

// fakeStockfish writes a UCI engine in sh that answers uci and isready and,
// on the command named by hang, touches the file marker and hangs; on go
// otherwise it reports 1,000 nodes in 10 ms at once.
func fakeStockfish(t *testing.T, hang, marker string) string {
	t.Helper()
	return shEngine(t, "Fakefish", "", hang+") touch '"+marker+"'; exec sleep 60 ;;",
		`go) echo "info depth 1 nodes 1000 time 10"; echo "bestmove e2e4" ;;`)
}

// TestStockfishPhase: bench's Stockfish searches show progress on a
// terminal as its own do; Ctrl-C while Stockfish starts or searches
// says "interrupted", as every command does, not "context canceled".
func TestStockfishPhase(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	t.Run("progress", func(t *testing.T) {
		fakeTerminal(t)
		eng := fakeStockfish(t, "none", filepath.Join(t.TempDir(), "unused"))
		var out, errOut lockedBuffer
		code := run(context.Background(), []string{"bench", "--depth", "1", "--qs", "none", "--fen", "startpos", "--stockfish", eng},
			strings.NewReader(""), &out, &errOut)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut.String())
		}
		if e := errOut.String(); !strings.Contains(e, "/1 Fakefish searches") || !strings.HasSuffix(e, "\r\033[K") {
			t.Errorf("stderr holds no cleared progress line of the engine's searches (named by its id name): %q", e)
		}
	})
	for _, tc := range []struct {
		name, hang string
		args       []string
	}{
		{"bench", "go", []string{"bench", "--depth", "1", "--qs", "none", "--fen", "startpos"}},
		{"perft --bench", "uci", []string{"perft", "--bench"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			marker := filepath.Join(t.TempDir(), "hung")
			eng := fakeStockfish(t, tc.hang, marker)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go func() {
				for ctx.Err() == nil {
					if _, err := os.Stat(marker); err == nil {
						cancel()
						return
					}
					time.Sleep(20 * time.Millisecond)
				}
			}()
			code, _, stderr := runCLIContext(ctx, "", append(tc.args, "--stockfish", eng)...)
			name := strings.Fields(tc.name)[0]
			if code == 0 || stderr != "horizon "+name+": interrupted\n" {
				t.Errorf("exit %d, stderr %q; want horizon %s: interrupted", code, stderr, name)
			}
		})
	}
}

// TestStockfishSpeedRatio: bench and perft --bench compare with Stockfish
// by one figure in one direction, H/SF nps (Horizon's nodes per second
// over Stockfish's), under one name in text and JSON, with bench's other
// columns named as compare names them. bench printed "vs SF" (Horizon's
// nps over Stockfish's) and perft --bench "ratio" (Horizon's time over
// Stockfish's, the other way round).
func TestStockfishSpeedRatio(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	eng := fakeStockfish(t, "none", filepath.Join(t.TempDir(), "unused")) // 1,000 nodes in 10 ms: 100,000 nps
	args := []string{"bench", "--depth", "5", "--qs", "see", "--fen", kiwipete, "--stockfish", eng}
	var b struct {
		StockfishName string `json:"stockfish_name"`
		StockfishNPS  int64  `json:"stockfish_nps"`
		Variants      []struct {
			NPS      *int64   `json:"nps"`
			NPSRatio *float64 `json:"horizon_over_stockfish_nps"`
		} `json:"variants"`
	}
	js := cliJSON(t, &b, append(args, "--json")...)
	if b.StockfishNPS != 100_000 || b.StockfishName != "Fakefish" || len(b.Variants) != 1 || b.Variants[0].NPS == nil || b.Variants[0].NPSRatio == nil ||
		math.Abs(*b.Variants[0].NPSRatio-float64(*b.Variants[0].NPS)/100_000) > 1e-9 {
		t.Errorf("bench --json: %s; want horizon_over_stockfish_nps = nps / stockfish_nps", js)
	}
	code, out, stderr := runCLI(t, "", args...)
	if code != 0 {
		t.Fatalf("bench: exit %d, %s", code, stderr)
	}
	// The engine is named by its UCI id name, whichever --stockfish
	// names: it was "stockfish (PATH)" and "H/SF nps" for any engine.
	for _, want := range []string{" QS nodes ", " QS share ", " max QS ply ", " H/Fakefish nps\n", "\nFakefish (" + eng + "), 1 thread",
		"H/Fakefish nps = Horizon's nodes per second / Fakefish's (above 1: Horizon is faster)"} {
		if !strings.Contains(out, want) {
			t.Errorf("bench does not print %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "stockfish (") || strings.Contains(out, "SF") {
		t.Errorf("bench calls Fakefish Stockfish:\n%s", out)
	}
	// perft --bench: half Stockfish's speed is 0.50x, as in bench.
	row := perftBenchRow{Name: "startpos", Depth: 6, Nodes: 119060324, elapsed: 2 * time.Second}
	row.withStockfish(time.Second)
	var text strings.Builder
	if err := row.writeText(&text); err != nil || row.NPSRatio == nil || *row.NPSRatio != 0.5 || !strings.HasSuffix(text.String(), " 0.50x\n") {
		t.Errorf("perft --bench row at half Stockfish's speed: %q, horizon_over_stockfish_nps %v", text.String(), npsRatioText(row.NPSRatio))
	}
	text.Reset()
	perftBenchHead{Stockfish: eng, StockfishName: "Stockfish 16", Runs: 1}.writeText(&text)
	perftBenchJSON{Stockfish: eng, StockfishName: "Stockfish 16", Results: []perftBenchRow{row}}.writeText(&text)
	if s := text.String(); !strings.Contains(s, "Horizon and Stockfish 16 ("+eng+") in the same run") || !strings.Contains(s, " stockfish s ") ||
		!strings.Contains(s, " H/SF nps\n") || !strings.Contains(s, " 0.50x\n") ||
		!strings.Contains(s, "H/SF nps = Horizon's nodes per second / Stockfish 16's (above 1: Horizon is faster)") {
		t.Errorf("perft --bench head and total:\n%s", s)
	}
	for _, cmd := range []string{"bench", "perft"} {
		if h := helpOf(t, cmd); !helpSays(h, "H/SF nps: Horizon's nodes per second over Stockfish's") || !helpSays(h, "horizon_over_stockfish_nps") ||
			!helpSays(h, "the ratio is then against that engine") {
			t.Errorf("%s --help does not say what H/SF nps is, against which engine", cmd)
		}
	}
}
