package explain

import (
	"context"
	"errors"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// errWatched stops MoveReason's walk once the node it judges is read.
var errWatched = errors.New("the node is judged")

// MoveReason is the reason of node n's own move, as Explain judges it at
// n's parent (the subtree's top there): a losing or futile capture, an
// underpromotion, a quiet check, an evasion, a late cutoff, a re-search,
// an extension, or ReasonNecessary. It reads the parent and its children
// up to n alone, so it costs one node's children whatever the subtree's
// size. A transposition is judged within a subtree Explain walks; among a
// node's children alone it is a re-search, so MoveReason does not give
// one. The run node and the iteration roots have no move: necessary.
func MoveReason(ctx context.Context, st trace.Reader, r trace.Run, n trace.Node) (engine.Reason, error) {
	if n.Parent < 0 || n.Move == engine.NoMove {
		return engine.ReasonNecessary, nil
	}
	parent, err := st.Node(ctx, r.ID, n.Parent)
	if err != nil {
		return 0, err
	}
	w, err := newWalker(ctx, st, r, parent, 0) // its children alone: the smallest table
	if err != nil {
		return 0, err
	}
	w.watch = n.ID
	err = st.Subtree(ctx, r.ID, parent.ID, 1, func(c trace.Node) error {
		if err := w.visit(c); err != nil {
			return err
		}
		if c.ID == n.ID {
			return errWatched
		}
		return nil
	})
	if err != nil && !errors.Is(err, errWatched) {
		return 0, err
	}
	return w.watched, nil
}
