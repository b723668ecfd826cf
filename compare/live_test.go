package compare

import (
	"context"
	"fmt"
	"testing"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace/tracetest"
)

// TestLiveRunNotDamaged: diff and the pair readers read a run being
// recorded though it grows between their reads. They checked a node's
// children against the node as read before them, so the last child,
// still open and grown since, ran past it and a sound run was called
// damaged ("node N has subtree size S, which runs past its parent 0's
// subtree").
func TestLiveRunNotDamaged(t *testing.T) {
	st, _ := tracetest.CreateTrace(t)
	run := tracetest.RecordSearch(t, st, tracetest.Kiwipete, tracetest.VariantOptions(t, "captures"), engine.Limits{Depth: 3})
	ctx := context.Background()
	root, err := st.Node(ctx, run, 0)
	if err != nil {
		t.Fatal(err)
	}
	// A node under the last iteration, in the first read's commit (see
	// Growing): the nodes above it are open and grow.
	deep := root.End() - 60
	for _, tc := range []struct {
		name string
		read func(ctx context.Context, s Side) error
	}{
		{"diff", func(ctx context.Context, s Side) error {
			_, err := Align(ctx, s, s, Options{})
			return err
		}},
		{"pair reader", func(ctx context.Context, s Side) error {
			root, err := s.Store.Node(ctx, s.Run, 0)
			if err != nil {
				return err
			}
			_, err = NewPairReader(s, s).Children(ctx, &root, &root)
			return err
		}},
		{"align children", func(ctx context.Context, s Side) error {
			_, err := AlignChildren(ctx, s, 0, s, 0)
			return err
		}},
		{"counterpart", func(ctx context.Context, s Side) error {
			n, ok, err := Counterpart(ctx, s, deep, s)
			if err == nil && (!ok || n.ID != deep) {
				err = fmt.Errorf("counterpart of node %d: %d, %v", deep, n.ID, ok)
			}
			return err
		}},
	} {
		for _, chunk := range []int{chunkNodes, 4} {
			t.Run(fmt.Sprintf("%s/chunk %d", tc.name, chunk), func(t *testing.T) {
				defer func(c int) { chunkNodes = c }(chunkNodes)
				chunkNodes = chunk
				s := Side{&tracetest.Growing{Reader: st, Behind: 50}, run}
				if err := tc.read(ctx, s); err != nil {
					t.Errorf("%s of a run being recorded: %v", tc.name, err)
				}
			})
		}
	}
}
