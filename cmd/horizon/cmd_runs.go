package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// runJSON is a run in --json output: its row of the runs table, with
// the facts every command that prints a run gives (trace.RunFacts).
type runJSON struct {
	ID      int64           `json:"id"`
	Created string          `json:"created"`
	Options json.RawMessage `json:"options"` // the stored object, typed values
	Limits  json.RawMessage `json:"limits"`
	trace.RunFacts
	FailHard bool     `json:"fail_hard"`
	Version  string   `json:"version"`
	PV       []string `json:"pv"`
}

// scoreText is a run's score in the text of runs, trace and diff: signed,
// with its bound in words (trace.BoundWord) when it is only a bound.
func scoreText(sf engine.ScoreFormat, score engine.Score, bound string) string {
	if bound == "" {
		return sf.Signed(score)
	}
	return sf.Signed(score) + " (" + bound + " bound)"
}

func newRunJSON(r trace.Run, bound engine.Bound) runJSON {
	pv := r.PV
	if pv == nil {
		pv = []string{}
	}
	return runJSON{ID: r.ID, Created: r.Created.Format("2006-01-02T15:04:05Z07:00"), Options: r.OptionsObject(), Limits: r.LimitsObject(),
		RunFacts: r.Facts(bound), FailHard: r.FailHard, Version: r.Version, PV: pv}
}

// orNull is s for JSON (a best move, a stop cause), null when it is empty.
func orNull(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func runRuns(e *env, args []string) error {
	fs := newFlags(e, "runs", "FILE [--json]",
		`Lists the runs in a trace file: id, variant, status, what stopped it,
depth reached, nodes, QS share, best move (SAN; best_move in UCI and best_san
in --json), score and position (its FEN, after the id of its EPD record for a
run of trace --epd). For a run still recorded or
abandoned, nodes are the rows committed, and depth, best and score those of
the last iteration they finish; the score is blank until an iteration
finishes. Another engine's score that is only a bound says so ("+40 (lower
bound)"; score_bound in --json, null when exact): an MTD search ends on a fail-high probe.
A run's status is one of:
`+trace.StatusHelp("  ")+`A truncated or interrupted run's STOP (stop_cause in --json) says what
stopped it: nodes (a node limit), time, size (--max-size), cancel (Ctrl-C, a
signal, a UCI stop), abort or stream (another engine's); "-" (null) when none,
and for runs of files written before Horizon kept it (schema version 5).
`,
		"horizon runs sample.trace", "horizon runs sample.trace --json")
	asJSON := fs.Bool("json", false, "print JSON (an array of runs)")
	file, err := parseFileFlags(fs, args)
	if err != nil {
		return err
	}
	st, err := trace.OpenSnapshot(e.ctx, file) // the runs and their bounds of one state
	if err != nil {
		return err
	}
	defer st.Close()
	runs, err := st.Runs(e.ctx)
	if err != nil {
		return err
	}
	res := runsResult{file: file, runs: runs, bounds: make([]engine.Bound, len(runs))}
	for i, r := range runs {
		if res.bounds[i], err = st.ScoreBound(e.ctx, r.ID); err != nil {
			return err
		}
	}
	return e.print(res, formatOf(*asJSON, false))
}

// runsResult is 'horizon runs': the runs of a file, and the bound of each
// one's score (trace.Store.ScoreBound).
type runsResult struct {
	file   string
	runs   []trace.Run
	bounds []engine.Bound
}

// MarshalJSON writes the runs as an array of runJSON.
func (res runsResult) MarshalJSON() ([]byte, error) {
	out := []runJSON{}
	for i, r := range res.runs {
		out = append(out, newRunJSON(r, res.bounds[i]))
	}
	return json.Marshal(out)
}

func (res runsResult) writeText(w io.Writer) error {
	if len(res.runs) == 0 {
		_, err := fmt.Fprintf(w, "%s holds no runs\n", engine.Printable(res.file))
		return err
	}
	tw := textTable(w)
	fmt.Fprintln(tw, "run\tvariant\tstatus\tstop\tdepth\tnodes\tqs%\tbest\tscore\tposition") // lower case, as every other table
	for i, r := range res.runs {
		share := 100 * r.QSShare()
		status := string(r.Status)
		if r.Filter != "" {
			status += " (" + r.FilterText() + ")"
		}
		score := ""
		if r.Scored() {
			score = scoreText(r.ResultScores(), engine.Score(r.Score), trace.BoundWord(res.bounds[i]))
		}
		stop := r.StopCause
		if stop == "" {
			stop = "-"
		}
		best := r.BestSAN()
		if best == "" {
			best = r.BestMove
		}
		// Every word from the file is made Printable: a tab or newline in
		// one would break the table, an escape sequence the terminal.
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%d\t%s\t%.1f\t%s\t%s\t%s\n", r.ID, engine.Printable(r.Label()), engine.Printable(status),
			engine.Printable(stop), r.Depth, engine.Commas(r.Nodes), share, engine.Printable(best), score, engine.Printable(r.Position()))
	}
	return tw.Flush()
}
