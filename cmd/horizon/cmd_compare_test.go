package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// bkHead is the first three Bratko-Kopec records (testdata/bratko_kopec.epd),
// one of them with two bm moves.
const bkHead = `1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm Qd1+; id "BK.01";
3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5 w - - bm d5; id "BK.02";
r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - bm Nd5 a4; id "BK.05";
`

type compareOut struct {
	Variants    []compareVariant `json:"variants"`
	Positions   []comparePos     `json:"positions"`
	Interrupted bool             `json:"interrupted"`
}

func runCompareJSON(t *testing.T, args ...string) compareOut {
	t.Helper()
	var c compareOut
	cliJSON(t, &c, append([]string{"compare", "--json"}, args...)...)
	return c
}

// TestCompareEqualsSearch: every row of compare (parallel, searchers
// reused across positions) is what 'horizon search' prints for the same
// position and settings.
func TestCompareEqualsSearch(t *testing.T) {
	epd := writeFile(t, "bk.epd", bkHead)
	qs := "captures,see,threshold,unified"
	for _, jobs := range []string{"1", "2"} {
		t.Run("jobs="+jobs, func(t *testing.T) {
			got := runCompareJSON(t, "--epd", epd, "--depth", "3", "--qs", qs, "--jobs", jobs)
			var want []searchJSON
			cliJSON(t, &want, "search", "--epd", epd, "--depth", "3", "--qs", qs, "--json")
			if len(got.Positions) != len(want) || len(want) != 3*4 {
				t.Fatalf("compare gave %d rows, search %d, want 12", len(got.Positions), len(want))
			}
			for i, w := range want {
				g := got.Positions[i]
				if g.Variant != w.Variant || g.FEN != w.FEN || g.Nodes != w.Nodes || g.QSNodes != w.QSNodes ||
					g.MaxPly != w.MaxPly || g.MaxQSPly != w.MaxQSPly || !equalPtr(g.BestMove, w.BestMove) || !equalPtr(g.Score, w.Score) ||
					g.Depth != w.Depth || g.Status != w.Status || g.StopCause != w.StopCause {
					t.Errorf("row %d: compare %+v\nsearch %+v", i, g, w)
				}
			}
		})
	}
}

// equalPtr reports whether a and b are both nil or point to equal values.
func equalPtr[T comparable](a, b *T) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}

func TestCompareTotalsAndSolved(t *testing.T) {
	epd := writeFile(t, "bk.epd", bkHead)
	recs, err := engine.ReadEPD(strings.NewReader(bkHead), "bk.epd")
	if err != nil {
		t.Fatal(err)
	}
	got := runCompareJSON(t, "--epd", epd, "--depth", "2", "--qs", "mvv-lva,recapture")
	if len(got.Variants) != 2 {
		t.Fatalf("%d variant rows, want 2", len(got.Variants))
	}
	for vi, v := range got.Variants {
		var nodes, qs int64
		solved, maxQS := 0, 0
		for pi := range recs {
			r := got.Positions[pi*2+vi]
			if r.Variant != v.Variant || r.Position != pi+1 || r.Label != recs[pi].ID {
				t.Fatalf("row %d: %s position %d %q, want %s %d %q", pi*2+vi, r.Variant, r.Position, r.Label, v.Variant, pi+1, recs[pi].ID)
			}
			nodes += r.Nodes
			qs += r.QSNodes
			maxQS = max(maxQS, r.MaxQSPly)
			var best []string
			for _, m := range recs[pi].BestMoves {
				best = append(best, m.UCI())
			}
			if r.Solved == nil || r.BestMove == nil || *r.Solved != slices.Contains(best, *r.BestMove) {
				t.Errorf("%s %s: solved %v, best move %v, bm %v", v.Variant, r.Label, r.Solved, r.BestMove, best)
			}
			if *r.Solved {
				solved++
			}
		}
		if v.Positions != 3 || v.Nodes != nodes || v.QSNodes != qs || v.MaxQSPly != maxQS || v.Solved != solved || v.WithAnswer != 3 {
			t.Errorf("%s totals %+v; rows sum to nodes %d, qs %d, max qs ply %d, solved %d", v.Variant, v, nodes, qs, maxQS, solved)
		}
		if share := float64(qs) / float64(nodes); v.QSShare != share {
			t.Errorf("%s: QS share %v, want %v", v.Variant, v.QSShare, share)
		}
	}

	// The table names every variant and the solved column; CSV has one
	// row per position and variant with the same numbers.
	code, out, _ := runCLI(t, "", "compare", "--epd", epd, "--depth", "2", "--qs", "mvv-lva,recapture")
	if code != 0 || !strings.Contains(out, "mvv-lva") || !strings.Contains(out, "recapture") || !strings.Contains(out, "solved") {
		t.Errorf("table: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "", "compare", "--epd", epd, "--depth", "2", "--qs", "mvv-lva,recapture", "--csv")
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if code != 0 || err != nil || len(rows) != 1+6 {
		t.Fatalf("csv: exit %d, %v, %d rows\n%s", code, err, len(rows), out)
	}
	for i, row := range rows[1:] {
		if n, _ := strconv.ParseInt(row[4], 10, 64); row[0] != got.Positions[i].Variant || n != got.Positions[i].Nodes {
			t.Errorf("csv row %d: %v; json %+v", i, row, got.Positions[i])
		}
	}
}

// TestCompareTrace records every search, then reads the file back with the
// other commands: the runs hold the same node counts, check finds nothing
// wrong, and diff lines them up.
func TestCompareTrace(t *testing.T) {
	file := filepath.Join(t.TempDir(), "cmp.trace")
	got := runCompareJSON(t, "--fen", kiwipete, "--depth", "3", "--qs", "captures,see", "--tt", "false", "--trace", file, "--jobs", "2")
	var runs []runJSON
	cliJSON(t, &runs, "runs", file, "--json")
	if len(runs) != 2 {
		t.Fatalf("%d runs recorded, want 2", len(runs))
	}
	for i, r := range runs {
		p := got.Positions[i]
		if r.Variant != p.Variant || r.Nodes != p.Nodes || r.QSNodes != p.QSNodes || p.Run == nil || r.ID != *p.Run || p.BestMove == nil || !equalPtr(r.BestMove, p.BestMove) {
			t.Errorf("run %+v, compare row %+v", r, p)
		}
	}
	if code, out, errOut := runCLI(t, "", "check", file); code != 0 || strings.Count(out, "no violations") != 2 {
		t.Errorf("check: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, errOut := runCLI(t, "", "diff", file); code != 0 || !strings.Contains(out, "first difference") {
		t.Errorf("diff: exit %d\n%s%s", code, out, errOut)
	}
}

func TestCompareErrors(t *testing.T) {
	bad := writeFile(t, "bad.epd", bkHead+"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm Qxh7;\nnot a position at all\n")
	for _, tc := range []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"EPD line that does not parse", []string{"--epd", bad, "--depth", "1"}, 1, []string{"bad.epd:4"}},
		{"unknown variant", []string{"--fen", "startpos", "--qs", "captures,nosuch"}, 2, []string{"nosuch"}},
		{"no position", []string{"--depth", "2"}, 2, []string{"--fen"}},
		{"no jobs", []string{"--fen", "startpos", "--jobs", "0"}, 2, []string{"--jobs"}},
		{"json and csv", []string{"--fen", "startpos", "--json", "--csv"}, 2, []string{"--json"}},
		{"missing file", []string{"--epd", filepath.Join(t.TempDir(), "none.epd")}, 1, []string{"none.epd"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkFails(t, append([]string{"compare"}, tc.args...), tc.code, tc.want...)
		})
	}
}

// TestWholePositions: an interrupted comparison keeps the positions every
// variant searched to the end, in order.
func TestWholePositions(t *testing.T) {
	row := func(pos int, status trace.Status) comparePos {
		return comparePos{Position: pos, Status: string(status)}
	}
	done, cut := trace.StatusComplete, trace.StatusInterrupted
	rows := []comparePos{row(1, done), row(1, done), row(2, done), row(2, cut), row(3, done), {}, row(4, done), row(4, done)}
	got := []bool{true, true, true, true, true, false, true, true}
	var kept []int
	for _, r := range wholePositions(rows, got, 2) {
		kept = append(kept, r.Position)
	}
	if fmt.Sprint(kept) != "[1 1 4 4]" {
		t.Errorf("kept rows of positions %v, want [1 1 4 4]", kept)
	}
}

// TestCompareInterrupted: Ctrl-C during compare prints the positions every
// variant had searched (it printed nothing), says how many, and fails.
// The cancel comes once the file --trace records into holds a third run:
// the first position's two searches are done, the second's under way.
func TestCompareInterrupted(t *testing.T) {
	epd := writeFile(t, "bk.epd", bkHead)
	file := filepath.Join(t.TempDir(), "c.trace")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for ctx.Err() == nil {
			time.Sleep(10 * time.Millisecond)
			if st, err := trace.OpenReadOnly(file); err == nil {
				runs, err := st.Runs(context.Background())
				st.Close()
				if err == nil && len(runs) >= 3 {
					cancel()
				}
			}
		}
	}()
	code, out, errOut := runCLIContext(ctx, "", "compare", "--epd", epd, "--depth", "8", "--qs", "captures,see", "--trace", file, "--json")
	var c compareOut
	// run returns 1; main, seeing the signal, exits 130.
	if err := json.Unmarshal([]byte(out), &c); code != 1 || err != nil || !c.Interrupted || len(c.Positions) < 2 || len(c.Positions)%2 != 0 {
		t.Fatalf("exit %d (want 1 from run), %v\n%s%s", code, err, out, errOut)
	}
	for _, p := range c.Positions {
		if p.Status == string(trace.StatusInterrupted) {
			t.Errorf("an interrupted search is among the figures: %+v", p)
		}
	}
	if want := fmt.Sprintf("interrupted after %d of 3 positions", len(c.Positions)/2); !strings.Contains(errOut, want) {
		t.Errorf("stderr %q, want %q", errOut, want)
	}
}

// TestCompareJSONUntraced: compare --json without --trace gives trace and
// each position's run as null (both keys were left out); with --trace, the
// file and the run ids.
func TestCompareJSONUntraced(t *testing.T) {
	var res struct {
		Trace     json.RawMessage   `json:"trace"`
		Positions []json.RawMessage `json:"positions"`
	}
	out := cliJSON(t, &res, "compare", "--fen", "startpos", "--depth", "1", "--qs", "see", "--json")
	if string(res.Trace) != "null" || len(res.Positions) != 1 || !strings.Contains(string(res.Positions[0]), `"run": null`) {
		t.Errorf("compare --json without --trace: want trace and run null:\n%s", out)
	}
	file := filepath.Join(t.TempDir(), "c.trace")
	out = cliJSON(t, &res, "compare", "--fen", "startpos", "--depth", "1", "--qs", "see", "--trace", file, "--json")
	if string(res.Trace) != strconv.Quote(file) || len(res.Positions) != 1 || !strings.Contains(string(res.Positions[0]), `"run": 1`) {
		t.Errorf("compare --trace --json: want the file and run 1:\n%s", out)
	}
}
