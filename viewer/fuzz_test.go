package viewer

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
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
			m.afterChange()
			m.Draw(s)
			if _, _, err := m.cur().t.selected(); err != nil {
				t.Fatalf("prompt %d with %q: selection broken: %v", k, text, err)
			}
			m.applyFilter(filter{})
		}
	})
}

// panicky is a trace whose Path panics once armed: a stand-in for a bug.
type panicky struct {
	*trace.Store
	armed atomic.Bool
}

func (p *panicky) Path(ctx context.Context, run, id int64) ([]trace.Node, error) {
	if p.armed.Load() {
		panic("test panic in Path")
	}
	return p.Store.Path(ctx, run, id)
}

// initSignal closes ready once the screen is initialised.
type initSignal struct {
	tcell.Screen
	ready chan struct{}
}

func (s initSignal) Init() error {
	defer close(s.ready)
	return s.Screen.Init()
}

// TestRunRecoversPanic checks that a panic inside the viewer comes back as
// an error from Run, after the screen was finalised.
func TestRunRecoversPanic(t *testing.T) {
	src := &panicky{Store: openFixture(t)}
	m, err := New(context.Background(), src, Options{Run: 1})
	if err != nil {
		t.Fatal(err)
	}
	s := initSignal{Screen: tcell.NewSimulationScreen("UTF-8"), ready: make(chan struct{})}
	done := make(chan error, 1)
	go func() { done <- Run(context.Background(), s, m) }()
	src.armed.Store(true)
	// A key posted before Run initialised the screen would be lost (and
	// race with Init).
	select {
	case <-s.ready:
	case <-time.After(time.Minute):
		t.Fatal("Run did not initialise the screen")
	}
	if err := s.PostEvent(tcell.NewEventKey(tcell.KeyRune, 'j', tcell.ModNone)); err != nil {
		t.Fatal(err)
	}
	select {
	case err = <-done:
	case <-time.After(time.Minute):
		t.Fatal("Run did not return after the panic")
	}
	if err == nil || !strings.Contains(err.Error(), "test panic in Path") {
		t.Fatalf("Run returned %v, want the panic as an error", err)
	}
}
