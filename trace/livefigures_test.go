package trace

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/horizonqs/horizon/engine"
)

const cutFEN = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

// pauseAt is a recorder whose search stops for good before its at-th node,
// as if the recorder's process had died there: the writer commits what was
// handed off and nothing more comes.
type pauseAt struct {
	*Recorder
	n, at  int
	paused chan struct{}
	resume chan struct{}
}

func (p *pauseAt) Enter(e engine.EnterInfo) {
	if p.n++; p.n == p.at {
		close(p.paused)
		<-p.resume
	}
	p.Recorder.Enter(e)
}

// Issue 6: an abandoned run had four node counts (runs.nodes, runs.rows,
// the rows in the file, the stats' nodes), depth 0 and score 0 although
// iterations had finished. A run cut off mid-search reads one count, and
// the depth, score and best move of the last iteration its committed rows
// finish; none before the first finishes.
func TestCutOffRunFiguresAgree(t *testing.T) {
	for _, tc := range []struct {
		name      string
		at, batch int
	}{{"in iteration 1", 40, 16}, {"iterations finished", 30000, 512}} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			path := filepath.Join(t.TempDir(), "cut.trace")
			w, err := Create(path)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			o, _ := engine.VariantOptions("captures")
			o.TT = false
			rec, err := w.NewRecorder(ctx, RunInfo{FEN: cutFEN, Variant: "captures", Options: o.String()}, RecordOptions{BatchRows: tc.batch})
			if err != nil {
				t.Fatal(err)
			}
			p := &pauseAt{Recorder: rec, at: tc.at, paused: make(chan struct{}), resume: make(chan struct{})}
			done := make(chan engine.Result)
			go func() {
				done <- engine.NewSearcher(o).Search(rec.Context(), engine.MustParseFEN(cutFEN), engine.Limits{Depth: 5}, p)
			}()
			<-p.paused
			defer func() {
				cancel() // the rest of the search is not needed
				close(p.resume)
				rec.FinishSearch(<-done)
			}()
			r, err := OpenReadOnly(path)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			// The writer may still be committing the batches handed off:
			// wait until the run's rows stop changing.
			var run Run
			for last, still := int64(-1), 0; still < 5; time.Sleep(50 * time.Millisecond) {
				if run, err = r.Run(ctx, rec.RunID()); err != nil {
					t.Fatal(err)
				}
				if run.Rows == last {
					still++
				} else {
					last, still = run.Rows, 0
				}
			}
			var inFile int64
			if err := r.db.QueryRow("SELECT COUNT(*) FROM node_rows WHERE run_id = ?", run.ID).Scan(&inFile); err != nil {
				t.Fatal(err)
			}
			st, err := r.Stats(ctx, run.ID)
			if err != nil {
				t.Fatal(err)
			}
			// Every row but the run node's is a position the search visited.
			if run.Nodes+1 != run.Rows || inFile != run.Rows || st.Nodes != run.Nodes {
				t.Errorf("node counts disagree: runs.nodes %d, runs.rows %d, rows in the file %d, stats %d",
					run.Nodes, run.Rows, inFile, st.Nodes)
			}
			var sum int64
			for _, i := range st.Iterations {
				sum += i.Nodes
			}
			if sum != run.Rows-1 { // all but the run node
				t.Errorf("iterations count %d nodes, the run %d rows (the run node aside)", sum, run.Rows-1)
			}
			// The answer: the last iteration root the rows finish.
			roots, err := r.Children(ctx, run.ID, 0, BySearch, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			var want *Node
			for i := range roots {
				if n := &roots[i]; n.Kind == engine.KindRoot && !n.Incomplete && !n.Open && (want == nil || n.Iteration > want.Iteration) {
					want = n
				}
			}
			switch {
			case want == nil && (run.Depth != 0 || run.Scored()):
				t.Errorf("no iteration finished, yet depth %d, scored %v (score %d)", run.Depth, run.Scored(), run.Score)
			case want != nil && (run.Depth != want.Iteration || !run.Scored() || run.Score != int(want.Score) || run.BestMove != want.Best.UCI()):
				t.Errorf("run: depth %d score %d (scored %v) best %q; the rows finish iteration %d: score %d best %s",
					run.Depth, run.Score, run.Scored(), run.BestMove, want.Iteration, want.Score, want.Best.UCI())
			case tc.at > 1000 && want == nil:
				t.Errorf("no iteration finished in %d nodes", tc.at)
			}
		})
	}
}
