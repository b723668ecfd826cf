package emit

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// records are the calls of a search, in Go and in the Python emitter
// (emit/python/horizon_trace.py), and the record each writes: the one
// statement of the protocol's text both emitters are held to. A call one
// emitter lacks is "" there (Python has no move counts nor QS ply).
var records = []struct {
	goCall func(w *Writer)
	py     string
	want   string
}{
	{func(w *Writer) { w.Position("startpos") }, `position("startpos")`, "position startpos"},
	{func(w *Writer) { w.Limits("depth 1") }, `limits("depth 1")`, "limits depth 1"},
	{func(w *Writer) { w.Root(1, -100, 100, 1) }, `root(1, -100, 100, 1)`, "E - 1 -100 100 i=1"},
	{func(w *Writer) { w.Move("e2e4", 0) }, `move("e2e4", 0)`, "M e2e4 0"},
	{func(w *Writer) { w.Enter("e2e4", 0, -100, 100) }, `enter("e2e4", 0, -100, 100)`, "E e2e4 0 -100 100"},
	{func(w *Writer) { w.StandPat(12) }, `stand_pat(12)`, "S 12"},
	{func(w *Writer) { w.Leave(12) }, `leave(12)`, "L 12"},
	{func(w *Writer) { w.Extension(1) }, `extension(1)`, "X 1"},
	{func(w *Writer) { w.Nested("iid", 1, -100, 100, "", true) }, `nested("iid", 1, -100, 100)`, "E - 1 -100 100 n=iid"},
	{func(w *Writer) { w.Nested("singular", 2, 9, 10, "e2e4", false) }, `nested("singular", 2, 9, 10, excluded="e2e4", counted=False)`,
		"E - 2 9 10 n=singular e=e2e4 u=1"},
	{func(w *Writer) { w.EnterKind("0000", 0, -100, -99, "qs") }, `enter("0000", 0, -100, -99, kind="qs")`, "E 0000 0 -100 -99 k=qs"},
	{func(w *Writer) { w.LeaveWith(-5, LeaveInfo{Bound: "upper", Cause: "none", Best: "e7e5"}) },
		`leave(-5, bound="upper", cause="none", best="e7e5")`, "L -5 b=upper c=none m=e7e5"},
	{func(w *Writer) { w.EnterWith("e2e3", -1, 1, 2, "", 2, -1) }, "", "E e2e3 -1 1 2 q=2"},
	{func(w *Writer) {
		w.LeaveWith(-5, LeaveInfo{Bound: "upper", Best: "e7e5", Counts: true, Generated: 3, Searched: 2, CutIndex: -1})
	}, "", "L -5 b=upper m=e7e5 g=3 s=2"},
	{func(w *Writer) { w.Leave(5) }, `leave(5)`, "L 5"},
	{func(w *Writer) { w.Abort() }, `abort()`, "A"},
	{func(w *Writer) { w.EndTime("e2e4", 3, 7) }, `end("e2e4", 3, time_ms=7)`, "end best=e2e4 nodes=3 time=7"},
}

// recordsHeader is the stream's head for the engine "Tiny\nEngine",
// fail-hard, pseudo-legal moves: the name is made one line.
const recordsHeader = "HZT 1\nengine Tiny Engine\nscores hard\nmoves pseudo\n"

// wantRecords is the stream records make in an emitter that has the calls
// for which has is true.
func wantRecords(has func(py string) bool) string {
	var b strings.Builder
	b.WriteString(recordsHeader)
	for _, r := range records {
		if has(r.py) {
			b.WriteString(r.want + "\n")
		}
	}
	return b.String()
}

// TestRecords: the exact text of every record the Go emitter writes.
func TestRecords(t *testing.T) {
	var buf bytes.Buffer
	w := New(&buf, "Tiny\nEngine", true)
	w.PseudoLegal()
	for _, r := range records {
		r.goCall(w)
	}
	if want := wantRecords(func(string) bool { return true }); buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
}

// TestOpen: HORIZON_TRACE unset is off (a nil Writer ignores calls); a
// path is created.
func TestOpen(t *testing.T) {
	t.Setenv(EnvVar, "")
	w, err := Open("x", false)
	if w != nil || err != nil {
		t.Fatalf("unset: %v, %v", w, err)
	}
	w.Enter("e2e4", 1, 0, 1) // no panic
	path := filepath.Join(t.TempDir(), "s.hzt")
	t.Setenv(EnvVar, path)
	w, err = Open("x", false)
	if err != nil {
		t.Fatal(err)
	}
	w.End("", -1)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "HZT 1\nengine x\nscores soft\nend\n" {
		t.Errorf("file holds %q", b)
	}
	t.Setenv(EnvVar, "fd:x")
	if _, err := Open("x", false); err == nil {
		t.Error("fd:x accepted")
	}
}

// BenchmarkEnterLeave: the cost of one node's two records (buffered).
func BenchmarkEnterLeave(b *testing.B) {
	w := New(discard{}, "bench", false)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		w.Enter("e2e4", 3, -50, 50)
		w.Leave(17)
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// headers are stream heads with each kind of score scale, in Go and in the
// Python emitter's keywords, and the text both write: a scale makes the
// stream version 2, none leaves it version 1 for older Horizons.
var headers = []struct {
	scale  Scale
	nested bool
	py     string
	want   string
}{
	{Scale{}, false, "", "HZT 1\nengine E\nscores soft\n"},
	{Scale{Infinity: 9}, true, "infinity=9, nested=True", "HZT 4\nengine E\nscores soft\ninfinity 9\n"},
	{Scale{Mate: 32000, MateMin: 31872, Infinity: 32000}, false, "mate=(32000, 31872), infinity=32000",
		"HZT 2\nengine E\nscores soft\nmate 32000 31872 plies\ninfinity 32000\n"},
	{Scale{Mate: 8000, MateMin: 7745, MateTurns: true}, false, "mate=(8000, 7745), mate_turns=True",
		"HZT 2\nengine E\nscores soft\nmate 8000 7745 turns\n"},
	{Scale{Infinity: 69290}, false, "infinity=69290", "HZT 2\nengine E\nscores soft\ninfinity 69290\n"},
}

// TestHeaderScale: the Go emitter's header for each scale.
func TestHeaderScale(t *testing.T) {
	for _, h := range headers {
		var buf bytes.Buffer
		w := NewHeader(&buf, Header{Engine: "E", Scale: h.scale, Nested: h.nested})
		if err := w.Flush(); err != nil || buf.String() != h.want {
			t.Errorf("%+v: got %q (%v), want %q", h.scale, buf.String(), err, h.want)
		}
	}
}

// TestOn: On is false for a nil Writer (tracing off) and true otherwise.
func TestOn(t *testing.T) {
	var off *Writer
	if off.On() {
		t.Error("nil Writer is on")
	}
	if w := New(discard{}, "x", false); !w.On() {
		t.Error("Writer is off")
	}
}

// TestHeaderLabel: a Label makes the stream version 3 with a label record
// after the engine's name.
func TestHeaderLabel(t *testing.T) {
	var buf bytes.Buffer
	w := NewHeader(&buf, Header{Engine: "E", Label: "E lmr\noff", Scale: Scale{Infinity: 9}})
	if want := "HZT 3\nengine E\nlabel E lmr off\nscores soft\ninfinity 9\n"; w.Flush() != nil || buf.String() != want {
		t.Errorf("got %q, want %q", buf.String(), want)
	}
}
