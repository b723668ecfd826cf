package foreign

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/horizonqs/horizon/engine"
)

// fakeEngine writes a UCI engine in sh named Fake whose go runs goCmd (its
// stream is fd 3) and returns its path.
func fakeEngine(t *testing.T, goCmd string) string {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	path := filepath.Join(t.TempDir(), "fake.sh")
	script := "#!/bin/sh\nwhile read -r cmd rest; do\n\tcase \"$cmd\" in\n" +
		"\tuci) echo \"id name Fake\"; echo uciok ;;\n\tisready) echo readyok ;;\n" +
		"\tgo) " + goCmd + " ;;\n\tquit) exit 0 ;;\n\tesac\ndone\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestTraceStreamEnds: Trace tells an engine that writes no stream from
// one whose stream is late or stalls. An uninstrumented engine was said to
// be so only after a silent 10 s wait; it is now when its search ended
// (bestmove) and nothing came within streamGrace, however long a stalled
// stream is waited for (streamStall, an hour here).
func TestTraceStreamEnds(t *testing.T) {
	defer func(g, s time.Duration) { streamGrace, streamStall = g, s }(streamGrace, streamStall)
	// What each engine's go writes to its stream (fd 3) around its
	// bestmove.
	const stream = `printf 'HZT 1\nengine Fake\nposition startpos\nE - 1 -50 50\nE e2e4 0 -50 50\nL 10\nL -10\n' >&3`
	for _, tc := range []struct {
		name, goCmd string
		stall       time.Duration
		want        []string // in the error; none: one run recorded
	}{
		{"uninstrumented", `echo "bestmove e2e4"`, time.Hour,
			[]string{"Fake answered bestmove but wrote no trace of the search to HORIZON_TRACE", "is it instrumented?"}},
		// Sunfish's wrapper writes its end record after the bestmove line.
		{"stream after bestmove", `echo "bestmove e2e4"; sleep 0.2; ` + stream + `; printf 'end nodes=2\n' >&3`, time.Hour, nil},
		{"stream without an end", stream + `; echo "bestmove e2e4"`, 300 * time.Millisecond,
			[]string{"its trace stream went silent for 300ms before the search's end record"}},
		// A broken stream is said to be so at once, by its own error, with
		// the engine told to stop; it was said to have gone silent after
		// streamStall.
		{"broken stream", `printf 'HZT 1\nposition startpos\nE - 1 -50 50\nE e2e5 0 -50 50\n' >&3; read -r stop; echo "bestmove e2e4"`, time.Hour,
			[]string{"illegal move e2e5", "line 4"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			streamStall = tc.stall
			g, err := StartEngine(context.Background(), []string{fakeEngine(t, tc.goCmd)})
			if err != nil {
				t.Fatal(err)
			}
			defer g.Close()
			type result struct {
				runs []RunResult
				err  error
			}
			done := make(chan result, 1)
			go func() {
				runs, err := g.Trace(context.Background(), mustCreate(t), []string{engine.StartFEN}, EngineOptions{Limits: engine.Limits{Depth: 1}})
				done <- result{runs, err}
			}()
			var r result
			select {
			case r = <-done:
			case <-time.After(2 * time.Minute):
				t.Fatal("Trace still waits for the stream after 2 minutes")
			}
			if tc.want == nil {
				if r.err != nil || len(r.runs) != 1 || r.runs[0].Nodes != 2 {
					t.Fatalf("runs %+v, error %v; want one run of 2 nodes", r.runs, r.err)
				}
				return
			}
			if r.err == nil {
				t.Fatalf("runs %+v and no error; want %q", r.runs, tc.want)
			}
			for _, w := range tc.want {
				if !strings.Contains(r.err.Error(), w) {
					t.Errorf("error %q does not say %q", r.err, w)
				}
			}
		})
	}
}

// TestTraceProgress: OnSearch is called for each position in turn, and
// its ended func once the engine answered bestmove; the engine's own node
// count from its info line stands in for a stream without one.
func TestTraceProgress(t *testing.T) {
	eng := fakeEngine(t, `[ -z "$begun" ] && { printf 'HZT 1\n' >&3; begun=1; }; printf 'position startpos\nE - 1 -50 50\nE e2e4 0 -50 50\nL 10\nL -10\nend\n' >&3; `+
		`echo "info depth 1 nodes 7"; echo "bestmove e2e4"`)
	g, err := StartEngine(context.Background(), []string{eng})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if g.Name() != "Fake" {
		t.Errorf("Name %q, want the UCI id name Fake", g.Name())
	}
	var calls []string
	st := mustCreate(t)
	runs, err := g.Trace(context.Background(), st, []string{engine.StartFEN, engine.StartFEN}, EngineOptions{
		Limits: engine.Limits{Depth: 1},
		OnSearch: func(i int, nodes func() int64) func() {
			calls = append(calls, "search "+string(rune('0'+i)))
			nodes() // callable before the run is recorded
			return func() { calls = append(calls, "ended") }
		}})
	if err != nil || len(runs) != 2 {
		t.Fatalf("runs %+v, error %v; want two", runs, err)
	}
	if got := strings.Join(calls, ", "); got != "search 0, ended, search 1, ended" {
		t.Errorf("calls %q", got)
	}
	for _, r := range runs {
		if r.Engine != "Fake" || r.EngineNodes != 7 || r.Nodes != 2 {
			t.Errorf("run %d: engine %q, engine nodes %d, stream nodes %d; want Fake, 7 and 2", r.RunID, r.Engine, r.EngineNodes, r.Nodes)
		}
		// The stream gives no time: a live search is timed by the clock.
		if run, err := st.Run(context.Background(), r.RunID); err != nil || !run.ElapsedKnown() || run.Elapsed <= 0 {
			t.Errorf("run %d: elapsed %v known %v (%v); want the clock's time", r.RunID, run.Elapsed, run.ElapsedKnown(), err)
		}
	}
}

// TestImportedTimeUnknown: a stream read from a file whose end record
// gives no time has none (it got the import's time); with time= it has
// the engine's.
func TestImportedTimeUnknown(t *testing.T) {
	const search = "HZT 1\nengine Other\nposition startpos\nE - 1 -50 50\nE e2e4 0 -50 50\nL 10\nL -10\n"
	for _, tc := range []struct {
		end   string
		known bool
		want  time.Duration
	}{
		{"end nodes=2\n", false, 0},
		{"end\n", false, 0},
		{"end time=0\n", false, 0},
		{"end nodes=2 time=35\n", true, 35 * time.Millisecond},
	} {
		_, run, _ := importRun(t, search+tc.end)
		if run.ElapsedKnown() != tc.known || run.Elapsed != tc.want || (run.ElapsedMS() == nil) == tc.known {
			t.Errorf("%q: elapsed %v, known %v; want %v, %v", tc.end, run.Elapsed, run.ElapsedKnown(), tc.want, tc.known)
		}
	}
}
