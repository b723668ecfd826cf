package foreign

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// fakeEngine writes a UCI engine in sh named Fake whose go runs goCmd (its
// stream is fd 3) and returns its path. Each of arms is a case arm of its
// own ("quit) sleep 60 ;;"), matched before the usual ones.
func fakeEngine(t *testing.T, goCmd string, arms ...string) string {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	path := filepath.Join(t.TempDir(), "fake.sh")
	script := "#!/bin/sh\nwhile read -r cmd rest; do\n\tcase \"$cmd\" in\n"
	for _, a := range arms {
		script += "\t" + a + "\n"
	}
	script += "\tuci) echo \"id name Fake\"; echo uciok ;;\n\tisready) echo readyok ;;\n" +
		"\tgo) " + goCmd + " ;;\n\tquit) exit 0 ;;\n\tesac\ndone\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// traced is what Trace returned.
type traced struct {
	runs []RunResult
	err  error
}

// traceWithin runs g.Trace into a new store and fails the test when it has
// not returned within limit (it hangs).
func traceWithin(t *testing.T, ctx context.Context, limit time.Duration, g *Engine, fens []string, opts EngineOptions) traced {
	t.Helper()
	done := make(chan traced, 1)
	go func() {
		runs, err := g.Trace(ctx, mustCreate(t), fens, opts)
		done <- traced{runs, err}
	}()
	select {
	case r := <-done:
		return r
	case <-time.After(limit):
		t.Fatalf("Trace still waits after %s", limit)
		return traced{}
	}
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
			r := traceWithin(t, context.Background(), 2*time.Minute, g, []string{engine.StartFEN}, EngineOptions{Limits: engine.Limits{Depth: 1}})
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
		if r.Engine != "Fake" || r.EngineNodes != 7 || r.EngineNodesFrom != FromUCIInfo || r.Nodes != 2 {
			t.Errorf("run %d: engine %q, engine nodes %d from %q, stream nodes %d; want Fake, 7 from its info line and 2",
				r.RunID, r.Engine, r.EngineNodes, r.EngineNodesFrom, r.Nodes)
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

// oneSearch is a go's stream of one search of pos (a UCI position's
// arguments), a root and one child by move, for a fake engine; it begins
// with the header on the engine's first search.
func oneSearch(pos, move string) string {
	return `[ -z "$begun" ] && { printf 'HZT 1\n' >&3; begun=1; }; printf 'position ` + pos + `\nE - 1 -50 50\nE ` + move +
		` 0 -50 50\nL 10\nL -10\nend\n' >&3`
}

// TestTraceEngineFaults: what Trace does with an engine that misbehaves
// around its searches. Each case ends (none hangs: it used to, on an
// engine writing more runs than it was asked for, a child of the engine
// holding the trace pipe after the kill, Ctrl-C after a bestmove) and
// says what went wrong, naming the engine, with the runs before kept.
func TestTraceEngineFaults(t *testing.T) {
	// Restored in a cleanup, which runs after the parallel cases end.
	s, a, q, k, o := streamStall, answerWait, quitWait, killedWait, overdue
	t.Cleanup(func() { streamStall, answerWait, quitWait, killedWait, overdue = s, a, q, k, o })
	// answerWait is what a fake engine, a shell script, has to answer in:
	// 500 ms was missed under load (a run of the suite at load 10).
	streamStall, answerWait, quitWait, killedWait, overdue = time.Hour, 2*time.Second, 500*time.Millisecond, 200*time.Millisecond, 300*time.Millisecond
	start := oneSearch("startpos", "e2e4")
	// searching is a go that begins a search and goes on thinking.
	const searching = `printf 'HZT 1\nposition startpos\nE - 1 -50 50\nE e2e4 0 -50 50\n' >&3`
	for _, tc := range []struct {
		name, goCmd string
		arms        []string
		moveTime    time.Duration // go movetime; default: go depth 1
		maxNodes    int64         // the recording's node cap
		fens        []string      // default: the start position
		cancel      string        // "ended": Ctrl-C when the first search has ended (bestmove); "touch": when the engine creates file "$HZ_TOUCH" (the script's text names it); "soon": at once
		want        []string      // in the error, in order; none: no error
		runs        int
		check       func(t *testing.T, runs []RunResult)
	}{
		// A search that wrote 20 runs: the importer blocked handing over the
		// 18th, and Trace waited for it forever.
		{name: "more runs than searches", goCmd: `for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do ` + start + `; done; echo "bestmove e2e4"`, runs: 20,
			want: []string{"Fake wrote 20 runs for 1 searches"}},
		// Two runs a search: the second was taken for the next search's,
		// which was blamed for searching another position.
		{name: "two runs a search", goCmd: start + `; ` + start + `; echo "bestmove e2e4"`, fens: []string{engine.StartFEN, kiwipete}, runs: 4,
			want: []string{"Fake wrote 4 runs for 2 searches: its runs cannot be matched to the positions sent"}},
		// An engine that does not quit: killed with its child (the sleep
		// that holds the trace pipe), which kept Trace waiting for the
		// pipe's end.
		{name: "quit ignored", goCmd: start + `; echo "bestmove e2e4"`, arms: []string{"quit) sleep 30 ;;"}, runs: 1},
		// A child that left the engine's process group survives the kill:
		// its hold on the pipe is cut.
		{name: "child outside the group", goCmd: start + `; echo "bestmove e2e4"`,
			arms: []string{"quit) setsid sleep 30 </dev/null >/dev/null 2>&1 & sleep 30 ;;"}, runs: 1},
		// Ctrl-C while waiting for the engine to quit ends the wait.
		{name: "Ctrl-C while quitting", goCmd: start + `; echo "bestmove e2e4"`, cancel: "touch",
			arms: []string{`quit) touch "$HZ_TOUCH"; sleep 30 ;;`}, runs: 1},
		// Ctrl-C after bestmove, the stream waited for: the wait was for
		// streamStall.
		{name: "Ctrl-C waiting for the stream", goCmd: `printf 'HZT 1\nposition startpos\nE - 1 -50 50\n' >&3; echo "bestmove e2e4"`, cancel: "ended", runs: 1},
		// Ctrl-C while the engine has not answered isready: the wait was
		// StartEngine's ctx's.
		{name: "Ctrl-C waiting for readyok", arms: []string{"isready) sleep 30 ;;"}, cancel: "soon"},
		// An engine that exits before its search: its broken pipe said
		// less than its exit.
		{name: "exits before the search", arms: []string{"ucinewgame) exit 3 ;;"}, want: []string{`Fake: waiting for "readyok": the engine exited`}},
		// An engine that talks on without answering isready: answerWait
		// was for each line, so it was waited for forever.
		{name: "chatty, no readyok", arms: []string{`isready) while :; do echo "info string busy"; sleep 0.02; done ;;`},
			want: []string{`Fake: waiting for "readyok": sent `, ` other lines in ` + answerWait.String()}},
		// The broken stream's error came second to the stop's answer.
		{name: "broken stream, slow stop", goCmd: `printf 'HZT 1\nposition startpos\nE - 1 -50 50\nE e2e5 0 -50 50\n' >&3; sleep 3; echo "bestmove e2e4"`,
			want: []string{"line 4", "illegal move e2e5", `then, after Horizon told the engine to stop: Fake, searching position 1 of 1: waiting for "bestmove": no answer in ` + answerWait.String()}, runs: 1},
		// A stream closed between searches lost the rest without a word.
		{name: "stream closed after a search", goCmd: start + `; exec 3>&-; echo "bestmove e2e4"`, fens: []string{engine.StartFEN, kiwipete, engine.StartFEN},
			want: []string{"Fake closed its trace stream after 1 of 3 searches"}, runs: 1},
		// An engine with no name is named after its program.
		{name: "no name", goCmd: start + `; echo "bestmove e2e4"`, arms: []string{"uci) echo uciok ;;"}, runs: 1,
			check: func(t *testing.T, runs []RunResult) {
				if runs[0].Engine != "fake.sh" {
					t.Errorf("engine %q, want the program's name fake.sh", runs[0].Engine)
				}
			}},
		{name: "no name, no stream", goCmd: `echo "bestmove e2e4"`, arms: []string{"uci) echo uciok ;;"},
			want: []string{"fake.sh answered bestmove but wrote no trace"}},
		// The engine searched another position than the one sent.
		{name: "another position", goCmd: start + `; echo "bestmove e2e4"`, fens: []string{kiwipete}, runs: 1,
			want: []string{"run 1: Fake searched another position than the one sent", `sent "` + kiwipete + `"`,
				`its stream's root is "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"`}},
		// Without castling rights (Fairy-Max behind its adapter): a warning.
		{name: "castling rights lost", goCmd: oneSearch("fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 7", "e2a6") + `; echo "bestmove e2a6"`,
			fens: []string{kiwipete}, runs: 1, check: func(t *testing.T, runs []RunResult) {
				if w := runs[0].Warning; !strings.Contains(w, "other castling rights or en-passant square") || !strings.Contains(w, kiwipete) {
					t.Errorf("warning %q", w)
				}
			}},
		// An engine that overruns its go movetime is told to stop; one
		// that ignores the stop is an error, not waited for forever.
		{name: "movetime overrun", goCmd: searching, arms: []string{`stop) printf 'L 10\nL -10\nend\n' >&3; echo "bestmove e2e4" ;;`},
			moveTime: 100 * time.Millisecond, runs: 1, check: func(t *testing.T, runs []RunResult) {
				if w := runs[0].Warning; !strings.Contains(w, `Fake searched `) || !strings.Contains(w, `past "go movetime 100" and was told to stop`) {
					t.Errorf("warning %q", w)
				}
			}},
		{name: "movetime overrun, deaf to stop", goCmd: searching, arms: []string{`stop) ;;`}, moveTime: 100 * time.Millisecond, runs: 1,
			want: []string{`waiting for "bestmove"`, "past the go command's movetime, and after Horizon sent stop: no answer in " + answerWait.String()}},
		// One that talks on after the stop: answerWait was for each line.
		{name: "movetime overrun, chatty and deaf to stop", goCmd: searching + `; while :; do echo "info nodes 7"; sleep 0.02; done`,
			moveTime: 100 * time.Millisecond, runs: 1,
			want: []string{`waiting for "bestmove"`, "past the go command's movetime, and after Horizon sent stop: sent ", " other lines in " + answerWait.String()}},
		// The recording's cap stops the engine, whose search would be
		// dropped; a stop after the engine's own limit is none of
		// Horizon's (the stop came and this engine wrote a bad record).
		{name: "recording cap", goCmd: searching, arms: []string{`stop) printf 'L 10\nL -10\nend\n' >&3; echo "bestmove e2e4" ;;`},
			maxNodes: 1, runs: 1, check: func(t *testing.T, runs []RunResult) {
				if !runs[0].Limited || runs[0].Status != trace.StatusTruncated {
					t.Errorf("run %+v, want it cut at the cap", runs[0])
				}
			}},
		// One deaf to the cap's stop is an error answerWait after it;
		// it was waited for until Ctrl-C.
		{name: "recording cap, deaf to stop", goCmd: searching, arms: []string{`stop) ;;`}, maxNodes: 1, runs: 1,
			want: []string{`waiting for "bestmove"`}},
		{name: "no stop after its own limit", goCmd: start + `; echo "bestmove e2e4"`, arms: []string{`stop) printf 'L 1\n' >&3 ;;`},
			moveTime: 100 * time.Millisecond, runs: 1},
		// A Ctrl-C in the search's last iteration: the engine's stop
		// closes its nodes as a finished search would (no abort record),
		// yet Horizon stopped it: interrupted. It read complete, the
		// stream showing depth 1 of 1 begun.
		// The Ctrl-C comes once the search began, not after a fixed wait:
		// under load the handshake alone outlasted 300 ms, and a Ctrl-C
		// before the go left no run ("0 runs, want 1").
		{name: "Ctrl-C in the last iteration", goCmd: searching + `; touch "$HZ_TOUCH"`, arms: []string{`stop) printf 'L 10\nL -10\nend\n' >&3; echo "bestmove e2e4" ;;`},
			cancel: "touch", runs: 1, check: func(t *testing.T, runs []RunResult) {
				if runs[0].Status != trace.StatusInterrupted {
					t.Errorf("status %s, want interrupted", runs[0].Status)
				}
			}},
		{name: "same position, other counters", goCmd: oneSearch("fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 3 9", "e2a6") + `; echo "bestmove e2a6"`,
			fens: []string{kiwipete}, runs: 1, check: func(t *testing.T, runs []RunResult) {
				if runs[0].Warning != "" {
					t.Errorf("warning %q, want none", runs[0].Warning)
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Most cases wait out answerWait or a Ctrl-C: in parallel
			// the waits overlap. Each engine is told its own file to
			// touch in its script, as the environment is the process's.
			t.Parallel()
			touch := filepath.Join(t.TempDir(), "quitting")
			withTouch := strings.NewReplacer(`"$HZ_TOUCH"`, "'"+touch+"'") // a temporary folder's name: no quote in it
			arms := make([]string, len(tc.arms))
			for i, a := range tc.arms {
				arms[i] = withTouch.Replace(a)
			}
			g, err := StartEngine(context.Background(), []string{fakeEngine(t, withTouch.Replace(tc.goCmd), arms...)})
			if err != nil {
				t.Fatal(err)
			}
			defer g.Close()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			opts := EngineOptions{Limits: engine.Limits{Depth: 1}}
			if tc.moveTime > 0 {
				opts.Limits = engine.Limits{MoveTime: tc.moveTime}
			}
			opts.Record.MaxNodes = tc.maxNodes
			switch tc.cancel {
			case "ended":
				opts.OnSearch = func(int, func() int64) func() { return cancel }
			case "soon":
				time.AfterFunc(300*time.Millisecond, cancel)
			case "touch":
				go func() {
					for ctx.Err() == nil {
						if _, err := os.Stat(touch); err == nil {
							cancel()
						}
						time.Sleep(10 * time.Millisecond)
					}
				}()
			}
			fens := tc.fens
			if fens == nil {
				fens = []string{engine.StartFEN}
			}
			r := traceWithin(t, ctx, 20*time.Second, g, fens, opts)
			if len(r.runs) != tc.runs {
				t.Errorf("%d runs, want %d", len(r.runs), tc.runs)
			}
			switch {
			case tc.want == nil && r.err != nil && ctx.Err() == nil:
				t.Errorf("error %v, want none", r.err)
			case tc.want != nil && r.err == nil:
				t.Errorf("no error, want %q", tc.want)
			case tc.want != nil:
				msg, at := r.err.Error(), 0
				for _, w := range tc.want {
					i := strings.Index(msg[at:], w)
					if i < 0 {
						t.Errorf("error %q does not say %q (after what came before)", msg, w)
						break
					}
					at += i + len(w)
				}
			}
			if tc.check != nil && len(r.runs) > 0 {
				tc.check(t, r.runs)
			}
		})
	}
}

// TestTraceEPDIDsInStep: a run takes its record's EPD id only when it is
// the run of the search under way. An engine that wrote two runs for one
// search of a suite whose first two records have the same position had
// its second run given the second record's id, though that run was no
// search of it (the error says the runs cannot be matched).
func TestTraceEPDIDsInStep(t *testing.T) {
	start := oneSearch("startpos", "e2e4")
	for _, tc := range []struct {
		name, goCmd string
		want        []string // each run's EPD id, in order
	}{
		{"one run a search", start + `; echo "bestmove e2e4"`, []string{"a", "b"}},
		{"two runs a search", start + `; ` + start + `; echo "bestmove e2e4"`, []string{"a", "", "", ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := StartEngine(context.Background(), []string{fakeEngine(t, tc.goCmd)})
			if err != nil {
				t.Fatal(err)
			}
			defer g.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			st := mustCreate(t)
			_, err = g.Trace(ctx, st, []string{engine.StartFEN, engine.StartFEN}, EngineOptions{Limits: engine.Limits{Depth: 1}, EPDIDs: []string{"a", "b"}})
			if (len(tc.want) > 2) != (err != nil) {
				t.Errorf("error %v", err)
			}
			runs, err := st.Runs(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range runs {
				got = append(got, r.EPDID)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("EPD ids %q, want %q", got, tc.want)
			}
		})
	}
}

// TestTraceRecordsGoSent: a live run's limits are the go command Horizon
// sent, over the engine's own limits record (the Fairy-Max adapter writes
// "depth 60" for go nodes 3000), and an abort under it is that limit's
// stop: the run read "go depth 60", stop cause abort, where Ethereal and
// Sunfish under the same command read "go nodes 3000", stop cause nodes.
// The engine counts its 3,000 nodes (Fairy-Max counts passes, more than
// the calls its stream holds): a limit the search did not reach would be
// no cause (TestLimitStopStatus).
func TestTraceRecordsGoSent(t *testing.T) {
	eng := fakeEngine(t, `[ -z "$begun" ] && { printf 'HZT 1\n' >&3; begun=1; }; `+
		`printf 'position startpos\nlimits depth 60\nE - 1 -50 50\nE e2e4 0 -50 50\nA\nend nodes=3000\n' >&3; echo "bestmove e2e4"`)
	g, err := StartEngine(context.Background(), []string{eng})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	st := mustCreate(t)
	runs, err := g.Trace(context.Background(), st, []string{engine.StartFEN}, EngineOptions{Limits: engine.Limits{Nodes: 3000}})
	if err != nil || len(runs) != 1 {
		t.Fatalf("runs %+v, error %v; want one", runs, err)
	}
	run, err := st.Run(context.Background(), runs[0].RunID)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(run.Limits, `"go":"go nodes 3000"`) || run.Status != trace.StatusTruncated || run.StopCause != trace.StopNodes {
		t.Errorf("limits %s, status %s, stop cause %q; want go nodes 3000, truncated, nodes", run.Limits, run.Status, run.StopCause)
	}
}

// TestTraceLongLine: a line over the longest read from an engine is said
// to be that, at once. It was said to be "the engine exited during its
// search", and the engine, blocked writing the rest of it, could not read
// its quit and was waited for quitWait (an hour here).
func TestTraceLongLine(t *testing.T) {
	defer func(q time.Duration) { quitWait = q }(quitWait)
	quitWait = time.Hour
	eng := fakeEngine(t, oneSearch("startpos", "e2e4")+`; head -c 2000000 /dev/zero | tr '\0' a; echo; echo "bestmove e2e4"`)
	g, err := StartEngine(context.Background(), []string{eng})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		// Close waited forever for the engine blocked writing.
		closed := make(chan struct{})
		go func() { g.Close(); close(closed) }()
		select {
		case <-closed:
		case <-time.After(20 * time.Second):
			g.u.Kill()
			t.Error("Close still waits after 20s")
		}
	}()
	r := traceWithin(t, context.Background(), 20*time.Second, g, []string{engine.StartFEN}, EngineOptions{Limits: engine.Limits{Depth: 1}})
	if want := "Fake, searching position 1 of 1: the engine sent a line longer than 1 MiB, the longest Horizon reads"; r.err == nil || !strings.Contains(r.err.Error(), want) {
		t.Errorf("error %v, want %q", r.err, want)
	}
}

// TestStartEngineKillsGroup: an engine whose handshake is cut short
// (Ctrl-C, or a forced quit, before its uciok) is killed with its process
// group. A wrapper script's child ran on: the failed handshake killed the
// script alone, and a forced quit during it killed nothing, as the engine
// was not yet known to KillEngines.
func TestStartEngineKillsGroup(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	for _, tc := range []struct {
		name string
		cut  func(cancel func())
	}{
		{"Ctrl-C", func(cancel func()) { cancel() }},
		{"forced quit", func(func()) { KillEngines() }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			pidFile := filepath.Join(dir, "pid")
			eng := filepath.Join(dir, "wrapper.sh")
			if err := os.WriteFile(eng, []byte("#!/bin/sh\nsleep 313 &\necho $! >\""+pidFile+".tmp\"\nmv \""+pidFile+".tmp\" \""+pidFile+"\"\nwait\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan error, 1)
			go func() {
				g, err := StartEngine(ctx, []string{eng})
				if err == nil {
					g.Close()
				}
				done <- err
			}()
			pid := waitPidFile(t, pidFile)
			tc.cut(cancel)
			select {
			case err := <-done:
				if err == nil {
					t.Fatal("StartEngine succeeded")
				}
			case <-time.After(20 * time.Second):
				t.Fatal("StartEngine still waits 20s after the cut")
			}
			if !processGone(pid) {
				t.Errorf("the wrapper's child %d (sleep 313) still runs after StartEngine failed", pid)
				syscall.Kill(pid, syscall.SIGKILL)
			}
		})
	}
}

// waitPidFile waits for the process id that a test's engine writes to
// path; the limit only catches a hang.
func waitPidFile(t *testing.T, path string) int {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if b, err := os.ReadFile(path); err == nil {
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil {
				t.Fatal(err)
			}
			return pid
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s after 20s", path)
		}
	}
}

// processGone reports whether process pid has died (or is a zombie no one
// has reaped yet: an orphan's new parent may never reap it) within a few
// seconds; the limit only catches one that lives on.
func processGone(pid int) bool {
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil && syscall.Kill(pid, 0) == syscall.ESRCH {
			return true
		}
		// The state follows the command name in parentheses.
		if i := bytes.LastIndexByte(stat, ')'); i >= 0 && bytes.HasPrefix(stat[i:], []byte(") Z")) {
			return true
		}
	}
	return false
}

// TestBigRunIsNoStall: the time the importer takes to record a big run
// after the engine wrote it all is not the stream's silence. The stream is
// read ahead, and its pending Read was taken for the importer waiting: a
// complete 500,000-node stream was said to have "gone silent" (here with
// streamStall 100 ms; a run of tens of millions of nodes passed the real
// 10 s).
func TestBigRunIsNoStall(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: a 500,000-node stream")
	}
	defer func(s time.Duration) { streamStall = s }(streamStall)
	streamStall = 100 * time.Millisecond
	// 500 moves of 999 replies each, under the root: a node has at most
	// trace.MaxChildren children.
	const kids = 500_000
	move := "E e2e4 1 -50 50\n" + strings.Repeat("E e7e5 0 -50 50\nL 10\n", kids/500-1) + "L -10\n"
	stream := filepath.Join(t.TempDir(), "big.hzt")
	if err := os.WriteFile(stream, []byte("HZT 1\nposition startpos\nE - 2 -50 50\n"+strings.Repeat(move, 500)+"L 10\nend\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := StartEngine(context.Background(), []string{fakeEngine(t, `cat '`+stream+`' >&3; echo "bestmove e2e4"`)})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	r := traceWithin(t, context.Background(), 60*time.Second, g, []string{engine.StartFEN}, EngineOptions{Limits: engine.Limits{Depth: 1}})
	if r.err != nil || len(r.runs) != 1 || r.runs[0].Nodes != kids+1 {
		t.Fatalf("runs %+v, err %v; want one run of %d nodes", r.runs, r.err, kids+1)
	}
}

// TestEngineExitSaysStderr: an engine that exits, in its handshake or its
// search, is said to, with the last line it wrote on its standard error
// (a Python traceback's last line, an assertion), which Horizon dropped:
// "the engine exited during its search" was all an author learned. An
// engine that died before writing its stream was said to have written an
// empty stream, "then, after Horizon told the engine to stop", to have
// exited.
func TestEngineExitSaysStderr(t *testing.T) {
	const crash = `echo "Traceback (most recent call last):" >&2; echo "ZeroDivisionError: division by zero" >&2; echo >&2; exit 1`
	const want = `; its last line on stderr: "ZeroDivisionError: division by zero"`
	for _, tc := range []struct{ name, goCmd string }{
		{"stream cut", `printf 'HZT 1\nposition startpos\nE - 1 -50 50\n' >&3; ` + crash},
		{"no stream", crash},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := StartEngine(context.Background(), []string{fakeEngine(t, tc.goCmd)})
			if err != nil {
				t.Fatal(err)
			}
			defer g.Close()
			r := traceWithin(t, context.Background(), time.Minute, g, []string{engine.StartFEN}, EngineOptions{Limits: engine.Limits{Depth: 1}})
			if r.err == nil || !strings.Contains(r.err.Error(), "the engine exited") || !strings.Contains(r.err.Error(), want) ||
				strings.Contains(r.err.Error(), "empty stream") {
				t.Errorf("error %v, want %q", r.err, want)
			}
		})
	}
	t.Run("handshake", func(t *testing.T) {
		_, err := StartEngine(context.Background(), []string{fakeEngine(t, "", "uci) "+crash+" ;;")})
		if w := `waiting for "uciok": the engine exited` + want; err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("error %v, want %q", err, w)
		}
	})
}
