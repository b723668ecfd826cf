package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestEngineArgv: trace --engine's command line was split at every space
// (strings.Fields), so an engine whose path holds a space could not be
// given at all. Quotes and backslashes now group as a shell's do, and a
// path that exists as given is taken whole.
func TestEngineArgv(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "My Engines")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	whole := filepath.Join(dir, "eth 12")
	if err := os.WriteFile(whole, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cmd  string
		want []string
		err  string
	}{
		{"./ethereal", []string{"./ethereal"}, ""},
		{"  python3 sunfish.py  ", []string{"python3", "sunfish.py"}, ""},
		{`"/opt/My Engines/eth" -v`, []string{"/opt/My Engines/eth", "-v"}, ""},
		{`'/opt/My Engines/eth' 'a "b"'`, []string{"/opt/My Engines/eth", `a "b"`}, ""},
		{`/opt/My\ Engines/eth`, []string{"/opt/My Engines/eth"}, ""},
		{`eng "a \"q\" \\ \n" x""y ''`, []string{"eng", `a "q" \ \n`, "xy", ""}, ""},
		{whole, []string{whole}, ""},
		{whole + " -v", strings.Fields(whole + " -v"), ""},
		{`"/opt/eth`, nil, `unterminated " quote`},
		{`eth 'x`, nil, "unterminated ' quote"},
		{`eth \`, nil, "backslash"},
	} {
		got, err := engineArgv(tc.cmd)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("engineArgv(%q) = %q, %v; want an error saying %q", tc.cmd, got, err, tc.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("engineArgv(%q) = %q, %v; want %q", tc.cmd, got, err, tc.want)
		}
	}
}

// TestTraceEngineSpacedPath: an engine in a directory with a space in its
// name runs from trace --engine, quoted and given whole; an unterminated
// quote is a usage error naming --engine.
func TestTraceEngineSpacedPath(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "My Engines")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	eng := filepath.Join(dir, "fake engine")
	script := "#!/bin/sh\nprintf 'HZT 1\\n' >&3\nwhile read -r cmd rest; do\n\tcase \"$cmd\" in\n" +
		"\tuci) echo \"id name Fake\"; echo uciok ;;\n\tisready) echo readyok ;;\n" +
		"\tgo) printf 'position startpos\\nE - 1 -50 50\\nE e2e4 0 -50 50\\nL 10\\nL -10\\nend\\n' >&3; echo \"bestmove e2e4\" ;;\n" +
		"\tquit) exit 0 ;;\n\tesac\ndone\n"
	if err := os.WriteFile(eng, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, cmdLine := range []string{eng, `"` + eng + `"`, "'" + eng + "'"} {
		out := filepath.Join(t.TempDir(), "t.trace")
		code, stdout, stderr := runCLI(t, "", "trace", "--engine", cmdLine, "--fen", "startpos", "--depth", "1", "-o", out)
		if code != 0 || !strings.Contains(stdout, "wrote 1 run to") {
			t.Errorf("--engine %q: exit %d, stdout %q, stderr %q", cmdLine, code, stdout, stderr)
		}
	}
	code, _, stderr := runCLI(t, "", "trace", "--engine", `"`+eng, "--fen", "startpos", "-o", filepath.Join(t.TempDir(), "t.trace"))
	if code != 2 || !strings.Contains(stderr, "--engine") || !strings.Contains(stderr, "unterminated") {
		t.Errorf("unterminated quote: exit %d, %s", code, stderr)
	}
}
