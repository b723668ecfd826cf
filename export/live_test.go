package export

import (
	"bytes"
	"context"
	"strings"
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
			defer queried()()
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

// midway is a reader that lets a recorder commit more of the run the
// first time the export reads a subtree, halfway through the export.
type midway struct {
	trace.Reader
	commit func()
}

func (m *midway) Subtree(ctx context.Context, run, id int64, maxDepth int, fn func(trace.Node) error) error {
	if m.commit != nil {
		m.commit()
		m.commit = nil
	}
	return m.Reader.Subtree(ctx, run, id, maxDepth, fn)
}

// TestExportWhileRecording: an export of a snapshot (trace.OpenSnapshot,
// as horizon export reads) is one state of a run a recorder commits to
// while it reads: the JSON written while 30 more rows commit is the JSON
// of the state it began in, the same snapshot read again; a snapshot
// taken after the commits has them. Without it the export read the run
// node of one commit and the rows of a later one.
func TestExportWhileRecording(t *testing.T) {
	l := tracetest.StartLive(t)
	l.AddLeaves(20)
	export := func(r trace.Reader) string {
		t.Helper()
		ctx := context.Background()
		run, top, err := Resolve(ctx, r, Selection{Node: 0})
		if err != nil {
			t.Fatal(err)
		}
		g, err := Build(ctx, r, run, top, Options{Depth: -1})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := g.WriteJSON(&b); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	snap, err := trace.OpenSnapshot(context.Background(), l.Path)
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	during := export(&midway{Reader: snap, commit: func() { l.AddLeaves(30) }})
	if again := export(snap); during != again {
		t.Errorf("the export read while rows committed differs from its snapshot's:\n%s\n%s", during, again)
	}
	later, err := trace.OpenSnapshot(context.Background(), l.Path)
	if err != nil {
		t.Fatal(err)
	}
	defer later.Close()
	if after := export(later); after == during || !strings.Contains(after, `"id": 51,`) || strings.Contains(during, `"id": 51,`) {
		t.Errorf("a snapshot after the commits does not show them (node 51):\n%s", after)
	}
	l.Finish()
}
