package viewer

import (
	"context"
	"fmt"

	"github.com/gdamore/tcell/v2"
)

// Run shows m on s until the user quits or ctx is cancelled. It initialises
// the screen and always finalises it, so the terminal is restored even when
// something inside panics (the panic is returned as an error).
func Run(ctx context.Context, s tcell.Screen, m *Model) (err error) {
	if err := s.Init(); err != nil {
		return fmt.Errorf("open the terminal: %w", err)
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("viewer: internal error: %v (please report it)", r)
		}
	}()
	defer s.Fini() // runs before the recover above: the terminal comes back first
	s.EnableMouse(tcell.MouseButtonEvents)
	stop := context.AfterFunc(ctx, func() { s.PostEvent(tcell.NewEventInterrupt(nil)) })
	defer stop()
	return Loop(s, m)
}

// Loop draws m and feeds it events from s until m quits or s is finalised;
// the screen must be initialised. Tests drive a simulation screen with it.
func Loop(s tcell.Screen, m *Model) error {
	m.post = s.PostEvent
	defer func() { m.post = nil }()
	for !m.Quit() {
		m.Draw(s)
		s.Show()
		ev := s.PollEvent()
		if ev == nil {
			return nil
		}
		for {
			m.Handle(ev)
			if _, ok := ev.(*tcell.EventResize); ok || m.resync {
				m.resync = false
				s.Sync()
			}
			// Apply the events already queued (a held key, a fast wheel)
			// before drawing again.
			if m.Quit() || !s.HasPendingEvent() {
				break
			}
			ev = s.PollEvent()
			if ev == nil {
				return nil
			}
		}
	}
	return nil
}
