package viewer

import (
	"fmt"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

var (
	// Outline glyphs for White, solid ones for Black, so the sides stay
	// apart without colour.
	unicodePieces = map[engine.Piece]string{
		engine.MakePiece(engine.White, engine.King): "♔", engine.MakePiece(engine.White, engine.Queen): "♕",
		engine.MakePiece(engine.White, engine.Rook): "♖", engine.MakePiece(engine.White, engine.Bishop): "♗",
		engine.MakePiece(engine.White, engine.Knight): "♘", engine.MakePiece(engine.White, engine.Pawn): "♙",
		engine.MakePiece(engine.Black, engine.King): "♚", engine.MakePiece(engine.Black, engine.Queen): "♛",
		engine.MakePiece(engine.Black, engine.Rook): "♜", engine.MakePiece(engine.Black, engine.Bishop): "♝",
		engine.MakePiece(engine.Black, engine.Knight): "♞", engine.MakePiece(engine.Black, engine.Pawn): "♟",
	}
)

// boardHeight is the rows the board itself takes: 8 ranks and the files.
const boardHeight = 9

// drawBoardPane draws the board at the selected node, the side to move, the
// last move and the FEN; it returns the rows used.
func (m *Model) drawBoardPane(s tcell.Screen, r rect, full bool) int {
	p := m.cur()
	in := p.sel
	st := m.st
	if in == nil || in.pos == nil {
		msg := "no position"
		if in != nil && in.err != nil {
			msg = shortErr(in.err)
		}
		m.writer(s, r.x+1, r.y, r.w-1).put(clip(msg, r.w-1, m.g.ellipsis), st.errMsg)
		return 1
	}
	pos := in.pos
	y := r.y
	from, to := engine.NoSquare, engine.NoSquare
	if in.last != engine.NoMove {
		from, to = in.last.From(), in.last.To()
	}
	for i := 0; i < 8 && y < r.y+r.h; i++ {
		rank := 7 - i
		if m.flip {
			rank = i
		}
		wr := m.writer(s, r.x, y, r.w)
		wr.put(fmt.Sprintf(" %d ", rank+1), st.dim)
		for j := 0; j < 8; j++ {
			file := j
			if m.flip {
				file = 7 - j
			}
			sq := engine.MakeSquare(file, rank)
			pc := pos.PieceAt(sq)
			glyph := "·"
			if m.ascii {
				glyph = "."
			}
			if pc != engine.NoPiece {
				if m.ascii {
					glyph = string(pc.Letter())
				} else {
					glyph = unicodePieces[pc]
				}
			}
			sty := st.light
			if (file+rank)%2 == 0 {
				sty = st.dark
			}
			l, rr := " ", " "
			if sq == from || sq == to {
				sty = st.lastMove
				l, rr = "[", "]"
			}
			if pc != engine.NoPiece && pc.Color() == engine.White {
				sty = sty.Bold(true)
			}
			wr.put(l+glyph+rr, sty)
		}
		y++
	}
	if y < r.y+r.h {
		files := "abcdefgh"
		if m.flip {
			files = "hgfedcba"
		}
		var b strings.Builder
		b.WriteString("   ")
		for _, f := range files {
			b.WriteString(" " + string(f) + " ")
		}
		m.writer(s, r.x, y, r.w).put(b.String(), st.dim)
		y++
	}
	lines := []string{}
	side := "White"
	if pos.SideToMove() == engine.Black {
		side = "Black"
	}
	stm := " " + side + " to move"
	if pos.InCheck() {
		stm += ", in check"
	}
	lines = append(lines, stm)
	if in.last != engine.NoMove && len(in.san) > 0 {
		lines = append(lines, " last "+in.san[len(in.san)-1]+" ("+in.last.UCI()+")")
	}
	fen := "FEN " + in.fen
	for _, l := range engine.Wrap(fen, r.w-2) {
		lines = append(lines, " "+l)
	}
	for _, l := range lines {
		if y >= r.y+r.h {
			break
		}
		m.writer(s, r.x, y, r.w).put(l, st.base)
		y++
	}
	if y < r.y+r.h {
		y++ // a blank line before what follows
	}
	return y - r.y
}

// detailLabelW is the width of the details pane's label column, the gap
// to the value included: a label must be shorter.
const detailLabelW = 10

// detailLine is a label and its value in the details pane.
type detailLine struct {
	label, value string
	style        tcell.Style
}

// details lists every field of the selected node.
func (m *Model) details(p *pane) []detailLine {
	in := p.sel
	st := m.st
	if in == nil {
		return nil
	}
	if !in.explained {
		in.explained = true
		m.explainSel(p, in)
	}
	n := in.node
	t := p.t
	var out []detailLine
	add := func(label, format string, a ...any) {
		out = append(out, detailLine{label, fmt.Sprintf(format, a...), st.base})
	}
	add("node", "%d  %s", n.ID, kindName(n))
	if n.Kind != engine.KindRun {
		add("iteration", "%d  ply %d  parent %d", n.Iteration, n.Ply, n.Parent)
	}
	switch n.Kind {
	case engine.KindQS:
		lv := ""
		if usesLevels(t.run) {
			lv = fmt.Sprintf("  level %d", n.QSLevel)
		}
		add("depth", "%d  (QS ply %d)%s", n.Depth, n.QSPly, lv)
	case engine.KindRun:
		add("depth", "%d iterations", n.Searched)
	default:
		add("depth", "%d", n.Depth)
	}
	check := ""
	if n.InCheck {
		check = "  in check"
	}
	add("window", "%s%s", m.g.fmtWindow(t.run, n, " "), check)
	if n.HasStandPat {
		add(t.run.EvalWords().Label(n), "%s", m.g.fmtSigned(t.run.Scores(), n.StandPat))
	}
	out = append(out, m.scoreLines(t, n)...)
	best := "none"
	if n.Best != engine.NoMove {
		best = n.Best.UCI()
		if in.pos != nil && !m.uci && in.pos.IsLegal(n.Best) {
			best = in.pos.SAN(n.Best)
		}
	}
	add("moves", "%s, best %s", t.run.MovesText(n), best)
	if in.unrecorded > 0 {
		add("filtered", "%s below not recorded (recording filter: %s)", engine.Count(in.unrecorded, "node"), t.run.FilterText())
	}
	if n.Extension != 0 {
		add("extension", "%d ply", n.Extension)
	}
	size := engine.Count(n.Nodes(), "node")
	if sizeOf(in.parent) > 0 {
		size += "  " + engine.Percent(float64(n.Nodes())/float64(sizeOf(in.parent))) + " of parent"
	}
	if sizeOf(t.runNode) > 0 && n.Kind != engine.KindRun {
		size += "  " + engine.SharePercent(float64(n.Nodes())/float64(sizeOf(t.runNode))) + " of run"
	}
	if stillOpen(n) {
		size = "not known yet: the recorder is still in this node (r reloads)"
	}
	add("subtree", "%s", size)
	out = append(out, m.causeLines(in)...)
	if n.Incomplete && !stillOpen(n) {
		out = append(out, detailLine{"stopped", "while this node was open: incomplete, its score and counts are of a partial search", st.errMsg})
	}
	out = append(out, m.qsRootLines(in)...)
	add("path", "%s", in.pathText(m.uci))
	if in.err != nil {
		out = append(out, detailLine{"error", shortErr(in.err), st.errMsg})
	}
	if len(m.panes) == 2 {
		out = append(out, m.compareLines(p)...)
	}
	return out
}

// scoreLines are the details' score and cause lines, styled by bound and
// cutoff, or saying why an open node has neither yet.
func (m *Model) scoreLines(t *tree, n trace.Node) []detailLine {
	st := m.st
	sc := detailLine{"score", fmt.Sprintf("%s  %s", m.g.fmtSigned(t.run.NodeScores(n), n.Score), boundText(n.Bound)), st.base}
	switch n.Bound {
	case engine.BoundExact:
		sc.style = st.exact
	case engine.BoundLower:
		sc.style = st.beta
	}
	if stillOpen(n) {
		sc = detailLine{"score", "not known yet: still being searched", st.dim}
		if t.run.Status != trace.StatusRunning {
			sc.value = "never known: the search was here when the run ended (" + t.run.Status.Meaning() + ")"
		}
	}
	cs := detailLine{"cause", causeText(t.run, n), st.base}
	if stillOpen(n) {
		cs.value = t.run.Status.OpenNode()
	}
	switch n.Cause {
	case engine.CauseBeta:
		cs.style = st.beta
	case engine.CauseStandPat:
		cs.style = st.standPat
	}
	return []detailLine{sc, cs}
}

// qsRootLines are the details of a QS node's root: where QS began on its
// path and the material swing since.
func (m *Model) qsRootLines(in *nodeInfo) []detailLine {
	if in.qsRoot < 0 || in.qsRoot >= len(in.path) {
		return nil
	}
	var out []detailLine
	add := func(label, format string, a ...any) {
		out = append(out, detailLine{label, fmt.Sprintf(format, a...), m.st.base})
	}
	root := in.path[in.qsRoot]
	entry := "the QS root"
	if i := in.qsRoot; i < len(in.path) && in.path[i].Move != engine.NoMove {
		k := m.sanIndex(in, i)
		if k >= 0 {
			entry = "after " + in.san[k]
		}
	}
	add("QS root", "node %d, %s, %s", root.ID, entry, engine.Count(root.Nodes(), "node"))
	if len(in.swing) > 0 {
		side := "White"
		if in.swingFor == engine.Black {
			side = "Black"
		}
		add("swing", "%s's material since the QS root, after each move: %s", side, m.swingText(in))
	} else {
		add("swing", "0 (this is the QS root)")
	}
	return out
}

// sanIndex maps an index in the path to the index of its move in san, -1
// when there is none: the node has no move, or san ends before it (a
// damaged trace's move that cannot be played ends the moves played, and
// the QS root found at that node indexed past them).
func (m *Model) sanIndex(in *nodeInfo, i int) int {
	k := -1
	for j := 0; j <= i && j < len(in.path); j++ {
		if in.path[j].Move != engine.NoMove {
			k++
		}
	}
	if k >= len(in.san) {
		return -1
	}
	return k
}

func kindName(n trace.Node) string { return n.Kind.LongLabel() }

func (m *Model) drawDetails(s tcell.Screen, r rect) {
	if r.h <= 0 || r.w <= 10 {
		return
	}
	const lw = detailLabelW
	y := r.y
	for _, d := range m.details(m.cur()) {
		vals := engine.Wrap(d.value, r.w-lw-2)
		if len(vals) == 0 {
			vals = []string{""}
		}
		for i, v := range vals {
			if y >= r.y+r.h {
				return
			}
			wr := m.writer(s, r.x, y, r.w)
			label := ""
			if i == 0 {
				label = d.label
			}
			wr.put(" "+padRight(label, lw), m.st.key)
			wr.put(v, d.style)
			y++
		}
	}
}
