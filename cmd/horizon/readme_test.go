package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// tour returns the README's tour: its lines that run ./horizon.
func tour(t *testing.T) (readme string, lines []string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Skipf("no README.md: %v", err)
	}
	readme = string(b)
	_, rest, ok := strings.Cut(readme, "## A tour")
	if !ok {
		t.Fatal("README.md has no tour")
	}
	for _, l := range strings.Split(rest, "\n") {
		if strings.HasPrefix(l, "./horizon ") {
			lines = append(lines, l)
		}
	}
	if len(lines) < 5 {
		t.Fatalf("the tour has %d commands", len(lines))
	}
	return readme, lines
}

// TestTourLeavesCheckoutClean: every file the tour writes in the checkout
// is ignored by git, so following the tour leaves 'git status' clean
// (issue 16: it left tree.svg and map.svg).
func TestTourLeavesCheckoutClean(t *testing.T) {
	_, lines := tour(t)
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	outs := 0
	for _, l := range lines {
		f := strings.Fields(strings.Split(l, "#")[0])
		for i := 0; i+1 < len(f); i++ {
			if f[i] != "-o" && f[i] != "--plot" {
				continue
			}
			outs++
			name := f[i+1]
			if filepath.IsAbs(name) {
				continue
			}
			cmd := exec.Command(git, "-C", root, "check-ignore", "-q", "--no-index", name)
			if err := cmd.Run(); err != nil {
				t.Errorf("the tour writes %s into the checkout and git does not ignore it (%s)", name, l)
			}
		}
	}
	if outs < 3 {
		t.Fatalf("found %d output files in the tour", outs)
	}
}

// TestReadmeCaptureMatchesTour: the viewer capture under "What it looks
// like" is of the trace the tour records (issue 16: depth 4 against the
// tour's depth 5).
func TestReadmeCaptureMatchesTour(t *testing.T) {
	readme, lines := tour(t)
	var depth string
	for _, l := range lines {
		if m := regexp.MustCompile(`^\./horizon trace --depth (\d+) .*-o kiwi\.trace`).FindStringSubmatch(l); m != nil {
			depth = m[1]
		}
	}
	if depth == "" {
		t.Fatal("the tour records no kiwi.trace")
	}
	_, capture, ok := strings.Cut(readme, "## What it looks like")
	if !ok {
		t.Fatal("README.md has no viewer capture")
	}
	m := regexp.MustCompile(`kiwi\.trace │ run \d+ \(\d+ of \d+\) \S+ │ depth (\d+) `).FindStringSubmatch(capture)
	if m == nil {
		t.Fatal("no viewer header in the capture")
	}
	if m[1] != depth {
		t.Errorf("the capture shows a depth-%s run; the tour records depth %s", m[1], depth)
	}
}
