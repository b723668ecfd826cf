package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestVariantLabel: a run searched with a switch set on top of its preset
// is named by the same label (the options' variant spec) in every command
// that shows a run's variant, and that label, passed back to --qs, searches
// the same tree. The walkthrough found "see" everywhere for a run with
// --see-prune false, while qsbench called it see+see-prune=false.
func TestVariantLabel(t *testing.T) {
	const label = "see+see-prune=false"
	file, out := traceFile(t, "--fen", "startpos", "--depth", "3", "--qs", "see", "--see-prune", "false")
	if !strings.Contains(out, "variant "+label) {
		t.Errorf("trace says\n%s\nwant variant %s", out, label)
	}
	// Run 2: the plain preset, to diff against.
	if code, _, stderr := runCLI(t, "", "trace", "--fen", "startpos", "--depth", "3", "--qs", "see", "-o", file); code != 0 {
		t.Fatalf("trace run 2: exit %d: %s", code, stderr)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"runs", file}, "1    " + label},
		{[]string{"stats", file, "--run", "1"}, "variant " + label},
		{[]string{"hotspots", file, "--run", "1"}, "variant " + label},
		{[]string{"check", file, "--run", "1"}, "(" + label + ","},
		{[]string{"check", file, "--run", "1", "--json"}, `"variant": "` + label + `"`},
		{[]string{"stats", file, "--run", "1", "--json"}, `"variant": "` + label + `"`},
		{[]string{"diff", file, "--run", "1", "--run", "2"}, "variant " + label + ", complete\nB: run 2 of " + file + ", variant see,"},
		{[]string{"export", file, "--run", "1", "--format", "json"}, `"variant": "` + label + `"`},
		{[]string{"export", file, "--run", "1", "--format", "dot", "--max-nodes", "5"}, "variant " + label + ", depth 3"},
		{[]string{"search", "--fen", "startpos", "--depth", "2", "--qs", "see", "--see-prune", "false"}, "variant " + label + "\n"},
		{[]string{"compare", "--fen", "startpos", "--depth", "2", "--qs", label + ",see", "--json"}, `"variant": "` + label + `"`},
	} {
		code, stdout, stderr := runCLI(t, "", tc.args...)
		if code != 0 {
			t.Errorf("%v: exit %d: %s", tc.args, code, stderr)
		} else if !strings.Contains(stdout, tc.want) {
			t.Errorf("%v printed\n%s\nwant %q", tc.args, stdout, tc.want)
		}
	}
	// The label read back as --qs searches the same options: the same tree.
	var runs []struct {
		Variant string `json:"variant"`
		Nodes   int64  `json:"nodes"`
	}
	cliJSON(t, &runs, "runs", file, "--json")
	again, _ := traceFile(t, "--fen", "startpos", "--depth", "3", "--qs", runs[0].Variant)
	var back []struct {
		Variant string `json:"variant"`
		Nodes   int64  `json:"nodes"`
	}
	cliJSON(t, &back, "runs", again, "--json")
	if len(runs) != 2 || len(back) != 1 || back[0] != runs[0] {
		t.Errorf("--qs %s searched %+v, want %+v", runs[0].Variant, back, runs[0])
	}

	// A switch flag that makes two variants the same is refused, not run twice.
	code, _, stderr := runCLI(t, "", "search", "--fen", "startpos", "--depth", "1", "--qs", label+",see", "--see-prune", "false")
	if code != 2 || !strings.Contains(stderr, "both "+label) {
		t.Errorf("two variants made one: exit %d, %q", code, stderr)
	}
}

// TestPositionLabel: an EPD record is named by one rule (positionLabel:
// its id, else FILE:LINE) in search, compare and trace, text and JSON;
// search named a record without id by its FEN alone where compare said
// FILE:LINE (walkthrough), and had no --id to pick a record as trace has.
func TestPositionLabel(t *testing.T) {
	const fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
	epd := writeFile(t, "two.epd", "4k3/8/8/8/8/8/4P3/4K3 w - -\n4k3/8/8/8/8/8/3QP3/4K3 w - - id \"queen\";\n")
	noID := epd + ":1"
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"search", "--epd", epd, "--depth", "1"}, []string{"info string position " + noID + " " + fen + " variant", "info string position queen "}},
		{[]string{"search", "--epd", epd, "--depth", "1", "--json"}, []string{`"label": "` + noID + `"`, `"label": "queen"`}},
		{[]string{"compare", "--epd", epd, "--depth", "1", "--qs", "none,see", "--json"}, []string{`"label": "` + noID + `"`, `"label": "queen"`}},
		{[]string{"trace", "--epd", epd, "--depth", "1", "-o", filepath.Join(t.TempDir(), "t.trace"), "--json"}, []string{`"label": "` + noID + `"`, `"label": "queen"`}},
	} {
		code, stdout, stderr := runCLI(t, "", tc.args...)
		if code != 0 {
			t.Errorf("%v: exit %d: %s", tc.args, code, stderr)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(stdout, w) {
				t.Errorf("%v printed\n%.2000s\nwant %q", tc.args, stdout, w)
			}
		}
	}
	// search --id picks a record, as trace --id does.
	code, stdout, stderr := runCLI(t, "", "search", "--epd", epd, "--id", "queen", "--depth", "1")
	if code != 0 || strings.Contains(stdout, noID) || !strings.Contains(stdout, "position queen ") {
		t.Errorf("search --id queen: exit %d, %s%s", code, stdout, stderr)
	}
	if code, _, _ := runCLI(t, "", "search", "--fen", "startpos", "--id", "queen"); code != 2 {
		t.Errorf("search --id without --epd: exit %d, want 2", code)
	}
}
