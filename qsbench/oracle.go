package qsbench

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/horizonqs/horizon/engine"
)

// OracleSpec is the variant the oracle's search uses at its horizon: the
// strongest QS Horizon has, with the same evaluation as every variant, so
// that an error measures what a QS misses and not an evaluation
// difference. It is see (every capture and promotion, evasions in check,
// quiet checks at the first QS ply) with nothing pruned: no SEE and no
// delta pruning.
const OracleSpec = "see+see-prune=false+delta=false"

// OracleDepth is the full-width depth of the committed oracle (see
// testdata/README.md for what it costs).
const OracleDepth = 7

// OracleOptions returns the options of the oracle's search.
func OracleOptions() engine.Options {
	o, err := engine.ParseVariantSpec(OracleSpec)
	if err != nil {
		panic(err) // a constant: a test parses it
	}
	return o
}

// OracleName is the oracle opcode's value for a Horizon search with o.
func OracleName(o engine.Options) string { return "horizon " + engine.VariantSpec(o) }

// HorizonOracle searches p at depth with o and returns its value as an
// oracle: the score for the side to move, the depth, the nodes and the PV.
func HorizonOracle(ctx context.Context, s *engine.Searcher, p *Position, depth int) (Oracle, error) {
	pos := p.Pos()
	res := s.Search(ctx, pos, engine.Limits{Depth: depth}, nil)
	if res.Stopped != engine.StopNone || res.Depth != depth {
		if ctx.Err() != nil {
			return Oracle{}, ErrInterrupted
		}
		return Oracle{}, fmt.Errorf("%s: the search stopped at depth %d (%s)", p.ID, res.Depth, res.Stopped)
	}
	return Oracle{Name: OracleName(s.Options()), Score: int(res.Score), Depth: depth, Nodes: res.Stats.Nodes,
		PV: sanLine(pos, res.PV)}, nil
}

// sanLine writes a move sequence from pos in SAN, leaving pos as it was.
func sanLine(pos *engine.Position, moves []engine.Move) []string {
	out := make([]string, 0, len(moves))
	for _, m := range moves {
		out = append(out, pos.SAN(m))
		pos.MakeMove(m)
	}
	for range moves {
		pos.UnmakeMove()
	}
	return out
}

// ComputeOracles values every position of set with a Horizon search at
// depth with o, jobs positions at a time, and stores the values in the set
// only when all are done (an interrupted run changes nothing). done(n)
// reports positions finished.
func ComputeOracles(ctx context.Context, set []*Position, o engine.Options, depth, jobs int, done func(int)) error {
	vals := make([]Oracle, len(set))
	err := Parallel(ctx, len(set), jobs, func() func(int) error {
		s := engine.NewSearcher(o)
		return func(i int) error {
			v, err := HorizonOracle(ctx, s, set[i], depth)
			vals[i] = v
			return err
		}
	}, done)
	if err != nil {
		return err
	}
	for i := range set {
		set[i].Oracle = vals[i]
	}
	return nil
}

// Parallel calls the work function of one of jobs workers for every index
// in [0, n), in index order per worker, stopping at the first error or when
// ctx is done. Each worker makes its own work function (its own searcher).
// done, if not nil, gets the count of indexes finished.
func Parallel(ctx context.Context, n, jobs int, worker func() func(int) error, done func(int)) error {
	var next, finished atomic.Int64
	var mu sync.Mutex
	var firstErr error
	var wg sync.WaitGroup
	for w := 0; w < max(1, min(jobs, n)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work := worker()
			for {
				i := int(next.Add(1) - 1)
				mu.Lock()
				stop := firstErr != nil
				mu.Unlock()
				if i >= n || stop || ctx.Err() != nil {
					return
				}
				if err := work(i); err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
					return
				}
				if done != nil {
					done(int(finished.Add(1)))
				}
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	if ctx.Err() != nil {
		return ErrInterrupted
	}
	return nil
}

// ErrInterrupted is returned when the context stopped the work early.
var ErrInterrupted = errors.New("interrupted")
