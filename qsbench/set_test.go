package qsbench

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

func mustPosition(t testing.TB, parent, lm string) *Position {
	t.Helper()
	p, err := newPosition(parent, lm)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRoundTrip(t *testing.T) {
	a := mustPosition(t, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "d5e6")
	a.ID, a.Class, a.Source = "qsb.0001", Tactical, "WAC.001"
	a.Oracle = Oracle{Name: "horizon see+see-prune=false+delta=false", Score: -35, Depth: 7, Nodes: 123456, PV: []string{"Bxe6", "Nxf7"}}
	b := mustPosition(t, "4k3/8/8/3p4/8/5N2/8/4K3 b - - 7 40", "d5d4")
	b.ID, b.Class, b.Source = "qsb.0002", Quiet, "stockfish_bench.fen:3"
	b.Oracle = Oracle{Name: "horizon see", Score: 30995, Depth: 5}
	c := mustPosition(t, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e2e4")
	c.ID = "no oracle yet; a semicolon"
	set := []*Position{a, b, c}

	var buf bytes.Buffer
	if err := Write(&buf, "a header\nof two lines", set); err != nil {
		t.Fatal(err)
	}
	got, err := Read(bytes.NewReader(buf.Bytes()), "set.epd")
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if len(got) != len(set) {
		t.Fatalf("read %d records, wrote %d", len(got), len(set))
	}
	for i := range set {
		w, g := *set[i], *got[i]
		if g.Line != i+3 {
			t.Errorf("record %d: line %d, want %d", i, g.Line, i+3)
		}
		g.Line = 0
		if g.pos.FEN() != w.pos.FEN() || g.pos.LastMove() != w.pos.LastMove() {
			t.Errorf("record %d: position %s last %v, want %s last %v", i, g.pos.FEN(), g.pos.LastMove(), w.pos.FEN(), w.pos.LastMove())
		}
		g.pos, w.pos = nil, nil
		if !reflect.DeepEqual(g, w) {
			t.Errorf("record %d:\n got %+v\nwant %+v", i, g, w)
		}
		if got[i].Format() != set[i].Format() {
			t.Errorf("record %d formats differently after the round trip", i)
		}
	}
	if q := quote("say \"hi\"\nthere"); q != `"say 'hi' there"` {
		t.Errorf("quote = %s", q)
	}
	if !strings.HasPrefix(buf.String(), "# a header\n# of two lines\n") {
		t.Errorf("header not written as comments:\n%s", buf.String())
	}

	// The second oracle's file round-trips by id.
	vals := []Oracle{{Name: "Stockfish 15.1", Score: 12, Depth: 12, Nodes: 999, PV: []string{"Bxe6"}}, {}, {Name: "Stockfish 15.1", Score: -5, Depth: 12}}
	buf.Reset()
	for i, p := range set {
		if vals[i].Valid() {
			buf.WriteString(FormatSecond(p, vals[i]) + "\n")
		}
	}
	sec, err := readSecond(&buf, "second.epd", got)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(sec, vals) {
		t.Errorf("second oracle:\n got %+v\nwant %+v", sec, vals)
	}
}

func TestReadErrors(t *testing.T) {
	good := mustPosition(t, "4k3/8/8/3p4/8/5N2/8/4K3 b - - 0 1", "d5d4")
	good.ID = "x"
	line := good.Format()
	tests := []struct{ name, text, want string }{
		{"no last move", "4k3/8/8/8/3p4/5N2/8/4K3 w - - id \"x\";", "want the lmpos and lm"},
		{"illegal last move", strings.Replace(line, "lm d5d4", "lm d5d3", 1), "lm:"},
		{"last move leads elsewhere", strings.Replace(line, "4k3/8/8/8/3p4", "4k3/8/8/8/2p5", 1), "lmpos + lm give"},
		{"bad ce", strings.Replace(line, "lm d5d4;", "lm d5d4; ce x; acd 3; oracle \"o\";", 1), "ce \"x\""},
		{"partial oracle", strings.Replace(line, "lm d5d4;", "lm d5d4; ce 5;", 1), "ce, acd and oracle together"},
		{"bad class", strings.Replace(line, "lm d5d4;", "lm d5d4; class loud;", 1), "class \"loud\""},
		{"duplicate id", line + "\n" + line, "already used on line 1"},
		{"bad FEN", "4k3/8/8/9/8/8/8/4K3 w - - id \"y\";", "set.epd:1"},
		{"empty", "# only a comment\n", "no positions"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tc.text), "set.epd")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func FuzzParseRecord(f *testing.F) {
	p, _ := newPosition("4k3/8/8/3p4/8/5N2/8/4K3 b - - 0 1", "d5d4")
	p.ID, p.Class, p.Oracle = "qsb.1", Quiet, Oracle{Name: "o", Score: 3, Depth: 2, PV: []string{"Nxd4"}}
	f.Add(p.Format())
	f.Add(`4k3/8/8/8/3p4/5N2/8/4K3 w - - lm d5d4; lmpos "4k3/8/8/3p4/8/5N2/8/4K3 b - - 0 1"; ce 99999;`)
	f.Add(`8/8/8/8/8/8/8/8 w - - lm a1a2;`)
	f.Fuzz(func(t *testing.T, line string) {
		r, err := ParseRecord(line)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("%q: error on more than one line: %q", line, err)
			}
			return
		}
		// What parses formats into a line that parses to the same record.
		r2, err := ParseRecord(r.Format())
		if err != nil {
			t.Fatalf("%q parsed, but its formatted form %q does not: %v", line, r.Format(), err)
		}
		if r2.Format() != r.Format() {
			t.Fatalf("format not stable:\n%s\n%s", r.Format(), r2.Format())
		}
	})
}

// FuzzReadSecond reads a second-oracle file against a set of one position:
// an error is one line naming the file, and a value read, written back
// with FormatSecond, reads back to a value FormatSecond writes the same
// (quote's changes to free text aside, the same value).
func FuzzReadSecond(f *testing.F) {
	p, _ := newPosition("4k3/8/8/3p4/8/5N2/8/4K3 b - - 0 1", "d5d4")
	p.ID = "qsb.1"
	f.Add(FormatSecond(p, Oracle{Name: "Stockfish 15.1", Score: 3, Depth: 12, Nodes: 4000, PV: []string{"Nxd4", "Kd7"}}))
	f.Add(FormatSecond(p, Oracle{Name: "o", Score: -31000, Depth: 0}) + "\n# c\n")
	f.Add(`4k3/8/8/8/3p4/5N2/8/4K3 w - - id "qsb.1"; ce 1; acd 2; oracle "x"; pv "a;b";`)
	set := []*Position{p}
	f.Fuzz(func(t *testing.T, text string) {
		vals, err := readSecond(strings.NewReader(text), "second.epd", set)
		if err != nil {
			if msg := err.Error(); !strings.HasPrefix(msg, "second.epd:") || strings.Contains(msg, "\n") {
				t.Fatalf("%q: error %q", text, msg)
			}
			return
		}
		if len(vals) != 1 || !vals[0].Valid() {
			return
		}
		line := FormatSecond(p, vals[0])
		again, err := readSecond(strings.NewReader(line), "second.epd", set)
		if err != nil || len(again) != 1 || FormatSecond(p, again[0]) != line {
			t.Fatalf("%q read as %+v, written as %q, which reads as %+v (%v)", text, vals[0], line, again, err)
		}
	})
}
