package engine

import (
	"bytes"
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

// Printable is s made safe to print on a terminal as one line: text
// Horizon did not write (an engine's id name, a stream's header, an EPD
// id, a file name, any string read back from a trace) may hold escape
// sequences that retitle or clear the user's terminal. Control
// characters (C0, DEL and C1, tab and newline included, as they would
// break a table's columns or a one-line message) and bytes that are not
// UTF-8 are written as Go's %q writes them (\x1b, \n, \u009b, \xff);
// every other character is kept as it is, quotes and backslashes too,
// so ordinary text prints unchanged. JSON output needs none of this: its
// strings are escaped by the JSON writer.
func Printable(s string) string { return printable(s, false) }

// PrintableLines is Printable for text of several lines: tab and newline
// are kept.
func PrintableLines(s string) string { return printable(s, true) }

// unprintable reports whether rune r (utf8.RuneError for a byte that is
// not UTF-8) must be escaped; lines keeps tab and newline.
func unprintable(r rune, size int, lines bool) bool {
	switch {
	case r == utf8.RuneError && size <= 1:
		return true
	case r == '\t' || r == '\n':
		return !lines
	}
	return r < 0x20 || r >= 0x7f && r < 0xa0
}

func printable(s string, lines bool) string {
	i := 0
	for i < len(s) {
		if c := s[i]; c >= 0x20 && c < 0x7f {
			i++ // the common case: printable ASCII
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if unprintable(r, size, lines) {
			break
		}
		i += size
	}
	if i == len(s) {
		return s
	}
	b := make([]byte, 0, len(s)+16)
	b = append(b, s[:i]...)
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case !unprintable(r, size, lines):
			b = append(b, s[i:i+size]...)
		case size <= 1 && r == utf8.RuneError:
			b = append(b, `\x`...)
			b = append(b, hexDigits[s[i]>>4], hexDigits[s[i]&15])
		default:
			// QuoteRune writes the escape between single quotes.
			q := strconv.QuoteRune(r)
			b = append(b, q[1:len(q)-1]...)
		}
		i += size
	}
	return string(b)
}

const hexDigits = "0123456789abcdef"

// JSONControls is JSON text b with what encoding/json leaves raw in its
// strings and a terminal may act on escaped: DEL (0x7f) and the C1
// controls U+0080-U+009F (bytes C2 80-C2 9F), as \u007f and
// \u0080-\u009f, which decode to the same strings. Outside strings JSON is ASCII without either, and C2
// begins no other character's encoding, so no other byte changes.
func JSONControls(b []byte) []byte {
	if !bytes.ContainsFunc(b, func(r rune) bool { return r == 0x7f || r >= 0x80 && r < 0xa0 }) {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	for i := 0; i < len(b); i++ {
		switch {
		case b[i] == 0x7f:
			out = append(out, `\u007f`...)
		case b[i] == 0xc2 && i+1 < len(b) && b[i+1] >= 0x80 && b[i+1] < 0xa0:
			out = append(out, `\u00`...)
			out = append(out, hexDigits[b[i+1]>>4], hexDigits[b[i+1]&15])
			i++
		default:
			out = append(out, b[i])
		}
	}
	return out
}
