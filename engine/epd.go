package engine

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// EPD is one record of an EPD file: a position and its operations.
type EPD struct {
	Line       int    // 1-based line number in its file
	FEN        string // the position as a full FEN (clocks from hmvc/fmvn or 0 1)
	Pos        *Position
	ID         string
	Comment    string // c0
	BestMoves  []Move // bm
	AvoidMoves []Move // am
	// Ops holds every operation by opcode, operands joined by a space, quotes removed.
	Ops map[string]string
	// Perft holds ";D1 20"-style perft counts by depth.
	Perft map[int]uint64
}

// Depths returns the perft depths of the record in increasing order.
func (e *EPD) Depths() []int {
	d := make([]int, 0, len(e.Perft))
	for k := range e.Perft {
		d = append(d, k)
	}
	sort.Ints(d)
	return d
}

// ParseEPD parses one EPD line: four FEN fields (or a six-field FEN, as
// perft suites carry), then operations separated by semicolons. Perft suites
// write counts as ";D1 20"; tactical suites as `bm Nf3; id "WAC.001";`.
func ParseEPD(line string) (*EPD, error) {
	line = strings.TrimSpace(line)
	fields := strings.Fields(line)
	if len(fields) < 4 {
		return nil, fmt.Errorf("want a position (4 FEN fields) and operations, got %d fields", len(fields))
	}
	// The FEN part ends where the first operation begins: 4 fields, or 6 when
	// fields 5 and 6 are clocks.
	n := 4
	if len(fields) >= 6 && isUint(fields[4]) && isUint(strings.TrimSuffix(fields[5], ";")) {
		n = 6
	}
	rest := line
	for i := 0; i < n; i++ {
		// Trim what strings.Fields splits on, so rest stays aligned with fields.
		rest = strings.TrimLeftFunc(rest, unicode.IsSpace)
		rest = rest[len(fields[i]):]
	}
	// A six-field FEN may end in the ";" that closes it ("... 0 1; bm e4;").
	fields[n-1] = strings.TrimSuffix(fields[n-1], ";")
	fen := strings.Join(fields[:n], " ")
	e := &EPD{Ops: map[string]string{}, Perft: map[int]uint64{}}
	ops, err := splitOps(rest)
	if err != nil {
		return nil, err
	}
	// Clock operations complete a 4-field FEN.
	if n == 4 {
		half, full := "0", "1"
		for _, op := range ops {
			switch op[0] {
			case "hmvc":
				if len(op) > 1 {
					half = op[1]
				}
			case "fmvn":
				if len(op) > 1 {
					full = op[1]
				}
			}
		}
		fen += " " + half + " " + full
	}
	pos, err := ParseFEN(fen)
	if err != nil {
		var fe *FENError
		if errors.As(err, &fe) {
			// Quote the position as the line has it, not with the clocks
			// this parser added.
			fe.FEN = strings.Join(fields[:n], " ")
		}
		return nil, err
	}
	e.FEN, e.Pos = pos.FEN(), pos
	for _, op := range ops {
		code, args := op[0], op[1:]
		e.Ops[code] = strings.Join(args, " ")
		switch {
		case code == "id":
			e.ID = e.Ops[code]
		case code == "c0":
			e.Comment = e.Ops[code]
		case code == "bm" || code == "am":
			for _, a := range args {
				m, err := pos.ParseSAN(a)
				if err != nil {
					if m2, err2 := pos.ParseUCI(a); err2 == nil {
						m, err = m2, nil
					}
				}
				if err != nil {
					return nil, fmt.Errorf("%s move %s is not legal in this position", code, quote(a))
				}
				if code == "bm" {
					e.BestMoves = append(e.BestMoves, m)
				} else {
					e.AvoidMoves = append(e.AvoidMoves, m)
				}
			}
		case len(code) >= 2 && code[0] == 'D' && isUint(code[1:]):
			d, _ := strconv.Atoi(code[1:])
			if len(args) != 1 || !isUint(args[0]) {
				return nil, fmt.Errorf("perft count %s needs one number, got %s", code, quote(e.Ops[code]))
			}
			v, err := strconv.ParseUint(args[0], 10, 64)
			if err != nil || d < 1 || d > 20 {
				return nil, fmt.Errorf("perft count %s %s is out of range", code, quote(args[0]))
			}
			e.Perft[d] = v
		}
	}
	return e, nil
}

func isUint(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// splitOps splits "bm Nf3; id "a; b";" into opcode+operand lists, honouring quotes.
func splitOps(s string) ([][]string, error) {
	var ops [][]string
	var cur []string
	var tok strings.Builder
	inTok, inQuote := false, false
	flushTok := func() {
		if inTok {
			cur = append(cur, tok.String())
			tok.Reset()
			inTok = false
		}
	}
	flushOp := func() {
		flushTok()
		if len(cur) > 0 {
			ops = append(ops, cur)
			cur = nil
		}
	}
	for _, r := range s {
		switch {
		case inQuote:
			if r == '"' {
				inQuote = false
			} else {
				tok.WriteRune(r)
			}
		case r == '"':
			inQuote, inTok = true, true
		case r == ';':
			flushOp()
		case r == ' ' || r == '\t':
			flushTok()
		default:
			tok.WriteRune(r)
			inTok = true
		}
	}
	if inQuote {
		return nil, fmt.Errorf("unterminated quoted operand")
	}
	flushOp()
	return ops, nil
}

// maxEPDLine bounds one line of an EPD file: a record is a FEN and a few
// operations, well under a kilobyte.
const maxEPDLine = 1 << 20

// BOM is the UTF-8 byte-order mark editors on Windows write at the start
// of a text file. Horizon's readers of text a user may have saved (an EPD
// file, a FEN, a trace stream) skip it where the text begins.
const BOM = "\ufeff"

// ReadEPD reads every record of an EPD file. Blank lines and lines starting
// with # are skipped. An error names the file and line.
func ReadEPD(r io.Reader, name string) ([]EPD, error) {
	var out []EPD
	err := ScanEPD(r, name, func(ln int, text string) error {
		e, err := ParseEPD(text)
		if err != nil {
			return err
		}
		e.Line = ln
		out = append(out, *e)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ErrNoPositions is ScanEPD's error (after the file name) for a file with
// no record line.
var ErrNoPositions = errors.New("no positions in the file")

// ScanEPD calls fn with each record line of an EPD file (trimmed) and its
// 1-based line number, skipping blank lines, lines starting with # and a
// leading byte-order mark. An error fn returns, or one reading, comes back
// prefixed with the file name and line, and ends the scan; a file with no
// record line is ErrNoPositions.
func ScanEPD(r io.Reader, name string, fn func(ln int, text string) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), maxEPDLine)
	ln, records := 0, 0
	for sc.Scan() {
		ln++
		text := sc.Text()
		if ln == 1 {
			text = strings.TrimPrefix(text, BOM)
		}
		text = strings.TrimSpace(text)
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		records++
		if err := fn(ln, text); err != nil {
			return fmt.Errorf("%s:%d: %w", name, ln, err)
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return fmt.Errorf("%s:%d: line longer than %d bytes, the most Horizon reads for one EPD record", name, ln+1, maxEPDLine)
		}
		return fmt.Errorf("%s:%d: %w", name, ln+1, err)
	}
	if records == 0 {
		return fmt.Errorf("%s: %w", name, ErrNoPositions)
	}
	return nil
}

// Solved reports whether m answers the record's test: one of its best moves
// (bm) when it has any, and none of its moves to avoid (am). A record with
// neither has no test, and nothing solves it.
func (e *EPD) Solved(m Move) bool {
	if len(e.BestMoves) == 0 && len(e.AvoidMoves) == 0 {
		return false
	}
	return (len(e.BestMoves) == 0 || slices.Contains(e.BestMoves, m)) && !slices.Contains(e.AvoidMoves, m)
}
