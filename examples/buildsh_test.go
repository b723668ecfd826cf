package examples

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fakeSources lays out the files build.sh looks at before it builds, as
// the releases its patches fit have them, and returns the three folders.
func fakeSources(t *testing.T) (ethereal, sunfish, fairymax string) {
	t.Helper()
	root := t.TempDir()
	ethereal, sunfish, fairymax = filepath.Join(root, "Ethereal"), filepath.Join(root, "sunfish"), filepath.Join(root, "fmax")
	for path, text := range map[string]string{
		filepath.Join(ethereal, "src", "search.c"):     "int search;\n",
		filepath.Join(ethereal, "src", "uci.h"):        "#define VERSION_ID \"12.00\"\n",
		filepath.Join(sunfish, "sunfish.py"):           "class Searcher:\n    def bound(self, pos, gamma, depth):\n        pass\n",
		filepath.Join(sunfish, "sunfish_ui", "uci.py"): "\n",
		filepath.Join(fairymax, "fairymax.c"):          "#define VERSION \"5.0b\"\n",
		filepath.Join(fairymax, "data", "fmax.ini"):    "\n",
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return ethereal, sunfish, fairymax
}

// buildSh runs examples/engines/build.sh into out with env added to a
// clean environment (no ENGINES of the caller's).
func buildSh(t *testing.T, out string, env ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("sh", filepath.Join("engines", "build.sh"), out)
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k != "ENGINES" && k != "ETHEREAL_SRC" && k != "SUNFISH_SRC" && k != "FAIRYMAX_SRC" {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, env...)
	msg, err := cmd.CombinedOutput()
	return string(msg), err
}

// TestBuildShRefuses: build.sh takes each engine's sources from its own
// variable (ETHEREAL_SRC, SUNFISH_SRC, FAIRYMAX_SRC) and refuses, with one
// line saying which variable and what it found, a folder without the
// engine or with another release than its patch fits, before it builds
// anything or makes OUTDIR.
func TestBuildShRefuses(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("sh is not on PATH")
	}
	for _, tc := range []struct {
		name    string
		break_  func(ethereal, sunfish, fairymax string) error
		wantHas string
	}{
		{"no Ethereal", func(e, s, f string) error { return os.RemoveAll(filepath.Join(e, "src")) }, "has no src/search.c: set ETHEREAL_SRC"},
		{"Ethereal 13", func(e, s, f string) error {
			return os.WriteFile(filepath.Join(e, "src", "uci.h"), []byte("#define VERSION_ID \"13.00\"\n"), 0o644)
		}, `is not Ethereal 12.00 (VERSION_ID "13.00")`},
		{"no sunfish_ui", func(e, s, f string) error { return os.RemoveAll(filepath.Join(s, "sunfish_ui")) }, "has no sunfish_ui/uci.py: set SUNFISH_SRC"},
		{"Sunfish without bound", func(e, s, f string) error {
			return os.WriteFile(filepath.Join(s, "sunfish.py"), []byte("def search(): pass\n"), 0o644)
		}, "has no Searcher.bound"},
		{"Fairy-Max 4.8", func(e, s, f string) error {
			return os.WriteFile(filepath.Join(f, "fairymax.c"), []byte("#define VERSION \"4.8\"\n"), 0o644)
		}, "is not Fairy-Max 5.0b"},
		{"no fmax.ini", func(e, s, f string) error { return os.Remove(filepath.Join(f, "data", "fmax.ini")) }, "has no data/fmax.ini: set FAIRYMAX_SRC"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, s, f := fakeSources(t)
			if err := tc.break_(e, s, f); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(t.TempDir(), "out")
			msg, err := buildSh(t, out, "ENGINES=/nonexistent", "ETHEREAL_SRC="+e, "SUNFISH_SRC="+s, "FAIRYMAX_SRC="+f)
			if err == nil || !strings.Contains(msg, tc.wantHas) || strings.Count(strings.TrimSpace(msg), "\n") != 0 {
				t.Fatalf("build.sh: %v, %q; want exit 1 and one line saying %q", err, msg, tc.wantHas)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("build.sh refused but made %s", out)
			}
		})
	}
}

// TestBuildShCheckouts: the engines build from checkouts wherever they
// are, named by the three variables with ENGINES pointing nowhere: copies
// of ../shared/engines under other names stand in for a user's checkouts.
func TestBuildShCheckouts(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: not building Ethereal, Sunfish and Fairy-Max")
	}
	shared := filepath.Join("..", "..", "shared", "engines")
	if _, err := os.Stat(filepath.Join(shared, "ethereal", "src", "search.c")); err != nil {
		t.Skip("../shared/engines is absent: no engine sources to build")
	}
	for _, tool := range []string{"cc", "patch", "python3"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skip(tool + " is not on PATH")
		}
	}
	if _, err := os.Stat("/usr/include/tbprobe.h"); err != nil {
		t.Skip("libfathom-dev is not installed (Debian's Ethereal source needs it)")
	}
	root := t.TempDir()
	// Unoptimised: this test only starts the engines, and -O2 is most of
	// its time (Ethereal compiled twice).
	vars := []string{"ENGINES=/nonexistent", "OPT=-O0"}
	for name, v := range map[string]string{"ethereal": "ETHEREAL_SRC", "sunfish": "SUNFISH_SRC", "fairymax": "FAIRYMAX_SRC"} {
		dst := filepath.Join(root, "my "+name+" checkout")
		if err := copyTree(filepath.Join(shared, name), dst); err != nil {
			t.Fatal(err)
		}
		vars = append(vars, v+"="+dst)
	}
	out := filepath.Join(root, "out")
	if msg, err := buildSh(t, out, vars...); err != nil {
		t.Fatalf("build.sh: %v\n%s", err, msg)
	}
	for _, bin := range []string{"ethereal", "ethereal-plain", "sunfish", "sunfish-plain", "fairymax", "fairymax-plain", "fairymax-uci", "fairymax-plain-uci"} {
		cmd := exec.Command(filepath.Join(out, bin))
		if strings.HasPrefix(bin, "fairymax") && !strings.HasSuffix(bin, "-uci") {
			continue // an xboard engine: its UCI adapter is tried instead
		}
		cmd.Stdin = strings.NewReader("uci\nquit\n")
		got, err := cmd.Output()
		if err != nil || !strings.Contains(string(got), "uciok") {
			t.Errorf("%s: %v, no uciok:\n%s", bin, err, got)
		}
	}
	launcher, err := os.ReadFile(filepath.Join(out, "sunfish"))
	if err != nil || !strings.Contains(string(launcher), "my sunfish checkout") {
		t.Errorf("the sunfish launcher does not run SUNFISH_SRC's Sunfish: %v\n%s", err, launcher)
	}
}
