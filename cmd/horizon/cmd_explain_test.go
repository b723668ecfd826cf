package main

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/horizonqs/horizon/internal/golden"
)

// explainTrace records Kiwipete searched by see to depth 3: a small run
// with QS trees, checks and evasions in QS.
func explainTrace(t *testing.T) string {
	t.Helper()
	file, _ := traceFile(t, "--fen", kiwipeteFEN, "--depth", "3", "--qs", "see")
	return file
}

// checkExplainJSON checks what every explain --json must hold: shares
// that add up to 100%, causes that add up to the nodes, a place that
// reads back for every example.
func checkExplainJSON(t *testing.T, res explainJSONOut) {
	t.Helper()
	if len(res.Subtrees) == 0 {
		t.Fatal("no subtree explained")
	}
	for _, s := range res.Subtrees {
		var n int64
		var share float64
		for _, c := range s.Causes {
			n += c.Nodes
			share += c.Share
			if c.Cause != "necessary" && (c.Example == nil || c.Example.Place == "") {
				t.Errorf("node %d: cause %s has no example with a place", s.Node, c.Cause)
			}
		}
		if n != s.Nodes || math.Abs(share-1) > 1e-9 {
			t.Errorf("node %d: causes add up to %d nodes, %.9f; want %d, 1", s.Node, n, share, s.Nodes)
		}
	}
}

// explainJSONOut is what the tests read of explain --json.
type explainJSONOut struct {
	Run      int64 `json:"run"`
	Subtrees []struct {
		Node   int64  `json:"node"`
		Place  string `json:"place"`
		Nodes  int64  `json:"nodes"`
		Causes []struct {
			Cause   string  `json:"cause"`
			Nodes   int64   `json:"nodes"`
			Share   float64 `json:"share"`
			Example *struct {
				Node  int64  `json:"node"`
				Place string `json:"place"`
			} `json:"example"`
		} `json:"causes"`
		WhatIf []struct {
			Change     string `json:"change"`
			Nodes      *int64 `json:"nodes"`
			Score      *int   `json:"score"`
			Reproduces *bool  `json:"reproduces"`
			Why        *string
		} `json:"what_if"`
	} `json:"subtrees"`
}

// TestExplainGolden keeps the text and JSON of explain's outputs: the
// default (the three biggest hotspots) with --what-if, the whole run, and
// a subtree by --path.
func TestExplainGolden(t *testing.T) {
	file := explainTrace(t)
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"hotspots_whatif", []string{"--what-if"}},
		{"run", []string{"--node", "0"}},
		{"path", []string{"--path", "iteration 3: dxe6"}},
		{"run_whatif", []string{"--node", "0", "--what-if"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"explain", file}, tc.args...)
			code, text, errOut := runCLI(t, "", args...)
			if code != 0 {
				t.Fatalf("%v: exit %d: %s", args, code, errOut)
			}
			golden.Check(t, "testdata/explain_"+tc.name+".golden", []byte(text))
			var res explainJSONOut
			out := cliJSON(t, &res, append(args, "--json")...)
			golden.Check(t, "testdata/explain_"+tc.name+"_json.golden", []byte(out))
			checkExplainJSON(t, res)
			for _, s := range res.Subtrees {
				if s.Place != "" {
					// The place reads back to the node.
					var back explainJSONOut
					cliJSON(t, &back, "explain", file, "--path", s.Place, "--json")
					if back.Subtrees[0].Node != s.Node {
						t.Errorf("--path %q explains node %d, want %d", s.Place, back.Subtrees[0].Node, s.Node)
					}
				}
				if strings.Contains(tc.name, "whatif") {
					w := s.WhatIf
					if len(w) < 2 || w[0].Reproduces == nil || !*w[0].Reproduces {
						t.Errorf("node %d: what-if %+v: the recorded options must reproduce the subtree", s.Node, w)
					}
				}
			}
		})
	}
}

// TestExplainErrors: usage errors exit 2, a node the run lacks exits 1,
// each with one line on stderr naming what is wrong.
func TestExplainErrors(t *testing.T) {
	file := explainTrace(t)
	checkFails(t, []string{"explain", file, "--top", "0"}, 2, "--top 0")
	checkFails(t, []string{"explain", file, "--node", "-2"}, 2, "--node -2")
	checkFails(t, []string{"explain", file, "--node", "99999999"}, 1, "99999999")
	checkFails(t, []string{"explain", file, "--path", "Ke8"}, 1, "Ke8")
	checkFails(t, []string{"explain", filepath.Join(t.TempDir(), "none.trace")}, 1, "none.trace")
	checkFails(t, []string{"explain"}, 2, "give a trace file")
	help := helpOf(t, "explain")
	for _, want := range []string{"losing-capture", "necessary", "deep when", "horizon explain sample.trace --node 0 --json"} {
		if !strings.Contains(help, want) {
			t.Errorf("explain --help does not say %q", want)
		}
	}
	if _, out, _ := runCLI(t, "", "--help"); !strings.Contains(out, "explain") {
		t.Error("horizon --help does not list explain")
	}
}

// TestExplainForeign explains Ethereal's and Sunfish's runs: the whole
// run and the hotspots with --what-if (Horizon's presets at each QS
// root), shares adding up to 100%.
func TestExplainForeign(t *testing.T) {
	dir := builtEngines(t)
	eth := filepath.Join(t.TempDir(), "ethereal.trace")
	foreignRunJSON(t, "trace", "--engine", filepath.Join(dir, "ethereal"), "--fen", kiwipeteFEN, "--depth", "6", "-o", eth, "--json")
	stream := filepath.Join(t.TempDir(), "sunfish.hzt")
	uciSearch(t, []string{"HORIZON_TRACE=" + stream}, kiwipeteFEN, 3, filepath.Join(dir, "sunfish"))
	sun := filepath.Join(t.TempDir(), "sunfish.trace")
	foreignRunJSON(t, "import", stream, "-o", sun, "--json")
	for _, file := range []string{eth, sun} {
		for _, args := range [][]string{{"--node", "0"}, {"--what-if"}} {
			var res explainJSONOut
			cliJSON(t, &res, append([]string{"explain", file, "--json"}, args...)...)
			checkExplainJSON(t, res)
		}
	}
}
