package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/horizonqs/horizon/internal/horizonbin"
	"github.com/horizonqs/horizon/internal/longtest"
)

// helpExamples returns every example of every command's --help (qsbench's
// subcommands included), the recording command's first: the others read
// the files its examples write.
func helpExamples(t *testing.T) []string {
	t.Helper()
	names := []string{}
	for _, c := range commands {
		names = append(names, c.name)
	}
	sort.SliceStable(names, func(i, j int) bool { return names[i] == "trace" && names[j] != "trace" })
	sub := regexp.MustCompile(`(?m)^\s+horizon (\w+ \w+) \[flags\]`)
	var out []string
	for i := 0; i < len(names); i++ {
		help := helpOf(t, strings.Fields(names[i])...)
		for _, m := range sub.FindAllStringSubmatch(help, -1) {
			names = append(names, m[1])
		}
		_, ex, ok := strings.Cut(help, "\nExamples:\n")
		if !ok {
			t.Errorf("horizon %s --help has no examples", names[i])
			continue
		}
		for _, l := range strings.Split(strings.TrimRight(ex, "\n"), "\n") {
			out = append(out, strings.TrimSpace(l))
		}
	}
	return out
}

// longExample reports whether a help example is one of the few that
// take most of TestHelpExamples' time (benchmarks of the whole bench set,
// perft to depth 6 beside Stockfish, a suite compared at depth 4): the
// long run (longtest) runs them, the quick one skips them.
func longExample(ex string) bool {
	for _, long := range []string{
		"horizon perft --bench",
		"horizon bench",
		"horizon bench --depth 4 --nodes 1000000",
	} {
		if ex == long {
			return true
		}
	}
	return strings.HasPrefix(ex, "horizon compare --epd testdata/wacnew.epd --depth 4")
}

// TestLongExamplesExist: the examples longExample names are in the help,
// so its list does not go stale (a reworded example would run in the quick
// run again, unnoticed).
func TestLongExamplesExist(t *testing.T) {
	n := 0
	for _, ex := range helpExamples(t) {
		if longExample(ex) {
			n++
		}
	}
	if n != 4 {
		t.Errorf("longExample names %d of the help's examples, want 4: update its list", n)
	}
}

// TestHelpExamples runs every example of every --help exactly as written,
// in one directory as a user following them would (testdata/ is the
// checkout's), and fails on an exit status other than 0: examples read
// sample.trace, which 'horizon trace -o sample.trace' writes, or write the
// files they read. Examples that need a terminal, an engine Horizon does
// not ship or minutes of work are named and skipped.
func TestHelpExamples(t *testing.T) {
	bin := horizonbin.Path(t)
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash: the examples are shell lines")
	}
	testdata, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(testdata, filepath.Join(dir, "testdata")); err != nil {
		t.Skipf("cannot link testdata: %v", err)
	}
	if err := os.Mkdir(filepath.Join(dir, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	skips := []struct{ has, why string }{
		{"--view", "needs a terminal"},
		{"horizon view ", "needs a terminal"},
		{"ethereal", "needs an engine Horizon does not ship (docs/foreign-engines.md)"},
		{"cutechess-cli", "needs cutechess-cli and a GUI's worth of games"},
		{"< /tmp/fifo", "needs an engine writing a stream into /tmp/fifo"},
		{"--oracle-engine", "values 1,200 positions with Stockfish (minutes)"},
		{"qsbench collect", "rebuilds the benchmark set in qsbench/data (minutes)"},
		{"horizon qsbench oracle", "recomputes the benchmark set's oracle values (minutes)"},
		{"--depth 9", "records for about 100 seconds"},
	}
	path := filepath.Dir(bin) + string(os.PathListSeparator) + os.Getenv("PATH") + string(os.PathListSeparator) + "/usr/games"
	runExample := func(t *testing.T, ex string) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, bash, "-c", "set -o pipefail; "+ex)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "PATH="+path)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s\n  %v: %s", ex, err, lastLine(string(out)))
		}
	}
	ran := 0
	// The recording command's examples run first, one after another: the
	// others read the files they write. The others write files of their
	// own, or none, so they run in parallel (as a user's would in two
	// shells): half the wall time on two cores, the test's longest.
	t.Run("others", func(t *testing.T) {
		for _, ex := range helpExamples(t) {
			why := ""
			for _, s := range skips {
				if strings.Contains(ex, s.has) {
					why = s.why
					break
				}
			}
			if longExample(ex) && longtest.Quick() {
				why = "a long example: " + longtest.Env + "=1 runs it, as .ci/run does"
			}
			if strings.Contains(ex, "| jq") {
				if _, err := exec.LookPath("jq"); err != nil {
					why = "jq is not installed"
				}
			}
			if why != "" {
				t.Logf("skipped (%s): %s", why, ex)
				continue
			}
			ran++
			if strings.HasPrefix(ex, "horizon trace ") {
				runExample(t, ex)
				continue
			}
			t.Run(ex, func(t *testing.T) {
				t.Parallel()
				runExample(t, ex)
			})
		}
	})
	if ran < 30 {
		t.Fatalf("ran %d examples: the help texts were not read", ran)
	}
}

// lastLine is the last non-empty line of s: where an error says itself.
func lastLine(s string) string {
	l := strings.Split(strings.TrimSpace(s), "\n")
	return l[len(l)-1]
}

// TestHelpLayout: no help line ends in a space and a "Flags:" heading
// always has flags under it ('uci --help' had "Usage: horizon uci " and an
// empty Flags: section).
func TestHelpLayout(t *testing.T) {
	for _, c := range commands {
		help := helpOf(t, c.name)
		for i, l := range strings.Split(help, "\n") {
			if strings.TrimRight(l, " \t") != l {
				t.Errorf("horizon %s --help, line %d ends in a space: %q", c.name, i+1, l)
			}
		}
		if _, flags, ok := strings.Cut(help, "\nFlags:\n"); ok && !strings.HasPrefix(flags, "  -") {
			t.Errorf("horizon %s --help: a Flags: heading without flags", c.name)
		}
		// The prose (lines not indented, up to the flags) fills its lines:
		// edits had left "Hash sizes the transposition table, and Trace
		// names a" alone on a line of uci's help.
		about, flags, _ := strings.Cut(help, "\nFlags:\n")
		for _, l := range strings.Split(flags, "\n") {
			if text, ok := strings.CutPrefix(l, flagIndent); ok && utf8.RuneCountInString(text) > helpWidth-8 {
				t.Errorf("horizon %s --help: a flag's text is wider than %d columns: %q", c.name, helpWidth, text)
			}
		}
		// A flag's text gives its default once: view's --node said
		// "default: the last iteration's root) (default -1)".
		for _, f := range strings.Split(flags, "\n  -") {
			if text := strings.Join(strings.Fields(f), " "); strings.Contains(text, "default:") && strings.Contains(text, "(default ") {
				t.Errorf("horizon %s --help: a flag gives two defaults: %q", c.name, text)
			}
		}
		lines := strings.Split(about, "\n")[1:] // after the usage line
		prose := func(l string) bool { return l != "" && l[0] != ' ' && l != "Examples:" }
		for i, l := range lines {
			if prose(l) && utf8.RuneCountInString(l) > helpWidth {
				t.Errorf("horizon %s --help: %q is longer than %d columns", c.name, l, helpWidth)
			}
			if i+1 < len(lines) && prose(l) && prose(lines[i+1]) {
				next, _, _ := strings.Cut(lines[i+1], " ")
				if n := utf8.RuneCountInString(l) + 1 + utf8.RuneCountInString(next); n <= helpWidth {
					t.Errorf("horizon %s --help: a ragged line %q: %q fits after it", c.name, l, next)
				}
			}
		}
	}
}
