package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/horizonqs/horizon/internal/horizonbin"
	"github.com/horizonqs/horizon/trace"
	"github.com/horizonqs/horizon/trace/tracetest"
)

// onceDir holds what the tests record or build once per test binary (the
// fuzz target's base trace, the instrumented engines). It is made when
// first asked for: the test binary also runs as a helper process, as
// another user with a TMPDIR it may not write to.
var onceDir struct {
	once sync.Once
	path string
	err  error
}

// testDir returns onceDir, making it on the first call.
func testDir() (string, error) {
	onceDir.once.Do(func() { onceDir.path, onceDir.err = os.MkdirTemp("", "horizon-cmd-test-") })
	return onceDir.path, onceDir.err
}

// TestMain removes onceDir and the horizon command the tests that run it
// built.
func TestMain(m *testing.M) {
	// The tests run as without a terminal, wherever they were started
	// from: a viewer must never take over the one 'go test' runs in.
	hasTerminal = func() bool { return false }
	code := m.Run()
	horizonbin.Remove()
	if onceDir.path != "" {
		os.RemoveAll(onceDir.path)
	}
	os.Exit(code)
}

// runCLI runs one horizon invocation in-process, as main would, and returns
// the exit status and what it wrote.
func runCLI(t testing.TB, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return runCLIContext(context.Background(), stdin, args...)
}

// runCLIContext is runCLI under ctx.
func runCLIContext(ctx context.Context, stdin string, args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = run(ctx, args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

// runInterrupted runs one horizon invocation that records into the trace
// file out, and cancels it as Ctrl-C does once out holds a run and settle
// has passed: the interruption falls inside the recording.
func runInterrupted(out string, settle time.Duration, args ...string) (code int, stdout, stderr string) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for ctx.Err() == nil {
			time.Sleep(20 * time.Millisecond)
			st, err := trace.OpenReadOnly(out)
			if err != nil {
				continue
			}
			runs, err := st.Runs(context.Background())
			st.Close()
			if err == nil && len(runs) > 0 {
				time.Sleep(settle)
				cancel()
				return
			}
		}
	}()
	return runCLIContext(ctx, "", args...)
}

// writeFile writes content to name in a fresh temporary directory.
func writeFile(t testing.TB, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// traceFile runs 'horizon trace ARGS -o FILE' into a fresh file and
// returns the file and what the command printed; the test fails unless
// the command exits 0.
func traceFile(t testing.TB, args ...string) (file, stdout string) {
	t.Helper()
	file = filepath.Join(t.TempDir(), "t.trace")
	code, stdout, stderr := runCLI(t, "", append(append([]string{"trace"}, args...), "-o", file)...)
	if code != 0 {
		t.Fatalf("trace %v: exit %d: %s", args, code, stderr)
	}
	return file, stdout
}

// cliJSON runs horizon with args, which must exit 0, decodes what it
// printed into v and returns the text.
func cliJSON(t testing.TB, v any, args ...string) string {
	t.Helper()
	code, out, errOut := runCLI(t, "", args...)
	if code != 0 {
		t.Fatalf("horizon %s: exit %d: %s", strings.Join(args, " "), code, errOut)
	}
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatalf("horizon %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// helpOf runs 'horizon args... --help' and returns the help, which must
// come on stdout with exit 0.
func helpOf(t *testing.T, args ...string) string {
	t.Helper()
	code, help, errOut := runCLI(t, "", append(args, "--help")...)
	if code != 0 || errOut != "" {
		t.Fatalf("%v --help: exit %d, stderr %q", args, code, errOut)
	}
	return help
}

// helpSays reports whether help says phrase, whatever lines --help wraps
// its words into.
func helpSays(help, phrase string) bool {
	fold := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	return strings.Contains(fold(help), fold(phrase))
}

// checkFails runs horizon with args and checks that it exits with code
// and that its stderr names each of want.
func checkFails(t *testing.T, args []string, code int, want ...string) {
	t.Helper()
	got, _, errOut := runCLI(t, "", args...)
	if got != code {
		t.Fatalf("exit %d, want %d; stderr %q", got, code, errOut)
	}
	for _, w := range want {
		if !strings.Contains(errOut, w) {
			t.Errorf("stderr %q does not name %q", errOut, w)
		}
	}
}

// checkOneLineError checks a failed run's stderr: one line, naming want.
func checkOneLineError(t *testing.T, stderr string, want ...string) {
	t.Helper()
	if strings.Count(stderr, "\n") != 1 || !strings.HasSuffix(stderr, "\n") {
		t.Errorf("stderr is not one line: %q", stderr)
	}
	for _, w := range want {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr %q does not say %q", stderr, w)
		}
	}
	if strings.Contains(stderr, "goroutine") || strings.Contains(stderr, "panic") {
		t.Errorf("stderr has a stack trace: %q", stderr)
	}
}

const kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

func TestPerftCount(t *testing.T) {
	cases := []struct {
		fen   string
		depth string
		want  string
	}{
		// perft(0) = 1, the position itself: --depth 0 was refused as
		// "--depth N is required".
		{"startpos", "0", "Nodes searched: 1\n"},
		{"startpos", "3", "Nodes searched: 8902\n"},
		{kiwipete, "2", "Nodes searched: 2039\n"},
		{"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", "4", "Nodes searched: 43238\n"},
	}
	for _, c := range cases {
		t.Run(c.fen, func(t *testing.T) {
			code, out, errOut := runCLI(t, "", "perft", "--fen", c.fen, "--depth", c.depth)
			if code != 0 {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			if !strings.HasPrefix(out, c.want) {
				t.Errorf("stdout %q, want it to start with %q", out, c.want)
			}
			if !regexp.MustCompile(`(?m)^Time: \S+ \(([0-9.]+|-) Mnps\)$`).MatchString(out) {
				t.Errorf("no time line in %q", out)
			}
		})
	}
}

func TestPerftDivide(t *testing.T) {
	code, out, errOut := runCLI(t, "", "perft", "--fen", kiwipete, "--depth", "2", "--divide")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	// Stockfish's format: "move: count" lines, a blank line, the total.
	blocks := strings.SplitN(out, "\n\n", 2)
	if len(blocks) != 2 || !strings.HasPrefix(blocks[1], "Nodes searched: 2039\n") {
		t.Fatalf("stdout is not divide lines, blank line, total:\n%s", out)
	}
	lines := strings.Split(blocks[0], "\n")
	if len(lines) != 48 {
		t.Errorf("%d divide lines, want 48", len(lines))
	}
	if !sort.StringsAreSorted(lines) {
		t.Errorf("divide lines are not sorted by move")
	}
	line := regexp.MustCompile(`^[a-h][1-8][a-h][1-8][nbrq]?: [0-9]+$`)
	seen := map[string]bool{}
	for _, l := range lines {
		if !line.MatchString(l) {
			t.Errorf("divide line %q is not like \"e2e4: 9771\"", l)
		}
		seen[l] = true
	}
	for _, want := range []string{"e1g1: 43", "e1c1: 43", "e5f7: 44", "d5e6: 46"} {
		if !seen[want] {
			t.Errorf("no divide line %q", want)
		}
	}
}

func TestPerftJSON(t *testing.T) {
	var got map[string]any
	out := cliJSON(t, &got, "perft", "--fen", "startpos", "--depth", "2", "--divide", "--json")
	for _, k := range []string{"fen", "depth", "nodes", "elapsed_ms", "nps", "divide"} {
		if _, ok := got[k]; !ok {
			t.Errorf("JSON has no key %q: %s", k, out)
		}
	}
	if got["nodes"] != 400.0 || got["depth"] != 2.0 || got["fen"] != "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" {
		t.Errorf("JSON values wrong: %s", out)
	}
	div, _ := got["divide"].([]any)
	if len(div) != 20 {
		t.Fatalf("divide has %d entries, want 20", len(div))
	}
	first, _ := div[0].(map[string]any)
	if first["move"] != "a2a3" || first["nodes"] != 20.0 {
		t.Errorf("first divide entry %v, want a2a3: 20", first)
	}
}

const smallSuite = `rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;D3 8902
4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66 ;D3 1197
`

// TestPerftEPDCheck: the tally counts positions, one passing when all its
// counts match, as the line above it says. 3 positions holding 4 counts,
// one wrong, printed "3 positions, ..." and then "3 passed, 1 failed"
// (counts), and only stderr said "1 of 4 perft counts".
func TestPerftEPDCheck(t *testing.T) {
	t.Run("all pass", func(t *testing.T) {
		path := writeFile(t, "suite.epd", smallSuite)
		code, out, errOut := runCLI(t, "", "perft", "--epd", path)
		if code != 0 {
			t.Fatalf("exit %d, stderr %q", code, errOut)
		}
		if !strings.HasSuffix(out, "\n2 passed, 0 failed\n") || !strings.Contains(out, "2 positions, 6 perft counts (0 wrong), ") {
			t.Errorf("stdout does not end with the tally:\n%s", out)
		}
		if strings.Count(out, "ok   ") != 2 {
			t.Errorf("want one progress line per position:\n%s", out)
		}
	})
	t.Run("max depth", func(t *testing.T) {
		path := writeFile(t, "suite.epd", smallSuite)
		code, out, _ := runCLI(t, "", "perft", "--epd", path, "--max-depth", "2")
		if code != 0 || !strings.HasSuffix(out, "\n2 passed, 0 failed\n") || !strings.Contains(out, "2 positions, 4 perft counts (0 wrong), ") {
			t.Errorf("exit %d, stdout:\n%s", code, out)
		}
	})
	t.Run("a wrong count", func(t *testing.T) {
		path := writeFile(t, "bad.epd", strings.Replace(smallSuite, ";D2 66", ";D2 67", 1))
		code, out, errOut := runCLI(t, "", "perft", "--epd", path)
		if code != 1 {
			t.Fatalf("exit %d, want 1", code)
		}
		if !strings.Contains(out, "FAIL "+path+":2 depth 2: got 66, want 67") || !strings.HasSuffix(out, "\n1 passed, 1 failed\n") {
			t.Errorf("stdout does not report the failure:\n%s", out)
		}
		checkOneLineError(t, errOut, "1 of 2 positions in "+path+" have a wrong perft count (1 of 6 counts wrong)")
	})
	// The summary and the ok line give nodes with separators, as every
	// other count Horizon prints, and one position as one (they said "1
	// positions, 1 perft counts", "8922 nodes").
	t.Run("wording", func(t *testing.T) {
		path := writeFile(t, "one.epd", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D3 8902\n")
		code, out, errOut := runCLI(t, "", "perft", "--epd", path)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		if !strings.Contains(out, "ok   "+path+":1 depth 3..3, 8,902 nodes, ") || !strings.Contains(out, "\n1 position, 1 perft count (0 wrong), 8,902 nodes in ") {
			t.Errorf("perft --epd of one position:\n%s", out)
		}
	})
	t.Run("positions with one count and with several", func(t *testing.T) {
		suite := "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 401\n" +
			"4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15\n8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3\n"
		path := writeFile(t, "three.epd", suite)
		code, out, errOut := runCLI(t, "", "perft", "--epd", path)
		if code != 1 || !strings.Contains(out, "\n3 positions, 4 perft counts (1 wrong), ") ||
			!strings.Contains(out, "a position passes when all its counts match\n2 passed, 1 failed\n") {
			t.Errorf("exit %d, stdout:\n%s", code, out)
		}
		checkOneLineError(t, errOut, "1 of 3 positions in "+path+" have a wrong perft count (1 of 4 counts wrong)")
	})
	t.Run("json", func(t *testing.T) {
		path := writeFile(t, "bad.epd", strings.Replace(smallSuite, ";D3 8902", ";D3 8903", 1))
		code, out, _ := runCLI(t, "", "perft", "--epd", path, "--json")
		if code != 1 {
			t.Fatalf("exit %d, want 1", code)
		}
		var got struct {
			Passed, Failed, Positions int
			Counts                    int `json:"counts"`
			FailedCounts              int `json:"failed_counts"`
			Failures                  []map[string]any
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("stdout is not JSON: %v\n%s", err, out)
		}
		if got.Passed != 1 || got.Failed != 1 || got.Positions != 2 || got.Counts != 6 || got.FailedCounts != 1 || len(got.Failures) != 1 {
			t.Fatalf("JSON %s", out)
		}
		for _, k := range []string{"line", "fen", "depth", "got", "want"} {
			if _, ok := got.Failures[0][k]; !ok {
				t.Errorf("failure has no key %q: %v", k, got.Failures[0])
			}
		}
		for _, k := range []string{`"elapsed_ms"`, `"nodes"`, `"nps"`, `"file"`} {
			if !strings.Contains(out, k) {
				t.Errorf("no key %s in %s", k, out)
			}
		}
	})
	t.Run("count every position", func(t *testing.T) {
		path := writeFile(t, "suite.epd", smallSuite)
		code, out, _ := runCLI(t, "", "perft", "--epd", path, "--depth", "2")
		if code != 0 || strings.Count(out, "Nodes searched: ") != 2 || !strings.Contains(out, "Nodes searched: 66\n") {
			t.Errorf("exit %d, stdout:\n%s", code, out)
		}
	})
	t.Run("no counts", func(t *testing.T) {
		path := writeFile(t, "plain.epd", "8/8/8/8/8/8/8/K6k w - - id \"x\";\n")
		code, _, errOut := runCLI(t, "", "perft", "--epd", path)
		if code != 1 {
			t.Fatalf("exit %d, want 1", code)
		}
		checkOneLineError(t, errOut, "no ;Dn perft counts")
	})
}

func TestPerftErrors(t *testing.T) {
	badEPD := "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - ;D1 20\n8/8/8/8/8/8/8/K7 w - - ;D1 3\n"
	cases := []struct {
		name string
		args []string
		code int
		want []string // phrases of the one-line error
	}{
		{"bad FEN side", []string{"--fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "--depth", "1"}, 1, []string{"side", `"x" is not w or b`}},
		{"bad FEN placement", []string{"--fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1", "--depth", "1"}, 1, []string{"placement", "rank 1 has 7 squares"}},
		{"bad FEN castling", []string{"--fen", "r3k2r/8/8/8/8/8/8/R4K1R w KQkq - 0 1", "--depth", "1"}, 1, []string{"castling"}},
		{"bad EPD line", []string{"--epd", "@bad.epd"}, 1, []string{"bad.epd:2:", "black king is missing"}},
		{"missing file", []string{"--epd", "/nonexistent/suite.epd"}, 1, []string{"/nonexistent/suite.epd"}},
		{"unknown flag", []string{"--fne", "startpos"}, 2, []string{"flag provided but not defined: -fne"}},
		{"no position", []string{"--depth", "3"}, 2, []string{"--fen"}},
		{"both positions", []string{"--fen", "startpos", "--epd", "x.epd", "--depth", "1"}, 2, []string{"not both"}},
		{"no depth", []string{"--fen", "startpos"}, 2, []string{"--depth N is required"}},
		{"negative depth", []string{"--fen", "startpos", "--depth", "-1"}, 2, []string{"must not be negative"}},
		{"bad depth", []string{"--fen", "startpos", "--depth", "x"}, 2, []string{"invalid value"}},
		{"extra argument", []string{"--fen", "startpos", "--depth", "1", "extra"}, 2, []string{`unexpected argument "extra"`}},
		{"bench with a position", []string{"--bench", "--fen", "startpos"}, 2, []string{"--bench runs fixed positions"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"perft"}, c.args...)
			for i, a := range args {
				if a == "@bad.epd" {
					args[i] = writeFile(t, "bad.epd", badEPD)
				}
			}
			code, out, errOut := runCLI(t, "", args...)
			if code != c.code {
				t.Fatalf("exit %d, want %d; stderr %q", code, c.code, errOut)
			}
			if out != "" {
				t.Errorf("stdout %q, want nothing", out)
			}
			if c.code == 2 {
				// Usage errors add a pointer to --help on a second line.
				lines := strings.Split(strings.TrimSpace(errOut), "\n")
				if len(lines) != 2 || !strings.Contains(lines[1], "horizon perft --help") {
					t.Errorf("usage error %q", errOut)
				}
				errOut = lines[0] + "\n"
			}
			checkOneLineError(t, errOut, c.want...)
		})
	}
}

func TestPerftHelp(t *testing.T) {
	out := helpOf(t, "perft")
	if n := strings.Count(out, "Usage: horizon perft"); n != 1 {
		t.Errorf("help printed %d times", n)
	}
	for _, want := range []string{"Usage: horizon perft", "-fen", "-epd", "-depth", "-divide", "-max-depth",
		"-bench", "-json", "-runs", "-stockfish", "Examples:", "horizon perft --fen startpos --depth 5"} {
		if !strings.Contains(out, want) {
			t.Errorf("help does not mention %q:\n%s", want, out)
		}
	}
	out = helpOf(t)
	if !regexp.MustCompile(`(?m)^  perft +count`).MatchString(out) {
		t.Errorf("horizon --help does not list perft:\n%s", out)
	}
	if !regexp.MustCompile(`(?m)^  export .*HTML`).MatchString(out) {
		t.Errorf("horizon --help does not say export writes HTML:\n%s", out)
	}
}

func TestLoadPositions(t *testing.T) {
	good := writeFile(t, "good.epd", smallSuite)
	cases := []struct {
		name, fen, epd, def string
		n                   int
		usage               bool   // want a usage error
		err                 string // else want an error saying this
	}{
		{name: "startpos", fen: "startpos", n: 1},
		{name: "FEN", fen: kiwipete, n: 1},
		{name: "EPD", epd: good, n: 2},
		{name: "default", def: "startpos", n: 1},
		{name: "flag beats default", fen: kiwipete, def: "startpos", n: 1},
		{name: "neither", usage: true},
		{name: "both", fen: "startpos", epd: good, usage: true},
		{name: "both with default", fen: "startpos", epd: good, def: "startpos", usage: true},
		{name: "bad FEN", fen: "8/8/8/8/8/8/8/8 w - - 0 1", err: "white king is missing"},
		{name: "bad EPD", epd: writeFile(t, "bad.epd", "# header\n8/8/8/8/8/8/8/K6k w - - bm Kh2;\n"), err: "bad.epd:2: bm move \"Kh2\""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ps, err := loadPositionsOr(context.Background(), c.fen, c.epd, c.def)
			var ue *usageError
			switch {
			case c.usage:
				if err == nil || !errors.As(err, &ue) {
					t.Errorf("got %v, want a usage error", err)
				}
			case c.err != "":
				if err == nil || !strings.Contains(err.Error(), c.err) || errors.As(err, &ue) {
					t.Errorf("got %v, want an error saying %q", err, c.err)
				}
			default:
				if err != nil {
					t.Fatal(err)
				}
				if len(ps) != c.n {
					t.Fatalf("%d positions, want %d", len(ps), c.n)
				}
				for _, p := range ps {
					if p.Pos == nil || p.Pos.FEN() != p.FEN || p.Perft == nil || p.Ops == nil {
						t.Errorf("incomplete position %+v", p)
					}
				}
			}
		})
	}
	if _, err := loadPositions(context.Background(), "", ""); err == nil {
		t.Errorf("loadPositions with no default accepted no position")
	}
}

func TestPerftBench(t *testing.T) {
	if testing.Short() {
		t.Skip("the benchmark counts 312 million nodes")
	}
	// Without Stockfish, to halve the time; TestUCIPerftEngine covers its side.
	var got perftBenchJSON
	out := cliJSON(t, &got, "perft", "--bench", "--json", "--stockfish", "none")
	if len(got.Results) != 2 || got.Results[0].Nodes != 119060324 || got.Results[1].Nodes != 193690690 {
		t.Fatalf("results %+v", got.Results)
	}
	for _, k := range []string{`"name"`, `"depth"`, `"nodes"`, `"elapsed_ms"`, `"mnps"`, `"stockfish"`} {
		if !strings.Contains(out, k) {
			t.Errorf("no key %s in %s", k, out)
		}
	}
	for _, r := range got.Results {
		if r.Mnps == nil || *r.Mnps <= 0 || r.ElapsedMS <= 0 {
			t.Errorf("%s: no timing: %+v", r.Name, r)
		}
		if r.StockfishMS != nil || r.NPSRatio != nil {
			t.Errorf("%s: Stockfish times with --stockfish none: %+v", r.Name, r)
		}
	}
}

func TestPerftStockfishPath(t *testing.T) {
	if _, err := perftStockfishPath("/nonexistent/stockfish"); err == nil {
		t.Errorf("a missing --stockfish binary was accepted")
	}
	if p, err := perftStockfishPath("none"); p != "" || err != nil {
		t.Errorf("--stockfish none: %q, %v", p, err)
	}
}

// TestRefusedSwitches: a switch that the variant cannot apply is a usage
// error naming the switch and the variant, in every command that searches.
func TestRefusedSwitches(t *testing.T) {
	// A refusal that regressed must not leave a trace file behind.
	out := filepath.Join(t.TempDir(), "x.trace")
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"search", "--fen", "startpos", "--depth", "2", "--qs", "none", "--see-prune", "true"}, []string{"switch see-prune", "variant none"}},
		{[]string{"trace", "--fen", "startpos", "--depth", "2", "--qs", "unified", "--qs-levels", "3", "-o", out}, []string{"switch qs-levels", "variant unified"}},
		{[]string{"compare", "--fen", "startpos", "--depth", "2", "--qs", "mvv-lva,see", "--qs-threshold", "100"}, []string{"switch qs-threshold", "variant mvv-lva"}},
		// A parameter whose switch is off: refused in every command, the
		// error saying which switch needs which. hash with tt off ran
		// labelled see+tt=false+hash=64 with the nodes of see+tt=false.
		{[]string{"search", "--fen", "startpos", "--depth", "4", "--qs", "see", "--tt", "false", "--hash", "64"}, []string{"switch hash", "variant see", "hash needs tt true"}},
		{[]string{"search", "--fen", "startpos", "--depth", "2", "--qs", "see", "--delta", "false", "--delta-margin", "50"}, []string{"switch delta-margin", "delta-margin needs delta true"}},
		{[]string{"trace", "--fen", "startpos", "--depth", "2", "--qs", "see+hash=64+tt=false", "-o", out}, []string{"switch hash", "hash needs tt true"}},
		{[]string{"compare", "--fen", "startpos", "--depth", "2", "--qs", "see,mvv-lva", "--tt", "false", "--hash", "8"}, []string{"switch hash", "hash needs tt true"}},
		{[]string{"bench", "--qs", "see+tt=false+hash=64"}, []string{"switch hash", "hash needs tt true"}},
		{[]string{"qsbench", "--qs", "see+tt=false+hash=64"}, []string{"switch hash", "hash needs tt true"}},
		{[]string{"search", "--fen", "startpos", "--depth", "2", "--qs", "threshold", "--unified", "true"}, []string{"switch unified", "variant threshold", "qs-levels needs unified false"}},
		// A switch given is judged set whatever its value: these ran
		// silently because 200 is every preset's delta margin and 16 its
		// hash, while --delta-margin 50 was refused.
		{[]string{"search", "--fen", "startpos", "--depth", "2", "--qs", "see", "--delta-margin", "200", "--delta", "false"}, []string{"switch delta-margin", "variant see", "delta-margin needs delta true"}},
		{[]string{"search", "--fen", "startpos", "--depth", "2", "--qs", "captures", "--delta-margin", "200"}, []string{"switch delta-margin", "variant captures", "delta-margin needs delta true"}},
		{[]string{"search", "--fen", "startpos", "--depth", "2", "--qs", "see+delta-margin=200", "--delta", "false"}, []string{"switch delta-margin", "variant see"}},
		{[]string{"trace", "--fen", "startpos", "--depth", "2", "--qs", "see", "--tt", "false", "--hash", "16", "-o", out}, []string{"switch hash", "hash needs tt true"}},
		{[]string{"trace", "--fen", "startpos", "--depth", "2", "--qs", "captures+delta-margin=200", "-o", out}, []string{"switch delta-margin", "variant captures"}},
		{[]string{"compare", "--fen", "startpos", "--depth", "2", "--qs", "see,captures", "--delta-margin", "200"}, []string{"switch delta-margin", "variant captures"}},
		{[]string{"compare", "--fen", "startpos", "--depth", "2", "--qs", "see,threshold", "--qs-threshold", "0", "--qs-levels", "0"}, []string{"switch qs-threshold", "qs-threshold needs qs-levels above 0"}},
		{[]string{"bench", "--qs", "captures+delta-margin=200"}, []string{"switch delta-margin", "variant captures"}},
		{[]string{"qsbench", "--qs", "none+stand-pat=false"}, []string{"switch stand-pat", "variant none", "stand-pat needs qs-moves other than none"}},
	} {
		code, out, errOut := runCLI(t, "", c.args...)
		if code != 2 || out != "" {
			t.Errorf("%v: exit %d, stdout %q, want exit 2 and nothing", c.args, code, out)
			continue
		}
		lines := strings.Split(strings.TrimSpace(errOut), "\n")
		if len(lines) != 2 {
			t.Errorf("%v: stderr %q, want the error and a pointer to --help", c.args, errOut)
			continue
		}
		checkOneLineError(t, lines[0]+"\n", c.want...)
	}
}

// TestSecondSignalQuitsAtOnce: a second Ctrl-C quits at once, where the
// first waits for what it stopped: here an engine that ignores stop and
// quit, which Horizon waits 10 s for. After 2 s Horizon says how to quit at once. The
// engine, in its own process group (no terminal's Ctrl-C reaches it), is
// killed, and the trace keeps what it had committed. The second Ctrl-C
// was dropped: Horizon waited out the 10 s.
func TestSecondSignalQuitsAtOnce(t *testing.T) {
	bin := horizonbin.Path(t)
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "engine.pid")
	eng := thinkingEngine(t, "Deaf", `echo $$ > '`+pidFile+`'.tmp; mv '`+pidFile+`'.tmp '`+pidFile+`'; exec sleep 600`)
	out := filepath.Join(dir, "t.trace")
	cmd := exec.Command(bin, "trace", "--engine", eng, "--fen", "startpos", "--depth", "30", "-o", out)
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	defer func() {
		cmd.Process.Kill()
		<-exited
	}()
	// waitFor polls cond until it holds; the limits only catch a hang.
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); !cond(); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("waited 20 s for %s; stderr %q", what, stderr.String())
			}
		}
	}
	waitFor("a run in the trace", func() bool {
		st, err := trace.OpenReadOnly(out)
		if err != nil {
			return false
		}
		defer st.Close()
		runs, err := st.Runs(context.Background())
		return err == nil && len(runs) > 0
	})
	cmd.Process.Signal(os.Interrupt)
	waitFor("the engine told to stop", func() bool { return fileExists(pidFile) })
	waitFor("the note on quitting at once", func() bool { return strings.Contains(stderr.String(), "press Ctrl-C again to quit at once") })
	cmd.Process.Signal(os.Interrupt)
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		t.Fatalf("Horizon still runs 10 s after a second Ctrl-C; stderr %q", stderr.String())
	}
	if code := cmd.ProcessState.ExitCode(); code != 130 {
		t.Errorf("exit %d, want 130; stderr %q", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "quit at once on a second signal") {
		t.Errorf("stderr %q does not say Horizon quit at once", stderr.String())
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	waitFor("the engine killed", func() bool { return syscall.Kill(pid, 0) == syscall.ESRCH })
	runs := tracetest.Runs(t, out)
	if len(runs) != 1 || runs[0].Rows < 2 {
		t.Errorf("runs %+v; want the run with the rows it had committed", runs)
	}
}

// TestMissingTraceHint: a trace file that does not exist is answered
// with the command that records it, which must work as printed: a path
// with a space quoted for the shell, and no command at all when the
// file's directory is missing too (trace cannot create the file there).
func TestMissingTraceHint(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, path, hint string
	}{
		{"plain", filepath.Join(dir, "nope.trace"), "(record one with 'horizon trace -o " + filepath.Join(dir, "nope.trace") + "')"},
		{"space", filepath.Join(dir, "my nope.trace"), "(record one with 'horizon trace -o '" + filepath.Join(dir, "my nope.trace") + "'')"},
		{"no directory", filepath.Join(dir, "gone", "nope.trace"), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runCLI(t, "", "runs", tc.path)
			if code != 1 || !strings.Contains(stderr, "no such file") {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if got := strings.Contains(stderr, "record one with"); got != (tc.hint != "") || !strings.Contains(stderr, tc.hint) {
				t.Errorf("stderr %q, want the hint %q", stderr, tc.hint)
			}
		})
	}
}
