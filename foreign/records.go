package foreign

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/horizonqs/horizon/engine"
)

// The records between searches (the header, the engine's declarations, position and end).

func shortText(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "..."
	}
	return string(b)
}

// maxTimeMS is the longest search time an end record may give, in
// milliseconds: the most a time.Duration holds (292 years).
const maxTimeMS = math.MaxInt64 / int64(time.Millisecond)

// betweenSearches are the records that come between searches (a search
// begins with its position record).
var betweenSearches = map[string]bool{"engine": true, "label": true, "scores": true, "moves": true, "mate": true, "infinity": true, "limits": true, "position": true}

// record handles one line (without its newline).
func (im *importer) record(b []byte) *StreamError {
	if im.recOffset == 0 {
		b = bytes.TrimPrefix(b, []byte(engine.BOM)) // a stream saved by a Windows editor
	}
	if n := len(b); n > 0 && b[n-1] == '\r' {
		b = b[:n-1]
	}
	if len(b) == 0 || b[0] == '#' {
		return nil
	}
	if !im.header {
		f := fields(b)
		if bytes.HasPrefix(b, []byte(sqliteMagic)) {
			return im.fail("a SQLite file (a trace file, which every other command reads), not a trace stream: import reads the text an engine writes")
		}
		if len(f) != 2 || string(f[0]) != "HZT" {
			return im.fail("not a Horizon trace stream: the first record is %q, want \"HZT 1\"", shortText(b))
		}
		v, ok := atoi(f[1])
		if !ok || v < 1 {
			return im.fail("malformed version %q in the header", f[1])
		}
		if v > Version {
			return im.fail("protocol version %d, this Horizon reads up to %d; upgrade Horizon", v, Version)
		}
		im.header, im.version = true, v
		return nil
	}
	if len(b) >= 2 && b[1] == ' ' || len(b) == 1 {
		switch b[0] {
		case 'E':
			return im.enter(b)
		case 'L':
			return im.leave(b)
		case 'S':
			return im.standPat(b)
		case 'M':
			return im.moveRec(b)
		case 'X':
			return im.extension(b)
		case 'A':
			return im.abort(b)
		}
	}
	word, rest := cut(b)
	if string(word) == "end" {
		return im.end(rest)
	}
	if !betweenSearches[string(word)] {
		if string(word) == "HZT" {
			// Two streams joined ('cat a.hzt b.hzt').
			return im.fail("a second header %q: a stream has one; import each stream on its own (into one trace file, if you like)", shortText(b))
		}
		if i := bytes.IndexByte(b, '\t'); i >= 0 && i < 12 {
			// A C engine's printf("%c\t%d...") read "unknown record" alone.
			return im.fail("unknown record %q: fields are separated by single spaces, not tabs", shortText(b))
		}
		return im.fail("unknown record %q", shortText(b))
	}
	if len(im.stack) > 1 {
		return im.fail("%q record inside a node: header records come between searches", word)
	}
	switch string(word) {
	case "engine":
		im.engine = strings.TrimSpace(string(rest))
	case "label":
		if im.version < 3 {
			return im.fail("\"label\" record in a version %d stream: the header must say \"HZT 3\" (older Horizons refuse the record)", im.version)
		}
		im.label = strings.TrimSpace(string(rest))
	case "scores":
		switch strings.TrimSpace(string(rest)) {
		case "soft", "fail-soft":
			im.failHard = false
		case "hard", "fail-hard":
			im.failHard = true
		default:
			return im.fail("scores %q: want soft or hard", rest)
		}
	case "moves":
		switch strings.TrimSpace(string(rest)) {
		case "legal":
			im.pseudo = false
		case "pseudo":
			im.pseudo = true
		default:
			return im.fail("moves %q: want legal or pseudo", rest)
		}
	case "mate", "infinity":
		return im.scaleRecord(string(word), rest)
	case "limits":
		// A search's limits are its own: written after its position
		// record (the emitters do), before its first node; one written
		// between searches is the next search's.
		// One written after the search's first node is the next search's
		// if a position record follows, a warning if the search's end
		// does (see lateLimits).
		if im.active && im.rec == nil {
			im.limits = strings.TrimSpace(string(rest))
		} else {
			im.nextLimits = strings.TrimSpace(string(rest))
			if im.active {
				im.lateLimits = im.line
			}
		}
	case "position":
		return im.position(string(rest))
	}
	return nil
}

// scaleRecord reads "mate VALUE MIN [plies|turns]" or "infinity VALUE":
// the engine's score scale, kept for later searches.
func (im *importer) scaleRecord(word string, rest []byte) *StreamError {
	if im.version < 2 {
		return im.fail("%q record in a version %d stream: the header must say \"HZT 2\" (older Horizons refuse the record)", word, im.version)
	}
	sc := im.scale
	f := fields(rest)
	if word == "infinity" {
		if len(f) != 1 {
			return im.fail("infinity %q: want one value, the engine's window end for no bound", rest)
		}
		v, ok := atoi(f[0])
		if !ok || v <= 0 {
			return im.fail("infinity %q: want a score above 0", f[0])
		}
		sc.Infinity = engine.Score(v)
	} else {
		if len(f) < 2 || len(f) > 3 {
			return im.fail("mate %q: want VALUE MIN [plies|turns]: the score of a mate at distance 0 and the smallest mate score", rest)
		}
		v, ok1 := atoi(f[0])
		lo, ok2 := atoi(f[1])
		if !ok1 || !ok2 || lo <= 0 || lo > v {
			return im.fail("mate %q: want 0 < MIN <= VALUE", rest)
		}
		sc.Mate, sc.MateMin, sc.MateTurns = engine.Score(v), engine.Score(lo), false
		if len(f) == 3 {
			switch string(f[2]) {
			case "plies":
			case "turns":
				sc.MateTurns = true
			default:
				return im.fail("mate %q: unit %q: want plies or turns", rest, f[2])
			}
		}
	}
	// A mate score at or beyond infinity would print as ∞: no engine's
	// mates lie outside its window.
	if sc.Mate > 0 && sc.Infinity > 0 && (sc.Mate > sc.Infinity || sc.MateMin >= sc.Infinity) {
		return im.fail("%s %q: the mate scores %d to %d do not fit below infinity %d", word, rest, sc.MateMin, sc.Mate, sc.Infinity)
	}
	im.scale = sc
	return nil
}

// position starts a search: "position startpos|fen FEN [moves ...]".
func (im *importer) position(text string) *StreamError {
	if im.active {
		if len(im.stack) > 1 {
			return im.fail("a new position with %s open", engine.Count(int64(len(im.stack)-1), "node"))
		}
		im.lateLimits = 0 // this search's (nextLimits), no warning of the last
		im.endSearch()
	}
	pos, note, err := parsePosition(text)
	if err != nil {
		return im.fail("position %q: %v", shortText([]byte(text)), err)
	}
	im.pos = pos
	im.fen = pos.FEN()
	im.active = true
	im.limits, im.nextLimits, im.lateLimits = im.nextLimits, "", 0
	im.aborted, im.cutRoot, im.abortLine, im.leftLine = false, false, 0, 0
	im.engineNodes = -1
	im.bestMove = ""
	im.warning = note
	im.clamped, im.clampedAt = 0, ""
	im.elapsed, im.zeroTime = 0, false
	im.cur, im.done = iteration{}, iteration{}
	im.nested, im.uncounted = im.nested[:0], 0
	im.start = time.Now()
	return nil
}

// ParsePosition reads the arguments of a UCI position command:
// "startpos [moves ...]" or "fen FEN [moves ...]" (a bare FEN is accepted too).
// A FEN whose fullmove number is 0, as some engines write their own start
// position, reads as fullmove 1 (the run's searched position is the same).
func ParsePosition(text string) (*engine.Position, error) {
	pos, _, err := parsePosition(text)
	return pos, err
}

// parsePosition is ParsePosition with a note for the run's warning when it
// read the position leniently: "" when the text was a FEN as written.
func parsePosition(text string) (pos *engine.Position, note string, err error) {
	f := strings.Fields(text)
	var fen string
	var moves []string
	switch {
	case len(f) == 0:
		return nil, "", errors.New("empty position")
	case f[0] == "startpos":
		fen = "startpos"
		f = f[1:]
	default:
		if f[0] == "fen" {
			f = f[1:]
		}
		i := 0
		for i < len(f) && f[i] != "moves" {
			i++
		}
		fen = strings.Join(f[:i], " ")
		f = f[i:]
	}
	if len(f) > 0 {
		if f[0] != "moves" {
			return nil, "", fmt.Errorf("unexpected %q after the position", f[0])
		}
		moves = f[1:]
	}
	pos, err = engine.ParseFEN(fen) // "startpos" too
	if ff := strings.Fields(fen); err != nil && len(ff) == 6 && ff[5] == "0" {
		// Engines write fullmove 0 for a position of their own (FEN
		// counts from 1); refusing it would lose the whole stream for a
		// number the search never reads.
		var fe *engine.FENError
		if errors.As(err, &fe) && fe.Field == "fullmove" {
			ff[5] = "1"
			if pos, err = engine.ParseFEN(strings.Join(ff, " ")); err == nil {
				note = "its position record gives fullmove number 0, which FEN counts from 1: read as 1"
			}
		}
	}
	if err != nil {
		return nil, "", err
	}
	if i, err := pos.PlayUCI(moves); err != nil {
		return nil, "", fmt.Errorf("move %d (%s): %v", i+1, moves[i], err)
	}
	// The search starts from here: a fresh position without the game's
	// history, as the trace's root.
	pos, err = engine.ParseFEN(pos.FEN())
	return pos, note, err
}

// sqliteMagic begins every SQLite file, and so every trace file.
const sqliteMagic = "SQLite format 3\x00"

// end: "end [best=MOVE] [nodes=N]".
func (im *importer) end(rest []byte) *StreamError {
	if !im.active {
		return im.fail("end record without a search (no position record before it)")
	}
	if len(im.stack) > 1 {
		return im.fail("end record with %s open (fewer leaves than enters)", engine.Count(int64(len(im.stack)-1), "node"))
	}
	for _, kv := range fields(rest) {
		key, v, ok := strings.Cut(string(kv), "=")
		if !ok {
			return im.fail("end record: malformed option %q (want key=value)", kv)
		}
		switch key {
		case "best":
			switch _, err := im.pos.ParseUCI(v); {
			case v == "0000" || v == "(none)":
				// UCI's words for no move (a mated or stalemated root).
			case err != nil:
				// The tree is sound; the engine's claim about it is not.
				// Said, not fatal: the run's best move is its tree's.
				im.warning = fmt.Sprintf("the end record at byte %d (line %d) names best move %s, no legal move of the searched position: "+
					"the run's best move is read from its tree", im.recOffset, im.line, v)
			default:
				im.bestMove = v
			}
		case "nodes":
			x, ok := atoi64([]byte(v))
			if !ok || x < 0 {
				return im.fail("end record: nodes %q is not a count", v)
			}
			im.engineNodes = x
		case "time":
			x, ok := atoi64([]byte(v))
			if !ok || x < 0 {
				return im.fail("end record: time %q is not a number of milliseconds", v)
			}
			if x > maxTimeMS {
				return im.fail("end record: time %q is out of range (milliseconds, at most %d)", v, int64(maxTimeMS))
			}
			im.elapsed = time.Duration(x) * time.Millisecond
			im.zeroTime = x == 0
		default:
			// Unknown keys are allowed: later protocol versions may add some.
		}
	}
	im.endSearch()
	return nil
}
