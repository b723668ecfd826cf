package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/horizonqs/horizon/engine"
)

// Every command is parse, do, print: it parses its flags, does its work
// into a result value (the value --json writes), and prints that value in
// the form the flags ask for through e.print, the one printing step.
// Commands whose text comes piece by piece (a search's info lines, a
// perft suite's positions) print each piece as it comes through
// e.printPart, and their closing lines through e.print.

// A result is what a command found. --json writes the value itself (its
// fields' tags give the snake_case keys and typed values); writeText is
// its text form.
type result interface {
	writeText(w io.Writer) error
}

// A csvResult is a result that also has a --csv form.
type csvResult interface {
	result
	writeCSV(w io.Writer) error
}

// format is the form a command prints its result in.
type format int

const (
	formatText format = iota
	formatJSON
	formatCSV
)

// formatOf is the format --json and --csv ask for; the caller refuses
// both at once.
func formatOf(asJSON, asCSV bool) format {
	switch {
	case asJSON:
		return formatJSON
	case asCSV:
		return formatCSV
	}
	return formatText
}

// print writes res to standard output in format f. Text and CSV pass
// through terminalText, so that no escape sequence from a stored string a
// writeText forgot to make Printable reaches the user's terminal; an
// artifact (a DOT, SVG or PNG file) is written as it is.
func (e *env) print(res result, f format) error {
	switch f {
	case formatJSON:
		return writeJSON(e.stdout, res)
	case formatCSV:
		c, ok := res.(csvResult)
		if !ok {
			return fmt.Errorf("internal error: %T has no CSV form", res)
		}
		return c.writeCSV(terminalText{e.stdout})
	}
	if a, ok := res.(artifact); ok {
		return a.writeText(e.stdout)
	}
	return res.writeText(terminalText{e.stdout})
}

// printPart writes one part of a result that is printed as it comes, in
// text only: with --json (or --csv) the whole result is printed once, at
// the end.
func (e *env) printPart(part result, f format) error {
	if f != formatText {
		return nil
	}
	return part.writeText(terminalText{e.stdout})
}

// terminalText is the last guard of text output: every write is made
// engine.PrintableLines (control characters but tab and newline, and
// bytes that are not UTF-8, escaped). writeText methods make the stored
// strings they print Printable themselves, so that a tab or newline in a
// name cannot break a table or forge a line; this catches what they
// miss. Writes are whole strings or tabwriter cells, never part of a
// character, so each is escaped on its own.
type terminalText struct{ w io.Writer }

func (t terminalText) Write(p []byte) (int, error) {
	s := engine.PrintableLines(string(p))
	if _, err := io.WriteString(t.w, s); err != nil {
		return 0, err
	}
	return len(p), nil
}

// artifact is a command's output that is a file in its own format (an
// exported DOT, SVG or PNG) printed to standard output as it is.
type artifact []byte

func (a artifact) writeText(w io.Writer) error {
	_, err := w.Write(a)
	return err
}

// message is a command's one-line report of what it wrote (qsbench
// collect and oracle).
type message string

func (m message) writeText(w io.Writer) error {
	_, err := fmt.Fprintln(w, string(m))
	return err
}

// writeJSON is the one JSON writer of every command's --json: indented,
// one value, a newline after it. Keys are snake_case and values typed by
// the structs' tags.
func writeJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(engine.JSONControls(b), '\n'))
	return err
}

// oneOrMany is the JSON of a list that --json writes as its one element
// when it holds one, and as an array otherwise: search and perft print an
// object for one position and an array for a suite.
func oneOrMany[T any](l []T) ([]byte, error) {
	if len(l) == 1 {
		return json.Marshal(l[0])
	}
	return json.Marshal(l)
}

// figureTable starts a text table in the CLI's one style for figures:
// columns two spaces apart, right-aligned, so digits line up.
func figureTable(w io.Writer) *tabwriter.Writer {
	return tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
}

// textTable is figureTable for columns of words (runs, variants),
// left-aligned.
func textTable(w io.Writer) *tabwriter.Writer { return tabwriter.NewWriter(w, 0, 0, 2, ' ', 0) }

// shellQuote is s as one word of a POSIX shell command, the one quoting
// of every command Horizon prints for pasting (export's HTML page quotes
// its command by the same rule in page.js): as it is when it holds only
// letters, digits and -_./:=+, (the common case reads as typed); else
// in single quotes, where a single quote of its own ends them, comes
// escaped by a backslash and opens them again; and when it holds a
// control character or a byte that is not UTF-8, which no terminal should
// be sent and single quotes cannot write, as $'...' (bash, zsh, ksh and
// POSIX.1-2024 shells), those written \xHH.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=+,", r))
	}) < 0 {
		return s
	}
	if engine.Printable(s) == s {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	b := []byte("$'")
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\\' || r == '\'':
			b = append(b, '\\', byte(r))
		case engine.Printable(s[i:i+size]) == s[i:i+size]:
			b = append(b, s[i:i+size]...)
		default:
			for _, c := range []byte(s[i : i+size]) {
				b = fmt.Appendf(b, `\x%02x`, c)
			}
		}
		i += size
	}
	return string(append(b, '\''))
}

// writeTally ends a suite check's text with its one closing line, "N
// passed, N failed", as test runners do.
func writeTally(w io.Writer, passed, failed int) error {
	_, err := fmt.Fprintf(w, "%d passed, %d failed\n", passed, failed)
	return err
}

// jsonControlsWriter writes JSON text through engine.JSONControls as it
// streams: a C1 control's first byte (0xc2) at the end of one write is
// held until the next, which holds its second.
type jsonControlsWriter struct {
	w    io.Writer
	held bool // a 0xc2 ends what was written so far
}

func (j *jsonControlsWriter) Write(p []byte) (int, error) {
	n := len(p)
	if j.held {
		p = append([]byte{0xc2}, p...)
		j.held = false
	}
	if len(p) > 0 && p[len(p)-1] == 0xc2 {
		p, j.held = p[:len(p)-1], true
	}
	if _, err := j.w.Write(engine.JSONControls(p)); err != nil {
		return 0, err
	}
	return n, nil
}

// flush writes a held byte.
func (j *jsonControlsWriter) flush() error {
	if !j.held {
		return nil
	}
	j.held = false
	_, err := j.w.Write([]byte{0xc2})
	return err
}
