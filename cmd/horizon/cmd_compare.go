package main

import (
	"context"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/qsbench"
	"github.com/horizonqs/horizon/trace"
)

// comparePos is one search of one position with one variant.
type comparePos struct {
	Variant   string  `json:"variant"`
	Position  int     `json:"position"` // 1-based index in the input
	Label     string  `json:"label"`    // EPD id, file:line, or FEN
	FEN       string  `json:"fen"`
	EPDID     *string `json:"epd_id"` // the id of the EPD record searched; null when none, as in every run's JSON
	Nodes     int64   `json:"nodes"`
	QSNodes   int64   `json:"qs_nodes"`
	QSShare   float64 `json:"qs_share"`
	MaxPly    int     `json:"max_ply"`
	MaxQSPly  int     `json:"max_qs_ply"`
	BestMove  *string `json:"best_move"` // UCI, as 'horizon search --json'; null when no iteration finished
	Score     *int    `json:"score"`     // null when no iteration finished
	Depth     int     `json:"depth"`
	Status    string  `json:"status"`     // as search --json: trace's status words
	StopCause *string `json:"stop_cause"` // nodes, time or cancel; null when none
	ElapsedMS int64   `json:"elapsed_ms"`
	NPS       *int64  `json:"nps"`
	Solved    *bool   `json:"solved"` // nil when the position has no bm or am
	Run       *int64  `json:"run"`    // its run in the --trace file; null without --trace
	elapsed   time.Duration
}

// compareVariant sums one variant's searches.
type compareVariant struct {
	variantTotals
	WithAnswer int `json:"with_answer"`  // positions with bm or am
	Solved     int `json:"solved_count"` // of them, positions solved
	// SolvedOld is solved_count under the key compare gave it first,
	// deprecated: solved is a position's flag (positions[].solved).
	SolvedOld int `json:"solved"`
	elapsed   time.Duration
}

func runCompare(e *env, args []string) error {
	fs := newFlags(e, "compare", "(--epd FILE | --fen FEN) [--depth N] [--qs A,B,...] [--jobs J] [--trace FILE] [--json | --csv]",
		`Searches every position with every QS variant and prints a table per variant:
positions, nodes, QS nodes, the QS share, the deepest QS ply, the search time
(summed over the searches), nodes per second, and, for EPD records with bm or
am, how many were solved (best move among bm and not among am). --csv prints
one row per position and variant instead; --json prints both.

Positions are searched in parallel (--jobs); each search is single-threaded
and deterministic, so every row equals what 'horizon search' prints for the
same position and settings. With --trace every search is also recorded into
one trace file, for 'horizon diff' or 'horizon view'. A trace file takes one
writer at a time, so with --trace the searches run one after another (and
their times include the recording). Ctrl-C prints the figures of the
positions every variant had searched to the end, and says how many.`,
		"horizon compare --epd testdata/wacnew.epd --depth 4 --qs captures,see,threshold",
		"horizon compare --fen startpos --depth 5 --qs captures,see --trace cmp.trace",
		"horizon compare --epd testdata/bratko_kopec.epd --depth 4 --csv > bk.csv")
	pf := addPositionFlags(e.ctx, fs, fenUsage, "EPD file: search every position in it")
	jobs := jobsFlag(fs, "positions searched")
	traceFile := fs.String("trace", "", "also record every search into this trace file (searches then run one at a time)")
	asJSON := fs.Bool("json", false, "print JSON: {variants: [...], positions: [...], interrupted}; a variant's "+
		"solved_count counts the positions solved, a position's solved says whether it was (true, false, or null without bm or am), "+
		"and position is the record's number in the input, 1 first. Deprecated: a variant's solved, the same count as "+
		"solved_count (solved is a position's flag)")
	asCSV := fs.Bool("csv", false, "print CSV: one row per position and variant")
	sf := addSearchFlags(fs, strings.Join(engine.VariantNames(), ","), 4)
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if *asJSON && *asCSV {
		return usagef("give --json or --csv, not both")
	}
	if err := e.capJobs(jobs); err != nil {
		return err
	}
	job, err := sf.job(pf)
	if err != nil {
		return err
	}
	positions, opts, lim := job.positions, job.opts, job.lim
	var st *trace.Store
	if *traceFile != "" {
		if st, err = trace.Create(*traceFile); err != nil {
			return err
		}
		defer st.Close() // on an error; closeTrace below closes it first otherwise
		// A trace of a runaway search fills the disk: compareOne caps each
		// recorded search as 'horizon trace' does.
		if lim.Nodes == 0 || lim.Nodes > defaultMaxNodes {
			e.notef("--trace caps each search at %s nodes (set --nodes to change it)", engine.Commas(defaultMaxNodes))
		}
		if jobsSet(fs) && *jobs > 1 {
			e.notef("--trace records one search at a time; --jobs ignored")
		}
		*jobs = 1
	}

	rows := make([]comparePos, len(positions)*len(opts))
	got := make([]bool, len(rows))
	prog := countProgress(e.stderr, "searches", len(rows))
	err = compareRun(e.ctx, positions, opts, lim, *jobs, st, func(pi, vi int, r comparePos) {
		rows[pi*len(opts)+vi], got[pi*len(opts)+vi] = r, true
		prog.Add(1)
	})
	prog.Stop()
	interrupted := errors.Is(err, qsbench.ErrInterrupted)
	if err != nil && !interrupted {
		return err
	}
	if interrupted {
		// A Ctrl-C keeps the positions every variant searched to the end:
		// sums over some variants' searches of a position would compare
		// unlike work.
		if rows = wholePositions(rows, got, len(opts)); len(rows) == 0 {
			return errors.New(e.stopped() + " before any position was searched by every variant")
		}
	}
	for i := range rows {
		rows[i].Label = pf.label(&positions[rows[i].Position-1])
	}
	if st != nil {
		if err := e.closeTrace(st); err != nil {
			return err
		}
	}
	res := compareResult{Variants: compareSum(opts, rows), Positions: rows, Trace: orNull(*traceFile), Interrupted: interrupted}
	if err := e.print(res, formatOf(*asJSON, *asCSV)); err != nil {
		return err
	}
	if interrupted {
		return fmt.Errorf("%s after %d of %d positions; the figures printed are theirs", e.stopped(), len(rows)/len(opts), len(positions))
	}
	return nil
}

// wholePositions keeps, in order, the positions whose searches (got, by
// variant, nvar to a position) all ended by themselves: none missing,
// none interrupted.
func wholePositions(rows []comparePos, got []bool, nvar int) []comparePos {
	var out []comparePos
	for p := 0; p+nvar <= len(rows); p += nvar {
		whole := true
		for i := p; i < p+nvar; i++ {
			whole = whole && got[i] && rows[i].Status != string(trace.StatusInterrupted)
		}
		if whole {
			out = append(out, rows[p:p+nvar]...)
		}
	}
	return out
}

// compareResult is 'horizon compare': each variant's sums, and each
// search, position by position (the variants of a position together).
type compareResult struct {
	Variants  []compareVariant `json:"variants"`
	Positions []comparePos     `json:"positions"`
	Trace     *string          `json:"trace"` // the --trace file; null without one
	// Interrupted: a Ctrl-C stopped the comparison; the figures are those
	// of the positions every variant had searched.
	Interrupted bool `json:"interrupted"`
}

// jobsSet reports whether --jobs was given on the command line.
func jobsSet(fs *flag.FlagSet) bool { return flagGiven(fs, "jobs") }

// compareRun searches every position with every variant, jobs positions at
// a time, and hands each result to put (from any goroutine, each (position,
// variant) once). With st every search is recorded, one at a time.
func compareRun(ctx context.Context, positions []engine.EPD, opts []engine.Options, lim engine.Limits, jobs int,
	st *trace.Store, put func(pi, vi int, r comparePos)) error {
	err := qsbench.Parallel(ctx, len(positions), jobs, func() func(int) error {
		// One searcher per worker, switched between the variants: its
		// hash table is allocated once, and Search clears the table,
		// killers and history, so a search does not depend on the ones
		// before it.
		searcher := engine.NewSearcher(opts[0])
		return func(pi int) error {
			for vi, o := range opts {
				if ctx.Err() != nil {
					return nil
				}
				searcher.SetOptions(o)
				r, err := compareOne(ctx, &positions[pi], o, searcher, lim, st)
				if err != nil {
					return err
				}
				r.Position = pi + 1
				put(pi, vi, r)
			}
			return nil
		}
	}, nil)
	return err // qsbench.ErrInterrupted after a cancel
}

// compareOne runs one search, recorded into st when st is not nil.
func compareOne(ctx context.Context, p *engine.EPD, o engine.Options, s *engine.Searcher, lim engine.Limits, st *trace.Store) (comparePos, error) {
	var res engine.Result
	var run *int64
	if st == nil {
		res = s.Search(ctx, p.Pos.Copy(), lim, nil)
	} else {
		ro := trace.RecordOptions{MaxNodes: defaultMaxNodes}
		rec, err := st.NewRecorder(ctx, trace.RunInfo{FEN: p.FEN, EPDID: p.ID, Variant: o.Variant, Options: o.JSON(),
			Limits: limitsJSON(lim, ro), Version: version()}, ro)
		if err != nil {
			return comparePos{}, err
		}
		res = s.Search(rec.Context(), p.Pos.Copy(), ro.Limit(lim), rec)
		if err := rec.FinishSearch(res); err != nil {
			return comparePos{}, err
		}
		id := rec.RunID()
		run = &id
	}
	r := comparePos{Variant: engine.VariantSpec(o), FEN: p.FEN, EPDID: orNull(p.ID), Nodes: res.Stats.Nodes, QSNodes: res.Stats.QSNodes,
		MaxPly: res.Stats.MaxPly, MaxQSPly: res.Stats.MaxQSPly,
		Depth: res.Depth, Status: string(trace.StopStatus(res.Stopped)), StopCause: orNull(stopCause(res.Stopped)), ElapsedMS: res.Elapsed.Milliseconds(),
		NPS: nps(res.Stats.Nodes, res.Elapsed), Run: run, elapsed: res.Elapsed}
	r.BestMove, r.Score = answer(res)
	if r.Nodes > 0 {
		r.QSShare = float64(r.QSNodes) / float64(r.Nodes)
	}
	if len(p.BestMoves) > 0 || len(p.AvoidMoves) > 0 {
		// A search stopped before its first iteration finished solved
		// nothing: the move it would play was not searched to an end.
		ok := res.Finished() && p.Solved(res.BestMove)
		r.Solved = &ok
	}
	return r, nil
}

func compareSum(opts []engine.Options, rows []comparePos) []compareVariant {
	out := make([]compareVariant, len(opts))
	for i, o := range opts {
		out[i].Variant = engine.VariantSpec(o)
	}
	for i, r := range rows {
		v := &out[i%len(opts)]
		v.Positions++
		v.Nodes += r.Nodes
		v.QSNodes += r.QSNodes
		v.MaxQSPly = max(v.MaxQSPly, r.MaxQSPly)
		v.elapsed += r.elapsed
		if r.Solved != nil {
			v.WithAnswer++
			if *r.Solved {
				v.Solved++
			}
		}
	}
	for i := range out {
		v := &out[i]
		v.SolvedOld = v.Solved
		if v.Nodes > 0 {
			v.QSShare = float64(v.QSNodes) / float64(v.Nodes)
		}
		v.ElapsedMS = v.elapsed.Milliseconds()
		v.NPS = nps(v.Nodes, v.elapsed)
	}
	return out
}

func (res compareResult) writeText(w io.Writer) error {
	vs, rows, traceFile := res.Variants, res.Positions, cell(res.Trace)
	npos := len(rows) / len(vs)
	answers := vs[0].WithAnswer > 0
	tw := figureTable(w)
	head := "variant\tpositions\tnodes\tQS nodes\tQS share\tmax QS ply\ttime\tnodes/s\t"
	if answers {
		head += "solved\t"
	}
	fmt.Fprintln(tw, head)
	for _, v := range vs {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%d\t%s\t%s\t", v.Variant, v.Positions, engine.Commas(v.Nodes), engine.Commas(v.QSNodes),
			engine.Percent(v.QSShare), v.MaxQSPly, engine.Elapsed(v.elapsed), npsText(v.NPS))
		if answers {
			fmt.Fprintf(tw, "%d/%d\t", v.Solved, v.WithAnswer)
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	// A per-position view of the node counts, while it fits on a screen.
	if npos > 1 && npos <= 20 {
		fmt.Fprintln(w, "\nnodes by position:")
		tw = figureTable(w)
		fmt.Fprint(tw, "position\t")
		for _, v := range vs {
			fmt.Fprintf(tw, "%s\t", v.Variant)
		}
		fmt.Fprintln(tw)
		for pi := 0; pi < npos; pi++ {
			label := shorten(engine.Printable(rows[pi*len(vs)].Label), 40)
			fmt.Fprintf(tw, "%s\t", label)
			for vi := range vs {
				r := rows[pi*len(vs)+vi]
				mark := ""
				if r.Solved != nil && !*r.Solved {
					mark = " x"
				}
				fmt.Fprintf(tw, "%s%s\t", engine.Commas(r.Nodes), mark)
			}
			fmt.Fprintln(tw)
		}
		tw.Flush()
		if answers {
			fmt.Fprintln(w, "(x: not solved)")
		}
	} else if npos > 20 {
		fmt.Fprintln(w, "\n(--csv prints one row per position and variant)")
	}
	if traceFile != "" {
		q := engine.Printable(shellQuote(traceFile))
		_, err := fmt.Fprintf(w, "\nrecorded %d runs into %s ('horizon runs %s' lists them; 'horizon diff %s --run A --run B')\n",
			len(rows), engine.Printable(traceFile), q, q)
		return err
	}
	return nil
}

func (res compareResult) writeCSV(w io.Writer) error {
	rows := res.Positions
	cw := csv.NewWriter(w)
	cw.Write([]string{"variant", "position", "label", "fen", "nodes", "qs_nodes", "qs_share", "max_ply", "max_qs_ply",
		"best_move", "score", "depth", "status", "stop_cause", "elapsed_ms", "nps", "solved", "run"})
	for _, r := range rows {
		solved := ""
		if r.Solved != nil {
			solved = strconv.FormatBool(*r.Solved)
		}
		cw.Write([]string{r.Variant, strconv.Itoa(r.Position), r.Label, r.FEN, strconv.FormatInt(r.Nodes, 10),
			strconv.FormatInt(r.QSNodes, 10), strconv.FormatFloat(r.QSShare, 'f', 4, 64), strconv.Itoa(r.MaxPly),
			strconv.Itoa(r.MaxQSPly), cell(r.BestMove), cell(r.Score), strconv.Itoa(r.Depth), r.Status, cell(r.StopCause),
			strconv.FormatInt(r.ElapsedMS, 10), cell(r.NPS), solved, cell(r.Run)})
	}
	cw.Flush()
	return cw.Error()
}
