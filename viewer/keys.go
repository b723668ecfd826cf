package viewer

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/horizonqs/horizon/trace"
)

// The keys of each mode are one table of keyActions, after k9s's
// KeyActions: the table drives dispatch, the ? help screen and the footer,
// so none of the three can drift from the others.

// keyAction is one line of the help screen: the keys bound on it, what
// each does, and how the footer names it.
type keyAction struct {
	binds []binding // empty for a section heading or a help-only line
	label string    // the key column of a help-only line (binds empty)
	desc  string    // what the keys do; a section heading when binds and label are empty
	// foot and footDesc name the line in the footer ("" keeps it out);
	// footAt orders the footer.
	foot, footDesc string
	footAt         int
	// when, if set, says whether the keys are bound (and shown in the
	// footer) in the model's current state; footWhen, whether the footer
	// names them.
	when, footWhen func(m *Model) bool
}

// binding is a set of keys with one effect. keys are shown in the help
// screen; also are bound too but not shown (control-key synonyms the
// description mentions, or none at all).
type binding struct {
	keys, also []string
	do         func(m *Model)
}

// keyID names a key as tcell reports it: a rune, or a special key.
type keyID struct {
	key tcell.Key
	r   rune
}

func eventID(ev *tcell.EventKey) keyID {
	if ev.Key() == tcell.KeyRune {
		return keyID{tcell.KeyRune, ev.Rune()}
	}
	return keyID{ev.Key(), 0}
}

// namedKeys are the key names a table may use besides single characters;
// the names are what the help screen shows.
var namedKeys = map[string][]tcell.Key{
	"↓": {tcell.KeyDown}, "↑": {tcell.KeyUp}, "→": {tcell.KeyRight}, "←": {tcell.KeyLeft},
	"enter": {tcell.KeyEnter}, "esc": {tcell.KeyEscape}, "tab": {tcell.KeyTab}, "backtab": {tcell.KeyBacktab},
	"backspace": {tcell.KeyBackspace, tcell.KeyBackspace2},
	"home":      {tcell.KeyHome}, "end": {tcell.KeyEnd}, "pgdn": {tcell.KeyPgDn}, "pgup": {tcell.KeyPgUp},
}

// keyIDs turns a key name into what tcell reports for it: a single
// character, "space", "^x" for control keys, or one of namedKeys. A bad
// name in a table is a programming error, caught by the tests.
func keyIDs(name string) []keyID {
	if ks, ok := namedKeys[name]; ok {
		ids := make([]keyID, len(ks))
		for i, k := range ks {
			ids[i] = keyID{k, 0}
		}
		return ids
	}
	r := []rune(name)
	switch {
	case name == "space":
		return []keyID{{tcell.KeyRune, ' '}}
	case len(r) == 1:
		return []keyID{{tcell.KeyRune, r[0]}}
	case len(r) == 2 && r[0] == '^' && r[1] >= 'a' && r[1] <= 'z':
		return []keyID{{tcell.KeyCtrlA + tcell.Key(r[1]-'a'), 0}}
	}
	panic(fmt.Sprintf("viewer: unknown key name %q in a key table", name))
}

// dispatch runs the action bound to ev in table and reports whether there
// was one. The first line whose keys match and whose when holds wins.
func (m *Model) dispatch(table []keyAction, ev *tcell.EventKey) bool {
	id := eventID(ev)
	for _, a := range table {
		if a.when != nil && !a.when(m) {
			continue
		}
		for _, b := range a.binds {
			if b.bound(id) {
				b.do(m)
				return true
			}
		}
	}
	return false
}

func (b binding) bound(id keyID) bool {
	for _, names := range [2][]string{b.keys, b.also} {
		for _, name := range names {
			for _, k := range keyIDs(name) {
				if k == id {
					return true
				}
			}
		}
	}
	return false
}

// helpKeys is the key column of a help line: the first key of every
// binding, then the second of each, and so on, the columns two spaces
// apart ("j k  ↓ ↑").
func (a keyAction) helpKeys() string {
	if len(a.binds) == 0 {
		return a.label
	}
	var cols []string
	for i := 0; ; i++ {
		var col []string
		for _, b := range a.binds {
			if i < len(b.keys) {
				col = append(col, b.keys[i])
			}
		}
		if len(col) == 0 {
			return strings.Join(cols, "  ")
		}
		cols = append(cols, strings.Join(col, " "))
	}
}

// footer lists the footer entries of table in the model's state, in
// footAt order.
func (m *Model) footer(table []keyAction) []keyAction {
	var out []keyAction
	for _, a := range table {
		if a.foot == "" || (a.when != nil && !a.when(m)) || (a.footWhen != nil && !a.footWhen(m)) {
			continue
		}
		out = append(out, a)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].footAt < out[j].footAt })
	return out
}

// keyTable is the table of the current mode (the prompt edits a line and
// has none).
func (m *Model) keyTable() []keyAction {
	switch m.mode {
	case modeHelp:
		return helpModeKeys
	case modeRuns, modeHotspots:
		return listKeys
	}
	return treeKeys
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
	case *causesLoaded:
		m.causesDone(ev)
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
	mode := m.mode
	if !m.dispatch(m.keyTable(), ev) && mode == modeHelp {
		m.mode = modeTree // any other key closes the help
	}
	switch mode {
	case modeHelp:
		m.help = max(0, min(m.help, m.helpLines-1))
	case modeRuns, modeHotspots:
		m.list = max(0, min(m.list, m.listLen()-1))
	}
}

func quit(m *Model) { m.quit = true }

// withErr wraps an action that may fail: its error goes to the footer.
func withErr(f func(m *Model) error) func(m *Model) {
	return func(m *Model) { m.setErr(f(m)) }
}

func comparing(m *Model) bool { return len(m.panes) == 2 }

// treeKeys are the keys of the tree, the main screen.
var treeKeys = []keyAction{
	{desc: "Moving"},
	{binds: []binding{
		{keys: []string{"j", "↓"}, also: []string{"^n"}, do: func(m *Model) { m.moveCursor(+1) }},
		{keys: []string{"k", "↑"}, also: []string{"^p"}, do: func(m *Model) { m.moveCursor(-1) }},
	}, desc: "next / previous row", foot: "jk", footDesc: "move", footAt: 5},
	{binds: []binding{{keys: []string{"l", "→"}, do: (*Model).openOrDescend}},
		desc: "open the node; on an open node, go to its first child", foot: "hl", footDesc: "close/open", footAt: 6},
	{binds: []binding{{keys: []string{"h", "←"}, do: (*Model).closeOrAscend}},
		desc: "close the node; on a closed node, go to its parent"},
	{binds: []binding{{keys: []string{"enter", "space"}, do: (*Model).toggle}}, desc: "open or close the node"},
	{binds: []binding{{keys: []string{"p", "backspace"}, do: (*Model).toParent}}, desc: "go to the parent"},
	{binds: []binding{
		{keys: []string{"g", "home"}, do: func(m *Model) { m.cur().t.setCursor(0) }},
		{keys: []string{"G", "end"}, do: func(m *Model) { t := m.cur().t; t.setCursor(t.rows() - 1) }},
	}, desc: "first / last row"},
	{binds: []binding{
		{keys: []string{"pgdn", "^f"}, do: func(m *Model) { m.page(+1) }},
		{keys: []string{"pgup", "^b"}, do: func(m *Model) { m.page(-1) }},
		{also: []string{"^d"}, do: func(m *Model) { m.moveCursor(+m.pageRows() / 2) }},
		{also: []string{"^u"}, do: func(m *Model) { m.moveCursor(-m.pageRows() / 2) }},
	}, desc: "next / previous screen (^d ^u: half a screen)"},
	{binds: []binding{{keys: []string{"c"}, do: func(m *Model) {
		m.cur().t.collapseAll()
		m.setMsg("closed everything")
	}}}, desc: "close everything"},
	{label: "mouse", desc: "click selects (on the marker: opens or closes), wheel scrolls"},

	{desc: "Finding"},
	{binds: []binding{
		{keys: []string{"n"}, do: withErr(func(m *Model) error { return m.hotspot(+1) })},
		{keys: []string{"N"}, do: withErr(func(m *Model) error { return m.hotspot(-1) })},
	}, desc: "next / previous hotspot: the biggest QS trees and extension chains first", foot: "n", footDesc: "hotspot", footAt: 7},
	{binds: []binding{{keys: []string{"H"}, do: (*Model).openHotList}},
		desc: "hotspot list (g there: rank full-width nodes by growth)"},
	{binds: []binding{{keys: []string{"*"}, do: withErr((*Model).heaviest)}},
		desc: "follow the heaviest child down from the node to a leaf", foot: "*", footDesc: "heaviest", footAt: 16},
	{binds: []binding{{keys: []string{"v"}, do: withErr((*Model).toPV)}},
		desc: "the principal variation of the last iteration", foot: "v", footDesc: "PV", footAt: 8},
	{binds: []binding{{keys: []string{"/"}, do: func(m *Model) {
		m.openPrompt(promptPath, "move path (e4 e5 Nf3; +Nf3 from the node)")
	}}}, desc: "go to a move path, e.g. e4 e5 Nf3 (+Nf3: from the node; iteration 2: e4)", foot: "/", footDesc: "path", footAt: 9},
	{binds: []binding{
		{keys: []string{":"}, do: func(m *Model) { m.openPrompt(promptNode, "node id") }},
		{keys: []string{"#"}, do: func(m *Model) { m.openPrompt(promptNode, "node id") }},
	}, desc: "go to a node id", foot: ":", footDesc: "node", footAt: 10},
	{binds: []binding{
		{keys: []string{"f"}, do: func(m *Model) { m.openPrompt(promptFind, "find child by move") }},
		{also: []string{";"}, do: withErr((*Model).nextSameMove)},
	}, desc: "find a child of the node by its move (; finds the next with the same move)", foot: "f", footDesc: "find", footAt: 11},

	{desc: "Showing"},
	{binds: []binding{{keys: []string{"s"}, do: (*Model).toggleOrder}},
		desc: "sort children by search order or by subtree size", foot: "s", footDesc: "sort", footAt: 12},
	{binds: []binding{{keys: []string{"m"}, do: func(m *Model) {
		m.openPrompt(promptMinSize, "hide subtrees under N nodes (0: show all)")
	}}}, desc: "hide subtrees under N nodes", foot: "m", footDesc: "min size", footAt: 13},
	{binds: []binding{{keys: []string{"Q"}, do: func(m *Model) {
		f := m.cur().t.filt
		f.onlyQS = !f.onlyQS
		m.applyFilter(f)
	}}}, desc: "only QS nodes (and the nodes above them)", foot: "Q", footDesc: "QS only", footAt: 14},
	{binds: []binding{{keys: []string{"!"}, do: func(m *Model) {
		f := m.cur().t.filt
		f.onlyCut = !f.onlyCut
		m.applyFilter(f)
	}}}, desc: "only cutoff nodes (and the nodes above them)", foot: "!", footDesc: "cutoffs", footAt: 15},
	{binds: []binding{{keys: []string{"u"}, do: func(m *Model) {
		m.uci = !m.uci
		for _, q := range m.panes {
			dropSel(q.sel)
			q.sel = nil
		}
	}}}, desc: "moves in SAN or UCI"},
	{binds: []binding{{keys: []string{"a"}, do: func(m *Model) {
		m.ascii = !m.ascii
		m.setGlyphs()
	}}}, desc: "ASCII or Unicode"},
	{binds: []binding{{keys: []string{"b"}, do: func(m *Model) { m.flip = !m.flip }}}, desc: "flip the board"},
	{binds: []binding{{keys: []string{"i"}, do: func(m *Model) { m.info = !m.info }}},
		desc: "board and details (narrow screens)", foot: "i", footDesc: "board", footAt: 4,
		footWhen: func(m *Model) bool { return !comparing(m) && m.lay.w < wideAt }},
	{binds: []binding{{keys: []string{"y"}, do: (*Model).copyFEN}},
		desc: "copy the FEN of the node to the clipboard (OSC 52)", foot: "y", footDesc: "copy FEN", footAt: 17},

	{desc: "Runs"},
	{binds: []binding{{keys: []string{"R"}, do: func(m *Model) { m.openPicker(pickRun) }}},
		desc: "pick another run of the file"},
	{binds: []binding{{keys: []string{"="}, do: (*Model).toggleCompare}},
		desc: "compare with another run side by side (tab: switch the leading pane)",
		foot: "=", footDesc: "end compare", footAt: 1, footWhen: comparing},
	{binds: []binding{{also: []string{"tab", "backtab"}, do: func(m *Model) { m.focus = 1 - m.focus }}},
		foot: "tab", footDesc: "other run", footAt: 0, when: comparing},
	{binds: []binding{{keys: []string{"r"}, do: withErr((*Model).reload)}},
		desc: "reload the file (a trace still being recorded)"},
	{binds: []binding{{keys: []string{"?"}, do: func(m *Model) { m.mode, m.help = modeHelp, 0 }}},
		desc: "this help", foot: "?", footDesc: "help", footAt: 2},
	{binds: []binding{{keys: []string{"^l"}, do: func(m *Model) { m.resync = true }}}, desc: "redraw the screen"},
	{binds: []binding{{keys: []string{"q", "^c"}, do: quit}},
		desc: "quit (the FEN of the node is printed)", foot: "q", footDesc: "quit", footAt: 3},
	{binds: []binding{{also: []string{"esc"}, do: func(*Model) {}}}},
}

// helpModeKeys scroll the help screen; any other key closes it.
var helpModeKeys = []keyAction{
	{binds: []binding{
		{keys: []string{"j", "↓"}, do: func(m *Model) { m.help++ }},
		{keys: []string{"k", "↑"}, do: func(m *Model) { m.help-- }},
		{keys: []string{"pgdn", "space"}, do: func(m *Model) { m.help += 10 }},
		{keys: []string{"pgup"}, do: func(m *Model) { m.help -= 10 }},
	}, foot: "jk", footDesc: "scroll"},
	{binds: []binding{{keys: []string{"esc"}, do: func(m *Model) { m.mode = modeTree }}}, foot: "esc", footDesc: "close", footAt: 1},
	{binds: []binding{{keys: []string{"q"}, do: quit}}, foot: "q", footDesc: "quit", footAt: 2},
}

func inHotList(m *Model) bool { return m.mode == modeHotspots }

// listKeys move in the run picker and the hotspot list.
var listKeys = []keyAction{
	{binds: []binding{
		{keys: []string{"j", "↓"}, do: func(m *Model) { m.list++ }},
		{keys: []string{"k", "↑"}, do: func(m *Model) { m.list-- }},
		{keys: []string{"pgdn"}, do: func(m *Model) { m.list += m.listPage() }},
		{keys: []string{"pgup"}, do: func(m *Model) { m.list -= m.listPage() }},
		{keys: []string{"home"}, do: func(m *Model) { m.list = 0 }},
		{keys: []string{"end"}, do: func(m *Model) { m.list = m.listLen() - 1 }},
	}, foot: "jk", footDesc: "move"},
	{binds: []binding{{keys: []string{"enter"}, do: (*Model).pickClamped}},
		foot: "enter", footDesc: "open", footAt: 1, when: func(m *Model) bool { return !inHotList(m) }},
	{binds: []binding{{keys: []string{"enter"}, do: (*Model).pickClamped}},
		foot: "enter", footDesc: "go", footAt: 1, when: inHotList},
	{binds: []binding{{keys: []string{"g"}, do: (*Model).toggleHotOrder}},
		foot: "g", footDesc: "size/growth", footAt: 2, when: inHotList},
	{binds: []binding{{keys: []string{"q"}, do: quit}}},
	{binds: []binding{{keys: []string{"esc", "H", "R", "?"}, do: func(m *Model) { m.mode = modeTree }}},
		foot: "esc", footDesc: "close", footAt: 3},
}

// helpLine is one line of the help screen.
type helpLine struct{ keys, what string }

// helpText lists the help screen: the tree's key table, then the columns
// of the tree pane from their table.
func helpText() []helpLine {
	var out []helpLine
	for _, a := range treeKeys {
		if a.desc == "" {
			continue // bound but described on another line
		}
		out = append(out, helpLine{a.helpKeys(), a.desc})
	}
	out = append(out, helpLine{"", "Columns"},
		helpLine{"move", "the move that led to the node; every other column is of the position after it (a quiet move played at depth 1 leads to a QS node)"})
	for _, c := range treeColumns {
		if c.help != "" {
			out = append(out, helpLine{c.title, c.help})
		}
	}
	return append(out, helpLine{"marks", "▸ closed  ▾ open  * incomplete  ≠ result differs from the other run  + only in this run"},
		helpLine{"paths", "dxe6" + trace.VisitSep + "2: the 2nd visit of dxe6 under one node (a re-search or a level pass), as diff writes it (dxe6.2 where " + trace.VisitSep + " cannot be typed); dxe6" + trace.VisitSep + "1 the 1st when it has later ones (bare dxe6 reads as the last); #N in a score is mate in N"})
}
