package trace

import (
	"context"

	"github.com/horizonqs/horizon/engine"
)

// Recorder writes one run into a trace as the search reports it. It
// implements engine.Tracer; its event methods must be called from one
// goroutine (the search's) and allocate nothing. Rows are handed in batches
// to a writer goroutine.
type Recorder struct {
	ctx context.Context
}

var _ engine.Tracer = (*Recorder)(nil)

// NewRecorder starts a run: it inserts the run row (status running) and
// starts the writer goroutine. Pass Recorder.Context to the search so that
// the node limit or a write error stops it; cancelling ctx stops it too and
// marks the run interrupted.
func (s *Store) NewRecorder(ctx context.Context, info RunInfo, opts RecordOptions) (*Recorder, error) {
	return nil, errTODO
}

// Context is cancelled when the run's context is, when MaxNodes is reached
// and when writing fails: the search should stop then.
func (r *Recorder) Context() context.Context { return r.ctx }

// RunID returns the id of the run being recorded.
func (r *Recorder) RunID() int64 { return 0 }

// Nodes returns how many nodes the search has entered so far; it may be
// called from any goroutine (for a progress line).
func (r *Recorder) Nodes() int64 { return 0 }

// Enter implements engine.Tracer.
func (r *Recorder) Enter(e engine.EnterInfo) {}

// StandPat implements engine.Tracer.
func (r *Recorder) StandPat(e engine.StandPatInfo) {}

// Move implements engine.Tracer.
func (r *Recorder) Move(e engine.MoveInfo) {}

// Extension implements engine.Tracer.
func (r *Recorder) Extension(e engine.ExtensionInfo) {}

// Leave implements engine.Tracer.
func (r *Recorder) Leave(e engine.LeaveInfo) {}

// Finish writes the nodes still open (marked Incomplete), waits for the
// writer, stores the totals and the result, and sets the run's status. It
// returns the first write error, if any. Call it exactly once, even after
// an interruption.
func (r *Recorder) Finish(res Result) error { return errTODO }
