package engine

// MaxMoves bounds the legal moves of any chess position (the record is 218).
const MaxMoves = 256

// MoveList is a caller-owned buffer that move generation fills, so that a
// search node allocates nothing.
type MoveList struct {
	Moves [MaxMoves]Move
	N     int
}

// Slice returns the generated moves; it aliases the buffer.
func (l *MoveList) Slice() []Move { return l.Moves[:l.N] }

func (l *MoveList) add(m Move) { l.Moves[l.N] = m; l.N++ }

// GenKind selects which legal moves to generate.
type GenKind uint8

// Generation kinds. In check, every kind generates only evasions of its class
// (GenAll gives all evasions).
const (
	GenAll      GenKind = iota // every legal move
	GenCaptures                // captures and all promotions (for QS)
	GenQuiets                  // non-captures that are not promotions
)

// Generate fills l with the legal moves of kind k, replacing its contents.
func (p *Position) Generate(k GenKind, l *MoveList) {
	l.N = 0
	us, them := p.side, p.side.Other()
	ksq := p.kingSq(us)
	checkers := p.attackersTo(ksq, p.occ) & p.colors[them]
	own, enemy := p.colors[us], p.colors[them]

	// King moves, with the king lifted off the board so it cannot hide behind itself.
	var kingTargets Bitboard
	switch k {
	case GenAll:
		kingTargets = ^own
	case GenCaptures:
		kingTargets = enemy
	case GenQuiets:
		kingTargets = ^p.occ
	}
	occNoKing := p.occ &^ sqBB(ksq)
	for b := kingAttacks[ksq] & kingTargets; b != 0; {
		to := b.popLSB()
		if !p.attackedWithOcc(to, them, occNoKing) {
			l.add(newMove(ksq, to, NoPieceType, flagNormal))
		}
	}
	if checkers.moreThanOne() {
		return
	}

	// target: where non-king pieces may go (blocking or capturing the checker when in check).
	target := ^own
	if checkers != 0 {
		c := checkers.lsb()
		target = between[ksq][c] | checkers
	}
	switch k {
	case GenCaptures:
		target &= enemy
	case GenQuiets:
		target &^= enemy
	}
	pinned := p.Pinned(us)

	p.genPawns(k, l, us, ksq, checkers, pinned)

	for t := Knight; t <= Queen; t++ {
		for b := p.pieces[us][t]; b != 0; {
			from := b.popLSB()
			var att Bitboard
			switch t {
			case Knight:
				if pinned.Has(from) {
					continue
				}
				att = knightAttacks[from]
			case Bishop:
				att = bishopAttacks(from, p.occ)
			case Rook:
				att = rookAttacks(from, p.occ)
			case Queen:
				att = queenAttacks(from, p.occ)
			}
			att &= target
			if pinned.Has(from) {
				att &= line[ksq][from]
			}
			for att != 0 {
				l.add(newMove(from, att.popLSB(), NoPieceType, flagNormal))
			}
		}
	}

	if k != GenCaptures && checkers == 0 {
		p.genCastles(l, us, them)
	}
}

func (p *Position) attackedWithOcc(s Square, by Color, occ Bitboard) bool {
	return pawnAttacks[by.Other()][s]&p.pieces[by][Pawn] != 0 ||
		knightAttacks[s]&p.pieces[by][Knight] != 0 ||
		kingAttacks[s]&p.pieces[by][King] != 0 ||
		bishopAttacks(s, occ)&(p.pieces[by][Bishop]|p.pieces[by][Queen]) != 0 ||
		rookAttacks(s, occ)&(p.pieces[by][Rook]|p.pieces[by][Queen]) != 0
}

func (p *Position) genCastles(l *MoveList, us, them Color) {
	if us == White {
		if p.castle&castleWK != 0 && p.occ&(sqBB(sqF1)|sqBB(sqG1)) == 0 &&
			!p.Attacked(sqF1, them) && !p.Attacked(sqG1, them) {
			l.add(newMove(sqE1, sqG1, NoPieceType, flagCastle))
		}
		if p.castle&castleWQ != 0 && p.occ&(sqBB(sqB1)|sqBB(sqC1)|sqBB(sqD1)) == 0 &&
			!p.Attacked(sqD1, them) && !p.Attacked(sqC1, them) {
			l.add(newMove(sqE1, sqC1, NoPieceType, flagCastle))
		}
		return
	}
	if p.castle&castleBK != 0 && p.occ&(sqBB(sqF8)|sqBB(sqG8)) == 0 &&
		!p.Attacked(sqF8, them) && !p.Attacked(sqG8, them) {
		l.add(newMove(sqE8, sqG8, NoPieceType, flagCastle))
	}
	if p.castle&castleBQ != 0 && p.occ&(sqBB(sqB8)|sqBB(sqC8)|sqBB(sqD8)) == 0 &&
		!p.Attacked(sqD8, them) && !p.Attacked(sqC8, them) {
		l.add(newMove(sqE8, sqC8, NoPieceType, flagCastle))
	}
}

func addPromos(l *MoveList, from, to Square, k GenKind) {
	// Every promotion counts as tactical (GenCaptures), none as quiet.
	if k == GenQuiets {
		return
	}
	l.add(newMove(from, to, Queen, flagNormal))
	l.add(newMove(from, to, Rook, flagNormal))
	l.add(newMove(from, to, Bishop, flagNormal))
	l.add(newMove(from, to, Knight, flagNormal))
}

func (p *Position) genPawns(k GenKind, l *MoveList, us Color, ksq Square, checkers, pinned Bitboard) {
	them := us.Other()
	pawns := p.pieces[us][Pawn]
	empty := ^p.occ
	enemy := p.colors[them]
	var up int
	var promoRank, startRank Bitboard
	if us == White {
		up, promoRank, startRank = 8, rank8, rank3
	} else {
		up, promoRank, startRank = -8, rank1, rank6
	}
	// block: squares a non-capturing pawn move may land on (interpositions when in check).
	block, capt := ^Bitboard(0), enemy
	if checkers != 0 {
		c := checkers.lsb()
		block = between[ksq][c]
		capt = checkers
	}
	shift := func(b Bitboard) Bitboard {
		if up > 0 {
			return b << 8
		}
		return b >> 8
	}
	legalPin := func(from, to Square) bool {
		return !pinned.Has(from) || line[ksq][from].Has(to)
	}
	// Pushes.
	single := shift(pawns) & empty
	if k != GenCaptures {
		double := shift(single&startRank) & empty & block
		for b := single & block &^ promoRank; b != 0; {
			to := b.popLSB()
			from := Square(int(to) - up)
			if legalPin(from, to) {
				l.add(newMove(from, to, NoPieceType, flagNormal))
			}
		}
		for b := double; b != 0; {
			to := b.popLSB()
			from := Square(int(to) - 2*up)
			if legalPin(from, to) {
				l.add(newMove(from, to, NoPieceType, flagNormal))
			}
		}
	}
	// Push promotions are tactical: generated with captures, not with quiets.
	if k != GenQuiets {
		for b := single & block & promoRank; b != 0; {
			to := b.popLSB()
			from := Square(int(to) - up)
			if legalPin(from, to) {
				addPromos(l, from, to, k)
			}
		}
	}
	// Captures.
	if k != GenQuiets {
		for b := pawns; b != 0; {
			from := b.popLSB()
			for a := pawnAttacks[us][from] & capt; a != 0; {
				to := a.popLSB()
				if !legalPin(from, to) {
					continue
				}
				if promoRank.Has(to) {
					addPromos(l, from, to, k)
				} else {
					l.add(newMove(from, to, NoPieceType, flagNormal))
				}
			}
		}
		if p.ep != NoSquare {
			for a := pawnAttacks[them][p.ep] & pawns; a != 0; {
				from := a.popLSB()
				if p.epLegal(from, ksq, us) {
					l.add(newMove(from, p.ep, NoPieceType, flagEnPassant))
				}
			}
		}
	}
}

// epLegal checks an en passant capture by its effect on the king, which
// covers the pins along the rank that ordinary pin masks miss.
func (p *Position) epLegal(from, ksq Square, us Color) bool {
	them := us.Other()
	capSq := p.ep ^ 8
	occ := (p.occ &^ sqBB(from) &^ sqBB(capSq)) | sqBB(p.ep)
	if bishopAttacks(ksq, occ)&(p.pieces[them][Bishop]|p.pieces[them][Queen]) != 0 {
		return false
	}
	if rookAttacks(ksq, occ)&(p.pieces[them][Rook]|p.pieces[them][Queen]) != 0 {
		return false
	}
	// A checking piece other than the captured pawn must still be dealt with.
	if knightAttacks[ksq]&p.pieces[them][Knight] != 0 {
		return false
	}
	if pawnAttacks[us][ksq]&p.pieces[them][Pawn]&^sqBB(capSq) != 0 {
		return false
	}
	return true
}

// LegalMoves returns every legal move in a new slice (a convenience for
// callers off the search path).
func (p *Position) LegalMoves() []Move {
	var l MoveList
	p.Generate(GenAll, &l)
	return append([]Move(nil), l.Slice()...)
}

// GivesCheck reports whether the legal move m checks the opponent.
func (p *Position) GivesCheck(m Move) bool {
	from, to := m.From(), m.To()
	us, them := p.side, p.side.Other()
	ek := p.kingSq(them)
	pt := p.board[from].Type()
	if m.Promotion() != NoPieceType || m.IsCastle() || m.IsEnPassant() {
		p.MakeMove(m)
		c := p.InCheck()
		p.UnmakeMove()
		return c
	}
	occ := (p.occ &^ sqBB(from)) | sqBB(to)
	// Direct check.
	switch pt {
	case Pawn:
		if pawnAttacks[us][to].Has(ek) {
			return true
		}
	case Knight:
		if knightAttacks[to].Has(ek) {
			return true
		}
	case Bishop:
		if bishopAttacks(to, occ).Has(ek) {
			return true
		}
	case Rook:
		if rookAttacks(to, occ).Has(ek) {
			return true
		}
	case Queen:
		if queenAttacks(to, occ).Has(ek) {
			return true
		}
	}
	// Discovered check: a slider of ours now sees the king.
	if line[ek][from] != 0 && !line[ek][from].Has(to) || pt == King {
		if bishopAttacks(ek, occ)&(p.pieces[us][Bishop]|p.pieces[us][Queen])&^sqBB(to) != 0 {
			return true
		}
		if rookAttacks(ek, occ)&(p.pieces[us][Rook]|p.pieces[us][Queen])&^sqBB(to) != 0 {
			return true
		}
	}
	return false
}

// IsLegal reports whether m is a legal move here (for hash and killer moves
// that may come from another position).
func (p *Position) IsLegal(m Move) bool {
	if m == NoMove {
		return false
	}
	var l MoveList
	p.Generate(GenAll, &l)
	for _, x := range l.Slice() {
		if x == m {
			return true
		}
	}
	return false
}
