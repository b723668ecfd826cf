package viewer

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
	"github.com/horizonqs/horizon/engine"
)

// box draws a framed rectangle centred in r, w by h at most, and returns
// its inside.
func (m *Model) box(s tcell.Screen, r rect, w, h int, title string) rect {
	w, h = min(w, r.w), min(h, r.h)
	b := rect{r.x + (r.w-w)/2, r.y + (r.h-h)/2, w, h}
	m.fillRect(s, b, m.st.base)
	hz, vt, tl, tr, bl, br := "─", "│", "┌", "┐", "└", "┘"
	if m.ascii {
		hz, vt, tl, tr, bl, br = "-", "|", "+", "+", "+", "+"
	}
	top := tl + hz + " " + title + " " + strings.Repeat(hz, max(0, w-len([]rune(title))-5)) + tr
	m.writer(s, b.x, b.y, w).put(clip(top, w, ""), m.st.title)
	for y := b.y + 1; y < b.y+h-1; y++ {
		m.writer(s, b.x, y, 1).put(vt, m.st.sep)
		m.writer(s, b.x+w-1, y, 1).put(vt, m.st.sep)
	}
	m.writer(s, b.x, b.y+h-1, w).put(bl+strings.Repeat(hz, max(0, w-2))+br, m.st.sep)
	return rect{b.x + 2, b.y + 1, max(w-4, 0), max(h-2, 0)}
}

// helpKeyW is the width of the help screen's key column.
const helpKeyW = 18

// drawHelp shows the help lines, a description too long for the box
// wrapped under itself rather than cut.
func (m *Model) drawHelp(s tcell.Screen, body rect) {
	w := min(96, body.w)
	whatW := max(w-4-helpKeyW, 1)
	type line struct {
		keys, what string
		head       bool // a section heading
	}
	var lines []line
	for _, l := range helpText() {
		keys, what := l.keys, l.what
		if m.ascii {
			keys, what = asciiArrows.Replace(keys), asciiArrows.Replace(what)
		}
		if keys == "" || len([]rune(what)) <= whatW {
			lines = append(lines, line{keys, what, keys == ""})
			continue
		}
		for i, part := range engine.Wrap(what, whatW) {
			if i > 0 {
				keys = ""
			}
			lines = append(lines, line{keys, part, false})
		}
	}
	m.helpLines = len(lines)
	m.help = max(0, min(m.help, len(lines)-1))
	in := m.box(s, body, w, len(lines)+2, "keys (esc closes)")
	for i := 0; i < in.h && m.help+i < len(lines); i++ {
		l := lines[m.help+i]
		wr := m.writer(s, in.x, in.y+i, in.w)
		if l.head {
			wr.put(l.what, m.st.title)
			continue
		}
		wr.put(padRight(l.keys, helpKeyW), m.st.key)
		wr.put(clip(l.what, in.w-helpKeyW, m.g.ellipsis), m.st.base)
	}
}

var asciiArrows = strings.NewReplacer("↓", "down", "↑", "up", "→", "right", "←", "left",
	"≥", ">=", "≤", "<=", "▸", "+", "▾", "-", "≠", "!")

// listWindow returns the first entry to show so that the cursor is visible.
func listWindow(cursor, n, h int) int {
	if h <= 0 {
		return 0
	}
	first := max(0, cursor-h/2)
	return max(0, min(first, n-h))
}

func (m *Model) drawRuns(s tcell.Screen, body rect) {
	title := "runs in this file (enter opens)"
	if m.pick == pickCompare {
		title = "compare with which run? (enter picks)"
	}
	in := m.box(s, body, 100, len(m.runs)+3, title)
	// The variant column is as wide as the widest label: a label cut short
	// could hide the switch that tells two runs apart.
	vw := 10
	for _, r := range m.runs {
		vw = max(vw, utf8.RuneCountInString(r.Label()))
	}
	head := fmt.Sprintf("%5s  %-*s %5s %-11s %12s  %s", "run", vw, "variant", "depth", "status", "nodes", "position")
	cur := m.cur().t.run.ID
	m.drawList(s, in, head, len(m.runs), func(i, _ int) string {
		r := m.runs[i]
		mark := " "
		if r.ID == cur {
			mark = "*"
		}
		return fmt.Sprintf("%s%4d  %-*s %5d %-11s %12s  %s", mark, r.ID, vw, r.Label(), r.Depth, r.Status,
			engine.Commas(max(r.Recorded(), r.Nodes)), r.Position())
	})
}

// drawList fills a list overlay's inside: a column header, then the n
// entries line gives (w is the row width), scrolled to the list cursor,
// which is highlighted. It records the rows for the mouse.
func (m *Model) drawList(s tcell.Screen, in rect, head string, n int, line func(i, w int) string) {
	m.writer(s, in.x, in.y, in.w).put(clip(head, in.w, ""), m.st.colHead)
	rows := rect{in.x, in.y + 1, in.w, in.h - 1}
	first := listWindow(m.list, n, rows.h)
	m.lay.list, m.lay.listN = rows, first
	for i := 0; i < rows.h && first+i < n; i++ {
		st := m.st.base
		if first+i == m.list {
			st = m.st.sel
		}
		wr := m.writer(s, rows.x, rows.y+i, rows.w)
		wr.put(clip(line(first+i, rows.w), rows.w, m.g.ellipsis), st)
		wr.fill(st)
	}
}
