package engine

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/horizonqs/horizon/internal/longtest"
)

var (
	perftDeep   = flag.Bool("perft.deep", false, "check every perft count of the suites, however deep (minutes)")
	perftBudget = flag.Uint64("perft.budget", 0, "check the perft counts up to this many nodes (default 1e6 in the quick run, internal/longtest, else 1e7)")
)

// readSuite reads an EPD file of the repository's testdata directory.
func readSuite(t testing.TB, name string) []EPD {
	t.Helper()
	path := filepath.Join("..", "testdata", name)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := ReadEPD(f, path)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// perftNodeBudget is the largest perft count a run checks: the depths are
// capped by node count, not depth, because the suites' positions differ in
// branching factor by two orders of magnitude.
func perftNodeBudget() uint64 {
	switch {
	case *perftDeep:
		return ^uint64(0)
	case *perftBudget != 0:
		return *perftBudget
	case longtest.Quick():
		return 1_000_000
	}
	return 10_000_000
}

// snapshot is the whole position state except the history slice, for
// checking that a walk over the tree puts everything back.
func snapshot(p *Position) Position {
	q := *p
	q.hist = nil
	return q
}

func TestPerftSuites(t *testing.T) {
	budget := perftNodeBudget()
	for _, file := range []string{"perftsuite.epd", "cpw_perft_results.epd"} {
		for _, e := range readSuite(t, file) {
			t.Run(fmt.Sprintf("%s:%d", file, e.Line), func(t *testing.T) {
				checked := 0
				for _, d := range e.Depths() {
					want := e.Perft[d]
					if want > budget {
						break
					}
					before, plies := snapshot(e.Pos), e.Pos.Plies()
					if got := Perft(e.Pos, d); got != want {
						t.Errorf("%s: perft(%d) = %d, want %d", e.FEN, d, got, want)
					}
					if after := snapshot(e.Pos); !reflect.DeepEqual(before, after) || e.Pos.Plies() != plies {
						t.Fatalf("%s: perft(%d) left the position changed: now %s", e.FEN, d, e.Pos.FEN())
					}
					checked++
				}
				if checked == 0 {
					t.Errorf("%s: no perft count within the node budget %d", e.FEN, budget)
				}
			})
		}
	}
}

func TestDivideSumsToPerft(t *testing.T) {
	p := MustParseFEN("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	div := Divide(p, 3)
	if len(div) != 48 {
		t.Fatalf("Divide gave %d root moves, want 48", len(div))
	}
	var sum uint64
	seen := map[Move]bool{}
	for _, d := range div {
		if seen[d.Move] {
			t.Errorf("root move %s listed twice", d.Move)
		}
		seen[d.Move] = true
		sum += d.Nodes
	}
	if sum != 97862 {
		t.Errorf("Divide sums to %d, want 97862", sum)
	}
	if Divide(p, 0) != nil {
		t.Errorf("Divide(0) should be empty")
	}
}

// evalFromScratch recomputes the incremental PeSTO sums of p.
func evalFromScratch(p *Position) (mg, eg [2]int32, phase int32) {
	for s := Square(0); s < 64; s++ {
		pc := p.board[s]
		if pc == NoPiece {
			continue
		}
		mg[pc.Color()] += psqMG[pc][s]
		eg[pc.Color()] += psqEG[pc][s]
		phase += pestoPhase[pc.Type()]
	}
	return
}

// checkBoardConsistent verifies the redundant board representations agree.
func checkBoardConsistent(p *Position) error {
	var colors [2]Bitboard
	for c := White; c <= Black; c++ {
		for t := Pawn; t <= King; t++ {
			for b := p.pieces[c][t]; b != 0; {
				s := b.popLSB()
				if p.board[s] != MakePiece(c, t) {
					return fmt.Errorf("bitboard has %c on %s, board has %q", MakePiece(c, t).Letter(), s, p.board[s].Letter())
				}
			}
			colors[c] |= p.pieces[c][t]
		}
		if colors[c] != p.colors[c] {
			return fmt.Errorf("colour bitboard %d out of date", c)
		}
	}
	if p.occ != colors[White]|colors[Black] || colors[White]&colors[Black] != 0 {
		return fmt.Errorf("occupancy out of date")
	}
	for s := Square(0); s < 64; s++ {
		if (p.board[s] != NoPiece) != p.occ.Has(s) {
			return fmt.Errorf("board and occupancy disagree on %s", s)
		}
	}
	return nil
}

// checkedPerft is perft that makes every move (no bulk counting) and checks,
// after each MakeMove, the incremental state against a recomputation, and
// after each UnmakeMove that the position is exactly restored. It also checks
// that captures and quiets partition all moves and that GivesCheck is right.
func checkedPerft(t *testing.T, p *Position, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var all, capt, quiet MoveList
	p.Generate(GenAll, &all)
	p.Generate(GenCaptures, &capt)
	p.Generate(GenQuiets, &quiet)
	if capt.N+quiet.N != all.N {
		t.Fatalf("%s: %d captures + %d quiets != %d moves", p.FEN(), capt.N, quiet.N, all.N)
	}
	kinds := map[Move]GenKind{}
	for _, m := range capt.Slice() {
		if !p.IsCapture(m) && m.Promotion() == NoPieceType {
			t.Fatalf("%s: GenCaptures gave quiet move %s", p.FEN(), m)
		}
		kinds[m] = GenCaptures
	}
	for _, m := range quiet.Slice() {
		if p.IsCapture(m) || m.Promotion() != NoPieceType {
			t.Fatalf("%s: GenQuiets gave tactical move %s", p.FEN(), m)
		}
		kinds[m] = GenQuiets
	}
	var n uint64
	for _, m := range all.Slice() {
		if _, ok := kinds[m]; !ok {
			t.Fatalf("%s: move %s is in neither GenCaptures nor GenQuiets", p.FEN(), m)
		}
		before := snapshot(p)
		gives := p.GivesCheck(m)
		p.MakeMove(m)
		if k := p.computeKey(); k != p.key {
			t.Fatalf("after %s (from %s): incremental key %#x, from scratch %#x", m, before.FEN(), p.key, k)
		}
		if mg, eg, ph := evalFromScratch(p); mg != p.mg || eg != p.eg || ph != p.phase {
			t.Fatalf("after %s (from %s): incremental eval mg %v eg %v phase %d, from scratch %v %v %d",
				m, before.FEN(), p.mg, p.eg, p.phase, mg, eg, ph)
		}
		if err := checkBoardConsistent(p); err != nil {
			t.Fatalf("after %s (from %s): %v", m, before.FEN(), err)
		}
		if p.Attacked(p.kingSq(p.side.Other()), p.side) {
			t.Fatalf("%s: move %s leaves the king in check", before.FEN(), m)
		}
		if p.InCheck() != gives {
			t.Fatalf("%s: GivesCheck(%s) = %v, but after it InCheck = %v", before.FEN(), m, gives, p.InCheck())
		}
		n += checkedPerft(t, p, depth-1)
		p.UnmakeMove()
		if after := snapshot(p); !reflect.DeepEqual(before, after) {
			t.Fatalf("unmaking %s did not restore %s: got %s", m, before.FEN(), p.FEN())
		}
	}
	return n
}

func TestIncrementalStateDuringPerft(t *testing.T) {
	cases := []struct {
		name, fen string
		depth     int
		want      uint64
	}{
		{"start", StartFEN, 4, 197281},
		{"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3, 97862},
		{"cpw3 en passant pins", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4, 43238},
		{"cpw4 promotions", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 3, 9467},
		{"cpw5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 3, 62379},
		{"black castling", "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", 3, 13744},
	}
	if testing.Short() {
		cases[0].depth, cases[0].want = 3, 8902
		cases[2].depth, cases[2].want = 3, 2812
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := MustParseFEN(c.fen)
			fen, key := p.FEN(), p.Key()
			if got := checkedPerft(t, p, c.depth); got != c.want {
				t.Errorf("perft(%d) = %d, want %d", c.depth, got, c.want)
			}
			if p.FEN() != fen || p.Key() != key || p.Plies() != 0 {
				t.Errorf("after perft: %s key %#x plies %d, want %s key %#x", p.FEN(), p.Key(), p.Plies(), fen, key)
			}
		})
	}
}
