package export

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"sort"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// Counts are what a written graph shows: its shown nodes (Graph.Shown)
// and its summaries.
type Counts struct {
	Shown, Summaries int64
}

// WriteGraph writes the graph of the subtree under top (Build's, with the
// same options) to w as DOT or JSON, byte for byte what Build and
// WriteDOT or WriteJSON write. When the budget shows every node of the
// subtree (and QSOnly is off), the graph is never held: its rows are read
// three times in pre-order (once to count and check them, once for the
// nodes, once more for DOT's edges) and written as they come, so its
// memory does not grow with the subtree (Build held about 2 KB a node:
// 3 GB for 1.4 million). Otherwise it is built in memory, in proportion
// to the budget.
func WriteGraph(ctx context.Context, st trace.Reader, run trace.Run, top trace.Node, opts Options, f Format, w io.Writer) (Counts, error) {
	if f != DOT && f != JSON {
		return Counts{}, fmt.Errorf("export: WriteGraph writes dot or json, not %s", f)
	}
	var g *Graph
	var err error
	if opts.MaxNodes <= 0 {
		opts.MaxNodes = DefaultMaxNodes
	}
	if Streams(top, opts) {
		g, err = planStream(ctx, st, run, top, opts)
	} else {
		g, err = Build(ctx, st, run, top, opts)
	}
	if err != nil {
		return Counts{}, err
	}
	if f == JSON {
		err = g.WriteJSON(w)
	} else {
		err = g.WriteDOT(w)
	}
	return Counts{g.shownCount(), g.summaryCount()}, err
}

// Streams reports whether WriteGraph streams the graph of top with
// opts: when the budget is at least the subtree's node count, every row
// is shown and none waits for its turn.
func Streams(top trace.Node, opts Options) bool {
	if opts.MaxNodes <= 0 {
		opts.MaxNodes = DefaultMaxNodes
	}
	return !opts.QSOnly && int64(opts.MaxNodes) >= top.Nodes()
}

// plan is what the first walk of a streamed graph learns, which the
// writers need before the rows it describes: how many nodes are shown,
// the summaries (a node's summary index comes before its subtree is
// read), and which edges are not the last search of a cut move.
type plan struct {
	ctx    context.Context
	st     trace.Reader
	run    trace.Run
	top    trace.Node
	opts   Options
	rule   trace.MoveRule
	topPos *engine.Position
	topSAN string
	pv     map[int64]bool
	nested map[int64]trace.NestedSearch // the run's: a nested root's label

	shown int64
	// sums are the summaries by their shown node's id, in pre-order.
	sums []ownedSummary
	// notLast holds the shown nodes a later shown sibling shares the move
	// with, where that move is the parent's best and the parent cut
	// (edgeAttrs marks only the last search "cut"): the lastSearches of a
	// streamed graph, for the few edges that ask.
	notLast map[int64]bool
	frames  []frame
}

// ownedSummary is a summary of a streamed graph and its shown node's id.
type ownedSummary struct {
	owner int64
	Summary
}

// frame is an open row of a streaming walk: the row and, for a shown one,
// what its children need.
type frame struct {
	n       trace.Node
	shown   bool
	limited bool // shown at the depth limit: its children are collapsed
	// owner is the index in the walk's frames of the shown frame whose
	// summary counts this row: its nearest shown ancestor (itself when
	// shown); -1 for a row under none, which Build does not count either.
	owner int
	level int
	// The first walk's: the rows nested right under the node (Build's
	// children, checked with trace.CheckChildren when the frame closes) and the
	// last of them whose move is the node's best (-1: none yet).
	kids     []trace.Node
	lastBest int64
	// The writing walks': each distinct move of the children so far, in
	// search order, and how often it came; the node as shown and its
	// position (nil in the edge walk, which needs no SAN).
	moves   []engine.Move
	repeats []int
	node    Node
	pos     *engine.Position
}

// planStream reads the subtree once: it counts the shown nodes, makes the
// summaries and checks every shown node's children as Build does, and
// returns the graph that writes the rest as its rows are read again.
func planStream(ctx context.Context, st trace.Reader, run trace.Run, top trace.Node, opts Options) (*Graph, error) {
	g, tl, err := newGraph(ctx, st, run, top, opts)
	if err != nil {
		return nil, err
	}
	p := &plan{ctx: ctx, st: st, run: run, top: top, opts: g.Options, rule: run.MoveRule(), topPos: tl.pos, notLast: map[int64]bool{}}
	if p.nested, err = st.NestedSearches(ctx, run.ID); err != nil {
		return nil, err
	}
	if ownStep(top) && len(tl.san) > 0 {
		p.topSAN = tl.san[len(tl.san)-1]
	}
	src := &storeSource{ctx: ctx, st: st, run: run, top: top}
	if p.pv, err = pvChain(run, top, src.children); err != nil {
		return nil, err
	}
	sums := map[int64]*Summary{}
	sum := func(id int64) *Summary {
		s := sums[id]
		if s == nil {
			s = &Summary{Parent: -1, MaxQSPly: -1}
			sums[id] = s
		}
		return s
	}
	w := newWalker(tl.nodes)
	err = p.walk(func(f, parent *frame) error {
		qs, qsPly, _ := w.visit(f.n)
		if parent != nil && parent.shown {
			parent.kids = append(parent.kids, f.n)
			if f.shown && parent.n.Cause == engine.CauseBeta && f.n.Move == parent.n.Best {
				if parent.lastBest >= 0 {
					p.notLast[parent.lastBest] = true
				}
				parent.lastBest = f.n.ID
			}
		}
		if f.shown {
			if f.n.Kind != engine.KindRun {
				p.shown++
			}
			return nil
		}
		if f.owner < 0 {
			return nil
		}
		s := sum(p.frames[f.owner].n.ID)
		s.Rows++
		if qs {
			s.QSRows++
			s.MaxQSPly = max(s.MaxQSPly, qsPly)
		}
		return nil
	}, func(f *frame) error {
		if !f.shown || f.n.SubtreeSize <= 1 {
			return nil
		}
		if err := trace.CheckChildren(f.n, f.kids); err != nil {
			return err
		}
		if f.limited {
			if len(f.kids) > 0 {
				s := sum(f.n.ID)
				s.Children = len(f.kids)
				s.Nodes = f.n.SubtreeSize - 1
				s.DepthLimit = true
			}
			return nil
		}
		if missing := trace.Unrecorded(f.n, f.kids); missing > 0 {
			s := sum(f.n.ID)
			s.Nodes += missing
			s.Unrecorded += missing
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for id, s := range sums {
		p.sums = append(p.sums, ownedSummary{id, *s})
	}
	sort.Slice(p.sums, func(i, j int) bool { return p.sums[i].owner < p.sums[j].owner })
	g.plan = p
	return g, nil
}

// walk streams the top node's subtree in pre-order and nests its rows as
// Build's in-memory source does (each row under the nearest open row whose
// id range holds it): open is called for each row with its frame and its
// parent's (nil for the top), close for each frame when the rows of its
// range have gone by.
func (p *plan) walk(open func(f, parent *frame) error, close func(f *frame) error) error {
	p.frames = p.frames[:0]
	var rows int
	err := p.st.Subtree(p.ctx, p.run.ID, p.top.ID, -1, func(n trace.Node) error {
		if rows++; rows%ctxRows == 0 {
			if err := p.ctx.Err(); err != nil {
				return err
			}
		}
		for len(p.frames) > 0 && p.frames[len(p.frames)-1].n.End() <= n.ID {
			if err := close(&p.frames[len(p.frames)-1]); err != nil {
				return err
			}
			p.frames = p.frames[:len(p.frames)-1]
		}
		if len(p.frames) < cap(p.frames) {
			p.frames = p.frames[:len(p.frames)+1]
		} else {
			p.frames = append(p.frames, frame{})
		}
		f := &p.frames[len(p.frames)-1]
		*f = frame{n: n, owner: -1, lastBest: -1, kids: f.kids[:0], moves: f.moves[:0], repeats: f.repeats[:0]}
		var parent *frame
		if len(p.frames) > 1 {
			parent = &p.frames[len(p.frames)-2]
		}
		switch {
		case parent == nil:
			f.shown = rows == 1 // the top; a row outside it (a damaged file's) is under none
		case parent.shown && !parent.limited:
			f.shown, f.level = true, parent.level+1
		}
		if f.shown {
			f.limited = p.opts.Depth >= 0 && f.level >= p.opts.Depth
			f.owner = len(p.frames) - 1
		} else if parent != nil {
			f.owner = parent.owner
		}
		return open(f, parent)
	})
	if err != nil {
		return err
	}
	for len(p.frames) > 0 {
		if err := close(&p.frames[len(p.frames)-1]); err != nil {
			return err
		}
		p.frames = p.frames[:len(p.frames)-1]
	}
	return nil
}

// walkShown walks the subtree again and calls fn for each shown node with
// its parent's frame (nil for the top) and its own, whose node is filled
// in as Build fills Graph.Nodes' (its Parent aside): with its SAN and
// position when san is set.
func (p *plan) walkShown(san bool, fn func(parent, f *frame) error) error {
	next := 0 // the next summary, in pre-order
	return p.walk(func(f, parent *frame) error {
		if !f.shown {
			return nil
		}
		nd := Node{Node: f.n, Parent: -1, PV: p.pv[f.n.ID], Level: f.level, Summary: -1}
		for next < len(p.sums) && p.sums[next].owner < f.n.ID {
			next++ // a damaged file's summary of no shown row; not reached on a sound one
		}
		if next < len(p.sums) && p.sums[next].owner == f.n.ID {
			nd.Summary = next
			next++
		}
		if parent == nil {
			nd.SAN, f.pos = p.topSAN, p.topPos
		} else {
			order := -1
			for i, m := range parent.moves {
				if m == f.n.Move {
					order = i
					break
				}
			}
			if order < 0 {
				parent.moves = append(parent.moves, f.n.Move)
				parent.repeats = append(parent.repeats, 0)
				order = len(parent.moves) - 1
			}
			nd.Order, nd.Repeat = order+1, parent.repeats[order]
			parent.repeats[order]++
			nd.Parent = 0 // a shown parent; its index is not kept
			if san {
				pos := parent.pos.CopyLean()
				if m := f.n.Move; m != engine.NoMove {
					if !p.rule.Playable(parent.pos, m) {
						return fmt.Errorf("run %d: node %d: move %s is not legal in %s: %w",
							p.run.ID, f.n.ID, m.UCI(), parent.pos.FEN(), trace.ErrCorrupt)
					}
					nd.SAN = parent.pos.SAN(m)
					pos.MakeMove(m)
				} else if trace.IsNested(f.n) {
					nd.SAN = trace.NestedText(p.nested[f.n.ID]) // as Build labels it
				}
				f.pos = pos
			}
		}
		f.node = nd
		return fn(parent, f)
	}, func(*frame) error { return nil })
}

// writeStreamJSON writes a streamed graph's JSON: WriteJSON's bytes.
func (g *Graph) writeStreamJSON(w io.Writer) error {
	p := g.plan
	jw, err := g.jsonHead(w)
	if err != nil {
		return err
	}
	err = p.walkShown(true, func(parent, f *frame) error {
		id := f.n.Parent
		if parent != nil {
			id = parent.n.ID
		}
		return jw.item(g.jsonNode(f.node, id))
	})
	if err != nil {
		return err
	}
	jw.summaries()
	for i := range p.sums {
		if err := jw.item(jsonSummaryOf(p.sums[i].owner, &p.sums[i].Summary)); err != nil {
			return err
		}
	}
	return jw.end()
}

// writeStreamDOT writes a streamed graph's DOT: WriteDOT's bytes.
func (g *Graph) writeStreamDOT(w io.Writer) error {
	p := g.plan
	bw := bufio.NewWriterSize(w, 64<<10)
	pr := func(format string, a ...any) { fmt.Fprintf(bw, format, a...) }
	g.dotHead(pr)
	words := g.Run.EvalWords()
	err := p.walkShown(true, func(_, f *frame) error {
		g.dotNode(pr, &f.node, words)
		return nil
	})
	if err != nil {
		return err
	}
	for i := range p.sums {
		dotSummary(pr, p.sums[i].owner, &p.sums[i].Summary)
	}
	err = p.walkShown(false, func(parent, f *frame) error {
		if parent != nil {
			g.dotEdge(pr, &parent.node, &f.node, !p.notLast[f.n.ID])
		}
		return nil
	})
	if err != nil {
		return err
	}
	for i := range p.sums {
		dotSummaryEdge(pr, p.sums[i].owner)
	}
	pr("}\n")
	return bw.Flush()
}
