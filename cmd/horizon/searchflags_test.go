package main

import (
	"encoding/json"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// TestSearchLimits checks the one rule for limits every searching command
// shares: the default depth applies only when no limit is given, so a time
// or node limit alone is never cut short by a depth nobody asked for.
func TestSearchLimits(t *testing.T) {
	cases := []struct {
		args    []string
		want    engine.Limits
		wantErr string
	}{
		{nil, engine.Limits{Depth: 6}, ""},
		{[]string{"--depth", "3"}, engine.Limits{Depth: 3}, ""},
		{[]string{"--movetime", "500ms"}, engine.Limits{MoveTime: 500 * time.Millisecond}, ""},
		{[]string{"--nodes", "400000"}, engine.Limits{Nodes: 400000}, ""},
		{[]string{"--nodes", "9", "--movetime", "1s"}, engine.Limits{Nodes: 9, MoveTime: time.Second}, ""},
		{[]string{"--depth", "8", "--nodes", "9"}, engine.Limits{Depth: 8, Nodes: 9}, ""},
		{[]string{"--depth", "0"}, engine.Limits{}, "--depth 0: want 1 to"},
		{[]string{"--depth", "0", "--nodes", "5"}, engine.Limits{}, "--depth 0: want 1 to"},
		{[]string{"--depth", "128"}, engine.Limits{}, "--depth 128"},
		{[]string{"--nodes", "0"}, engine.Limits{}, "--nodes 0: want a positive number"},
		{[]string{"--movetime", "0s"}, engine.Limits{}, "--movetime 0s: want a positive duration"},
	}
	for _, c := range cases {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		sf := addSearchFlags(fs, "see", 6)
		if err := fs.Parse(c.args); err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		lim, err := sf.limits()
		switch {
		case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
			t.Errorf("%v: error %v, want one saying %q", c.args, err, c.wantErr)
		case c.wantErr == "" && err != nil:
			t.Errorf("%v: %v", c.args, err)
		case c.wantErr == "" && lim != c.want:
			t.Errorf("%v: limits %+v, want %+v", c.args, lim, c.want)
		}
	}
}

// TestLimitAloneIsNotCapped runs the commands that take --nodes: a node
// limit alone must stop the search (not the default depth, which ends
// these searches far sooner), and a trace must record the user's limits
// apart from the recorder's own node cap.
func TestLimitAloneIsNotCapped(t *testing.T) {
	// search speaks a run's status words (runs says "truncated"; it said
	// "stopped": "nodes"), the cause under its own key.
	var s struct {
		Depth     int    `json:"depth"`
		Nodes     int64  `json:"nodes"`
		Status    string `json:"status"`
		StopCause string `json:"stop_cause"`
	}
	cliJSON(t, &s, "search", "--fen", "startpos", "--nodes", "150000", "--json")
	if s.Status != string(trace.StatusTruncated) || s.StopCause != engine.StopNodes.String() || s.Nodes < 150000 {
		t.Errorf("search --nodes 150000: status %q (stop cause %q) at depth %d after %d nodes; want truncated by the node limit",
			s.Status, s.StopCause, s.Depth, s.Nodes)
	}
	var c compareResult
	cliJSON(t, &c, "compare", "--fen", "startpos", "--nodes", "5000", "--qs", "captures", "--json")
	if len(c.Positions) != 1 || c.Positions[0].Status != string(trace.StatusTruncated) || cell(c.Positions[0].StopCause) != "nodes" {
		t.Errorf("compare --nodes 5000: %+v, want status truncated, stop cause nodes", c.Positions)
	}
	var done searchJSON
	cliJSON(t, &done, "search", "--fen", "startpos", "--depth", "2", "--json")
	if done.Status != string(trace.StatusComplete) || done.StopCause != nil {
		t.Errorf("search --depth 2: status %q, stop cause %q; want complete and none", done.Status, *done.StopCause)
	}

	dir := t.TempDir()
	for _, c := range []struct {
		args      []string
		nodes     float64
		stoppedBy string
	}{
		{[]string{"--nodes", "150000"}, 150000, "nodes"},
		{[]string{"--depth", "2"}, 0, ""},
	} {
		file := filepath.Join(dir, strings.Join(c.args, "")+".trace")
		args := append([]string{"trace", "--fen", "startpos", "--qs", "see", "--json", "-o", file}, c.args...)
		if code, _, errOut := runCLI(t, "", args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		st, err := trace.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		r, err := st.Run(t.Context(), 1)
		st.Close()
		if err != nil {
			t.Fatal(err)
		}
		var lim map[string]any
		if err := json.Unmarshal([]byte(r.Limits), &lim); err != nil {
			t.Fatal(err)
		}
		if lim["nodes"] != c.nodes || lim["max_nodes"] != float64(defaultMaxNodes) {
			t.Errorf("%v: recorded limits %s; want nodes %v and the recorder's cap as max_nodes", c.args, r.Limits, c.nodes)
		}
		if c.stoppedBy == "nodes" && (r.Nodes < 150000 || r.Depth <= 5) {
			t.Errorf("%v: the run stopped at depth %d after %d nodes; want the node limit", c.args, r.Depth, r.Nodes)
		}
	}
}

// TestTraceEngineGoCommand: trace --engine sends the user's limits, a time
// limit alone without the default depth. The engine here only logs what it
// is sent (it writes no trace, so the command fails after waiting 10 s for
// one, as it should).
func TestTraceEngineGoCommand(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "sent.log")
	script := writeFile(t, "fake.sh", `while read -r line; do
  echo "$line" >> "$1"
  case "$line" in
    uci) echo "id name fake"; echo uciok ;;
    isready) echo readyok ;;
    go*) echo "bestmove e2e4" ;;
    quit) exit 0 ;;
  esac
done
`)
	for _, c := range []struct {
		args []string
		want string
	}{
		// One case: each waits 10 s for the trace this engine never
		// writes; TestSearchLimits covers the rule's other cases.
		{[]string{"--movetime", "200ms"}, "go movetime 200"},
	} {
		os.Remove(log)
		args := append([]string{"trace", "--engine", "/bin/sh " + script + " " + log, "--fen", "startpos", "-o", filepath.Join(dir, "t.trace")}, c.args...)
		runCLI(t, "", args...)
		b, err := os.ReadFile(log)
		if err != nil {
			t.Fatal(err)
		}
		var gos []string
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "go") {
				gos = append(gos, l)
			}
		}
		if len(gos) != 1 || gos[0] != c.want {
			t.Errorf("%v: sent %q, want %q", c.args, gos, c.want)
		}
	}
}

// TestFlagGivenTwice: a flag given twice with two values is a usage error
// naming both, where the flag package kept the last silently: 'trace
// --engine A --engine B' traced B alone, 'search --qs see --qs captures'
// searched captures alone. The same value twice, and diff's --run (A then
// B), stay allowed.
func TestFlagGivenTwice(t *testing.T) {
	tr := exportTrace(t)
	for _, tc := range []struct {
		args []string
		want []string // empty: accepted
	}{
		{[]string{"search", "--fen", "startpos", "--depth", "1", "--qs", "see", "--qs", "captures"},
			[]string{"-qs: given twice (see, then captures): give one", "--qs see,captures"}},
		{[]string{"trace", "--engine", "a", "--engine", "b", "--fen", "startpos"}, []string{"-engine: given twice (a, then b)"}},
		{[]string{"search", "--fen", "startpos", "--fen", "8/8/8/8/8/8/8/K6k w - - 0 1", "--depth", "1"}, []string{"-fen: given twice"}},
		{[]string{"search", "--fen", "startpos", "--depth", "1", "--delta", "false", "--delta", "true"}, []string{"-delta: given twice (false, then true)"}},
		{[]string{"export", tr, "--max-nodes", "10", "-o", "-", "--max-nodes", "20"}, []string{"-max-nodes: given twice (10, then 20)"}},
		{[]string{"search", "--fen", "startpos", "--depth", "1", "--depth", "1", "--json", "--json"}, nil},
		{[]string{"diff", tr, "--run", "1", "--run", "1"}, nil},
	} {
		code, _, stderr := runCLI(t, "", tc.args...)
		if len(tc.want) == 0 {
			if code != 0 {
				t.Errorf("%v: exit %d, %s", tc.args, code, stderr)
			}
			continue
		}
		if code != 2 {
			t.Errorf("%v: exit %d, want 2; %s", tc.args, code, stderr)
		}
		for _, w := range tc.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%v: stderr %q lacks %q", tc.args, stderr, w)
			}
		}
	}
	// --help prints the defaults from the flags' own values: the wrapped
	// ones printed "panic calling String method on zero main.onceBool".
	for _, c := range []string{"runs", "search", "trace", "diff", "qsbench"} {
		if help := helpOf(t, c); strings.Contains(help, "panic") || !strings.Contains(help, "-json\n") {
			t.Errorf("%s --help:\n%s", c, help)
		}
	}
}

// TestEmptyPositionRefused: --fen "" and --epd "" are refused as no
// position by every command that takes one (exit 2, naming the flag);
// trace traced its built-in sample and bench its 49 positions, reading an
// empty flag as one left out, where search, perft and compare refused it.
func TestEmptyPositionRefused(t *testing.T) {
	out := filepath.Join(t.TempDir(), "e.trace")
	for _, cmd := range []string{"trace", "bench", "search", "perft", "compare"} {
		for _, flag := range []string{"--fen", "--epd"} {
			args := []string{cmd, flag, ""}
			if cmd == "trace" {
				args = append(args, "-o", out)
			}
			code, stdout, stderr := runCLI(t, "", args...)
			if code != 2 || !strings.HasPrefix(stderr, "horizon "+cmd+": "+flag+` "": give`) || stdout != "" {
				t.Errorf("%s %s \"\": exit %d, stdout %q, stderr %q", cmd, flag, code, stdout, stderr)
			}
		}
	}
	if fileExists(out) {
		t.Error("trace --fen \"\" made a trace")
	}
}

// TestRunZeroRefused: --run 0 meant the last run to export and view, every
// run to hotspots, stats and check, and was an error to diff. It is now
// refused everywhere, naming what leaving --run out reads; left out, each
// command reads what it did.
func TestRunZeroRefused(t *testing.T) {
	file, _ := traceFile(t, "--fen", "startpos", "--depth", "1", "--qs", "captures,see")
	for _, tc := range []struct{ cmd, absent string }{
		{"check", "every run"}, {"export", "the file's last run"}, {"hotspots", "every run"}, {"stats", "every run"},
		{"view", "the last run, or the run picker"},
	} {
		code, stdout, stderr := runCLI(t, "", tc.cmd, file, "--run", "0")
		if code != 2 || stdout != "" || !strings.Contains(stderr, "runs are numbered from 1; for "+tc.absent) {
			t.Errorf("%s --run 0: exit %d, stdout %q, stderr %q", tc.cmd, code, stdout, stderr)
		}
	}
	for _, cmd := range []string{"check", "hotspots", "stats"} {
		if code, _, stderr := runCLI(t, "", cmd, file); code != 0 {
			t.Errorf("%s without --run: exit %d, %s", cmd, code, stderr)
		}
	}
}
