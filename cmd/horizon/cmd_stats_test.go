package main

import (
	"strings"
	"testing"
)

// TestStatsSaysWhatItCounts: stats' figures are of the rows recorded, and
// it says so where they are not the search's (a recording filter, runs'
// nodes being the search's); it gives no branching factor where there is
// none (the first iteration; a run recorded under a move path, whose rows
// are not whole iterations) and marks an iteration the search stopped in.
// The walkthrough found "EBF 0.00" for iteration 1, an unfinished
// iteration's EBF unmarked, and "nodes 2,357" for a filtered run that
// runs called 53,626 nodes with an EBF computed from those rows.
func TestStatsSaysWhatItCounts(t *testing.T) {
	for _, tc := range []struct {
		name    string
		args    []string
		partial []bool // per iteration
		ebf     []bool // per iteration: has an EBF
		ply     bool   // nodes^(1/d) given
		text    []string
	}{
		{"complete", []string{"--depth", "3"}, []bool{false, false, false}, []bool{false, true, true}, true,
			[]string{"  nodes 777  QS nodes", "\n            1     25        24     -        25.00\n",
				// It said "below the horizon", which QS nodes all are.
				"% past the QS roots (the nodes QS adds: without QS the roots are leaves)\n"}},
		{"stopped in iteration 5", []string{"--nodes", "3000"}, []bool{false, false, false, false, true}, []bool{false, true, true, true, false}, true,
			[]string{"  nodes 3,000  QS nodes", "\n    5 (unfinished)  "}},
		{"under a path", []string{"--depth", "4", "--last-iteration", "--under", "Nf3,Nf6"}, []bool{false}, []bool{false}, false,
			[]string{" recorded (", " searched; recording filter: last-iteration; under g1f3 g8f6)", "no EBF or nodes^(1/d)",
				"QS share ", "% of the nodes recorded;"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file, _ := traceFile(t, append([]string{"--fen", "startpos", "--qs", "see", "--see-prune", "false"}, tc.args...)...)
			var out []struct {
				Nodes           int64   `json:"nodes"`
				QSNodes         int64   `json:"qs_nodes"`
				QSShare         float64 `json:"qs_share"`
				RecordedNodes   int64   `json:"recorded_nodes"`
				RecordedQSNodes int64   `json:"recorded_qs_nodes"`
				Filter          string  `json:"filter"`
				Iterations      []struct {
					EBF     *float64 `json:"ebf"`
					PlyEBF  *float64 `json:"ply_ebf"`
					Partial bool     `json:"partial"`
				} `json:"iterations"`
			}
			cliJSON(t, &out, "stats", file, "--json")
			if len(out) != 1 || len(out[0].Iterations) != len(tc.partial) {
				t.Fatalf("stats --json: %+v", out)
			}
			j := out[0]
			if filtered := len(tc.args) > 2; filtered != (j.Nodes > j.RecordedNodes) || filtered != (j.Filter != "") ||
				filtered != (j.QSNodes > j.RecordedQSNodes) {
				t.Errorf("%d nodes recorded, %d searched (QS: %d, %d), filter %q", j.RecordedNodes, j.Nodes, j.RecordedQSNodes, j.QSNodes, j.Filter)
			}
			// "nodes" and "qs_nodes" mean what they mean in runs: the
			// nodes searched, also when a filter left some unrecorded.
			var runs []struct {
				Nodes   int64 `json:"nodes"`
				QSNodes int64 `json:"qs_nodes"`
			}
			cliJSON(t, &runs, "runs", file, "--json")
			if len(runs) != 1 || runs[0].Nodes != j.Nodes || runs[0].QSNodes != j.QSNodes {
				t.Errorf("runs --json says %+v, stats --json %d nodes and %d QS nodes", runs, j.Nodes, j.QSNodes)
			}
			// And qs_share what it means in trace --json: of the nodes
			// searched (it was of the rows, under a filter).
			if want := float64(j.QSNodes) / float64(j.Nodes); j.QSShare != want {
				t.Errorf("stats --json qs_share %v, want %v (%d of %d)", j.QSShare, want, j.QSNodes, j.Nodes)
			}
			for i, it := range j.Iterations {
				// An unfinished iteration has no nodes^(1/d) either.
				ply := tc.ply && !tc.partial[i]
				if it.Partial != tc.partial[i] || (it.EBF != nil) != tc.ebf[i] || (it.PlyEBF != nil) != ply {
					t.Errorf("iteration %d: partial %v, EBF %v, nodes^(1/d) %v; want %v, %v, %v", i+1, it.Partial, it.EBF, it.PlyEBF, tc.partial[i], tc.ebf[i], ply)
				}
			}
			_, text, _ := runCLI(t, "", "stats", file)
			for _, want := range tc.text {
				if !strings.Contains(text, want) {
					t.Errorf("stats says\n%s\nwant %q", text, want)
				}
			}
		})
	}
}

// TestQSOnlyRunHasNoIteration: a QS-only run has no iterations: stats
// prints no iteration table for it (it printed the header over no rows),
// and export names its top node without one (it said "(iteration 0: )").
func TestQSOnlyRunHasNoIteration(t *testing.T) {
	file, _ := traceFile(t, "--fen", kiwipete, "--qs-only", "--qs", "see")
	code, out, errOut := runCLI(t, "", "stats", file)
	if code != 0 || strings.Contains(out, "iteration") || !strings.Contains(out, "  ply  nodes  QS nodes") {
		t.Errorf("stats: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = runCLI(t, "", "export", file, "--max-nodes", "5")
	if code != 0 || strings.Contains(out, "iteration 0") || !strings.Contains(out, "Subtree of node 1: ") {
		t.Errorf("export: exit %d\n%.600s%s", code, out, errOut)
	}
}
