// Package golden keeps the expected output of tests in files (golden files,
// by convention under the package's testdata/): Check compares what a test
// produced with its file, and `go test -update` rewrites the files with what
// the tests produce now, so that a change of output shows in review as a
// change of file.
//
// A test package that imports golden gets the -update flag from it and must
// not define its own.
package golden

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files with the output the tests produce")

// Update reports whether the tests run with -update, for a test that keeps
// an artefact Check cannot compare (a rendered image, say) and rewrites it
// on the same flag.
func Update() bool { return *update }

// maxDiffLines bounds each side of the difference Check prints: enough to
// see what changed, not a screenful of a moved block.
const maxDiffLines = 20

// Check compares got with the golden file at path (relative to the test's
// package directory). With -update it writes got there instead, creating
// the directory, and passes. A missing file or a difference fails t with
// Errorf, so one test can report all its golden files; the message names
// the file, the lines that differ, and the command that rewrites it.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, got) {
			return
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatalf("golden file: %v", err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatalf("golden file: %v", err)
		}
		t.Logf("rewrote %s", path)
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Errorf("golden file: %v (%s creates it)", err, rerun(t))
		return
	}
	if d := Diff(want, got); d != "" {
		t.Errorf("output differs from %s (%s rewrites it if the change is intended):\n%s", path, rerun(t), d)
	}
}

// CheckString is Check for text held in a string.
func CheckString(t testing.TB, path, got string) {
	t.Helper()
	Check(t, path, []byte(got))
}

// rerun is the command that runs the failing test again with -update.
func rerun(t testing.TB) string {
	name, _, _ := strings.Cut(t.Name(), "/")
	return fmt.Sprintf("go test -run '^%s$' -update", name)
}

// Diff describes how got differs from want, line by line: the lines both
// share at the start and the end are left out, and what stands between is
// printed as the lines of want ("-") and of got ("+"), each numbered, at
// most maxDiffLines of each. It returns "" when they are equal.
func Diff(want, got []byte) string {
	if bytes.Equal(want, got) {
		return ""
	}
	wl, gl := lines(want), lines(got)
	pre := 0
	for pre < len(wl) && pre < len(gl) && wl[pre] == gl[pre] {
		pre++
	}
	suf := 0
	for suf < len(wl)-pre && suf < len(gl)-pre && wl[len(wl)-1-suf] == gl[len(gl)-1-suf] {
		suf++
	}
	var b strings.Builder
	side := func(sign string, ls []string) {
		for i, l := range ls {
			if i == maxDiffLines {
				fmt.Fprintf(&b, "%s ... %d more lines\n", sign, len(ls)-i)
				break
			}
			fmt.Fprintf(&b, "%s %4d | %s\n", sign, pre+i+1, l)
		}
	}
	fmt.Fprintf(&b, "want %d lines, got %d; they differ from line %d:\n", len(wl), len(gl), pre+1)
	side("-", wl[pre:len(wl)-suf])
	side("+", gl[pre:len(gl)-suf])
	return b.String()
}

// lines splits text into lines; a missing final newline shows as a line of
// its own, so that it is not a difference nobody can see.
func lines(text []byte) []string {
	s := string(text)
	if s == "" {
		return nil
	}
	if strings.HasSuffix(s, "\n") {
		return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	}
	ls := strings.Split(s, "\n")
	ls[len(ls)-1] += " (no newline at end)"
	return ls
}
