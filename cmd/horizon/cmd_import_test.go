package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/internal/fifo"
	"github.com/horizonqs/horizon/trace"
)

// TestImportErrors: a bad stream is one line on stderr naming the record's
// offset and the node's path, exit 1, and the runs before it are kept.
func TestImportErrors(t *testing.T) {
	good := "HZT 1\nengine Tiny\nposition startpos\nE - 1 -50 50\nE e2e4 0 -50 50\nL 10\nL -10\nend nodes=2\n"
	tests := []struct {
		name, stream string
		code         int
		want         []string
		runs         string
	}{
		{"good", good, 0, nil, "wrote 1 run to"},
		{"illegal", good + "position startpos\nE - 1 -50 50\nE e2e5 0 -50 50\n", 1,
			[]string{"byte 119 (line 11)", "node 1 (path (root))", "illegal move e2e5", "kept in", "nothing after it was read"}, "wrote 2 runs to"},
		{"cut short", good + "position startpos\nE - 1 -50 50\nE e2e4 0 -50 50\n", 1,
			[]string{"ends with 2 nodes open", "path e2e4"}, "wrote 2 runs to"},
		// No run recorded: an error, no "wrote" line and no file left.
		{"not a stream", "hello\n", 1, []string{"not a Horizon trace stream"}, ""},
		{"garbage", "garbage", 1, []string{`the first record is "garbage"`}, ""},
		{"empty", "", 1, []string{"empty stream"}, ""},
		{"newer version", "HZT 5\n", 1, []string{"protocol version 5, this Horizon reads up to 4"}, ""},
		{"no search", "HZT 1\nengine Tiny\nposition startpos\n", 1, []string{"holds no search"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := writeFile(t, "s.hzt", tc.stream)
			out := filepath.Join(t.TempDir(), "t.trace")
			code, stdout, stderr := runCLI(t, "", "import", in, "-o", out)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr %s", code, tc.code, stderr)
			}
			if tc.code != 0 {
				checkOneLineError(t, stderr, tc.want...)
			}
			if tc.runs == "" {
				if stdout != "" || fileExists(out) {
					t.Errorf("nothing recorded: stdout %q, file left: %v", stdout, fileExists(out))
				}
				// A file the user already has is kept as it was.
				old := writeFile(t, "old.trace", "")
				good := writeFile(t, "good.hzt", good)
				if code, _, stderr := runCLI(t, "", "import", good, "-o", old); code != 0 {
					t.Fatal(stderr)
				}
				before, _ := os.ReadFile(old)
				if code, _, _ := runCLI(t, "", "import", in, "-o", old); code != 1 {
					t.Errorf("into an existing file: exit %d", code)
				}
				if after, err := os.ReadFile(old); err != nil || !bytes.Equal(before, after) {
					t.Errorf("the existing file changed or went: %v", err)
				}
				return
			}
			if !strings.Contains(stdout, tc.runs) {
				t.Errorf("stdout %q, want %q", stdout, tc.runs)
			}
		})
	}
	if code, _, stderr := runCLI(t, "", "import"); code != 2 || !strings.Contains(stderr, "import") {
		t.Errorf("no STREAM: exit %d, %s", code, stderr)
	}
	// Stdin, and a check of what was imported.
	out := filepath.Join(t.TempDir(), "t.trace")
	if code, _, stderr := runCLI(t, good, "import", "-", "-o", out); code != 0 {
		t.Fatal(stderr)
	}
	if code, stdout, stderr := runCLI(t, "", "check", out); code != 0 || !strings.Contains(stdout, "no violations") {
		t.Fatalf("check: %d %s %s", code, stdout, stderr)
	}
}

// TestTraceEngineErrors: --engine with flags of Horizon's own engine, or a
// command that does not start, is an error before any file is written.
func TestTraceEngineErrors(t *testing.T) {
	out := filepath.Join(t.TempDir(), "t.trace")
	if code, _, stderr := runCLI(t, "", "trace", "--engine", "/bin/true", "--qs", "see", "-o", out); code != 2 ||
		!strings.Contains(stderr, "--qs applies to Horizon's own engine") {
		t.Errorf("--qs with --engine: exit %d, %s", code, stderr)
	}
	// --max-size was ignored with --engine, the file free to outgrow it.
	if code, _, stderr := runCLI(t, "", "trace", "--engine", "/bin/true", "--max-size", "1MB", "-o", out); code != 2 ||
		!strings.Contains(stderr, "--max-size is not supported with --engine") {
		t.Errorf("--max-size with --engine: exit %d, %s", code, stderr)
	}
	code, _, stderr := runCLI(t, "", "trace", "--engine", "/nonexistent/engine", "--depth", "3", "-o", out)
	if code != 1 {
		t.Errorf("missing engine: exit %d, %s", code, stderr)
	}
	checkOneLineError(t, stderr, "/nonexistent/engine")
	// An empty command line is a usage error naming the flag, not a run of
	// Horizon's own searches.
	for _, cmdLine := range []string{"", "  "} {
		code, stdout, stderr := runCLI(t, "", "trace", "--engine", cmdLine, "--depth", "1", "-o", out)
		if code != 2 || stdout != "" || !strings.Contains(stderr, "--engine") {
			t.Errorf("--engine %q: exit %d, stdout %q, stderr %q", cmdLine, code, stdout, stderr)
		}
		if fileExists(out) {
			t.Errorf("--engine %q wrote %s", cmdLine, out)
		}
	}
}

// TestTraceEngineNoStream: an engine that writes no stream records nothing:
// an error saying so, exit 1, and no empty trace left behind.
func TestTraceEngineNoStream(t *testing.T) {
	sf, err := exec.LookPath("stockfish")
	if err != nil {
		t.Skip("stockfish not installed (PATH=$PATH:/usr/games)")
	}
	out := filepath.Join(t.TempDir(), "t.trace")
	code, stdout, stderr := runCLI(t, "", "trace", "--engine", sf, "--fen", "startpos", "--depth", "2", "-o", out)
	if code != 1 || strings.Contains(stdout, "wrote") || fileExists(out) {
		t.Fatalf("exit %d, stdout %q, file left %v", code, stdout, fileExists(out))
	}
	checkOneLineError(t, stderr, "wrote no trace", "HORIZON_TRACE")
}

// shEngine writes a UCI engine in sh named name and returns its path:
// prelude runs first; it answers uci and isready and exits on quit; each
// of arms is a case arm of its own ("go) echo \"bestmove e2e4\" ;;"),
// matched before those.
func shEngine(t *testing.T, name, prelude string, arms ...string) string {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	script := "#!/bin/sh\n" + prelude + "\nwhile read -r cmd rest; do\n\tcase \"$cmd\" in\n"
	for _, a := range arms {
		script += "\t" + a + "\n"
	}
	script += "\tuci) echo \"id name " + name + "\"; echo uciok ;;\n\tisready) echo readyok ;;\n\tquit) exit 0 ;;\n\tesac\ndone\n"
	eng := writeFile(t, name+".sh", script)
	if err := os.Chmod(eng, 0o755); err != nil {
		t.Fatal(err)
	}
	return eng
}

// thinkingEngine writes a UCI engine in sh named name that writes a trace
// stream on fd 3: its search enters two nodes and waits for stop, on which
// it runs onStop; it returns the engine's path.
func thinkingEngine(t *testing.T, name, onStop string) string {
	t.Helper()
	return shEngine(t, name, `printf 'HZT 1\nengine `+name+`\n' >&3`,
		`go) printf 'position startpos\nE - 1 -50 50\nE e2e4 0 -50 50\n' >&3; echo "info depth 1 nodes 2" ;;`,
		"stop) "+onStop+" ;;")
}

// TestTraceEngineInterrupted: Ctrl-C during trace --engine is an
// interruption: the engine answers Horizon's stop with an abort record and a
// clean end, yet the run is interrupted (not truncated, the engine's own
// limit) and the command fails as interrupted (exit 130), not exit 0.
func TestTraceEngineInterrupted(t *testing.T) {
	// It unwinds on stop (an abort record), as Ethereal does when
	// Horizon stops it on Ctrl-C.
	eng := thinkingEngine(t, "Stoppable", `printf 'A\nend nodes=2\n' >&3; echo "bestmove e2e4"`)
	out := filepath.Join(t.TempDir(), "t.trace")
	code, _, stderr := runInterrupted(out, 0, "trace", "--engine", eng, "--fen", "startpos", "--depth", "30", "-o", out)
	if code == 0 || !strings.Contains(stderr, "interrupted") {
		t.Errorf("exit %d, stderr %q; want the interruption said, exit 130", code, stderr)
	}
	if runs := stoppedRuns(t, out); len(runs) != 1 || runs[0].Status != trace.StatusInterrupted {
		t.Fatalf("runs %+v; want one interrupted run", runs)
	}
}

// TestImportNodeCounts: the summary says exactly what each count counts:
// the engine's 2 nodes, as many in its stream, and 2 nodes searched (the
// run node Horizon adds is no position). It once said the stream "holds as
// many" beside "nodes searched 3".
func TestImportNodeCounts(t *testing.T) {
	in := writeFile(t, "s.hzt", "HZT 1\nengine Tiny\nposition startpos\nE - 1 -50 50\nE e2e4 0 -50 50\nL 10\nL -10\nend nodes=2\n")
	code, stdout, stderr := runCLI(t, "", "import", in, "-o", filepath.Join(t.TempDir(), "t.trace"))
	if code != 0 {
		t.Fatal(stderr)
	}
	for _, want := range []string{"nodes searched 2 ", "Tiny counted 2 nodes itself (its end record), as many as its stream holds\n"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("no %q in\n%s", want, stdout)
		}
	}
	// --json names the two counts for what they count (engine_nodes held
	// the stream's count beside reported_nodes, the engine's), and --help
	// says what each means. An engine that counts 5 tells them apart.
	in = writeFile(t, "s5.hzt", "HZT 1\nengine Tiny\nposition startpos\nE - 1 -50 50\nE e2e4 0 -50 50\nL 10\nL -10\nend nodes=5\n")
	// The text notes the difference on stderr, prefixed as import's
	// errors are (it read "horizon: run 1: ...").
	if _, _, stderr := runCLI(t, "", "import", in, "-o", filepath.Join(t.TempDir(), "t5text.trace")); stderr != "horizon import: run 1: the engine counted 5 nodes (its end record), its stream holds 2\n" {
		t.Errorf("import's note: %q", stderr)
	}
	var runs []map[string]any
	js := cliJSON(t, &runs, "import", in, "-o", filepath.Join(t.TempDir(), "t5.trace"), "--json")
	if len(runs) != 1 || runs[0]["stream_nodes"] != 2.0 || runs[0]["reported_nodes"] != 5.0 || runs[0]["reported_nodes_from"] != "end_record" || runs[0]["nodes"] != 2.0 || runs[0]["engine_nodes"] != nil {
		t.Errorf("import --json: %s", js)
	}
	// An MTD run's score is its last fail-high probe's, a lower bound:
	// the summary and --json say so.
	in = writeFile(t, "mtd.hzt", "HZT 1\nengine Sunfish\nposition startpos\nE - 1 29 30 i=1\nE e2e4 0 -30 -29\nS -40\nL -40\nL 40\n"+
		"E - 2 39 40 i=2\nE d2d4 1 -40 -39\nL -50\nL 50\nend best=e2e4\n")
	mtd := filepath.Join(t.TempDir(), "mtd.trace")
	if code, stdout, stderr := runCLI(t, "", "import", in, "-o", mtd); code != 0 || !strings.Contains(stdout, "score +40 (lower bound)") {
		t.Errorf("import of an MTD run: exit %d, %s\n%s", code, stderr, stdout)
	}
	var mtdRuns []map[string]any
	js = cliJSON(t, &mtdRuns, "import", in, "-o", filepath.Join(t.TempDir(), "mtd2.trace"), "--json")
	if len(mtdRuns) != 1 || mtdRuns[0]["score"] != 40.0 || mtdRuns[0]["score_bound"] != "lower" {
		t.Errorf("import --json of an MTD run: %s", js)
	}
	// runs says it too: the same score, the same bound, in both forms.
	if code, stdout, stderr := runCLI(t, "", "runs", mtd); code != 0 || !strings.Contains(stdout, "+40 (lower bound)") {
		t.Errorf("runs of an MTD run: exit %d, %s\n%s", code, stderr, stdout)
	}
	js = cliJSON(t, &mtdRuns, "runs", mtd, "--json")
	if len(mtdRuns) != 1 || mtdRuns[0]["score"] != 40.0 || mtdRuns[0]["score_bound"] != "lower" {
		t.Errorf("runs --json of an MTD run: %s", js)
	}
	help := helpOf(t, "import")
	for _, want := range []string{"stream_nodes is the nodes the stream holds", "reported_nodes the engine's own count"} {
		if !helpSays(help, want) {
			t.Errorf("import --help does not say %q", want)
		}
	}
}

// TestExportReportedIteration: export's default top node is the root of
// the iteration the run reports (depth 1 here), not a deeper iteration
// the engine began and never finished (node 3).
func TestExportReportedIteration(t *testing.T) {
	in := writeFile(t, "s.hzt", "HZT 1\nengine Tiny\nposition startpos\nE - 1 -50 50\nE e2e4 0 -50 50\nL 10\nL -10\nE - 2 -50 50\nE d2d4 1 -50 50\nend nodes=4\n")
	dir := t.TempDir()
	tr := filepath.Join(dir, "t.trace")
	if code, _, stderr := runCLI(t, "", "import", in, "-o", tr); code != 1 || !strings.Contains(stderr, "kept in") {
		t.Fatalf("import: exit %d, %s", code, stderr)
	}
	out := filepath.Join(dir, "t.dot")
	code, _, stderr := runCLI(t, "", "export", tr, "--format", "dot", "-o", out)
	if code != 0 {
		t.Fatalf("export: exit %d, %s", code, stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if first, _, _ := strings.Cut(string(b), "\n"); first != "// horizon export: run 1, node 1" {
		t.Errorf("export starts at %q, want iteration 1's root (node 1)", first)
	}
}

// TestReadFIFO: a FIFO given as input (import's stream, the --epd of
// search and qsbench) is read when its writer comes, and Ctrl-C ends the
// wait for one: the open of a FIFO with no writer blocked, and Ctrl-C did
// not end it (mkfifo ff; horizon import ff & kill -INT).
func TestReadFIFO(t *testing.T) {
	for _, tc := range []struct {
		name    string
		args    func(ff, out string) []string
		content string // what the writer sends
		want    string // in stdout, when it came
	}{
		{"import", func(ff, out string) []string { return []string{"import", ff, "-o", out} },
			"HZT 1\nengine Late\nposition startpos\nE - 1 -50 50\nE e2e4 0 -50 50\nL 10\nL -10\nend nodes=2\n", "Late"},
		{"search --epd", func(ff, _ string) []string { return []string{"search", "--epd", ff, "--depth", "1", "--qs", "none"} },
			"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id \"late\";\n", "bestmove"},
		{"qsbench --epd", func(ff, _ string) []string {
			return []string{"qsbench", "--epd", ff, "--qs", "see", "--second", "none", "--jobs", "1"}
		}, qsbenchRecord + "\n", "1 of 1 positions"},
	} {
		for _, writer := range []bool{false, true} {
			ff := filepath.Join(t.TempDir(), "ff")
			if err := syscall.Mkfifo(ff, 0o600); err != nil {
				t.Skipf("no FIFOs here: %v", err)
			}
			out := filepath.Join(t.TempDir(), "t.trace")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			type result struct {
				code   int
				stdout string
				stderr string
			}
			done := make(chan result, 1)
			go func() {
				code, stdout, stderr := runCLIContext(ctx, "", tc.args(ff, out)...)
				done <- result{code, stdout, stderr}
			}()
			time.Sleep(100 * time.Millisecond) // let the command wait
			if writer {
				wctx, wcancel := context.WithTimeout(ctx, 20*time.Second)
				defer wcancel()
				w, err := fifo.Open(wctx, ff, os.O_WRONLY)
				if err != nil {
					t.Fatal(err)
				}
				w.WriteString(tc.content)
				w.Close()
			} else {
				cancel()
			}
			var r result
			select {
			case r = <-done:
			case <-time.After(20 * time.Second):
				// Unblock an open that waits for a writer, so the test ends.
				if w, err := os.OpenFile(ff, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
					w.Close()
				}
				t.Fatalf("%s, writer %v: still runs 20s later", tc.name, writer)
			}
			switch {
			case writer && (r.code != 0 || !strings.Contains(r.stdout, tc.want)):
				t.Errorf("%s of a FIFO with a writer: exit %d, stdout %q, stderr %q; want %q", tc.name, r.code, r.stdout, r.stderr, tc.want)
			case !writer && (r.code != 130 || !strings.Contains(r.stderr, "interrupted")):
				t.Errorf("%s of a FIFO with no writer, Ctrl-C: exit %d, stderr %q; want 130, interrupted", tc.name, r.code, r.stderr)
			}
		}
	}
}

// TestImportTimeUnknown: a stream imported from a file whose end record
// gives no time has no time, nor nodes per second: import printed the
// time the import took as the search's ("0.03s (2,400 nodes/s)").
func TestImportTimeUnknown(t *testing.T) {
	const search = "position startpos\nE - 1 -50 50\nE e2e4 0 -50 50\nL 10\nL -10\n"
	for _, tc := range []struct {
		name, end    string
		elapsed, nps string // their JSON values, in import's and in runs'
		text         string
		note         string // import's note on stderr
	}{
		{"no time", "end nodes=2\n", "null", "null", "time unknown (the stream gave none, or 0 ms, which a trace stores as none)", ""},
		{"time", "end nodes=2 time=20\n", "20", "100", "20ms (100 nodes/s)", ""},
		// A search of 0 ms is real, but the file keeps 0 for no time: the
		// import says so (it read 'the stream gave none').
		{"time=0", "end nodes=2 time=0\n", "null", "null", "time unknown (the stream gave none, or 0 ms, which a trace stores as none)",
			"horizon import: run 1: its end record gives time=0, which a trace stores as no time: the run's time reads as unknown\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := writeFile(t, "s.hzt", "HZT 1\nengine Tiny\n"+search+tc.end)
			out := filepath.Join(t.TempDir(), "t.trace")
			code, stdout, stderr := runCLI(t, "", "import", in, "-o", out)
			if code != 0 || !strings.Contains(stdout, tc.text) || stderr != tc.note {
				t.Fatalf("exit %d, stdout %q, want %q; stderr %q, want %q", code, stdout, tc.text, stderr, tc.note)
			}
			want := `"elapsed_ms":` + tc.elapsed
			for _, args := range [][]string{{"import", in, "-o", filepath.Join(t.TempDir(), "u.trace"), "--json"}, {"runs", out, "--json"}} {
				_, js, _ := runCLI(t, "", args...)
				if js = strings.ReplaceAll(js, " ", ""); !strings.Contains(js, want) {
					t.Errorf("%s --json: %s, want %s", args[0], js, want)
				}
				if args[0] == "import" && !strings.Contains(js, `"nps":`+tc.nps) {
					t.Errorf("import --json: %s, want nps %s", js, tc.nps)
				}
			}
		})
	}
}

// TestTraceEngineOutcomes: what trace --engine says of an engine that
// closes its stream early or searches another position than the one sent:
// the runs it wrote are kept and the command says what is wrong (exit 1),
// where it said "wrote 1 run(s)" for a 3-position EPD, or recorded
// Kiwipete's search as the start position's, and exited 0. A root that
// lost only its castling rights (Fairy-Max behind its adapter) is a note.
func TestTraceEngineOutcomes(t *testing.T) {
	const kiwi = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
	search := func(pos, move string) string {
		return `printf 'position ` + pos + `\nE - 1 -50 50\nE ` + move + ` 0 -50 50\nL 10\nL -10\nend\n' >&3`
	}
	for _, tc := range []struct {
		name, goCmd string
		args        []string
		code        int
		stderr      []string // in its one line
	}{
		{"stream closed", search("startpos", "e2e4") + "; exec 3>&-", []string{"--epd", "three"}, 1,
			[]string{"Fake closed its trace stream after 1 of 3 searches", "kept in"}},
		{"another position", search("startpos", "e2e4"), []string{"--fen", kiwi}, 1,
			[]string{"run 1: Fake searched another position than the one sent", kiwi, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"}},
		{"castling lost", search("fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 1", "e2a6"), []string{"--fen", kiwi}, 0,
			[]string{"horizon trace: run 1: Fake searched the position sent with other castling rights or en-passant square"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			eng := writeFile(t, "fake.sh", "#!/bin/sh\nprintf 'HZT 1\\n' >&3\nwhile read -r cmd rest; do\n\tcase \"$cmd\" in\n"+
				"\tuci) echo \"id name Fake\"; echo uciok ;;\n\tisready) echo readyok ;;\n\tgo) "+tc.goCmd+"; echo \"bestmove e2e4\" ;;\n"+
				"\tquit) exit 0 ;;\n\tesac\ndone\n")
			if err := os.Chmod(eng, 0o755); err != nil {
				t.Fatal(err)
			}
			args := tc.args
			if args[0] == "--epd" {
				args = []string{"--epd", writeFile(t, "three.epd", strings.Repeat("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id \"s\";\n", 3))}
			}
			out := filepath.Join(t.TempDir(), "t.trace")
			code, stdout, stderr := runCLI(t, "", append([]string{"trace", "--engine", eng, "--depth", "1", "-o", out}, args...)...)
			if code != tc.code || !strings.Contains(stdout, "wrote 1 run to") {
				t.Fatalf("exit %d, want %d; stdout %q, stderr %q", code, tc.code, stdout, stderr)
			}
			checkOneLineError(t, stderr, tc.stderr...)
		})
	}
}

// TestTraceEPDIDs: a run traced from an EPD file keeps its record's id,
// which runs and diff show before the FEN (diff each run's after it when
// they differ) and runs gives as epd_id in --json (null for a record
// without one). Under trace --engine a run
// whose root is not the position sent does not take that position's id:
// the engine searched another.
func TestTraceEPDIDs(t *testing.T) {
	const kiwi = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -"
	epd := writeFile(t, "s.epd", engine.StartFEN+" id \"first\";\n"+engine.StartFEN+"\n"+kiwi+" id \"kiwi\";\n")
	fake := shEngine(t, "Fake", `printf 'HZT 1\n' >&3`,
		`go) printf 'position startpos\nE - 1 -50 50\nE e2e4 0 -50 50\nL 10\nL -10\nend\n' >&3; echo "bestmove e2e4" ;;`)
	for _, tc := range []struct {
		name string
		args []string
		code int
		want []any // each run's epd_id
	}{
		{"horizon", []string{"--qs", "none"}, 0, []any{"first", nil, "kiwi"}},
		{"engine", []string{"--engine", fake}, 1, []any{"first", nil, nil}}, // Fake searched startpos for kiwi
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "t.trace")
			code, stdout, stderr := runCLI(t, "", append([]string{"trace", "--epd", epd, "--depth", "1", "-o", out}, tc.args...)...)
			if code != tc.code {
				t.Fatalf("trace: exit %d, want %d; stderr %q", code, tc.code, stderr)
			}
			if !strings.Contains(stdout, "run 1  first  ") {
				t.Errorf("trace does not name run 1 by its record's id:\n%s", stdout)
			}
			code, stdout, stderr = runCLI(t, "", "runs", out, "--json")
			var runs []map[string]any
			if err := json.Unmarshal([]byte(stdout), &runs); code != 0 || err != nil {
				t.Fatalf("runs --json: exit %d, %v; stderr %q", code, err, stderr)
			}
			if len(runs) != len(tc.want) {
				t.Fatalf("%d runs, want %d", len(runs), len(tc.want))
			}
			for i, r := range runs {
				if id, ok := r["epd_id"]; !ok || id != tc.want[i] {
					t.Errorf("run %d: epd_id %v (present %v), want %v", i+1, id, ok, tc.want[i])
				}
			}
			_, text, _ := runCLI(t, "", "runs", out)
			if !strings.Contains(text, "  first "+engine.StartFEN) {
				t.Errorf("runs does not show the first run's id before its FEN:\n%s", text)
			}
			// Run 2 searched the same position from a record without an id.
			if _, text, _ = runCLI(t, "", "diff", out, "--run", "1", "--run", "2"); !strings.Contains(text, "position: "+engine.StartFEN+" (EPD id: A first, B none)\n") {
				t.Errorf("diff of runs 1 and 2 does not name each run's record:\n%s", text)
			}
			if _, text, _ = runCLI(t, "", "diff", out, "--run", "1", "--run", "1"); !strings.Contains(text, "position: first "+engine.StartFEN+"\n") {
				t.Errorf("diff of run 1 with itself does not name its record:\n%s", text)
			}
		})
	}
}

// TestRunByEPDID: --run takes an EPD record's id as well as a run id:
// stats, hotspots and check read every run of the record; export and view,
// which read one, take a record with one run and refuse one with several,
// listing them; diff takes the record's two runs in one file, or its run
// in each of two; an id no run has is an error naming the file.
func TestRunByEPDID(t *testing.T) {
	const kiwi = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -"
	epd := writeFile(t, "s.epd", engine.StartFEN+" id \"start\";\n"+kiwi+" id \"kiwi\";\n")
	two, _ := traceFile(t, "--epd", epd, "--depth", "1", "--qs", "see,captures") // runs 1, 2: start; 3, 4: kiwi
	one, _ := traceFile(t, "--epd", epd, "--depth", "1", "--qs", "see")          // run 2: kiwi
	for _, cmd := range []string{"stats", "hotspots", "check"} {
		var runs []struct {
			Run int64 `json:"run"`
		}
		cliJSON(t, &runs, cmd, two, "--run", "kiwi", "--json")
		if len(runs) != 2 || runs[0].Run != 3 || runs[1].Run != 4 {
			t.Errorf("%s --run kiwi: runs %+v, want 3 and 4", cmd, runs)
		}
	}
	var g struct {
		Run struct {
			ID int64 `json:"id"`
		} `json:"run"`
	}
	cliJSON(t, &g, "export", one, "--run", "kiwi", "--format", "json", "-o", "-")
	if g.Run.ID != 2 {
		t.Errorf("export --run kiwi: run %d, want 2", g.Run.ID)
	}
	// diff: the record's two runs in one file, or its run in each of two.
	other, _ := traceFile(t, "--epd", epd, "--depth", "1", "--qs", "captures")
	for _, args := range [][]string{{two}, {one, other}} {
		var d struct {
			A, B struct {
				Run   int64   `json:"run"`
				EPDID *string `json:"epd_id"`
			}
		}
		cliJSON(t, &d, append(append([]string{"diff"}, args...), "--run", "kiwi", "--json")...)
		wantA, wantB := int64(3), int64(4)
		if len(args) == 2 {
			wantA, wantB = 2, 2
		}
		if d.A.Run != wantA || d.B.Run != wantB || d.A.EPDID == nil || *d.A.EPDID != "kiwi" {
			t.Errorf("diff %v --run kiwi: runs %d and %d (A's epd_id %v), want %d and %d of kiwi", args, d.A.Run, d.B.Run, d.A.EPDID, wantA, wantB)
		}
	}
	for _, tc := range []struct {
		args []string
		code int
		msg  []string
	}{
		{[]string{"export", two, "--run", "kiwi", "-o", "-"}, 2, []string{"--run kiwi names 2 runs of " + two + " (3 see, 4 captures): give one by its number"}},
		{[]string{"view", two, "--run", "kiwi"}, 2, []string{"--run kiwi names 2 runs"}},
		{[]string{"stats", two, "--run", "wac"}, 1, []string{"--run wac: " + two + " has no run of an EPD record with that id"}},
		{[]string{"check", two, "--run", "-1"}, 2, []string{"want a run id (1, 2, ...) or an EPD record's id"}},
		{[]string{"diff", one, two, "--run", "kiwi"}, 2, []string{"--run kiwi names 2 runs of " + two}},
		{[]string{"diff", one, "--run", "kiwi"}, 2, []string{"EPD record kiwi has 1 run (2 see): give the two"}},
	} {
		code, stdout, stderr := runCLI(t, "", tc.args...)
		if code != tc.code || stdout != "" {
			t.Errorf("%v: exit %d, want %d; stdout %q", tc.args, code, tc.code, stdout)
		}
		if first, _, ok := strings.Cut(stderr, "\nrun 'horizon "); ok && tc.code == 2 {
			stderr = first + "\n" // a usage error points to --help on a line of its own
		}
		checkOneLineError(t, stderr, tc.msg...)
	}
}

// TestReportedNodesBeyondScale: an engine's info line whose score is beyond
// Horizon's scale (Sunfish's mates are cp 50000 and more) still gives the
// engine's node count, which trace --engine reports beside the stream's:
// the whole line was refused, and reported_nodes went missing.
func TestReportedNodesBeyondScale(t *testing.T) {
	eng := shEngine(t, "Big", `printf 'HZT 1\n' >&3`,
		`go) printf 'position startpos\nE - 1 -50 50\nE e2e4 0 -50 50\nL 10\nL -10\nend\n' >&3; echo "info depth 1 score cp 50000 nodes 7"; echo "bestmove e2e4" ;;`)
	out := filepath.Join(t.TempDir(), "t.trace")
	runs := foreignRunJSON(t, "trace", "--engine", eng, "--fen", "startpos", "--depth", "1", "-o", out, "--json")
	if runs[0].ReportedNodes != 7 {
		t.Fatalf("reported_nodes %d, want 7 (the engine's info line)", runs[0].ReportedNodes)
	}
}

// TestImportClampedCounts: a node whose generated count (g=300) and cut
// index (x=280) are more than a trace stores reads as a lower bound in
// every command, and import says so on stderr; they read as exactly 255
// generated and move 255 (export's JSON, diff's text and JSON).
func TestImportClampedCounts(t *testing.T) {
	search := func(g, x int) string {
		return fmt.Sprintf("position startpos\nE - 1 -100 100\nE e2e4 0 -100 50\nE e7e5 -1 -50 100\nL -60\nL 60 g=%d x=%d\nL -60\nend best=e2e4 nodes=3\n", g, x)
	}
	in := writeFile(t, "s.hzt", "HZT 1\nengine Tiny\n"+search(300, 280)+search(20, 3))
	tr := filepath.Join(t.TempDir(), "t.trace")
	code, _, stderr := runCLI(t, "", "import", in, "-o", tr)
	if want := `horizon import: run 1: 1 node with counts above what a trace stores (a generated count above 255, a cut index above 254): ` +
		`the trace keeps lower bounds, read as "255+ generated"; the first is node 2 (g=300, x=280; the leave record at byte 92, line 8)` + "\n"; code != 0 || stderr != want {
		t.Errorf("import: exit %d, stderr %q, want %q", code, stderr, want)
	}
	var graph struct {
		Nodes []map[string]any `json:"nodes"`
	}
	js := cliJSON(t, &graph, "export", tr, "--run", "1", "--format", "json")
	var found bool
	for _, n := range graph.Nodes {
		if n["id"] == 2.0 {
			found = n["generated"] == 255.0 && n["generated_at_least"] == true && n["cut_index"] == 254.0 && n["cut_index_at_least"] == true
		}
	}
	if !found {
		t.Errorf("export --json does not give node 2's counts as lower bounds: %s", js)
	}
	code, stdout, stderr := runCLI(t, "", "diff", tr, "--run", "1", "--run", "2")
	if want := "A beta cutoff at move 255+ of 255+ generated, B beta cutoff at move 4 of 20 generated; moves A 255+ generated, 1 searched, B 20 generated, 1 searched"; code != 0 || !strings.Contains(stdout, want) {
		t.Errorf("diff: exit %d, %s\nwant %q in\n%s", code, stderr, want, stdout)
	}
	var diff struct {
		First struct {
			A map[string]any `json:"a"`
		} `json:"first_difference"`
	}
	if js := cliJSON(t, &diff, "diff", tr, "--run", "1", "--run", "2", "--json"); diff.First.A["cut_index"] != 254.0 || diff.First.A["cut_index_at_least"] != true {
		t.Errorf("diff --json: %s", js)
	}
}

// TestImportQSOnlyStream: a stream that searches QS alone under its root
// (depth 0, iteration 0) and concludes it has that answer, in import's
// summary and runs (text and JSON), where both read "score none (no
// iteration finished)"; a depth-0 root cut short, or one that proved only
// a bound, still has none, and iteration 0 concluded before an iteration
// 1 cut short keeps iteration 0's score.
func TestImportQSOnlyStream(t *testing.T) {
	const qs = "E - 0 -100 100\nS 10\nE e2e4 -1 -100 100\nS -5\nL -5\nL 10\n"
	for _, tc := range []struct {
		name, search string
		score        any // runs --json's score
		text         string
	}{
		{"concluded", qs + "end best=e2e4 nodes=2\n", 10.0, "depth 0  best e4 (e2e4)  score +10\n"},
		{"cut short", "E - 0 -100 100\nS 10\nE e2e4 -1 -100 100\nA\nend nodes=2\n", nil, "score none (no iteration finished)"},
		{"a bound", "E - 0 -100 0\nS 10\nL 10\nend nodes=1\n", nil, "score none (no iteration finished)"},
		{"then iteration 1 cut short", qs + "E - 1 -100 100\nE e2e4 0 -100 100\nA\nend nodes=4\n", 10.0, "depth 0  best none  score +10\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := writeFile(t, "s.hzt", "HZT 1\nengine Tiny\nposition startpos\n"+tc.search)
			tr := filepath.Join(t.TempDir(), "t.trace")
			if _, stdout, stderr := runCLI(t, "", "import", in, "-o", tr); !strings.Contains(stdout, tc.text) {
				t.Errorf("import: %s\nwant %q in\n%s", stderr, tc.text, stdout)
			}
			var runs []map[string]any
			js := cliJSON(t, &runs, "runs", tr, "--json")
			if len(runs) != 1 || runs[0]["score"] != tc.score || runs[0]["depth"] != 0.0 {
				t.Errorf("runs --json: %s, want score %v at depth 0", js, tc.score)
			}
		})
	}
}

// TestImportLimitsAbsent: a stream with no limits record has no go
// command, and its run's limits say so as every absent fact is said, null
// ("go": null), where runs --json gave "go": "" (walkthrough). A limits
// record's text is kept as written (spaces removed here to compare).
func TestImportLimitsAbsent(t *testing.T) {
	const search = "position startpos\nE - 1 -50 50\nE e2e4 0 -50 50\nL 10\nL -10\nend nodes=2\n"
	for _, tc := range []struct{ name, limits, want string }{
		{"none", "", `"limits":{"go":null,"max_nodes":50000000}`},
		{"depth", "limits depth 1\n", `"limits":{"go":"depth1","max_nodes":50000000}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := writeFile(t, "s.hzt", "HZT 1\nengine Tiny\n"+tc.limits+search)
			out := filepath.Join(t.TempDir(), "t.trace")
			if code, _, stderr := runCLI(t, "", "import", in, "-o", out); code != 0 {
				t.Fatalf("import: exit %d: %s", code, stderr)
			}
			_, js, _ := runCLI(t, "", "runs", out, "--json")
			if js = strings.Join(strings.Fields(js), ""); !strings.Contains(js, tc.want) {
				t.Errorf("runs --json: %s, want %s", js, tc.want)
			}
		})
	}
}

// TestLabelFlag: import --label labels the runs, as runs and every reader
// show them (two builds of one engine told apart); trace --label without
// --engine is a usage error, Horizon's runs being labelled by --qs.
func TestLabelFlag(t *testing.T) {
	in := writeFile(t, "s.hzt", "HZT 1\nengine Tiny\nposition startpos\nE - 1 -50 50\nE e2e4 0 -50 50\nL 10\nL -10\nend\n")
	out := filepath.Join(t.TempDir(), "l.trace")
	for _, label := range []string{"tiny-old", "tiny-new"} {
		if code, _, stderr := runCLI(t, "", "import", in, "-o", out, "--label", label); code != 0 {
			t.Fatalf("import --label %s: exit %d, %s", label, code, stderr)
		}
	}
	var runs []map[string]any
	js := cliJSON(t, &runs, "runs", out, "--json")
	if len(runs) != 2 || runs[0]["variant"] != "tiny-old" || runs[1]["variant"] != "tiny-new" || runs[0]["engine"] != "Tiny" {
		t.Errorf("runs --json: %s", js)
	}
	if code, _, stderr := runCLI(t, "", "trace", "--fen", "startpos", "--label", "x", "-o", filepath.Join(t.TempDir(), "x.trace")); code != 2 ||
		!strings.Contains(stderr, "--label names another engine's runs") {
		t.Errorf("trace --label without --engine: exit %d, %q", code, stderr)
	}
}
