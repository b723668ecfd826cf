package engine

// Quiescence search. One function serves the variants whose QS is a plain
// capture search with switches (none, captures, mvv-lva, recapture, beal,
// see); the threshold scheme and the unified search have their own, because
// their control flow differs, not just their switches.

// quiesce is entered from a full-width node whose depth ran out.
func (s *Searcher) quiesce(alpha, beta Score, ply, ext int) Score {
	if s.opts.QSLevels > 0 && s.opts.QSMoves != QSNone {
		thr := int32(s.opts.Threshold)
		if thr <= 0 {
			thr = 1 << 30 // from full-width nodes the threshold is infinite (001)
		}
		return s.qsThreshold(alpha, beta, ply, 0, s.opts.QSLevels, thr, ext, true)
	}
	if s.opts.Unified {
		return s.unified(alpha, beta, 0, ply, ext)
	}
	return s.qsearch(alpha, beta, ply, 0, ext)
}

// standPat records the static eval a QS node stands pat on and reports
// whether it alone fails high.
func (s *Searcher) standPat(f *frame, eval, beta Score) bool {
	f.standPat, f.hasStand = eval, true
	if traceHooks && s.tr != nil {
		s.traceStandPat(f, eval, beta)
	}
	if eval >= beta {
		f.cause = CauseStandPat
		return true
	}
	return false
}

//go:noinline
func (s *Searcher) traceStandPat(f *frame, eval, beta Score) {
	s.tr.StandPat(StandPatInfo{ID: f.id, Eval: eval, Cutoff: eval >= beta})
}

// delayPenalty is micro-Max's delayed-gain penalty: a gain that comes later
// is worth a little less, so the search prefers the faster of two wins.
func (s *Searcher) delayPenalty(score, eval Score) Score {
	if s.opts.DelayPenalty && score > eval && !score.IsMate() {
		return score - 1
	}
	return score
}

// qsInCheck computes the in-check flag of a QS node only when something
// reads it: evasions, or a tracer. Untraced QS without evasions (most QS
// nodes) skips the attack test.
func (s *Searcher) qsInCheck() bool {
	if s.opts.QSEvasions || (traceHooks && s.tr != nil) {
		return s.pos.InCheck()
	}
	return false
}

// enterQS does the bookkeeping common to every QS node.
func (s *Searcher) enterQS(alpha, beta Score, ply, qsPly, level, ext int, inCheck bool) *frame {
	s.stats.QSNodes++
	if qsPly > s.stats.MaxQSPly {
		s.stats.MaxQSPly = qsPly
	}
	return s.enter(ply, -qsPly, alpha, beta, KindQS, qsPly, level, inCheck, ext)
}

// genQS fills f.moves with the variant's QS moves and scores them.
func (s *Searcher) genQS(f *frame, qsPly int, evasions bool) {
	p := s.pos
	if evasions {
		p.Generate(GenAll, &f.moves)
	} else {
		p.Generate(GenCaptures, &f.moves)
		switch s.opts.QSMoves {
		case QSRecaptures:
			// micro-Max: only moves to the square the last move went to.
			to := p.LastMove().To()
			n := 0
			for _, m := range f.moves.Slice() {
				if m.To() == to && p.IsCapture(m) {
					f.moves.Moves[n] = m
					n++
				}
			}
			f.moves.N = n
		case QSBeal:
			// Beal / Rival: advanced pawn moves, here pushes to the 7th rank.
			seventh, sixth := rank7, p.pieces[White][Pawn]&rank6&^(p.occ>>8)
			if p.side == Black {
				seventh, sixth = rank2, p.pieces[Black][Pawn]&rank3&^(p.occ<<8)
			}
			if sixth == 0 {
				break // no pawn can step to the 7th: skip generating quiets
			}
			p.Generate(GenQuiets, &s.scratch)
			for _, m := range s.scratch.Slice() {
				if p.board[m.From()].Type() == Pawn && seventh.Has(m.To()) {
					f.moves.add(m)
				}
			}
		}
		if s.opts.QSChecks && qsPly == 0 {
			p.Generate(GenQuiets, &s.scratch)
			for _, m := range s.scratch.Slice() {
				if p.GivesCheck(m) {
					f.moves.add(m)
				}
			}
		}
	}
	f.generated = f.moves.N
	for i, m := range f.moves.Slice() {
		if p.IsCapture(m) || m.Promotion() != NoPieceType {
			f.scores[i] = keyCapture + s.captureKey(m)
		} else {
			f.scores[i] = s.history[p.side][m.From()][m.To()]
		}
	}
}

// qsearch is the switch-driven quiescence search (fail-soft).
func (s *Searcher) qsearch(alpha, beta Score, ply, qsPly, ext int) Score {
	p := s.pos
	inCheck := s.qsInCheck()
	f := s.enterQS(alpha, beta, ply, qsPly, qsPly, ext, inCheck)
	if s.stopped {
		f.cause = CauseStop
		return s.finish(f, 0, BoundNone, NoMove)
	}
	eval := p.Evaluate()
	if s.opts.QSMoves == QSNone {
		f.cause, f.standPat, f.hasStand = CauseHorizon, eval, true
		return s.finish(f, eval, BoundExact, NoMove)
	}
	if ply >= MaxPly || qsPly >= s.opts.MaxQSPly {
		f.cause, f.standPat, f.hasStand = CauseMaxPly, eval, true
		return s.finish(f, eval, BoundExact, NoMove)
	}
	evasions := inCheck && s.opts.QSEvasions
	origAlpha := alpha
	best, scored := -Infinity, false
	if !evasions {
		f.standPat, f.hasStand = eval, true
		if s.opts.StandPat {
			best, scored = eval, true
			if s.standPat(f, eval, beta) {
				return s.finish(f, eval, BoundLower, NoMove)
			}
			if eval > alpha {
				alpha = eval
			}
			// Delta pruning, whole node: not even winning a queen (and
			// promoting) lifts the score to alpha.
			if s.opts.DeltaPrune {
				swing := seeValue[Queen] + int32(s.opts.DeltaMargin)
				if p.pieces[p.side][Pawn]&[2]Bitboard{rank7, rank2}[p.side] != 0 {
					swing += seeValue[Queen] - seeValue[Pawn]
				}
				if int32(eval)+swing < int32(alpha) {
					f.cause = CauseDelta
					return s.finish(f, eval, BoundUpper, NoMove)
				}
			}
		}
	}
	s.genQS(f, qsPly, evasions)
	if evasions && f.moves.N == 0 {
		f.cause = CauseMate
		return s.finish(f, -MateScore+Score(ply), BoundExact, NoMove)
	}
	bestMove := NoMove
	seePruned, deltaPruned := 0, 0
	child := &s.stack[ply+1]
	for i := 0; i < f.moves.N; i++ {
		m := f.pick(i)
		if !evasions && p.IsCapture(m) {
			if s.opts.DeltaPrune && m.Promotion() == NoPieceType &&
				int32(eval)+seeValue[p.Captured(m)]+int32(s.opts.DeltaMargin) <= int32(alpha) {
				deltaPruned++
				continue
			}
			if s.opts.SEEPrune && p.SEE(m) < 0 {
				seePruned++
				continue
			}
		}
		s.traceMove(f, m, i)
		p.MakeMove(m)
		score := -s.qsearch(-beta, -alpha, ply+1, qsPly+1, 0)
		p.UnmakeMove()
		f.searched++
		if s.stopped {
			f.cause = CauseStop
			return s.finish(f, max(best, alpha), BoundNone, bestMove)
		}
		score = s.delayPenalty(score, eval)
		scored = true
		if score > best {
			best = score
			if score > alpha {
				alpha, bestMove = score, m
				f.updatePV(m, child)
				if score >= beta {
					f.cause, f.cutIndex = CauseBeta, i
					break
				}
			}
		}
	}
	if !scored {
		// No stand pat and nothing searched: the static eval is all there is.
		best = eval
	}
	if f.searched == 0 && f.cause == CauseNone {
		switch {
		case seePruned > 0:
			f.cause = CauseSEE
		case deltaPruned > 0:
			f.cause = CauseDelta
		}
	}
	return s.finish(f, best, boundOf(best, origAlpha, beta), bestMove)
}

// qsThreshold is hgm's multi-level QS (001). level is the number of levels
// left; threshold is the value of the piece captured on the previous ply. A
// capture whose estimated gain is <= threshold is extended (keeps its
// level); others cost a level, and with none left the node fails high by
// rule (auto-fail-high). At the QS root (root) the levels are iterated
// 0..level, stopping at the first pass that met no auto-fail-high: its
// result holds at every higher level (depth bootstrapping).
func (s *Searcher) qsThreshold(alpha, beta Score, ply, qsPly, level int, threshold int32, ext int, root bool) Score {
	p := s.pos
	inCheck := s.qsInCheck()
	f := s.enterQS(alpha, beta, ply, qsPly, level, ext, inCheck)
	if s.stopped {
		f.cause = CauseStop
		return s.finish(f, 0, BoundNone, NoMove)
	}
	entryAlpha := alpha
	eval := p.Evaluate()
	if ply >= MaxPly || qsPly >= s.opts.MaxQSPly {
		f.cause, f.standPat, f.hasStand = CauseMaxPly, eval, true
		return s.finish(f, eval, BoundExact, NoMove)
	}
	evasions := inCheck && s.opts.QSEvasions
	standing := s.opts.StandPat && !evasions
	if !evasions {
		f.standPat, f.hasStand = eval, true
	}
	best := -Infinity
	if standing {
		best = eval
		if s.standPat(f, eval, beta) {
			return s.finish(f, eval, BoundLower, NoMove)
		}
	}
	standAlpha := max(alpha, best)
	s.genQS(f, qsPly, evasions)
	if evasions && f.moves.N == 0 {
		f.cause = CauseMate
		return s.finish(f, -MateScore+Score(ply), BoundExact, NoMove)
	}
	// Estimated gain and extension; non-extended captures are searched
	// first, so they carry a higher ordering key, from which the extension
	// is read back as the moves are picked.
	them := p.side.Other()
	for i, m := range f.moves.Slice() {
		gain := seeValue[p.Captured(m)]
		occ := p.occ &^ sqBB(m.From())
		if p.attackersTo(m.To(), occ)&p.colors[them]&occ != 0 {
			gain -= seeValue[p.board[m.From()].Type()]
		}
		if gain > threshold {
			f.scores[i] += keyNotExtended
		}
	}
	for i := 0; i < f.moves.N; i++ {
		f.pick(i) // sort once: every level pass walks the same order
	}

	first, last := level, level
	if root {
		first = 0
	}
	bestMove := NoMove
	scored := standing
	child := &s.stack[ply+1]
	for lvl := first; lvl <= last; lvl++ {
		before := s.afhCount
		best, bestMove, alpha = -Infinity, NoMove, standAlpha
		if standing {
			best = eval
		}
		f.cause, f.cutIndex = CauseNone, -1
		for i := 0; i < f.moves.N; i++ {
			m := f.moves.Moves[i]
			extended := f.scores[i] < keyNotExtended
			childLevel := lvl
			if !extended {
				childLevel--
			}
			if childLevel < 0 {
				// No level left to search this capture: it is assumed to win.
				s.afhCount++
				f.cause, f.cutIndex = CauseAutoFailHigh, i
				best, bestMove, scored = max(best, beta), m, true
				break
			}
			victim := seeValue[p.Captured(m)]
			s.traceMove(f, m, i)
			if extended {
				s.traceExt(f, m, 1) // the capture keeps its level
			}
			p.MakeMove(m)
			score := -s.qsThreshold(-beta, -alpha, ply+1, qsPly+1, childLevel, victim, boolInt(extended), false)
			p.UnmakeMove()
			f.searched++
			if s.stopped {
				f.cause = CauseStop
				return s.finish(f, max(best, alpha), BoundNone, bestMove)
			}
			score = s.delayPenalty(score, eval)
			scored = true
			if score > best {
				best = score
				if score > alpha {
					alpha, bestMove = score, m
					f.updatePV(m, child)
					if score >= beta {
						f.cause, f.cutIndex = CauseBeta, i
						break
					}
				}
			}
		}
		if s.afhCount == before {
			break // bootstrapping: no auto-fail-high, so higher levels give the same result
		}
		if root && lvl == last && f.cause == CauseNone {
			// The levels ran out while the pass still leaned on
			// auto-fail-highs below: the result is only as good as level L.
			f.cause = CauseLevelExhausted
		}
	}
	if !scored {
		best = eval // no stand pat and nothing searched: the eval is all there is
	}
	return s.finish(f, best, boundOf(best, entryAlpha, beta), bestMove)
}

// unified is the search of 000's second part: one routine for full-width and
// QS nodes, running an iterative-deepening loop in every node from the depth
// the hash table vouches for up to max(depth, 1). At depth <= 0 its single
// iteration is QS: stand pat instead of -INF, captures only, and the hash
// move only when it is a capture. A move that raises alpha moves to the front
// of the list for the next iteration; the hash table is written after each.
func (s *Searcher) unified(alpha, beta Score, depth, ply, ext int) Score {
	p := s.pos
	inCheck := p.InCheck()
	qs := depth <= 0
	var f *frame
	switch {
	case qs:
		f = s.enterQS(alpha, beta, ply, -depth, -depth, ext, inCheck)
	case ply == 0:
		f = s.enter(ply, depth, alpha, beta, KindRoot, -1, -1, inCheck, ext)
	case beta-alpha > 1:
		f = s.enter(ply, depth, alpha, beta, KindPV, -1, -1, inCheck, ext)
	default:
		f = s.enter(ply, depth, alpha, beta, KindNonPV, -1, -1, inCheck, ext)
	}
	if s.stopped {
		f.cause = CauseStop
		return s.finish(f, 0, BoundNone, NoMove)
	}
	if ply > 0 && !qs {
		if c := s.drawCause(); c != CauseNone {
			f.cause = c
			return s.finish(f, DrawScore, BoundExact, NoMove)
		}
	}
	if ply >= MaxPly || -depth >= s.opts.MaxQSPly {
		f.cause = CauseMaxPly
		return s.finish(f, p.Evaluate(), BoundExact, NoMove)
	}

	// Hash probe: the move is used anyway; a useful score lets the
	// iterations already done be skipped (depth bootstrapping).
	startDepth, hashMove := 1, NoMove
	best := -Infinity
	if s.tt != nil {
		if e, ok := s.tt.probe(p.key); ok {
			hashMove = e.move()
			sc := scoreFromTT(Score(e.score), ply)
			if ply > 0 && (e.bound == BoundExact || (e.bound == BoundLower && sc >= beta) || (e.bound == BoundUpper && sc <= alpha)) {
				startDepth, best = int(e.depth)+1, sc
			}
		}
	}
	maxIter := max(depth, 1)
	if startDepth > maxIter {
		f.cause = CauseTT
		return s.finish(f, best, boundOf(best, alpha, beta), hashMove)
	}
	eval := p.Evaluate()
	evasions := qs && inCheck && s.opts.QSEvasions
	if qs {
		if s.opts.QSMoves == QSNone {
			f.cause, f.standPat, f.hasStand = CauseHorizon, eval, true
			return s.finish(f, eval, BoundExact, NoMove)
		}
		s.genQS(f, -depth, evasions)
		if evasions && f.moves.N == 0 {
			f.cause = CauseMate
			return s.finish(f, -MateScore+Score(ply), BoundExact, NoMove)
		}
		if !p.IsCapture(hashMove) {
			hashMove = NoMove // in QS only a capturing hash move may be tried
		}
		for i, m := range f.moves.Slice() {
			if m == hashMove {
				f.scores[i] = keyHash
			}
		}
	} else {
		p.Generate(GenAll, &f.moves)
		f.generated = f.moves.N
		if f.moves.N == 0 {
			f.cause = CauseMate
			if inCheck {
				return s.finish(f, -MateScore+Score(ply), BoundExact, NoMove)
			}
			return s.finish(f, DrawScore, BoundExact, NoMove)
		}
		s.scoreMoves(f, ply, hashMove)
	}
	// Sort once; later iterations keep the list order, best moves in front.
	for i := 0; i < f.moves.N; i++ {
		f.pick(i)
	}

	bestMove := NoMove
	bound := BoundUpper
	scored := false
	child := &s.stack[ply+1]
	for iter := startDepth; iter <= maxIter; iter++ {
		iterAlpha := alpha
		best, bestMove = -Infinity, NoMove
		f.cause, f.cutIndex = CauseNone, -1
		if qs && !evasions {
			f.standPat, f.hasStand = eval, true
			if s.opts.StandPat {
				best, scored = eval, true
				if s.standPat(f, eval, beta) {
					return s.finish(f, eval, BoundLower, NoMove)
				}
				iterAlpha = max(iterAlpha, eval)
			}
		}
		for i := 0; i < f.moves.N; i++ {
			m := f.moves.Moves[i]
			s.traceMove(f, m, i)
			p.MakeMove(m)
			childDepth := iter - 1
			if qs {
				childDepth = depth - 1
			}
			score := -s.unified(-beta, -iterAlpha, childDepth, ply+1, 0)
			p.UnmakeMove()
			f.searched++
			if s.stopped {
				f.cause = CauseStop
				return s.finish(f, max(best, iterAlpha), BoundNone, bestMove)
			}
			score = s.delayPenalty(score, eval)
			scored = true
			if score > best {
				best = score
				if score > iterAlpha {
					iterAlpha, bestMove = score, m
					f.updatePV(m, child)
					if i > 0 {
						// PutInFront: the next iteration tries it first.
						copy(f.moves.Moves[1:i+1], f.moves.Moves[:i])
						f.moves.Moves[0] = m
					}
					if score >= beta {
						f.cause, f.cutIndex = CauseBeta, i
						if !qs {
							s.rewardQuiet(f, ply, m, iter)
						}
						break
					}
				}
			}
		}
		if !scored {
			best = eval // QS without stand pat and nothing searched
		}
		bound = boundOf(best, alpha, beta)
		if s.tt != nil {
			storeDepth := iter
			if qs {
				storeDepth = 0
			}
			s.tt.store(p.key, bestMove, best, storeDepth, bound, ply)
		}
	}
	return s.finish(f, best, bound, bestMove)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
