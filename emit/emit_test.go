package emit

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestRecords: the exact text of every record.
func TestRecords(t *testing.T) {
	var buf bytes.Buffer
	w := New(&buf, "Go\nEngine", true)
	w.PseudoLegal()
	w.Position("startpos")
	w.Limits("depth 1")
	w.Root(1, -100, 100, 1)
	w.Move("e2e4", 0)
	w.Enter("e2e4", 0, -100, 100)
	w.StandPat(12)
	w.Leave(12)
	w.Extension(1)
	w.EnterKind("0000", 0, -100, -99, "qs")
	w.LeaveWith(-5, LeaveInfo{Bound: "upper", Best: "e7e5", Counts: true, Generated: 3, Searched: 2, CutIndex: -1})
	w.EnterWith("e2e3", -1, 1, 2, "", 2, -1)
	w.Leave(0)
	w.Leave(5)
	w.Abort()
	w.End("e2e4", 3)
	want := "HZT 1\nengine Go Engine\nscores hard\nmoves pseudo\nposition startpos\nlimits depth 1\nE - 1 -100 100 i=1\n" +
		"M e2e4 0\nE e2e4 0 -100 100\nS 12\nL 12\nX 1\nE 0000 0 -100 -99 k=qs\nL -5 b=upper m=e7e5 g=3 s=2\n" +
		"E e2e3 -1 1 2 q=2\nL 0\nL 5\nA\nend best=e2e4 nodes=3\n"
	if buf.String() != want {
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
