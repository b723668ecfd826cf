package engine

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestParseFENErrors(t *testing.T) {
	cases := []struct {
		name, fen string
		field     string // FENError.Field
		msg       string // a phrase of FENError.Msg that names the problem
	}{
		{"empty", "", "fields", "has 0 fields"},
		{"three fields", "8/8/8/8/8/8/8/K6k w -", "fields", "has 3 fields"},
		{"seven fields", StartFEN + " 7", "fields", "has 7 fields"},
		{"bad piece letter", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "placement", "bad piece letter 'X'"},
		{"digit zero", "rnbqkbnr/pppppppp/8/8/08/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement", "bad piece letter '0'"},
		{"digit nine", "rnbqkbnr/pppppppp/8/8/9/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement", "bad piece letter '9'"},
		{"rank short", "rnbqkbnr/pppppppp/8/8/7/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement", "rank 4 has 7 squares"},
		{"rank long by digit", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR1 w KQkq - 0 1", "placement", "rank 1 has more than 8 squares"},
		{"rank long by piece", "rnbqkbnrp/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement", "rank 8 has more than 8 squares"},
		{"rank long by two digits", "rnbqkbnr/pppppppp/8/44p/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement", "rank 5 has more than 8 squares"},
		{"empty rank", "rnbqkbnr/pppppppp//8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement", "rank 6 has 0 squares"},
		{"seven ranks", "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement", "has 7 ranks"},
		{"nine ranks", "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement", "has 9 ranks"},
		{"white king missing", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1", "placement", "white king is missing"},
		{"black king missing", "8/8/8/8/8/8/8/K7 w - - 0 1", "placement", "black king is missing"},
		{"two white kings", "k7/8/8/8/8/8/8/KK6 w - - 0 1", "placement", "white has 2 kings"},
		{"two black kings", "kk6/8/8/8/8/8/8/K7 w - - 0 1", "placement", "black has 2 kings"},
		{"white pawn on rank 1", "k7/8/8/8/8/8/8/K6P w - - 0 1", "placement", "white pawn on the first or last rank (h1)"},
		{"white pawn on rank 8", "k6P/8/8/8/8/8/8/K7 w - - 0 1", "placement", "white pawn on the first or last rank (h8)"},
		{"black pawn on rank 1", "k7/8/8/8/8/8/8/K6p w - - 0 1", "placement", "black pawn on the first or last rank (h1)"},
		{"bad side", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side", `"x" is not w or b`},
		{"side upper case", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR W KQkq - 0 1", "side", `"W" is not w or b`},
		{"bad castling letter", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1", "castling", "bad letter 'x'"},
		{"castling letter repeated", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKq - 0 1", "castling", "letter 'K' repeated"},
		{"castling with dash", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w K- - 0 1", "castling", "bad letter '-'"},
		{"white king moved", "r3k2r/8/8/8/8/8/8/R4K1R w KQkq - 0 1", "castling", "right 'K' but the white king is not on e1"},
		{"black king moved", "r4k1r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "castling", "right 'k' but the black king is not on e8"},
		{"no h1 rook", "r3k2r/8/8/8/8/8/8/R3K3 w KQkq - 0 1", "castling", "right 'K' but no white rook on h1"},
		{"no a1 rook", "r3k2r/8/8/8/8/8/8/4K2R w KQkq - 0 1", "castling", "right 'Q' but no white rook on a1"},
		{"no h8 rook", "r3k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "castling", "right 'k' but no black rook on h8"},
		{"black rook as white's", "r3k2r/8/8/8/8/8/8/r3K2R w KQkq - 0 1", "castling", "right 'Q' but no white rook on a1"},
		{"ep not a square", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", "en passant", `"e9" is not a square`},
		{"ep wrong rank for white", "rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", "en passant", "e3 is impossible with w to move (want rank 6)"},
		{"ep wrong rank for black", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e6 0 1", "en passant", "e6 is impossible with b to move (want rank 3)"},
		{"ep without pawn", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1", "en passant", "no pawn that just moved two squares on e5"},
		{"ep with own pawn", "rnbqkbnr/pppppppp/8/4P3/8/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 1", "en passant", "no pawn that just moved two squares on e5"},
		{"ep square occupied", "rnbqkbnr/pppp1ppp/4n3/4p3/8/8/PPPPPPPP/RNBQKB1R w KQkq e6 0 1", "en passant", "e6 or e7 is occupied"},
		{"ep origin occupied", "rnbqkbnr/ppppnppp/8/4p3/8/8/PPPPPPPP/RNBQKB1R w KQkq e6 0 1", "en passant", "e6 or e7 is occupied"},
		{"halfmove not a number", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "halfmove", `"x" is not a non-negative number`},
		{"halfmove negative", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1", "halfmove", `"-1" is not a non-negative number`},
		{"fullmove not a number", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 one", "fullmove", `"one" is not a positive number`},
		{"fullmove zero", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0", "fullmove", `"0" is not a positive number`},
		{"halfmove past the clock's range", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 9223372036854775807 1", "halfmove", `"9223372036854775807" is out of range (at most 1000000000)`},
		{"fullmove past the clock's range", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1000000001", "fullmove", `"1000000001" is out of range (at most 1000000000)`},
		{"side not to move in check", "k6R/8/8/8/8/8/8/K7 w - - 0 1", "position", "the side not to move (b) is in check"},
		{"side not to move in check by pawn", "8/8/8/8/8/2k5/1P6/K7 w - - 0 1", "position", "the side not to move (b) is in check"},
		{"white not to move in check", "k7/8/8/8/8/8/1p6/K7 b - - 0 1", "position", "the side not to move (w) is in check"},
		{"triple check", "k7/8/8/8/8/1n6/r7/K3q3 w - - 0 1", "position", "in check from 3 pieces"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := ParseFEN(c.fen)
			if err == nil {
				t.Fatalf("ParseFEN(%q) = %s, want an error", c.fen, p.FEN())
			}
			var fe *FENError
			if !errors.As(err, &fe) {
				t.Fatalf("ParseFEN(%q) error %v is a %T, want *FENError", c.fen, err, err)
			}
			if fe.Field != c.field {
				t.Errorf("ParseFEN(%q): field %q, want %q (error: %v)", c.fen, fe.Field, c.field, err)
			}
			if !strings.Contains(fe.Msg, c.msg) {
				t.Errorf("ParseFEN(%q): message %q does not say %q", c.fen, fe.Msg, c.msg)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q spans lines", err)
			}
		})
	}
}

func TestParseFENAccepts(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"startpos", "startpos", StartFEN},
		{"spaces around", "  " + StartFEN + "\t", StartFEN},
		{"four fields get default clocks", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", StartFEN},
		{"five fields", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 7", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 7 1"},
		{"castling letters in any order", "r3k2r/8/8/8/8/8/8/R3K2R w qkQK - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"},
		{"en passant kept", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"},
		{"black en passant", "rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 2", "rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 2"},
		{"double check", "4k3/8/8/8/8/8/5n2/r3K3 w - - 0 1", "4k3/8/8/8/8/8/5n2/r3K3 w - - 0 1"},
		{"big clocks", "8/8/8/8/8/8/8/K6k b - - 99 200", "8/8/8/8/8/8/8/K6k b - - 99 200"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := ParseFEN(c.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.FEN(); got != c.want {
				t.Errorf("ParseFEN(%q).FEN() = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

// TestFENRoundTrip parses every position of the test data, formats it and
// parses the result again: the second parse must give the same position.
func TestFENRoundTrip(t *testing.T) {
	fens := testFENs(t)
	if len(fens) < 500 {
		t.Fatalf("read only %d positions", len(fens))
	}
	for _, fen := range fens {
		p, err := ParseFEN(fen)
		if err != nil {
			t.Errorf("ParseFEN(%q): %v", fen, err)
			continue
		}
		out := p.FEN()
		if fields := strings.Fields(fen); len(fields) == 6 && out != strings.Join(fields, " ") {
			t.Errorf("ParseFEN(%q).FEN() = %q", fen, out)
		}
		q, err := ParseFEN(out)
		if err != nil {
			t.Errorf("re-parsing %q: %v", out, err)
			continue
		}
		if q.FEN() != out || q.Key() != p.Key() || !equalPositions(p, q) {
			t.Errorf("round trip of %q changed the position: %q", out, q.FEN())
		}
	}
}

func equalPositions(a, b *Position) bool {
	return reflect.DeepEqual(snapshot(a), snapshot(b))
}

func TestStartposKeyAfterMoves(t *testing.T) {
	// The same position reached by different move orders must hash the same,
	// and must equal the position parsed from its FEN.
	a := MustParseFEN(StartFEN)
	b := MustParseFEN(StartFEN)
	for _, m := range []string{"e2e4", "e7e6", "d2d4", "d7d5"} {
		a.MakeMove(mustUCI(t, a, m))
	}
	for _, m := range []string{"d2d4", "d7d5", "e2e4", "e7e6"} {
		b.MakeMove(mustUCI(t, b, m))
	}
	c := MustParseFEN(a.FEN())
	if a.Key() != b.Key() || a.Key() != c.Key() {
		t.Errorf("keys differ: %#x %#x %#x", a.Key(), b.Key(), c.Key())
	}
	// A double push with no enemy pawn to take en passant leaves no ep square.
	if a.EnPassant() != NoSquare {
		t.Errorf("ep square %s after d7d5 with no white pawn beside it", a.EnPassant())
	}
}

func mustUCI(t testing.TB, p *Position, s string) Move {
	t.Helper()
	m, err := p.ParseUCI(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// Issue 17 items 15 and 16: errors quote a bounded prefix of a huge FEN,
// and name a bad character, not the first byte of its encoding.
func TestFENErrorsQuoteSensibly(t *testing.T) {
	huge := "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 " + strings.Repeat("9", 100_000)
	_, err := ParseFEN(huge)
	if err == nil || len(err.Error()) > 600 || !strings.Contains(err.Error(), "bytes)") {
		t.Errorf("100 KB FEN: error of %d bytes, want a bounded quote saying how long the FEN was", len(fmt.Sprint(err)))
	}
	for _, tc := range []struct{ fen, want string }{
		{"rnbqkbnr/ppppéppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "bad piece letter 'é'"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ♔q - 0 1", "bad letter '♔'"},
		{"rnbqkbnr/pppp\xffppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "bad piece letter byte 0xff"},
	} {
		_, err := ParseFEN(tc.fen)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseFEN(%q): %v, want %q", tc.fen, err, tc.want)
		}
	}
}

// TestFENByteOrderMark: a FEN read from a file a Windows editor saved
// ($(cat pos.fen)) starts with a byte-order mark: it is skipped, as at the
// start of an EPD file.
func TestFENByteOrderMark(t *testing.T) {
	for _, fen := range []string{"\ufeffstartpos", "\ufeff" + StartFEN, " \ufeff" + StartFEN + "\r\n"} {
		p, err := ParseFEN(fen)
		if err != nil || p.FEN() != StartFEN {
			t.Errorf("ParseFEN(%q) = %v, %v; want the start position", fen, p, err)
		}
	}
}
