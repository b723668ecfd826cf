package engine

import (
	"errors"
	"strings"
	"testing"
)

func TestParseUCI(t *testing.T) {
	const promo = "3r2k1/4P3/8/8/8/8/8/4K3 w - - 0 1"
	const castles = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
	const ep = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"
	ok := []struct {
		name, fen, uci string
		castle, ep     bool
		promo          PieceType
	}{
		{"pawn push", StartFEN, "e2e4", false, false, NoPieceType},
		{"knight", StartFEN, "g1f3", false, false, NoPieceType},
		{"king side castling", castles, "e1g1", true, false, NoPieceType},
		{"queen side castling", castles, "e1c1", true, false, NoPieceType},
		{"en passant", ep, "e5f6", false, true, NoPieceType},
		{"promotion to queen", promo, "e7e8q", false, false, Queen},
		{"capture promotion to knight", promo, "e7d8n", false, false, Knight},
		{"black castling", "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8", true, false, NoPieceType},
	}
	for _, c := range ok {
		t.Run(c.name, func(t *testing.T) {
			p := MustParseFEN(c.fen)
			m, err := p.ParseUCI(c.uci)
			if err != nil {
				t.Fatal(err)
			}
			if m.UCI() != c.uci || m.String() != c.uci {
				t.Errorf("ParseUCI(%q).UCI() = %q", c.uci, m.UCI())
			}
			if m.IsCastle() != c.castle || m.IsEnPassant() != c.ep || m.Promotion() != c.promo {
				t.Errorf("ParseUCI(%q): castle %v ep %v promotion %d, want %v %v %d",
					c.uci, m.IsCastle(), m.IsEnPassant(), m.Promotion(), c.castle, c.ep, c.promo)
			}
			if !p.IsLegal(m) {
				t.Errorf("IsLegal(%s) = false", m)
			}
		})
	}
	bad := []struct {
		name, fen, uci, msg string
	}{
		{"empty", StartFEN, "", "malformed UCI move"},
		{"too short", StartFEN, "e2", "malformed UCI move"},
		{"too long", StartFEN, "e2e4qq", "malformed UCI move"},
		{"not a square", StartFEN, "i2i4", `"i2" is not a square`},
		{"upper case", StartFEN, "E2E4", "is not a square"},
		{"bad promotion letter", promo, "e7e8k", `promotion letter 'k'`},
		{"promotion without piece", promo, "e7e8", "illegal move"},
		{"promotion of a non-pawn", StartFEN, "g1f3q", "illegal move"},
		{"empty square", StartFEN, "e3e4", "no piece on e3"},
		{"opponent's piece", StartFEN, "e7e5", "not the side to move's"},
		{"illegal pawn move", StartFEN, "e2e5", "illegal move"},
		{"castling through check", "r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1", "e1g1", "illegal move"},
		{"null move", StartFEN, "0000", "not a square"},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			p := MustParseFEN(c.fen)
			m, err := p.ParseUCI(c.uci)
			if err == nil {
				t.Fatalf("ParseUCI(%q) = %s, want an error", c.uci, m)
			}
			var me *MoveError
			if !errors.As(err, &me) || me.Text != c.uci || me.FEN != p.FEN() {
				t.Errorf("ParseUCI(%q) error %#v does not name the move and position", c.uci, err)
			}
			if !strings.Contains(err.Error(), c.msg) {
				t.Errorf("ParseUCI(%q) error %q does not say %q", c.uci, err, c.msg)
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

func TestParseSANVariants(t *testing.T) {
	const castles = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
	const promo = "3r2k1/4P3/8/8/8/8/8/4K3 w - - 0 1"
	const twoKnights = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1"
	ok := []struct {
		name, fen, san, uci string
	}{
		{"castling with zeros", castles, "0-0", "e1g1"},
		{"long castling with zeros", castles, "0-0-0", "e1c1"},
		{"promotion without =", promo, "e8Q", "e7e8q"},
		{"capture promotion without =", promo, "exd8N", "e7d8n"},
		{"missing check suffix", promo, "e8=Q", "e7e8q"},
		{"wrong suffix", StartFEN, "Nf3+", "g1f3"},
		{"annotation", StartFEN, "Nf3!?", "g1f3"},
		{"missing capture mark", "rnbqkbnr/pppp1ppp/8/4p3/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 2", "Ne5", "f3e5"},
		{"needless disambiguation", StartFEN, "Ngf3", "g1f3"},
		{"needless square", StartFEN, "Ng1f3", "g1f3"},
		{"long algebraic with dash", StartFEN, "Ng1-f3", "g1f3"},
		{"pawn capture without x", "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "ed5", "e4d5"},
	}
	for _, c := range ok {
		t.Run(c.name, func(t *testing.T) {
			p := MustParseFEN(c.fen)
			m, err := p.ParseSAN(c.san)
			if err != nil {
				t.Fatal(err)
			}
			if m.UCI() != c.uci {
				t.Errorf("ParseSAN(%q) = %s, want %s", c.san, m, c.uci)
			}
		})
	}
	bad := []struct {
		name, fen, san, msg string
	}{
		{"empty", StartFEN, "", "empty SAN move"},
		{"only suffix", StartFEN, "+", "empty SAN move"},
		{"ambiguous", twoKnights, "Nd2", "ambiguous: 2 moves match"},
		{"illegal", StartFEN, "Ke2", "illegal move"},
		{"no such piece there", twoKnights, "Ncd2", "illegal move"},
		{"castling impossible", StartFEN, "O-O", "castling is not possible"},
		{"not a square", StartFEN, "Nz9", "is not a square"},
		{"piece letter only", StartFEN, "N", "malformed SAN move"},
		{"too much disambiguation", StartFEN, "Ng1g1f3", "malformed SAN move"},
		{"promotion needed", promo, "e8", "illegal move"},
		{"promotion to king", promo, "e8=K", "malformed SAN move"},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			p := MustParseFEN(c.fen)
			m, err := p.ParseSAN(c.san)
			if err == nil {
				t.Fatalf("ParseSAN(%q) = %s, want an error", c.san, m)
			}
			if !strings.Contains(err.Error(), c.msg) {
				t.Errorf("ParseSAN(%q) error %q does not say %q", c.san, err, c.msg)
			}
			if _, err := p.ParseMove(c.san); err == nil {
				t.Errorf("ParseMove(%q) accepted it", c.san)
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
