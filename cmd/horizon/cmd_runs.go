package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// runJSON is a run in --json output.
type runJSON struct {
	ID         int64           `json:"id"`
	Created    string          `json:"created"`
	FEN        string          `json:"fen"`
	EPDID      *string         `json:"epd_id"` // the id of the EPD record searched; null when none (trace.Run.EPDID)
	Variant    string          `json:"variant"`
	Options    json.RawMessage `json:"options"` // the stored object, typed values
	Limits     json.RawMessage `json:"limits"`
	Engine     string          `json:"engine"` // "" for Horizon's own engine
	FailHard   bool            `json:"fail_hard"`
	Version    string          `json:"version"`
	Status     string          `json:"status"`
	StopCause  *string         `json:"stop_cause"` // what stopped a truncated or interrupted run (trace.Run.StopCause); null when none or not kept (files before schema 5)
	Filter     string          `json:"filter,omitempty"`
	Nodes      int64           `json:"nodes"`
	QSNodes    int64           `json:"qs_nodes"`
	Rows       int64           `json:"rows"`
	MaxPly     int             `json:"max_ply"`
	MaxQSPly   int             `json:"max_qs_ply"`
	ElapsedMS  *int64          `json:"elapsed_ms"`            // null while recorded, after the recorder died, or when another engine's stream gave no time (trace.Run.ElapsedKnown)
	BestMove   *string         `json:"best_move"`             // UCI; null when none (no iteration finished)
	BestSAN    *string         `json:"best_san"`              // SAN, as the text gives it (trace.Run.BestSAN); null when none or unreadable
	Score      *int            `json:"score"`                 // null when no iteration finished
	ScoreBound string          `json:"score_bound,omitempty"` // "lower" or "upper" when the score is only a bound (another engine's run); absent when exact
	PV         []string        `json:"pv"`
	Depth      int             `json:"depth"`
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
	var score *int
	var bw string
	if r.Scored() {
		score, bw = &r.Score, trace.BoundWord(bound)
	}
	return runJSON{ID: r.ID, ElapsedMS: r.ElapsedMS(), Created: r.Created.Format("2006-01-02T15:04:05Z07:00"), FEN: r.FEN, EPDID: r.EPDIDOrNil(), Variant: r.Label(),
		Options: r.OptionsObject(), Limits: r.LimitsObject(), Engine: r.Engine, FailHard: r.FailHard, Version: r.Version, Status: string(r.Status), StopCause: orNull(r.StopCause), Filter: r.Filter,
		Nodes: r.Nodes, QSNodes: r.QSNodes, Rows: r.Rows, MaxPly: r.MaxPly, MaxQSPly: r.MaxQSPly,
		BestMove: orNull(r.BestMove), BestSAN: orNull(r.BestSAN()), Score: score, ScoreBound: bw, PV: pv, Depth: r.Depth}
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
bound)"; score_bound in --json): an MTD search ends on a fail-high probe.
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
	st, err := trace.OpenReadOnly(file)
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
		_, err := fmt.Fprintf(w, "%s holds no runs\n", res.file)
		return err
	}
	tw := textTable(w)
	fmt.Fprintln(tw, "RUN\tVARIANT\tSTATUS\tSTOP\tDEPTH\tNODES\tQS%\tBEST\tSCORE\tPOSITION")
	for i, r := range res.runs {
		share := 100 * r.QSShare()
		status := string(r.Status)
		if r.Filter != "" {
			status += " (" + r.Filter + ")"
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
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%d\t%s\t%.1f\t%s\t%s\t%s\n", r.ID, r.Label(), status, stop, r.Depth, engine.Commas(r.Nodes),
			share, best, score, r.Position())
	}
	return tw.Flush()
}
