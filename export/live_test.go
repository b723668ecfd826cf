package export

import (
	"bytes"
	"context"
	"testing"

	"github.com/horizonqs/horizon/trace"
	"github.com/horizonqs/horizon/trace/tracetest"
)

// TestLiveRunNotDamaged: every export of a run being recorded reads it
// though the run grows between its reads. Each checked a node's children
// against the node as read before them, so the last child, still open
// and grown since, ran past it and a sound run was called damaged ("node
// N has subtree size S, which runs past its parent 0's subtree").
func TestLiveRunNotDamaged(t *testing.T) {
	st, _ := fixedTrace(t)
	for _, tc := range []struct {
		name   string
		export func(ctx context.Context, r trace.Reader, run trace.Run, top trace.Node) error
	}{
		{"html", func(ctx context.Context, r trace.Reader, run trace.Run, top trace.Node) error {
			_, err := BuildPage(ctx, r, run, top, HTMLOptions{Depth: -1})
			return err
		}},
		{"icicle", func(ctx context.Context, r trace.Reader, run trace.Run, top trace.Node) error {
			return WriteIcicle(ctx, r, run, top, IcicleOptions{Depth: -1}, &bytes.Buffer{})
		}},
		{"graph in memory", func(ctx context.Context, r trace.Reader, run trace.Run, top trace.Node) error {
			_, err := Build(ctx, r, run, top, Options{MaxNodes: 1 << 20, Depth: -1})
			return err
		}},
		{"graph queried", func(ctx context.Context, r trace.Reader, run trace.Run, top trace.Node) error {
			defer func(m int64) { memLimit = m }(memLimit)
			memLimit = 0
			_, err := Build(ctx, r, run, top, Options{MaxNodes: 1 << 20, Depth: -1})
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			g := &tracetest.Growing{Reader: st, Behind: 50}
			run, err := g.Run(ctx, 1)
			if err != nil {
				t.Fatal(err)
			}
			top, err := g.Node(ctx, run.ID, 0)
			if err != nil {
				t.Fatal(err)
			}
			if err := tc.export(ctx, g, run, top); err != nil {
				t.Errorf("export of a run being recorded: %v", err)
			}
		})
	}
}
