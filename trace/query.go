package trace

import (
	"context"

	"github.com/horizonqs/horizon/engine"
)

// Node returns one node; the error wraps ErrNoNode when the run has no row
// with that id.
func (s *Store) Node(ctx context.Context, run, id int64) (Node, error) { return Node{}, errTODO }

// Children returns up to limit children of node id, skipping the first
// offset of them in the given order, so a node with many children can be
// paged. limit <= 0 means all.
func (s *Store) Children(ctx context.Context, run, id int64, order Order, offset, limit int) ([]Node, error) {
	return nil, errTODO
}

// ChildCount returns how many children node id has.
func (s *Store) ChildCount(ctx context.Context, run, id int64) (int, error) { return 0, errTODO }

// Path returns the nodes from the run node (id 0) down to node id, both
// included.
func (s *Store) Path(ctx context.Context, run, id int64) ([]Node, error) { return nil, errTODO }

// PathSAN returns the moves from the run's root position to node id in SAN
// (iteration roots and the run node have no move and contribute nothing).
func (s *Store) PathSAN(ctx context.Context, run, id int64) ([]string, error) { return nil, errTODO }

// Position returns the position at node id, replayed from the run's FEN.
func (s *Store) Position(ctx context.Context, run, id int64) (*engine.Position, error) {
	return nil, errTODO
}

// Find follows a move path (each move in SAN or UCI) down from node from
// and returns the node reached. When from is the run node (0), the path
// starts in the last iteration. The error wraps ErrNoMove and names the
// first move that did not match.
func (s *Store) Find(ctx context.Context, run, from int64, moves []string) (Node, error) {
	return Node{}, errTODO
}

// Subtree calls fn for node id and its descendants in pre-order (search
// order), at most maxDepth levels below id (0: the node alone; < 0: no
// limit). Rows are streamed, never loaded all at once. An error from fn
// stops the walk and is returned.
func (s *Store) Subtree(ctx context.Context, run, id int64, maxDepth int, fn func(Node) error) error {
	return errTODO
}

// Hotspots returns up to limit nodes ranked by order (see HotspotOrder).
func (s *Store) Hotspots(ctx context.Context, run int64, order HotspotOrder, limit int) ([]Hotspot, error) {
	return nil, errTODO
}

// Stats counts a run's rows by ply, QS ply, QS level and iteration.
func (s *Store) Stats(ctx context.Context, run int64) (Stats, error) { return Stats{}, errTODO }
