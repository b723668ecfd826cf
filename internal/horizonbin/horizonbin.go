// Package horizonbin builds the horizon command for the tests that run it
// as a user does: in a terminal, under '| head', as a child process.
package horizonbin

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

var built struct {
	once sync.Once
	dir  string
	path string
	skip string
	err  error
}

// Path builds github.com/horizonqs/horizon/cmd/horizon once per test
// binary (taking it from the go command's build cache when it is there:
// fromCache) and returns the path of the executable. It skips the test with
// -short (a build takes seconds) and when no go tool is at hand. A package
// that calls it removes the build with Remove when its tests end (in
// TestMain).
func Path(tb testing.TB) string {
	tb.Helper()
	if testing.Short() {
		tb.Skip("-short: not building the horizon command")
	}
	built.once.Do(build)
	if built.skip != "" {
		tb.Skip(built.skip)
	}
	if built.err != nil {
		tb.Fatal(built.err)
	}
	return built.path
}

func build() {
	goTool, err := exec.LookPath("go")
	if err != nil {
		// 'go test' runs with its own GOROOT even when go is not on PATH.
		goTool = filepath.Join(runtime.GOROOT(), "bin", "go")
		if _, err := os.Stat(goTool); err != nil {
			built.skip = "the go tool is not in PATH: cannot build the horizon command"
			return
		}
	}
	built.dir, built.err = os.MkdirTemp("", "horizon-bin-")
	if built.err != nil {
		return
	}
	out := filepath.Join(built.dir, "horizon")
	if cached := fromCache(goTool); cached != "" && linkOrCopy(cached, out) == nil {
		built.path = out
		return
	}
	if msg, err := exec.Command(goTool, "build", "-o", out, "github.com/horizonqs/horizon/cmd/horizon").CombinedOutput(); err != nil {
		built.err = fmt.Errorf("go build ./cmd/horizon: %v\n%s", err, msg)
		return
	}
	built.path = out
}

// fromCache returns the horizon executable as the go command keeps it in
// its build cache, "" when it keeps none. 'go build -o' links the command
// anew for each test binary that asks (3 s of CPU, four packages); 'go
// run' keeps what it links, and -exec echo names it instead of running
// it. The first run of a build names its temporary copy, gone once go
// exits; the next names the cached one.
func fromCache(goTool string) string {
	echo, err := exec.LookPath("echo")
	if err != nil {
		return ""
	}
	for range 2 {
		out, err := exec.Command(goTool, "run", "-exec", echo, "github.com/horizonqs/horizon/cmd/horizon").Output()
		if err != nil {
			return ""
		}
		path := strings.TrimSpace(string(out))
		if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() {
			return path
		}
	}
	return ""
}

// linkOrCopy puts the cached executable at out: a hard link where the
// cache and the temporary folder share a file system, else a copy. Tests
// get a folder of their own, as a build gave them, and the cache's copy
// is never written to.
func linkOrCopy(cached, out string) error {
	if os.Link(cached, out) == nil {
		return nil
	}
	src, err := os.Open(cached)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		os.Remove(out)
		return err
	}
	return dst.Close()
}

// Remove deletes the executable Path built, if it built one.
func Remove() {
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
}
