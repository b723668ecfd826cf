package foreign

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
	"github.com/horizonqs/horizon/uci"
)

// Engine is an instrumented UCI engine run as a child process with its
// trace stream on a pipe (HORIZON_TRACE=fd:3), for Trace: horizon trace
// --engine.
type Engine struct {
	u     *uci.Engine
	trace *os.File // the read end of the trace pipe
	name  string   // for messages: the UCI id name, else the program's file name
}

// errExitedSearch is an engine's exit while it searched.
var errExitedSearch = errors.New("the engine exited during its search")

// StartEngine starts argv with the trace pipe as fd 3 and waits for its
// uciok; ctx bounds that wait. The engine is not killed when ctx ends
// after that: Trace's own ctx stops its search (UCI stop) so that the
// search is recorded, and Close or Trace end the engine. It runs in a
// process group of its own, so that Ctrl-C reaches Horizon alone, and so
// that a wrapper script's children, which hold the trace pipe too, are
// killed with it when it must be killed: when the handshake fails (no
// uciok, Ctrl-C), or on a forced quit during it or after (KillEngines).
func StartEngine(ctx context.Context, argv []string) (*Engine, error) {
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), "HORIZON_TRACE=fd:3")
	cmd.ExtraFiles = []*os.File{pw}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	u, err := uci.StartChild(ctx, cmd)
	pw.Close() // the engine holds the write end
	if err != nil {
		pr.Close()
		return nil, fmt.Errorf("start engine: %w", err)
	}
	g := &Engine{u: u, trace: pr}
	running.Lock()
	running.engines[g] = true
	running.Unlock()
	if err := u.Handshake(ctx); err != nil {
		g.u.Kill() // its process group: a wrapper's engine holds the trace pipe too
		g.Close()
		return nil, err
	}
	g.name = u.Name
	if g.name == "" {
		g.name = filepath.Base(argv[0])
	}
	return g, nil
}

// running is every engine started and not yet closed, for KillEngines.
var running = struct {
	sync.Mutex
	engines map[*Engine]bool
}{engines: map[*Engine]bool{}}

// KillEngines kills the process group of every engine not yet closed, for
// a program about to exit without its cleanup (a second Ctrl-C): the
// engines run in process groups of their own, which the terminal's
// Ctrl-C does not reach, and one that ignores its closed input would run
// on.
func KillEngines() {
	running.Lock()
	defer running.Unlock()
	for g := range running.engines {
		g.u.Kill()
	}
}

// Name is what the engine calls itself (its UCI id name) or, when it does
// not say, its program's file name.
func (g *Engine) Name() string { return g.name }

// Close ends the engine, if Trace has not, and the trace pipe.
func (g *Engine) Close() error {
	running.Lock()
	delete(running.engines, g)
	running.Unlock()
	err := g.u.Close()
	g.trace.Close()
	return err
}

// EngineOptions say how Trace searches and records.
type EngineOptions struct {
	// Limits are every search's, sent as the UCI go command (go infinite
	// when none is set).
	Limits engine.Limits
	// Version is Horizon's version, recorded in every run.
	Version string
	// Label, when set, labels every run (Options.Label).
	Label string
	// EPDIDs are the EPD ids of the positions, by their index in fens
	// ("" for none): a run whose root is the position sent records its
	// id (trace.RunInfo.EPDID).
	EPDIDs []string
	// Record is passed to each run's recorder. A run cut at its MaxNodes
	// has the engine told to stop, as the rest of its search would be
	// dropped.
	Record trace.RecordOptions
	// OnSearch, when set, is called as the search of position i begins,
	// with a func that tells how many nodes of it are recorded so far (for
	// a progress line); the func it returns is called when the search has
	// ended: the engine answered bestmove, or the wait for it ended on an
	// error or a cancel.
	OnSearch func(i int, nodes func() int64) (ended func())
}

// streamGrace is how long after its bestmove an engine's stream may still
// begin: emitters buffer, and an engine may flush after the bestmove line
// (Sunfish's wrapper writes its end record after go_loop printed
// bestmove). A stream silent that long after the search ended is none.
var streamGrace = time.Second

// streamStall is how long a begun stream may stay silent, the importer
// waiting for it, before the search it never ended is given up on.
var streamStall = 10 * time.Second

// answerWait is how long the engine may take to answer isready, and
// bestmove after a stop.
var answerWait = 30 * time.Second

// quitWait is how long the engine may take to exit after quit before it is
// killed; killedWait how long, after the kill, the trace pipe may take to
// reach its end before it is cut (a child that left the engine's process
// group may still hold it).
var quitWait, killedWait = 10 * time.Second, time.Second

// Trace has the engine search each FEN in turn with opts.Limits and
// records the stream it writes, one run per search, into st, reading the
// stream as it comes (a live viewer sees the runs grow). A cancel of ctx
// (Ctrl-C) tells the engine to stop, and its search is recorded as
// interrupted. Trace ends with the engine told to quit: an Engine traces
// once.
//
// It returns the runs recorded, the engine's own node count (from its last
// UCI info line) standing in for a stream that gives none, and the first
// error: a fault of the stream, which comes first when the stream broke
// while the engine was still fine; what went wrong with the engine (it
// answered bestmove but wrote no stream, its stream stalled, it closed
// its stream before the last search, it exited) rather than the stream
// error that only follows from it; a search of another position than the
// one sent.
func (g *Engine) Trace(ctx context.Context, st *trace.Store, fens []string, opts EngineOptions) ([]RunResult, error) {
	u := g.u
	stream := &watchedStream{r: g.trace}
	finished := make(chan RunResult, 16)
	// loopDone is closed when the searches are over: no one reads finished
	// any more, and the importer must not wait to hand it a run.
	loopDone := make(chan struct{})
	var cur currentRun
	var runs []RunResult
	var ierr error
	// importEnded is closed when Import has returned, importDone when
	// the stream is drained as well: the engine has closed it, which it
	// may not do before it quits.
	importEnded, importDone := make(chan struct{}), make(chan struct{})
	goCmd := uci.GoCommand(opts.Limits)
	// cancelStop is set when a cancel had Horizon stop the engine's search
	// before its bestmove: the search is interrupted, whatever depth its
	// stream shows it reached (Options.CancelStopped).
	var cancelStop atomic.Bool
	// capped says the recording's node cap cut the current search's run.
	capped := make(chan struct{}, 1)
	ids := &liveIDs{fens: fens, ids: opts.EPDIDs}
	ids.searching.Store(-1)
	go func() {
		defer close(importDone)
		// The UCI id name names the runs, over the stream's engine record;
		// an engine without one is named by its stream, else its program.
		runs, ierr = Import(ctx, st, stream, Options{Engine: g.name, PreferName: u.Name != "", Label: opts.Label, Version: opts.Version,
			Limits: goCmd, Record: opts.Record, EPDID: ids.id, StopsOnCancel: true, CancelStopped: cancelStop.Load, Waiting: &stream.waiting, Live: true,
			OnRun: func(_ int64, rec *trace.Recorder) { cur.set(rec) },
			OnFinish: func(r RunResult) {
				if r.Limited {
					// The rest of the search would be dropped:
					// waitBestmove stops it. Not for the engine's own
					// limits: it has stopped.
					select {
					case capped <- struct{}{}:
					default:
					}
				}
				select {
				case finished <- r:
				case <-loopDone: // more runs than searches, or an early end
				}
			}})
		close(importEnded)
		// Keep the pipe drained after an early stop, so the engine never
		// blocks writing to it.
		io.Copy(io.Discard, stream)
	}()
	so := searchOutcome{streamClosed: -1, reported: map[int64]int64{}, warnings: map[int64]string{}}
	for i, fen := range fens {
		if ctx.Err() != nil {
			break
		}
		if err := g.newPosition(ctx, fen); err != nil {
			note := ""
			if errors.Is(err, uci.ErrExited) {
				note = u.StderrNote()
			}
			so.searchErr = fmt.Errorf("%s: waiting for \"readyok\": %w%s", g.name, err, note)
			break
		}
		before := stream.read.Load()
		select {
		case <-capped: // the last search's, which had ended
		default:
		}
		// The importer first reads what the engine wrote before its
		// readyok (a run too many of the last search), so that no such run
		// starts while this search is under way and takes its id. It has
		// read up to the last run's end already: a second at most, past
		// which the ids rest on the out-of-step check alone.
		stream.caughtUp(ctx, importEnded, time.Second)
		ids.searching.Store(int64(i))
		ended := func() {}
		if opts.OnSearch != nil {
			ended = opts.OnSearch(i, cur.nodes)
		}
		uciNodes, overran, err := waitBestmove(ctx, u, stopWhen{importEnded, capped}, opts.Limits, &cancelStop)
		ended()
		if err != nil {
			note := ""
			if errors.Is(err, errExitedSearch) || errors.Is(err, uci.ErrExited) {
				note = u.StderrNote()
			}
			so.searchErr, so.streamFirst = fmt.Errorf("%s, searching position %d of %d: %w%s", g.name, i+1, len(fens), err, note), closed(importEnded)
			break
		}
		r, ok, err := stream.awaitRun(ctx, finished, importEnded, before, g.name)
		ids.searching.Store(-1)
		if ok {
			so.took(g, r, fen, uciNodes, overran, goCmd)
		}
		if err != nil {
			so.searchErr = err
			break
		}
		if closed(importEnded) {
			// The import is over: a broken stream (its error says why), or
			// one the engine closed, a search short of the last.
			if i < len(fens)-1 || !ok {
				so.streamClosed = so.searched
			}
			break
		}
	}
	close(loopDone)
	// Quit first: runs and ierr are the importer's until it is done.
	cut := g.quit(ctx, importDone)
	return g.settle(ctx, cut, stream, runs, ierr, &so, len(fens))
}

// currentRun is the run live tracing is recording, for the progress line.
type currentRun struct {
	mu  sync.Mutex
	rec *trace.Recorder
}

func (c *currentRun) set(rec *trace.Recorder) {
	c.mu.Lock()
	c.rec = rec
	c.mu.Unlock()
}

// nodes is the current run's node count so far (0 before its first).
func (c *currentRun) nodes() int64 {
	c.mu.Lock()
	rec := c.rec
	c.mu.Unlock()
	if rec == nil {
		return 0
	}
	return rec.Nodes()
}

// liveIDs gives each run its position's EPD id. searching is the index of
// the search under way, from just before its go until its run has ended;
// -1 between searches. A run takes its position's EPD id only when it is
// the stream's run of the search under way and no run before it came out
// of step: an engine that wrote two runs for one search had its second
// given the next record's id when that record has the same position.
type liveIDs struct {
	fens, ids []string
	searching atomic.Int64
	outOfStep atomic.Bool
}

func (l *liveIDs) id(i int, root string) string {
	if int64(i) != l.searching.Load() {
		l.outOfStep.Store(true)
	}
	if l.outOfStep.Load() || i >= len(l.fens) || i >= len(l.ids) || otherPosition(l.fens[i], root) {
		return ""
	}
	return l.ids[i]
}

// searchOutcome is what live tracing's searches left for settle.
type searchOutcome struct {
	searchErr, rootErr error
	streamFirst        bool             // the import had ended when searchErr arose: a broken stream had the engine stopped
	streamClosed       int              // searches with a run when a stream that was whole ended early (-1: none)
	searched           int              // searches with a run
	reported           map[int64]int64  // run: nodes in the engine's last UCI info line
	warnings           map[int64]string // run: what its search warned of
}

// took notes a search that made run r: the engine's own count, the root's
// check against the position sent, and a search that ran past its limit.
func (so *searchOutcome) took(g *Engine, r RunResult, fen string, uciNodes int64, overran time.Duration, goCmd string) {
	so.searched++
	if uciNodes >= 0 {
		so.reported[r.RunID] = uciNodes
	}
	warning, rerr := g.checkRoot(r, fen)
	if so.rootErr == nil {
		so.rootErr = rerr
	}
	if overran > 0 {
		warning = alsoWarn(warning, fmt.Sprintf("%s searched %s past %q and was told to stop", g.name, overran.Round(100*time.Millisecond), goCmd))
	}
	if warning != "" {
		so.warnings[r.RunID] = warning
	}
}

// settle works out, once the engine has quit (cut: its stream was cut
// short), the one error live tracing's runs end with, giving each run its engine's count and
// warnings.
func (g *Engine) settle(ctx context.Context, cut bool, stream *watchedStream, runs []RunResult, ierr error, so *searchOutcome, nfens int) ([]RunResult, error) {
	if cut && errors.Is(ierr, os.ErrDeadlineExceeded) {
		// A process the engine started still held the stream: it was cut
		// where it was, between searches (all is in) or inside one.
		ierr = nil
		if n := len(runs); n > 0 && errors.Is(runs[n-1].Err, os.ErrDeadlineExceeded) {
			ierr = fmt.Errorf("%s did not exit within %s of quit and was killed, and a process it started held its trace stream, "+
				"cut at byte %d in the middle of run %d", g.name, quitWait, stream.read.Load(), runs[n-1].RunID)
		}
	}
	switch {
	case ctx.Err() != nil || so.searchErr == nil:
	case so.streamFirst && streamFault(ierr):
		ierr = fmt.Errorf("%w; then, after Horizon told the engine to stop: %w", ierr, so.searchErr)
	default:
		ierr = so.searchErr
	}
	if ierr == nil && ctx.Err() == nil && so.streamClosed >= 0 {
		ierr = fmt.Errorf("%s closed its trace stream after %d of %d searches: the rest were not searched", g.name, so.streamClosed, nfens)
	}
	// Runs are matched to searches in order: with more runs than searches
	// the matching, and what was checked of each run against its
	// position (rootErr), cannot be trusted.
	if ierr == nil && ctx.Err() == nil && len(runs) > so.searched {
		ierr = fmt.Errorf("%s wrote %d runs for %d searches: its runs cannot be matched to the positions sent", g.name, len(runs), so.searched)
	}
	if ierr == nil {
		ierr = so.rootErr
	}
	for i := range runs {
		if n, ok := so.reported[runs[i].RunID]; ok && runs[i].EngineNodes < 0 {
			runs[i].EngineNodes, runs[i].EngineNodesFrom = n, FromUCIInfo
		}
		runs[i].Warning = alsoWarn(runs[i].Warning, so.warnings[runs[i].RunID])
	}
	return runs, ierr
}

// alsoWarn adds warning w to a run's warnings.
func alsoWarn(warnings, w string) string {
	if warnings == "" || w == "" {
		return warnings + w
	}
	return warnings + "; " + w
}

// streamFault says whether err is a fault in the stream's content, not its
// end: a stream cut short follows from what happened to the engine.
func streamFault(err error) bool {
	var se *StreamError
	return errors.As(err, &se) && !se.Truncated
}

// closed says whether c is closed.
func closed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// quit tells the engine to quit and waits until its trace stream is
// drained. An engine that does not exit within quitWait, or when ctx ends
// during that wait (a Ctrl-C that first comes after the searches; ctx
// ends once, so an engine that ignores quit after a Ctrl-C during a
// search is waited for quitWait, unless a second Ctrl-C quits Horizon and
// KillEngines kills it), is killed with its process group; a stream still
// held open after that (a child that left the group) is cut, which quit
// reports.
func (g *Engine) quit(ctx context.Context, importDone <-chan struct{}) (cut bool) {
	g.u.Send("quit")
	g.u.CloseInput()
	// A cancel that came before quit was sent is the Ctrl-C that stopped
	// the search: the engine still writes its stream's last records.
	var cancel <-chan struct{}
	if ctx.Err() == nil {
		cancel = ctx.Done()
	}
	t := time.NewTimer(quitWait)
	defer t.Stop()
	select {
	case <-importDone:
		return false
	case <-t.C:
	case <-cancel:
	}
	g.u.Kill()
	t.Reset(killedWait)
	select {
	case <-importDone:
		return false
	case <-t.C:
	}
	if err := g.trace.SetReadDeadline(time.Now()); err != nil {
		g.trace.Close()
	}
	<-importDone
	return true
}

// newPosition sets up fen for the next search (ucinewgame, position) and
// waits for the engine's readyok, answerWait at most in all (an engine
// that talks on without answering is given up on as well).
func (g *Engine) newPosition(ctx context.Context, fen string) error {
	err := g.u.Ask(ctx, answerWait, "readyok", nil, "ucinewgame", "position fen "+fen, "isready")
	return err
}

// checkRoot compares the root of run r with fen, the position Trace sent,
// not their move counters: an error naming both when the placement or the
// side to move differ; a warning when only the castling rights or the
// en-passant square do, which an engine set up without them (Fairy-Max
// behind its adapter, README) searches as it takes them to be. Either way
// the run is kept as the engine searched it.
func (g *Engine) checkRoot(r RunResult, fen string) (warning string, err error) {
	switch {
	case otherPosition(fen, r.FEN):
		return "", fmt.Errorf("run %d: %s searched another position than the one sent: sent %q, its stream's root is %q "+
			"(the run is kept as the engine searched it)", r.RunID, g.name, normalFEN(fen), normalFEN(r.FEN))
	case otherRights(fen, r.FEN):
		return fmt.Sprintf("%s searched the position sent with other castling rights or en-passant square: sent %q, its stream's root is %q "+
			"(an engine set up without them, as Fairy-Max behind its adapter, takes them as it sees the board; the run is kept as the engine searched it)",
			g.name, normalFEN(fen), normalFEN(r.FEN)), nil
	}
	return "", nil
}

// rootFields are the fields of the FENs sent and root that checkRoot
// compares (placement, side, castling, en passant), as Horizon writes
// them; nil when either does not parse: the engine said nothing of a
// position it could not be sent.
func rootFields(sent, root string) (s, t []string) {
	ps, perr := engine.ParseFEN(sent)
	pr, rerr := engine.ParseFEN(root)
	if perr != nil || rerr != nil {
		return nil, nil
	}
	if s, t = strings.Fields(ps.FEN()), strings.Fields(pr.FEN()); len(s) < 4 || len(t) < 4 {
		return nil, nil
	}
	return s, t
}

// otherPosition reports whether root, a stream's root FEN, has another
// placement or side to move than sent.
func otherPosition(sent, root string) bool {
	s, t := rootFields(sent, root)
	return s != nil && (s[0] != t[0] || s[1] != t[1])
}

// otherRights reports whether root differs from sent in its castling
// rights or en-passant square only.
func otherRights(sent, root string) bool {
	s, t := rootFields(sent, root)
	return s != nil && !otherPosition(sent, root) && (s[2] != t[2] || s[3] != t[3])
}

// normalFEN is fen as Horizon writes it, or fen itself when it does not
// parse.
func normalFEN(fen string) string {
	if p, err := engine.ParseFEN(fen); err == nil {
		return p.FEN()
	}
	return fen
}

// watchedStream is the engine's trace stream as the importer reads it: how
// many bytes it has read, and since when the importer has been waiting for
// more (Options.Waiting), so that Trace can tell an engine that writes no
// stream from one whose stream is late or has stalled. The stream is read
// ahead, so a pending Read of it would say the importer waits when it is
// still busy recording (a long finish of a big run is no stall).
type watchedStream struct {
	r       io.Reader
	read    atomic.Int64
	waiting atomic.Int64 // Unix ns since which the importer has waited for bytes; 0 when it is not waiting
}

func (w *watchedStream) Read(p []byte) (int, error) {
	n, err := w.r.Read(p)
	w.read.Add(int64(n))
	return n, err
}

// caughtUp waits, at most limit, until the importer has read all the
// stream holds: it waits for the stream's next bytes, none read since
// (checked twice, so that a read under way is not taken for the end).
func (w *watchedStream) caughtUp(ctx context.Context, importEnded <-chan struct{}, limit time.Duration) {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) && ctx.Err() == nil && !closed(importEnded) {
		if w.waiting.Load() != 0 {
			read := w.read.Load()
			time.Sleep(2 * time.Millisecond)
			if w.waiting.Load() != 0 && w.read.Load() == read {
				return
			}
			continue
		}
		time.Sleep(time.Millisecond)
	}
}

// awaitRun waits, after the engine's bestmove, for the run of the search
// whose go was sent when the stream had given before bytes: ok when it
// was finished; neither it nor an error when the import ended (its error
// says why), ctx's error when ctx ended. An engine that wrote nothing for the search is said to be
// so at once, after streamGrace; a stream that began and then went
// silent, after streamStall.
func (w *watchedStream) awaitRun(ctx context.Context, finished <-chan RunResult, importEnded <-chan struct{}, before int64, name string) (r RunResult, ok bool, err error) {
	bestmove := time.Now()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case r := <-finished:
			return r, true, nil
		case <-importEnded:
			// The run may have been handed over as the import ended.
			select {
			case r := <-finished:
				return r, true, nil
			default:
				return r, false, nil
			}
		case <-ctx.Done():
			return r, false, ctx.Err()
		case now := <-tick.C:
			if w.read.Load() == before && now.Sub(bestmove) >= streamGrace {
				return r, false, fmt.Errorf("%s answered bestmove but wrote no trace of the search to HORIZON_TRACE within %s: is it instrumented? "+
					"(docs/trace-protocol.md; examples/engines/build.sh builds instrumented engines)", name, streamGrace)
			}
			if since := w.waiting.Load(); since != 0 && now.Sub(time.Unix(0, max(since, bestmove.UnixNano()))) >= streamStall {
				return r, false, fmt.Errorf("%s answered bestmove, but its trace stream went silent for %s before the search's end record "+
					"(%d bytes read in all)", name, streamStall, w.read.Load())
			}
		}
	}
}

// overdue is how long past its go movetime an engine may search before
// Horizon tells it to stop: time enough for any engine's own margin, and
// a bound on the wait for one that lost its clock or hung.
var overdue = answerWait

// stopWhen are what has waitBestmove stop the engine's search: the import
// ended early (a broken stream), or the recording's node cap cut the run.
type stopWhen struct {
	importEnded <-chan struct{}
	capped      <-chan struct{}
}

// waitBestmove searches with lim (uci.Engine.Go) and returns the node
// count of the last info line that gave one (-1: none); when the import
// stopped early or the cap cut the run (stop) it tells the engine to stop.
// Under a go movetime it tells the engine to stop when overdue has passed
// beyond it (overran), and an engine that has not answered answerWait
// after a stop (however much else it said) is an error.
func waitBestmove(ctx context.Context, u *uci.Engine, stop stopWhen, lim engine.Limits, cancelStop *atomic.Bool) (nodes int64, overran time.Duration, err error) {
	// Go waits on one stop channel: it closes when either fires.
	stopc, done := make(chan struct{}), make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-stop.importEnded:
		case <-stop.capped:
		case <-done:
			return
		}
		close(stopc)
	}()
	res, err := u.Go(ctx, lim, uci.GoOptions{Stop: stopc, Overdue: overdue, StopWait: answerWait,
		OnCancel: func() { cancelStop.Store(true) }}) // before the stop: the importer may read the search's end at once
	switch {
	case err != nil && res.Stopped && res.Overran > 0:
		return res.Nodes, res.Overran, fmt.Errorf("waiting for \"bestmove\" %s past the go command's movetime, and after Horizon sent stop: %w",
			res.Overran.Round(time.Second), err)
	case err != nil && res.Stopped:
		return res.Nodes, res.Overran, fmt.Errorf("waiting for \"bestmove\": %w", err)
	case errors.Is(err, uci.ErrExited):
		return res.Nodes, res.Overran, errExitedSearch
	}
	return res.Nodes, res.Overran, err
}
