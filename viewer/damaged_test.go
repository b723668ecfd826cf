package viewer

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
	"github.com/horizonqs/horizon/trace/tracetest"
)

// stuck is a trace whose Children never returns until its context is
// cancelled, as trace's child walk did on a subtree size of 0 or -5 (issue
// 17 item 5: after v the viewer froze, and neither q nor Ctrl-C helped).
type stuck struct {
	*trace.Store
	armed atomic.Bool
}

func (s *stuck) Children(ctx context.Context, run, id int64, order trace.Order, offset, limit int) ([]trace.Node, error) {
	if s.armed.Load() {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	return s.Store.Children(ctx, run, id, order, offset, limit)
}

// TestLoopInterruptsStuckQuery: q or Ctrl-C during a query that does not
// end must cancel it and quit.
func TestLoopInterruptsStuckQuery(t *testing.T) {
	for _, tc := range []struct {
		name string
		key  func(s tcell.SimulationScreen)
	}{
		{"q", func(s tcell.SimulationScreen) { s.InjectKey(tcell.KeyRune, 'q', tcell.ModNone) }},
		{"Ctrl-C", func(s tcell.SimulationScreen) { s.InjectKey(tcell.KeyCtrlC, 0, tcell.ModCtrl) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := &stuck{Store: openFixture(t)}
			m, s := newSim(t, src, Options{Run: 1}, 0, 0)
			done := make(chan error, 1)
			go func() { done <- Loop(s, m) }()
			src.armed.Store(true) // after New: only the keys below get stuck
			time.Sleep(50 * time.Millisecond)
			s.InjectKey(tcell.KeyRune, 'v', tcell.ModNone)
			time.Sleep(50 * time.Millisecond)
			tc.key(s)
			select {
			case err := <-done:
				if err != nil {
					t.Fatal(err)
				}
			case <-time.After(10 * time.Second):
				buf := make([]byte, 1<<20)
				t.Log(string(buf[:runtime.Stack(buf, true)]))
				t.Fatalf("%s did not end the viewer while a query was stuck", tc.name)
			}
			if !m.Quit() {
				t.Error("the loop ended without the model quitting")
			}
		})
	}
}

// dropper is a trace whose Children leave one node out, as a damaged file
// whose parent ids and sizes disagree does.
type dropper struct {
	*trace.Store
	drop int64
}

func (d *dropper) Children(ctx context.Context, run, id int64, order trace.Order, offset, limit int) ([]trace.Node, error) {
	kids, err := d.Store.Children(ctx, run, id, order, offset, limit)
	out := kids[:0:0]
	for _, k := range kids {
		if k.ID != d.drop {
			out = append(out, k)
		}
	}
	return out, err
}

func (d *dropper) ChildCount(ctx context.Context, run, id int64) (int, error) {
	kids, err := d.Children(ctx, run, id, trace.BySearch, 0, 0)
	return len(kids), err
}

// Issue 17 item 13: with no filter set, a node its parent does not list
// was reported as "hidden by the current filters".
func TestRevealMissingNodeWithoutFilter(t *testing.T) {
	st := openFixture(t)
	ctx := context.Background()
	path, err := st.Path(ctx, 1, pvSANNode(t, st))
	if err != nil {
		t.Fatal(err)
	}
	target := path[len(path)-1]
	m, err := New(ctx, &dropper{Store: st, drop: target.ID}, Options{Run: 1})
	if err != nil {
		t.Fatal(err)
	}
	err = m.reveal(target.ID)
	if err == nil {
		t.Fatal("reveal of a node its parent does not list: no error")
	}
	if strings.Contains(err.Error(), "filter") {
		t.Errorf("error %q blames filters, and none is set", err)
	}
	if !errors.Is(err, trace.ErrCorrupt) || !strings.Contains(err.Error(), "damaged trace") {
		t.Errorf("error %q, want it to say the trace is damaged", err)
	}
}

// pvSANNode returns a node some plies down run 1's tree.
func pvSANNode(t *testing.T, st *trace.Store) int64 {
	t.Helper()
	ctx := context.Background()
	n, err := st.Find(ctx, 1, 0, pvSAN(t, st, 1, 3))
	if err != nil {
		t.Fatal(err)
	}
	return n.ID
}

// ended is a trace whose last run stopped without its recorder closing it:
// the run node is still the stand-in written when the search began.
type ended struct {
	*trace.Store
	status trace.Status
}

func (e *ended) Run(ctx context.Context, id int64) (trace.Run, error) {
	r, err := e.Store.Run(ctx, id)
	r.Status = e.status
	return r, err
}

func (e *ended) Node(ctx context.Context, run, id int64) (trace.Node, error) {
	n, err := e.Store.Node(ctx, run, id)
	if id == 0 {
		n.Incomplete, n.Open, n.SubtreeSize = true, true, 1<<32-1
	}
	return n, err
}

// The words of a run whose recorder is gone, and of one still recorded.
// Issue 17 item 13: the header said "being recorded" for a run whose
// recorder had died; it says so only while the status is running. Issue 9:
// the header said "abandoned" and the run row "running"; an open node's
// word is its run's Status.OpenNode, in the tree and the details.
func TestRecorderStatusWords(t *testing.T) {
	st := openFixture(t)
	for _, tc := range []struct {
		status            trace.Status
		header, notHeader string
		notOnScreen       string
	}{
		{trace.StatusRunning, "being recorded", "ended without", "abandoned"},
		{trace.StatusAbandoned, "ended without closing", "being recorded", "running"},
		{trace.StatusFailed, "ended without closing", "being recorded", "running"},
	} {
		t.Run(string(tc.status), func(t *testing.T) {
			r := newRig(t, &ended{Store: st, status: tc.status}, 200, 30, Options{Run: 1, File: "t.trace"})
			screen := r.text()
			header := strings.SplitN(screen, "\n", 2)[0]
			if !strings.Contains(header, tc.header) || strings.Contains(header, tc.notHeader) {
				t.Errorf("header %q: want %q in it and not %q", header, tc.header, tc.notHeader)
			}
			// A run that ended open counts the rows committed, as runs and
			// stats say (the header said "size unknown" after a kill -9,
			// while runs said 868,351 nodes).
			if run, err := st.Run(context.Background(), 1); err != nil {
				t.Fatal(err)
			} else if nodes := engine.Commas(run.Nodes) + " nodes"; tc.status != trace.StatusRunning && !strings.Contains(header, nodes) {
				t.Errorf("header %q: want %q, the run's nodes as runs and stats count them", header, nodes)
			}
			if !strings.Contains(screen, tc.status.OpenNode()) || strings.Contains(screen, tc.notOnScreen) {
				t.Errorf("screen of a %s run: want %q on it and not %q:\n%s", tc.status, tc.status.OpenNode(), tc.notOnScreen, screen)
			}
		})
	}
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

// TestUnplayableQSMove: a damaged trace whose first QS node on a path has
// a move that cannot be played there (h8h8) shows the node with the error
// in its details. The viewer found its QS root before it found the move
// unplayable, and its details looked up the root's SAN among the moves it
// had played: an index past them, a panic (found by FuzzImport's viewer
// check, run against a viewer whose move rule was broken on purpose to see
// the check fail).
func TestUnplayableQSMove(t *testing.T) {
	var qs trace.Node
	err := openFixture(t).Subtree(context.Background(), 1, 0, -1, func(n trace.Node) error {
		if qs.ID == 0 && n.Kind == engine.KindQS {
			qs = n
		}
		return nil
	})
	if err != nil || qs.ID == 0 {
		t.Fatalf("no QS node in run 1: %v", err)
	}
	p := tracetest.Damaged(t, fixturePath(t), fmt.Sprintf("UPDATE node_rows SET move = 4095 WHERE run_id = 1 AND id = %d", qs.ID)) // h8h8
	r := newRig(t, tracetest.Open(t, p), 120, 40, Options{Run: 1, Node: &qs.ID})
	if want := fmt.Sprintf("node %d: move h8h8 is", qs.ID); !strings.Contains(r.text(), want) {
		t.Errorf("the screen does not say %q:\n%s", want, r.text())
	}
}
