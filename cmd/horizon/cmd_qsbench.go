package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/export/render"
	"github.com/horizonqs/horizon/internal/fifo"
	"github.com/horizonqs/horizon/internal/outfile"
	"github.com/horizonqs/horizon/qsbench"
	"github.com/horizonqs/horizon/trace"
	"github.com/horizonqs/horizon/uci"
)

// defaultQSBenchEPD is the committed benchmark set, the file that collect
// and oracle rewrite (from the repository's root); 'horizon qsbench' reads
// the copy built into the binary unless --epd names a file.
const defaultQSBenchEPD = qsbench.BuiltinPath

// defaultQSBenchSkip are the two composed stress positions of Stockfish's
// bench (20 and more minor pieces and queens facing each other): below
// them every capture QS runs past two million nodes, so that one position
// would set every variant's mean and hide the differences the benchmark
// is for. They stay in 'horizon bench'.
const defaultQSBenchSkip = "stockfish_bench.fen:37,stockfish_bench.fen:38"

// defaultQSBenchSources are the suites whose searches the set is collected from.
const defaultQSBenchSources = "testdata/wacnew.epd,testdata/bratko_kopec.epd,testdata/stockfish_bench.fen"

// qsBenchFlags are the flags of 'horizon qsbench'.
type qsBenchFlags struct {
	epd, qs, plot, second      string
	asJSON, asCSV              bool
	worst, limit, repeat, jobs int
	maxNodes                   int64
	opts                       []engine.Options // --qs, parsed
}

// builtin says the run reads the set built into the binary.
func (f *qsBenchFlags) builtin() bool { return f.epd == "" }

// setName names the set in output: its file, or the built-in copy.
func (f *qsBenchFlags) setName() string {
	if f.builtin() {
		return qsbench.BuiltinName
	}
	return f.epd
}

func runQSBench(e *env, args []string) error {
	if len(args) > 0 {
		switch args[0] {
		case "collect":
			return subUsage("qsbench collect", runQSBenchCollect(e, args[1:]))
		case "oracle":
			return subUsage("qsbench oracle", runQSBenchOracle(e, args[1:]))
		}
	}
	f, err := parseQSBenchFlags(e, args)
	if err != nil {
		return err
	}
	// The plot's file is created before the work, so that a name that
	// cannot be written fails at once, not after the benchmark.
	var plotFile *outfile.File
	if f.plot != "" {
		var inputs []string
		if !f.builtin() {
			inputs = append(inputs, f.epd)
		}
		pf, err := outfile.Create(e.ctx, f.plot, inputs...)
		if err != nil {
			return err
		}
		defer pf.Abort()
		plotFile = pf
	}
	set, secondVals, err := loadQSBenchSet(e, f)
	if err != nil {
		return err
	}
	vs := qsbench.NewVariants(f.opts)
	prog := countProgress(e.stderr, "positions", len(set))
	res, err := qsbench.Bench(e.ctx, set, vs, qsbench.Config{Jobs: f.jobs, NodeLimit: f.maxNodes, Repeat: f.repeat}, prog.Set)
	prog.Stop()
	interrupted := errors.Is(err, qsbench.ErrInterrupted)
	if err != nil && !interrupted {
		return err
	}
	sums := qsbench.Summarize(res, secondVals)
	compared := sums[0].Compared
	if f.plot != "" && compared == 0 {
		e.notef("--plot %s not written: no position was finished by every variant", f.plot)
	}
	if f.plot != "" && compared > 0 {
		if err := writeQSPlot(plotFile, f.plot, sums, qsPlotSubtitle(set[0].Oracle, compared, len(set), interrupted)); err != nil {
			return err
		}
	}
	variants := make([]qsVariantJSON, len(sums))
	for i, s := range sums {
		variants[i] = qsVariantJSON{Summary: s, Options: trace.ObjectJSON(s.Options.JSON()), StoppedOld: s.Stopped}
	}
	out := qsBenchResult{File: f.setName(), Positions: len(set), Completed: res.Completed, Oracle: set[0].Oracle.Name,
		OracleDepth: set[0].Oracle.Depth, Clamp: qsbench.Clamp, MaxQSNodes: f.maxNodes, Variants: variants, Worst: qsWorstRows(f, vs, res),
		Interrupted: interrupted, set: set, res: res, sums: sums, second: secondVals != nil}
	if f.plot != "" && compared > 0 {
		out.plot = f.plot
	}
	if err := e.print(out, formatOf(f.asJSON, f.asCSV)); err != nil {
		return err
	}
	if interrupted {
		return fmt.Errorf("%s after %d of %d positions; the figures printed are theirs", e.stopped(), res.Completed, len(set))
	}
	return nil
}

// parseQSBenchFlags parses and checks the flags of 'horizon qsbench'.
func parseQSBenchFlags(e *env, args []string) (*qsBenchFlags, error) {
	fs := newFlags(e, "qsbench", "[--epd FILE] [--qs SPEC,...] [--json | --csv] [--plot FILE.svg|FILE.png] [--worst N] [--jobs N]\n       horizon qsbench collect [flags]   (re)build the set\n       horizon qsbench oracle [flags]    (re)compute its oracle values",
		`Runs each QS variant alone from every horizon position of a benchmark set,
with an open window, and sets its cost against its accuracy: QS nodes per
position (mean, 90th percentile, max), time, and its error against the
oracle value stored in the set (ce): mean absolute error in centipawns, the
share of positions off by more than 100 and 300 cp, sign errors (one
says the side to move is at least a pawn up, the other at least a pawn
down) and the bias (the mean of QS - oracle: below 0 when the QS rates the
side to move lower than the oracle does). Scores are clamped to ±1500 cp
before errors are taken. Variants on the Pareto front are marked: no
other variant has as few mean QS nodes and as low an MAE, and fewer or
lower in one.

The committed set (`+qsbench.BuiltinPath+`, built into the binary: no
file is needed) holds positions where 'see' searches of depth 3 over the
test suites called QS; its oracle is Horizon's own depth-7 search with the
strongest QS and the same evaluation, so an error is what the QS misses,
not an evaluation difference. 'horizon qsbench collect' rebuilds the set,
'horizon qsbench oracle' recomputes the oracle (or a second one from a UCI
engine, stored beside the set and shown as extra columns). See
testdata/README.md.

A variant is a preset with switches set on top: see+qs-checks=false,
threshold+qs-levels=6 ('horizon variants' lists presets and switches).
A QS that reaches --max-qs-nodes is stopped there, as --nodes stops a
search: it has no value, and its node count is the cap's, so it is counted
under "stopped" (the --worst list flags it) and the positions where any
variant's QS stopped are left out of every other figure: all variants are
measured, and the Pareto front drawn, on the same positions.
--json prints each variant's figures and the --worst rows; --csv one row
per position and variant. --plot writes SVG or PNG, by the file's ending.
Every figure but the time is the same from run to run and for any --jobs.
Ctrl-C prints the figures of the positions done so far.`,
		"horizon qsbench",
		"horizon qsbench --qs see,see+qs-checks=false,threshold+qs-levels=6 --worst 3",
		"horizon qsbench --plot qs.svg",
		"horizon qsbench --plot qs.png --limit 100",
		"horizon qsbench --json > qsbench.json")
	f := &qsBenchFlags{}
	fs.StringVar(&f.epd, "epd", "", "benchmark set (EPD with lm and lmpos, the move into each position and where it was played from, as collect writes them, and ce, acd and oracle, as oracle writes them); default: the built-in "+qsbench.BuiltinPath)
	fs.StringVar(&f.qs, "qs", strings.Join(engine.VariantNames(), ","), "variants: presets with optional +switch=value, comma-separated")
	fs.BoolVar(&f.asJSON, "json", false, "print JSON: each variant's figures (as the table) and the --worst rows: {variants: [...], worst: [...]}; "+
		"a variant's stopped_count counts its QS runs the cap stopped, a worst row's stopped says whether its run was. "+
		"Deprecated: a variant's stopped, the same count as stopped_count (stopped is a run's flag)")
	fs.BoolVar(&f.asCSV, "csv", false, "print CSV: one row per position and variant (score and error_cp empty for a stopped QS)")
	fs.StringVar(&f.plot, "plot", "", "write a scatter plot (QS nodes against error, Pareto front) to this `file`: SVG, or PNG for a name ending in .png")
	fs.IntVar(&f.worst, "worst", 0, "list each variant's N worst positions with the command that traces them")
	jobs := jobsFlag(fs, "positions run")
	fs.Int64Var(&f.maxNodes, "max-qs-nodes", 2_000_000, "stop a QS when it reaches this many nodes and count it as stopped (at least 1)")
	fs.StringVar(&f.second, "second", "", "second oracle `file` (default: the set's .stockfish.epd beside it, if present; 'none' to skip)")
	fs.IntVar(&f.limit, "limit", 0, "use only the first N positions of the set (0: all)")
	fs.IntVar(&f.repeat, "repeat", 3, "run each QS this many times and keep its fastest time (one preemption outweighs hundreds of QS runs)")
	if err := parseFlags(fs, args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, usagef("unexpected argument %q (subcommands: collect, oracle)", fs.Arg(0))
	}
	if f.asJSON && f.asCSV {
		return nil, usagef("give --json or --csv, not both")
	}
	if ext := filepath.Ext(f.plot); f.plot != "" && !strings.EqualFold(ext, ".svg") && !strings.EqualFold(ext, ".png") {
		return nil, usagef("--plot %s: the plot is SVG or PNG; give a file name ending in .svg or .png", f.plot)
	}
	if err := e.capJobs(jobs); err != nil {
		return nil, err
	}
	f.jobs = *jobs
	if err := checkRanges(intRange{"worst", f.worst, 0, 0}, intRange{"limit", f.limit, 0, 0}, intRange{"repeat", f.repeat, 1, 0}); err != nil {
		return nil, err
	}
	// As --max-nodes: a cap of 0 would mean no cap to some and stop
	// everything to others; a QS is never uncapped by accident.
	if f.maxNodes < 1 {
		return nil, usagef("--max-qs-nodes %d: want a positive number", f.maxNodes)
	}
	var err error
	if f.opts, err = engine.ParseVariantSpecs(f.qs); err != nil {
		return nil, usagef("--qs: %v", err)
	}
	return f, nil
}

// loadQSBenchSet reads the set (--epd, or the built-in one), cut to
// --limit, checks that it has one oracle throughout, and reads its second
// oracle's values (nil when there are none).
func loadQSBenchSet(e *env, f *qsBenchFlags) ([]*qsbench.Position, []qsbench.Oracle, error) {
	var set []*qsbench.Position
	var err error
	if f.builtin() {
		set, err = qsbench.Builtin()
	} else {
		set, err = qsbench.ReadFile(e.ctx, f.epd)
	}
	if err != nil {
		return nil, nil, err
	}
	if f.limit > 0 && f.limit < len(set) {
		set = set[:f.limit]
	}
	name := f.setName()
	for _, p := range set {
		if !p.Oracle.Valid() {
			return nil, nil, fmt.Errorf("%s:%d: record %s has no oracle value (ce); run 'horizon qsbench oracle --epd %s'", name, p.Line, p.ID, shellQuote(f.epd))
		}
		// One oracle for the whole set, or the errors mean nothing together.
		if o := set[0].Oracle; p.Oracle.Name != o.Name || p.Oracle.Depth != o.Depth {
			return nil, nil, fmt.Errorf("%s:%d: record %s has oracle %q at depth %d, but line %d has %q at depth %d; run 'horizon qsbench oracle --epd %s'",
				name, p.Line, p.ID, p.Oracle.Name, p.Oracle.Depth, set[0].Line, o.Name, o.Depth, shellQuote(f.epd))
		}
	}
	if f.second == "none" {
		return set, nil, nil
	}
	if f.builtin() && f.second == "" {
		second, err := qsbench.BuiltinSecond(set)
		return set, second, err
	}
	path, explicit := f.second, f.second != ""
	if !explicit {
		path = secondOraclePath(f.epd)
	}
	second, err := qsbench.ReadSecondOracle(e.ctx, path, set)
	if err != nil && (explicit || !errors.Is(err, os.ErrNotExist)) {
		return nil, nil, err
	}
	return set, second, nil
}

// qsWorstRows are each variant's --worst positions: the worst errors,
// then the runs the node cap stopped, which have no value and so no
// error: flagged, never ranked.
func qsWorstRows(f *qsBenchFlags, vs []qsbench.Variant, res *qsbench.Results) []qsWorstJSON {
	rows := []qsWorstJSON{}
	if f.worst == 0 {
		return rows
	}
	for vi, v := range vs {
		ws := qsbench.Worst(res, vi, f.worst)
		ws = append(ws, qsbench.StoppedRuns(res, vi, f.worst)...)
		for _, w := range ws {
			row := qsWorstJSON{Variant: v.Spec, ID: w.Position.ID, FEN: w.Position.FEN,
				Class: w.Position.Class, OracleScore: w.Position.Oracle.Score, Stopped: w.Run.Stopped,
				QSNodes: w.Run.QSNodes, QSPV: w.Run.PV, OraclePV: w.Position.Oracle.PV,
				QSLine: qsLineText(w.Position, w.Run, v.Options, f.maxNodes),
				Trace:  qsTraceCommand(f.epd, w.Position, v.Options)}
			if !w.Run.Stopped {
				score, errCP := w.Run.Score, w.Error
				row.Score, row.Error = &score, &errCP
			}
			rows = append(rows, row)
		}
	}
	return rows
}

// qsBenchResult is 'horizon qsbench': the run's figures and each
// variant's, its worst positions, and (for --csv) every QS run.
type qsBenchResult struct {
	File        string          `json:"file"`
	Positions   int             `json:"positions"`
	Completed   int             `json:"completed"`
	Oracle      string          `json:"oracle"`
	OracleDepth int             `json:"oracle_depth"`
	Clamp       int             `json:"clamp_cp"`
	MaxQSNodes  int64           `json:"max_qs_nodes"`
	Variants    []qsVariantJSON `json:"variants"`
	Worst       []qsWorstJSON   `json:"worst"`
	Interrupted bool            `json:"interrupted"`

	set    []*qsbench.Position
	res    *qsbench.Results
	sums   []qsbench.Summary
	second bool   // a second oracle's columns
	plot   string // the plot written, "" for none
}

func (q qsBenchResult) writeText(w io.Writer) error {
	printQSBench(w, q.File, q.set, q.res, q.sums, q.second, q.MaxQSNodes)
	if len(q.Worst) > 0 {
		printQSWorst(w, q.Worst)
	}
	if q.plot != "" {
		fmt.Fprintf(w, "\nplot written to %s\n", q.plot)
	}
	return nil
}

// qsVariantJSON is one variant's figures in --json: the summary with its
// options as an object of typed values, as runs, diff and search give them.
type qsVariantJSON struct {
	qsbench.Summary
	Options json.RawMessage `json:"options"`
	// StoppedOld is stopped_count under the key qsbench gave it first,
	// deprecated: stopped is a QS run's flag (worst[].stopped).
	StoppedOld int `json:"stopped"`
}

// MarshalJSON gives the node and time figures of a variant with no
// compared position (every one stopped somewhere) as null, as the text
// gives them as "-": a figure over no position is none, not 0.
func (v qsVariantJSON) MarshalJSON() ([]byte, error) {
	type plain qsVariantJSON
	if v.Compared > 0 {
		return json.Marshal(plain(v))
	}
	return json.Marshal(struct {
		plain
		QSNodesMean  *float64 `json:"qs_nodes_mean"`
		QSNodesP90   *int64   `json:"qs_nodes_p90"`
		QSNodesMax   *int64   `json:"qs_nodes_max"`
		QSNodesTotal *int64   `json:"qs_nodes_total"`
		MaxQSPly     *int     `json:"max_qs_ply"`
		TimeMS       *float64 `json:"time_ms"`
		TimeUSMean   *float64 `json:"time_us_mean"`
	}{plain: plain(v)})
}

// qsWorstJSON is one of a variant's worst positions, or one of its runs
// stopped by --max-qs-nodes (stopped: true; score and error_cp null, as
// such a QS has no value).
type qsWorstJSON struct {
	Variant string `json:"variant"`
	ID      string `json:"id"`
	FEN     string `json:"fen"`
	Class   string `json:"class"`
	Stopped bool   `json:"stopped"`
	Score   *int   `json:"score"`
	// OracleScore is the oracle's value: "oracle" is its name, at the
	// top and in each variant's error, as the text says them.
	OracleScore int      `json:"oracle_score"`
	Error       *int     `json:"error_cp"`
	QSNodes     int64    `json:"qs_nodes"`
	QSPV        []string `json:"qs_pv"`
	QSLine      string   `json:"qs_line"` // the line in words: the moves, or why there are none
	OraclePV    []string `json:"oracle_pv"`
	Trace       string   `json:"trace_command"`
}

// qsLineText says what a QS did from its root: its line, or, when it has
// none, why (stopped, checkmated, stood pat, in check and not searching
// evasions).
func qsLineText(p *qsbench.Position, r qsbench.Run, o engine.Options, limit int64) string {
	line := strings.Join(r.PV, " ")
	switch {
	case r.Stopped:
		if line != "" {
			line += " "
		}
		return line + fmt.Sprintf("(stopped by --max-qs-nodes %d: no value)", limit)
	case line != "":
		return line
	}
	inCheck := p.Pos().InCheck()
	switch {
	case inCheck && engine.Score(r.Score).IsMate():
		return "(checkmated: no legal move)"
	case inCheck && !o.Evades(true):
		return "(in check; this variant searches no evasions and stands pat)"
	case inCheck:
		return "(in check; no evasion)"
	case !o.StandPat:
		return "(no move searched)"
	}
	return "(stands pat)"
}

// secondOraclePath is where a set's second oracle lives: x.epd -> x.stockfish.epd.
func secondOraclePath(epd string) string {
	return strings.TrimSuffix(epd, filepath.Ext(epd)) + ".stockfish.epd"
}

// qsTraceCommand is the 'horizon trace' command that records the same QS
// as the benchmark ran, from the same record: of the file epd, or, for
// the built-in set ("" epd), of the record itself fed to trace's standard
// input, as the user has no file of it. The id comes from the set: it is
// quoted, and the trace it names is a file of the current directory
// whatever the id holds (slashes, "..").
func qsTraceCommand(epd string, p *qsbench.Position, o engine.Options) string {
	spec := engine.VariantSpec(o)
	name, rest, _ := strings.Cut(spec, "+")
	from := shellQuote(epd)
	if epd == "" {
		from = "/dev/stdin"
	}
	cmd := fmt.Sprintf("horizon trace --epd %s --id %s --qs-only --qs %s", from, shellQuote(p.ID), shellQuote(name))
	if epd == "" {
		cmd = "printf '%s\\n' " + shellQuote(p.TraceRecord()) + " | " + cmd
	}
	for _, kv := range strings.Split(rest, "+") {
		if kv != "" {
			cmd += " " + shellQuote("--"+kv)
		}
	}
	return cmd + " -o " + shellQuote(localName(p.ID, ".trace"))
}

// localName is a file name in the current directory made from id (an
// EPD record's id) and ext: every run of characters but letters, digits,
// '.', '-' and '_' becomes one '_', and leading dots and underscores go,
// so no id names a file elsewhere ("../x"), a hidden one or none.
func localName(id, ext string) string {
	var b strings.Builder
	under := false
	for _, r := range id {
		if r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '_') {
			b.WriteRune(r)
			under = false
		} else if !under {
			b.WriteByte('_')
			under = true
		}
	}
	name := strings.TrimLeft(b.String(), "._")
	if name == "" {
		name = "position"
	}
	return name + ext
}

// qsPlotSubtitle says what the plot's figures are over: n positions of
// the set's total, and whether a Ctrl-C cut the run short, so that the plot
// of a part of a set never reads as a set of that size.
func qsPlotSubtitle(o qsbench.Oracle, n, total int, interrupted bool) string {
	of := engine.Commas(int64(n))
	if n < total {
		of += " of " + engine.Commas(int64(total))
	}
	of += " horizon positions"
	if interrupted {
		of += " (interrupted)"
	}
	return fmt.Sprintf("%s; oracle: %s, depth %d; scores clamped to ±%d cp", of, o.Name, o.Depth, qsbench.Clamp)
}

// writeQSPlot writes the plot into f, created (as path) before the work:
// SVG, or for a name ending in .png the SVG painted as export paints its
// charts, so both show the same figure.
func writeQSPlot(f *outfile.File, path string, sums []qsbench.Summary, subtitle string) error {
	var svg bytes.Buffer
	err := qsbench.WritePlot(&svg, sums, "QS cost against QS accuracy", subtitle)
	if err == nil && strings.EqualFold(filepath.Ext(path), ".png") {
		err = render.PaintFlatSVG(svg.Bytes(), f)
	} else if err == nil {
		_, err = f.Write(svg.Bytes())
	}
	if err != nil {
		return fmt.Errorf("plot %s: %v", path, err)
	}
	return f.Commit()
}

func printQSBench(w io.Writer, epd string, set []*qsbench.Position, res *qsbench.Results, sums []qsbench.Summary, second bool, limit int64) {
	o := set[0].Oracle
	over := ""
	if n := sums[0].Compared; n < res.Completed {
		over = fmt.Sprintf(" (figures over the %d every variant finished: see stopped)", n)
	}
	fmt.Fprintf(w, "%s: %d of %d positions%s; oracle %s at depth %d; QS alone, open window\n\n", engine.Printable(epd), res.Completed, len(set), over, engine.Printable(o.Name), o.Depth)
	tw := figureTable(w)
	head := "variant\tQS nodes mean\tp90\tmax\tstopped\ttime µs/pos\tMAE cp\t>100cp\t>300cp\tsign err\tbias cp\tPareto\t"
	if second {
		head += "MAE 2nd\t>300 2nd\tsign 2nd\t"
	}
	fmt.Fprintln(tw, head)
	for _, s := range sums {
		if s.Compared == 0 {
			// No position to take a figure over: a mean of none is no 0.
			fmt.Fprintf(tw, "%s\t-\t-\t-\t%d\t-\t-\t-\t-\t-\t-\t\t", s.Variant, s.Stopped)
			if second {
				fmt.Fprint(tw, "-\t-\t-\t")
			}
			fmt.Fprintln(tw)
			continue
		}
		pareto := ""
		if s.Pareto {
			pareto = "*"
		}
		fmt.Fprintf(tw, "%s\t%.1f\t%s\t%s\t%d\t%.1f\t%.1f\t%s\t%s\t%d\t%+.1f\t%s\t", s.Variant, s.QSNodesMean,
			engine.Commas(s.QSNodesP90), engine.Commas(s.QSNodesMax), s.Stopped, s.TimeUSMean, s.Error.MAE,
			engine.Percent(s.Error.Off100), engine.Percent(s.Error.Off300), s.Error.SignErrors, s.Error.Bias, pareto)
		if second && s.Second != nil {
			fmt.Fprintf(tw, "%.1f\t%s\t%d\t", s.Second.MAE, engine.Percent(s.Second.Off300), s.Second.SignErrors)
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	fmt.Fprintf(w, "\nerrors against the oracle's ce with both scores clamped to ±%d cp; sign err: one says >= +%d, the other <= -%d;\n",
		qsbench.Clamp, qsbench.SignMargin, qsbench.SignMargin)
	fmt.Fprintln(w, "bias: the mean of QS - oracle, below 0 when the QS rates the side to move lower than the oracle does")
	fmt.Fprintf(w, "Pareto *: %s\ntime: mean per position of each QS's fastest of --repeat runs\n", qsbench.ParetoRule)
	if n := sums[0].Compared; n < res.Completed {
		fmt.Fprintf(w, "stopped: QS runs that reached --max-qs-nodes %s; they have no value, so the %d positions where any variant's QS stopped are left out\n"+
			"  of every column but stopped: all figures are over the %d positions every variant finished\n", engine.Commas(limit), res.Completed-n, n)
	}
	if second && sums[0].Second != nil {
		fmt.Fprintf(w, "2nd: against %s (%d positions; a different evaluation, so its errors include evaluation differences)\n",
			sums[0].Second.Oracle, sums[0].Second.Positions)
	}
}

func printQSWorst(w io.Writer, rows []qsWorstJSON) {
	cur := ""
	for _, r := range rows {
		if r.Variant != cur {
			cur = r.Variant
			fmt.Fprintf(w, "\nworst positions of %s:\n", cur)
		}
		if r.Stopped {
			fmt.Fprintf(w, "  %s %-8s QS stopped on reaching %s QS nodes (no value), oracle %s\n", engine.Printable(r.ID), engine.Printable(r.Class),
				engine.Commas(r.QSNodes), engine.Score(r.OracleScore).Signed())
		} else {
			fmt.Fprintf(w, "  %s %-8s QS %s, oracle %s, off by %d cp, %s\n", engine.Printable(r.ID), engine.Printable(r.Class), engine.Score(*r.Score).Signed(),
				engine.Score(r.OracleScore).Signed(), *r.Error, engine.Count(r.QSNodes, "QS node"))
		}
		fmt.Fprintf(w, "    %s\n", engine.Printable(r.FEN))
		fmt.Fprintf(w, "    QS line: %s   oracle line: %s\n", engine.Printable(r.QSLine), engine.Printable(strings.Join(r.OraclePV, " ")))
		fmt.Fprintf(w, "    %s\n", r.Trace)
	}
}

func (q qsBenchResult) writeCSV(w io.Writer) error {
	res := q.res
	cw := csv.NewWriter(w)
	cw.Write([]string{"variant", "id", "class", "source", "fen", "score", "oracle_score", "error_cp", "qs_nodes", "max_qs_ply", "stopped", "elapsed_us"})
	for vi, v := range res.Variants {
		for pi, ok := range res.Done {
			if !ok {
				continue
			}
			p, r := res.Set[pi], res.Runs[pi][vi]
			// A stopped QS has no value: its score and error cells stay empty.
			score, d := "", ""
			if !r.Stopped {
				score, d = strconv.Itoa(r.Score), strconv.Itoa(qsbench.ClampedError(r.Score, p.Oracle.Score))
			}
			cw.Write([]string{v.Spec, p.ID, p.Class, p.Source, p.FEN, score, strconv.Itoa(p.Oracle.Score),
				d, strconv.FormatInt(r.QSNodes, 10), strconv.Itoa(r.MaxQSPly), strconv.FormatBool(r.Stopped),
				strconv.FormatInt(r.Elapsed.Microseconds(), 10)})
		}
	}
	cw.Flush()
	return cw.Error()
}

func runQSBenchCollect(e *env, args []string) error {
	fs := newFlags(e, "qsbench collect", "[--sources FILE,...] [--depth N] [--qs SPEC] [--quiet N] [--tactical N] [-o FILE]",
		`Builds a benchmark set of horizon positions: runs a search (default 'see' to
depth 3) on every position of the source suites and collects the positions
where it called QS (the QS roots), with the move that led there. Positions
are de-duplicated; under each source they are ranked by a hash of their
Zobrist key and the sources take turns giving positions, so the sample is
deterministic and spread over all sources. A position is tactical when the
side to move is in check, can promote, or has a capture that wins material
by SEE, quiet otherwise; --quiet and --tactical set the mix.

The set is written without oracle values; 'horizon qsbench oracle' adds them.`,
		"horizon qsbench collect -o testdata/qsbench.epd && horizon qsbench oracle --epd testdata/qsbench.epd")
	sources := fs.String("sources", defaultQSBenchSources, "suites to search, comma-separated (EPD or one FEN a line)")
	skip := fs.String("skip", defaultQSBenchSkip, "source positions to leave out, by id or file:line, comma-separated")
	depth := fs.Int("depth", 3, "depth of the searches whose QS roots are collected")
	qs := fs.String("qs", "see", "variant of those searches")
	quiet := fs.Int("quiet", 600, "quiet positions in the set")
	tactical := fs.Int("tactical", 600, "tactical positions in the set")
	per := fs.Int("per-source", 12, "candidates kept per source position and class")
	jobs := jobsFlag(fs, "sources searched")
	out := fs.String("o", defaultQSBenchEPD, "set to write")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if err := checkRanges(intRange{"depth", *depth, 1, 10}, intRange{"quiet", *quiet, 0, 0}, intRange{"tactical", *tactical, 0, 0},
		intRange{"per-source", *per, 1, 0}); err != nil {
		return err
	}
	if err := e.capJobs(jobs); err != nil {
		return err
	}
	if *quiet+*tactical == 0 {
		return usagef("--quiet and --tactical are both 0: nothing to collect")
	}
	o, err := engine.ParseVariantSpec(*qs)
	if err != nil {
		return usagef("--qs: %v", err)
	}
	skipGiven := false
	fs.Visit(func(f *flag.Flag) { skipGiven = skipGiven || f.Name == "skip" })
	srcs, files, skipNote, err := collectSources(e, *sources, *skip, skipGiven)
	if err != nil {
		return err
	}
	if len(srcs) == 0 {
		return usagef("--sources: no files given")
	}
	f, err := outfile.Create(e.ctx, *out, files...)
	if err != nil {
		return err
	}
	defer f.Abort()
	start := time.Now()
	prog := countProgress(e.stderr, "sources searched", len(srcs))
	set, err := qsbench.Collect(e.ctx, srcs, qsbench.CollectConfig{Options: o, Depth: *depth, PerSource: *per,
		Quiet: *quiet, Tactical: *tactical, Jobs: *jobs}, prog.Set)
	prog.Stop()
	if err != nil {
		if errors.Is(err, qsbench.ErrInterrupted) {
			return fmt.Errorf("%s; %s not written", e.stopped(), *out)
		}
		return err
	}
	header := fmt.Sprintf(`QS benchmark set: horizon positions (QS roots) of '%s' searches to depth %d over
%s%s (%d positions); %d tactical, %d quiet; no oracle values yet.
Regenerate: horizon qsbench collect --sources %s --skip %s --depth %d --qs %s --tactical %d --quiet %d --per-source %d -o %s`,
		engine.VariantSpec(o), *depth, *sources, skipNote, len(srcs), *tactical, *quiet, shellQuote(*sources), shellQuote(strings.TrimPrefix(skipNote, " without ")), *depth,
		shellQuote(engine.VariantSpec(o)), *tactical, *quiet, *per, shellQuote(*out))
	if err := qsbench.Write(f, header, set); err != nil {
		return err
	}
	if err := f.Commit(); err != nil {
		return err
	}
	return e.print(message(fmt.Sprintf("wrote %d positions (%d tactical, %d quiet) from %d sources to %s in %s",
		len(set), *tactical, *quiet, len(srcs), *out, engine.Elapsed(time.Since(start)))), formatText)
}

// collectSources reads the source suites of 'qsbench collect' and leaves
// out the positions skip names (by label: id or file:line). The default
// skip names positions of the default sources; with other sources it
// leaves out what it finds and asks for nothing more, while a skip the
// user gave (given) must name positions that are there. It returns the
// sources, the files read, and " without LABELS" for the ones left out
// ("" for none), for the set's header.
func collectSources(e *env, sources, skip string, given bool) ([]qsbench.Source, []string, string, error) {
	skipped := map[string]bool{}
	for _, l := range strings.Split(skip, ",") {
		if l = strings.TrimSpace(l); l != "" {
			skipped[l] = false
		}
	}
	var srcs []qsbench.Source
	var files []string
	for _, file := range strings.Split(sources, ",") {
		file = strings.TrimSpace(file)
		if file == "" {
			continue
		}
		files = append(files, file)
		recs, err := loadPositions(e.ctx, "", file)
		if err != nil {
			return nil, nil, "", err
		}
		for i := range recs {
			// The file's base name: the set records its sources' labels,
			// which --skip takes, the same wherever the files lie.
			label := positionLabel(filepath.Base(file), &recs[i])
			if _, ok := skipped[label]; ok {
				skipped[label] = true
				continue
			}
			srcs = append(srcs, qsbench.Source{Label: label, Pos: recs[i].Pos})
		}
	}
	var skippedList []string
	for _, l := range strings.Split(skip, ",") {
		l = strings.TrimSpace(l)
		if used, ok := skipped[l]; ok && used {
			skippedList = append(skippedList, l)
			delete(skipped, l) // once, however often it was named
		}
	}
	for l, used := range skipped {
		if !used && given {
			return nil, nil, "", usagef("--skip: no source position %q in --sources", l)
		}
	}
	note := ""
	if len(skippedList) > 0 {
		note = " without " + strings.Join(skippedList, ",")
	}
	return srcs, files, note, nil
}

func runQSBenchOracle(e *env, args []string) error {
	fs := newFlags(e, "qsbench oracle", "[--epd FILE] [--depth N] [--jobs N] [--oracle-engine PATH [--engine-depth N]]",
		`Computes the oracle value of every position of a benchmark set and writes
it into the set (ce, acd, acn, pv, oracle): Horizon's full-width search to
--depth with the strongest QS (`+qsbench.OracleSpec+`), the same
evaluation every variant uses. Reading the values back is instant.

With --oracle-engine, a UCI engine (stockfish: PATH or /usr/games) values
the positions instead, to --engine-depth, and the values go to a second
file beside the set (x.stockfish.epd for x.epd), which 'horizon qsbench'
shows as extra columns. An interrupted run writes nothing.`,
		"horizon qsbench oracle",
		"horizon qsbench oracle --oracle-engine stockfish --engine-depth 12")
	epd := fs.String("epd", defaultQSBenchEPD, "benchmark set to value")
	depth := fs.Int("depth", qsbench.OracleDepth, "depth of Horizon's oracle search")
	jobs := jobsFlag(fs, "positions searched")
	eng := fs.String("oracle-engine", "", "value with this UCI engine instead (name on PATH or path), written beside the set")
	engDepth := fs.Int("engine-depth", 12, "with --oracle-engine: its search depth")
	out := fs.String("o", "", "file to write (default: the set itself; with --oracle-engine, the .stockfish.epd beside it)")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if err := checkRanges(intRange{"depth", *depth, 1, 20}, intRange{"engine-depth", *engDepth, 1, 0}); err != nil {
		return err
	}
	if err := e.capJobs(jobs); err != nil {
		return err
	}
	// The valued set goes back into the set's file by default: a FIFO's
	// would go to whoever reads it next, after minutes of work.
	if fi, err := os.Stat(*epd); err == nil && fi.Mode().Type() == os.ModeNamedPipe && *out == "" && *eng == "" {
		return usagef("--epd %s is a FIFO: give -o FILE for the valued set (by default it replaces the set's file)", *epd)
	}
	// One read of the file gives the set and its header: a FIFO has no
	// second read.
	// Read copies what it reads (its records are bounded, and it stops
	// on Ctrl-C) for the header.
	r, err := fifo.OpenReader(e.ctx, *epd)
	if errors.Is(err, os.ErrNotExist) && *epd == defaultQSBenchEPD {
		return fmt.Errorf("%v (the committed set: run from the repository's root, or give --epd FILE)", err)
	}
	if err != nil {
		return err
	}
	var text bytes.Buffer
	set, err := qsbench.Read(io.TeeReader(r, &text), *epd)
	r.Close()
	if err != nil {
		return err
	}
	header, err := qsbench.ReadHeader(&text)
	if err != nil {
		return err
	}
	start := time.Now()
	if *eng != "" {
		return engineOracle(e, set, *epd, *eng, *engDepth, *jobs, *out)
	}
	// Created before the work, as every output is: after minutes of
	// valuing, a name that cannot be written would lose them. The set's
	// own file is rewritten by default, read above.
	dst := *out
	if dst == "" {
		dst = *epd
	}
	f, err := outfile.Create(e.ctx, dst)
	if err != nil {
		return err
	}
	defer f.Abort()
	o := qsbench.OracleOptions()
	prog := countProgress(e.stderr, "positions valued", len(set))
	err = qsbench.ComputeOracles(e.ctx, set, o, *depth, *jobs, prog.Set)
	prog.Stop()
	if err != nil {
		if errors.Is(err, qsbench.ErrInterrupted) {
			return fmt.Errorf("%s; %s not changed", e.stopped(), *epd)
		}
		return err
	}
	el := time.Since(start)
	header = qsbench.StripOracleHeader(header) + fmt.Sprintf("\nOracle: %s to depth %d (ce, acd, acn, pv); %s with --jobs %d.\nRegenerate: horizon qsbench oracle --epd %s --depth %d",
		qsbench.OracleName(o), *depth, el.Round(time.Second), *jobs, shellQuote(*epd), *depth)
	if err := qsbench.Write(f, header, set); err != nil {
		return err
	}
	if err := f.Commit(); err != nil {
		return err
	}
	return e.print(message(fmt.Sprintf("valued %d positions with %s to depth %d in %s (--jobs %d); wrote %s",
		len(set), qsbench.OracleName(o), *depth, engine.Elapsed(el), *jobs, dst)), formatText)
}

// engineOracle values the set with a UCI engine, jobs engine processes at
// once (one thread each), and writes the values beside the set.
func engineOracle(e *env, set []*qsbench.Position, epd, eng string, depth, jobs int, out string) error {
	path := eng
	if !strings.ContainsRune(path, '/') {
		p, err := uci.LookPath(path)
		if err != nil {
			return fmt.Errorf("--oracle-engine %s: not found on PATH or in /usr/games", eng)
		}
		path = p
	}
	if out == "" {
		out = secondOraclePath(epd)
	}
	f, err := outfile.Create(e.ctx, out, epd)
	if err != nil {
		return err
	}
	defer f.Abort()
	start := time.Now()
	vals := make([]qsbench.Oracle, len(set))
	var name atomic.Value
	var mu sync.Mutex
	var engines []*uci.Engine
	defer func() {
		for _, u := range engines {
			u.Close()
		}
	}()
	prog := countProgress(e.stderr, "positions valued by "+filepath.Base(path), len(set))
	err = qsbench.Parallel(e.ctx, len(set), jobs, func() func(int) error {
		var u *uci.Engine
		return func(i int) error {
			if u == nil {
				var err error
				if u, err = uci.StartEngine(e.ctx, path); err != nil {
					return fmt.Errorf("starting %s: %v", path, err)
				}
				mu.Lock()
				engines = append(engines, u)
				mu.Unlock()
				if err := u.Send("setoption name Threads value 1", "setoption name Hash value 16"); err != nil {
					return err
				}
				name.Store(u.Name)
			}
			v, err := uciValue(e.ctx, u, set[i], depth)
			if err != nil {
				return fmt.Errorf("%s on %s: %v", u.Name, set[i].ID, err)
			}
			vals[i] = v
			return nil
		}
	}, prog.Set)
	prog.Stop()
	if err != nil {
		if errors.Is(err, qsbench.ErrInterrupted) {
			return fmt.Errorf("%s; %s not written", e.stopped(), out)
		}
		return err
	}
	n, _ := name.Load().(string)
	el := time.Since(start)
	header := fmt.Sprintf("Second oracle for %s: %s to depth %d, one thread, 16 MiB hash; %s with --jobs %d.\nRegenerate: horizon qsbench oracle --epd %s --oracle-engine %s --engine-depth %d",
		epd, n, depth, el.Round(time.Second), jobs, shellQuote(epd), shellQuote(eng), depth)
	if err := qsbench.WriteSecond(f, header, set, vals); err != nil {
		return err
	}
	if err := f.Commit(); err != nil {
		return err
	}
	return e.print(message(fmt.Sprintf("valued %d positions with %s to depth %d in %s (--jobs %d); wrote %s",
		len(set), n, depth, engine.Elapsed(el), jobs, out)), formatText)
}

// uciValue searches one position to depth and reads the engine's last
// score, depth, node count and PV.
func uciValue(ctx context.Context, u *uci.Engine, p *qsbench.Position, depth int) (qsbench.Oracle, error) {
	if err := u.SetPosition(p.Parent, p.LastMove); err != nil {
		return qsbench.Oracle{}, err
	}
	o := qsbench.Oracle{Name: u.Name}
	res, err := u.Go(ctx, engine.Limits{Depth: depth}, uci.GoOptions{Silence: 5 * time.Minute})
	switch {
	case err != nil:
		return o, err
	case res.BadInfo != nil:
		return o, res.BadInfo
	case res.BadScore != "":
		// Refused, the value would be an earlier depth's.
		return o, fmt.Errorf("score %s in %q is beyond what a set can hold (cp within +-31999, mate within 499 moves)", res.BadScore, res.BadScoreLine)
	}
	// The last exact score is the engine's value.
	pv := res.Answer.PV
	if res.Answer.Scored {
		o.Depth, o.Score = res.Answer.Depth, int(res.Answer.Score)
		o.Nodes = max(res.Answer.Nodes, 0)
	}
	// The PV in SAN, as the set's own oracle writes it.
	pos := p.Pos()
	for _, s := range pv {
		m, err := pos.ParseUCI(s)
		if err != nil {
			break
		}
		o.PV = append(o.PV, pos.SAN(m))
		pos.MakeMove(m)
	}
	return o, nil
}
