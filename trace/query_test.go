package trace

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/horizonqs/horizon/engine"
)

// refChildren lists a reference node's children in id order.
func refChildren(mem *memTracer, id int64) []int64 {
	var kids []int64
	for cid, n := range mem.nodes {
		if n.Parent == id {
			kids = append(kids, cid)
		}
	}
	slices.Sort(kids)
	return kids
}

func ids(ns []Node) []int64 {
	out := []int64{}
	for _, n := range ns {
		out = append(out, n.ID)
	}
	return out
}

func TestChildrenAndPaths(t *testing.T) {
	s, _ := mustCreate(t)
	run, mem := record(t, s, 21, 4, RecordOptions{BatchRows: 64}, nil)
	ctx := context.Background()
	for id := int64(0); id < int64(len(mem.nodes)); id++ {
		want := refChildren(mem, id)
		got, err := s.Children(ctx, run, id, BySearch, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(ids(got), append([]int64{}, want...)) {
			t.Fatalf("children of %d = %v, want %v", id, ids(got), want)
		}
		n, err := s.ChildCount(ctx, run, id)
		if err != nil || n != len(want) {
			t.Fatalf("ChildCount(%d) = %d, %v; want %d", id, n, err, len(want))
		}
		// Paging walks the same list.
		for _, page := range []struct{ off, lim int }{{0, 1}, {1, 2}, {2, 5}, {len(want), 3}} {
			got, err := s.Children(ctx, run, id, BySearch, page.off, page.lim)
			if err != nil {
				t.Fatal(err)
			}
			lo, hi := min(page.off, len(want)), min(page.off+page.lim, len(want))
			if !reflect.DeepEqual(ids(got), append([]int64{}, want[lo:hi]...)) {
				t.Fatalf("children of %d page %+v = %v, want %v", id, page, ids(got), want[lo:hi])
			}
		}
		bySize, err := s.Children(ctx, run, id, BySize, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(bySize) != len(want) || !slices.IsSortedFunc(bySize, func(a, b Node) int {
			if a.SubtreeSize != b.SubtreeSize {
				return int(b.SubtreeSize - a.SubtreeSize)
			}
			return int(a.ID - b.ID)
		}) {
			t.Fatalf("children of %d by size: %v", id, ids(bySize))
		}
		// Path: the ancestors by parent links, root first.
		var chain []int64
		for a := id; a >= 0; a = mem.nodes[a].Parent {
			chain = append([]int64{a}, chain...)
		}
		path, err := s.Path(ctx, run, id)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(ids(path), chain) {
			t.Fatalf("path to %d = %v, want %v", id, ids(path), chain)
		}
	}
}

func TestPositionsAndFind(t *testing.T) {
	s, _ := mustCreate(t)
	run, mem := record(t, s, 23, 3, RecordOptions{}, nil)
	ctx := context.Background()
	found, tried, again := 0, 0, 0
	for id := int64(0); id < int64(len(mem.nodes)); id += 7 {
		// Replay the reference path by hand.
		var moves []engine.Move
		var visits, searched []int // each move's visit under its parent, and how many it had
		for cur := id; mem.nodes[cur].Parent >= 0; cur = mem.nodes[cur].Parent {
			if a := mem.nodes[cur]; a.Move != engine.NoMove {
				moves = append([]engine.Move{a.Move}, moves...)
				v, n := 0, 0
				for _, c := range refChildren(mem, a.Parent) {
					if mem.nodes[c].Move == a.Move {
						n++
						if c <= cur {
							v++
						}
					}
				}
				visits, searched = append([]int{v}, visits...), append([]int{n}, searched...)
			}
		}
		pos := engine.MustParseFEN(tacticalFEN)
		var san, uci []string
		for _, m := range moves {
			san = append(san, pos.SAN(m))
			uci = append(uci, m.UCI())
			pos.MakeMove(m)
		}
		got, err := s.Position(ctx, run, id)
		if err != nil {
			t.Fatal(err)
		}
		if got.FEN() != pos.FEN() {
			t.Fatalf("position at %d = %s, want %s", id, got.FEN(), pos.FEN())
		}
		gotSAN, err := s.PathSAN(ctx, run, id)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(gotSAN, san) && !(len(san) == 0 && len(gotSAN) == 0) {
			t.Fatalf("SAN path to %d = %v, want %v", id, gotSAN, san)
		}
		// Find from the node's iteration root, by SAN and by UCI. The
		// reference answer takes the last child for a repeated move.
		n := mem.nodes[id]
		if n.Kind == engine.KindRun {
			continue
		}
		root := id
		for mem.nodes[root].Kind != engine.KindRoot {
			root = mem.nodes[root].Parent
		}
		want, reachable := root, true
		for _, m := range moves {
			next := int64(-1)
			for _, c := range refChildren(mem, want) {
				if mem.nodes[c].Move == m {
					next = c // the last match wins
				}
			}
			if next < 0 {
				reachable = false // an earlier repeated move led elsewhere
				break
			}
			want = next
		}
		tried++
		if reachable {
			found++
		}
		// Each move marked as paths print it (VisitMark: dxe6·2, and
		// dxe6·1 for a first search with later ones, since unmarked is
		// the last), every node is found, a re-search's too.
		marked := make([]string, len(san))
		for i := range san {
			marked[i] = VisitMark(san[i], visits[i], searched[i])
			if visits[i] > 1 {
				again++
			}
			if visits[i] == 1 && searched[i] > 1 && marked[i] != san[i]+VisitSep+"1" {
				t.Fatalf("VisitMark(%q, 1, %d) = %q, want ·1", san[i], searched[i], marked[i])
			}
		}
		if len(marked) > 0 {
			if f, err := s.Find(ctx, run, root, marked); err != nil || f.ID != id {
				t.Fatalf("Find(%v) from %d = %d, %v; want %d", marked, root, f.ID, err, id)
			}
			over := slices.Clone(marked)
			m, _, _ := strings.Cut(over[len(over)-1], VisitSep)
			n := searched[len(searched)-1]
			over[len(over)-1] = VisitMark(m, n+1, n)
			_, err := s.Find(ctx, run, root, over)
			if want := fmt.Sprintf("(%s) was searched %s at node", over[len(over)-1], engine.Times(n)); !errors.Is(err, ErrNoMove) || !strings.Contains(err.Error(), want) {
				t.Fatalf("Find(%v) = %v, want ErrNoMove saying %q", over, err, want)
			}
		}
		for _, path := range [][]string{san, uci} {
			f, err := s.Find(ctx, run, root, path)
			if !reachable {
				if !errors.Is(err, ErrNoMove) {
					t.Fatalf("Find(%v) from %d = %v, want ErrNoMove", path, root, err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("Find(%v) from %d: %v", path, root, err)
			}
			if f.ID != want {
				t.Fatalf("Find(%v) from %d = %d, want %d", path, root, f.ID, want)
			}
		}
	}
	if found < tried/2 {
		t.Errorf("only %d of %d paths were findable: the test checks too little", found, tried)
	}
	if again == 0 {
		t.Errorf("no path passed a re-searched move: the visit marks were not tested")
	}
	if _, err := s.Find(ctx, run, 0, []string{"Qxf7"}); !errors.Is(err, ErrNoMove) {
		t.Errorf("an illegal move: %v, want ErrNoMove", err)
	}
	for _, bad := range []string{"e4" + VisitSep + "x", "e4" + VisitSep + "0", "e4" + VisitSep} {
		if _, err := s.Find(ctx, run, 0, []string{bad}); !errors.Is(err, ErrNoMove) || !strings.Contains(err.Error(), "is no visit number") {
			t.Errorf("Find(%q): %v, want it to say the mark is no visit number", bad, err)
		}
	}
	if _, err := s.Node(ctx, run, 1<<30); !errors.Is(err, ErrNoNode) {
		t.Errorf("a missing node: %v, want ErrNoNode", err)
	}
	if _, err := s.Node(ctx, run+5, 0); !errors.Is(err, ErrNoRun) {
		t.Errorf("a missing run: %v, want ErrNoRun", err)
	}
}

func TestSubtreeDepthLimit(t *testing.T) {
	s, _ := mustCreate(t)
	run, mem := record(t, s, 25, 4, RecordOptions{}, nil)
	ctx := context.Background()
	depthOf := func(id, top int64) int {
		d := 0
		for ; id != top; id = mem.nodes[id].Parent {
			d++
		}
		return d
	}
	for _, top := range []int64{0, 1, 3} {
		for _, maxDepth := range []int{0, 1, 2, 5, -1} {
			var want []int64
			n := mem.nodes[top]
			for id := n.ID; id < n.ID+n.SubtreeSize; id++ {
				if maxDepth < 0 || depthOf(id, top) <= maxDepth {
					want = append(want, id)
				}
			}
			var got []int64
			if err := s.Subtree(ctx, run, top, maxDepth, func(n Node) error {
				got = append(got, n.ID)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("Subtree(%d, %d) = %d nodes, want %d", top, maxDepth, len(got), len(want))
			}
		}
	}
}

func TestHotspotsAndStats(t *testing.T) {
	s, _ := mustCreate(t)
	run, mem := record(t, s, 27, 5, RecordOptions{BatchRows: 100}, nil)
	ctx := context.Background()
	// Reference rankings.
	var bySize, byGrowth, qsRoots, chains []hotspot
	st := Stats{RunID: run}
	qsPly := func(id int64) int {
		d := 0
		for mem.nodes[mem.nodes[id].Parent].Kind == engine.KindQS {
			id = mem.nodes[id].Parent
			d++
		}
		return d
	}
	plies := map[int]*PlyStat{}
	for id, n := range mem.nodes {
		if plies[n.Ply] == nil {
			plies[n.Ply] = &PlyStat{Ply: n.Ply}
		}
		if n.Kind != engine.KindRun { // no position the search visited
			st.Nodes++
			plies[n.Ply].Nodes++
		}
		switch n.Kind {
		case engine.KindQS:
			st.QSNodes++
			plies[n.Ply].QSNodes++
			st.MaxQSPly = max(st.MaxQSPly, qsPly(id))
			if qsPly(id) == 0 {
				st.QSRoots++
				qsRoots = append(qsRoots, hotspot{float64(n.SubtreeSize), id})
			}
		case engine.KindPV, engine.KindNonPV:
			if n.SubtreeSize > 1 {
				byGrowth = append(byGrowth, hotspot{math.Pow(float64(n.SubtreeSize), 1/float64(max(n.Depth, 0)+1)), id})
			}
		}
	}
	// Extension chains: an extended node below a parent whose move was
	// not extended, by the definition's own words rather than IsChainTop.
	for id, n := range mem.nodes {
		if p := mem.nodes[n.Parent]; n.Extension > 0 && (p == nil || p.Extension == 0) {
			chains = append(chains, hotspot{float64(n.SubtreeSize), id})
		}
	}
	bySize = append(append(bySize, qsRoots...), chains...)
	for _, h := range []*[]hotspot{&bySize, &byGrowth, &qsRoots, &chains} {
		*h = topK(*h).sorted()
	}
	bySize = slices.CompactFunc(bySize, func(a, b hotspot) bool { return a.id == b.id }) // a QS root may head a chain too
	check := func(order HotspotOrder, want []hotspot, limit int) {
		t.Helper()
		got, err := s.Hotspots(ctx, run, order, limit)
		if err != nil {
			t.Fatal(err)
		}
		want = want[:min(limit, len(want))]
		if len(got) != len(want) {
			t.Fatalf("order %d limit %d: %d hotspots, want %d", order, limit, len(got), len(want))
		}
		for i := range want {
			n := mem.nodes[want[i].id]
			// Growth is the node's, whatever ranked it (a size
			// ranking's score is the size).
			if g := math.Pow(float64(n.SubtreeSize), 1/float64(max(n.Depth, 0)+1)); got[i].Node.ID != want[i].id || got[i].Growth != g {
				t.Fatalf("order %d limit %d: #%d = node %d (growth %.3f), want %d (growth %.3f)", order, limit, i,
					got[i].Node.ID, got[i].Growth, want[i].id, g)
			}
			if share := float64(n.SubtreeSize) / float64(len(mem.nodes)-1); math.Abs(got[i].Share-share) > 1e-12 {
				t.Errorf("order %d: node %d share %v, want %v", order, n.ID, got[i].Share, share)
			}
			// The synthetic run has no options: chains' causes are unknown.
			wantCause := engine.GrowthNone
			if p := mem.nodes[n.Parent]; n.Kind == engine.KindQS && p.Kind != engine.KindQS {
				wantCause = engine.GrowthQS
			} else if n.Extension > 0 && p.Extension == 0 {
				wantCause = engine.GrowthExt
			}
			if got[i].Cause != wantCause {
				t.Errorf("order %d: node %d labelled %q, want %q", order, n.ID, got[i].Cause, wantCause)
			}
		}
	}
	if len(qsRoots) < 10 || len(byGrowth) < 10 || len(chains) < 10 {
		t.Fatalf("tree too small: %d QS roots, %d full-width nodes, %d chains", len(qsRoots), len(byGrowth), len(chains))
	}
	for _, limit := range []int{1, 5, 300} { // 300 > hotspotsKept: the scan path
		check(HotspotBySize, bySize, limit)
		check(HotspotByGrowth, byGrowth, limit)
		check(HotspotQS, qsRoots, limit)
		check(HotspotChains, chains, limit)
	}

	got, err := s.Stats(ctx, run)
	if err != nil {
		t.Fatal(err)
	}
	if got.Nodes != st.Nodes || got.QSNodes != st.QSNodes || got.QSRoots != st.QSRoots || got.MaxQSPly != st.MaxQSPly {
		t.Errorf("stats %d/%d/%d/%d, want %d/%d/%d/%d (nodes/qs/qs roots/max qs ply)",
			got.Nodes, got.QSNodes, got.QSRoots, got.MaxQSPly, st.Nodes, st.QSNodes, st.QSRoots, st.MaxQSPly)
	}
	for _, p := range got.Plies {
		if w := plies[p.Ply]; w == nil || *w != p {
			t.Errorf("ply %d: %+v, want %+v", p.Ply, p, w)
		}
	}
	if len(got.Iterations) != 5 {
		t.Fatalf("%d iterations, want 5", len(got.Iterations))
	}
	for _, it := range got.Iterations {
		root := mem.nodes[it.RootID]
		if root.Kind != engine.KindRoot || root.Iteration != it.Iteration || root.SubtreeSize != it.Nodes {
			t.Errorf("iteration %+v does not match its root %+v", it, root)
		}
	}
	// The scan used for runs that never finished agrees with the summary
	// stored at Finish.
	sum, err := s.scanSummary(ctx, run, 0)
	if err != nil {
		t.Fatal(err)
	}
	scanned := sum.stats(run)
	r, err := s.Run(ctx, run)
	if err != nil {
		t.Fatal(err)
	}
	scanned.countPositions()
	scanned.qualify(r)
	if !reflect.DeepEqual(scanned, got) {
		t.Errorf("scanned stats differ from stored:\n%+v\n%+v", scanned, got)
	}
}

// TestNodesView checks that the nodes view users query decodes every row
// the way the Go API does.
func TestNodesView(t *testing.T) {
	s, _ := mustCreate(t)
	record(t, s, 31, 3, RecordOptions{}, nil)
	run, _ := record(t, s, 33, 3, RecordOptions{}, nil)
	ctx := context.Background()
	nodes := allNodes(t, s, run)
	rows, err := s.db.QueryContext(ctx, `SELECT run_id, id, parent_id, ply, iteration, move, depth, alpha, beta, kind,
		coalesce(qs_level, -1), coalesce(qs_ply, -1), qs_level IS NULL, qs_ply IS NULL, in_check, stand_pat, score, bound, cutoff, cut_index, best, generated, searched, extension,
		subtree_size, incomplete FROM nodes WHERE run_id = ? ORDER BY id`, run)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	i := 0
	for ; rows.Next(); i++ {
		var (
			v                   Node
			move, best          sql.NullString
			kind, bound, cutoff string
			stand               sql.NullInt64
			alpha, beta, score  int
			inCheck, incomplete bool
			noLevel, noQSPly    bool
		)
		if err := rows.Scan(&v.RunID, &v.ID, &v.Parent, &v.Ply, &v.Iteration, &move, &v.Depth, &alpha, &beta, &kind,
			&v.QSLevel, &v.QSPly, &noLevel, &noQSPly, &inCheck, &stand, &score, &bound, &cutoff, &v.CutIndex, &best, &v.Generated, &v.Searched,
			&v.Extension, &v.SubtreeSize, &incomplete); err != nil {
			t.Fatal(err)
		}
		n := nodes[i]
		uci := func(m engine.Move) string {
			if m == engine.NoMove {
				return ""
			}
			return m.UCI()
		}
		if v.RunID != n.RunID || v.ID != n.ID || v.Parent != n.Parent || v.Ply != n.Ply || v.Iteration != n.Iteration ||
			move.String != uci(n.Move) || best.String != uci(n.Best) || v.Depth != n.Depth ||
			alpha != int(n.Alpha) || beta != int(n.Beta) || score != int(n.Score) ||
			kind != n.Kind.String() || bound != n.Bound.String() || cutoff != n.Cause.String() ||
			v.QSLevel != n.QSLevel || v.QSPly != n.QSPly || noLevel != (n.QSLevel < 0) || noQSPly != (n.QSPly < 0) ||
			inCheck != n.InCheck || stand.Valid != n.HasStandPat ||
			stand.Valid && stand.Int64 != int64(n.StandPat) || v.CutIndex != n.CutIndex ||
			v.Generated != n.Generated || v.Searched != n.Searched || v.Extension != n.Extension ||
			v.SubtreeSize != n.SubtreeSize || incomplete != n.Incomplete {
			t.Fatalf("view row %d = %+v move %q best %q kind %s bound %s cutoff %s\nAPI node %+v", i, v, move.String,
				best.String, kind, bound, cutoff, n)
		}
	}
	if i != len(nodes) {
		t.Errorf("view has %d rows for run %d, API %d", i, run, len(nodes))
	}
	// The stable runs columns.
	var fen, variant, status string
	var n int64
	if err := s.db.QueryRowContext(ctx, "SELECT fen, variant, status, nodes FROM runs WHERE id = ?", run).Scan(&fen, &variant, &status, &n); err != nil {
		t.Fatal(err)
	}
	if fen != tacticalFEN || status != "complete" || n != int64(len(nodes))-1 {
		t.Errorf("runs row: %s %s %s %d", fen, variant, status, n)
	}
}

// TestNodesViewNullMove: a null move (another engine's, engine.NullMove)
// reads as UCI's 0000 through the view, as a move and as a best move, not
// as the square codes it is packed in.
func TestNodesViewNullMove(t *testing.T) {
	s, _ := mustCreate(t)
	ctx := context.Background()
	rec, err := s.NewRecorder(ctx, RunInfo{FEN: tacticalFEN, Variant: "nullmove"}, RecordOptions{Engine: "other"})
	if err != nil {
		t.Fatal(err)
	}
	rec.Enter(engine.EnterInfo{ID: 0, Parent: -1, Depth: 1, Alpha: -engine.Infinity, Beta: engine.Infinity, Kind: engine.KindRun, QSPly: -1, QSLevel: -1})
	rec.Enter(engine.EnterInfo{ID: 1, Parent: 0, Depth: 1, Alpha: -10, Beta: 10, Kind: engine.KindRoot, QSPly: -1, QSLevel: -1, Iteration: 1})
	rec.Enter(engine.EnterInfo{ID: 2, Parent: 1, Ply: 1, Depth: 0, Alpha: -10, Beta: 10, Kind: engine.KindQS, QSLevel: -1, Move: engine.NullMove, Iteration: 1})
	rec.Leave(engine.LeaveInfo{ID: 2, Score: -5, Bound: engine.BoundExact, CutIndex: -1})
	rec.Leave(engine.LeaveInfo{ID: 1, Score: 5, Bound: engine.BoundExact, CutIndex: -1, Best: engine.NullMove})
	rec.Leave(engine.LeaveInfo{ID: 0, Score: 5, Bound: engine.BoundExact, CutIndex: -1})
	if err := rec.Finish(Result{Depth: 1, Score: 5}); err != nil {
		t.Fatal(err)
	}
	var move, best string
	if err := s.db.QueryRowContext(ctx, "SELECT (SELECT move FROM nodes WHERE run_id = ?1 AND id = 2), "+
		"(SELECT best FROM nodes WHERE run_id = ?1 AND id = 1)", rec.RunID()).Scan(&move, &best); err != nil {
		t.Fatal(err)
	}
	if move != "0000" || best != "0000" {
		t.Errorf("null move through the view: move %q, best %q; want 0000", move, best)
	}
}

// TestStoredInfo: schema 3's info order keeps every field of row.info at
// its widest values, and a QS node's info (QS ply below 15, no level, not
// in check) fits in 31 bits, SQLite's 4-byte integer, which is what the
// order is for.
func TestStoredInfo(t *testing.T) {
	for _, c := range []struct {
		e  engine.EnterInfo
		l  engine.LeaveInfo
		in bool
	}{
		{engine.EnterInfo{Kind: engine.KindQS, Ply: 12, Depth: -3, QSLevel: -1, QSPly: 3}, engine.LeaveInfo{Bound: engine.BoundLower, Cause: engine.CauseStandPat}, false},
		{engine.EnterInfo{Kind: engine.KindQS, Ply: maxPlyStored, Depth: minDepthStored, QSLevel: maxQSStored, QSPly: maxQSPlyStored, InCheck: true},
			engine.LeaveInfo{Bound: 3, Cause: infoCauseMask, Extension: maxExtStored}, true},
		{engine.EnterInfo{Kind: engine.KindPV, Ply: 0, Depth: maxDepthStored, QSLevel: -1, QSPly: -1}, engine.LeaveInfo{}, false},
	} {
		i := packLeave(packEnter(&c.e), &c.l, c.in)
		if got := loadedInfo(storedInfo(i)); got != i {
			t.Errorf("%+v %+v: info %#x stored and loaded is %#x", c.e, c.l, i, got)
		}
	}
	qs := engine.EnterInfo{Kind: engine.KindQS, Ply: 30, Depth: -14, QSLevel: -1, QSPly: 14}
	l := engine.LeaveInfo{Bound: engine.BoundLower, Cause: infoCauseMask}
	if s := storedInfo(packLeave(packEnter(&qs), &l, false)); s >= 1<<31 {
		t.Errorf("a QS node's stored info %#x takes more than 31 bits", s)
	}
}

// TestSearchedBeyondStored: node_rows.counts keeps 8 bits of a node's
// searched count, and a node that passes over its moves again and again
// searches more (the walkthrough's unified node 192062 of Kiwipete: 288
// child rows, "255 searched"). Readers get the true count from the child
// rows, a PVS re-search not counted twice; where a recording filter left
// the rows out, the stored 255 is a lower bound and says so.
func TestSearchedBeyondStored(t *testing.T) {
	// Child 25 is a null-window try, re-searched; child 40 one that cut off
	// an iteration of the unified search, tried again one ply deeper and
	// with the full window by the next: two searches.
	const searched, research, deeper = 301, 25, 40
	pos := engine.MustParseFEN(engine.StartFEN)
	e4, err := pos.ParseMove("e2e4")
	if err != nil {
		t.Fatal(err)
	}
	pos.MakeMove(e4)
	replies := pos.LegalMoves()
	for _, tc := range []struct {
		name    string
		under   []string
		want    int
		atLeast bool
	}{
		{"every node recorded", nil, searched, false},
		{"recording filter", []string{"e4", pos.SAN(replies[0])}, 255, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := mustCreate(t)
			rec, err := s.NewRecorder(context.Background(), RunInfo{FEN: engine.StartFEN, Variant: "synthetic"}, RecordOptions{Under: tc.under})
			if err != nil {
				t.Fatal(err)
			}
			rec.Enter(engine.EnterInfo{ID: 0, Parent: -1, Depth: 2, Alpha: -engine.Infinity, Beta: engine.Infinity, Kind: engine.KindRun, QSPly: -1, QSLevel: -1})
			rec.Enter(engine.EnterInfo{ID: 1, Parent: 0, Depth: 2, Alpha: -10, Beta: 10, Kind: engine.KindRoot, QSPly: -1, QSLevel: -1, Iteration: 1})
			rec.Enter(engine.EnterInfo{ID: 2, Parent: 1, Ply: 1, Depth: 1, Alpha: -10, Beta: 10, Kind: engine.KindPV, QSPly: -1, QSLevel: -1, Move: e4, Iteration: 1})
			id := int64(3)
			child := func(m engine.Move, alpha engine.Score, depth int) {
				rec.Enter(engine.EnterInfo{ID: id, Parent: 2, Ply: 2, Depth: depth, Alpha: alpha, Beta: 10, Kind: engine.KindPV, QSPly: -1, QSLevel: -1, Move: m, Iteration: 1})
				rec.Leave(engine.LeaveInfo{ID: id, Score: 0, Bound: engine.BoundExact, CutIndex: -1})
				id++
			}
			for j := 0; j < searched-1; j++ {
				m, depth := replies[j%len(replies)], 0
				switch j {
				case research:
					child(m, 9, 0) // the null-window try [9, 10] ...
				case deeper:
					child(m, 9, 0) // a null-window try that cut off ...
					depth = 1      // ... and the next iteration's search of the move
				}
				child(m, -10, depth) // ... and its re-search with the full window
			}
			rec.Leave(engine.LeaveInfo{ID: 2, Score: 0, Bound: engine.BoundExact, CutIndex: -1, Generated: len(replies), Searched: searched})
			rec.Leave(engine.LeaveInfo{ID: 1, Score: 0, Bound: engine.BoundExact, CutIndex: -1, Best: e4, Generated: 20, Searched: 1})
			rec.Leave(engine.LeaveInfo{ID: 0, Score: 0, Bound: engine.BoundExact, CutIndex: -1})
			if err := rec.Finish(Result{Depth: 1}); err != nil {
				t.Fatal(err)
			}
			ctx, run := context.Background(), rec.RunID()
			var got []Node
			n, err := s.Node(ctx, run, 2)
			got = append(got, n)
			kids, err2 := s.Children(ctx, run, 1, BySearch, 0, 0)
			got = append(got, kids...)
			path, err3 := s.Path(ctx, run, 2)
			got = append(got, path[len(path)-1])
			err4 := s.Subtree(ctx, run, 1, 1, func(n Node) error {
				if n.ID == 2 {
					got = append(got, n)
				}
				return nil
			})
			if err := errors.Join(err, err2, err3, err4); err != nil {
				t.Fatal(err)
			}
			if len(got) != 4 {
				t.Fatalf("read %d copies of node 2, want 4", len(got))
			}
			// Worked out once and kept: each read read the node's 301
			// children again, and a list of such siblings read all of
			// theirs (a summary's five visit marks on a run of 1,000 nodes
			// of 999 children: 76 s).
			if c := s.searchedCached.Load(); c != 1 {
				t.Errorf("the searched count was worked out %d times for 4 reads, want once", c)
			}
			for i, n := range got {
				if n.ID != 2 || n.Searched != tc.want || n.SearchedAtLeast != tc.atLeast {
					t.Errorf("read %d: node %d searched %d (at least: %v), want %d (%v)", i, n.ID, n.Searched, n.SearchedAtLeast, tc.want, tc.atLeast)
				}
			}
			if !tc.atLeast {
				// The SQL of docs/trace-file.md for the true count agrees.
				var viaSQL int
				if err := s.db.QueryRowContext(ctx, readmeSearchedQuery(t, run, 2)).Scan(&viaSQL); err != nil || viaSQL != searched {
					t.Errorf("docs/trace-file.md's query counts %d moves searched (%v), want %d", viaSQL, err, searched)
				}
			}
			r, _ := s.Run(ctx, run)
			if want := map[bool]string{false: "20 generated, 301 searched counted over all its passes",
				true: "20 generated, 255+ searched counted over all its passes"}[tc.atLeast]; r.MovesText(got[0]) != want {
				t.Errorf("moves %q, want %q", r.MovesText(got[0]), want)
			}
		})
	}
}

// TestClampedCountsReadAsLowerBounds: a generated count or cut index
// beyond what node_rows.counts stores (8 bits) reads back as the stored
// cap with its AtLeast flag set, in every read, where it read as exactly
// 255 generated and move 255; the largest counts stored exactly read
// exact. The flag comes from the stored value alone, so a file written
// before it holds the same truth ("255 or more" is true of a real 255).
func TestClampedCountsReadAsLowerBounds(t *testing.T) {
	for _, tc := range []struct {
		generated, cutIndex    int
		wantGen, wantCut       int
		genAtLeast, cutAtLeast bool
		clamped                bool
	}{
		{300, 280, 255, 254, true, true, true},
		{256, 255, 255, 254, true, true, true},
		{255, 254, 255, 254, true, true, false},
		{254, 253, 254, 253, false, false, false},
		{20, -1, 20, -1, false, false, false},
	} {
		t.Run(fmt.Sprint(tc.generated, tc.cutIndex), func(t *testing.T) {
			if got := CountsClamped(tc.generated, tc.cutIndex); got != tc.clamped {
				t.Errorf("CountsClamped(%d, %d) = %v", tc.generated, tc.cutIndex, got)
			}
			s, _ := mustCreate(t)
			ctx := context.Background()
			rec, err := s.NewRecorder(ctx, RunInfo{FEN: engine.StartFEN, Variant: "synthetic"}, RecordOptions{})
			if err != nil {
				t.Fatal(err)
			}
			cause := engine.CauseNone
			if tc.cutIndex >= 0 {
				cause = engine.CauseBeta
			}
			rec.Enter(engine.EnterInfo{ID: 0, Parent: -1, Depth: 1, Alpha: -engine.Infinity, Beta: engine.Infinity, Kind: engine.KindRun, QSPly: -1, QSLevel: -1})
			rec.Enter(engine.EnterInfo{ID: 1, Parent: 0, Depth: 1, Alpha: -10, Beta: 10, Kind: engine.KindRoot, QSPly: -1, QSLevel: -1, Iteration: 1})
			rec.Leave(engine.LeaveInfo{ID: 1, Score: 10, Bound: engine.BoundLower, Cause: cause, CutIndex: tc.cutIndex, Generated: tc.generated})
			rec.Leave(engine.LeaveInfo{ID: 0, Score: 10, Bound: engine.BoundExact, CutIndex: -1})
			if err := rec.Finish(Result{Depth: 1}); err != nil {
				t.Fatal(err)
			}
			run := rec.RunID()
			var got []Node
			n, err := s.Node(ctx, run, 1)
			got = append(got, n)
			kids, err2 := s.Children(ctx, run, 0, BySearch, 0, 0)
			got = append(got, kids...)
			if err := errors.Join(err, err2); err != nil {
				t.Fatal(err)
			}
			for i, n := range got {
				if n.Generated != tc.wantGen || n.GeneratedAtLeast != tc.genAtLeast || n.CutIndex != tc.wantCut || n.CutIndexAtLeast != tc.cutAtLeast {
					t.Errorf("read %d: generated %d (at least %v), cut index %d (at least %v), want %d (%v), %d (%v)", i,
						n.Generated, n.GeneratedAtLeast, n.CutIndex, n.CutIndexAtLeast, tc.wantGen, tc.genAtLeast, tc.wantCut, tc.cutAtLeast)
				}
			}
		})
	}
}
