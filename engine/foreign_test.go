package engine

import "testing"

// TestPseudoMove: moves by the rules of movement alone, as king-capture
// engines search them.
func TestPseudoMove(t *testing.T) {
	tests := []struct {
		fen, move string
		ok        bool
	}{
		{"4k3/8/8/8/8/8/3r4/4K3 w - - 0 1", "e1d1", true},    // into check: pseudo-legal
		{"4k3/8/8/8/8/8/3r4/4K3 w - - 0 1", "e1c3", false},   // no king moves so
		{"4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1g1", true},   // castling
		{"4k3/8/8/8/8/8/8/R3K1NR w KQ - 0 1", "e1g1", false}, // a piece in the way
		{"4k3/8/8/8/8/8/8/R3K2R w Q - 0 1", "e1g1", false},   // no right
		{"4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1", "e1g1", true}, // through check: still pseudo-legal
		{"4k3/8/8/8/8/8/P7/4K3 w - - 0 1", "a2a4", true},     // double push
		{"4k3/8/8/8/8/p7/P7/4K3 w - - 0 1", "a2a4", false},   // blocked
		{"4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q", true},    // promotion
		{"4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8", false},    // promotion without a piece
		{"8/8/8/8/8/2k5/8/R3K3 w - - 0 1", "a1d1", true},     // rook
		{"7k/8/8/8/8/8/8/R2nK3 w - - 0 1", "a1e1", false},    // own king in the way
		{"4k3/8/8/8/8/8/8/4K2R w - - 0 1", "h1e1", false},    // onto its own piece
		{"4k3/8/8/8/8/8/8/4Kbr1 w - - 0 1", "e1g1", false},   // no rook, no right
		{"8/8/8/8/2k5/8/8/4K2R w - - 0 1", "h1h8", true},     // open file
		{"4k3/8/8/8/8/8/8/4K2R w - - 0 1", "h1e8", false},    // not a rook move
		{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", true},  // en passant
	}
	for _, tc := range tests {
		p, err := ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		from := MakeSquare(int(tc.move[0]-'a'), int(tc.move[1]-'1'))
		to := MakeSquare(int(tc.move[2]-'a'), int(tc.move[3]-'1'))
		promo := NoPieceType
		if len(tc.move) == 5 {
			promo = Queen
		}
		m, ok := p.PseudoMove(from, to, promo)
		if ok != tc.ok {
			t.Errorf("%s in %s: ok %v, want %v", tc.move, tc.fen, ok, tc.ok)
			continue
		}
		if ok {
			if m.UCI() != tc.move {
				t.Errorf("%s: got %s", tc.move, m.UCI())
			}
			if l, err := p.ParseUCI(tc.move); err == nil && l != m {
				t.Errorf("%s: pseudo move %v, legal move %v", tc.move, m, l)
			}
			before := p.FEN()
			p.MakeMove(m)
			p.UnmakeMove()
			if p.FEN() != before {
				t.Errorf("%s: make/unmake changed %s to %s", tc.move, before, p.FEN())
			}
		}
	}
}

// TestPseudoKingCapture: the move that takes a king has no position after
// it, so it is refused.
func TestPseudoKingCapture(t *testing.T) {
	p, _ := ParseFEN("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1")
	m, ok := p.PseudoMove(MakeSquare(4, 0), MakeSquare(3, 0), NoPieceType)
	if !ok {
		t.Fatal("e1d1 refused")
	}
	p.MakeMove(m)
	if _, ok := p.PseudoMove(MakeSquare(3, 1), MakeSquare(3, 0), NoPieceType); ok {
		t.Error("d2d1 takes the king, but was accepted")
	}
}

// TestNullMoveCode: NullMove plays and takes back a pass, replays as legal, and
// prints as 0000 and --.
func TestNullMoveCode(t *testing.T) {
	p, _ := ParseFEN("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1")
	before, key := p.FEN(), p.Key()
	if !p.IsLegal(NullMove) || NullMove.UCI() != "0000" || p.SAN(NullMove) != "--" {
		t.Fatalf("legal %v, UCI %s, SAN %s", p.IsLegal(NullMove), NullMove.UCI(), p.SAN(NullMove))
	}
	p.MakeMove(NullMove)
	if p.SideToMove() != Black || p.EnPassant() != NoSquare || p.LastMove() != NullMove {
		t.Errorf("after the null move: %s", p.FEN())
	}
	p.UnmakeMove()
	if p.FEN() != before || p.Key() != key {
		t.Errorf("took back to %s, want %s", p.FEN(), before)
	}
}
