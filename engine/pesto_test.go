package engine

import "testing"

// TestPestoSquareOrder checks entries whose published index is known, so a
// wrong flip (or none) between the wiki's a8-first layout and a1 = 0 fails.
func TestPestoSquareOrder(t *testing.T) {
	sq := func(name string) Square { return MakeSquare(int(name[0]-'a'), int(name[1]-'1')) }
	tests := []struct {
		name   string
		table  *[7][64]int32
		pt     PieceType
		square string
		want   int32
	}{
		{"mg pawn a7 (published index 8)", &pstMG, Pawn, "a7", 98},
		{"mg pawn h7 (published index 15)", &pstMG, Pawn, "h7", -11},
		{"mg pawn a2 (published index 48)", &pstMG, Pawn, "a2", -35},
		{"mg king a1 (published index 56)", &pstMG, King, "a1", -15},
		{"mg king e1 (published index 60)", &pstMG, King, "e1", 8},
		{"mg knight a8 (published index 0)", &pstMG, Knight, "a8", -167},
		{"mg knight h1 (published index 63)", &pstMG, Knight, "h1", -23},
		{"eg pawn h7 (published index 15)", &pstEG, Pawn, "h7", 187},
		{"eg king h8 (published index 7)", &pstEG, King, "h8", -17},
		{"eg king a1 (published index 56)", &pstEG, King, "a1", -53},
		{"eg rook h1 (published index 63)", &pstEG, Rook, "h1", -20},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.table[tc.pt][sq(tc.square)]; got != tc.want {
				t.Errorf("%s[%d][%s] = %d, want %d", tc.name, tc.pt, tc.square, got, tc.want)
			}
		})
	}
}

// TestPestoPawnBackRanks checks that pawns score nothing on ranks 1 and 8,
// where they can never stand; a transposed table would put values there.
func TestPestoPawnBackRanks(t *testing.T) {
	for f := 0; f < 8; f++ {
		for _, r := range []int{0, 7} {
			s := MakeSquare(f, r)
			if pstMG[Pawn][s] != 0 || pstEG[Pawn][s] != 0 {
				t.Errorf("pawn bonus on %s = mg %d eg %d, want 0", s, pstMG[Pawn][s], pstEG[Pawn][s])
			}
		}
	}
}

// TestPestoBlackMirror checks that a Black piece read at s^56 gets the bonus
// of the White piece on the mirrored square: a Black pawn on a2 is on its
// seventh rank.
func TestPestoBlackMirror(t *testing.T) {
	a2 := MakeSquare(0, 1)
	if got := pstMG[Pawn][a2^56]; got != 98 {
		t.Errorf("black pawn on a2 reads mg %d, want 98 (white pawn on a7)", got)
	}
}

// TestPestoStartingPhase checks that the starting army sums to the opening
// phase of 24 and that the piece values are the published ones.
func TestPestoStartingPhase(t *testing.T) {
	army := map[PieceType]int32{Pawn: 8, Knight: 2, Bishop: 2, Rook: 2, Queen: 1, King: 1}
	var phase int32
	for pt, n := range army {
		phase += 2 * n * pestoPhase[pt]
	}
	if phase != 24 {
		t.Errorf("starting phase = %d, want 24", phase)
	}
	if pestoMG[NoPieceType] != 0 || pestoEG[NoPieceType] != 0 || pestoPhase[NoPieceType] != 0 {
		t.Errorf("NoPieceType entries must be zero")
	}
	if pestoMG[Queen] != 1025 || pestoEG[Queen] != 936 || pestoMG[Pawn] != 82 || pestoEG[Pawn] != 94 {
		t.Errorf("piece values differ from the published ones: mg %v eg %v", pestoMG, pestoEG)
	}
}
