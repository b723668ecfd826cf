package viewer

import (
	"context"
	"fmt"
	"sync"

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
//
// Events are read on a goroutine of their own, so that q or Ctrl-C can
// interrupt a query that holds the screen goroutine in Handle.
func Loop(s tcell.Screen, m *Model) error {
	m.post = s.PostEvent
	defer func() { m.post = nil }()
	q := newEventQueue()
	go func() {
		for {
			ev := s.PollEvent()
			if ev != nil && interrupts(ev) && m.ictx != nil {
				m.ictx.interrupt()
			}
			q.put(ev)
			if ev == nil {
				return
			}
		}
	}()
	for !m.Quit() {
		m.Draw(s)
		s.Show()
		ev := q.get()
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
			if m.Quit() || !q.pending() {
				break
			}
			ev = q.get()
			if ev == nil {
				return nil
			}
		}
	}
	return nil
}

// eventQueue hands events from the reading goroutine to the screen
// goroutine. It never blocks the reader, which must stay free to see an
// interrupt while the screen goroutine is busy.
type eventQueue struct {
	mu    sync.Mutex
	evs   []tcell.Event
	ready chan struct{} // holds a token while evs is not empty
}

func newEventQueue() *eventQueue { return &eventQueue{ready: make(chan struct{}, 1)} }

func (q *eventQueue) put(ev tcell.Event) {
	q.mu.Lock()
	q.evs = append(q.evs, ev)
	q.mu.Unlock()
	select {
	case q.ready <- struct{}{}:
	default:
	}
}

// get waits for the next event; nil means the screen was finalised.
func (q *eventQueue) get() tcell.Event {
	for {
		q.mu.Lock()
		if len(q.evs) > 0 {
			ev := q.evs[0]
			q.evs = q.evs[1:]
			q.mu.Unlock()
			return ev
		}
		q.mu.Unlock()
		<-q.ready
	}
}

func (q *eventQueue) pending() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.evs) > 0
}
