package viewer

import "github.com/gdamore/tcell/v2"

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
			m.list = max(m.list-1, 0)
		case b&tcell.WheelDown != 0:
			m.list = max(0, min(m.list+1, m.listLen()-1))
		case click && m.lay.list.contains(x, y):
			// The hotspot list's box is taller than a short list: a row
			// below the last entry is none.
			if i := m.lay.listN + y - m.lay.list.y; i < m.listLen() {
				m.list = i
				m.pickListEntry()
			}
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
