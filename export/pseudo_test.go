package export

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/horizonqs/horizon/compare"
	"github.com/horizonqs/horizon/foreign"
	"github.com/horizonqs/horizon/trace/tracetest"
)

// TestPseudoLegalRun: a run of a king-capture engine (a stream that
// declared "moves pseudo") holds moves that leave the mover's king
// attacked; every export and the diff page replay them as such, where they
// called the file damaged.
func TestPseudoLegalRun(t *testing.T) {
	stream := `HZT 1
moves pseudo
position fen 4k3/8/8/8/8/8/3r4/4K3 w - - 0 1
E - 2 -100 100
E e1d1 1 -100 100
E e8e7 0 -100 100
L 0
L 0
E e1f1 1 -100 100
E e8f7 0 -100 100
L 5
L -5
L 5
end
`
	ctx := context.Background()
	st, _ := tracetest.CreateTrace(t)
	for range 2 {
		if _, err := foreign.Import(ctx, st, strings.NewReader(stream), foreign.Options{Engine: "kingcapture"}); err != nil {
			t.Fatal(err)
		}
	}
	run, err := st.Run(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if p, err := st.PathSAN(ctx, 1, 3); err != nil || len(p) != 2 {
		t.Errorf("path to node 3: %v, %v", p, err)
	}
	// From the run node, the pseudo-legal move's node and its child.
	for _, id := range []int64{0, 2, 3} {
		top, err := st.Node(ctx, 1, id)
		if err != nil {
			t.Fatal(err)
		}
		g, err := Build(ctx, st, run, top, Options{})
		if err != nil {
			t.Fatalf("graph of node %d: %v", id, err)
		}
		if err := g.WriteJSON(io.Discard); err != nil {
			t.Errorf("json of node %d: %v", id, err)
		}
		if err := WriteIcicle(ctx, st, run, top, IcicleOptions{}, io.Discard); err != nil {
			t.Errorf("icicle of node %d: %v", id, err)
		}
		if err := WriteHTML(ctx, st, run, top, HTMLOptions{}, io.Discard); err != nil {
			t.Errorf("html of node %d: %v", id, err)
		}
	}
	a, b := compare.Side{Store: st, Run: 1}, compare.Side{Store: st, Run: 2}
	if err := WriteDiffHTML(ctx, a, b, HTMLOptions{}, io.Discard); err != nil {
		t.Errorf("diff page: %v", err)
	}
}
