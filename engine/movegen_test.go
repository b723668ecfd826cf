package engine

import (
	"bufio"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// refAttacked is an attack test that shares nothing with the engine's magic
// tables: sliders are traced square by square.
func refAttacked(p *Position, s Square, by Color) bool {
	return pawnAttacks[by.Other()][s]&p.pieces[by][Pawn] != 0 ||
		knightAttacks[s]&p.pieces[by][Knight] != 0 ||
		kingAttacks[s]&p.pieces[by][King] != 0 ||
		slide(s, p.occ, bishopDirs)&(p.pieces[by][Bishop]|p.pieces[by][Queen]) != 0 ||
		slide(s, p.occ, rookDirs)&(p.pieces[by][Rook]|p.pieces[by][Queen]) != 0
}

// refMoves is a slow, obvious legal move generator: every pseudo-legal move,
// kept when the mover's king is not attacked after it. It is the oracle the
// fast generator is compared with.
func refMoves(p *Position) []Move {
	us, them := p.side, p.side.Other()
	var pseudo []Move
	add := func(from, to Square) {
		if p.board[from].Type() == Pawn && (to.Rank() == 0 || to.Rank() == 7) {
			for _, pr := range []PieceType{Queen, Rook, Bishop, Knight} {
				pseudo = append(pseudo, newMove(from, to, pr, flagNormal))
			}
			return
		}
		pseudo = append(pseudo, newMove(from, to, NoPieceType, flagNormal))
	}
	for s := Square(0); s < 64; s++ {
		pc := p.board[s]
		if pc == NoPiece || pc.Color() != us {
			continue
		}
		var targets Bitboard
		switch pc.Type() {
		case Pawn:
			dir, start := 8, 1
			if us == Black {
				dir, start = -8, 6
			}
			one := Square(int(s) + dir)
			if p.board[one] == NoPiece {
				add(s, one)
				two := Square(int(s) + 2*dir)
				if s.Rank() == start && p.board[two] == NoPiece {
					pseudo = append(pseudo, newMove(s, two, NoPieceType, flagNormal))
				}
			}
			for a := pawnAttacks[us][s]; a != 0; {
				to := a.popLSB()
				if p.colors[them].Has(to) {
					add(s, to)
				} else if to == p.ep {
					pseudo = append(pseudo, newMove(s, to, NoPieceType, flagEnPassant))
				}
			}
			continue
		case Knight:
			targets = knightAttacks[s]
		case Bishop:
			targets = slide(s, p.occ, bishopDirs)
		case Rook:
			targets = slide(s, p.occ, rookDirs)
		case Queen:
			targets = slide(s, p.occ, bishopDirs) | slide(s, p.occ, rookDirs)
		case King:
			targets = kingAttacks[s]
		}
		for b := targets &^ p.colors[us]; b != 0; {
			add(s, b.popLSB())
		}
	}
	// Castling: rights, empty squares between king and rook, and no attack on
	// the king's start, transit and destination squares.
	for _, c := range []struct {
		right          uint8
		color          Color
		king, to, rook Square
		transit        Square
	}{
		{castleWK, White, sqE1, sqG1, sqH1, sqF1},
		{castleWQ, White, sqE1, sqC1, sqA1, sqD1},
		{castleBK, Black, sqE8, sqG8, sqH8, sqF8},
		{castleBQ, Black, sqE8, sqC8, sqA8, sqD8},
	} {
		if c.color != us || p.castle&c.right == 0 || between[c.king][c.rook]&p.occ != 0 {
			continue
		}
		if refAttacked(p, c.king, them) || refAttacked(p, c.transit, them) || refAttacked(p, c.to, them) {
			continue
		}
		pseudo = append(pseudo, newMove(c.king, c.to, NoPieceType, flagCastle))
	}
	var legal []Move
	for _, m := range pseudo {
		p.MakeMove(m)
		if !refAttacked(p, p.kingSq(us), them) {
			legal = append(legal, m)
		}
		p.UnmakeMove()
	}
	return legal
}

// compareWithRef returns an error when Generate(GenAll) and refMoves differ.
func compareWithRef(p *Position) error {
	var l MoveList
	p.Generate(GenAll, &l)
	got := slices.Clone(l.Slice())
	want := refMoves(p)
	slices.Sort(got)
	slices.Sort(want)
	if slices.Equal(got, want) {
		return nil
	}
	var missing, extra []string
	for _, m := range want {
		if _, ok := slices.BinarySearch(got, m); !ok {
			missing = append(missing, m.UCI())
		}
	}
	for _, m := range got {
		if _, ok := slices.BinarySearch(want, m); !ok {
			extra = append(extra, m.UCI())
		}
	}
	if len(missing) == 0 && len(extra) == 0 {
		return fmt.Errorf("%s: a move is generated twice: %v", p.FEN(), got)
	}
	return fmt.Errorf("%s: generator misses %v and wrongly gives %v", p.FEN(), missing, extra)
}

// testFENs returns the FEN of every position of the repository's test
// data.
func testFENs(t testing.TB) []string {
	t.Helper()
	var fens []string
	for _, name := range []string{"perftsuite.epd", "cpw_perft_results.epd", "wacnew.epd", "bratko_kopec.epd"} {
		for _, e := range readSuite(t, name) {
			fens = append(fens, e.FEN)
		}
	}
	return append(fens, benchFENs(t)...)
}

// benchFENs returns the lines of testdata/stockfish_bench.fen, one FEN
// each: the positions horizon bench searches.
func benchFENs(t testing.TB) []string {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "testdata", "stockfish_bench.fen"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var fens []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fens = append(fens, sc.Text())
	}
	return fens
}

// testPositions returns every position of the repository's test data.
func testPositions(t testing.TB) []*Position {
	t.Helper()
	var out []*Position
	for _, fen := range testFENs(t) {
		p, err := ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// TestGenerateMatchesReference walks randomly from every test position and
// compares the fast generator with the reference at every step.
func TestGenerateMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	walk := 80
	if testing.Short() {
		walk = 20
	}
	checked := 0
	for _, p := range testPositions(t) {
		start := p.FEN()
		for ply := 0; ply < walk; ply++ {
			if err := compareWithRef(p); err != nil {
				t.Fatalf("after %d random plies from %s: %v", ply, start, err)
			}
			checked++
			moves := p.LegalMoves()
			if len(moves) == 0 {
				break
			}
			p.MakeMove(moves[rng.Intn(len(moves))])
		}
	}
	if checked < 1000 {
		t.Errorf("only %d positions checked", checked)
	}
}

func TestGenerateSpecialPositions(t *testing.T) {
	cases := []struct {
		name, fen   string
		has, hasNot []string
		count       int // -1: not checked
	}{
		{"en passant would expose the king on the rank", "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1", []string{"e5e6"}, []string{"e5d6"}, 6},
		{"en passant captures the checking pawn", "8/8/8/3pP3/4K3/8/8/7k w - d6 0 1", []string{"e5d6", "e4d5"}, nil, -1},
		{"en passant cannot answer a rook check", "8/8/8/3pP3/8/8/8/r3K2k w - d6 0 1", []string{"e1e2"}, []string{"e5d6", "e5e6", "e1f1"}, 3},
		{"en passant along a pinning diagonal", "8/7k/8/8/3Pp3/8/8/1B5K b - d3 0 1", []string{"e4d3"}, []string{"e4e3"}, -1},
		{"en passant off a pinning diagonal", "k7/8/8/8/3Pp3/8/8/K6B b - d3 0 1", nil, []string{"e4d3", "e4e3"}, -1},
		{"double check: king moves only", "4k3/8/8/8/8/8/5n2/r3K3 w - - 0 1", []string{"e1e2"}, nil, 3},
		{"pinned piece moves along the pin", "4k3/4r3/8/8/8/8/4Q3/4K3 w - - 0 1", []string{"e2e7", "e2e3"}, []string{"e2d2", "e2f3"}, -1},
		{"stalemate", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", nil, nil, 0},
		{"checkmate", "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", nil, nil, 0},
		{"castling through an attacked square", "r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1", []string{"e1c1"}, []string{"e1g1"}, -1},
		{"castling with b1 attacked", "r3k2r/8/8/8/8/8/1r6/R3K2R w KQkq - 0 1", []string{"e1c1", "e1g1"}, nil, -1},
		{"castling with the rook attacked", "r3k2r/8/8/8/8/8/7r/R3K2R w KQkq - 0 1", []string{"e1g1"}, nil, -1},
		{"no castling out of check", "r3k2r/8/8/8/8/8/4r3/R3K2R w KQkq - 0 1", nil, []string{"e1c1", "e1g1"}, -1},
		{"no castling through a piece", "r3k2r/8/8/8/8/8/8/RN2K1NR w KQkq - 0 1", nil, []string{"e1c1", "e1g1"}, -1},
		{"218 moves", "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1", nil, nil, 218},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := MustParseFEN(c.fen)
			if err := compareWithRef(p); err != nil {
				t.Fatal(err)
			}
			moves := p.LegalMoves()
			for _, u := range c.has {
				if !slices.ContainsFunc(moves, func(m Move) bool { return m.UCI() == u }) {
					t.Errorf("%s is missing from %v", u, moves)
				}
			}
			for _, u := range c.hasNot {
				if slices.ContainsFunc(moves, func(m Move) bool { return m.UCI() == u }) {
					t.Errorf("%s should be illegal", u)
				}
			}
			if c.count >= 0 && len(moves) != c.count {
				t.Errorf("%d legal moves %v, want %d", len(moves), moves, c.count)
			}
		})
	}
}
