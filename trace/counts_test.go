package trace

import (
	"context"
	"testing"

	"github.com/horizonqs/horizon/engine"
)

// TestRangeCounts adds up ranges of a recorded run (every node's subtree,
// and ranges that cut subtrees) in SQLite and checks each against the
// rows Subtree streams of it.
func TestRangeCounts(t *testing.T) {
	s, _ := mustCreate(t)
	ctx := context.Background()
	rec, err := s.NewRecorder(ctx, RunInfo{FEN: tacticalFEN}, RecordOptions{BatchRows: 500})
	if err != nil {
		t.Fatal(err)
	}
	g := newSynth(rec, 7, engine.MustParseFEN(tacticalFEN))
	g.width = 4
	g.run(4)
	if err := rec.Finish(Result{}); err != nil {
		t.Fatal(err)
	}
	var rows []Node
	if err := s.Subtree(ctx, 1, 0, -1, func(n Node) error { rows = append(rows, n); return nil }); err != nil {
		t.Fatal(err)
	}
	want := func(from, end int64) RangeCounts { return rowsCounts(rows, from, end) }
	var qs, ranges int
	for i, n := range rows {
		for _, end := range []int64{n.End(), n.ID + 1 + int64(i%7)} {
			got, ok, err := s.RangeCounts(ctx, 1, n.ID, end)
			if err != nil || !ok {
				t.Fatalf("[%d, %d): ok %v, %v", n.ID, end, ok, err)
			}
			if w := want(n.ID, end); got != w {
				t.Fatalf("[%d, %d): %+v, the rows say %+v", n.ID, end, got, w)
			}
			ranges++
			if got.QSRows > 0 && got.QSRows < got.Rows {
				qs++
			}
		}
		if ranges > 3000 {
			break
		}
	}
	if qs == 0 {
		t.Fatal("no range held both QS and full-width rows")
	}
}
