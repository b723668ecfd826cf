package trace_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
	"github.com/horizonqs/horizon/trace/tracetest"
)

// picture is what a one-shot reader reads of the live run.
type picture struct {
	rows, nodes int64
	status      trace.Status
	subtree     int
	kids        int
	rootSize    int64
	runs        int
	statsNodes  int64
}

func read(t *testing.T, l *tracetest.Live, s *trace.Store) picture {
	t.Helper()
	ctx := context.Background()
	var p picture
	run, err := s.Run(ctx, l.Rec.RunID())
	if err != nil {
		t.Fatal(err)
	}
	p.rows, p.nodes, p.status = run.Rows, run.Nodes, run.Status
	runs, err := s.Runs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	p.runs = len(runs)
	if err := s.Subtree(ctx, run.ID, 0, -1, func(trace.Node) error { p.subtree++; return nil }); err != nil {
		t.Fatal(err)
	}
	if p.kids, err = s.ChildCount(ctx, run.ID, 1); err != nil {
		t.Fatal(err)
	}
	root, err := s.Node(ctx, run.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	p.rootSize = root.SubtreeSize
	st, err := s.Stats(ctx, run.ID)
	if err != nil {
		t.Fatal(err)
	}
	p.statsNodes = st.Nodes
	return p
}

// TestSnapshotWhileRecording: a snapshot reads one state of a file a
// recorder commits to meanwhile, in every query (a live export read the
// run's row of one commit and nodes of a later one); the store it was
// taken of reads the new commits, and reads on after the snapshot closes.
func TestSnapshotWhileRecording(t *testing.T) {
	l := tracetest.StartLive(t)
	l.AddLeaves(20)
	snap, err := trace.OpenSnapshot(context.Background(), l.Path)
	if err != nil {
		t.Fatal(err)
	}
	before := read(t, l, snap)
	if before.rows != l.Rows() || before.subtree != int(before.rows) || before.status != trace.StatusRunning {
		t.Fatalf("the snapshot reads %+v, want %d rows, running", before, l.Rows())
	}
	l.AddLeaves(30)
	if after := read(t, l, snap); after != before {
		t.Errorf("the snapshot changed under later commits:\n%+v\n%+v", before, after)
	}
	store := tracetest.Open(t, l.Path)
	if now := read(t, l, store); now.rows <= before.rows || now.subtree <= before.subtree || now.kids <= before.kids {
		t.Errorf("a store reads %+v after the commits, the snapshot %+v: no later commit to see", now, before)
	}
	if err := snap.Close(); err != nil {
		t.Fatal(err)
	}
	l.Finish()
	if p := read(t, l, store); p.status != trace.StatusComplete || p.rows != l.Rows() {
		t.Errorf("after Finish the store reads %+v, want %d rows, complete", p, l.Rows())
	}
}

// TestSnapshotLetsRecorderIn: a snapshot of a file no recorder has open
// (a rollback journal, as Close leaves it) must not keep a recorder out:
// a read transaction there holds SQLite's shared lock, and 'horizon trace
// -o F' failed with 'database is locked' after the busy timeout while
// 'horizon check F' read for longer. The snapshot reads its runs on.
func TestSnapshotLetsRecorderIn(t *testing.T) {
	ctx := context.Background()
	w, path := tracetest.CreateTrace(t)
	first := tracetest.RecordSearch(t, w, engine.StartFEN, tracetest.VariantOptions(t, "captures"), engine.Limits{Depth: 2})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	snap, err := trace.OpenSnapshot(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	before, err := snap.Run(ctx, first)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	w2, err := trace.Create(path)
	if err != nil {
		t.Fatalf("a recorder cannot open the file a snapshot reads (after %v): %v", time.Since(start).Round(time.Millisecond), err)
	}
	second := tracetest.RecordSearch(t, w2, engine.StartFEN, tracetest.VariantOptions(t, "see"), engine.Limits{Depth: 2})
	if err := w2.Close(); err != nil {
		t.Fatal(err)
	}
	after, err := snap.Run(ctx, first)
	if err != nil {
		t.Fatal(err)
	}
	if after.Rows != before.Rows || after.Status != before.Status {
		t.Errorf("run %d read %d rows %s, then %d rows %s", first, before.Rows, before.Status, after.Rows, after.Status)
	}
	if second == first {
		t.Errorf("the recorder recorded run %d again", second)
	}
}

// TestSnapshotOfWriterRefused: a store opened to write begins its
// transactions IMMEDIATE, so its snapshot would hold the write lock for as
// long as it reads, keeping every recorder out: it is refused, naming the
// way in that reads (OpenSnapshot).
func TestSnapshotOfWriterRefused(t *testing.T) {
	s, err := trace.Create(filepath.Join(t.TempDir(), "t.trace"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	snap, err := s.Snapshot(context.Background())
	if err == nil {
		snap.Close()
		t.Fatal("Snapshot of a writable store: no error")
	}
	if !strings.Contains(err.Error(), "OpenSnapshot") {
		t.Errorf("error %q does not name OpenSnapshot", err)
	}
}
