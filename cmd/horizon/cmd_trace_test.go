package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/internal/horizonbin"
	"github.com/horizonqs/horizon/trace"
	"github.com/horizonqs/horizon/trace/tracetest"
)

func TestTraceRunsStatsHotspots(t *testing.T) {
	out, stdout := traceFile(t, "--depth", "3", "--qs", "captures,see", "--json")
	var traced []traceRunJSON
	if err := json.Unmarshal([]byte(stdout), &traced); err != nil {
		t.Fatalf("trace --json: %v\n%s", err, stdout)
	}
	if len(traced) != 2 || traced[0].Variant != "captures" || traced[1].Variant != "see" {
		t.Fatalf("trace --json: %+v", traced)
	}
	// The rows in the file are the nodes the engine counted: search the
	// same position in-process and compare.
	var searched []searchJSON
	cliJSON(t, &searched, "search", "--fen", sampleFEN, "--depth", "3", "--qs", "captures,see", "--json")
	for i, r := range traced {
		if r.Status != "complete" || r.Nodes != searched[i].Nodes || searched[i].BestMove == nil || !equalPtr(r.BestMove, searched[i].BestMove) {
			t.Errorf("run %d: %s, %d nodes, best %v; search: %d nodes, best %v", r.Run, r.Status, r.Nodes, r.BestMove,
				searched[i].Nodes, searched[i].BestMove)
		}
		if len(r.Hotspots) == 0 || len(r.Hotspots) > 5 {
			t.Errorf("run %d: %d hotspots in the summary, want 1 to 5", r.Run, len(r.Hotspots))
		}
	}

	var runs []runJSON
	cliJSON(t, &runs, "runs", out, "--json")
	if len(runs) != 2 || runs[0].Rows != traced[0].Nodes+1 || runs[1].Rows != traced[1].Nodes+1 {
		t.Fatalf("runs --json: %+v", runs)
	}

	var stats []statsJSON
	cliJSON(t, &stats, "stats", out, "--run", "2", "--json")
	if len(stats) != 1 || stats[0].Run != 2 || stats[0].Nodes != traced[1].Nodes || len(stats[0].Iterations) != 3 {
		t.Fatalf("stats --json: %+v", stats)
	}
	var sum int64
	for _, p := range stats[0].Plies {
		sum += p.Nodes
	}
	if sum != stats[0].Nodes {
		t.Errorf("plies add up to %d nodes, total %d", sum, stats[0].Nodes)
	}

	var hs []hotspotsRunJSON
	cliJSON(t, &hs, "hotspots", "--run", "1", out, "--limit", "3", "--json")
	if len(hs) != 1 || len(hs[0].Hotspots) != 3 {
		t.Fatalf("hotspots --json: %+v", hs)
	}
	for i, h := range hs[0].Hotspots {
		if len(h.PathSAN) == 0 || i > 0 && h.Size > hs[0].Hotspots[i-1].Size {
			t.Errorf("hotspot %d: %+v", i, h)
		}
	}

	// Text output names what it shows.
	for _, args := range [][]string{{"runs", out}, {"stats", out}, {"hotspots", out, "--by", "growth"}} {
		code, stdout, stderr := runCLI(t, "", args...)
		if code != 0 || !strings.Contains(stdout, "captures") || !strings.Contains(stdout, "see") {
			t.Errorf("%v: exit %d\n%s%s", args, code, stdout, stderr)
		}
	}
}

// TestHotspotsGrowthIsGrowth: a hotspot's growth is its subtree's
// branching factor (size^(1/(depth+1))) whatever ranked it; ranked by
// size, --json gave a chain top's node count as its growth (2,925 where
// --by growth gave the same node 54.08).
func TestHotspotsGrowthIsGrowth(t *testing.T) {
	out, _ := traceFile(t, "--fen", kiwipete, "--depth", "4", "--qs", "captures")
	deep := 0
	for _, by := range []string{"size", "chain", "growth"} {
		var hs []hotspotsRunJSON
		cliJSON(t, &hs, "hotspots", out, "--by", by, "--limit", "20", "--json")
		if len(hs) != 1 {
			t.Fatalf("hotspots --by %s --json: %+v", by, hs)
		}
		for _, h := range hs[0].Hotspots {
			want := math.Pow(float64(h.Size), 1/float64(max(h.Depth, 0)+1))
			if math.Abs(h.Growth-want) > 1e-9*want {
				t.Errorf("--by %s: node %d (%d nodes, depth %d): growth %v, want %v", by, h.Node, h.Size, h.Depth, h.Growth, want)
			}
			if h.Depth > 0 && by != "growth" {
				deep++
			}
		}
	}
	if deep == 0 {
		t.Error("no hotspot ranked by size or chain lies above the horizon (the test needs one)")
	}
}

// TestHotspotsMarkVisits: a hotspot under a move searched again (a PVS
// re-search) has its path marked with the visit, as diff and the viewer
// mark it ("dxe6·2"), in hotspots and trace, and JSON gives the visits as
// diff and check do. The lists printed two re-searches' hotspots and the
// first search's as one path.
func TestHotspotsMarkVisits(t *testing.T) {
	out, _ := traceFile(t, "--depth", "3", "--qs", "captures")
	var hs []hotspotsRunJSON
	cliJSON(t, &hs, "hotspots", out, "--limit", "10", "--json")
	if len(hs) != 1 || len(hs[0].Hotspots) == 0 {
		t.Fatalf("hotspots --json: %+v", hs)
	}
	code, text, stderr := runCLI(t, "", "hotspots", out, "--limit", "10")
	if code != 0 {
		t.Fatalf("hotspots: exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(text), "\n")[1:]
	seen := map[string]int64{}
	marked := 0
	for i, h := range hs[0].Hotspots {
		if len(h.Visits) != len(h.Path) || !slices.Equal(h.Path, h.PathSAN) {
			t.Errorf("node %d: path %q, visits %v, path_san %q", h.Node, h.Path, h.Visits, h.PathSAN)
			continue
		}
		place := h.Place
		if want := trace.PlaceText(h.Root(), h.Path, h.Visits, h.Searches); place != want {
			t.Errorf("node %d: place %q, want its iteration and path, %q", h.Node, place, want)
		}
		if i >= len(lines) || !strings.HasSuffix(lines[i], "  "+place) {
			t.Errorf("line %d of the text does not end with %q:\n%s", i+1, place, text)
		}
		if other, ok := seen[place]; ok {
			t.Errorf("nodes %d and %d print the same path %q", other, h.Node, place)
		}
		seen[place] = h.Node
		if slices.ContainsFunc(h.Visits, func(v int) bool { return v > 1 }) {
			marked++
			if !strings.Contains(place, trace.VisitSep) {
				t.Errorf("node %d: %q marks no visit", h.Node, place)
			}
		}
	}
	if marked == 0 {
		t.Errorf("no hotspot lies under a re-search (the test needs one):\n%s", text)
	}
}

func TestTraceNodeLimit(t *testing.T) {
	_, stdout := traceFile(t, "--depth", "20", "--qs", "captures", "--max-nodes", "3000", "--json")
	var traced []traceRunJSON
	if err := json.Unmarshal([]byte(stdout), &traced); err != nil || len(traced) != 1 {
		t.Fatalf("%v: %s", err, stdout)
	}
	if traced[0].Status != "truncated" || traced[0].Nodes < 3000 || traced[0].Nodes > 3100 {
		t.Errorf("%s with %d nodes; want truncated near 3000", traced[0].Status, traced[0].Nodes)
	}
}

func TestTraceInterrupted(t *testing.T) {
	out := filepath.Join(t.TempDir(), "t.trace")
	code, stdout, stderr := runInterrupted(out, 100*time.Millisecond, "trace", "--depth", "60", "--qs", "captures,see", "-o", out)
	if code != 1 || !strings.Contains(stderr, "interrupted") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	st, err := trace.Open(out)
	if err != nil {
		t.Fatalf("interrupted trace does not open: %v", err)
	}
	defer st.Close()
	runs, err := st.Runs(context.Background())
	if err != nil || len(runs) != 1 {
		t.Fatalf("%d runs, %v; want the one interrupted run", len(runs), err)
	}
	if runs[0].Status != trace.StatusInterrupted || runs[0].Rows != runs[0].Nodes+1 || runs[0].Nodes == 0 {
		t.Errorf("run: %s, %d rows, %d nodes", runs[0].Status, runs[0].Rows, runs[0].Nodes)
	}
	if !strings.Contains(stdout, "interrupted") {
		t.Errorf("the summary does not say interrupted:\n%s", stdout)
	}
}

func TestTraceCommandErrors(t *testing.T) {
	dir := t.TempDir()
	notTrace := writeFile(t, "notes.txt", strings.Repeat("not a trace\n", 20))
	tests := []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"trace", "--id", "x", "-o", filepath.Join(dir, "a.trace")}, 2, []string{"--id needs --epd"}},
		{[]string{"trace", "--max-nodes", "0", "-o", filepath.Join(dir, "a.trace")}, 2, []string{"--max-nodes"}},
		{[]string{"trace", "--depth", "2", "-o", notTrace}, 1, []string{notTrace, "not a Horizon trace"}},
		{[]string{"trace", "--depth", "2", "--under", "Ke3", "-o", filepath.Join(dir, "b.trace")}, 1, []string{"Ke3"}},
		{[]string{"runs"}, 2, []string{"give a trace file"}},
		{[]string{"runs", notTrace}, 1, []string{notTrace, "not a Horizon trace"}},
		{[]string{"runs", filepath.Join(dir, "missing.trace")}, 1, []string{"missing.trace"}},
		{[]string{"stats", notTrace, notTrace}, 2, []string{"one trace file"}},
		// import takes a stream, not a trace file, which it writes.
		{[]string{"import"}, 2, []string{"give a trace stream (the file HORIZON_TRACE named, or - for standard input)"}},
		{[]string{"import", notTrace, notTrace}, 2, []string{"give one trace stream (the file HORIZON_TRACE named, or - for standard input), not 2"}},
		{[]string{"hotspots", notTrace, "--by", "width"}, 2, []string{"--by"}},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, _, stderr := runCLI(t, "", tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tc.code, stderr)
			}
			if tc.code == 1 {
				checkOneLineError(t, stderr, tc.want...)
			} else {
				for _, w := range tc.want {
					if !strings.Contains(stderr, w) {
						t.Errorf("stderr %q does not say %q", stderr, w)
					}
				}
			}
		})
	}
	// A run that does not exist: every command says it in trace's words,
	// with the runs the file holds (view, diff and the rest had three
	// wordings).
	out, _ := traceFile(t, "--depth", "2", "--qs", "none")
	want := "trace " + out + ": run 9: no such run (its runs: 1 none)\n"
	for _, args := range [][]string{{"stats", out, "--run", "9"}, {"export", out, "--run", "9"}, {"check", out, "--run", "9"},
		{"diff", out, "--run", "9", "--run", "1"}, {"view", out, "--run", "9"}, {"hotspots", out, "--run", "9"}} {
		code, _, stderr := runCLI(t, "", args...)
		if code != 1 || stderr != "horizon "+args[0]+": "+want {
			t.Errorf("%v: exit %d, stderr %q; want 1 and %q", args, code, stderr, want)
		}
	}
}

// closedPipe is a standard output whose reader reads n writes and goes
// away, as '| head -1' does.
type closedPipe struct{ n int }

func (p *closedPipe) Write(b []byte) (int, error) {
	if p.n <= 0 {
		return 0, syscall.EPIPE
	}
	p.n--
	return len(b), nil
}

// Issue 17 item 14: 'horizon trace --qs none,captures,see | head -1' died
// with 141 and silently skipped the other runs. A closed output stops the
// command as Ctrl-C does: the run searched when it closed is finished (and
// marked), no run is left 'running', and stderr says what was recorded.
func TestTraceOutputClosed(t *testing.T) {
	file := filepath.Join(t.TempDir(), "p.trace")
	var errOut bytes.Buffer
	code := run(context.Background(), []string{"trace", "--fen", kiwipete, "--depth", "2", "--qs", "none,captures,see", "-o", file},
		strings.NewReader(""), &closedPipe{n: 1}, &errOut)
	if code != 130 {
		t.Errorf("exit %d, want 130 (stopped as by a signal); stderr %q", code, errOut.String())
	}
	checkOneLineError(t, errOut.String(), "broken pipe", "of 3 runs", file)
	runs := stoppedRuns(t, file)
	if len(runs) == 0 || len(runs) == 3 {
		t.Errorf("%d runs recorded, want the command stopped after the first", len(runs))
	}
	if !strings.Contains(errOut.String(), fmt.Sprintf("after %d of 3 runs", len(runs))) {
		t.Errorf("stderr %q does not count the %d runs recorded", errOut.String(), len(runs))
	}
}

// TestOutputClosedSaid: a command whose output's reader went away says so,
// not "interrupted" (no Ctrl-C came), and one that had done all its work
// when it went away stopped nothing: import read its whole stream before
// it printed, and said "interrupted; the runs so far are in ..." with
// exit 130.
func TestOutputClosedSaid(t *testing.T) {
	stream := writeFile(t, "two.hzt", "HZT 1\nposition startpos\nE - 1 -50 50\nE e2e4 0 -50 50\nL 10\nL -10\nend\n"+
		"position startpos\nE - 1 -50 50\nE d2d4 0 -50 50\nL 10\nL -10\nend\n")
	for _, tc := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"search", "--fen", kiwipete, "--depth", "6"}, 130, "horizon search: standard output closed (broken pipe)\n"},
		{[]string{"import", stream, "-o", filepath.Join(t.TempDir(), "i.trace")}, 0, ""},
	} {
		var errOut bytes.Buffer
		code := run(context.Background(), tc.args, strings.NewReader(""), &closedPipe{n: 1}, &errOut)
		if code != tc.code || errOut.String() != tc.stderr {
			t.Errorf("%s: exit %d, stderr %q; want %d, %q", tc.args[0], code, errOut.String(), tc.code, tc.stderr)
		}
	}
}

// TestTraceOutputClosedAfterAll: a reader that goes away after the last
// run finished stopped nothing: no "stopped, as Ctrl-C would" about runs
// that were complete, exit 0, every run recorded.
func TestTraceOutputClosedAfterAll(t *testing.T) {
	file := filepath.Join(t.TempDir(), "p.trace")
	var errOut bytes.Buffer
	code := run(context.Background(), []string{"trace", "--fen", kiwipete, "--depth", "2", "--qs", "captures", "-o", file},
		strings.NewReader(""), &closedPipe{n: 0}, &errOut)
	if code != 0 || errOut.Len() != 0 {
		t.Errorf("exit %d, stderr %q; want 0 and nothing said", code, errOut.String())
	}
	if runs := stoppedRuns(t, file); len(runs) != 1 || runs[0].Status != trace.StatusComplete {
		t.Errorf("runs %+v, want one complete", runs)
	}
}

// TestOutputClosedAfterAll: as trace, a command whose reader left (| head)
// after its work finished stopped nothing: exit 0, nothing on stderr
// (search said "interrupted" and exited 130).
func TestOutputClosedAfterAll(t *testing.T) {
	for _, args := range [][]string{
		{"search", "--fen", "startpos", "--depth", "1"},
		{"search", "--fen", "startpos", "--depth", "2", "--json"},
		{"compare", "--fen", "startpos", "--depth", "1"},
		{"perft", "--fen", "startpos", "--depth", "2", "--divide"},
	} {
		var errOut bytes.Buffer
		if code := run(context.Background(), args, strings.NewReader(""), &closedPipe{n: 1}, &errOut); code != 0 || errOut.Len() != 0 {
			t.Errorf("%v: exit %d, stderr %q; want 0 and nothing said", args, code, errOut.String())
		}
	}
}

// Issue 17 item 13: Ctrl-C during a query printed "context canceled".
func TestInterruptedSaysSo(t *testing.T) {
	file, _ := traceFile(t, "--fen", kiwipete, "--depth", "2", "--qs", "captures")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	stopped := 0
	defer func() {
		if stopped == 0 {
			t.Error("no command looked at the cancelled context: the test tests nothing")
		}
	}()
	for _, args := range [][]string{{"stats", file}, {"check", file}, {"export", file, "-o", filepath.Join(t.TempDir(), "x.dot")}, {"hotspots", file}} {
		var out, errOut bytes.Buffer
		code := run(ctx, args, strings.NewReader(""), &out, &errOut)
		if code == 0 {
			continue // finished before it looked at the context
		}
		stopped++
		if strings.Contains(errOut.String(), "context canceled") {
			t.Errorf("horizon %s: %q", args[0], errOut.String())
		}
		if code != 130 {
			t.Errorf("horizon %s: exit %d after Ctrl-C, want 130 (stderr %q)", args[0], code, errOut.String())
		}
	}
}

// Issue 17 item 15: a bad 100 KB FEN made a 100 KB stderr line.
func TestHugeBadFENQuotedInPart(t *testing.T) {
	fen := "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 " + strings.Repeat("7x", 50_000)
	code, _, errOut := runCLI(t, "", "search", "--fen", fen, "--depth", "1")
	if code == 0 {
		t.Fatal("a bad FEN was accepted")
	}
	checkOneLineError(t, errOut, "fullmove")
	if len(errOut) > 1100 {
		t.Errorf("stderr line of %d bytes for a 100 KB FEN", len(errOut))
	}
}

// TestTraceHeadBinary runs the built command under '| head -1' for real: Go
// kills a program that writes to a closed stdout unless SIGPIPE is
// received, which the in-process test above cannot see.
func TestTraceHeadBinary(t *testing.T) {
	file := filepath.Join(t.TempDir(), "h.trace")
	cmd := exec.Command(horizonbin.Path(t), "trace", "--fen", kiwipete, "--depth", "3", "--qs", "none,captures,see", "-o", file)
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	first, _ := bufio.NewReader(out).ReadString('\n')
	out.Close() // what head does after its line
	err = cmd.Wait()
	code := cmd.ProcessState.ExitCode()
	if !strings.HasPrefix(first, "run 1") {
		t.Errorf("first line %q", first)
	}
	if code != 130 && code != 0 {
		t.Fatalf("exit %d (%v), want 130 (stopped as by a signal) or 0 (done before the pipe closed); stderr %q", code, err, errOut.String())
	}
	if code == 130 {
		checkOneLineError(t, errOut.String(), "broken pipe", "of 3 runs", file)
	}
	stoppedRuns(t, file)
}

// TestTraceMaxSize: --max-size stops a run once the file reaches the size,
// marked truncated, like --max-nodes.
func TestTraceMaxSize(t *testing.T) {
	_, stdout := traceFile(t, "--depth", "7", "--qs", "captures", "--max-size", "1MB", "--json")
	var runs []traceRunJSON
	if err := json.Unmarshal([]byte(stdout), &runs); err != nil || len(runs) != 1 {
		t.Fatalf("%v: %s", err, stdout)
	}
	if runs[0].Status != "truncated" {
		t.Errorf("status %s, want truncated", runs[0].Status)
	}
	// A cap below trace.MinMaxBytes cannot be held (64KiB made a file of
	// 1.3 MB): refused, naming the minimum.
	for _, bad := range []string{"2XB", "abc", "-5MB", "10", "64KiB", "319KiB"} {
		code, _, stderr := runCLI(t, "", "trace", "--max-size", bad, "-o", filepath.Join(t.TempDir(), "x.trace"))
		if code != 2 || !strings.Contains(stderr, "--max-size") || strings.HasSuffix(bad, "KiB") && !strings.Contains(stderr, "at least 320KiB") {
			t.Errorf("--max-size %s: exit %d, %q", bad, code, stderr)
		}
	}
}

// TestTraceMaxSizeFull: under --max-size, a run the file has no room for is
// refused before it writes anything: trace keeps the runs it recorded,
// prints them, says so in one line and exits 1, and the file stays within
// the cap. Each run appended to a file near its cap added 257 rows past it.
func TestTraceMaxSizeFull(t *testing.T) {
	file := filepath.Join(t.TempDir(), "t.trace")
	const maxSize = 400_000
	args := []string{"trace", "--fen", "startpos", "--depth", "8", "--qs", "captures,see", "--max-size", "400KB", "--json", "-o", file}
	var sizes []int64
	for i := 0; i < 2; i++ {
		code, stdout, stderr := runCLI(t, "", args...)
		if code != 1 {
			t.Fatalf("exit %d, want 1: %s", code, stderr)
		}
		checkOneLineError(t, stderr, file+": ", "of --max-size 400,000 bytes used", "no room for another run")
		var runs []traceRunJSON
		if err := json.Unmarshal([]byte(stdout), &runs); err != nil || runs == nil {
			t.Fatalf("%v: %s (no run is [], not null)", err, stdout)
		}
		// The first invocation records the first variant, stopped by the
		// cap; the second one nothing.
		if want := 1 - i; len(runs) != want || want == 1 && (runs[0].Status != "truncated" || cell(runs[0].StopCause) != "size") {
			t.Fatalf("invocation %d printed %s; want %d run(s), truncated by the size cap", i+1, stdout, want)
		}
		if want := fmt.Sprintf("; %d of 2 runs recorded", 1-i); !strings.Contains(stderr, want) {
			t.Errorf("stderr %q does not say %q", stderr, want)
		}
		fi, err := os.Stat(file)
		if err != nil {
			t.Fatal(err)
		}
		if sizes = append(sizes, fi.Size()); fi.Size() > maxSize || i > 0 && fi.Size() != sizes[0] {
			t.Errorf("file sizes %v bytes; want at most %d, unchanged by the refused run", sizes, maxSize)
		}
	}
	if runs := stoppedRuns(t, file); len(runs) != 1 {
		t.Errorf("the file holds %d runs, want 1", len(runs))
	}
	// The text offers nothing to browse: it said "wrote 0 run(s) to
	// t.trace; browse with: horizon view t.trace".
	if _, stdout, _ := runCLI(t, "", slices.DeleteFunc(args, func(a string) bool { return a == "--json" })...); stdout != "wrote no run to "+file+"\n" {
		t.Errorf("text %q, want only that no run was written", stdout)
	}
}

// TestTraceSaysAppendedRuns: runs recorded into a file that held some
// are named by the ids they got, as a second 'trace -o kiwi.trace' of the
// README's tour makes runs 3 and 4 and --run 1 still reads the first
// one; the last line said only "wrote 2 runs to kiwi.trace".
func TestTraceSaysAppendedRuns(t *testing.T) {
	for _, c := range []struct {
		ids  []int64
		want string
	}{
		{nil, "wrote no run to t.trace\n"},
		{[]int64{1, 2}, "wrote 2 runs to t.trace; browse with: horizon view t.trace\n"},
		{[]int64{3, 4}, "wrote 2 runs to t.trace as runs 3-4, after its earlier runs; browse with: horizon view t.trace\n"},
		{[]int64{5}, "wrote 1 run to t.trace as run 5, after its earlier runs; browse with: horizon view t.trace\n"},
	} {
		res := traceResult{file: "t.trace"}
		for _, id := range c.ids {
			res.runs = append(res.runs, traceRunJSON{Run: id})
		}
		var b strings.Builder
		if err := res.writeText(&b); err != nil || b.String() != c.want {
			t.Errorf("runs %v: %q (%v), want %q", c.ids, b.String(), err, c.want)
		}
	}
}

func TestParseSize(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
	}{{"2GB", 2e9}, {"500 MB", 500e6}, {"1.5GiB", 3 << 29}, {"320k", 320 << 10}, {"1g", 1 << 30}, {"400kB", 4e5}} {
		if got, err := parseSize(c.in); err != nil || got != c.want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
	// A size too large said it was too small.
	for in, want := range map[string]string{"2000000TB": "want at most 1EiB", "1k": "want at least", "x": "want a size"} {
		if _, err := parseSize(in); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("parseSize(%q): error %v, want %q", in, err, want)
		}
	}
}

// FuzzParseSize: --max-size takes a size within its bounds or says, on one
// line, why not; a unit reads the same in any case and with spaces about
// it; and a size Horizon prints (formatBytes, as import's progress and
// --help give it) reads back as that size, to the digits printed.
func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"2GB", "500 MB", "1.5GiB", "320k", "2000000TB", "1k", "x", ".", "1..5mb", "0.00001TiB"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := parseSize(s)
		switch {
		case err != nil && strings.Contains(err.Error(), "\n"):
			t.Fatalf("%q: error on more than one line: %v", s, err)
		case err == nil && (n < trace.MinMaxBytes || n > 1<<60):
			t.Fatalf("%q read as %d bytes, outside %d to 2^60", s, n, trace.MinMaxBytes)
		}
		// Unicode case mapping can make a unit of what was none (the
		// Kelvin sign lowers to k); ASCII cannot.
		for i := range len(s) {
			if s[i] >= 0x80 {
				return
			}
		}
		for _, v := range []string{strings.ToUpper(s), strings.ToLower(s), " " + s + " "} {
			if m, err2 := parseSize(v); m != n || (err == nil) != (err2 == nil) {
				t.Fatalf("%q reads as %d (%v), %q as %d (%v)", s, n, err, v, m, err2)
			}
		}
		if err != nil {
			return
		}
		text := formatBytes(n)
		back, err := parseSize(text)
		if err != nil {
			return // rounded below the least size
		}
		// Half a unit of the last digit formatBytes prints.
		slack := map[int64]int64{1e9: 5e6, 1e6: 5e4, 1e3: 500}
		var tol int64
		for unit, d := range slack {
			if n >= unit && d > tol {
				tol = d
			}
		}
		if back < n-tol || back > n+tol {
			t.Fatalf("%q is %d bytes, printed %q, which reads as %d", s, n, text, back)
		}
	})
}

// stoppedRuns returns the runs of a trace whose recording was stopped,
// checking that none was left marked running.
func stoppedRuns(t *testing.T, file string) []trace.Run {
	t.Helper()
	runs := tracetest.Runs(t, file)
	for _, r := range runs {
		if r.Status == trace.StatusRunning {
			t.Errorf("run %d left running", r.ID)
		}
	}
	return runs
}

// TestTraceQSOnlyScore: a QS-only run has depth 0 (no iteration) yet a
// finished score; the summary, runs and runs --json must show it.
func TestTraceQSOnlyScore(t *testing.T) {
	tr, summary := traceFile(t, "--fen", "3r3k/5P1p/pp1rn3/2pp4/7Q/6R1/Pq4PP/5R1K w - - 0 2", "--qs-only", "--qs", "threshold")
	var runs []runJSON
	out := cliJSON(t, &runs, "runs", tr, "--json")
	if len(runs) != 1 || runs[0].Score == nil || runs[0].Depth != 0 {
		t.Fatalf("runs --json: %s", out)
	}
	if want := "score " + engine.Score(*runs[0].Score).Signed(); !strings.Contains(summary, want) {
		t.Errorf("summary hides the QS score (%s):\n%s", want, summary)
	}
	code, text, _ := runCLI(t, "", "runs", tr)
	if want := engine.Score(*runs[0].Score).Signed(); code != 0 || !strings.Contains(text, want) {
		t.Errorf("runs: no score %s:\n%s", want, text)
	}
}

// TestNodesArePositions: every command counts nodes as engines do, the
// positions the search visited, never the run node Horizon adds above the
// iterations: an all-QS search is 100% QS (it said "nodes searched 32, QS
// nodes 31 (96.9%)"), and search, trace and the trace's rows agree on one
// search (UCI said "info nodes 3706" for 3,705 positions).
func TestNodesArePositions(t *testing.T) {
	type run struct {
		Nodes   int64   `json:"nodes"`
		QSNodes int64   `json:"qs_nodes"`
		QSShare float64 `json:"qs_share"`
		Rows    int64   `json:"rows"`
	}
	var qs []run
	cliJSON(t, &qs, "trace", "--qs-only", "--json", "-o", filepath.Join(t.TempDir(), "q.trace"))
	for _, r := range qs {
		if r.Nodes != r.QSNodes || r.QSShare != 1 || r.Rows != r.Nodes+1 {
			t.Errorf("QS-only run: %+v; want every node a QS node, and one more row (the run node)", r)
		}
	}
	var searched struct {
		Nodes int64 `json:"nodes"`
	}
	cliJSON(t, &searched, "search", "--fen", "startpos", "--depth", "3", "--qs", "see", "--json")
	var traced []run
	cliJSON(t, &traced, "trace", "--fen", "startpos", "--depth", "3", "--qs", "see", "--json", "-o", filepath.Join(t.TempDir(), "s.trace"))
	if len(traced) != 1 || traced[0].Nodes != searched.Nodes || traced[0].Rows != searched.Nodes+1 {
		t.Errorf("search counts %d nodes, trace %+v; want the same nodes and one more row", searched.Nodes, traced)
	}
}

// TestTraceStopCause: trace --json says what stopped a run it recorded, as
// search and compare do (it had no stop_cause): the search's node limit,
// the recorder's node cap, the file size cap; none for a complete run. The
// file keeps it: runs (text and --json), stats, diff's run header and
// check (text and --json) say it where they say the status (they said only
// the status; check --json, neither).
func TestTraceStopCause(t *testing.T) {
	dir := t.TempDir()
	for i, c := range []struct {
		flags         []string
		status, cause string
	}{
		{[]string{"--depth", "2"}, "complete", ""},
		{[]string{"--depth", "8", "--nodes", "3000"}, "truncated", "nodes"},
		{[]string{"--depth", "8", "--max-nodes", "2000"}, "truncated", "nodes"},
		// One variant: a second run would find no room left under the cap
		// (TestTraceMaxSizeFull).
		{[]string{"--depth", "8", "--qs", "captures", "--max-size", "400KB"}, "truncated", "size"},
	} {
		file := filepath.Join(dir, fmt.Sprint(i, ".trace"))
		args := append([]string{"trace", "--fen", "startpos", "--json", "-o", file}, c.flags...)
		var runs []map[string]any
		cliJSON(t, &runs, args...)
		for _, r := range runs {
			if cause, _ := r["stop_cause"].(string); r["status"] != c.status || cause != c.cause {
				t.Errorf("%v: run %v: status %v, stop_cause %q; want %s, %q", c.flags, r["run"], r["status"], cause, c.status, c.cause)
			}
		}
		var want any // --json: null when none
		status, stop := c.status, "-"
		if c.cause != "" {
			want, status, stop = c.cause, c.status+" (stop cause: "+c.cause+")", c.cause
		}
		var stored []map[string]any
		cliJSON(t, &stored, "runs", file, "--json")
		cliJSON(t, &runs, "stats", file, "--json")
		var checked []map[string]any
		cliJSON(t, &checked, "check", file, "--json")
		for _, r := range append(append(stored, runs...), checked...) {
			if cause, ok := r["stop_cause"]; !ok || cause != want {
				t.Errorf("%v: stored run: stop_cause %v (present %v); want %v", c.flags, cause, ok, want)
			}
		}
		_, text, _ := runCLI(t, "", "runs", file)
		if lines := strings.Split(text, "\n"); len(lines) < 2 || strings.Join(strings.Fields(lines[0])[2:4], " ") != "status stop" ||
			strings.Join(strings.Fields(lines[1])[2:4], " ") != c.status+" "+stop {
			t.Errorf("%v: runs says\n%s\nwant status %s and stop %s", c.flags, text, c.status, stop)
		}
		for _, cmd := range [][]string{{"stats", file}, {"diff", file, "--run", "1", "--run", "1"}} {
			if _, text, _ := runCLI(t, "", cmd...); !strings.Contains(text, ", "+status+"\n") && !strings.Contains(text, "  "+status+"\n") {
				t.Errorf("%v: %s says\n%s\nwant the status %q", c.flags, cmd[0], text, status)
			}
		}
		// check's run lines said only the status.
		if _, text, _ := runCLI(t, "", "check", file); !strings.Contains(text, ", "+status+", depth ") {
			t.Errorf("%v: check says\n%s\nwant the status %q", c.flags, text, status)
		}
	}
}

// TestNodesPerSecondNeedsTime: a search timed at 0 or 1 ms has no rate to
// speak of, and its time reads as engine.Elapsed prints it ("4ms", where
// it read "0.00s"). 'trace' printed "0.00s (0 nodes/s)" and "0.00s (3,320,000
// nodes/s)", --json nps 0; now "-" and null under engine.MinRateElapsed.
// perft's texts, and --bench's rows, by the same rule (they gave 62.3
// Mnps at 0 ms); TestOneRateRule runs the commands.
func TestNodesPerSecondNeedsTime(t *testing.T) {
	for _, tc := range []struct {
		elapsed  time.Duration
		text     string
		jsonText string
		mnps     string // perft's text, 3320 nodes
	}{
		{0, "0ms (- nodes/s)", `"nps":null`, "-"},
		{time.Millisecond, "1ms (- nodes/s)", `"nps":null`, "-"},
		{4 * time.Millisecond, "4ms (- nodes/s)", `"nps":null`, "-"}, // was "0.00s"
		{engine.MinRateElapsed - 1, "9ms (- nodes/s)", `"nps":null`, "-"},
		{engine.MinRateElapsed, "10ms (332,000 nodes/s)", `"nps":332000`, "0.3"},
		{2 * time.Second, "2.00s (1,660 nodes/s)", `"nps":1660`, "0.0"},
		// Unknown (another engine's stream gave no time): not 0.00s.
		{-1, "time unknown (the stream gave none, or 0 ms, which a trace stores as none)", `"elapsed_ms":null,"nps":null`, ""},
	} {
		if tc.elapsed >= 0 {
			checkPerftRate(t, 3320, tc.elapsed, tc.mnps)
		}
		r := traceRunJSON{RunFacts: trace.RunFacts{Nodes: 3320}}
		if tc.elapsed >= 0 {
			ms := tc.elapsed.Milliseconds()
			r.ElapsedMS, r.NodesPerS = &ms, nps(3320, tc.elapsed)
		}
		var b bytes.Buffer
		if err := r.writeText(&b); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), tc.text) {
			t.Errorf("%v: text says\n%s\nwant %q", tc.elapsed, b.String(), tc.text)
		}
		j, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(j), tc.jsonText) {
			t.Errorf("%v: JSON %s, want %s", tc.elapsed, j, tc.jsonText)
		}
	}
}

// checkPerftRate checks perft's texts of nodes counted in elapsed: --fen's
// and --epd's closing lines, and a --bench row, Horizon's and Stockfish's
// rates (Stockfish timed as Horizon; a time of 0 is none run, and leaves
// its columns out).
func checkPerftRate(t *testing.T, nodes uint64, elapsed time.Duration, mnps string) {
	t.Helper()
	var b strings.Builder
	timed := timedPerft(nodes, elapsed)
	perftJSON{perftTimed: timed}.writeText(&b)
	perftCheckJSON{Positions: 1, perftTimed: timed}.writeText(&b)
	if want := "(" + mnps + " Mnps)"; strings.Count(b.String(), want) != 2 {
		t.Errorf("%v: perft says\n%s\nwant %q twice", elapsed, b.String(), want)
	}
	row := perftBenchRow{Name: "startpos", Depth: 1, Nodes: nodes, Mnps: perftMnps(nodes, elapsed), elapsed: elapsed, ratioWidth: 8}
	row.withStockfish(elapsed)
	b.Reset()
	row.writeText(&b)
	f := strings.Fields(b.String())
	rates := []string{f[4]}
	if elapsed > 0 && len(f) == 8 {
		rates = append(rates, f[6])
	}
	if (row.Mnps == nil) != (mnps == "-") || (row.NPSRatio == nil) != (mnps == "-") ||
		slices.ContainsFunc(rates, func(r string) bool { return r != mnps }) || len(f) != map[bool]int{true: 8, false: 5}[elapsed > 0] {
		t.Errorf("%v: perft --bench row %q, mnps %v, ratio %v", elapsed, b.String(), row.Mnps, npsRatioText(row.NPSRatio))
	}
}
