package main

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/internal/fifo"
)

// fenUsage is the help of a command's --fen flag, which loadPositions
// reads.
const fenUsage = "position as FEN ('startpos' for the initial position)"

// loadPositions reads the positions a command works on, from --fen (a FEN,
// or "startpos") or from --epd (a file of EPD records). Exactly one of the
// two must be given; errors name the FEN field, or the file and line, that
// is wrong.
func loadPositions(ctx context.Context, fen, epd string) ([]engine.EPD, error) {
	return loadPositionsOr(ctx, fen, epd, "")
}

// loadPositionsOr is loadPositions for commands that have a default
// position: def (a FEN or "startpos") is used when neither flag is given.
// An EPD file that is a FIFO is waited for until it has a writer, or ctx
// ends (Ctrl-C).
func loadPositionsOr(ctx context.Context, fen, epd, def string) ([]engine.EPD, error) {
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
	// Read as it comes, not whole: ReadEPD bounds a record (a line) and
	// the reader stops on Ctrl-C, so --epd /dev/zero fails at line 1.
	r, err := fifo.OpenReader(ctx, epd)
	if err != nil {
		return nil, err // *PathError names the file
	}
	defer r.Close()
	return engine.ReadEPD(r, epd)
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

// positionFlags are a command's --fen and --epd: the positions it works on.
type positionFlags struct {
	ctx      context.Context // ends the wait for an --epd FIFO's writer
	fen, epd string
	// fenSet and epdSet say the flag was given, so that an empty value
	// (--fen "", a variable that was not set) is refused as no position
	// rather than taken for the flag left out (the built-in positions).
	fenSet, epdSet bool
	// def is the FEN (or "startpos") used when neither flag is given; ""
	// makes one of them required.
	def string
}

// addPositionFlags registers --fen and --epd with their help texts.
func addPositionFlags(ctx context.Context, fs *flag.FlagSet, fenHelp, epdHelp string) *positionFlags {
	pf := &positionFlags{ctx: ctx}
	fs.Var(setFlag{&pf.fen, &pf.fenSet}, "fen", fenHelp)
	fs.Var(setFlag{&pf.epd, &pf.epdSet}, "epd", epdHelp)
	return pf
}

// setFlag is a string flag that records that it was given.
type setFlag struct {
	s   *string
	set *bool
}

func (f setFlag) String() string {
	if f.s == nil {
		return ""
	}
	return *f.s
}

func (f setFlag) Set(v string) error { *f.s, *f.set = v, true; return nil }

// load reads the positions the flags give (see loadPositionsOr). A flag
// given empty is refused, where every command read it as not given and
// those with built-in positions (trace, bench) searched those.
func (pf *positionFlags) load() ([]engine.EPD, error) {
	switch {
	case pf.fenSet && strings.TrimSpace(pf.fen) == "":
		return nil, usagef("--fen %q: give a FEN, or --fen startpos", pf.fen)
	case pf.epdSet && strings.TrimSpace(pf.epd) == "":
		return nil, usagef("--epd %q: give an EPD file's name", pf.epd)
	}
	return loadPositionsOr(pf.ctx, pf.fen, pf.epd, pf.def)
}

// given reports whether --fen or --epd was given (empty too: load refuses it).
func (pf *positionFlags) given() bool { return pf.fenSet || pf.epdSet }

// label names a position of the flags' in output (see positionLabel).
func (pf *positionFlags) label(p *engine.EPD) string { return positionLabel(pf.epd, p) }

// withID keeps the EPD records whose id is id (” keeps every position):
// an error when there is none, or when id comes without --epd.
func (pf *positionFlags) withID(positions []engine.EPD, id string) ([]engine.EPD, error) {
	if id == "" {
		return positions, nil
	}
	if pf.epd == "" {
		return nil, usagef("--id needs --epd")
	}
	var keep []engine.EPD
	for _, p := range positions {
		if p.ID == id {
			keep = append(keep, p)
		}
	}
	if len(keep) == 0 {
		return nil, fmt.Errorf("%s: no record with id %q", pf.epd, id)
	}
	return keep, nil
}
