package export

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
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
