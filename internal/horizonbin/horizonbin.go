// Package horizonbin builds the horizon command for the tests that run it
// as a user does: in a terminal, under '| head', as a child process.
package horizonbin

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
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
// binary and returns the path of the executable. It skips the test with
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
	if msg, err := exec.Command(goTool, "build", "-o", out, "github.com/horizonqs/horizon/cmd/horizon").CombinedOutput(); err != nil {
		built.err = fmt.Errorf("go build ./cmd/horizon: %v\n%s", err, msg)
		return
	}
	built.path = out
}

// Remove deletes the executable Path built, if it built one.
func Remove() {
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
}
