package explain

import (
	"context"
	"testing"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
	"github.com/horizonqs/horizon/trace/tracetest"
)

// TestWhatIfReproducesQSRoots re-searches every QS root of small runs of
// each preset with the recorded options (Kiwipete to depth 1; see, whose
// QS orders quiet checks by the history table, to depth 2): the nodes and
// score must be the recorded subtree's, exactly, or the line must say why
// they cannot be.
func TestWhatIfReproducesQSRoots(t *testing.T) {
	st, _ := tracetest.CreateTrace(t)
	ctx := context.Background()
	for _, v := range engine.VariantNames() {
		o := options(t, v)
		if !o.HasQS() {
			continue
		}
		depth := 1
		if v == "see" {
			depth = 2
		}
		t.Run(v, func(t *testing.T) {
			o.TT = v != "unified" // the hash table of the full-width search is no QS state
			run := tracetest.RecordSearch(t, st, tracetest.Kiwipete, o, engine.Limits{Depth: depth})
			r, err := st.Run(ctx, run)
			if err != nil {
				t.Fatal(err)
			}
			roots, reproduced, explained := 0, 0, 0
			err = st.Subtree(ctx, run, 0, -1, func(n trace.Node) error {
				if n.Kind != engine.KindQS || n.QSPly != 0 {
					return nil
				}
				roots++
				// Bounded as explain bounds them (cmd/horizon's
				// whatIfNodeCap, at a test's scale): the recorded line
				// needs the subtree's nodes, and a flipped switch that
				// blows the QS up proves nothing more past the cap.
				ws, err := WhatIfs(ctx, st, r, n, engine.Limits{Nodes: 10*n.Nodes() + 10_000})
				if err != nil {
					return err
				}
				rec := ws[0]
				switch {
				case rec.Change != RecordedChange || rec.Reproduces == nil:
					t.Fatalf("node %d: first line %+v, want the recorded options'", n.ID, rec)
				case *rec.Reproduces:
					reproduced++
					if rec.Nodes != n.SubtreeSize || rec.Score != n.Score || rec.ScoreChanged {
						t.Errorf("node %d: reproduces with %d nodes, %d; recorded %d, %d", n.ID, rec.Nodes, rec.Score, n.SubtreeSize, n.Score)
					}
				case rec.Why == "" || rec.Why == unreproducible(r, n, &o, false):
					t.Errorf("node %d: %d nodes, %d; recorded %d, %d; and no reason why", n.ID, rec.Nodes, rec.Score, n.SubtreeSize, n.Score)
				default:
					explained++
				}
				for _, w := range ws[1:] {
					if w.Reproduces != nil {
						t.Errorf("node %d: %s says it reproduces", n.ID, w.Change)
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if roots == 0 {
				t.Fatal("no QS root")
			}
			t.Logf("%s: %d QS roots, %d reproduced, %d say why not", v, roots, reproduced, explained)
		})
	}
}
