package viewer

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
	"github.com/horizonqs/horizon/trace/tracetest"
)

// pausingTracer passes events to a recorder and stops the search at node
// pauseAt until resume is closed, so a test can look at a trace in the
// middle of being written.
type pausingTracer struct {
	*trace.Recorder
	pauseAt int64
	paused  chan struct{}
	resume  chan struct{}
}

func (p *pausingTracer) Enter(e engine.EnterInfo) {
	if e.ID == p.pauseAt {
		close(p.paused)
		<-p.resume
	}
	p.Recorder.Enter(e)
}

// TestLiveTrace opens a trace while its run is being recorded, then
// reloads it once the run is finished.
func TestLiveTrace(t *testing.T) {
	w, path := tracetest.CreateTrace(t)
	o := tracetest.VariantOptions(t, "captures")
	rec, err := w.NewRecorder(context.Background(), trace.RunInfo{FEN: kiwipete, Variant: "captures", Options: o.String()},
		trace.RecordOptions{BatchRows: 256})
	if err != nil {
		t.Fatal(err)
	}
	pt := &pausingTracer{Recorder: rec, pauseAt: 6000, paused: make(chan struct{}), resume: make(chan struct{})}
	done := make(chan engine.Result, 1)
	go func() {
		done <- engine.NewSearcher(o).Search(rec.Context(), engine.MustParseFEN(kiwipete), engine.Limits{Depth: 3}, pt)
	}()
	// A failure below must end the search and finish the recorder before
	// the store is closed: a paused search never ends, and an unfinished
	// recorder holds its connection.
	var resume sync.Once
	var res engine.Result
	searched, finished := false, false
	endSearch := func() {
		resume.Do(func() { close(pt.resume) })
		if !searched {
			res, searched = <-done, true
		}
	}
	t.Cleanup(func() {
		endSearch()
		if !finished {
			rec.FinishSearch(res)
		}
	})
	select {
	case <-pt.paused:
	case res = <-done:
		searched = true
		t.Fatalf("the search ended (%d nodes) before node %d, where the test looks at the trace", res.Stats.Nodes, pt.pauseAt)
	}

	r, err := trace.OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	// The writer goroutine may still be inserting the last full batch.
	deadline := time.Now().Add(30 * time.Second)
	for {
		if n, err := r.ChildCount(context.Background(), rec.RunID(), 0); err == nil && n >= 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the rows of the first iterations never appeared")
		}
		time.Sleep(20 * time.Millisecond)
	}
	held := heldHotspots{Reader: r, release: make(chan struct{})}
	rig := newRig(t, held, 120, 30, Options{})
	screen := rig.text()
	for _, want := range []string{"running", "being recorded", "iteration 3", "open"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the screen of a run being recorded does not show %q:\n%s", want, screen)
		}
	}
	rig.run("j", "j", "l") // browse what is there

	// r while the run is being recorded: the run node is a stand-in whose
	// size is not known, and the message must not print it as a count.
	rig.run("r")
	if msg := rig.m.msg; !strings.Contains(msg, "reloaded") || !strings.Contains(msg, "being recorded") || strings.Contains(msg, "4,294,967,295") {
		t.Errorf("r on a run being recorded says %q", msg)
	}

	// Hotspots of a running run are ranked in the background (every row is
	// read); the key takes effect when they arrive. They are held until the
	// screen was seen: the rig handles every event pending after a key, so
	// a ranking done that fast would be taken with the key.
	rig.m.post = rig.s.PostEvent
	rig.run("n")
	if !strings.Contains(rig.text(), "ranking the hotspots") {
		t.Errorf("n on a running run does not say the hotspots are being ranked:\n%s", rig.text())
	}
	close(held.release)
	deadline = time.Now().Add(30 * time.Second)
	for !rig.s.HasPendingEvent() {
		if time.Now().After(deadline) {
			t.Fatal("the hotspots ranked in the background never arrived")
		}
		time.Sleep(10 * time.Millisecond)
	}
	rig.post(func() {})
	if !strings.Contains(rig.text(), "hotspot 1/") {
		t.Errorf("after the ranking arrived the cursor is not on hotspot 1:\n%s", rig.text())
	}
	rig.m.post = nil

	endSearch()
	finished = true
	if err := rec.Finish(trace.Result{BestMove: res.BestMove, Score: res.Score, PV: res.PV, Depth: res.Depth}); err != nil {
		t.Fatal(err)
	}
	rig.run("r")
	screen = rig.text()
	for _, want := range []string{"complete", engine.Commas(res.Stats.Nodes) + " nodes", "reloaded"} {
		if !strings.Contains(screen, want) {
			t.Errorf("after the run finished and r, the screen does not show %q:\n%s", want, screen)
		}
	}
	if strings.Contains(screen, "being recorded") {
		t.Errorf("still 'being recorded' after reload:\n%s", screen)
	}
}

// heldHotspots holds Hotspots until release is closed.
type heldHotspots struct {
	trace.Reader
	release chan struct{}
}

func (h heldHotspots) Hotspots(ctx context.Context, run int64, order trace.HotspotOrder, limit int) ([]trace.Hotspot, error) {
	select {
	case <-h.release:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return h.Reader.Hotspots(ctx, run, order, limit)
}

// TestLiveChildrenNotDamaged: the children of a run being recorded pass
// the viewer's checks though the run grows between the reads. With the
// parent read before its children, the last iteration's root ran past the
// run node: TestLiveTrace failed so, once in 6 runs under load ("node 3321
// has subtree size 2567, which runs past its parent 0's subtree [0,
// 5632)"), and the viewer showed a sound live run as damaged.
func TestLiveChildrenNotDamaged(t *testing.T) {
	ctx := context.Background()
	for _, order := range []trace.Order{trace.BySearch, trace.BySize} {
		kids, err := checked{&tracetest.Growing{Reader: openFixture(t), Behind: 100}}.Children(ctx, 1, 0, order, 0, 0)
		if err != nil {
			t.Errorf("children of a growing run node (order %d): %v", order, err)
		} else if len(kids) == 0 {
			t.Errorf("no children of the run node (order %d)", order)
		}
	}
}
