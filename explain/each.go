package explain

import (
	"context"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// Each walks the subtree of top as Explain does (pre-order, bounded
// memory) and calls fn with each node below the top and the reason of its
// own move, judged at its parent as Explain judges it: what a reader needs
// to count causes under many tops of one tree in one walk (the HTML page
// gives each drawn node its move's reason and its subtree's mix). The top
// is not judged and not passed. A transposition is judged against the
// positions searched before it anywhere under top, as Explain(top) does.
func Each(ctx context.Context, st trace.Reader, r trace.Run, top trace.Node, fn func(n trace.Node, own engine.Reason) error) error {
	w, err := newWalker(ctx, st, r, top, top.SubtreeSize)
	if err != nil {
		return err
	}
	w.each = fn
	return st.Subtree(ctx, r.ID, top.ID, -1, w.visit)
}
