package main

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// TestHotspotsUsageListsEveryRanking checks that the usage line names every
// --by ranking the command accepts, and that each named one is accepted.
func TestHotspotsUsageListsEveryRanking(t *testing.T) {
	usage, _, _ := strings.Cut(helpOf(t, "hotspots"), "\n")
	file := filepath.Join(t.TempDir(), "h.trace")
	recordWith(t, file, "startpos", "2", "see")
	for _, by := range []string{"size", "qs", "chain", "growth"} {
		if !strings.Contains(usage, by) {
			t.Errorf("usage line %q does not name --by %s", usage, by)
		}
		if code, _, errOut := runCLI(t, "", "hotspots", file, "--by", by); code != 0 {
			t.Errorf("hotspots --by %s: exit %d: %s", by, code, errOut)
		}
	}
}

// TestHelpTeaches checks what each command's help must teach beyond its
// flags: examples; for search the rule for the default depth and a time
// limit alone; for runs every status it can print, with trace's meaning of
// it (issue 9: it said "running if the recorder died" where runs prints
// "abandoned").
func TestHelpTeaches(t *testing.T) {
	var statuses []string
	for _, st := range trace.Statuses {
		statuses = append(statuses, string(st)+" ", st.Meaning())
	}
	for _, tc := range []struct {
		cmd       string
		want, not []string
	}{
		{"search", []string{"Examples:", "with no --depth, --nodes or --movetime: 6", "horizon search --fen startpos --movetime"}, nil},
		{"qsbench", []string{"Examples:", "--worst"}, nil},
		{"runs", statuses, []string{"running if the recorder died"}},
	} {
		t.Run(tc.cmd, func(t *testing.T) {
			help := helpOf(t, tc.cmd)
			for _, w := range tc.want {
				if !helpSays(help, w) {
					t.Errorf("%s --help does not say %q:\n%s", tc.cmd, w, help)
				}
			}
			for _, n := range tc.not {
				if helpSays(help, n) {
					t.Errorf("%s --help says %q:\n%s", tc.cmd, n, help)
				}
			}
		})
	}
}

// TestDepthZero: --depth 0 was given, so the error must not ask for it.
func TestDepthZero(t *testing.T) {
	code, _, errOut := runCLI(t, "", "search", "--fen", "startpos", "--depth", "0")
	if code != 2 {
		t.Fatalf("exit %d, want 2", code)
	}
	checkOneLineError(t, strings.SplitN(errOut, "\n", 2)[0]+"\n", "--depth 0: want 1 to")
	if strings.Contains(errOut, "no limit") {
		t.Errorf("stderr %q", errOut)
	}
}

// TestBenchOutput: --stockfish none is a choice, not a missing Stockfish,
// the table's counts use thousands separators like every command's, and
// no progress goes to a stderr that is not a terminal.
func TestBenchOutput(t *testing.T) {
	args := []string{"bench", "--depth", "2", "--qs", "see", "--fen", kiwipete, "--stockfish", "none"}
	code, out, errOut := runCLI(t, "", args...)
	if code != 0 {
		t.Fatalf("bench: exit %d: %s", code, errOut)
	}
	// Progress only on a terminal: stderr here is a buffer, so it stays
	// empty ("bench: see done" came even in a pipe).
	if errOut != "" {
		t.Errorf("bench wrote to a stderr that is not a terminal: %q", errOut)
	}
	if strings.Contains(out, "not found") || !strings.Contains(out, "skipped (--stockfish none)") {
		t.Errorf("bench --stockfish none says:\n%s", out)
	}
	var b benchJSON
	js := cliJSON(t, &b, append(args, "--json")...)
	if len(b.Variants) != 1 || b.Variants[0].Nodes < 1000 {
		t.Fatalf("bench --json: %s", js)
	}
	row := regexp.MustCompile(`(?m)^see .*$`).FindString(out)
	if n := engine.Commas(b.Variants[0].Nodes); !strings.Contains(row, " "+n+" ") {
		t.Errorf("bench row %q does not give the nodes as %s", row, n)
	}
	if !strings.Contains(out, "node cap 100,000 per search") {
		t.Errorf("bench header does not give the node cap with separators:\n%s", out)
	}
}

// TestTraceUnderPath: the help's --under example must record the line it
// names, and a path the search never entered must be said so (stderr, the
// summary, --json), with rows recorded told apart from nodes searched.
func TestTraceUnderPath(t *testing.T) {
	example := regexp.MustCompile(`(?m)^  horizon trace (.*--under .*)$`).FindStringSubmatch(helpOf(t, "trace"))
	if example == nil {
		t.Fatalf("trace --help has no --under example")
	}
	dir := t.TempDir()
	args := strings.Fields(example[1])
	for i := range args {
		if args[i] == "-o" {
			args[i+1] = filepath.Join(dir, "example.trace")
		}
	}
	code, out, errOut := runCLI(t, "", append(append([]string{"trace"}, args...), "--json")...)
	if code != 0 || errOut != "" {
		t.Fatalf("%v: exit %d, stderr %q", args, code, errOut)
	}
	var runs []traceRunJSON
	if err := json.Unmarshal([]byte(out), &runs); err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		if r.UnderReached == nil || *r.UnderReached == 0 || r.Rows <= 3 || r.Rows >= r.Nodes {
			t.Errorf("the help's example, run %d: %d rows of %d nodes, under reached %v", r.Run, r.Rows, r.Nodes, r.UnderReached)
		}
	}

	// 1.e4 e5 is legal, but at depth 6 Black's first reply to 1.e4 refutes
	// it in a null window: e5 is never searched.
	code, out, errOut = runCLI(t, "", "trace", "--fen", "startpos", "--depth", "6", "--qs", "see", "--last-iteration",
		"--under", "e4,e5", "-o", filepath.Join(dir, "missed.trace"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "never entered the --under path e4,e5 (alpha-beta cut it off before") || !strings.Contains(errOut, "rows were recorded of") {
		t.Errorf("no warning on stderr: %q", errOut)
	}
	// A path longer than the search went, or than its full width, was
	// blamed on alpha-beta too.
	for _, tc := range []struct{ under, want string }{
		{"e4,e5,Nf3,Nc6,Bb5", "(it is 5 moves long, longer than the search went: depth 2, ply "},
		{"e4,e5,Nf3", "(it is 3 moves long, past the search's depth 2, beyond which it plays only the moves its QS allows)"},
	} {
		_, _, errOut = runCLI(t, "", "trace", "--fen", "startpos", "--depth", "2", "--qs", "captures",
			"--under", tc.under, "-o", filepath.Join(t.TempDir(), "long.trace"))
		if want := "horizon trace: run 1 (captures): the search never entered the --under path " + tc.under + " " + tc.want; !strings.Contains(errOut, want) {
			t.Errorf("stderr %q, want %q", errOut, want)
		}
	}
	if !strings.Contains(out, "the --under path was never searched") || !regexp.MustCompile(`recorded 3 rows of the [0-9,]+ nodes searched`).MatchString(out) {
		t.Errorf("the summary does not tell rows recorded from nodes searched:\n%s", out)
	}
}

var (
	bestMoveValue = regexp.MustCompile(`"best_move": *"([^"]*)"`)
	uciMove       = regexp.MustCompile(`^([a-h][1-8][a-h][1-8][qrbn]?)?$`)
)

// TestJSONVocabulary: every command's --json names the best move best_move,
// gives a run's options and limits as objects with typed values (not JSON
// text in a string), and runs --json says which engine searched.
func TestJSONVocabulary(t *testing.T) {
	file, _ := traceFile(t, "--fen", "startpos", "--depth", "3", "--qs", "see,captures")
	dir := t.TempDir()
	for _, args := range [][]string{
		{"search", "--fen", "startpos", "--depth", "2", "--json"},
		{"trace", "--fen", "startpos", "--depth", "2", "--json", "-o", filepath.Join(dir, "t.trace")},
		{"compare", "--fen", "startpos", "--depth", "2", "--qs", "see", "--json"},
		{"runs", file, "--json"},
		{"diff", file, "--run", "1", "--run", "2", "--json"},
	} {
		code, out, errOut := runCLI(t, "", args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		if strings.Contains(out, `"bestmove"`) || !strings.Contains(out, `"best_move"`) {
			t.Errorf("%v: the best move's key is not best_move:\n%.600s", args, out)
		}
		if strings.Contains(out, `"options": "`) || strings.Contains(out, `"limits": "`) {
			t.Errorf("%v: options or limits as a string:\n%.900s", args, out)
		}
		// One notation: best_move is UCI everywhere (diff gave SAN).
		for _, m := range bestMoveValue.FindAllStringSubmatch(out, -1) {
			if !uciMove.MatchString(m[1]) {
				t.Errorf("%v: best_move %q is not UCI", args, m[1])
			}
		}
	}
	code, out, errOut := runCLI(t, "", "diff", file, "--run", "1", "--run", "2", "--csv")
	if code != 0 {
		t.Fatalf("diff --csv: exit %d: %s", code, errOut)
	}
	if m := regexp.MustCompile(`(?m)^total,best_move,([^,]*),([^,]*),`).FindStringSubmatch(out); m == nil || !uciMove.MatchString(m[1]) || !uciMove.MatchString(m[2]) {
		t.Errorf("diff --csv: best_move is not UCI: %q\n%s", m, out)
	}
	var runs []map[string]any
	cliJSON(t, &runs, "runs", file, "--json")
	r := runs[0]
	opts, _ := r["options"].(map[string]any)
	lim, _ := r["limits"].(map[string]any)
	if opts["qs_moves"] != "captures" || opts["hash"] != float64(16) || lim["depth"] != float64(3) {
		t.Errorf("runs --json: options %v, limits %v; want typed values under snake_case keys", r["options"], r["limits"])
	}
	for _, k := range []string{"engine", "fail_hard"} {
		if _, ok := r[k]; !ok {
			t.Errorf("runs --json lacks %q: %v", k, r)
		}
	}
}

// TestNoCommand: horizon with no arguments is a usage error: the usage goes
// to stderr, exit 2, nothing on stdout (it printed to stdout); --help is
// asked for and goes to stdout, exit 0.
func TestNoCommand(t *testing.T) {
	code, out, errOut := runCLI(t, "")
	if code != 2 || out != "" || !strings.Contains(errOut, "Usage: horizon <command>") {
		t.Errorf("horizon: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, out, errOut = runCLI(t, "", "--help")
	if code != 0 || errOut != "" || !strings.Contains(out, "Usage: horizon <command>") {
		t.Errorf("horizon --help: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestJSONAbsentIsNull: a field a result lacks is null in every command's
// --json, under the same key, not left out in some and null in others:
// stop_cause of a search nothing stopped (search, compare and trace left it
// out where runs, stats, check and diff gave null), and search's ponder and
// mate (left out). A search a node limit stopped says "nodes" everywhere.
func TestJSONAbsentIsNull(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		limit []string
		cause string
	}{
		{[]string{"--depth", "2"}, "null"},
		{[]string{"--nodes", "300"}, `"nodes"`},
	} {
		file := filepath.Join(dir, strings.TrimLeft(tc.limit[0], "-")+".trace")
		base := append([]string{"--fen", "startpos", "--qs", "see"}, tc.limit...)
		for _, args := range [][]string{
			append(append([]string{"search"}, base...), "--json"),
			append(append([]string{"compare"}, base...), "--json"),
			append(append([]string{"trace"}, base...), "--json", "-o", file),
			{"runs", file, "--json"},
			{"stats", file, "--json"},
			{"check", file, "--json"},
		} {
			code, out, errOut := runCLI(t, "", args...)
			if code != 0 {
				t.Fatalf("%v: exit %d: %s", args, code, errOut)
			}
			got := regexp.MustCompile(`"stop_cause": ([^,\n]*)`).FindAllStringSubmatch(out, -1)
			if len(got) == 0 {
				t.Errorf("%v: no stop_cause:\n%.1500s", args, out)
			}
			for _, m := range got {
				if m[1] != tc.cause {
					t.Errorf("%v: stop_cause %s, want %s", args, m[1], tc.cause)
				}
			}
		}
	}
	var s map[string]any
	cliJSON(t, &s, "search", "--fen", "startpos", "--depth", "2", "--json")
	for _, k := range []string{"ponder", "mate"} {
		if v, ok := s[k]; !ok || (k == "mate" && v != nil) {
			t.Errorf("search --json: %s %v (present %v); want it present, mate null where no mate is found", k, v, ok)
		}
	}
	var mate map[string]any
	cliJSON(t, &mate, "search", "--fen", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "--depth", "2", "--json")
	if p, ok := mate["ponder"]; mate["mate"] != float64(1) || !ok || p != nil {
		t.Errorf("search --json of a mate in one: mate %v, ponder %v (present %v); want 1 and null", mate["mate"], p, ok)
	}
}

// TestHotspotsCauseNull: hotspots --json --by growth gives the cause of a
// full-width node that tops no extension chain as null (it was "", where the
// text prints "-"); a QS tree or a chain's top keeps its cause's name.
func TestHotspotsCauseNull(t *testing.T) {
	file, _ := traceFile(t, "--fen", kiwipete, "--depth", "3", "--qs", "captures")
	for _, tc := range []struct {
		by    string
		cause func(any) bool
	}{
		{"growth", func(c any) bool { s, ok := c.(string); return c == nil || ok && s != "" }},
		{"qs", func(c any) bool { return c == "qs" }},
	} {
		var runs []struct {
			Hotspots []map[string]any `json:"hotspots"`
		}
		cliJSON(t, &runs, "hotspots", file, "--by", tc.by, "--limit", "3", "--json")
		if len(runs) != 1 || len(runs[0].Hotspots) == 0 {
			t.Fatalf("hotspots --by %s: %+v", tc.by, runs)
		}
		none := false
		for _, h := range runs[0].Hotspots {
			if c, ok := h["cause"]; !ok || !tc.cause(c) {
				t.Errorf("hotspots --by %s: node %v cause %#v (present %v)", tc.by, h["node"], c, ok)
			}
			none = none || h["cause"] == nil
		}
		if tc.by == "growth" && !none {
			t.Errorf("hotspots --by growth: no full-width node without a cause among %v", runs[0].Hotspots)
		}
	}
}

// TestStrayArgumentRefused: every command that takes flags only refuses an
// argument left over, naming it, with exit 2; variants and bench ignored it
// ("horizon bench kiwi.trace" ran the whole bench).
func TestStrayArgumentRefused(t *testing.T) {
	for _, cmd := range [][]string{{"variants"}, {"bench", "--depth", "1", "--stockfish", "none"}, {"search", "--fen", "startpos", "--depth", "1"}, {"perft", "--fen", "startpos", "--depth", "1"}} {
		t.Run(cmd[0], func(t *testing.T) {
			code, out, errOut := runCLI(t, "", append(cmd, "extra")...)
			if code != 2 || out != "" || !strings.Contains(errOut, `unexpected argument "extra"`) {
				t.Errorf("%v extra: exit %d, stdout %.200q, stderr %q; want exit 2 naming the argument", cmd, code, out, errOut)
			}
		})
	}
}

// TestRunGivenTwice: a command that reads one run (or every run with --run
// 0) refuses --run given twice, naming both, with exit 2: the flag package
// kept the last one silently, so "check FILE --run 1 --run 2" checked run 2
// alone and said "1 passed". Its help names the flag's value: an id.
func TestRunGivenTwice(t *testing.T) {
	file, _ := traceFile(t, "--fen", "startpos", "--depth", "1", "--qs", "see,captures")
	for _, cmd := range []string{"check", "export", "hotspots", "stats", "view"} {
		t.Run(cmd, func(t *testing.T) {
			code, out, errOut := runCLI(t, "", cmd, file, "--run", "1", "--run", "2")
			if code != 2 || out != "" || !strings.Contains(errOut, "--run given twice (1, then 2)") && !strings.Contains(errOut, "-run: given twice (1, then 2)") {
				t.Errorf("%s --run 1 --run 2: exit %d, stdout %.200q, stderr %q", cmd, code, out, errOut)
			}
			if help := helpOf(t, cmd); !strings.Contains(help, "  -run id\n") {
				t.Errorf("%s --help does not show '-run id':\n%s", cmd, help)
			}
		})
	}
}

// TestHotspotsOneNode: a hotspot of one node reads "1 node" in hotspots'
// text, in the column of the others ("1 nodes" was the grammar).
func TestHotspotsOneNode(t *testing.T) {
	stream := writeFile(t, "s.hzt", "HZT 1\nengine Other\nposition startpos\nE - 2 -50 50\nE e2e4 1 -50 50\nE e7e5 0 -50 50\nL 10\nL -10\nL 10\nend best=e2e4 time=5\n")
	file := filepath.Join(t.TempDir(), "s.trace")
	if code, _, errOut := runCLI(t, "", "import", stream, "-o", file); code != 0 {
		t.Fatalf("import: exit %d: %s", code, errOut)
	}
	code, out, errOut := runCLI(t, "", "hotspots", file)
	if code != 0 || !strings.Contains(out, "           1 node    33.3%  qs ") {
		t.Errorf("hotspots: exit %d, want \"1 node\" aligned:\n%s%s", code, out, errOut)
	}
}

// TestHotspotAtRootNamed: a hotspot at the root (the QS tree of a QS-only
// run) reads "(root)" where its place goes, in hotspots and trace, as diff
// and check name the root; the path was blank. A QS-only run has no
// iteration to name (trace.PlaceIteration).
func TestHotspotAtRootNamed(t *testing.T) {
	file, traceOut := traceFile(t, "--fen", "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1", "--qs-only", "--qs", "see")
	_, out, _ := runCLI(t, "", "hotspots", file)
	for name, text := range map[string]string{"hotspots": out, "trace": traceOut} {
		// hotspots gives the top cause ("62.2% evasion") before the place.
		if !regexp.MustCompile(`#1 +(\S+ \S+ +)?\(root\)\n`).MatchString(text) {
			t.Errorf("%s does not name the root hotspot's place:\n%s", name, text)
		}
	}
}

// TestHotspotShareOneFormat: a hotspot's share of the run reads as
// engine.SharePercent says it, in hotspots and in trace's summary, as in
// the viewer and the HTML page. hotspots said 0.1% of a tree the viewer
// called 0.06% and the page 0.061%, and most of a big run's trees 0.0%.
func TestHotspotShareOneFormat(t *testing.T) {
	file := filepath.Join(t.TempDir(), "h.trace")
	code, summary, errOut := runCLI(t, "", "trace", "--fen", kiwipete, "--depth", "5", "--qs", "captures", "-o", file)
	if code != 0 {
		t.Fatalf("trace: exit %d: %s", code, errOut)
	}
	var runs []struct {
		Hotspots []struct {
			Node  int64
			Share float64
		}
	}
	cliJSON(t, &runs, "hotspots", file, "--limit", "30", "--json")
	_, text, _ := runCLI(t, "", "hotspots", file, "--limit", "30")
	if len(runs) != 1 || len(runs[0].Hotspots) == 0 {
		t.Fatalf("hotspots --json: %+v", runs)
	}
	small := 0
	for _, h := range runs[0].Hotspots {
		want := regexp.MustCompile(` ` + regexp.QuoteMeta(engine.SharePercent(h.Share)) + `  \S+ +#` + strconv.FormatInt(h.Node, 10) + ` `)
		if !want.MatchString(text) {
			t.Errorf("hotspots: node %d, share %g, not said as %s:\n%s", h.Node, h.Share, engine.SharePercent(h.Share), text)
		}
		if h.Node == runs[0].Hotspots[0].Node && !want.MatchString(summary) {
			t.Errorf("trace's summary: node %d not said as %s:\n%s", h.Node, engine.SharePercent(h.Share), summary)
		}
		if h.Share < 0.01 {
			small++
		}
	}
	if small == 0 {
		t.Errorf("no hotspot under 1%% of the run to check: %+v", runs[0].Hotspots)
	}
}
