package viewer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/internal/horizonbin"
	"github.com/horizonqs/horizon/trace"
)

// TestViewErrors runs 'horizon view' with bad arguments: each must fail with
// a one-line error naming the problem, without touching the terminal.
func TestViewErrors(t *testing.T) {
	bin := horizonbin.Path(t)
	fix := fixturePath(t)
	notTrace := filepath.Join(tmpDir, "not-a-trace.txt")
	if err := os.WriteFile(notTrace, []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no file", []string{"view"}, 2, "missing FILE"},
		{"missing file", []string{"view", filepath.Join(tmpDir, "nope.trace")}, 1, "nope.trace: no such file (record one with 'horizon trace -o " + filepath.Join(tmpDir, "nope.trace") + "')"},
		{"not a trace", []string{"view", notTrace}, 1, "not a Horizon trace"},
		{"no such run", []string{"view", fix, "--run", "9"}, 1, "run 9: no such run (its runs: 1 "},
		{"negative run", []string{"view", "--run", "-1", fix}, 2, `invalid value "-1" for flag -run: want a run id`},
		{"no such node", []string{"view", fix, "--run", "1", "--node", "123456789"}, 1, "node 123456789: no such node"},
		{"bad path", []string{"view", fix, "--path", "e4 e5"}, 1, `--path "e4 e5": move 1 (e4)`},
		{"two files", []string{"view", fix, fix}, 2, "one trace file at a time"},
		{"not a terminal", []string{"view", fix, "--run", "1"}, 1, "view needs a terminal"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(bin, c.args...)
			// A session of its own: no controlling terminal, as in CI,
			// even when the test runs in one.
			cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != c.code {
				t.Fatalf("exit %v, want status %d; stderr: %s", err, c.code, stderr.String())
			}
			if !strings.Contains(stderr.String(), c.want) {
				t.Errorf("stderr %q does not say %q", stderr.String(), c.want)
			}
			if stdout.Len() > 0 {
				t.Errorf("wrote to stdout: %q", stdout.String())
			}
		})
	}
}

// tmux runs tmux on private server sockets, so the test never touches the
// user's sessions. Each session gets a server of its own: when the last
// session of a server ends, the server exits in the background, and a
// new-session on the same socket meanwhile fails with "server exited
// unexpectedly" (or "no server running") now and then.
type tmux struct {
	t      *testing.T
	socket string
	n      int
}

// start runs script in a new w x h session named view on a new server,
// ending the previous server.
func (x *tmux) start(w, h int, script string) {
	x.t.Helper()
	if x.socket != "" {
		exec.Command("tmux", "-L", x.socket, "kill-server").Run()
	}
	x.n++
	x.socket = fmt.Sprintf("horizon-view-test-%d-%d", os.Getpid(), x.n)
	sock := x.socket
	x.t.Cleanup(func() { exec.Command("tmux", "-L", sock, "kill-server").Run() })
	x.run("new-session", "-d", "-s", "view", "-x", fmt.Sprint(w), "-y", fmt.Sprint(h), "sh", "-c", script)
}

func (x *tmux) run(args ...string) string {
	x.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", x.socket}, args...)...).CombinedOutput()
	if err != nil {
		x.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// waitFor captures the pane until it holds every string in want.
func (x *tmux) waitFor(want ...string) string {
	x.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		screen := x.run("capture-pane", "-p", "-t", "view")
		missing := ""
		for _, w := range want {
			if !strings.Contains(screen, w) {
				missing = w
				break
			}
		}
		if missing == "" {
			return screen
		}
		if time.Now().After(deadline) {
			x.t.Fatalf("the pane never showed %q; it shows:\n%s", missing, screen)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestViewInTmux runs the real binary in a 100x30 tmux pane: the board and
// the root's moves must appear, keys must work, q must restore the
// terminal and print the FEN of the selected node.
func TestViewInTmux(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed: skipping the end-to-end test of horizon view")
	}
	bin := horizonbin.Path(t)
	fix := fixturePath(t)
	st := openFixture(t)
	ctx := context.Background()

	// What the screen must show: the root's first moves in SAN.
	iters := allChildren(t, st, 1, 0, trace.BySearch)
	root := iters[len(iters)-1]
	moves := allChildren(t, st, 1, root.ID, trace.BySearch)
	pos := engine.MustParseFEN(kiwipete)
	first, second := pos.SAN(moves[0].Move), pos.SAN(moves[1].Move)
	afterFirst, err := st.Position(ctx, 1, moves[0].ID)
	if err != nil {
		t.Fatal(err)
	}

	x := &tmux{t: t}
	x.start(100, 30, fmt.Sprintf("%s view %s --run 1; echo EXIT=$?; sleep 60", bin, fix))

	screen := x.waitFor("a  b  c  d  e  f  g  h", "♔", "iteration 3", first, second, "White to move")
	if !strings.Contains(screen, "run 1") || !strings.Contains(screen, "captures") {
		t.Errorf("header does not name the run:\n%s", screen)
	}
	// Down to the first root move: the board shows its position.
	x.run("send-keys", "-t", "view", "j")
	x.waitFor("last " + first)
	x.run("send-keys", "-t", "view", "?")
	x.waitFor("keys (esc closes)")
	x.run("send-keys", "-t", "view", "Escape")
	x.run("send-keys", "-t", "view", "q")
	screen = x.waitFor("EXIT=0")
	if !strings.Contains(screen, afterFirst.FEN()) {
		t.Errorf("after q the pane should show the FEN %s; it shows:\n%s", afterFirst.FEN(), screen)
	}
	if strings.Contains(screen, "iteration 3") {
		t.Errorf("the viewer's screen is still there after q:\n%s", screen)
	}

	// --node selects at start; --json reports the node left on.
	x.start(80, 24, fmt.Sprintf("%s view %s --run 1 --node %d --json --ascii; echo EXIT=$?; sleep 60", bin, fix, moves[1].ID))
	x.waitFor("#" + fmt.Sprint(moves[1].ID))
	x.run("send-keys", "-t", "view", "q")
	want := fmt.Sprintf(`"run":1,"node":%d,`, moves[1].ID)
	screen = x.waitFor("EXIT=0")
	// --json is indented like every command's: compare without spaces.
	if !strings.Contains(strings.NewReplacer("\n", "", " ", "").Replace(screen), want) {
		t.Errorf("--json output should hold %s; the pane shows:\n%s", want, screen)
	}

	// Standard output redirected, as in fen=$(horizon view ...): the
	// viewer runs on the terminal and the node left on goes to the file.
	// It was refused ("standard output is not one").
	out := filepath.Join(t.TempDir(), "node.json")
	x.start(80, 24, fmt.Sprintf("%s view %s --run 1 --node %d --json > %s; echo EXIT=$?; sleep 60", bin, fix, moves[1].ID, out))
	x.waitFor("#" + fmt.Sprint(moves[1].ID))
	x.run("send-keys", "-t", "view", "q")
	x.waitFor("EXIT=0")
	if b, err := os.ReadFile(out); err != nil || !strings.Contains(strings.NewReplacer("\n", "", " ", "").Replace(string(b)), want) {
		t.Errorf("the redirected output holds %q (%v), want %s", b, err, want)
	}

	// A signal (kill, a closed terminal) ends the viewer as one ends any
	// command: exit 130, the terminal restored, and no node printed, as
	// none was chosen (it printed the FEN and exited 0).
	out = filepath.Join(t.TempDir(), "fen.txt")
	x.start(80, 24, fmt.Sprintf("%s view %s --run 1 --node %d > %s & pid=$!; sleep 1; kill -TERM $pid; wait $pid; echo EXIT=$?; sleep 60", bin, fix, moves[1].ID, out))
	screen = x.waitFor("EXIT=130")
	if b, err := os.ReadFile(out); err != nil || len(b) != 0 {
		t.Errorf("after a SIGTERM the viewer printed %q (%v), want nothing", b, err)
	}
	if !strings.Contains(screen, "horizon view: interrupted") {
		t.Errorf("the pane does not say the viewer was interrupted:\n%s", screen)
	}

	// Two signals at once (the second quits at once, main's
	// stopOnSignals): either way the terminal is back in its modes, line
	// editing and echo on, as stty then says.
	x.start(80, 24, fmt.Sprintf("%s view %s --run 1 & pid=$!; sleep 1; kill -TERM $pid; kill -TERM $pid; wait $pid; echo EXIT=$?; "+
		"stty -a | tr ' ;' '\\n\\n' | grep -x -e -icanon -e icanon -e -echo -e echo | tr '\\n' ' '; echo MODES; sleep 60", bin, fix))
	screen = x.waitFor("EXIT=130", "MODES")
	if !strings.Contains(screen, "icanon echo MODES") {
		t.Errorf("after two signals the terminal is not restored (want icanon and echo):\n%s", screen)
	}
}

// TestTmuxSessionsInARow starts sessions one after another as
// TestViewInTmux does: with one server socket for all of them, a
// new-session after the previous session ended failed about one time in
// two ("server exited unexpectedly").
func TestTmuxSessionsInARow(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed: skipping")
	}
	x := &tmux{t: t}
	for i := 0; i < 8; i++ {
		x.start(40, 10, fmt.Sprintf("echo SESSION=%d; sleep 60", i))
		x.waitFor(fmt.Sprintf("SESSION=%d", i))
	}
}
