package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/foreign"
	"github.com/horizonqs/horizon/internal/fifo"
	"github.com/horizonqs/horizon/trace"
)

func runImport(e *env, args []string) error {
	fs := newFlags(e, "import", "STREAM [-o FILE] [--engine-name NAME] [--label NAME] [--max-nodes N] [--json]",
		`Reads a stream in the Horizon trace protocol (docs/trace-protocol.md), as an
instrumented engine writes it to the file HORIZON_TRACE names, replays every
move from the root position and records each search in it as a run. STREAM
is a file, a FIFO (read once its writer comes), or - for standard input.

A fault in the stream (a malformed record, an illegal move, more leaves than
enters, a stream cut short) stops the import with an error naming the record's
byte offset and the node's path; everything before it is kept, the run marked
failed (interrupted when the stream was cut short).

An engine stops searching at 'quit' (and may at the end of its input), so a
script keeps the engine's input open until its bestmove, as the first example
does with sleep; 'horizon trace --engine' drives the engine for you.`,
		"(printf 'position startpos\\ngo depth 8\\n'; sleep 1; echo quit) | HORIZON_TRACE=ethereal.hzt ./ethereal; horizon import ethereal.hzt -o e.trace",
		"horizon import - -o live.trace < /tmp/fifo")
	out := fs.String("o", "horizon.trace", "trace file to write (runs are appended if it exists)")
	name := fs.String("engine-name", "", "engine name for streams that carry none")
	runLabel := fs.String("label", "", "label every run with this name (runs, diff and compare show it as the run's variant), over the stream's label record and "+
		"the engine's name: two builds of one engine (--label eth-new) are told apart")
	maxNodes := fs.Int64("max-nodes", defaultMaxNodes, "stop a run after this many nodes and mark it truncated")
	asJSON := fs.Bool("json", false, "print the runs as JSON (an array); stream_nodes is the nodes the stream holds (as nodes does: Horizon's run node is in neither), "+
		"reported_nodes the engine's own count from its end record (null without one), reported_nodes_from where it came from (end_record): they differ when its instrumentation misses nodes")
	stream, err := parseOneArg(fs, args, "trace stream (the file HORIZON_TRACE named, or - for standard input)")
	if err != nil {
		return err
	}
	if *maxNodes <= 0 {
		return usagef("--max-nodes %d: want a positive number", *maxNodes)
	}
	var in io.Reader = e.stdin
	size := int64(-1)
	if p := stream; p != "-" {
		// A FIFO is read when its writer has come; Ctrl-C ends the wait.
		f, err := fifo.Open(e.ctx, p, os.O_RDONLY)
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			size = fi.Size()
		}
	}
	created := !fileExists(*out)
	st, err := trace.Create(*out)
	if err != nil {
		return err
	}
	defer st.Close()
	prog := startImportProgress(e.stderr, stream, size, in)
	runs, ierr := foreign.Import(e.ctx, st, prog, foreign.Options{Engine: *name, Label: *runLabel, Version: version(),
		Record: trace.RecordOptions{MaxNodes: *maxNodes}, OnRun: prog.onRun})
	prog.stop()
	return reportForeign(e, st, runs, ierr, *out, *asJSON, created)
}

// importProgress is the stream import reads, counted for the progress
// line it shows on a terminal: how much of the stream is read (of the
// file's size, when it is one), and the run being recorded.
type importProgress struct {
	r    io.Reader
	read atomic.Int64
	run  atomic.Int64
	rec  atomic.Pointer[trace.Recorder]
	stop func()
}

// startImportProgress shows "importing NAME: 41% of 120.0MB  run 3  nodes
// 1,234,567  12.3s" on w while it is a terminal (size < 0: the bytes read
// alone) until stop.
func startImportProgress(w io.Writer, name string, size int64, r io.Reader) *importProgress {
	p := &importProgress{r: r}
	if name == "-" {
		name = "standard input"
	} else {
		name = shorten(filepath.Base(name), 40)
	}
	p.stop = progressLine(w, func(el time.Duration) string {
		n := p.read.Load()
		read := formatBytes(n) + " read"
		if size > 0 {
			read = fmt.Sprintf("%d%% of %s", 100*min(n, size)/size, formatBytes(size))
		}
		line := fmt.Sprintf("importing %s: %s", name, read)
		if rec := p.rec.Load(); rec != nil {
			line += fmt.Sprintf("  run %d  nodes %s", p.run.Load(), engine.Commas(rec.Nodes()))
		}
		return line + "  " + engine.Elapsed(el)
	})
	return p
}

func (p *importProgress) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	p.read.Add(int64(n))
	return n, err
}

// onRun is foreign.Options.OnRun: the run now recorded.
func (p *importProgress) onRun(run int64, rec *trace.Recorder) {
	p.run.Store(run)
	p.rec.Store(rec)
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
	// Whether the import was stopped: a reader of the output that goes
	// away while the runs are printed (| head) stops nothing.
	stopped := e.ctx.Err() != nil
	if len(runs) == 0 {
		cerr := st.Close()
		if created {
			for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
				os.Remove(out + suffix)
			}
		}
		switch {
		case stopped:
			return errors.New(e.stopped() + " before any search was recorded")
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
		j, err := summarizeRun(e.ctx, st, r.RunID, "", nil)
		if err != nil {
			return err
		}
		// The nodes the engine's count is held to: the roots of nested
		// searches it said it does not count (u=1) are not among them.
		n := r.Nodes - r.Uncounted
		j.StreamNodes = &n
		if r.EngineNodes >= 0 {
			rn, from := r.EngineNodes, string(r.EngineNodesFrom)
			j.ReportedNodes, j.ReportedNodesFrom = &rn, &from
			j.reportedFrom = r.EngineNodesFrom.Words()
		}
		if r.Err != nil {
			j.StreamError = orNull(r.Err.Error())
		}
		j.Warning = orNull(r.Warning)
		res.runs = append(res.runs, j)
		if err := e.printPart(j, f); err != nil {
			return err
		}
		if f == formatText && r.EngineNodes >= 0 && r.EngineNodes != n {
			e.notef("run %d: the engine counted %s nodes (%s), its stream holds %s",
				r.RunID, engine.Commas(r.EngineNodes), r.EngineNodesFrom.Words(), engine.Commas(n))
		}
		if r.Warning != "" {
			e.notef("run %d: %s", r.RunID, r.Warning)
		}
	}
	// Where the runs are, as trace says it (closeTraceAt).
	var err error
	if res.file, err = e.closeTraceAt(st); err != nil {
		return err
	}
	if err := e.print(res, f); err != nil {
		return err
	}
	if stopped {
		// Ctrl-C stopped the command even when the stream ended cleanly
		// after it (the engine answered Horizon's stop): exit 130.
		return fmt.Errorf("%s; the runs so far are in %s", e.stopped(), out)
	}
	if ierr != nil {
		if len(runs) > 0 {
			return fmt.Errorf("%w (what came before is kept in %s; nothing after it was read)", ierr, out)
		}
		return ierr
	}
	return nil
}

// runTraceEngine checks the flags that go with --engine and runs traceEngine.
func runTraceEngine(e *env, fs *flag.FlagSet, sf *searchFlags, argv []string, pf *positionFlags, id, out string, maxNodes int64,
	label string, asJSON, viewAfter bool) error {
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
	if viewAfter && !hasTerminal() {
		return noTerminalToView(out)
	}
	return traceEngine(e, argv, positions, pf, lim, out, maxNodes, label, asJSON, viewAfter)
}

// traceEngine is `horizon trace --engine`: every position searched by the
// UCI engine argv, its stream recorded live, one run per position.
func traceEngine(e *env, argv []string, positions []engine.EPD, pf *positionFlags, lim engine.Limits, out string, maxNodes int64,
	label string, asJSON, viewAfter bool) error {
	u, err := foreign.StartEngine(e.ctx, argv)
	if err != nil {
		return err // it names the engine
	}
	defer u.Close()
	created := !fileExists(out)
	st, err := trace.Create(out)
	if err != nil {
		return err
	}
	defer st.Close()
	fens, ids := make([]string, len(positions)), make([]string, len(positions))
	for i := range positions {
		fens[i], ids[i] = positions[i].FEN, positions[i].ID
	}
	runs, ierr := u.Trace(e.ctx, st, fens, foreign.EngineOptions{Limits: lim, Version: version(), Label: label, EPDIDs: ids,
		Record: trace.RecordOptions{MaxNodes: maxNodes},
		OnSearch: func(i int, nodes func() int64) func() {
			label := shorten(pf.label(&positions[i]), 40)
			return progressLine(e.stderr, func(el time.Duration) string {
				return fmt.Sprintf("%s %s  nodes %s  %s", label, u.Name(), engine.Commas(nodes()), engine.Elapsed(el))
			})
		}})
	if err := reportForeign(e, st, runs, ierr, out, asJSON, created); err != nil {
		return err
	}
	if viewAfter && len(runs) > 0 {
		return viewTrace(e, out, runs[0].RunID)
	}
	return nil
}
