package uci

import (
	"strconv"
	"strings"
	"testing"

	"github.com/horizonqs/horizon/engine"
)

// TestInertMessages: a switch set while the one it needs is off gets the
// info string naming its own need, for every switch that can be without
// effect. SEEPrune and Delta after QSMoves none said "stand-pat needs
// qs-moves other than none": the first of the switches sharing that need,
// not the one just set.
func TestInertMessages(t *testing.T) {
	none := "qs-moves other than none (qs-moves none has no QS: horizon nodes return the static eval)"
	cases := []struct {
		setup []string // setoption lines sent first
		line  string
		want  string // the one info string line gets, exactly
	}{
		{[]string{"QSMoves value none"}, "StandPat value true", "StandPat true has no effect for now: stand-pat needs " + none},
		{[]string{"QSMoves value none"}, "SEEPrune value true", "SEEPrune true has no effect for now: see-prune needs " + none},
		{[]string{"QSMoves value none"}, "Delta value true", "Delta true has no effect for now: delta needs " + none},
		{[]string{"QSMoves value none"}, "QSChecks value true", "QSChecks true has no effect for now: qs-checks needs " + none},
		{[]string{"QSMoves value none"}, "QSEvasions value true", "QSEvasions true has no effect for now: qs-evasions needs " + none},
		{[]string{"QSMoves value none"}, "QSLevels value 3", "QSLevels 3 has no effect for now: qs-levels needs " + none},
		{[]string{"QSMoves value none"}, "MaxQSPly value 10", "MaxQSPly 10 has no effect for now: max-qs-ply needs " + none},
		{[]string{"QSVariant value unified"}, "QSLevels value 3",
			"QSLevels 3 has no effect for now: qs-levels needs unified false (the unified search runs its own QS as its depth<=0 iteration)"},
		{nil, "QSThreshold value 100",
			"QSThreshold 100 has no effect for now: qs-threshold needs qs-levels above 0 (it is an argument of the threshold QS, which qs-levels 0 turns off)"},
		{[]string{"QSVariant value captures"}, "DeltaMargin value 50",
			"DeltaMargin 50 has no effect for now: delta-margin needs delta true (it is the margin of delta pruning, which delta false turns off)"},
		{[]string{"TT value false"}, "Hash value 64",
			"Hash 64 has no effect for now: hash needs tt true (it sizes the transposition table, which tt false turns off)"},
		// Several at once share one need, named together.
		{nil, "QSMoves value none",
			"StandPat true, SEEPrune true, Delta true, QSChecks true, QSEvasions true have no effect for now: " +
				"stand-pat, see-prune, delta, qs-checks, qs-evasions need " + none},
	}
	for _, tc := range cases {
		c := startSession(t)
		for _, l := range tc.setup {
			c.send("setoption name " + l)
		}
		c.send("isready")
		c.untilPrefix("readyok")
		c.send("setoption name "+tc.line, "isready")
		msgs := infoStrings(c.untilPrefix("readyok"))
		if len(msgs) != 1 || msgs[0] != tc.want {
			t.Errorf("%v then %q: info strings %q, want %q", tc.setup, tc.line, msgs, tc.want)
		}
		c.quit()
	}
	// Every switch the engine can leave without effect, under each switch
	// it needs, is in the table above.
	pairs := inertPairs(t)
	if len(pairs) == 0 {
		t.Fatal("DropInert dropped nothing from any preset: the search for inert switches is broken")
	}
	for pair := range pairs {
		found := false
		for _, tc := range cases {
			if strings.Contains(tc.want, pair.Switch+" needs "+pair.Needs) {
				found = true
			}
		}
		if !found {
			t.Errorf("no case for %s without effect (%s needs %s)", pair.Switch, pair.Switch, pair.Needs)
		}
	}
}

// inertPairs is every switch and need DropInert reports from any preset
// with any two switches set to any of their values (ints: min, min+1, max).
func inertPairs(t *testing.T) map[engine.Inert]bool {
	t.Helper()
	specs := engine.OptionSpecs()
	values := func(s engine.OptionSpec) []string {
		switch s.Kind {
		case "bool":
			return []string{"true", "false"}
		case "int":
			return []string{strconv.Itoa(s.Min), strconv.Itoa(s.Min + 1), strconv.Itoa(s.Max)}
		}
		return s.Enum
	}
	out := map[engine.Inert]bool{}
	for _, v := range engine.VariantNames() {
		p, err := engine.VariantOptions(v)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range specs {
			for _, av := range values(a) {
				for _, b := range specs {
					for _, bv := range values(b) {
						o := p
						if a.Set(&o, av) != nil || b.Set(&o, bv) != nil {
							continue
						}
						_, dropped := o.DropInert()
						for _, in := range dropped {
							out[engine.Inert{Switch: in.Switch, Needs: in.Needs}] = true
						}
					}
				}
			}
		}
	}
	return out
}
