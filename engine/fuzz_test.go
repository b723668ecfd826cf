package engine

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// Fuzz targets for the parsers and the move generator. The seed corpus is in
// testdata/fuzz/<target>/; run one with, for example,
//
//	go test -run '^$' -fuzz '^FuzzParseFEN$' -fuzztime 30s ./engine/

// checkPosition verifies everything a position promises: its FEN re-parses
// to the same position, its incremental state matches a recomputation, and
// its legal moves are exactly those of the reference generator, each of
// which makes and unmakes cleanly.
func checkPosition(p *Position) error {
	fen := p.FEN()
	q, err := ParseFEN(fen)
	if err != nil {
		return fmt.Errorf("FEN() gave %q, which does not parse: %v", fen, err)
	}
	if q.FEN() != fen || q.Key() != p.Key() {
		return fmt.Errorf("FEN %q re-parses as %q (key %#x, was %#x)", fen, q.FEN(), q.Key(), p.Key())
	}
	if k := p.computeKey(); k != p.key {
		return fmt.Errorf("%s: incremental key %#x, from scratch %#x", fen, p.key, k)
	}
	if mg, eg, ph := evalFromScratch(p); mg != p.mg || eg != p.eg || ph != p.phase {
		return fmt.Errorf("%s: incremental eval differs from a recomputation", fen)
	}
	if err := checkBoardConsistent(p); err != nil {
		return fmt.Errorf("%s: %v", fen, err)
	}
	if err := compareWithRef(p); err != nil {
		return err
	}
	before := snapshot(p)
	for _, m := range p.LegalMoves() {
		gives := p.GivesCheck(m)
		p.MakeMove(m)
		if p.Attacked(p.kingSq(p.side.Other()), p.side) {
			return fmt.Errorf("%s: move %s leaves its king in check", fen, m)
		}
		if p.InCheck() != gives {
			return fmt.Errorf("%s: GivesCheck(%s) = %v, wrong", fen, m, gives)
		}
		p.UnmakeMove()
		if !equalPositions(p, &before) {
			return fmt.Errorf("%s: make/unmake %s left %s", fen, m, p.FEN())
		}
	}
	return nil
}

func FuzzParseFEN(f *testing.F) {
	f.Add(StartFEN)
	f.Add("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseFEN(s)
		if err != nil {
			if p != nil {
				t.Fatalf("ParseFEN(%q) returned a position and an error", s)
			}
			fe, ok := err.(*FENError)
			if !ok {
				t.Fatalf("ParseFEN(%q) error %v is a %T", s, err, err)
			}
			// The error names one of the fields FENError documents, on
			// one line.
			switch fe.Field {
			case "placement", "side", "castling", "en passant", "halfmove", "fullmove", "fields", "position":
			default:
				t.Fatalf("ParseFEN(%q): error %q names field %q", s, err, fe.Field)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("ParseFEN(%q): error on more than one line: %q", s, err)
			}
			return
		}
		if err := checkPosition(p); err != nil {
			t.Fatalf("ParseFEN(%q): %v", s, err)
		}
	})
}

func FuzzParseEPD(f *testing.F) {
	f.Add(`2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id "WAC.001";`)
	f.Add(`4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66`)
	f.Add("# a suite\n\n4k3/8/8/8/8/8/8/4K3 w - - id \"a\";\n4k3/8/8/8/8/8/8/4K3 w - - bm Kd1;\n")
	f.Fuzz(func(t *testing.T, s string) {
		checkReadEPD(t, s)
		e, err := ParseEPD(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") && !strings.Contains(s, "\n") {
				t.Fatalf("ParseEPD(%q): error spans lines: %v", s, err)
			}
			return
		}
		p, err := ParseFEN(e.FEN)
		if err != nil {
			t.Fatalf("ParseEPD(%q) gave FEN %q that does not parse: %v", s, e.FEN, err)
		}
		if p.FEN() != e.FEN || e.Pos.FEN() != e.FEN {
			t.Fatalf("ParseEPD(%q): FEN %q, Pos %q, re-parsed %q", s, e.FEN, e.Pos.FEN(), p.FEN())
		}
		for _, m := range append(append([]Move(nil), e.BestMoves...), e.AvoidMoves...) {
			if !p.IsLegal(m) {
				t.Fatalf("ParseEPD(%q): bm/am %s is not legal", s, m)
			}
		}
		for d := range e.Perft {
			if d < 1 {
				t.Fatalf("ParseEPD(%q): perft depth %d", s, d)
			}
		}
	})
}

// checkReadEPD reads s as an EPD file: an error is one line that names the
// file and a line of s (or says it has no positions), and each record read
// has the line number of a record line of s.
func checkReadEPD(t *testing.T, s string) {
	t.Helper()
	lines := strings.Split(s, "\n")
	recs, err := ReadEPD(strings.NewReader(s), "f.epd")
	if err != nil {
		msg := err.Error()
		var ln int
		if _, scanErr := fmt.Sscanf(msg, "f.epd:%d:", &ln); scanErr != nil && !errors.Is(err, ErrNoPositions) ||
			scanErr == nil && (ln < 1 || ln > len(lines)) || strings.Contains(msg, "\n") {
			t.Fatalf("ReadEPD(%q): error %q names no line of the file's %d", s, msg, len(lines))
		}
		return
	}
	for _, e := range recs {
		if e.Line < 1 || e.Line > len(lines) || strings.TrimSpace(lines[e.Line-1]) == "" {
			t.Fatalf("ReadEPD(%q): record %s on line %d, which holds none", s, e.FEN, e.Line)
		}
	}
}

// FuzzParseMove: a move parser's move is legal and reads back from its
// SAN and UCI; its error is one line, and the move an illegal UCI move's
// error suggests (IllegalReason: "write e1g1", "a promotion names its
// piece: e7e8q") is legal, or illegal only for a check.
func FuzzParseMove(f *testing.F) {
	f.Add(StartFEN, "e2e4")
	f.Add("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "O-O-O")
	f.Add("3r2k1/4P3/8/8/8/8/8/4K3 w - - 0 1", "exd8=Q+")
	f.Add("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1h1")
	f.Add("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8a8")
	f.Add("3r2k1/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8")
	f.Add(StartFEN, "e2e4q")
	f.Add("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", "e1e2")
	f.Fuzz(func(t *testing.T, fen, s string) {
		p, err := ParseFEN(fen)
		if err != nil {
			return
		}
		fen = p.FEN()
		legal := p.LegalMoves()
		isLegal := func(m Move) bool {
			for _, x := range legal {
				if x == m {
					return true
				}
			}
			return false
		}
		for name, parse := range map[string]func(string) (Move, error){
			"ParseUCI": p.ParseUCI, "ParseSAN": p.ParseSAN, "ParseMove": p.ParseMove,
		} {
			m, err := parse(s)
			if p.FEN() != fen {
				t.Fatalf("%s(%q) changed the position %s to %s", name, s, fen, p.FEN())
			}
			if err != nil {
				if m != NoMove || strings.Contains(err.Error(), "\n") {
					t.Fatalf("%s(%q) returned move %s and error %q", name, s, m, err)
				}
				if sg := suggested.FindStringSubmatch(err.Error()); sg != nil {
					if _, err2 := p.ParseUCI(sg[1]); err2 != nil && !strings.HasSuffix(err2.Error(), "check") {
						t.Fatalf("%s: %s(%q): %v; but %s: %v", fen, name, s, err, sg[1], err2)
					}
				}
				continue
			}
			if !isLegal(m) {
				t.Fatalf("%s: %s(%q) = %s, not a legal move", fen, name, s, m)
			}
			san := p.SAN(m)
			if back, err := p.ParseSAN(san); err != nil || back != m {
				t.Fatalf("%s: SAN(%s) = %q parses as %s, %v", fen, m, san, back, err)
			}
			if back, err := p.ParseUCI(m.UCI()); err != nil || back != m {
				t.Fatalf("%s: UCI %q parses as %s, %v", fen, m.UCI(), back, err)
			}
		}
	})
}

// suggested finds the move an illegal move's error says to write instead
// (IllegalReason).
var suggested = regexp.MustCompile(`(?:the king's move, |names its piece: |write )([a-h][1-8][a-h][1-8][qrbn]?)`)

// FuzzPlay plays a path of moves chosen by the fuzzer's bytes (each byte
// picks a legal move by index) and checks the position after every move.
func FuzzPlay(f *testing.F) {
	f.Add(StartFEN, []byte{12, 5, 200, 7, 3, 19, 0, 44})
	f.Add("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", []byte{1, 2, 3, 4, 5, 6, 7, 8})
	f.Fuzz(func(t *testing.T, fen string, path []byte) {
		p, err := ParseFEN(fen)
		if err != nil {
			return
		}
		if len(path) > 64 {
			path = path[:64]
		}
		start := p.FEN()
		var played []string
		for _, b := range path {
			if err := checkPosition(p); err != nil {
				t.Fatalf("from %s after %v: %v", start, played, err)
			}
			moves := p.LegalMoves()
			if len(moves) == 0 {
				break
			}
			m := moves[int(b)%len(moves)]
			played = append(played, m.UCI())
			p.MakeMove(m)
		}
		if err := checkPosition(p); err != nil {
			t.Fatalf("from %s after %v: %v", start, played, err)
		}
		for range played {
			p.UnmakeMove()
		}
		if p.FEN() != start || p.Key() != p.computeKey() {
			t.Fatalf("unmaking %v from %s gave %s", played, start, p.FEN())
		}
	})
}
