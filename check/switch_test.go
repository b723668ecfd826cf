package check

import (
	"context"
	"fmt"
	"strconv"
	"testing"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/internal/longtest"
	"github.com/horizonqs/horizon/trace"
	"github.com/horizonqs/horizon/trace/tracetest"
)

// switchFlips returns, for a preset's options, each switch set away from
// the preset's value, as the engine's switch table does (hash left out: it
// changes no rule).
func switchFlips(o engine.Options) map[string]string {
	out := map[string]string{}
	for _, s := range engine.OptionSpecs() {
		switch s.Kind {
		case "bool":
			b, _ := strconv.ParseBool(s.Get(&o))
			out[s.Name] = strconv.FormatBool(!b)
		}
	}
	out["qs-moves"] = "recaptures"
	if o.QSMoves == engine.QSRecaptures {
		out["qs-moves"] = "captures"
	}
	out["qs-order"] = "tutorial"
	if o.Ordering == engine.OrderTutorial {
		out["qs-order"] = "mvv-lva"
	}
	out["qs-levels"] = "4"
	if o.QSLevels > 0 {
		out["qs-levels"] = "1"
	}
	out["qs-threshold"] = "300"
	out["delta-margin"] = "50"
	out["max-qs-ply"] = "2"
	return out
}

// TestCheckEverySwitch: traces of every preset with every switch the
// engine accepts on top of it check clean, so each rule agrees with what
// every routine does with every switch.
func TestCheckEverySwitch(t *testing.T) {
	st, _ := tracetest.CreateTrace(t)
	depth := 3
	if longtest.Quick() {
		depth = 2
	}
	for _, name := range engine.VariantNames() {
		base := tracetest.VariantOptions(t, name)
		for sw, val := range switchFlips(base) {
			o := base
			if err := o.Set(sw, val); err != nil {
				t.Fatal(err)
			}
			if o.Validate() != nil {
				continue
			}
			run := tracetest.RecordSearch(t, st, tracetest.Kiwipete, o, engine.Limits{Depth: depth, Nodes: 60_000})
			checkClean(t, st, run, 3, fmt.Sprintf("%s %s=%s", name, sw, val))
		}
	}
}

// TestCheckFindsCorruptPruning damages a trace of the see preset where its
// pruning rules would notice: a searched capture replaced by one that loses
// material by SEE, a delta-pruned node given a stand pat that reaches
// alpha, and a run whose options claim see-prune without it.
func TestCheckFindsCorruptPruning(t *testing.T) {
	ctx := context.Background()
	// losingCapture finds a QS leaf whose parent, a QS node not in check,
	// has a capture that loses by SEE: the damage writes it as the leaf's
	// move.
	losingCapture := func(t *testing.T, st *trace.Store, run int64) (trace.Node, int64) {
		var found *trace.Node
		var move engine.Move
		var parents = map[int64]trace.Node{}
		err := st.Subtree(ctx, run, 0, -1, func(n trace.Node) error {
			parents[n.ID] = n
			p, ok := parents[n.Parent]
			if found != nil || !ok || n.Kind != engine.KindQS || p.Kind != engine.KindQS || p.InCheck || n.SubtreeSize != 1 {
				return nil
			}
			pos, err := st.Position(ctx, run, p.ID)
			if err != nil {
				return err
			}
			for _, m := range pos.LegalMoves() {
				if pos.IsCapture(m) && pos.SEE(m) < 0 {
					found, move = &n, m
					return nil
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if found == nil {
			t.Fatal("no QS leaf whose parent has a losing capture")
		}
		return *found, int64(move)
	}
	deltaNode := func(t *testing.T, st *trace.Store, run int64) (trace.Node, int64) {
		n := tracetest.FirstNode(t, st, run, "node delta-pruned before its moves", func(n trace.Node) bool {
			return n.Cause == engine.CauseDelta && n.Generated == 0
		})
		return n, int64(n.Alpha) // a stand pat at alpha: a queen lifts it above
	}
	for _, tc := range []struct {
		name, sql, rule string
		victim          func(*testing.T, *trace.Store, int64) (trace.Node, int64)
		options         func(o *engine.Options)
	}{
		{name: "SEE-losing capture searched", sql: "UPDATE node_rows SET move = ?2 WHERE run_id = ?3 AND id = ?1", rule: RuleSEE, victim: losingCapture},
		{name: "delta-pruned node whose stand pat reaches alpha", sql: "UPDATE node_rows SET stand_diff = score - ?2 WHERE run_id = ?3 AND id = ?1", rule: RuleDelta, victim: deltaNode},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, path, run := cleanTrace(t, "see")
			victim, v := tc.victim(t, st, run)
			damageAndFind(t, st, path, run, victim, v, tc.sql, tc.rule, "")
		})
	}

	// Options that claim see-prune over a tree searched without it.
	st, _ := tracetest.CreateTrace(t)
	o := tracetest.VariantOptions(t, "mvv-lva")
	pos := engine.MustParseFEN(tracetest.Kiwipete)
	rec, err := st.NewRecorder(ctx, trace.RunInfo{FEN: tracetest.Kiwipete, Variant: "mvv-lva", Options: func() string {
		claim := o
		claim.SEEPrune = true
		return claim.JSON()
	}()}, trace.RecordOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res := engine.NewSearcher(o).Search(rec.Context(), pos, engine.Limits{Depth: 3}, rec)
	if err := rec.Finish(trace.Result{BestMove: res.BestMove, Score: res.Score, PV: res.PV, Depth: res.Depth}); err != nil {
		t.Fatal(err)
	}
	rep, err := Run(ctx, st, rec.RunID(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.ByRule[RuleSEE] == 0 {
		t.Errorf("options claim see-prune over a tree without it: no %s violation (%+v)", RuleSEE, rep.ByRule)
	}
}

// TestCheckRefusedOptions: a run whose recorded options are a combination
// refused today opens and checks, with one options violation.
func TestCheckRefusedOptions(t *testing.T) {
	st, _ := tracetest.CreateTrace(t)
	o := tracetest.VariantOptions(t, "unified")
	o.QSLevels = 3 // refused today; an older Horizon searched unified's own QS and ignored it
	run := tracetest.RecordSearch(t, st, tracetest.Kiwipete, o, engine.Limits{Depth: 2})
	rep, err := Run(context.Background(), st, run, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.ByRule[RuleOptions] != 1 || rep.Count != 1 {
		t.Errorf("want exactly one %s violation, got %+v", RuleOptions, rep.ByRule)
	}
}

// TestCheckSwitchCombinations: traces of switch combinations that once drew
// a violation from a rule, not from the search, check clean.
func TestCheckSwitchCombinations(t *testing.T) {
	const promo = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"
	tests := []struct {
		spec, fen string
		depth     int
		why       string
	}{
		{"unified+check-ext=true", promo, 4,
			"iteration 1 extends a check to depth 1, iteration 2 searches it at depth 1 unextended with a wider window: not a PVS re-search"},
	}
	st, _ := tracetest.CreateTrace(t)
	for _, tc := range tests {
		o, err := engine.ParseVariantSpec(tc.spec)
		if err != nil {
			t.Fatal(err)
		}
		run := tracetest.RecordSearch(t, st, tc.fen, o, engine.Limits{Depth: tc.depth})
		checkClean(t, st, run, 3, tc.spec+" ("+tc.why+")")
	}
}
