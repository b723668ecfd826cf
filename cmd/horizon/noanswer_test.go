package main

import (
	"database/sql"
	"strings"
	"testing"
)

// TestNoIterationFinished: a search stopped before its first iteration
// finished has no score and no best move, only a move a UCI engine would
// play (Kiwipete stopped at 10 nodes: the first legal move, Kd1, never
// searched). The walkthrough found "score": 0 and "best_move": "e1d1" in
// search --json, and compare counted a position solved by that move; the
// trace's summary gave "best Kd1", runs' SQL score 0, and diff scored the
// run 0 and B-A against it.
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

	file, out := traceFile(t, "--fen", kiwipete, "--nodes", "10", "--qs", "see")
	if !strings.Contains(out, "best none  score none") {
		t.Errorf("trace's summary:\n%s", out)
	}
	if code, _, errOut := runCLI(t, "", "trace", "--fen", kiwipete, "--depth", "1", "--qs", "see", "-o", file); code != 0 {
		t.Fatalf("trace: %s", errOut)
	}
	db, err := sql.Open("sqlite3", file)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var score, best, pv sql.NullString
	if err := db.QueryRow("SELECT score, best_move, pv FROM runs WHERE id = 1").Scan(&score, &best, &pv); err != nil || score.Valid || best.Valid || pv.Valid {
		t.Errorf("runs row: score %v, best_move %v, pv %v (%v); want NULLs", score, best, pv, err)
	}
	checkNoAnswer := func(what string) {
		t.Helper()
		var runs []struct {
			BestMove *string  `json:"best_move"`
			Score    *int     `json:"score"`
			PV       []string `json:"pv"`
		}
		cliJSON(t, &runs, "runs", file, "--json")
		if len(runs) != 2 || runs[0].BestMove != nil || runs[0].Score != nil || len(runs[0].PV) != 0 || runs[1].BestMove == nil {
			t.Errorf("%s: runs --json %+v", what, runs)
		}
		var d struct {
			A struct {
				Score    *int    `json:"score"`
				BestMove *string `json:"best_move"`
				BestSAN  *string `json:"best_san"`
			} `json:"a"`
		}
		cliJSON(t, &d, "diff", file, "--run", "1", "--run", "2", "--json")
		if d.A.Score != nil || d.A.BestMove != nil || d.A.BestSAN != nil {
			t.Errorf("%s: diff --json gives run 1 score %v, best move %v (%v); want nulls", what, d.A.Score, d.A.BestMove, d.A.BestSAN)
		}
		_, text, _ := runCLI(t, "", "diff", file, "--run", "1", "--run", "2")
		if !strings.Contains(text, "score   none") {
			t.Errorf("%s: diff:\n%s", what, text)
		}
	}
	checkNoAnswer("this Horizon's file")
	// A file of an earlier Horizon kept the move it would have played,
	// and a score of 0.
	if _, err := db.Exec("UPDATE runs SET score = 0, best_move = 'e1d1', pv = 'e1d1' WHERE id = 1"); err != nil {
		t.Fatal(err)
	}
	checkNoAnswer("an earlier Horizon's file")
}
