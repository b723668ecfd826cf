// Package explain says why a subtree of a recorded search is as big as it
// is: each node counted under the first cause met on the way down from the
// subtree's top (engine.Reason: a losing capture, a futile capture, an
// underpromotion, a quiet check, an evasion, a late cutoff, a re-search, a
// transposition, an extension, or none of them), and the subtree's shape
// (nodes and branching per ply and per QS ply, its QS trees, and whether
// its mass is deep or broad). It reads traces through trace's API alone and
// replays the positions from the run's FEN along the moves, as the run's
// move rule says (another engine's pseudo-legal moves too).
//
// WhatIf re-searches a subtree's position with Horizon's own engine.
package explain

import (
	"context"
	"fmt"
	"slices"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// Verdicts of a subtree's shape (Shape.Verdict).
const (
	// VerdictDeep: one QS tree holds at least half of the subtree's QS
	// nodes: the growth is one explosion, to be looked at where it is.
	VerdictDeep = "deep"
	// VerdictBroad: no QS tree holds half of the subtree's QS nodes: the
	// growth is spread over many trees, a rule that costs a little
	// everywhere (move ordering, a QS move set), not one position.
	VerdictBroad = "broad"
	// VerdictNoQS: the subtree has no QS node.
	VerdictNoQS = "none"
)

// VerdictText defines the verdicts, for help texts and docs.
const VerdictText = `deep when one QS tree holds at least half of the subtree's QS nodes (one explosion), broad when none does (the QS nodes are spread over many trees), none when the subtree has no QS node`

// Verdict is the verdict of a subtree (or a run) whose biggest QS tree
// holds biggest of its qsNodes QS nodes: the one rule explain and hotspots
// judge by.
func Verdict(biggest, qsNodes int64) string {
	switch {
	case qsNodes <= 0:
		return VerdictNoQS
	case 2*biggest >= qsNodes:
		return VerdictDeep
	}
	return VerdictBroad
}

// Level counts the nodes at one level of a subtree: a ply below its top,
// or a QS ply (distance from the QS root).
type Level struct {
	Ply   int
	Nodes int64
	// Branching is Nodes over the level above's nodes; 0 at the first
	// level.
	Branching float64
}

// Shape is how a subtree's nodes lie.
type Shape struct {
	// Plies counts the nodes by plies below the top (0: the top; under
	// the run node, 0 is the iterations' roots), for a full-width top; nil
	// when the top is a QS node (QSPlies says it all).
	Plies []Level
	// QSPlies counts the QS nodes by QS ply, over every QS tree of the
	// subtree (0: the QS roots).
	QSPlies  []Level
	MaxQSPly int
	QSNodes  int64
	// QSTrees counts the QS trees (QS roots, or the top when it is a QS
	// node below its root); BiggestQSTree is the biggest's top (-1 when
	// none), BiggestQSNodes its nodes and BiggestQSShare their share of
	// the subtree's nodes.
	QSTrees        int64
	BiggestQSTree  int64
	BiggestQSNodes int64
	BiggestQSShare float64
	Verdict        string // VerdictDeep, VerdictBroad or VerdictNoQS (see Verdict)
}

// Cause is the nodes of a subtree counted under one reason.
type Cause struct {
	Reason engine.Reason
	Nodes  int64
	Share  float64 // Nodes over the subtree's nodes: the shares add up to 1
	// Example is the node where the reason was met with the biggest
	// subtree (the move with the reason leads into it), ExampleNodes its
	// subtree's size and Place its place, which export --path and view
	// --path read back (trace.Place). -1 for ReasonNecessary, which is
	// met nowhere.
	Example      int64
	ExampleNodes int64
	Place        string
}

// Subtree is one subtree explained.
type Subtree struct {
	Top   trace.Node
	Place string // the top's place (trace.Place)
	// Nodes counts the subtree's rows read (the top included; the run
	// node, no position, left out): Node.Nodes when every node was kept.
	Nodes int64
	Shape Shape
	// Causes, biggest first (ties in the reasons' order); reasons with no
	// node are left out.
	Causes []Cause
}

// Explain walks the subtree of top, a node of run r, in pre-order (one
// stream of rows, memory bounded by the tree's depth and a fixed-size
// table of positions) and counts its nodes by cause. Each node below the
// top is counted once, under the first reason met on the way down from
// the top: a move with a reason gives it to its whole subtree. The top's
// own move is not judged (it is why the subtree is there, not what is in
// it): the top counts as necessary.
func Explain(ctx context.Context, st trace.Reader, r trace.Run, top trace.Node) (*Subtree, error) {
	res, err := Count(ctx, st, r, top)
	if err != nil {
		return nil, err
	}
	if res.Place, err = trace.Place(ctx, st, r.ID, top.ID); err != nil {
		return nil, err
	}
	for i := range res.Causes {
		c := &res.Causes[i]
		if c.Example < 0 {
			continue
		}
		if c.Place, err = trace.Place(ctx, st, r.ID, c.Example); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// Count is Explain without the places (Subtree.Place and each Cause's
// Place left empty): the walk alone, for a caller that prints no place,
// such as hotspots' top cause, where the places' path queries cost more
// than the walk of a small subtree.
func Count(ctx context.Context, st trace.Reader, r trace.Run, top trace.Node) (*Subtree, error) {
	return CountAt(ctx, st, r, top, nil)
}

// CountAt is Count with top's position as the caller has it (nil: read
// it, Reader.Position), for a caller that read top's path already.
func CountAt(ctx context.Context, st trace.Reader, r trace.Run, top trace.Node, pos *engine.Position) (*Subtree, error) {
	w, err := newWalkerAt(ctx, st, r, top, top.SubtreeSize, pos)
	if err != nil {
		return nil, err
	}
	if err := st.Subtree(ctx, r.ID, top.ID, -1, w.visit); err != nil {
		return nil, err
	}
	return w.result(), nil
}

// frame is an open node of the walk: the top, or a node whose subtree the
// stream is in.
type frame struct {
	n      trace.Node
	made   bool          // a move was made on the board to reach it
	hasPos bool          // the board is the node's position
	reason engine.Reason // met on the way down (ReasonNecessary: none yet)
	alpha  engine.Score  // the node's alpha as its next move sees it
	moves  []engine.Move // the moves it searched so far
	key    uint64
	level  int // plies below the top
}

type walker struct {
	r      trace.Run
	opts   *engine.Options // nil for another engine's run
	rule   trace.MoveRule
	margin int
	pos    *engine.Position
	stack  []frame
	seen   *seenTable
	each   func(trace.Node, engine.Reason) error // Each's callback, nil for Explain

	// watch is a node whose own reason MoveReason wants: watched
	// takes it when the walk judges it.
	watch   int64
	watched engine.Reason

	top     trace.Node
	rows    int64
	counts  [engine.NumReasons]int64
	example [engine.NumReasons]trace.Node
	plies   []int64
	qsPlies []int64
	qs      int64
	trees   int64
	biggest trace.Node
	maxQS   int
}

// newWalker makes a walk of top's subtree, of about rows rows (the table
// of positions is sized by it).
func newWalker(ctx context.Context, st trace.Reader, r trace.Run, top trace.Node, rows int64) (*walker, error) {
	return newWalkerAt(ctx, st, r, top, rows, nil)
}

// newWalkerAt is newWalker with top's position pos, or nil to read it.
func newWalkerAt(ctx context.Context, st trace.Reader, r trace.Run, top trace.Node, rows int64, pos *engine.Position) (*walker, error) {
	opts, err := r.SearchOptions()
	if err != nil {
		return nil, err
	}
	if pos == nil {
		if pos, err = st.Position(ctx, r.ID, top.ID); err != nil {
			return nil, err
		}
	}
	w := &walker{watch: -1, watched: engine.ReasonNecessary, r: r, opts: opts, rule: r.MoveRule(), margin: engine.DefaultDeltaMargin, pos: pos, top: top,
		seen: newSeenTable(rows), biggest: trace.Node{ID: -1}}
	if opts != nil {
		w.margin = opts.DeltaMargin
	}
	for i := range w.example {
		w.example[i].ID = -1
	}
	return w, nil
}

// visit takes the stream's next row.
func (w *walker) visit(n trace.Node) error {
	if len(w.stack) == 0 {
		w.enter(n, frame{n: n, hasPos: true, reason: engine.ReasonNecessary}, nil)
		return nil
	}
	// Leave the nodes whose subtree n is not in.
	for len(w.stack) > 1 && !w.stack[len(w.stack)-1].n.Contains(n.ID) {
		w.pop()
	}
	parent := &w.stack[len(w.stack)-1]
	f := frame{n: n, reason: parent.reason, level: parent.level + 1}
	// A recording filter may leave the parent out: the board is then
	// not known below it.
	direct := parent.n.ID == n.Parent
	if direct && parent.hasPos {
		f.hasPos = true
		if n.Move != engine.NoMove {
			if !w.rule.Playable(w.pos, n.Move) {
				return fmt.Errorf("run %d: node %d: move %s is not legal in %s: %w", w.r.ID, n.ID, n.Move.UCI(), w.pos.FEN(), trace.ErrCorrupt)
			}
		}
	}
	own := engine.ReasonNecessary
	if direct {
		own = w.judge(parent, &f)
	}
	if w.each != nil {
		if err := w.each(n, own); err != nil {
			return err
		}
	}
	if n.ID == w.watch {
		w.watched = own
	}
	if f.reason == engine.ReasonNecessary && own != engine.ReasonNecessary {
		f.reason = own
		if ex := &w.example[own]; ex.ID < 0 || n.SubtreeSize > ex.SubtreeSize {
			*ex = n
		}
	}
	w.enter(n, f, parent)
	return nil
}

// judge makes n's move on the board and returns its reason, the first
// in the table's order; it raises the parent's alpha by n's score.
func (w *walker) judge(parent *frame, f *frame) engine.Reason {
	n, p := f.n, parent.n
	own := engine.ReasonNecessary
	if f.hasPos && p.Kind == engine.KindQS {
		evasions := p.InCheck && !p.HasStandPat
		if w.opts != nil {
			evasions = w.opts.Evades(p.InCheck)
		}
		own = w.pos.QSMoveReason(n.Move, engine.QSMove{Evasions: evasions, HasEval: p.HasStandPat && !evasions,
			Eval: p.StandPat, Alpha: parent.alpha, Margin: w.margin})
	}
	if own == engine.ReasonNecessary && p.CutIndex >= 0 && p.Best != engine.NoMove && p.Bound == engine.BoundLower && n.Move != p.Best {
		own = engine.ReasonLateCutoff
	}
	if own == engine.ReasonNecessary && n.Move != engine.NoMove && slices.Contains(parent.moves, n.Move) {
		own = engine.ReasonReSearch
	}
	parent.moves = append(parent.moves, n.Move)
	if f.hasPos && n.Move != engine.NoMove {
		w.pos.MakeMove(n.Move)
		f.made = true
		f.key = w.pos.Key()
		if own == engine.ReasonNecessary && w.seen.deepest(f.key) >= n.Depth {
			own = engine.ReasonTransposition
		}
	}
	if own == engine.ReasonNecessary && n.Extension > 0 {
		own = engine.ReasonExtension
	}
	// The parent's alpha for its next move: raised by this one's score
	// (fail-soft, from the parent's side).
	if n.Bound != engine.BoundNone && !n.Incomplete {
		sc := -n.Score
		if w.opts != nil && p.HasStandPat {
			sc = w.opts.Penalty(sc, p.StandPat)
		}
		parent.alpha = max(parent.alpha, sc)
	}
	return own
}

// enter counts n and opens its frame.
func (w *walker) enter(n trace.Node, f frame, parent *frame) {
	if n.Parent >= 0 {
		w.rows++
		w.counts[f.reason]++
	}
	f.alpha = n.Alpha
	standsPat := n.HasStandPat
	if w.opts != nil {
		standsPat = n.HasStandPat && w.opts.StandsPat(n.InCheck)
	}
	if n.Kind == engine.KindQS && standsPat {
		f.alpha = max(f.alpha, n.StandPat)
	}
	if f.hasPos && f.key == 0 {
		f.key = w.pos.Key()
	}
	// The shape.
	if n.Parent >= 0 {
		for len(w.plies) <= f.level {
			w.plies = append(w.plies, 0)
		}
		w.plies[f.level]++
	}
	if n.Kind == engine.KindQS {
		w.qs++
		qsPly := n.QSPly
		if w.top.Kind == engine.KindQS {
			qsPly -= w.top.QSPly // the top is the tree's root here
		}
		qsPly = max(qsPly, 0)
		for len(w.qsPlies) <= qsPly {
			w.qsPlies = append(w.qsPlies, 0)
		}
		w.qsPlies[qsPly]++
		w.maxQS = max(w.maxQS, qsPly)
		if parent == nil || parent.n.Kind != engine.KindQS {
			w.trees++
			if n.SubtreeSize > w.biggest.SubtreeSize {
				w.biggest = n
			}
		}
	}
	// Reuse the moves slice a popped frame at this depth left behind.
	if d := len(w.stack); d < cap(w.stack) {
		f.moves = w.stack[:d+1][d].moves[:0]
	}
	w.stack = append(w.stack, f)
}

// pop leaves the innermost open node: its board is taken back and its
// position noted as searched to its depth.
func (w *walker) pop() {
	f := &w.stack[len(w.stack)-1]
	if f.hasPos && !f.n.Incomplete {
		w.seen.note(f.key, f.n.Depth)
	}
	if f.made {
		w.pos.UnmakeMove()
	}
	w.stack = w.stack[:len(w.stack)-1]
}

func (w *walker) result() *Subtree {
	res := &Subtree{Top: w.top, Nodes: w.rows}
	for i, c := range w.counts {
		if c == 0 {
			continue
		}
		r := engine.Reason(i)
		cs := Cause{Reason: r, Nodes: c, Share: float64(c) / float64(max(res.Nodes, 1)), Example: -1}
		if ex := w.example[i]; ex.ID >= 0 && r != engine.ReasonNecessary {
			cs.Example, cs.ExampleNodes = ex.ID, ex.SubtreeSize
		}
		res.Causes = append(res.Causes, cs)
	}
	slices.SortStableFunc(res.Causes, func(a, b Cause) int {
		if a.Nodes != b.Nodes {
			if a.Nodes > b.Nodes {
				return -1
			}
			return 1
		}
		return int(a.Reason) - int(b.Reason)
	})
	sh := &res.Shape
	if w.top.Kind != engine.KindQS {
		plies := w.plies
		if w.top.Parent < 0 && len(plies) > 0 {
			plies = plies[1:] // the run node is no position: ply 0 is the iterations' roots
		}
		sh.Plies = levels(plies)
	}
	sh.QSPlies = levels(w.qsPlies)
	sh.MaxQSPly, sh.QSNodes, sh.QSTrees = w.maxQS, w.qs, w.trees
	sh.BiggestQSTree = w.biggest.ID
	if w.biggest.ID >= 0 {
		sh.BiggestQSNodes = w.biggest.SubtreeSize
		sh.BiggestQSShare = float64(w.biggest.SubtreeSize) / float64(max(res.Nodes, 1))
	}
	sh.Verdict = Verdict(sh.BiggestQSNodes, sh.QSNodes)
	return res
}

// levels turns counts by level into Levels with their branching.
func levels(counts []int64) []Level {
	out := make([]Level, 0, len(counts))
	for i, c := range counts {
		l := Level{Ply: i, Nodes: c}
		if i > 0 && counts[i-1] > 0 {
			l.Branching = float64(c) / float64(counts[i-1])
		}
		out = append(out, l)
	}
	return out
}

// seenTable remembers the positions a walk has searched and the deepest
// depth each was searched to: a fixed-size table, so that memory stays
// bounded whatever the subtree's size. A position pushed out by others
// is forgotten, so a transposition may be missed, never invented.
type seenTable struct {
	keys   []uint64
	depths []int16
	mask   uint64
}

// maxSeen bounds the table: 2^21 slots, 20 MiB.
const maxSeen = 1 << 21

func newSeenTable(nodes int64) *seenTable {
	size := uint64(1024)
	for size < uint64(max(nodes, 0))*2 && size < maxSeen {
		size <<= 1
	}
	return &seenTable{keys: make([]uint64, size), depths: make([]int16, size), mask: size - 1}
}

// probes is how many slots a key may take.
const probes = 4

// deepest is the deepest depth key was searched to; very low when never.
func (t *seenTable) deepest(key uint64) int {
	if key == 0 {
		return -1 << 30
	}
	for i := uint64(0); i < probes; i++ {
		j := (key + i) & t.mask
		if t.keys[j] == key {
			return int(t.depths[j])
		}
		if t.keys[j] == 0 {
			break
		}
	}
	return -1 << 30
}

// note records that key was searched to depth.
func (t *seenTable) note(key uint64, depth int) {
	if key == 0 {
		return
	}
	d := int16(max(min(depth, 1<<14), -(1 << 14)))
	victim := key & t.mask
	for i := uint64(0); i < probes; i++ {
		j := (key + i) & t.mask
		switch {
		case t.keys[j] == key:
			t.depths[j] = max(t.depths[j], d)
			return
		case t.keys[j] == 0:
			t.keys[j], t.depths[j] = key, d
			return
		case t.depths[j] < t.depths[victim]:
			victim = j
		}
	}
	t.keys[victim], t.depths[victim] = key, d
}
