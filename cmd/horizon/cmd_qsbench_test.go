package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/internal/horizonbin"
	"github.com/horizonqs/horizon/qsbench"
)

// qsbenchRecord is the first record of qsbench/data/qsbench.epd.
const qsbenchRecord = `3rr3/3q2pk/p2p1pnp/8/2QpPP2/PP6/6PP/4RRK1 w - - id "qsb.0001"; class tactical; src "BK.19"; lm c5d4; ` +
	`lmpos "3rr3/3q2pk/p2p1pnp/2p5/2QBPP2/PP6/6PP/4RRK1 b - - 0 2"; ce -235; acd 7; acn 920192; pv Qxd4 Qg4 h3 Qg3 Qe3 Qh4 f5; ` +
	`oracle "horizon see+see-prune=false+delta=false"; hmvc 0; fmvn 3;`

type qsbenchOut struct {
	Positions int               `json:"positions"`
	Completed int               `json:"completed"`
	Oracle    string            `json:"oracle"`
	Variants  []qsbench.Summary `json:"variants"`
	Worst     []qsWorstJSON     `json:"worst"`
}

// TestQSBenchEndToEnd builds a small set with collect and oracle, runs the
// benchmark, and opens a worst position with the trace command it prints:
// the trace holds the same QS the benchmark ran.
func TestQSBenchEndToEnd(t *testing.T) {
	src := writeFile(t, "bk.epd", bkHead)
	set := filepath.Join(filepath.Dir(src), "set.epd")
	code, out, errOut := runCLI(t, "", "qsbench", "collect", "--sources", src, "--skip", "BK.02", "--depth", "2", "--quiet", "3", "--tactical", "3", "-o", set)
	if code != 0 {
		t.Fatalf("collect: exit %d, %s", code, errOut)
	}
	if !strings.Contains(out, "wrote 6 positions (3 tactical, 3 quiet)") {
		t.Errorf("collect printed %q", out)
	}
	// No oracle yet: a clear error.
	code, _, errOut = runCLI(t, "", "qsbench", "--epd", set)
	if code != 1 || !strings.Contains(errOut, "has no oracle value") {
		t.Errorf("bench without oracle: exit %d, %q", code, errOut)
	}
	code, out, errOut = runCLI(t, "", "qsbench", "oracle", "--epd", set, "--depth", "3")
	if code != 0 {
		t.Fatalf("oracle: exit %d, %s", code, errOut)
	}
	recs, err := qsbench.ReadFile(context.Background(), set)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 6 || recs[0].Oracle.Depth != 3 {
		t.Fatalf("%d records, oracle %+v", len(recs), recs[0].Oracle)
	}

	var got qsbenchOut
	cliJSON(t, &got, "qsbench", "--epd", set, "--qs", "none,recapture,see+qs-checks=false", "--worst", "2", "--json", "--jobs", "2")
	if got.Positions != 6 || got.Completed != 6 || len(got.Variants) != 3 || len(got.Worst) != 6 {
		t.Fatalf("positions %d completed %d, %d variants, %d worst", got.Positions, got.Completed, len(got.Variants), len(got.Worst))
	}
	if got.Variants[2].Variant != "see+qs-checks=false" || got.Variants[0].QSNodesMax != 0 {
		t.Errorf("variants %+v", got.Variants)
	}
	for _, w := range got.Worst {
		if w.Variant != "recapture" && w.Variant != "see+qs-checks=false" {
			continue
		}
		args := strings.Fields(w.Trace)
		if args[0] != "horizon" || args[len(args)-2] != "-o" {
			t.Fatalf("trace command %q", w.Trace)
		}
		args[len(args)-1] = filepath.Join(t.TempDir(), "w.trace")
		var runs []traceRunJSON
		cliJSON(t, &runs, append(args[1:], "--json")...)
		if w.Stopped || w.Score == nil {
			t.Fatalf("%s: stopped %v, score %v with no node cap reached", w.ID, w.Stopped, w.Score)
		}
		if len(runs) != 1 || runs[0].QSNodes != w.QSNodes || runs[0].Score == nil || *runs[0].Score != *w.Score {
			t.Errorf("%s: trace has %d QS nodes, score %v; the benchmark %d, %d", w.Trace, runs[0].QSNodes, runs[0].Score, w.QSNodes, *w.Score)
		}
		code, _, cerr := runCLI(t, "", "check", args[len(args)-1])
		if code != 0 {
			t.Errorf("check of %s: exit %d, %s", w.Trace, code, cerr)
		}
	}

	// The table and CSV.
	code, out, _ = runCLI(t, "", "qsbench", "--epd", set, "--qs", "none,see", "--plot", filepath.Join(t.TempDir(), "p.svg"))
	if code != 0 || !strings.Contains(out, "MAE cp") || !strings.Contains(out, "plot written to") {
		t.Errorf("table: exit %d\n%s", code, out)
	}
	// Every column is said under the table and in --help (bias was not).
	_, help, _ := runCLI(t, "", "qsbench", "--help")
	for column, said := range map[string]string{"sign err": "sign err:", "bias cp": "bias:", "Pareto": "Pareto *:", "time µs/pos": "time:"} {
		if !strings.Contains(out, column) || !strings.Contains(out, said) {
			t.Errorf("the table's column %q is not said under it (%q):\n%s", column, said, out)
		}
		if word, _, _ := strings.Cut(column, " "); !strings.Contains(help, word) {
			t.Errorf("qsbench --help does not say %q", word)
		}
	}
	code, out, _ = runCLI(t, "", "qsbench", "--epd", set, "--qs", "none,see", "--csv")
	if code != 0 || strings.Count(out, "\n") != 1+2*6 {
		t.Errorf("csv: exit %d, %d lines\n%s", code, strings.Count(out, "\n"), out)
	}
	// "oracle" is the oracle's name wherever it is a key; its value in a
	// worst row or a CSV row is oracle_score (the worst rows gave it as
	// "oracle", a number beside the name's string).
	if head, _, _ := strings.Cut(out, "\n"); !strings.Contains(head, ",score,oracle_score,error_cp,") {
		t.Errorf("csv header %q", head)
	}
	var generic struct {
		Oracle any
		Worst  []map[string]any
	}
	cliJSON(t, &generic, "qsbench", "--epd", set, "--qs", "see", "--worst", "1", "--json")
	if _, ok := generic.Oracle.(string); !ok || len(generic.Worst) != 1 {
		t.Fatalf("qsbench --json: oracle %v, %d worst rows", generic.Oracle, len(generic.Worst))
	}
	if w := generic.Worst[0]; w["oracle"] != nil || w["oracle_score"] == nil {
		t.Errorf("a worst row gives the oracle's value as %v (oracle) and %v (oracle_score)", w["oracle"], w["oracle_score"])
	}
}

func TestQSBenchUsage(t *testing.T) {
	set := writeFile(t, "s.epd", "# empty\n")
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"qsbench", "--qs", "see+bogus=1"}, 2, "unknown search option"},
		{[]string{"qsbench", "--qs", "see,see+qs-checks=true"}, 2, "name the same options"},
		{[]string{"qsbench", "--json", "--csv"}, 2, "not both"},
		{[]string{"qsbench", "--jobs", "0"}, 2, "--jobs"},
		{[]string{"qsbench", "extra"}, 2, "unexpected argument"},
		{[]string{"qsbench", "--epd", set}, 1, "no positions"},
		{[]string{"qsbench", "--epd", filepath.Join(t.TempDir(), "missing.epd")}, 1, "missing.epd"},
		{[]string{"qsbench", "collect", "--depth", "0"}, 2, "--depth"},
		{[]string{"qsbench", "collect", "--sources", "../../testdata/bratko_kopec.epd", "--skip", "BK.99"}, 2, "no source position \"BK.99\""},
		{[]string{"qsbench", "oracle", "--epd", set, "--depth", "99"}, 2, "--depth 99: want 1 to 20"},
		// Each names the flag out of range; the line listed every flag's.
		{[]string{"qsbench", "--limit", "-1"}, 2, "--limit -1: want 0 or more"},
		{[]string{"qsbench", "--repeat", "0"}, 2, "--repeat 0: want 1 or more"},
		{[]string{"qsbench", "oracle", "--epd", set, "--engine-depth", "0"}, 2, "--engine-depth 0: want 1 or more"},
		{[]string{"qsbench", "collect", "--per-source", "0"}, 2, "--per-source 0: want 1 or more"},
		{[]string{"qsbench", "collect", "--quiet", "0", "--tactical", "0"}, 2, "--quiet and --tactical are both 0: nothing to collect"},
		{[]string{"diff", set, "--changed", "0"}, 2, "--changed 0: want 1 or more"},
		{[]string{"trace", "--qs-only", "--under", "e4"}, 2, "--qs-only"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			checkFails(t, tc.args, tc.code, tc.want)
		})
	}
	if _, err := os.Stat("../../qsbench/data/qsbench.epd"); err != nil {
		t.Errorf("the committed set is missing: %v", err)
	}
}

// Collect with sources other than the default ones: the default --skip
// names Stockfish bench positions and must not ask for them there; a
// collect usage error points to 'qsbench collect --help'.
func TestQSBenchCollectDefaultSkip(t *testing.T) {
	out := filepath.Join(t.TempDir(), "m.epd")
	code, stdout, errOut := runCLI(t, "", "qsbench", "collect", "--sources", "../../testdata/bratko_kopec.epd",
		"--depth", "1", "--quiet", "2", "--tactical", "2", "-o", out)
	if code != 0 || !strings.Contains(stdout, "wrote 4 positions") {
		t.Fatalf("collect from bratko_kopec alone: exit %d, %s%s", code, stdout, errOut)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "stockfish_bench") {
		t.Errorf("the header names a skip that did not apply:\n%s", b)
	}
	checkFails(t, []string{"qsbench", "collect", "--depth", "0"}, 2, "'horizon qsbench collect --help'")
	checkFails(t, []string{"qsbench", "oracle", "--depth", "0"}, 2, "'horizon qsbench oracle --help'")
	// As --max-nodes: 0 is no cap to some readers and stops every QS to
	// others; it was accepted and ran uncapped without the help saying so.
	checkFails(t, []string{"qsbench", "--max-qs-nodes", "0"}, 2, "--max-qs-nodes 0: want a positive number")
}

// TestQSBenchNoneCompared: when every position has some variant's QS
// stopped, --json gives the figures over no position as null, as the text
// gives "-" (it gave 0 for the means and MAE), and names the oracle (it
// gave "", and the text's footer "against  (0 positions").
func TestQSBenchNoneCompared(t *testing.T) {
	var got struct {
		Variants []map[string]any `json:"variants"`
	}
	cliJSON(t, &got, "qsbench", "--epd", "../../qsbench/data/qsbench.epd", "--limit", "5", "--qs", "see,captures", "--max-qs-nodes", "1",
		"--repeat", "1", "--second", "none", "--json")
	for _, v := range got.Variants {
		if v["compared"] != float64(0) {
			t.Fatalf("%v compared %v positions, want none", v["variant"], v["compared"])
		}
		for _, k := range []string{"qs_nodes_mean", "qs_nodes_p90", "qs_nodes_max", "qs_nodes_total", "max_qs_ply", "time_ms", "time_us_mean"} {
			if x, ok := v[k]; !ok || x != nil {
				t.Errorf("%v: %s %v, want null", v["variant"], k, x)
			}
		}
		e, _ := v["error"].(map[string]any)
		if e["mae_cp"] != nil || e["bias_cp"] != nil || e["sign_errors"] != nil || e["oracle"] == "" || e["oracle"] == nil {
			t.Errorf("%v: error %v, want null figures and the oracle named", v["variant"], e)
		}
	}
}

// A QS stopped by --max-qs-nodes has no value: it is counted per variant,
// flagged in the worst rows (JSON and text) instead of being scored -∞,
// and the positions where any variant stopped are left out of every
// variant's figures, so all are compared on the same positions (each
// variant's errors were over its own finished positions, and a variant
// stopped more often could take the Pareto front on easier ones). A
// stopped QS counts exactly the cap's nodes (it counted one more). The
// variants' options are an object with typed values.
func TestQSBenchStopped(t *testing.T) {
	const n = 30
	args := []string{"qsbench", "--epd", "../../qsbench/data/qsbench.epd", "--limit", "30", "--qs", "see,captures", "--max-qs-nodes", "3",
		"--worst", "30", "--repeat", "1", "--second", "none"}
	var got struct {
		Variants []struct {
			Variant    string `json:"variant"`
			Positions  int    `json:"positions"`
			Stopped    int    `json:"stopped"`
			Compared   int    `json:"compared"`
			QSNodesMax int64  `json:"qs_nodes_max"`
			Error      struct {
				Positions  int     `json:"positions"`
				MAE        float64 `json:"mae_cp"`
				SignErrors int     `json:"sign_errors"`
			} `json:"error"`
			Options map[string]any `json:"options"`
		} `json:"variants"`
		Worst []qsWorstJSON `json:"worst"`
	}
	cliJSON(t, &got, append(args, "--json")...)
	anyStopped := map[string]bool{}
	stopped := map[string]int{}
	for _, w := range got.Worst {
		switch {
		case w.Stopped:
			anyStopped[w.ID] = true
			stopped[w.Variant]++
			if w.Score != nil || w.Error != nil || !strings.Contains(w.QSLine, "stopped by --max-qs-nodes 3") || w.QSNodes != 3 {
				t.Errorf("%s stopped row %s: score %v, error %v, %d QS nodes, line %q; want no value and the cap's 3 nodes",
					w.Variant, w.ID, w.Score, w.Error, w.QSNodes, w.QSLine)
			}
		case w.Score == nil || *w.Score <= -int(engine.Infinity) || w.QSNodes >= 3:
			t.Errorf("%s row %s: score %v after %d QS nodes; want a value in fewer than the cap's 3", w.Variant, w.ID, w.Score, w.QSNodes)
		}
	}
	compared := n - len(anyStopped)
	for _, v := range got.Variants {
		if v.Stopped == 0 || v.Stopped == n || v.Positions != n || stopped[v.Variant] != v.Stopped {
			t.Errorf("%s: %d of %d positions stopped (%d stopped rows in worst); want some, not all, of %d", v.Variant, v.Stopped,
				v.Positions, stopped[v.Variant], n)
		}
		if v.Compared != compared || v.Error.Positions != compared || v.QSNodesMax >= 3 {
			t.Errorf("%s: figures over %d positions, errors over %d, QS nodes max %d; want both over the %d every variant finished",
				v.Variant, v.Compared, v.Error.Positions, v.QSNodesMax, compared)
		}
		if v.Options["qs_checks"] == nil {
			t.Errorf("options %v: want an object with variant and every switch", v.Options)
		}
		if _, ok := v.Options["qs_checks"].(bool); !ok {
			t.Errorf("options.qs_checks is %T, want a JSON boolean", v.Options["qs_checks"])
		}
	}
	if len(got.Variants) != 2 || compared == 0 || compared == n-got.Variants[0].Stopped && compared == n-got.Variants[1].Stopped {
		t.Fatalf("%d variants, %d compared positions; the test wants the variants stopped on different positions", len(got.Variants), compared)
	}
	code, out, _ := runCLI(t, "", args...)
	want := []string{"QS stopped on reaching 3 QS nodes", fmt.Sprintf("figures over the %d every variant finished", compared),
		fmt.Sprintf("all figures are over the %d positions every variant finished", compared)}
	for _, w := range want {
		if code != 0 || strings.Contains(out, "-∞") || !strings.Contains(out, w) {
			t.Errorf("table: exit %d, want %q in\n%s", code, w, out)
		}
	}
}

// The worst list's QS line says why a QS has no moves: a side in check is
// not said to stand pat.
func TestQSLineText(t *testing.T) {
	mated, err := qsbench.ParseRecord(`rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - id "m"; lm d8h4; lmpos "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2"; hmvc 1; fmvn 3;`)
	if err != nil {
		t.Fatal(err)
	}
	check, err := qsbench.ParseRecord(`rnb1kbnr/pppp1ppp/8/4p3/7q/5P2/PPPPP1PP/RNBQKBNR w KQkq - id "c"; lm d8h4; lmpos "rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR b KQkq - 0 2"; hmvc 1; fmvn 3;`)
	if err != nil {
		t.Fatal(err)
	}
	quiet, err := qsbench.ParseRecord(`rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id "q"; lm e2e4; lmpos "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";`)
	if err != nil {
		t.Fatal(err)
	}
	see, _ := engine.ParseVariantSpec("see")
	noEv, _ := engine.ParseVariantSpec("see+qs-evasions=false")
	tests := []struct {
		name string
		p    *qsbench.Position
		o    engine.Options
		cap  int64
		want string
	}{
		{"mated", mated, see, 0, "(checkmated: no legal move)"},
		{"in check, evasions", check, see, 0, "g3"},
		{"in check, stopped", check, see, 1, "(stopped by --max-qs-nodes 1: no value)"},
		{"quiet", quiet, see, 0, "(stands pat)"},
		{"in check, no evasions", check, noEv, 0, "searches no evasions"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := qsbench.Bench(context.Background(), []*qsbench.Position{tc.p}, qsbench.NewVariants([]engine.Options{tc.o}),
				qsbench.Config{Jobs: 1, NodeLimit: tc.cap}, nil)
			if err != nil {
				t.Fatal(err)
			}
			run := r.Runs[0][0]
			if got := qsLineText(tc.p, run, tc.o, tc.cap); !strings.Contains(got, tc.want) {
				t.Errorf("QS line %q (score %d, pv %v, stopped %v), want %q", got, run.Score, run.PV, run.Stopped, tc.want)
			}
		})
	}
}

// TestOracleFIFONeedsOutput: qsbench oracle writes the valued set back
// into --epd by default; a FIFO given as --epd is refused without -o
// before any work (the set would go to the FIFO's next reader).
func TestOracleFIFONeedsOutput(t *testing.T) {
	ff := filepath.Join(t.TempDir(), "set.epd")
	if err := syscall.Mkfifo(ff, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	code, stdout, stderr := runCLI(t, "", "qsbench", "oracle", "--epd", ff)
	if code != 2 || stdout != "" || !strings.Contains(stderr, "--epd "+ff+" is a FIFO: give -o FILE") {
		t.Errorf("qsbench oracle --epd FIFO: exit %d, stdout %q, stderr %q; want 2 and the need for -o", code, stdout, stderr)
	}
}

// TestEngineOracleScoreBeyondScale: an oracle engine's score that a set
// cannot hold is an error naming it, not skipped (the value would have
// been an earlier info line's).
func TestEngineOracleScoreBeyondScale(t *testing.T) {
	set := writeFile(t, "set.epd", qsbenchRecord+"\n")
	eng := shEngine(t, "Far", "",
		`go) echo "info depth 1 score cp 30 nodes 3 pv d2d4"; echo "info depth 2 score cp 50000 nodes 9 pv d2d4"; echo "bestmove d2d4" ;;`)
	out := filepath.Join(t.TempDir(), "second.epd")
	code, _, stderr := runCLI(t, "", "qsbench", "oracle", "--epd", set, "--oracle-engine", eng, "--engine-depth", "2", "--jobs", "1", "-o", out)
	if code != 1 || !strings.Contains(stderr, "score cp 50000") || fileExists(out) {
		t.Errorf("exit %d, stderr %q, %s written %v; want 1, the score named, nothing written", code, stderr, out, fileExists(out))
	}
}

// TestQSPlotSubtitle: the plot of a run that did not take every position
// says over how many of the set's its figures are, and a Ctrl-C's plot
// that it was interrupted; it read "243 horizon positions" of 1,200.
func TestQSPlotSubtitle(t *testing.T) {
	o := qsbench.Oracle{Name: "horizon see", Depth: 7}
	for _, tc := range []struct {
		n, total    int
		interrupted bool
		want        string
	}{
		{1200, 1200, false, "1,200 horizon positions; oracle: horizon see, depth 7; scores clamped to ±1500 cp"},
		{243, 1200, true, "243 of 1,200 horizon positions (interrupted); oracle"},
		{1190, 1200, false, "1,190 of 1,200 horizon positions; oracle"},
	} {
		if got := qsPlotSubtitle(o, tc.n, tc.total, tc.interrupted); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%d of %d, interrupted %v: %q, want it to begin %q", tc.n, tc.total, tc.interrupted, got, tc.want)
		}
	}
}

// TestQSBenchOutputFirst: a file qsbench is to write (-o, --plot) that
// cannot be written is an error before any work. oracle and collect
// created it after the work (minutes, for the committed set's oracle), and
// then failed, the work lost; qsbench ran the benchmark, then lost its
// table to a --plot in a missing folder. A context cancelled from the
// start tells the order: the work stops at once as interrupted, so only
// an output checked before it is reported.
func TestQSBenchOutputFirst(t *testing.T) {
	set := writeFile(t, "set.epd", qsbenchRecord+"\n")
	src := writeFile(t, "bk.epd", bkHead)
	bad := filepath.Join(t.TempDir(), "missing", "out")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, args := range [][]string{
		{"qsbench", "oracle", "--epd", set, "-o", bad + ".epd"},
		{"qsbench", "oracle", "--epd", set, "--oracle-engine", "/bin/true", "-o", bad + ".epd"},
		{"qsbench", "collect", "--sources", src, "-o", bad + ".epd"},
		{"qsbench", "--epd", set, "--plot", bad + ".svg"},
	} {
		code, _, stderr := runCLIContext(ctx, "", args...)
		if code != 1 || !strings.Contains(stderr, "cannot write in "+filepath.Dir(bad)) {
			t.Errorf("%v: exit %d, %q; want exit 1 naming the folder it cannot write in", args, code, stderr)
		}
	}
	// An output that is an input is refused as early.
	code, _, stderr := runCLIContext(ctx, "", "qsbench", "collect", "--sources", src, "-o", src)
	if code != 1 || !strings.Contains(stderr, "which this command reads") {
		t.Errorf("collect -o its source: exit %d, %q", code, stderr)
	}
}

// TestQSBenchParetoTies: the captures-based presets return the same value
// on every position of the committed set, so their MAE ties and the
// cheapest of them dominates the others. The table then marks one of them,
// and its legend says the rule markPareto applies (qsbench.ParetoRule); it
// said "no other variant has both fewer mean QS nodes and a lower MAE",
// which the unmarked ones met.
func TestQSBenchParetoTies(t *testing.T) {
	set := filepath.Join("..", "..", "qsbench", "data", "qsbench.epd")
	args := []string{"qsbench", "--epd", set, "--qs", "captures,mvv-lva,unified", "--second", "none", "--repeat", "1"}
	var got qsbenchOut
	cliJSON(t, &got, append(args, "--json")...)
	marked := 0
	for _, a := range got.Variants {
		dominated := false
		for _, b := range got.Variants {
			dominated = dominated || b.Variant != a.Variant && b.QSNodesMean <= a.QSNodesMean && b.Error.MAE <= a.Error.MAE &&
				(b.QSNodesMean < a.QSNodesMean || b.Error.MAE < a.Error.MAE)
		}
		if a.Pareto == dominated {
			t.Errorf("%s: pareto %v, dominated %v", a.Variant, a.Pareto, dominated)
		}
		if a.Pareto {
			marked++
		}
		if a.Error.MAE != got.Variants[0].Error.MAE {
			t.Fatalf("%s: MAE %.3f, captures %.3f: the case needs a tie", a.Variant, a.Error.MAE, got.Variants[0].Error.MAE)
		}
	}
	if marked != 1 {
		t.Errorf("%d of 3 tied variants marked", marked)
	}
	code, out, _ := runCLI(t, "", args...)
	if code != 0 || !strings.Contains(out, "Pareto *: "+qsbench.ParetoRule+"\n") {
		t.Errorf("the table's legend does not give the rule %q:\n%s", qsbench.ParetoRule, out)
	}
	if _, help, _ := runCLI(t, "", "qsbench", "--help"); !strings.Contains(strings.Join(strings.Fields(help), " "), qsbench.ParetoRule) {
		t.Errorf("qsbench --help does not give the rule %q", qsbench.ParetoRule)
	}
}

// TestQSWorstCountsNodes: a worst row counts its QS nodes in English; a
// QS that stood pat at once said "1 QS nodes" (walkthrough).
func TestQSWorstCountsNodes(t *testing.T) {
	score, off := -374, 1874
	for _, tc := range []struct {
		nodes int64
		want  string
	}{{1, ", 1 QS node\n"}, {2, ", 2 QS nodes\n"}, {1234, ", 1,234 QS nodes\n"}} {
		var b strings.Builder
		printQSWorst(&b, []qsWorstJSON{{Variant: "see", ID: "qsb.0097", Class: "quiet", Score: &score, OracleScore: 30992, Error: &off, QSNodes: tc.nodes}})
		if !strings.Contains(b.String(), tc.want) {
			t.Errorf("%d QS nodes: %q, want it to hold %q", tc.nodes, b.String(), tc.want)
		}
	}
}

// TestQSBenchBuiltinSet runs 'horizon qsbench' as a user of a bare binary
// does, in a directory with no set (issue 31: it worked only from the
// repository's root): it benches the built-in set, writes a PNG plot, and
// the trace command a worst row prints records the same QS.
func TestQSBenchBuiltinSet(t *testing.T) {
	bin := horizonbin.Path(t)
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh: the worst row's trace command is a shell line")
	}
	dir := t.TempDir()
	cmd := exec.Command(bin, "qsbench", "--limit", "6", "--repeat", "1", "--qs", "recapture,see", "--worst", "1", "--plot", "qs.png", "--json")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("qsbench from %s: %v\n%s", dir, err, out)
	}
	var got struct {
		File  string        `json:"file"`
		Worst []qsWorstJSON `json:"worst"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	if got.File != qsbench.BuiltinName || len(got.Worst) != 2 {
		t.Fatalf("file %q, %d worst rows", got.File, len(got.Worst))
	}
	png, err := os.ReadFile(filepath.Join(dir, "qs.png"))
	if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) {
		t.Errorf("qs.png: %v, %d bytes, no PNG signature", err, len(png))
	}
	for _, w := range got.Worst {
		line := strings.Replace(w.Trace, "horizon trace ", shellQuote(bin)+" trace ", 1) + " --json"
		c := exec.Command(sh, "-c", line)
		c.Dir = dir
		res, err := c.Output()
		if err != nil {
			t.Fatalf("%s: %v\n%s", line, err, res)
		}
		var runs []traceRunJSON
		if err := json.Unmarshal(res, &runs); err != nil {
			t.Fatal(err)
		}
		if len(runs) != 1 || runs[0].QSNodes != w.QSNodes || runs[0].Score == nil || w.Score == nil || *runs[0].Score != *w.Score {
			t.Errorf("%s: the trace differs from the benchmark's QS (%d QS nodes)", w.Trace, w.QSNodes)
		}
	}
}

// TestQSBenchPlotFormats: --plot takes .svg and .png and refuses others.
func TestQSBenchPlotFormats(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"p.svg", "p.PNG"} {
		code, _, errOut := runCLI(t, "", "qsbench", "--limit", "3", "--repeat", "1", "--qs", "see", "--plot", filepath.Join(dir, name))
		if code != 0 {
			t.Fatalf("--plot %s: exit %d, %s", name, code, errOut)
		}
	}
	svg, _ := os.ReadFile(filepath.Join(dir, "p.svg"))
	png, _ := os.ReadFile(filepath.Join(dir, "p.PNG"))
	if !bytes.HasPrefix(svg, []byte("<svg")) || !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Errorf("p.svg starts %q, p.PNG %q", svg[:min(8, len(svg))], png[:min(8, len(png))])
	}
	checkFails(t, []string{"qsbench", "--plot", filepath.Join(dir, "p.jpg")}, 2, "give a file name ending in .svg or .png")
}
