// Readers of a run's stored summary: Hotspots and Stats, which fall back
// to scanning the rows when a run has none.

package trace

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/horizonqs/horizon/engine"
)

// Hotspots returns up to limit nodes ranked by order (see HotspotOrder),
// each labelled with its cause and its share of the run. It reads the
// summary the recorder stored (live runs too); a run without one (an old
// file's run still recorded or abandoned, a summary stored before
// extension chains were ranked, or a limit beyond what the summary keeps)
// is ranked by scanning its rows.
func (s *Store) Hotspots(ctx context.Context, run int64, order HotspotOrder, limit int) ([]Hotspot, error) {
	r, err := s.Run(ctx, run)
	if err != nil {
		return nil, err
	}
	var by []string
	switch order {
	case HotspotBySize:
		by = []string{"size", "chain"}
	case HotspotByGrowth:
		by = []string{"growth"}
	case HotspotQS:
		by = []string{"size"}
	case HotspotChains:
		by = []string{"chain"}
	default:
		return nil, fmt.Errorf("trace %s: run %d: unknown hotspot order %d", s.path, run, order)
	}
	stored := r.storedSummary() && limit > 0 && limit <= hotspotsKept
	if stored && slices.Contains(by, "chain") {
		if stored, err = s.chainsStored(ctx, run); err != nil {
			return nil, err
		}
	}
	if stored && s.noQS[run] {
		// The QS roots an early file ranked by size are horizon nodes
		// (noQS): a run without QS has none to rank.
		by = slices.DeleteFunc(by, func(b string) bool { return b == "size" })
		if len(by) == 0 {
			return []Hotspot{}, nil
		}
	}
	ids, err := s.rankedIDs(ctx, r, by, stored, limit)
	if err != nil {
		return nil, err
	}
	// Options that no longer parse label chains "ext": the cause is then
	// not known, which is what the label says.
	opts, _ := r.SearchOptions()
	total := r.Nodes
	if total <= 0 {
		total = r.Rows
	}
	// The iteration roots once for every node read (Node reads them per
	// node, which was a third of a thousand hotspots' cost).
	its, err := s.iterations(ctx, run)
	if err != nil {
		return nil, err
	}
	// The ranked nodes, then their parents, in one query each (a query a
	// node was most of a thousand hotspots' ranking).
	want := make([]int64, len(ids))
	for i, h := range ids {
		want[i] = h.id
	}
	nodes, err := s.nodesIn(ctx, run, want, its)
	if err != nil {
		return nil, err
	}
	want = want[:0]
	for _, h := range ids {
		if p := nodes[h.id].Parent; p >= 0 {
			want = append(want, p)
		}
	}
	parents, err := s.nodesIn(ctx, run, want, its)
	if err != nil {
		return nil, err
	}
	out := make([]Hotspot, 0, len(ids))
	for _, h := range ids {
		n := nodes[h.id]
		// The node's growth whatever ranked it: a size ranking's score is
		// the size (hotspots --json gave a chain top's 2,925 nodes as its
		// growth, where --by growth gave 54.08).
		hs := Hotspot{Node: n, Growth: growth(n.SubtreeSize, n.Depth)}
		if n.Parent >= 0 {
			p := parents[n.Parent]
			hs.Cause = GrowthCause(n, p, opts)
		}
		if total > 0 {
			hs.Share = float64(n.SubtreeSize) / float64(total)
		}
		out = append(out, hs)
	}
	return out, nil
}

// rankedIDs returns run r's nodes ranked by the rankings by, best first:
// from the stored summary where it holds the limit (stored), else ranked
// from the rows, at most limit of them (limit <= 0: every one ranked).
func (s *Store) rankedIDs(ctx context.Context, r Run, by []string, stored bool, limit int) ([]hotspot, error) {
	run := r.ID
	var ids []hotspot
	var err error
	if stored {
		q := "SELECT node_id, MAX(growth) FROM hotspots WHERE run_id = ? AND rank > 0 AND rank_by IN (?" +
			strings.Repeat(", ?", len(by)-1) + ") GROUP BY node_id ORDER BY MAX(growth) DESC, node_id LIMIT ?"
		args := []any{run}
		for _, b := range by {
			args = append(args, b)
		}
		ids, err = queryRows(ctx, s, func(rows *sql.Rows) (hotspot, error) {
			var h hotspot
			if err := rows.Scan(&h.id, &h.score); err != nil {
				return h, s.readErr(err, fmt.Sprintf("run %d: a row of hotspots", run))
			}
			return h, nil
		}, q, append(args, limit)...)
		if err != nil {
			return nil, err
		}
	} else {
		var h topK
		if s.rankable(r) {
			if h, err = s.rankRows(ctx, run, by, max(limit, hotspotsKept)); err != nil {
				return nil, err
			}
		} else {
			sum, err := s.scanSummary(ctx, run, max(limit, hotspotsKept))
			if err != nil {
				return nil, err
			}
			for _, b := range by {
				h = append(h, map[string]topK{"size": sum.bySize, "growth": sum.byGrowth, "chain": sum.chains}[b]...)
			}
		}
		ids = h.sorted()
		ids = slices.CompactFunc(ids, func(a, b hotspot) bool { return a.id == b.id })
		if limit > 0 && len(ids) > limit {
			ids = ids[:limit]
		}
	}
	return ids, nil
}

// chainsStored reports whether run's stored summary ranks extension
// chains: summaries stored before chains were ranked lack the count row
// (rank 0 of 'chain').
func (s *Store) chainsStored(ctx context.Context, run int64) (bool, error) {
	var n int
	err := s.read().QueryRowContext(ctx, "SELECT COUNT(*) FROM hotspots WHERE run_id = ? AND rank_by = 'chain' AND rank = 0", run).Scan(&n)
	if err != nil {
		return false, sqliteErr(s.path, err)
	}
	return n > 0, nil
}

// storedSummary reports whether stats and hotspots hold the run's summary:
// stored when it finished, or (schema version 3) by its recorder as it
// writes.
func (r Run) storedSummary() bool {
	return r.liveSummary || r.Ended()
}

// scanSummary computes a run's summary by reading all its rows, keeping
// keep hotspots per ranking.
func (s *Store) scanSummary(ctx context.Context, run int64, keep int) (*summary, error) {
	sum := newSummary()
	sum.keep = keep
	// The open ancestors of the row at hand (rows come in pre-order), for
	// the parent's extension.
	type open struct {
		end, id int64
		ext     int
	}
	var path []open
	err := s.Subtree(ctx, run, 0, -1, func(n Node) error {
		for len(path) > 0 && path[len(path)-1].end <= n.ID {
			path = path[:len(path)-1]
		}
		parentExt := 0
		if k := len(path); k > 0 && path[k-1].id == n.Parent {
			parentExt = path[k-1].ext
		}
		path = append(path, open{end: n.End(), id: n.ID, ext: n.Extension})
		sum.add(sample{id: n.ID, size: n.SubtreeSize, kind: n.Kind, ply: n.Ply, depth: n.Depth,
			qsLevel: n.QSLevel, qsPly: n.QSPly, iteration: n.Iteration, chainTop: IsChainTop(n.Extension, parentExt)})
		return nil
	})
	if errors.Is(err, ErrNoNode) {
		return sum, nil // a run with no rows yet
	}
	return sum, err
}

// rankable reports whether run r's rows can be ranked in SQLite
// (rankRows) rather than read one by one (scanSummary): an ended run (its
// rows no longer change, none is a placeholder) of a file keyed by run and
// id, whose QS nodes are QS nodes (not an early file's run without QS,
// noQS).
func (s *Store) rankable(r Run) bool {
	return !s.v1() && r.Ended() && !s.noQS[r.ID]
}

// The rankings of rankRows: the rows scanSummary ranks, each kept
// ranking's order (size, then id) and bound, selected by SQLite, so that
// only the ranked rows come back, not all of a run's. ?1 is the run, ?2
// the end of the run node's subtree (the rows scanSummary's walk reads);
// then the rows kept and the kinds ranked. The stored info's fields are
// the codec's (schema/003_keyed.sql).
var (
	// QS roots: QS nodes at QS ply 0, or with no QS ply stored and a
	// depth of 0 or more (decode's QS ply of such a row).
	rankSizeSQL = fmt.Sprintf(`SELECT id, size FROM node_rows NOT INDEXED WHERE run_id = ?1 AND id < ?2
		AND info & %[1]d = ?4 AND ((info >> %[2]d) & %[3]d = 1 OR (info >> %[2]d) & %[3]d = 0 AND ((info >> %[4]d) & %[5]d) >= %[6]d)
		ORDER BY size DESC, id LIMIT ?3`,
		infoKindMask, storedQSPlyShift, infoQSPlyMask, infoDepthShift, infoDepthMask, depthBias)
	// Extension chains' tops (IsChainTop): an extended node whose parent's
	// move was not extended, or whose parent has no row (a filtered run).
	rankChainSQL = fmt.Sprintf(`SELECT n.id, n.size FROM node_rows n NOT INDEXED
		LEFT JOIN node_rows p NOT INDEXED ON p.run_id = n.run_id AND p.id = n.id - n.up
		WHERE n.run_id = ?1 AND n.id < ?2 AND (n.info >> %[1]d) & %[2]d > 0 AND coalesce((p.info >> %[1]d) & %[2]d, 0) = 0
		ORDER BY n.size DESC, n.id LIMIT ?3`,
		storedExtShift, infoExtMask)
	// Full-width nodes with children, ranked by growth here: growth is
	// computed in Go, as the summary computes it.
	rankGrowthSQL = fmt.Sprintf(`SELECT id, size, info FROM node_rows NOT INDEXED WHERE run_id = ?1 AND id < ?2
		AND info & %[1]d IN (?3, ?4) AND size > 1`, infoKindMask)
)

// rankRows ranks run's rows by each of by (size, chain, growth), keep of
// each, as scanSummary does; Hotspots takes it for a limit beyond the
// stored summary's. A run without rows ranks none. Each ranking is a
// scan of the run's rows of its own, and they run side by side, one per
// connection: hotspots' default ranks by size and by chain, 0.22 and 0.44
// s on the threshold search of Kiwipete at depth 7 (2M rows).
func (s *Store) rankRows(ctx context.Context, run int64, by []string, keep int) (topK, error) {
	top, err := s.Node(ctx, run, 0)
	if errors.Is(err, ErrNoNode) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	ranked := make([]topK, len(by))
	errs := make([]error, len(by))
	var wg sync.WaitGroup
	for i, b := range by {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ranked[i], errs[i] = s.rankBy(ctx, run, top.End(), b, keep)
		}()
	}
	wg.Wait()
	var out topK
	for i, h := range ranked {
		if errs[i] != nil {
			return nil, errs[i]
		}
		out = append(out, h...)
	}
	return out, nil
}

// rankBy is rankRows' ranking by b of the rows of run below end.
func (s *Store) rankBy(ctx context.Context, run, end int64, b string, keep int) (topK, error) {
	q, args := rankSizeSQL, []any{run, end, keep, int(engine.KindQS)}
	switch b {
	case "chain":
		q, args = rankChainSQL, args[:3]
	case "growth":
		q, args = rankGrowthSQL, []any{run, end, int(engine.KindPV), int(engine.KindNonPV)}
	}
	var h topK
	_, err := queryRows(ctx, s, func(rows *sql.Rows) (struct{}, error) {
		var id, size, info int64
		dest := []any{&id, &size}
		if b == "growth" {
			dest = append(dest, &info)
		}
		if err := rows.Scan(dest...); err != nil {
			return struct{}{}, s.readErr(err, fmt.Sprintf("run %d: a node row", run))
		}
		if b == "growth" {
			h.push(hotspot{score: growth(size, int(info>>infoDepthShift&infoDepthMask)-depthBias), id: id}, keep)
		} else {
			h = append(h, hotspot{score: float64(size), id: id})
		}
		return struct{}{}, nil
	}, q, args...)
	return h, err
}

// Stats counts a run's rows by ply, QS ply, QS level and iteration.
func (s *Store) Stats(ctx context.Context, run int64) (Stats, error) {
	r, err := s.Run(ctx, run)
	if err != nil {
		return Stats{}, err
	}
	if !r.storedSummary() {
		sum, err := s.scanSummary(ctx, run, 0)
		if err != nil {
			return Stats{}, err
		}
		st := sum.stats(run)
		st.countPositions()
		st.qualify(r)
		return st, nil
	}
	rows, err := s.read().QueryContext(ctx, "SELECT dim, value, nodes, qs_nodes, root_id FROM stats WHERE run_id = ? ORDER BY dim, value", run)
	if err != nil {
		return Stats{}, sqliteErr(s.path, err)
	}
	defer rows.Close()
	st := Stats{RunID: run}
	var prev int64
	for rows.Next() {
		var (
			dim            string
			value          int
			nodes, qsNodes int64
			root           sql.NullInt64
		)
		if err := rows.Scan(&dim, &value, &nodes, &qsNodes, &root); err != nil {
			return Stats{}, s.readErr(err, fmt.Sprintf("run %d: a row of stats", run))
		}
		if value < 0 || value > maxTreeDepth && dim != "iteration" || value > 1<<20 || nodes < 0 || qsNodes < 0 {
			return Stats{}, damagedf("trace %s: run %d: stats row %s %d counts %d nodes", s.path, run, dim, value, nodes)
		}
		if s.noQS[run] {
			// An early file's QS figures of a run without QS counted its
			// horizon nodes (noQS).
			if dim == "qs_ply" || dim == "qs_level" {
				continue
			}
			qsNodes = 0
		}
		switch dim {
		case "ply":
			st.Plies = append(st.Plies, PlyStat{Ply: value, Nodes: nodes, QSNodes: qsNodes})
			st.Nodes += nodes
			st.QSNodes += qsNodes
			st.MaxPly = max(st.MaxPly, value)
		case "qs_ply":
			st.QSPlies = append(st.QSPlies, LevelStat{Level: value, Nodes: nodes})
			if value == 0 {
				st.QSRoots = nodes
			}
			if nodes > 0 {
				st.MaxQSPly = max(st.MaxQSPly, value)
			}
		case "qs_level":
			if !s.levelless[run] {
				st.QSLevels = append(st.QSLevels, LevelStat{Level: value, Nodes: nodes})
			}
		case "iteration":
			it := IterationStat{Iteration: value, RootID: root.Int64, Nodes: nodes, QSNodes: qsNodes}
			finishIteration(&it, prev)
			prev = nodes
			st.Iterations = append(st.Iterations, it)
		}
	}
	if err := rows.Err(); err != nil {
		return Stats{}, sqliteErr(s.path, err)
	}
	st.countPositions()
	st.qualify(r)
	return st, nil
}

// countPositions turns row counts into node counts as engines count them,
// and computes the shares: the run node (a row of every run, at ply 0) is
// no position the search visited.
func (st *Stats) countPositions() {
	if st.Nodes > 0 {
		st.Nodes--
		if len(st.Plies) > 0 && st.Plies[0].Nodes > 0 {
			st.Plies[0].Nodes--
		}
	}
	if st.Nodes > 0 {
		st.QSShare = float64(st.QSNodes) / float64(st.Nodes)
		st.QSBelowShare = float64(st.QSNodes-st.QSRoots) / float64(st.Nodes)
	}
}
