package viewer

import (
	"context"
	"strings"
	"testing"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
	"github.com/horizonqs/horizon/trace/tracetest"
)

// TestFilteredRunSaysWhatIsMissing: a run recorded under a move path shows
// only the path's nodes, so the viewer says what it cannot show: the header
// how many rows of the search's nodes the file holds, and a node's details
// how many nodes below it were not recorded (trace.Unrecorded, the rule
// export's summaries use). The walkthrough found Nf3 with "20 generated,
// 20 searched" and only Nf6 below, and nothing saying the rest was not
// recorded.
func TestFilteredRunSaysWhatIsMissing(t *testing.T) {
	st, _ := tracetest.CreateTrace(t)
	id := tracetest.RecordSearch(t, st, engine.StartFEN, tracetest.VariantOptions(t, "see"), engine.Limits{Depth: 3}, trace.RecordOptions{Under: []string{"Nf3", "Nf6"}})
	ctx := context.Background()
	run, err := st.Run(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	nf3, err := st.Find(ctx, run.ID, 0, []string{"Nf3"})
	if err != nil {
		t.Fatal(err)
	}
	kids, err := st.Children(ctx, run.ID, nf3.ID, trace.BySearch, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	missing := trace.Unrecorded(nf3, kids)
	if len(kids) != 1 || missing == 0 || run.Rows >= run.Nodes {
		t.Fatalf("Nf3 has %d child rows, %d nodes unrecorded; run %d rows of %d nodes: the filter kept too much", len(kids), missing, run.Rows, run.Nodes)
	}
	// "recorded" means what 'horizon stats' says: the positions the file
	// holds (the run node's row is none). It said run.Rows, one more.
	stats, err := st.Stats(ctx, run.ID)
	if err != nil {
		t.Fatal(err)
	}
	if stats.Nodes != run.Recorded() {
		t.Fatalf("stats count %d nodes recorded, Run.Recorded %d", stats.Nodes, run.Recorded())
	}
	r := newRig(t, st, 200, 50, Options{Path: []string{"Nf3"}})
	text := r.text()
	for _, want := range []string{
		engine.Commas(run.Nodes) + " nodes, ",
		engine.Commas(stats.Nodes) + " recorded (recording filter)",
		engine.Commas(missing) + " nodes below not recorded",
	} {
		if !strings.Contains(strings.Join(strings.Fields(text), " "), want) {
			t.Errorf("the screen does not say %q:\n%s", want, text)
		}
	}
}

// TestNoAnswerSaysSo: a run stopped before its first iteration finished
// has no best move and no score, and the header says so; it said "best Kd1
// no score" (Kiwipete at 10 nodes: the first legal move, never searched).
// It also says what stopped the run.
func TestNoAnswerSaysSo(t *testing.T) {
	st, _ := tracetest.CreateTrace(t)
	tracetest.RecordSearch(t, st, kiwipete, tracetest.VariantOptions(t, "see"), engine.Limits{Nodes: 10})
	header, _, _ := strings.Cut(newRig(t, st, 200, 30, Options{Run: 1}).text(), "\n")
	if !strings.Contains(header, "no best move or score (no iteration finished)") || strings.Contains(header, "best K") {
		t.Errorf("header %q", header)
	}
	// What stopped it, as runs, stats and diff say it (the header had the
	// status alone).
	if !strings.Contains(header, "truncated (stop cause: nodes)") {
		t.Errorf("header %q does not say what stopped the run", header)
	}
}
