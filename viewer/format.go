package viewer

import (
	"strconv"
	"strings"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// glyphs are the characters that have a plain-ASCII stand-in.
type glyphs struct {
	closed, opened, leaf string // tree markers
	ge, le               string // bounds
	inf                  string
	ellipsis             string
	differs, missing     string // compare mode
	bar                  []string
	sep                  string
}

var unicodeGlyphs = glyphs{
	closed: "▸ ", opened: "▾ ", leaf: "  ",
	ge: "≥", le: "≤", inf: "∞", ellipsis: "…",
	differs: "≠", missing: "+",
	bar: []string{" ", "▏", "▎", "▍", "▌", "▋", "▊", "▉", "█"},
	sep: "│",
}

var asciiGlyphs = glyphs{
	closed: "+ ", opened: "- ", leaf: "  ",
	ge: ">=", le: "<=", inf: "inf", ellipsis: "~",
	differs: "!", missing: "+",
	bar: []string{".", ".", ".", ":", ":", ":", "#", "#", "#"},
	sep: "|",
}

// fmtScore writes a score in its run's format (trace.Run.Scores), with
// the ASCII stand-in for ∞ when the terminal wants one.
func (g *glyphs) fmtScore(sf engine.ScoreFormat, s engine.Score) string {
	return strings.Replace(sf.Text(s), "∞", g.inf, 1)
}

func (g *glyphs) fmtSigned(sf engine.ScoreFormat, s engine.Score) string {
	return strings.Replace(sf.Signed(s), "∞", g.inf, 1)
}

// fmtWindow writes node n of run r's window as [alpha,beta], or with sep
// after the comma.
func (g *glyphs) fmtWindow(r trace.Run, n trace.Node, sep string) string {
	sf := r.WindowScores(n)
	return "[" + g.fmtScore(sf, n.Alpha) + "," + sep + g.fmtScore(sf, n.Beta) + "]"
}

// fmtResult writes the score with its bound: =12 exact, ≥40 fail high,
// ≤-3 fail low.
func (g *glyphs) fmtResult(sf engine.ScoreFormat, n trace.Node) string {
	return g.boundGlyph(n.Bound) + g.fmtScore(sf, n.Score)
}

// boundGlyph is b's short label (engine.Bound.Label: "=", ">=", "<=",
// "?"), with ≥ and ≤ where the terminal shows them.
func (g *glyphs) boundGlyph(b engine.Bound) string {
	switch s := b.Label(); s {
	case ">=":
		return g.ge
	case "<=":
		return g.le
	default:
		return s
	}
}

// causeLabel is the short label of why a node stopped, for the tree
// column (engine.Cause.Label), with the cutting move's number after a
// beta cutoff.
func (g *glyphs) causeLabel(n trace.Node) string {
	s := n.Cause.Label()
	if n.Cause == engine.CauseBeta && n.CutIndex >= 0 {
		s += "@" + engine.CountText(n.CutIndex+1, n.CutIndexAtLeast)
	}
	return s
}

// causeText explains a cause in words, for the details pane of node n of
// run r (trace.Run.CutText when the node has a cut index).
func causeText(r trace.Run, n trace.Node) string {
	if n.CutIndex >= 0 {
		return r.CutText(n)
	}
	return n.Cause.String() + ": " + n.Cause.Meaning()
}

func boundText(b engine.Bound) string { return b.LongLabel() }

// bar draws share (0..1) in width cells.
func (g *glyphs) shareBar(share float64, width int) string {
	share = max(0, min(share, 1))
	steps := len(g.bar) - 1
	eighths := int(share*float64(width*steps) + 0.5)
	if share > 0 && eighths == 0 {
		eighths = 1 // a non-empty subtree never draws as nothing
	}
	var b strings.Builder
	for i := 0; i < width; i++ {
		k := min(max(eighths-i*steps, 0), steps)
		b.WriteString(g.bar[k])
	}
	return b.String()
}

// kindLabel names a node kind for the tree column.
func kindLabel(n trace.Node) string {
	if n.Kind == engine.KindRoot {
		return "root"
	}
	return n.Kind.String()
}

// moveLabel names the row of a node: its move, or what the node is.
func (m *Model) moveLabel(t *tree, parentFEN string, n trace.Node) string {
	switch n.Kind {
	case engine.KindRun:
		return "run " + strconv.FormatInt(t.run.ID, 10)
	case engine.KindRoot:
		return trace.IterationLabel(n.Iteration)
	}
	if trace.IsNested(n) {
		return trace.NestedText(t.nested[n.ID])
	}
	if n.Move == engine.NoMove {
		return trace.QSRootLabel
	}
	if m.uci {
		return n.Move.UCI()
	}
	p, err := t.pos.get(parentFEN)
	if err != nil || !p.IsLegal(n.Move) {
		return n.Move.UCI()
	}
	return p.SAN(n.Move)
}

// clip cuts s to width cells, marking the cut with an ellipsis.
func clip(s string, width int, ell string) string {
	if width <= 0 {
		return ""
	}
	r := []rune(s)
	if len(r) <= width {
		return s
	}
	if width <= len([]rune(ell)) {
		return string(r[:width])
	}
	return string(r[:width-len([]rune(ell))]) + ell
}

func padRight(s string, width int) string {
	n := len([]rune(s))
	if n >= width {
		return s
	}
	return s + strings.Repeat(" ", width-n)
}

func padLeft(s string, width int) string {
	n := len([]rune(s))
	if n >= width {
		return s
	}
	return strings.Repeat(" ", width-n) + s
}
