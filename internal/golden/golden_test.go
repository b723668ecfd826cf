package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that keeps what Check reports instead of failing.
type recorder struct {
	testing.TB
	errs, logs []string
}

func (r *recorder) Helper()      {}
func (r *recorder) Name() string { return "TestThing/case_1" }
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}
func (r *recorder) Logf(format string, args ...any) {
	r.logs = append(r.logs, fmt.Sprintf(format, args...))
}

func setUpdate(t *testing.T, on bool) {
	old := *update
	*update = on
	t.Cleanup(func() { *update = old })
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.golden")
	if err := os.WriteFile(path, []byte("one\ntwo\nthree\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		path string
		got  string
		want []string // substrings of the one error; none: it passes
	}{
		{"equal", path, "one\ntwo\nthree\n", nil},
		{"changed line", path, "one\n2\nthree\n", []string{
			"output differs from " + path,
			"go test -run '^TestThing$' -update rewrites it",
			"want 3 lines, got 3; they differ from line 2:\n-    2 | two\n+    2 | 2\n",
		}},
		{"inserted line", path, "one\ntwo\nnew\nthree\n", []string{"they differ from line 3:\n+    3 | new\n"}},
		{"missing newline", path, "one\ntwo\nthree", []string{"-    3 | three\n+    3 | three (no newline at end)\n"}},
		{"missing file", filepath.Join(dir, "none.golden"), "x\n", []string{"no such file", "go test -run '^TestThing$' -update creates it"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &recorder{TB: t}
			Check(r, tc.path, []byte(tc.got))
			if len(tc.want) == 0 {
				if len(r.errs) != 0 {
					t.Fatalf("Check failed on equal output: %q", r.errs)
				}
				return
			}
			if len(r.errs) != 1 {
				t.Fatalf("Check reported %q, want one error", r.errs)
			}
			for _, w := range tc.want {
				if !strings.Contains(r.errs[0], w) {
					t.Errorf("error %q lacks %q", r.errs[0], w)
				}
			}
		})
	}
}

func TestCheckUpdate(t *testing.T) {
	setUpdate(t, true)
	path := filepath.Join(t.TempDir(), "new", "dir", "b.golden")
	for _, content := range []string{"first\n", "second\n", "second\n"} {
		r := &recorder{TB: t}
		CheckString(r, path, content)
		if len(r.errs) != 0 {
			t.Fatalf("-update: %q", r.errs)
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != content {
			t.Fatalf("-update wrote %q, %v; want %q", got, err, content)
		}
	}
	setUpdate(t, false)
	r := &recorder{TB: t}
	CheckString(r, path, "first\n")
	if len(r.errs) != 1 {
		t.Fatalf("after -update the file still matches the old output: %q", r.errs)
	}
}

func TestDiff(t *testing.T) {
	long := strings.Repeat("x\n", 30)
	for _, tc := range []struct {
		name, want, got, diff string
	}{
		{"equal", "a\n", "a\n", ""},
		{"empty want", "", "a\n", "want 0 lines, got 1; they differ from line 1:\n+    1 | a\n"},
		{"removed at end", "a\nb\n", "a\n", "want 2 lines, got 1; they differ from line 2:\n-    2 | b\n"},
		{"capped", "", long, "+   20 | x\n+ ... 10 more lines\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := Diff([]byte(tc.want), []byte(tc.got))
			if tc.diff == "" && d != "" || !strings.Contains(d, tc.diff) || tc.name == "capped" && strings.Contains(d, "  21 |") {
				t.Errorf("Diff(%q, %q) =\n%s\nwant it to hold\n%s", tc.want, tc.got, d, tc.diff)
			}
		})
	}
}
