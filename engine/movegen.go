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

// addTargets adds a move from from to each square of targets.
func (l *MoveList) addTargets(from Square, targets Bitboard) {
	for targets != 0 {
		l.add(newMove(from, targets.popLSB(), NoPieceType, flagNormal))
	}
}

// alongPin keeps the targets att of the piece on from that stay on its pin
// line to the king on ksq, when it is pinned.
func alongPin(from Square, att, pinned Bitboard, ksq Square) Bitboard {
	if pinned.Has(from) {
		att &= line[ksq][from]
	}
	return att
}

// Generate fills l with the legal moves of kind k, replacing its contents.
//
// Legality is built in rather than tested move by move: the checkers and
// pinned pieces are found once, non-king moves are confined to the squares
// that answer a check and to their pin line, and only king moves and en
// passant (rare) are tested against the board.
func (p *Position) Generate(k GenKind, l *MoveList) {
	l.N = 0
	us, them := p.side, p.side.Other()
	ksq := p.kingSq(us)
	checkers := p.attackersOf(ksq, them, p.occ)
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
	// The squares enemy pawns, knights and king attack are found in bulk;
	// sliders are asked per destination, whose few squares it saves testing.
	occNoKing := p.occ &^ sqBB(ksq)
	bishops := p.pieces[them][Bishop] | p.pieces[them][Queen]
	rooks := p.pieces[them][Rook] | p.pieces[them][Queen]
	leapers := p.leaperAttacks(them)
	for b := kingAttacks[ksq] & kingTargets &^ leapers; b != 0; {
		to := b.popLSB()
		if bishopAttacks(to, occNoKing)&bishops == 0 && rookAttacks(to, occNoKing)&rooks == 0 {
			l.add(newMove(ksq, to, NoPieceType, flagNormal))
		}
	}
	if checkers.moreThanOne() {
		return
	}

	// target: where non-king pieces may go (blocking or capturing the checker when in check).
	target := ^own
	if checkers != 0 {
		target = between[ksq][checkers.lsb()] | checkers
	}
	switch k {
	case GenCaptures:
		target &= enemy
	case GenQuiets:
		target &^= enemy
	}
	pinned := p.pinnedTo(ksq, us)

	p.genPawns(k, l, us, ksq, checkers, pinned)

	// A pinned knight can never move; a pinned slider moves along its pin line.
	for b := p.pieces[us][Knight] &^ pinned; b != 0; {
		from := b.popLSB()
		l.addTargets(from, knightAttacks[from]&target)
	}
	// Queens are generated as a bishop and a rook: the two target sets are disjoint.
	for b := p.pieces[us][Bishop] | p.pieces[us][Queen]; b != 0; {
		from := b.popLSB()
		l.addTargets(from, alongPin(from, bishopAttacks(from, p.occ)&target, pinned, ksq))
	}
	for b := p.pieces[us][Rook] | p.pieces[us][Queen]; b != 0; {
		from := b.popLSB()
		l.addTargets(from, alongPin(from, rookAttacks(from, p.occ)&target, pinned, ksq))
	}

	if k != GenCaptures && checkers == 0 && p.castle != 0 {
		p.genCastles(l, us, leapers)
	}
}

// attackersOf returns colour by's pieces attacking s with occupancy occ.
func (p *Position) attackersOf(s Square, by Color, occ Bitboard) Bitboard {
	return (pawnAttacks[by.Other()][s] & p.pieces[by][Pawn]) |
		(knightAttacks[s] & p.pieces[by][Knight]) |
		(kingAttacks[s] & p.pieces[by][King]) |
		(bishopAttacks(s, occ) & (p.pieces[by][Bishop] | p.pieces[by][Queen])) |
		(rookAttacks(s, occ) & (p.pieces[by][Rook] | p.pieces[by][Queen]))
}

// leaperAttacks returns the squares colour c's pawns, knights and king attack.
func (p *Position) leaperAttacks(c Color) Bitboard {
	d := pawnDirs[c]
	pawns := p.pieces[c][Pawn]
	a := shift(pawns&^fileA, d.west) | shift(pawns&^fileH, d.east) | kingAttacks[p.kingSq(c)]
	for b := p.pieces[c][Knight]; b != 0; {
		a |= knightAttacks[b.popLSB()]
	}
	return a
}

// castling describes one castling move: the right it needs, the squares
// between king and rook that must be empty, and the squares the king crosses
// or lands on, which must not be attacked (its own square is checked apart).
type castling struct {
	right       uint8
	empty, safe Bitboard
	move        Move
}

var castlings = [2][2]castling{
	White: {
		{castleWK, sqBB(sqF1) | sqBB(sqG1), sqBB(sqF1) | sqBB(sqG1), newMove(sqE1, sqG1, NoPieceType, flagCastle)},
		{castleWQ, sqBB(sqB1) | sqBB(sqC1) | sqBB(sqD1), sqBB(sqC1) | sqBB(sqD1), newMove(sqE1, sqC1, NoPieceType, flagCastle)},
	},
	Black: {
		{castleBK, sqBB(sqF8) | sqBB(sqG8), sqBB(sqF8) | sqBB(sqG8), newMove(sqE8, sqG8, NoPieceType, flagCastle)},
		{castleBQ, sqBB(sqB8) | sqBB(sqC8) | sqBB(sqD8), sqBB(sqC8) | sqBB(sqD8), newMove(sqE8, sqC8, NoPieceType, flagCastle)},
	},
}

// genCastles adds the castling moves of us, who is not in check; leapers
// are the squares the enemy's pawns, knights and king attack.
func (p *Position) genCastles(l *MoveList, us Color, leapers Bitboard) {
	for i := range castlings[us] {
		c := &castlings[us][i]
		if p.castle&c.right != 0 && p.occ&c.empty == 0 && leapers&c.safe == 0 && !p.slidersAttack(c.safe, us.Other()) {
			l.add(c.move)
		}
	}
}

// slidersAttack reports whether a bishop, rook or queen of colour by
// attacks any of squares.
func (p *Position) slidersAttack(squares Bitboard, by Color) bool {
	bishops := p.pieces[by][Bishop] | p.pieces[by][Queen]
	rooks := p.pieces[by][Rook] | p.pieces[by][Queen]
	for squares != 0 {
		s := squares.popLSB()
		if bishopAttacks(s, p.occ)&bishops != 0 || rookAttacks(s, p.occ)&rooks != 0 {
			return true
		}
	}
	return false
}

func addPromos(l *MoveList, from, to Square) {
	l.add(newMove(from, to, Queen, flagNormal))
	l.add(newMove(from, to, Rook, flagNormal))
	l.add(newMove(from, to, Bishop, flagNormal))
	l.add(newMove(from, to, Knight, flagNormal))
}

// shift moves every square of b by d (positive: towards rank 8). Callers
// mask off the files a shift would wrap around.
func shift(b Bitboard, d int) Bitboard {
	if d > 0 {
		return b << uint(d)
	}
	return b >> uint(-d)
}

// pawnDirs holds, per colour, the square offsets of a push and of captures
// towards the a-file and the h-file.
var pawnDirs = [2]struct{ up, west, east int }{
	White: {8, 7, 9},
	Black: {-8, -9, -7},
}

func (p *Position) genPawns(k GenKind, l *MoveList, us Color, ksq Square, checkers, pinned Bitboard) {
	pawns := p.pieces[us][Pawn]
	// block: squares a non-capturing pawn move may land on (interpositions when in check);
	// capt: squares it may capture on.
	block, capt := ^Bitboard(0), p.colors[us.Other()]
	if checkers != 0 {
		block, capt = between[ksq][checkers.lsb()], checkers
	}
	// Unpinned pawns move as one set; a pinned pawn (rare) alone, within its pin line.
	p.pawnMoves(k, l, us, pawns&^pinned, block, capt)
	for b := pawns & pinned; b != 0; {
		from := b.popLSB()
		pin := line[ksq][from]
		p.pawnMoves(k, l, us, sqBB(from), block&pin, capt&pin)
	}
	if k != GenQuiets && p.ep != NoSquare {
		for a := pawnAttacks[us.Other()][p.ep] & pawns; a != 0; {
			from := a.popLSB()
			if p.epLegal(from, ksq, us) {
				l.add(newMove(from, p.ep, NoPieceType, flagEnPassant))
			}
		}
	}
}

// pawnMoves adds the pushes, captures and promotions of the pawns in set
// whose destination is in block (pushes) or capt (captures); en passant is
// left to the caller.
func (p *Position) pawnMoves(k GenKind, l *MoveList, us Color, set, block, capt Bitboard) {
	d := pawnDirs[us]
	promoRank, thirdRank := rank8, rank3
	if us == Black {
		promoRank, thirdRank = rank1, rank6
	}
	empty := ^p.occ
	single := shift(set, d.up) & empty
	double := shift(single&thirdRank, d.up) & empty & block
	single &= block
	if k != GenCaptures {
		for b := single &^ promoRank; b != 0; {
			to := b.popLSB()
			l.add(newMove(Square(int(to)-d.up), to, NoPieceType, flagNormal))
		}
		for b := double; b != 0; {
			to := b.popLSB()
			l.add(newMove(Square(int(to)-2*d.up), to, NoPieceType, flagNormal))
		}
	}
	// Captures and every promotion are tactical: GenCaptures, not GenQuiets.
	if k == GenQuiets {
		return
	}
	west := shift(set&^fileA, d.west) & capt
	east := shift(set&^fileH, d.east) & capt
	for b := single & promoRank; b != 0; {
		to := b.popLSB()
		addPromos(l, Square(int(to)-d.up), to)
	}
	for b := west & promoRank; b != 0; {
		to := b.popLSB()
		addPromos(l, Square(int(to)-d.west), to)
	}
	for b := east & promoRank; b != 0; {
		to := b.popLSB()
		addPromos(l, Square(int(to)-d.east), to)
	}
	for b := west &^ promoRank; b != 0; {
		to := b.popLSB()
		l.add(newMove(Square(int(to)-d.west), to, NoPieceType, flagNormal))
	}
	for b := east &^ promoRank; b != 0; {
		to := b.popLSB()
		l.add(newMove(Square(int(to)-d.east), to, NoPieceType, flagNormal))
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
// that may come from another position). NullMove counts as legal: the traces
// of engines that search null moves replay them.
func (p *Position) IsLegal(m Move) bool {
	if m == NoMove {
		return false
	}
	if m == NullMove {
		return true
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
