package engine

import (
	"context"
	"math"
	"slices"
	"time"
)

// MaxPly bounds the distance from the root; nodes there return their eval.
const MaxPly = 128

// Limits bound a search. Zero values mean no limit; with no depth limit the
// search runs until another limit or the context stops it.
type Limits struct {
	Depth    int
	Nodes    int64
	MoveTime time.Duration
}

// StopReason tells why a search ended before its depth limit, if it did.
type StopReason uint8

// Stop reasons.
const (
	StopNone   StopReason = iota // completed its depth limit
	StopNodes                    // the node limit was reached
	StopTime                     // the time limit was reached
	StopCancel                   // the context was cancelled (Ctrl-C, UCI stop)
)

var stopNames = [...]string{"complete", "nodes", "time", "cancel"}

// String returns "complete", "nodes", "time" or "cancel".
func (r StopReason) String() string { return stopNames[r] }

// Stats are the engine's counters, kept whether or not a tracer listens.
type Stats struct {
	Nodes    int64 // positions the search visited, as engines count nodes: a trace has one more row, the run node
	QSNodes  int64
	MaxPly   int // deepest ply reached
	MaxQSPly int // deepest QS ply (plies past the horizon) reached
	Cutoffs  [numCauses]int64
	PlyNodes [MaxPly + 1]int64 // nodes by ply
}

// CutoffsBy returns the number of nodes that ended for cause c.
func (st *Stats) CutoffsBy(c Cause) int64 { return st.Cutoffs[c] }

// IterationInfo reports a finished iteration of iterative deepening.
type IterationInfo struct {
	Depth    int
	Score    Score
	PV       []Move
	Nodes    int64
	QSNodes  int64
	SelDepth int
	Elapsed  time.Duration
}

// Result is the outcome of a search.
type Result struct {
	BestMove Move
	Ponder   Move
	Score    Score
	PV       []Move
	// Depth is the last completed iteration; 0 when a stop came before
	// the first finished. BestMove is then the unfinished iteration's
	// best so far or, with none, the first legal move (a UCI engine must
	// play one), and Score and PV are no search result: see Finished.
	Depth   int
	Stats   Stats
	Elapsed time.Duration
	Stopped StopReason
}

// frame is the per-ply state of the search: preallocated so a node
// allocates nothing. The parent sets the node's extras (qsPly, level,
// threshold, qsRoot, ext, checkExt) before it recurses, so they travel in
// the frame rather than as parameters; enter resets the rest.
type frame struct {
	moves   MoveList
	scores  [MaxMoves]int32
	killers [2]Move
	pv      [MaxPly + 1]Move
	pvLen   int
	id      int64

	// Set by the parent.
	qsPly     int   // QS nodes: plies from the QS root (0 there); -1 elsewhere
	level     int   // threshold QS: the node's level; -1 elsewhere
	threshold int32 // threshold QS: the value captured on the previous ply (001)
	qsRoot    bool  // threshold QS: the node is its QS root and iterates the levels
	ext       int   // plies of extension the node's move got
	checkExt  bool  // a check extension was given on the path to this node

	// The node's own state, shared by the move loop's steps.
	eval        Score // static eval, when the node computed it
	evasions    bool  // QS node in check searching every evasion
	alpha       Score // the window's lower end, raised as moves improve it
	best        Score // fail-soft best so far
	bestMove    Move
	scored      bool // best holds a stand pat, a move's score or an auto-fail-high
	lastTo      Square
	seePruned   int
	deltaPruned int

	kind NodeKind // a full-width node's kind, for its children's (Searcher.kindOf); set by search and unified, not by enter

	// What the node reports when it leaves.
	cause     Cause
	cutIndex  int
	generated int
	searched  int
	standPat  Score
	hasStand  bool
}

// Searcher runs searches with one set of options. It is single-threaded and
// deterministic: the same position, options and limits give the same tree.
type Searcher struct {
	opts    Options
	tt      *transTable // nil when the TT is off
	spareTT *transTable // kept across SetOptions for reuse
	pos     *Position
	tr      Tracer
	lim     Limits

	done       <-chan struct{}
	start      time.Time
	nodeLimit  int64
	stopped    bool
	stopReason StopReason

	nextID    int64
	iteration int
	afhCount  int64 // auto-fail-highs so far, for threshold QS bootstrapping
	stats     Stats
	history   [2][64][64]int32
	scratch   MoveList
	stack     [MaxPly + 2]frame

	// OnIteration, if set, is called after each completed iteration.
	OnIteration func(IterationInfo)
	// RootMoves, if not empty, restricts the root of Search to those of
	// its legal moves (UCI's go searchmoves): the root generates and
	// searches only them, and the best move is one of them. When none of
	// them is legal at the root, the root searches every move.
	RootMoves []Move
}

// NewSearcher returns a searcher with the given options.
func NewSearcher(o Options) *Searcher {
	s := &Searcher{}
	s.SetOptions(o)
	return s
}

// SetOptions switches the searcher to other options between searches. The
// transposition table is kept when its size stays the same (every search
// starts with it cleared anyway), so one searcher can serve several
// variants without a table for each.
func (s *Searcher) SetOptions(o Options) {
	if s.tt != nil {
		s.spareTT = s.tt
	}
	s.tt = nil
	if o.TT {
		mb := max(o.HashMB, 1)
		if s.spareTT == nil || s.spareTT.mb != mb {
			s.spareTT = newTransTable(mb)
		}
		s.tt = s.spareTT
	}
	if o.MaxQSPly <= 0 {
		o.MaxQSPly = 64
	}
	s.opts = o
}

// Options returns the searcher's options.
func (s *Searcher) Options() Options { return s.opts }

// begin gives a search (Search, Quiesce) its fresh start: it depends on
// nothing that ran before it on this searcher, so trees are reproducible.
func (s *Searcher) begin(ctx context.Context, pos *Position, lim Limits, tr Tracer) {
	s.pos, s.tr, s.lim = pos, tr, lim
	s.done = ctx.Done()
	s.start = time.Now()
	s.nodeLimit = math.MaxInt64
	if lim.Nodes > 0 {
		s.nodeLimit = lim.Nodes
	}
	s.stopped, s.stopReason = false, StopNone
	s.nextID, s.afhCount = 0, 0
	s.stats = Stats{}
	s.history = [2][64][64]int32{}
	for i := range s.stack {
		s.stack[i].killers = [2]Move{}
	}
	if s.tt != nil {
		s.tt.clear()
	}
}

// enterRun reports the run node (id 0), the parent of what the search
// visits, with the run's depth and window. It is no position the search
// visited, so no node is counted: Stats.Nodes is what engines report.
func (s *Searcher) enterRun(depth int, alpha, beta Score) {
	s.nextID = 1
	if traceHooks && s.tr != nil {
		s.tr.Enter(EnterInfo{ID: 0, Parent: -1, Depth: depth, Alpha: alpha, Beta: beta,
			Kind: KindRun, QSPly: -1, QSLevel: -1, InCheck: s.pos.InCheck()})
	}
}

// Search searches pos (which it leaves as it found it) within lim, reporting
// every node to tr if tr is not nil. The context stops the search; the result
// then holds the last completed iteration.
func (s *Searcher) Search(ctx context.Context, pos *Position, lim Limits, tr Tracer) Result {
	s.begin(ctx, pos, lim, tr)
	maxDepth := lim.Depth
	if maxDepth <= 0 || maxDepth > MaxPly-1 {
		maxDepth = MaxPly - 1
	}

	// The run node: parent of every iteration.
	s.enterRun(maxDepth, -Infinity, Infinity)
	var res Result
	iterations := 0
	for d := 1; d <= maxDepth; d++ {
		s.iteration = d
		root := &s.stack[0]
		root.checkExt, root.ext, root.qsPly, root.level = false, 0, -1, -1
		score := s.search(-Infinity, Infinity, d, 0)
		iterations++
		f := &s.stack[0]
		if s.stopped {
			// A partial iteration's move is used only when nothing better exists.
			if res.BestMove == NoMove && f.pvLen > 0 {
				res.BestMove, res.Score, res.PV = f.pv[0], score, append([]Move(nil), f.pv[:f.pvLen]...)
			}
			break
		}
		res.Score, res.Depth = score, d
		res.PV = append(res.PV[:0:0], f.pv[:f.pvLen]...)
		if f.pvLen > 0 {
			res.BestMove = f.pv[0]
		}
		if s.OnIteration != nil {
			s.OnIteration(IterationInfo{Depth: d, Score: score, PV: res.PV, Nodes: s.stats.Nodes,
				QSNodes: s.stats.QSNodes, SelDepth: s.stats.MaxPly, Elapsed: time.Since(s.start)})
		}
		if f.generated == 0 {
			break // mate or stalemate at the root: nothing to deepen
		}
	}
	if res.BestMove == NoMove {
		// Stopped before any move was scored: any legal move beats none.
		var l MoveList
		pos.Generate(GenAll, &l)
		restrictTo(&l, s.RootMoves)
		if l.N > 0 {
			res.BestMove = l.Moves[0]
			res.PV = []Move{l.Moves[0]}
		}
	}
	if len(res.PV) > 1 {
		res.Ponder = res.PV[1]
	}
	if traceHooks && s.tr != nil {
		cause := CauseNone
		if s.stopped {
			cause = CauseStop
		}
		// With no iteration finished the run has no answer: no bound, no
		// best move (the one to play was not searched to an end).
		bound, best := BoundExact, res.BestMove
		if !res.Finished() {
			bound, best = BoundNone, NoMove
		}
		s.tr.Leave(LeaveInfo{ID: 0, Score: res.Score, Bound: bound, Cause: cause, CutIndex: -1,
			Best: best, Generated: iterations, Searched: iterations})
	}
	res.Stats = s.stats
	res.Elapsed = time.Since(s.start)
	res.Stopped = s.stopReason
	return res
}

// Finished reports whether an iteration finished, so that Score, PV and
// BestMove are a search's answer; without one BestMove is only a move to
// play.
func (r Result) Finished() bool { return r.Depth > 0 }

// Stats returns the counters of the last (or current) search.
func (s *Searcher) Stats() Stats { return s.stats }

func (s *Searcher) checkStop() {
	if s.stats.Nodes >= s.nodeLimit {
		s.stop(StopNodes)
		return
	}
	if s.stats.Nodes&255 != 0 {
		return
	}
	select {
	case <-s.done:
		s.stop(StopCancel)
		return
	default:
	}
	if s.lim.MoveTime > 0 && time.Since(s.start) >= s.lim.MoveTime {
		s.stop(StopTime)
	}
}

func (s *Searcher) stop(r StopReason) {
	if !s.stopped {
		s.stopped, s.stopReason = true, r
	}
}

// enter counts a node, gives it the next pre-order id and reports it. The
// node's extras (QS ply, level, extension) are in its frame already.
func (s *Searcher) enter(ply, depth int, alpha, beta Score, kind NodeKind, inCheck bool) *frame {
	s.stats.Nodes++
	s.stats.PlyNodes[ply]++
	if ply > s.stats.MaxPly {
		s.stats.MaxPly = ply
	}
	f := &s.stack[ply]
	f.id = s.nextID
	s.nextID++
	f.pvLen = 0
	f.cause, f.cutIndex, f.generated, f.searched, f.hasStand = CauseNone, -1, 0, 0, false
	f.alpha, f.best, f.bestMove, f.scored, f.evasions = alpha, -Infinity, NoMove, false, false
	f.seePruned, f.deltaPruned = 0, 0
	if asserts {
		s.assertEnter(f, ply, depth, alpha, beta, kind)
	}
	if traceHooks && s.tr != nil {
		s.traceEnter(f, ply, depth, alpha, beta, kind, inCheck)
	}
	s.checkStop()
	return f
}

// The trace* functions hold the tracer calls out of line, so that the
// functions on the search's path stay small enough to inline whether or not
// hooks are compiled in: with no tracer a hook costs its nil check alone.

//go:noinline
func (s *Searcher) traceEnter(f *frame, ply, depth int, alpha, beta Score, kind NodeKind, inCheck bool) {
	parent, mv := int64(0), NoMove
	if ply > 0 {
		parent, mv = s.stack[ply-1].id, s.pos.LastMove()
	}
	s.tr.Enter(EnterInfo{ID: f.id, Parent: parent, Ply: ply, Depth: depth, Alpha: alpha, Beta: beta,
		Kind: kind, QSPly: f.qsPly, QSLevel: f.level, Move: mv, InCheck: inCheck, Iteration: s.iteration})
}

//go:noinline
func (s *Searcher) traceLeave(f *frame, score Score, b Bound, best Move) {
	s.tr.Leave(LeaveInfo{ID: f.id, Score: score, Bound: b, Cause: f.cause, CutIndex: f.cutIndex, Best: best,
		Generated: f.generated, Searched: f.searched, StandPat: f.standPat, HasStand: f.hasStand, Extension: f.ext})
}

//go:noinline
func (s *Searcher) traceMoveEvent(f *frame, m Move, i int) {
	s.tr.Move(MoveInfo{ID: f.id, Move: m, Index: i})
}

// finish records why a node ended and reports it; it returns score so that
// exits read "return s.finish(...)".
func (s *Searcher) finish(f *frame, score Score, b Bound, best Move) Score {
	s.stats.Cutoffs[f.cause]++
	if traceHooks && s.tr != nil {
		s.traceLeave(f, score, b, best)
	}
	return score
}

func (s *Searcher) traceMove(f *frame, m Move, i int) {
	if traceHooks && s.tr != nil {
		s.traceMoveEvent(f, m, i)
	}
}

func (s *Searcher) traceExt(f *frame, m Move, plies int) {
	if traceHooks && s.tr != nil {
		s.tr.Extension(ExtensionInfo{ID: f.id, Move: m, Plies: plies})
	}
}

func (f *frame) updatePV(m Move, child *frame) {
	f.pv[0] = m
	n := copy(f.pv[1:], child.pv[:child.pvLen])
	f.pvLen = n + 1
}

// The steps every routine shares (full width, QS, threshold QS, unified):
// stopAtEntry, noMoves, the move loop (moveLoop, with child and improve)
// and stopInLoop. Each routine reads as numbered steps around them.

// moveLoop is the one move loop of the four routines: it walks f.moves
// (lazily sorted by pick in search and qsearch; in list order in the
// threshold QS and the unified search, which sort once and pass over the
// list again) and, for each move: the QS guard (pruning), the threshold
// QS's level and auto-fail-high, the extras and depth the child gets, the
// child's search (PVS in full-width nodes), the stop, and the fail-soft
// update with PV and cutoff. depth is the node's depth (the iteration's in
// the unified search's full-width nodes); lvl the threshold pass's level.
// It returns false when the search was stopped: the caller ends the node
// with stopInLoop.
func (s *Searcher) moveLoop(r Routine, f *frame, ply, depth, lvl int, beta Score) bool {
	p := s.pos
	child := &s.stack[ply+1]
	qs := r == RoutineQS || r == RoutineThreshold || (r == RoutineUnified && depth <= 0)
	sorted := r == RoutineThreshold || r == RoutineUnified
	for i := 0; i < f.moves.N; i++ {
		var m Move
		if sorted {
			m = f.moves.Moves[i]
		} else {
			m = f.pick(i)
		}
		// Step 1. The QS guard: SEE and delta pruning.
		if qs && s.qsPrune(f, m) {
			continue
		}
		// Step 2. The child's extras and depth.
		childRoutine, childDepth, pvs := r, depth-1, false
		switch {
		case r == RoutineThreshold:
			extended := f.scores[i] < keyNotExtended
			childLevel := lvl
			if !extended {
				childLevel--
			}
			if childLevel < 0 {
				// No level left to search this capture: it is assumed to win.
				s.afhCount++
				f.cause, f.cutIndex = CauseAutoFailHigh, i
				f.best, f.bestMove, f.scored = max(f.best, beta), m, true
				return true
			}
			s.traceMove(f, m, i)
			if extended {
				s.traceExt(f, m, 1) // the capture keeps its level
			}
			child.qsPly, child.level, child.threshold, child.qsRoot = f.qsPly+1, childLevel, seeValue[p.Captured(m)], false
			child.ext = boolInt(extended)
		case qs:
			s.traceMove(f, m, i)
			child.qsPly, child.level, child.ext, child.checkExt = f.qsPly+1, -1, 0, f.checkExt
		default:
			s.traceMove(f, m, i)
			childDepth = s.extend(f, child, m, depth)
			pvs = i > 0 && s.opts.PVS
			if r == RoutineUnified {
				if childRoutine = s.opts.NodeRoutine(childDepth); childRoutine == RoutineUnified && childDepth <= 0 {
					child.qsPly = -childDepth
				}
			}
		}
		// Step 3. Search the child.
		var key uint64
		if asserts {
			s.assertMove(f, m, i)
			key = p.key
		}
		p.MakeMove(m)
		score := s.child(childRoutine, f, beta, childDepth, ply, pvs)
		p.UnmakeMove()
		if asserts {
			s.assertUnmade(f, m, key)
		}
		f.searched++
		// Step 4. Stopped: the node ends with what it has.
		if s.stopped {
			return false
		}
		// Step 5. Fail-soft update, PV and cutoff.
		cut := f.improve(m, i, score, beta, child)
		if r == RoutineUnified && i > 0 && f.bestMove == m {
			// PutInFront (000): the move raised alpha, the next iteration tries it first.
			copy(f.moves.Moves[1:i+1], f.moves.Moves[:i])
			f.moves.Moves[0] = m
		}
		if cut {
			if !qs {
				s.rewardQuiet(f, ply, m, depth)
			}
			return true
		}
	}
	return true
}

// stopAtEntry ends a node entered after the search was told to stop.
func (s *Searcher) stopAtEntry(f *frame) Score {
	f.cause = CauseStop
	return s.finish(f, 0, BoundNone, NoMove)
}

// noMoves ends a node with no legal move (or no evasion): mate in check,
// stalemate otherwise.
func (s *Searcher) noMoves(f *frame, ply int, inCheck bool) Score {
	f.cause = CauseMate
	if inCheck {
		return s.finish(f, -MateScore+Score(ply), BoundExact, NoMove)
	}
	return s.finish(f, DrawScore, BoundExact, NoMove)
}

// stopInLoop ends a node whose child was cut short by a stop: its score
// describes a partial search, so it has no bound.
func (s *Searcher) stopInLoop(f *frame) Score {
	f.cause = CauseStop
	return s.finish(f, max(f.best, f.alpha), BoundNone, f.bestMove)
}

// child searches the move just made at node f (at ply) with routine r and
// returns its score from f's side, with the delayed-gain penalty. The
// child's extras are set in s.stack[ply+1] already. With pvs the move gets
// a null window first and the full window only when the penalised score
// lands inside it. With the penalty on, the child's window reaches one
// above beta (micro-Max's alpha -l-(l>e), 002): a reply that only proves
// ">= beta+1" still fails high after v -= v > e, so the penalty never turns
// a lower bound into an exact score or a fail low.
func (s *Searcher) child(r Routine, f *frame, beta Score, depth, ply int, pvs bool) Score {
	alpha := f.alpha
	if pvs {
		score := s.penalised(r, f, alpha, alpha+1, depth, ply)
		if score <= alpha || score >= beta || s.stopped {
			return score
		}
		if e := s.stack[ply+1].ext; e > 0 {
			s.traceExt(f, s.pos.LastMove(), e) // the re-search is a child of its own
		}
	}
	return s.penalised(r, f, alpha, beta, depth, ply)
}

func (s *Searcher) penalised(r Routine, f *frame, alpha, beta Score, depth, ply int) Score {
	if !s.opts.DelayPenalty {
		return -s.call(r, -beta, -alpha, depth, ply+1)
	}
	if beta > f.eval && beta < Infinity {
		beta++
	}
	return s.opts.Penalty(-s.call(r, -beta, -alpha, depth, ply+1), f.eval)
}

// call enters routine r at ply.
func (s *Searcher) call(r Routine, alpha, beta Score, depth, ply int) Score {
	switch r {
	case RoutineQS, RoutineThreshold:
		return s.qsearch(r, alpha, beta, ply)
	case RoutineUnified:
		return s.unified(alpha, beta, depth, ply)
	}
	return s.search(alpha, beta, depth, ply)
}

// improve is the fail-soft update of node f after move i (m) scored score:
// a new best; above alpha a new alpha, best move and PV; at or above beta
// a cutoff, when it returns true.
func (f *frame) improve(m Move, i int, score, beta Score, child *frame) bool {
	f.scored = true
	if score <= f.best {
		return false
	}
	f.best = score
	if score <= f.alpha {
		return false
	}
	f.alpha, f.bestMove = score, m
	f.updatePV(m, child)
	if score >= beta {
		f.cause, f.cutIndex = CauseBeta, i
		return true
	}
	return false
}

// extend returns the depth that full-width node f, with depth left, gives
// move m (about to be made), extensions included: recaptures to the last
// move's square cost no depth (002), and one check extension per path at
// the horizon (003). It sets the child's extras and reports the extension
// to the tracer.
func (s *Searcher) extend(f, child *frame, m Move, depth int) int {
	p := s.pos
	newDepth, e, checkExt := depth-1, 0, false
	if s.opts.RecaptureExt && m.To() == f.lastTo && p.IsCapture(m) {
		newDepth, e = depth, 1
	} else if s.opts.CheckExt && newDepth == 0 && !f.checkExt && p.GivesCheck(m) {
		newDepth, e, checkExt = 1, 1, true
	}
	if e > 0 {
		s.traceExt(f, m, e)
	}
	child.ext, child.checkExt = e, f.checkExt || checkExt
	child.qsPly, child.level = -1, -1
	return newDepth
}

// FullWidthKind is the kind of a full-width node at ply entered with the
// window (alpha, beta), read off the window alone: root, pv or nonpv. A
// trace reader gives it to the horizon nodes of early files of variant
// none, which recorded them as QS. The search also knows the parent's kind
// (Searcher.kindOf): below a nonpv node every node is nonpv, whatever its
// window.
func FullWidthKind(ply int, alpha, beta Score) NodeKind {
	switch {
	case ply == 0:
		return KindRoot
	case beta-alpha > 1:
		return KindPV
	}
	return KindNonPV
}

// kindOf is the kind of a full-width node at ply entered with (alpha,
// beta): pv when its window is open and its parent is a pv or root node,
// nonpv otherwise. A scout's subtree is nonpv throughout, as in PVS: with
// the delayed-gain penalty a child's window reaches one above beta (002),
// so a scout's descendants have windows 2, 3, ... wide, and the window
// alone would call them pv nodes (and deny them TT cutoffs).
func (s *Searcher) kindOf(ply int, alpha, beta Score) NodeKind {
	switch {
	case ply == 0:
		return KindRoot
	case beta-alpha > 1 && s.stack[ply-1].kind != KindNonPV:
		return KindPV
	}
	return KindNonPV
}

// search is the full-width negamax alpha-beta search (fail-soft) of a node
// at ply with depth remaining.
func (s *Searcher) search(alpha, beta Score, depth, ply int) Score {
	if depth <= 0 {
		return s.quiesce(alpha, beta, ply)
	}
	if s.opts.Unified {
		return s.unified(alpha, beta, depth, ply)
	}
	p := s.pos
	// Step 1. Enter the node.
	inCheck := p.InCheck()
	kind := s.kindOf(ply, alpha, beta)
	f := s.enter(ply, depth, alpha, beta, kind, inCheck)
	f.kind = kind // for the children's kinds (kindOf)
	if s.stopped {
		return s.stopAtEntry(f)
	}
	if ply > 0 {
		// Step 2. Draws and the ply limit.
		if c := s.drawCause(); c != CauseNone {
			f.cause = c
			return s.finish(f, DrawScore, BoundExact, NoMove)
		}
		if ply >= MaxPly {
			f.cause = CauseMaxPly
			return s.finish(f, p.Evaluate(), BoundExact, NoMove)
		}
		// Step 3. Mate distance pruning: no mate found here can beat one already found nearer the root.
		a, b := max(alpha, -MateScore+Score(ply)), min(beta, MateScore-Score(ply)-1)
		if a >= b {
			f.cause = CauseMateDistance
			return s.finish(f, a, BoundOf(a, alpha, beta), NoMove)
		}
	}

	// Step 4. Transposition table.
	ttMove := NoMove
	if s.tt != nil {
		if e, ok := s.tt.probe(p.key); ok {
			ttMove = e.move()
			if ply > 0 && (kind == KindNonPV || !s.opts.PVS) && int(e.depth) >= depth {
				sc := scoreFromTT(Score(e.score), ply)
				if ttCuts(e.bound, sc, alpha, beta) {
					f.cause = CauseTT
					return s.finish(f, sc, e.bound, e.move())
				}
			}
		}
	}

	// Step 5. Generate and order.
	s.generateAll(f, ply)
	if f.moves.N == 0 {
		return s.noMoves(f, ply, inCheck)
	}
	s.scoreMoves(f, ply, ttMove)
	if s.opts.DelayPenalty {
		f.eval = p.Evaluate()
	}
	f.lastTo = NoSquare
	if lm := p.LastMove(); lm != NoMove && ply > 0 {
		f.lastTo = lm.To()
	}

	// Step 6. Search the moves.
	if !s.moveLoop(RoutineSearch, f, ply, depth, 0, beta) {
		return s.stopInLoop(f)
	}
	b := BoundOf(f.best, alpha, beta)
	if s.tt != nil {
		s.tt.store(p.key, f.bestMove, f.best, depth, b, ply)
	}
	return s.finish(f, f.best, b, f.bestMove)
}

// generateAll fills f with every move of the position, the root's
// restricted to RootMoves (UCI searchmoves): the move generation of the
// full-width search and of the unified QS's full-width nodes.
func (s *Searcher) generateAll(f *frame, ply int) {
	s.pos.Generate(GenAll, &f.moves)
	if ply == 0 && len(s.RootMoves) > 0 {
		restrictTo(&f.moves, s.RootMoves)
	}
	f.generated = f.moves.N
}

// restrictTo keeps the moves of l that keep lists, in l's order; when none
// of them is in l (or keep is empty), l stays whole.
func restrictTo(l *MoveList, keep []Move) {
	n := 0
	for _, m := range l.Slice() {
		if slices.Contains(keep, m) {
			l.Moves[n] = m
			n++
		}
	}
	if n > 0 {
		l.N = n
	}
}

func (s *Searcher) drawCause() Cause {
	p := s.pos
	switch {
	case p.half >= 100:
		// A mate on the hundredth ply still wins.
		if p.InCheck() {
			var l MoveList
			if p.Generate(GenAll, &l); l.N == 0 {
				return CauseNone
			}
		}
		return CauseFifty
	case p.IsRepetition():
		return CauseRepetition
	case p.IsInsufficientMaterial():
		return CauseMaterial
	}
	return CauseNone
}

func (s *Searcher) rewardQuiet(f *frame, ply int, m Move, depth int) {
	p := s.pos
	if p.IsCapture(m) || m.Promotion() != NoPieceType {
		return
	}
	if s.opts.Killers && f.killers[0] != m {
		f.killers[1], f.killers[0] = f.killers[0], m
	}
	if s.opts.History {
		h := &s.history[p.side][m.From()][m.To()]
		*h += int32(depth * depth)
		if *h > 1<<20 {
			for c := range s.history {
				for a := range s.history[c] {
					for b := range s.history[c][a] {
						s.history[c][a][b] /= 2
					}
				}
			}
		}
	}
}

// Ordering keys: hash move, then captures and promotions by the variant's
// key, then killers, then quiets by history.
const (
	keyHash    = 1 << 30
	keyCapture = 1 << 24
	keyKiller  = 1 << 22
	// keyNotExtended lifts the threshold QS's non-extended captures above
	// the extended ones (001: they are searched first).
	keyNotExtended = 1 << 28
)

// actionValue is 003's per-piece "action value" by piece type (pawn 6,
// knight and bishop 3, rook 2, queen and king 1): added to a capture's key,
// it tries the cheaper attacker first among equal victims.
var actionValue = [7]int32{0, 6, 3, 3, 2, 1, 1}

func (s *Searcher) captureKey(m Move) int32 {
	p := s.pos
	victim := seeValue[p.Captured(m)]
	if pr := m.Promotion(); pr != NoPieceType {
		victim += seeValue[pr] - seeValue[Pawn]
	}
	at := p.board[m.From()].Type()
	if s.opts.Ordering == OrderTutorial {
		k := victim
		if seeValue[at] < victim {
			k += victim - seeValue[at]
		}
		return k + actionValue[at]
	}
	return victim*8 - int32(at)
}

func (s *Searcher) scoreMoves(f *frame, ply int, ttMove Move) {
	p := s.pos
	for i, m := range f.moves.Slice() {
		var k int32
		switch {
		case m == ttMove:
			k = keyHash
		case p.IsCapture(m) || m.Promotion() != NoPieceType:
			k = keyCapture + s.captureKey(m)
		case m == f.killers[0]:
			k = keyKiller + 1
		case m == f.killers[1]:
			k = keyKiller
		default:
			k = s.history[p.side][m.From()][m.To()]
		}
		f.scores[i] = k
	}
}

// pick moves the best-scored remaining move to index i (selection sort,
// lazily: a cutoff early saves sorting the rest) and returns it.
func (f *frame) pick(i int) Move {
	bi := i
	for j := i + 1; j < f.moves.N; j++ {
		if f.scores[j] > f.scores[bi] {
			bi = j
		}
	}
	if bi != i {
		f.moves.Moves[i], f.moves.Moves[bi] = f.moves.Moves[bi], f.moves.Moves[i]
		f.scores[i], f.scores[bi] = f.scores[bi], f.scores[i]
	}
	return f.moves.Moves[i]
}
