package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// statsJSON is a run's statistics in --json output.
type statsJSON struct {
	Run          int64           `json:"run"`
	Variant      string          `json:"variant"`
	Status       string          `json:"status"`
	Nodes        int64           `json:"nodes"`
	QSNodes      int64           `json:"qs_nodes"`
	QSRoots      int64           `json:"qs_roots"`
	QSShare      float64         `json:"qs_share"`
	QSBelowShare float64         `json:"qs_below_horizon_share"`
	MaxPly       int             `json:"max_ply"`
	MaxQSPly     int             `json:"max_qs_ply"`
	Plies        []plyJSON       `json:"plies"`
	QSPlies      []levelJSON     `json:"qs_plies"`
	QSLevels     []levelJSON     `json:"qs_levels"`
	Iterations   []iterationJSON `json:"iterations"`
}

type plyJSON struct {
	Ply     int   `json:"ply"`
	Nodes   int64 `json:"nodes"`
	QSNodes int64 `json:"qs_nodes"`
}

type levelJSON struct {
	Level int   `json:"level"`
	Nodes int64 `json:"nodes"`
}

type iterationJSON struct {
	Iteration int     `json:"iteration"`
	RootID    int64   `json:"root_id"`
	Nodes     int64   `json:"nodes"`
	QSNodes   int64   `json:"qs_nodes"`
	EBF       float64 `json:"ebf"`
	PlyEBF    float64 `json:"ply_ebf"`
}

// openRuns opens a trace for reading and returns the run asked for with
// --run, or every run when run is 0. The caller closes the store.
func openRuns(e *env, file string, run int64) (*trace.Store, []trace.Run, error) {
	if run < 0 {
		return nil, nil, usagef("--run %d: want a run id", run)
	}
	st, err := trace.OpenReadOnly(file)
	if err != nil {
		return nil, nil, err
	}
	var runs []trace.Run
	if run != 0 {
		var r trace.Run
		if r, err = st.Run(e.ctx, run); err == nil {
			runs = []trace.Run{r}
		}
	} else {
		runs, err = st.Runs(e.ctx)
	}
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	return st, runs, nil
}

func runStats(e *env, args []string) error {
	fs := newFlags(e, "stats", "FILE [--run N] [--json]",
		`Counts a run's nodes: in total and in QS, the QS share counted two ways
(QS nodes over all nodes; and QS nodes below the horizon, i.e. not counting the
QS roots a search without QS would also visit), by ply, by QS ply (distance
from the QS root), by QS level (threshold variant) and by iteration, with the
effective branching factor of each iteration (its nodes over the previous
one's) and nodes^(1/depth).`,
		"horizon stats sample.trace --run 1", "horizon stats sample.trace --json")
	run := fs.Int64("run", 0, "run id ('horizon runs FILE' lists them); 0 = every run")
	asJSON := fs.Bool("json", false, "print JSON (an array, one object per run)")
	file, err := parseFileFlags(fs, args)
	if err != nil {
		return err
	}
	st, runs, err := openRuns(e, file, *run)
	if err != nil {
		return err
	}
	defer st.Close()
	out := []statsJSON{}
	for _, r := range runs {
		s, err := st.Stats(e.ctx, r.ID)
		if err != nil {
			return err
		}
		j := statsJSON{Run: r.ID, Variant: r.Variant, Status: string(r.Status), Nodes: s.Nodes, QSNodes: s.QSNodes,
			QSRoots: s.QSRoots, QSShare: s.QSShare, QSBelowShare: s.QSBelowShare, MaxPly: s.MaxPly, MaxQSPly: s.MaxQSPly,
			Plies: []plyJSON{}, QSPlies: []levelJSON{}, QSLevels: []levelJSON{}, Iterations: []iterationJSON{}}
		for _, p := range s.Plies {
			j.Plies = append(j.Plies, plyJSON{p.Ply, p.Nodes, p.QSNodes})
		}
		for _, p := range s.QSPlies {
			j.QSPlies = append(j.QSPlies, levelJSON{p.Level, p.Nodes})
		}
		for _, p := range s.QSLevels {
			j.QSLevels = append(j.QSLevels, levelJSON{p.Level, p.Nodes})
		}
		for _, it := range s.Iterations {
			j.Iterations = append(j.Iterations, iterationJSON{it.Iteration, it.RootID, it.Nodes, it.QSNodes, it.EBF, it.PlyEBF})
		}
		out = append(out, j)
	}
	if *asJSON {
		return writeJSON(e.stdout, out)
	}
	for _, j := range out {
		printStats(e, j)
	}
	return nil
}

func printStats(e *env, j statsJSON) {
	w := e.stdout
	fmt.Fprintf(w, "run %d  variant %s  %s\n", j.Run, j.Variant, j.Status)
	fmt.Fprintf(w, "  nodes %s  QS nodes %s  QS roots %s  max ply %d  max QS ply %d\n",
		engine.Commas(j.Nodes), engine.Commas(j.QSNodes), engine.Commas(j.QSRoots), j.MaxPly, j.MaxQSPly)
	fmt.Fprintf(w, "  QS share %.1f%% of nodes; below the horizon %.1f%%\n", 100*j.QSShare, 100*j.QSBelowShare)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "  iteration\tnodes\tQS nodes\tEBF\tnodes^(1/d)\t")
	for _, it := range j.Iterations {
		fmt.Fprintf(tw, "  %d\t%s\t%s\t%.2f\t%.2f\t\n", it.Iteration, engine.Commas(it.Nodes), engine.Commas(it.QSNodes), it.EBF, it.PlyEBF)
	}
	tw.Flush()
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "  ply\tnodes\tQS nodes\t")
	for _, p := range j.Plies {
		fmt.Fprintf(tw, "  %d\t%s\t%s\t\n", p.Ply, engine.Commas(p.Nodes), engine.Commas(p.QSNodes))
	}
	tw.Flush()
	for _, t := range []struct {
		name string
		rows []levelJSON
	}{{"QS ply", j.QSPlies}, {"QS level", j.QSLevels}} {
		if len(t.rows) == 0 {
			continue
		}
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "  %s\tnodes\t\n", t.name)
		for _, p := range t.rows {
			fmt.Fprintf(tw, "  %d\t%s\t\n", p.Level, engine.Commas(p.Nodes))
		}
		tw.Flush()
	}
	fmt.Fprintln(w)
}
