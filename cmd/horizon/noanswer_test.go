package main

import (
	"strings"
	"testing"
)

// TestNoIterationFinished: a search stopped before its first iteration
// finished has no score and no best move, only a move a UCI engine would
// play (Kiwipete stopped at 10 nodes: the first legal move, Kd1, never
// searched). The walkthrough found "score": 0 and "best_move": "e1d1" in
// search --json, and compare counted a position solved by that move.
func TestNoIterationFinished(t *testing.T) {
	var s struct {
		BestMove *string  `json:"best_move"`
		Score    *int     `json:"score"`
		PV       []string `json:"pv"`
		Depth    int      `json:"depth"`
	}
	cliJSON(t, &s, "search", "--fen", kiwipete, "--nodes", "10", "--qs", "see", "--json")
	if s.BestMove != nil || s.Score != nil || len(s.PV) != 0 || s.Depth != 0 {
		t.Errorf("search --json: best move %v, score %v, pv %v, depth %d; want null, null, [], 0", s.BestMove, s.Score, s.PV, s.Depth)
	}
	code, out, _ := runCLI(t, "", "search", "--fen", kiwipete, "--nodes", "10", "--qs", "see")
	if code != 0 || !strings.Contains(out, "info string no iteration finished") || !strings.Contains(out, "\nbestmove ") {
		t.Errorf("search: exit %d\n%s", code, out)
	}

	epd := writeFile(t, "kd1.epd", kiwipete[:strings.LastIndex(kiwipete, " 0 1")]+" bm Kd1; id \"kd1\";\n")
	var c struct {
		Positions []struct {
			BestMove *string `json:"best_move"`
			Score    *int    `json:"score"`
			Solved   *bool   `json:"solved"`
		} `json:"positions"`
	}
	cliJSON(t, &c, "compare", "--epd", epd, "--nodes", "10", "--qs", "see", "--json")
	if len(c.Positions) != 1 {
		t.Fatalf("compare: %+v", c)
	}
	if p := c.Positions[0]; p.BestMove != nil || p.Score != nil || p.Solved == nil || *p.Solved {
		t.Errorf("compare: best move %v, score %v, solved %v; want null, null, false", p.BestMove, p.Score, p.Solved)
	}
}
