package viewer

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/explain"
)

// The details say why the selected node is in the tree ('horizon
// explain'): the cause of its move, judged at its parent (one node's
// children read), and the cause mix of its subtree. The mix walks the
// whole subtree: one of up to syncExplain nodes is walked as the node is
// selected (a few milliseconds); a bigger one in the background, the line
// saying so until it is done, and a selection that moves on cancels it,
// so no subtree freezes the screen. Without an event loop (tests that
// draw without one) or past maxExplain nodes the line says how to get it.
var (
	syncExplain int64 = 20_000
	maxExplain  int64 = 5_000_000
)

// causeMix is the cause mix of a selected node's subtree: text when
// known, or busy while it is worked out, or err.
type causeMix struct {
	text   string
	busy   bool
	err    error
	cancel context.CancelFunc
}

// causesLoaded carries a subtree's cause mix worked out in the background
// back to the screen goroutine.
type causesLoaded struct {
	tcell.EventTime
	in  *nodeInfo
	res *explain.Subtree
	err error
}

// explainSel works out the move's cause and the subtree's cause mix of
// the selection in of pane p, when the details first show it.
func (m *Model) explainSel(p *pane, in *nodeInfo) {
	n := in.node
	if in.err != nil || stillOpen(n) {
		return
	}
	src, run := p.t.src, p.t.run
	if n.Move != engine.NoMove {
		r, err := explain.MoveReason(m.ctx, src, run, n)
		in.why, in.whyErr = r, err
	}
	size := n.Nodes()
	switch {
	case size <= syncExplain:
		res, err := explain.Explain(m.ctx, src, run, n)
		in.mix = &causeMix{text: mixText(res), err: err}
	case size > maxExplain || m.post == nil:
		in.mix = &causeMix{text: fmt.Sprintf("not worked out here for %s (run 'horizon explain FILE --run %d --node %d')",
			engine.Count(size, "node"), run.ID, n.ID)}
	default:
		// In the background, on the base context: a keystroke must not
		// cancel it, the next selection does.
		ctx, cancel := context.WithCancel(m.ictx.base)
		in.mix = &causeMix{busy: true, cancel: cancel}
		post := m.post // the screen's: Loop clears m.post when it returns
		go func() {
			res, err := explain.Explain(ctx, src, run, n)
			ev := &causesLoaded{in: in, res: res, err: err}
			ev.SetEventNow()
			for post(ev) != nil && ctx.Err() == nil {
				time.Sleep(10 * time.Millisecond) // the event queue is full
			}
		}()
	}
}

// causesDone stores a cause mix worked out in the background, unless the
// selection it was for has gone.
func (m *Model) causesDone(ev *causesLoaded) {
	mix := ev.in.mix
	if mix == nil || !mix.busy {
		return
	}
	mix.busy, mix.cancel = false, nil
	mix.text, mix.err = mixText(ev.res), ev.err
}

// dropSel cancels the background work of a selection that is replaced.
func dropSel(in *nodeInfo) {
	if in != nil && in.mix != nil && in.mix.cancel != nil {
		in.mix.cancel()
		in.mix.cancel = nil
	}
}

// mixText is a subtree's causes, biggest first, as one line: "62.0%
// late-cutoff, 30.1% losing-capture, 7.9% necessary".
func mixText(res *explain.Subtree) string {
	if res == nil {
		return ""
	}
	var parts []string
	for _, c := range res.Causes {
		parts = append(parts, engine.Percent(c.Share)+" "+c.Reason.String())
	}
	if len(parts) == 0 {
		return "no node below"
	}
	return strings.Join(parts, ", ")
}

// whyText is the cause of a node's move in the details: its name and
// what would remove it ("losing-capture: SEE pruning (see-prune) would
// remove it"), the name alone where nothing would.
func whyText(r engine.Reason) string {
	if rem := r.Remedy(); rem != "" {
		return r.String() + ": " + rem + " would remove it"
	}
	return r.String()
}

// causeLines are the details' lines of in's causes.
func (m *Model) causeLines(in *nodeInfo) []detailLine {
	st := m.st
	var out []detailLine
	if in.whyErr != nil {
		out = append(out, detailLine{"why", shortErr(in.whyErr), st.errMsg})
	} else if in.node.Move != engine.NoMove && in.mix != nil {
		out = append(out, detailLine{"why", whyText(in.why), st.base})
	}
	switch mix := in.mix; {
	case mix == nil:
	case mix.err != nil:
		out = append(out, detailLine{"causes", shortErr(mix.err), st.errMsg})
	case mix.busy:
		out = append(out, detailLine{"causes", fmt.Sprintf("working out the causes of %s...", engine.Count(in.node.Nodes(), "node")), st.dim})
	default:
		out = append(out, detailLine{"causes", mix.text, st.base})
	}
	return out
}
