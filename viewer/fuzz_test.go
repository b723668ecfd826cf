package viewer

import (
	"testing"

	"github.com/horizonqs/horizon/trace"
)

// FuzzPrompts types arbitrary lines into every prompt (node id, move path,
// find, minimum size): whatever the text, the viewer must answer with a
// message, never a panic, and stay consistent.
func FuzzPrompts(f *testing.F) {
	for _, s := range []string{"100", "#42", "-1", "99999999999999999999", "Bxa6 bxc3", "+Qxf6", "e2e4 e7e5",
		"O-O", "0-0-0", "a8=Q", "Nbd7+!?", "10k", "k", "", "   ", "\x00", "é", "Ke9", "+", "++Bxa6"} {
		f.Add(s)
	}
	st, err := trace.OpenReadOnly(fixturePath(f))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { st.Close() })
	f.Fuzz(func(t *testing.T, text string) {
		m, s := newSim(t, st, Options{Run: 1}, 100, 30)
		for _, k := range []promptKind{promptNode, promptPath, promptFind, promptMinSize} {
			m.runPrompt(k, text)
			if min := m.cur().t.filt.minSize; min < 0 {
				t.Fatalf("prompt %d with %q: minimum subtree size %d", k, text, min)
			}
			m.afterChange()
			m.Draw(s)
			if _, _, err := m.cur().t.selected(); err != nil {
				t.Fatalf("prompt %d with %q: selection broken: %v", k, text, err)
			}
			m.applyFilter(filter{})
		}
	})
}
