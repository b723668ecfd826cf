package engine

import (
	"context"
	"testing"
)

// countTracer counts the events a QS-only run reports.
type countTracer struct {
	nopTracer
	enters, leaves, qs int64
	rootKind           NodeKind
	rootChildKind      NodeKind
}

func (c *countTracer) Enter(e EnterInfo) {
	if c.enters == 0 {
		c.rootKind = e.Kind
	}
	if c.enters == 1 {
		c.rootChildKind = e.Kind
	}
	c.enters++
	if e.Kind == KindQS {
		c.qs++
	}
}
func (c *countTracer) Leave(LeaveInfo) { c.leaves++ }

func TestQuiesce(t *testing.T) {
	ctx := context.Background()
	for _, fen := range minimaxPositions {
		p := MustParseFEN(fen)
		t.Run(fen, func(t *testing.T) {
			// Plain capture QS with the open window is the exhaustive
			// capture search's value, whatever the ordering.
			for _, v := range []string{"captures", "mvv-lva", "unified"} {
				o, _ := VariantOptions(v)
				s := NewSearcher(o)
				r := s.Quiesce(ctx, p, -Infinity, Infinity, Limits{}, nil)
				if want := qsAlphaBeta(p.Copy(), -Infinity, Infinity); r.Score != want {
					t.Errorf("%s: Quiesce = %d, exhaustive capture search %d", v, r.Score, want)
				}
				if r.Bound != BoundExact || r.Stopped != StopNone || r.QSNodes < 1 || r.Nodes != r.QSNodes {
					t.Errorf("%s: bound %v stopped %v, %d QS nodes of %d", v, r.Bound, r.Stopped, r.QSNodes, r.Nodes)
				}
			}
			// none has no QS: one horizon node with the static evaluation.
			o, _ := VariantOptions("none")
			r := NewSearcher(o).Quiesce(ctx, p, -Infinity, Infinity, Limits{}, nil)
			if r.Score != p.Evaluate() || r.QSNodes != 0 || r.Nodes != 1 {
				t.Errorf("none: %d in %d nodes (%d QS), want the eval %d in 1 (0 QS)", r.Score, r.Nodes, r.QSNodes, p.Evaluate())
			}
			if p.FEN() != fen && p.FEN() != MustParseFEN(fen).FEN() {
				t.Errorf("position changed to %s", p.FEN())
			}
		})
	}
}

func TestQuiesceTracedAndLimited(t *testing.T) {
	ctx := context.Background()
	p := MustParseFEN("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	for _, v := range VariantNames() {
		o, _ := VariantOptions(v)
		s := NewSearcher(o)
		plain := s.Quiesce(ctx, p, -Infinity, Infinity, Limits{}, nil)
		var tr countTracer
		traced := s.Quiesce(ctx, p, -Infinity, Infinity, Limits{}, &tr)
		if traced.Score != plain.Score || traced.QSNodes != plain.QSNodes {
			t.Errorf("%s: traced %d/%d nodes, untraced %d/%d", v, traced.Score, traced.QSNodes, plain.Score, plain.QSNodes)
		}
		wantChild := KindQS
		if o.QSMoves == QSNone {
			wantChild = KindRoot // no QS: a horizon node, a full-width leaf at ply 0
		}
		if tr.enters != traced.Nodes+1 || tr.leaves != tr.enters || tr.qs != traced.QSNodes ||
			tr.rootKind != KindRun || tr.rootChildKind != wantChild {
			t.Errorf("%s: tracer saw %d enters, %d leaves, %d QS, kinds %v/%v; result %d nodes", v, tr.enters, tr.leaves,
				tr.qs, tr.rootKind, tr.rootChildKind, traced.Nodes)
		}
	}
	o, _ := VariantOptions("threshold")
	r := NewSearcher(o).Quiesce(ctx, p, -Infinity, Infinity, Limits{Nodes: 10}, nil)
	if r.Stopped != StopNodes || r.Bound != BoundNone {
		t.Errorf("node limit 10: stopped %v bound %v after %d nodes", r.Stopped, r.Bound, r.Nodes)
	}
}

// The recapture QS reads the move that led to its root, as at a real
// horizon node: with it, it recaptures; without history it has nothing to do.
func TestQuiesceReadsLastMove(t *testing.T) {
	ctx := context.Background()
	p := MustParseFEN("4k3/8/8/3p4/8/5N2/8/4K3 b - - 0 1")
	m, err := p.ParseUCI("d5d4")
	if err != nil {
		t.Fatal(err)
	}
	p.MakeMove(m)
	q := MustParseFEN(p.FEN()) // the same position, no history
	// After ...d4, Nxd4 takes on the last move's square.
	o, _ := VariantOptions("recapture")
	s := NewSearcher(o)
	with := s.Quiesce(ctx, p, -Infinity, Infinity, Limits{}, nil)
	without := s.Quiesce(ctx, q, -Infinity, Infinity, Limits{}, nil)
	if with.QSNodes <= without.QSNodes {
		t.Errorf("recapture QS: %d nodes with the last move, %d without; want more with it", with.QSNodes, without.QSNodes)
	}
}

// TestDeltaFailLowIsSound: a QS with delta pruning that fails low returns
// an upper bound no search of the same node at a higher window beats: its
// score takes in the most each delta-pruned capture was assumed to win
// (eval + victim + margin), and a node delta-pruned whole the most its
// moves could win (eval + queen + margin). Before, such a node returned
// the eval (or its best searched score): at a window starting there the
// capture is no longer pruned and may beat it, so the bound, kept by the
// hash table, was wrong. Each routine with delta: qsearch (see), the
// threshold QS and unified's QS iteration.
//
// A mate (a quiet check at the first QS ply) is the exception: delta
// pruning assumes no move wins more than a queen plus the margin.
func TestDeltaFailLowIsSound(t *testing.T) {
	for _, spec := range []string{"see", "captures+delta=true", "threshold+delta=true", "unified+delta=true+tt=false"} {
		o, err := ParseVariantSpec(spec)
		if err != nil {
			t.Fatal(err)
		}
		checked := 0
		for _, fen := range append(minimaxPositions, "4k3/8/8/3p4/8/8/8/3QK3 w - - 0 1", "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1") {
			pos := MustParseFEN(fen)
			eval := pos.Evaluate()
			for _, a := range []Score{eval + 150, eval + 350, eval + 700, eval + 1500} {
				r := NewSearcher(o).Quiesce(context.Background(), pos, a, a+1, Limits{}, nil)
				if r.Bound != BoundUpper {
					continue
				}
				checked++
				again := NewSearcher(o).Quiesce(context.Background(), pos, r.Score, r.Score+1, Limits{}, nil)
				if again.Score > r.Score && !again.Score.IsMate() {
					t.Errorf("%s %s: window [%d,%d] failed low at %d, but window [%d,%d] scores %d",
						spec, fen, a, a+1, r.Score, r.Score, r.Score+1, again.Score)
				}
			}
		}
		if checked == 0 {
			t.Errorf("%s: no QS failed low", spec)
		}
	}
}

// TestDeltaBoundKeepsPVSExact: with the hash table off, PVS finds the
// score plain alpha-beta finds, with delta pruning too: a scout's QS
// child that fails low on an upper bound below what a delta-pruned
// capture may win returned a fail high above beta, and the PV node took
// it as a cutoff instead of re-searching. Before delta-pruned captures
// counted in the score, 7 of the 49 bench positions at depth 2 scored
// otherwise with pvs on, and WAC.001 (e5c6 -143, where pvs off and
// the search now give f6e8 +117).
func TestDeltaBoundKeepsPVSExact(t *testing.T) {
	o, err := ParseVariantSpec("see+tt=false")
	if err != nil {
		t.Fatal(err)
	}
	plain := o
	plain.PVS = false
	fens := append(benchFENs(t), "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1")
	compared := 0
	for _, fen := range fens {
		// A node cap keeps the bench's QS explosions short; a search it
		// stops has no score to compare.
		lim := Limits{Depth: 2, Nodes: 20_000}
		a := NewSearcher(o).Search(context.Background(), MustParseFEN(fen), lim, nil)
		b := NewSearcher(plain).Search(context.Background(), MustParseFEN(fen), lim, nil)
		if a.Depth < 2 || b.Depth < 2 {
			continue
		}
		compared++
		if a.Score != b.Score {
			t.Errorf("%s: pvs scores %d (%s), alpha-beta %d (%s)", fen, a.Score, a.BestMove.UCI(), b.Score, b.BestMove.UCI())
		}
	}
	if compared < len(fens)/2 {
		t.Errorf("only %d of %d positions searched to depth 2 within the cap", compared, len(fens))
	}
}
