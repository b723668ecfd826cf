package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/horizonqs/horizon/qsbench"
)

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
	recs, err := qsbench.ReadFile(set)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 6 || recs[0].Oracle.Depth != 3 {
		t.Fatalf("%d records, oracle %+v", len(recs), recs[0].Oracle)
	}

	code, out, errOut = runCLI(t, "", "qsbench", "--epd", set, "--qs", "none,recapture,see+qs-checks=false", "--worst", "2", "--json", "--jobs", "2")
	if code != 0 {
		t.Fatalf("qsbench: exit %d, %s", code, errOut)
	}
	var got qsbenchOut
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
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
		code, tout, terr := runCLI(t, "", append(args[1:], "--json")...)
		if code != 0 {
			t.Fatalf("%s: exit %d, %s", w.Trace, code, terr)
		}
		var runs []traceRunJSON
		if err := json.Unmarshal([]byte(tout), &runs); err != nil {
			t.Fatal(err)
		}
		if len(runs) != 1 || runs[0].QSNodes != w.QSNodes || runs[0].Score == nil || *runs[0].Score != w.Score {
			t.Errorf("%s: trace has %d QS nodes, score %v; the benchmark %d, %d", w.Trace, runs[0].QSNodes, runs[0].Score, w.QSNodes, w.Score)
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
	code, out, _ = runCLI(t, "", "qsbench", "--epd", set, "--qs", "none,see", "--csv")
	if code != 0 || strings.Count(out, "\n") != 1+2*6 {
		t.Errorf("csv: exit %d, %d lines\n%s", code, strings.Count(out, "\n"), out)
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
		{[]string{"qsbench", "oracle", "--epd", set, "--depth", "99"}, 2, "--depth"},
		{[]string{"trace", "--qs-only", "--under", "e4"}, 2, "--qs-only"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			checkFails(t, tc.args, tc.code, tc.want)
		})
	}
	code, out, _ := runCLI(t, "", "qsbench", "--help")
	if code != 0 || !strings.Contains(out, "Examples:") || !strings.Contains(out, "--worst") {
		t.Errorf("--help: exit %d\n%s", code, out)
	}
	if _, err := os.Stat("../../testdata/qsbench.epd"); err != nil {
		t.Errorf("the committed set is missing: %v", err)
	}
}
