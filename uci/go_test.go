package uci

import (
	"bufio"
	"context"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/horizonqs/horizon/engine"
)

// scripted is an engine that answers a go command with its lines (then
// says nothing more), and "stop" with stopped (nothing when it is empty);
// it exits after its go lines when exit is set. It records the commands
// it was sent.
type scripted struct {
	lines, stopped []string
	exit           bool
	got            chan string
}

// start runs s over pipes and returns Engine's side of them.
func (s *scripted) start(t *testing.T) *Engine {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s.got = make(chan string, 16)
	go func() {
		defer outW.Close()
		sc := bufio.NewScanner(inR)
		for sc.Scan() {
			cmd := sc.Text()
			s.got <- cmd
			var say []string
			switch {
			case strings.HasPrefix(cmd, "go"):
				say = s.lines
			case cmd == "stop":
				say = s.stopped
			}
			for _, l := range say {
				if _, err := io.WriteString(outW, l+"\n"); err != nil {
					return
				}
			}
			if s.exit && strings.HasPrefix(cmd, "go") {
				return
			}
		}
	}()
	t.Cleanup(func() { inW.Close(); inR.Close(); outR.Close() })
	return talkOver(context.Background(), inW, outR)
}

// sent returns the commands the engine was sent so far.
func (s *scripted) sent() []string {
	var out []string
	for {
		select {
		case c := <-s.got:
			out = append(out, c)
		case <-time.After(50 * time.Millisecond):
			return out
		}
	}
}

// TestGo: Go sends the limits' go command, reads to the bestmove and
// folds the info lines (the totals of the last lines that give them, the
// answer of the last exact score); it stops the search when told, when a
// movetime is overdue or when ctx ends, and gives up on an engine that
// does not answer in time.
func TestGo(t *testing.T) {
	closed := make(chan struct{})
	close(closed)
	chatter := slices.Repeat([]string{"info string thinking"}, 3)
	for _, tc := range []struct {
		name    string
		eng     scripted
		lim     engine.Limits
		opts    GoOptions
		cancel  bool
		wantErr string
		want    func(t *testing.T, r GoResult)
		sent    []string
	}{
		{name: "folds", lim: engine.Limits{Depth: 3},
			eng: scripted{lines: []string{
				"info depth 1 score cp 20 nodes 10 time 1 pv e2e4 e7e5",
				"info depth 2 score cp 35 nodes 50 pv d2d4",
				"info depth 3 score cp 40 lowerbound nodes 90 time 4",
				"info depth 3 score cp 30",
				"info nodes 120 time 6",
				"bestmove d2d4 ponder d7d5"}},
			want: func(t *testing.T, r GoResult) {
				if r.Bestmove != "d2d4" || r.Ponder != "d7d5" || r.Nodes != 120 || r.TimeMS != 6 {
					t.Errorf("bestmove %q ponder %q nodes %d time %d, want d2d4 d7d5 120 6", r.Bestmove, r.Ponder, r.Nodes, r.TimeMS)
				}
				// The lowerbound is no answer; the last exact score's line
				// gives no nodes or PV, so the exact line before it does.
				a := r.Answer
				if !a.Scored || a.Depth != 3 || a.Score != 30 || a.Nodes != 50 || a.TimeMS != 1 || !slices.Equal(a.PV, []string{"d2d4"}) {
					t.Errorf("answer %+v, want depth 3, score 30, nodes 50, time 1, pv [d2d4]", a)
				}
				if r.BadInfo != nil || r.BadScore != "" || r.Stopped {
					t.Errorf("bad info %v, bad score %q, stopped %v: want none", r.BadInfo, r.BadScore, r.Stopped)
				}
			},
			sent: []string{"go depth 3"}},
		{name: "no info", eng: scripted{lines: []string{"bestmove 0000"}},
			want: func(t *testing.T, r GoResult) {
				if r.Bestmove != "0000" || r.Ponder != "" || r.Nodes != -1 || r.TimeMS != -1 || r.Answer.Scored || r.Answer.Nodes != -1 {
					t.Errorf("%+v, want bestmove 0000 and no counts", r)
				}
			},
			sent: []string{"go infinite"}},
		{name: "unread lines", eng: scripted{lines: []string{"info depth x", "info depth 2 score cp 40000 nodes 7", "info depth 3 score mate 900", "bestmove e2e4"}},
			want: func(t *testing.T, r GoResult) {
				if r.BadInfo == nil || !strings.Contains(r.BadInfo.Error(), `"info depth x"`) {
					t.Errorf("bad info %v, want the first line's error", r.BadInfo)
				}
				if r.BadScore != "cp 40000" || r.BadScoreLine != "info depth 2 score cp 40000 nodes 7" || r.Nodes != 7 {
					t.Errorf("bad score %q in %q, nodes %d; want the first, cp 40000, and its nodes", r.BadScore, r.BadScoreLine, r.Nodes)
				}
			}},
		{name: "stop", eng: scripted{lines: []string{"info nodes 5"}, stopped: []string{"info nodes 9", "bestmove a2a3"}},
			opts: GoOptions{Stop: closed, StopWait: 5 * time.Second},
			want: func(t *testing.T, r GoResult) {
				if !r.Stopped || r.Bestmove != "a2a3" || r.Overran != 0 {
					t.Errorf("stopped %v bestmove %q overran %s, want a stopped search's a2a3", r.Stopped, r.Bestmove, r.Overran)
				}
			},
			sent: []string{"go infinite", "stop"}},
		{name: "overdue", lim: engine.Limits{MoveTime: 10 * time.Millisecond}, eng: scripted{stopped: []string{"bestmove a2a3"}},
			opts: GoOptions{Overdue: 20 * time.Millisecond, StopWait: 5 * time.Second},
			want: func(t *testing.T, r GoResult) {
				if !r.Stopped || r.Overran < 20*time.Millisecond {
					t.Errorf("stopped %v overran %s, want stopped at least 20ms past the movetime", r.Stopped, r.Overran)
				}
			},
			sent: []string{"go movetime 10", "stop"}},
		{name: "deaf to stop", eng: scripted{stopped: chatter}, opts: GoOptions{Stop: closed, StopWait: 100 * time.Millisecond},
			wantErr: "sent 3 other lines in 100ms"},
		{name: "timeout", eng: scripted{lines: chatter}, opts: GoOptions{Timeout: 100 * time.Millisecond},
			wantErr: "sent 3 other lines in 100ms"},
		{name: "silent", eng: scripted{}, opts: GoOptions{Timeout: time.Minute, Silence: 50 * time.Millisecond},
			wantErr: "no answer in 50ms"},
		{name: "exits", eng: scripted{lines: []string{"info nodes 3"}, exit: true}, wantErr: ErrExited.Error(),
			want: func(t *testing.T, r GoResult) {
				if r.Nodes != 3 {
					t.Errorf("nodes %d, want the 3 read before the exit", r.Nodes)
				}
			}},
		{name: "cancelled", eng: scripted{}, cancel: true, wantErr: context.Canceled.Error(),
			sent: []string{"go infinite", "stop"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := tc.eng.start(t)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			cancelled := false
			if tc.cancel {
				tc.opts.OnCancel = func() { cancelled = true }
				time.AfterFunc(50*time.Millisecond, cancel)
			}
			r, err := e.Go(ctx, tc.lim, tc.opts)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("Go: %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("Go: %v, want %q", err, tc.wantErr)
			}
			if tc.cancel && (!cancelled || !errors.Is(err, context.Canceled)) {
				t.Errorf("cancelled: OnCancel called %v, error %v", cancelled, err)
			}
			if tc.want != nil {
				tc.want(t, r)
			}
			if tc.sent != nil {
				if got := tc.eng.sent(); !slices.Equal(got, tc.sent) {
					t.Errorf("sent %q, want %q", got, tc.sent)
				}
			}
		})
	}
}
