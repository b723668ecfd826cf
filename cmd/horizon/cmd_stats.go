package main

import (
	"fmt"
	"io"
	"strconv"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// statsJSON is a run's statistics in --json output: the run, and the
// store's counts under their own keys.
type statsJSON struct {
	Run     int64  `json:"run"`
	Variant string `json:"variant"`
	Status  string `json:"status"`
	// StopCause is what stopped a truncated or interrupted run
	// (trace.Run.StopCause); null when none or not kept.
	StopCause *string `json:"stop_cause"`
	// The Searched figures are the search's, under the keys and with the
	// meaning they have in runs and trace; the figures of Stats are of the
	// rows recorded, fewer when Filter, the recording filter, left nodes
	// out.
	SearchedNodes    int64   `json:"nodes"`
	SearchedQSNodes  int64   `json:"qs_nodes"`
	SearchedQSShare  float64 `json:"qs_share"`
	SearchedMaxPly   int     `json:"max_ply"`
	SearchedMaxQSPly int     `json:"max_qs_ply"`
	Filter           *string `json:"filter"` // null when every node searched was recorded
	trace.Stats
	// Nested counts the run's nested searches (IID, singular tests) and
	// their nodes by reason: [] for a run without any.
	Nested []trace.NestedStat `json:"nested"`

	pathFiltered bool   // trace.Run.PathFiltered: no branching factors
	firstNodes   int64  // trace.Run.FirstNodes: no branching factors past it
	filterText   string // trace.Run.FilterText
}

// statsResult is 'horizon stats': one entry per run.
type statsResult []statsJSON

// openRuns opens a trace for reading, as one state of the file however a
// recorder commits to it meanwhile (trace.OpenSnapshot), and returns the
// run asked for with --run, or every run when run is 0. The caller closes
// the store.
func openRuns(e *env, file string, run *runRef) (*trace.Store, []trace.Run, error) {
	st, err := trace.OpenSnapshot(e.ctx, file)
	if err != nil {
		return nil, nil, err
	}
	runs, err := run.runs(e.ctx, st, file)
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	return st, runs, nil
}

func runStats(e *env, args []string) error {
	fs := newFlags(e, "stats", "FILE [--run N] [--json]",
		`Counts a run's nodes: in total and in QS, the QS share counted two ways
(QS nodes over all nodes; and the QS nodes past the QS roots over all nodes,
the nodes QS adds: a search without QS visits the QS roots too, as leaves;
qs_below_horizon_share in --json), by ply, by QS ply (distance
from the QS root), by QS level (threshold variant) and by iteration, with the
effective branching factor of each iteration (its nodes over the previous
one's) and nodes^(1/depth); and an engine's nested searches (IID, singular
tests: a search of a node's own position) and their nodes by reason.`,
		"horizon stats sample.trace --run 1", "horizon stats sample.trace --json")
	run := runFlag(fs, "run `id`, or an EPD record's id for its runs ('horizon runs FILE' lists both)", "every run")
	asJSON := fs.Bool("json", false, "print JSON (an array, one object per run): nodes, qs_nodes, qs_share, max_ply and max_qs_ply are the search's,\nas in runs and trace; the recorded_ figures and the tables count the rows a recording filter kept")
	file, err := parseFileFlags(fs, args)
	if err != nil {
		return err
	}
	out, err := eachRun(e, file, run, func(st *trace.Store, r trace.Run) (statsJSON, error) {
		s, err := st.Stats(e.ctx, r.ID)
		if err != nil {
			return statsJSON{}, err
		}
		nested, err := trace.NestedStats(e.ctx, st, r.ID)
		// Empty tables are [] in JSON, not null.
		s.Plies, s.QSPlies, s.QSLevels, s.Iterations = orEmpty(s.Plies), orEmpty(s.QSPlies), orEmpty(s.QSLevels), orEmpty(s.Iterations)
		return statsJSON{Run: r.ID, Variant: r.Label(), Status: string(r.Status), StopCause: orNull(r.StopCause), SearchedNodes: r.Nodes, SearchedQSNodes: r.QSNodes,
			SearchedQSShare: r.QSShare(), SearchedMaxPly: r.MaxPly, SearchedMaxQSPly: r.MaxQSPly, Filter: orNull(r.Filter),
			Stats: s, Nested: nested, pathFiltered: r.PathFiltered(), firstNodes: r.FirstNodes(), filterText: r.FilterText()}, err
	})
	if err != nil {
		return err
	}
	return e.print(statsResult(out), formatOf(*asJSON, false))
}

func (res statsResult) writeText(w io.Writer) error {
	for _, j := range res {
		if err := j.writeText(w); err != nil {
			return err
		}
	}
	return nil
}

func (j statsJSON) writeText(w io.Writer) error {
	fmt.Fprintf(w, "run %d  variant %s  %s\n", j.Run, engine.Printable(j.Variant), engine.Printable(trace.StatusText(trace.Status(j.Status), cell(j.StopCause))))
	nodes := engine.Commas(j.Nodes)
	if j.SearchedNodes != j.Nodes {
		// Every count below is of the rows: say so, beside what was searched.
		nodes += " recorded (" + engine.Commas(j.SearchedNodes) + " searched"
		if j.Filter != nil {
			nodes += "; recording filter: " + j.filterText
		}
		nodes += ")"
	}
	fmt.Fprintf(w, "  nodes %s  QS nodes %s  QS roots %s  max ply %d  max QS ply %d\n",
		nodes, engine.Commas(j.QSNodes), engine.Commas(j.QSRoots), j.MaxPly, j.MaxQSPly)
	base := "nodes"
	if j.SearchedNodes != j.Nodes {
		// runs' and the viewer's QS% are of the nodes searched.
		base = "the nodes recorded"
	}
	fmt.Fprintf(w, "  QS share %s of %s; %s past the QS roots (the nodes QS adds: without QS the roots are leaves)\n",
		engine.Percent(j.QSShare), base, engine.Percent(j.QSBelowShare))
	if len(j.Iterations) > 0 { // a QS-only run has none
		tw := figureTable(w)
		fmt.Fprintln(tw, "  iteration\tnodes\tQS nodes\tEBF\tnodes^(1/d)\t")
		for _, it := range j.Iterations {
			iter := strconv.Itoa(it.Iteration)
			if it.Partial {
				iter += " (unfinished)"
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t\n", iter, engine.Commas(it.Nodes), engine.Commas(it.QSNodes), ratio(it.EBF), ratio(it.PlyEBF))
		}
		tw.Flush()
	}
	if j.pathFiltered {
		fmt.Fprintln(w, "  no EBF or nodes^(1/d): the recording filter kept only the nodes under a move path, not whole iterations")
	}
	if j.firstNodes > 0 {
		fmt.Fprintf(w, "  no EBF or nodes^(1/d) past the first %s nodes: the recording stopped there, the search went on (later iterations keep their roots only)\n", engine.Commas(j.firstNodes))
	}
	tw := figureTable(w)
	fmt.Fprintln(tw, "  ply\tnodes\tQS nodes\t")
	for _, p := range j.Plies {
		fmt.Fprintf(tw, "  %d\t%s\t%s\t\n", p.Ply, engine.Commas(p.Nodes), engine.Commas(p.QSNodes))
	}
	tw.Flush()
	for _, t := range []struct {
		name string
		rows []trace.LevelStat
	}{{"QS ply", j.QSPlies}, {"QS level", j.QSLevels}} {
		if len(t.rows) == 0 {
			continue
		}
		tw = figureTable(w)
		fmt.Fprintf(tw, "  %s\tnodes\t\n", t.name)
		for _, p := range t.rows {
			fmt.Fprintf(tw, "  %d\t%s\t\n", p.Level, engine.Commas(p.Nodes))
		}
		tw.Flush()
	}
	if len(j.Nested) > 0 {
		tw = figureTable(w)
		fmt.Fprintln(tw, "  nested search\tsearches\tnodes\t")
		for _, n := range j.Nested {
			fmt.Fprintf(tw, "  %s\t%s\t%s\t\n", engine.Printable(n.Reason), engine.Commas(n.Searches), engine.Commas(n.Nodes))
		}
		tw.Flush()
	}
	_, err := fmt.Fprintln(w)
	return err
}

// ratio prints a branching factor, "-" where there is none.
func ratio(f *float64) string {
	if f == nil {
		return "-"
	}
	return strconv.FormatFloat(*f, 'f', 2, 64)
}

// eachRun opens a trace for reading and returns what fn makes of the run
// asked for with --run, or of every run when run is 0, in order.
func eachRun[T any](e *env, file string, run *runRef, fn func(*trace.Store, trace.Run) (T, error)) ([]T, error) {
	st, runs, err := openRuns(e, file, run)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	out := []T{}
	for _, r := range runs {
		v, err := fn(st, r)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// orEmpty is s, or an empty slice for nil: a JSON [] instead of null.
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
