package main

import (
	"github.com/horizonqs/horizon/emit"
)

// Scores are centipawns from the side to move's view. A side mated at ply
// k from the root scores -mate + k; infinity is the root's window end.
const (
	mate     = 30000
	mateMin  = mate - maxPly // the smallest score that is a mate
	infinity = 32000
	maxPly   = 128
)

// scale declares the engine's mates and window ends, so that Horizon
// prints them as #N and ∞.
var scale = emit.Scale{Mate: mate, MateMin: mateMin, Infinity: infinity}

var pieceValue = [7]int{0, 100, 320, 330, 500, 900, 0}

// eval is material and a small piece-square bonus: pawns for advancing,
// knights and bishops for standing near the centre. From the side to move.
func (p *Position) eval() int {
	score := 0
	for sq := 0; sq < 128; sq++ {
		pc := p.sq[sq]
		if sq&0x88 != 0 || pc == empty {
			continue
		}
		t, sign := int(pc), 1
		if pc < 0 {
			t, sign = -t, -1
		}
		v := pieceValue[t]
		rank, file := sq>>4, sq&7
		if sign < 0 {
			rank = 7 - rank // as Black sees the board
		}
		switch t {
		case pawn:
			v += 5 * (rank - 1)
		case knight, bishop:
			// 0 on the rim, 15 on the four centre squares.
			v += 5 * (3 - max(abs(2*file-7), abs(2*rank-7))/2)
		}
		score += sign * v
	}
	if !p.white {
		score = -score
	}
	return score
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func max(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// Searcher searches one position. Tracing is one pointer, tw, nil when
// HORIZON_TRACE is unset; every call on it is guarded by `traced &&
// tw.On()`, so that with tracing off no argument (a move's text) is built.
type Searcher struct {
	pos      *Position
	tw       *emit.Writer
	nodes    int64
	maxNodes int64 // 0: no limit
	stopped  bool  // the stop flag: set once, the search unwinds
	rootBest Move
	pvMove   Move           // the last iteration's best move, searched first at the root
	buf      [maxPly][]Move // move lists by ply, reused: a node allocates nothing
}

// stop reports whether the search must stop before entering a node. Once
// set, the flag stays set and every node returns at once, writing nothing:
// the driver writes one abort record for all the nodes left open.
func (s *Searcher) stop() bool {
	if s.maxNodes > 0 && s.nodes >= s.maxNodes {
		s.stopped = true
	}
	return s.stopped
}

// enter counts a node and writes its enter record: a root has no move, a
// null move is "0000". One place does both, so the engine's count and the
// stream's cannot part.
func (s *Searcher) enter(m Move, depth, alpha, beta, ply int) {
	s.nodes++
	if traced && s.tw.On() {
		if ply == 0 {
			s.tw.Root(depth, alpha, beta, depth)
		} else {
			s.tw.Enter(m.uci(), depth, alpha, beta)
		}
	}
}

func (s *Searcher) leave(score int) int {
	if traced && s.tw.On() {
		s.tw.Leave(score)
	}
	return score
}

// search is fail-soft alpha-beta with null-move pruning. m is the move
// that reached the node (for its enter record). At depth <= 0 it hands
// the node to quiesce before entering it: the QS node is quiesce's to
// enter and leave, so it is one node, counted and written once.
func (s *Searcher) search(m Move, depth, alpha, beta, ply int) int {
	if depth <= 0 {
		return s.quiesce(m, 0, alpha, beta, ply)
	}
	if s.stop() {
		return 0
	}
	s.enter(m, depth, alpha, beta, ply)
	inCheck := s.pos.inCheck()

	// Null move: give the opponent a free move; if a shallower search
	// still fails high, so would a real move. Its node's move is 0000,
	// and it has no M record (the protocol's M records real moves).
	if ply > 0 && depth >= 3 && !inCheck && beta < mateMin && s.hasPieces() {
		s.pos.make(Move{})
		score := -s.search(Move{}, depth-3, -beta, -beta+1, ply+1)
		s.pos.unmake()
		if s.stopped {
			return 0
		}
		if score >= beta {
			return s.leave(score)
		}
	}

	moves := s.ordered(ply, false)
	if len(moves) == 0 {
		if inCheck {
			return s.leave(-mate + ply)
		}
		return s.leave(0)
	}
	best := -infinity
	for i, mv := range moves {
		if traced && s.tw.On() {
			s.tw.Move(mv.uci(), i)
		}
		s.pos.make(mv)
		score := -s.search(mv, depth-1, -beta, -max(alpha, best), ply+1)
		s.pos.unmake()
		if s.stopped {
			return 0 // no leave record: the driver's abort closes the node
		}
		if score > best {
			best = score
			if ply == 0 {
				s.rootBest = mv
			}
			if score >= beta {
				break
			}
		}
	}
	return s.leave(best)
}

// quiesce searches captures only, standing pat on the static evaluation.
// depth is 0 where the main search handed over and one less each QS ply
// below (Horizon's own convention; Horizon reads QS nodes off depth <= 0).
func (s *Searcher) quiesce(m Move, depth, alpha, beta, ply int) int {
	if s.stop() {
		return 0
	}
	s.enter(m, depth, alpha, beta, ply)
	stand := s.pos.eval()
	if traced && s.tw.On() {
		s.tw.StandPat(stand)
	}
	if stand >= beta || ply >= maxPly-1 {
		return s.leave(stand)
	}
	best := stand
	for i, mv := range s.ordered(ply, true) {
		if traced && s.tw.On() {
			s.tw.Move(mv.uci(), i)
		}
		s.pos.make(mv)
		score := -s.quiesce(mv, depth-1, -beta, -max(alpha, best), ply+1)
		s.pos.unmake()
		if s.stopped {
			return 0
		}
		if score > best {
			best = score
			if score >= beta {
				break
			}
		}
	}
	return s.leave(best)
}

// hasPieces reports whether the side to move has a piece besides pawns
// and king: without one, a null move's premise (a move never hurts) fails.
func (s *Searcher) hasPieces() bool {
	us := s.pos.us()
	for sq := 0; sq < 128; sq++ {
		if sq&0x88 == 0 && s.pos.sq[sq]*us > pawn && s.pos.sq[sq]*us < king {
			return true
		}
	}
	return false
}

// ordered returns the legal moves (captures only in QS) in the order the
// search tries them: the root's last best move first, then captures by
// most valuable victim and least valuable attacker, then the rest as
// generated. The list is the ply's own buffer.
func (s *Searcher) ordered(ply int, captures bool) []Move {
	ms := s.pos.legal(s.buf[ply][:0], captures)
	s.buf[ply] = ms
	key := func(m Move) int {
		if ply == 0 && m == s.pvMove {
			return 1 << 20
		}
		v := int(s.pos.sq[m.to])
		if v < 0 {
			v = -v
		}
		a := int(s.pos.sq[m.from])
		if a < 0 {
			a = -a
		}
		if v == 0 && m.promo == 0 {
			return 0
		}
		return 10*pieceValue[v] + pieceValue[m.promo] - a
	}
	// Insertion sort, stable: equal keys keep the generator's order.
	for i := 1; i < len(ms); i++ {
		m, k := ms[i], key(ms[i])
		j := i
		for ; j > 0 && key(ms[j-1]) < k; j-- {
			ms[j] = ms[j-1]
		}
		ms[j] = m
	}
	return ms
}
