package engine

// Evaluate returns the static evaluation from the side to move's view:
// PeSTO material and piece-square values, tapered between middlegame and
// endgame by the remaining material. The sums are kept by MakeMove, so this
// is a few additions. It is deterministic by construction.
func (p *Position) Evaluate() Score {
	us, them := p.side, p.side.Other()
	mg := p.mg[us] - p.mg[them]
	eg := p.eg[us] - p.eg[them]
	ph := p.phase
	if ph > 24 {
		ph = 24 // early promotions can push the phase past the opening's
	}
	return Score((mg*ph + eg*(24-ph)) / 24)
}

// seeValue is the piece value scale of SEE, delta pruning and the capture
// orderings: plain centipawns, so that thresholds read naturally.
var seeValue = [7]int32{0, 100, 320, 330, 500, 900, 20000}

// PieceValue returns the nominal value of a piece type in centipawns.
func PieceValue(t PieceType) int { return int(seeValue[t]) }

// SEE returns the static exchange evaluation of move m: the material the
// side to move wins (or loses, if negative) when both sides keep capturing on
// m's target square with their least valuable attacker, each free to stop.
func (p *Position) SEE(m Move) int {
	from, to := m.From(), m.To()
	var gain [32]int32
	occ := p.occ
	victim := p.board[to].Type()
	if m.IsEnPassant() {
		victim = Pawn
		occ &^= sqBB(to ^ 8)
	}
	attacker := p.board[from].Type()
	gain[0] = seeValue[victim]
	if pr := m.Promotion(); pr != NoPieceType {
		gain[0] += seeValue[pr] - seeValue[Pawn]
		attacker = pr
	}
	occ &^= sqBB(from)
	side := p.side.Other()
	attackers := p.attackersTo(to, occ) & occ
	bishops := p.pieces[White][Bishop] | p.pieces[Black][Bishop] | p.pieces[White][Queen] | p.pieces[Black][Queen]
	rooks := p.pieces[White][Rook] | p.pieces[Black][Rook] | p.pieces[White][Queen] | p.pieces[Black][Queen]
	d := 0
	for {
		mine := attackers & p.colors[side]
		if mine == 0 {
			break
		}
		// Least valuable attacker.
		var pt PieceType
		var bb Bitboard
		for pt = Pawn; pt <= King; pt++ {
			if bb = mine & p.pieces[side][pt]; bb != 0 {
				break
			}
		}
		d++
		gain[d] = seeValue[attacker] - gain[d-1]
		if max(-gain[d-1], gain[d]) < 0 {
			break // neither side gains by going on
		}
		if pt == King && attackers&p.colors[side.Other()] != 0 {
			d-- // the king cannot capture into an attacked square
			break
		}
		attacker = pt
		occ &^= sqBB(bb.lsb())
		// Reveal x-ray attackers behind the piece that just captured.
		attackers |= (bishopAttacks(to, occ) & bishops) | (rookAttacks(to, occ) & rooks)
		attackers &= occ
		side = side.Other()
		if d == len(gain)-1 {
			break
		}
	}
	for d > 0 {
		gain[d-1] = -max(-gain[d-1], gain[d])
		d--
	}
	return int(gain[0])
}
