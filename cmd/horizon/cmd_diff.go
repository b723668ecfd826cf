package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/horizonqs/horizon/compare"
	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/export"
	"github.com/horizonqs/horizon/internal/outfile"
	"github.com/horizonqs/horizon/trace"
)

// runIDs is a repeatable --run flag.
// runIDs are diff's --run values: run ids, or EPD records' ids (runRef).
type runIDs []runRef

func (r *runIDs) String() string {
	var s []string
	for _, x := range *r {
		s = append(s, x.String())
	}
	return strings.Join(s, ",")
}

func (r *runIDs) Set(s string) error {
	var x runRef
	if n, err := strconv.ParseInt(s, 10, 64); err == nil && n == 0 {
		// diff reads no run without --run either: it needs two named.
		return fmt.Errorf("%q is not a run id: runs are numbered from 1 ('horizon runs FILE' lists them)", s)
	}
	if err := x.Set(s); err != nil {
		return err
	}
	*r = append(*r, x)
	return nil
}

// byRecord reports whether runs is one EPD record's id.
func (r runIDs) byRecord() bool { return len(r) == 1 && r[0].epd != "" }

func runDiff(e *env, args []string) error {
	fs := newFlags(e, "diff", "FILE --run A --run B | A.trace B.trace [--run A --run B] [--top N] [--json | --csv | --html -o OUT.html]",
		`Lines up two runs node by node, by iteration and move path from the root
(transpositions are not merged; a move searched twice under one node, as PVS
re-searches and the unified and threshold variants do, is matched visit by
visit), and reports: the totals side by side; node counts by ply, QS ply and
QS level; the first node where the searches part, in the order they visited
their nodes, and why; how many nodes were matched or only in one run; the
matched nodes whose score, bound or cutoff differ; and the subtrees whose sizes
differ most, where one run explodes and the other does not.

Each difference names the rule that made it, read from both runs' options
and the position replayed there ("why (see-prune): B prunes Qxf6: SEE -580");
one that follows from an earlier difference points to it ("from the earlier
difference at node 812"). For another engine's run a reason says what the
records show. The divergences are counted by rule, and the places where the
growth starts are listed below the iteration roots: the pairs whose size
departs most from their parent's ratio B/A.

The runs may be in one file (give --run twice) or in two files (a file that
holds one run needs no --run). Both must have searched the same position.
For runs traced from an EPD file, --run WAC.002 names that record's two runs
in one file, or its run in each of two.
Both trees are streamed, never held in memory.

--html -o FILE writes one self-contained page instead: both trees side by side
as zoomable icicles, aligned node by node (clicking a node in one zooms the
other to its counterpart), nodes only one run has hatched, and the first
difference and the --top subtrees listed; click one to zoom to it.`,
		"horizon diff sample.trace --run 1 --run 2",
		"horizon trace --qs captures -o captures.trace && horizon trace --qs see -o see.trace && horizon diff captures.trace see.trace --top 20",
		"horizon diff sample.trace --run 1 --run 2 --json | jq .first_difference",
		"horizon diff sample.trace --run 1 --run 2 --html -o diff.html")
	var runs runIDs
	fs.Var(&runs, "run", "run `id`, given twice (A then B); with two files, the run in each. An EPD record's id counts as the id of its run, and given once names the record's two runs (or its run in each file)")
	top := fs.Int("top", 10, "subtrees to list, by node-count difference")
	changed := fs.Int("changed", 10, "changed nodes to list")
	asJSON := fs.Bool("json", false, "print JSON (keys a, b, matched, only_a, only_b, changed, changed_nodes, first_difference, divergences, top, growth_starts, plies, qs_plies, qs_levels; each difference's why: {rule, text, caused_by})")
	asCSV := fs.Bool("csv", false, "print CSV: section,key,a,b,diff rows")
	asHTML := fs.Bool("html", false, "write an interactive page of both trees to -o")
	out := fs.String("o", "", "output file of --html")
	width := fs.Int("width", export.DefaultHTMLWidth, "--html: merge resolution in pixels (nodes narrower than 1/width of their tree are merged)")
	files, err := parseArgsAnywhere(fs, args)
	if err != nil {
		return err
	}
	if b2i(*asJSON)+b2i(*asCSV)+b2i(*asHTML) > 1 {
		return usagef("give one of --json, --csv and --html")
	}
	if *asHTML != (*out != "") {
		return usagef("--html and -o go together: --html -o diff.html")
	}
	if *width < 200 || *width > 100000 {
		return usagef("--width %d: want 200 to 100000 pixels", *width)
	}
	if err := checkRanges(intRange{"top", *top, 1, 0}, intRange{"changed", *changed, 1, 0}); err != nil {
		return err
	}
	a, b, closeAll, err := diffSides(e, files, runs)
	if err != nil {
		return err
	}
	defer closeAll()
	if *asHTML {
		return writeDiffHTML(e, a, b, *out, export.HTMLOptions{Width: *width, Depth: -1, Hotspots: *top})
	}
	rep, err := alignWithProgress(e, a, b, compare.Options{Top: *top, Changed: *changed})
	if err != nil {
		return err
	}
	return e.print(diffResult{rep}, formatOf(*asJSON, *asCSV))
}

// alignWithProgress is compare.Align with a progress line on a terminal:
// the rows it has read of the two runs' (it reads no further into a
// subtree only one run has, so it may end short of all of them).
func alignWithProgress(e *env, a, b compare.Side, o compare.Options) (*compare.Report, error) {
	var total int64
	for _, s := range []compare.Side{a, b} {
		r, err := s.Store.Run(e.ctx, s.Run)
		if err != nil {
			return nil, err
		}
		total += r.Rows
	}
	rows := new(atomic.Int64)
	a.Store, b.Store = countingReader{a.Store, rows}, countingReader{b.Store, rows}
	stop := rowsProgress(e.stderr, "aligning the runs", rows, total)
	defer stop()
	return compare.Align(e.ctx, a, b, o)
}

// diffResult is 'horizon diff': the report of compare.Align, which --json
// writes as it is.
type diffResult struct{ *compare.Report }

// diffSides opens the files and picks the two runs.
func diffSides(e *env, files []string, runs runIDs) (a, b compare.Side, closeAll func(), err error) {
	var stores []*trace.Store
	closeAll = func() {
		for _, s := range stores {
			s.Close()
		}
	}
	open := func(path string) (*trace.Store, error) {
		st, err := trace.OpenSnapshot(e.ctx, path) // one state of each file
		if err != nil {
			return nil, err
		}
		stores = append(stores, st)
		return st, nil
	}
	fail := func(err error) (compare.Side, compare.Side, func(), error) {
		closeAll()
		return compare.Side{}, compare.Side{}, func() {}, err
	}
	// onlyRun returns the run of a file that holds exactly one.
	onlyRun := func(st *trace.Store) (int64, error) {
		rs, err := st.Runs(e.ctx)
		if err != nil {
			return 0, err
		}
		if len(rs) == 1 {
			return rs[0].ID, nil
		}
		return 0, usagef("%s holds %d runs (%s): choose with --run", st.File(), len(rs), trace.RunList(rs))
	}
	switch len(files) {
	case 0:
		return fail(usagef("give a trace file and two runs, or two trace files"))
	case 1:
		st, err := open(files[0])
		if err != nil {
			return fail(err)
		}
		var ids [2]int64
		switch {
		case len(runs) == 0 || runs.byRecord():
			// The file's two runs, or the two of the record.
			var rs []trace.Run
			if len(runs) == 0 {
				rs, err = st.Runs(e.ctx)
			} else {
				rs, err = runs[0].runs(e.ctx, st, files[0])
			}
			if err != nil {
				return fail(err)
			}
			if len(rs) != 2 {
				what := files[0] + " holds"
				if len(runs) > 0 {
					what = "EPD record " + runs[0].epd + " has"
				}
				return fail(usagef("%s %s (%s): give the two to compare with --run A --run B", what, engine.Count(int64(len(rs)), "run"), trace.RunList(rs)))
			}
			ids = [2]int64{rs[0].ID, rs[1].ID}
		case len(runs) == 2:
			for i := range ids {
				if ids[i], err = runs[i].one(e.ctx, st, files[0]); err != nil {
					return fail(err)
				}
			}
		default:
			return fail(usagef("give --run twice (runs A and B of %s), or an EPD record's id with two runs, not %s", files[0], engine.Times(len(runs))))
		}
		a, b = compare.Side{Store: st, Run: ids[0]}, compare.Side{Store: st, Run: ids[1]}
	case 2:
		sa, err := open(files[0])
		if err != nil {
			return fail(err)
		}
		sb, err := open(files[1])
		if err != nil {
			return fail(err)
		}
		var ids [2]int64
		for i, st := range []*trace.Store{sa, sb} {
			switch {
			case len(runs) == 0:
				ids[i], err = onlyRun(st)
			case runs.byRecord():
				ids[i], err = runs[0].one(e.ctx, st, files[i]) // the record's run in each file
			case len(runs) == 2:
				ids[i], err = runs[i].one(e.ctx, st, files[i])
			default:
				err = usagef("with two files give --run twice (the run in each), an EPD record's id, or no --run, not %s", engine.Times(len(runs)))
			}
			if err != nil {
				return fail(err)
			}
		}
		a, b = compare.Side{Store: sa, Run: ids[0]}, compare.Side{Store: sb, Run: ids[1]}
	default:
		return fail(usagef("give one or two trace files, not %d (%s)", len(files), strings.Join(files, ", ")))
	}
	for _, s := range []compare.Side{a, b} {
		if _, err := s.Store.Run(e.ctx, s.Run); err != nil {
			return fail(err)
		}
	}
	return a, b, closeAll, nil
}

func diffSigned(n int64) string {
	if n > 0 {
		return "+" + engine.Commas(n)
	}
	return engine.Commas(n)
}

// scoreDiff is B-A, or nothing when either run has no score, either
// score is only a bound (two bounds say nothing of how far apart the
// scores are), or either does not print as a plain number in its run's
// format (a mate or infinity, on Horizon's scale or another engine's
// declared one: a difference of such scores means nothing).
func scoreDiff(a, b compare.Totals) string {
	if a.Score == nil || b.Score == nil || a.ScoreBound != nil || b.ScoreBound != nil ||
		a.Scores.Text(engine.Score(*a.Score)) != strconv.Itoa(*a.Score) || b.Scores.Text(engine.Score(*b.Score)) != strconv.Itoa(*b.Score) {
		return ""
	}
	return diffSigned(int64(*b.Score - *a.Score))
}

// scoreCell is a run's score in diff's table as runs writes it, bound
// and all: "none" when it has none.
func scoreCell(t compare.Totals) string {
	if t.Score == nil {
		return "none"
	}
	return scoreText(t.Scores, engine.Score(*t.Score), cell(t.ScoreBound))
}

// timeCell is a run's time in diff's table: "-" while it is unknown.
func timeCell(t compare.Totals) string {
	if t.ElapsedMS == nil {
		return "-"
	}
	return engine.Elapsed(time.Duration(*t.ElapsedMS) * time.Millisecond)
}

func (d diffResult) writeText(w io.Writer) error {
	r := d.Report
	fmt.Fprintf(w, "A: run %d of %s, variant %s, %s\n", r.A.Run, engine.Printable(r.A.File), engine.Printable(r.A.Variant),
		engine.Printable(trace.StatusText(trace.Status(r.A.Status), cell(r.A.StopCause))))
	fmt.Fprintf(w, "B: run %d of %s, variant %s, %s\n", r.B.Run, engine.Printable(r.B.File), engine.Printable(r.B.Variant),
		engine.Printable(trace.StatusText(trace.Status(r.B.Status), cell(r.B.StopCause))))
	fmt.Fprintf(w, "position: %s\n\n", engine.Printable(diffPosition(r.A, r.B)))

	tw := figureTable(w)
	fmt.Fprintln(tw, "\tA\tB\tB-A\t")
	row := func(name string, a, b int64) {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t\n", name, engine.Commas(a), engine.Commas(b), diffSigned(b-a))
	}
	row("nodes", r.A.Nodes, r.B.Nodes)
	row("QS nodes", r.A.QSNodes, r.B.QSNodes)
	fmt.Fprintf(tw, "QS share\t%s\t%s\t\t\n", engine.Percent(r.A.QSShare), engine.Percent(r.B.QSShare))
	row("max ply", int64(r.A.MaxPly), int64(r.B.MaxPly))
	row("max QS ply", int64(r.A.MaxQSPly), int64(r.B.MaxQSPly))
	fmt.Fprintf(tw, "best move\t%s\t%s\t\t\n", diffOrDash(bestText(r.A)), diffOrDash(bestText(r.B)))
	fmt.Fprintf(tw, "score\t%s\t%s\t%s\t\n", scoreCell(r.A), scoreCell(r.B), scoreDiff(r.A, r.B))
	row("depth", int64(r.A.Depth), int64(r.B.Depth))
	fmt.Fprintf(tw, "time\t%s\t%s\t\t\n", timeCell(r.A), timeCell(r.B))
	if err := tw.Flush(); err != nil {
		return err
	}

	fmt.Fprintf(w, "\naligned: %s nodes matched, %s only in A, %s only in B; %s matched nodes differ in score, bound or cutoff\n",
		engine.Commas(r.Matched), engine.Commas(r.OnlyA), engine.Commas(r.OnlyB), engine.Commas(r.Changed))
	if r.Identical() {
		fmt.Fprintln(w, "the trees are identical")
		return nil
	}
	if r.Filtered {
		fmt.Fprintln(w, "(a recording filter left rows out: node ids do not line up, differences are taken in A's visit order)")
	}
	if f := r.First; f != nil {
		fmt.Fprintf(w, "\nfirst difference, in visit order, at %s:\n  %s\n", r.Place(f.Root(), f.Path, f.Visits, f.Searches), f.Reason)
		if f.Why != nil {
			fmt.Fprintf(w, "  why (%s): %s\n", f.Why.Rule, f.Why.Text)
		}
	}
	if dv := r.Divergences; dv.Count > 1 {
		fmt.Fprintf(w, "\n%s of their own (%s follow from them):\n", engine.CountOf(dv.Count, "divergence", "divergences"), engine.Commas(dv.Caused))
		tw := textTable(w)
		for _, c := range dv.ByRule {
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", engine.Percent(c.Share), engine.Commas(c.Count), c.Rule, c.Text)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}

	fmt.Fprintln(w, "\nnodes by ply:")
	tw = figureTable(w)
	fmt.Fprintln(tw, "ply\tA\tB\tB-A\tQS A\tQS B\t")
	for _, p := range r.Plies {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t\n", p.Ply, engine.Commas(p.NodesA), engine.Commas(p.NodesB), diffSigned(p.NodesB-p.NodesA),
			engine.Commas(p.QSNodesA), engine.Commas(p.QSNodesB))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	levels := func(title, col string, rows []compare.LevelRow) error {
		if len(rows) == 0 {
			return nil
		}
		fmt.Fprintf(w, "\n%s:\n", title)
		tw := figureTable(w)
		fmt.Fprintf(tw, "%s\tA\tB\tB-A\t\n", col)
		for _, l := range rows {
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t\n", l.Level, engine.Commas(l.NodesA), engine.Commas(l.NodesB), diffSigned(l.NodesB-l.NodesA))
		}
		return tw.Flush()
	}
	if err := levels("QS nodes by QS ply (distance from the QS root)", "QS ply", r.QSPlies); err != nil {
		return err
	}
	// Only level-based QS has engine QS levels: the table is filled when
	// both runs use them.
	if len(r.QSLevels) > 0 {
		if err := levels("QS nodes by engine QS level", "level", r.QSLevels); err != nil {
			return err
		}
	}

	if len(r.Top) > 0 {
		fmt.Fprintln(w, "\nsubtrees whose sizes differ most (·n: n-th visit of a move under one node; -: not searched):")
		tw = textTable(w)
		fmt.Fprintln(tw, "#\tB-A\tA\tB\tpath")
		for i, s := range r.Top {
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\n", i+1, diffSigned(s.Diff), diffSize(s.IDA, s.NodesA), diffSize(s.IDB, s.NodesB),
				r.Place(s.Root(), s.Path, s.Visits, s.Searches))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if len(r.Growth) > 0 {
		fmt.Fprintln(w, "\nwhere the growth starts (B's size against A's grown by the parent's ratio B/A; the deepest such places):")
		tw = textTable(w)
		fmt.Fprintln(tw, "#\texcess\tA\tB\tB/A\tparent B/A\tpath")
		for i, g := range r.Growth {
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%.2f\t%.2f\t%s\n", i+1, diffSigned(g.Excess), engine.Commas(g.NodesA), engine.Commas(g.NodesB),
				g.Ratio, g.ParentRatio, r.Place(g.Root(), g.Path, g.Visits, g.Searches))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if len(r.ChangedNodes) > 0 {
		fmt.Fprintf(w, "\nchanged nodes (the first %d the searches finished):\n", len(r.ChangedNodes))
		for _, d := range r.ChangedNodes {
			fmt.Fprintf(w, "  %s (A node %d, B node %d): %s\n", r.Place(d.Root(), d.Path, d.Visits, d.Searches), d.A.ID, d.B.ID, d.Reason)
			if d.Why != nil {
				fmt.Fprintf(w, "    why (%s): %s\n", d.Why.Rule, d.Why.Text)
			}
		}
	}
	return nil
}

// diffPosition is the position both runs searched, as runs shows it
// (trace.Run.Position) when they share their EPD record's id; when they
// do not, each run's id after the FEN, so that neither is named by the
// other's record.
func diffPosition(a, b compare.Totals) string {
	if cell(a.EPDID) == cell(b.EPDID) {
		return a.Position
	}
	id := func(t compare.Totals) string {
		if t.EPDID == nil {
			return "none"
		}
		return *t.EPDID
	}
	return fmt.Sprintf("%s (EPD id: A %s, B %s)", a.FEN, id(a), id(b))
}

func diffOrDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func diffSize(id *int64, n int64) string {
	if id == nil {
		return "-"
	}
	return engine.Commas(n)
}

// bestText is a run's best move for the text report: SAN where the move
// reads in the run's position, else as stored.
func bestText(t compare.Totals) string {
	switch {
	case t.BestSAN != nil:
		return *t.BestSAN
	case t.BestMove != nil:
		return *t.BestMove
	}
	return ""
}

// optDiff is B-A of two figures that may be missing, for a CSV cell: empty
// when either is.
func optDiff[T int | int64](a, b *T) string {
	if a == nil || b == nil {
		return ""
	}
	return fmt.Sprint(*b - *a)
}

// writeDiffCSV writes the report as one long table: section,key,a,b,diff.
func (d diffResult) writeCSV(w io.Writer) error {
	r := d.Report
	cw := csv.NewWriter(w)
	i64 := func(n int64) string { return strconv.FormatInt(n, 10) }
	rec := func(section, key, a, b, diff string) { cw.Write([]string{section, key, a, b, diff}) }
	num := func(section, key string, a, b int64) { rec(section, key, i64(a), i64(b), i64(b-a)) }
	rec("section", "key", "a", "b", "diff")
	rec("total", "run", i64(r.A.Run), i64(r.B.Run), "")
	rec("total", "file", r.A.File, r.B.File, "")
	rec("total", "variant", r.A.Variant, r.B.Variant, "")
	num("total", "nodes", r.A.Nodes, r.B.Nodes)
	num("total", "qs_nodes", r.A.QSNodes, r.B.QSNodes)
	rec("total", "qs_share", strconv.FormatFloat(r.A.QSShare, 'f', 4, 64), strconv.FormatFloat(r.B.QSShare, 'f', 4, 64), "")
	num("total", "max_ply", int64(r.A.MaxPly), int64(r.B.MaxPly))
	num("total", "max_qs_ply", int64(r.A.MaxQSPly), int64(r.B.MaxQSPly))
	rec("total", "best_move", cell(r.A.BestMove), cell(r.B.BestMove), "")
	rec("total", "best_san", cell(r.A.BestSAN), cell(r.B.BestSAN), "")
	scoreDiff := optDiff(r.A.Score, r.B.Score)
	if r.A.ScoreBound != nil || r.B.ScoreBound != nil {
		scoreDiff = "" // as in the text: bounds are no distance
	}
	rec("total", "score", cell(r.A.Score), cell(r.B.Score), scoreDiff)
	rec("total", "score_bound", cell(r.A.ScoreBound), cell(r.B.ScoreBound), "")
	num("total", "depth", int64(r.A.Depth), int64(r.B.Depth))
	rec("total", "elapsed_ms", cell(r.A.ElapsedMS), cell(r.B.ElapsedMS), optDiff(r.A.ElapsedMS, r.B.ElapsedMS))
	rec("align", "matched", i64(r.Matched), i64(r.Matched), "")
	num("align", "only", r.OnlyA, r.OnlyB)
	rec("align", "changed", i64(r.Changed), i64(r.Changed), "")
	for _, p := range r.Plies {
		num("ply", strconv.Itoa(p.Ply), p.NodesA, p.NodesB)
	}
	for _, p := range r.Plies {
		num("qs_nodes_ply", strconv.Itoa(p.Ply), p.QSNodesA, p.QSNodesB)
	}
	for _, l := range r.QSPlies {
		num("qs_ply", strconv.Itoa(l.Level), l.NodesA, l.NodesB)
	}
	for _, l := range r.QSLevels {
		num("qs_level", strconv.Itoa(l.Level), l.NodesA, l.NodesB)
	}
	for _, s := range r.Top {
		a, b := "", ""
		if s.IDA != nil {
			a = i64(s.NodesA)
		}
		if s.IDB != nil {
			b = i64(s.NodesB)
		}
		rec("top", r.Place(s.Root(), s.Path, s.Visits, s.Searches), a, b, i64(s.Diff))
	}
	cw.Flush()
	return cw.Error()
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// writeDiffHTML writes the diff page to out, whole or not at all.
func writeDiffHTML(e *env, a, b compare.Side, out string, opts export.HTMLOptions) error {
	f, err := outfile.Create(e.ctx, out, a.Store.File(), b.Store.File())
	if err != nil {
		return err
	}
	defer f.Abort()
	stop := htmlProgress(e.stderr, &opts)
	err = export.WriteDiffHTML(e.ctx, a, b, opts, f)
	stop()
	if err != nil {
		return err
	}
	if err := f.Commit(); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "wrote %s: run %d of %s and run %d of %s side by side\n", engine.Printable(out), a.Run, engine.Printable(a.Store.File()), b.Run, engine.Printable(b.Store.File()))
	return nil
}
