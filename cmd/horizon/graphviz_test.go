package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"
)

// TestHelperHorizon is not a test: the tests below run the test binary
// with HORIZON_HELPER_ARGS set, as another user or with another
// environment, and it then acts as the horizon command. The package inits
// (go-graphviz's among them) run before it, as they do before main.
func TestHelperHorizon(t *testing.T) {
	args := os.Getenv("HORIZON_HELPER_ARGS")
	if args == "" {
		t.Skip("helper process for the tests that run horizon as another user")
	}
	os.Exit(run(context.Background(), strings.Split(args, "\x1f"), strings.NewReader(""), os.Stdout, os.Stderr))
}

// otherUser returns how to run a child process so that a directory this
// process creates is not writable by it: as user nobody when the test runs
// as root, as this user with the directory's write bits cleared otherwise.
func otherUser(t *testing.T) (cred *syscall.Credential, chown func(path string)) {
	if runtime.GOOS != "linux" {
		t.Skip("needs Linux file permissions")
	}
	if os.Geteuid() == 0 {
		const nobody = 65534
		return &syscall.Credential{Uid: nobody, Gid: nobody}, func(path string) {
			if err := os.Chown(path, nobody, nobody); err != nil {
				t.Fatal(err)
			}
		}
	}
	return nil, func(string) {}
}

// wazeroDir is the directory go-graphviz's runtime (wazero) keeps its
// compiled code in, under the cache directory it is given.
func wazeroDir(t *testing.T) string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		t.Skip("no build information")
	}
	for _, d := range bi.Deps {
		if d.Path == "github.com/tetratelabs/wazero" {
			return "wazero-" + d.Version + "-" + runtime.GOARCH + "-" + runtime.GOOS
		}
	}
	t.Skip("wazero is not a dependency of this build")
	return ""
}

// Issue 17 item 4: go-graphviz started its runtime in a package init, with
// its compilation cache in /tmp/go-graphviz; once another user had made
// that directory, every command (--help included) panicked for everyone
// else. Commands that do not render must not start Graphviz at all, and
// rendering must work for any user.
func TestGraphvizSharedTmp(t *testing.T) {
	cred, chown := otherUser(t)
	// Not t.TempDir: its parent is private to this user.
	root, err := os.MkdirTemp("", "horizon-graphviz-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(root)
	if err := os.Chmod(root, 0o755); err != nil {
		t.Fatal(err)
	}
	// The first user's cache: /tmp/go-graphviz with wazero's directory in
	// it, neither writable by the user the commands run as.
	tmp := filepath.Join(root, "tmp")
	shared := filepath.Join(tmp, "go-graphviz", wazeroDir(t))
	if err := os.MkdirAll(shared, 0o755); err != nil {
		t.Fatal(err)
	}
	// The binary must be somewhere the other user may run it from.
	bin := filepath.Join(root, "horizon.test")
	copyFile(t, os.Args[0], bin)
	trace := filepath.Join(root, "k.trace")
	if code, _, errOut := runCLI(t, "", "trace", "--fen", kiwipete, "--depth", "2", "--qs", "captures", "-o", trace); code != 0 {
		t.Fatalf("trace: %s", errOut)
	}
	if err := os.Chmod(trace, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(root, "out")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	chown(out)
	if cred == nil {
		// Not root: the same user, kept out of the directories by their modes.
		for _, d := range []string{shared, filepath.Dir(shared), tmp} {
			if err := os.Chmod(d, 0o555); err != nil {
				t.Fatal(err)
			}
			defer os.Chmod(d, 0o755)
		}
	}
	for _, tc := range []struct {
		name     string
		home     string // "" : a home the user cannot write either
		args     []string
		renders  bool
		wantOut  string
		wantFile string
	}{
		{name: "help", args: []string{"--help"}, wantOut: "Usage: horizon"},
		{name: "runs", args: []string{"runs", trace}, wantOut: "captures"},
		{name: "export dot", args: []string{"export", trace, "--max-nodes", "20", "-o", filepath.Join(out, "t.dot")}, wantFile: "t.dot"},
		{name: "export svg, own cache", home: "own", renders: true,
			args: []string{"export", trace, "--max-nodes", "20", "-o", filepath.Join(out, "t.svg")}, wantFile: "t.svg"},
		{name: "export png, no cache to be had", renders: true,
			args: []string{"export", trace, "--max-nodes", "20", "-o", filepath.Join(out, "t.png")}, wantFile: "t.png"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := filepath.Join(root, "home-"+strings.ReplaceAll(tc.name, " ", "-"))
			if err := os.MkdirAll(home, 0o755); err != nil {
				t.Fatal(err)
			}
			if tc.home != "" {
				chown(home)
			} else if cred == nil {
				if err := os.Chmod(home, 0o555); err != nil {
					t.Fatal(err)
				}
			}
			cmd := exec.Command(bin, "-test.run=^TestHelperHorizon$", "-test.count=1")
			cmd.Env = append(os.Environ(), "HORIZON_HELPER_ARGS="+strings.Join(tc.args, "\x1f"),
				"TMPDIR="+tmp, "HOME="+home, "XDG_CACHE_HOME=")
			cmd.Dir = root
			if cred != nil {
				cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
			}
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("horizon %s: %v\nstderr: %s", strings.Join(tc.args, " "), err, firstLines(stderr.String(), 5))
			}
			if !strings.Contains(stdout.String(), tc.wantOut) {
				t.Errorf("stdout %q, want %q in it", firstLines(stdout.String(), 3), tc.wantOut)
			}
			if tc.wantFile != "" {
				if st, err := os.Stat(filepath.Join(out, tc.wantFile)); err != nil || st.Size() == 0 {
					t.Errorf("no %s written (%v)", tc.wantFile, err)
				}
			}
			// Graphviz starts (and makes its cache) only to render.
			_, err := os.Stat(filepath.Join(home, ".cache", "go-graphviz"))
			switch made := err == nil; {
			case made && !tc.renders:
				t.Errorf("horizon %s started Graphviz: it made %s", tc.args[0], filepath.Join(home, ".cache", "go-graphviz"))
			case !made && tc.renders && tc.home != "":
				t.Errorf("rendering made no cache in the user's own cache directory")
			}
		})
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}
