package engine

import (
	"fmt"
	"strconv"
	"strings"
)

// StartFEN is the standard starting position.
const StartFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// FENError says which field of a FEN is wrong and why.
type FENError struct {
	FEN   string
	Field string // "placement", "side", "castling", "en passant", "halfmove", "fullmove", "fields", "position"
	Msg   string
}

// Error names the FEN, the field and the problem.
func (e *FENError) Error() string {
	return fmt.Sprintf("bad FEN %s: %s: %s", quote(e.FEN), e.Field, e.Msg)
}

// maxClock bounds the halfmove and fullmove clocks a FEN may give: far
// beyond any game (none lasts 6,000 moves), and far enough below int's
// limit that the moves made from the position never overflow them into a
// FEN that does not parse.
const maxClock = 1_000_000_000

// ParseFEN parses a FEN with 4 to 6 fields (missing clocks default to 0 and
// 1); "startpos" stands for the starting position. It rejects positions that
// cannot arise in a game of chess in ways a move generator would trip on.
func ParseFEN(fen string) (*Position, error) {
	fen = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(fen), BOM)) // $(cat pos.fen) of a Windows file
	if fen == "startpos" {
		fen = StartFEN
	}
	fail := func(field, format string, a ...any) (*Position, error) {
		return nil, &FENError{FEN: fen, Field: field, Msg: fmt.Sprintf(format, a...)}
	}
	f := strings.Fields(fen)
	if len(f) < 4 || len(f) > 6 {
		return fail("fields", "has %d fields, want 4 to 6 (placement, side, castling, en passant, halfmove, fullmove)", len(f))
	}
	p := &Position{ep: NoSquare, full: 1, hist: make([]undo, 0, 1024)}

	ranks := strings.Split(f[0], "/")
	if len(ranks) != 8 {
		unit := "ranks"
		if len(ranks) == 1 {
			unit = "rank" // a FEN with no '/' at all
		}
		return fail("placement", "has %d %s, want 8 separated by '/'", len(ranks), unit)
	}
	for i, row := range ranks {
		r := 7 - i
		file := 0
		for j := 0; j < len(row); j++ {
			ch := row[j]
			switch {
			case ch >= '1' && ch <= '8':
				file += int(ch - '0')
			default:
				k := strings.IndexByte(pieceLetters, ch)
				if k <= 0 || ch == ' ' {
					return fail("placement", "rank %d: bad piece letter %s", r+1, charAt(row, j))
				}
				if file >= 8 {
					return fail("placement", "rank %d has more than 8 squares", r+1)
				}
				p.put(Piece(k), MakeSquare(file, r))
				file++
			}
			if file > 8 {
				return fail("placement", "rank %d has more than 8 squares", r+1)
			}
		}
		if file != 8 {
			return fail("placement", "rank %d has %d squares, want 8", r+1, file)
		}
	}
	for c := White; c <= Black; c++ {
		name := [2]string{"white", "black"}[c]
		switch n := p.pieces[c][King].Count(); {
		case n == 0:
			return fail("placement", "%s king is missing", name)
		case n > 1:
			return fail("placement", "%s has %d kings", name, n)
		}
		if p.pieces[c][Pawn]&(rank1|rank8) != 0 {
			return fail("placement", "%s pawn on the first or last rank (%s)", name, (p.pieces[c][Pawn] & (rank1 | rank8)).lsb())
		}
	}

	switch f[1] {
	case "w":
		p.side = White
	case "b":
		p.side = Black
	default:
		return fail("side", "%s is not w or b", quote(f[1]))
	}

	if f[2] != "-" {
		for i := 0; i < len(f[2]); i++ {
			var bit uint8
			var king, rook Square
			var c Color
			switch f[2][i] {
			case 'K':
				bit, king, rook, c = castleWK, sqE1, sqH1, White
			case 'Q':
				bit, king, rook, c = castleWQ, sqE1, sqA1, White
			case 'k':
				bit, king, rook, c = castleBK, sqE8, sqH8, Black
			case 'q':
				bit, king, rook, c = castleBQ, sqE8, sqA8, Black
			default:
				return fail("castling", "bad letter %s (want K, Q, k, q or -)", charAt(f[2], i))
			}
			if p.castle&bit != 0 {
				return fail("castling", "letter %q repeated", f[2][i])
			}
			if p.board[king] != MakePiece(c, King) {
				return fail("castling", "right %q but the %s king is not on %s", f[2][i], [2]string{"white", "black"}[c], king)
			}
			if p.board[rook] != MakePiece(c, Rook) {
				return fail("castling", "right %q but no %s rook on %s", f[2][i], [2]string{"white", "black"}[c], rook)
			}
			p.castle |= bit
		}
	}

	if f[3] != "-" {
		s, ok := parseSquare(f[3])
		if !ok {
			return fail("en passant", "%s is not a square", quote(f[3]))
		}
		wantRank, pawnSq, fromSq := 5, s-8, s+8
		if p.side == Black {
			wantRank, pawnSq, fromSq = 2, s+8, s-8
		}
		if s.Rank() != wantRank {
			return fail("en passant", "%s is impossible with %s to move (want rank %d)", s, p.side, wantRank+1)
		}
		if p.board[pawnSq] != MakePiece(p.side.Other(), Pawn) {
			return fail("en passant", "%s but no pawn that just moved two squares on %s", s, pawnSq)
		}
		if p.board[s] != NoPiece || p.board[fromSq] != NoPiece {
			return fail("en passant", "%s but %s or %s is occupied, so no pawn just passed", s, s, fromSq)
		}
		p.ep = s
	}

	for i, c := range [2]struct {
		field, want string
		min         int
		dst         *int
	}{{"halfmove", "non-negative", 0, &p.half}, {"fullmove", "positive", 1, &p.full}} {
		if len(f) <= 4+i {
			break
		}
		n, err := strconv.Atoi(f[4+i])
		if err != nil || n < c.min {
			return fail(c.field, "%s is not a %s number", quote(f[4+i]), c.want)
		}
		if n > maxClock {
			return fail(c.field, "%s is out of range (at most %d)", quote(f[4+i]), maxClock)
		}
		*c.dst = n
	}

	if p.Attacked(p.kingSq(p.side.Other()), p.side) {
		return fail("position", "the side not to move (%s) is in check", p.side.Other())
	}
	if n := p.Checkers().Count(); n > 2 {
		return fail("position", "the side to move is in check from %d pieces", n)
	}
	p.key = p.computeKey()
	return p, nil
}

// MustParseFEN is ParseFEN for constants known to be good; it panics otherwise.
func MustParseFEN(fen string) *Position {
	p, err := ParseFEN(fen)
	if err != nil {
		panic(err)
	}
	return p
}

func parseSquare(s string) (Square, bool) {
	if len(s) != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' {
		return NoSquare, false
	}
	return MakeSquare(int(s[0]-'a'), int(s[1]-'1')), true
}

// FEN returns the position in Forsyth-Edwards Notation.
func (p *Position) FEN() string {
	var b strings.Builder
	for r := 7; r >= 0; r-- {
		empty := 0
		for f := 0; f < 8; f++ {
			pc := p.board[MakeSquare(f, r)]
			if pc == NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			b.WriteByte(pc.Letter())
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	b.WriteByte(' ')
	b.WriteString(p.side.String())
	b.WriteByte(' ')
	if p.castle == 0 {
		b.WriteByte('-')
	}
	for i, ch := range "KQkq" {
		if p.castle&(1<<i) != 0 {
			b.WriteRune(ch)
		}
	}
	fmt.Fprintf(&b, " %s %d %d", p.ep, p.half, p.full)
	return b.String()
}

// String returns the board as eight lines of FEN letters and dots, then the FEN.
func (p *Position) String() string {
	var b strings.Builder
	for r := 7; r >= 0; r-- {
		for f := 0; f < 8; f++ {
			pc := p.board[MakeSquare(f, r)]
			if pc == NoPiece {
				b.WriteByte('.')
			} else {
				b.WriteByte(pc.Letter())
			}
			if f < 7 {
				b.WriteByte(' ')
			}
		}
		b.WriteByte('\n')
	}
	b.WriteString(p.FEN())
	return b.String()
}
