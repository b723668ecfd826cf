package trace

import (
	"context"
	"database/sql"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/horizonqs/horizon/engine"
)

// TestSnapshotRecorderEndsAfter: a run its recorder finishes after a
// snapshot was taken reads from the snapshot as it was then, running,
// not abandoned: the recorder has ended by the time the run is read, but
// not by the snapshot's. 'horizon check' of a file a trace was appending
// to called the run it finished meanwhile abandoned. A recorder gone
// before the snapshot leaves its run abandoned.
func TestSnapshotRecorderEndsAfter(t *testing.T) {
	if writerID == "" {
		t.Skip("no /proc: cannot tell a dead recorder from a live one")
	}
	ctx := context.Background()
	s, path := mustCreate(t)
	for range 2 {
		rec, err := s.NewRecorder(ctx, RunInfo{FEN: engine.StartFEN, Variant: "synthetic"}, RecordOptions{})
		if err != nil {
			t.Fatal(err)
		}
		rec.Enter(engine.EnterInfo{ID: 0, Parent: -1, Depth: 1, Alpha: -engine.Infinity, Beta: engine.Infinity, Kind: engine.KindRun, QSPly: -1, QSLevel: -1})
		rec.Leave(engine.LeaveInfo{ID: 0, Bound: engine.BoundExact, CutIndex: -1})
		if err := rec.Finish(Result{}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// Two recorders, as runs.writer names them: one still running when the
	// snapshot is taken (it ends, finishing its run 1, after), one ended
	// before (its run 2 stays running: abandoned).
	writer := func(cmd *exec.Cmd) string {
		f := strings.Fields(writerID)
		return f[0] + " " + strconv.Itoa(cmd.Process.Pid) + " " + procStart(cmd.Process.Pid)
	}
	later, early := exec.Command("sleep", "60"), exec.Command("sleep", "60")
	for _, c := range []*exec.Cmd{later, early} {
		if err := c.Start(); err != nil {
			t.Skip("no sleep to stand for a recorder:", err)
		}
		defer c.Process.Kill()
	}
	db, err := sql.Open("sqlite3", "file:"+path+"?_busy_timeout=10000")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{"PRAGMA journal_mode=WAL", nil}, // as a recorder keeps the file
		{"UPDATE runs SET status = 'running', writer = ? WHERE id = 1", []any{writer(later)}},
		{"UPDATE runs SET status = 'running', writer = ? WHERE id = 2", []any{writer(early)}},
	} {
		if _, err := db.Exec(q.sql, q.args...); err != nil {
			t.Fatal(err)
		}
	}
	early.Process.Kill()
	early.Wait()
	snap, err := OpenSnapshot(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	later.Process.Kill()
	later.Wait()
	if _, err := db.Exec("UPDATE runs SET status = 'complete' WHERE id = 1"); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[int64]Status{1: StatusRunning, 2: StatusAbandoned} {
		r, err := snap.Run(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != want {
			t.Errorf("run %d reads %s from the snapshot, want %s", id, r.Status, want)
		}
	}
}
