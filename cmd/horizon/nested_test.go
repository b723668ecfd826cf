package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// nestedTrace imports testdata/nested.hzt (a depth-2 search whose root
// makes two IID searches and a singular test of e2e4: nodes 2-3, 4-5 and
// 6-7), changed by edit, into a trace file of its own.
func nestedTrace(t *testing.T, edit func(string) string) string {
	t.Helper()
	stream, err := os.ReadFile(filepath.Join("testdata", "nested.hzt"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(stream)
	if edit != nil {
		s = edit(s)
	}
	file := filepath.Join(t.TempDir(), "nested.trace")
	if code, _, stderr := runCLI(t, "", "import", writeFile(t, "nested.hzt", s), "-o", file); code != 0 {
		t.Fatalf("import: %s", stderr)
	}
	return file
}

// TestNestedStats: stats counts nested searches and their nodes by
// reason, in its text and --json; a run without any has "nested": [].
func TestNestedStats(t *testing.T) {
	file := nestedTrace(t, nil)
	_, out, _ := runCLI(t, "", "stats", file)
	for _, want := range []string{"nested search  searches  nodes\n", "iid         2      4\n", "singular         1      2\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("stats has no %q:\n%s", want, out)
		}
	}
	var js []struct {
		Nested []struct {
			Reason   string `json:"reason"`
			Searches int64  `json:"searches"`
			Nodes    int64  `json:"nodes"`
		} `json:"nested"`
	}
	cliJSON(t, &js, "stats", file, "--json")
	if len(js) != 1 || len(js[0].Nested) != 2 || js[0].Nested[0].Reason != "iid" || js[0].Nested[0].Searches != 2 || js[0].Nested[0].Nodes != 4 ||
		js[0].Nested[1].Reason != "singular" || js[0].Nested[1].Searches != 1 || js[0].Nested[1].Nodes != 2 {
		t.Errorf("stats --json nested: %+v", js)
	}
	plain, _ := traceFile(t, "--fen", "startpos", "--depth", "1")
	if raw := cliJSON(t, &js, "stats", plain, "--json"); !strings.Contains(raw, `"nested": []`) {
		t.Errorf("a run without nested searches: %s", raw)
	}
}

// TestNestedPathFlags: every command that takes --path reads a place
// through a nested search back to its node, and prints the places of
// nested searches (hotspots, explain, export's heading, diff) with their
// marks; export's DOT labels a nested root with its mark.
func TestNestedPathFlags(t *testing.T) {
	file := nestedTrace(t, nil)
	var ex struct {
		TopPlace string `json:"top_place"`
		Nodes    []struct {
			ID  int64  `json:"id"`
			SAN string `json:"san"`
		} `json:"nodes"`
	}
	cliJSON(t, &ex, "export", file, "--path", "iteration 2: [iid]·2 d4", "--format", "json")
	if ex.TopPlace != "iteration 2: [iid]·2 d4" || len(ex.Nodes) != 1 || ex.Nodes[0].ID != 5 {
		t.Errorf("export --path: %+v, want node 5 at iteration 2: [iid]·2 d4", ex)
	}
	_, dot, _ := runCLI(t, "", "export", file, "--node", "1", "--format", "dot")
	for _, want := range []string{`label="[iid]\n`, `label="[singular -e2e4]\n`} {
		if !strings.Contains(dot, want) {
			t.Errorf("export's DOT has no %q:\n%s", want, dot)
		}
	}
	_, out, _ := runCLI(t, "", "explain", file, "--path", "[singular -e2e4]")
	if !strings.Contains(out, "node 6  iteration 2: [singular -e2e4]\n") {
		t.Errorf("explain --path [singular -e2e4]:\n%s", out)
	}
	_, out, _ = runCLI(t, "", "hotspots", file)
	if !strings.Contains(out, "iteration 2: [iid]·2 d4\n") {
		t.Errorf("hotspots:\n%s", out)
	}
	code, _, stderr := runCLI(t, "", "export", file, "--path", "[razor]", "--format", "dot")
	if code != 1 || !strings.Contains(stderr, "its nested searches: [iid], [singular -e2e4]") {
		t.Errorf("export --path [razor]: exit %d, %s", code, stderr)
	}
	b := nestedTrace(t, func(s string) string {
		return strings.Replace(s, "S -20\nL -20\nL 20\n", "S -30\nL -30\nL 30\n", 1)
	})
	_, out, _ = runCLI(t, "", "diff", file, b)
	if !strings.Contains(out, "first difference, in visit order, at iteration 2: [iid]·1 e4:") {
		t.Errorf("diff:\n%s", out)
	}
}
