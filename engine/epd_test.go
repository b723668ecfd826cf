package engine

import (
	"errors"
	"strings"
	"testing"
)

func TestParseEPD(t *testing.T) {
	t.Run("tactical record", func(t *testing.T) {
		e, err := ParseEPD(`2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id "WAC.001"; c0 "a; quoted; comment";`)
		if err != nil {
			t.Fatal(err)
		}
		if e.FEN != "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1" {
			t.Errorf("FEN = %q", e.FEN)
		}
		if e.ID != "WAC.001" || e.Comment != "a; quoted; comment" || e.Ops["id"] != "WAC.001" {
			t.Errorf("id %q, c0 %q, ops %v", e.ID, e.Comment, e.Ops)
		}
		if len(e.BestMoves) != 1 || e.BestMoves[0].UCI() != "g3g6" {
			t.Errorf("bm = %v, want [g3g6]", e.BestMoves)
		}
		if e.Pos.FEN() != e.FEN {
			t.Errorf("Pos %s does not match FEN %s", e.Pos.FEN(), e.FEN)
		}
	})
	t.Run("several best and avoid moves", func(t *testing.T) {
		e, err := ParseEPD(`rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4 d4 Nf3; am g4;`)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, m := range e.BestMoves {
			got = append(got, m.UCI())
		}
		if strings.Join(got, " ") != "e2e4 d2d4 g1f3" || len(e.AvoidMoves) != 1 || e.AvoidMoves[0].UCI() != "g2g4" {
			t.Errorf("bm %v am %v", got, e.AvoidMoves)
		}
	})
	t.Run("clock operations", func(t *testing.T) {
		e, err := ParseEPD(`rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - hmvc 12; fmvn 30;`)
		if err != nil {
			t.Fatal(err)
		}
		if e.Pos.Halfmove() != 12 || e.Pos.Fullmove() != 30 {
			t.Errorf("clocks %d %d, want 12 30", e.Pos.Halfmove(), e.Pos.Fullmove())
		}
	})
	t.Run("perft counts", func(t *testing.T) {
		e, err := ParseEPD(`4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66 ;D3 1197`)
		if err != nil {
			t.Fatal(err)
		}
		if len(e.Perft) != 3 || e.Perft[1] != 15 || e.Perft[2] != 66 || e.Perft[3] != 1197 {
			t.Errorf("Perft = %v", e.Perft)
		}
		if d := e.Depths(); len(d) != 3 || d[0] != 1 || d[2] != 3 {
			t.Errorf("Depths() = %v", d)
		}
		if e.Pos.Halfmove() != 0 || e.Pos.Fullmove() != 1 {
			t.Errorf("clocks %d %d", e.Pos.Halfmove(), e.Pos.Fullmove())
		}
	})
	t.Run("six-field FEN closed by a semicolon", func(t *testing.T) {
		e, err := ParseEPD(`8/8/8/8/8/8/8/K6k w - - 3 9; bm Kb1;`)
		if err != nil {
			t.Fatal(err)
		}
		if e.FEN != "8/8/8/8/8/8/8/K6k w - - 3 9" || len(e.BestMoves) != 1 || e.BestMoves[0].UCI() != "a1b1" {
			t.Errorf("FEN %q bm %v", e.FEN, e.BestMoves)
		}
	})
	t.Run("other white space", func(t *testing.T) {
		e, err := ParseEPD("8/8/8/8/8/8/8/K6k\vw -\u00a0- bm Kb1; id \"a\";")
		if err != nil {
			t.Fatal(err)
		}
		if e.FEN != "8/8/8/8/8/8/8/K6k w - - 0 1" || e.ID != "a" || len(e.BestMoves) != 1 || len(e.Ops) != 2 {
			t.Errorf("FEN %q ops %q bm %v", e.FEN, e.Ops, e.BestMoves)
		}
	})
	t.Run("UCI best move", func(t *testing.T) {
		e, err := ParseEPD(`rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e2e4;`)
		if err != nil || len(e.BestMoves) != 1 || e.BestMoves[0].UCI() != "e2e4" {
			t.Errorf("got %v, %v", e, err)
		}
	})

	bad := []struct {
		name, line, msg string
	}{
		{"too few fields", "8/8/8/8/8/8/8/K6k w -", "got 3 fields"},
		{"bad FEN", "8/8/8/8/8/8/8/K6k x - - bm Kb1;", `side: "x" is not w or b`},
		{"illegal best move", "8/8/8/8/8/8/8/K6k w - - bm Kh2;", `bm move "Kh2" is not legal`},
		{"illegal avoid move", "8/8/8/8/8/8/8/K6k w - - am e4;", `am move "e4" is not legal`},
		{"perft count not a number", "8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 many", `perft count D1 needs one number, got "many"`},
		{"perft count missing", "8/8/8/8/8/8/8/K6k w - - 0 1 ;D1", "perft count D1 needs one number"},
		{"perft count too large", "8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 99999999999999999999999", "out of range"},
		{"perft depth zero", "8/8/8/8/8/8/8/K6k w - - 0 1 ;D0 1", "out of range"},
		{"unterminated quote", `8/8/8/8/8/8/8/K6k w - - id "x;`, "unterminated quoted operand"},
		{"bad clock operation", "8/8/8/8/8/8/8/K6k w - - hmvc x;", "halfmove"},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			e, err := ParseEPD(c.line)
			if err == nil {
				t.Fatalf("ParseEPD(%q) = %+v, want an error", c.line, e)
			}
			if !strings.Contains(err.Error(), c.msg) {
				t.Errorf("ParseEPD(%q) error %q does not say %q", c.line, err, c.msg)
			}
		})
	}
}

func TestReadEPD(t *testing.T) {
	in := "# a comment\n\n" +
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4; id \"one\";\n" +
		"8/8/8/8/8/8/8/K6k w - - id \"two\";\n"
	recs, err := ReadEPD(strings.NewReader(in), "x.epd")
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 || recs[0].Line != 3 || recs[1].Line != 4 || recs[0].ID != "one" || recs[1].ID != "two" {
		t.Errorf("records %+v", recs)
	}

	_, err = ReadEPD(strings.NewReader(in+"8/8/8/8/8/8/8/K6k w - - bm Kh2;\n"), "x.epd")
	if err == nil || !strings.HasPrefix(err.Error(), "x.epd:5: ") {
		t.Errorf("error %v does not name x.epd:5", err)
	}
	_, err = ReadEPD(strings.NewReader("8/8/8/8/8/8/8/K6K w - -\n"), "kings.epd")
	var fe *FENError
	if !errors.As(err, &fe) || fe.Field != "placement" || !strings.HasPrefix(err.Error(), "kings.epd:1: ") {
		t.Errorf("error %v should wrap a placement FENError and name kings.epd:1", err)
	}
	if _, err = ReadEPD(strings.NewReader("# nothing\n"), "empty.epd"); err == nil || !strings.Contains(err.Error(), "empty.epd: no positions") {
		t.Errorf("empty file: error %v", err)
	}
}

// TestSuiteBestMoves checks that every bm of the tactical suites parses and
// that formatting it in SAN and parsing that gives the same move.
func TestSuiteBestMoves(t *testing.T) {
	for _, c := range []struct {
		file        string
		records, bm int
	}{
		{"wacnew.epd", 300, 348},
		{"bratko_kopec.epd", 24, 26},
	} {
		t.Run(c.file, func(t *testing.T) {
			recs := readSuite(t, c.file)
			if len(recs) != c.records {
				t.Errorf("%d records, want %d", len(recs), c.records)
			}
			ids := map[string]int{}
			n := 0
			for _, e := range recs {
				if prev, dup := ids[e.ID]; dup || e.ID == "" {
					t.Errorf("line %d: id %q empty or also on line %d", e.Line, e.ID, prev)
				}
				ids[e.ID] = e.Line
				if len(e.BestMoves) == 0 {
					t.Errorf("line %d (%s): no bm", e.Line, e.ID)
				}
				if got := len(strings.Fields(e.Ops["bm"])); got != len(e.BestMoves) {
					t.Errorf("line %d: bm %q gave %d moves", e.Line, e.Ops["bm"], len(e.BestMoves))
				}
				for _, m := range e.BestMoves {
					n++
					san := e.Pos.SAN(m)
					back, err := e.Pos.ParseSAN(san)
					if err != nil || back != m {
						t.Errorf("line %d (%s): bm %s formats as %q which parses to %s, %v", e.Line, e.ID, m, san, back, err)
					}
				}
			}
			if n != c.bm {
				t.Errorf("%d bm moves, want %d", n, c.bm)
			}
		})
	}
}

func TestEPDSolved(t *testing.T) {
	p := MustParseFEN(StartFEN)
	e4, _ := p.ParseUCI("e2e4")
	d4, _ := p.ParseUCI("d2d4")
	for _, c := range []struct {
		name   string
		bm, am []Move
		m      Move
		want   bool
	}{
		{"best move played", []Move{e4}, nil, e4, true},
		{"another move", []Move{e4}, nil, d4, false},
		{"avoided move played", nil, []Move{e4}, e4, false},
		{"avoided move avoided", nil, []Move{e4}, d4, true},
		{"best and avoid", []Move{e4, d4}, []Move{d4}, d4, false},
		{"no test", nil, nil, e4, false},
	} {
		r := EPD{BestMoves: c.bm, AvoidMoves: c.am}
		if got := r.Solved(c.m); got != c.want {
			t.Errorf("%s: Solved = %v, want %v", c.name, got, c.want)
		}
	}
}

// Issue 17 items 13 and 16: a 2 MB line said "bufio.Scanner: token too
// long"; a file starting with a UTF-8 byte-order mark was refused.
func TestReadEPDLongLineAndBOM(t *testing.T) {
	long := "4k3/8/8/8/8/8/8/4K3 w - - id \"" + strings.Repeat("x", 2<<20) + "\";\n"
	_, err := ReadEPD(strings.NewReader("4k3/8/8/8/8/8/8/4K3 w - - id \"a\";\n"+long), "big.epd")
	if err == nil || !strings.Contains(err.Error(), "big.epd:2:") || !strings.Contains(err.Error(), "longer than 1048576 bytes") ||
		strings.Contains(err.Error(), "token too long") {
		t.Errorf("2 MB line: %v, want the line and the limit named", err)
	}
	recs, err := ReadEPD(strings.NewReader("\ufeff4k3/8/8/8/8/8/8/4K3 w - - id \"bom\";\n"), "bom.epd")
	if err != nil || len(recs) != 1 || recs[0].ID != "bom" {
		t.Errorf("EPD with a byte-order mark: %v, %+v", err, recs)
	}
}
