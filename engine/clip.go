package engine

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Clip returns s, or when it is longer than max bytes its first max bytes
// (cut at a character boundary) and how long it was: errors and messages
// quote what the user gave, which may be a 100 KB FEN or a 2 MB line, and
// must stay one readable line.
func Clip(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "... (" + strconv.Itoa(len(s)) + " bytes)"
}

// maxQuoted bounds the user's text quoted in an error.
const maxQuoted = 120

// quote is %q of s, or of a bounded prefix of it and how long it was.
func quote(s string) string {
	if len(s) <= maxQuoted {
		return strconv.Quote(s)
	}
	c := Clip(s, maxQuoted)
	cut := len(c) - len("... ("+strconv.Itoa(len(s))+" bytes)")
	return strconv.Quote(s[:cut]) + "... (" + strconv.Itoa(len(s)) + " bytes)"
}

// charAt names the character starting at byte i of s for an error: 'é'
// rather than the first byte of its UTF-8 encoding, and the byte in hex
// when s is not UTF-8 there.
func charAt(s string, i int) string {
	r, size := utf8.DecodeRuneInString(s[i:])
	if r == utf8.RuneError && size <= 1 {
		return "byte 0x" + strconv.FormatUint(uint64(s[i]), 16)
	}
	return strconv.QuoteRune(r)
}

// Wrap breaks text at spaces (or anywhere, for long words) into lines of at
// most width runes (4 at the least): the viewer's panes and the CLI's help
// lay out prose with it.
func Wrap(text string, width int) []string {
	if width < 4 {
		width = 4
	}
	var lines []string
	var cur []rune
	for _, word := range strings.Fields(text) {
		w := []rune(word)
		for len(w) > width {
			if len(cur) > 0 {
				lines = append(lines, string(cur))
				cur = cur[:0]
			}
			lines = append(lines, string(w[:width]))
			w = w[width:]
		}
		switch {
		case len(cur) == 0:
			cur = append(cur, w...)
		case len(cur)+1+len(w) <= width:
			cur = append(append(cur, ' '), w...)
		default:
			lines = append(lines, string(cur))
			cur = append(cur[:0:0], w...)
		}
	}
	if len(cur) > 0 {
		lines = append(lines, string(cur))
	}
	return lines
}
