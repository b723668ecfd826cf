package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/foreign"
	"github.com/horizonqs/horizon/trace"
	"github.com/horizonqs/horizon/uci"
)

func runImport(e *env, args []string) error {
	fs := newFlags(e, "import", "STREAM [-o FILE] [--engine-name NAME] [--max-nodes N] [--json]",
		`Reads a stream in the Horizon trace protocol (docs/trace-protocol.md), as an
instrumented engine writes it to the file HORIZON_TRACE names, replays every
move from the root position and records each search in it as a run. STREAM
is a file, or - for standard input.

A fault in the stream (a malformed record, an illegal move, more leaves than
enters, a stream cut short) stops the import with an error naming the record's
byte offset and the node's path; everything before it is kept, the run marked
failed (interrupted when the stream was cut short).

An engine stops searching at 'quit' (and may at the end of its input), so a
script keeps the engine's input open until its bestmove, as the first example
does with sleep; 'horizon trace --engine' drives the engine for you.`,
		"(printf 'position startpos\\ngo depth 8\\n'; sleep 5; echo quit) | HORIZON_TRACE=ethereal.hzt ./ethereal; horizon import ethereal.hzt -o e.trace",
		"horizon import - -o live.trace < /tmp/fifo")
	out := fs.String("o", "horizon.trace", "trace file to write (runs are appended if it exists)")
	name := fs.String("engine-name", "", "engine name for streams that carry none")
	maxNodes := fs.Int64("max-nodes", defaultMaxNodes, "stop a run after this many nodes and mark it truncated")
	asJSON := fs.Bool("json", false, "print the runs as JSON (an array); stream_nodes is the nodes the stream holds (as nodes does: Horizon's run node is in neither), "+
		"reported_nodes the engine's own count from its end record (absent without one): they differ when its instrumentation misses nodes")
	stream, err := parseFileFlags(fs, args)
	if err != nil {
		return err
	}
	if *maxNodes <= 0 {
		return usagef("--max-nodes %d: want a positive number", *maxNodes)
	}
	var in io.Reader = e.stdin
	if p := stream; p != "-" {
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
	}
	created := !fileExists(*out)
	st, err := trace.Create(*out)
	if err != nil {
		return err
	}
	defer st.Close()
	runs, ierr := foreign.Import(e.ctx, st, in, foreign.Options{Engine: *name, Version: version(),
		Record: trace.RecordOptions{MaxNodes: *maxNodes}})
	return reportForeign(e, st, runs, ierr, *out, *asJSON, created)
}

func fileExists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// reportForeign prints the runs of another engine and returns the import's
// error, naming the file where its runs are kept. When no run was recorded
// it is an error, and the file, if this command created it, is removed: an
// empty trace would only pass the failure on to whoever opens it.
func reportForeign(e *env, st *trace.Store, runs []foreign.RunResult, ierr error, out string, asJSON, created bool) error {
	if len(runs) == 0 {
		cerr := st.Close()
		if created {
			for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
				os.Remove(out + suffix)
			}
		}
		switch {
		case e.ctx.Err() != nil:
			return errors.New("interrupted before any search was recorded")
		case ierr != nil:
			return ierr
		case cerr != nil:
			return cerr
		}
		return errors.New("the stream holds no search (no position record followed by nodes): nothing was recorded")
	}
	f := formatOf(asJSON, false)
	res := traceResult{file: out, runs: []traceRunJSON{}}
	for _, r := range runs {
		label := r.FEN
		j, err := summarizeRun(e.ctx, st, r.RunID, label, nil)
		if err != nil {
			return err
		}
		j.Engine = r.Engine
		n := r.Nodes
		j.StreamNodes = &n
		if r.EngineNodes >= 0 {
			rn := r.EngineNodes
			j.ReportedNodes = &rn
		}
		if r.Err != nil {
			j.StreamError = r.Err.Error()
		}
		res.runs = append(res.runs, j)
		if err := e.printPart(j, f); err != nil {
			return err
		}
		if f == formatText && r.EngineNodes >= 0 && r.EngineNodes != r.Nodes {
			fmt.Fprintf(e.stderr, "horizon: run %d: the engine counted %s nodes, its stream holds %s\n",
				r.RunID, engine.Commas(r.EngineNodes), engine.Commas(r.Nodes))
		}
	}
	if err := st.Close(); err != nil {
		return err
	}
	if err := e.print(res, f); err != nil {
		return err
	}
	if e.ctx.Err() != nil {
		// Ctrl-C stopped the command even when the stream ended cleanly
		// after it (the engine answered Horizon's stop): exit 130.
		return fmt.Errorf("interrupted; the runs so far are in %s", out)
	}
	if ierr != nil {
		if len(runs) > 0 {
			return fmt.Errorf("%w (what came before is kept in %s)", ierr, out)
		}
		return ierr
	}
	return nil
}

// runTraceEngine checks the flags that go with --engine and runs traceEngine.
func runTraceEngine(e *env, fs *flag.FlagSet, sf *searchFlags, argv []string, pf *positionFlags, id, out string, maxNodes int64,
	asJSON, viewAfter bool) error {
	argv = append(argv, fs.Args()...)
	if len(argv) == 0 {
		return usagef("--engine: empty command")
	}
	if maxNodes <= 0 {
		return usagef("--max-nodes %d: want a positive number", maxNodes)
	}
	if viewAfter && asJSON {
		return usagef("--view and --json do not go together")
	}
	var bad string
	fs.Visit(func(f *flag.Flag) {
		if _, ok := sf.switches[f.Name]; ok || f.Name == "qs" || f.Name == "last-iteration" || f.Name == "under" {
			bad = f.Name
		}
	})
	if bad != "" {
		return usagef("--%s applies to Horizon's own engine, not with --engine", bad)
	}
	if flagGiven(fs, "max-size") {
		// The importer does not stop another engine's stream at a size
		// cap yet; a cap silently ignored would let the file outgrow it.
		return usagef("--max-size is not supported with --engine; cap the run with --max-nodes")
	}
	lim, err := sf.limits()
	if err != nil {
		return err
	}
	positions, err := pf.load()
	if err != nil {
		return err
	}
	if positions, err = pf.withID(positions, id); err != nil {
		return err
	}
	if viewAfter && !isTerminal(e.stdout) {
		return fmt.Errorf("--view needs a terminal on standard output; record without it and run 'horizon view %s' in a terminal", out)
	}
	return traceEngine(e, argv, positions, pf, lim, out, maxNodes, asJSON, viewAfter)
}

// uciEngine is a UCI engine process started with HORIZON_TRACE on a pipe.
type uciEngine struct {
	*uci.Engine
	trace *os.File // the read end of the trace pipe
}

// startEngine starts argv with the trace pipe as fd 3 and does the UCI
// handshake.
func startEngine(ctx context.Context, argv []string) (*uciEngine, error) {
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
	return &uciEngine{Engine: u, trace: pr}, nil
}

// traceEngine is `horizon trace --engine`: every position searched by the
// UCI engine argv, its stream recorded live, one run per position.
func traceEngine(e *env, argv []string, positions []engine.EPD, pf *positionFlags, lim engine.Limits, out string, maxNodes int64,
	asJSON, viewAfter bool) error {
	u, err := startEngine(e.ctx, argv)
	if err != nil {
		return fmt.Errorf("%s: %w", argv[0], err)
	}
	defer u.Close()
	created := !fileExists(out)
	st, err := trace.Create(out)
	if err != nil {
		return err
	}
	defer st.Close()

	stream := &watchedStream{r: u.trace}
	finished := make(chan foreign.RunResult, 16)
	var mu sync.Mutex
	var cur *trace.Recorder
	var runs []foreign.RunResult
	var ierr error
	importDone := make(chan struct{})
	go func() {
		defer close(importDone)
		runs, ierr = foreign.Import(e.ctx, st, stream, foreign.Options{Engine: u.Name, PreferName: true, Version: version(),
			Limits: goCommand(lim), Record: trace.RecordOptions{MaxNodes: maxNodes}, StopsOnCancel: true,
			OnRun: func(_ int64, rec *trace.Recorder) {
				mu.Lock()
				cur = rec
				mu.Unlock()
			},
			OnFinish: func(r foreign.RunResult) {
				if r.Status == trace.StatusTruncated {
					u.Send("stop") // the node limit: the rest of the search would be dropped
				}
				finished <- r
			}})
		// Keep the pipe drained after an early stop, so the engine never
		// blocks writing to it.
		io.Copy(io.Discard, stream)
	}()

	var searchErr error
	reported := map[int64]int64{} // run: nodes in the engine's last UCI info line
	for i := range positions {
		if e.ctx.Err() != nil {
			break
		}
		p := &positions[i]
		label := shorten(pf.label(p), 40)
		u.Send("ucinewgame")
		u.Send("isready")
		if err := u.waitFor("readyok", 30*time.Second); err != nil {
			searchErr = err
			break
		}
		u.Send("position fen " + p.FEN)
		before := stream.read.Load()
		u.Send(goCommand(lim))
		stop := progressLine(e.stderr, func(el time.Duration) string {
			mu.Lock()
			rec := cur
			mu.Unlock()
			var n int64
			if rec != nil {
				n = rec.Nodes()
			}
			return fmt.Sprintf("%s %s  nodes %s  %.1fs", label, u.Name, engine.Commas(n), el.Seconds())
		})
		uciNodes, err := u.waitBestmove(e.ctx, importDone)
		stop()
		if err != nil {
			searchErr = err
			break
		}
		r, ok, err := stream.awaitRun(finished, importDone, before, u.Name)
		if ok && uciNodes >= 0 {
			reported[r.RunID] = uciNodes
		}
		searchErr = err
		if searchErr != nil || ierr != nil {
			break
		}
	}
	u.Send("quit")
	u.CloseInput()
	select {
	case <-importDone:
	case <-time.After(10 * time.Second):
		u.Kill()
		<-importDone
	}
	if searchErr != nil && e.ctx.Err() == nil {
		ierr = searchErr // says what went wrong with the engine, which the stream's error only follows from
	}
	for i := range runs {
		if n, ok := reported[runs[i].RunID]; ok && runs[i].EngineNodes < 0 {
			runs[i].EngineNodes = n
		}
	}
	if err := reportForeign(e, st, runs, ierr, out, asJSON, created); err != nil {
		return err
	}
	if viewAfter && len(runs) > 0 {
		return viewTrace(e, out, runs[0].RunID)
	}
	return nil
}

// watchedStream is the engine's trace stream as the importer reads it: how
// many bytes it has read, and since when it has been waiting for more, so
// that trace --engine can tell an engine that writes no stream from one
// whose stream is late or has stalled. With StopsOnCancel the importer
// reads it on its own goroutine, with no read ahead: a pending Read means
// it has used all the stream gave and waits for the engine, never that it
// is busy recording (a long finish of a big run is no stall).
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

// streamGrace is how long after its bestmove an engine's stream may still
// begin: emitters buffer, and an engine may flush after the bestmove line
// (Sunfish's wrapper writes its end record after go_loop printed
// bestmove). A stream silent that long after the search ended is none.
var streamGrace = time.Second

// streamStall is how long a begun stream may stay silent, the importer
// waiting for it, before the search it never ended is given up on.
var streamStall = 10 * time.Second

// awaitRun waits, after the engine's bestmove, for the run of the search
// whose go was sent when the stream had given before bytes: ok when it
// was finished; neither it nor an error when the import ended (its error
// says why). An engine that wrote nothing for the search is said to be
// so at once, after streamGrace; a stream that began and then went
// silent, after streamStall.
func (w *watchedStream) awaitRun(finished <-chan foreign.RunResult, importDone <-chan struct{}, before int64, name string) (r foreign.RunResult, ok bool, err error) {
	bestmove := time.Now()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case r := <-finished:
			return r, true, nil
		case <-importDone:
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

func (u *uciEngine) waitFor(want string, timeout time.Duration) error {
	if _, err := u.Until(timeout, func(l string) bool { return l == want }); err != nil {
		return fmt.Errorf("waiting for %q: %w", want, err)
	}
	return nil
}

// waitBestmove reads until bestmove and returns the node count of the
// last info line (-1: none); when the import stopped early (node limit, a
// broken stream) it tells the engine to stop.
func (u *uciEngine) waitBestmove(ctx context.Context, importDone <-chan struct{}) (int64, error) {
	stopped := false
	nodes := int64(-1)
	for {
		var line string
		var err error
		if !stopped {
			select {
			case <-importDone:
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

// goCommand is the UCI go command for lim.
func goCommand(lim engine.Limits) string {
	s := "go"
	if lim.Depth > 0 {
		s += " depth " + strconv.Itoa(lim.Depth)
	}
	if lim.Nodes > 0 {
		s += " nodes " + strconv.FormatInt(lim.Nodes, 10)
	}
	if lim.MoveTime > 0 {
		s += " movetime " + strconv.FormatInt(lim.MoveTime.Milliseconds(), 10)
	}
	if s == "go" {
		s += " infinite"
	}
	return s
}
