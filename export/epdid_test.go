package export

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestHeadingsNameEPDRecord: a run of an EPD record is named by the
// record's id before its FEN in every export's heading (DOT, icicle, the
// HTML page), as runs and the viewer name it, and JSON gives epd_id.
func TestHeadingsNameEPDRecord(t *testing.T) {
	ctx := context.Background()
	st, _ := fixedTrace(t)
	run, top := resolve(t, st, Selection{Node: 0})
	run.EPDID = "kiwi.1"
	want := "kiwi.1: FEN " + run.FEN
	g, err := Build(ctx, st, run, top, Options{MaxNodes: 10, Depth: -1})
	if err != nil {
		t.Fatal(err)
	}
	write := map[string]func(*bytes.Buffer) error{
		"dot":    func(b *bytes.Buffer) error { return g.WriteDOT(b) },
		"icicle": func(b *bytes.Buffer) error { return WriteIcicle(ctx, st, run, top, IcicleOptions{Depth: 2}, b) },
		"html":   func(b *bytes.Buffer) error { return WriteHTML(ctx, st, run, top, HTMLOptions{Depth: 2}, b) },
	}
	for name, w := range write {
		var b bytes.Buffer
		if err := w(&b); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), want) {
			t.Errorf("%s: no %q in its heading", name, want)
		}
	}
	var b bytes.Buffer
	if err := g.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var j struct {
		Run struct {
			EPDID *string `json:"epd_id"`
		} `json:"run"`
	}
	if err := json.Unmarshal(b.Bytes(), &j); err != nil || j.Run.EPDID == nil || *j.Run.EPDID != "kiwi.1" {
		t.Errorf("JSON run.epd_id %v (%v), want kiwi.1", j.Run.EPDID, err)
	}
}

// TestHostileNames: a run whose name and EPD id hold escape sequences
// and bytes that are not UTF-8 (a hostile engine or file) gives an icicle
// that parses as XML and DOT text with no control character, the names
// written out as %q writes them.
func TestHostileNames(t *testing.T) {
	ctx := context.Background()
	st, _ := fixedTrace(t)
	run, top := resolve(t, st, Selection{Node: 0})
	const evil = "x\x1b]0;pwned\a\x1b[2J\u009b\x7f\xff"
	run.EPDID, run.Engine, run.Variant = "id"+evil, "eng"+evil, "eng"+evil
	const want = `x\x1b]0;pwned\a\x1b[2J\u009b\x7f\xff`
	var icicle bytes.Buffer
	if err := WriteIcicle(ctx, st, run, top, IcicleOptions{Depth: 2}, &icicle); err != nil {
		t.Fatal(err)
	}
	var doc svgDoc
	if err := xml.Unmarshal(icicle.Bytes(), &doc); err != nil {
		t.Errorf("icicle is not valid XML: %v", err)
	}
	if !strings.Contains(icicle.String(), "id"+want) || !strings.Contains(icicle.String(), "eng"+want) {
		t.Errorf("icicle does not name the run %q", "eng"+want)
	}
	g, err := Build(ctx, st, run, top, Options{MaxNodes: 10, Depth: -1})
	if err != nil {
		t.Fatal(err)
	}
	var dot bytes.Buffer
	if err := g.WriteDOT(&dot); err != nil {
		t.Fatal(err)
	}
	if i := strings.IndexFunc(dot.String(), func(r rune) bool {
		return r < 0x20 && r != '\t' && r != '\n' || r >= 0x7f && r < 0xa0 || r == utf8.RuneError
	}); i >= 0 {
		t.Errorf("DOT holds %q at byte %d", dot.String()[i], i)
	}
	if !strings.Contains(dot.String(), "id"+strings.ReplaceAll(want, `\`, `\\`)) && !strings.Contains(dot.String(), "id"+want) {
		t.Errorf("DOT does not name the EPD record %q", "id"+want)
	}
}
