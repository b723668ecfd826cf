package foreign

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"math"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// The node records (E, L, S, M, X and A).

// begin creates the run and enters the run node, at the first node of a
// search.
func (im *importer) begin() *StreamError {
	if !im.active {
		return im.fail("a node before any position record: the stream must say where the search starts")
	}
	name := im.engine
	if im.opts.PreferName && im.opts.Engine != "" || name == "" {
		name = im.opts.Engine
	}
	if name == "" {
		name = "unknown engine"
	}
	lim := im.searchLimits()
	var goCmd any // null without a limits record: a fact that does not apply
	if lim != "" {
		goCmd = lim
	}
	limJSON, _ := json.Marshal(map[string]any{"go": goCmd, "max_nodes": im.opts.Record.MaxNodes})
	ro := im.opts.Record
	ro.Engine, ro.FailHard = name, im.failHard
	// Options holds what the stream declared about the engine's moves,
	// for the checks (check.Run reads "moves").
	moves := "legal"
	if im.pseudo {
		moves = "pseudo"
	}
	decl := trace.EngineDeclared{Moves: moves, Scores: map[bool]string{false: "soft", true: "hard"}[im.failHard],
		Mate: int(im.scale.Mate), MateMin: int(im.scale.MateMin), Infinity: int(im.scale.Infinity)}
	if decl.Mate > 0 {
		decl.MateUnit = map[bool]string{false: "plies", true: "turns"}[im.scale.MateTurns]
	}
	optJSON, _ := json.Marshal(decl)
	epdID := ""
	if im.opts.EPDID != nil {
		epdID = im.opts.EPDID(len(im.results), im.fen)
	}
	label := cmp.Or(im.opts.Label, im.label, name)
	rec, err := im.newSink(trace.RunInfo{FEN: im.fen, EPDID: epdID, Variant: label, Options: string(optJSON),
		Limits: string(limJSON), Version: im.opts.Version}, ro)
	if err != nil {
		return &StreamError{Offset: im.recOffset, Line: im.line, Node: -1, Msg: err.Error()}
	}
	im.rec, im.runID, im.nextID = rec, rec.RunID(), 1
	im.results = append(im.results, RunResult{RunID: im.runID, Engine: name, Label: label, FEN: im.fen, EngineNodes: -1})
	if r, ok := rec.(*trace.Recorder); ok && im.opts.OnRun != nil {
		im.opts.OnRun(im.runID, r)
	}
	im.stack = im.stack[:0]
	im.stack = append(im.stack, frame{id: 0, kind: engine.KindRun, alpha: -engine.Infinity, beta: engine.Infinity,
		qsPly: -1, lastIndex: -1})
	rec.Enter(engine.EnterInfo{ID: 0, Parent: -1, Depth: depthLimit(lim), Alpha: -engine.Infinity, Beta: engine.Infinity, Kind: engine.KindRun,
		QSPly: -1, QSLevel: -1, InCheck: im.pos.InCheck()})
	return nil
}

// enter: "E move depth alpha beta [k=kind] [q=qsply] [l=level] [i=iteration]".
func (im *importer) enter(b []byte) *StreamError {
	if im.rec == nil {
		if se := im.begin(); se != nil {
			return se
		}
	}
	if mx := im.opts.Record.MaxNodes; mx > 0 && im.nextID > mx {
		// The recorder's node limit, checked here so it is exact: ids
		// count the run node, so nextID-1 positions are in.
		im.limited, im.stop = true, trace.StopNodes
		return nil
	}
	var tok [12][]byte
	f := splitInto(b[1:], tok[:])
	if len(f) < 4 {
		return im.fail("E record needs move, depth, alpha and beta: %q", shortText(b))
	}
	depth, ok1 := atoi(f[1])
	alpha, ok2 := atoi(f[2])
	beta, ok3 := atoi(f[3])
	if !ok1 || !ok2 || !ok3 {
		return im.fail("E record: depth, alpha and beta must be integers from -%d to %d: %q", maxInt, maxInt, shortText(b))
	}
	if depth < -127 || depth > 127 {
		return im.fail("depth %d out of range (-127 to 127)", depth)
	}
	if alpha > beta {
		return im.fail("window [%d, %d]: alpha above beta", alpha, beta)
	}
	n := len(im.stack)
	parent := &im.stack[n-1]
	if se := im.roomFor(parent, n == 1); se != nil {
		return se
	}
	o, se := im.enterOptions(f[4:])
	if se != nil {
		return se
	}
	fr := frame{id: im.nextID, depth: depth, alpha: engine.Score(alpha), beta: engine.Score(beta), qsPly: -1, lastIndex: -1}
	switch {
	case n == 1:
		se = im.enterRoot(&fr, f[0], &o)
	case o.reason != nil:
		se = im.enterNested(&fr, parent, f[0], &o)
	default:
		se = im.enterChild(&fr, parent, f[0], &o)
	}
	if se != nil {
		return se
	}
	if fr.kind == engine.KindQS && o.qsPly < 0 {
		o.qsPly = 0
		if parent.kind == engine.KindQS {
			o.qsPly = parent.qsPly + 1
		}
	}
	if fr.kind != engine.KindQS {
		o.qsPly, o.level = -1, -1
	}
	if o.qsPly > maxQSPly {
		return im.fail("QS ply %d: deeper than a trace holds (%d)", o.qsPly, maxQSPly)
	}
	fr.qsPly = o.qsPly
	im.nextID++
	ply := n - 1
	if ply > maxPly {
		return im.fail("ply %d: deeper than a trace holds (%d)", ply, maxPly)
	}
	im.stack = append(im.stack, fr)
	im.rec.Enter(engine.EnterInfo{ID: fr.id, Parent: parent.id, Ply: ply, Depth: depth, Alpha: fr.alpha, Beta: fr.beta,
		Kind: fr.kind, QSPly: o.qsPly, QSLevel: o.level, Move: fr.move, InCheck: im.pos.InCheck(), Iteration: fr.iteration})
	return nil
}

// roomFor refuses a child of parent beyond the most a trace holds; top:
// the parent is Horizon's run node, no node of the stream.
func (im *importer) roomFor(parent *frame, top bool) *StreamError {
	if parent.kids < trace.MaxChildren {
		return nil
	}
	// Readers call a node with more damaged (trace.MaxChildren): a run
	// that imported whole would not open in export or the viewer.
	if top {
		return im.fail("the search already has %s (iterations and probes), the most a trace holds: a search that starts over that often is caught in a loop",
			engine.CountOf(int64(parent.kids), "root", "roots"))
	}
	return im.fail("node %d already has %s, the most a trace holds: a search that enters children that often is caught in a loop",
		parent.id, engine.CountOf(int64(parent.kids), "child", "children"))
}

// enterFields are an E record's optional fields as written: kind 255 and
// -1 for the others when absent.
type enterFields struct {
	kind               engine.NodeKind
	level, iter, qsPly int
	// A nested search's (n=, e=, u=): its reason (nil when the node is
	// none), the move it leaves out, whether the engine counts its root.
	reason, excluded []byte
	uncounted        bool
}

// keyValue splits an optional field of record rec (E, L), "k=value",
// whose keys are known (eOptions, lOptions).
func (im *importer) keyValue(rec string, kv []byte, known string) (key byte, v []byte, se *StreamError) {
	if len(kv) < 3 || kv[1] != '=' {
		return 0, nil, im.fail("%s record: %s", rec, badOption(kv, known))
	}
	return kv[0], kv[2:], nil
}

// enterOptions reads an E record's optional fields.
func (im *importer) enterOptions(kvs [][]byte) (enterFields, *StreamError) {
	o := enterFields{kind: 255, level: -1, iter: -1, qsPly: -1}
	for _, kv := range kvs {
		key, v, se := im.keyValue("E", kv, eOptions)
		if se != nil {
			return o, se
		}
		switch key {
		case 'k':
			k, ok := byName[engine.NodeKind](engine.KindNames(), v)
			if !ok {
				return o, im.fail("E record: unknown kind %q (want root, pv, nonpv or qs)", v)
			}
			o.kind = k
		case 'q':
			x, ok := atoi(v)
			if !ok || x < 0 || x > maxQSPly {
				return o, im.fail("E record: QS ply %q: want 0 to %d", v, maxQSPly)
			}
			o.qsPly = x
		case 'l':
			x, ok := atoi(v)
			if !ok || x < 0 || x > 125 {
				return o, im.fail("E record: QS level %q: want 0 to 125", v)
			}
			o.level = x
		case 'i':
			x, ok := atoi(v)
			if !ok || x < 0 || x > 255 {
				return o, im.fail("E record: iteration %q: want 0 to 255", v)
			}
			o.iter = x
		case 'c':
			// In check is derived from the position; the flag is accepted
			// for emitters that send it.
		case 'n':
			if im.version < 4 {
				return o, im.fail("E record: n= (a nested search) in a version %d stream: the header must say \"HZT 4\" (older Horizons refuse the field)", im.version)
			}
			if !nestedReason(v) {
				return o, im.fail("E record: nested search reason %q: want a word of letters, digits, - and _ (at most %d bytes), such as iid or singular", v, maxReason)
			}
			o.reason = v
		case 'e':
			o.excluded = v
		case 'u':
			if string(v) != "0" && string(v) != "1" {
				return o, im.fail("E record: u=%s: want 0 or 1", v)
			}
			o.uncounted = string(v) == "1"
		default:
			return o, im.fail("E record: %s", badOption(kv, eOptions))
		}
	}
	return o, nil
}

// enterRoot fills fr, a root (a node entered while none is open), and
// follows the search's iterations.
func (im *importer) enterRoot(fr *frame, move []byte, o *enterFields) *StreamError {
	if string(move) != "-" {
		return im.fail("a root node (no node open) with move %q: a root has no move, write -", move)
	}
	if o.reason != nil || o.excluded != nil || o.uncounted {
		return im.fail("E record: a root (no node open) is no nested search: n=, e= and u= belong below the node that makes one")
	}
	if o.kind != 255 && o.kind != engine.KindRoot {
		return im.fail("a root node of kind %s", o.kind)
	}
	fr.kind = engine.KindRoot
	iter := o.iter
	if iter < 0 {
		// A root below depth 1 (a search of QS alone) is iteration
		// 0: a trace has no negative iterations.
		iter = max(fr.depth, 0)
	}
	fr.iteration = iter
	if im.cur.roots > 0 && iter != im.cur.iter {
		// Engines start an iteration only when the one before has
		// concluded (Sunfish's driver finds that out by probing the
		// next depth).
		im.done = im.cur
	}
	if im.cur.roots == 0 || iter != im.cur.iter {
		im.cur = iteration{iter: iter}
	}
	return nil
}

// enterChild fills fr, a node below parent entered by move, and makes the
// move on the position.
func (im *importer) enterChild(fr, parent *frame, move []byte, o *enterFields) *StreamError {
	if string(move) == "-" {
		return im.fail("a node with no move below node %d: only roots and nested searches (n=) have none (a null move is 0000)", parent.id)
	}
	if o.excluded != nil || o.uncounted {
		return im.fail("E record: e= and u= are a nested search's (with n=), not a move's")
	}
	m, msg := im.parseMove(len(im.stack)-1, move)
	if msg != "" {
		return im.fail("%s", msg)
	}
	if se := im.checkAnnounced(parent, m); se != nil {
		return se
	}
	fr.kind, fr.move = childKind(fr, o.kind), m
	if fr.kind == engine.KindRoot || fr.kind == engine.KindRun {
		return im.fail("a %s node below node %d", fr.kind, parent.id)
	}
	fr.iteration = parent.iteration
	fr.ext = parent.pendingExt
	parent.pendingExt = 0
	im.pos.MakeMove(m)
	fr.moved = true
	return nil
}

// childKind is the kind of fr, a node below another, the E record's k=
// (kind, 255 when absent) or derived from its depth and window.
func childKind(fr *frame, kind engine.NodeKind) engine.NodeKind {
	if kind == 255 {
		switch {
		case fr.depth <= 0:
			kind = engine.KindQS
		case int(fr.beta)-int(fr.alpha) == 1:
			kind = engine.KindNonPV
		default:
			kind = engine.KindPV
		}
	}
	return kind
}

// enterNested fills fr, the root of a nested search of parent's own
// position ("E - DEPTH ALPHA BETA n=REASON [e=MOVE] [u=1]"): no move is
// made, and its window is seen from the same side as parent's.
func (im *importer) enterNested(fr, parent *frame, move []byte, o *enterFields) *StreamError {
	if string(move) != "-" {
		return im.fail("E record: a nested search (n=%s) with move %q: it searches its parent's own position, write -", o.reason, move)
	}
	ns := trace.NestedSearch{ID: fr.id, Reason: im.reasonText(o.reason), Uncounted: o.uncounted}
	if o.excluded != nil && string(o.excluded) != "-" {
		m, msg := im.parseMove(len(im.stack)-1, o.excluded)
		if msg != "" {
			return im.fail("E record: excluded move: %s", msg)
		}
		ns.Excluded = m
	}
	fr.kind = childKind(fr, o.kind)
	if fr.kind == engine.KindRoot || fr.kind == engine.KindRun {
		return im.fail("a %s node below node %d", fr.kind, parent.id)
	}
	fr.nested = true
	fr.iteration = parent.iteration
	fr.ext = parent.pendingExt
	parent.pendingExt = 0
	im.nested = append(im.nested, ns)
	if o.uncounted {
		im.uncounted++
	}
	return nil
}

// maxReason bounds a nested search's reason: a word a reader shows in
// brackets beside a node.
const maxReason = 32

// nestedReason says whether v is a reason a nested search may give.
func nestedReason(v []byte) bool {
	if len(v) == 0 || len(v) > maxReason {
		return false
	}
	for _, c := range v {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// reasonText is v as a string, one per distinct reason: an engine makes
// thousands of nested searches for a handful of reasons.
func (im *importer) reasonText(v []byte) string {
	if r, ok := im.reasons[string(v)]; ok {
		return r
	}
	if im.reasons == nil {
		im.reasons = map[string]string{}
	}
	r := string(v)
	im.reasons[r] = r
	return r
}

// parseMove reads a UCI move (0000: a null move) played at the position of
// the open node at stack depth at (the current position).
func (im *importer) parseMove(at int, text []byte) (engine.Move, string) {
	if string(text) == engine.NullUCI {
		return engine.NullMove, ""
	}
	if len(text) < 4 || len(text) > 5 {
		return engine.NoMove, fmt.Sprintf("malformed move %q: want UCI, like e2e4, e7e8q, or 0000 for a null move", text)
	}
	from, ok1 := square(text[0], text[1])
	to, ok2 := square(text[2], text[3])
	promo := engine.NoPieceType
	if len(text) == 5 {
		switch text[4] {
		case 'n':
			promo = engine.Knight
		case 'b':
			promo = engine.Bishop
		case 'r':
			promo = engine.Rook
		case 'q':
			promo = engine.Queen
		default:
			ok1 = false
		}
	}
	if !ok1 || !ok2 {
		return engine.NoMove, fmt.Sprintf("malformed move %q: want UCI, like e2e4, e7e8q, or 0000 for a null move", text)
	}
	if im.pseudo {
		if m, ok := im.pos.PseudoMove(from, to, promo); ok {
			return m, ""
		}
		if pc := im.pos.PieceAt(to); pc != engine.NoPiece && pc.Type() == engine.King && pc.Color() != im.pos.SideToMove() {
			// No position follows it (PseudoMove).
			return engine.NoMove, fmt.Sprintf("move %s captures the king: a king-capture engine's refutation is the score of the node that could capture, not a node (in %s)", text, im.pos.FEN())
		}
		msg := fmt.Sprintf("move %s cannot be played in %s (not even ignoring checks)", text, im.pos.FEN())
		if why := im.pos.IllegalReason(from, to, promo); why != "" {
			msg += ": " + why
		}
		return engine.NoMove, msg
	}
	for len(im.legal) <= at {
		im.legal = append(im.legal, engine.MoveList{})
	}
	parent := &im.stack[at]
	if !parent.hasGen {
		im.pos.Generate(engine.GenAll, &im.legal[at])
		parent.hasGen = true
	}
	for _, m := range im.legal[at].Slice() {
		if m.From() == from && m.To() == to && m.Promotion() == promo {
			return m, ""
		}
	}
	msg := fmt.Sprintf("illegal move %s in %s", text, im.pos.FEN())
	if why := im.pos.IllegalReason(from, to, promo); why != "" {
		msg += ": " + why
		if _, ok := im.pos.PseudoMove(from, to, promo); ok {
			// An engine that searches such moves on purpose, refuting
			// them by taking the king, says so in its header.
			msg += " (a stream of an engine that searches pseudo-legal moves says 'moves pseudo')"
		}
	}
	return engine.NoMove, msg
}

func square(f, r byte) (engine.Square, bool) {
	if f < 'a' || f > 'h' || r < '1' || r > '8' {
		return 0, false
	}
	return engine.MakeSquare(int(f-'a'), int(r-'1')), true
}

// The optional fields of E and L records, as badOption lists them.
const (
	eOptions = "k=, q=, l=, i=, c=, n=, e= or u="
	lOptions = "b=, c=, m=, g=, s= or x="
)

// badOption says what is wrong with an optional field kv of a record whose
// fields are known (E, L): no key=value at all, or a key it does not take,
// such as "kind=pv" for "k=pv" (which read "malformed option (want
// key=value)" though it was one).
func badOption(kv []byte, known string) string {
	if i := bytes.IndexByte(kv, '='); i > 0 && i < len(kv)-1 {
		return fmt.Sprintf("unknown field %q (want %s)", kv, known)
	}
	return fmt.Sprintf("malformed field %q (want %s, each with a value)", kv, known)
}

// leave: "L score [b=bound] [c=cause] [m=best] [g=generated] [s=searched] [x=cutindex]".
func (im *importer) leave(b []byte) *StreamError {
	n := len(im.stack)
	if n <= 1 {
		return im.noNodeOpen("L", " (more leaves than enters)")
	}
	var tok [10][]byte
	f := splitInto(b[1:], tok[:])
	if len(f) < 1 {
		return im.fail("L record needs the score")
	}
	sc, ok := atoi(f[0])
	if !ok {
		return im.fail("L record: score %q is not an integer from -%d to %d", f[0], maxInt, maxInt)
	}
	fr := &im.stack[n-1]
	score := engine.Score(sc)
	l := engine.LeaveInfo{ID: fr.id, Score: score, Bound: 255, Cause: 255, CutIndex: -2, Best: engine.NoMove,
		Generated: -1, Searched: -1, StandPat: fr.stand, HasStand: fr.hasStand, Extension: fr.ext}
	hasBest, se := im.leaveOptions(f[1:], &l, n)
	if se != nil {
		return se
	}
	// Derive what the engine left out.
	if l.Bound == 255 {
		l.Bound = engine.BoundOf(score, fr.alpha, fr.beta)
	}
	failedHigh := fr.kids > 0 && fr.lastNeg >= fr.beta && score >= fr.beta
	if l.Cause == 255 {
		switch {
		case failedHigh && fr.lastKid != engine.NullMove:
			l.Cause = engine.CauseBeta
		case fr.kids == 0 && fr.hasStand && fr.stand >= fr.beta && score >= fr.beta:
			l.Cause = engine.CauseStandPat
		default:
			l.Cause = engine.CauseNone
		}
	}
	if l.CutIndex == -2 {
		l.CutIndex = -1
		if l.Cause == engine.CauseBeta && fr.lastIndex >= 0 {
			l.CutIndex = fr.lastIndex
		}
	}
	if !hasBest {
		l.Best = fr.derivedBest(l.Cause, l.Bound, score)
	}
	if l.Searched < 0 {
		l.Searched = fr.realKids
	}
	if l.Generated < 0 {
		l.Generated = 0
	}
	if trace.CountsClamped(l.Generated, l.CutIndex) {
		if im.clamped == 0 {
			im.clampedAt = fmt.Sprintf("node %d (g=%d, x=%d; the leave record at byte %d, line %d)",
				fr.id, l.Generated, l.CutIndex, im.recOffset, im.line)
		}
		im.clamped++
	}
	im.rec.Leave(l)
	if fr.moved {
		im.pos.UnmakeMove()
	}
	im.closeNode(fr, &l, n)
	return nil
}

// leaveOptions reads an L record's optional fields into l; the node
// is at stack depth n-1. hasBest: the record named the best move (or none).
func (im *importer) leaveOptions(kvs [][]byte, l *engine.LeaveInfo, n int) (hasBest bool, se *StreamError) {
	for _, kv := range kvs {
		key, v, se := im.keyValue("L", kv, lOptions)
		if se != nil {
			return false, se
		}
		switch key {
		case 'b':
			bd, ok := byName[engine.Bound](engine.BoundNames(), v)
			if !ok {
				return false, im.fail("L record: unknown bound %q (want upper, lower or exact)", v)
			}
			l.Bound = bd
		case 'c':
			c, ok := byName[engine.Cause](engine.CauseNames(), v)
			if !ok {
				return false, im.fail("L record: unknown cause %q (see the protocol's list)", v)
			}
			l.Cause = c
		case 'm':
			if string(v) == "-" || string(v) == "0000" {
				hasBest = true
				break
			}
			// The best move is one of this node's moves: parse it at
			// this node's position.
			m, msg := im.parseMove(n-1, v)
			if msg != "" {
				return false, im.fail("L record: best move: %s", msg)
			}
			l.Best, hasBest = m, true
		case 'g', 's', 'x':
			x, ok := atoi(v)
			if !ok || x < -1 {
				return false, im.fail("L record: %c=%s is not a count", key, v)
			}
			switch key {
			case 'g':
				l.Generated = x
			case 's':
				l.Searched = x
			default:
				l.CutIndex = x
			}
		default:
			return false, im.fail("L record: %s", badOption(kv, lOptions))
		}
	}
	return hasBest, nil
}

// closeNode pops the left node fr (at stack depth n-1), hands its
// principal variation up and tells its parent what it returned.
func (im *importer) closeNode(fr *frame, l *engine.LeaveInfo, n int) {
	id, move, kind, iter, score := fr.id, fr.move, fr.kind, fr.iteration, l.Score
	p := &im.stack[n-2]
	neg := -score
	exact := l.Bound == engine.BoundExact
	// The node's principal variation: its best move, continued by the line
	// of the exact child its score came from. Only an exact node hands its
	// line up (a bound's best move is a refutation or a guess, no
	// variation), and a root keeps its own for the run.
	if (exact || kind == engine.KindRoot) && !fr.nested {
		im.ownLine = im.ownLine[:0]
		if l.Best != engine.NoMove {
			im.ownLine = append(im.ownLine, l.Best)
			switch {
			case fr.hasExact && fr.exactKid == l.Best && fr.exactNeg == score:
				im.ownLine = append(im.ownLine, im.exactLine[n-1]...)
			case fr.hasLastExact && fr.lastExactKid == l.Best && fr.lastExactNeg == score:
				im.ownLine = append(im.ownLine, im.lastLine[n-1]...)
			}
		}
		if exact {
			if !p.hasExact || neg >= p.exactNeg {
				im.exactLine[n-2] = append(im.exactLine[n-2][:0], im.ownLine...)
			}
			im.lastLine[n-2] = append(im.lastLine[n-2][:0], im.ownLine...)
		}
	}
	im.stack = im.stack[:n-1]
	p.kids++
	if fr.nested {
		// A search of the parent's own position, at a window of its own:
		// no move of the parent's, its score no value of one.
		p.lastKid, p.lastNeg = engine.NoMove, math.MinInt32 // below any beta: no cutoff
		im.leftID, im.leftLine = id, im.line
		return
	}
	if move != engine.NullMove && move != engine.NoMove {
		p.realKids++
	}
	p.lastKid, p.lastNeg = move, neg
	switch l.Bound {
	case engine.BoundExact:
		if !p.hasExact || neg >= p.exactNeg {
			p.exactKid, p.exactNeg, p.hasExact = move, neg, true
		}
		p.lastExactKid, p.lastExactNeg, p.hasLastExact = move, neg, true
	case engine.BoundUpper:
		if !p.hasHigh || neg >= p.highNeg {
			p.highKid, p.highNeg, p.hasHigh = move, neg, true
		}
	}
	if kind == engine.KindRoot {
		im.cur.add(iter, score, l.Bound, l.Best, im.ownLine)
	}
	im.leftID, im.leftLine = id, im.line
}

// noNodeOpen is the error for a node record (rec: L, S, M, X) that finds
// no node open, what (" (more leaves than enters)") added to it. It says
// what closed the last node: an A record, which closes every open node
// (an engine that writes A and then an L for each node it unwinds leaves
// twice), or the L record that closed it.
func (im *importer) noNodeOpen(rec, what string) *StreamError {
	switch {
	case im.abortLine > im.leftLine:
		return im.fail("%s record with no node open%s: the A record at line %d closed every node open then (write A instead of the L records of the nodes it closes, not before them)",
			rec, what, im.abortLine)
	case im.leftLine > 0:
		return im.fail("%s record with no node open%s: the last node open, node %d, was left at line %d", rec, what, im.leftID, im.leftLine)
	}
	return im.fail("%s record with no node open%s", rec, what)
}

// derivedBest is the best move of a node the engine named none for: the
// child whose negated score equals the node's (docs/trace-protocol.md).
// An exact child is preferred (the last one when PVS re-searched it, or
// the last pass's when an earlier pass of the node scored higher); a
// fail-high node may take the child that failed high; an exact node never
// takes a child that failed low, nor a lower bound, whose score is no
// node's value.
func (fr *frame) derivedBest(cause engine.Cause, bound engine.Bound, score engine.Score) engine.Move {
	var m engine.Move
	switch {
	case cause == engine.CauseBeta:
		m = fr.lastKid
	case bound == engine.BoundUpper:
	case fr.hasExact && fr.exactNeg == score:
		m = fr.exactKid
	case bound == engine.BoundExact && fr.hasLastExact && fr.lastExactNeg == score:
		m = fr.lastExactKid
	case bound == engine.BoundLower && fr.hasHigh && (fr.highNeg == score || !fr.hasExact || fr.exactNeg < score):
		m = fr.highKid
	}
	if m == engine.NullMove {
		return engine.NoMove // a null move is no move to play
	}
	return m
}

// standPat: "S eval".
func (im *importer) standPat(b []byte) *StreamError {
	n := len(im.stack)
	if n <= 1 {
		return im.noNodeOpen("S", "")
	}
	text := trimSpace(b[1:])
	v, ok := atoi(text)
	if !ok {
		return im.fail("S record: eval %q is not an integer from -%d to %d", text, maxInt, maxInt)
	}
	fr := &im.stack[n-1]
	fr.stand, fr.hasStand = engine.Score(v), true
	im.rec.StandPat(engine.StandPatInfo{ID: fr.id, Eval: fr.stand, Cutoff: fr.stand >= fr.beta})
	return nil
}

// moveRec: "M move index".
func (im *importer) moveRec(b []byte) *StreamError {
	n := len(im.stack)
	if n <= 1 {
		return im.noNodeOpen("M", "")
	}
	var tok [3][]byte
	f := splitInto(b[1:], tok[:])
	if len(f) != 2 {
		return im.fail("M record needs a move and its index: %q", shortText(b))
	}
	idx, ok := atoi(f[1])
	if !ok || idx < 0 {
		return im.fail("M record: index %q: want a number >= 0", f[1])
	}
	fr := &im.stack[n-1]
	m, msg := im.parseMove(n-1, f[0])
	if msg != "" {
		if fr.move != engine.NoMove && fr.move != engine.NullMove && fr.move.UCI() == string(f[0]) {
			// The M of the move that led here, written after its E.
			msg += fmt.Sprintf(" (%s is the move that entered node %d: a move's M record comes before the E record of the node it leads to)", f[0], fr.id)
		}
		return im.fail("M record: %s", msg)
	}
	fr.lastIndex = idx
	fr.lastMove, fr.hasLastMove, fr.lastMLine, fr.mEnteredAt = m, true, im.line, 0
	im.rec.Move(engine.MoveInfo{ID: fr.id, Move: m, Index: idx})
	return nil
}

// checkAnnounced holds a child reached by real move m to the parent's last
// M record: the cut index is read from that record, so a child of another
// move would make it name the wrong move. A null move has no M (Fairy-Max
// writes none for its null move, between its passes' moves), an M may have
// no child (a pruned move), and a re-search enters the M's move again.
func (im *importer) checkAnnounced(parent *frame, m engine.Move) *StreamError {
	if m == engine.NullMove || !parent.hasLastMove {
		return nil
	}
	if m == parent.lastMove {
		if parent.mEnteredAt == 0 {
			parent.mEnteredAt = im.line
		}
		return nil
	}
	if parent.mEnteredAt == 0 {
		return im.fail("E record enters %s, but the M record before it (line %d) named %s: an M names the next child's move",
			m.UCI(), parent.lastMLine, parent.lastMove.UCI())
	}
	return im.fail("E record enters %s with no M record of its own: node %d's last M (line %d) named %s, entered at line %d; "+
		"a node that writes M records writes one before each move's child",
		m.UCI(), parent.id, parent.lastMLine, parent.lastMove.UCI(), parent.mEnteredAt)
}

// extension: "X plies", for the next child entered.
func (im *importer) extension(b []byte) *StreamError {
	n := len(im.stack)
	if n <= 1 {
		return im.noNodeOpen("X", "")
	}
	text := trimSpace(b[1:])
	v, ok := atoi(text)
	if !ok || v < -15 || v > 15 {
		return im.fail("X record: plies %q: want -15 to 15", text)
	}
	fr := &im.stack[n-1]
	fr.pendingExt = v
	im.rec.Extension(engine.ExtensionInfo{ID: fr.id, Plies: v})
	return nil
}

// abort: "A": the search unwound every open node (a stop, a time limit);
// they are closed as stopped.
func (im *importer) abort(b []byte) *StreamError {
	if len(b) > 1 && len(trimSpace(b[1:])) > 0 {
		return im.fail("A record takes no arguments")
	}
	if im.rec == nil {
		return nil
	}
	im.cutRoot = im.cutRoot || len(im.stack) > 1
	if len(im.stack) > 1 {
		im.abortLine = im.line
	}
	for n := len(im.stack); n > 1; n = len(im.stack) {
		fr := &im.stack[n-1]
		im.rec.Leave(engine.LeaveInfo{ID: fr.id, Cause: engine.CauseStop, CutIndex: -1})
		if fr.moved {
			im.pos.UnmakeMove()
		}
		im.stack = im.stack[:n-1]
	}
	im.aborted = true
	return nil
}
