package viewer

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// Layout thresholds. Below wideAt the tree has the whole width and a
// three-line summary of the selection; from wideAt a column on the right
// holds the board and the details; from widestAt the details get their own
// column.
const (
	wideAt    = 100
	widestAt  = 160
	sideWidth = 30
	infoWidth = 46
	// Below minWidth or minHeight nothing is drawn but a note saying so.
	minWidth  = 30
	minHeight = 8
)

type rect struct{ x, y, w, h int }

func (r rect) contains(x, y int) bool { return x >= r.x && x < r.x+r.w && y >= r.y && y < r.y+r.h }

// layout remembers where things were drawn, for the mouse.
type layout struct {
	w, h  int
	panes []rect // tree rows (below the column header), one per pane
	list  rect   // rows of the run or hotspot list
	listN int    // first entry shown in the list
}

// screenWriter draws runs of text clipped to a rectangle's width.
type screenWriter struct {
	s    tcell.Screen
	x, y int
	end  int // first column not to draw in
}

// put draws text from the writer's column on. Text comes from the trace
// file (run names, EPD ids, a stream's engine name): it is made
// engine.Printable, so no control character reaches a cell, where a
// terminal would act on it.
func (w *screenWriter) put(text string, st tcell.Style) {
	for _, r := range engine.Printable(text) {
		if w.x >= w.end {
			return
		}
		w.s.SetContent(w.x, w.y, r, nil, st)
		w.x++
	}
}

func (w *screenWriter) fill(st tcell.Style) {
	for w.x < w.end {
		w.s.SetContent(w.x, w.y, ' ', nil, st)
		w.x++
	}
}

func (m *Model) writer(s tcell.Screen, x, y, w int) *screenWriter {
	return &screenWriter{s: s, x: x, y: y, end: x + w}
}

func (m *Model) fillRect(s tcell.Screen, r rect, st tcell.Style) {
	for y := r.y; y < r.y+r.h; y++ {
		for x := r.x; x < r.x+r.w; x++ {
			s.SetContent(x, y, ' ', nil, st)
		}
	}
}

// Draw paints the whole screen from the model. It reads from the trace only
// what is on screen (pages of children already cached are reused).
func (m *Model) Draw(s tcell.Screen) {
	w, h := s.Size()
	m.lay = layout{w: w, h: h}
	if m.clip != nil {
		s.SetClipboard(m.clip)
		m.clip = nil
	}
	m.fillRect(s, rect{0, 0, w, h}, m.st.base)
	if w < minWidth || h < minHeight {
		// Wrapped, so the size it needs shows even on a screen too narrow
		// for the note on one line.
		note := fmt.Sprintf("horizon: window too small (%dx%d; needs at least %dx%d)", w, h, minWidth, minHeight)
		for y, line := range engine.Wrap(note, w) {
			m.writer(s, 0, y, w).put(line, m.st.base)
		}
		return
	}
	m.drawHeader(s, w)
	body := rect{0, 1, w, h - 2}
	tree := body
	switch {
	case m.info && w < wideAt:
		m.drawInfo(s, body)
		tree = rect{}
	case w >= widestAt:
		tree.w = w - sideWidth - infoWidth - 2
		m.drawSep(s, rect{tree.w, body.y, 1, body.h})
		m.drawBoardPane(s, rect{tree.w + 1, body.y, sideWidth, body.h}, true)
		m.drawSep(s, rect{tree.w + 1 + sideWidth, body.y, 1, body.h})
		m.drawDetails(s, rect{tree.w + 2 + sideWidth, body.y, infoWidth, body.h})
	case w >= wideAt:
		// The side column takes what the tree's columns do not need.
		sw := max(sideWidth, min(w-86, 44))
		tree.w = w - sw - 1
		m.drawSep(s, rect{tree.w, body.y, 1, body.h})
		side := rect{tree.w + 1, body.y, sw, body.h}
		bh := m.drawBoardPane(s, side, false)
		if side.h-bh > 2 {
			m.drawDetails(s, rect{side.x, side.y + bh, side.w, side.h - bh})
		}
	default:
		if h >= 16 {
			tree.h -= 3
			m.drawStrip(s, rect{0, tree.y + tree.h, w, 3})
		}
	}
	if tree.w > 0 {
		m.drawPanes(s, tree)
	}
	m.drawFooter(s, w, h-1)
	switch m.mode {
	case modeHelp:
		m.drawHelp(s, body)
	case modeRuns:
		m.drawRuns(s, body)
	case modeHotspots:
		m.drawHotspots(s, body)
	}
}

func (m *Model) drawSep(s tcell.Screen, r rect) {
	for y := r.y; y < r.y+r.h; y++ {
		m.writer(s, r.x, y, 1).put(m.g.sep, m.st.sep)
	}
}

func (m *Model) drawHeader(s tcell.Screen, w int) {
	t := m.cur().t
	run := t.run
	parts := []string{"horizon"}
	if m.opt.File != "" {
		parts = append(parts, m.opt.File)
	}
	parts = append(parts, fmt.Sprintf("run %d (%d of %d) %s", run.ID, m.runIndex(run.ID)+1, len(m.runs), run.Label()))
	if len(m.panes) == 2 {
		o := m.panes[1-m.focus].t.run
		parts[len(parts)-1] += fmt.Sprintf(" vs run %d %s", o.ID, o.Label())
	}
	st := trace.StatusText(run.Status, run.StopCause)
	if run.Depth > 0 {
		st = fmt.Sprintf("depth %d %s", run.Depth, st)
	}
	parts = append(parts, st)
	qs := ""
	if run.Rows > 0 {
		qs = ", " + engine.Percent(run.QSShare()) + " QS"
	}
	if !stillOpen(t.runNode) {
		nodes := closedRunNodes(run, t.runNode)
		parts = append(parts, fmt.Sprintf("%s%s%s", engine.Count(nodes, "node"), qs, recordedNote(run, nodes)))
	} else if run.Status == trace.StatusRunning {
		parts = append(parts, "being recorded (r reloads)")
	} else {
		// The recorder stopped without closing the run (it died): the whole
		// search's size is not known, and nothing more will come. Its
		// nodes are the rows committed, as runs and stats count them.
		parts = append(parts, fmt.Sprintf("%s nodes committed%s%s (the recording ended without closing the run)",
			engine.Commas(run.Nodes), qs, recordedNote(run, run.Nodes)))
	}
	if run.BestMove != "" {
		best := run.BestMove
		if p, err := engine.ParseFEN(run.FEN); err == nil && !m.uci {
			if mv, err := p.ParseUCI(best); err == nil {
				best = p.SAN(mv)
			}
		}
		score := "no score"
		if run.Scored() {
			score = m.g.fmtSigned(run.ResultScores(), engine.Score(run.Score))
			// Another engine's run can report only a bound (an MTD
			// search's last fail-high probe): the run node has it.
			if b := t.runNode.Bound; b == engine.BoundLower || b == engine.BoundUpper {
				score = m.g.boundGlyph(b) + score
			}
		}
		parts = append(parts, fmt.Sprintf("best %s %s", best, score))
	} else if !run.Scored() && run.Ended() {
		// A run that ended before its first iteration did: no answer at
		// all, where a live run has none yet.
		parts = append(parts, "no best move or score (no iteration finished)")
	}
	parts = append(parts, run.Position())
	wr := m.writer(s, 0, 0, w)
	wr.put(" "+clip(strings.Join(parts, " "+m.g.sep+" "), w-1, m.g.ellipsis), m.st.header)
	wr.fill(m.st.header)
}

func (m *Model) runIndex(id int64) int {
	for i, r := range m.runs {
		if r.ID == id {
			return i
		}
	}
	return 0
}

func (m *Model) drawFooter(s tcell.Screen, w, y int) {
	wr := m.writer(s, 0, y, w)
	switch {
	case m.mode == modePrompt:
		label, text := m.prompt.label+": ", string(m.prompt.text)
		// What is typed, and the cursor after it, must show: where the line
		// is short, the label gives way first, down to a third of it, then
		// the start of the text.
		room := w - 2 // the leading space and the cursor
		if ln, tn := utf8.RuneCountInString(label), len(m.prompt.text); ln+tn > room {
			lw := max(room-tn, min(ln, room/3))
			label = ""
			if lw > 2 {
				label = clip(m.prompt.label, lw-2, m.g.ellipsis) + ": "
			}
			text = clipLeft(text, room-utf8.RuneCountInString(label), m.g.ellipsis)
		}
		wr.put(" "+label, m.st.key)
		wr.put(text, m.st.promptText)
		s.ShowCursor(wr.x, y)
		wr.put(" ", m.st.base)
		wr.fill(m.st.base)
		return
	case m.msg != "":
		st := m.st.footer
		if m.msgErr {
			st = m.st.errMsg
		}
		wr.put(" "+clip(m.msg, w-1, m.g.ellipsis), st)
		wr.fill(st)
		s.HideCursor()
		return
	}
	s.HideCursor()
	wr.put(" ", m.st.footer)
	for _, k := range m.footer(m.keyTable()) {
		if wr.x+len(k.foot)+len(k.footDesc)+2 > wr.end {
			break
		}
		wr.put(k.foot, m.st.footer.Bold(true))
		wr.put(" "+k.footDesc+"  ", m.st.footer)
	}
	wr.fill(m.st.footer)
}

func (m *Model) drawPanes(s tcell.Screen, r rect) {
	if len(m.panes) == 1 {
		m.drawTree(s, m.panes[0], r, true)
		return
	}
	lw := (r.w - 1) / 2
	m.drawTree(s, m.panes[0], rect{r.x, r.y, lw, r.h}, m.focus == 0)
	m.drawSep(s, rect{r.x + lw, r.y, 1, r.h})
	m.drawTree(s, m.panes[1], rect{r.x + lw + 1, r.y, r.w - lw - 1, r.h}, m.focus == 1)
}

// drawTree draws a column header and one row per visible node.
func (m *Model) drawTree(s tcell.Screen, p *pane, r rect, focused bool) {
	t := p.t
	show, used := columns(r.w)
	treeW := r.w - used
	// Column header.
	wr := m.writer(s, r.x, r.y, r.w)
	head := "move"
	if len(m.panes) == 2 {
		head = fmt.Sprintf("run %d %s", t.run.ID, t.run.Label())
	}
	if t.order == trace.BySize {
		head += " (by size)"
	}
	if f := m.filterLabel(t.filt); f != "" {
		head += " [" + f + "]"
	}
	hs := m.st.colHead
	if len(m.panes) == 2 && focused {
		hs = hs.Bold(true)
	}
	wr.put(padRight(clip(head, treeW, m.g.ellipsis), treeW), hs)
	for c, col := range treeColumns {
		if show[c] {
			wr.put(" ", hs)
			wr.put(col.fit(col.title, ""), hs)
		}
	}
	wr.fill(hs)

	rows := rect{r.x, r.y + 1, r.w, r.h - 1}
	m.lay.panes = append(m.lay.panes, rows)
	t.height = rows.h
	t.clampTop()
	switch {
	case t.recenter:
		t.center()
	case t.cursor < t.top || t.cursor >= t.top+t.height:
		t.scrollToCursor()
	}
	levels := usesLevels(t.run)
	for i := 0; i < rows.h; i++ {
		row := t.top + i
		ref, ok := t.locate(row)
		if !ok {
			break
		}
		m.drawRow(s, p, rows.x, rows.y+i, rows.w, treeW, show, ref, row == t.cursor, focused, levels)
	}
}

func (m *Model) filterLabel(f filter) string {
	var parts []string
	if f.onlyQS {
		parts = append(parts, "QS only")
	}
	if f.onlyCut {
		parts = append(parts, "cutoffs only")
	}
	if f.minSize > 1 {
		parts = append(parts, "≥"+engine.Short(f.minSize)+" nodes")
		if m.ascii {
			parts[len(parts)-1] = ">=" + engine.Short(f.minSize) + " nodes"
		}
	}
	return strings.Join(parts, ", ")
}

// usesLevels reports whether the run's QS has levels (the threshold
// scheme), so the tree shows them: the run's engine.Options say so
// (trace.Run.SearchOptions, UsesLevels), never its variant's name. Another
// engine's run has no Horizon options; a run whose options cannot be read
// shows no levels (its nodes' qs_level stays in the details).
func usesLevels(r trace.Run) bool {
	o, err := r.SearchOptions()
	return err == nil && o != nil && o.UsesLevels()
}

func (m *Model) drawRow(s tcell.Screen, p *pane, x, y, w, treeW int, show [numCols]bool, r ref, isCursor, focused bool, levels bool) {
	t := p.t
	st := m.st
	wr := m.writer(s, x, y, w)
	cursorStyle := func(base tcell.Style) tcell.Style {
		if !isCursor {
			return base
		}
		if focused {
			return st.cursor
		}
		return base.Underline(true)
	}
	indent := indentOf(r, treeW)
	if r.isSummary() {
		e := r.parent
		wr.put(strings.Repeat(" ", indent+2), cursorStyle(st.base))
		text := fmt.Sprintf("%s %d hidden (%s)", m.g.ellipsis, e.hidden, engine.Count(e.hiddenNodes, "node"))
		wr.put(clip(text, w-indent-2, m.g.ellipsis), cursorStyle(st.dim))
		wr.fill(cursorStyle(st.base))
		return
	}
	n, err := t.nodeAt(r)
	if err != nil {
		wr.put(strings.Repeat(" ", indent), st.base)
		wr.put(clip("error: "+shortErr(err), w-indent, m.g.ellipsis), st.errMsg)
		return
	}
	moveStyle := m.moveStyle(t, n)
	diff, flag, flagStyle := m.compareMarks(p, r, n)

	// The tree part: indentation, marker, move and the compare flag.
	wr.put(strings.Repeat(" ", indent), cursorStyle(st.base))
	marker := m.marker(t, n)
	wr.put(marker, cursorStyle(st.base))
	room := treeW - indent - len([]rune(marker)) - 1
	if flag != "" {
		room -= 2
	}
	wr.put(clip(m.rowLabel(t, r, n, room), room, m.g.ellipsis), cursorStyle(moveStyle))
	if flag != "" {
		wr.put(" ", cursorStyle(st.base))
		wr.put(flag, flagStyle)
	}
	for wr.x < x+treeW {
		wr.put(" ", cursorStyle(st.base))
	}

	rc := &rowCell{n: n, run: &t.run, open: stillOpen(n), openWord: t.run.Status.OpenNode(), levels: levels, share: -1, moveStyle: moveStyle}
	if r.parent != nil && sizeOf(r.parent.node) > 0 {
		rc.share = float64(sizeOf(n)) / float64(sizeOf(r.parent.node))
	}
	for c, col := range treeColumns {
		if !show[c] {
			continue
		}
		text, sty := col.cell(m, rc)
		wr.put(" ", cursorStyle(st.base))
		if diff&(1<<c) != 0 {
			sty = st.diff
		} else {
			sty = cursorStyle(sty)
		}
		wr.put(col.fit(text, m.g.ellipsis), sty)
	}
	wr.fill(cursorStyle(st.base))
}

// marker is the tree marker of a row: open, closed, or a leaf.
func (m *Model) marker(t *tree, n trace.Node) string {
	if _, open := t.open[n.ID]; open {
		return m.g.opened
	}
	if n.SubtreeSize > 1 {
		return m.g.closed
	}
	return m.g.leaf
}

// rowLabel is the move of a row (* when the node is incomplete); an
// iteration root too long for room is shortened to "iter N".
func (m *Model) rowLabel(t *tree, r ref, n trace.Node, room int) string {
	parentFEN := ""
	if r.parent != nil {
		parentFEN = r.parent.fen
	}
	label := m.moveLabel(t, parentFEN, n)
	if n.Incomplete {
		label += "*"
	}
	if n.Kind == engine.KindRoot && len([]rune(label)) > room {
		label = "iter " + strconv.Itoa(n.Iteration)
	}
	return label
}

// moveStyle colours a row's move by its kind, dimmed when it is shown
// only as an ancestor of what the filters keep.
func (m *Model) moveStyle(t *tree, n trace.Node) tcell.Style {
	if t.filt.active() && !t.filt.matches(n) && (t.filt.onlyQS || t.filt.onlyCut) {
		return m.st.dim
	}
	switch n.Kind {
	case engine.KindQS:
		return m.st.qs
	case engine.KindRun, engine.KindRoot:
		return m.st.root
	}
	return m.st.base
}

// compareMarks are a row's marks in compare mode: the columns that differ
// from the other run's node, and the flag after the move (≠ a different
// result, + a node the other run does not have).
func (m *Model) compareMarks(p *pane, r ref, n trace.Node) (diffMask, string, tcell.Style) {
	other, cmp := m.counterpart(p, r, n)
	switch cmp {
	case cmpMissing:
		return 0, m.g.missing, m.st.missing
	case cmpFound:
		diff := diffNodes(p.t.run, m.other(p).t.run, n, other)
		// Subtree sizes almost always differ between variants; the flag is
		// for a different result, the cells show every difference.
		if diff&(1<<colScore|1<<colCause|1<<colKind) != 0 {
			return diff, m.g.differs, m.st.diff
		}
		return diff, "", m.st.diff
	}
	return 0, "", m.st.base
}

// drawStrip is the selection summary of narrow screens.
func (m *Model) drawStrip(s tcell.Screen, r rect) {
	p := m.cur()
	in := p.sel
	st := m.st
	m.drawHLine(s, r.x, r.y, r.w)
	if in == nil {
		return
	}
	n := in.node
	wr := m.writer(s, r.x, r.y+1, r.w)
	if in.err != nil {
		wr.put(clip("error: "+shortErr(in.err), r.w, m.g.ellipsis), st.errMsg)
	} else {
		wr.put(m.nodeSummary(p, n), st.base)
	}
	wr = m.writer(s, r.x, r.y+2, r.w)
	path := in.pathText(m.uci)
	lead := "path "
	if len(in.swing) > 0 {
		lead = "QS swing " + m.swingText(in) + "  path "
	}
	wr.put(lead, st.key)
	wr.put(clipLeft(path, r.w-len([]rune(lead)), m.g.ellipsis), st.base)
}

// nodeSummary is one line about a node: id, kind, depth, window, result.
func (m *Model) nodeSummary(p *pane, n trace.Node) string {
	parts := []string{fmt.Sprintf("#%d %s %s", n.ID, kindLabel(n), n.DepthLabel(usesLevels(p.t.run)))}
	parts = append(parts, m.g.fmtWindow(p.t.run, n, ""))
	if n.HasStandPat {
		parts = append(parts, p.t.run.EvalWords().Short(n)+" "+m.g.fmtScore(p.t.run.Scores(), n.StandPat))
	}
	parts = append(parts, m.g.fmtResult(p.t.run.NodeScores(n), n))
	if c := m.g.causeLabel(n); c != "" {
		parts = append(parts, c)
	}
	if stillOpen(n) {
		parts = append(parts, "still being searched")
	} else {
		parts = append(parts, engine.Count(n.Nodes(), "node"))
		if p.sel != nil && sizeOf(p.sel.parent) > 0 && n.Kind != engine.KindRun {
			parts[len(parts)-1] += " (" + engine.Percent(float64(n.Nodes())/float64(sizeOf(p.sel.parent))) + ")"
		}
	}
	if p.sel != nil && p.sel.fen != "" {
		parts = append(parts, p.sel.fen)
	}
	return strings.Join(parts, "  ")
}

func (m *Model) drawHLine(s tcell.Screen, x, y, w int) {
	line := "─"
	if m.ascii {
		line = "-"
	}
	m.writer(s, x, y, w).put(strings.Repeat(line, w), m.st.sep)
}

func clipLeft(s string, width int, ell string) string {
	r := []rune(s)
	if len(r) <= width || width <= 0 {
		return s
	}
	return ell + string(r[len(r)-width+utf8.RuneCountInString(ell):])
}

// swingText lists the material balance after each QS move.
func (m *Model) swingText(in *nodeInfo) string {
	var b strings.Builder
	for i, sw := range in.swing {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(sw.san)
		b.WriteByte(' ')
		if sw.balance > 0 {
			b.WriteByte('+')
		}
		b.WriteString(strconv.Itoa(sw.balance))
	}
	return b.String()
}

// drawInfo shows board and details in the whole body (narrow screens).
func (m *Model) drawInfo(s tcell.Screen, r rect) {
	if r.w >= sideWidth+30 {
		m.drawBoardPane(s, rect{r.x, r.y, sideWidth, r.h}, true)
		m.drawSep(s, rect{r.x + sideWidth, r.y, 1, r.h})
		m.drawDetails(s, rect{r.x + sideWidth + 1, r.y, r.w - sideWidth - 1, r.h})
		return
	}
	bh := m.drawBoardPane(s, r, false)
	m.drawDetails(s, rect{r.x, r.y + bh, r.w, r.h - bh})
}

// closedRunNodes is the nodes of a run whose run node is closed, as the
// header and the reload message say it: its nodes searched (the run node
// is none), never fewer than the rows it recorded.
func closedRunNodes(run trace.Run, runNode trace.Node) int64 {
	return max(run.Recorded(), runNode.Nodes())
}

// recordedNote says, after a run's count of nodes, how many a recording
// filter kept when it left some out: the tree shows only those rows, not
// the whole search.
func recordedNote(run trace.Run, nodes int64) string {
	if run.Filter != "" && run.Recorded() < nodes {
		return fmt.Sprintf(", %s recorded (recording filter)", engine.Commas(run.Recorded()))
	}
	return ""
}
