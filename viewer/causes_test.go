package viewer

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/explain"
	"github.com/horizonqs/horizon/trace"
)

// detailValue is the value of the details line labelled label of the
// current pane, "" when there is none.
func detailValue(m *Model, label string) string {
	for _, d := range m.details(m.cur()) {
		if d.label == label {
			return d.value
		}
	}
	return ""
}

// wantCauses is what the details must say of node id of run: the cause of
// its move and its subtree's mix, worked out here through explain.
func wantCauses(t *testing.T, st *trace.Store, run, id int64) (why, mix string) {
	t.Helper()
	ctx := context.Background()
	r, err := st.Run(ctx, run)
	if err != nil {
		t.Fatal(err)
	}
	n, err := st.Node(ctx, run, id)
	if err != nil {
		t.Fatal(err)
	}
	reason, err := explain.MoveReason(ctx, st, r, n)
	if err != nil {
		t.Fatal(err)
	}
	res, err := explain.Explain(ctx, st, r, n)
	if err != nil {
		t.Fatal(err)
	}
	return whyText(reason), mixText(res)
}

// TestDetailsCauses: the details pane says why the selected node is in
// the tree, the cause of its move and the cause mix of its subtree, as
// 'horizon explain' finds them; a subtree over syncExplain nodes is
// worked out in the background while the screen stays live, and one
// past it without an event loop gets a note that says how to get it.
func TestDetailsCauses(t *testing.T) {
	st := openFixture(t)
	for _, id := range []int64{100, 500, 3324} {
		r := newRig(t, st, 120, 40, Options{Run: 1, Node: ptr(id)})
		why, mix := wantCauses(t, st, 1, id)
		if got := detailValue(r.m, "why"); got != why {
			t.Errorf("node %d: why %q, want %q", id, got, why)
		}
		if got := detailValue(r.m, "causes"); got != mix || !strings.Contains(mix, "%") {
			t.Errorf("node %d: causes %q, want %q", id, got, mix)
		}
	}

	// The run node: no move, so no why; its subtree is the run's.
	r := newRig(t, st, 120, 40, Options{Run: 1, Node: ptr(0)})
	if got := detailValue(r.m, "why"); got != "" {
		t.Errorf("run node: why %q, want none", got)
	}
	_, mix := wantCauses(t, st, 1, 0)
	if got := detailValue(r.m, "causes"); got != mix {
		t.Errorf("run node: causes %q, want %q", got, mix)
	}

	defer func(s int64) { syncExplain = s }(syncExplain)
	syncExplain = 10
	size := r.m.cur().sel.node.Nodes()

	// Without an event loop, a subtree past the limit is not walked.
	r = newRig(t, st, 120, 40, Options{Run: 1, Node: ptr(0)})
	if got := detailValue(r.m, "causes"); !strings.Contains(got, "horizon explain FILE --run 1 --node 0") || !strings.Contains(got, engine.Commas(size)) {
		t.Errorf("run node without a loop: causes %q, want a note naming the command", got)
	}

	// With one, in the background: the line says so, then the mix.
	r.m.post = r.s.PostEvent
	r.run("j", "k") // select another node and back: worked out again
	if got := detailValue(r.m, "causes"); !strings.HasPrefix(got, "working out the causes of "+engine.Commas(size)) {
		t.Errorf("run node in the background: causes %q, want it being worked out", got)
	}
	if !strings.Contains(r.text(), "working out the causes") {
		t.Error("the screen does not say the causes are being worked out")
	}
	deadline := time.Now().Add(30 * time.Second)
	for detailValue(r.m, "causes") != mix && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
		r.post(func() {})
	}
	if got := detailValue(r.m, "causes"); got != mix {
		t.Errorf("run node in the background: causes %q, want %q", got, mix)
	}
	if !strings.Contains(r.text(), "causes    "+mix[:strings.Index(mix, ",")]) {
		t.Errorf("the screen does not show the causes:\n%s", r.text())
	}

	// A selection that moves on cancels the work, and a late answer for
	// it changes nothing.
	r.run("j")
	old := r.m.cur().sel
	if old.mix == nil || !old.mix.busy || old.mix.cancel == nil {
		t.Fatalf("node %d: mix %+v, want one being worked out", old.node.ID, old.mix)
	}
	r.run("j")
	if old.mix.cancel != nil {
		t.Error("the replaced selection's work was not cancelled")
	}
	cur := r.m.cur().sel
	r.m.causesDone(&causesLoaded{in: old, err: context.Canceled})
	if r.m.cur().sel != cur || (cur.mix != nil && cur.mix.err != nil) {
		t.Error("a late answer for a replaced selection changed the details")
	}
}
