package trace

import (
	"container/heap"
	"database/sql"
	"math"
	"slices"
	"time"

	"github.com/horizonqs/horizon/engine"
)

// hotspotsKept is how many nodes per ranking the summary keeps and stores;
// Hotspots with a larger limit scans the run instead.
const hotspotsKept = 256

// iterRoot is an iteration's root node.
type iterRoot struct {
	id        int64
	iteration int
}

// sample is what the summary needs of one row.
type sample struct {
	id        int64
	size      int64
	kind      engine.NodeKind
	ply       int
	depth     int
	qsLevel   int
	qsPly     int // -1 outside QS
	iteration int
	chainTop  bool // heads an extension chain (IsChainTop)
	open      bool // a placeholder: counted, not ranked (its size is partial)
}

// summary accumulates a run's counts and hotspots as its rows go by, in any
// order: the writer feeds it, and a scan of the file does for runs that
// never finished.
type summary struct {
	rows, qsNodes, qsRoots int64
	maxPly, maxQSPly       int
	plies                  []PlyStat
	qsPlies                []int64
	qsLevels               []int64
	iters                  []IterationStat // indexed by iteration
	bySize, byGrowth       topK
	chains                 topK  // extension chains' top nodes by subtree size
	numChains              int64 // extension chains in the run
	keep                   int   // hotspots kept per ranking; 0: hotspotsKept
}

func newSummary() *summary {
	s := &summary{}
	s.reset()
	return s
}

func (s *summary) reset() {
	*s = summary{
		plies: s.plies[:0], qsPlies: s.qsPlies[:0], qsLevels: s.qsLevels[:0], iters: s.iters[:0],
		bySize: s.bySize[:0], byGrowth: s.byGrowth[:0], chains: s.chains[:0], keep: s.keep,
	}
}

func grow[T any](s []T, i int) []T {
	for len(s) <= i {
		var zero T
		s = append(s, zero)
	}
	return s
}

// withOpen returns a copy of s that counts the placeholder rows open
// too: the summary of every row the file holds once they are committed.
// The rankings are shared, not copied: placeholders are not ranked.
func (s *summary) withOpen(open []row) *summary {
	c := *s
	c.plies = slices.Clone(s.plies)
	c.qsPlies = slices.Clone(s.qsPlies)
	c.qsLevels = slices.Clone(s.qsLevels)
	c.iters = slices.Clone(s.iters)
	for i := range open {
		c.addRow(&open[i])
	}
	return &c
}

func (s *summary) addRow(w *row) {
	s.add(sample{
		open:      w.placeholder,
		id:        w.id,
		size:      w.size,
		kind:      engine.NodeKind(w.info >> infoKindShift & infoKindMask),
		ply:       int(w.info >> infoPlyShift & infoPlyMask),
		depth:     int(w.info>>infoDepthShift&infoDepthMask) - depthBias,
		qsLevel:   int(w.info>>infoQSShift&infoQSMask) - 1,
		qsPly:     int(w.qsPly),
		iteration: int(w.iteration),
		chainTop:  w.chainTop,
	})
}

func (s *summary) add(x sample) {
	s.rows++
	s.plies = grow(s.plies, x.ply)
	s.plies[x.ply].Nodes++
	s.maxPly = max(s.maxPly, x.ply)
	if x.iteration >= 0 {
		s.iters = grow(s.iters, x.iteration)
		it := &s.iters[x.iteration]
		it.Nodes++
		if x.kind == engine.KindRoot {
			it.RootID = x.id
			it.Iteration = x.iteration
		}
		if x.kind == engine.KindQS {
			it.QSNodes++
		}
	}
	if x.open {
		s.countQS(x)
		return
	}
	if x.chainTop {
		s.numChains++
		s.chains.push(hotspot{score: float64(x.size), id: x.id}, s.keep)
	}
	s.countQS(x)
	switch x.kind {
	case engine.KindQS:
		if x.qsPly == 0 {
			s.bySize.push(hotspot{score: float64(x.size), id: x.id}, s.keep)
		}
	case engine.KindPV, engine.KindNonPV:
		if x.size > 1 {
			s.byGrowth.push(hotspot{score: growth(x.size, x.depth), id: x.id}, s.keep)
		}
	}
}

// countQS counts a node's QS level and, for a QS node, its QS figures:
// add counts them for every node, and alone for a placeholder.
func (s *summary) countQS(x sample) {
	if x.qsLevel >= 0 {
		s.qsLevels = grow(s.qsLevels, x.qsLevel)
		s.qsLevels[x.qsLevel]++
	}
	if x.kind != engine.KindQS {
		return
	}
	s.qsNodes++
	s.plies[x.ply].QSNodes++
	if x.qsPly >= 0 {
		s.qsPlies = grow(s.qsPlies, x.qsPly)
		s.qsPlies[x.qsPly]++
		s.maxQSPly = max(s.maxQSPly, x.qsPly)
	}
	if x.qsPly == 0 {
		s.qsRoots++
	}
}

// growth is the branching factor a full-width tree of depth+1 plies needs
// to have size nodes in its last ply.
func growth(size int64, depth int) float64 {
	return math.Pow(float64(size), 1/float64(max(depth, 0)+1))
}

// stats turns the counts into the public Stats.
func (s *summary) stats(run int64) Stats {
	st := Stats{
		RunID: run, Nodes: s.rows, QSNodes: s.qsNodes, QSRoots: s.qsRoots,
		MaxPly: s.maxPly, MaxQSPly: s.maxQSPly,
		Plies: append([]PlyStat(nil), s.plies...),
	}
	for i := range st.Plies {
		st.Plies[i].Ply = i
	}
	if s.rows > 0 {
		st.QSShare = float64(s.qsNodes) / float64(s.rows)
		st.QSBelowShare = float64(s.qsNodes-s.qsRoots) / float64(s.rows)
	}
	for i, n := range s.qsPlies {
		st.QSPlies = append(st.QSPlies, LevelStat{Level: i, Nodes: n})
	}
	for i, n := range s.qsLevels {
		st.QSLevels = append(st.QSLevels, LevelStat{Level: i, Nodes: n})
	}
	var prev int64
	for i, it := range s.iters {
		if i == 0 || it.Nodes == 0 {
			continue // the run node's bucket, or an iteration with no rows
		}
		it.Iteration = i
		finishIteration(&it, prev)
		prev = it.Nodes
		st.Iterations = append(st.Iterations, it)
	}
	return st
}

func finishIteration(it *IterationStat, prev int64) {
	if prev > 0 {
		ebf := float64(it.Nodes) / float64(prev)
		it.EBF = &ebf
	}
	if it.Iteration > 0 {
		ply := math.Pow(float64(it.Nodes), 1/float64(it.Iteration))
		it.PlyEBF = &ply
	}
}

// qualify marks what the rows alone cannot tell about run r's iterations:
// which did not finish, and that a run recorded under a move path, or an
// iteration past a recording's node cap, has no branching factors (its
// rows are a path's, or part of the iteration's).
func (st *Stats) qualify(r Run) {
	for i := range st.Iterations {
		it := &st.Iterations[i]
		it.Partial = it.Iteration > r.Depth
		if it.Partial {
			// Part of an iteration, over the whole of the one before or
			// as a depth-th root, is no branching factor.
			it.EBF, it.PlyEBF = nil, nil
		}
		if r.PathFiltered() {
			it.EBF, it.PlyEBF = nil, nil
		}
		// An iteration with nodes past the recording's cap has only part
		// of them in rows: no branching factor, though the search
		// finished it (so it is not Partial).
		if limit := r.FirstNodes(); limit > 0 {
			end := r.Nodes
			if i+1 < len(st.Iterations) {
				end = st.Iterations[i+1].RootID - 1
			}
			if end > limit {
				it.EBF, it.PlyEBF = nil, nil
			}
		}
	}
}

// hotspot is a ranked node id: higher score first, then lower id.
type hotspot struct {
	score float64
	id    int64
}

func (a hotspot) better(b hotspot) bool {
	return a.score > b.score || a.score == b.score && a.id < b.id
}

// topK keeps the best hotspots as a min-heap (worst on top),
// so the kept set does not depend on the order rows arrive in.
type topK []hotspot

func (h topK) Len() int           { return len(h) }
func (h topK) Less(i, j int) bool { return h[j].better(h[i]) }
func (h topK) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *topK) Push(x any)        { *h = append(*h, x.(hotspot)) }
func (h *topK) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

func (h *topK) push(x hotspot, keep int) {
	if keep <= 0 {
		keep = hotspotsKept
	}
	if len(*h) < keep {
		heap.Push(h, x)
		return
	}
	if x.better((*h)[0]) {
		(*h)[0] = x
		heap.Fix(h, 0)
	}
}

// sorted returns the kept hotspots best first.
func (h topK) sorted() []hotspot {
	out := append([]hotspot(nil), h...)
	slices.SortFunc(out, func(a, b hotspot) int {
		if a.better(b) {
			return -1
		}
		if b.better(a) {
			return 1
		}
		return 0
	})
	return out
}

// writeFinish stores the summary of run and applies update, in one
// transaction.
func (s *Store) writeFinish(run int64, sum *summary, update func(*sql.Tx) error) error {
	tx, err := s.db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	exec := func(q string, args ...any) error {
		_, err := tx.Exec(q, args...)
		return err
	}
	if err := writeSummary(exec, run, sum, true); err != nil {
		return err
	}
	if err := update(tx); err != nil {
		return err
	}
	return tx.Commit()
}

// writeSummary replaces run's rows in stats (and with hot, in hotspots)
// with sum's, and stamps runs.summary_at; the caller holds the
// transaction. The recorder's writer calls it while recording too, so
// readers of a live run read the summary instead of scanning the rows:
// the stats with every commit, so that they count the rows committed, and
// the rankings, which cost more to write, every summaryEvery.
func writeSummary(exec func(string, ...any) error, run int64, sum *summary, hot bool) error {
	if err := exec("DELETE FROM stats WHERE run_id = ?", run); err != nil {
		return err
	}
	ins := func(dim string, value int, nodes, qs int64, root any) error {
		return exec("INSERT INTO stats (run_id, dim, value, nodes, qs_nodes, root_id) VALUES (?, ?, ?, ?, ?, ?)",
			run, dim, int64(value), nodes, qs, root)
	}
	st := sum.stats(run)
	for _, p := range st.Plies {
		if err := ins("ply", p.Ply, p.Nodes, p.QSNodes, nil); err != nil {
			return err
		}
	}
	for _, p := range st.QSPlies {
		if err := ins("qs_ply", p.Level, p.Nodes, p.Nodes, nil); err != nil {
			return err
		}
	}
	for _, p := range st.QSLevels {
		if err := ins("qs_level", p.Level, p.Nodes, p.Nodes, nil); err != nil {
			return err
		}
	}
	for _, it := range st.Iterations {
		if err := ins("iteration", it.Iteration, it.Nodes, it.QSNodes, it.RootID); err != nil {
			return err
		}
	}
	if !hot {
		return nil // summary_at was stamped with the hotspots
	}
	if err := exec("DELETE FROM hotspots WHERE run_id = ?", run); err != nil {
		return err
	}
	for _, rk := range []struct {
		by string
		h  topK
	}{{"size", sum.bySize}, {"growth", sum.byGrowth}, {"chain", sum.chains}} {
		for i, h := range rk.h.sorted() {
			// For QS roots (depth <= 0) growth is the size itself.
			if err := exec("INSERT INTO hotspots (run_id, rank_by, rank, node_id, growth) VALUES (?, ?, ?, ?, ?)",
				run, rk.by, int64(i+1), h.id, h.score); err != nil {
				return err
			}
		}
	}
	// Rank 0 of 'chain' counts the run's chains; a summary without it was
	// stored by a Horizon that did not rank chains (readers scan for them).
	if err := exec("INSERT INTO hotspots (run_id, rank_by, rank, node_id, growth) VALUES (?, 'chain', 0, -1, ?)",
		run, float64(sum.numChains)); err != nil {
		return err
	}
	return exec("UPDATE runs SET summary_at = ? WHERE id = ?", time.Now().UTC().Format(time.RFC3339Nano), run)
}
