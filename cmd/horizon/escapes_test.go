package main

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/internal/horizonbin"
)

// evil is what a hostile engine, stream, EPD file or trace puts in a
// string Horizon prints: a terminal title change (OSC 0), a screen clear
// (CSI 2J), an 8-bit CSI, DEL, and bytes that are not UTF-8.
const evil = "x\x1b]0;pwned\a\x1b[2J\u009b2J\x7f\xff\xfe"

// terminalSafe fails the test when out holds what a terminal could act
// on: a control character other than tab and newline, DEL, a C1 control,
// or a byte that is not UTF-8.
func terminalSafe(t *testing.T, what, out string) {
	t.Helper()
	for i, r := range out {
		if r == utf8.RuneError && !strings.HasPrefix(out[i:], "\uFFFD") ||
			r < 0x20 && r != '\t' && r != '\n' || r >= 0x7f && r < 0xa0 {
			t.Errorf("%s: byte %d is %q: %q", what, i, r, out[max(0, i-40):min(len(out), i+40)])
			return
		}
	}
}

// poisonedTrace records two runs into a file whose name holds evil and
// sets every free-text column of its runs to hold it too, as a hostile
// file would.
func poisonedTrace(t *testing.T) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "t"+evil+".trace")
	code, _, stderr := runCLI(t, "", "trace", "--fen", "startpos", "--depth", "2", "--qs", "none,captures", "-o", file)
	if code != 0 {
		t.Fatalf("trace: exit %d: %s", code, stderr)
	}
	db, err := sql.Open("sqlite3", file)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, col := range []string{"variant", "engine", "epd_id", "version", "stop_cause"} {
		if _, err := db.Exec("UPDATE runs SET "+col+" = ?", col+evil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec("UPDATE runs SET status = 'interrupted'"); err != nil {
		t.Fatal(err)
	}
	return file
}

// TestNoEscapesReachTheTerminal runs every command that prints text over
// stored and foreign strings holding escape sequences: nothing a terminal
// acts on may come out, on stdout or stderr, in text or JSON.
func TestNoEscapesReachTheTerminal(t *testing.T) {
	file := poisonedTrace(t)
	dir := t.TempDir()
	epd := filepath.Join(dir, "e"+evil+".epd")
	if err := os.WriteFile(epd, []byte(kiwipete[:len(kiwipete)-4]+" id \""+evil+"\";\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stream := writeFile(t, "s.hzt", "HZT 1\nengine Tiny"+evil+"\nposition startpos\nE - 1 -50 50\nE e2e4 0 -50 50\nL 10\nL -10\nend nodes=2\n")
	// An engine whose UCI id name holds evil (its stream names none).
	eng := shEngine(t, "Evil", `printf 'HZT 1\n' >&3`,
		`uci) echo "id name Evil`+evil+`"; echo uciok ;;`,
		`go) printf 'position startpos\nE - 1 -50 50\nE e2e4 0 -50 50\nL 10\nL -10\nend nodes=2\n' >&3; echo "bestmove e2e4" ;;`)
	cases := [][]string{
		{"trace", "--engine", eng, "--fen", "startpos", "--depth", "1", "-o", filepath.Join(dir, "g.trace")},
		{"diff", file, "--run", "1", "--run", "2", "--csv"},
		{"compare", "--epd", epd, "--depth", "1", "--qs", "none,captures", "--csv"},
		{"runs", file},
		{"stats", file},
		{"check", file},
		{"hotspots", file},
		{"diff", file, "--run", "1", "--run", "2"},
		{"export", file, "--format", "dot"},
		{"export", file, "--format", "json"},
		{"export", file, "-o", filepath.Join(dir, "x"+evil+".svg")},
		{"export", file, "--format", "icicle", "-o", filepath.Join(dir, "i.svg")},
		{"view", file},
		{"import", stream, "-o", filepath.Join(dir, "i"+evil+".trace")},
		{"trace", "--epd", epd, "--depth", "1", "-o", filepath.Join(dir, "e"+evil+".trace")},
		{"search", "--epd", epd, "--depth", "1"},
		{"compare", "--epd", epd, "--depth", "1", "--qs", "none,captures"},
	}
	for _, args := range cases {
		for _, asJSON := range []bool{false, true} {
			a := args
			if asJSON {
				if args[0] == "export" || args[0] == "view" || args[len(args)-1] == "--csv" {
					continue
				}
				a = append(append([]string(nil), args...), "--json")
			}
			name := strings.Join(a, " ")
			code, stdout, stderr := runCLI(t, "", a...)
			if code != 0 && code != 1 {
				t.Errorf("%s: exit %d: %s", name, code, stderr)
			}
			terminalSafe(t, name+" (stdout)", stdout)
			terminalSafe(t, name+" (stderr)", stderr)
			if testing.Verbose() {
				t.Logf("%s: exit %d\n%s%s", name, code, stdout, stderr)
			}
		}
	}
}

// TestShellQuote: every word shellQuote makes reads back in a shell as
// the word it was, terminal-safe, and plain words stay as typed.
func TestShellQuote(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash to read the words back")
	}
	words := []string{"plain.epd", "dir/x.trace", "", "two words", "it's", `a\b`, "$(touch PWN)", "x$(touch PWN)'; touch PWN2 #",
		"`id`", "a\nb", evil, "é♞", "!bang", "*.epd", "~user"}
	plain := map[string]bool{"plain.epd": true, "dir/x.trace": true}
	dir := t.TempDir()
	for _, w := range words {
		q := shellQuote(w)
		if plain[w] != (q == w) {
			t.Errorf("shellQuote(%q) = %q", w, q)
		}
		terminalSafe(t, "shellQuote("+strconv.Quote(w)+")", q)
		cmd := exec.Command(bash, "-c", "printf '%s' "+q)
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil || string(out) != w {
			t.Errorf("bash read shellQuote(%q) = %q as %q (%v)", w, q, out, err)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) > 0 {
		t.Errorf("a quoted word ran a command: %s made", ents[0].Name())
	}
}

// TestQSWorstCommandIsSafe: qsbench --worst prints a trace command for
// each worst position from its EPD id; an id with shell syntax, slashes
// and escape sequences is one argument, and the trace it names is a file
// of the current directory.
func TestQSWorstCommandIsSafe(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash to run the command")
	}
	const id = "../../../tmp/x$(touch PWN)'; touch PWN2 #\x1b[2J"
	set := writeFile(t, "set.epd", strings.Replace(qsbenchRecord, `id "qsb.0001"`, `id "`+id+`"`, 1)+"\n")
	code, out, errOut := runCLI(t, "", "qsbench", "--epd", set, "--qs", "see", "--worst", "1")
	if code != 0 {
		t.Fatalf("qsbench: exit %d: %s", code, errOut)
	}
	terminalSafe(t, "qsbench --worst", out)
	var line string
	for _, l := range strings.Split(out, "\n") {
		if l = strings.TrimSpace(l); strings.HasPrefix(l, "horizon trace ") {
			line = l
		}
	}
	if line == "" {
		t.Fatalf("no trace command in\n%s", out)
	}
	dir := t.TempDir()
	cmd := exec.Command(bash, "-c", `printf '%s\0' `+strings.TrimPrefix(line, "horizon "))
	cmd.Dir = dir
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	args := strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
	if ents, _ := os.ReadDir(dir); len(ents) > 0 {
		t.Errorf("the printed command ran one of its own: %s made", ents[0].Name())
	}
	got := map[string]string{}
	for i := 0; i+1 < len(args); i++ {
		got[args[i]] = args[i+1]
	}
	if got["--id"] != id {
		t.Errorf("--id %q, want %q: %s", got["--id"], id, line)
	}
	if o := got["-o"]; o == "" || strings.ContainsRune(o, '/') || strings.HasPrefix(o, ".") || !strings.HasSuffix(o, ".trace") {
		t.Errorf("-o %q is no file of the current directory: %s", o, line)
	}
}

// TestEPDFromEndlessDevice: --epd /dev/zero (one line that never ends)
// is refused at its first line's cap, at once, by every command that
// reads an EPD file; it was read whole, 0.5 GB/s until memory ran out.
func TestEPDFromEndlessDevice(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero here")
	}
	for _, args := range [][]string{
		{"trace", "--epd", "/dev/zero", "-o", filepath.Join(t.TempDir(), "z.trace")},
		{"compare", "--epd", "/dev/zero"},
		{"qsbench", "--epd", "/dev/zero"},
		{"qsbench", "oracle", "--epd", "/dev/zero", "-o", filepath.Join(t.TempDir(), "o.epd")},
		{"search", "--epd", "/dev/zero"},
	} {
		t.Run(strings.Join(args[:2], " "), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			code, _, stderr := runCLIContext(ctx, "", args...)
			if ctx.Err() != nil {
				t.Fatal("still reading after 60 s")
			}
			if code != 1 {
				t.Fatalf("exit %d, want 1: %s", code, stderr)
			}
			checkOneLineError(t, stderr, "/dev/zero:1:", "line longer than 1048576 bytes")
		})
	}
}

// TestJobsCapped: --jobs beyond the CPUs runs as many as there are CPUs
// and says so ('compare --jobs 5000' and 'qsbench --jobs 5000' each made
// 5,000 searchers and died out of memory at 2.3 GB), and --help says the
// cap.
func TestJobsCapped(t *testing.T) {
	epd := writeFile(t, "bk.epd", bkHead)
	set := writeFile(t, "set.epd", qsbenchRecord+"\n")
	for _, args := range [][]string{
		{"compare", "--epd", epd, "--depth", "1", "--qs", "see", "--jobs", "5000"},
		{"qsbench", "--epd", set, "--qs", "see", "--second", "none", "--jobs", "5000"},
		{"qsbench", "oracle", "--epd", set, "--depth", "1", "-o", filepath.Join(t.TempDir(), "o.epd"), "--jobs", "5000"},
	} {
		name := strings.Join(args[:2], " ")
		code, _, stderr := runCLI(t, "", args...)
		want := fmt.Sprintf("--jobs 5000: running %d at once", maxJobs())
		if code != 0 || !strings.Contains(stderr, want) {
			t.Errorf("%s: exit %d, stderr %q; want a note %q", name, code, stderr, want)
		}
	}
	for _, cmd := range [][]string{{"compare"}, {"qsbench"}, {"qsbench", "oracle"}, {"qsbench", "collect"}} {
		if help := helpOf(t, cmd...); !helpSays(help, fmt.Sprintf("1 to %d (the CPUs here", maxJobs())) {
			t.Errorf("%v --help does not say --jobs' cap", cmd)
		}
	}
}

// alive reports whether process pid runs: a zombie (dead, not yet reaped
// by whoever it was reparented to) does not.
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	_, rest, _ := strings.Cut(string(b), ") ")
	return !strings.HasPrefix(rest, "Z") && !strings.HasPrefix(rest, "X")
}

// waitUntil polls cond for up to 20 s; it reports whether cond came.
func waitUntil(cond func() bool) bool {
	for deadline := time.Now().Add(20 * time.Second); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			return false
		}
	}
	return true
}

// TestEngineDiesWithHorizon: Horizon killed with SIGKILL while trace
// --engine runs (no cleanup of its own can run) takes the engine with it.
// The engine runs in a process group of its own, and this one ignores
// its closed input once it searches, as an engine deep in a search does:
// it ran on, reparented to init.
func TestEngineDiesWithHorizon(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc to see processes in")
	}
	bin := horizonbin.Path(t)
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "engine.pid")
	eng := shEngine(t, "Deep", `printf 'HZT 1\nengine Deep\n' >&3`,
		`go) printf 'position startpos\nE - 1 -50 50\nE e2e4 0 -50 50\n' >&3; echo $$ > '`+pidFile+`.tmp'; mv '`+pidFile+`.tmp' '`+pidFile+`'; exec sleep 600 ;;`)
	out := filepath.Join(dir, "t.trace")
	cmd := exec.Command(bin, "trace", "--engine", eng, "--fen", "startpos", "--depth", "30", "-o", out)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if !waitUntil(func() bool { return fileExists(pidFile) }) {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatal("the engine did not start its search in 20 s")
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Process.Kill()
	cmd.Wait()
	if !waitUntil(func() bool { return !alive(pid) }) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Fatalf("the engine (pid %d) runs on 20 s after Horizon was killed", pid)
	}
}

// TestKilledOutputLeavesNothing: Horizon killed with SIGKILL before it
// writes an output (qsbench --plot waiting for its --epd FIFO's writer)
// leaves no temporary file beside it; a 0-byte .p.svg.*.tmp was left.
func TestKilledOutputLeavesNothing(t *testing.T) {
	bin := horizonbin.Path(t)
	dir := t.TempDir()
	in := filepath.Join(t.TempDir(), "set.epd")
	if err := syscall.Mkfifo(in, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	cmd := exec.Command(bin, "qsbench", "--epd", in, "--qs", "see", "--plot", filepath.Join(dir, "p.svg"))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond) // at the FIFO's open, after the output's Create
	cmd.Process.Kill()
	cmd.Wait()
	if ents, _ := os.ReadDir(dir); len(ents) > 0 {
		t.Errorf("left %s beside the output", ents[0].Name())
	}
}

// TestJSONControlsWriter: JSON streamed out in pieces (export's spool to
// standard output) is escaped as engine.JSONControls escapes it whole,
// wherever the pieces split a C1 control's two bytes.
func TestJSONControlsWriter(t *testing.T) {
	in := []byte("{\"name\": \"a\u0085b\x7fc\u009b[2J\u00e9\"}\xc2")
	want := string(engine.JSONControls(in[:len(in)-1])) + "\xc2"
	for cut := 0; cut <= len(in); cut++ {
		var out bytes.Buffer
		w := &jsonControlsWriter{w: &out}
		w.Write(in[:cut])
		w.Write(in[cut:])
		if err := w.flush(); err != nil || out.String() != want {
			t.Errorf("cut at %d: %q, want %q", cut, out.String(), want)
		}
	}
}
