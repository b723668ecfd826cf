package engine

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestPrintable(t *testing.T) {
	for _, c := range []struct {
		in, one, lines string
	}{
		{"Ethereal 14.25", "Ethereal 14.25", "Ethereal 14.25"},
		{`it's "x" \d`, `it's "x" \d`, `it's "x" \d`},
		{"Löwe ♞ 1.0", "Löwe ♞ 1.0", "Löwe ♞ 1.0"},
		{"", "", ""},
		{"\x1b]0;x\a", `\x1b]0;x\a`, `\x1b]0;x\a`},
		{"\x1b[2J", `\x1b[2J`, `\x1b[2J`},
		{"a\tb\nc\r", `a\tb\nc\r`, "a\tb\nc\\r"},
		{"del\x7f", `del\x7f`, `del\x7f`},
		{"csi\u009b2J", `csi\u009b2J`, `csi\u009b2J`},
		{"nbsp\u00a0ok", "nbsp\u00a0ok", "nbsp\u00a0ok"},
		{"bad\xff\xfeutf8", `bad\xff\xfeutf8`, `bad\xff\xfeutf8`},
		{"cut\xe2\x99", `cut\xe2\x99`, `cut\xe2\x99`},
		{"\x00", `\x00`, `\x00`},
	} {
		if got := Printable(c.in); got != c.one {
			t.Errorf("Printable(%q) = %q, want %q", c.in, got, c.one)
		}
		if got := PrintableLines(c.in); got != c.lines {
			t.Errorf("PrintableLines(%q) = %q, want %q", c.in, got, c.lines)
		}
	}
}

// FuzzPrintable checks what a terminal gets: valid UTF-8 with no control
// character (but tab and newline in PrintableLines), and the text itself
// when it had none.
func FuzzPrintable(f *testing.F) {
	for _, s := range []string{"Ethereal", "\x1b]0;x\a\x1b[2J", "a\tb\n", "\xff\u009b\x7f", "é♞"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, lines := range []bool{false, true} {
			got := printable(s, lines)
			if !utf8.ValidString(got) {
				t.Fatalf("printable(%q, %v) = %q: not UTF-8", s, lines, got)
			}
			for _, r := range got {
				if unprintable(r, 2, lines) {
					t.Fatalf("printable(%q, %v) = %q holds %U", s, lines, got, r)
				}
			}
			clean := utf8.ValidString(s) && !strings.ContainsFunc(s, func(r rune) bool { return unprintable(r, 2, lines) })
			if clean != (got == s) {
				t.Fatalf("printable(%q, %v) = %q: changed %v, clean %v", s, lines, got, got != s, clean)
			}
		}
	})
}

// TestJSONControls: DEL and C1 controls in JSON strings come escaped,
// the value decodes the same, and JSON without them is unchanged.
func TestJSONControls(t *testing.T) {
	for _, v := range []any{
		map[string]string{"name": "del\x7f csi\u009b2J é ♞ \u00a0", "id": "x"},
		[]string{"plain", "\u0080\u009f\u00a0\u00bf"},
		"no controls é",
	} {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		got := JSONControls(b)
		if i := bytes.IndexFunc(got, func(r rune) bool { return r == 0x7f || r >= 0x80 && r < 0xa0 }); i >= 0 {
			t.Errorf("JSONControls(%s) = %s: holds a control at %d", b, got, i)
		}
		var a, c any
		if err := json.Unmarshal(b, &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(got, &c); err != nil || !reflect.DeepEqual(a, c) {
			t.Errorf("JSONControls(%s) = %s decodes to %v (%v), want %v", b, got, c, err, a)
		}
		if !bytes.ContainsFunc(b, func(r rune) bool { return r == 0x7f || r >= 0x80 && r < 0xa0 }) && !bytes.Equal(got, b) {
			t.Errorf("JSONControls(%s) = %s: changed JSON without controls", b, got)
		}
	}
}
