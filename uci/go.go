package uci

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/horizonqs/horizon/engine"
)

// GoOptions say how Go waits for a search's bestmove. Zero values wait
// until the bestmove, the engine's exit or ctx's end.
type GoOptions struct {
	// Timeout bounds the whole wait for the bestmove, as Until's does: an
	// engine that talks on without ever answering is given up on in time.
	Timeout time.Duration
	// Silence bounds the wait for each line: an engine silent that long
	// is given up on, however long its search may take in all.
	Silence time.Duration
	// Stop has Go send "stop" once it fires (closed, or a value sent);
	// Overdue has it send "stop" once a go movetime search has run that
	// long past its movetime (GoResult.Overran). After a stop Go waits
	// StopWait at most for the bestmove, however much else the engine
	// says; Timeout and Silence no longer apply.
	Stop     <-chan struct{}
	Overdue  time.Duration
	StopWait time.Duration
	// OnCancel is called when ctx ends the wait before a stop, just before
	// Go sends the engine "stop" and returns ctx's error: a caller that
	// records the search marks it cancelled before the engine ends it.
	OnCancel func()
}

// GoResult is what the engine said in one search (Go).
type GoResult struct {
	// Bestmove and Ponder are the moves of the bestmove line, as sent
	// (UCI notation; "0000" or "(none)" for no move); Ponder "" when the
	// line has none.
	Bestmove, Ponder string
	// Answer is the engine's answer: the depth and score of its last
	// info line with an exact score (Answer.Scored is false when no line
	// had one), and the node count and PV of the last such lines that
	// gave them (Nodes -1: none did).
	Answer Info
	// Nodes and TimeMS are the search's totals: the last any info line
	// gave, -1 when none did.
	Nodes, TimeMS int64
	// BadInfo is ParseInfo's error for the first info line that did not
	// read; BadScore and BadScoreLine are the first score beyond Horizon's
	// scale (Info.BadScore) and its line. Lines that do not read are
	// skipped: a caller that needs every line says so.
	BadInfo      error
	BadScore     string
	BadScoreLine string
	// Stopped says Go sent "stop" (Stop fired, or Overdue passed);
	// Overran is how far past its movetime the search ran when Overdue
	// had Go stop it.
	Stopped bool
	Overran time.Duration
}

// fold reads one line of the engine's output into r.
func (r *GoResult) fold(line string) {
	in, ok, err := ParseInfo(line)
	if err != nil {
		if r.BadInfo == nil {
			r.BadInfo = err
		}
		return
	}
	if !ok {
		return
	}
	if in.BadScore != "" && r.BadScore == "" {
		r.BadScore, r.BadScoreLine = in.BadScore, line
	}
	if in.Nodes >= 0 {
		r.Nodes = in.Nodes
	}
	if in.TimeMS >= 0 {
		r.TimeMS = in.TimeMS
	}
	if !in.Scored || in.Bound {
		return
	}
	r.Answer.Depth, r.Answer.Score, r.Answer.Scored = in.Depth, in.Score, true
	if in.Nodes >= 0 {
		r.Answer.Nodes = in.Nodes
	}
	if in.TimeMS >= 0 {
		r.Answer.TimeMS = in.TimeMS
	}
	if in.PV != nil {
		r.Answer.PV = in.PV
	}
}

// Go sends the go command of lim's limits (GoCommand), reads the engine's
// lines up to its bestmove, and folds its info lines (GoResult): every
// search Horizon has another engine make (bench's speed, qsbench's second
// oracle, trace --engine) is this one conversation. Its error is the
// wait's, unwrapped ("no answer in 10s", ErrExited, ctx's), for the
// caller to say what it awaited and from whom; the result holds what
// came before it.
func (e *Engine) Go(ctx context.Context, lim engine.Limits, o GoOptions) (GoResult, error) {
	res := GoResult{Nodes: -1, TimeMS: -1, Answer: Info{Nodes: -1, TimeMS: -1}}
	start := time.Now()
	if err := e.Send(GoCommand(lim)); err != nil {
		return res, err
	}
	// whole bounds the wait (Timeout, then StopWait after a stop); lines
	// counts the lines read in it, for its error.
	var whole <-chan time.Time
	wait := o.Timeout
	setWhole := func(d time.Duration) {
		whole, wait = nil, d
		if d > 0 {
			whole = time.After(d)
		}
	}
	setWhole(o.Timeout)
	var late <-chan time.Time
	if lim.MoveTime > 0 && o.Overdue > 0 {
		t := time.NewTimer(lim.MoveTime + o.Overdue)
		defer t.Stop()
		late = t.C
	}
	silence := o.Silence
	stopc := o.Stop
	lines := 0
	stop := func() {
		e.Send("stop")
		res.Stopped, stopc, late, silence, lines = true, nil, nil, 0, 0
		setWhole(o.StopWait)
	}
	for {
		var quiet <-chan time.Time
		var qt *time.Timer
		if silence > 0 {
			qt = time.NewTimer(silence)
			quiet = qt.C
		}
		var line string
		var ok, got bool
		select {
		case <-stopc:
			stop()
		case <-late:
			res.Overran = time.Since(start) - lim.MoveTime
			stop()
		case <-ctx.Done():
			if !res.Stopped {
				if o.OnCancel != nil {
					o.OnCancel()
				}
				e.Send("stop")
			}
			return res, ctx.Err()
		case <-whole:
			if lines == 0 {
				return res, fmt.Errorf("no answer in %s", wait)
			}
			return res, fmt.Errorf("sent %s other lines in %s", engine.Commas(int64(lines)), wait)
		case <-quiet:
			return res, fmt.Errorf("no answer in %s", silence)
		case line, ok = <-e.lines:
			got = true
		}
		if qt != nil {
			qt.Stop()
		}
		if !got {
			continue
		}
		if !ok {
			return res, e.Err()
		}
		line = strings.TrimSpace(line)
		if f := strings.Fields(line); len(f) > 0 && f[0] == "bestmove" {
			if len(f) > 1 {
				res.Bestmove = f[1]
			}
			if len(f) > 3 && f[2] == "ponder" {
				res.Ponder = f[3]
			}
			return res, nil
		}
		lines++
		res.fold(line)
	}
}
