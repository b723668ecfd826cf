package viewer

import (
	"errors"
	"fmt"

	"github.com/horizonqs/horizon/compare"
	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// Compare mode shows two runs side by side. The focused pane leads: after
// every move of its cursor the other pane follows the same move path, as
// package compare lines nodes up (same iteration, same moves, and where a
// move appears several times among one node's children, as in PVS
// re-searches and the unified and threshold variants, the same
// occurrence). Along that path the children of each pair of nodes are
// aligned, and the fields in which a row differs from its counterpart are
// highlighted; a row the other run does not have is flagged.

// aligned is the child alignment of one pair of nodes, both ways.
type aligned struct {
	other map[[2]int64]trace.Node // (run, child id) -> the other run's child
	have  map[[2]int64]bool       // (run, child id) of every child of the pair
	key   map[[2]int64]compare.Key
	// visits counts each run's children by iteration and move (a key
	// with no occurrence), so that a later visit the other run lacks is
	// told from a move it never searched.
	visits map[visitKey]int
}

type visitKey struct {
	run int64
	key compare.Key
}

type cmpState int

const (
	cmpNone    cmpState = iota // not comparable (off the followed path)
	cmpFound                   // the other run has this node
	cmpMissing                 // the other run has no such child
)

// side turns a pane into a compare.Side.
func (m *Model) side(p *pane) compare.Side {
	return compare.Side{Store: m.src, Run: p.t.run.ID}
}

// align aligns the children of node a of pane pa with those of node b of
// pane pb, cached for the current followed path.
func (m *Model) align(pa *pane, a int64, pb *pane, b int64) (*aligned, error) {
	key := [4]int64{pa.t.run.ID, a, pb.t.run.ID, b}
	if x, ok := m.alignCache[key]; ok {
		return x, nil
	}
	pairs, err := compare.AlignChildren(m.ctx, m.side(pa), a, m.side(pb), b)
	if err != nil {
		return nil, err
	}
	x := &aligned{other: map[[2]int64]trace.Node{}, have: map[[2]int64]bool{}, key: map[[2]int64]compare.Key{}, visits: map[visitKey]int{}}
	ra, rb := pa.t.run.ID, pb.t.run.ID
	for _, p := range pairs {
		k := p.Key
		k.Occurrence = 0
		for _, s := range []struct {
			run int64
			n   *trace.Node
		}{{ra, p.A}, {rb, p.B}} {
			if s.n != nil {
				x.have[[2]int64{s.run, s.n.ID}] = true
				x.key[[2]int64{s.run, s.n.ID}] = p.Key
				x.visits[visitKey{s.run, k}]++
			}
		}
		if p.A != nil && p.B != nil {
			x.other[[2]int64{ra, p.A.ID}] = *p.B
			x.other[[2]int64{rb, p.B.ID}] = *p.A
		}
	}
	if m.alignCache == nil || len(m.alignCache) > 256 {
		m.alignCache = map[[4]int64]*aligned{}
	}
	m.alignCache[key] = x
	m.alignCache[[4]int64{rb, b, ra, a}] = x
	return x, nil
}

// counterpart finds the other run's node for row r (node n) of pane p.
func (m *Model) counterpart(p *pane, r ref, n trace.Node) (trace.Node, cmpState) {
	if len(m.panes) < 2 {
		return trace.Node{}, cmpNone
	}
	o := m.other(p)
	if r.isRun() {
		return o.t.runNode, cmpFound
	}
	if r.isSummary() {
		return trace.Node{}, cmpNone
	}
	op, ok := p.partner[r.parent.node.ID]
	if !ok {
		return trace.Node{}, cmpNone
	}
	x, err := m.align(p, r.parent.node.ID, o, op)
	if err != nil {
		return trace.Node{}, cmpNone
	}
	k := [2]int64{p.t.run.ID, n.ID}
	if c, ok := x.other[k]; ok {
		return c, cmpFound
	}
	if x.have[k] {
		return trace.Node{}, cmpMissing
	}
	return trace.Node{}, cmpNone
}

func (m *Model) other(p *pane) *pane {
	if m.panes[0] == p {
		return m.panes[1]
	}
	return m.panes[0]
}

// follow makes the other pane select the node that lines up with the
// focused pane's selection, opening the path to it; where the other run
// has no such node it stops at the deepest one it has.
func (m *Model) follow() error {
	if len(m.panes) < 2 {
		return nil
	}
	lead := m.cur()
	fol := m.other(lead)
	lead.partner, fol.partner = map[int64]int64{}, map[int64]int64{}
	// Either pane may have lost its way while it followed: after Tab the
	// one that lost it leads, and its old note is no longer true.
	lead.lost, fol.lost = "", ""
	if lead.sel == nil || lead.sel.err != nil || len(lead.sel.path) == 0 {
		return nil
	}
	path := lead.sel.path
	fpath := []trace.Node{fol.t.runNode}
	lead.partner[path[0].ID], fol.partner[fol.t.runNode.ID] = fol.t.runNode.ID, path[0].ID
	for i := 1; i < len(path); i++ {
		x, err := m.align(lead, path[i-1].ID, fol, fpath[len(fpath)-1].ID)
		if err != nil {
			return err
		}
		c, ok := x.other[[2]int64{lead.t.run.ID, path[i].ID}]
		if !ok {
			fol.lost = m.lostText(lead, fol, i, x)
			break
		}
		fpath = append(fpath, c)
		lead.partner[path[i].ID], fol.partner[c.ID] = c.ID, path[i].ID
	}
	err := fol.t.revealPath(fpath)
	var he hiddenError
	if errors.As(err, &he) {
		if err = fol.t.setFilter(filter{}); err == nil {
			err = fol.t.revealPath(fpath)
		}
	}
	return err
}

// lostText says why the following pane has no counterpart of the lead's
// path[i], x being the alignment of its parent's children: the other run
// never searched that iteration or move there, or searched it fewer times
// (an aspiration window's or a PVS re-search the other run did not make).
func (m *Model) lostText(lead, fol *pane, i int, x *aligned) string {
	n := lead.sel.path[i]
	k := x.key[[2]int64{lead.t.run.ID, n.ID}]
	visit := engine.Ordinal(k.Occurrence + 1)
	k.Occurrence = 0
	times := x.visits[visitKey{fol.t.run.ID, k}]
	if k.Nested != "" {
		// A nested search's root (IID, a singular test): known by its mark.
		if times > 0 {
			return fmt.Sprintf("the other run made the %s search here %s; this is its %s (node %d)", k.Nested, engine.Times(times), visit, n.ID)
		}
		return fmt.Sprintf("the other run made no %s search here (node %d)", k.Nested, n.ID)
	}
	if n.Move == engine.NoMove {
		if times > 0 {
			return fmt.Sprintf("the other run searched iteration %d %s; this is its %s search", n.Iteration, engine.Times(times), visit)
		}
		return fmt.Sprintf("the other run has no iteration %d", n.Iteration)
	}
	mv := n.Move.UCI()
	if k := m.sanIndex(lead.sel, i); k >= 0 {
		mv = lead.sel.san[k]
	}
	if times > 0 {
		return fmt.Sprintf("the other run searched %s here %s; this is its %s search (node %d)", mv, engine.Times(times), visit, n.ID)
	}
	return fmt.Sprintf("the other run did not search %s here (node %d)", mv, n.ID)
}

// compareLines describe the other run's counterpart of p's selection.
func (m *Model) compareLines(p *pane) []detailLine {
	o := m.other(p)
	st := m.st
	label := fmt.Sprintf("run %d", o.t.run.ID)
	if p.lost != "" {
		return []detailLine{{label, p.lost, st.missing}}
	}
	if o.lost != "" && p == m.cur() {
		return []detailLine{{label, o.lost, st.missing}}
	}
	n := p.sel.node
	id, ok := p.partner[n.ID]
	if !ok {
		return nil
	}
	c, err := o.t.src.Node(o.t.ctx, o.t.run.ID, id)
	if err != nil {
		return []detailLine{{label, shortErr(err), st.errMsg}}
	}
	d := diffNodes(p.t.run, o.t.run, n, c)
	text := fmt.Sprintf("node %d  %s  %s  %s", c.ID, m.g.fmtResult(o.t.run.NodeScores(c), c), m.g.causeLabel(c), engine.Count(c.Nodes(), "node"))
	if n.Nodes() > 0 && c.Nodes() != n.Nodes() {
		text += " (" + engine.PercentChange(float64(n.Nodes()), float64(c.Nodes())) + ")"
	}
	sty := st.base
	if d != 0 {
		sty = st.diff
		text += "  differs"
	} else {
		text += "  same"
	}
	return []detailLine{{label, text, sty}}
}

// startCompare opens run id beside the focused pane.
func (m *Model) startCompare(id int64) error {
	t, err := m.compareTree(m.cur(), id)
	if err != nil {
		return err
	}
	m.panes = []*pane{m.cur(), {t: t}}
	m.focus = 0
	dropSel(m.panes[0].sel)
	m.panes[0].sel = nil // make afterChange follow
	m.alignCache = nil
	m.setMsg("comparing run %d with run %d: the right pane follows (tab switches)", m.panes[0].t.run.ID, id)
	return nil
}

// compareTree opens run id to be shown beside pane p (compare mode, or R
// while comparing): another run of p's position, sorted and filtered as p
// is. A run compared with itself, or with a run of another position, is
// refused, the panes kept as they are.
func (m *Model) compareTree(p *pane, id int64) (*tree, error) {
	a := m.side(p)
	if id == a.Run {
		return nil, fmt.Errorf("run %d is already in the other pane: pick another run (= ends compare mode)", id)
	}
	t, err := newTree(m.ctx, m.src, id)
	if err != nil {
		return nil, err
	}
	if err := compare.SamePosition(m.ctx, a, compare.Side{Store: a.Store, Run: id}); err != nil {
		if errors.Is(err, compare.ErrDifferentPositions) {
			// The reason first and short: the status line is one line, and
			// the FENs the error spells out would push it off screen.
			return nil, fmt.Errorf("cannot compare run %d with run %d: different root positions (R lists each run's position); still on run %d",
				a.Run, id, m.cur().t.run.ID)
		}
		return nil, fmt.Errorf("cannot compare run %d with run %d: %w", a.Run, id, err)
	}
	order, filt := p.t.order, p.t.filt
	if filt.active() || order != trace.BySearch {
		if err := t.rebuild(func() { t.order, t.filt = order, filt }); err != nil {
			return nil, err
		}
	}
	return t, nil
}
