// Package check holds the rules a recorded tree must keep. Run verifies a
// run's tree against the rules of alpha-beta and of its QS variant and
// reports violations (horizon check). The shape checks every reader makes
// before it follows a damaged file's numbers (trace.CheckChildren,
// trace.CheckPath) are the trace package's; Run reports the same faults as
// violations instead.
//
// Everything here reads traces through the trace package's query API and
// streams them: no function holds a whole tree in memory.
package check

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// The rules Run applies; a Violation names one of them.
const (
	// RuleStructure: ids, parents, plies, kinds and iterations form one
	// tree (a node lies inside its parent's id range, a child is one ply
	// deeper, a QS node's children are QS nodes, iteration roots hang off
	// the run node).
	RuleStructure = "structure"
	// RuleSize: subtree sizes are consistent: children tile their
	// parent's id range exactly and the run's totals match the rows, as do
	// the figures the file stores of its big subtrees (schema 8's
	// subtree_counts, which diagrams' summaries add up).
	RuleSize = "subtree-size"
	// RuleMove: every move is legal where it was played.
	RuleMove = "legal-move"
	// RuleInCheck: a node's in-check flag matches its position.
	RuleInCheck = "in-check"
	// RuleQSMoves: a QS node searched only moves its variant allows
	// (captures, recaptures, Beal's pawn pushes, quiet checks at the first
	// QS ply, every evasion in check with qs-evasions).
	RuleQSMoves = "qs-moves"
	// RuleBound: the bound agrees with the window: fail high (lower) at or
	// above beta, fail low (upper) at or below alpha, and for a node that
	// searched, exact strictly inside the window.
	RuleBound = "bound"
	// RuleScore: fail-soft: a node that searched scores the maximum of its
	// stand pat (when its variant stands pat) and its children's negated
	// scores from its last pass over the moves (the last visit of a move
	// re-searched by PVS; the last internal iteration of the unified search
	// or level pass of the threshold search), plus beta for an
	// auto-fail-high and, with delta pruning, the most each delta-pruned
	// capture was assumed to win (eval + victim + margin; eval + queen +
	// margin for a node pruned whole; a run that leaves them out at every
	// node where they count is read as a Horizon before 2026-11-25 scored
	// it, and Report.Skipped says so); nodes ended by a draw, mate, the
	// horizon or the ply limit score what that rule says.
	RuleScore = "score"
	// RuleCutoff: a move that fails high (scores at or above beta) ends
	// its node's pass over the moves and the node reports a beta cutoff;
	// a beta cutoff's last move searched is one that failed high.
	RuleCutoff = "cutoff"
	// RuleStandPat: a QS node whose variant stands pat never scores below
	// its stand pat and cuts off when the stand pat reaches beta; a
	// stand-pat cutoff scores its stand pat, at or above beta.
	RuleStandPat = "stand-pat"
	// RuleLeaf: a node ended before its moves (stand pat, hash table, draw,
	// mate distance, horizon, ply limit, no legal move) has no children.
	RuleLeaf = "leaf-cause"
	// RuleBest: a node's best move is a move it searched that scored its
	// score.
	RuleBest = "best-move"
	// RuleRun: the run node agrees with its last iteration.
	RuleRun = "run"
	// RuleSEE: with see-prune, a QS node that is not searching evasions
	// never searches a capture that loses material by SEE; a node that
	// reports cutoff "see" searched no move, and some capture its move set
	// allows there does lose material.
	RuleSEE = "see-prune"
	// RuleDelta: with delta, a QS node that is not searching evasions
	// never searches a capture (not a promotion) whose victim plus the
	// margin cannot lift its static eval above the alpha it had then; a
	// node that reports cutoff "delta" before its moves has a stand pat
	// that not even a queen (and a promotion) plus the margin lifts to
	// alpha, and one that reports it after its moves searched none.
	RuleDelta = "delta-prune"
	// RuleProved: a node's exact score comes from a move whose search
	// proved its score exactly: a child that only proved a bound (with
	// the delayed-gain penalty, a reply searched without micro-Max's
	// widened window) gives its parent a bound, never an exact score.
	RuleProved = "proved"
	// RuleOptions: the run's options are a combination Horizon refuses
	// today (engine.Options.Validate); the Horizon that recorded it
	// ignored the switch, so the options misstate the search.
	RuleOptions = "options"
	// RuleCounts: a node's move counts agree with its children: it
	// searched as many moves as it has children, a PVS re-search (the
	// same move again, at the same depth, with a wider window) not
	// counted twice, and generated every move it searched.
	RuleCounts = "counts"
	// RuleKind: a full-width node below a nonpv node is nonpv: a PVS
	// scout's subtree is searched as nonpv whatever its window (with the
	// delayed-gain penalty a scout's descendants have windows 2, 3, ...
	// wide). Horizon's engine keeps it since commit 73a8719 (2026-11-25);
	// before, it gave a node the kind its window says. Another engine's
	// run is not checked by it (its kinds may be read off its windows). A
	// run with delay-penalty whose every full-width node has the kind its
	// window says is not checked by it either (Report.Skipped says so):
	// only a Horizon before that change records such a run with a pv node
	// below a nonpv one, and the kinds are what that search did.
	RuleKind = "node-kind"
	// RuleNested: a nested search (a search of a node's own position from
	// inside it: IID, a singular test, ...) is shallower than the node
	// that makes it, else it would search itself without end, and a
	// singular test searches no move it leaves out.
	RuleNested = "nested-search"
)

// SkippedOlderHorizon is Skipped.Reason for a run of Horizon's own that
// shows, at every node where it matters, a convention of a Horizon before
// a rule's engine change: a scout's descendants recorded pv (RuleKind), or
// delta-pruned captures left out of fail-low scores (RuleScore). Such a
// run is what that search did; its Skipped names the rule and what of it
// was not applied. A run that mixes the conventions is held to today's.
const SkippedOlderHorizon = "older_horizon"

// RuleInfo is a rule's name and what it says, in a few words for help
// texts (lines after the first continue the summary).
type RuleInfo struct {
	Name, Summary string
}

// ruleTable is the one list of the rules, in the order of the package's
// constants: RuleInfos, and through it the CLI's help, read it.
var ruleTable = []RuleInfo{
	{RuleStructure, "ids, parents, plies, kinds and iterations form one tree"},
	{RuleSize, "children tile their parent's id range; the run's totals and the\nstored figures of big subtrees match the rows"},
	{RuleMove, "every move is legal where it was played"},
	{RuleInCheck, "a node's in-check flag matches its position"},
	{RuleQSMoves, "QS nodes searched only the moves their variant allows"},
	{RuleBound, "fail high at or above beta, fail low at or below alpha, exact inside"},
	{RuleScore, "fail-soft: a node scores the maximum of its stand pat, its\nchildren's negated scores (last pass, last re-search) and what\ndelta-pruned captures may win; draws, mates and horizon nodes\nscore what their rule says"},
	{RuleCutoff, "a beta cutoff's last move scored at or above beta"},
	{RuleStandPat, "QS nodes that stand pat never score below it and cut at beta"},
	{RuleLeaf, "nodes ended before their moves have no children"},
	{RuleBest, "the best move is a searched move that scored the node's score"},
	{RuleRun, "the run's score is its last iteration's"},
	{RuleSEE, "with see-prune, QS searched no capture that loses by SEE, and a\nnode cut off by see had one to prune"},
	{RuleDelta, "with delta, QS searched no capture that cannot lift the eval to\nalpha, and a node cut off by delta had reason to"},
	{RuleProved, "an exact score comes from a child whose score is exact"},
	{RuleOptions, "the run's switches are a combination Horizon accepts today"},
	{RuleCounts, "a node searched as many moves as it has children (a PVS re-search\ncounted once) and generated each of them"},
	{RuleKind, "a full-width node below a nonpv node is nonpv (a scout's subtree)"},
	{RuleNested, "a nested search is shallower than its node, and a singular test\nsearches no move it leaves out"},
}

// RuleInfos lists every rule with its summary, in the order of the
// package's constants.
func RuleInfos() []RuleInfo { return slices.Clone(ruleTable) }

// Violation is one broken rule at one node.
type Violation struct {
	Run  int64 `json:"run"`
	Node int64 `json:"node"`
	// PlaceFields place the node as diff places one (compare.Difference);
	// its iteration is 0 for the run node.
	trace.PlaceFields
	// Place is them as Horizon prints a place (trace.PlaceText), which
	// 'export --path' and 'view --path' read back to the node: "iteration
	// 2: e4 e5·1" ("" for the run node, which no path names).
	Place  string `json:"place"`
	Rule   string `json:"rule"`
	Detail string `json:"detail"`
}

// Options tune Run.
type Options struct {
	// Max is how many violations Report.Violations lists (0: 100);
	// all are counted.
	Max int
}

// Report is the result of checking one run.
type Report struct {
	Run        trace.Run        `json:"-"`
	RunID      int64            `json:"run"`
	Variant    string           `json:"variant"` // the run's label (trace.Run.Label), as runs names it
	Rows       int64            `json:"rows"`
	Count      int64            `json:"violations"`
	ByRule     map[string]int64 `json:"by_rule"`
	Violations []Violation      `json:"listed"`
	// Skipped names the rules not applied and why (another engine's run
	// is checked only by the rules that hold for any engine); nil when
	// every rule applied.
	Skipped *Skipped `json:"skipped"`
}

// Run walks run's tree once, in search order, and checks every node
// against the rules above. The variant's switches come from the run's
// Options (engine.ParseOptions); the rules follow what the switches mean,
// so a switch that some code path of the engine ignores shows up as
// violations there. Nodes left incomplete by a stop are checked for
// structure only.
func Run(ctx context.Context, st trace.Reader, run int64, opts Options) (*Report, error) {
	if opts.Max <= 0 {
		opts.Max = 100
	}
	r, err := st.Run(ctx, run)
	if err != nil {
		return nil, err
	}
	var o engine.Options
	var fr *foreignRules
	if r.Engine != "" {
		fr = newForeignRules(r) // another engine: the rules that hold for any
	} else if o, err = r.HorizonOptions(); err != nil {
		return nil, fmt.Errorf("%s: run %d: %w", st.File(), run, err)
	}
	pos, err := engine.ParseFEN(r.FEN)
	if err != nil {
		return nil, fmt.Errorf("%s: run %d: root position %q: %v", st.File(), run, r.FEN, err)
	}
	if hp, ok := lastMoveHistory(r); ok {
		pos = hp
	}
	// Rows may be missing under a recording filter, and from a run whose
	// recorder died or failed: tiling rules are relaxed there.
	partial := r.Filter != "" || r.Status.Partial()
	c := &checker{st: st, run: r, opts: o, pos: pos, max: opts.Max, filtered: partial, foreign: fr, rule: r.MoveRule(),
		rep: &Report{Run: r, RunID: r.ID, Variant: r.Label(), ByRule: map[string]int64{}, Violations: []Violation{}}}
	c.windowKinds = true
	if c.nested, err = st.NestedSearches(ctx, run); err != nil {
		return nil, err
	}
	if fs, ok := st.(trace.SubtreeCountsStore); ok {
		if c.figures, err = fs.StoredSubtreeCounts(ctx, run); err != nil {
			return nil, err
		}
	}
	c.kindFaults, c.deltaFaults = &olderRule{rule: RuleKind}, &olderRule{rule: RuleScore}
	if fr != nil {
		c.rep.Skipped = fr.skipped()
	} else if err := o.Validate(); err != nil {
		c.violate(0, RuleOptions, "the run's options are refused today (%v); the engine that recorded it ignored that switch", err)
	}
	var roots []trace.Node // the run node's children: does a place name iteration 0 (trace.PlaceIteration), how many roots has an iteration
	err = readAhead(ctx, st, run, func(n trace.Node) error {
		if n.Parent == 0 {
			roots = append(roots, n)
		}
		c.rows++
		if c.rows&4095 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		c.visit(n)
		return nil
	})
	if err != nil {
		return nil, err
	}
	for len(c.stack) > 0 {
		c.pop()
	}
	c.orphanFigures()
	c.runTotals()
	c.olderFound(c.kindFaults, c.opts.DelayPenalty && c.windowKinds,
		"every node has the kind its window says, as a Horizon before 2026-11-25 gave it: with delay-penalty a scout's "+
			"descendants had windows wider than one and were searched as pv nodes")
	c.olderFound(c.deltaFaults, c.deltaNew == 0,
		"delta-pruned captures: every node they count in scores its stand pat and searched moves alone, as a Horizon "+
			"before 2026-11-25 scored it, below what a pruned capture may win")
	c.rep.Rows = c.rows
	// The walk noted each listed violation's moves from its own stack of
	// open nodes: following parent ids from the file instead (trace's
	// Path) would trust the very numbers a damaged file gets wrong.
	for i := range c.rep.Violations {
		v, pl := &c.rep.Violations[i], c.places[c.listed[i]]
		v.Iteration, v.Path, v.Visits, v.Searches = pl.iteration, sanPath(r, pl.moves, pl.marks), pl.visits, pl.searches
		if v.Node != 0 {
			v.IterationVisit = pl.rootVisit
			for _, root := range roots {
				if root.Iteration == v.Iteration {
					v.IterationSearches++
				}
			}
			root := v.Root()
			root.It = trace.PlaceIteration(roots, root.It)
			v.Place = trace.PlaceText(root, v.Path, v.Visits, v.Searches)
		}
	}
	return c.rep, nil
}

// sanPath writes moves played from r's root position in SAN, as
// trace.Store.PathSAN does for every other reader, and in UCI from the first
// move that may not be played where it was (by the run's move rule: an
// engine that declared pseudo-legal moves plays them). A step with a mark
// (marks[i], a nested search's trace.NestedText) is written as its mark
// and makes no move.
func sanPath(r trace.Run, moves []engine.Move, marks []string) []string {
	out := make([]string, 0, len(moves))
	rule := r.MoveRule()
	pos, err := engine.ParseFEN(r.FEN)
	for i, m := range moves {
		if i < len(marks) && marks[i] != "" {
			out = append(out, marks[i])
			continue
		}
		if err == nil && rule.Playable(pos, m) {
			out = append(out, pos.SAN(m))
			pos.MakeMove(m)
			continue
		}
		err = errIllegal
		out = append(out, m.UCI())
	}
	return out
}

var errIllegal = errors.New("illegal move")

// place is where a listed violation's node stands (Violation's
// Iteration, Path, Visits and Searches), the moves not yet written in SAN.
type place struct {
	iteration int
	rootVisit int // the root's among its iteration's roots (trace.PlaceRoot)
	moves     []engine.Move
	marks     []string // a nested search's mark (trace.NestedText) where moves has NoMove; "" for a move
	visits    []int
	searches  []int // known when the move's parent closes (pendingSearch)
}

// pendingSearch is a move of a listed violation's place whose searches
// under its parent, still open when the place was taken, are counted when
// the parent closes and all its children are known.
type pendingSearch struct {
	place, at int
	move      engine.Move
	mark      string // a nested search's: its searches are those of its mark
}

// markOf is child k's mark in a place: its nested search's
// (trace.NestedText) when it is one under parent, else "".
func (c *checker) markOf(parent *cframe, k kid) string {
	if k.move != engine.NoMove || parent.n.Kind == engine.KindRun {
		return ""
	}
	return trace.NestedText(c.nested[k.id])
}

// placeOf places node id: the open nodes' moves, then node id's own when
// it is a child of the innermost open node (a rule run at a node names one
// of its children, closed by then) or the node being visited, not open
// yet. Its iteration is that of the iteration root it lies under (the
// node itself for a child of the run node). It is the at-th listed.
func (c *checker) placeOf(id int64, at int) place {
	pl := place{moves: []engine.Move{}, marks: []string{}, visits: []int{}, searches: []int{}}
	add := func(parent *cframe, n kid, iteration int) {
		if parent.n.Kind == engine.KindRun {
			pl.iteration, pl.rootVisit = iteration, 1
			for _, k := range parent.kids {
				if k.iteration == iteration && k.id < n.id {
					pl.rootVisit++
				}
			}
		}
		mark := c.markOf(parent, n)
		if n.move == engine.NoMove && mark == "" {
			return
		}
		visit := 1
		for _, k := range parent.kids {
			if k.move == n.move && k.id < n.id && c.markOf(parent, k) == mark {
				visit++
			}
		}
		parent.pending = append(parent.pending, pendingSearch{place: at, at: len(pl.moves), move: n.move, mark: mark})
		pl.moves, pl.marks = append(pl.moves, n.move), append(pl.marks, mark)
		pl.visits = append(pl.visits, visit)
		pl.searches = append(pl.searches, visit)
	}
	for i := range c.stack {
		f := &c.stack[i]
		if i > 0 {
			add(&c.stack[i-1], kid{id: f.n.ID, move: f.n.Move}, f.n.Iteration)
		}
		if f.n.ID == id {
			return pl
		}
	}
	if d := len(c.stack); d > 0 {
		top := &c.stack[d-1]
		switch i := slices.IndexFunc(top.kids, func(k kid) bool { return k.id == id }); {
		case c.cur.ID == id:
			add(top, kid{id: id, move: c.cur.Move}, c.cur.Iteration)
		case i >= 0:
			add(top, top.kids[i], top.kids[i].iteration)
		}
	}
	return pl
}

// kid is what a node's checks need of one child.
type kid struct {
	id         int64
	kind       engine.NodeKind // says how its score prints (trace.Run.NodeScores)
	iteration  int
	move       engine.Move
	score      engine.Score
	depth      int
	alpha      engine.Score // the window's lower end on entry
	beta       engine.Score
	ext        int
	bound      engine.Bound
	incomplete bool
}

// cframe is one open node of the walk.
type cframe struct {
	n      trace.Node
	moved  bool // n's move was made on the walk's position
	broken bool // the position is unknown here (an illegal move above)
	qsPly  int  // distance from the QS root, -1 outside QS
	eval   engine.Score
	kids   []kid
	// pending are the listed places' moves to children of this node,
	// whose searches are counted when it closes.
	pending []pendingSearch
	next    int64 // id the next child must have
	tiled   bool  // the children seen so far tile the id range from the node on
	last    int64 // largest id seen in the subtree
	// counts adds up the subtree's rows seen so far, as the file's stored
	// figures of a big subtree do (trace.SubtreeCountsStore): the checker
	// repeats trace's arithmetic on purpose, to hold the figures to it.
	counts trace.RangeCounts
	legal  *engine.MoveList
	hasGen bool
}

type checker struct {
	st       trace.Reader
	run      trace.Run
	opts     engine.Options
	pos      *engine.Position
	max      int
	filtered bool
	foreign  *foreignRules // set for another engine's run
	// windowKinds: every full-width node so far has the kind its window
	// says; deltaNew counts the nodes that count delta-pruned captures in
	// their score where it changes it. kindFaults and deltaFaults hold the
	// findings an older Horizon's convention explains until the walk
	// ends, when olderFound knows whether the run keeps that convention.
	windowKinds bool
	deltaNew    int
	kindFaults  *olderRule
	deltaFaults *olderRule
	rule        trace.MoveRule
	rep         *Report
	nested      map[int64]trace.NestedSearch // the run's nested searches by root id
	// figures are the run's stored subtree figures by node id
	// (trace.SubtreeCountsStore), each taken out when its node closes.
	figures map[int64]trace.RangeCounts

	stack   []cframe
	lists   []*engine.MoveList // move buffers by stack depth, reused
	moves   []engine.Move      // scratch of distinctMoves
	rows    int64
	qsRows  int64
	rootEnd int64

	cur    trace.Node // the node being visited
	places []place    // where each listed violation's node, and each olderRule finding's, stands
	listed []int      // each listed violation's index in places
}

func (c *checker) violate(id int64, rule, format string, a ...any) {
	c.rep.Count++
	c.rep.ByRule[rule]++
	if len(c.rep.Violations) < c.max {
		c.rep.Violations = append(c.rep.Violations, Violation{Run: c.run.ID, Node: id, Rule: rule, Detail: fmt.Sprintf(format, a...)})
		c.listed = append(c.listed, c.place(id))
	}
}

// visit takes the next node in pre-order.
func (c *checker) visit(n trace.Node) {
	for len(c.stack) > 0 && n.ID >= c.stack[len(c.stack)-1].n.End() {
		c.pop()
	}
	c.cur = n
	if n.Kind == engine.KindQS {
		c.qsRows++
	}
	f := cframe{n: n, qsPly: -1, next: n.ID + 1, last: n.ID, tiled: true, counts: rowCounts(n)}
	if len(c.stack) == 0 {
		if n.ID != 0 || n.Kind != engine.KindRun {
			c.violate(n.ID, RuleStructure, "node %d (%s) lies outside the run node's id range", n.ID, n.Kind)
			f.broken = true
		}
		c.rootEnd = n.End()
		c.push(f)
		return
	}
	p := &c.stack[len(c.stack)-1]
	if n.Parent != p.n.ID {
		c.violate(n.ID, RuleStructure, "parent_id is %d, but the node lies in the subtree of node %d [%d, %d)",
			n.Parent, p.n.ID, p.n.ID, p.n.End())
	}
	if n.End() > p.n.End() {
		c.violate(n.ID, RuleSize, "subtree [%d, %d) runs past its parent %d's [%d, %d)", n.ID, n.End(), p.n.ID, p.n.ID, p.n.End())
	}
	if n.SubtreeSize < 1 {
		c.violate(n.ID, RuleSize, "subtree size %d, want at least 1", n.SubtreeSize)
	}
	if n.ID != p.next {
		p.tiled = false
		if !c.filtered {
			c.violate(n.ID, RuleSize, "node %d follows a sibling subtree (or its parent) that ends at %d", n.ID, p.next)
		}
	}
	p.next = n.End()
	c.structure(p, &f)
	if len(p.kids) == trace.MaxChildren {
		// Said once, at the first child past the bound: readers call such
		// a node damaged and read none of its children.
		c.violate(n.ID, RuleStructure, "node %d has more than %d children, more than readers read", p.n.ID, trace.MaxChildren)
	}
	p.kids = append(p.kids, kid{id: n.ID, kind: n.Kind, iteration: n.Iteration, move: n.Move, score: n.Score, depth: n.Depth, alpha: n.Alpha, beta: n.Beta, ext: n.Extension, bound: n.Bound,
		incomplete: n.Incomplete || n.Cause == engine.CauseStop})

	if n.Kind == engine.KindQS {
		f.qsPly = 0
		if p.n.Kind == engine.KindQS {
			f.qsPly = p.qsPly + 1
		}
	}
	f.broken = p.broken
	nested := trace.IsNested(n) && p.n.Kind != engine.KindRun
	if nested {
		c.nestedSearch(p, n)
	} else if ns, ok := c.nested[p.n.ID]; ok && ns.Excluded != engine.NoMove && n.Move == ns.Excluded {
		c.violate(n.ID, RuleNested, "the %s search at node %d leaves %s out, but searched it", ns.Reason, p.n.ID, n.Move.UCI())
	}
	if n.Kind != engine.KindRoot && p.n.Kind != engine.KindRun && !f.broken && !nested {
		if !c.legalFor(p, n.Move) {
			c.violate(n.ID, RuleMove, "move %s is not legal in %s", n.Move.Text(), c.pos.FEN())
			f.broken = true
		} else {
			if p.n.Kind == engine.KindQS && c.foreign == nil {
				c.qsMove(p, n)
			}
			c.pos.MakeMove(n.Move)
			f.moved = true
		}
	}
	if !f.broken {
		if n.Kind != engine.KindRun && n.InCheck != c.pos.InCheck() {
			c.violate(n.ID, RuleInCheck, "in_check is %v, but the side to move in %s is %s", n.InCheck, c.pos.FEN(), inCheckWord(c.pos.InCheck()))
		}
		if c.opts.DelayPenalty {
			f.eval = c.pos.Evaluate()
		}
	}
	if len(c.stack) > trace.MaxNesting {
		// Only damaged sizes nest this deep; opening the node would let the
		// stack (and the position's history) grow with every row.
		c.violate(n.ID, RuleSize, "lies %d levels below the run node; no search goes deeper than %d (subtree sizes above it are damaged)", len(c.stack), trace.MaxNesting)
		addCounts(&c.stack[len(c.stack)-1].counts, f.counts)
		if f.moved {
			c.pos.UnmakeMove()
		}
		return
	}
	c.push(f)
}

// nestedSearch checks n, a nested search of its parent p's position (no
// move is made for it): it is shallower than p, which would otherwise
// search itself for ever.
func (c *checker) nestedSearch(p *cframe, n trace.Node) {
	if n.Depth >= p.n.Depth {
		c.violate(n.ID, RuleNested, "a nested %s search at depth %d in a node of depth %d: a search of the node's own position must be shallower",
			trace.NestedText(c.nested[n.ID]), n.Depth, p.n.Depth)
	}
}

// cutText says why node n stopped, with the move that cut it off, as
// diff, export and the viewer word it (engine.CutText).
func cutText(n trace.Node) string {
	return engine.CutText(n.Cause, n.CutIndex, n.Generated, n.CutIndexAtLeast, n.GeneratedAtLeast)
}

func inCheckWord(b bool) string {
	if b {
		return "in check"
	}
	return "not in check"
}

func (c *checker) push(f cframe) {
	d := len(c.stack)
	if d == len(c.lists) {
		c.lists = append(c.lists, new(engine.MoveList))
	}
	f.legal = c.lists[d]
	if d < cap(c.stack) {
		// Reuse the old frame's child slice.
		f.kids = c.stack[:d+1][d].kids[:0]
		f.pending = c.stack[:d+1][d].pending[:0]
	}
	c.stack = append(c.stack, f)
}

// structure checks a child against its parent: plies, kinds, iterations.
func (c *checker) structure(p, f *cframe) {
	n := f.n
	switch {
	case n.Kind == engine.KindRun:
		c.violate(n.ID, RuleStructure, "a run node below node %d", p.n.ID)
	case p.n.Kind == engine.KindRun:
		// A QS-only run ('horizon trace --qs-only') has the QS root there.
		if n.Kind != engine.KindRoot && n.Kind != engine.KindQS {
			c.violate(n.ID, RuleStructure, "a child of the run node is a %s node, want an iteration root (or a QS root)", n.Kind)
		}
	case n.Kind == engine.KindRoot:
		c.violate(n.ID, RuleStructure, "an iteration root below node %d (%s)", p.n.ID, p.n.Kind)
	case p.n.Kind == engine.KindQS && n.Kind != engine.KindQS:
		c.violate(n.ID, RuleStructure, "a %s node below QS node %d", n.Kind, p.n.ID)
	case c.foreign == nil && (n.Kind == engine.KindPV || n.Kind == engine.KindNonPV):
		if n.Kind != engine.FullWidthKind(n.Ply, n.Alpha, n.Beta) {
			c.windowKinds = false
		}
		if p.n.Kind == engine.KindNonPV && n.Kind == engine.KindPV {
			c.kindFaults.add(c, n.ID, fmt.Sprintf("a pv node (window %s) below nonpv node %d: a scout's subtree is nonpv whatever its window", c.run.WindowText(n), p.n.ID))
		}
	}
	if n.Kind == engine.KindRoot || p.n.Kind == engine.KindRun {
		if n.Ply != 0 || n.Move != engine.NoMove {
			c.violate(n.ID, RuleStructure, "iteration root at ply %d with move %s, want ply 0 and no move", n.Ply, n.Move.Text())
		}
		return
	}
	if n.Ply != p.n.Ply+1 {
		c.violate(n.ID, RuleStructure, "ply %d below a node at ply %d", n.Ply, p.n.Ply)
	}
	if n.Iteration != p.n.Iteration {
		c.violate(n.ID, RuleStructure, "iteration %d below a node of iteration %d", n.Iteration, p.n.Iteration)
	}
}

// place takes node id's place (placeOf) into places and returns its index.
func (c *checker) place(id int64) int {
	c.places = append(c.places, c.placeOf(id, len(c.places)))
	return len(c.places) - 1
}

// olderRule holds one rule's findings that an older Horizon's
// convention explains until the walk ends, the first ones (as many as
// may be listed) with their node's place taken while the walk stood there.
type olderRule struct {
	rule    string
	ids     []int64
	details []string
	places  []int // index in checker.places, of the first findings
}

func (o *olderRule) add(c *checker, id int64, detail string) {
	o.ids, o.details = append(o.ids, id), append(o.details, detail)
	if len(o.places) < c.max {
		o.places = append(o.places, c.place(id))
	}
}

// olderFound reports o's findings as violations, unless older says the run
// keeps the older Horizon's convention throughout: then the findings are
// what that search did, and Report.Skipped says which rule was read so
// and why (why: the convention), with how many nodes show it.
func (c *checker) olderFound(o *olderRule, older bool, why string) {
	if len(o.ids) == 0 {
		return
	}
	if older {
		note := fmt.Sprintf("%s (%s; %d nodes)", o.rule, why, len(o.ids))
		if c.rep.Skipped == nil {
			c.rep.Skipped = &Skipped{Reason: SkippedOlderHorizon, Text: "read as an older Horizon recorded it: " + note}
		} else {
			c.rep.Skipped.Text += "; " + note
		}
		c.rep.Skipped.Rules = append(c.rep.Skipped.Rules, o.rule)
		return
	}
	for i, id := range o.ids {
		c.rep.Count++
		c.rep.ByRule[o.rule]++
		if len(c.rep.Violations) < c.max {
			c.rep.Violations = append(c.rep.Violations, Violation{Run: c.run.ID, Node: id, Rule: o.rule, Detail: o.details[i]})
			c.listed = append(c.listed, o.places[i])
		}
	}
}

// legal reports whether m is legal in the walk's position (p's).
func (c *checker) legal(p *cframe, m engine.Move) bool {
	if m == engine.NoMove {
		return false
	}
	if !p.hasGen {
		c.pos.Generate(engine.GenAll, p.legal)
		p.hasGen = true
	}
	return slices.Contains(p.legal.Slice(), m)
}

// san writes move m of node f's position in SAN, as paths and every
// reader's moves read, and in UCI where the walk does not know the
// position or the run's move rule does not let m be played there.
func (c *checker) san(f *cframe, m engine.Move) string {
	if f.broken || !c.rule.Playable(c.pos, m) {
		return m.UCI()
	}
	return c.pos.SAN(m)
}

// standsPat reports whether QS node n stands pat by its variant's switches.
func (c *checker) standsPat(n trace.Node) bool { return c.opts.StandsPat(n.InCheck) }

// qsMove checks that QS node p may search child n's move (the engine's
// move set, engine.Options.QSAllows) and, with see-prune, that the move
// does not lose material; the position is p's.
func (c *checker) qsMove(p *cframe, n trace.Node) {
	m, pos, o := n.Move, c.pos, &c.opts
	if o.QSMoves == engine.QSNone {
		c.violate(n.ID, RuleQSMoves, "QS searched %s, but variant %s has no QS moves", pos.SAN(m), c.rep.Variant)
		return
	}
	if o.Evades(p.n.InCheck) {
		return // every evasion, none pruned
	}
	if !o.QSAllows(pos, m, p.qsPly) {
		c.violate(n.ID, RuleQSMoves, "QS node %d (QS ply %d) searched %s; variant %s allows %s", p.n.ID, p.qsPly, pos.SAN(m), c.rep.Variant,
			o.QSMovesText(pos, p.qsPly))
	}
	if o.SEEPrune && pos.IsCapture(m) {
		if see := pos.SEE(m); see < 0 {
			c.violate(n.ID, RuleSEE, "QS node %d searched %s, which loses %d by SEE; see-prune skips such captures", p.n.ID, pos.SAN(m), -see)
		}
	}
}

// pop closes the innermost open node: its subtree is complete, so the
// checks that need its children run now.
func (c *checker) pop() {
	f := &c.stack[len(c.stack)-1]
	n := f.n
	if !c.filtered && f.last+1 != n.End() {
		c.violate(n.ID, RuleSize, "subtree size %s says ids %d..%d, but the last descendant is id %d", engine.Commas(n.SubtreeSize), n.ID, n.End()-1, f.last)
	}
	if !c.filtered && len(f.kids) > 0 && f.next != n.End() {
		c.violate(n.ID, RuleSize, "children end at id %d, the subtree at %d", f.next, n.End())
	}
	if f.next != n.End() {
		f.tiled = false
	}
	// A recording filter may have left out some of a node's children; the
	// rules that need all of them are skipped there.
	switch {
	case c.foreign != nil:
		c.foreignScores(f)
	case f.tiled || !c.filtered:
		c.scores(f)
		if f.tiled {
			c.counts(f)
		}
	}
	if f.moved {
		c.pos.UnmakeMove()
	}
	for _, p := range f.pending {
		n := 0
		for _, k := range f.kids {
			if k.move == p.move && c.markOf(f, k) == p.mark {
				n++
			}
		}
		c.places[p.place].searches[p.at] = n
	}
	c.storedFigures(f)
	last, counts := f.last, f.counts
	c.stack = c.stack[:len(c.stack)-1]
	if len(c.stack) > 0 {
		p := &c.stack[len(c.stack)-1]
		p.last = max(p.last, last)
		addCounts(&p.counts, counts)
	}
}

func isSearchCause(cause engine.Cause) bool {
	switch cause {
	case engine.CauseNone, engine.CauseBeta, engine.CauseDelta, engine.CauseSEE, engine.CauseAutoFailHigh, engine.CauseLevelExhausted:
		return true
	}
	return false
}

func isLeafCause(cause engine.Cause) bool {
	switch cause {
	case engine.CauseStandPat, engine.CauseTT, engine.CauseMateDistance, engine.CauseRepetition, engine.CauseFifty,
		engine.CauseMaterial, engine.CauseHorizon, engine.CauseMaxPly, engine.CauseMate:
		return true
	}
	return false
}

// readAhead calls fn for every row of the run in pre-order, as Subtree
// does, with the rows read on a goroutine of its own and handed over in
// batches: on two cores the reading (SQLite and decoding, about half of a
// check) and the checking overlap. An error from fn stops the reading.
func readAhead(ctx context.Context, st trace.Reader, run int64, fn func(trace.Node) error) error {
	const batch = 4096
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	batches, free := make(chan []trace.Node, 2), make(chan []trace.Node, 3)
	var readErr error
	go func() {
		defer close(batches)
		buf := make([]trace.Node, 0, batch)
		send := func() bool {
			select {
			case batches <- buf:
			case <-ctx.Done():
				return false
			}
			select {
			case buf = <-free:
			default:
				buf = make([]trace.Node, 0, batch)
			}
			buf = buf[:0]
			return true
		}
		readErr = st.Subtree(ctx, run, 0, -1, func(n trace.Node) error {
			if buf = append(buf, n); len(buf) == batch && !send() {
				return ctx.Err()
			}
			return nil
		})
		if readErr == nil && len(buf) > 0 {
			send()
		}
	}()
	abort := func(err error) error {
		cancel()
		for range batches { // let the reader end
		}
		return err
	}
	for b := range batches {
		for _, n := range b {
			if err := fn(n); err != nil {
				return abort(err)
			}
		}
		// A stopped check stops after the batch, whether or not the
		// reading had ended.
		if err := ctx.Err(); err != nil {
			return abort(err)
		}
		select {
		case free <- b:
		default:
		}
	}
	return readErr
}

// rowCounts is row n's own share of its subtree's figures.
func rowCounts(n trace.Node) trace.RangeCounts {
	c := trace.RangeCounts{Rows: 1, MaxQSPly: -1, MaxQSNodePly: -1}
	if n.Kind == engine.KindQS {
		c.QSRows, c.MaxQSPly, c.MaxQSNodePly = 1, n.QSPly, n.Ply
	}
	return c
}

// addCounts adds o's figures to c's.
func addCounts(c *trace.RangeCounts, o trace.RangeCounts) {
	c.Rows += o.Rows
	c.QSRows += o.QSRows
	c.MaxQSPly = max(c.MaxQSPly, o.MaxQSPly)
	c.MaxQSNodePly = max(c.MaxQSNodePly, o.MaxQSNodePly)
}

// storedFigures holds the figures the file stores of closing frame f's
// subtree, if any, against its rows: a diagram's summaries would say what
// the file says.
func (c *checker) storedFigures(f *cframe) {
	want, ok := c.figures[f.n.ID]
	if !ok {
		return
	}
	delete(c.figures, f.n.ID)
	if got := f.counts; want != got {
		c.violate(f.n.ID, RuleSize, "the file's stored figures of this subtree (subtree_counts) say %s rows, %s QS, deepest QS ply %d at ply %d; "+
			"its rows hold %s, %s, %d at %d: the file is damaged", engine.Commas(want.Rows), engine.Commas(want.QSRows), want.MaxQSPly, want.MaxQSNodePly,
			engine.Commas(got.Rows), engine.Commas(got.QSRows), got.MaxQSPly, got.MaxQSNodePly)
	}
}

// orphanFigures reports the stored subtree figures left after the walk:
// of nodes the run has no row for.
func (c *checker) orphanFigures() {
	ids := slices.Sorted(maps.Keys(c.figures))
	for _, id := range ids {
		c.violate(id, RuleSize, "the file stores subtree figures (subtree_counts) of node %d, which has no row: the file is damaged", id)
	}
	clear(c.figures)
}
