package viewer

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// helpKeys is the help screen: every key, grouped. Keep it in step with
// handleTreeKey.
var helpKeys = []struct{ keys, what string }{
	{"", "Moving"},
	{"j k  ↓ ↑", "next / previous row"},
	{"l  →", "open the node; on an open node, go to its first child"},
	{"h  ←", "close the node; on a closed node, go to its parent"},
	{"enter  space", "open or close the node"},
	{"p  backspace", "go to the parent"},
	{"g G  home end", "first / last row"},
	{"pgdn pgup  ^f ^b", "next / previous screen (^d ^u: half a screen)"},
	{"c", "close everything"},
	{"mouse", "click selects (on the marker: opens or closes), wheel scrolls"},
	{"", "Finding"},
	{"n N", "next / previous hotspot: the biggest QS trees first"},
	{"H", "hotspot list (g there: rank full-width nodes by growth)"},
	{"*", "follow the heaviest child down from the node to a leaf"},
	{"v", "the principal variation of the last iteration"},
	{"/", "go to a move path from the root, e.g. e4 e5 Nf3 (+Nf3 Nc6: from the node)"},
	{": #", "go to a node id"},
	{"f", "find a child of the node by its move (; finds the next with the same move)"},
	{"", "Showing"},
	{"s", "sort children by search order or by subtree size"},
	{"m", "hide subtrees under N nodes"},
	{"Q", "only QS nodes (and the nodes above them)"},
	{"!", "only cutoff nodes (and the nodes above them)"},
	{"u", "moves in SAN or UCI"},
	{"a", "ASCII or Unicode"},
	{"b", "flip the board"},
	{"i", "board and details (narrow screens)"},
	{"y", "copy the FEN of the node to the clipboard (OSC 52)"},
	{"", "Runs"},
	{"R", "pick another run of the file"},
	{"=", "compare with another run side by side (tab: switch the leading pane)"},
	{"r", "reload the file (a trace still being recorded)"},
	{"?", "this help"},
	{"^l", "redraw the screen"},
	{"q  ^c", "quit (the FEN of the node is printed)"},
	{"", "Columns"},
	{"kind", "run, root (iteration), pv, nonpv (null window), qs"},
	{"d/q", "remaining depth (d3), or QS ply past the horizon (q2) and level (L1)"},
	{"window", "[alpha,beta] on entry"},
	{"stand", "stand pat: the static eval a QS node stood on"},
	{"score", "=exact  ≥ fail high (lower bound)  ≤ fail low (upper bound)  #N mate"},
	{"cause", "why the node stopped: beta@k (move k failed high), standpat, delta, see, tt, ..."},
	{"nodes", "subtree size, and its share of the parent's subtree"},
	{"marks", "▸ closed  ▾ open  * incomplete  ≠ result differs from the other run  + only in this run"},
}

// Handle applies one event to the model.
func (m *Model) Handle(ev tcell.Event) {
	if m.ictx != nil {
		m.ictx.next(ev)
	}
	switch ev := ev.(type) {
	case *tcell.EventKey:
		m.handleKey(ev)
	case *tcell.EventMouse:
		m.handleMouse(ev)
	case *tcell.EventInterrupt:
		m.quit = true
		return
	case *hotLoaded:
		m.hotDone(ev)
	default:
		return
	}
	m.afterChange()
}

// afterChange brings the selection details and, in compare mode, the
// following pane up to date.
func (m *Model) afterChange() {
	prev := m.cur().sel
	m.refreshSel()
	if len(m.panes) == 2 && m.cur().sel != prev {
		m.setErr(m.follow())
		m.refreshSel()
	}
}

func (m *Model) handleKey(ev *tcell.EventKey) {
	if m.mode == modePrompt {
		m.handlePrompt(ev)
		return
	}
	m.msg = ""
	if ev.Key() == tcell.KeyCtrlC {
		m.quit = true
		return
	}
	switch m.mode {
	case modeHelp:
		m.handleHelpKey(ev)
	case modeRuns, modeHotspots:
		m.handleListKey(ev)
	default:
		m.handleTreeKey(ev)
	}
}

func (m *Model) handleHelpKey(ev *tcell.EventKey) {
	switch {
	case ev.Key() == tcell.KeyDown || ev.Rune() == 'j':
		m.help++
	case ev.Key() == tcell.KeyUp || ev.Rune() == 'k':
		m.help--
	case ev.Key() == tcell.KeyPgDn || ev.Rune() == ' ':
		m.help += 10
	case ev.Key() == tcell.KeyPgUp:
		m.help -= 10
	case ev.Rune() == 'q':
		m.quit = true
	default:
		m.mode = modeTree
	}
	m.help = max(0, min(m.help, len(helpKeys)-1))
}

func isRune(ev *tcell.EventKey, r rune) bool {
	return ev.Key() == tcell.KeyRune && ev.Rune() == r
}

func (m *Model) handleTreeKey(ev *tcell.EventKey) {
	p := m.cur()
	t := p.t
	page := max(t.height-1, 1)
	switch ev.Key() {
	case tcell.KeyDown, tcell.KeyCtrlN:
		t.setCursor(t.cursor + 1)
	case tcell.KeyUp, tcell.KeyCtrlP:
		t.setCursor(t.cursor - 1)
	case tcell.KeyPgDn, tcell.KeyCtrlF:
		t.scroll(page)
		t.setCursor(t.cursor + page)
	case tcell.KeyPgUp, tcell.KeyCtrlB:
		t.scroll(-page)
		t.setCursor(t.cursor - page)
	case tcell.KeyCtrlD:
		t.setCursor(t.cursor + page/2)
	case tcell.KeyCtrlU:
		t.setCursor(t.cursor - page/2)
	case tcell.KeyHome:
		t.setCursor(0)
	case tcell.KeyEnd:
		t.setCursor(t.rows() - 1)
	case tcell.KeyRight:
		m.openOrDescend()
	case tcell.KeyLeft:
		m.closeOrAscend()
	case tcell.KeyEnter:
		m.toggle()
	case tcell.KeyBackspace, tcell.KeyBackspace2:
		m.toParent()
	case tcell.KeyTab, tcell.KeyBacktab:
		if len(m.panes) == 2 {
			m.focus = 1 - m.focus
		}
	case tcell.KeyCtrlL:
		m.resync = true
	case tcell.KeyEscape:
	case tcell.KeyRune:
		m.handleTreeRune(ev.Rune())
	}
}

func (m *Model) handleTreeRune(r rune) {
	p := m.cur()
	t := p.t
	switch r {
	case 'q':
		m.quit = true
	case 'j':
		t.setCursor(t.cursor + 1)
	case 'k':
		t.setCursor(t.cursor - 1)
	case 'l':
		m.openOrDescend()
	case 'h':
		m.closeOrAscend()
	case ' ':
		m.toggle()
	case 'p':
		m.toParent()
	case 'g':
		t.setCursor(0)
	case 'G':
		t.setCursor(t.rows() - 1)
	case 'c':
		t.collapseAll()
		m.setMsg("closed everything")
	case '*':
		m.setErr(m.heaviest())
	case 'n':
		m.setErr(m.hotspot(+1))
	case 'N':
		m.setErr(m.hotspot(-1))
	case 'H':
		ok, err := m.loadHot(p, 'H')
		if err != nil || !ok {
			m.setErr(err)
			return
		}
		m.mode, m.list = modeHotspots, max(p.hotIdx, 0)
	case 'v':
		m.setErr(m.toPV())
	case '/':
		m.openPrompt(promptPath, "move path (e4 e5 Nf3; +Nf3 from the node)")
	case ':', '#':
		m.openPrompt(promptNode, "node id")
	case 'f':
		m.openPrompt(promptFind, "find child by move")
	case ';':
		m.setErr(m.nextSameMove())
	case 's':
		o := trace.BySize
		if t.order == trace.BySize {
			o = trace.BySearch
		}
		for _, q := range m.panes {
			if err := q.t.setOrder(o); err != nil {
				m.setErr(err)
				return
			}
		}
		if o == trace.BySize {
			m.setMsg("children sorted by subtree size")
		} else {
			m.setMsg("children in search order")
		}
	case 'm':
		m.openPrompt(promptMinSize, "hide subtrees under N nodes (0: show all)")
	case 'Q':
		f := t.filt
		f.onlyQS = !f.onlyQS
		m.applyFilter(f)
	case '!':
		f := t.filt
		f.onlyCut = !f.onlyCut
		m.applyFilter(f)
	case 'u':
		m.uci = !m.uci
		for _, q := range m.panes {
			q.sel = nil
		}
	case 'a':
		m.ascii = !m.ascii
		m.setGlyphs()
	case 'b':
		m.flip = !m.flip
	case 'i':
		m.info = !m.info
	case 'y':
		if p.sel != nil {
			m.clip = []byte(p.sel.fen)
			m.setMsg("FEN copied (if the terminal allows OSC 52): %s", p.sel.fen)
		}
	case 'R':
		m.openPicker(pickRun)
	case '=':
		m.toggleCompare()
	case 'r':
		m.setErr(m.reload())
	case '?':
		m.mode, m.help = modeHelp, 0
	}
}

func (m *Model) applyFilter(f filter) {
	for _, q := range m.panes {
		if err := q.t.setFilter(f); err != nil {
			m.setErr(err)
			return
		}
	}
	if l := m.filterLabel(f); l != "" {
		m.setMsg("showing %s", l)
	} else {
		m.setMsg("filters off")
	}
}

// openOrDescend opens the selected node, or enters it when it is open.
func (m *Model) openOrDescend() {
	t := m.cur().t
	r, n, err := t.selected()
	if err != nil {
		m.setErr(err)
		return
	}
	if r.isSummary() {
		return
	}
	if e, ok := t.open[n.ID]; ok {
		if e.rows > 0 {
			t.setCursor(t.cursor + 1)
		}
		return
	}
	if n.SubtreeSize <= 1 {
		m.setMsg("node %d is a leaf", n.ID)
		return
	}
	m.setErr(t.expandRow(t.cursor))
}

// closeOrAscend closes the selected node, or goes to its parent.
func (m *Model) closeOrAscend() {
	t := m.cur().t
	r, n, err := t.selected()
	if err != nil {
		m.setErr(err)
		return
	}
	if e, ok := t.open[n.ID]; ok && !r.isSummary() {
		t.collapse(e)
		t.setCursor(t.rowOf0(r))
		return
	}
	m.toParent()
}

// rowOf0 returns the row of a ref after the tree changed below it.
func (t *tree) rowOf0(r ref) int {
	if r.isRun() {
		return 0
	}
	return t.rowOfChild(r.parent, r.i)
}

func (m *Model) toggle() {
	t := m.cur().t
	r, n, err := t.selected()
	if err != nil {
		m.setErr(err)
		return
	}
	if r.isSummary() {
		m.setMsg("%d children hidden by the filters (m, Q, ! change them)", r.parent.hidden)
		return
	}
	if e, ok := t.open[n.ID]; ok {
		t.collapse(e)
		t.setCursor(t.rowOf0(r))
		return
	}
	if n.SubtreeSize <= 1 {
		m.setMsg("node %d is a leaf", n.ID)
		return
	}
	m.setErr(t.expandRow(t.cursor))
}

func (m *Model) toParent() {
	t := m.cur().t
	r, ok := t.locate(t.cursor)
	if !ok || r.isRun() {
		return
	}
	t.setCursor(t.rowOf(r.parent))
}

// heaviest follows the biggest child down from the selected node.
func (m *Model) heaviest() error {
	t := m.cur().t
	_, n, err := t.selected()
	if err != nil {
		return err
	}
	start := n
	steps := 0
	for n.SubtreeSize > 1 && steps < 1000 {
		kids, err := t.children(n.ID, trace.BySize, 0, 1)
		if err != nil {
			return err
		}
		if len(kids) == 0 {
			break
		}
		n = kids[0]
		steps++
	}
	if steps == 0 {
		m.setMsg("node %d is a leaf", start.ID)
		return nil
	}
	if err := m.reveal(n.ID); err != nil {
		return err
	}
	if m.msg == "" {
		m.setMsg("heaviest line: %d plies down from node %d to node %d", steps, start.ID, n.ID)
	}
	return nil
}

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
		go func() {
			hot, gr, err := fetch()
			ev := &hotLoaded{p: p, gen: gen, hot: hot, gr: gr, err: err, then: then}
			ev.SetEventNow()
			for m.post(ev) != nil && ctx.Err() == nil {
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
	switch ev.then {
	case 'n':
		m.setErr(m.hotspot(+1))
	case 'N':
		m.setErr(m.hotspot(-1))
	case 'H':
		m.mode, m.list = modeHotspots, max(p.hotIdx, 0)
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
		m.setMsg("no hotspots in run %d (it has no QS trees, or is still being recorded)", p.t.run.ID)
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
	share := 100 * float64(h.Node.SubtreeSize) / float64(max(p.t.runNode.SubtreeSize, 1))
	what := "QS tree"
	if m.hotByGr {
		what = fmt.Sprintf("growth %.2f/ply,", h.Growth)
	}
	m.setMsg("hotspot %d/%d: %s %s nodes (%.2f%% of the run), node %d", i+1, len(list), what, commas(h.Node.SubtreeSize), share, h.Node.ID)
	return nil
}

// toPV selects the last node of the last iteration's principal variation.
// Where the PV move was searched twice (a null-window search, then the
// re-search that made it the PV), the later search is the PV node.
func (m *Model) toPV() error {
	t := m.cur().t
	if len(t.run.PV) == 0 {
		m.setMsg("run %d has no principal variation (still running, or no move)", t.run.ID)
		return nil
	}
	n := t.runNode
	cnt, err := t.src.ChildCount(t.ctx, t.run.ID, 0)
	if err != nil || cnt == 0 {
		return err
	}
	// The last iteration that completed holds the PV; a stopped run may
	// end with a partial one.
	roots, err := t.children(0, trace.BySearch, 0, 0)
	if err != nil {
		return err
	}
	n = roots[len(roots)-1]
	for _, r := range roots {
		if r.Iteration == t.run.Depth {
			n = r
		}
	}
	pos, err := engine.ParseFEN(t.run.FEN)
	if err != nil {
		return err
	}
	done := 0
	for _, text := range t.run.PV {
		mv, err := pos.ParseUCI(text)
		if err != nil {
			break
		}
		next, ok, err := t.lastChildByMove(n, mv)
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		n = next
		pos.MakeMove(mv)
		done++
	}
	if err := m.reveal(n.ID); err != nil {
		return err
	}
	if m.msg == "" {
		m.setMsg("PV of iteration %d: %d of %d moves found in the tree", n.Iteration, done, len(t.run.PV))
	}
	return nil
}

func (t *tree) lastChildByMove(n trace.Node, mv engine.Move) (trace.Node, bool, error) {
	kids, err := t.children(n.ID, trace.BySearch, 0, 0)
	if err != nil {
		return n, false, err
	}
	for i := len(kids) - 1; i >= 0; i-- {
		if kids[i].Move == mv {
			return kids[i], true, nil
		}
	}
	return n, false, nil
}

// nextSameMove selects the next sibling played with the same move (the
// unified and threshold variants search a move once per pass).
func (m *Model) nextSameMove() error {
	t := m.cur().t
	r, n, err := t.selected()
	if err != nil || r.isRun() || r.isSummary() {
		return err
	}
	e := r.parent
	for k := 1; k < e.count; k++ {
		i := (r.i + k) % e.count
		c, err := t.child(e, i)
		if err != nil {
			return err
		}
		if c.Move == n.Move {
			t.setCursor(t.rowOfChild(e, i))
			return nil
		}
	}
	m.setMsg("no other child of node %d played %s", e.node.ID, m.moveLabel(t, e.fen, n))
	return nil
}

// runPrompt acts on a typed line.
func (m *Model) runPrompt(k promptKind, text string) {
	text = strings.TrimSpace(text)
	if text == "" {
		return
	}
	p := m.cur()
	t := p.t
	switch k {
	case promptNode:
		id, err := strconv.ParseInt(strings.TrimPrefix(text, "#"), 10, 64)
		if err != nil || id < 0 {
			m.setErr(fmt.Errorf("node id: %q is not a number", text))
			return
		}
		m.setErr(m.reveal(id))
	case promptPath:
		from, fen := t.runNode, ""
		if strings.HasPrefix(text, "+") {
			text = strings.TrimPrefix(text, "+")
			if p.sel == nil || p.sel.err != nil {
				return
			}
			from, fen = p.sel.node, p.sel.fen
		}
		n, err := t.findPath(from, fen, strings.Fields(text))
		if err != nil {
			m.setErr(fmt.Errorf("path %s: %w", text, err))
			if n.ID != from.ID {
				m.reveal(n.ID) // show how far the path went
			}
			return
		}
		m.setErr(m.reveal(n.ID))
	case promptFind:
		m.setErr(m.findChild(text))
	case promptMinSize:
		n, err := strconv.ParseInt(strings.TrimSuffix(strings.ToLower(text), "k"), 10, 64)
		if err != nil || n < 0 {
			m.setErr(fmt.Errorf("minimum subtree size: %q is not a number", text))
			return
		}
		if strings.HasSuffix(strings.ToLower(text), "k") {
			n *= 1000
		}
		f := t.filt
		f.minSize = n
		m.applyFilter(f)
	}
}

// findChild selects the first visible child of the selected node played
// with the move typed.
func (m *Model) findChild(text string) error {
	p := m.cur()
	t := p.t
	r, n, err := t.selected()
	if err != nil {
		return err
	}
	if r.isSummary() || p.sel == nil || p.sel.pos == nil {
		return nil
	}
	mv, err := p.sel.pos.ParseMove(text)
	if err != nil {
		return err
	}
	if n.SubtreeSize <= 1 {
		return fmt.Errorf("node %d is a leaf", n.ID)
	}
	if err := t.expandRow(t.cursor); err != nil {
		return err
	}
	e := t.open[n.ID]
	for i := 0; i < e.count; i++ {
		c, err := t.child(e, i)
		if err != nil {
			return err
		}
		if c.Move == mv {
			t.setCursor(t.rowOfChild(e, i))
			return nil
		}
	}
	if e.hidden > 0 {
		return fmt.Errorf("no shown child of node %d played %s (%d hidden by filters)", n.ID, text, e.hidden)
	}
	return fmt.Errorf("no child of node %d played %s: %w", n.ID, text, trace.ErrNoMove)
}

// reload re-reads the file: a trace still being recorded grows.
func (m *Model) reload() error {
	runs, err := m.src.Runs(m.ctx)
	if err != nil {
		return err
	}
	m.runs = runs
	for _, p := range m.panes {
		if err := p.t.load(p.t.run.ID); err != nil {
			return err
		}
		if err := p.t.rebuild(nil); err != nil {
			return err
		}
		p.hot, p.hotGr, p.sel = nil, nil, nil
		p.hotGen++
	}
	t := m.cur().t
	if stillOpen(t.runNode) {
		// The run node is the recorder's stand-in: its size is a
		// placeholder, not a count.
		m.setMsg("reloaded: run %d %s, still being recorded (r again shows more)", t.run.ID, t.run.Status)
		return nil
	}
	m.setMsg("reloaded: run %d %s, %s rows", t.run.ID, t.run.Status, commas(max(t.run.Rows, t.runNode.SubtreeSize)))
	return nil
}

func (m *Model) openPicker(purpose pickPurpose) {
	m.mode, m.pick = modeRuns, purpose
	m.list = m.runIndex(m.cur().t.run.ID)
}

func (m *Model) toggleCompare() {
	if len(m.panes) == 2 {
		m.panes = []*pane{m.cur()}
		m.focus = 0
		m.panes[0].partner = nil
		m.setMsg("compare mode off")
		return
	}
	switch len(m.runs) {
	case 1:
		m.setMsg("this file holds one run: nothing to compare with")
	case 2:
		other := m.runs[0].ID
		if other == m.cur().t.run.ID {
			other = m.runs[1].ID
		}
		m.setErr(m.startCompare(other))
	default:
		m.openPicker(pickCompare)
	}
}

func (m *Model) handleListKey(ev *tcell.EventKey) {
	n := len(m.runs)
	if m.mode == modeHotspots {
		n = len(m.hotList(m.cur()))
	}
	page := max(m.lay.list.h-1, 1)
	switch {
	case ev.Key() == tcell.KeyDown || isRune(ev, 'j'):
		m.list++
	case ev.Key() == tcell.KeyUp || isRune(ev, 'k'):
		m.list--
	case ev.Key() == tcell.KeyPgDn:
		m.list += page
	case ev.Key() == tcell.KeyPgUp:
		m.list -= page
	case ev.Key() == tcell.KeyHome:
		m.list = 0
	case ev.Key() == tcell.KeyEnd:
		m.list = n - 1
	case ev.Key() == tcell.KeyEnter:
		m.list = max(0, min(m.list, n-1))
		m.pickListEntry()
		return
	case isRune(ev, 'g') && m.mode == modeHotspots:
		m.hotByGr = !m.hotByGr
		m.list = 0
		m.cur().hotIdx = -1
	case isRune(ev, 'q'):
		m.quit = true
	case ev.Key() == tcell.KeyEscape || isRune(ev, 'H') || isRune(ev, 'R') || isRune(ev, '?'):
		m.mode = modeTree
	}
	m.list = max(0, min(m.list, n-1))
}

func (m *Model) pickListEntry() {
	mode := m.mode
	m.mode = modeTree
	switch mode {
	case modeHotspots:
		p := m.cur()
		if len(m.hotList(p)) == 0 {
			return
		}
		p.hotIdx = m.list
		m.setErr(m.goHot(p, m.list))
	case modeRuns:
		if len(m.runs) == 0 {
			return
		}
		id := m.runs[m.list].ID
		if m.pick == pickCompare {
			if id == m.cur().t.run.ID {
				m.setMsg("pick a different run to compare with")
				return
			}
			m.setErr(m.startCompare(id))
			return
		}
		if id == m.cur().t.run.ID {
			return
		}
		t, err := newTree(m.ctx, m.src, id)
		if err != nil {
			m.setErr(err)
			return
		}
		p := m.cur()
		p.t, p.sel, p.hot, p.hotGr, p.hotIdx = t, nil, nil, nil, -1
		m.setMsg("run %d: %s, %s", t.run.ID, t.run.Variant, t.run.FEN)
	}
}

// handleMouse selects on click and scrolls on the wheel.
func (m *Model) handleMouse(ev *tcell.EventMouse) {
	x, y := ev.Position()
	b := ev.Buttons()
	pressed := b&tcell.Button1 != 0
	click := pressed && !m.lastMouse
	m.lastMouse = pressed
	if m.mode == modeRuns || m.mode == modeHotspots {
		switch {
		case b&tcell.WheelUp != 0:
			m.list--
		case b&tcell.WheelDown != 0:
			m.list++
		case click && m.lay.list.contains(x, y):
			m.list = m.lay.listN + y - m.lay.list.y
			m.pickListEntry()
		}
		return
	}
	if m.mode != modeTree {
		if click {
			m.mode = modeTree
		}
		return
	}
	for i, r := range m.lay.panes {
		if !r.contains(x, y) || i >= len(m.panes) {
			continue
		}
		t := m.panes[i].t
		switch {
		case b&tcell.WheelUp != 0:
			t.scroll(-3)
		case b&tcell.WheelDown != 0:
			t.scroll(3)
		case click:
			m.focus = i
			row := t.top + y - r.y
			if row >= t.rows() {
				return
			}
			ref, _ := t.locate(row)
			t.setCursor(row)
			_, used := columns(r.w)
			ind := indentOf(ref, r.w-used)
			if x-r.x >= ind && x-r.x < ind+2 {
				m.toggle()
			}
		}
		return
	}
}

// indentOf is the indentation of a row in a tree part treeW wide; drawRow
// uses the same rule.
func indentOf(r ref, treeW int) int {
	level := 0
	if r.parent != nil {
		level = r.parent.level + 1
	}
	step := 2
	if treeW < 30 {
		step = 1
	}
	return max(min(level*step, treeW-10), 0)
}
