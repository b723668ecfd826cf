package viewer

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// Navigation: the actions of the tree's keys that move the cursor, open
// and close nodes, and go to a node by path, id or move.

// pageRows is how far a screen key moves: the tree's height less one row
// kept in view.
func (m *Model) pageRows() int { return max(m.cur().t.height-1, 1) }

func (m *Model) moveCursor(by int) {
	t := m.cur().t
	t.setCursor(t.cursor + by)
}

// page scrolls a screen by dir and moves the cursor with it.
func (m *Model) page(dir int) {
	t := m.cur().t
	t.scroll(dir * m.pageRows())
	t.setCursor(t.cursor + dir*m.pageRows())
}

// openOrDescend opens the selected node, or enters it when it is open.
func (m *Model) openOrDescend() { m.openClose(true, false) }

// closeOrAscend closes the selected node, or goes to its parent.
func (m *Model) closeOrAscend() { m.openClose(false, true) }

// toggle opens or closes the selected node.
func (m *Model) toggle() { m.openClose(true, true) }

// openClose is the one rule of l, h and enter: enter toggles, l opens (or
// enters a node already open), h closes (or goes up from a closed one).
func (m *Model) openClose(canOpen, canClose bool) {
	t := m.cur().t
	r, n, err := t.selected()
	if err != nil {
		m.setErr(err)
		return
	}
	if r.isSummary() {
		switch {
		case canOpen && canClose:
			m.setMsg("%d children hidden by the filters (m, Q, ! change them)", r.parent.hidden)
		case canClose:
			m.toParent()
		}
		return
	}
	if e, ok := t.open[n.ID]; ok {
		if canClose {
			t.collapse(e)
			t.setCursor(t.rowOf0(r))
		} else if e.rows > 0 {
			t.setCursor(t.cursor + 1)
		}
		return
	}
	if !canOpen {
		m.toParent()
		return
	}
	if n.SubtreeSize <= 1 {
		m.setMsg("node %d is a leaf", n.ID)
		return
	}
	m.setErr(t.expandRow(t.cursor))
}

// rowOf0 returns the row of a ref after the tree changed below it.
func (t *tree) rowOf0(r ref) int {
	if r.isRun() {
		return 0
	}
	return t.rowOfChild(r.parent, r.i)
}

func (m *Model) toParent() {
	t := m.cur().t
	r, ok := t.locate(t.cursor)
	if !ok || r.isRun() {
		return
	}
	t.setCursor(t.rowOf(r.parent))
}

// heaviest follows the biggest child down from the selected node.
func (m *Model) heaviest() error {
	t := m.cur().t
	_, n, err := t.selected()
	if err != nil {
		return err
	}
	start := n
	steps := 0
	for n.SubtreeSize > 1 && steps < 1000 {
		kids, err := t.children(n.ID, trace.BySize, 0, 1)
		if err != nil {
			return err
		}
		if len(kids) == 0 {
			break
		}
		n = kids[0]
		steps++
	}
	if steps == 0 {
		m.setMsg("node %d is a leaf", start.ID)
		return nil
	}
	if err := m.reveal(n.ID); err != nil {
		return err
	}
	if m.msg == "" {
		m.setMsg("heaviest line: %d plies down from node %d to node %d", steps, start.ID, n.ID)
	}
	return nil
}

// toPV selects the last node of the last iteration's principal variation.
// Where the PV move was searched twice (a null-window search, then the
// re-search that made it the PV), the later search is the PV node.
func (m *Model) toPV() error {
	t := m.cur().t
	if len(t.run.PV) == 0 {
		return m.toTreePV()
	}
	n := t.runNode
	cnt, err := t.src.ChildCount(t.ctx, t.run.ID, 0)
	if err != nil || cnt == 0 {
		return err
	}
	// The iteration the run reports holds the PV; a stopped run may end
	// with a partial one.
	roots, err := t.children(0, trace.BySearch, 0, 0)
	if err != nil {
		return err
	}
	n = roots[trace.ReportedRoot(t.run, roots)]
	pos, err := engine.ParseFEN(t.run.FEN)
	if err != nil {
		return err
	}
	done := 0
	for _, text := range t.run.PV {
		mv, err := pos.ParseUCI(text)
		if err != nil {
			break
		}
		next, _, ok, err := t.childByMove(n, mv, 0)
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		n = next
		pos.MakeMove(mv)
		done++
	}
	if err := m.reveal(n.ID); err != nil {
		return err
	}
	if m.msg == "" {
		m.setMsg("PV of iteration %d: %d of %d moves found in the tree", n.Iteration, done, len(t.run.PV))
	}
	return nil
}

// toTreePV selects the last node of the principal variation the tree
// holds, for a run that recorded no PV but whose search finished an
// iteration. An abandoned run's row keeps only what the writer commits
// while the search runs (the last finished iteration's depth, best move
// and score); the PV the search returns was never written. The tree has
// it: the search builds its PV from the moves it records as each node's
// best, so the chain of trace.PVChild (the diagrams' PV) from the
// reported iteration's root is the PV of that iteration. A run still
// being recorded has none yet: its readers follow the iteration under way.
func (m *Model) toTreePV() error {
	t := m.cur().t
	if t.run.Status == trace.StatusRunning || t.run.Depth <= 0 || t.run.BestMove == "" {
		m.setMsg("run %d has no principal variation (still running, or no move)", t.run.ID)
		return nil
	}
	n, err := t.src.Node(t.ctx, t.run.ID, 0)
	if err != nil {
		return err
	}
	plies := -1 // the run node is not a ply
	for {
		kids, err := t.children(n.ID, trace.BySearch, 0, 0)
		if err != nil {
			return err
		}
		i := trace.PVChild(t.run, n, kids)
		if i < 0 {
			break
		}
		n = kids[i]
		plies++
	}
	if err := m.reveal(n.ID); err != nil {
		return err
	}
	if m.msg == "" {
		m.setMsg("PV of iteration %d: %d moves, each node's best in the tree (the %s run recorded no PV)", n.Iteration, plies, t.run.Status)
	}
	return nil
}

// childByMove is n's child played with mv: its visit-th search there, or
// with visit 0 the last (trace.ChildByMove); searched says how many times
// mv was searched at n.
func (t *tree) childByMove(n trace.Node, mv engine.Move, visit int) (c trace.Node, searched int, ok bool, err error) {
	kids, err := t.children(n.ID, trace.BySearch, 0, 0)
	if err != nil {
		return n, 0, false, err
	}
	c, searched, ok = trace.ChildByMove(kids, mv, visit)
	return c, searched, ok, nil
}

// childByNested is n's child that is the nested search a path's step
// names ("[iid]", "[singular -e2e4]·2": trace.SplitNestedStep).
func (t *tree) childByNested(n trace.Node, text string) (trace.Node, error) {
	mark, visit, err := trace.SplitNestedStep(text)
	if err != nil {
		return n, err
	}
	kids, err := t.children(n.ID, trace.BySearch, 0, 0)
	if err != nil {
		return n, err
	}
	c, made, ok := trace.ChildByNested(n, kids, t.nested, mark, visit)
	if !ok {
		return n, fmt.Errorf("node %d: %s (%s): %w", n.ID, trace.NestedNotMadeText(made), trace.NestedMarks(n, kids, t.nested), trace.ErrNoMove)
	}
	return c, nil
}

// nextSameMove selects the next sibling played with the same move (the
// unified and threshold variants search a move once per pass).
func (m *Model) nextSameMove() error {
	t := m.cur().t
	r, n, err := t.selected()
	if err != nil || r.isRun() || r.isSummary() {
		return err
	}
	e := r.parent
	for k := 1; k < e.count; k++ {
		i := (r.i + k) % e.count
		c, err := t.child(e, i)
		if err != nil {
			return err
		}
		if c.Move == n.Move {
			t.setCursor(t.rowOfChild(e, i))
			return nil
		}
	}
	m.setMsg("no other child of node %d played %s", e.node.ID, m.moveLabel(t, e.fen, n))
	return nil
}

// runPrompt acts on a typed line.
func (m *Model) runPrompt(k promptKind, text string) {
	text = strings.TrimSpace(text)
	if text == "" {
		return
	}
	p := m.cur()
	t := p.t
	switch k {
	case promptNode:
		id, err := parseCount("node id", text, strings.TrimPrefix(text, "#"))
		if err != nil {
			m.setErr(err)
			return
		}
		m.setErr(m.reveal(id))
	case promptPath:
		from, fen := t.runNode, ""
		plus := strings.HasPrefix(text, "+")
		root, moves, err := trace.ParsePlace(strings.TrimPrefix(text, "+"))
		switch {
		case err != nil:
			m.setErr(fmt.Errorf("path %w", err))
			return
		case plus && root.It != trace.NoIteration:
			m.setErr(fmt.Errorf("path %s: a path from the node (+) names no iteration", text))
			return
		case plus:
			if p.sel == nil || p.sel.err != nil {
				return
			}
			from, fen = p.sel.node, p.sel.fen
		case root.It != trace.NoIteration:
			if from, err = t.iterationRoot(root); err != nil {
				m.setErr(fmt.Errorf("path %s: %w", text, err))
				return
			}
			fen = t.run.FEN
		}
		text = strings.TrimPrefix(text, "+")
		n, err := t.findPath(from, fen, moves)
		if err != nil {
			m.setErr(fmt.Errorf("path %s: %w", text, err))
			if n.ID != from.ID {
				m.reveal(n.ID) // show how far the path went
			}
			return
		}
		m.setErr(m.reveal(n.ID))
	case promptFind:
		m.setErr(m.findChild(text))
	case promptMinSize:
		n, err := parseCount("minimum subtree size", text, strings.TrimSuffix(strings.ToLower(text), "k"))
		if err != nil {
			m.setErr(err)
			return
		}
		if strings.HasSuffix(strings.ToLower(text), "k") {
			if n > math.MaxInt64/1000 {
				m.setErr(fmt.Errorf("minimum subtree size: %q is too large", text))
				return
			}
			n *= 1000
		}
		f := t.filt
		f.minSize = n
		m.applyFilter(f)
	}
}

// parseCount reads digits, a count or node id typed as text: a whole
// number from 0. The error names what the number is for and quotes text.
func parseCount(what, text, digits string) (int64, error) {
	n, err := strconv.ParseInt(digits, 10, 64)
	switch {
	case errors.Is(err, strconv.ErrRange) && !strings.HasPrefix(digits, "-"):
		return 0, fmt.Errorf("%s: %q is too large", what, text)
	case err != nil || n < 0:
		return 0, fmt.Errorf("%s: %q: want a whole number from 0", what, text)
	}
	return n, nil
}

// findChild selects the first visible child of the selected node played
// with the move typed.
func (m *Model) findChild(text string) error {
	p := m.cur()
	t := p.t
	r, n, err := t.selected()
	if err != nil {
		return err
	}
	if r.isSummary() || p.sel == nil || p.sel.pos == nil {
		return nil
	}
	mv, err := p.sel.pos.ParseTreeMove(text)
	if err != nil {
		return err
	}
	if n.SubtreeSize <= 1 {
		return fmt.Errorf("node %d is a leaf", n.ID)
	}
	if err := t.expandRow(t.cursor); err != nil {
		return err
	}
	e := t.open[n.ID]
	for i := 0; i < e.count; i++ {
		c, err := t.child(e, i)
		if err != nil {
			return err
		}
		if c.Move == mv {
			t.setCursor(t.rowOfChild(e, i))
			return nil
		}
	}
	if e.hidden > 0 {
		return fmt.Errorf("no shown child of node %d played %s (%d hidden by filters)", n.ID, text, e.hidden)
	}
	return fmt.Errorf("no child of node %d played %s: %w", n.ID, text, trace.ErrNoMove)
}

func (m *Model) applyFilter(f filter) {
	for _, q := range m.panes {
		if err := q.t.setFilter(f); err != nil {
			m.setErr(err)
			return
		}
	}
	if l := m.filterLabel(f); l != "" {
		m.setMsg("showing %s", l)
	} else {
		m.setMsg("filters off")
	}
}

// toggleOrder sorts the children of every pane by subtree size, or back
// in search order.
func (m *Model) toggleOrder() {
	o := trace.BySize
	if m.cur().t.order == trace.BySize {
		o = trace.BySearch
	}
	for _, q := range m.panes {
		if err := q.t.setOrder(o); err != nil {
			m.setErr(err)
			return
		}
	}
	if o == trace.BySize {
		m.setMsg("children sorted by subtree size")
	} else {
		m.setMsg("children in search order")
	}
}

func (m *Model) copyFEN() {
	if p := m.cur(); p.sel != nil {
		m.clip = []byte(p.sel.fen)
		m.setMsg("FEN copied (if the terminal allows OSC 52): %s", p.sel.fen)
	}
}

// reload re-reads the file: a trace still being recorded grows.
func (m *Model) reload() error {
	runs, err := m.src.Runs(m.ctx)
	if err != nil {
		return err
	}
	m.runs = runs
	// Compare mode's alignments were of the children read before: a run
	// being recorded has more now, and a later search of a move marks the
	// first in a hotspot's path (trace.VisitMark).
	m.alignCache, m.hotPaths = nil, nil
	for _, p := range m.panes {
		if err := p.t.load(p.t.run.ID); err != nil {
			return err
		}
		if err := p.t.rebuild(nil); err != nil {
			return err
		}
		dropSel(p.sel)
		p.hot, p.hotGr, p.sel = nil, nil, nil
		p.hotGen++
	}
	t := m.cur().t
	if stillOpen(t.runNode) {
		// The run node is the recorder's stand-in: its size counts the
		// rows written so far, not the run.
		m.setMsg("reloaded: run %d %s, still being recorded: %s rows so far (r again shows more)",
			t.run.ID, t.run.Status, engine.Commas(t.runNode.SubtreeSize))
		return nil
	}
	// The header's figures, not the file's rows.
	nodes := closedRunNodes(t.run, t.runNode)
	m.setMsg("reloaded: run %d %s, %s%s", t.run.ID, t.run.Status, engine.Count(nodes, "node"), recordedNote(t.run, nodes))
	return nil
}
