package qsbench

import (
	"context"
	"math"
	"testing"

	"github.com/horizonqs/horizon/engine"
)

const committedSet = "data/qsbench.epd"

func readCommitted(t *testing.T) []*Position {
	t.Helper()
	set, err := ReadFile(context.Background(), committedSet)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range set {
		if !p.Oracle.Valid() {
			t.Fatalf("%s: %s has no oracle value", committedSet, p.ID)
		}
	}
	return set
}

// The committed set is what its header says: at least 1,000 distinct
// horizon positions, the stated mix, one oracle for all.
func TestCommittedSet(t *testing.T) {
	set := readCommitted(t)
	if len(set) < 1000 {
		t.Errorf("%d positions, want at least 1,000", len(set))
	}
	seen := map[string]string{}
	classes := map[string]int{}
	for _, p := range set {
		if prev, dup := seen[p.FEN]; dup {
			t.Errorf("%s repeats %s: %s", p.ID, prev, p.FEN)
		}
		seen[p.FEN] = p.ID
		classes[p.Class]++
		if got := Classify(p.Pos()); got != p.Class {
			t.Errorf("%s: class %s, but Classify says %s", p.ID, p.Class, got)
		}
		if p.Oracle.Name != set[0].Oracle.Name || p.Oracle.Depth != set[0].Oracle.Depth {
			t.Errorf("%s: oracle %s depth %d, but %s's is %s depth %d", p.ID, p.Oracle.Name, p.Oracle.Depth,
				set[0].ID, set[0].Oracle.Name, set[0].Oracle.Depth)
		}
	}
	if classes[Quiet] != 600 || classes[Tactical] != 600 {
		t.Errorf("classes %v, want 600 quiet and 600 tactical (testdata/README.md)", classes)
	}
	if want := OracleName(OracleOptions()); set[0].Oracle.Name != want || set[0].Oracle.Depth != OracleDepth {
		t.Errorf("oracle %q depth %d, want %q depth %d", set[0].Oracle.Name, set[0].Oracle.Depth, want, OracleDepth)
	}
}

// The stored oracle values are what the named oracle computes, and a deeper
// search of the same positions, independent of the stored ones, agrees.
func TestOracleValues(t *testing.T) {
	if testing.Short() {
		t.Skip("deep searches; skipped with -short")
	}
	set := readCommitted(t)
	ctx := context.Background()
	s := engine.NewSearcher(OracleOptions())
	// A handful spread over the file, quiet and tactical, no mates: from
	// each quarter of the file the position of its class whose oracle
	// search came nearest to 20,000 nodes. The records are made and read
	// one way, so a middling tree checks that as well as the biggest; the
	// test's cost is these searches, and the records taken at a fixed
	// stride (up to 920,000 nodes, and their deeper searches without a
	// hash table) made it most of the package's.
	const target = 20_000
	dist := func(p *Position) float64 { return math.Abs(math.Log(float64(p.Oracle.Nodes+1) / target)) }
	checked := 0
	for q := 0; q < 4; q++ {
		class := []string{Quiet, Tactical}[q%2]
		var p *Position
		for _, c := range set[q*len(set)/4 : (q+1)*len(set)/4] {
			if c.Class == class && !engine.Score(c.Oracle.Score).IsMate() && (p == nil || dist(c) < dist(p)) {
				p = c
			}
		}
		if p == nil {
			continue
		}
		checked++
		again, err := HorizonOracle(ctx, s, p, p.Oracle.Depth)
		if err != nil {
			t.Fatal(err)
		}
		if again.Score != p.Oracle.Score || again.Nodes != p.Oracle.Nodes {
			t.Errorf("%s: stored ce %d (acn %d), recomputed %d (%d nodes); if the search changed on purpose, "+
				"regenerate: horizon qsbench oracle --epd qsbench/data/qsbench.epd", p.ID, p.Oracle.Score, p.Oracle.Nodes, again.Score, again.Nodes)
		}
		// Independent: a fresh searcher, one ply deeper, no hash table
		// (so no value is grafted from another part of the tree).
		o := OracleOptions()
		o.TT = false
		deeper := engine.NewSearcher(o).Search(ctx, p.Pos(), engine.Limits{Depth: p.Oracle.Depth + 1}, nil)
		// Compared as errors are taken: beyond ±Clamp all leads are decisive.
		if d := ClampedError(int(deeper.Score), p.Oracle.Score); d > 100 {
			t.Errorf("%s (%s): oracle %d at depth %d, a depth-%d search without the hash table says %d",
				p.ID, p.Class, p.Oracle.Score, p.Oracle.Depth, p.Oracle.Depth+1, deeper.Score)
		}
	}
	if checked == 0 {
		t.Fatal("no position checked")
	}
}

// A variant whose QS is the static evaluation scores worst, and every
// figure but the time is the same for any number of jobs.
func TestBench(t *testing.T) {
	set := readCommitted(t)
	n := 400
	if testing.Short() {
		n = 150
	}
	set = set[:n]
	opts, err := engine.ParseVariantSpecs("none,captures,recapture,threshold,see,see+qs-checks=false")
	if err != nil {
		t.Fatal(err)
	}
	vs := NewVariants(opts)
	ctx := context.Background()
	r1, err := Bench(ctx, set, vs, Config{Jobs: 1, NodeLimit: 2_000_000}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := Bench(ctx, set, vs, Config{Jobs: 3, NodeLimit: 2_000_000}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r1.Completed != n || r2.Completed != n {
		t.Fatalf("completed %d and %d of %d", r1.Completed, r2.Completed, n)
	}
	for pi := range set {
		for vi := range vs {
			a, b := r1.Runs[pi][vi], r2.Runs[pi][vi]
			if a.Score != b.Score || a.QSNodes != b.QSNodes || a.MaxQSPly != b.MaxQSPly || a.Stopped != b.Stopped {
				t.Fatalf("%s %s: jobs 1 gives %+v, jobs 3 %+v", set[pi].ID, vs[vi].Spec, a, b)
			}
		}
	}
	sums := Summarize(r1, nil)
	worst := 0
	for i, s := range sums {
		t.Logf("%-22s nodes %7.1f  MAE %6.1f  >300 %.3f", s.Variant, s.QSNodesMean, s.Error.MAE, s.Error.Off300)
		if s.Error.MAE > sums[worst].Error.MAE {
			worst = i
		}
		if s.Positions != n || s.Error.Positions != n {
			t.Errorf("%s: %d positions, %d with errors, want %d", s.Variant, s.Positions, s.Error.Positions, n)
		}
	}
	if sums[worst].Variant != "none" {
		t.Errorf("worst MAE is %s's, want none's", sums[worst].Variant)
	}
	for _, s := range sums[1:] {
		if s.Error.MAE >= sums[0].Error.MAE || s.Error.Off300 >= sums[0].Error.Off300 {
			t.Errorf("%s (MAE %.1f, >300 %.3f) is not better than none (%.1f, %.3f)", s.Variant, s.Error.MAE,
				s.Error.Off300, sums[0].Error.MAE, sums[0].Error.Off300)
		}
	}
	if sums[0].QSNodesMax != 0 {
		t.Errorf("none searched %d QS nodes somewhere, want none anywhere (it has no QS)", sums[0].QSNodesMax)
	}
}

// An interrupted run keeps the positions it finished, all variants of each.
func TestBenchInterrupted(t *testing.T) {
	set := readCommitted(t)[:50]
	vs := NewVariants([]engine.Options{OracleOptions()})
	ctx, cancel := context.WithCancel(context.Background())
	r, err := Bench(ctx, set, vs, Config{Jobs: 1}, func(n int) {
		if n == 10 {
			cancel()
		}
	})
	if err != ErrInterrupted {
		t.Fatalf("err = %v, want ErrInterrupted", err)
	}
	if r.Completed != 10 {
		t.Errorf("completed %d, want 10", r.Completed)
	}
	for pi, d := range r.Done {
		if d != (pi < 10) {
			t.Errorf("position %d done = %v", pi, d)
		}
	}
	if s := Summarize(r, nil); s[0].Positions != 10 {
		t.Errorf("summary over %d positions, want 10", s[0].Positions)
	}
}

// A QS stopped by the node limit has no value: it is counted as stopped
// and left out of the error figures and the worst list, and StoppedRuns
// names it.
func TestBenchStoppedRuns(t *testing.T) {
	set := readCommitted(t)[:40]
	vs := NewVariants([]engine.Options{OracleOptions()})
	r, err := Bench(context.Background(), set, vs, Config{Jobs: 1, NodeLimit: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	stopped := 0
	for pi := range set {
		if r.Runs[pi][0].Stopped {
			stopped++
		}
	}
	if stopped == 0 || stopped == len(set) {
		t.Fatalf("%d of %d runs stopped at 3 nodes; the test wants some of each", stopped, len(set))
	}
	s := Summarize(r, nil)[0]
	if s.Stopped != stopped || s.Positions != len(set) || s.Error.Positions != len(set)-stopped {
		t.Errorf("stopped %d (want %d), positions %d, with errors %d (want %d)", s.Stopped, stopped, s.Positions,
			s.Error.Positions, len(set)-stopped)
	}
	for _, w := range Worst(r, 0, len(set)) {
		if w.Run.Stopped {
			t.Errorf("%s: a stopped run in the worst list (error %d)", w.Position.ID, w.Error)
		}
	}
	if got := StoppedRuns(r, 0, len(set)); len(got) != stopped || !got[0].Run.Stopped {
		t.Errorf("StoppedRuns gave %d, want %d", len(got), stopped)
	}
}

// The node limit is a cap on the QS's nodes: a stopped QS counts exactly
// NodeLimit (it counted one more, for a run node the engine does not
// count), a finished one fewer. A variant without QS visits one horizon
// node, which a limit of 1 must not stop.
func TestBenchNodeLimit(t *testing.T) {
	set := readCommitted(t)[:40]
	none, err := engine.VariantOptions("none")
	if err != nil {
		t.Fatal(err)
	}
	for _, limit := range []int64{1, 2, 5} {
		vs := NewVariants([]engine.Options{OracleOptions(), none})
		r, err := Bench(context.Background(), set, vs, Config{Jobs: 1, NodeLimit: limit}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for pi := range set {
			q, h := r.Runs[pi][0], r.Runs[pi][1]
			if q.Stopped && q.QSNodes != limit || !q.Stopped && q.QSNodes >= limit {
				t.Errorf("limit %d, %s: stopped %v after %d QS nodes; want stopped at %d exactly, else fewer",
					limit, set[pi].ID, q.Stopped, q.QSNodes, limit)
			}
			if h.Stopped {
				t.Errorf("limit %d, %s: the variant without QS was stopped", limit, set[pi].ID)
			}
		}
	}
}

// Every figure, and so the Pareto front, is over the positions every
// variant finished. Here b stopped on p1, where a erred by 300: over its
// own finished positions b matched a's MAE with half the nodes and took a
// off the front, though on the positions both finished a erred by 0 and b
// by 100.
func TestSummarizeCompared(t *testing.T) {
	o := Oracle{Name: "test", Score: 0}
	set := []*Position{{ID: "p0", Oracle: o}, {ID: "p1", Oracle: o}, {ID: "p2", Oracle: o}}
	a := func(score int) Run { return Run{Score: score, QSNodes: 10} }
	b := func(score int) Run { return Run{Score: score, QSNodes: 5} }
	r := &Results{Variants: []Variant{{Spec: "a"}, {Spec: "b"}}, Set: set, Done: []bool{true, true, true}, Completed: 3,
		Runs: [][]Run{{a(0), b(100)}, {a(300), {QSNodes: 5, Stopped: true}}, {a(0), b(100)}}}
	sums := Summarize(r, nil)
	for _, s := range sums {
		if s.Positions != 3 || s.Compared != 2 || s.Error.Positions != 2 || s.QSNodesTotal != 2*s.QSNodesMax || !s.Pareto {
			t.Errorf("%s: %d positions, %d compared, errors over %d, %d QS nodes, Pareto %v; want 3, 2, 2, twice the max, on the front",
				s.Variant, s.Positions, s.Compared, s.Error.Positions, s.QSNodesTotal, s.Pareto)
		}
	}
	if sums[0].Error.MAE != 0 || sums[1].Error.MAE != 100 || sums[1].Stopped != 1 || sums[0].Stopped != 0 {
		t.Errorf("MAE %.1f and %.1f, stopped %d and %d; want 0 and 100, 0 and 1", sums[0].Error.MAE, sums[1].Error.MAE,
			sums[0].Stopped, sums[1].Stopped)
	}
	// Where no position was finished by every variant there is no front.
	r.Runs[0][1].Stopped, r.Runs[2][1].Stopped = true, true
	for _, s := range Summarize(r, nil) {
		if s.Compared != 0 || s.Pareto {
			t.Errorf("%s: %d compared, Pareto %v; want none", s.Variant, s.Compared, s.Pareto)
		}
	}
}
