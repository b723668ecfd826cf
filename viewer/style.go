package viewer

import "github.com/gdamore/tcell/v2"

// styles are the looks of the screen. Every distinction colour makes is
// also made in text (kind column, bound symbols, cause names, markers), so a
// screen without colour (NO_COLOR, or a monochrome terminal) loses nothing
// but the colour.
type styles struct {
	base, header, footer, colHead, cursor, dim, sep tcell.Style
	qs, full, root                                  tcell.Style
	beta, standPat, exact, cut                      tcell.Style
	diff, missing, errMsg, msg, key, title, sel     tcell.Style
	light, dark, lastMove, whitePiece, blackPiece   tcell.Style
	promptText                                      tcell.Style
}

func newStyles(color bool) styles {
	d := tcell.StyleDefault
	s := styles{
		base:       d,
		header:     d.Reverse(true),
		footer:     d.Reverse(true),
		colHead:    d.Underline(true),
		cursor:     d.Reverse(true),
		dim:        d.Dim(true),
		sep:        d,
		root:       d.Bold(true),
		beta:       d.Bold(true),
		standPat:   d.Bold(true),
		cut:        d,
		exact:      d,
		diff:       d.Bold(true).Underline(true),
		missing:    d.Bold(true),
		errMsg:     d.Bold(true),
		msg:        d,
		key:        d.Bold(true),
		title:      d.Bold(true),
		sel:        d.Reverse(true),
		light:      d,
		dark:       d,
		lastMove:   d.Bold(true),
		whitePiece: d.Bold(true),
		blackPiece: d,
		promptText: d,
	}
	if !color {
		return s
	}
	s.header = d.Background(tcell.ColorNavy).Foreground(tcell.ColorWhite)
	s.footer = d.Background(tcell.ColorGray).Foreground(tcell.ColorBlack)
	s.colHead = d.Foreground(tcell.ColorGray).Underline(true)
	s.cursor = d.Background(tcell.ColorTeal).Foreground(tcell.ColorWhite)
	s.sep = d.Foreground(tcell.ColorGray)
	s.qs = d.Foreground(tcell.ColorAqua)
	s.root = d.Foreground(tcell.ColorYellow).Bold(true)
	s.beta = d.Foreground(tcell.ColorRed).Bold(true)
	s.standPat = d.Foreground(tcell.ColorFuchsia).Bold(true)
	s.cut = d.Foreground(tcell.ColorOlive)
	s.exact = d.Foreground(tcell.ColorLime)
	s.diff = d.Background(tcell.ColorMaroon).Foreground(tcell.ColorWhite).Bold(true)
	s.missing = d.Foreground(tcell.ColorOrange).Bold(true)
	s.errMsg = d.Background(tcell.ColorMaroon).Foreground(tcell.ColorWhite).Bold(true)
	s.key = d.Foreground(tcell.ColorYellow).Bold(true)
	s.title = d.Foreground(tcell.ColorYellow).Bold(true)
	s.sel = d.Background(tcell.ColorTeal).Foreground(tcell.ColorWhite)
	s.light = d.Background(tcell.NewRGBColor(0xe8, 0xd5, 0xb0)).Foreground(tcell.ColorBlack)
	s.dark = d.Background(tcell.NewRGBColor(0xb5, 0x88, 0x63)).Foreground(tcell.ColorBlack)
	s.lastMove = d.Background(tcell.NewRGBColor(0xcd, 0xd2, 0x6a)).Foreground(tcell.ColorBlack)
	s.whitePiece = tcell.StyleDefault.Foreground(tcell.ColorWhite).Bold(true)
	s.blackPiece = tcell.StyleDefault.Foreground(tcell.ColorBlack).Bold(true)
	return s
}
