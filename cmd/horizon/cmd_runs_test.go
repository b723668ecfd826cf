package main

import (
	"regexp"
	"testing"
)

// TestRunsBestMoveSAN: runs names the best move in SAN as trace, diff and the
// viewer do (it printed UCI: "d5e6" where trace said "dxe6"), and its --json
// gives best_san beside best_move (UCI), as trace --json and diff --json do.
func TestRunsBestMoveSAN(t *testing.T) {
	file, traced := traceFile(t, "--fen", kiwipete, "--depth", "2", "--qs", "captures")
	m := regexp.MustCompile(`best (\S+) \((\S+)\)`).FindStringSubmatch(traced)
	if m == nil {
		t.Fatalf("trace's summary names no best move:\n%s", traced)
	}
	san, uci := m[1], m[2]
	code, out, errOut := runCLI(t, "", "runs", file)
	if code != 0 {
		t.Fatalf("runs: exit %d: %s", code, errOut)
	}
	row := regexp.MustCompile(`(?m)^1 .*$`).FindString(out)
	if !regexp.MustCompile(`\s`+regexp.QuoteMeta(san)+`\s`).MatchString(row) || regexp.MustCompile(`\s`+uci+`\s`).MatchString(row) {
		t.Errorf("runs: best move not %s in SAN (trace says %s (%s)):\n%s", san, san, uci, out)
	}
	var runs []struct {
		BestMove *string `json:"best_move"`
		BestSAN  *string `json:"best_san"`
	}
	js := cliJSON(t, &runs, "runs", file, "--json")
	if len(runs) != 1 || runs[0].BestMove == nil || *runs[0].BestMove != uci || runs[0].BestSAN == nil || *runs[0].BestSAN != san {
		t.Errorf("runs --json: want best_move %q and best_san %q:\n%.1500s", uci, san, js)
	}
}
