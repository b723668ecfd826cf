package tracetest

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// Live is a run recorded by hand, a batch at a time, for a test that
// reads it while it is recorded: a run node and a root, open, with leaves
// under the root (AddLeaves) committed before the test reads on.
type Live struct {
	tb    testing.TB
	Path  string
	Rec   *trace.Recorder
	r     *trace.Store // sees what the writer has committed
	moves []engine.Move
	next  int64
}

// StartLive creates a trace and starts a run in it, its run node and root
// entered.
func StartLive(tb testing.TB) *Live {
	tb.Helper()
	w, path := CreateTrace(tb)
	rec, err := w.NewRecorder(context.Background(), trace.RunInfo{FEN: engine.StartFEN, Variant: "synthetic"}, trace.RecordOptions{BatchRows: 8})
	if err != nil {
		tb.Fatal(err)
	}
	l := &Live{tb: tb, Path: path, Rec: rec, r: Open(tb, path), moves: engine.MustParseFEN(engine.StartFEN).LegalMoves(), next: 2}
	rec.Enter(engine.EnterInfo{ID: 0, Parent: -1, Depth: 1, Alpha: -engine.Infinity, Beta: engine.Infinity, Kind: engine.KindRun, QSPly: -1, QSLevel: -1})
	rec.Enter(engine.EnterInfo{ID: 1, Parent: 0, Depth: 1, Alpha: -engine.Infinity, Beta: engine.Infinity, Kind: engine.KindRoot, QSPly: -1, QSLevel: -1, Iteration: 1})
	return l
}

// Rows is the number of rows the run has once its leaves are committed.
func (l *Live) Rows() int64 { return l.next }

// AddLeaves records n more leaves under the root and waits until the file
// holds them.
func (l *Live) AddLeaves(n int) {
	l.tb.Helper()
	for range n {
		m := l.moves[int(l.next)%len(l.moves)]
		l.Rec.Enter(engine.EnterInfo{ID: l.next, Parent: 1, Ply: 1, Alpha: -engine.Infinity, Beta: engine.Infinity, Kind: engine.KindPV, QSPly: -1, QSLevel: -1, Move: m, Iteration: 1})
		l.Rec.Leave(engine.LeaveInfo{ID: l.next, Bound: engine.BoundExact, CutIndex: -1})
		l.next++
	}
	l.Rec.Flush()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		run, err := l.r.Run(context.Background(), l.Rec.RunID())
		if err != nil {
			l.tb.Fatal(err)
		}
		if run.Rows >= l.next {
			return
		}
		if time.Now().After(deadline) {
			l.tb.Fatalf("%s holds %d rows of run %d, want %d", filepath.Base(l.Path), run.Rows, run.ID, l.next)
		}
	}
}

// Finish closes the root and the run node and finishes the run, complete.
func (l *Live) Finish() {
	l.tb.Helper()
	l.Rec.Leave(engine.LeaveInfo{ID: 1, Bound: engine.BoundExact, CutIndex: -1})
	l.Rec.Leave(engine.LeaveInfo{ID: 0, Bound: engine.BoundExact, CutIndex: -1})
	if err := l.Rec.Finish(trace.Result{Depth: 1}); err != nil {
		l.tb.Fatal(err)
	}
}
