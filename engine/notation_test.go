package engine

import (
	"errors"
	"strings"
	"testing"
)

// Positions of the notation tests.
const (
	promo      = "3r2k1/4P3/8/8/8/8/8/4K3 w - - 0 1"
	castles    = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
	twoKnights = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1"
)

// TestParseMoves: moves in UCI, and SAN as people write it, parse to the
// legal move meant, with its castling, en passant and promotion flags, and
// ParseMove, which takes either notation, finds the same move.
func TestParseMoves(t *testing.T) {
	const ep = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"
	parsers := map[string]func(*Position, string) (Move, error){"uci": (*Position).ParseUCI, "san": (*Position).ParseSAN}
	for _, c := range []struct {
		notation, name, fen, move, uci string
		castle, ep                     bool
		promo                          PieceType
	}{
		{"uci", "pawn push", StartFEN, "e2e4", "e2e4", false, false, NoPieceType},
		{"uci", "knight", StartFEN, "g1f3", "g1f3", false, false, NoPieceType},
		{"uci", "king side castling", castles, "e1g1", "e1g1", true, false, NoPieceType},
		{"uci", "queen side castling", castles, "e1c1", "e1c1", true, false, NoPieceType},
		{"uci", "en passant", ep, "e5f6", "e5f6", false, true, NoPieceType},
		{"uci", "promotion to queen", promo, "e7e8q", "e7e8q", false, false, Queen},
		{"uci", "capture promotion to knight", promo, "e7d8n", "e7d8n", false, false, Knight},
		{"uci", "black castling", "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8", "e8c8", true, false, NoPieceType},
		{"san", "castling with zeros", castles, "0-0", "e1g1", true, false, NoPieceType},
		{"san", "long castling with zeros", castles, "0-0-0", "e1c1", true, false, NoPieceType},
		{"san", "promotion without =", promo, "e8Q", "e7e8q", false, false, Queen},
		{"san", "capture promotion without =", promo, "exd8N", "e7d8n", false, false, Knight},
		{"san", "missing check suffix", promo, "e8=Q", "e7e8q", false, false, Queen},
		{"san", "wrong suffix", StartFEN, "Nf3+", "g1f3", false, false, NoPieceType},
		{"san", "annotation", StartFEN, "Nf3!?", "g1f3", false, false, NoPieceType},
		{"san", "missing capture mark", "rnbqkbnr/pppp1ppp/8/4p3/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 2", "Ne5", "f3e5", false, false, NoPieceType},
		{"san", "needless disambiguation", StartFEN, "Ngf3", "g1f3", false, false, NoPieceType},
		{"san", "needless square", StartFEN, "Ng1f3", "g1f3", false, false, NoPieceType},
		{"san", "long algebraic with dash", StartFEN, "Ng1-f3", "g1f3", false, false, NoPieceType},
		{"san", "pawn capture without x", "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "ed5", "e4d5", false, false, NoPieceType},
	} {
		t.Run(c.notation+" "+c.name, func(t *testing.T) {
			p := MustParseFEN(c.fen)
			m, err := parsers[c.notation](p, c.move)
			if err != nil {
				t.Fatal(err)
			}
			if m.UCI() != c.uci || m.String() != c.uci {
				t.Errorf("%s %q = %s (UCI %q), want %s", c.notation, c.move, m, m.UCI(), c.uci)
			}
			if m.IsCastle() != c.castle || m.IsEnPassant() != c.ep || m.Promotion() != c.promo {
				t.Errorf("%s %q: castle %v ep %v promotion %d, want %v %v %d",
					c.notation, c.move, m.IsCastle(), m.IsEnPassant(), m.Promotion(), c.castle, c.ep, c.promo)
			}
			if !p.IsLegal(m) {
				t.Errorf("IsLegal(%s) = false", m)
			}
			if got, err := p.ParseMove(c.move); err != nil || got != m {
				t.Errorf("ParseMove(%q) = %s, %v; want %s", c.move, got, err, m)
			}
		})
	}
	if NoMove.UCI() != "0000" {
		t.Errorf("NoMove.UCI() = %q", NoMove.UCI())
	}
}

// sanCases pair a move in UCI with its SAN; TestSAN formats and parses each.
var sanCases = []struct {
	name, fen, uci, san string
}{
	{"pawn push", StartFEN, "e2e4", "e4"},
	{"knight", StartFEN, "g1f3", "Nf3"},
	{"king side castling", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", "O-O"},
	{"queen side castling", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1", "O-O-O"},
	{"black castling", "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8g8", "O-O"},
	{"castling with check", "5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", "O-O+"},
	{"en passant", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "e5f6", "exf6"},
	{"pawn capture", "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "e4d5", "exd5"},
	{"piece capture", "rnbqkbnr/pppp1ppp/8/4p3/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 2", "f3e5", "Nxe5"},
	{"promotion with check", "3r2k1/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8q", "e8=Q+"},
	{"capture promotion with check", "3r2k1/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8q", "exd8=Q+"},
	{"under-promotion", "3r2k1/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8n", "e8=N"},
	{"black promotion with check", "4k3/8/8/8/8/8/p7/4K3 b - - 0 1", "a2a1q", "a1=Q+"},
	{"disambiguation by file", "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "b1d2", "Nbd2"},
	{"disambiguation by file, other piece", "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "f3d2", "Nfd2"},
	{"disambiguation by rank", "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a1a3", "R1a3"},
	{"disambiguation by rank, other piece", "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a5a3", "R5a3"},
	{"disambiguation by square", "2k5/8/8/8/4Q2Q/8/8/K6Q w - - 0 1", "h4e1", "Qh4e1"},
	{"file beats rank", "2k5/8/8/8/4Q2Q/8/8/K6Q w - - 0 1", "e4e1", "Qee1"},
	{"rank when file is shared", "2k5/8/8/8/4Q2Q/8/8/K6Q w - - 0 1", "h1e1", "Q1e1"},
	{"no disambiguation for a pinned twin", "4k3/8/8/8/8/8/5N2/r1N1K3 w - - 0 1", "f2d3", "Nd3"},
	{"check", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a8", "Ra8+"},
	{"mate", "6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1", "a1a8", "Ra8#"},
	{"discovered check", "4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1", "e4c5", "Nc5+"},
	{"king move", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "e1d2", "Kd2"},
	{"mate by black", "4k3/8/8/8/8/8/q4PPP/6K1 b - - 0 1", "a2a1", "Qa1#"},
}

func TestSAN(t *testing.T) {
	for _, c := range sanCases {
		t.Run(c.name, func(t *testing.T) {
			p := MustParseFEN(c.fen)
			m := mustUCI(t, p, c.uci)
			if got := p.SAN(m); got != c.san {
				t.Errorf("SAN(%s) = %q, want %q", c.uci, got, c.san)
			}
			got, err := p.ParseSAN(c.san)
			if err != nil {
				t.Fatalf("ParseSAN(%q): %v", c.san, err)
			}
			if got != m {
				t.Errorf("ParseSAN(%q) = %s, want %s", c.san, got, c.uci)
			}
			if got, err := p.ParseMove(c.san); err != nil || got != m {
				t.Errorf("ParseMove(%q) = %s, %v; want %s", c.san, got, err, c.uci)
			}
			if got, err := p.ParseMove(c.uci); err != nil || got != m {
				t.Errorf("ParseMove(%q) = %s, %v; want %s", c.uci, got, err, c.uci)
			}
			if p.FEN() != c.fen {
				t.Errorf("formatting and parsing changed the position to %s", p.FEN())
			}
		})
	}
}

// TestParseBadMoves: a bad move in UCI or SAN notation is refused with a
// MoveError that names the move and the position and says what is wrong,
// and ParseMove, which takes either notation, refuses it too.
func TestParseBadMoves(t *testing.T) {
	parsers := map[string]func(*Position, string) (Move, error){"uci": (*Position).ParseUCI, "san": (*Position).ParseSAN}
	for _, c := range []struct {
		notation, name, fen, move, msg string
	}{
		{"uci", "empty", StartFEN, "", "malformed UCI move"},
		{"uci", "too short", StartFEN, "e2", "malformed UCI move"},
		{"uci", "too long", StartFEN, "e2e4qq", "malformed UCI move"},
		{"uci", "not a square", StartFEN, "i2i4", `"i2" is not a square`},
		{"uci", "upper case", StartFEN, "E2E4", "is not a square"},
		{"uci", "bad promotion letter", promo, "e7e8k", `promotion letter 'k'`},
		{"uci", "promotion without piece", promo, "e7e8", "illegal: a promotion names its piece: e7e8q (or r, b, n)"},
		{"uci", "promotion of a non-pawn", StartFEN, "g1f3q", "illegal: g1f3q is no promotion: write g1f3"},
		{"uci", "castling as king takes rook", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1h1", "illegal: castling is written as the king's move, e1g1, not as the king taking its rook"},
		{"uci", "castling as king takes rook, queenside", "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8a8", "castling is written as the king's move, e8c8"},
		{"uci", "king takes rook without castling rights", "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1", "e1h1", "illegal move"},
		{"uci", "pinned piece", "4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1", "e2d3", "illegal: it leaves its own king in check"},
		{"uci", "empty square", StartFEN, "e3e4", "no piece on e3"},
		{"uci", "opponent's piece", StartFEN, "e7e5", "not the side to move's"},
		{"uci", "illegal pawn move", StartFEN, "e2e5", "illegal move"},
		{"uci", "castling through check", "r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1", "e1g1", "illegal: the king would castle out of, through or into check"},
		{"uci", "null move", StartFEN, "0000", "not a square"},
		{"san", "empty", StartFEN, "", "empty SAN move"},
		{"san", "only suffix", StartFEN, "+", "empty SAN move"},
		{"san", "ambiguous", twoKnights, "Nd2", "ambiguous: 2 moves match"},
		{"san", "illegal", StartFEN, "Ke2", "illegal move"},
		{"san", "no such piece there", twoKnights, "Ncd2", "illegal move"},
		{"san", "castling impossible", StartFEN, "O-O", "castling is not possible"},
		{"san", "not a square", StartFEN, "Nz9", "is not a square"},
		{"san", "piece letter only", StartFEN, "N", "malformed SAN move"},
		{"san", "too much disambiguation", StartFEN, "Ng1g1f3", "malformed SAN move"},
		{"san", "promotion needed", promo, "e8", "illegal move"},
		{"san", "promotion to king", promo, "e8=K", "malformed SAN move"},
	} {
		t.Run(c.notation+" "+c.name, func(t *testing.T) {
			p := MustParseFEN(c.fen)
			m, err := parsers[c.notation](p, c.move)
			if err == nil {
				t.Fatalf("%s %q = %s, want an error", c.notation, c.move, m)
			}
			var me *MoveError
			if !errors.As(err, &me) || me.Text != c.move || me.FEN != p.FEN() {
				t.Errorf("%s %q: error %#v does not name the move and position", c.notation, c.move, err)
			}
			if !strings.Contains(err.Error(), c.msg) {
				t.Errorf("%s %q: error %q does not say %q", c.notation, c.move, err, c.msg)
			}
			if m, err := p.ParseMove(c.move); err == nil {
				t.Errorf("ParseMove(%q) accepted it as %s", c.move, m)
			}
		})
	}
}

// TestSANRoundTripAllMoves formats every legal move of many positions in SAN
// and parses it back; SANs of one position must also be distinct.
func TestSANRoundTripAllMoves(t *testing.T) {
	var positions []*Position
	for _, name := range []string{"perftsuite.epd", "wacnew.epd", "bratko_kopec.epd"} {
		for _, e := range readSuite(t, name) {
			positions = append(positions, e.Pos)
		}
	}
	for _, p := range positions {
		fen := p.FEN()
		seen := map[string]Move{}
		for _, m := range p.LegalMoves() {
			san := p.SAN(m)
			if prev, dup := seen[san]; dup {
				t.Errorf("%s: moves %s and %s both format as %q", fen, prev, m, san)
			}
			seen[san] = m
			got, err := p.ParseSAN(san)
			if err != nil || got != m {
				t.Errorf("%s: ParseSAN(SAN(%s) = %q) = %s, %v", fen, m, san, got, err)
			}
			got, err = p.ParseUCI(m.UCI())
			if err != nil || got != m {
				t.Errorf("%s: ParseUCI(%q) = %s, %v", fen, m.UCI(), got, err)
			}
		}
		if p.FEN() != fen {
			t.Fatalf("notation changed the position %s to %s", fen, p.FEN())
		}
	}
}

// A move read from a damaged trace can hold any bits: printing it must
// not panic (issue 17's fuzz target found promotion value 7 did).
func TestUCIOfAnyMoveValue(t *testing.T) {
	for v := Move(0); v < 1<<17; v++ {
		if s := v.UCI(); s == "" {
			t.Fatalf("Move(%d).UCI() is empty", v)
		}
	}
}

// TestPlayUCI: a moves list is played in order; at the first move that is
// not legal where it stands PlayUCI stops, names it by index and leaves the
// moves before it played.
func TestPlayUCI(t *testing.T) {
	for _, tc := range []struct {
		name    string
		moves   []string
		stopped int    // index returned
		fen     string // the position after
		err     string // "" when all moves are played
	}{
		{"none", nil, 0, StartFEN, ""},
		{"all", []string{"e2e4", "e7e5", "g1f3"}, 3, "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2", ""},
		{"illegal second", []string{"e2e4", "e2e4", "g1f3"}, 1, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", `move "e2e4"`},
		{"malformed", []string{"e2"}, 0, StartFEN, "malformed UCI move"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := MustParseFEN(StartFEN)
			i, err := p.PlayUCI(tc.moves)
			if i != tc.stopped || p.FEN() != tc.fen {
				t.Errorf("index %d, position %s; want %d, %s", i, p.FEN(), tc.stopped, tc.fen)
			}
			if (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
				t.Errorf("error %v, want one saying %q", err, tc.err)
			}
		})
	}
}
