package foreign

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
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
}

// StartEngine starts argv with the trace pipe as fd 3 and waits for its
// uciok. The engine is killed when ctx ends.
func StartEngine(ctx context.Context, argv []string) (*Engine, error) {
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), "HORIZON_TRACE=fd:3")
	cmd.ExtraFiles = []*os.File{pw}
	u, err := uci.StartCmd(ctx, cmd)
	pw.Close() // the engine holds the write end
	if err != nil {
		pr.Close()
		if cmd.Process == nil {
			return nil, fmt.Errorf("start engine: %w", err)
		}
		return nil, err
	}
	return &Engine{u: u, trace: pr}, nil
}

// Name is what the engine calls itself (its UCI id name), "" when it does
// not say.
func (g *Engine) Name() string { return g.u.Name }

// Close ends the engine, if Trace has not, and the trace pipe.
func (g *Engine) Close() error {
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
	// Record is passed to each run's recorder. A run cut at its MaxNodes
	// has the engine told to stop, as the rest of its search would be
	// dropped.
	Record trace.RecordOptions
	// OnSearch, when set, is called as the search of position i begins,
	// with a func that tells how many nodes of it are recorded so far (for
	// a progress line); the func it returns is called when the engine has
	// answered bestmove.
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

// Trace has the engine search each FEN in turn with opts.Limits and
// records the stream it writes, one run per search, into st, reading the
// stream as it comes (a live viewer sees the runs grow). A cancel of ctx
// (Ctrl-C) tells the engine to stop, and its search is recorded as
// interrupted. Trace ends with the engine told to quit: an Engine traces
// once.
//
// It returns the runs recorded, the engine's own node count (from its last
// UCI info line) standing in for a stream that gives none, and the first
// error: what went wrong with the engine (it answered bestmove but wrote
// no stream, its stream stalled, it exited) rather than the stream error
// that only follows from it.
func (g *Engine) Trace(ctx context.Context, st *trace.Store, fens []string, opts EngineOptions) ([]RunResult, error) {
	u := g.u
	stream := &watchedStream{r: g.trace}
	finished := make(chan RunResult, 16)
	var mu sync.Mutex
	var cur *trace.Recorder
	var runs []RunResult
	var ierr error
	// importEnded is closed when Import has returned, importDone when
	// the stream is drained as well: the engine has closed it, which it
	// may not do before it quits.
	importEnded, importDone := make(chan struct{}), make(chan struct{})
	goCmd := uci.GoCommand(opts.Limits)
	go func() {
		defer close(importDone)
		runs, ierr = Import(ctx, st, stream, Options{Engine: u.Name, PreferName: true, Version: opts.Version,
			Limits: goCmd, Record: opts.Record, StopsOnCancel: true, Live: true,
			OnRun: func(_ int64, rec *trace.Recorder) {
				mu.Lock()
				cur = rec
				mu.Unlock()
			},
			OnFinish: func(r RunResult) {
				if r.Status == trace.StatusTruncated {
					u.Send("stop") // the node limit: the rest of the search would be dropped
				}
				finished <- r
			}})
		close(importEnded)
		// Keep the pipe drained after an early stop, so the engine never
		// blocks writing to it.
		io.Copy(io.Discard, stream)
	}()
	nodes := func() int64 {
		mu.Lock()
		rec := cur
		mu.Unlock()
		if rec == nil {
			return 0
		}
		return rec.Nodes()
	}

	var searchErr error
	reported := map[int64]int64{} // run: nodes in the engine's last UCI info line
	for i, fen := range fens {
		if ctx.Err() != nil {
			break
		}
		if err := u.SetPosition(fen); err != nil {
			searchErr = fmt.Errorf("waiting for \"readyok\": %w", err)
			break
		}
		before := stream.read.Load()
		u.Send(goCmd)
		ended := func() {}
		if opts.OnSearch != nil {
			ended = opts.OnSearch(i, nodes)
		}
		uciNodes, err := waitBestmove(ctx, u, importEnded)
		ended()
		if err != nil {
			searchErr = err
			break
		}
		r, ok, err := stream.awaitRun(finished, importEnded, before, u.Name)
		if ok && uciNodes >= 0 {
			reported[r.RunID] = uciNodes
		}
		if searchErr = err; searchErr != nil {
			break
		}
		select {
		case <-importEnded: // a broken stream: its error says why
		default:
			continue
		}
		break
	}
	u.Send("quit")
	u.CloseInput()
	select {
	case <-importDone:
	case <-time.After(10 * time.Second):
		u.Kill()
		<-importDone
	}
	if searchErr != nil && ctx.Err() == nil {
		ierr = searchErr
	}
	for i := range runs {
		if n, ok := reported[runs[i].RunID]; ok && runs[i].EngineNodes < 0 {
			runs[i].EngineNodes = n
		}
	}
	return runs, ierr
}

// watchedStream is the engine's trace stream as the importer reads it: how
// many bytes it has read, and since when it has been waiting for more, so
// that Trace can tell an engine that writes no stream from one whose
// stream is late or has stalled. With StopsOnCancel the importer reads it
// on its own goroutine, with no read ahead: a pending Read means it has
// used all the stream gave and waits for the engine, never that it is busy
// recording (a long finish of a big run is no stall).
type watchedStream struct {
	r       io.Reader
	read    atomic.Int64
	waiting atomic.Int64 // Unix ns the pending Read began; 0 when none is pending
}

func (w *watchedStream) Read(p []byte) (int, error) {
	w.waiting.Store(time.Now().UnixNano())
	n, err := w.r.Read(p)
	w.waiting.Store(0)
	w.read.Add(int64(n))
	return n, err
}

// awaitRun waits, after the engine's bestmove, for the run of the search
// whose go was sent when the stream had given before bytes: ok when it
// was finished; neither it nor an error when the import ended (its error
// says why). An engine that wrote nothing for the search is said to be
// so at once, after streamGrace; a stream that began and then went
// silent, after streamStall.
func (w *watchedStream) awaitRun(finished <-chan RunResult, importEnded <-chan struct{}, before int64, name string) (r RunResult, ok bool, err error) {
	bestmove := time.Now()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case r := <-finished:
			return r, true, nil
		case <-importEnded:
			return r, false, nil
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

// waitBestmove reads until bestmove and returns the node count of the
// last info line (-1: none); when the import stopped early (node limit, a
// broken stream) it tells the engine to stop.
func waitBestmove(ctx context.Context, u *uci.Engine, importEnded <-chan struct{}) (int64, error) {
	stopped := false
	nodes := int64(-1)
	for {
		var line string
		var err error
		if !stopped {
			select {
			case <-importEnded:
				u.Send("stop")
				stopped = true
				continue
			case <-ctx.Done():
				u.Send("stop")
				return nodes, ctx.Err()
			case l, ok := <-u.Lines():
				if !ok {
					return nodes, errors.New("the engine exited during its search")
				}
				line = strings.TrimSpace(l)
			}
		} else {
			line, err = u.Next(30 * time.Second)
			if err != nil {
				return nodes, fmt.Errorf("waiting for \"bestmove\": %w", err)
			}
		}
		if strings.HasPrefix(line, "bestmove") {
			return nodes, nil
		}
		if in, ok, _ := uci.ParseInfo(line); ok && in.Nodes >= 0 {
			nodes = in.Nodes
		}
	}
}
