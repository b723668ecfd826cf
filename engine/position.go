package engine

// Castling rights bits.
const (
	castleWK uint8 = 1 << iota
	castleWQ
	castleBK
	castleBQ
)

// undo holds what MakeMove cannot recompute when taking a move back.
type undo struct {
	move     Move
	captured Piece
	castle   uint8
	ep       Square
	half     int
	key      uint64 // key before the move, for repetition detection
}

// Position is a chess position with the history of moves made on it. Moves are
// made and taken back in place (MakeMove / UnmakeMove) with no allocation as
// long as the history stays within its preallocated capacity.
type Position struct {
	pieces [2][7]Bitboard // by colour and piece type; index 0 unused
	colors [2]Bitboard
	occ    Bitboard
	board  [64]Piece
	side   Color
	castle uint8
	ep     Square
	half   int // halfmove clock for the fifty-move rule
	full   int // fullmove number
	key    uint64
	// Incremental PeSTO sums for each colour, and the game phase (24 = opening).
	mg, eg [2]int32
	phase  int32
	hist   []undo
}

// Zobrist keys, fixed by a seeded generator so keys are stable across runs.
var (
	zPiece  [16][64]uint64
	zCastle [16]uint64
	zEP     [8]uint64
	zSide   uint64
	// castleMask[s]: rights kept when a move touches square s.
	castleMask [64]uint8
	// psqMG/psqEG[piece][sq]: PeSTO value plus piece-square bonus, from the piece's own view.
	psqMG, psqEG [16][64]int32
)

func init() {
	rng := prng(1070372)
	for p := range zPiece {
		for s := range zPiece[p] {
			zPiece[p][s] = rng.next()
		}
	}
	for i := range zCastle {
		zCastle[i] = rng.next()
	}
	for i := range zEP {
		zEP[i] = rng.next()
	}
	zSide = rng.next()
	for i := range castleMask {
		castleMask[i] = 15
	}
	castleMask[sqA1] &^= castleWQ
	castleMask[sqH1] &^= castleWK
	castleMask[sqE1] &^= castleWK | castleWQ
	castleMask[sqA8] &^= castleBQ
	castleMask[sqH8] &^= castleBK
	castleMask[sqE8] &^= castleBK | castleBQ
	for t := Pawn; t <= King; t++ {
		for s := Square(0); s < 64; s++ {
			wp, bp := MakePiece(White, t), MakePiece(Black, t)
			psqMG[wp][s] = pestoMG[t] + pstMG[t][s]
			psqEG[wp][s] = pestoEG[t] + pstEG[t][s]
			psqMG[bp][s] = pestoMG[t] + pstMG[t][s^56]
			psqEG[bp][s] = pestoEG[t] + pstEG[t][s^56]
		}
	}
}

const (
	sqA1 Square = 0
	sqB1 Square = 1
	sqC1 Square = 2
	sqD1 Square = 3
	sqE1 Square = 4
	sqF1 Square = 5
	sqG1 Square = 6
	sqH1 Square = 7
	sqA8 Square = 56
	sqB8 Square = 57
	sqC8 Square = 58
	sqD8 Square = 59
	sqE8 Square = 60
	sqF8 Square = 61
	sqG8 Square = 62
	sqH8 Square = 63
)

func (p *Position) put(pc Piece, s Square) {
	c, t := pc.Color(), pc.Type()
	b := sqBB(s)
	p.pieces[c][t] |= b
	p.colors[c] |= b
	p.occ |= b
	p.board[s] = pc
	p.key ^= zPiece[pc][s]
	p.mg[c] += psqMG[pc][s]
	p.eg[c] += psqEG[pc][s]
	p.phase += pestoPhase[t]
}

func (p *Position) remove(s Square) {
	pc := p.board[s]
	c, t := pc.Color(), pc.Type()
	b := sqBB(s)
	p.pieces[c][t] &^= b
	p.colors[c] &^= b
	p.occ &^= b
	p.board[s] = NoPiece
	p.key ^= zPiece[pc][s]
	p.mg[c] -= psqMG[pc][s]
	p.eg[c] -= psqEG[pc][s]
	p.phase -= pestoPhase[t]
}

func (p *Position) move(from, to Square) {
	pc := p.board[from]
	c, t := pc.Color(), pc.Type()
	b := sqBB(from) | sqBB(to)
	p.pieces[c][t] ^= b
	p.colors[c] ^= b
	p.occ ^= b
	p.board[from] = NoPiece
	p.board[to] = pc
	p.key ^= zPiece[pc][from] ^ zPiece[pc][to]
	p.mg[c] += psqMG[pc][to] - psqMG[pc][from]
	p.eg[c] += psqEG[pc][to] - psqEG[pc][from]
}

// SideToMove returns the colour to move.
func (p *Position) SideToMove() Color { return p.side }

// PieceAt returns the piece on s, or NoPiece.
func (p *Position) PieceAt(s Square) Piece { return p.board[s] }

// Key returns the Zobrist hash of the position.
func (p *Position) Key() uint64 { return p.key }

// Halfmove returns the halfmove clock (plies since the last capture or pawn move).
func (p *Position) Halfmove() int { return p.half }

// Fullmove returns the fullmove number.
func (p *Position) Fullmove() int { return p.full }

// EnPassant returns the en passant target square, or NoSquare.
func (p *Position) EnPassant() Square { return p.ep }

// Pieces returns the squares of colour c's pieces of type t.
func (p *Position) Pieces(c Color, t PieceType) Bitboard { return p.pieces[c][t] }

// Occupied returns every occupied square.
func (p *Position) Occupied() Bitboard { return p.occ }

// Plies returns the number of moves made on this position since it was set up.
func (p *Position) Plies() int { return len(p.hist) }

// LastMove returns the last move made, or NoMove.
func (p *Position) LastMove() Move {
	if len(p.hist) == 0 {
		return NoMove
	}
	return p.hist[len(p.hist)-1].move
}

// Copy returns an independent copy with its own history.
func (p *Position) Copy() *Position {
	q := *p
	q.hist = make([]undo, len(p.hist), max(cap(p.hist), 1024))
	copy(q.hist, p.hist)
	return &q
}

// CopyLean returns an independent copy like Copy's whose history has room
// for one more move, not for a search's 1,024 plies (24 KiB): for holding
// a position for each of many nodes, as an exported diagram does. Moves
// made on it past the first allocate.
func (p *Position) CopyLean() *Position {
	q := *p
	q.hist = make([]undo, len(p.hist), len(p.hist)+1)
	copy(q.hist, p.hist)
	return &q
}

func (p *Position) kingSq(c Color) Square { return p.pieces[c][King].lsb() }

// attackersTo returns the pieces of both colours attacking s with occupancy occ.
func (p *Position) attackersTo(s Square, occ Bitboard) Bitboard {
	return (pawnAttacks[Black][s] & p.pieces[White][Pawn]) |
		(pawnAttacks[White][s] & p.pieces[Black][Pawn]) |
		(knightAttacks[s] & (p.pieces[White][Knight] | p.pieces[Black][Knight])) |
		(kingAttacks[s] & (p.pieces[White][King] | p.pieces[Black][King])) |
		(bishopAttacks(s, occ) & (p.pieces[White][Bishop] | p.pieces[Black][Bishop] | p.pieces[White][Queen] | p.pieces[Black][Queen])) |
		(rookAttacks(s, occ) & (p.pieces[White][Rook] | p.pieces[Black][Rook] | p.pieces[White][Queen] | p.pieces[Black][Queen]))
}

// Attacked reports whether colour by attacks square s.
func (p *Position) Attacked(s Square, by Color) bool {
	return pawnAttacks[by.Other()][s]&p.pieces[by][Pawn] != 0 ||
		knightAttacks[s]&p.pieces[by][Knight] != 0 ||
		kingAttacks[s]&p.pieces[by][King] != 0 ||
		bishopAttacks(s, p.occ)&(p.pieces[by][Bishop]|p.pieces[by][Queen]) != 0 ||
		rookAttacks(s, p.occ)&(p.pieces[by][Rook]|p.pieces[by][Queen]) != 0
}

// Checkers returns the enemy pieces giving check to the side to move.
func (p *Position) Checkers() Bitboard {
	return p.attackersTo(p.kingSq(p.side), p.occ) & p.colors[p.side.Other()]
}

// InCheck reports whether the side to move is in check.
func (p *Position) InCheck() bool {
	return p.Attacked(p.kingSq(p.side), p.side.Other())
}

// Pinned returns colour c's pieces pinned to their own king.
func (p *Position) Pinned(c Color) Bitboard { return p.pinnedTo(p.kingSq(c), c) }

// pinnedTo returns colour c's pieces pinned to its king on k: the lone
// piece between k and an enemy slider that looks at k along an empty board.
func (p *Position) pinnedTo(k Square, c Color) Bitboard {
	them := c.Other()
	snipers := (rookRays[k] & (p.pieces[them][Rook] | p.pieces[them][Queen])) |
		(bishopRays[k] & (p.pieces[them][Bishop] | p.pieces[them][Queen]))
	var pinned Bitboard
	for snipers != 0 {
		s := snipers.popLSB()
		b := between[k][s] & p.occ
		if b != 0 && !b.moreThanOne() {
			pinned |= b & p.colors[c]
		}
	}
	return pinned
}

// epCapturable reports whether a pawn of the side to move attacks the en
// passant square; only then does the square belong in the hash key, so that
// positions that differ only by a useless en passant square repeat.
func (p *Position) epCapturable() bool {
	return p.ep != NoSquare && pawnAttacks[p.side.Other()][p.ep]&p.pieces[p.side][Pawn] != 0
}

// computeKey hashes the position from scratch; MakeMove keeps p.key equal to it.
func (p *Position) computeKey() uint64 {
	var k uint64
	for s := Square(0); s < 64; s++ {
		if pc := p.board[s]; pc != NoPiece {
			k ^= zPiece[pc][s]
		}
	}
	k ^= zCastle[p.castle]
	if p.epCapturable() {
		k ^= zEP[p.ep.File()]
	}
	if p.side == Black {
		k ^= zSide
	}
	return k
}

// castleRook returns the squares the rook moves from and to when colour c's
// king castles to square to.
func castleRook(to Square, c Color) (from, dest Square) {
	from, dest = sqH1, sqF1
	if to.File() == 2 {
		from, dest = sqA1, sqD1
	}
	if c == Black {
		from, dest = from^56, dest^56
	}
	return from, dest
}

// MakeMove plays m, which must be legal in the position (NullMove passes).
func (p *Position) MakeMove(m Move) {
	if m == NullMove {
		p.MakeNullMove()
		p.hist[len(p.hist)-1].move = NullMove
		return
	}
	from, to := m.From(), m.To()
	pc := p.board[from]
	us, them := p.side, p.side.Other()
	u := undo{move: m, castle: p.castle, ep: p.ep, half: p.half, key: p.key}
	if p.epCapturable() {
		p.key ^= zEP[p.ep.File()]
	}
	p.ep = NoSquare
	p.half++
	switch {
	case m.IsCastle():
		rf, rt := castleRook(to, us)
		p.move(from, to)
		p.move(rf, rt)
	case m.IsEnPassant():
		cs := to ^ 8
		u.captured = p.board[cs]
		p.remove(cs)
		p.move(from, to)
		p.half = 0
	default:
		if cap := p.board[to]; cap != NoPiece {
			u.captured = cap
			p.remove(to)
			p.half = 0
		}
		if promo := m.Promotion(); promo != NoPieceType {
			p.remove(from)
			p.put(MakePiece(us, promo), to)
		} else {
			p.move(from, to)
		}
		if pc.Type() == Pawn {
			p.half = 0
			if to^from == 16 {
				ep := (from + to) / 2
				if pawnAttacks[us][ep]&p.pieces[them][Pawn] != 0 {
					p.ep = ep
				}
			}
		}
	}
	if nc := p.castle & castleMask[from] & castleMask[to]; nc != p.castle {
		p.key ^= zCastle[p.castle] ^ zCastle[nc]
		p.castle = nc
	}
	if us == Black {
		p.full++
	}
	p.side = them
	p.key ^= zSide
	if p.epCapturable() {
		p.key ^= zEP[p.ep.File()]
	}
	p.hist = append(p.hist, u)
}

// UnmakeMove takes back the last move made with MakeMove.
func (p *Position) UnmakeMove() {
	u := p.hist[len(p.hist)-1]
	p.hist = p.hist[:len(p.hist)-1]
	m := u.move
	if m == NullMove {
		p.side = p.side.Other()
		p.castle, p.ep, p.half, p.key = u.castle, u.ep, u.half, u.key
		return
	}
	from, to := m.From(), m.To()
	p.side = p.side.Other()
	us := p.side
	if us == Black {
		p.full--
	}
	switch {
	case m.IsCastle():
		rf, rt := castleRook(to, us)
		p.move(to, from)
		p.move(rt, rf)
	case m.IsEnPassant():
		p.move(to, from)
		p.put(u.captured, to^8)
	default:
		if m.Promotion() != NoPieceType {
			p.remove(to)
			p.put(MakePiece(us, Pawn), from)
		} else {
			p.move(to, from)
		}
		if u.captured != NoPiece {
			p.put(u.captured, to)
		}
	}
	p.castle, p.ep, p.half, p.key = u.castle, u.ep, u.half, u.key
}

// MakeNullMove passes the move to the other side (for null-move style probes).
func (p *Position) MakeNullMove() {
	p.hist = append(p.hist, undo{move: NoMove, castle: p.castle, ep: p.ep, half: p.half, key: p.key})
	if p.epCapturable() {
		p.key ^= zEP[p.ep.File()]
	}
	p.ep = NoSquare
	p.half++
	p.side = p.side.Other()
	p.key ^= zSide
}

// UnmakeNullMove takes back MakeNullMove.
func (p *Position) UnmakeNullMove() {
	u := p.hist[len(p.hist)-1]
	p.hist = p.hist[:len(p.hist)-1]
	p.side = p.side.Other()
	p.castle, p.ep, p.half, p.key = u.castle, u.ep, u.half, u.key
}

// IsRepetition reports whether the position occurred before within the
// reversible moves (the halfmove clock), counting moves made before the search.
func (p *Position) IsRepetition() bool {
	n := len(p.hist)
	stop := n - p.half
	if stop < 0 {
		stop = 0
	}
	for i := n - 2; i >= stop; i -= 2 {
		if p.hist[i].key == p.key {
			return true
		}
	}
	return false
}

// IsFiftyMoveDraw reports whether fifty moves passed without capture or pawn move.
func (p *Position) IsFiftyMoveDraw() bool { return p.half >= 100 }

// IsInsufficientMaterial reports a dead draw by material: K v K, K+minor v K,
// and K+B v K+B with bishops on the same colour.
func (p *Position) IsInsufficientMaterial() bool {
	if p.pieces[White][Pawn]|p.pieces[Black][Pawn]|p.pieces[White][Rook]|p.pieces[Black][Rook]|
		p.pieces[White][Queen]|p.pieces[Black][Queen] != 0 {
		return false
	}
	minors := p.occ &^ (p.pieces[White][King] | p.pieces[Black][King])
	if minors.Count() <= 1 {
		return true
	}
	bishops := p.pieces[White][Bishop] | p.pieces[Black][Bishop]
	const dark Bitboard = 0xAA55AA55AA55AA55
	return minors == bishops && (bishops&dark == 0 || bishops&^dark == 0)
}

// IsCapture reports whether m captures (including en passant).
func (p *Position) IsCapture(m Move) bool {
	return p.board[m.To()] != NoPiece || m.IsEnPassant()
}

// Captured returns the piece type m captures, or NoPieceType.
func (p *Position) Captured(m Move) PieceType {
	if m.IsEnPassant() {
		return Pawn
	}
	return p.board[m.To()].Type()
}
