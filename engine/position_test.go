package engine

import "testing"

func playUCI(t *testing.T, p *Position, moves ...string) {
	t.Helper()
	for _, s := range moves {
		p.MakeMove(mustUCI(t, p, s))
	}
}

func TestRepetition(t *testing.T) {
	p := MustParseFEN(StartFEN)
	playUCI(t, p, "g1f3", "g8f6", "f3g1")
	if p.IsRepetition() {
		t.Fatalf("repetition reported after 3 plies")
	}
	playUCI(t, p, "f6g8")
	if !p.IsRepetition() {
		t.Fatalf("start position reached again, no repetition reported")
	}
	playUCI(t, p, "e2e4", "g8f6", "g1f3", "f6g8")
	if p.IsRepetition() {
		t.Errorf("repetition reported for a new position")
	}
	playUCI(t, p, "f3g1")
	if !p.IsRepetition() {
		t.Errorf("position after 1.e4 repeated, not reported")
	}
	// Same placement with the other side to move is not a repetition.
	q := MustParseFEN("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
	playUCI(t, q, "a1a2", "e8d8", "a2a1")
	if q.IsRepetition() {
		t.Errorf("repetition reported with the other side to move")
	}
	// Lost castling rights make a different position.
	r := MustParseFEN("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
	playUCI(t, r, "e1f1", "e8f8", "f1e1", "f8e8")
	if r.IsRepetition() {
		t.Errorf("repetition reported although castling rights were lost")
	}
	playUCI(t, r, "e1f1", "e8f8", "f1e1", "f8e8")
	if !r.IsRepetition() {
		t.Errorf("repetition without castling rights not reported")
	}
}

func TestFiftyMoveCounter(t *testing.T) {
	p := MustParseFEN("4k3/8/8/8/8/8/4P3/R3K3 w - - 98 80")
	playUCI(t, p, "a1a2")
	if p.Halfmove() != 99 || p.IsFiftyMoveDraw() {
		t.Fatalf("halfmove %d, draw %v", p.Halfmove(), p.IsFiftyMoveDraw())
	}
	playUCI(t, p, "e8d8")
	if p.Halfmove() != 100 || !p.IsFiftyMoveDraw() || p.Fullmove() != 81 {
		t.Fatalf("halfmove %d fullmove %d, draw %v", p.Halfmove(), p.Fullmove(), p.IsFiftyMoveDraw())
	}
	p.UnmakeMove()
	playUCI(t, p, "e8d8", "e2e4")
	if p.Halfmove() != 0 {
		t.Errorf("pawn move left halfmove at %d", p.Halfmove())
	}
	q := MustParseFEN("4k3/8/8/8/8/8/r7/R3K3 w - - 60 80")
	playUCI(t, q, "a1a2")
	if q.Halfmove() != 0 {
		t.Errorf("capture left halfmove at %d", q.Halfmove())
	}
}

func TestInsufficientMaterial(t *testing.T) {
	cases := []struct {
		fen  string
		want bool
	}{
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1", true},
		{"4k3/8/8/8/8/8/8/4KN2 w - - 0 1", true},
		{"4k3/8/8/8/8/8/8/4KB2 w - - 0 1", true},
		{"4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", true}, // both bishops on dark squares
		{"4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1", false},
		{"4k3/8/8/8/8/8/8/3NKN2 w - - 0 1", false},
		{"4kn2/8/8/8/8/8/8/4KB2 w - - 0 1", false},
		{"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false},
		{"4k3/8/8/8/8/8/8/4K2R w - - 0 1", false},
		{"4k3/8/8/8/8/8/8/3QK3 w - - 0 1", false},
	}
	for _, c := range cases {
		if got := MustParseFEN(c.fen).IsInsufficientMaterial(); got != c.want {
			t.Errorf("IsInsufficientMaterial(%s) = %v, want %v", c.fen, got, c.want)
		}
	}
}

func TestNullMove(t *testing.T) {
	p := MustParseFEN("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3")
	before := snapshot(p)
	p.MakeNullMove()
	if p.SideToMove() != Black || p.EnPassant() != NoSquare || p.Key() != p.computeKey() {
		t.Errorf("after null move: %s, key %#x vs %#x", p.FEN(), p.Key(), p.computeKey())
	}
	p.UnmakeNullMove()
	if !equalPositions(p, &before) {
		t.Errorf("null move not undone: %s", p.FEN())
	}
}

func TestCopyIsIndependent(t *testing.T) {
	for _, c := range []struct {
		name string
		copy func(*Position) *Position
	}{{"Copy", (*Position).Copy}, {"CopyLean", (*Position).CopyLean}} {
		t.Run(c.name, func(t *testing.T) {
			p := MustParseFEN(StartFEN)
			playUCI(t, p, "e2e4")
			q := c.copy(p)
			playUCI(t, q, "e7e5", "g1f3")
			if p.FEN() != "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1" || p.Plies() != 1 {
				t.Errorf("playing on the copy changed the original: %s", p.FEN())
			}
			q.UnmakeMove()
			q.UnmakeMove()
			q.UnmakeMove()
			if q.FEN() != StartFEN || q.LastMove() != NoMove {
				t.Errorf("copy did not keep the history: %s", q.FEN())
			}
		})
	}
}

func TestAttackQueries(t *testing.T) {
	// White king e1 is checked by the knight on d3, and the bishop on e2 is
	// pinned by the rook on e8, so it may not even take the checker.
	p := MustParseFEN("4r1k1/8/8/8/8/3n4/4B3/4K3 w - - 0 1")
	if !p.InCheck() || p.Checkers() != sqBB(MakeSquare(3, 2)) {
		t.Errorf("checkers %x, in check %v", p.Checkers(), p.InCheck())
	}
	if p.Pinned(White) != sqBB(MakeSquare(4, 1)) {
		t.Errorf("pinned %x, want e2", p.Pinned(White))
	}
	if !p.Attacked(MakeSquare(4, 1), Black) || p.Attacked(MakeSquare(0, 0), Black) {
		t.Errorf("Attacked: e2 should be attacked by black, a1 not")
	}
	for _, m := range p.LegalMoves() {
		if m.From() == MakeSquare(4, 1) {
			t.Errorf("pinned bishop move %s generated", m)
		}
	}
	q := MustParseFEN("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3")
	if m := mustUCI(t, q, "e5f6"); !q.IsCapture(m) || q.Captured(m) != Pawn {
		t.Errorf("e5f6 en passant should capture a pawn")
	}
	if m := mustUCI(t, q, "e5e6"); q.IsCapture(m) || q.Captured(m) != NoPieceType {
		t.Errorf("e5e6 is not a capture")
	}
}
