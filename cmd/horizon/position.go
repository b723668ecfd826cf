package main

import (
	"os"
	"strconv"

	"github.com/horizonqs/horizon/engine"
)

// fenUsage is the help of a command's --fen flag, which loadPositions
// reads.
const fenUsage = "position as FEN ('startpos' for the initial position)"

// loadPositions reads the positions a command works on, from --fen (a FEN,
// or "startpos") or from --epd (a file of EPD records). Exactly one of the
// two must be given; errors name the FEN field, or the file and line, that
// is wrong.
func loadPositions(fen, epd string) ([]engine.EPD, error) {
	return loadPositionsOr(fen, epd, "")
}

// loadPositionsOr is loadPositions for commands that have a default
// position: def (a FEN or "startpos") is used when neither flag is given.
func loadPositionsOr(fen, epd, def string) ([]engine.EPD, error) {
	switch {
	case fen != "" && epd != "":
		return nil, usagef("give a position with --fen or --epd, not both")
	case fen == "" && epd == "":
		if def == "" {
			return nil, usagef("give a position with --fen FEN (or --fen startpos) or --epd FILE")
		}
		fen = def
	}
	if fen != "" {
		p, err := engine.ParseFEN(fen)
		if err != nil {
			return nil, err
		}
		return []engine.EPD{{FEN: p.FEN(), Pos: p, Ops: map[string]string{}, Perft: map[int]uint64{}}}, nil
	}
	f, err := os.Open(epd)
	if err != nil {
		return nil, err // *PathError names the file
	}
	defer f.Close()
	return engine.ReadEPD(f, epd)
}

// positionLabel names a position in output: its EPD id, else file:line,
// else its FEN.
func positionLabel(epdFile string, e *engine.EPD) string {
	switch {
	case e.ID != "":
		return e.ID
	case epdFile != "" && e.Line > 0:
		return epdFile + ":" + strconv.Itoa(e.Line)
	}
	return e.FEN
}
