package engine

// Quiescence search. Three routines search QS nodes: qsearch (the capture
// search with switches of none's successors: captures, mvv-lva, recapture,
// beal, see), the same with level passes (001's threshold QS) and the QS
// iteration of unified (000). They share the QS steps here (the ply limits, stand pat with
// delta pruning of the whole node, move generation, pruning of single
// captures) and the move-loop steps of search.go, so a switch is read in
// one place and reaches every routine it can apply to. A new QS technique
// is one guard in qsStand, genQS or qsPrune.

// quiesce is entered from a full-width node whose depth ran out: it sets
// the QS root's extras and hands the node to the routine NodeRoutine names.
func (s *Searcher) quiesce(alpha, beta Score, ply int) Score {
	f := &s.stack[ply]
	f.qsPly, f.level = 0, -1
	switch s.opts.NodeRoutine(0) {
	case RoutineHorizon:
		f.qsPly = -1
		return s.horizon(alpha, beta, ply)
	case RoutineUnified:
		return s.unified(alpha, beta, 0, ply)
	case RoutineThreshold:
		f.level, f.qsRoot, f.threshold = s.opts.QSLevels, true, int32(s.opts.Threshold)
		if f.threshold <= 0 {
			f.threshold = 1 << 30 // from full-width nodes the threshold is infinite (001)
		}
		return s.qsearch(RoutineThreshold, alpha, beta, ply)
	}
	return s.qsearch(RoutineQS, alpha, beta, ply)
}

// horizon is a horizon node of a search without QS (qs-moves none): a
// full-width leaf that returns its static evaluation. It is not a QS node.
func (s *Searcher) horizon(alpha, beta Score, ply int) Score {
	inCheck := traceHooks && s.tr != nil && s.pos.InCheck() // only a trace reads it
	f := s.enter(ply, 0, alpha, beta, s.kindOf(ply, alpha, beta), inCheck)
	if s.stopped {
		return s.stopAtEntry(f)
	}
	eval := s.pos.Evaluate()
	f.cause, f.standPat, f.hasStand = CauseHorizon, eval, true
	return s.finish(f, eval, BoundExact, NoMove)
}

// enterQS does the bookkeeping common to every QS node.
func (s *Searcher) enterQS(alpha, beta Score, ply int, inCheck bool) *frame {
	qsPly := s.stack[ply].qsPly
	s.stats.QSNodes++
	if qsPly > s.stats.MaxQSPly {
		s.stats.MaxQSPly = qsPly
	}
	return s.enter(ply, -qsPly, alpha, beta, KindQS, inCheck)
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

// qsLimit ends a QS node at the ply limits on its static eval.
func (s *Searcher) qsLimit(f *frame) Score {
	f.cause, f.standPat, f.hasStand = CauseMaxPly, f.eval, true
	return s.finish(f, f.eval, BoundExact, NoMove)
}

// qsStand is the QS step before the moves: a node searching evasions has
// no stand pat; otherwise it records its static eval and, when the variant
// stands pat, takes it as its first score, cuts off on it at beta, raises
// alpha to it and, with delta pruning, gives up when not even winning a
// queen (and promoting) lifts it to alpha. It returns true when the node
// ends here (see finishStand).
func (s *Searcher) qsStand(f *frame, inCheck bool, beta Score) bool {
	f.evasions = s.opts.Evades(inCheck)
	if f.evasions {
		return false
	}
	eval := f.eval
	f.standPat, f.hasStand = eval, true
	if !s.opts.StandPat {
		return false
	}
	f.best, f.scored = eval, true
	if traceHooks && s.tr != nil {
		s.traceStandPat(f, eval, beta)
	}
	if eval >= beta {
		f.cause = CauseStandPat
		return true
	}
	f.alpha = max(f.alpha, eval)
	if s.opts.DeltaPrune {
		p := s.pos
		swing := seeValue[Queen] + int32(s.opts.DeltaMargin)
		if p.PawnOnSeventh() {
			swing += seeValue[Queen] - seeValue[Pawn]
		}
		if int32(eval)+swing < int32(f.alpha) {
			// Fail-soft: the bound is what the pruning assumed the moves
			// could reach, not the eval, which a search of the same node
			// with alpha below eval+swing would beat.
			f.cause, f.best = CauseDelta, Score(int32(eval)+swing)
			return true
		}
	}
	return false
}

// finishStand leaves a node that qsStand ended: a stand-pat cutoff fails
// high on the eval, a delta-pruned node fails low on the most its moves
// could reach (eval plus the swing).
func (s *Searcher) finishStand(f *frame) Score {
	if f.cause == CauseStandPat {
		return s.finish(f, f.eval, BoundLower, NoMove)
	}
	return s.finish(f, f.best, BoundUpper, NoMove)
}

//go:noinline
func (s *Searcher) traceStandPat(f *frame, eval, beta Score) {
	s.tr.StandPat(StandPatInfo{ID: f.id, Eval: eval, Cutoff: eval >= beta})
}

// genQS fills f.moves with the moves QS allows at node f (Options.QSAllows;
// every legal move when it searches evasions) and scores them.
func (s *Searcher) genQS(f *frame) {
	p, o := s.pos, &s.opts
	if f.evasions {
		p.Generate(GenAll, &f.moves)
	} else {
		p.Generate(GenCaptures, &f.moves)
		if o.QSMoves == QSRecaptures {
			n := 0
			for _, m := range f.moves.Slice() {
				if o.QSAllows(p, m, f.qsPly) {
					f.moves.Moves[n] = m
					n++
				}
			}
			f.moves.N = n
		}
		// The quiet moves QS allows: Beal's pushes to the 7th, and quiet
		// checks at the first QS ply. Quiets are generated only when one
		// of them may be allowed.
		if (o.QSChecks && f.qsPly == 0) || (o.QSMoves == QSBeal && s.pawnCanReach7th()) {
			p.Generate(GenQuiets, &s.scratch)
			for _, m := range s.scratch.Slice() {
				if o.QSAllows(p, m, f.qsPly) {
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

// pawnCanReach7th reports whether a pawn of the side to move can step to
// its 7th rank.
func (s *Searcher) pawnCanReach7th() bool {
	p := s.pos
	if p.side == Black {
		return p.pieces[Black][Pawn]&rank3&^(p.occ<<8) != 0
	}
	return p.pieces[White][Pawn]&rank6&^(p.occ>>8) != 0
}

// qsPrune is the QS guard on a single capture: delta pruning skips one whose
// victim and margin cannot lift the eval above alpha, SEE pruning one that
// loses material. Nodes searching evasions prune nothing. The counts give
// the node its cause when nothing is left to search.
//
// A delta-pruned capture still counts in the fail-soft score with the
// most it was assumed to reach, eval + victim + margin (at or below
// alpha, so the node's bound stays what it was): without it a node that
// fails low would claim an upper bound below what the capture may win,
// and the hash table (unified's QS, or the full-width parent's lower
// bound) would keep that bound for windows where the capture is searched.
// SEE pruning assumes the capture loses material, below the eval, which
// bounds the node already when it stands pat; its score stays as searched.
func (s *Searcher) qsPrune(f *frame, m Move) bool {
	p := s.pos
	if f.evasions || !p.IsCapture(m) {
		return false
	}
	if opt, pruned := s.opts.DeltaPrunes(p, m, f.eval, f.alpha); pruned {
		f.deltaPruned++
		if !f.scored || opt > f.best {
			f.best, f.scored = opt, true
		}
		return true
	}
	if _, pruned := s.opts.SEEPrunes(p, m); pruned {
		f.seePruned++
		return true
	}
	return false
}

// qsFinish leaves a QS node after its moves: with no stand pat and nothing
// searched, the static eval is all there is; a node whose every move was
// pruned says by what.
func (s *Searcher) qsFinish(f *frame, alpha, beta Score) Score {
	if !f.scored {
		f.best = f.eval
	}
	f.causeIfAllPruned()
	return s.finish(f, f.best, BoundOf(f.best, alpha, beta), f.bestMove)
}

// causeIfAllPruned names why a QS node searched nothing when pruning removed
// every move it generated: SEE pruning first, as the move loop tries it first.
func (f *frame) causeIfAllPruned() {
	if f.searched != 0 || f.cause != CauseNone {
		return
	}
	switch {
	case f.seePruned > 0:
		f.cause = CauseSEE
	case f.deltaPruned > 0:
		f.cause = CauseDelta
	}
}

// qsearch is the switch-driven quiescence search (fail-soft) of routines
// RoutineQS and RoutineThreshold: they share steps 1 to 4, and a threshold
// node then searches its moves in level passes (levelPasses).
func (s *Searcher) qsearch(r Routine, alpha, beta Score, ply int) Score {
	p := s.pos
	// Step 1. Enter the node.
	inCheck := s.qsInCheck()
	f := s.enterQS(alpha, beta, ply, inCheck)
	if s.stopped {
		return s.stopAtEntry(f)
	}
	// Step 2. The static eval, and the ply limits.
	f.eval = p.Evaluate()
	if ply >= MaxPly || f.qsPly >= s.opts.MaxQSPly {
		return s.qsLimit(f)
	}
	// Step 3. Stand pat, and delta pruning of the whole node.
	if s.qsStand(f, inCheck, beta) {
		return s.finishStand(f)
	}
	// Step 4. The moves QS allows; in check with evasions, none is mate.
	s.genQS(f)
	if f.evasions && f.moves.N == 0 {
		return s.noMoves(f, ply, true)
	}
	if r == RoutineThreshold {
		return s.levelPasses(f, alpha, beta, ply)
	}
	// Step 5. Search them, best first, past the pruning guard.
	if !s.moveLoop(RoutineQS, f, ply, 0, 0, beta) {
		return s.stopInLoop(f)
	}
	// Step 6. Leave.
	return s.qsFinish(f, alpha, beta)
}

// levelPasses searches the moves of a node of hgm's multi-level QS (001),
// after qsearch's steps 1 to 4. The node's level is the number of levels left; its threshold is the value of the piece captured
// on the previous ply. A capture whose estimated gain is <= threshold is
// extended (keeps its level); others cost a level, and with none left the
// node fails high by rule (auto-fail-high). At the QS root the levels are
// iterated 0..level, stopping at the first pass that met no auto-fail-high:
// its result holds at every higher level (depth bootstrapping). Every pass
// starts from the scores the stand pat left (genQS does not touch them).
func (s *Searcher) levelPasses(f *frame, alpha, beta Score, ply int) Score {
	p := s.pos
	standBest, standAlpha, standScored := f.best, f.alpha, f.scored
	// Step 5. Estimated gain and extension. Non-extended captures are
	// searched first, so they carry a higher ordering key, from which the
	// extension is read back in the passes; the list is sorted once, so
	// every pass walks the same order.
	them := p.side.Other()
	for i, m := range f.moves.Slice() {
		gain := seeValue[p.Captured(m)]
		occ := p.occ &^ sqBB(m.From())
		if p.attackersTo(m.To(), occ)&p.colors[them]&occ != 0 {
			gain -= seeValue[p.board[m.From()].Type()]
		}
		if gain > f.threshold {
			f.scores[i] += keyNotExtended
		}
	}
	for i := 0; i < f.moves.N; i++ {
		f.pick(i)
	}
	// Step 6. The level passes: one at the node's level, or 0..level at
	// the QS root until a pass meets no auto-fail-high.
	first, last := f.level, f.level
	if f.qsRoot {
		first = 0
	}
	for lvl := first; lvl <= last; lvl++ {
		before := s.afhCount
		f.best, f.alpha, f.bestMove, f.scored = standBest, standAlpha, NoMove, standScored
		f.cause, f.cutIndex, f.seePruned, f.deltaPruned = CauseNone, -1, 0, 0
		if !s.moveLoop(RoutineThreshold, f, ply, 0, lvl, beta) {
			return s.stopInLoop(f)
		}
		if s.afhCount == before {
			break // bootstrapping: no auto-fail-high, so higher levels give the same result
		}
		if f.qsRoot && lvl == last && f.cause == CauseNone {
			// The levels ran out while the pass still leaned on
			// auto-fail-highs below: the result is only as good as level L.
			f.cause = CauseLevelExhausted
		}
	}
	// Step 7. Leave.
	return s.qsFinish(f, alpha, beta)
}

// unified is the search of 000's second part: one routine for full-width and
// QS nodes, running an iterative-deepening loop in every node from the depth
// the hash table vouches for up to max(depth, 1). At depth <= 0 its single
// iteration is QS: stand pat instead of -INF, the moves QS allows, and the
// hash move only when it is a capture. A move that raises alpha moves to the
// front of the list for the next iteration; the hash table is written after
// each. Its full-width iterations take the extensions and PVS of search,
// its QS iteration the QS steps of qsearch.
func (s *Searcher) unified(alpha, beta Score, depth, ply int) Score {
	p := s.pos
	qs := depth <= 0
	// Step 1. Enter the node.
	inCheck := p.InCheck()
	var f *frame
	if qs {
		f = s.enterQS(alpha, beta, ply, inCheck)
	} else {
		kind := s.kindOf(ply, alpha, beta)
		f = s.enter(ply, depth, alpha, beta, kind, inCheck)
		f.kind = kind // for the children's kinds (kindOf)
	}
	if s.stopped {
		return s.stopAtEntry(f)
	}
	// Step 2. Draws (full width) and the ply limits.
	if ply > 0 && !qs {
		if c := s.drawCause(); c != CauseNone {
			f.cause = c
			return s.finish(f, DrawScore, BoundExact, NoMove)
		}
	}
	if ply >= MaxPly || f.qsPly >= s.opts.MaxQSPly {
		if qs {
			f.eval = p.Evaluate()
			return s.qsLimit(f) // as qsearch: the static eval, recorded
		}
		f.cause = CauseMaxPly
		return s.finish(f, p.Evaluate(), BoundExact, NoMove)
	}

	// Step 3. Hash probe: the move is used anyway; a useful score lets the
	// iterations already done be skipped (depth bootstrapping).
	startDepth, hashMove := s.unifiedProbe(f, alpha, beta, ply)
	maxIter := max(depth, 1)
	if startDepth > maxIter {
		f.cause = CauseTT
		return s.finish(f, f.best, BoundOf(f.best, alpha, beta), hashMove)
	}
	f.best = -Infinity
	f.eval = p.Evaluate()

	// Step 4. The moves: in QS stand pat first, then the moves QS allows
	// with a capturing hash move in front; full width, every move.
	if qs {
		if s.qsStand(f, inCheck, beta) {
			return s.finishStand(f)
		}
		s.genQS(f)
		if f.evasions && f.moves.N == 0 {
			return s.noMoves(f, ply, true)
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
		s.generateAll(f, ply)
		if f.moves.N == 0 {
			return s.noMoves(f, ply, inCheck)
		}
		s.scoreMoves(f, ply, hashMove)
		f.lastTo = NoSquare
		if lm := p.LastMove(); lm != NoMove && ply > 0 {
			f.lastTo = lm.To()
		}
	}
	// Sort once; later iterations keep the list order, best moves in front.
	for i := 0; i < f.moves.N; i++ {
		f.pick(i)
	}

	// Step 5. The iterations.
	standBest, standAlpha, standScored := f.best, f.alpha, f.scored
	bound := BoundUpper
	for iter := startDepth; iter <= maxIter; iter++ {
		f.best, f.alpha, f.bestMove, f.scored = standBest, standAlpha, NoMove, standScored
		f.cause, f.cutIndex, f.seePruned, f.deltaPruned = CauseNone, -1, 0, 0
		loopDepth := iter // full width: the iteration's depth
		if qs {
			loopDepth = depth
		}
		if !s.moveLoop(RoutineUnified, f, ply, loopDepth, 0, beta) {
			return s.stopInLoop(f)
		}
		if !f.scored {
			f.best = f.eval // QS without stand pat and nothing searched
		}
		bound = BoundOf(f.best, alpha, beta)
		if s.tt != nil {
			storeDepth := iter
			if qs {
				storeDepth = 0
			}
			s.tt.store(p.key, f.bestMove, f.best, storeDepth, bound, ply)
		}
	}
	// Step 6. Leave.
	if qs {
		f.causeIfAllPruned()
	}
	return s.finish(f, f.best, bound, f.bestMove)
}

// unifiedProbe reads unified's hash entry: its move is tried anyway, and a
// score that would cut lets the iterations it vouches for be skipped (it sets
// f.best to that score and returns the first iteration still to run).
func (s *Searcher) unifiedProbe(f *frame, alpha, beta Score, ply int) (startDepth int, hashMove Move) {
	startDepth, hashMove = 1, NoMove
	if s.tt == nil {
		return startDepth, hashMove
	}
	if e, ok := s.tt.probe(s.pos.key); ok {
		hashMove = e.move()
		sc := scoreFromTT(Score(e.score), ply)
		if ply > 0 && ttCuts(e.bound, sc, alpha, beta) {
			startDepth, f.best = int(e.depth)+1, sc
		}
	}
	return startDepth, hashMove
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
