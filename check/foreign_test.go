package check

import (
	"context"
	"strings"
	"testing"

	"github.com/horizonqs/horizon/foreign"
	"github.com/horizonqs/horizon/foreign/foreigntest"
)

// TestCheckForeign: another engine's run is checked by the rules that hold
// for any engine, and each of them can fail.
func TestCheckForeign(t *testing.T) {
	head := "HZT 1\nengine Other\n"
	tests := []struct {
		name, stream string
		rule         string // "" for a clean run
		msg          string // in the violation's message
		path         string // the violation's path, when not ""
	}{
		{"clean", head + "position startpos\nE - 2 -50 50\nE e2e4 1 -50 50\nE e7e5 0 -50 50\nL 10\nL -10\nE 0000 1 -51 -50\nL 60\nL 10\n", "", "", ""},
		{"pseudo-legal declared", head + "moves pseudo\nposition fen 4k3/8/8/8/8/8/3r4/4K3 w - - 0 1\nE - 1 0 1\nE e1d1 0 -1 0\nL 5\nL -5\n", "", "", ""},
		{"cutoff", head + "position startpos\nE - 2 -50 50\nE e2e4 1 -50 50\nL -70\nL 10\n", RuleCutoff, "its last move e4 failed high (70 >= beta 50), but the node scored 10", ""},
		{"bound", head + "position startpos\nE - 2 -50 50\nE e2e4 1 -50 50\nL 10 b=lower\nL -10\n", RuleBound, "score 10 in window [-50, 50] makes the bound exact, the node says lower", ""},
		// "is a upper bound" (and "is a exact bound") was the message's grammar.
		{"upper bound", head + "position startpos\nE - 2 -50 50\nE e2e4 1 -50 50\nL -60 b=exact\nL 60\n", RuleBound, "score -60 in window [-50, 50] makes the bound upper, the node says exact", ""},
		{"fail-hard window", head + "scores hard\nposition startpos\nE - 2 -50 50\nE e2e4 1 -50 50\nL 80\nL -50\n", RuleScore, "", ""},
		{"fail-soft allows it", head + "position startpos\nE - 2 -50 50\nE e2e4 1 -50 50\nL 80\nL -80\n", "", "", ""},
		// A declared scale words the messages: #N and ∞, not the numbers.
		{"declared scale", "HZT 2\nengine Other\nscores hard\nmate 32000 31872\ninfinity 32000\nposition startpos\n" +
			"E - 2 -32000 32000\nE e2e4 1 -32000 -31990\nL 31998\nL -31998\n", RuleScore, "fail-hard engine scored #1 outside its window [-∞, -#5]", ""},
		// A micro-Max engine (a scale in turns) reports its root's score
		// before the delayed-loss bonus: the root's -7999 is -#1 as import,
		// runs and export print it (trace.Run.NodeScores), not the -#0 a
		// node below it would print.
		{"root on a scale in turns", "HZT 2\nmate 8000 7745 turns\ninfinity 8000\nposition startpos\n" +
			"E - 1 -100 100\nE e2e4 0 -100 100\nL 7999\nL -7999 b=exact\nend best=e2e4 time=5\n", RuleBound,
			"score -#1 in window [-100, 100] makes the bound upper, the node says exact", ""},
		// A QS node keeps to the stand pat it wrote: a fail-soft engine that
		// returns beta on its stand-pat cutoff (a fail-soft/fail-hard mix),
		// searches on past it, or returns a child's score below it (a
		// leave written without its negation) broke no rule checked.
		{"stand pat kept", head + "position startpos\nE - 1 -50 50\nE e2e4 0 -50 50\nS 70\nL 70\nE d2d4 0 -50 50\nS 20\nE d7d5 0 -50 -20\nL 40\nL 20\nL -20\n", "", "", ""},
		{"stand-pat cutoff returns beta", head + "position startpos\nE - 1 -50 50\nE e2e4 0 -50 50\nS 70\nL 50\nL -50\n", RuleStandPat, "scored 50, below the stand pat 70 it wrote", "e4"},
		{"search past the stand-pat cutoff", head + "position startpos\nE - 1 -50 50\nE e2e4 0 -50 50\nS 70\nE e7e5 0 -50 50\nL -80\nL 80\nL -80\n", RuleStandPat, "stand pat 70 reaches beta 50, but the node searched 1 move after it", "e4"},
		{"score below the stand pat", head + "position startpos\nE - 1 -50 50\nE e2e4 0 -50 50\nS 20\nE e7e5 0 -50 -20\nL 40\nL -40\nL 40\n", RuleStandPat, "scored -40, below the stand pat 20 it wrote", "e4"},
		{"fail-hard stand-pat cutoff returns beta", head + "scores hard\nposition startpos\nE - 1 -50 50\nE e2e4 0 -50 50\nS 70\nL 50\nL -50\n", "", "", ""},
		{"a hash hit after the eval", head + "position startpos\nE - 1 -50 50\nE e2e4 0 -50 50\nS 20\nL -60 c=tt\nL 60\n", "", "", ""},
		// A path through a pseudo-legal move reads in SAN, as hotspots and
		// export write it (it read "e1d1 d2e2").
		{"path through a pseudo-legal move", head + "moves pseudo\nposition fen 4k3/8/8/8/8/8/3r4/4K3 w - - 0 1\n" +
			"E - 2 -50 50\nE e1d1 1 -50 50\nE d2e2 0 -50 50\nL 10 b=lower\nL -10\nL 10\n", RuleBound, "", "Kd1 Re2+"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st, runs := foreigntest.Import(t, tc.stream, foreign.Options{})
			rep, err := Run(context.Background(), st, runs[0].RunID, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Skipped == nil || rep.Skipped.Reason != SkippedOtherEngine || !strings.Contains(rep.Skipped.Text, "qs-moves") || rep.Skipped.Rules[0] != RuleQSMoves {
				t.Errorf("skipped %+v, want the Horizon-only rules named", rep.Skipped)
			}
			switch {
			case tc.rule == "" && rep.Count != 0:
				t.Errorf("violations %+v, want none", rep.Violations)
			case tc.rule != "" && rep.ByRule[tc.rule] == 0:
				t.Errorf("violations %+v, want %s", rep.Violations, tc.rule)
			case tc.msg != "" && !strings.Contains(rep.Violations[0].Detail, tc.msg):
				t.Errorf("violation %q, want %q in it", rep.Violations[0].Detail, tc.msg)
			case tc.path != "" && strings.Join(rep.Violations[0].Path, " ") != tc.path:
				t.Errorf("violation at %q, want %q", rep.Violations[0].Path, tc.path)
			}
		})
	}
}
