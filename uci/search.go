package uci

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// errTimeUp is the cause of a job's context cancelled by its own clock or
// movetime (the time manager), as opposed to stop, quit or a new position:
// the search then stopped at its time limit (a truncated run, not an
// interrupted one).
var errTimeUp = errors.New("the search's time is up")

// job is one running search.
type job struct {
	cancel context.CancelFunc // stop, quit: the search is interrupted
	timeUp func()             // the time manager: the search reached its time limit
	// release is closed by stop and ponderhit: a search under go infinite or
	// go ponder may send its bestmove only then, whenever it ends.
	release     chan struct{}
	releaseOnce sync.Once
	done        chan struct{} // closed when the search goroutine has ended
	answered    atomic.Bool   // bestmove is being or has been sent
	// limited: the search ends by itself (a depth, node, time or clock
	// limit), so a go sent meanwhile may wait for it.
	limited bool
	// pondering: go ponder, waiting for ponderhit to start its clock.
	pondering bool
	params    goParams
	side      engine.Color
	// newIterationBefore (Unix ns, 0 for none): the time manager's soft
	// limit; an iteration ending after it is the last.
	newIterationBefore atomic.Int64
	timer              atomic.Pointer[time.Timer] // ponderhit's hard limit
	traceFile          string                     // where rec, if any, writes
	traceStore         *trace.Store               // the store of traceFile, nil when none
	traceMax           int64                      // TraceMaxNodes when the search started
}

func (j *job) stop() {
	j.releaseBestmove()
	j.cancel()
}

// releaseBestmove lets the search send its bestmove when it ends.
func (j *job) releaseBestmove() { j.releaseOnce.Do(func() { close(j.release) }) }

// goCmd starts a search of position cur (the session's current one, or
// the one a queued go was sent for).
func (s *session) goCmd(args []string, line string, cur *engine.Position) {
	p, warnings := parseGo(args)
	for _, w := range warnings {
		s.info("%s", w)
	}
	switch {
	case p.perftBad:
		return // a perft of no depth: refused, as its warning says
	case p.perft > 0:
		s.perft(p, cur)
		return
	}
	rootMoves := s.searchMoves(p.moves, cur)
	opts, err := s.engineOptions()
	if err != nil {
		// Cannot happen with options checked at setoption; search anyway,
		// as the GUI waits for a bestmove.
		s.info("options: %v; searching with the %s preset", err, DefaultVariant)
		opts, _ = engine.VariantOptions(DefaultVariant)
	}
	if s.searcher == nil || opts != s.searcherOpts {
		s.searcher, s.searcherOpts = engine.NewSearcher(opts), opts
	}
	pos := cur.Copy()
	lim := engine.Limits{Depth: p.depth, Nodes: p.nodes, MoveTime: p.movetime}
	if p.mate > 0 && lim.Depth == 0 {
		// A mate in n moves lies within 2n-1 plies.
		lim.Depth = 2*p.mate - 1
		s.info("go mate %d: searching to depth %d", p.mate, lim.Depth)
	}
	if p.rejected && lim == (engine.Limits{}) && !p.hasClock && !p.infinite && !p.ponder {
		// The limit asked for was bad: a short search answers, rather than
		// one that would run until stop.
		lim.Depth = 1
		s.info("go: no usable limit left; searching to depth 1")
	}
	j := &job{release: make(chan struct{}), done: make(chan struct{}), params: p, side: pos.SideToMove(),
		pondering: p.ponder, traceFile: s.traceFile, traceStore: s.store, traceMax: s.traceMax}
	start := time.Now()
	var b budget
	clock := p.hasClock && p.movetime == 0 && !p.infinite
	if clock {
		b = s.clockBudget(j)
		if !p.ponder {
			lim.MoveTime = b.hard
			soft := start.Add(b.target / 2)
			if len(rootMoves) == 1 || len(pos.LegalMoves()) == 1 {
				soft = start // a forced move: one iteration for the info line and the ponder move
			}
			j.newIterationBefore.Store(soft.UnixNano())
		}
	}
	if p.ponder {
		// The clock starts at ponderhit; until then this is go infinite.
		lim.MoveTime = 0
	}
	j.limited = !p.infinite && !p.ponder && (lim.Depth > 0 || lim.Nodes > 0 || lim.MoveTime > 0)
	hold := p.infinite || p.ponder // only stop or ponderhit may release the bestmove
	if !hold {
		j.releaseBestmove()
	}

	jctx, cancel := context.WithCancelCause(s.ctx)
	j.cancel = func() { cancel(nil) }
	j.timeUp = func() { cancel(errTimeUp) }
	sctx := jctx
	var rec *trace.Recorder
	if s.store != nil {
		info := trace.RunInfo{FEN: pos.FEN(), Variant: opts.Variant, Options: opts.JSON(),
			Limits: s.limitsJSON(p, lim, b, line), Version: s.cfg.Version}
		// TraceMaxNodes bounds the file, not the game: past it the
		// search goes on unrecorded, so a traced game plays as an
		// untraced one.
		ro := trace.RecordOptions{MaxNodes: s.traceMax, KeepSearching: true}
		r, err := s.store.NewRecorder(jctx, info, ro)
		if err != nil {
			s.info("trace: %v; searching without tracing", err)
		} else {
			rec, sctx, lim = r, r.Context(), ro.Limit(lim)
		}
	}
	if s.debug && clock {
		s.info("time: target %dms, hard limit %dms", b.target.Milliseconds(), b.hard.Milliseconds())
	}
	s.job = j
	s.searcher.RootMoves = rootMoves // the search goroutine reads it; the loop leaves the searcher alone until done
	go s.search(j, sctx, s.searcher, pos, lim, rec, hold)
}

// searchMoves turns go searchmoves' list into the root moves of the search
// of pos: a move that is not legal there, or not a UCI move, is skipped
// with an info string, and a list left empty searches every move (nil),
// as the GUI still waits for a bestmove.
func (s *session) searchMoves(list []string, pos *engine.Position) []engine.Move {
	if len(list) == 0 {
		return nil
	}
	var moves []engine.Move
	for _, text := range list {
		m, err := pos.ParseUCI(text)
		if err != nil {
			why := err.Error()
			var me *engine.MoveError
			if errors.As(err, &me) {
				why = me.Msg
			}
			s.info("go searchmoves: %s skipped: %s", truncate(text, 40), why)
			continue
		}
		if !slices.Contains(moves, m) {
			moves = append(moves, m)
		}
	}
	if len(moves) == 0 {
		s.info("go searchmoves: no legal move in the list; searching every move")
	}
	return moves
}

// perft runs `go perft N` as Stockfish does: the count below each legal
// move ("e2e4: 20"), then "Nodes searched: N" between empty lines, from
// the engine's own perft. It runs as a job like a search, so the command
// loop answers meanwhile, stop ends it (with no count), and a go sent
// during it waits for it.
func (s *session) perft(p goParams, cur *engine.Position) {
	if p.depth > 0 || p.nodes > 0 || p.mate > 0 || p.movetime > 0 || p.hasClock || p.infinite || p.ponder {
		s.info("go perft %d: the search limits beside it are ignored", p.perft)
	}
	ctx, cancel := context.WithCancel(s.ctx)
	j := &job{cancel: cancel, timeUp: cancel, release: make(chan struct{}), done: make(chan struct{}), limited: true, params: p}
	j.releaseBestmove()
	pos := cur.Copy()
	s.job = j
	go func() {
		defer close(j.done)
		defer cancel()
		div, err := engine.DivideContext(ctx, pos, p.perft, nil)
		j.answered.Store(true) // the answer follows: a command after it finds the engine idle
		if err != nil {
			s.info("perft %d stopped before its count", p.perft)
			return
		}
		var total uint64
		for _, d := range div {
			s.out.line(fmt.Sprintf("%s: %d", d.Move.UCI(), d.Nodes))
			total += d.Nodes
		}
		s.out.line("")
		s.out.line(fmt.Sprintf("Nodes searched: %d", total))
		s.out.line("")
	}()
}

// clockBudget is the time manager's answer for the side to move.
func (s *session) clockBudget(j *job) budget {
	left, inc := j.params.wtime, j.params.winc
	if j.side == engine.Black {
		left, inc = j.params.btime, j.params.binc
	}
	return allocate(left, inc, j.params.movestogo)
}

// ponderhit turns a go ponder search into a normal one: its clock starts
// now.
func (s *session) ponderhit() {
	j := s.job
	if j == nil || !j.pondering || j.answered.Load() {
		s.info("ponderhit ignored: no go ponder search is running")
		return
	}
	j.pondering = false
	now := time.Now()
	switch p := j.params; {
	case p.movetime > 0:
		j.timer.Store(time.AfterFunc(p.movetime, j.timeUp))
	case p.hasClock:
		b := s.clockBudget(j)
		j.timer.Store(time.AfterFunc(b.hard, j.timeUp))
		j.newIterationBefore.Store(now.Add(b.target / 2).UnixNano())
	}
	if !j.params.infinite {
		j.releaseBestmove()
	}
}

// search runs on its own goroutine: it searches, completes the trace, and
// sends the bestmove (after stop for go infinite). It never touches the
// session's fields: it has its own position copy, and the command loop
// leaves the searcher and the store alone until done is closed.
func (s *session) search(j *job, ctx context.Context, sr *engine.Searcher, pos *engine.Position,
	lim engine.Limits, rec *trace.Recorder, hold bool) {
	defer close(j.done)
	defer j.cancel()
	var res engine.Result
	defer func() {
		// An engine bug must not leave the GUI waiting: answer with any legal
		// move. The recorder, if any, is left unfinished (status running).
		if r := recover(); r != nil {
			s.info("internal error in the search: %v (please report it)", r)
			best := engine.NoMove
			if moves := pos.LegalMoves(); len(moves) > 0 {
				best = moves[0]
			}
			if hold {
				<-j.release
			}
			j.answered.Store(true)
			s.out.line(BestmoveLine(engine.Result{BestMove: best}))
		}
	}()
	sr.OnIteration = func(it engine.IterationInfo) {
		s.out.line(InfoLine(it.Depth, it.SelDepth, it.Score, true, it.Nodes, it.Elapsed, it.PV))
		if t := j.newIterationBefore.Load(); t != 0 && time.Now().UnixNano() >= t {
			j.timeUp()
		}
	}
	var tr engine.Tracer
	if rec != nil {
		tr = rec
	}
	res = sr.Search(ctx, pos, lim, tr)
	if res.Stopped == engine.StopCancel && errors.Is(context.Cause(ctx), errTimeUp) {
		res.Stopped = engine.StopTime // the clock's soft or hard limit, through the context
	}
	sr.OnIteration = nil
	if t := j.timer.Load(); t != nil {
		t.Stop()
	}
	if res.Stopped != engine.StopNone {
		// The last iteration did not complete: report the totals, and
		// with no iteration finished neither a score nor a PV.
		var pv []engine.Move
		if res.Finished() {
			pv = res.PV
		}
		s.out.line(InfoLine(res.Depth, res.Stats.MaxPly, res.Score, res.Finished(), res.Stats.Nodes, res.Elapsed, pv))
		if !res.Finished() {
			s.out.line(NoAnswerLine)
		}
	}
	if rec != nil {
		err := rec.FinishSearch(res)
		switch {
		case err != nil:
			s.info("trace: %v", err)
		case rec.Capped():
			// The rows are the first TraceMaxNodes nodes and the roots of
			// the iterations begun after them: the run's filter in words
			// says how many (trace.Run.FilterText).
			kept := fmt.Sprintf("%d nodes and the roots of later iterations", j.traceMax)
			if r, err := j.traceStore.Run(context.Background(), rec.RunID()); err == nil {
				kept = fmt.Sprintf("%d of the search's %d nodes, the %s", r.Recorded(), res.Stats.Nodes, r.FilterText())
			}
			s.info("trace: run %d in %s recorded %s (TraceMaxNodes)", rec.RunID(), j.traceFile, kept)
		default:
			s.info("trace: run %d in %s, %d nodes", rec.RunID(), j.traceFile, res.Stats.Nodes)
		}
	}
	if res.BestMove == engine.NoMove {
		s.info("no legal move: the game is over")
	}
	if hold {
		<-j.release
	}
	j.answered.Store(true)
	s.out.line(BestmoveLine(res))
}

// InfoLine formats an "info" line; withScore is false when no iteration
// completed and the score means nothing.
func InfoLine(depth, seldepth int, score engine.Score, withScore bool, nodes int64, elapsed time.Duration, pv []engine.Move) string {
	var b strings.Builder
	b.WriteString("info")
	if withScore {
		fmt.Fprintf(&b, " depth %d seldepth %d", depth, seldepth)
		if score.IsMate() {
			fmt.Fprintf(&b, " score mate %d", score.MateIn())
		} else {
			fmt.Fprintf(&b, " score cp %d", score)
		}
	}
	fmt.Fprintf(&b, " nodes %d", nodes)
	// UCI lets a line leave a field out: one with no rate to give
	// (engine.NodesPerSecond) has no nps, never "nps 310540 time 0".
	if nps, ok := engine.NodesPerSecond(nodes, elapsed); ok {
		fmt.Fprintf(&b, " nps %d", int64(nps))
	}
	fmt.Fprintf(&b, " time %d", elapsed.Milliseconds())
	if len(pv) > 0 {
		b.WriteString(" pv")
		for _, m := range pv {
			b.WriteString(" " + m.UCI())
		}
	}
	return b.String()
}

// NoAnswerLine says, before its bestmove, that a search stopped before its
// first iteration finished: the move was not searched to an end, and there
// is no score (engine.Result.Finished).
const NoAnswerLine = "info string no iteration finished: the bestmove below was not searched to an end, and there is no score"

// BestmoveLine answers a go; "0000" (the UCI null move) when there is no
// legal move.
func BestmoveLine(res engine.Result) string {
	if res.BestMove == engine.NoMove {
		return "bestmove 0000"
	}
	if res.Ponder != engine.NoMove {
		return "bestmove " + res.BestMove.UCI() + " ponder " + res.Ponder.UCI()
	}
	return "bestmove " + res.BestMove.UCI()
}

// limitsJSON is a traced run's limits and how the GUI got there: the run's
// FEN is the position after Moves were played from Position, and the
// repetition history of those moves is what the search saw.
type limitsJSON struct {
	Source     string   `json:"source"`   // "uci"
	Position   string   `json:"position"` // "startpos" or the FEN the GUI gave
	Moves      []string `json:"moves"`    // the moves the GUI gave after it
	Go         string   `json:"go"`       // the go command as received
	Depth      int      `json:"depth,omitempty"`
	Nodes      int64    `json:"nodes,omitempty"` // the GUI's node limit
	MoveTimeMS int64    `json:"movetime_ms,omitempty"`
	// TargetMS is the time manager's target in a clock game; MoveTimeMS is
	// then its hard limit.
	TargetMS      int64 `json:"target_ms,omitempty"`
	Infinite      bool  `json:"infinite,omitempty"`
	Ponder        bool  `json:"ponder,omitempty"`
	TraceMaxNodes int64 `json:"trace_max_nodes,omitempty"` // the recording stopped there at the latest; the search went on
}

func (s *session) limitsJSON(p goParams, lim engine.Limits, b budget, line string) string {
	l := limitsJSON{Source: "uci", Position: s.posRoot, Moves: s.posMoves, Go: strings.TrimSpace(line),
		Depth: lim.Depth, Nodes: lim.Nodes, MoveTimeMS: lim.MoveTime.Milliseconds(),
		TargetMS: b.target.Milliseconds(), Infinite: p.infinite, Ponder: p.ponder, TraceMaxNodes: s.traceMax}
	if l.Moves == nil {
		l.Moves = []string{}
	}
	data, _ := json.Marshal(l)
	return string(data)
}
