package viewer

import (
	"context"
	"strings"
	"testing"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
	"github.com/horizonqs/horizon/trace/tracetest"
)

// ofRecord is a trace whose runs were searched from EPD record id, as
// trace --epd records them.
type ofRecord struct {
	*trace.Store
	id string
}

func (o ofRecord) Run(ctx context.Context, id int64) (trace.Run, error) {
	r, err := o.Store.Run(ctx, id)
	r.EPDID = o.id
	return r, err
}

func (o ofRecord) Runs(ctx context.Context) ([]trace.Run, error) {
	rs, err := o.Store.Runs(ctx)
	for i := range rs {
		rs[i].EPDID = o.id
	}
	return rs, err
}

// TestHeaderNamesEPDRecord: a run traced from an EPD record shows the
// record's id before its FEN in the header and the run list, as runs
// shows it.
func TestHeaderNamesEPDRecord(t *testing.T) {
	st, _ := tracetest.CreateTrace(t)
	id := tracetest.RecordSearch(t, st, tracetest.Kiwipete, tracetest.VariantOptions(t, "captures"), engine.Limits{Depth: 1})
	r := newRig(t, ofRecord{st, "kiwi.1"}, 250, 30, Options{Run: id, File: "t.trace"})
	want := "kiwi.1 " + tracetest.Kiwipete
	if header := strings.SplitN(r.text(), "\n", 2)[0]; !strings.Contains(header, want) {
		t.Errorf("header %q: want %q in it", header, want)
	}
	r.run("R") // the run list
	list := r.text()
	start := "kiwi.1 r3k2r/" // the list cuts the FEN to its width
	if i := strings.Index(list, "*   1  captures"); i < 0 || !strings.Contains(strings.SplitN(list[i:], "\n", 2)[0], start) {
		t.Errorf("run list: want run 1's row with %q:\n%s", start, list)
	}
}

// TestHostileNamesOnScreen: a run whose EPD id holds escape sequences,
// DEL, a C1 control and bytes that are not UTF-8 (a hostile file) puts
// none of them in a cell: they are drawn as %q writes them.
func TestHostileNamesOnScreen(t *testing.T) {
	st, _ := tracetest.CreateTrace(t)
	id := tracetest.RecordSearch(t, st, tracetest.Kiwipete, tracetest.VariantOptions(t, "captures"), engine.Limits{Depth: 1})
	const evil = "x\x1b]0;pwned\a\x1b[2J\u009b\x7f\xff"
	r := newRig(t, ofRecord{st, evil}, 250, 30, Options{Run: id, File: "t" + evil + ".trace"})
	for _, steps := range []string{"", "R"} {
		r.run(steps)
		text := r.text()
		if i := strings.IndexFunc(text, func(c rune) bool { return c < 0x20 && c != '\n' || c >= 0x7f && c < 0xa0 }); i >= 0 {
			t.Errorf("after %q: cell holds %q: %q", steps, text[i], text[max(0, i-30):min(len(text), i+30)])
		}
		if !strings.Contains(text, `x\x1b]0;pwned\a\x1b[2J\u009b\x7f\xff`) {
			t.Errorf("after %q: the EPD id is not drawn escaped:\n%s", steps, text)
		}
	}
}
