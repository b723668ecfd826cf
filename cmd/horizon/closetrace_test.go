package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/horizonqs/horizon/trace"
)

// TestCloseTraceSaysWhereRunsAre: a trace deleted while it was written,
// with a symlink planted at its name, is written back beside the name
// (NAME.rescued); the last line of trace and import said "wrote 1 run to
// t.trace; browse with: horizon view t.trace", the symlink's target. It
// names where the runs are.
func TestCloseTraceSaysWhereRunsAre(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.trace")
	st, err := trace.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "elsewhere"), path); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	e := &env{ctx: context.Background(), stderr: &stderr, cmd: "trace"}
	at, err := e.closeTraceAt(st)
	if err != nil {
		t.Fatal(err)
	}
	if at != path+".rescued" {
		t.Fatalf("the runs are at %q; want %s.rescued (stderr %q)", at, path, stderr.String())
	}
	if _, err := os.Stat(at); err != nil {
		t.Error(err)
	}
	res := traceResult{file: at, runs: []traceRunJSON{{Run: 1}}}
	var b strings.Builder
	if err := res.writeText(&b); err != nil || !strings.Contains(b.String(), "to "+path+".rescued;") {
		t.Errorf("last line %q (%v); want it to name %s.rescued", b.String(), err, path)
	}
}
