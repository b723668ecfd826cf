package main

import (
	"fmt"
	"strconv"
	"strings"
)

// The board is 0x88: square = rank*16 + file, and sq&0x88 != 0 is off the
// board, so a ray stops without a table of edges. A piece is its type,
// positive for White and negative for Black.
const (
	empty  = 0
	pawn   = 1
	knight = 2
	bishop = 3
	rook   = 4
	queen  = 5
	king   = 6
)

// Castling rights, one bit each.
const (
	whiteShort = 1
	whiteLong  = 2
	blackShort = 4
	blackLong  = 8
)

const startFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

var (
	knightSteps = []int{33, 31, 18, 14, -33, -31, -18, -14}
	kingSteps   = []int{1, -1, 16, -16, 17, 15, -17, -15}
	bishopSteps = []int{17, 15, -17, -15}
	rookSteps   = []int{1, -1, 16, -16}
)

// Move is a move; promo is the piece type promoted to (0 for none). The
// zero Move is the null move.
type Move struct {
	from, to, promo int8
}

// noMove is what a search with no legal move reports as its best.
var noMove = Move{-1, -1, 0}

// uci writes m as UCI does: e2e4, e7e8q, 0000 for the null move.
func (m Move) uci() string {
	if m == (Move{}) || m == noMove {
		return "0000"
	}
	s := squareName(int(m.from)) + squareName(int(m.to))
	if m.promo != 0 {
		s += string("  nbrq"[m.promo])
	}
	return s
}

func squareName(sq int) string {
	return string(rune('a'+sq&7)) + string(rune('1'+sq>>4))
}

// undo holds what make cannot recompute when it is taken back.
type undo struct {
	m        Move
	captured int8
	castle   int
	ep       int
	halfmove int
}

// Position is a chess position and the moves made to reach it.
type Position struct {
	sq       [128]int8
	white    bool // White to move
	castle   int
	ep       int // en passant target square, -1 for none
	halfmove int
	fullmove int
	kings    [2]int // White's, Black's
	hist     []undo
}

// parseFEN reads a FEN; the move counters may be left out.
func parseFEN(fen string) (*Position, error) {
	f := strings.Fields(fen)
	if len(f) < 4 {
		return nil, fmt.Errorf("FEN %q: want at least 4 fields (board, side, castling, en passant)", fen)
	}
	p := &Position{ep: -1, halfmove: 0, fullmove: 1, kings: [2]int{-1, -1}}
	rank, file := 7, 0
	for _, c := range f[0] {
		switch {
		case c == '/':
			if file != 8 || rank == 0 {
				return nil, fmt.Errorf("FEN board %q: rank %d does not hold 8 squares", f[0], rank+1)
			}
			rank, file = rank-1, 0
		case c >= '1' && c <= '8':
			file += int(c - '0')
		default:
			t := strings.IndexRune(" pnbrqk", c|0x20)
			if t <= 0 || file > 7 {
				return nil, fmt.Errorf("FEN board %q: bad piece or too many squares at %q", f[0], c)
			}
			pc := int8(t)
			if c < 'a' {
				p.sq[rank*16+file] = pc
			} else {
				p.sq[rank*16+file] = -pc
			}
			if pc == king {
				p.kings[side(c < 'a')] = rank*16 + file
			}
			file++
		}
		if file > 8 {
			return nil, fmt.Errorf("FEN board %q: rank %d holds more than 8 squares", f[0], rank+1)
		}
	}
	if rank != 0 || file != 8 {
		return nil, fmt.Errorf("FEN board %q: want 8 ranks of 8 squares", f[0])
	}
	if p.kings[0] < 0 || p.kings[1] < 0 {
		return nil, fmt.Errorf("FEN board %q: each side needs a king", f[0])
	}
	switch f[1] {
	case "w":
		p.white = true
	case "b":
	default:
		return nil, fmt.Errorf("FEN side to move %q: want w or b", f[1])
	}
	if f[2] != "-" {
		for _, c := range f[2] {
			i := strings.IndexRune("KQkq", c)
			if i < 0 {
				return nil, fmt.Errorf("FEN castling %q: want KQkq or -", f[2])
			}
			p.castle |= 1 << i
		}
	}
	if f[3] != "-" {
		if len(f[3]) != 2 || f[3][0] < 'a' || f[3][0] > 'h' || (f[3][1] != '3' && f[3][1] != '6') {
			return nil, fmt.Errorf("FEN en passant %q: want a square on rank 3 or 6, or -", f[3])
		}
		p.ep = int(f[3][1]-'1')*16 + int(f[3][0]-'a')
	}
	if len(f) > 4 {
		n, err := strconv.Atoi(f[4])
		if err != nil || n < 0 {
			return nil, fmt.Errorf("FEN halfmove clock %q: want a number", f[4])
		}
		p.halfmove = n
	}
	if len(f) > 5 {
		n, err := strconv.Atoi(f[5])
		if err != nil || n < 0 {
			return nil, fmt.Errorf("FEN fullmove number %q: want a number", f[5])
		}
		p.fullmove = n
	}
	return p, nil
}

// side is the index of a colour in Position.kings.
func side(white bool) int {
	if white {
		return 0
	}
	return 1
}

// us is the sign of the side to move's pieces.
func (p *Position) us() int8 {
	if p.white {
		return 1
	}
	return -1
}

// attacked reports whether square sq is attacked by the side whose pieces
// have sign by.
func (p *Position) attacked(sq int, by int8) bool {
	// A pawn of by's attacks sq from one rank behind it, as by sees it.
	for _, d := range [2]int{15, 17} {
		from := sq - int(by)*d
		if from&0x88 == 0 && p.sq[from] == by*pawn {
			return true
		}
	}
	for _, d := range knightSteps {
		if s := sq + d; s&0x88 == 0 && p.sq[s] == by*knight {
			return true
		}
	}
	for _, d := range kingSteps {
		if s := sq + d; s&0x88 == 0 && p.sq[s] == by*king {
			return true
		}
	}
	for _, d := range bishopSteps {
		if p.slider(sq, d) == by*bishop || p.slider(sq, d) == by*queen {
			return true
		}
	}
	for _, d := range rookSteps {
		if p.slider(sq, d) == by*rook || p.slider(sq, d) == by*queen {
			return true
		}
	}
	return false
}

// slider is the first piece on the ray from sq in direction d (0 for none).
func (p *Position) slider(sq, d int) int8 {
	for s := sq + d; s&0x88 == 0; s += d {
		if p.sq[s] != empty {
			return p.sq[s]
		}
	}
	return empty
}

// inCheck reports whether the side to move is in check.
func (p *Position) inCheck() bool {
	return p.attacked(p.kings[side(p.white)], -p.us())
}

// pseudo appends the pseudo-legal moves of the side to move to ms (only
// captures and capturing promotions when captures is set) and returns it.
func (p *Position) pseudo(ms []Move, captures bool) []Move {
	us := p.us()
	for from := 0; from < 128; from++ {
		if from&0x88 != 0 || p.sq[from]*us <= 0 {
			continue
		}
		switch p.sq[from] * us {
		case pawn:
			ms = p.pawnMoves(ms, from, captures)
		case knight:
			ms = p.steps(ms, from, knightSteps, false, captures)
		case bishop:
			ms = p.steps(ms, from, bishopSteps, true, captures)
		case rook:
			ms = p.steps(ms, from, rookSteps, true, captures)
		case queen:
			ms = p.steps(ms, from, kingSteps, true, captures)
		case king:
			ms = p.steps(ms, from, kingSteps, false, captures)
			if !captures {
				ms = p.castling(ms, from)
			}
		}
	}
	return ms
}

func (p *Position) steps(ms []Move, from int, dirs []int, slide, captures bool) []Move {
	us := p.us()
	for _, d := range dirs {
		for to := from + d; to&0x88 == 0; to += d {
			if p.sq[to]*us > 0 {
				break
			}
			if p.sq[to] != empty || !captures {
				ms = append(ms, Move{int8(from), int8(to), 0})
			}
			if p.sq[to] != empty || !slide {
				break
			}
		}
	}
	return ms
}

func (p *Position) pawnMoves(ms []Move, from int, captures bool) []Move {
	us := p.us()
	fwd := 16 * int(us)
	last := (from+fwd)>>4 == 7 || (from+fwd)>>4 == 0
	add := func(to int) {
		if !last {
			ms = append(ms, Move{int8(from), int8(to), 0})
			return
		}
		for _, pr := range [...]int8{queen, rook, bishop, knight} {
			ms = append(ms, Move{int8(from), int8(to), pr})
		}
	}
	for _, d := range [2]int{fwd - 1, fwd + 1} {
		to := from + d
		if to&0x88 == 0 && (p.sq[to]*us < 0 || to == p.ep) {
			add(to)
		}
	}
	if captures {
		return ms
	}
	if to := from + fwd; p.sq[to] == empty {
		add(to)
		home := from>>4 == 1 && us > 0 || from>>4 == 6 && us < 0
		if to2 := to + fwd; home && p.sq[to2] == empty {
			ms = append(ms, Move{int8(from), int8(to2), 0})
		}
	}
	return ms
}

func (p *Position) castling(ms []Move, from int) []Move {
	short, long := whiteShort, whiteLong
	if !p.white {
		short, long = blackShort, blackLong
	}
	them := -p.us()
	if p.castle&(short|long) == 0 || p.attacked(from, them) {
		return ms
	}
	if p.castle&short != 0 && p.sq[from+1] == empty && p.sq[from+2] == empty && !p.attacked(from+1, them) {
		ms = append(ms, Move{int8(from), int8(from + 2), 0})
	}
	if p.castle&long != 0 && p.sq[from-1] == empty && p.sq[from-2] == empty && p.sq[from-3] == empty && !p.attacked(from-1, them) {
		ms = append(ms, Move{int8(from), int8(from - 2), 0})
	}
	return ms
}

// legal appends the legal moves (captures only when captures is set): the
// pseudo-legal ones that leave the mover's king unattacked.
func (p *Position) legal(ms []Move, captures bool) []Move {
	all := p.pseudo(ms, captures)
	n := len(ms)
	for _, m := range all[len(ms):] {
		p.make(m)
		if !p.attacked(p.kings[side(!p.white)], p.us()) {
			all[n] = m
			n++
		}
		p.unmake()
	}
	return all[:n]
}

// castleMask[sq] is the castling rights a move from or to sq keeps.
var castleMask = func() (m [128]int) {
	for i := range m {
		m[i] = 15
	}
	m[0x00], m[0x07], m[0x04] = 15&^whiteLong, 15&^whiteShort, 15&^(whiteShort|whiteLong)
	m[0x70], m[0x77], m[0x74] = 15&^blackLong, 15&^blackShort, 15&^(blackShort|blackLong)
	return m
}()

// make plays m (the zero Move passes: a null move).
func (p *Position) make(m Move) {
	u := undo{m: m, castle: p.castle, ep: p.ep, halfmove: p.halfmove}
	p.ep = -1
	p.halfmove++
	if m != (Move{}) {
		from, to := int(m.from), int(m.to)
		pc := p.sq[from]
		u.captured = p.sq[to]
		switch {
		case pc*pc == pawn && to == u.ep: // en passant: the pawn taken is beside to
			behind := to - 16*int(p.us())
			u.captured = p.sq[behind]
			p.sq[behind] = empty
		case pc*pc == king*king && (to-from == 2 || from-to == 2): // castling moves the rook too
			rFrom, rTo := from+3, from+1
			if to < from {
				rFrom, rTo = from-4, from-1
			}
			p.sq[rTo], p.sq[rFrom] = p.sq[rFrom], empty
		}
		if pc*pc == pawn*pawn && (to-from == 32 || from-to == 32) {
			p.ep = (from + to) / 2
		}
		if pc*pc == pawn || u.captured != empty {
			p.halfmove = 0
		}
		p.sq[to], p.sq[from] = pc, empty
		if m.promo != 0 {
			p.sq[to] = m.promo * p.us()
		}
		if pc*pc == king*king {
			p.kings[side(p.white)] = to
		}
		p.castle &= castleMask[from] & castleMask[to]
	}
	if !p.white {
		p.fullmove++
	}
	p.white = !p.white
	p.hist = append(p.hist, u)
}

// unmake takes back the last move made.
func (p *Position) unmake() {
	u := p.hist[len(p.hist)-1]
	p.hist = p.hist[:len(p.hist)-1]
	p.white = !p.white
	if !p.white {
		p.fullmove--
	}
	p.castle, p.ep, p.halfmove = u.castle, u.ep, u.halfmove
	m := u.m
	if m == (Move{}) {
		return
	}
	from, to := int(m.from), int(m.to)
	pc := p.sq[to]
	if m.promo != 0 {
		pc = pawn * p.us()
	}
	p.sq[from], p.sq[to] = pc, u.captured
	switch {
	case pc*pc == pawn && to == u.ep:
		p.sq[to] = empty
		p.sq[to-16*int(p.us())] = u.captured
	case pc*pc == king*king && (to-from == 2 || from-to == 2):
		rFrom, rTo := from+3, from+1
		if to < from {
			rFrom, rTo = from-4, from-1
		}
		p.sq[rFrom], p.sq[rTo] = p.sq[rTo], empty
	}
	if pc*pc == king*king {
		p.kings[side(p.white)] = from
	}
}

// parseMove finds the legal move written in UCI notation.
func (p *Position) parseMove(s string) (Move, error) {
	for _, m := range p.legal(nil, false) {
		if m.uci() == s {
			return m, nil
		}
	}
	return Move{}, fmt.Errorf("move %q is not legal here", s)
}

// perft counts the leaves of the legal move tree depth plies deep.
func (p *Position) perft(depth int) int64 {
	if depth == 0 {
		return 1
	}
	var n int64
	for _, m := range p.legal(nil, false) {
		p.make(m)
		n += p.perft(depth - 1)
		p.unmake()
	}
	return n
}
