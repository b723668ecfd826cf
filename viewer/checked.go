package viewer

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/horizonqs/horizon/trace"
)

// checked is the trace.Reader the model reads through: it checks the sizes,
// ids and parents of what the file returns before the tree follows them
// (trace.ReadChildren and trace.CheckPath), so a damaged trace shows "damaged
// trace: node N has subtree size -5" instead of a tree that loops or a
// row count in the billions.
type checked struct{ trace.Reader }

func (c checked) Node(ctx context.Context, run, id int64) (trace.Node, error) {
	n, err := c.Reader.Node(ctx, run, id)
	if err != nil {
		return n, err
	}
	return n, trace.CheckNode(n)
}

func (c checked) ChildCount(ctx context.Context, run, id int64) (int, error) {
	n, err := c.Reader.ChildCount(ctx, run, id)
	if err == nil && n > trace.MaxChildren {
		return 0, &trace.DamagedError{Run: run, Node: id,
			Detail: fmt.Sprintf("has %d children; no search node has more than %d", n, trace.MaxChildren)}
	}
	return n, err
}

func (c checked) Children(ctx context.Context, run, id int64, order trace.Order, offset, limit int) ([]trace.Node, error) {
	_, kids, err := trace.ReadChildren(ctx, c.Reader, run, id, order, offset, limit)
	if err != nil {
		return nil, err
	}
	return kids, nil
}

func (c checked) Path(ctx context.Context, run, id int64) ([]trace.Node, error) {
	path, err := c.Reader.Path(ctx, run, id)
	if err != nil {
		return nil, err
	}
	return path, trace.CheckPath(path)
}

// interruptible is the context of the model's queries. The screen
// goroutine runs queries inside Handle, so while one runs no key is read:
// Loop's event reader calls interrupt when the user presses q or Ctrl-C,
// which cancels the query in progress (one on a damaged or huge file
// could otherwise hold the screen for good), and the next event renews
// the context. Work that must outlive a keystroke (hotspots ranked in the
// background) uses the parent, base.
type interruptible struct {
	base context.Context

	mu     sync.Mutex
	cur    context.Context
	cancel context.CancelFunc
	// pending counts interrupting keys read but not yet handled: the
	// events queued before them run with the cancelled context too.
	pending int
}

func newInterruptible(base context.Context) *interruptible {
	c := &interruptible{base: base}
	c.cur, c.cancel = context.WithCancel(base)
	return c
}

func (c *interruptible) current() context.Context {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cur
}

func (c *interruptible) Deadline() (time.Time, bool) { return c.base.Deadline() }
func (c *interruptible) Done() <-chan struct{}       { return c.current().Done() }
func (c *interruptible) Err() error                  { return c.current().Err() }
func (c *interruptible) Value(key any) any           { return c.base.Value(key) }

// interrupt cancels the queries running now, and those of the events
// queued before the interrupting key.
func (c *interruptible) interrupt() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pending++
	c.cancel()
}

// next prepares for handling ev: once the interrupting keys read so far
// are handled, queries get a live context again.
func (c *interruptible) next(ev tcell.Event) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if interrupts(ev) && c.pending > 0 {
		c.pending--
	}
	if c.pending == 0 && c.cur.Err() != nil && c.base.Err() == nil {
		c.cur, c.cancel = context.WithCancel(c.base)
	}
}

// interrupts reports whether an event asks to stop what the viewer is
// doing: q or Ctrl-C.
func interrupts(ev tcell.Event) bool {
	k, ok := ev.(*tcell.EventKey)
	return ok && (k.Key() == tcell.KeyCtrlC || (k.Key() == tcell.KeyRune && k.Rune() == 'q'))
}
