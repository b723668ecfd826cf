package trace

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"slices"
	"testing"

	"github.com/horizonqs/horizon/engine"
)

// rowsCounts adds up rows (by id) with ids in [from, end) as RangeCounts
// does, from the rows themselves.
func rowsCounts(rows []Node, from, end int64) RangeCounts {
	c := noCounts
	i, _ := slices.BinarySearchFunc(rows, from, func(n Node, id int64) int { return cmp.Compare(n.ID, id) })
	for _, n := range rows[i:] {
		if n.ID >= end {
			break
		}
		c.Rows++
		if n.Kind == engine.KindQS {
			c.QSRows++
			c.MaxQSPly = max(c.MaxQSPly, n.QSPly)
			c.MaxQSNodePly = max(c.MaxQSNodePly, n.Ply)
		}
	}
	return c
}

// checkRangeCounts holds RangeCounts and RangeCountsMany of run against
// its rows: every node's subtree, runs of siblings side by side (as
// export asks for them), and ranges that cut subtrees, of its first 3,000
// rows. It returns how many of the ranges held a stored subtree's top.
func checkRangeCounts(t *testing.T, s *Store, run int64) (stored int) {
	t.Helper()
	ctx := context.Background()
	rows := allNodes(t, s, run)
	figs, err := s.StoredSubtreeCounts(ctx, run)
	if err != nil {
		t.Fatal(err)
	}
	var ranges []IDRange
	for i, n := range rows[:min(len(rows), 3000)] {
		ranges = append(ranges, IDRange{n.ID, n.End()}, IDRange{n.ID, n.ID + 1 + int64(i%97)})
		// n and its next siblings: up to four subtrees side by side.
		end := n.End()
		for j, k := i+1, 0; j < len(rows) && k < 3; j++ {
			if rows[j].ID == end && rows[j].Parent == n.Parent {
				end = rows[j].End()
				k++
			}
		}
		ranges = append(ranges, IDRange{n.ID, end})
	}
	got, ok, err := s.RangeCountsMany(ctx, run, ranges)
	if err != nil || !ok {
		t.Fatalf("run %d: RangeCountsMany: ok %v, %v", run, ok, err)
	}
	for i, r := range ranges {
		want := rowsCounts(rows, r.From, r.End)
		if got[i] != want {
			t.Fatalf("run %d [%d, %d): RangeCountsMany %+v, the rows say %+v", run, r.From, r.End, got[i], want)
		}
		if i%5 == 0 {
			one, ok, err := s.RangeCounts(ctx, run, r.From, r.End)
			if err != nil || !ok || one != want {
				t.Fatalf("run %d [%d, %d): RangeCounts %+v (ok %v, %v), the rows say %+v", run, r.From, r.End, one, ok, err, want)
			}
		}
		for id := range figs {
			if id >= r.From && id < r.End {
				stored++
				break
			}
		}
	}
	for id, c := range figs {
		n, err := s.Node(ctx, run, id)
		if err != nil {
			t.Fatalf("run %d: stored figures of node %d, which does not read: %v", run, id, err)
		}
		if want := rowsCounts(rows, id, n.End()); c != want {
			t.Fatalf("run %d node %d: stored %+v, the rows say %+v", run, id, c, want)
		}
	}
	return stored
}

// lowCountsMin lowers subtreeCountsMin for a test: the synthetic runs are
// small.
func lowCountsMin(t *testing.T, min int64) {
	old := subtreeCountsMin
	subtreeCountsMin = min
	t.Cleanup(func() { subtreeCountsMin = old })
}

// TestSubtreeCounts: a finished run stores the figures of each subtree of
// subtreeCountsMin ids or more, equal to its rows' (with a recording
// filter too, where rows are fewer than ids), and RangeCounts and
// RangeCountsMany, which add them up, equal the rows' on every range.
func TestSubtreeCounts(t *testing.T) {
	lowCountsMin(t, 8)
	for _, tc := range []struct {
		name string
		opts RecordOptions
	}{
		{"whole", RecordOptions{BatchRows: 500}},
		{"last iteration", RecordOptions{LastIterationOnly: true}},
		{"capped", RecordOptions{MaxNodes: 300, KeepSearching: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := mustCreate(t)
			run, _ := record(t, s, 7, 4, tc.opts, func(g *synth) { g.width = 4 })
			figs, err := s.StoredSubtreeCounts(context.Background(), run)
			if err != nil || len(figs) == 0 {
				t.Fatalf("stored figures: %d, %v; want some", len(figs), err)
			}
			if checkRangeCounts(t, s, run) == 0 {
				t.Fatal("no range held a stored subtree")
			}
		})
	}
}

// TestRangeCountsCut: ranges longer than rangesCountsSQL counts at once
// are counted in parts, and their figures are their rows', with stored
// subtree figures and without (a run too small to store any).
func TestRangeCountsCut(t *testing.T) {
	defer func(n int64) { packedMaxSpan = n }(packedMaxSpan)
	packedMaxSpan = 7
	for _, min := range []int64{8, 1 << 40} {
		lowCountsMin(t, min)
		s, _ := mustCreate(t)
		run, _ := record(t, s, 7, 3, RecordOptions{}, func(g *synth) { g.width = 4 })
		checkRangeCounts(t, s, run)
	}
}

// TestCutRanges: each range longer than the span is cut into parts of the
// span at most, each with its range's entry of to; a list without one is
// returned as it is.
func TestCutRanges(t *testing.T) {
	for _, c := range []struct {
		name         string
		ranges, want []IDRange
		to, wantTo   []int
	}{
		{"none long", []IDRange{{0, 4}, {10, 11}}, []IDRange{{0, 4}, {10, 11}}, []int{3, 5}, []int{3, 5}},
		{"one long", []IDRange{{0, 4}, {10, 19}, {30, 31}}, []IDRange{{0, 4}, {10, 14}, {14, 18}, {18, 19}, {30, 31}}, []int{0, 1, 2}, []int{0, 1, 1, 1, 2}},
		{"a span exactly", []IDRange{{2, 10}}, []IDRange{{2, 6}, {6, 10}}, []int{7}, []int{7, 7}},
		{"empty ones kept", []IDRange{{5, 5}, {0, 9}}, []IDRange{{5, 5}, {0, 4}, {4, 8}, {8, 9}}, []int{0, 1}, []int{0, 1, 1, 1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, to := cutRanges(c.ranges, c.to, 4)
			if !slices.Equal(got, c.want) || !slices.Equal(to, c.wantTo) {
				t.Errorf("cut into %v %v, want %v %v", got, to, c.want, c.wantTo)
			}
		})
	}
}

// TestSubtreeCountsInterrupted: a run cut short by a node limit is
// finished with its open nodes incomplete, and its stored figures are its
// rows'.
func TestSubtreeCountsInterrupted(t *testing.T) {
	lowCountsMin(t, 8)
	s, _ := mustCreate(t)
	rec, g := startRecording(t, s, RecordOptions{MaxNodes: 2000}, 3, engine.MustParseFEN(tacticalFEN))
	g.width = 4
	g.run(6)
	if err := rec.Finish(Result{Stopped: engine.StopNodes}); err != nil {
		t.Fatal(err)
	}
	r, err := s.Run(context.Background(), rec.RunID())
	if err != nil || r.Status == StatusComplete {
		t.Fatalf("run: %+v, %v; want one cut short", r.Status, err)
	}
	figs, _ := s.StoredSubtreeCounts(context.Background(), r.ID)
	if len(figs) == 0 {
		t.Fatal("no stored figures")
	}
	checkRangeCounts(t, s, r.ID)
}

// TestSubtreeCountsDamaged: stored figures are untrusted. Out of bounds
// (more rows than ids, QS rows without a QS ply, a span past the range)
// they are not used, and RangeCounts answers from the rows; within bounds
// but wrong they are what RangeCounts answers (check finds them: see
// check's TestStoredFiguresDamaged). Nothing panics.
func TestSubtreeCountsDamaged(t *testing.T) {
	lowCountsMin(t, 8)
	ctx := context.Background()
	for _, tc := range []struct {
		name, set string
		used      bool // the damaged figure is used
	}{
		{"rows above ids", "rows = rows + 100000", false},
		{"negative QS rows", "qs_rows = -1", false},
		{"QS ply without QS rows", "qs_rows = 0, max_qs_ply = 5", false},
		{"huge ply", "max_qs_node_ply = 100000", false},
		{"one row fewer", "rows = rows - 1", true},
		// Not integers: refused, not an error for the reader.
		{"rows as text", "rows = 'x'", false},
		{"a real ply", "max_qs_ply = 2.5", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, p := mustCreate(t)
			run, _ := record(t, s, 7, 4, RecordOptions{}, func(g *synth) { g.width = 4 })
			rows := allNodes(t, s, run)
			// The biggest stored subtree below the run node with QS rows.
			var victim Node
			for _, n := range rows[1:] {
				c := rowsCounts(rows, n.ID, n.End())
				if n.SubtreeSize >= subtreeCountsMin && c.QSRows > 0 && c.QSRows < c.Rows && n.SubtreeSize > victim.SubtreeSize {
					victim = n
				}
			}
			if victim.SubtreeSize == 0 {
				t.Fatal("no stored subtree with QS rows")
			}
			db, err := sql.Open("sqlite3", p)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := db.Exec("UPDATE subtree_counts SET "+tc.set+" WHERE run_id = ? AND id = ?", run, victim.ID); err != nil {
				t.Fatal(err)
			}
			db.Close()
			want := rowsCounts(rows, victim.ID, victim.End())
			var parent Node
			for _, n := range rows {
				if n.ID == victim.Parent {
					parent = n
				}
			}
			// The victim's subtree, and it with its next siblings.
			for _, r := range []IDRange{{victim.ID, victim.End()}, {victim.ID, parent.End()}} {
				got, ok, err := s.RangeCounts(ctx, run, r.From, r.End)
				if err != nil || !ok {
					t.Fatalf("[%d, %d): ok %v, %v", r.From, r.End, ok, err)
				}
				if w := rowsCounts(rows, r.From, r.End); (got == w) == tc.used {
					t.Errorf("[%d, %d): %+v, the rows say %+v; damaged figure used: want %v", r.From, r.End, got, w, tc.used)
				}
			}
			if tc.used {
				got, _, _ := s.RangeCounts(ctx, run, victim.ID, victim.End())
				if got.Rows != want.Rows-1 {
					t.Errorf("rows %d, want the stored %d", got.Rows, want.Rows-1)
				}
			}
		})
	}
}

// TestSubtreeCountsUnfinished: a run not finished (being recorded, as
// here, or abandoned by a killed recorder: TestKillLoop) has the stored
// figures of its closed subtrees, committed with their rows, which equal
// them; its ranges add up as its committed rows say.
func TestSubtreeCountsUnfinished(t *testing.T) {
	lowCountsMin(t, 8)
	s, p := mustCreate(t)
	rec, g := startRecording(t, s, RecordOptions{BatchRows: 256}, 5, engine.MustParseFEN(tacticalFEN))
	g.width = 4
	g.run(4)
	rec.Flush()
	// As a killed recorder leaves it: rows committed, no Finish. A second
	// store reads the run as abandoned once this one lets go of it.
	r, err := OpenReadOnly(p)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	figs, err := r.StoredSubtreeCounts(context.Background(), rec.RunID())
	if err != nil || len(figs) == 0 {
		t.Fatalf("stored figures of a running run: %d, %v; want its closed subtrees'", len(figs), err)
	}
	snap, err := r.Snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	if len(allNodes(t, snap, rec.RunID())) == 0 {
		t.Fatal("no rows committed")
	}
	checkRangeCounts(t, snap, rec.RunID())
	if err := rec.Finish(Result{}); err != nil && !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
}
