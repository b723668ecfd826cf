package viewer

import (
	"context"
	"testing"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// material counts the board for c minus the board for the other side,
// kings left out.
func material(p *engine.Position, c engine.Color) int {
	sum := 0
	for sq := engine.Square(0); sq < 64; sq++ {
		pc := p.PieceAt(sq)
		if pc == engine.NoPiece || pc.Type() == engine.King {
			continue
		}
		v := engine.PieceValue(pc.Type())
		if pc.Color() != c {
			v = -v
		}
		sum += v
	}
	return sum
}

// TestSwing checks the material swing of QS nodes against a count of the
// boards at the QS root and at the node.
func TestSwing(t *testing.T) {
	st := openFixture(t)
	ctx := context.Background()
	tr := mustTree(t, st, 2)
	checked := 0
	err := st.Subtree(ctx, 2, 0, -1, func(n trace.Node) error {
		if n.Kind != engine.KindQS || n.ID%7 != 0 {
			return nil
		}
		in := tr.info(n)
		if in.err != nil {
			t.Fatal(in.err)
		}
		root := in.path[in.qsRoot]
		if root.Kind != engine.KindQS || in.path[in.qsRoot-1].Kind == engine.KindQS {
			t.Fatalf("node %d: QS root %d is not where QS begins", n.ID, root.ID)
		}
		at, err := st.Position(ctx, 2, n.ID)
		if err != nil {
			t.Fatal(err)
		}
		before, err := st.Position(ctx, 2, root.ID)
		if err != nil {
			t.Fatal(err)
		}
		if before.SideToMove() != in.swingFor {
			t.Fatalf("node %d: swing for %v, but %v is to move at the QS root", n.ID, in.swingFor, before.SideToMove())
		}
		want := material(at, in.swingFor) - material(before, in.swingFor)
		got := 0
		if len(in.swing) > 0 {
			got = in.swing[len(in.swing)-1].balance
		}
		if got != want || len(in.swing) != len(in.path)-1-in.qsRoot {
			t.Fatalf("node %d: swing %+v ends at %d over %d moves, boards say %d over %d", n.ID, in.swing, got, len(in.swing), want, len(in.path)-1-in.qsRoot)
		}
		checked++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("only %d QS nodes checked", checked)
	}
}

// TestMoveLabelQSRoot: a QS-only run's QS root (no move) is named as such,
// as the graph export names it (it was "(null)").
func TestMoveLabelQSRoot(t *testing.T) {
	n := trace.Node{ID: 1, Kind: engine.KindQS, Move: engine.NoMove}
	if got := (&Model{}).moveLabel(nil, "", n); got != trace.QSRootLabel {
		t.Errorf("%q, want %q", got, trace.QSRootLabel)
	}
}
