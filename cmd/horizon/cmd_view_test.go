package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestViewNodeFlag: --node 0 is the run node, a node like any other (it was
// taken for "not given" and opened the last iteration's root): it goes on
// to the terminal check, and it does not go with --path.
func TestViewNodeFlag(t *testing.T) {
	file := filepath.Join(t.TempDir(), "t.trace")
	if code, _, errOut := runCLI(t, "", "trace", "--fen", "startpos", "--depth", "1", "--qs", "captures", "-o", file); code != 0 {
		t.Fatalf("trace: exit %d: %s", code, errOut)
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--node", "0"}, 1, "view needs a terminal"},
		{[]string{"--node", "0", "--path", "e4"}, 2, "--node and --path"},
		{[]string{"--node", "-1"}, 2, "--node -1: node ids start at 0"},
		{[]string{"--node", "99999"}, 1, "--node 99999"},
	} {
		code, _, errOut := runCLI(t, "", append([]string{"view", file}, tc.args...)...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("view %s: exit %d, %q; want exit %d, %q", strings.Join(tc.args, " "), code, errOut, tc.code, tc.want)
		}
	}
}

// TestViewNeedsATerminalNotADevice: /dev/null on standard output is a
// character device but no terminal: trace --view refuses it before it
// records (it recorded, then the viewer refused), as view does.
func TestViewNeedsATerminalNotADevice(t *testing.T) {
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("no %s: %v", os.DevNull, err)
	}
	defer null.Close()
	out := filepath.Join(t.TempDir(), "v.trace")
	var errOut bytes.Buffer
	code := run(context.Background(), []string{"trace", "--fen", "startpos", "--depth", "2", "--view", "-o", out}, strings.NewReader(""), null, &errOut)
	if code != 1 || !strings.Contains(errOut.String(), "--view needs a terminal") || fileExists(out) {
		t.Errorf("exit %d, stderr %q, file recorded: %v", code, errOut.String(), fileExists(out))
	}
}
