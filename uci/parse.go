package uci

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/horizonqs/horizon/engine"
)

// commands are the GUI-to-engine commands this package knows.
var commands = map[string]bool{
	"uci": true, "debug": true, "isready": true, "setoption": true, "register": true,
	"ucinewgame": true, "position": true, "go": true, "stop": true, "ponderhit": true, "quit": true,
}

// splitCommand finds the command in a line. As the UCI spec asks, unknown
// tokens before a known command are skipped ("joho debug on" is "debug on");
// skipped returns them so the session can say so. rest is the raw text after
// the command, for arguments that keep their spacing (setoption values).
func splitCommand(line string) (cmd, rest string, skipped []string) {
	for _, t := range tokens(line) {
		w := line[t[0]:t[1]]
		if commands[w] {
			return w, strings.TrimSpace(line[t[1]:]), skipped
		}
		skipped = append(skipped, w)
	}
	return "", "", skipped
}

// goParams are the arguments of a `go` command.
type goParams struct {
	depth     int
	nodes     int64
	mate      int
	movetime  time.Duration
	wtime     time.Duration
	btime     time.Duration
	winc      time.Duration
	binc      time.Duration
	movestogo int
	infinite  bool
	ponder    bool
	hasClock  bool // wtime or btime was given
	moves     []string
	// rejected: a depth, nodes, mate or movetime value, or an unknown
	// token, was ignored as bad.
	rejected bool
	// perft: go perft N, a count of the legal move tree instead of a
	// search; perftBad: its depth was not one Horizon counts.
	perft    int
	perftBad bool
}

// parseGo parses the arguments of `go`. It never fails: bad values are
// skipped and described in warnings, as a GUI expects an engine to search
// anyway. A missing value does not swallow the next keyword ("go depth
// infinite" still sees infinite). Negative clock times (some GUIs send them
// once a side has overstepped) count as zero.
func parseGo(args []string) (p goParams, warnings []string) {
	for i := 0; i < len(args); i++ {
		t := args[i]
		if t == "infinite" || t == "ponder" || t == "searchmoves" || !goKeywords[t] {
			switch t {
			case "infinite":
				p.infinite = true
			case "ponder":
				p.ponder = true
			case "searchmoves":
				for i+1 < len(args) && !goKeywords[args[i+1]] {
					i++
					p.moves = append(p.moves, args[i])
				}
			default:
				// Left out, it could leave no limit: a search that runs
				// until stop for a command that never asked for one.
				warnings = append(warnings, fmt.Sprintf("go: unknown token %q ignored", truncate(t, 40)))
				p.rejected = true
			}
			continue
		}
		// A keyword with a numeric value.
		if i+1 >= len(args) || goKeywords[args[i+1]] {
			if t == "perft" {
				warnings = append(warnings, fmt.Sprintf("go perft: want a depth from 1 to %d; go ignored", engine.MaxPerftDepth))
				p.perftBad = true
				continue
			}
			warnings = append(warnings, fmt.Sprintf("go %s: missing value, ignored", t))
			p.rejected = true
			continue
		}
		i++
		if t == "perft" {
			n, err := strconv.Atoi(args[i])
			if err != nil || n < 1 || n > engine.MaxPerftDepth {
				warnings = append(warnings, fmt.Sprintf("go perft %q: want a depth from 1 to %d; go ignored", truncate(args[i], 40), engine.MaxPerftDepth))
				p.perftBad = true
				continue
			}
			p.perft = n
			continue
		}
		n, err := strconv.ParseInt(args[i], 10, 64)
		if errors.Is(err, strconv.ErrRange) {
			err = nil // n is the nearest int64, which the limits below clamp
		}
		if err != nil {
			// Ignoring it could leave no limit at all: a search that runs
			// until stop for a GUI that asked for a short one.
			warnings = append(warnings, fmt.Sprintf("go %s %q: not a whole number, ignored", t, truncate(args[i], 40)))
			p.rejected = true
			continue
		}
		ms := time.Duration(max(min(n, int64(maxClock/time.Millisecond)), 0)) * time.Millisecond
		switch t {
		case "depth", "nodes", "mate":
			if n < 1 {
				warnings = append(warnings, fmt.Sprintf("go %s %d: want at least 1, ignored", t, n))
				p.rejected = true
				continue
			}
			switch t {
			case "depth":
				p.depth = int(min(n, 1000))
			case "nodes":
				p.nodes = n
			case "mate":
				p.mate = int(min(n, 100))
			}
		case "movestogo":
			if n > 0 {
				p.movestogo = int(min(n, 1000))
			}
		case "movetime":
			if n < 1 {
				warnings = append(warnings, fmt.Sprintf("go movetime %d: want at least 1, ignored", n))
				p.rejected = true
				continue
			}
			p.movetime = ms
		case "wtime":
			p.wtime, p.hasClock = ms, true
		case "btime":
			p.btime, p.hasClock = ms, true
		case "winc":
			p.winc = ms
		case "binc":
			p.binc = ms
		}
	}
	return p, warnings
}

// maxClock caps clock values so that arithmetic on them cannot overflow.
const maxClock = 1000 * time.Hour

var goKeywords = map[string]bool{"infinite": true, "ponder": true, "depth": true, "nodes": true, "mate": true,
	"movestogo": true, "movetime": true, "wtime": true, "btime": true, "winc": true, "binc": true, "searchmoves": true,
	"perft": true}

// positionArgs is a parsed `position` command before its moves are played.
type positionArgs struct {
	fen   string // "startpos" or a FEN
	moves []string
}

// parsePosition splits `position startpos|fen FEN [moves m1 m2 ...]`.
func parsePosition(args []string) (positionArgs, error) {
	if len(args) == 0 {
		return positionArgs{}, fmt.Errorf("position: want startpos or fen FEN, got nothing")
	}
	var p positionArgs
	rest := args[1:]
	switch args[0] {
	case "startpos":
		p.fen = "startpos"
	case "fen":
		n := 0
		for n < len(rest) && rest[n] != "moves" {
			n++
		}
		if n == 0 {
			return p, fmt.Errorf("position fen: the FEN is missing")
		}
		p.fen = strings.Join(rest[:n], " ")
		rest = rest[n:]
	default:
		return p, fmt.Errorf("position: want startpos or fen, got %q", args[0])
	}
	if len(rest) > 0 {
		if rest[0] != "moves" {
			return p, fmt.Errorf("position: want moves after the position, got %q", rest[0])
		}
		p.moves = rest[1:]
	}
	return p, nil
}

// parseSetOption splits `setoption name N [value V]`, given the raw text
// after setoption: names may hold spaces, and values (file paths) keep
// theirs.
func parseSetOption(rest string) (name, value string, err error) {
	toks := tokens(rest)
	if len(toks) == 0 || rest[toks[0][0]:toks[0][1]] != "name" {
		return "", "", fmt.Errorf("setoption: want name NAME [value VALUE]")
	}
	i := 1
	for i < len(toks) && rest[toks[i][0]:toks[i][1]] != "value" {
		i++
	}
	if i == 1 {
		return "", "", fmt.Errorf("setoption: the option name is missing")
	}
	name = strings.Join(strings.Fields(rest[toks[1][0]:toks[i-1][1]]), " ")
	if i < len(toks) {
		value = strings.TrimSpace(rest[toks[i][1]:])
	}
	return name, value, nil
}

// tokens returns the [start, end) offsets of the space-separated tokens of s.
func tokens(s string) [][2]int {
	var out [][2]int
	start := -1
	for i, r := range s {
		if unicode.IsSpace(r) {
			if start >= 0 {
				out = append(out, [2]int{start, i})
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, [2]int{start, len(s)})
	}
	return out
}
