package engine

// NullMove is the pass of a null-move probe: the side to move hands the
// move to its opponent. Horizon's own search never plays it; traces of
// other engines hold it ("0000" in UCI, "--" in SAN), and MakeMove and
// UnmakeMove play and take it back like any move.
const NullMove Move = 3 << 15

// How NullMove is written: NullSAN in SAN (PGN's convention), NullUCI in
// UCI and in the trace protocol.
const (
	NullSAN = "--"
	NullUCI = "0000"
)

// ParseTreeMove is ParseMove for a move of a searched tree: a null move
// written as Horizon prints one (NullSAN or NullUCI) is NullMove, since
// other engines' null-move probes are nodes of their traces and a path
// Horizon prints through one must read back. Elsewhere (a game's moves) a
// null move is no move, and ParseMove refuses it.
func (p *Position) ParseTreeMove(s string) (Move, error) {
	if s == NullSAN || s == NullUCI {
		return NullMove, nil
	}
	return p.ParseMove(s)
}

// PseudoMove returns the move from-to (with promo, NoPieceType when none)
// when the side to move's piece on from may make it by the rules of
// movement alone: whether it leaves its own king attacked is not asked, and
// castling needs only its right and empty squares between king and rook (not
// safe ones). It is how the traces of king-capture engines (Sunfish), which
// search such moves and refute them by taking the king, are replayed. A
// move that captures a king is refused: no position follows it.
func (p *Position) PseudoMove(from, to Square, promo PieceType) (Move, bool) {
	if from > 63 || to > 63 || from == to {
		return NoMove, false
	}
	pc := p.board[from]
	us := p.side
	if pc == NoPiece || pc.Color() != us {
		return NoMove, false
	}
	target := p.board[to]
	if target != NoPiece && (target.Color() == us || target.Type() == King) {
		return NoMove, false
	}
	pt := pc.Type()
	if promo != NoPieceType && (pt != Pawn || promo == Pawn || promo == King) {
		return NoMove, false
	}
	var reach Bitboard
	switch pt {
	case Knight:
		reach = knightAttacks[from]
	case Bishop:
		reach = bishopAttacks(from, p.occ)
	case Rook:
		reach = rookAttacks(from, p.occ)
	case Queen:
		reach = queenAttacks(from, p.occ)
	case King:
		if kingAttacks[from].Has(to) {
			return newMove(from, to, NoPieceType, flagNormal), true
		}
		for i := range castlings[us] {
			c := &castlings[us][i]
			if c.move.From() == from && c.move.To() == to && p.castle&c.right != 0 && p.occ&c.empty == 0 {
				return c.move, true
			}
		}
		return NoMove, false
	case Pawn:
		dir, start, last := 8, 1, 7
		if us == Black {
			dir, start, last = -8, 6, 0
		}
		flag := uint32(flagNormal)
		switch {
		case int(to) == int(from)+dir && target == NoPiece:
		case int(to) == int(from)+2*dir && from.Rank() == start && target == NoPiece &&
			p.board[int(from)+dir] == NoPiece:
		case pawnAttacks[us][from].Has(to) && target != NoPiece:
		case pawnAttacks[us][from].Has(to) && to == p.ep && p.ep != NoSquare:
			flag = flagEnPassant
		default:
			return NoMove, false
		}
		if (to.Rank() == last) != (promo != NoPieceType) {
			return NoMove, false
		}
		return newMove(from, to, promo, flag), true
	default:
		return NoMove, false
	}
	if !reach.Has(to) {
		return NoMove, false
	}
	return newMove(from, to, NoPieceType, flagNormal), true
}

// IsPseudoLegal reports whether m may be made by the rules of movement
// alone (PseudoMove): a move of a king-capture engine's tree.
func (p *Position) IsPseudoLegal(m Move) bool {
	pm, ok := p.PseudoMove(m.From(), m.To(), m.Promotion())
	return ok && pm == m
}
