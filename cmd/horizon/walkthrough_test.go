package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestHotspotsUsageListsEveryRanking checks that the usage line names every
// --by ranking the command accepts, and that each named one is accepted.
func TestHotspotsUsageListsEveryRanking(t *testing.T) {
	code, help, _ := runCLI(t, "", "hotspots", "--help")
	if code != 0 {
		t.Fatalf("hotspots --help: exit %d", code)
	}
	usage, _, _ := strings.Cut(help, "\n")
	file := filepath.Join(t.TempDir(), "h.trace")
	recordWith(t, file, "startpos", "2", "see")
	for _, by := range []string{"size", "qs", "chain", "growth"} {
		if !strings.Contains(usage, by) {
			t.Errorf("usage line %q does not name --by %s", usage, by)
		}
		if code, _, errOut := runCLI(t, "", "hotspots", file, "--by", by); code != 0 {
			t.Errorf("hotspots --by %s: exit %d: %s", by, code, errOut)
		}
	}
}

// TestSearchHelpTeaches checks search's help: examples, the rule for the
// default depth, and an example of a time limit alone.
func TestSearchHelpTeaches(t *testing.T) {
	code, help, _ := runCLI(t, "", "search", "--help")
	if code != 0 {
		t.Fatalf("search --help: exit %d", code)
	}
	for _, want := range []string{"Examples:", "with no --depth, --nodes or --movetime: 6", "horizon search --fen startpos --movetime"} {
		if !strings.Contains(help, want) {
			t.Errorf("search --help does not say %q", want)
		}
	}
}

// TestDepthZero: --depth 0 was given, so the error must not ask for it.
func TestDepthZero(t *testing.T) {
	code, _, errOut := runCLI(t, "", "search", "--fen", "startpos", "--depth", "0")
	if code != 2 {
		t.Fatalf("exit %d, want 2", code)
	}
	checkOneLineError(t, strings.SplitN(errOut, "\n", 2)[0]+"\n", "--depth 0: want 1 to")
	if strings.Contains(errOut, "no limit") {
		t.Errorf("stderr %q", errOut)
	}
}
