package qsbench

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/horizonqs/horizon/engine"
)

// Variant is one QS configuration under test: a preset with switches.
type Variant struct {
	Spec    string // canonical spec, engine.VariantSpec(Options): the label everywhere
	Options engine.Options
}

// NewVariants labels options with their canonical specs.
func NewVariants(opts []engine.Options) []Variant {
	out := make([]Variant, len(opts))
	for i, o := range opts {
		out[i] = Variant{Spec: engine.VariantSpec(o), Options: o}
	}
	return out
}

// Config bounds a benchmark run.
type Config struct {
	Jobs      int   // positions searched at once
	NodeLimit int64 // a QS that reaches this many nodes is stopped and counted as such (0: none)
	// Repeat runs each QS this many times (at least once) and keeps the
	// fastest time: a single QS takes microseconds, and one preemption of
	// the thread would otherwise outweigh hundreds of them. Every
	// repetition must give the same score and node count.
	Repeat int
}

// Run is one variant's QS alone from one position.
type Run struct {
	Score    int           `json:"score"`      // centipawns for the side to move
	QSNodes  int64         `json:"qs_nodes"`   // QS nodes, the root included
	MaxQSPly int           `json:"max_qs_ply"` // deepest QS ply
	Stopped  bool          `json:"stopped"`    // cut by the node limit: Score is not a QS value
	Elapsed  time.Duration `json:"-"`
	PV       []string      `json:"pv"` // the QS line, SAN
}

// Results are a benchmark's runs, by position then variant, and which
// positions have all their variants done (all of them unless interrupted).
type Results struct {
	Variants  []Variant
	Set       []*Position
	Runs      [][]Run // [position][variant]
	Done      []bool  // [position]
	Completed int     // positions done
}

// Bench runs every variant's QS alone from every position of set, with an
// open window, jobs positions at a time. Each QS is single-threaded and
// deterministic, so every figure but the time is the same from run to run
// and for any number of jobs. When ctx is done the positions finished so
// far are kept (Done marks them) and ErrInterrupted is returned with them.
// done, if not nil, gets the count of positions finished.
func Bench(ctx context.Context, set []*Position, vs []Variant, cfg Config, done func(int)) (*Results, error) {
	r := &Results{Variants: vs, Set: set, Runs: make([][]Run, len(set)), Done: make([]bool, len(set))}
	// The engine stops a QS on entering its NodeLimit-th node, as it stops
	// a search at --nodes: a stopped QS counts NodeLimit nodes, a finished
	// one fewer. (It was NodeLimit+1, for a run node the engine does not
	// count: --max-qs-nodes 5 showed stopped runs of 6 QS nodes.)
	capped := engine.Limits{Nodes: cfg.NodeLimit}
	err := Parallel(ctx, len(set), cfg.Jobs, func() func(int) error {
		s := engine.NewSearcher(vs[0].Options)
		return func(i int) error {
			runs := make([]Run, len(vs))
			for vi, v := range vs {
				s.SetOptions(v.Options)
				lim := capped
				if v.Options.QSMoves == engine.QSNone {
					// No QS to run away: the one horizon node is a node
					// to the engine, and a cap of 1 would stop it.
					lim = engine.Limits{}
				}
				pos := set[i].Pos()
				var first engine.QSResult
				for rep := 0; rep < max(cfg.Repeat, 1); rep++ {
					q := s.Quiesce(ctx, pos, -engine.Infinity, engine.Infinity, lim, nil)
					if q.Stopped == engine.StopCancel {
						return ErrInterrupted
					}
					if rep == 0 {
						first = q
						continue
					}
					if q.Score != first.Score || q.QSNodes != first.QSNodes {
						return fmt.Errorf("%s: %s gave %d in %d nodes, then %d in %d: the QS is not deterministic",
							set[i].ID, v.Spec, first.Score, first.QSNodes, q.Score, q.QSNodes)
					}
					first.Elapsed = min(first.Elapsed, q.Elapsed)
				}
				runs[vi] = Run{Score: int(first.Score), QSNodes: first.QSNodes, MaxQSPly: first.MaxQSPly,
					Stopped: first.Stopped != engine.StopNone, Elapsed: first.Elapsed, PV: sanLine(pos, first.PV)}
			}
			r.Runs[i], r.Done[i] = runs, true
			return nil
		}
	}, done)
	for _, d := range r.Done {
		if d {
			r.Completed++
		}
	}
	return r, err
}

// Clamp bounds scores before errors are taken: a mate and a lead of
// fifteen pawns are equally decisive, and one mate score must not swamp a
// mean error.
const Clamp = 1500

// SignMargin is how far from zero both values must be for a sign error: one
// says the side to move wins by at least this, the other that it loses by
// at least this.
const SignMargin = 100

// ErrorStats measure a variant's values against one oracle.
type ErrorStats struct {
	Oracle     string  `json:"oracle"`
	Positions  int     `json:"positions"` // with a value from this oracle
	MAE        float64 `json:"mae_cp"`
	Off100     float64 `json:"off_100"` // share of positions off by more than 100 cp
	Off300     float64 `json:"off_300"`
	SignErrors int     `json:"sign_errors"`
	Bias       float64 `json:"bias_cp"` // mean of QS - oracle: positive when the QS is optimistic
}

// MarshalJSON gives the figures over no position as null, not 0, as the
// text gives "-": a variant with no compared position has no error, rather
// than none.
func (s ErrorStats) MarshalJSON() ([]byte, error) {
	type plain ErrorStats
	if s.Positions > 0 {
		return json.Marshal(plain(s))
	}
	return json.Marshal(struct {
		plain
		MAE        *float64 `json:"mae_cp"`
		Off100     *float64 `json:"off_100"`
		Off300     *float64 `json:"off_300"`
		SignErrors *int     `json:"sign_errors"`
		Bias       *float64 `json:"bias_cp"`
	}{plain: plain(s)})
}

// Summary is one variant's figures. Positions and Stopped count every
// position done; every other figure is over the Compared positions, those
// that every variant finished (all positions done unless the node limit
// stopped a QS): a stopped QS has no value, and its node count is the
// limit's, so figures over each variant's own finished positions would
// set variants against each other on different positions.
type Summary struct {
	Variant      string         `json:"variant"`
	Options      engine.Options `json:"-"` // every switch; the command's --json writes it as an object
	Positions    int            `json:"positions"`
	Stopped      int            `json:"stopped_count"` // this variant's QS runs cut by the node limit
	Compared     int            `json:"compared"`      // positions every variant finished: the figures below are over them
	QSNodesMean  float64        `json:"qs_nodes_mean"`
	QSNodesP90   int64          `json:"qs_nodes_p90"`
	QSNodesMax   int64          `json:"qs_nodes_max"`
	QSNodesTotal int64          `json:"qs_nodes_total"`
	MaxQSPly     int            `json:"max_qs_ply"`
	TimeMS       float64        `json:"time_ms"` // summed over positions, single-threaded
	TimeUSMean   float64        `json:"time_us_mean"`
	Error        ErrorStats     `json:"error"`
	Second       *ErrorStats    `json:"second_oracle"` // null without a second oracle
	Pareto       bool           `json:"pareto"`        // on the Pareto front (ParetoRule; none when Compared is 0)
}

// Compared reports, by position, whether every variant finished its QS
// there: the positions Summarize takes its figures over.
func (r *Results) Compared() []bool {
	out := make([]bool, len(r.Done))
	for pi, ok := range r.Done {
		out[pi] = ok && !slices.ContainsFunc(r.Runs[pi], func(run Run) bool { return run.Stopped })
	}
	return out
}

// Summarize computes each variant's figures over the positions every
// variant finished (see Summary). second, if not nil, holds a second
// oracle's values by position index (invalid where it has none).
func Summarize(r *Results, second []Oracle) []Summary {
	compared := r.Compared()
	out := make([]Summary, len(r.Variants))
	for vi, v := range r.Variants {
		s := &out[vi]
		s.Variant, s.Options = v.Spec, v.Options
		var nodes []int64
		var el time.Duration
		e1 := errAcc{}
		e2 := errAcc{}
		for pi, ok := range r.Done {
			if !ok {
				continue
			}
			run := r.Runs[pi][vi]
			s.Positions++
			if run.Stopped {
				s.Stopped++
			}
			// The oracles are named whether or not a position is
			// compared: with none, the figures are missing, not the
			// oracle.
			if o := r.Set[pi].Oracle; o.Valid() {
				e1.name = o.Name
			}
			if second != nil && second[pi].Valid() {
				e2.name = second[pi].Name
			}
			if !compared[pi] {
				continue
			}
			nodes = append(nodes, run.QSNodes)
			s.QSNodesTotal += run.QSNodes
			s.MaxQSPly = max(s.MaxQSPly, run.MaxQSPly)
			el += run.Elapsed
			if o := r.Set[pi].Oracle; o.Valid() {
				e1.add(run.Score, o)
			}
			if second != nil && second[pi].Valid() {
				e2.add(run.Score, second[pi])
			}
		}
		s.Compared = len(nodes)
		if len(nodes) > 0 {
			slices.Sort(nodes)
			s.QSNodesMean = float64(s.QSNodesTotal) / float64(len(nodes))
			s.QSNodesP90 = nodes[int(math.Ceil(0.9*float64(len(nodes))))-1]
			s.QSNodesMax = nodes[len(nodes)-1]
			s.TimeMS = float64(el.Microseconds()) / 1e3
			s.TimeUSMean = float64(el.Microseconds()) / float64(len(nodes))
		}
		s.Error = e1.stats()
		if second != nil {
			st := e2.stats()
			s.Second = &st
		}
	}
	markPareto(out)
	return out
}

// ParetoRule says which variants are on the Pareto front, in the words
// every output uses (the table, --help, the plot's legend): markPareto's
// rule. A variant tied with another on MAE and costlier is off the front,
// which "no other has both fewer nodes and a lower MAE" did not say.
const ParetoRule = "no other variant has as few mean QS nodes and as low an MAE, and fewer or lower in one"

// markPareto sets Pareto on the summaries no other dominates
// (ParetoRule): none has as few mean QS nodes and as low an MAE and is not
// equal on both. With no position compared there are no figures to beat
// or be beaten on.
func markPareto(sums []Summary) {
	for i := range sums {
		sums[i].Pareto = sums[i].Compared > 0
		for j := range sums {
			a, b := &sums[i], &sums[j]
			if i != j && b.QSNodesMean <= a.QSNodesMean && b.Error.MAE <= a.Error.MAE &&
				(b.QSNodesMean < a.QSNodesMean || b.Error.MAE < a.Error.MAE) {
				a.Pareto = false
			}
		}
	}
}

// PositionError is one position's error for one variant.
type PositionError struct {
	Position *Position
	Run      Run
	Error    int // |clamped QS - clamped oracle|
}

// Worst returns the n positions with the largest error for variant vi,
// largest first; ties go to the earlier position. Runs stopped by the node
// limit have no error and are left out: see StoppedRuns.
func Worst(r *Results, vi, n int) []PositionError {
	var all []PositionError
	for pi, ok := range r.Done {
		if !ok || !r.Set[pi].Oracle.Valid() || r.Runs[pi][vi].Stopped {
			continue
		}
		run := r.Runs[pi][vi]
		all = append(all, PositionError{Position: r.Set[pi], Run: run, Error: absErr(run.Score, r.Set[pi].Oracle.Score)})
	}
	slices.SortStableFunc(all, func(a, b PositionError) int { return b.Error - a.Error })
	return all[:min(n, len(all))]
}

// StoppedRuns returns up to n of variant vi's runs stopped by the node
// limit, in set order (Error is 0: they have no value to take it from).
func StoppedRuns(r *Results, vi, n int) []PositionError {
	var out []PositionError
	for pi, ok := range r.Done {
		if len(out) == n {
			break
		}
		if ok && r.Runs[pi][vi].Stopped {
			out = append(out, PositionError{Position: r.Set[pi], Run: r.Runs[pi][vi]})
		}
	}
	return out
}

func clamp(v int) int { return max(-Clamp, min(Clamp, v)) }

func absErr(qs, oracle int) int {
	d := clamp(qs) - clamp(oracle)
	if d < 0 {
		return -d
	}
	return d
}

type errAcc struct {
	name              string
	n, off100, off300 int
	sign              int
	sumAbs, sumSigned int64
}

func (a *errAcc) add(qs int, o Oracle) {
	a.name = o.Name
	a.n++
	d := clamp(qs) - clamp(o.Score)
	a.sumSigned += int64(d)
	ad := absErr(qs, o.Score)
	a.sumAbs += int64(ad)
	if ad > 100 {
		a.off100++
	}
	if ad > 300 {
		a.off300++
	}
	if (qs >= SignMargin && o.Score <= -SignMargin) || (qs <= -SignMargin && o.Score >= SignMargin) {
		a.sign++
	}
}

func (a *errAcc) stats() ErrorStats {
	s := ErrorStats{Oracle: a.name, Positions: a.n, SignErrors: a.sign}
	if a.n > 0 {
		s.MAE = float64(a.sumAbs) / float64(a.n)
		s.Bias = float64(a.sumSigned) / float64(a.n)
		s.Off100 = float64(a.off100) / float64(a.n)
		s.Off300 = float64(a.off300) / float64(a.n)
	}
	return s
}
