package viewer

// The run picker (R, and = with more than two runs) and the list keys it
// shares with the hotspot list.

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

// listLen is the number of entries of the list shown.
func (m *Model) listLen() int {
	if m.mode == modeHotspots {
		return len(m.hotList(m.cur()))
	}
	return len(m.runs)
}

func (m *Model) listPage() int { return max(m.lay.list.h-1, 1) }

// pickClamped picks the entry under the cursor.
func (m *Model) pickClamped() {
	m.list = max(0, min(m.list, m.listLen()-1))
	m.pickListEntry()
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
		var t *tree
		var err error
		if comparing(m) {
			t, err = m.compareTree(m.other(m.cur()), id)
		} else {
			t, err = newTree(m.ctx, m.src, id)
		}
		if err != nil {
			m.setErr(err)
			return
		}
		p := m.cur()
		p.t, p.sel, p.hot, p.hotGr, p.hotIdx = t, nil, nil, nil, -1
		m.setMsg("run %d: %s, %s", t.run.ID, t.run.Label(), t.run.Position())
	}
}
