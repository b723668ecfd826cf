package viewer

import (
	"github.com/horizonqs/horizon/compare"
	"github.com/horizonqs/horizon/trace"
)

// maxVisitParents bounds the parents whose child visits a tree keeps;
// past it the cache starts again, as the cursor's ancestors are read
// again in one child list each.
const maxVisitParents = 1024

// childVisits are the visits of one parent's children as read once: the
// last child's id, and the children that are a move's second or later
// search there (the rest are first searches).
type childVisits struct {
	last  int64
	again map[int64]int
}

// visit returns the visit of n under parent (compare.ChildVisits, the
// numbering diff and the page use): 2 for the second search of n's move
// there. The details pane marks the path of the selected node with it,
// so each cursor move would cost a child list per ancestor; the lists
// are read once per parent. A child with a higher id than the list read
// was recorded after it (a live run), and the list is read again.
func (t *tree) visit(parent, n trace.Node) (int, error) {
	c, ok := t.visits[parent.ID]
	if !ok || n.ID > c.last {
		kids, err := t.children(parent.ID, trace.BySearch, 0, 0)
		if err != nil {
			return 0, err
		}
		c = childVisits{last: -1}
		for i, v := range compare.ChildVisits(parent, kids) {
			if v > 1 {
				if c.again == nil {
					c.again = map[int64]int{}
				}
				c.again[kids[i].ID] = v
			}
			c.last = max(c.last, kids[i].ID)
		}
		if t.visits == nil || len(t.visits) >= maxVisitParents {
			t.visits = map[int64]childVisits{}
		}
		t.visits[parent.ID] = c
	}
	if v, ok := c.again[n.ID]; ok {
		return v, nil
	}
	return 1, nil
}
