package foreign

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// A search's end (its status, stop cause and result) and the run's rows committed.

// iteration sums up the roots of one iteration of iterative deepening (its
// aspiration or MTD probes) as the run reports it once it concluded.
type iteration struct {
	iter  int
	roots int
	// The last root's result, and the last exact and fail-high roots'
	// (an MTD iteration has no exact root: its value is the bracket's
	// lower bound, the last fail-high probe, which holds its best move).
	last, exact, high rootResult
}

type rootResult struct {
	ok    bool
	score engine.Score
	best  engine.Move
	bound engine.Bound
	pv    []engine.Move // its principal variation, from best
}

func (it *iteration) add(iter int, score engine.Score, bound engine.Bound, best engine.Move, pv []engine.Move) {
	it.iter = iter
	it.roots++
	r := rootResult{ok: true, score: score, best: best, bound: bound, pv: append([]engine.Move(nil), pv...)}
	it.last = r
	switch bound {
	case engine.BoundExact:
		it.exact = r
	case engine.BoundLower:
		it.high = r
	}
}

// result is the root whose score, best move and principal variation the
// iteration reports.
func (it *iteration) result() rootResult {
	switch {
	case it.exact.ok:
		return it.exact
	case it.high.ok:
		return it.high
	}
	return it.last
}

// warnLateLimits says, in the run's warning, that a limits record written
// after the search's first node (lateLimits) is not the run's, as the
// search finishes with no next search to take it: by its end record, the
// stream's end (where it was dropped without a word too), or a fault. The
// run, and the limits it records, began at the search's first node.
// Dropped without a word, a late record left the run with no limits (or
// another's) and the user wondering why. A position record that ends the
// search takes the record as its own instead (position), as does the
// search after one the node limit ended (skipping).
func (im *importer) warnLateLimits() {
	if im.lateLimits == 0 {
		return
	}
	im.warning = alsoWarn(im.warning, fmt.Sprintf("the limits record at line %d (%s) came after the search's first node: not recorded "+
		"(a search's limits come after its position record, before its first node)", im.lateLimits, im.nextLimits))
	im.nextLimits, im.lateLimits = "", 0
}

// endSearch finishes the current search's run. A search that ended by
// itself is truncated when its own time or node limit stopped it before
// its depth (trace.StatusTruncated), as Horizon's own runs are, whether it
// wrote an abort record (Ethereal) or not (Sunfish, Fairy-Max); the stop
// cause names the limit when the search had one of the two. One that the
// caller stopped on a cancel (Options.StopsOnCancel) is interrupted.
func (im *importer) endSearch() {
	status := trace.StatusComplete
	lim := withoutUnreachedNodes(im.searchLimits(), int64(im.nextID-1), im.engineNodes)
	switch {
	case im.opts.StopsOnCancel && im.ctx.Err() != nil && im.cancelStopped(lim):
		status = trace.StatusInterrupted
	case im.aborted:
		// An abort that no cancel of the caller's asked for, in a search
		// with one time or node limit, is that limit running out (Ethereal
		// writes one then, where others end without one): the same limit
		// gets the same cause. A file's stream cannot say whether a GUI's
		// stop came first; with both limits, or none, it stays an abort.
		status, im.stop = trace.StatusTruncated, trace.StopAbort
		if c := limitCause(lim); c != "" {
			im.stop = c
		}
	case limitStopped(lim, im.cur.iter):
		status, im.stop = trace.StatusTruncated, limitCause(lim)
	}
	im.finish(status, nil)
}

// cancelStopped says whether the cancel stopped the search that ends
// (Options.CancelStopped); lim is its limits text.
func (im *importer) cancelStopped(lim string) bool {
	if im.opts.CancelStopped != nil {
		return im.opts.CancelStopped()
	}
	return im.aborted || !depthReached(lim, im.cur.iter)
}

// limitCause names the limit of lim that stopped a search limitStopped
// says a limit stopped (trace.StopNodes or StopTime), "" when it had both
// and the stream does not say which.
func limitCause(lim string) string {
	var nodes, time bool
	for _, f := range strings.Fields(lim) {
		switch f {
		case "nodes":
			nodes = true
		case "movetime", "wtime", "btime":
			time = true
		}
	}
	switch {
	case nodes && !time:
		return trace.StopNodes
	case time && !nodes:
		return trace.StopTime
	}
	return ""
}

// searchLimits is the current search's limits text: the go command the
// caller sent when it drives the engine live (Options.Live: trace
// --engine), whatever the engine's limits record says it made of it (the
// Fairy-Max adapter writes "depth 60" for go nodes 3000); otherwise the
// stream's limits record, or Options.Limits without one.
func (im *importer) searchLimits() string {
	if im.limits == "" || im.opts.Live && im.opts.Limits != "" {
		return im.opts.Limits
	}
	return im.limits
}

// limitStopped says whether a search with limits text lim ("go nodes 5000",
// "movetime 200") that reached iteration reached was stopped by a time or
// node limit: it has one, and no depth limit it reached.
func limitStopped(lim string, reached int) bool {
	limited := false
	for _, f := range strings.Fields(lim) {
		switch f {
		case "nodes", "movetime", "wtime", "btime":
			limited = true
		}
	}
	return limited && !depthReached(lim, reached)
}

// depthReached says whether a search with limits text lim reached its
// depth limit (it has one) by iteration reached.
func depthReached(lim string, reached int) bool {
	d := depthLimit(lim)
	return d > 0 && reached >= d
}

// finish closes the current run with status (open nodes are closed as
// stopped by the recorder) and records err as the reason.
func (im *importer) finish(status trace.Status, cause error) {
	if !im.active {
		return
	}
	im.active = false
	if im.rec == nil {
		return // a position with no node: nothing to record
	}
	rec := im.rec
	im.rec = nil
	var best engine.Move
	if im.bestMove != "" {
		if pos, err := engine.ParseFEN(im.fen); err == nil {
			if m, err := pos.ParseUCI(im.bestMove); err == nil {
				best = m
			}
		}
	}
	// The run reports its last concluded iteration, as the engine's own
	// info lines do: one that a later iteration followed, or the last one
	// when its last root closed with an exact score and nothing opened
	// after it, however the search then ended (by itself, at a limit, an
	// abort or a fault in the stream). A probe of an iteration cut short
	// (a root still open, or closed by an abort) is no conclusion of the
	// engine.
	if len(im.stack) <= 1 && !im.cutRoot && im.cur.roots > 0 && im.cur.last.bound == engine.BoundExact {
		im.done = im.cur
	}
	reported := im.done.result()
	score := reported.score
	if best == engine.NoMove {
		best = reported.best
	}
	// Close the nodes still open (a stream cut short or broken) before
	// the run node, so the run node's score is that of the last root.
	for n := len(im.stack); n > 1; n = len(im.stack) {
		fr := &im.stack[n-1]
		rec.Leave(engine.LeaveInfo{ID: fr.id, Cause: engine.CauseStop, CutIndex: -1})
		if fr.moved {
			im.pos.UnmakeMove()
		}
		im.stack = im.stack[:n-1]
	}
	runCause := engine.CauseNone
	if status != trace.StatusComplete {
		runCause = engine.CauseStop
	}
	if len(im.stack) == 1 {
		// The run's score is the reported root's, with its bound: an MTD
		// iteration's value is its last fail-high probe, a lower bound
		// (Sunfish), and a run with no concluded iteration has none.
		rec.Leave(engine.LeaveInfo{ID: 0, Score: score, Bound: reported.bound, Cause: runCause, CutIndex: -1,
			Best: best, Searched: im.stack[0].kids, Generated: im.stack[0].kids})
		im.stack = im.stack[:0]
	}
	if status == trace.StatusComplete {
		status = "" // let the recorder tell a node limit apart
	}
	stop := im.stop
	im.stop = ""
	if status == trace.StatusInterrupted && cause != nil && im.ctx.Err() == nil {
		// Not a cancel: the stream ended or broke in the middle of the
		// search.
		stop = trace.StopStream
	}
	elapsed := im.elapsed
	if elapsed == 0 && im.opts.Live {
		elapsed = max(time.Since(im.start), time.Millisecond) // a stored 0 is "unknown"
	}
	res := trace.Result{Status: status, StopCause: stop, BestMove: best, Score: score, Depth: im.done.iter, Elapsed: elapsed,
		TimeUnknown: elapsed == 0}
	switch {
	case len(reported.pv) > 0 && reported.pv[0] == best:
		res.PV = reported.pv
	case best != engine.NoMove:
		// The engine played a move its reported iteration did not
		// prefer: the tree holds no line for it.
		res.PV = []engine.Move{best}
	}
	werr := rec.Finish(res)
	if werr == nil && im.st != nil && len(im.nested) > 0 {
		// After the recorder's last commit: its rows are in, and its
		// writer holds no transaction this one would wait for.
		werr = im.st.AddNested(context.WithoutCancel(im.ctx), im.runID, im.nested)
	}
	if !im.skipping {
		im.warnLateLimits()
	}
	if cause == nil {
		cause = werr
	}
	r := im.report(best, elapsed, status, cause)
	if im.opts.OnFinish != nil {
		im.opts.OnFinish(*r)
	}
}

// report fills in the result of the search just finished, as import and
// live tracing print it: the engine's own count, best move, warnings, the
// nodes recorded, the error that ended it and the run's stored status.
func (im *importer) report(best engine.Move, elapsed time.Duration, status trace.Status, cause error) *RunResult {
	r := &im.results[len(im.results)-1]
	r.EngineNodes = im.engineNodes
	if r.EngineNodes >= 0 {
		r.EngineNodesFrom = FromEndRecord
	}
	r.BestMove = im.bestMove
	r.Warning = im.warning
	if im.zeroTime && elapsed == 0 {
		// runs.elapsed_ms keeps 0 for a time not known (schema 1 on):
		// a real 0 reads as unknown, and the user is told so here.
		r.Warning = alsoWarn(r.Warning, "its end record gives time=0, which a trace stores as no time: the run's time reads as unknown")
	}
	if im.clamped > 0 {
		r.Warning = alsoWarn(r.Warning, fmt.Sprintf("%s with counts above what a trace stores (a generated count above %d, "+
			"a cut index above %d): the trace keeps lower bounds, read as \"%d+ generated\"; the first is %s",
			engine.Count(im.clamped, "node"), trace.MaxStoredGenerated, trace.MaxStoredCutIndex,
			trace.MaxStoredGenerated, im.clampedAt))
	}
	if r.BestMove == "" && best != engine.NoMove {
		r.BestMove = best.UCI()
	}
	r.Nodes = im.nextID - 1
	r.Uncounted = im.uncounted
	r.Err = cause
	r.Limited = im.skipping // set by read as the limit ends the run
	if im.st == nil {
		r.Status = status
	} else if run, err := im.st.Run(context.WithoutCancel(im.ctx), im.runID); err == nil {
		r.Status = run.Status
	}
	return r
}

// withoutUnreachedNodes is lim without its node limit when the search
// did not reach it: neither the nodes in its stream nor the engine's own
// count (engineNodes, -1 for none) came to it, so it is not what stopped
// the search. Ethereal 12 ignores go nodes and stops after its first
// iteration: its 6 nodes under go nodes 5000 read "truncated (stop cause:
// nodes)". An engine counts at least the nodes it writes (Fairy-Max counts
// passes, more than its stream's calls), so one that stops at its limit
// is seen to reach it.
func withoutUnreachedNodes(lim string, nodes, engineNodes int64) string {
	f := strings.Fields(lim)
	for i := 0; i+1 < len(f); i++ {
		if f[i] != "nodes" {
			continue
		}
		if n, ok := atoi64([]byte(f[i+1])); ok && n > 0 && nodes < n && engineNodes < n {
			return strings.Join(append(f[:i:i], f[i+2:]...), " ")
		}
	}
	return lim
}

// depthLimit reads the depth out of limits text ("depth 13", "go depth
// 13"), 0 when there is none; the run node carries it, as Horizon's own do.
func depthLimit(lim string) int {
	f := strings.Fields(lim)
	for i := 0; i+1 < len(f); i++ {
		if f[i] == "depth" {
			if d, ok := atoi([]byte(f[i+1])); ok && d > 0 && d < 128 {
				return d
			}
		}
	}
	return 0
}

// flushEvery is how often, at most, a stream that pauses has its nodes
// committed (sink.Flush): often enough for a live viewer, rarely enough
// that an engine writing in bursts does not turn each burst into a
// transaction.
const flushEvery = 500 * time.Millisecond

// idle is called when the stream has sent everything it has for now: the
// run's rows so far are committed, so a viewer of the file sees them while
// the engine thinks, and a Horizon killed then loses none of them. Within
// flushEvery of the last commit it commits nothing and returns how long
// until it may: the reader calls it again then if the stream still
// pauses.
func (im *importer) idle() (again time.Duration) {
	if im.rec == nil {
		return 0
	}
	if wait := flushEvery - time.Since(im.flushed); wait > 0 {
		return wait
	}
	im.rec.Flush()
	im.flushed = time.Now()
	return 0
}
