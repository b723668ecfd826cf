package viewer

import (
	"context"
	"strings"
	"testing"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
	"github.com/horizonqs/horizon/trace/tracetest"
)

// TestHeaderNamesEPDRecord: a run traced from an EPD record shows the
// record's id before its FEN in the header, as runs shows it.
func TestHeaderNamesEPDRecord(t *testing.T) {
	st, _ := tracetest.CreateTrace(t)
	o := tracetest.VariantOptions(t, "captures")
	rec, err := st.NewRecorder(context.Background(), trace.RunInfo{FEN: tracetest.Kiwipete, EPDID: "kiwi.1", Variant: o.Variant,
		Options: o.JSON()}, trace.RecordOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res := engine.NewSearcher(o).Search(rec.Context(), engine.MustParseFEN(tracetest.Kiwipete), engine.Limits{Depth: 1}, rec)
	if err := rec.FinishSearch(res); err != nil {
		t.Fatal(err)
	}
	r := newRig(t, st, 250, 30, Options{Run: rec.RunID(), File: "t.trace"})
	header := strings.SplitN(r.text(), "\n", 2)[0]
	if want := "kiwi.1 " + engine.MustParseFEN(tracetest.Kiwipete).FEN(); !strings.Contains(header, want) {
		t.Errorf("header %q: want %q in it", header, want)
	}
}
