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
	f := strings.Fields(fen)
	if len(f) < 4 || len(f) > 6 {
		return nil, &FENError{FEN: fen, Field: "fields", Msg: fmt.Sprintf("has %d fields, want 4 to 6 (placement, side, castling, en passant, halfmove, fullmove)", len(f))}
	}
	p := &Position{ep: NoSquare, full: 1, hist: make([]undo, 0, 1024)}
	// Each field is read in order, as a later one is checked against the
	// earlier ones (castling rights against the placement, en passant
	// against the side to move).
	for _, read := range []func() *FENError{
		func() *FENError { return p.readPlacement(f[0]) },
		func() *FENError { return p.readSide(f[1]) },
		func() *FENError { return p.readCastling(f[2]) },
		func() *FENError { return p.readEnPassant(f[3]) },
		func() *FENError { return p.readClocks(f[4:]) },
		p.checkPosition,
	} {
		if e := read(); e != nil {
			e.FEN = fen
			return nil, e
		}
	}
	p.key = p.computeKey()
	return p, nil
}

// fenFail is a field's complaint; ParseFEN adds the FEN it came from.
func fenFail(field, format string, a ...any) *FENError {
	return &FENError{Field: field, Msg: fmt.Sprintf(format, a...)}
}

// readPlacement puts the pieces of FEN field 1 on p's board and checks the
// kings and pawns a move generator relies on.
func (p *Position) readPlacement(field string) *FENError {
	ranks := strings.Split(field, "/")
	if len(ranks) != 8 {
		unit := "ranks"
		if len(ranks) == 1 {
			unit = "rank" // a FEN with no '/' at all
		}
		return fenFail("placement", "has %d %s, want 8 separated by '/'", len(ranks), unit)
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
					return fenFail("placement", "rank %d: bad piece letter %s", r+1, charAt(row, j))
				}
				if file >= 8 {
					return fenFail("placement", "rank %d has more than 8 squares", r+1)
				}
				p.put(Piece(k), MakeSquare(file, r))
				file++
			}
			if file > 8 {
				return fenFail("placement", "rank %d has more than 8 squares", r+1)
			}
		}
		if file != 8 {
			return fenFail("placement", "rank %d has %d squares, want 8", r+1, file)
		}
	}
	for c := White; c <= Black; c++ {
		name := [2]string{"white", "black"}[c]
		switch n := p.pieces[c][King].Count(); {
		case n == 0:
			return fenFail("placement", "%s king is missing", name)
		case n > 1:
			return fenFail("placement", "%s has %d kings", name, n)
		}
		if p.pieces[c][Pawn]&(rank1|rank8) != 0 {
			return fenFail("placement", "%s pawn on the first or last rank (%s)", name, (p.pieces[c][Pawn] & (rank1 | rank8)).lsb())
		}
	}
	return nil
}

// readSide reads FEN field 2, the side to move.
func (p *Position) readSide(field string) *FENError {
	switch field {
	case "w":
		p.side = White
	case "b":
		p.side = Black
	default:
		return fenFail("side", "%s is not w or b", quote(field))
	}
	return nil
}

// readCastling reads FEN field 3; a right needs its king and rook at home.
func (p *Position) readCastling(field string) *FENError {
	if field == "-" {
		return nil
	}
	for i := 0; i < len(field); i++ {
		var bit uint8
		var king, rook Square
		var c Color
		switch field[i] {
		case 'K':
			bit, king, rook, c = castleWK, sqE1, sqH1, White
		case 'Q':
			bit, king, rook, c = castleWQ, sqE1, sqA1, White
		case 'k':
			bit, king, rook, c = castleBK, sqE8, sqH8, Black
		case 'q':
			bit, king, rook, c = castleBQ, sqE8, sqA8, Black
		default:
			return fenFail("castling", "bad letter %s (want K, Q, k, q or -)", charAt(field, i))
		}
		if p.castle&bit != 0 {
			return fenFail("castling", "letter %q repeated", field[i])
		}
		if p.board[king] != MakePiece(c, King) {
			return fenFail("castling", "right %q but the %s king is not on %s", field[i], [2]string{"white", "black"}[c], king)
		}
		if p.board[rook] != MakePiece(c, Rook) {
			return fenFail("castling", "right %q but no %s rook on %s", field[i], [2]string{"white", "black"}[c], rook)
		}
		p.castle |= bit
	}
	return nil
}

// readEnPassant reads FEN field 4: the square must be one a pawn of the side
// not to move just passed.
func (p *Position) readEnPassant(field string) *FENError {
	if field == "-" {
		return nil
	}
	s, ok := parseSquare(field)
	if !ok {
		return fenFail("en passant", "%s is not a square", quote(field))
	}
	wantRank, pawnSq, fromSq := 5, s-8, s+8
	if p.side == Black {
		wantRank, pawnSq, fromSq = 2, s+8, s-8
	}
	if s.Rank() != wantRank {
		return fenFail("en passant", "%s is impossible with %s to move (want rank %d)", s, p.side, wantRank+1)
	}
	if p.board[pawnSq] != MakePiece(p.side.Other(), Pawn) {
		return fenFail("en passant", "%s but no pawn that just moved two squares on %s", s, pawnSq)
	}
	if p.board[s] != NoPiece || p.board[fromSq] != NoPiece {
		return fenFail("en passant", "%s but %s or %s is occupied, so no pawn just passed", s, s, fromSq)
	}
	p.ep = s
	return nil
}

// readClocks reads the optional FEN fields 5 and 6, the halfmove and fullmove
// clocks (absent ones keep 0 and 1).
func (p *Position) readClocks(fields []string) *FENError {
	for i, c := range [2]struct {
		field, want string
		min         int
		dst         *int
	}{{"halfmove", "non-negative", 0, &p.half}, {"fullmove", "positive", 1, &p.full}} {
		if len(fields) <= i {
			break
		}
		n, err := strconv.Atoi(fields[i])
		if err != nil || n < c.min {
			return fenFail(c.field, "%s is not a %s number", quote(fields[i]), c.want)
		}
		if n > maxClock {
			return fenFail(c.field, "%s is out of range (at most %d)", quote(fields[i]), maxClock)
		}
		*c.dst = n
	}
	return nil
}

// checkPosition refuses checks no legal game reaches.
func (p *Position) checkPosition() *FENError {
	if p.Attacked(p.kingSq(p.side.Other()), p.side) {
		return fenFail("position", "the side not to move (%s) is in check", p.side.Other())
	}
	if n := p.Checkers().Count(); n > 2 {
		return fenFail("position", "the side to move is in check from %d pieces", n)
	}
	return nil
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
