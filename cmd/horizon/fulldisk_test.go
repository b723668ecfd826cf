package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/horizonqs/horizon/internal/fulldisk"
	"github.com/horizonqs/horizon/trace"
	"github.com/horizonqs/horizon/trace/tracetest"
)

// wideStream is a trace stream (docs/trace-protocol.md) of 255 iterations
// of a two-ply tree from the start position, every first move and every
// reply: 107,355 nodes, some 5 MB of trace, more than a small disk holds.
func wideStream() string {
	white := strings.Fields("a2a3 a2a4 b2b3 b2b4 c2c3 c2c4 d2d3 d2d4 e2e3 e2e4 f2f3 f2f4 g2g3 g2g4 h2h3 h2h4 b1a3 b1c3 g1f3 g1h3")
	black := strings.Fields("a7a6 a7a5 b7b6 b7b5 c7c6 c7c5 d7d6 d7d5 e7e6 e7e5 f7f6 f7f5 g7g6 g7g5 h7h6 h7h5 b8a6 b8c6 g8f6 g8h6")
	var b strings.Builder
	b.WriteString("HZT 1\nengine Wide\nposition startpos\n")
	for it := 1; it <= 255; it++ {
		b.WriteString("E - 2 -50 50 i=" + strconv.Itoa(it) + "\n")
		for _, w := range white {
			b.WriteString("E " + w + " 1 -50 50\n")
			for _, m := range black {
				b.WriteString("E " + m + " 0 -50 50\nL 1\n")
			}
			b.WriteString("L -1\n")
		}
		b.WriteString("L 1\n")
	}
	b.WriteString("end best=e2e4\n")
	return b.String()
}

// TestFullDisk runs the commands that write onto a real full disk (a small
// tmpfs; skipped when the test cannot mount one): each exits 1 with its
// error naming the file and saying "no space left on device" (SQLite's
// "database or disk is full" before), keeps the runs the file had, marks
// the run it was writing failed, leaves no half-written export and no
// temporary file; a WAL a full disk kept beside the file is said to be
// kept by the full disk (it said "another process was reading it"), and
// the next write with room moves it in.
func TestFullDisk(t *testing.T) {
	dir := fulldisk.Mount(t, 3<<20)
	file := filepath.Join(dir, "t.trace")
	if code, _, stderr := runCLI(t, "", "trace", "--depth", "3", "--qs", "see", "-o", file); code != 0 {
		t.Fatalf("the first run: exit %d: %s", code, stderr)
	}
	stream := writeFile(t, "wide.hzt", wideStream())
	fill := fulldisk.Fill(t, dir, 200<<10)

	check := func(what string, code int, stderr, name string) {
		t.Helper()
		if code != 1 {
			t.Errorf("%s: exit %d, want 1: %s", what, code, stderr)
		}
		lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
		last := lines[len(lines)-1]
		if !strings.Contains(last, name) || !strings.Contains(last, "no space left on device") {
			t.Errorf("%s: error %q does not name %s and say 'no space left on device'", what, last, name)
		}
		if strings.Contains(stderr, "another process") || strings.Contains(stderr, "goroutine") {
			t.Errorf("%s: stderr %q", what, stderr)
		}
	}

	code, _, stderr := runCLI(t, "", "trace", "--depth", "6", "--qs", "captures", "-o", file)
	check("trace", code, stderr, file)
	imported := filepath.Join(dir, "i.trace")
	code, _, stderr = runCLI(t, "", "import", stream, "-o", imported)
	check("import", code, stderr, imported)
	for _, format := range []string{"svg", "html", "json"} {
		out := filepath.Join(dir, "tree."+format)
		code, _, stderr = runCLI(t, "", "export", file, "--run", "1", "--format", format, "-o", out)
		check("export --format "+format, code, stderr, out)
		if _, err := os.Stat(out); err == nil {
			t.Errorf("export --format %s left %s", format, out)
		}
	}
	if tmp, _ := filepath.Glob(filepath.Join(dir, ".*")); len(tmp) > 0 {
		t.Errorf("temporary files left: %v", tmp)
	}

	for _, f := range []struct {
		file string
		want []trace.Status
	}{{file, []trace.Status{trace.StatusComplete, trace.StatusFailed}}, {imported, []trace.Status{trace.StatusFailed}}} {
		runs := tracetest.Runs(t, f.file)
		if len(runs) != len(f.want) {
			t.Fatalf("%s holds %d runs, want %d", f.file, len(runs), len(f.want))
		}
		for i, r := range runs {
			// A failed run keeps the rows of its last commit: none
			// when its first batch found no room.
			if r.Status != f.want[i] || r.Status == trace.StatusComplete && r.Rows == 0 {
				t.Errorf("%s run %d: %s with %d rows, want %s", f.file, r.ID, r.Status, r.Rows, f.want[i])
			}
		}
		if code, stdout, stderr := runCLI(t, "", "check", f.file, "--run", "1"); !strings.Contains(stdout, "SQLite integrity check ok") || f.file == file && code != 0 {
			t.Errorf("check %s: exit %d: %s%s", f.file, code, stdout, stderr)
		}
	}

	// With room again, the next write moves the WAL into the file.
	if err := os.Remove(fill); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, "", "trace", "--depth", "2", "--qs", "see", "-o", file); code != 0 || stderr != "" {
		t.Fatalf("trace with room again: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(file + "-wal"); err == nil {
		t.Error("the WAL stays beside the file with room again")
	}
	if runs := tracetest.Runs(t, file); len(runs) != 3 || runs[2].Status != trace.StatusComplete {
		t.Errorf("runs after room again: %+v", runs)
	}
}
