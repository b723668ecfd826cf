package tracetest

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

// KeepCrashOutput keeps what a fuzz worker of f prints as it dies. go test
// -fuzz starts its workers with their standard error discarded
// (internal/fuzz sets no Stderr), so a worker killed by a fatal error (the
// runtime out of memory, a stack overflow, a panic in a goroutine the fuzz
// function did not start, a signal in cgo) ends the run with only
// "fuzzing process hung or terminated unexpectedly: exit status 2", and
// its saved input may pass alone. In a worker, the runtime also writes
// that output to $TMPDIR/horizon-<target>-worker-<pid>.txt
// (runtime/debug.SetCrashOutput); the file is removed when the worker
// ends with nothing in it. A worker the coordinator kills leaves its file
// empty: go test stops a worker whose minimizing of a new input runs past
// -fuzzminimizetime (60 s), which a slow target such as FuzzTraceReaders
// reaches, with a signal when it is busy in the target, and starts
// another. Only a file with something in it tells of a crash:
//
//	find "${TMPDIR:-/tmp}" -name 'horizon-*-worker-*.txt' -size +0
//
// Outside fuzzing it does nothing.
func KeepCrashOutput(f *testing.F) {
	if !InFuzzWorker() {
		return
	}
	path := filepath.Join(os.TempDir(), fmt.Sprintf("horizon-%s-worker-%d.txt", f.Name(), os.Getpid()))
	out, err := os.Create(path)
	if err != nil {
		return // no file for it: the output is lost, as without this
	}
	if err := debug.SetCrashOutput(out, debug.CrashOptions{}); err != nil {
		out.Close()
		os.Remove(path)
		return
	}
	out.Close() // SetCrashOutput keeps its own descriptor
	f.Cleanup(func() {
		debug.SetCrashOutput(nil, debug.CrashOptions{})
		if fi, err := os.Stat(path); err == nil && fi.Size() == 0 {
			os.Remove(path)
		}
	})
}

// InFuzzWorker reports whether the test binary is a worker of go test
// -fuzz, which runs the fuzz function on one input at a time and panics
// ("deadlocked!", its output discarded) when one input takes 10 s
// (internal/fuzz.RunFuzzWorker), whatever the target's own limits.
func InFuzzWorker() bool {
	w := flag.Lookup("test.fuzzworker")
	return w != nil && w.Value.String() == "true"
}
