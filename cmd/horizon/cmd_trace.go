package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/qsbench"
	"github.com/horizonqs/horizon/trace"
)

// sampleFEN is the position traced when none is given: Kiwipete, a
// middlegame full of hanging pieces and exchanges on both sides. At depth 5
// the variants disagree visibly: without QS White plays d5e6 at +3.8 (the
// horizon effect), captures and threshold prefer e2a6, see d5e6 at +0.2,
// and QS is 85-95% of the nodes.
const sampleFEN = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

// defaultMaxNodes bounds a trace when the user gives no --max-nodes: enough
// for any search worth browsing, and a stop for a QS that runs away. At
// about 48 bytes a node (measured on Kiwipete, README "The trace file") a
// run at the cap writes about 2.4 GB.
const defaultMaxNodes = 50_000_000

// bytesPerNode is the file size a traced node costs, for --help.
const bytesPerNode = 48

// traceRunJSON is one run in --json output (and the summary printed):
// the run's facts (trace.RunFacts, as runs --json gives them), and what
// the recording found.
type traceRunJSON struct {
	Run  int64  `json:"run"`
	File string `json:"file"`
	// Label is the position as the text names it (its EPD record's id,
	// else its FEN), as compare's positions give it. Position is the same,
	// under the key trace gave it first, deprecated (--json's help says
	// so): compare's position is the record's place in its file.
	Label    string `json:"label"`
	Position string `json:"position"`
	trace.RunFacts
	NodesPerS *int64        `json:"nps"` // null when the time is not known
	Hotspots  []hotspotJSON `json:"hotspots"`
	// WriteError is the error that ended the recording (a full disk);
	// null when none.
	WriteError *string `json:"write_error"`
	// UnderReached counts the times the search entered the --under path's
	// last node (in the iterations kept); 0 means nothing below was
	// recorded. Null without --under.
	UnderReached *int64 `json:"under_reached"`

	// Runs of other engines (trace --engine, import); null for Horizon's.
	// StreamNodes counts the nodes the engine's stream holds (the run's
	// nodes: Horizon's run node is not one; nor is the root of a nested
	// search the engine said it does not count, u=1); ReportedNodes is the count the
	// engine reported itself (its end record, or its last UCI info; null
	// when it reported none). Two facts: they differ when the
	// instrumentation misses nodes.
	StreamNodes   *int64 `json:"stream_nodes"`
	ReportedNodes *int64 `json:"reported_nodes"`
	// ReportedNodesFrom says where reported_nodes came from: "end_record"
	// (the stream's end record) or "uci_info" (the engine's last UCI info
	// line, when its end record gave none); null with reported_nodes.
	ReportedNodesFrom *string `json:"reported_nodes_from"`
	StreamError       *string `json:"stream_error"` // the rule the stream broke; null when none
	// Warning is a doubt about an engine's run that is no error (it
	// searched the position sent with other castling rights); null when
	// none.
	Warning *string `json:"warning"`

	scores       engine.ScoreFormat // how the run's score prints (trace.Run.ResultScores)
	reportedFrom string             // ReportedNodesFrom in words, for the text
}

// hotspotJSON is one ranked node with its move path.
type hotspotJSON struct {
	Node   int64   `json:"node"`
	Cause  *string `json:"cause"` // qs, recapture-ext, check-ext, threshold-ext, ext; null for a full-width node ranked by growth
	Size   int64   `json:"subtree_size"`
	Share  float64 `json:"share"` // subtree_size over the run's nodes
	Depth  int     `json:"depth"`
	Growth float64 `json:"growth"`
	// PlaceFields place the node as diff and check place one
	// (trace.PlaceOf). PathSAN is Path, under the key scripts written
	// before it was added read.
	trace.PlaceFields
	PathSAN []string `json:"path_san"`
	// Place is the node's place as diff and check print one, which
	// 'export --path' and 'view --path' read back to it: "iteration 2:
	// dxe6·1 Bxe2" (trace.Place).
	Place string `json:"place"`
}

func runTrace(e *env, args []string) error {
	fs := newFlags(e, "trace", "[--fen FEN | --epd FILE [--id ID]] [--depth N] [--qs VARIANT[,VARIANT] | --engine 'CMD [ARGS]'] [-o FILE] [--max-nodes N] [--view | --json]",
		`Searches each position with each QS variant and records every node the
search visits into a trace file (SQLite), one run per position and variant.
Then prints a summary per run: nodes, QS nodes and their share, the deepest
QS ply, the best move and score, the search's time and rate (nodes/s; "-" for
a search under `+engine.Elapsed(engine.MinRateElapsed)+`, too short to give one), and the five biggest QS
trees and extension chains (where the tree explodes) with their node ids and
places, as 'horizon hotspots' lists them.

With no position it traces a built-in sample (Kiwipete, a middlegame where the
variants disagree). An existing trace file gets the new runs appended. Ctrl-C
stops the search: what was visited is kept, the run is marked interrupted.
The node limit (--max-nodes) and the file size limit (--max-size) stop a
runaway search the same way, marked truncated. A node costs about 48 bytes of
file: a run at the default node cap of 50,000,000 writes about 2.4 GB, and
each variant is a run of its own, so cap big jobs with --max-size. On a
terminal the progress line shows nodes, rate and file size. Browse the result
with --view or 'horizon view FILE', list it with 'horizon runs FILE', or query
it with sqlite3 (tables runs and nodes).

With --engine, another UCI engine searches instead: Horizon starts it with
HORIZON_TRACE pointing at a pipe, sends each position and 'go depth N' (or
nodes, movetime), and records the trace protocol (docs/trace-protocol.md) the
engine writes while it searches, so 'horizon view FILE' can follow it live.
One run per position, named after the engine's 'id name'. The engine must be
instrumented (examples/engines/build.sh builds Ethereal, Sunfish and Fairy-Max so).`,
		"horizon trace --view",
		"horizon trace -o sample.trace",
		"horizon trace --depth 9 --qs none,captures --max-size 2GB -o big.trace",
		"horizon trace --fen '2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1' --depth 5 --qs none,captures,see -o wac.trace",
		"horizon trace --epd testdata/wacnew.epd --id WAC.002 --depth 4 --qs threshold --qs-levels 6 -o t.trace",
		"horizon trace --fen startpos --depth 6 --last-iteration --under Nf3,Nf6 -o small.trace",
		"horizon trace --engine /tmp/e/ethereal --fen startpos --depth 10 -o ethereal.trace")
	pf := addPositionFlags(e.ctx, fs, fenUsage+"; default: the built-in sample", "EPD file: trace every position in it (or the one named by --id)")
	pf.def = sampleFEN
	id := fs.String("id", "", "with --epd: trace only the record with this id (its 'id' opcode)")
	out := fs.String("o", "horizon.trace", "trace file to write (runs are appended if it exists)")
	maxNodes := fs.Int64("max-nodes", defaultMaxNodes, fmt.Sprintf("stop a run after this many nodes and mark it truncated (the default reaches about %s of file)", formatBytes(defaultMaxNodes*bytesPerNode)))
	maxSize := fs.String("max-size", "", fmt.Sprintf("stop a run early enough that the finished trace file stays within this size (500MB, 2GB, 1.5GiB; at least %s: the empty file and a first batch of rows), index included, and mark it truncated; runs appended to a file with less than %s left under it are refused (exit 1)", minSizeText, formatBytes(trace.MinRunBytes)))
	lastIter := fs.Bool("last-iteration", false, "keep only the last iteration's nodes (smaller traces)")
	under := fs.String("under", "", "keep only the nodes on and under this move path from the root, moves in SAN or UCI separated by commas or spaces, "+
		"both sides' moves in turn (Nf3,Nf6 is 1.Nf3 Nf6); a line alpha-beta cuts off before reaching its end records nothing below (a warning says so)")
	asJSON := fs.Bool("json", false, "print the summary as JSON (an array of runs; with --engine each run has stream_nodes, "+
		"the nodes the engine's stream holds (as nodes does: Horizon's run node is in neither), and reported_nodes, the engine's own count (reported_nodes_from: end_record, its stream's end record, or uci_info, its last UCI info line when the end record gave none): they differ when its instrumentation misses nodes; both null for Horizon's own runs. A key that does not apply is null, not left out). "+
		"Deprecated: position, the same text as label (compare's position is a record's number)")
	viewAfter := fs.Bool("view", false, "open the viewer on the first run recorded (needs a terminal)")
	engineCmd := fs.String("engine", "", "trace another UCI engine instead: its command line ('CMD [ARGS]'; more ARGS may follow the flags), instrumented to write the trace protocol to HORIZON_TRACE. "+
		"Quote a path or argument with spaces as in a shell or cutechess-cli's cmd= (--engine '\"/opt/My Engines/eth\" -v', or My\\ Engines); a path that exists as given is taken whole, spaces and all")
	runLabel := fs.String("label", "", "with --engine: label the runs with this name (runs, diff and compare show it as the run's variant) where they would show the engine's id name: "+
		"two builds of one engine (--label eth-new) are told apart")
	qsOnly := fs.Bool("qs-only", false, "record only the QS from the position, open window, as 'horizon qsbench' runs it (--depth is ignored); "+
		"an EPD record's lm and lmpos (the move that led to it) are made first, so a QS that reads the last move sees it")
	sf := addSearchFlags(fs, "captures,see", 5)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if flagGiven(fs, "engine") {
		if strings.TrimSpace(*engineCmd) == "" {
			return usagef("--engine %q: give the engine's command line ('CMD [ARGS]')", *engineCmd)
		}
		if *qsOnly {
			return usagef("--qs-only runs Horizon's own QS; it does not go with --engine")
		}
		argv, err := engineArgv(*engineCmd)
		if err != nil {
			return usagef("--engine %q: %v", *engineCmd, err)
		}
		return runTraceEngine(e, fs, sf, argv, pf, *id, *out, *maxNodes, *runLabel, *asJSON, *viewAfter)
	}
	if flagGiven(fs, "label") {
		return usagef("--label names another engine's runs (with --engine); Horizon's own runs are labelled by their --qs variant")
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	if *maxNodes <= 0 {
		return usagef("--max-nodes %d: want a positive number", *maxNodes)
	}
	maxBytes, err := maxSizeFlag(*maxSize)
	if err != nil {
		return err
	}
	if *viewAfter && *asJSON {
		return usagef("--view and --json do not go together")
	}
	if *id != "" && pf.epd == "" {
		return usagef("--id needs --epd")
	}
	if *qsOnly && (*under != "" || *lastIter) {
		return usagef("--qs-only records one QS tree: --under and --last-iteration do not apply")
	}
	job, err := sf.job(pf)
	if err != nil {
		return err
	}
	positions, err := pf.withID(job.positions, *id)
	if err != nil {
		return err
	}
	rec := trace.RecordOptions{MaxNodes: *maxNodes, MaxBytes: maxBytes, LastIterationOnly: *lastIter}
	if *under != "" {
		if rec.Under, err = trace.PathMoves(*under); err != nil {
			return usagef("--under %v", err)
		}
	}
	// Check what can be checked before the search and before the file is
	// touched, so a mistake costs neither a long search nor a stray file.
	if *viewAfter && !hasTerminal() {
		return noTerminalToView(*out)
	}
	if err := checkUnder(positions, rec.Under); err != nil {
		return err
	}
	return recordTrace(e, positions, pf, job, rec, traceOutput{file: *out, asJSON: *asJSON, qsOnly: *qsOnly, view: *viewAfter})
}

// maxSizeFlag reads --max-size: 0 when it is not given.
func maxSizeFlag(text string) (int64, error) {
	if text == "" {
		return 0, nil
	}
	n, err := parseSize(text)
	if err != nil {
		return 0, usagef("--max-size %q: %v", text, err)
	}
	return n, nil
}

// checkUnder refuses an --under path that is not a line of moves from
// every position traced, before the search and the file are touched.
func checkUnder(positions []engine.EPD, under []string) error {
	for i := range positions {
		pos := positions[i].Pos.Copy()
		for j, mv := range under {
			m, err := pos.ParseMove(mv)
			if err != nil {
				return fmt.Errorf("--under: move %d of the path: %v", j+1, err)
			}
			pos.MakeMove(m)
		}
	}
	return nil
}

// traceOutput is where and how runTrace's runs go.
type traceOutput struct {
	file                 string // the trace file (-o)
	asJSON, qsOnly, view bool
}

// recordTrace searches and records every position with every variant of
// job into to.file, prints each run's summary as it ends, then the file's
// place and, with to.view, opens the viewer on the first run.
func recordTrace(e *env, positions []engine.EPD, pf *positionFlags, job searchJob, rec trace.RecordOptions, to traceOutput) error {
	f := formatOf(to.asJSON, false)
	st, err := trace.Create(to.file)
	if err != nil {
		return err
	}
	defer st.Close()
	res := traceResult{file: to.file}
	var full error // the --max-size cap left no room for the next run
	for i := range positions {
		p := &positions[i]
		for _, o := range job.opts {
			if e.ctx.Err() != nil || full != nil {
				break
			}
			r, err := traceOne(e, st, p, pf.label(p), o, job.lim, rec, to.asJSON, to.qsOnly)
			if errors.Is(err, trace.ErrNoRoom) {
				full = noRoomError(err, len(res.runs), len(positions)*len(job.opts))
				break
			}
			if err != nil {
				// Its notes (runs kept in the WAL by a full disk, a
				// file written back) before the error.
				return errors.Join(err, e.closeTrace(st))
			}
			res.runs = append(res.runs, r)
			if err := e.printPart(r, f); err != nil {
				return err
			}
		}
	}
	// The last line says where the runs are (not at --out when the file
	// was deleted while it was written and written back beside it).
	if res.file, err = e.closeTraceAt(st); err != nil {
		return err
	}
	if err := e.print(res, f); err != nil {
		return err
	}
	if full != nil {
		return full
	}
	runs := res.runs
	if e.ctx.Err() != nil {
		if e.readerLeftAfterAll(len(runs) == len(positions)*len(job.opts) && (len(runs) == 0 || runs[len(runs)-1].Status != string(trace.StatusInterrupted))) {
			return nil
		}
		last := ""
		if len(runs) > 0 {
			last = fmt.Sprintf(" (run %d %s)", runs[len(runs)-1].Run, runs[len(runs)-1].Status)
		}
		return fmt.Errorf("%s after %d of %d runs%s; the runs so far are in %s",
			e.stopped(), len(runs), len(positions)*len(job.opts), last, to.file)
	}
	if to.view && len(runs) > 0 {
		return viewTrace(e, to.file, runs[0].Run)
	}
	return nil
}

// limitsJSON is a run's recorded limits: the user's (lim, not yet capped by
// the recorder) and the recorder's own cap, each under its own name, so a
// run never claims a node limit nobody asked for.
func limitsJSON(lim engine.Limits, rec trace.RecordOptions) string {
	b, _ := json.Marshal(map[string]any{
		"depth": lim.Depth, "nodes": lim.Nodes, "movetime_ms": lim.MoveTime.Milliseconds(),
		"max_nodes": rec.MaxNodes, "last_iteration": rec.LastIterationOnly, "under": strings.Join(rec.Under, " "),
	})
	return string(b)
}

// qsOnlyLimitsJSON is limitsJSON for a QS-only run: it also records that
// the run is one, and the move that led to the position (and the position
// it was played from), which a QS may read and 'horizon check' needs.
func qsOnlyLimitsJSON(lim engine.Limits, rec trace.RecordOptions, pos *engine.Position) string {
	m := map[string]any{"qs_only": true, "nodes": lim.Nodes, "movetime_ms": lim.MoveTime.Milliseconds(),
		"max_nodes": rec.MaxNodes}
	if lm := pos.LastMove(); lm != engine.NoMove {
		parent := pos.Copy()
		parent.UnmakeMove()
		m["last_move"], m["lmpos"] = lm.UCI(), parent.FEN()
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// traceOne records one search and summarises it.
func traceOne(e *env, st *trace.Store, p *engine.EPD, label string, o engine.Options, lim engine.Limits, ro trace.RecordOptions, quiet, qsOnly bool) (traceRunJSON, error) {
	var pos *engine.Position
	if qsOnly {
		var err error
		if pos, err = qsbench.WithHistory(p); err != nil {
			return traceRunJSON{}, err
		}
		lim.Depth = 0
	}
	limits := limitsJSON(lim, ro)
	if qsOnly {
		limits = qsOnlyLimitsJSON(lim, ro, pos)
	}
	rec, err := st.NewRecorder(e.ctx, trace.RunInfo{FEN: p.FEN, EPDID: p.ID, Variant: o.Variant, Options: o.JSON(),
		Limits: limits, Version: version()}, ro)
	if err != nil {
		return traceRunJSON{}, err
	}
	s := engine.NewSearcher(o)
	var iter atomic.Int64
	iter.Store(1)
	s.OnIteration = func(it engine.IterationInfo) { iter.Store(int64(it.Depth + 1)) }
	stopProgress := startProgress(e.stderr, label, engine.VariantSpec(o), rec, &iter, quiet)
	var res engine.Result
	// The search stops at the recorder's node cap itself (see
	// RecordOptions.Limit); the run records the user's limits.
	lim = ro.Limit(lim)
	if qsOnly {
		q := s.Quiesce(rec.Context(), pos, -engine.Infinity, engine.Infinity, lim, rec)
		res = engine.Result{Score: q.Score, PV: q.PV, Stats: q.Stats, Elapsed: q.Elapsed, Stopped: q.Stopped}
		if len(q.PV) > 0 {
			res.BestMove = q.PV[0]
		}
	} else {
		res = s.Search(rec.Context(), p.Pos.Copy(), lim, rec)
	}
	stopProgress()

	var writeErr error
	finish := rec.FinishSearch
	if qsOnly {
		// One quiescence search, no iterations: its answer stands unless
		// it was stopped.
		finish = func(res engine.Result) error {
			return rec.Finish(trace.Result{Stopped: res.Stopped, NoAnswer: res.Stopped != engine.StopNone,
				BestMove: res.BestMove, Score: res.Score, PV: res.PV, Elapsed: res.Elapsed})
		}
	}
	if err := finish(res); err != nil {
		writeErr = err
	}
	// A write error cancels the recorder's context, which the search saw
	// as a cancel; tell the two apart for the user.
	if cause := context.Cause(rec.Context()); writeErr != nil && e.ctx.Err() == nil &&
		!errors.Is(cause, trace.ErrNodeLimit) && !errors.Is(cause, trace.ErrSizeLimit) {
		return traceRunJSON{}, writeErr
	}
	j, err := summarizeRun(e.ctx, st, rec.RunID(), label, writeErr)
	if err != nil {
		return j, err
	}
	if len(ro.Under) == 0 {
		return j, nil
	}
	hits := rec.UnderReached()
	j.UnderReached = &hits
	if hits == 0 {
		// A filtered run that kept only its roots must not pass for a
		// trace of the line the user asked about.
		e.notef("run %d (%s): the search never entered the --under path %s (%s), so %s rows were recorded of %s nodes searched",
			j.Run, engine.VariantSpec(o), strings.Join(ro.Under, ","), underMissed(len(ro.Under), j.Depth, res.Stats.MaxPly),
			engine.Commas(j.Rows), engine.Commas(j.Nodes))
	}
	return j, nil
}

// underMissed says why a search never entered an --under path of n
// moves: too long for the plies the search reached (maxPly) or for its
// full-width depth, or else cut off by alpha-beta.
func underMissed(n, depth, maxPly int) string {
	switch {
	case n > maxPly:
		return fmt.Sprintf("it is %d moves long, longer than the search went: depth %d, ply %d at most", n, depth, maxPly)
	case n > depth:
		return fmt.Sprintf("it is %d moves long, past the search's depth %d, beyond which it plays only the moves its QS allows", n, depth)
	}
	return "alpha-beta cut it off before: try a line of the principal variation"
}

// noRoomError words a run refused under --max-size (a *trace.RoomError):
// the file's bytes used against the cap, and the runs recorded before.
func noRoomError(err error, done, total int) error {
	var room *trace.RoomError
	if !errors.As(err, &room) {
		return err
	}
	return fmt.Errorf("%s: %s of --max-size %s bytes used, a run needs %s free: no room for another run; %d of %d runs recorded",
		room.Path, engine.Commas(room.Used), engine.Commas(room.Max), engine.Commas(room.Need), done, total)
}

// summarizeRun reads a run's totals and five biggest QS subtrees back from
// the trace; label names its position ("": its EPD record's id, else its
// FEN).
func summarizeRun(ctx context.Context, st *trace.Store, run int64, label string, writeErr error) (traceRunJSON, error) {
	// The summary is read even after Ctrl-C: use a context that is not done.
	ctx = context.WithoutCancel(ctx)
	r, err := st.Run(ctx, run)
	if err != nil {
		return traceRunJSON{}, err
	}
	if label == "" {
		label = cmp.Or(r.EPDID, r.FEN) // as trace --epd names its runs
	}
	// Another engine's run reports a bound when its last concluded
	// iteration had no exact root (an MTD search's fail-high probe); the
	// summary is printed without it when it cannot be read.
	bound, _ := st.ScoreBound(ctx, run)
	j := traceRunJSON{Run: r.ID, File: st.File(), Label: label, Position: label, RunFacts: r.Facts(bound), Hotspots: []hotspotJSON{}, scores: r.ResultScores()}
	if r.ElapsedKnown() {
		j.NodesPerS = nps(r.Nodes, r.Elapsed)
	}
	if writeErr != nil {
		j.WriteError = orNull(writeErr.Error())
	}
	hs, err := hotspotsJSON(ctx, st, run, trace.HotspotBySize, 5)
	if err != nil {
		return j, err
	}
	j.Hotspots = hs
	return j, nil
}

func hotspotsJSON(ctx context.Context, st *trace.Store, run int64, order trace.HotspotOrder, limit int) ([]hotspotJSON, error) {
	hs, err := st.Hotspots(ctx, run, order, limit)
	if err != nil {
		return nil, err
	}
	return hotspotsJSONOf(ctx, st, run, hs)
}

// hotspotsJSONOf is hotspots ranked already, placed: by one Placer, which
// reads the plies their paths share once.
func hotspotsJSONOf(ctx context.Context, st *trace.Store, run int64, hs []trace.Hotspot) ([]hotspotJSON, error) {
	return hotspotsPlaced(ctx, trace.NewPlacer(st, run), hs)
}

// hotspotsPlaced is hotspotsJSONOf by placer, which the caller may ask
// for the hotspots' positions after (Placer.Position).
func hotspotsPlaced(ctx context.Context, placer *trace.Placer, hs []trace.Hotspot) ([]hotspotJSON, error) {
	out := []hotspotJSON{}
	for _, h := range hs {
		l, err := hotspotPlaced(ctx, placer, h)
		if err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, nil
}

// hotspotPlaced is hotspot h placed by placer.
func hotspotPlaced(ctx context.Context, placer *trace.Placer, h trace.Hotspot) (hotspotJSON, error) {
	pf, place, err := placer.PlaceOf(ctx, h.Node.ID)
	if err != nil {
		return hotspotJSON{}, err
	}
	return hotspotJSON{Node: h.Node.ID, Cause: orNull(h.Cause.String()),
		Size: h.Node.SubtreeSize, Share: h.Share, Depth: h.Node.Depth, Growth: h.Growth, PlaceFields: pf, PathSAN: pf.Path, Place: place}, nil
}

// traceResult is 'horizon trace' and 'horizon import': the runs recorded
// into file, each printed as it ends.
type traceResult struct {
	file string
	runs []traceRunJSON
}

// MarshalJSON writes the runs as an array.
func (res traceResult) MarshalJSON() ([]byte, error) { return json.Marshal(orEmpty(res.runs)) }

func (res traceResult) writeText(w io.Writer) error {
	if len(res.runs) == 0 {
		// Nothing to browse (a --max-size file with no room for a run).
		_, err := fmt.Fprintf(w, "wrote no run to %s\n", engine.Printable(res.file))
		return err
	}
	// Runs are appended to a file that holds some: then say which ids
	// they got, as --run 1 would read an earlier run.
	added := ""
	if first, last := res.runs[0].Run, res.runs[len(res.runs)-1].Run; first > 1 && first == last {
		added = fmt.Sprintf(" as run %d, after its earlier runs", first)
	} else if first > 1 {
		added = fmt.Sprintf(" as runs %d-%d, after its earlier runs", first, last)
	}
	_, err := fmt.Fprintf(w, "wrote %s to %s%s; browse with: horizon view %s\n", engine.Count(int64(len(res.runs)), "run"), engine.Printable(res.file), added,
		engine.Printable(shellQuote(res.file)))
	return err
}

// writeText is a run's summary: its figures and its biggest subtrees.
func (r traceRunJSON) writeText(w io.Writer) error {
	best := "none"
	switch {
	case r.BestSAN != nil:
		best = *r.BestSAN + " (" + *r.BestMove + ")"
	case r.BestMove != nil:
		best = *r.BestMove
	}
	fmt.Fprintf(w, "run %d  %s  variant %s  %s\n", r.Run, engine.Printable(r.Label), engine.Printable(r.Variant), engine.Printable(trace.StatusText(trace.Status(r.Status), cell(r.StopCause))))
	score := "none (no iteration finished)"
	if r.Score != nil {
		score = scoreText(r.scores, engine.Score(*r.Score), cell(r.ScoreBound))
	}
	fmt.Fprintf(w, "  depth %d  best %s  score %s\n", r.Depth, best, score)
	took := "time unknown (the stream gave none, or 0 ms, which a trace stores as none)"
	if r.ElapsedMS != nil {
		took = fmt.Sprintf("%s (%s nodes/s)", engine.Elapsed(time.Duration(*r.ElapsedMS)*time.Millisecond), npsText(r.NodesPerS))
	}
	fmt.Fprintf(w, "  nodes searched %s  QS nodes %s (%s)  max QS ply %d  %s\n",
		engine.Commas(r.Nodes), engine.Commas(r.QSNodes), engine.Percent(r.QSShare), r.MaxQSPly, took)
	if r.Filter != nil {
		fmt.Fprintf(w, "  recorded %s rows of the %s nodes searched (filter: %s)", engine.Commas(r.Rows), engine.Commas(r.Nodes), engine.Printable(*r.Filter))
		if r.UnderReached != nil && *r.UnderReached == 0 {
			fmt.Fprint(w, "; the --under path was never searched")
		}
		fmt.Fprintln(w)
	}
	if r.WriteError != nil {
		fmt.Fprintf(w, "  write error: %s\n", engine.Printable(*r.WriteError))
	}
	if len(r.Hotspots) > 0 {
		fmt.Fprintln(w, "  biggest subtrees: QS trees and extension chains (nodes, share, cause, node id, place):")
		for _, h := range r.Hotspots {
			fmt.Fprintf(w, "    %10s %7s  %-13s #%-9d %s\n", engine.Commas(h.Size), engine.SharePercent(h.Share), cell(h.Cause), h.Node, h.Place)
		}
	}
	fmt.Fprintln(w)
	if r.StreamNodes != nil && r.ReportedNodes != nil && *r.ReportedNodes == *r.StreamNodes {
		fmt.Fprintf(w, "  %s counted %s nodes itself (%s), as many as its stream holds\n\n", engine.Printable(r.Engine), engine.Commas(*r.ReportedNodes), r.reportedFrom)
	}
	return nil
}

// shorten cuts s to at most n characters (not bytes: EPD ids and
// comments may be UTF-8), marking the cut with "...".
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-3]) + "..."
}

// startProgress shows a progress line on w while a trace records, when w
// is a terminal; the returned func clears it.
func startProgress(w io.Writer, label, variant string, rec *trace.Recorder, iter *atomic.Int64, quiet bool) func() {
	if quiet {
		return func() {}
	}
	label = shorten(label, 40)
	return progressLine(w, func(el time.Duration) string {
		n := rec.Nodes()
		return fmt.Sprintf("%s %s  iteration %d  nodes %s  %s nodes/s  file %s  %s",
			label, variant, iter.Load(), engine.Commas(n), npsText(nps(n, el)), formatBytes(rec.FileBytes()), engine.Elapsed(el))
	})
}

// parseSize reads a byte count: a number with an optional unit, decimal
// (kB, MB, GB, TB: powers of 1000) or binary (KiB, MiB, GiB, TiB; K, M, G,
// T alone mean the same), case-insensitive; "2GB", "500 MB", "1.5GiB".
// minSizeText is the smallest --max-size, as --help and its error say it.
var minSizeText = fmt.Sprintf("%dKiB", trace.MinMaxBytes>>10)

func parseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && (t[i] >= '0' && t[i] <= '9' || t[i] == '.') {
		i++
	}
	num, unit := t[:i], strings.ToLower(strings.TrimSpace(t[i:]))
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || num == "" {
		return 0, fmt.Errorf("want a size such as 500MB or 2GB")
	}
	mult := map[string]float64{"": 1, "b": 1,
		"kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12,
		"k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40,
		"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40}[unit]
	if mult == 0 {
		return 0, fmt.Errorf("unknown unit %q; use kB, MB, GB, TB or KiB, MiB, GiB, TiB", t[i:])
	}
	n := v * mult
	if n > 1<<60 {
		return 0, fmt.Errorf("want at most 1EiB")
	}
	if n < trace.MinMaxBytes {
		return 0, fmt.Errorf("want at least %s (the empty trace file and the rows written before the first size check)", minSizeText)
	}
	return int64(n), nil
}

// formatBytes prints a byte count in decimal units, as disks are sold.
func formatBytes(n int64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.2f GB", float64(n)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.0f kB", float64(n)/1e3)
	}
	return fmt.Sprintf("%d B", n)
}
