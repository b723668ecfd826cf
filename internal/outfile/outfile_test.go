package outfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/horizonqs/horizon/internal/fulldisk"
)

// write creates path, writes s and commits (or aborts).
func write(t *testing.T, path, s string, commit bool) {
	t.Helper()
	f, err := Create(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Abort()
	if _, err := io.WriteString(f, s); err != nil {
		t.Fatal(err)
	}
	if commit {
		if err := f.Commit(); err != nil {
			t.Fatal(err)
		}
	}
}

// onlyFiles fails unless dir holds exactly the named files (no temporary
// file left behind).
func onlyFiles(t *testing.T, dir string, names ...string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	sort.Strings(names)
	if strings.Join(got, " ") != strings.Join(names, " ") {
		t.Fatalf("%s holds %q, want %q", dir, got, names)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestRegularFile: a regular file is written whole or not at all, and an
// existing one keeps its permissions.
func TestRegularFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.dot")
	// The cases run in order, each on the file the one before left.
	for _, c := range []struct {
		name, write string
		commit      bool
		want        string
		perm        fs.FileMode
	}{
		{"new file", "digraph {}\n", true, "digraph {}\n", 0o644},
		{"abort keeps the old file", "half", false, "digraph {}\n", 0o644},
		{"replaced", "digraph { a }\n", true, "digraph { a }\n", 0o644},
		{"permissions kept", "digraph { b }\n", true, "digraph { b }\n", 0o600},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := os.Chmod(path, c.perm); err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			before, errBefore := os.ReadFile(path)
			f, err := Create(context.Background(), path)
			if err != nil {
				t.Fatal(err)
			}
			io.WriteString(f, c.write)
			if b, err := os.ReadFile(path); (err == nil) != (errBefore == nil) || string(b) != string(before) {
				t.Fatalf("file changed to %q (%v) before Commit or Abort", b, err)
			}
			if c.commit {
				if err := f.Commit(); err != nil {
					t.Fatal(err)
				}
			}
			f.Abort() // after Commit: nothing happens
			if got := readFile(t, path); got != c.want {
				t.Fatalf("read back %q; want %q", got, c.want)
			}
			if st, err := os.Stat(path); err != nil || st.Mode() != c.perm {
				t.Fatalf("mode %v (%v), want %v", st.Mode(), err, c.perm)
			}
			onlyFiles(t, dir, "a.dot")
		})
	}
	for _, bad := range []string{filepath.Join(dir, "no", "such", "dir.svg"), filepath.Join(dir, "a.dot", "x.svg"), dir, ""} {
		t.Run("unwritable "+bad, func(t *testing.T) {
			if _, err := Create(context.Background(), bad); err == nil {
				t.Fatalf("Create(%q) succeeded", bad)
			}
			onlyFiles(t, dir, "a.dot")
		})
	}
}

// TestSymlink: a link's target gets the bytes and the link stays a link,
// whether the target exists or not.
func TestSymlink(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "target.txt"), []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, link, to, target string
	}{
		{"relative", "link.svg", "target.txt", "target.txt"},
		{"absolute", "abs.svg", filepath.Join(dir, "target.txt"), "target.txt"},
		{"chain, up a directory", "sub/chain.svg", "../link.svg", "target.txt"},
		{"dangling", "new.svg", "sub/created.svg", "sub/created.svg"},
	} {
		t.Run(c.name, func(t *testing.T) {
			link := filepath.Join(dir, c.link)
			if err := os.Symlink(c.to, link); err != nil {
				t.Skipf("no symbolic links here: %v", err)
			}
			write(t, link, "content of "+c.name, true)
			if st, err := os.Lstat(link); err != nil || st.Mode()&fs.ModeSymlink == 0 {
				t.Fatalf("%s is no longer a link: %v %v", c.link, st.Mode(), err)
			}
			if got := readFile(t, filepath.Join(dir, c.target)); got != "content of "+c.name {
				t.Fatalf("target %s holds %q", c.target, got)
			}
		})
	}
	if st, err := os.Stat(filepath.Join(dir, "target.txt")); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("target's mode %v (%v), want its own 0600", st.Mode(), err)
	}
	onlyFiles(t, dir, "abs.svg", "link.svg", "new.svg", "sub", "target.txt")
	onlyFiles(t, sub, "chain.svg", "created.svg")

	loop := filepath.Join(t.TempDir(), "loop.svg")
	os.Symlink("loop.svg", loop)
	if _, err := Create(context.Background(), loop); err == nil || !strings.Contains(err.Error(), "symbolic links") {
		t.Fatalf("a link to itself: %v", err)
	}
}

// TestDevNull: /dev/null is written to, not replaced (it was, as root,
// and every program using it broke).
func TestDevNull(t *testing.T) {
	before, err := os.Stat("/dev/null")
	if err != nil || before.Mode()&fs.ModeCharDevice == 0 {
		t.Skip("no /dev/null character device here")
	}
	for _, commit := range []bool{true, false} {
		write(t, "/dev/null", "digraph {}\n", commit)
		after, err := os.Stat("/dev/null")
		if err != nil || after.Mode() != before.Mode() || !os.SameFile(before, after) {
			t.Fatalf("/dev/null changed: %v -> %v (%v)", before.Mode(), after.Mode(), err)
		}
	}
}

// TestFIFO: a reader at a FIFO gets the whole output on Commit and nothing
// on Abort, and the FIFO stays a FIFO.
func TestFIFO(t *testing.T) {
	dir := t.TempDir()
	ff := filepath.Join(dir, "ff.svg")
	if err := syscall.Mkfifo(ff, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	big := strings.Repeat("<svg/>\n", 100000) // more than a pipe holds
	for _, commit := range []bool{true, false} {
		got := make(chan string)
		go func() {
			r, err := os.Open(ff)
			if err != nil {
				got <- err.Error()
				return
			}
			b, _ := io.ReadAll(r)
			r.Close()
			got <- string(b)
		}()
		write(t, ff, big, commit)
		want := big
		if !commit {
			want = ""
		}
		if g := <-got; g != want {
			t.Fatalf("commit %v: the reader got %d bytes, want %d", commit, len(g), len(want))
		}
		if st, err := os.Lstat(ff); err != nil || st.Mode()&fs.ModeNamedPipe == 0 {
			t.Fatalf("ff.svg is no longer a FIFO: %v %v", st.Mode(), err)
		}
	}
	onlyFiles(t, dir, "ff.svg")
}

// TestOpenFile: a process's open file named through /proc/self/fd (what a
// shell's >(cmd) and /dev/stdout are) is written to, not renamed over.
func TestOpenFile(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	path := fmt.Sprintf("/proc/self/fd/%d", w.Fd())
	if _, err := os.Stat(path); err != nil {
		t.Skipf("no /proc/self/fd here: %v", err)
	}
	got := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		got <- string(b)
	}()
	write(t, path, "12345", true)
	w.Close()
	if g := <-got; g != "12345" {
		t.Fatalf("the pipe got %q", g)
	}
}

// TestFIFOWithoutReaderStopsOnCancel: a FIFO with no reader is waited for,
// as a shell's redirection waits, but a cancel (Ctrl-C) ends the wait; a
// blocking open could not be stopped (export -o FIFO ignored SIGINT and
// SIGTERM until killed).
func TestFIFOWithoutReaderStopsOnCancel(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "f")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := Create(ctx, fifo)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Create of a FIFO with no reader: %v, want the context's error", err)
		}
	case <-time.After(10 * time.Second):
		// Unblock the open, so the test ends.
		if r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			defer r.Close()
		}
		t.Fatal("Create kept waiting for a reader after the cancel")
	}
}

// TestNewFileTakesTheUmask: a new output file gets what the shell's
// redirection would give it, 0666 less the umask (it got 0644 whatever
// the umask; under 077 others could read it).
func TestNewFileTakesTheUmask(t *testing.T) {
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	path := filepath.Join(t.TempDir(), "new.dot")
	write(t, path, "digraph {}\n", true)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Mode().Perm(); got != 0o600 {
		t.Errorf("new file under umask 077: mode %o, want 600", got)
	}
}

// TestExistingModeZeroKept: an existing file keeps its permissions, also
// none at all (0 once stood for "a new file").
func TestExistingModeZeroKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "locked.dot")
	if err := os.WriteFile(path, []byte("old\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0); err != nil {
		t.Fatal(err)
	}
	write(t, path, "digraph {}\n", true)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Mode().Perm(); got != 0 {
		t.Errorf("mode %o after the write, want 0 as it was", got)
	}
}

// TestInputRefused: an output that is one of the command's inputs, by its
// own name or through a symbolic or hard link, is refused before anything
// is written, and the input is left as it was (export -o of the trace it
// read replaced the trace with the SVG).
func TestInputRefused(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "t.trace")
	if err := os.WriteFile(in, []byte("the trace"), 0o644); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.trace")
	if err := os.WriteFile(other, []byte("another"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("t.trace", filepath.Join(dir, "link.svg")); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(in, filepath.Join(dir, "hard.svg")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		out     string
		refused bool
	}{
		{"t.trace", true},
		{"./t.trace", true},
		{"link.svg", true},
		{"hard.svg", true},
		{"other.trace", false},
		{"new.svg", false},
	} {
		out := filepath.Join(dir, c.out)
		f, err := Create(context.Background(), out, other+".missing", in)
		if c.refused {
			if err == nil || !strings.Contains(err.Error(), "which this command reads") || !strings.Contains(err.Error(), in) {
				t.Errorf("%s: error %v, want a refusal naming %s", c.out, err, in)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.out, err)
			continue
		}
		f.Abort()
	}
	if b, err := os.ReadFile(in); err != nil || string(b) != "the trace" {
		t.Errorf("the input now holds %q (%v)", b, err)
	}
}

// TestRemoveTemps: a program quitting at once (a second Ctrl-C) leaves
// no temporary file beside an output being written, nor the output: an
// existing file keeps its old content, and a Commit after it writes
// nothing.
func TestRemoveTemps(t *testing.T) {
	defer func() {
		temps.Lock()
		temps.quitting = false
		temps.Unlock()
	}()
	dir := t.TempDir()
	old := filepath.Join(dir, "old.svg")
	write(t, old, "before", true)
	var files []*File
	for _, name := range []string{"new.svg", "old.svg"} {
		f, err := Create(context.Background(), filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Abort()
		if _, err := io.WriteString(f, "half"); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	RemoveTemps()
	onlyFiles(t, dir, "old.svg")
	for _, f := range files {
		if err := f.Commit(); err == nil || !strings.Contains(err.Error(), "quitting") {
			t.Errorf("Commit of %s after RemoveTemps: %v, want it refused", f.path, err)
		}
	}
	onlyFiles(t, dir, "old.svg")
	if got := readFile(t, old); got != "before" {
		t.Errorf("old.svg holds %q, want its old content", got)
	}
}

// TestWriteErrorNamesOutput: a write that fails (a full disk) names the
// output the user gave, not the temporary file, and leaves nothing beside
// it once aborted; the old file at the name is untouched. Before, the
// error read "write .tree.svg.3fylm5efm1v3a.tmp: no space left on device".
func TestWriteErrorNamesOutput(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "tree.svg")
	write(t, path, "old", true)
	f, err := Create(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte("n")); err != nil { // the temporary file is made
		t.Fatal(err)
	}
	f.tmp.Close() // the next write fails, as on a full disk
	_, err = f.Write([]byte("ew"))
	if err == nil || !strings.HasPrefix(err.Error(), "output "+path+": ") || strings.Contains(err.Error(), ".tmp") {
		t.Errorf("write error %v, want it to name %s and no temporary file", err, path)
	}
	f.Abort()
	onlyFiles(t, dir, "tree.svg")
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("the old file reads %q", b)
	}
}

// TestFullDisk writes outputs on a real full disk (a tmpfs, when the test
// may mount one): the error names the output and says "no space left on
// device", no temporary file is left, an existing output keeps its old
// bytes.
func TestFullDisk(t *testing.T) {
	dir := fulldisk.Mount(t, 256<<10)
	path := filepath.Join(dir, "tree.html")
	write(t, path, "old", true)
	fulldisk.Fill(t, dir, 0)
	f, err := Create(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	var werr error
	for i := 0; i < 64 && werr == nil; i++ {
		_, werr = f.Write(make([]byte, 64<<10))
	}
	if werr == nil {
		werr = f.Commit()
	}
	f.Abort()
	if werr == nil || !errors.Is(werr, syscall.ENOSPC) || !strings.HasPrefix(werr.Error(), "output "+path+": no space left on device") {
		t.Errorf("error %v, want 'output %s: no space left on device'", werr, path)
	}
	onlyFiles(t, dir, "fill", "tree.html")
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("the old file reads %q", b)
	}
}

// TestNoTempBeforeWriting: Create makes no file (a SIGKILL during the
// command's work, before it writes, left a 0-byte temporary file); the
// temporary file comes with the first bytes, and an output of none is
// still written on Commit.
func TestNoTempBeforeWriting(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "tree.svg")
	f, err := Create(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Abort()
	onlyFiles(t, dir)
	if _, err := io.WriteString(f, "<svg/>"); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 || !isTempOf(ents[0].Name(), "tree.svg") {
		t.Fatalf("after a write %s holds %v, want one temporary file", dir, ents)
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	onlyFiles(t, dir, "tree.svg")
	empty := filepath.Join(dir, "empty.json")
	e, err := Create(context.Background(), empty)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, empty); got != "" {
		t.Errorf("empty output reads %q", got)
	}
}

// TestStaleTempsRemoved: Create removes the temporary files a killed
// Horizon left for the same output, and nothing else: not another
// output's, not a name that only looks alike, not one written since this
// process started (another Horizon writing it now), not a directory.
func TestStaleTempsRemoved(t *testing.T) {
	dir := t.TempDir()
	old := started.Add(-time.Minute)
	stale := []string{".tree.svg.3fylm5efm1v3a.tmp", ".tree.svg.0.tmp"}
	kept := []string{"tree.svg", ".tree.svg.3fylm5efm1v3a.tmp.bak", ".tree.svg.3FYLM5EFM1V3A.tmp", ".tree.svg..tmp",
		".tree.svg.x-y.tmp", ".other.svg.3fylm5efm1v3a.tmp", "tree.svg.3fylm5efm1v3a.tmp", ".tree.svg.zzzzzzzzzzzzzz.tmp"}
	for _, name := range append(append([]string(nil), stale...), kept...) {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	fresh := ".tree.svg.1a2b3c.tmp" // another Horizon's, being written
	if err := os.WriteFile(filepath.Join(dir, fresh), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, ".tree.svg.abc.tmp"), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := Create(context.Background(), filepath.Join(dir, "tree.svg"))
	if err != nil {
		t.Fatal(err)
	}
	f.Abort()
	onlyFiles(t, dir, append(kept, fresh, ".tree.svg.abc.tmp")...)
}
