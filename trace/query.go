package trace

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"sort"

	"github.com/horizonqs/horizon/engine"
)

// nodeCols are node_rows' columns in the order scanNode reads them.
const nodeCols = "n.k, n.up, n.size, n.info, n.counts, n.alpha, n.beta, n.score, n.stand_pat, n.move, n.best"

func scanNode(sc interface{ Scan(...any) error }, run int64) (Node, error) {
	var k, up, size, info, counts, alpha, beta, score, move, best int64
	var stand sql.NullInt64
	if err := sc.Scan(&k, &up, &size, &info, &counts, &alpha, &beta, &score, &stand, &move, &best); err != nil {
		return Node{}, err
	}
	var sp *int64
	if stand.Valid {
		sp = &stand.Int64
	}
	return decode(run, k, up, size, info, counts, alpha, beta, score, sp, move, best), nil
}

// iterations returns the run's iteration roots by id.
func (s *Store) iterations(ctx context.Context, run int64) ([]iterRoot, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT root_id, iteration FROM iterations WHERE run_id = ? ORDER BY root_id", run)
	if err != nil {
		return nil, sqliteErr(s.path, err)
	}
	defer rows.Close()
	var its []iterRoot
	for rows.Next() {
		var it iterRoot
		if err := rows.Scan(&it.id, &it.iteration); err != nil {
			return nil, sqliteErr(s.path, err)
		}
		its = append(its, it)
	}
	return its, rows.Err()
}

// iterationOf returns the iteration of node id: that of the last root at
// or before it.
func iterationOf(its []iterRoot, id int64) int {
	i := sort.Search(len(its), func(i int) bool { return its[i].id > id })
	if i == 0 {
		return 0
	}
	return its[i-1].iteration
}

// nodeErr wraps a query error, turning "no rows" into ErrNoNode.
func (s *Store) nodeErr(err error, run, id int64) error {
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("trace %s: run %d: node %d: %w", s.path, run, id, ErrNoNode)
	}
	return sqliteErr(s.path, err)
}

func (s *Store) checkRun(ctx context.Context, run int64) error {
	var one int
	err := s.db.QueryRowContext(ctx, "SELECT 1 FROM runs WHERE id = ?", run).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("trace %s: run %d: %w", s.path, run, ErrNoRun)
	}
	if err != nil {
		return sqliteErr(s.path, err)
	}
	return nil
}

func validID(id int64) bool { return id >= 0 && id < maxNodesPerRun }

// Node returns one node; the error wraps ErrNoNode when the run has no row
// with that id (and ErrNoRun when there is no such run).
func (s *Store) Node(ctx context.Context, run, id int64) (Node, error) {
	if !validID(id) {
		return Node{}, s.nodeErr(sql.ErrNoRows, run, id)
	}
	n, err := scanNode(s.db.QueryRowContext(ctx, "SELECT "+nodeCols+" FROM node_rows n WHERE n.k = ?", nodeKey(run, id)), run)
	if err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			if rerr := s.checkRun(ctx, run); rerr != nil {
				return Node{}, rerr
			}
		}
		return Node{}, s.nodeErr(err, run, id)
	}
	its, err := s.iterations(ctx, run)
	if err != nil {
		return Node{}, err
	}
	n.Iteration = iterationOf(its, n.ID)
	return n, nil
}

// childKeys walks the children of the node with key ?1 whose subtree ends
// before key ?2: the first child is the first row after the node, each next
// one the first row after the previous child's subtree. ?3 caps the walk
// (-1: no cap).
// Callers join c to node_rows with CROSS JOIN, which in SQLite fixes the
// join order: with a plain JOIN the planner may scan the whole table and
// probe c (SQLite 3.54 does, taking seconds on a 6M-node trace).
// A row found this way whose parent is not ?1 belongs to a child that has
// no row (still open while recording, or filtered out); the callers drop
// it, and the walk has already jumped past its subtree.
const childKeys = `WITH RECURSIVE c(k) AS (
	SELECT (SELECT k FROM node_rows WHERE k > ?1 AND k < ?2 ORDER BY k LIMIT 1)
	UNION ALL
	SELECT (SELECT n.k FROM node_rows n WHERE n.k >= c.k + (SELECT size FROM node_rows WHERE k = c.k) AND n.k < ?2 ORDER BY n.k LIMIT 1)
	FROM c WHERE c.k IS NOT NULL
	LIMIT ?3
)`

// childrenQuery and childCountQuery read the children of node ?1 (see childKeys).
const (
	childrenQuery   = childKeys + " SELECT " + nodeCols + " FROM c CROSS JOIN node_rows n ON n.k = c.k WHERE n.k - n.up = ?1 ORDER BY c.k"
	childCountQuery = childKeys + " SELECT count(*) FROM c CROSS JOIN node_rows n ON n.k = c.k WHERE n.k - n.up = ?1"
)

// Children returns up to limit children of node id, skipping the first
// offset of them in the given order, so a node with many children can be
// paged. limit <= 0 means all.
func (s *Store) Children(ctx context.Context, run, id int64, order Order, offset, limit int) ([]Node, error) {
	parent, err := s.Node(ctx, run, id)
	if err != nil {
		return nil, err
	}
	offset = max(offset, 0)
	// A node has at most a few hundred children (legal moves and their
	// re-searches), so the walk reads them all and pages here.
	rows, err := s.db.QueryContext(ctx, childrenQuery,
		nodeKey(run, id), nodeKey(run, parent.End()), -1)
	if err != nil {
		return nil, sqliteErr(s.path, err)
	}
	defer rows.Close()
	var kids []Node
	var its []iterRoot
	if parent.Kind != engine.KindRun {
		its = []iterRoot{{id: 0, iteration: parent.Iteration}}
	} else if its, err = s.iterations(ctx, run); err != nil {
		return nil, err
	}
	for rows.Next() {
		n, err := scanNode(rows, run)
		if err != nil {
			return nil, sqliteErr(s.path, err)
		}
		n.Iteration = iterationOf(its, n.ID)
		kids = append(kids, n)
	}
	if err := rows.Err(); err != nil {
		return nil, sqliteErr(s.path, err)
	}
	if order == BySize {
		slices.SortStableFunc(kids, func(a, b Node) int {
			switch {
			case a.SubtreeSize > b.SubtreeSize:
				return -1
			case a.SubtreeSize < b.SubtreeSize:
				return 1
			}
			return 0
		})
	}
	if offset >= len(kids) {
		return nil, nil
	}
	kids = kids[offset:]
	if limit > 0 && limit < len(kids) {
		kids = kids[:limit]
	}
	return kids, nil
}

// ChildCount returns how many children node id has.
func (s *Store) ChildCount(ctx context.Context, run, id int64) (int, error) {
	parent, err := s.Node(ctx, run, id)
	if err != nil {
		return 0, err
	}
	if parent.SubtreeSize <= 1 {
		return 0, nil
	}
	var n int
	err = s.db.QueryRowContext(ctx, childCountQuery,
		nodeKey(run, id), nodeKey(run, parent.End()), -1).Scan(&n)
	if err != nil {
		return 0, sqliteErr(s.path, err)
	}
	return n, nil
}

// Path returns the nodes from the run node (id 0) down to node id, both
// included.
func (s *Store) Path(ctx context.Context, run, id int64) ([]Node, error) {
	if !validID(id) {
		return nil, s.nodeErr(sql.ErrNoRows, run, id)
	}
	// Follow parent links up; the run node (id 0, up 1) ends the walk.
	rows, err := s.db.QueryContext(ctx, `WITH RECURSIVE p(k) AS (
		SELECT ?1
		UNION ALL
		SELECT n.k - n.up FROM p JOIN node_rows n ON n.k = p.k WHERE (n.k & 4294967295) >= n.up
	) SELECT `+nodeCols+` FROM p JOIN node_rows n ON n.k = p.k ORDER BY n.k`, nodeKey(run, id))
	if err != nil {
		return nil, sqliteErr(s.path, err)
	}
	defer rows.Close()
	var path []Node
	for rows.Next() {
		n, err := scanNode(rows, run)
		if err != nil {
			return nil, sqliteErr(s.path, err)
		}
		path = append(path, n)
	}
	if err := rows.Err(); err != nil {
		return nil, sqliteErr(s.path, err)
	}
	if len(path) == 0 || path[len(path)-1].ID != id {
		if rerr := s.checkRun(ctx, run); rerr != nil {
			return nil, rerr
		}
		return nil, s.nodeErr(sql.ErrNoRows, run, id)
	}
	its, err := s.iterations(ctx, run)
	if err != nil {
		return nil, err
	}
	for i := range path {
		path[i].Iteration = iterationOf(its, path[i].ID)
	}
	return path, nil
}

// replay walks the moves of path from the run's root position, calling fn
// with the position before each move.
func (s *Store) replay(ctx context.Context, run int64, path []Node, fn func(*engine.Position, Node) error) (*engine.Position, error) {
	r, err := s.Run(ctx, run)
	if err != nil {
		return nil, err
	}
	pos, err := engine.ParseFEN(r.FEN)
	if err != nil {
		return nil, fmt.Errorf("trace %s: run %d: root position: %w", s.path, run, err)
	}
	for _, n := range path {
		if n.Move == engine.NoMove {
			continue
		}
		if !pos.IsLegal(n.Move) {
			return nil, fmt.Errorf("trace %s: run %d: node %d: move %s is not legal in %s: %w",
				s.path, run, n.ID, n.Move.UCI(), pos.FEN(), ErrCorrupt)
		}
		if fn != nil {
			if err := fn(pos, n); err != nil {
				return nil, err
			}
		}
		pos.MakeMove(n.Move)
	}
	return pos, nil
}

// PathSAN returns the moves from the run's root position to node id in SAN
// (iteration roots and the run node have no move and contribute nothing).
func (s *Store) PathSAN(ctx context.Context, run, id int64) ([]string, error) {
	path, err := s.Path(ctx, run, id)
	if err != nil {
		return nil, err
	}
	var san []string
	_, err = s.replay(ctx, run, path, func(p *engine.Position, n Node) error {
		san = append(san, p.SAN(n.Move))
		return nil
	})
	return san, err
}

// Position returns the position at node id, replayed from the run's FEN.
func (s *Store) Position(ctx context.Context, run, id int64) (*engine.Position, error) {
	path, err := s.Path(ctx, run, id)
	if err != nil {
		return nil, err
	}
	return s.replay(ctx, run, path, nil)
}

// Find follows a move path (each move in SAN or UCI) down from node from
// and returns the node reached. When from is the run node (0), the path
// starts in the last iteration. When a node has several children for the
// same move (a re-search), the last one is taken: it is the one whose score
// the parent used. The error wraps ErrNoMove and names the first move that
// did not match.
func (s *Store) Find(ctx context.Context, run, from int64, moves []string) (Node, error) {
	cur, err := s.Node(ctx, run, from)
	if err != nil {
		return Node{}, err
	}
	if cur.Kind == engine.KindRun {
		roots, err := s.Children(ctx, run, cur.ID, BySearch, 0, 0)
		if err != nil {
			return Node{}, err
		}
		if len(roots) == 0 {
			if len(moves) == 0 {
				return cur, nil
			}
			return Node{}, fmt.Errorf("trace %s: run %d has no iteration: %w", s.path, run, ErrNoMove)
		}
		cur = roots[len(roots)-1]
	}
	pos, err := s.Position(ctx, run, cur.ID)
	if err != nil {
		return Node{}, err
	}
	for i, text := range moves {
		m, err := pos.ParseMove(text)
		if err != nil {
			return Node{}, fmt.Errorf("trace %s: run %d: move %d (%q) at node %d: %v: %w", s.path, run, i+1, text, cur.ID, err, ErrNoMove)
		}
		kids, err := s.Children(ctx, run, cur.ID, BySearch, 0, 0)
		if err != nil {
			return Node{}, err
		}
		found := false
		for _, k := range kids {
			if k.Move == m {
				cur, found = k, true
			}
		}
		if !found {
			return Node{}, fmt.Errorf("trace %s: run %d: move %d (%s) was not searched at node %d: %w",
				s.path, run, i+1, pos.SAN(m), cur.ID, ErrNoMove)
		}
		pos.MakeMove(m)
	}
	return cur, nil
}

// Subtree calls fn for node id and its descendants in pre-order (search
// order), at most maxDepth levels below id (0: the node alone; < 0: no
// limit). Rows are streamed, never loaded all at once. An error from fn
// stops the walk and is returned.
func (s *Store) Subtree(ctx context.Context, run, id int64, maxDepth int, fn func(Node) error) error {
	top, err := s.Node(ctx, run, id)
	if err != nil {
		return err
	}
	its, err := s.iterations(ctx, run)
	if err != nil {
		return err
	}
	end := top.End()
	// ends[i] is where the subtree of the open ancestor at depth i ends.
	var ends []int64
	next := id
	for next < end {
		resume, err := s.subtreeFrom(ctx, run, next, end, its, &ends, maxDepth, fn)
		if err != nil {
			return err
		}
		next = resume
	}
	return nil
}

// subtreeFrom streams rows from id next to end. When a node at maxDepth
// has descendants it stops and returns where to resume, so the rows below
// are skipped by a seek instead of being read.
func (s *Store) subtreeFrom(ctx context.Context, run, next, end int64, its []iterRoot, ends *[]int64, maxDepth int, fn func(Node) error) (int64, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT "+nodeCols+" FROM node_rows n WHERE n.k >= ? AND n.k < ? ORDER BY n.k",
		nodeKey(run, next), nodeKey(run, end))
	if err != nil {
		return 0, sqliteErr(s.path, err)
	}
	defer rows.Close()
	for rows.Next() {
		n, err := scanNode(rows, run)
		if err != nil {
			return 0, sqliteErr(s.path, err)
		}
		for len(*ends) > 0 && n.ID >= (*ends)[len(*ends)-1] {
			*ends = (*ends)[:len(*ends)-1]
		}
		n.Iteration = iterationOf(its, n.ID)
		if err := fn(n); err != nil {
			return 0, err
		}
		if maxDepth >= 0 && len(*ends) >= maxDepth {
			if n.SubtreeSize > 1 {
				return n.End(), rows.Close()
			}
			continue
		}
		*ends = append(*ends, n.End())
	}
	if err := rows.Err(); err != nil {
		return 0, sqliteErr(s.path, err)
	}
	return end, nil
}

// Hotspots returns up to limit nodes ranked by order (see HotspotOrder).
func (s *Store) Hotspots(ctx context.Context, run int64, order HotspotOrder, limit int) ([]Hotspot, error) {
	r, err := s.Run(ctx, run)
	if err != nil {
		return nil, err
	}
	by := "size"
	if order == HotspotByGrowth {
		by = "growth"
	}
	var ids []hotspot
	if r.Status != StatusRunning && limit > 0 && limit <= hotspotsKept {
		rows, err := s.db.QueryContext(ctx, "SELECT node_id, growth FROM hotspots WHERE run_id = ? AND rank_by = ? ORDER BY rank LIMIT ?", run, by, limit)
		if err != nil {
			return nil, sqliteErr(s.path, err)
		}
		for rows.Next() {
			var h hotspot
			if err := rows.Scan(&h.id, &h.score); err != nil {
				rows.Close()
				return nil, sqliteErr(s.path, err)
			}
			ids = append(ids, h)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, sqliteErr(s.path, err)
		}
	} else {
		// A run still being recorded (or whose recorder died), or more
		// than the summary kept: rank by scanning the rows.
		sum, err := s.scanSummary(ctx, run, max(limit, hotspotsKept))
		if err != nil {
			return nil, err
		}
		h := sum.bySize
		if order == HotspotByGrowth {
			h = sum.byGrowth
		}
		ids = h.sorted()
		if limit > 0 && len(ids) > limit {
			ids = ids[:limit]
		}
	}
	out := make([]Hotspot, 0, len(ids))
	for _, h := range ids {
		n, err := s.Node(ctx, run, h.id)
		if err != nil {
			return nil, err
		}
		out = append(out, Hotspot{Node: n, Growth: h.score})
	}
	return out, nil
}

// scanSummary computes a run's summary by reading all its rows, keeping
// keep hotspots per ranking.
func (s *Store) scanSummary(ctx context.Context, run int64, keep int) (*summary, error) {
	sum := newSummary()
	sum.keep = keep
	type anc struct {
		end       int64
		kind      engine.NodeKind
		qsRootPly int
	}
	var stack []anc
	err := s.Subtree(ctx, run, 0, -1, func(n Node) error {
		for len(stack) > 0 && n.ID >= stack[len(stack)-1].end {
			stack = stack[:len(stack)-1]
		}
		a := anc{end: n.End(), kind: n.Kind, qsRootPly: -1}
		qsPly := -1
		if n.Kind == engine.KindQS {
			a.qsRootPly = n.Ply
			if len(stack) > 0 && stack[len(stack)-1].kind == engine.KindQS {
				a.qsRootPly = stack[len(stack)-1].qsRootPly
			}
			qsPly = n.Ply - a.qsRootPly
		}
		stack = append(stack, a)
		sum.add(sample{id: n.ID, size: n.SubtreeSize, kind: n.Kind, ply: n.Ply, depth: n.Depth,
			qsLevel: n.QSLevel, qsPly: qsPly, iteration: n.Iteration})
		return nil
	})
	if errors.Is(err, ErrNoNode) {
		return sum, nil // a run with no rows yet
	}
	return sum, err
}

// Stats counts a run's rows by ply, QS ply, QS level and iteration.
func (s *Store) Stats(ctx context.Context, run int64) (Stats, error) {
	r, err := s.Run(ctx, run)
	if err != nil {
		return Stats{}, err
	}
	if r.Status == StatusRunning {
		sum, err := s.scanSummary(ctx, run, 0)
		if err != nil {
			return Stats{}, err
		}
		return sum.stats(run), nil
	}
	rows, err := s.db.QueryContext(ctx, "SELECT dim, value, nodes, qs_nodes, root_id FROM stats WHERE run_id = ? ORDER BY dim, value", run)
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
			return Stats{}, sqliteErr(s.path, err)
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
			st.QSLevels = append(st.QSLevels, LevelStat{Level: value, Nodes: nodes})
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
	if st.Nodes > 0 {
		st.QSShare = float64(st.QSNodes) / float64(st.Nodes)
		st.QSBelowShare = float64(st.QSNodes-st.QSRoots) / float64(st.Nodes)
	}
	return st, nil
}
