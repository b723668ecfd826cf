package viewer

import (
	"container/list"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// Children are read in pages of pageSize and at most maxPages pages are kept:
// about 1 MB whatever the trace size, and enough for several screens of the
// nodes around the cursor.
const (
	pageSize = 64
	maxPages = 128
)

// pageKey names one page of one node's children in one order.
type pageKey struct {
	run, parent int64
	order       trace.Order
	page        int
}

type pageEntry struct {
	key   pageKey
	nodes []trace.Node
}

// pageCache is a least-recently-used cache of pages of children.
type pageCache struct {
	max int
	m   map[pageKey]*list.Element
	lru list.List // front: most recently used
}

func newPageCache(max int) *pageCache {
	return &pageCache{max: max, m: make(map[pageKey]*list.Element)}
}

func (c *pageCache) get(k pageKey) ([]trace.Node, bool) {
	el, ok := c.m[k]
	if !ok {
		return nil, false
	}
	c.lru.MoveToFront(el)
	return el.Value.(*pageEntry).nodes, true
}

func (c *pageCache) put(k pageKey, nodes []trace.Node) {
	if el, ok := c.m[k]; ok {
		el.Value.(*pageEntry).nodes = nodes
		c.lru.MoveToFront(el)
		return
	}
	c.m[k] = c.lru.PushFront(&pageEntry{k, nodes})
	for c.lru.Len() > c.max {
		el := c.lru.Back()
		delete(c.m, el.Value.(*pageEntry).key)
		c.lru.Remove(el)
	}
}

func (c *pageCache) len() int { return c.lru.Len() }

func (c *pageCache) clear() {
	c.m = make(map[pageKey]*list.Element)
	c.lru.Init()
}

// posCache keeps a few parsed positions by FEN: a Position carries a
// preallocated move history, so the tree keeps FEN strings and parses the
// few it draws.
type posCache struct {
	max int
	m   map[string]*list.Element
	lru list.List
}

type posEntry struct {
	fen string
	pos *engine.Position
}

func newPosCache(max int) *posCache {
	return &posCache{max: max, m: make(map[string]*list.Element)}
}

// get returns the position of fen, parsing it when it is not cached.
func (c *posCache) get(fen string) (*engine.Position, error) {
	if el, ok := c.m[fen]; ok {
		c.lru.MoveToFront(el)
		return el.Value.(*posEntry).pos, nil
	}
	p, err := engine.ParseFEN(fen)
	if err != nil {
		return nil, err
	}
	c.m[fen] = c.lru.PushFront(&posEntry{fen, p})
	for c.lru.Len() > c.max {
		el := c.lru.Back()
		delete(c.m, el.Value.(*posEntry).fen)
		c.lru.Remove(el)
	}
	return p, nil
}
