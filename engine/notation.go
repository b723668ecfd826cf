package engine

import (
	"fmt"
	"strings"
)

// MoveError says why a move text does not name a legal move in a position.
type MoveError struct {
	Text string
	FEN  string
	Msg  string
}

// Error names the move text, the position and the problem.
func (e *MoveError) Error() string {
	return fmt.Sprintf("move %q in %s: %s", e.Text, e.FEN, e.Msg)
}

func (p *Position) moveErr(text, format string, a ...any) error {
	return &MoveError{Text: text, FEN: p.FEN(), Msg: fmt.Sprintf(format, a...)}
}

// PlayUCI plays moves in UCI notation from p, as the moves list of a UCI
// position command. At a move that is not legal where it stands it stops
// and returns that move's index and ParseUCI's error, p holding the moves
// before it.
func (p *Position) PlayUCI(moves []string) (int, error) {
	for i, s := range moves {
		m, err := p.ParseUCI(s)
		if err != nil {
			return i, err
		}
		p.MakeMove(m)
	}
	return len(moves), nil
}

// ParseUCI parses a move in UCI notation ("e2e4", "e7e8q", "e1g1") and checks
// that it is legal here.
func (p *Position) ParseUCI(s string) (Move, error) {
	if len(s) != 4 && len(s) != 5 {
		return NoMove, p.moveErr(s, "malformed UCI move: want from and to squares and an optional promotion letter, like e2e4 or e7e8q")
	}
	from, ok := parseSquare(s[0:2])
	if !ok {
		return NoMove, p.moveErr(s, "malformed UCI move: %q is not a square", s[0:2])
	}
	to, ok := parseSquare(s[2:4])
	if !ok {
		return NoMove, p.moveErr(s, "malformed UCI move: %q is not a square", s[2:4])
	}
	promo := NoPieceType
	if len(s) == 5 {
		i := strings.IndexByte("nbrq", s[4])
		if i < 0 {
			return NoMove, p.moveErr(s, "malformed UCI move: promotion letter %q is not one of n, b, r, q", s[4])
		}
		promo = Knight + PieceType(i)
	}
	var l MoveList
	p.Generate(GenAll, &l)
	for _, m := range l.Slice() {
		if m.From() == from && m.To() == to && m.Promotion() == promo {
			return m, nil
		}
	}
	if why := p.IllegalReason(from, to, promo); why != "" {
		return NoMove, p.moveErr(s, "illegal: %s", why)
	}
	return NoMove, p.moveErr(s, "illegal move")
}

// IllegalReason says why the move from-to (promo: NoPieceType for none),
// which the caller found to be no legal move here, cannot be played, where
// there is more to say than "illegal": no piece or the other side's on from,
// castling written as the king taking its rook (Chess960's notation; UCI's is
// the king's own move), a promotion without its piece or a piece after a move
// that is no promotion, or a move the pieces allow but that leaves the king
// in check. It returns "" when there is nothing more to say.
func (p *Position) IllegalReason(from, to Square, promo PieceType) string {
	if from > 63 || to > 63 {
		return ""
	}
	pc := p.board[from]
	switch {
	case pc == NoPiece:
		return fmt.Sprintf("no piece on %s", from)
	case pc.Color() != p.side:
		return fmt.Sprintf("the piece on %s is not the side to move's", from)
	}
	if t := p.board[to]; pc.Type() == King && t != NoPiece && t.Type() == Rook && t.Color() == p.side && from/8 == to/8 {
		dest := from + 2
		if to < from {
			dest = from - 2
		}
		if m, ok := p.PseudoMove(from, dest, NoPieceType); ok && m.IsCastle() {
			return fmt.Sprintf("castling is written as the king's move, %s, not as the king taking its rook", m.UCI())
		}
	}
	if promo == NoPieceType {
		if m, ok := p.PseudoMove(from, to, Queen); ok {
			return fmt.Sprintf("a promotion names its piece: %s (or r, b, n)", m.UCI())
		}
	} else if m, ok := p.PseudoMove(from, to, NoPieceType); ok {
		return fmt.Sprintf("%s is no promotion: write %s", newMove(from, to, promo, flagNormal).UCI(), m.UCI())
	}
	if m, ok := p.PseudoMove(from, to, promo); ok {
		if m.IsCastle() {
			return "the king would castle out of, through or into check"
		}
		return "it leaves its own king in check"
	}
	return ""
}

// SAN returns the legal move m in Standard Algebraic Notation, with + or #;
// "--" (the PGN convention) for NullMove.
func (p *Position) SAN(m Move) string {
	if m == NullMove {
		return NullSAN
	}
	var b strings.Builder
	from, to := m.From(), m.To()
	pt := p.board[from].Type()
	switch {
	case m.IsCastle():
		if to.File() == 6 {
			b.WriteString("O-O")
		} else {
			b.WriteString("O-O-O")
		}
	case pt == Pawn:
		if p.IsCapture(m) {
			b.WriteByte(byte('a' + from.File()))
			b.WriteByte('x')
		}
		b.WriteString(to.String())
		if pr := m.Promotion(); pr != NoPieceType {
			b.WriteByte('=')
			b.WriteByte(" PNBRQK"[pr])
		}
	default:
		b.WriteByte(" PNBRQK"[pt])
		// Disambiguate among other pieces of the same type that can reach to.
		var l MoveList
		p.Generate(GenAll, &l)
		sameFile, sameRank, others := false, false, false
		for _, x := range l.Slice() {
			if x != m && x.To() == to && p.board[x.From()].Type() == pt {
				others = true
				if x.From().File() == from.File() {
					sameFile = true
				}
				if x.From().Rank() == from.Rank() {
					sameRank = true
				}
			}
		}
		if others {
			switch {
			case !sameFile:
				b.WriteByte(byte('a' + from.File()))
			case !sameRank:
				b.WriteByte(byte('1' + from.Rank()))
			default:
				b.WriteString(from.String())
			}
		}
		if p.IsCapture(m) {
			b.WriteByte('x')
		}
		b.WriteString(to.String())
	}
	if p.GivesCheck(m) {
		p.MakeMove(m)
		var l MoveList
		p.Generate(GenAll, &l)
		p.UnmakeMove()
		if l.N == 0 {
			b.WriteByte('#')
		} else {
			b.WriteByte('+')
		}
	}
	return b.String()
}

// ParseSAN parses a move in Standard Algebraic Notation. It accepts the
// variants found in EPD files: check and mate suffixes or none, annotations
// (!, ?), "0-0" for castling, "e8Q" or "e8=Q" for promotions, a missing "x".
func (p *Position) ParseSAN(s string) (Move, error) {
	t := strings.TrimRight(s, "+#!?")
	t = strings.ReplaceAll(t, "0", "O")
	if t == "" {
		return NoMove, p.moveErr(s, "empty SAN move")
	}
	var l MoveList
	p.Generate(GenAll, &l)
	if t == "O-O" || t == "O-O-O" {
		for _, m := range l.Slice() {
			if m.IsCastle() && (m.To().File() == 6) == (t == "O-O") {
				return m, nil
			}
		}
		return NoMove, p.moveErr(s, "illegal: castling is not possible here")
	}
	pt := Pawn
	if i := strings.IndexByte("NBRQK", t[0]); i >= 0 {
		pt = Knight + PieceType(i)
		t = t[1:]
	}
	promo := NoPieceType
	if n := len(t); n >= 2 {
		if i := strings.IndexByte("NBRQ", t[n-1]); i >= 0 && pt == Pawn {
			promo = Knight + PieceType(i)
			t = strings.TrimSuffix(t[:n-1], "=")
		}
	}
	t = strings.ReplaceAll(t, "x", "")
	t = strings.ReplaceAll(t, "-", "")
	if len(t) < 2 {
		return NoMove, p.moveErr(s, "malformed SAN move")
	}
	to, ok := parseSquare(t[len(t)-2:])
	if !ok {
		return NoMove, p.moveErr(s, "malformed SAN move: %q is not a square", t[len(t)-2:])
	}
	dis := t[:len(t)-2]
	if len(dis) > 2 {
		return NoMove, p.moveErr(s, "malformed SAN move")
	}
	var found Move
	n := 0
	for _, m := range l.Slice() {
		if m.To() != to || p.board[m.From()].Type() != pt || m.Promotion() != promo || m.IsCastle() {
			continue
		}
		fromStr := m.From().String()
		okDis := true
		for i := 0; i < len(dis); i++ {
			c := dis[i]
			if !(c == fromStr[0] || c == fromStr[1]) {
				okDis = false
			}
		}
		if okDis {
			found = m
			n++
		}
	}
	switch n {
	case 0:
		return NoMove, p.moveErr(s, "illegal move")
	case 1:
		return found, nil
	default:
		return NoMove, p.moveErr(s, "ambiguous: %d moves match", n)
	}
}

// ParseMove accepts a move in UCI or SAN notation.
func (p *Position) ParseMove(s string) (Move, error) {
	if m, err := p.ParseUCI(s); err == nil {
		return m, nil
	}
	m, err := p.ParseSAN(s)
	if err != nil {
		return NoMove, p.moveErr(s, "not a legal move in UCI or SAN notation")
	}
	return m, nil
}
