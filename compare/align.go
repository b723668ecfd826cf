// Package compare lines up search trees. Align walks two runs of a trace
// (in one file or two) node by node, matching nodes by iteration and move
// path, and reports where the trees differ; Counterpart and AlignChildren
// answer the same question one node at a time for the viewer's compare
// mode. (Checking one run against the rules is package check.)
//
// Everything here reads traces through the trace package's query API and
// streams them: no function holds a whole tree in memory.
package compare

import (
	"cmp"
	"container/heap"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// ErrDifferentPositions: the two runs did not search the same position, so
// their trees cannot be lined up.
var ErrDifferentPositions = errors.New("runs searched different positions")

// Options tune Align.
type Options struct {
	// Top is how many subtrees Report.Top lists (0: 10).
	Top int
	// Changed is how many matched nodes with a different score, bound or
	// cutoff Report.ChangedNodes lists (0: 10); Report.Changed counts all.
	Changed int
}

// Totals describe one run as a whole: its facts as every command's --json
// gives a run's (trace.RunFacts), and where it is.
type Totals struct {
	File    string          `json:"file"`
	Run     int64           `json:"run"`
	Options json.RawMessage `json:"options"` // the stored object, typed values
	trace.RunFacts
	// Position is the position as readers show it (trace.Run.Position).
	Position string `json:"-"`
	// Scores is how the run's score prints (trace.Run.ResultScores).
	Scores engine.ScoreFormat `json:"-"`
}

// PlyRow counts the nodes at one ply in both runs.
type PlyRow struct {
	Ply      int   `json:"ply"`
	NodesA   int64 `json:"nodes_a"`
	NodesB   int64 `json:"nodes_b"`
	QSNodesA int64 `json:"qs_nodes_a"`
	QSNodesB int64 `json:"qs_nodes_b"`
}

// LevelRow counts the QS nodes at one QS ply (or engine QS level) in both
// runs: which is the list's (Report.QSPlies, Report.QSLevels), and so is
// its JSON key (trace.LevelList).
type LevelRow struct {
	Level  int
	NodesA int64
	NodesB int64
}

// LevelCounts gives the row's level and counts, named nodes_a and nodes_b.
func (r LevelRow) LevelCounts() (int, []int64, []string) {
	return r.Level, []int64{r.NodesA, r.NodesB}, []string{"nodes_a", "nodes_b"}
}

// NodeRef describes one node of one tree in a report.
type NodeRef struct {
	ID       int64  `json:"id"`
	Kind     string `json:"kind"`
	Depth    int    `json:"depth"`
	Alpha    int    `json:"alpha"`
	Beta     int    `json:"beta"`
	Score    int    `json:"score"`
	Bound    string `json:"bound"`
	Cutoff   string `json:"cutoff"`
	CutIndex *int   `json:"cut_index"` // null where no move failed high (the SQL view says -1)
	// CutIndexAtLeast: cut_index is a lower bound (trace.Node.CutIndexAtLeast).
	CutIndexAtLeast bool    `json:"cut_index_at_least"`
	Best            *string `json:"best"` // UCI; null when none
	// SubtreeSize is the node's subtree size, under the key export's and
	// the trace's nodes give it; Nodes is the same number, under the key
	// diff gave it first (kept for scripts).
	SubtreeSize int64 `json:"subtree_size"`
	Nodes       int64 `json:"nodes"`
}

func ref(n trace.Node) *NodeRef {
	r := &NodeRef{ID: n.ID, Kind: n.Kind.String(), Depth: n.Depth, Alpha: int(n.Alpha), Beta: int(n.Beta),
		Score: int(n.Score), Bound: n.Bound.String(), Cutoff: n.Cause.String(), SubtreeSize: n.SubtreeSize, Nodes: n.SubtreeSize}
	if n.CutIndex >= 0 {
		i := n.CutIndex
		r.CutIndex, r.CutIndexAtLeast = &i, n.CutIndexAtLeast
	}
	if n.Best != engine.NoMove {
		best := n.Best.UCI()
		r.Best = &best
	}
	return r
}

// Difference is where the trees part: a node only one tree has, or a
// matched pair that differs.
type Difference struct {
	// PlaceFields locate the node (A's when there is one); A or B is nil
	// when that search has no such node. Where both runs have it, its
	// searches and the root's are the most either run made, so that the
	// place reads back to the node in each run.
	trace.PlaceFields
	// PathB, VisitsB and SearchesB are B's when B's node is a different
	// one ("order"); null otherwise (B's node, if any, is at Path).
	// IterationB, IterationVisitB and IterationSearchesB are the root of
	// B's node there (PlaceFields' for B, RootB); null with PathB.
	IterationB         *int     `json:"iteration_b"`
	IterationVisitB    *int     `json:"iteration_visit_b"`
	IterationSearchesB *int     `json:"iteration_searches_b"`
	PathB              []string `json:"path_b"`
	VisitsB            []int    `json:"visits_b"`
	SearchesB          []int    `json:"searches_b"`
	A                  *NodeRef `json:"a"`
	B                  *NodeRef `json:"b"`
	// Fields lists what differs: "order" (the searches entered different
	// nodes at the same visit number: a different move order, a move one
	// of them pruned, a different number of nodes before), "window",
	// "depth", "kind", "qs_level", "score", "bound", "cutoff", "best",
	// "moves" (generated or searched counts), "size" (subtree size),
	// "visit" (the pair was visited at different ids).
	Fields []string `json:"fields"`
	// Reason says it in words.
	Reason string `json:"reason"`
	// Why is the rule that made the difference (see Rules); null where
	// the walk could not tell (a recording filter left rows out).
	Why *Why `json:"why"`
}

// Subtree is a pair of aligned subtrees (or a subtree only one tree has)
// whose sizes differ.
type Subtree struct {
	// PlaceFields locate the subtree's top as Difference's do.
	trace.PlaceFields
	IDA    *int64 `json:"id_a"`
	IDB    *int64 `json:"id_b"`
	NodesA int64  `json:"nodes_a"`
	NodesB int64  `json:"nodes_b"`
	Diff   int64  `json:"diff"` // NodesB - NodesA
}

// Growth is a pair of the growth list (Report.Growth).
type Growth struct {
	Subtree
	Ratio       float64 `json:"ratio"`        // NodesB / NodesA
	ParentRatio float64 `json:"parent_ratio"` // the parent's
	Excess      int64   `json:"excess"`       // NodesB - ParentRatio x NodesA
}

// Report is the result of Align.
type Report struct {
	A Totals `json:"a"`
	B Totals `json:"b"`
	// Node counts of the alignment: pairs of positions (the run nodes'
	// pair is not one), and nodes only one tree has.
	Matched int64 `json:"matched"`
	OnlyA   int64 `json:"only_a"`
	OnlyB   int64 `json:"only_b"`
	// Changed counts matched nodes whose score, bound or cutoff differ
	// (positions, as Matched: never the run node);
	// ChangedNodes lists the first of them the searches finished (so a
	// changed node comes before its changed ancestors).
	Changed      int64        `json:"changed"`
	ChangedNodes []Difference `json:"changed_nodes"`
	// First is the first difference in the order the searches visited
	// their nodes (nil when the trees are the same).
	First *Difference `json:"first_difference"`
	// Top lists the subtrees whose sizes differ most, biggest difference
	// first. A subtree is listed only where its difference spreads over
	// its children: a node whose difference is mostly (more than half) one
	// child's is left out in favour of that child, so the list shows where
	// one variant explodes instead of every ancestor of that place.
	Top []Subtree `json:"top"`
	// Growth localises a change that spreads everywhere, below the
	// iteration roots: the matched pairs whose size departs most from
	// what their parent's ratio B/A predicts (Excess = NodesB - ratio x
	// NodesA), biggest first; a pair most of whose departure is one
	// child's is left out in favour of that child, so the list names the
	// deepest places where the ratio changes.
	Growth []Growth `json:"growth_starts"`
	// Divergences counts the pairs of matched nodes whose own searches
	// differ, by rule (see Rules).
	Divergences Divergences `json:"divergences"`
	// Filtered: a recording filter left rows out of one run or both, so
	// node ids are not comparable: First is then the first difference in
	// A's visit order (a node only B has counts right after its parent).
	Filtered bool                                       `json:"filtered"`
	Plies    []PlyRow                                   `json:"plies"`
	QSPlies  trace.LevelList[LevelRow, trace.ByQSPly]   `json:"qs_plies"`
	QSLevels trace.LevelList[LevelRow, trace.ByQSLevel] `json:"qs_levels"` // by engine QS level, only when both runs use level-based QS (empty otherwise)

	// roots are each run's iteration roots, which say whether a place
	// names its iteration 0 (trace.PlaceIteration).
	roots [2][]trace.Node
}

// Place writes a place of the report (a Difference's or a Subtree's root,
// Root, and marked path) as Horizon prints one (trace.PlaceText), so that
// it reads back to the node in each run that has it: its iteration is
// named, 0 too, unless both runs searched QS alone once.
func (r *Report) Place(root trace.PlaceRoot, path []string, visits, searches []int) string {
	it := trace.NoIteration
	for _, roots := range r.roots {
		it = max(it, trace.PlaceIteration(roots, root.It))
	}
	root.It = it
	return trace.PlaceText(root, path, visits, searches)
}

// RootB is the root of B's node where it is another than A's (PathB), as
// Root is A's; Root when there is none.
func (d *Difference) RootB() trace.PlaceRoot {
	if d.IterationB == nil {
		return d.Root()
	}
	return trace.PlaceRoot{It: *d.IterationB, Visit: *d.IterationVisitB, Searches: *d.IterationSearchesB}
}

// Identical reports whether the alignment found no difference at all.
func (r *Report) Identical() bool {
	return r.First == nil && r.OnlyA == 0 && r.OnlyB == 0 && r.Changed == 0
}

// Align lines up the trees of runs a and b node by node and reports how
// they differ. Nodes are matched by iteration and move path (see Key); both
// trees are read in canonical order (children by key) with a merge walk, so
// memory stays bounded by a few thousand rows per tree. The runs must have
// searched the same position (the error wraps ErrDifferentPositions).
func Align(ctx context.Context, a, b Side, opts Options) (*Report, error) {
	if opts.Top <= 0 {
		opts.Top = 10
	}
	if opts.Changed <= 0 {
		opts.Changed = 10
	}
	ra, rootA, rb, rootB, err := OpenPair(ctx, a, b)
	if err != nil {
		return nil, err
	}
	rep := &Report{A: totals(a, ra, rootA), B: totals(b, rb, rootB)}
	for i, s := range []Side{a, b} {
		if _, rep.roots[i], err = childList(ctx, s, 0); err != nil {
			return nil, err
		}
	}
	if err := levelTables(ctx, a, b, usesLevels(ra) && usesLevels(rb), rep); err != nil {
		return nil, err
	}
	rep.Filtered = ra.Filter != "" || rb.Filter != ""
	w := &walker{ctx: ctx, ta: newTree(a), tb: newTree(b), ra: ra, rb: rb, rep: rep, opts: opts, filtered: rep.Filtered,
		top: rankHeap[*topItem]{less: topFirstDropped}, growth: rankHeap[*topItem]{less: topFirstDropped}, changed: rankHeap[*diffItem]{less: changedFirstDropped},
		moves: ra.MoveRule().Either(rb.MoveRule()), tally: tally{}}
	for i, r := range []trace.Run{ra, rb} {
		// Options that do not read leave the run's reasons to its records.
		w.search[i], _ = r.SearchOptions()
	}
	if p, err := engine.ParseFEN(ra.FEN); err == nil {
		w.pos = p
	}
	if _, err := w.pair(rootA, rootB, 0); err != nil {
		return nil, err
	}
	if err := w.finish(); err != nil {
		return nil, err
	}
	rep.Divergences = w.tally.summary()
	if rep.First != nil {
		rep.First.Why = firstWhy(rep.First.Why)
	}
	return rep, nil
}

// OpenPair opens both sides of a comparison (Side.Open: the run and its
// run node, where a walk of both trees starts) and checks that the runs
// searched the same root position: the error wraps ErrDifferentPositions
// when they did not (ErrNoRun from the trace package when a run does not
// exist).
func OpenPair(ctx context.Context, a, b Side) (ra trace.Run, rootA trace.Node, rb trace.Run, rootB trace.Node, err error) {
	if ra, rootA, err = a.Open(ctx); err != nil {
		return
	}
	if rb, rootB, err = b.Open(ctx); err != nil {
		return
	}
	err = samePosition(a, ra, b, rb)
	return
}

func samePosition(a Side, ra trace.Run, b Side, rb trace.Run) error {
	pa, err := engine.ParseFEN(ra.FEN)
	if err != nil {
		return fmt.Errorf("%s: run %d: root position %q: %v", a.Store.File(), a.Run, ra.FEN, err)
	}
	pb, err := engine.ParseFEN(rb.FEN)
	if err != nil {
		return fmt.Errorf("%s: run %d: root position %q: %v", b.Store.File(), b.Run, rb.FEN, err)
	}
	// Compare positions, not text: "startpos" and its FEN, or a FEN with
	// and without clocks, are the same root. The clocks still matter (the
	// fifty-move rule), so they are part of the comparison.
	if pa.FEN() != pb.FEN() {
		return fmt.Errorf("%w: run %d of %s searched %q, run %d of %s searched %q",
			ErrDifferentPositions, a.Run, a.Store.File(), pa.FEN(), b.Run, b.Store.File(), pb.FEN())
	}
	return nil
}

func totals(s Side, r trace.Run, root trace.Node) Totals {
	// A run's score is its run node's, and so is its bound
	// (trace.Store.ScoreBound).
	return Totals{File: s.Store.File(), Run: r.ID, Options: r.OptionsObject(), RunFacts: r.Facts(root.Bound),
		Position: r.Position(), Scores: r.ResultScores()}
}

// usesLevels reports whether run r searched with level-based QS, whose
// nodes carry an engine QS level. A run whose options cannot be read is
// taken to have none.
func usesLevels(r trace.Run) bool {
	o, err := r.HorizonOptions()
	return err == nil && o.UsesLevels()
}

// levelTables fills the per-ply counts side by side, and the per-level
// counts when both runs use levels (withLevels).
func levelTables(ctx context.Context, a, b Side, withLevels bool, rep *Report) error {
	sa, err := a.Store.Stats(ctx, a.Run)
	if err != nil {
		return err
	}
	sb, err := b.Store.Stats(ctx, b.Run)
	if err != nil {
		return err
	}
	plies := map[int]*PlyRow{}
	row := func(p int) *PlyRow {
		if plies[p] == nil {
			plies[p] = &PlyRow{Ply: p}
		}
		return plies[p]
	}
	for _, p := range sa.Plies {
		r := row(p.Ply)
		r.NodesA, r.QSNodesA = p.Nodes, p.QSNodes
	}
	for _, p := range sb.Plies {
		r := row(p.Ply)
		r.NodesB, r.QSNodesB = p.Nodes, p.QSNodes
	}
	for _, r := range plies {
		rep.Plies = append(rep.Plies, *r)
	}
	slices.SortFunc(rep.Plies, func(x, y PlyRow) int { return cmp.Compare(x.Ply, y.Ply) })
	rep.QSPlies = mergeLevels(sa.QSPlies, sb.QSPlies)
	rep.QSLevels = []LevelRow{}
	if withLevels {
		rep.QSLevels = mergeLevels(sa.QSLevels, sb.QSLevels)
	}
	return nil
}

func mergeLevels(a, b []trace.LevelStat) []LevelRow {
	m := map[int]*LevelRow{}
	get := func(l int) *LevelRow {
		if m[l] == nil {
			m[l] = &LevelRow{Level: l}
		}
		return m[l]
	}
	for _, s := range a {
		get(s.Level).NodesA = s.Nodes
	}
	for _, s := range b {
		get(s.Level).NodesB = s.Nodes
	}
	out := make([]LevelRow, 0, len(m))
	for _, r := range m {
		out = append(out, *r)
	}
	slices.SortFunc(out, func(x, y LevelRow) int { return cmp.Compare(x.Level, y.Level) })
	return out
}

// event orders differences by when the searches met them: entering node
// id x happens at (x, 0); leaving a node happens after its last
// descendant was entered, at (end-1, 1), deeper nodes first.
type event struct {
	at    int64
	phase int
	tie   int64
}

func (e event) less(o event) bool {
	if e.at != o.at {
		return e.at < o.at
	}
	if e.phase != o.phase {
		return e.phase < o.phase
	}
	return e.tie < o.tie
}

// leaveEvent is when a matched pair was left: after the last descendant
// either search entered.
func leaveEvent(a, b trace.Node) event {
	return event{at: min(a.End(), b.End()) - 1, phase: 1, tie: -a.ID}
}

// diffItem is a difference waiting for its path to be looked up.
type diffItem struct {
	a, b *trace.Node
	iter int
	d    Difference
	ev   event // when the difference first shows
	left event // when the pair was left (changed nodes)
}

// walker is the state of one merge walk.
type walker struct {
	ctx    context.Context
	ta, tb *tree
	ra, rb trace.Run // the runs, whose rules word a node's fields (trace.Run.MovesText) and print its scores (trace.Run.Scores)
	rep    *Report
	opts   Options

	// filtered: a recording filter left rows out of a run, so node ids
	// do not line up and differences are ordered by A's ids alone.
	filtered bool
	seq      int64        // canonical visit counter, breaks ties deterministically
	occ      []visitCount // the keys' visits on the path to the current node (iteration root first)
	first    *diffItem
	top      rankHeap[*topItem]
	growth   rankHeap[*topItem]
	changed  rankHeap[*diffItem]

	// The reasons: each run's options (nil for another engine's run),
	// the position at the current pair (nil below a move that does not
	// replay), the pairs above it with their reasons, and the count of
	// reasons by rule and run.
	search [2]*engine.Options
	pos    *engine.Position
	moves  trace.MoveRule
	up     []upPair
	tally  tally
}

// upPair is a matched pair on the walked path, with its reason (nil when
// its own search does not differ).
type upPair struct {
	a, b trace.Node
	why  *Why
}

// pair walks a matched pair and returns the difference of their subtree
// sizes (B - A).
func (w *walker) pair(a, b trace.Node, depth int) (int64, error) {
	if err := w.ctx.Err(); err != nil {
		return 0, err
	}
	if err := trace.CheckDepth(a, depth); err != nil {
		return 0, err
	}
	if err := trace.CheckDepth(b, depth); err != nil {
		return 0, err
	}
	w.seq++
	if isPosition(a) {
		w.rep.Matched++
	}
	ka, kidsA, err := w.ta.keyedChildren(w.ctx, a)
	if err != nil {
		return 0, err
	}
	kb, kidsB, err := w.tb.keyedChildren(w.ctx, b)
	if err != nil {
		return 0, err
	}
	defer w.readAhead(a, b, ka, kb)()
	// The parent's size ratio B/A, against which this pair's growth is
	// measured (growth), and this pair's, against which its children's is.
	parentRatio := -1.0
	if n := len(w.up); n > 0 && a.Kind != engine.KindRoot && w.up[n-1].a.SubtreeSize > 0 {
		parentRatio = float64(w.up[n-1].b.SubtreeSize) / float64(w.up[n-1].a.SubtreeSize)
	}
	ratio := float64(b.SubtreeSize) / float64(max(a.SubtreeSize, 1))
	var maxExPos, maxExNeg int64 // the children's biggest excesses each way
	why := w.why(a, b, ka, kb, kidsA, kidsB)
	w.comparePair(a, b, why)
	w.up = append(w.up, upPair{a, b, why})
	defer func() { w.up = w.up[:len(w.up)-1] }()
	var maxPos, maxNeg int64 // the biggest child differences each way
	note := func(d int64) {
		if d > maxPos {
			maxPos = d
		}
		if -d > maxNeg {
			maxNeg = -d
		}
	}
	i, j := 0, 0
	for i < len(ka) || j < len(kb) {
		c := 0
		switch {
		case i == len(ka):
			c = 1
		case j == len(kb):
			c = -1
		default:
			c = compareKeys(ka[i].K, kb[j].K)
		}
		switch {
		case c == 0:
			w.occ = append(w.occ, visitCount{ka[i].K.Occurrence + 1, max(ka[i].Searches, kb[j].Searches)})
			undo := w.play(ka[i].N.Move)
			d, err := w.pair(ka[i].N, kb[j].N, depth+1)
			undo()
			w.occ = w.occ[:len(w.occ)-1]
			if err != nil {
				return 0, err
			}
			note(d)
			ex := excess(ka[i].N, kb[j].N, ratio)
			maxExPos, maxExNeg = max(maxExPos, ex), max(maxExNeg, -ex)
			i++
			j++
		case c < 0:
			w.occ = append(w.occ, visitCount{ka[i].K.Occurrence + 1, ka[i].Searches})
			w.only(&ka[i].N, nil, a.ID, why)
			w.occ = w.occ[:len(w.occ)-1]
			note(-ka[i].N.SubtreeSize)
			i++
		default:
			w.occ = append(w.occ, visitCount{kb[j].K.Occurrence + 1, kb[j].Searches})
			w.only(nil, &kb[j].N, a.ID, why)
			w.occ = w.occ[:len(w.occ)-1]
			note(kb[j].N.SubtreeSize)
			j++
		}
	}
	diff := b.SubtreeSize - a.SubtreeSize
	// The run node's difference is the totals'; it is not a place.
	if a.Kind != engine.KindRun && ((diff > 0 && 2*maxPos <= diff) || (diff < 0 && 2*maxNeg <= -diff)) {
		w.offer(&a, &b, diff)
	}
	// Growth: where this pair's size departs most from what its parent's
	// ratio predicts, unless one child's departure is most of it (the
	// child is where it starts).
	if parentRatio >= 0 {
		ex := excess(a, b, parentRatio)
		if (ex > 0 && 2*maxExPos <= ex) || (ex < 0 && 2*maxExNeg <= -ex) {
			w.offerGrowth(&a, &b, ex, parentRatio)
		}
	}
	return diff, nil
}

// readAhead plans the reading of the children of a and b that the walk
// pairs (tree.plan), in the order it takes them, when a node is too big to
// be read as one chunk; it returns what stops the read-ahead.
func (w *walker) readAhead(a, b trace.Node, ka, kb []keyed) (stop func()) {
	if a.SubtreeSize <= int64(w.ta.chunk) && b.SubtreeSize <= int64(w.tb.chunk) {
		return func() {}
	}
	var pa, pb []trace.Node
	for i, j := 0, 0; i < len(ka) && j < len(kb); {
		switch c := compareKeys(ka[i].K, kb[j].K); {
		case c == 0:
			pa, pb = append(pa, ka[i].N), append(pb, kb[j].N)
			i++
			j++
		case c < 0:
			i++
		default:
			j++
		}
	}
	stopA, stopB := w.ta.plan(w.ctx, pa), w.tb.plan(w.ctx, pb)
	return func() { stopA(); stopB() }
}

// excess is how many nodes B's subtree has beyond (or short of) A's grown
// by ratio, the parent's B/A.
func excess(a, b trace.Node, ratio float64) int64 {
	return b.SubtreeSize - int64(math.Round(ratio*float64(a.SubtreeSize)))
}

// isPosition reports whether n is a position of the search, which is
// what Matched and Changed count: every node but the run node, which holds
// the run's totals (its root's score, its best move). So Matched + OnlyA is
// A's nodes, and Changed is at most Matched.
func isPosition(n trace.Node) bool { return n.Parent >= 0 }

// only records a subtree that one tree has and the other does not. Its
// place among the differences is when its root was entered; parting
// describes it, seeing both trees at that id.
func (w *walker) only(a, b *trace.Node, parentA int64, why *Why) {
	w.seq++
	var n *trace.Node
	var diff int64
	if a == nil {
		n, diff = b, b.SubtreeSize
		w.rep.OnlyB += n.SubtreeSize
	} else {
		n, diff = a, -a.SubtreeSize
		w.rep.OnlyA += n.SubtreeSize
	}
	ev := event{at: n.ID}
	if w.filtered && a == nil {
		// B's ids are not A's: place it right after its parent in A.
		ev = event{at: parentA, tie: 1}
	}
	w.noteFirst(&diffItem{a: a, b: b, iter: n.Iteration, ev: ev, d: Difference{Why: why}})
	w.offer(a, b, diff)
}

// comparePair records how a matched pair differs, if it does. Most pairs
// after the first difference differ at least in their ids, so the text is
// only written for the few differences the report will show.
func (w *walker) comparePair(a, b trace.Node, why *Why) {
	if !isPosition(a) {
		// The run nodes hold the runs' totals (the table above the
		// differences): they differ whenever anything below does, and
		// would be reported as the first difference, "at (root):
		// depth A 2, B 3", before the subtree only one run has.
		return
	}
	enterDiff := !SameWindow(w.ra, w.rb, a, b) || a.Depth != b.Depth || a.Kind != b.Kind || !SameLevel(a, b)
	changed := !SameScore(w.ra, w.rb, a, b) || a.Bound != b.Bound || a.Cause != b.Cause
	leaveDiff := changed || a.CutIndex != b.CutIndex || a.Best != b.Best || !sameMoves(w.ra, w.rb, a, b) ||
		a.SubtreeSize != b.SubtreeSize
	shifted := a.ID != b.ID && !w.filtered
	if !enterDiff && !leaveDiff && !shifted {
		return
	}
	ev := leaveEvent(a, b)
	switch {
	case w.filtered && enterDiff:
		ev = event{at: a.ID}
	case w.filtered:
		ev = event{at: a.End() - 1, phase: 1, tie: -a.ID}
	case enterDiff || shifted:
		ev = event{at: min(a.ID, b.ID)}
	}
	first := w.first == nil || ev.less(w.first.ev)
	left := leaveEvent(a, b)
	keep := false
	if changed {
		w.rep.Changed++
		keep = w.changed.Len() < w.opts.Changed || left.less(w.changed.s[0].left)
	}
	if !first && !keep {
		return
	}
	it := &diffItem{a: &a, b: &b, iter: a.Iteration, d: describePair(w.ra, w.rb, a, b, !w.filtered), ev: ev, left: left}
	it.d.Why = why
	it.d.IterationVisit, it.d.IterationSearches, it.d.Visits, it.d.Searches = w.visits()
	if first {
		w.first = it
	}
	if keep {
		heap.Push(&w.changed, it)
		if w.changed.Len() > w.opts.Changed {
			heap.Pop(&w.changed)
		}
	}
}

// SameWindow reports whether a's window, on run ra's scale, is b's on
// rb's: each end the same number, or reading the same on the two scales
// (both [-∞, ∞]: one engine's infinity 30000, Horizon's 32000). On one
// scale only ends at or past infinity read the same and differ: a mate's
// text is lossy (a mate in 5 and in 6 plies both print #3), so two of
// Horizon's windows in the mate band that print alike still differ
// (describePair then adds their numbers). comparePair finds the
// differences with it, describePair words them, and the viewer's compare
// mode marks its window column by it, so a pair found to differ always
// says how.
func SameWindow(ra, rb trace.Run, a, b trace.Node) bool {
	fa, fb := ra.WindowScores(a), rb.WindowScores(b)
	return sameOnScales(fa, fb, a.Alpha, b.Alpha) && sameOnScales(fa, fb, a.Beta, b.Beta)
}

// SameLevel reports whether a and b have the same engine QS level, or
// one has none, or both are QS roots: a QS level is a numbering of the
// threshold QS, and a level-based run's QS nodes against another's ("QS
// level A none, B 4") are no difference of the searches. A QS root's
// level is its run's qs-levels, the last pass it may make: its passes
// start at level 0 whatever that is, so two roots of qs-levels 4 and 2
// search alike until one runs out of levels, which their passes (the
// moves searched again, the cause "levels exhausted") show.
func SameLevel(a, b trace.Node) bool {
	return a.QSLevel == b.QSLevel || a.QSLevel < 0 || b.QSLevel < 0 ||
		a.Kind == engine.KindQS && b.Kind == engine.KindQS && a.QSPly == 0 && b.QSPly == 0
}

// SameScore reports whether a's score, on run ra's scale, is b's on rb's,
// by SameWindow's rule: one engine's mate in 3 (its 29995) is Horizon's
// (31995), where the numbers alone differed and diff printed "score A #3,
// B #3". comparePair and describePair share it, and the viewer's compare
// mode marks its score column by it.
func SameScore(ra, rb trace.Run, a, b trace.Node) bool {
	return sameOnScales(ra.NodeScores(a), rb.NodeScores(b), a.Score, b.Score)
}

// sameOnScales reports whether score x in format fa is score y in fb: the
// same number, or the same text on two scales; on one scale only ends at
// or past infinity read the same and are (a mate's text is lossy).
func sameOnScales(fa, fb engine.ScoreFormat, x, y engine.Score) bool {
	if x == y {
		return true
	}
	tx := fa.Text(x)
	return tx == fb.Text(y) && (fa != fb || strings.HasSuffix(tx, "∞"))
}

// sameMoves reports whether a and b have the same move counts, a
// generated count another engine's stream left out (0, "not recorded")
// being no difference from any count; comparePair and describePair
// share it as they share SameWindow.
func sameMoves(ra, rb trace.Run, a, b trace.Node) bool {
	generated := a.Generated == b.Generated || !ra.GeneratedRecorded(a) || !rb.GeneratedRecorded(b)
	return generated && a.Searched == b.Searched && a.SearchedAtLeast == b.SearchedAtLeast
}
