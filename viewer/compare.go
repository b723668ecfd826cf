package viewer

import (
	"errors"
	"fmt"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// Compare mode shows two runs side by side. The focused pane leads: after
// every move of its cursor the other pane follows the same move path (same
// iteration, same moves; where a move appears several times among one node's
// children, as in the unified and threshold variants, the same occurrence).
// Along that path each child row is matched with the other run's child by
// move and occurrence, and the fields that differ are highlighted; a row
// with no counterpart is flagged as present in one run only.

// sibKey identifies a child among its siblings across runs: its move and
// how many earlier siblings had the same move (for nodes without a move,
// the iteration roots, the iteration number).
type sibKey struct {
	move engine.Move
	occ  int
}

// kidIndex maps a node's children to their keys and back.
type kidIndex struct {
	keyOf map[int64]sibKey
	byKey map[sibKey]trace.Node
}

// maxCompareKids bounds the children indexed per node: beyond it rows are
// not compared (no real node has that many).
const maxCompareKids = 4096

type cmpState int

const (
	cmpNone    cmpState = iota // not comparable (off the followed path)
	cmpFound                   // the other run has this node
	cmpMissing                 // the other run has no such child
)

// kids indexes the children of node id in t, cached until the next follow.
func (m *Model) kids(t *tree, id int64) (*kidIndex, error) {
	key := [2]int64{t.run.ID, id}
	if k, ok := m.kidCache[key]; ok {
		return k, nil
	}
	k := &kidIndex{keyOf: map[int64]sibKey{}, byKey: map[sibKey]trace.Node{}}
	seen := map[engine.Move]int{}
	page, err := t.children(id, trace.BySearch, 0, maxCompareKids)
	if err != nil {
		return nil, err
	}
	for _, c := range page {
		sk := sibKey{move: c.Move}
		if c.Move == engine.NoMove {
			sk.occ = c.Iteration
		} else {
			sk.occ = seen[c.Move]
			seen[c.Move]++
		}
		k.keyOf[c.ID] = sk
		k.byKey[sk] = c
	}
	if m.kidCache == nil {
		m.kidCache = map[[2]int64]*kidIndex{}
	}
	m.kidCache[key] = k
	return k, nil
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
	mine, err := m.kids(p.t, r.parent.node.ID)
	if err != nil {
		return trace.Node{}, cmpNone
	}
	theirs, err := m.kids(o.t, op)
	if err != nil {
		return trace.Node{}, cmpNone
	}
	k, ok := mine.keyOf[n.ID]
	if !ok {
		return trace.Node{}, cmpNone
	}
	c, ok := theirs.byKey[k]
	if !ok {
		return trace.Node{}, cmpMissing
	}
	return c, cmpFound
}

func (m *Model) other(p *pane) *pane {
	if m.panes[0] == p {
		return m.panes[1]
	}
	return m.panes[0]
}

// diffNodes marks the columns in which two nodes differ.
func diffNodes(a, b trace.Node) diffMask {
	var d diffMask
	if a.Kind != b.Kind {
		d |= 1 << colKind
	}
	if a.Depth != b.Depth || a.QSLevel != b.QSLevel {
		d |= 1 << colDepth
	}
	if a.Alpha != b.Alpha || a.Beta != b.Beta {
		d |= 1 << colWindow
	}
	if a.HasStandPat != b.HasStandPat || (a.HasStandPat && a.StandPat != b.StandPat) {
		d |= 1 << colStand
	}
	if a.Score != b.Score || a.Bound != b.Bound {
		d |= 1 << colScore
	}
	if a.Cause != b.Cause || a.CutIndex != b.CutIndex {
		d |= 1 << colCause
	}
	if a.SubtreeSize != b.SubtreeSize {
		d |= 1 << colSize
	}
	return d
}

// follow makes the other pane select the node the focused pane's selection
// corresponds to, expanding the path to it.
func (m *Model) follow() error {
	if len(m.panes) < 2 {
		return nil
	}
	m.kidCache = nil
	lead := m.cur()
	fol := m.other(lead)
	lead.partner, fol.partner = map[int64]int64{}, map[int64]int64{}
	fol.lost = ""
	if lead.sel == nil || lead.sel.err != nil {
		return nil
	}
	path := lead.sel.path
	if len(path) == 0 {
		return nil
	}
	fpath := []trace.Node{fol.t.runNode}
	lead.partner[path[0].ID], fol.partner[fol.t.runNode.ID] = fol.t.runNode.ID, path[0].ID
	for i := 1; i < len(path); i++ {
		lk, err := m.kids(lead.t, path[i-1].ID)
		if err != nil {
			return err
		}
		fk, err := m.kids(fol.t, fpath[len(fpath)-1].ID)
		if err != nil {
			return err
		}
		key, ok := lk.keyOf[path[i].ID]
		if !ok {
			break
		}
		c, ok := fk.byKey[key]
		if !ok {
			fol.lost = m.lostText(lead, i, key)
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

func (m *Model) lostText(lead *pane, i int, key sibKey) string {
	if key.move == engine.NoMove {
		return fmt.Sprintf("no iteration %d in the other run", key.occ)
	}
	k := m.sanIndex(lead.sel, i)
	mv := key.move.UCI()
	if k >= 0 && k < len(lead.sel.san) {
		mv = lead.sel.san[k]
	}
	if key.occ > 0 {
		return fmt.Sprintf("the other run did not search %s a %d. time here", mv, key.occ+1)
	}
	return fmt.Sprintf("the other run did not search %s here", mv)
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
	d := diffNodes(n, c)
	text := fmt.Sprintf("node %d  %s  %s  %s nodes", c.ID, m.g.fmtResult(c), m.g.causeLabel(c), commas(c.SubtreeSize))
	if n.SubtreeSize > 0 && c.SubtreeSize != n.SubtreeSize {
		text += fmt.Sprintf(" (%+.0f%%)", 100*(float64(c.SubtreeSize)/float64(n.SubtreeSize)-1))
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
