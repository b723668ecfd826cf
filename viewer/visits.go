package viewer

import (
	"github.com/horizonqs/horizon/trace"
)

// maxVisitParents bounds the parents whose child visits a tree keeps;
// past it the cache starts again, as the cursor's ancestors are read
// again in one child list each.
const maxVisitParents = 1024

// childVisits are the visits of one parent's children as read once: the
// parent's subtree size and last child's id then, and the visit and
// searches of each child whose move was searched more than once there
// (the rest are a move's only search).
type childVisits struct {
	size  int64
	last  int64
	again map[int64][2]int
}

// visit returns the visit of n under parent and the searches of its move
// there (trace.ChildVisits, the numbering diff and the page use): 2, 2
// for the second search of n's move there, 1, 2 for the first. The details
// pane marks the path of the selected node with them (trace.VisitMark),
// so each cursor move would cost a child list per ancestor; the lists are
// read once per parent. A parent read with another size (a live run's,
// growing) or a child with a higher id than the list read was recorded
// after it, and the list is read again: a later search of a move changes
// the mark of its first.
func (t *tree) visit(parent, n trace.Node) (visit, searches int, err error) {
	c, ok := t.visits[parent.ID]
	if !ok || n.ID > c.last || parent.SubtreeSize != c.size {
		kids, err := t.children(parent.ID, trace.BySearch, 0, 0)
		if err != nil {
			return 0, 0, err
		}
		c = childVisits{size: parent.SubtreeSize, last: -1}
		visits, searches := trace.ChildVisits(parent, kids, t.nested)
		for i, k := range kids {
			if searches[i] > 1 {
				if c.again == nil {
					c.again = map[int64][2]int{}
				}
				c.again[k.ID] = [2]int{visits[i], searches[i]}
			}
			c.last = max(c.last, k.ID)
		}
		if t.visits == nil || len(t.visits) >= maxVisitParents {
			t.visits = map[int64]childVisits{}
		}
		t.visits[parent.ID] = c
	}
	if v, ok := c.again[n.ID]; ok {
		return v[0], v[1], nil
	}
	return 1, 1, nil
}
