package foreign

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/horizonqs/horizon/trace"
	"github.com/horizonqs/horizon/trace/tracetest"
)

// TestImportCancelWhileWaiting: an import reading a stream that pauses (a
// FIFO, an engine thinking) commits the nodes it has, so a reader of the
// file sees them, and a cancel (Ctrl-C) ends it while it waits: the run is
// interrupted with every node received. The walkthrough's 'import -' from
// a FIFO ignored Ctrl-C and SIGTERM until the writer closed, and a live
// viewer saw none of its ~2,000 nodes.
func TestImportCancelWhileWaiting(t *testing.T) {
	st, path := tracetest.CreateTrace(t)
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	// The root and three replies left; the root stays open, as in an
	// engine that is still thinking.
	stream := "HZT 1\nengine Slow\nposition startpos\nE - 2 -50 50\n" + strings.Repeat("E e2e4 1 -50 50\nE e7e5 0 -50 50\nL 10\nL -10\n", 3)
	if _, err := io.WriteString(pw, stream); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type result struct {
		runs []RunResult
		err  error
	}
	done := make(chan result, 1)
	go func() {
		runs, err := Import(ctx, st, pr, Options{})
		done <- result{runs, err}
	}()

	// A reader of the file sees the nodes while the stream pauses.
	const sent = 7 // the root and three moves with a reply each
	seen := int64(-1)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if seen = recordedNodes(t, path); seen == sent {
			break
		}
	}
	if seen != sent {
		t.Errorf("while the stream paused a reader saw %d nodes, want the %d sent", seen, sent)
	}

	cancel()
	select {
	case r := <-done:
		if !errors.Is(r.err, context.Canceled) || len(r.runs) != 1 {
			t.Fatalf("runs %+v, err %v; want one run and the cancel", r.runs, r.err)
		}
		if got := r.runs[0]; got.Status != trace.StatusInterrupted || got.Nodes != sent {
			t.Errorf("run: %s with %d nodes, want interrupted with %d", got.Status, got.Nodes, sent)
		}
	case <-time.After(10 * time.Second):
		pw.Close() // let the import end, so the test does not hang
		t.Fatal("the import kept waiting for the stream after the cancel")
	}
}

// recordedNodes returns the nodes a reader of the file sees in its first
// run, -1 when it has none yet.
func recordedNodes(t *testing.T, path string) int64 {
	t.Helper()
	st, err := trace.OpenReadOnly(path)
	if err != nil {
		return -1
	}
	defer st.Close()
	runs, err := st.Runs(context.Background())
	if err != nil || len(runs) == 0 {
		return -1
	}
	return runs[0].Recorded()
}
