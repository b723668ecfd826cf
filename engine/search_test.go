package engine

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
)

// minimaxPositions are varied middlegame and endgame positions for the
// exactness tests (a few of them from the perft suites).
var minimaxPositions = []string{
	StartFEN,
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
	"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
	"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
	"2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
	"6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
	"8/8/8/3k4/8/8/3KP3/8 w - - 0 1",
	"4k3/8/8/8/8/8/8/4K2R w K - 0 1",
}

// setup prepares s for calling search directly, as Search does.
func (s *Searcher) setup(p *Position) {
	s.pos = p
	s.nodeLimit = math.MaxInt64
	s.done = nil
	s.stopped = false
	s.nextID = 1
	if s.tt != nil {
		s.tt.clear()
	}
}

// minimax is the plain negamax value with the engine's own terminal rules:
// draws at ply > 0, mate scored by distance, and at the horizon either the
// static eval or, with qs, an exhaustive capture search with stand pat.
func minimax(p *Position, depth, ply int, qs bool) Score {
	if ply > 0 && (p.half >= 100 || p.IsRepetition() || p.IsInsufficientMaterial()) {
		return DrawScore
	}
	if depth <= 0 {
		if qs {
			return qsAlphaBeta(p, -Infinity, Infinity)
		}
		return p.Evaluate()
	}
	moves := p.LegalMoves()
	if len(moves) == 0 {
		if p.InCheck() {
			return -MateScore + Score(ply)
		}
		return DrawScore
	}
	best := -Infinity
	for _, m := range moves {
		p.MakeMove(m)
		best = max(best, -minimax(p, depth-1, ply+1, qs))
		p.UnmakeMove()
	}
	return best
}

// qsAlphaBeta is a textbook capture search with stand pat and no move
// ordering or pruning: independent of the engine's code, and exact for a
// full window.
func qsAlphaBeta(p *Position, alpha, beta Score) Score {
	best := p.Evaluate()
	if best >= beta {
		return best
	}
	alpha = max(alpha, best)
	var l MoveList
	p.Generate(GenCaptures, &l)
	for _, m := range append([]Move(nil), l.Slice()...) {
		p.MakeMove(m)
		v := -qsAlphaBeta(p, -beta, -alpha)
		p.UnmakeMove()
		if v > best {
			best = v
			if v >= beta {
				return best
			}
			alpha = max(alpha, v)
		}
	}
	return best
}

func TestAlphaBetaEqualsMinimax(t *testing.T) {
	depth := 3
	if testing.Short() {
		depth = 2
	}
	for _, variant := range []string{"none", "captures"} {
		for _, pvs := range []bool{false, true} {
			o, _ := VariantOptions(variant)
			o.TT, o.PVS, o.CheckExt = false, pvs, false
			for i, fen := range minimaxPositions {
				for d := 1; d <= depth; d++ {
					// The oracle's unordered capture search under a plain
					// minimax is slow: keep it to depth 1 and the quieter positions.
					if variant == "captures" && (d > 1 || i == 1 || i == 3) {
						continue
					}
					p := MustParseFEN(fen)
					want := minimax(p, d, 0, variant == "captures")
					r := NewSearcher(o).Search(context.Background(), p, Limits{Depth: d}, nil)
					if r.Score != want {
						t.Errorf("%s pvs=%v depth %d %s: alpha-beta %d, minimax %d", variant, pvs, d, fen, r.Score, want)
					}
					if p.FEN() != MustParseFEN(fen).FEN() {
						t.Fatalf("search did not restore the position: %s", p.FEN())
					}
				}
			}
		}
	}
}

// TestWindowSemantics checks fail-soft bounds against the exact value: a
// score at or below alpha is an upper bound, at or above beta a lower bound,
// and in between it is exact.
func TestWindowSemantics(t *testing.T) {
	windows := [][2]Score{{-50, 50}, {-1, 0}, {0, 1}, {100, 101}, {-300, -299}, {-20, 300}, {-Infinity, Infinity}}
	for _, variant := range []string{"none", "captures", "see", "threshold", "recapture", "beal", "mvv-lva", "unified"} {
		o, _ := VariantOptions(variant)
		// Delta pruning decides by alpha, so searches with different
		// windows may see different trees: its bounds are not comparable.
		o.TT, o.DeltaPrune = false, false
		for _, fen := range minimaxPositions[:7] {
			p := MustParseFEN(fen)
			s := NewSearcher(o)
			s.setup(p)
			exact := s.search(-Infinity, Infinity, 2, 0)
			for _, w := range windows {
				s.setup(p)
				v := s.search(w[0], w[1], 2, 0)
				switch {
				case v <= w[0] && exact > v:
					t.Errorf("%s %s window %v: fail-low %d but exact %d is above it", variant, fen, w, v, exact)
				case v >= w[1] && exact < v:
					t.Errorf("%s %s window %v: fail-high %d but exact %d is below it", variant, fen, w, v, exact)
				case v > w[0] && v < w[1] && v != exact:
					t.Errorf("%s %s window %v: score %d inside the window but exact is %d", variant, fen, w, v, exact)
				}
			}
		}
	}
}

// Mate positions and distances verified with Stockfish 15.1 ("score mate N").
func TestMates(t *testing.T) {
	cases := []struct {
		fen  string
		mate int
		best string
	}{
		{"6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 1, "d1d8"},
		{"r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", 2, "d5f6"},
		{"r1bq2r1/b4pk1/p1pp1p2/1p2pP2/1P2P1PB/3P4/1PPQ2P1/R3K2R w - - 0 1", 2, "d2h6"},
		{"2r3k1/p4p2/3Rp2p/1p2P1pK/8/1P4P1/P3Q2P/1q6 b - - 0 1", 3, "b1g6"},
	}
	for _, v := range VariantNames() {
		for _, c := range cases {
			o, _ := VariantOptions(v)
			r := NewSearcher(o).Search(context.Background(), MustParseFEN(c.fen), Limits{Depth: 2*c.mate + 1}, nil)
			if !r.Score.IsMate() || r.Score.MateIn() != c.mate {
				t.Errorf("%s %s: score %d (mate in %d), want mate in %d", v, c.fen, r.Score, r.Score.MateIn(), c.mate)
			}
			if c.mate == 1 && r.BestMove.UCI() != c.best {
				t.Errorf("%s %s: best %s, want %s", v, c.fen, r.BestMove, c.best)
			}
		}
	}
	// Being mated: the side to move is mated in 1 after its best defence.
	p := MustParseFEN("6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1")
	r := NewSearcher(mustVariant("see")).Search(context.Background(), p, Limits{Depth: 4}, nil)
	if r.Score.IsMate() {
		t.Errorf("black to move is not mated here (g8f8 or luft), got %d", r.Score)
	}
}

func mustVariant(name string) Options {
	o, err := VariantOptions(name)
	if err != nil {
		panic(err)
	}
	return o
}

// hashTracer folds every event into a hash, so two runs compare node for node.
type hashTracer struct {
	h     uint64
	nodes int64
}

func (t *hashTracer) mix(vals ...int64) {
	for _, v := range vals {
		t.h = (t.h ^ uint64(v)) * 1099511628211
	}
}
func (t *hashTracer) Enter(e EnterInfo) {
	t.nodes++
	t.mix(1, e.ID, e.Parent, int64(e.Ply), int64(e.Depth), int64(e.Alpha), int64(e.Beta), int64(e.Kind), int64(e.QSLevel), int64(e.Move))
}
func (t *hashTracer) StandPat(e StandPatInfo) { t.mix(2, e.ID, int64(e.Eval)) }
func (t *hashTracer) Move(e MoveInfo)         { t.mix(3, e.ID, int64(e.Move), int64(e.Index)) }
func (t *hashTracer) Extension(e ExtensionInfo) {
	t.mix(4, e.ID, int64(e.Move), int64(e.Plies))
}
func (t *hashTracer) Leave(e LeaveInfo) {
	t.mix(5, e.ID, int64(e.Score), int64(e.Bound), int64(e.Cause), int64(e.Best), int64(e.Generated), int64(e.Searched))
}

func TestDeterministicTrees(t *testing.T) {
	fen := "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"
	for _, v := range VariantNames() {
		var hs [2]hashTracer
		var rs [2]Result
		for i := range hs {
			o := mustVariant(v) // TT on: it is cleared at the start of every search
			rs[i] = NewSearcher(o).Search(context.Background(), MustParseFEN(fen), Limits{Depth: 4}, &hs[i])
		}
		if hs[0].h != hs[1].h || rs[0].Stats.Nodes != rs[1].Stats.Nodes {
			t.Errorf("%s: two runs differ (nodes %d vs %d)", v, rs[0].Stats.Nodes, rs[1].Stats.Nodes)
		}
		if hs[0].nodes != rs[0].Stats.Nodes+1 { // the run node is no position
			t.Errorf("%s: tracer saw %d nodes, counter says %d", v, hs[0].nodes, rs[0].Stats.Nodes)
		}
	}
}

// countingTracer checks the event grammar: ids are pre-order, parents are
// open, events nest.
type grammarTracer struct {
	t     *testing.T
	next  int64
	stack []int64
}

func (g *grammarTracer) Enter(e EnterInfo) {
	if e.ID != g.next {
		g.t.Fatalf("node id %d, want pre-order id %d", e.ID, g.next)
	}
	g.next++
	want := int64(-1)
	if len(g.stack) > 0 {
		want = g.stack[len(g.stack)-1]
	}
	if e.Parent != want {
		g.t.Fatalf("node %d: parent %d, want the open node %d", e.ID, e.Parent, want)
	}
	g.stack = append(g.stack, e.ID)
}
func (g *grammarTracer) top() int64 { return g.stack[len(g.stack)-1] }
func (g *grammarTracer) StandPat(e StandPatInfo) {
	if e.ID != g.top() {
		g.t.Fatalf("stand pat for %d while %d is open", e.ID, g.top())
	}
}
func (g *grammarTracer) Move(e MoveInfo) {
	if e.ID != g.top() {
		g.t.Fatalf("move for %d while %d is open", e.ID, g.top())
	}
}
func (g *grammarTracer) Extension(e ExtensionInfo) {}
func (g *grammarTracer) Leave(e LeaveInfo) {
	if e.ID != g.top() {
		g.t.Fatalf("leave %d while %d is open", e.ID, g.top())
	}
	g.stack = g.stack[:len(g.stack)-1]
}

func TestTracerGrammar(t *testing.T) {
	for _, v := range VariantNames() {
		for _, lim := range []Limits{{Depth: 4}, {Depth: 6, Nodes: 3000}} {
			g := &grammarTracer{t: t}
			r := NewSearcher(mustVariant(v)).Search(context.Background(),
				MustParseFEN("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"), lim, g)
			if len(g.stack) != 0 {
				t.Errorf("%s: %d nodes left open", v, len(g.stack))
			}
			if g.next != r.Stats.Nodes+1 { // the run node is no position
				t.Errorf("%s: %d nodes traced, counter %d", v, g.next, r.Stats.Nodes)
			}
			if lim.Nodes > 0 && (r.Stopped != StopNodes || r.Stats.Nodes != lim.Nodes) {
				t.Errorf("%s: node limit %d: stopped %v after %d nodes", v, lim.Nodes, r.Stopped, r.Stats.Nodes)
			}
		}
	}
}

func TestCancelStopsSearch(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := NewSearcher(mustVariant("see")).Search(ctx, MustParseFEN(StartFEN), Limits{Depth: 30}, nil)
	if r.Stopped != StopCancel || r.BestMove == NoMove {
		t.Errorf("cancelled search: stopped %v best %v", r.Stopped, r.BestMove)
	}
}

func TestNoAllocationPerNode(t *testing.T) {
	p := MustParseFEN("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	for _, v := range VariantNames() {
		s := NewSearcher(mustVariant(v))
		var nodes int64
		allocs := testing.AllocsPerRun(2, func() {
			nodes = s.Search(context.Background(), p, Limits{Depth: 4}, nil).Stats.Nodes
		})
		// A search allocates its result's PV slices, a handful in all,
		// however many nodes it visits.
		if allocs > 20 {
			t.Errorf("%s: %.0f allocations for %d nodes", v, allocs, nodes)
		}
	}
}

// TestWAC reports each variant's solved count on Win At Chess at a small
// fixed depth, and asserts only that the modern reference does at least as
// well as no QS at all.
func TestWAC(t *testing.T) {
	f, err := os.Open("../testdata/wacnew.epd")
	if err != nil {
		t.Skipf("WAC suite not found: %v", err)
	}
	defer f.Close()
	recs, err := ReadEPD(f, "wacnew.epd")
	if err != nil {
		t.Fatal(err)
	}
	depth, n := 3, len(recs)
	if testing.Short() {
		n = 60
	}
	solved := map[string]int{}
	for _, v := range []string{"none", "captures", "mvv-lva", "beal", "threshold", "see"} {
		o := mustVariant(v)
		s := NewSearcher(o)
		for _, r := range recs[:n] {
			res := s.Search(context.Background(), r.Pos.Copy(), Limits{Depth: depth, Nodes: 2_000_000}, nil)
			if r.Solved(res.BestMove) {
				solved[v]++
			}
		}
		t.Logf("WAC depth %d: %-9s solved %d/%d", depth, v, solved[v], n)
	}
	if solved["see"] < solved["none"] {
		t.Errorf("see solved %d, fewer than none's %d", solved["see"], solved["none"])
	}
}

func BenchmarkSearchHooks(b *testing.B) {
	// Run with and without -tags notrace to price the tracer hooks:
	//   go test -run X -bench SearchHooks -count 6 ./engine/ > on.txt
	//   go test -tags notrace -run X -bench SearchHooks -count 6 ./engine/ > off.txt
	// On a busy machine compare instruction counts instead, which do not
	// depend on load (Go's async preemption must be off under valgrind):
	//   go test -c -o on.test ./engine/ && go test -c -tags notrace -o off.test ./engine/
	//   GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind on.test -test.run X -test.bench SearchHooks -test.benchtime 1x
	// (and the same for off.test): "Collected" is the instruction count.
	p := MustParseFEN("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10")
	s := NewSearcher(mustVariant("see"))
	var nodes int64
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		nodes += s.Search(context.Background(), p, Limits{Depth: 7}, nil).Stats.Nodes
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// TestDraws checks that the search scores rule draws as draws even when the
// material says otherwise.
func TestDraws(t *testing.T) {
	cases := []struct {
		name, fen string
		moves     []string
	}{
		// White is a rook up, but every move reaches the hundredth ply.
		{"fifty moves", "4k3/8/8/8/8/8/8/R3K3 w - - 99 80", nil},
		// A knight up is still a dead draw.
		{"insufficient material", "4k3/8/8/8/8/8/8/4KN2 b - - 0 1", nil},
		// Black is a queen down; both kings have shuffled, and Kh8-g8 now
		// repeats the position with White to move.
		{"repetition", "6k1/8/8/8/8/8/5Q2/6K1 b - - 0 1", []string{"g8h8", "g1h1", "h8g8", "h1g1", "g8h8", "g1h1"}},
	}
	for _, c := range cases {
		p := MustParseFEN(c.fen)
		for _, m := range c.moves {
			mv, err := p.ParseUCI(m)
			if err != nil {
				t.Fatal(err)
			}
			p.MakeMove(mv)
		}
		o := mustVariant("captures")
		o.TT = false
		r := NewSearcher(o).Search(context.Background(), p, Limits{Depth: 2}, nil)
		switch c.name {
		case "repetition":
			// Black (a queen down) repeats the position with ...Kg8: a draw,
			// far better than any other line.
			if r.Score != DrawScore || r.BestMove.UCI() != "h8g8" {
				t.Errorf("%s: score %d best %s, want 0 by h8g8", c.name, r.Score, r.BestMove)
			}
		default:
			if r.Score != DrawScore {
				t.Errorf("%s: score %d, want 0", c.name, r.Score)
			}
		}
	}
}

// extTracer counts extension events and checks the per-path rule of the
// check extension: no node below an extended move is extended again.
type extTracer struct {
	nopTracer
	t        *testing.T
	exts     int
	extended map[int64]bool // open nodes entered through an extension
	pending  bool
}

func (e *extTracer) Extension(x ExtensionInfo) { e.exts++; e.pending = true }
func (e *extTracer) Move(m MoveInfo)           { e.pending = false }
func (e *extTracer) Enter(x EnterInfo) {
	if e.pending && e.extended[x.Parent] {
		e.t.Errorf("node %d: a second check extension on one path", x.ID)
	}
	e.extended[x.ID] = e.pending || e.extended[x.Parent]
	e.pending = false
}

func TestCheckExtensionSwitch(t *testing.T) {
	// Queens and rooks on open lines: checks answered by checks.
	p := MustParseFEN("2r3k1/p4p2/3Rp2p/1p2P1pK/8/1P4P1/P3Q2P/1q6 b - - 0 1")
	for _, on := range []bool{false, true} {
		o := mustVariant("captures")
		o.CheckExt, o.TT = on, false
		tr := &extTracer{t: t, extended: map[int64]bool{}}
		NewSearcher(o).Search(context.Background(), p, Limits{Depth: 3}, tr)
		if on != (tr.exts > 0) {
			t.Errorf("check-ext %v: %d extensions", on, tr.exts)
		}
	}
}

// TestSetOptionsReusesSearcher: one searcher switched between variants
// visits the same trees as a fresh searcher for each, and keeps its table.
func TestSetOptionsReusesSearcher(t *testing.T) {
	p := MustParseFEN("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10")
	shared := NewSearcher(mustVariant("see"))
	table := shared.tt
	for _, v := range append(VariantNames(), "see") {
		var a, b hashTracer
		shared.SetOptions(mustVariant(v))
		ra := shared.Search(context.Background(), p, Limits{Depth: 4}, &a)
		rb := NewSearcher(mustVariant(v)).Search(context.Background(), p, Limits{Depth: 4}, &b)
		if a.h != b.h || ra.Stats.Nodes != rb.Stats.Nodes {
			t.Errorf("%s: a reused searcher's tree differs from a fresh one's (%d vs %d nodes)", v, ra.Stats.Nodes, rb.Stats.Nodes)
		}
		if shared.tt != table {
			t.Errorf("%s: the hash table was allocated again", v)
		}
	}
}

// rootTracer notes the moves searched at the root (the moves into ply 1)
// and the root's generated counts.
type rootTracer struct {
	nopTracer
	moves     map[Move]bool
	rootIDs   map[int64]bool
	generated []int
}

func (r *rootTracer) Enter(e EnterInfo) {
	if e.Kind == KindRoot {
		r.rootIDs[e.ID] = true
	}
	if e.Ply == 1 {
		r.moves[e.Move] = true
	}
}
func (r *rootTracer) Leave(l LeaveInfo) {
	if r.rootIDs[l.ID] {
		r.generated = append(r.generated, l.Generated)
	}
}

// TestRootMoves: Searcher.RootMoves (UCI go searchmoves) restricts the
// root to the listed moves in every routine, even when the best move is
// left out (here Rxd5, winning a queen); a list of which no move is legal
// searches every move. Before, searchmoves was ignored: go searchmoves
// e1e2 e1f1 played d2d5.
func TestRootMoves(t *testing.T) {
	const fen = "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1"
	pos := MustParseFEN(fen)
	move := func(s string) Move {
		m, err := pos.ParseUCI(s)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	elsewhere, err := MustParseFEN(StartFEN).ParseUCI("a2a3")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range VariantNames() {
		for _, tc := range []struct {
			name string
			list []Move
			want []string // the moves the root may search; nil: every legal move
			best string   // "": any of want
		}{
			{"every move", nil, nil, "d2d5"},
			{"best left out", []Move{move("e1e2"), move("e1f1")}, []string{"e1e2", "e1f1"}, ""},
			{"one move", []Move{move("d2d4")}, []string{"d2d4"}, "d2d4"},
			{"best among others", []Move{move("d2d3"), move("d2d5")}, []string{"d2d3", "d2d5"}, "d2d5"},
			{"none legal here", []Move{elsewhere}, nil, "d2d5"},
		} {
			s := NewSearcher(mustVariant(v))
			s.RootMoves = tc.list
			tr := &rootTracer{moves: map[Move]bool{}, rootIDs: map[int64]bool{}}
			res := s.Search(context.Background(), pos.Copy(), Limits{Depth: 3}, tr)
			best := res.BestMove.UCI()
			var allowed []string
			if tc.want == nil {
				for _, m := range pos.LegalMoves() {
					allowed = append(allowed, m.UCI())
				}
			} else {
				allowed = tc.want
			}
			if !slices.Contains(allowed, best) || (tc.best != "" && best != tc.best) {
				t.Errorf("%s, %s: bestmove %s, want %v", v, tc.name, best, cmp.Or(tc.best, strings.Join(allowed, " or ")))
			}
			for m := range tr.moves {
				if !slices.Contains(allowed, m.UCI()) {
					t.Errorf("%s, %s: the root searched %s, outside %v", v, tc.name, m.UCI(), allowed)
				}
			}
			for _, g := range tr.generated {
				if g != len(allowed) {
					t.Errorf("%s, %s: the root generated %d moves, want %d", v, tc.name, g, len(allowed))
				}
			}
		}
	}
}

// nopTracer is a Tracer that ignores every event: a test's tracer embeds it
// and defines only the events it reads.
type nopTracer struct{}

func (nopTracer) Enter(EnterInfo)         {}
func (nopTracer) StandPat(StandPatInfo)   {}
func (nopTracer) Move(MoveInfo)           {}
func (nopTracer) Extension(ExtensionInfo) {}
func (nopTracer) Leave(LeaveInfo)         {}

// kindTracer keeps each open node's kind, to check a child's kind against
// its parent's.
type kindTracer struct {
	nopTracer
	kinds map[int64]NodeKind
	bad   []string
}

func (k *kindTracer) Enter(e EnterInfo) {
	k.kinds[e.ID] = e.Kind
	parent, ok := k.kinds[e.Parent]
	switch {
	case !ok || (e.Kind != KindPV && e.Kind != KindNonPV):
	case parent == KindNonPV && e.Kind == KindPV:
		k.bad = append(k.bad, fmt.Sprintf("node %d: pv (window [%d,%d]) below nonpv node %d", e.ID, e.Alpha, e.Beta, e.Parent))
	case e.Kind == KindPV && e.Beta-e.Alpha <= 1:
		k.bad = append(k.bad, fmt.Sprintf("node %d: pv with the null window [%d,%d]", e.ID, e.Alpha, e.Beta))
	}
}

// TestScoutSubtreesAreNonPV: a node below a non-PV node (a PVS scout's
// subtree) is non-PV in every variant, whatever its window. With the
// delayed-gain penalty a child's window reaches one above beta (002's
// -l-(l>e)), so a scout's descendants have windows 2, 3, ... wide: a
// kind read off the window alone called them PV nodes, and search took
// no TT cutoff in them.
func TestScoutSubtreesAreNonPV(t *testing.T) {
	for _, v := range VariantNames() {
		for _, penalty := range []bool{false, true} {
			o := mustVariant(v)
			o.DelayPenalty = penalty
			k := &kindTracer{kinds: map[int64]NodeKind{}}
			NewSearcher(o).Search(context.Background(), MustParseFEN(minimaxPositions[1]), Limits{Depth: 4, Nodes: 200_000}, k)
			if len(k.bad) > 0 {
				t.Errorf("%s delay-penalty=%v: %d nodes misclassified, first: %s", v, penalty, len(k.bad), k.bad[0])
			}
		}
	}
}

// leaveTracer keeps every LeaveInfo.
type leaveTracer struct {
	nopTracer
	leaves []LeaveInfo
}

func (l *leaveTracer) Leave(e LeaveInfo) { l.leaves = append(l.leaves, e) }

// TestMaxQSPlyLeavesRecordTheirEval: a QS node ended by max-qs-ply scores
// its static eval and records it, in every routine (the unified search's
// QS iteration recorded none, so its trace showed no eval where qsearch's
// did).
func TestMaxQSPlyLeavesRecordTheirEval(t *testing.T) {
	for _, v := range VariantNames() {
		o := mustVariant(v)
		if !o.HasQS() {
			continue
		}
		o.MaxQSPly = 1
		l := &leaveTracer{}
		NewSearcher(o).Search(context.Background(), MustParseFEN(minimaxPositions[1]), Limits{Depth: 2}, l)
		n := 0
		for _, e := range l.leaves {
			if e.Cause != CauseMaxPly {
				continue
			}
			n++
			if !e.HasStand || e.StandPat != e.Score {
				t.Errorf("%s: node %d ended at max-qs-ply scoring %d, static eval recorded %v (%d)", v, e.ID, e.Score, e.HasStand, e.StandPat)
				break
			}
		}
		if n == 0 {
			t.Errorf("%s: no node reached max-qs-ply 1", v)
		}
	}
}

// qsTTTracer counts the QS nodes the hash table ended.
type qsTTTracer struct {
	nopTracer
	qs    map[int64]bool
	qsTT  int
	nodes int
}

func (q *qsTTTracer) Enter(e EnterInfo) { q.qs[e.ID] = e.Kind == KindQS; q.nodes++ }
func (q *qsTTTracer) Leave(e LeaveInfo) {
	if q.qs[e.ID] && e.Cause == CauseTT {
		q.qsTT++
	}
}

// TestQSUsesTT: Options.QSUsesTT, which 'horizon variants' prints, is
// what the search does: QS nodes end on a hash hit in a variant that says
// its QS uses the table, and never in one that says it does not.
func TestQSUsesTT(t *testing.T) {
	for _, v := range VariantNames() {
		o := mustVariant(v)
		q := &qsTTTracer{qs: map[int64]bool{}}
		NewSearcher(o).Search(context.Background(), MustParseFEN(minimaxPositions[1]), Limits{Depth: 4, Nodes: 300_000}, q)
		if got := q.qsTT > 0; got != o.QSUsesTT() {
			t.Errorf("%s: %d QS nodes ended by the hash table in %d nodes, QSUsesTT %v", v, q.qsTT, q.nodes, o.QSUsesTT())
		}
		if o.TT = false; o.QSUsesTT() {
			t.Errorf("%s with tt false: QSUsesTT", v)
		}
	}
}
