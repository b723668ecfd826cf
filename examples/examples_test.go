// Package examples holds no code of Horizon's: its tests build the example
// engines of examples/c, examples/go and examples/python (Minnow, one
// engine in three languages), trace them with the horizon command as a
// user would, and run the guides' commands (docs/guide-*.md,
// docs/tutorial.md).
package examples

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/horizonqs/horizon/internal/horizonbin"
)

// TestMain removes what the tests built.
func TestMain(m *testing.M) {
	code := m.Run()
	horizonbin.Remove()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

const (
	kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
	// Perft positions 3 and 5 of the Chess Programming Wiki: en passant
	// and pins, promotions and castling rights.
	endgame   = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
	promotion = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"
)

// minnow is one build of the example engine: its name and command line.
type minnow struct {
	lang string
	argv []string
}

var built struct {
	once    sync.Once
	dir     string
	engines map[string]minnow // by language; absent: skip says why
	skip    map[string]string
	err     error
}

// goTool finds the go command as horizonbin does ('go test' runs with its
// own GOROOT even when go is not on PATH).
func goTool() (string, error) {
	if p, err := exec.LookPath("go"); err == nil {
		return p, nil
	}
	p := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("the go tool is not in PATH")
	}
	return p, nil
}

// buildGo builds examples/go into out, with tags (e.g. "notrace") if any.
func buildGo(out string, tags ...string) error {
	tool, err := goTool()
	if err != nil {
		return err
	}
	args := []string{"build", "-o", out}
	if len(tags) > 0 {
		args = append(args, "-tags", strings.Join(tags, ","))
	}
	cmd := exec.Command(tool, append(args, ".")...)
	cmd.Dir = "go"
	// The example is a module of its own: no workspace of the reader's
	// may pull it into another.
	cmd.Env = append(os.Environ(), "GOWORK=off")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build examples/go: %v\n%s", err, msg)
	}
	return nil
}

// engines builds each example engine once per test binary; a language
// whose tool is absent is left out with the reason.
func engines(t testing.TB) map[string]minnow {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: not building the example engines")
	}
	built.once.Do(func() {
		built.engines, built.skip = map[string]minnow{}, map[string]string{}
		built.dir, built.err = os.MkdirTemp("", "minnow-")
		if built.err != nil {
			return
		}
		if _, err := exec.LookPath("cc"); err != nil {
			built.skip["c"] = "cc is not on PATH: the C example is not built"
		} else {
			out := filepath.Join(built.dir, "minnow-c")
			cmd := exec.Command("cc", "-O2", "-I../emit/c", "-o", out, "c/minnow.c")
			if msg, err := cmd.CombinedOutput(); err != nil {
				built.err = fmt.Errorf("cc examples/c/minnow.c: %v\n%s", err, msg)
				return
			}
			built.engines["c"] = minnow{"c", []string{out}}
		}
		out := filepath.Join(built.dir, "minnow-go")
		switch err := buildGo(out); {
		case err != nil && strings.Contains(err.Error(), "not in PATH"):
			built.skip["go"] = err.Error()
		case err != nil:
			built.err = err
			return
		default:
			built.engines["go"] = minnow{"go", []string{out}}
		}
		if py, err := exec.LookPath("python3"); err != nil {
			built.skip["python"] = "python3 is not on PATH: the Python example is not run"
		} else {
			abs, _ := filepath.Abs(filepath.Join("python", "minnow.py"))
			built.engines["python"] = minnow{"python", []string{py, "-B", abs}}
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	for lang, why := range built.skip {
		t.Logf("%s: %s", lang, why)
	}
	return built.engines
}

// each runs fn as a subtest per language, skipping one not built.
func each(t *testing.T, fn func(t *testing.T, e minnow)) {
	es := engines(t)
	for _, lang := range []string{"c", "go", "python"} {
		t.Run(lang, func(t *testing.T) {
			e, ok := es[lang]
			if !ok {
				t.Skip(built.skip[lang])
			}
			fn(t, e)
		})
	}
}

// uciRun feeds script to the engine with tracing off (HORIZON_TRACE
// removed) and returns its output lines.
func uciRun(t *testing.T, e minnow, script string) []string {
	t.Helper()
	cmd := exec.Command(e.argv[0], e.argv[1:]...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "HORIZON_TRACE=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Stdin = strings.NewReader(script)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v", e.argv[0], err)
	}
	var lines []string
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return lines
}

// search runs "go LIMITS" untraced and returns the bestmove and the node
// count of the last info line.
func search(t *testing.T, e minnow, fen, limits string) (best string, nodes int64) {
	t.Helper()
	nodes = -1
	for _, l := range uciRun(t, e, "uci\nisready\nposition fen "+fen+"\ngo "+limits+"\nquit\n") {
		f := strings.Fields(l)
		switch {
		case len(f) == 2 && f[0] == "bestmove":
			best = f[1]
		case len(f) > 0 && f[0] == "info":
			for i := 0; i+1 < len(f); i++ {
				if f[i] == "nodes" {
					nodes, _ = strconv.ParseInt(f[i+1], 10, 64)
				}
			}
		}
	}
	if best == "" {
		t.Fatalf("%s gave no bestmove for %s, go %s", e.lang, fen, limits)
	}
	return best, nodes
}

// horizon runs the horizon command and returns its stdout; it fails the
// test on a non-zero exit.
func horizon(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(horizonbin.Path(t), args...)
	var errOut strings.Builder
	cmd.Stderr = &errOut
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("horizon %s: %v\n%s%s", strings.Join(args, " "), err, out, errOut.String())
	}
	return string(out)
}

// traced is what the tests read of `horizon trace --engine --json`.
type traced struct {
	Run           int64  `json:"run"`
	Status        string `json:"status"`
	StopCause     string `json:"stop_cause"`
	Engine        string `json:"engine"`
	BestMove      string `json:"best_move"`
	Depth         int    `json:"depth"`
	Nodes         int64  `json:"nodes"`
	QSNodes       int64  `json:"qs_nodes"`
	StreamNodes   int64  `json:"stream_nodes"`
	ReportedNodes int64  `json:"reported_nodes"`
}

// traceEngine records one search of e into file and returns its run.
func traceEngine(t *testing.T, e minnow, file, fen string, limits ...string) traced {
	t.Helper()
	args := append([]string{"trace", "--engine", shellJoin(e.argv), "--fen", fen, "-o", file, "--json"}, limits...)
	var runs []traced
	out := horizon(t, args...)
	if err := json.Unmarshal([]byte(out), &runs); err != nil || len(runs) != 1 {
		t.Fatalf("horizon %s: %v, %d runs\n%s", strings.Join(args, " "), err, len(runs), out)
	}
	return runs[0]
}

// checkClean wants `horizon check` to pass the file's run.
func checkClean(t *testing.T, file string) {
	t.Helper()
	if out := horizon(t, "check", file); !strings.Contains(out, "no violations") {
		t.Fatalf("horizon check %s:\n%s", file, out)
	}
}

// shellJoin quotes argv for --engine, which splits as a shell does.
func shellJoin(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(q, " ")
}

// TestTracedNodeCounts: each example engine traced by `horizon trace
// --engine` writes one node record per node it counts (the stream's count,
// the end record's and the run's agree), searches as it does untraced (the
// same bestmove and node count with HORIZON_TRACE unset), passes `horizon
// check`, and the three languages search the same tree.
func TestTracedNodeCounts(t *testing.T) {
	type key struct{ fen, depth string }
	var mu sync.Mutex
	seen := map[key]map[string]int64{}
	each(t, func(t *testing.T, e minnow) {
		for _, pos := range []struct{ name, fen, depth string }{
			{"startpos", "startpos", "4"},
			{"kiwipete", kiwipete, "3"},
			{"promotion", promotion, "3"},
		} {
			t.Run(pos.name, func(t *testing.T) {
				file := filepath.Join(t.TempDir(), "minnow.trace")
				r := traceEngine(t, e, file, pos.fen, "--depth", pos.depth)
				want := "Minnow (" + map[string]string{"c": "C", "go": "Go", "python": "Python"}[e.lang] + ") 1.0"
				if r.Status != "complete" || r.Engine != want || r.Depth != atoi(pos.depth) || r.QSNodes == 0 {
					t.Fatalf("run %+v: want a complete depth-%s run of %s with QS nodes", r, pos.depth, want)
				}
				if r.StreamNodes != r.ReportedNodes || r.Nodes != r.StreamNodes {
					t.Fatalf("the stream holds %d nodes, the engine's end record says %d, the run %d", r.StreamNodes, r.ReportedNodes, r.Nodes)
				}
				fen := pos.fen
				if fen == "startpos" {
					fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
				}
				best, nodes := search(t, e, fen, "depth "+pos.depth)
				if best != r.BestMove || nodes != r.StreamNodes {
					t.Fatalf("untraced: bestmove %s, %d nodes; traced: %s, %d nodes", best, nodes, r.BestMove, r.StreamNodes)
				}
				checkClean(t, file)
				mu.Lock()
				k := key{pos.fen, pos.depth}
				if seen[k] == nil {
					seen[k] = map[string]int64{}
				}
				seen[k][e.lang] = nodes
				mu.Unlock()
			})
		}
	})
	for k, by := range seen {
		for lang, n := range by {
			for other, m := range by {
				if n != m {
					t.Errorf("%s at depth %s: %s searched %d nodes, %s %d: the examples are one engine", k.fen, k.depth, lang, n, other, m)
				}
			}
		}
	}
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// TestStopFlag: a search stopped by its node limit (go nodes N) writes one
// abort record and then its end record: the run is truncated on the node
// limit with exactly N nodes in the stream and in the engine's count, and
// passes check.
func TestStopFlag(t *testing.T) {
	each(t, func(t *testing.T, e minnow) {
		const limit = 2500
		file := filepath.Join(t.TempDir(), "minnow.trace")
		r := traceEngine(t, e, file, kiwipete, "--nodes", strconv.Itoa(limit))
		if r.Status != "truncated" || r.StopCause != "nodes" || r.StreamNodes != limit || r.ReportedNodes != limit {
			t.Fatalf("run %+v: want truncated on its node limit with %d nodes in the stream and the engine's count", r, limit)
		}
		checkClean(t, file)
	})
}

// TestPerft: each example's move generator counts the legal move tree as
// Horizon's does (horizon perft), on positions with castling, en passant,
// pins and promotions; deeper for the compiled engines.
func TestPerft(t *testing.T) {
	each(t, func(t *testing.T, e minnow) {
		for _, pos := range []struct {
			fen          string
			depth, extra int // extra: the compiled engines go one deeper
		}{
			{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 3, 1},
			{kiwipete, 2, 1},
			{endgame, 3, 1},
			{promotion, 2, 1},
		} {
			depth := pos.depth
			if e.lang != "python" {
				depth += pos.extra
			}
			var want struct {
				Nodes int64 `json:"nodes"`
			}
			out := horizon(t, "perft", "--fen", pos.fen, "--depth", strconv.Itoa(depth), "--json")
			if err := json.Unmarshal([]byte(out), &want); err != nil {
				t.Fatal(err)
			}
			got := uciRun(t, e, "position fen "+pos.fen+"\nperft "+strconv.Itoa(depth)+"\nquit\n")
			if len(got) != 1 || got[0] != fmt.Sprintf("perft %d %d", depth, want.Nodes) {
				t.Errorf("%s perft %d: %q, horizon perft says %d", pos.fen, depth, got, want.Nodes)
			}
		}
	})
}
