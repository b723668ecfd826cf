package viewer

import (
	"fmt"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// Hotspots: n, N and the H list walk the run's biggest subtrees, QS trees and
// extension chains (trace.IsChainTop) each labelled with its cause (or, by
// growth, its full-width nodes whose subtrees grow fastest per ply).

// hotLoaded carries hotspots ranked in the background back to the screen
// goroutine.
type hotLoaded struct {
	tcell.EventTime
	p       *pane
	gen     int
	hot, gr []trace.Hotspot
	err     error
	then    rune // the key that asked for them: n, N or H
}

// loadHot makes sure p's hotspot lists are loaded and reports whether they
// are. A finished run has them ranked in the file (a few milliseconds); a
// run still being recorded has to be read whole, so with a screen to post
// to that happens in the background and the key is replayed when done.
func (m *Model) loadHot(p *pane, then rune) (bool, error) {
	if p.hot != nil && p.hotGr != nil {
		return true, nil
	}
	if p.hotBusy {
		m.setMsg("still ranking the hotspots of run %d", p.t.run.ID)
		return false, nil
	}
	src, ctx, run, gen := p.t.src, p.t.ctx, p.t.run.ID, p.hotGen
	if m.post != nil && p.t.run.Status == trace.StatusRunning && m.ictx != nil {
		ctx = m.ictx.base // in the background: a keystroke must not cancel it
	}
	fetch := func() (hot, gr []trace.Hotspot, err error) {
		if hot, err = src.Hotspots(ctx, run, trace.HotspotBySize, 100); err != nil {
			return
		}
		gr, err = src.Hotspots(ctx, run, trace.HotspotByGrowth, 100)
		return
	}
	if m.post != nil && p.t.run.Status == trace.StatusRunning {
		p.hotBusy = true
		// The screen's post, not m.post: Loop clears that when it returns,
		// which may be before the ranking is done.
		post := m.post
		go func() {
			hot, gr, err := fetch()
			ev := &hotLoaded{p: p, gen: gen, hot: hot, gr: gr, err: err, then: then}
			ev.SetEventNow()
			for post(ev) != nil && ctx.Err() == nil {
				time.Sleep(10 * time.Millisecond) // the event queue is full
			}
		}()
		m.setMsg("ranking the hotspots of a run still being recorded: every row is read")
		return false, nil
	}
	hot, gr, err := fetch()
	if err != nil {
		return false, err
	}
	m.setHot(p, hot, gr)
	return true, nil
}

func (m *Model) setHot(p *pane, hot, gr []trace.Hotspot) {
	if hot == nil {
		hot = []trace.Hotspot{}
	}
	if gr == nil {
		gr = []trace.Hotspot{}
	}
	p.hot, p.hotGr = hot, gr
	if p.hotIdx >= len(p.hot) {
		p.hotIdx = -1
	}
}

// hotDone stores hotspots ranked in the background and replays the key
// that asked for them.
func (m *Model) hotDone(ev *hotLoaded) {
	p := ev.p
	p.hotBusy = false
	if p.hotGen != ev.gen || !m.showing(p) {
		return // the file was reloaded or the pane closed meanwhile
	}
	if ev.err != nil {
		m.setErr(ev.err)
		return
	}
	m.setHot(p, ev.hot, ev.gr)
	if p != m.cur() {
		return
	}
	if m.mode == modeTree {
		m.dispatch(treeKeys, tcell.NewEventKey(tcell.KeyRune, ev.then, tcell.ModNone))
	}
}

func (m *Model) showing(p *pane) bool {
	for _, q := range m.panes {
		if q == p {
			return true
		}
	}
	return false
}

func (m *Model) hotList(p *pane) []trace.Hotspot {
	if m.hotByGr {
		return p.hotGr
	}
	return p.hot
}

// hotspot walks the hotspot list by dir.
func (m *Model) hotspot(dir int) error {
	p := m.cur()
	if p.hot == nil {
		p.hotIdx = -1
	}
	key := 'n'
	if dir < 0 {
		key = 'N'
	}
	if ok, err := m.loadHot(p, key); err != nil || !ok {
		return err
	}
	list := m.hotList(p)
	if len(list) == 0 {
		// Size mode has nothing on a run without QS (qs-moves none); the
		// growth list ranks its full-width nodes.
		more := ""
		if !m.hotByGr {
			more = "; H then g lists full-width nodes by growth"
		}
		m.setMsg("no hotspots in run %d (it has no QS trees or extension chains, or is still being recorded)%s", p.t.run.ID, more)
		return nil
	}
	p.hotIdx += dir
	if p.hotIdx < 0 {
		p.hotIdx = len(list) - 1
	}
	if p.hotIdx >= len(list) {
		p.hotIdx = 0
	}
	return m.goHot(p, p.hotIdx)
}

func (m *Model) goHot(p *pane, i int) error {
	list := m.hotList(p)
	h := list[i]
	if err := m.reveal(h.Node.ID); err != nil {
		return err
	}
	what := h.Cause.LongLabel()
	if m.hotByGr {
		what = fmt.Sprintf("growth %.2f/ply,", h.Growth)
		if h.Cause != engine.GrowthNone {
			what = h.Cause.LongLabel() + ", " + what
		}
	}
	m.setMsg("hotspot %d/%d: %s %s (%s of the run), node %d", i+1, len(list), what, engine.Count(h.Node.Nodes(), "node"), engine.SharePercent(runShare(p, h.Node)), h.Node.ID)
	return nil
}

// openHotList opens the hotspot list on the current hotspot.
func (m *Model) openHotList() {
	p := m.cur()
	ok, err := m.loadHot(p, 'H')
	if err != nil || !ok {
		m.setErr(err)
		return
	}
	m.mode, m.list = modeHotspots, max(p.hotIdx, 0)
}

// toggleHotOrder ranks the list by growth, or back by size.
func (m *Model) toggleHotOrder() {
	m.hotByGr = !m.hotByGr
	m.list = 0
	m.cur().hotIdx = -1
}

func (m *Model) drawHotspots(s tcell.Screen, body rect) {
	p := m.cur()
	list := m.hotList(p)
	title := "biggest subtrees: QS trees and extension chains (g: full-width nodes by growth)"
	if m.hotByGr {
		title = "full-width nodes by growth per ply (g: QS trees and chains by size)"
	}
	in := m.box(s, body, 114, body.h, title)
	// A QS root's growth is its size (depth 0): in size mode the column
	// holds the tree's share of the run instead.
	col := "% run"
	if m.hotByGr {
		col = "growth"
	}
	head := fmt.Sprintf("%4s %-13s %10s %3s %11s %7s  %s", "#", "cause", "node", "it", "nodes", col, "path")
	if len(list) == 0 {
		m.writer(s, in.x, in.y, in.w).put(clip(head, in.w, ""), m.st.colHead)
		m.writer(s, in.x, in.y+1, in.w).put("no hotspots: no QS or extension chains in this run, or it is still being recorded", m.st.dim)
		return
	}
	m.drawList(s, in, head, len(list), func(i, w int) string {
		h := list[i]
		val := fmt.Sprintf("%.2f", h.Growth)
		if !m.hotByGr {
			val = engine.SharePercent(runShare(p, h.Node))
		}
		cause := h.Cause.String()
		if cause == "" {
			cause = "-" // a full-width node ranked by growth that heads no chain
		}
		line := fmt.Sprintf("%4d %-13s %10d %3d %11s %7s  ", i+1, cause, h.Node.ID, h.Node.Iteration, engine.Commas(h.Node.Nodes()), val)
		return line + clipLeft(m.hotPath(p, h.Node.ID), w-len(line), m.g.ellipsis)
	})
}

// hotPath is the move path to a hotspot, read once per node shown.
func (m *Model) hotPath(p *pane, id int64) string {
	if m.hotPaths == nil {
		m.hotPaths = map[[2]int64]string{}
	}
	key := [2]int64{p.t.run.ID, id}
	if s, ok := m.hotPaths[key]; ok {
		return s
	}
	in := p.t.info(trace.Node{RunID: p.t.run.ID, ID: id})
	s := in.numbered
	if in.err != nil {
		s = shortErr(in.err)
	}
	if len(m.hotPaths) > 1000 {
		m.hotPaths = map[[2]int64]string{}
	}
	m.hotPaths[key] = s
	return s
}

// runShare is n's subtree as a share of p's run.
func runShare(p *pane, n trace.Node) float64 {
	return float64(n.Nodes()) / float64(max(p.t.runNode.Nodes(), 1))
}
