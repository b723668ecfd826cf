package viewer

import (
	"github.com/gdamore/tcell/v2"
)

// promptKind says what a typed line is for.
type promptKind int

const (
	promptNode    promptKind = iota // a node id
	promptPath                      // a move path from the root (or from the cursor with a leading +)
	promptFind                      // a move among the children of the selected node
	promptMinSize                   // hide subtrees under N nodes
)

// prompt is the one-line editor at the bottom of the screen.
type prompt struct {
	kind  promptKind
	label string
	text  []rune
}

func (m *Model) openPrompt(k promptKind, label string) {
	m.mode = modePrompt
	m.prompt = prompt{kind: k, label: label}
}

// handlePrompt edits the line; Enter runs it, Esc drops it.
func (m *Model) handlePrompt(ev *tcell.EventKey) {
	p := &m.prompt
	switch ev.Key() {
	case tcell.KeyEscape, tcell.KeyCtrlC, tcell.KeyCtrlG:
		m.mode = modeTree
	case tcell.KeyEnter:
		m.mode = modeTree
		m.runPrompt(p.kind, string(p.text))
	case tcell.KeyBackspace, tcell.KeyBackspace2:
		if len(p.text) > 0 {
			p.text = p.text[:len(p.text)-1]
		} else {
			m.mode = modeTree
		}
	case tcell.KeyCtrlU:
		p.text = p.text[:0]
	case tcell.KeyRune:
		if len(p.text) < 200 {
			p.text = append(p.text, ev.Rune())
		}
	}
}
