package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/horizonqs/horizon/compare"
	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
	"github.com/horizonqs/horizon/trace/tracetest"
	"github.com/horizonqs/horizon/uci"
	"github.com/horizonqs/horizon/viewer"
)

// The integration tests of issue 13: real engines no one on the team wrote
// (../shared/engines), built with Horizon's instrumentation by
// examples/engines/build.sh, traced, and checked against their uninstrumented
// builds.

var (
	enginesOnce sync.Once
	enginesDir  string
	enginesSkip string
)

// builtEngines runs build.sh once for the package's tests and returns its
// OUTDIR, skipping when the sources, a compiler or libfathom are absent.
func builtEngines(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs real engines: skipped with -short")
	}
	enginesOnce.Do(func() {
		src := filepath.Join("..", "..", "..", "shared", "engines")
		for _, f := range []string{"ethereal/src/search.c", "sunfish/sunfish.py", "fairymax/fairymax.c"} {
			if _, err := os.Stat(filepath.Join(src, f)); err != nil {
				enginesSkip = "../shared/engines/" + f + " is absent"
				return
			}
		}
		for _, tool := range []string{"cc", "patch", "python3"} {
			if _, err := exec.LookPath(tool); err != nil {
				enginesSkip = tool + " is not on PATH"
				return
			}
		}
		if _, err := os.Stat("/usr/include/tbprobe.h"); err != nil {
			enginesSkip = "libfathom-dev is not installed (Ethereal needs it)"
			return
		}
		abs, _ := filepath.Abs(src)
		if keepable() {
			if dir := cachedEngines(abs); dir != "" {
				enginesDir = dir
				return
			}
			if dir, why := keepEngines(abs); dir != "" || why != "" {
				enginesDir, enginesSkip = dir, why
				return
			}
		}
		root, err := testDir()
		if err != nil {
			enginesSkip = err.Error()
			return
		}
		dir, err := os.MkdirTemp(root, "engines-")
		if err != nil {
			enginesSkip = err.Error()
			return
		}
		if enginesSkip = buildEngines(abs, dir); enginesSkip == "" {
			enginesDir = dir
		}
	})
	if enginesSkip != "" {
		if strings.HasPrefix(enginesSkip, "build.sh failed") {
			t.Fatal(enginesSkip)
		}
		t.Skip(enginesSkip)
	}
	return enginesDir
}

// buildEngines runs build.sh on the engines in src into dir: "" when it
// built them, else why not.
func buildEngines(src, dir string) string {
	cmd := exec.Command("sh", filepath.Join("..", "..", "examples", "engines", "build.sh"), dir)
	cmd.Env = append(os.Environ(), "ENGINES="+src)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "build.sh failed: " + err.Error() + "\n" + string(out)
	}
	return ""
}

// The engines build.sh made are kept between runs of the tests in the
// user's cache folder, as the go command keeps what it builds: building
// them is 6 s of CPU on every run. A build is found by a key of all it is
// made from (enginesKey); its launchers name the folder it was built in,
// so it stays in that folder, a link named by the key pointing to it.

// keepable reports whether a build may be kept or taken from the cache:
// not when the environment tells build.sh to build otherwise (another
// compiler or optimisation, a checkout of an engine), which the key does
// not hold.
func keepable() bool {
	for _, v := range []string{"CC", "OPT", "ETHEREAL_SRC", "SUNFISH_SRC", "FAIRYMAX_SRC"} {
		if os.Getenv(v) != "" {
			return false
		}
	}
	return true
}

// enginesCache is the folder of the kept builds.
func enginesCache() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "horizon-tests"), nil
}

// enginesKey hashes what build.sh's output is made from: the engines'
// sources in src and their folder, the script with its patches and
// wrappers, the emitters it copies in, and the compiler's version.
func enginesKey(src string) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n", src)
	cc, err := exec.Command("cc", "--version").Output()
	if err != nil {
		return "", err
	}
	h.Write(cc)
	for _, root := range []string{src, filepath.Join("..", "..", "examples", "engines"),
		filepath.Join("..", "..", "emit", "c"), filepath.Join("..", "..", "emit", "python")} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, path)
			fmt.Fprintf(h, "%s %s %d\n", root, rel, len(data))
			h.Write(data)
			return nil
		})
		if err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:24], nil
}

// cachedEngines returns the kept build of the engines in src, "" when
// there is none (or no cache folder).
func cachedEngines(src string) string {
	cache, err := enginesCache()
	if err != nil {
		return ""
	}
	key, err := enginesKey(src)
	if err != nil {
		return ""
	}
	dir, err := filepath.EvalSymlinks(filepath.Join(cache, "engines-"+key))
	if err != nil {
		return ""
	}
	if _, err := os.Stat(filepath.Join(dir, "ethereal")); err != nil {
		return ""
	}
	return dir
}

// keepEngines builds the engines in src into a folder of the cache (the
// launchers name their folder) and names it by its key once whole, so
// that a run stopped halfway, or another run building at the same time,
// leaves no half build under the key. It returns the folder, or why the
// build failed; both are "" when there is no cache to keep it in.
func keepEngines(src string) (dir, why string) {
	cache, err := enginesCache()
	if err != nil {
		return "", ""
	}
	key, err := enginesKey(src)
	if err != nil || os.MkdirAll(cache, 0o755) != nil {
		return "", ""
	}
	kept, err := os.MkdirTemp(cache, "build-"+key+"-")
	if err != nil {
		return "", ""
	}
	if why := buildEngines(src, kept); why != "" {
		os.RemoveAll(kept)
		return "", why
	}
	link := filepath.Join(cache, "engines-"+key)
	if err := os.Symlink(kept, link); err != nil {
		if other := cachedEngines(src); other != "" { // another run's, kept first
			os.RemoveAll(kept)
			return other, ""
		}
		// A link to a build since removed: this build takes its place.
		if os.Remove(link) == nil {
			os.Symlink(kept, link)
		}
	}
	return kept, ""
}

// uciSearch runs one search with a UCI engine and returns its bestmove, and
// the node count (the engine's own count), the pv and the score (as
// Horizon prints a score on its scale: "score mate 2" is #2) of its last
// info line at depth that has them.
func uciSearch(t *testing.T, env []string, fen string, depth int, argv ...string) (best string, nodes int64, pv, score string) {
	t.Helper()
	best, infos := uciInfos(t, env, fen, depth, argv...)
	nodes = -1
	for _, in := range infos {
		if in.Depth != depth {
			continue
		}
		if in.Nodes >= 0 {
			nodes = in.Nodes
		}
		if in.PV != nil {
			pv = strings.Join(in.PV, " ")
		}
		if in.Scored {
			score = in.Score.String()
		}
	}
	return best, nodes, pv, score
}

// uciInfos runs one search with a UCI engine to depth and returns its
// bestmove and every info line it printed, in order.
func uciInfos(t *testing.T, env []string, fen string, depth int, argv ...string) (best string, infos []uci.Info) {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), env...)
	u, err := uci.StartCmd(context.Background(), cmd)
	if err != nil {
		t.Fatalf("%s: %v", argv[0], err)
	}
	defer u.Close()
	if err := u.SetPosition(fen); err != nil {
		t.Fatalf("%s: %v", argv[0], err)
	}
	if err := u.Send("go depth " + strconv.Itoa(depth)); err != nil {
		t.Fatal(err)
	}
	lines, err := u.Until(context.Background(), 5*time.Minute, "bestmove")
	if err != nil {
		t.Fatalf("%s gave no bestmove: %v", argv[0], err)
	}
	best = strings.Fields(lines[len(lines)-1])[1]
	for _, line := range lines[:len(lines)-1] {
		in, ok, err := uci.ParseInfo(line)
		if err != nil {
			t.Fatalf("%s: %v", argv[0], err)
		}
		if ok {
			infos = append(infos, in)
		}
	}
	return best, infos
}

// traceJSON is what the tests read of `trace --engine --json` and `import --json`.
type traceJSON struct {
	Run           int64  `json:"run"`
	Status        string `json:"status"`
	BestMove      string `json:"best_move"`
	Nodes         int64  `json:"nodes"`
	QSNodes       int64  `json:"qs_nodes"`
	StreamNodes   int64  `json:"stream_nodes"`
	ReportedNodes int64  `json:"reported_nodes"`
	Engine        string `json:"engine"`
	Score         int64  `json:"score"`
	Depth         int    `json:"depth"`
}

func foreignRunJSON(t *testing.T, args ...string) []traceJSON {
	t.Helper()
	var runs []traceJSON
	if out := cliJSON(t, &runs, args...); len(runs) != 1 {
		t.Fatalf("horizon %s: %d runs, want 1\n%s", strings.Join(args, " "), len(runs), out)
	}
	return runs
}

// checkClean runs `horizon check` on a run and wants no violation.
func checkClean(t *testing.T, file string, run int64) {
	t.Helper()
	code, out, errOut := runCLI(t, "", "check", file, "--run", strconv.FormatInt(run, 10))
	if code != 0 || !strings.Contains(out, "no violations") || !strings.Contains(out, "skipped for another engine's run") {
		t.Fatalf("check: exit %d\n%s%s", code, out, errOut)
	}
}

// walk calls fn with every node and its parent.
func walk(t *testing.T, file string, run int64, fn func(n, parent trace.Node)) {
	t.Helper()
	st := tracetest.Open(t, file)
	var stack []trace.Node
	err := st.Subtree(context.Background(), run, 0, -1, func(n trace.Node) error {
		for len(stack) > 0 && n.ID >= stack[len(stack)-1].End() {
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 {
			fn(n, stack[len(stack)-1])
		}
		stack = append(stack, n)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

const kiwipeteFEN = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

// TestTraceEthereal: Ethereal traced at depth 13 searches exactly as the
// unpatched build, the trace holds its node count, passes check, has QS
// nodes exactly where Ethereal's qsearch is, and lines up with a Horizon run
// in diff and the viewer's compare mode.
func TestTraceEthereal(t *testing.T) {
	dir := builtEngines(t)
	const depth = 13
	best, nodes, pv, _ := uciSearch(t, nil, kiwipeteFEN, depth, filepath.Join(dir, "ethereal-plain"))
	file := filepath.Join(t.TempDir(), "ethereal.trace")
	r := foreignRunJSON(t, "trace", "--engine", filepath.Join(dir, "ethereal"), "--fen", kiwipeteFEN, "--depth", strconv.Itoa(depth),
		"-o", file, "--json")[0]
	if r.Status != "complete" || r.BestMove != best || r.StreamNodes != nodes || r.ReportedNodes != nodes || r.Nodes <= nodes {
		t.Fatalf("traced %+v; unpatched Ethereal: bestmove %s, %d nodes", r, best, nodes)
	}
	// Its singular tests and ProbCut loops are nested searches whose roots
	// Ethereal does not count: the run's nodes hold them over its count.
	ns, err := tracetest.Open(t, file).NestedSearches(context.Background(), r.Run)
	if err != nil {
		t.Fatal(err)
	}
	reasons := map[string]int64{}
	for _, n := range ns {
		reasons[n.Reason]++
		if !n.Uncounted || (n.Reason == "singular") != (n.Excluded != engine.NoMove) {
			t.Fatalf("nested search %+v: want uncounted, a move left out by singular tests alone", n)
		}
	}
	if int64(len(ns)) != r.Nodes-nodes || reasons["singular"] == 0 || reasons["probcut"] == 0 || len(reasons) != 2 {
		t.Errorf("%d nested searches %v, the run holds %d nodes over Ethereal's %d", len(ns), reasons, r.Nodes-nodes, nodes)
	}
	t.Logf("%d nodes, %d of them nested searches' roots %v", r.Nodes, len(ns), reasons)
	if !strings.HasPrefix(r.Engine, "Ethereal 12.00") {
		t.Errorf("run named %q, want Ethereal's id name", r.Engine)
	}
	checkClean(t, file, r.Run)
	// The run's PV, read from the tree's exact nodes, is the line Ethereal
	// printed: its triangular PV copies a child's line where the child
	// raised alpha, which is the chain of exact nodes; a TT hit in its
	// qsearch ends both lines alike.
	if got := runPV(t, file, r.Run); got != pv || strings.Count(pv, " ") < 8 {
		t.Errorf("the trace's PV %q, Ethereal's at depth %d %q", got, depth, pv)
	}

	// QS is where Ethereal's code puts it: search() hands a node to
	// qsearch() when depth <= 0 and the side to move is not in check, and
	// qsearch() only ever calls qsearch().
	var qs int64
	walk(t, file, r.Run, func(n, p trace.Node) {
		switch {
		case n.Kind == engine.KindQS:
			qs++
			if p.Kind != engine.KindQS && (n.Depth > 0 || n.InCheck) {
				t.Fatalf("QS root %d at depth %d, in check %v", n.ID, n.Depth, n.InCheck)
			}
		case p.Kind == engine.KindQS:
			t.Fatalf("node %d (%s) below QS node %d", n.ID, n.Kind, p.ID)
		case n.Kind != engine.KindRoot && n.Depth <= 0 && !n.InCheck:
			t.Fatalf("full-width node %d at depth %d not in check: Ethereal would have called qsearch", n.ID, n.Depth)
		}
	})
	if qs != r.QSNodes || qs == 0 {
		t.Errorf("%d QS nodes walked, the run says %d", qs, r.QSNodes)
	}

	// diff against Horizon's see variant, and the viewer's compare mode.
	if code, _, errOut := runCLI(t, "", "trace", "--fen", kiwipeteFEN, "--depth", "4", "--qs", "see", "-o", file, "--json"); code != 0 {
		t.Fatal(errOut)
	}
	var d struct {
		Matched int64 `json:"matched"`
		First   struct {
			Why *compare.Why `json:"why"`
		} `json:"first_difference"`
		Divergences compare.Divergences `json:"divergences"`
	}
	if out := cliJSON(t, &d, "diff", file, "--run", "1", "--run", "2", "--json"); d.Matched < 100 {
		t.Fatalf("diff matched %d nodes\n%s", d.Matched, out)
	}
	// Ethereal's run has no Horizon options: its side of each reason is
	// what its records show, and still every divergence names a rule.
	if w := d.First.Why; w == nil || !slices.ContainsFunc(compare.Rules(), func(r compare.RuleInfo) bool { return r.Name == w.Rule }) {
		t.Errorf("diff's first difference against Ethereal gives no rule of the table: %+v", w)
	} else {
		t.Logf("first difference against Ethereal: %s: %s", w.Rule, w.Text)
	}
	var shares float64
	for _, c := range d.Divergences.ByRule {
		shares += c.Share
	}
	if d.Divergences.Count == 0 || math.Abs(shares-1) > 1e-9 {
		t.Errorf("divergences %+v: shares sum to %v", d.Divergences, shares)
	}
	st := tracetest.Open(t, file)
	m, err := viewer.New(context.Background(), st, viewer.Options{Run: 1, File: "ethereal.trace"})
	if err != nil {
		t.Fatal(err)
	}
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	defer scr.Fini()
	scr.SetSize(170, 40)
	m.Draw(scr)
	// v follows the run's PV down the tree: every move of it is there.
	m.Handle(tcell.NewEventKey(tcell.KeyRune, 'v', tcell.ModNone))
	m.Draw(scr)
	scr.Show()
	if n := len(strings.Fields(pv)); !strings.Contains(screenText(scr), fmt.Sprintf("PV of iteration %d: %d of %d moves found", depth, n, n)) {
		t.Errorf("v does not find Ethereal's PV in the tree:\n%s", screenText(scr))
	}
	m.Handle(tcell.NewEventKey(tcell.KeyRune, '=', tcell.ModNone))
	m.Draw(scr)
	scr.Show()
	text := screenText(scr)
	if !strings.Contains(text, "Ethereal") || !strings.Contains(text, "see") {
		t.Fatalf("compare mode does not show both runs:\n%s", text)
	}
}

// TestTraceMate: Ethereal's and Fairy-Max's streams declare their score
// scales (ethereal.patch: MATE, MATE_IN_MAX; fairymax.patch: I, I - S + 1 in
// turns), so a mate in 2 prints as #2 in trace and runs, as each engine's
// own "score mate 2" says, and its root window [-MATE, MATE] or [-I, I] as
// [-∞, ∞]. The mated side's root reads -#N as Horizon's own engine says
// it: Fairy-Max reports its root's score before the delayed-loss bonus
// its other nodes add, and its root mated in one (-7999) printed -#0, its
// UCI adapter "mate -0"; the root's child, the mate in one, reads #1.
func TestTraceMate(t *testing.T) {
	dir := builtEngines(t)
	for _, pos := range []struct {
		fen         string
		depth       int
		best, score string // best "" when the mated side has equal moves
		san         string // the best move in trace's summary line
		child       string // the score of the root's best child
		fairyOnly   bool   // Ethereal's pruning finds a longer mate
	}{
		{"2r3k1/5ppp/8/8/8/8/3R1PPP/3R2K1 w - - 0 1", 6, "d2d8", "#2", "Rd8+ (d2d8)", "-#1", false}, // Rd8+ Rxd8 Rxd8#
		{"k7/8/1K6/8/8/8/8/7R b - - 0 1", 6, "a8b8", "-#1", "Kb8 (a8b8)", "#1", false},              // Kb8 Rh8#
		{"1k6/8/2K5/8/8/8/8/7R b - - 0 1", 6, "", "-#2", "", "#2", true},                            // Ka8 (or Ka7) Kb6 Kb8 Rh8#
	} {
		for _, tc := range []struct {
			plain, traced string
			want          trace.EngineDeclared
		}{
			{"ethereal-plain", "ethereal", trace.EngineDeclared{Mate: 32000, MateMin: 31872, MateUnit: "plies", Infinity: 32000}},
			// Fairy-Max counts a mate in the mated side's turns (its
			// delayed-loss bonus) and calls a score above I - S a mate.
			{"fairymax-plain-uci", "fairymax-uci", trace.EngineDeclared{Mate: 8000, MateMin: 7745, MateUnit: "turns", Infinity: 8000}},
		} {
			if pos.fairyOnly && tc.traced != "fairymax-uci" {
				continue
			}
			t.Run(tc.traced+" "+pos.score, func(t *testing.T) {
				testTraceMate(t, dir, pos.fen, pos.depth, pos.best, pos.score, pos.san, pos.child, tc.plain, tc.traced, tc.want)
			})
		}
	}
}

func testTraceMate(t *testing.T, dir, fen string, depth int, wantBest, wantScore, san, child, plain, traced string, want trace.EngineDeclared) {
	best, _, _, score := uciSearch(t, nil, fen, depth, filepath.Join(dir, plain))
	if score != wantScore || wantBest != "" && best != wantBest {
		t.Fatalf("unpatched %s: bestmove %s, score %s at depth %d; the test wants %s %s", plain, best, score, depth, wantBest, wantScore)
	}
	file := filepath.Join(t.TempDir(), "mate.trace")
	code, out, errOut := runCLI(t, "", "trace", "--engine", filepath.Join(dir, traced), "--fen", fen, "--depth", strconv.Itoa(depth), "-o", file)
	if code != 0 || !strings.Contains(out, "best "+san) || !strings.Contains(out, "  score "+wantScore+"\n") {
		t.Fatalf("trace --engine: exit %d, want best %s score %s:\n%s%s", code, san, wantScore, out, errOut)
	}
	// runs gives the best move in SAN alone (san is trace's "Rd8+ (d2d8)";
	// "" where the mated side has equal moves: any king move).
	runsBest := `K[a-h][1-8]`
	if san != "" {
		runsBest = regexp.QuoteMeta(strings.Fields(san)[0])
	}
	if _, out, _ := runCLI(t, "", "runs", file); !regexp.MustCompile(runsBest + ` +` + regexp.QuoteMeta(wantScore) + ` `).MatchString(out) {
		t.Errorf("runs does not print %s %s:\n%s", runsBest, wantScore, out)
	}
	st := tracetest.Open(t, file)
	ctx := context.Background()
	r, err := st.Run(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	root, err := st.Node(ctx, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	wf := r.WindowScores(root)
	if d, _ := r.Declared(); d.Mate != want.Mate || d.MateMin != want.MateMin || d.MateUnit != want.MateUnit ||
		d.Infinity != want.Infinity || wf.Text(root.Alpha) != "-∞" || wf.Text(root.Beta) != "∞" {
		t.Errorf("declared %+v; the first root's window [%d, %d] prints [%s, %s]", d, root.Alpha, root.Beta, wf.Text(root.Alpha), wf.Text(root.Beta))
	}
	// The last iteration's root and its best child, as the viewer and
	// export print them.
	roots, err := st.Children(ctx, 1, 0, trace.BySearch, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	last := roots[len(roots)-1]
	kids, err := st.Children(ctx, 1, last.ID, trace.BySearch, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	i := trace.PVChild(r, last, kids)
	if got := r.NodeScores(last).Text(last.Score); got != wantScore || i < 0 {
		t.Fatalf("the last root scores %d, printed %s, want %s; its PV child %d", last.Score, got, wantScore, i)
	}
	if k := kids[i]; r.NodeScores(k).Text(k.Score) != child {
		t.Errorf("the root's PV child %s scores %d, printed %s, want %s", k.Move.UCI(), k.Score, r.NodeScores(k).Text(k.Score), child)
	}
	checkClean(t, file, r.ID)
}

// runPV is the PV a trace file records for a run, as UCI moves.
func runPV(t *testing.T, file string, run int64) string {
	t.Helper()
	st := tracetest.Open(t, file)
	r, err := st.Run(context.Background(), run)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(r.PV, " ")
}

func screenText(s tcell.SimulationScreen) string {
	cells, w, h := s.GetContents()
	var b strings.Builder
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if r := cells[y*w+x].Runes; len(r) > 0 {
				b.WriteRune(r[0])
			} else {
				b.WriteByte(' ')
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// TestTraceSunfish: Sunfish, wrapped at run time, searches depth 5 exactly
// as it ships; the trace holds every bound() call it counts, passes check
// with its pseudo-legal moves, and its QS nodes are bound()'s depth == 0
// case.
func TestTraceSunfish(t *testing.T) {
	dir := builtEngines(t)
	const depth = 5
	fen := "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	best, nodes, pv, _ := uciSearch(t, nil, fen, depth, filepath.Join(dir, "sunfish-plain"))
	stream := filepath.Join(t.TempDir(), "sunfish.hzt")
	tbest, tnodes, _, _ := uciSearch(t, []string{"HORIZON_TRACE=" + stream}, fen, depth, filepath.Join(dir, "sunfish"))
	if tbest != best || tnodes != nodes {
		t.Fatalf("traced Sunfish: bestmove %s, %d nodes at depth %d; as it ships: %s, %d", tbest, tnodes, depth, best, nodes)
	}
	time.Sleep(200 * time.Millisecond) // the engine flushes its stream as go_loop returns
	file := filepath.Join(t.TempDir(), "sunfish.trace")
	r := foreignRunJSON(t, "import", stream, "-o", file, "--json")[0]
	if r.Status != "complete" || r.ReportedNodes != r.StreamNodes || r.StreamNodes < nodes || r.BestMove != best {
		t.Fatalf("imported %+v; Sunfish said bestmove %s, %d nodes at depth %d", r, best, nodes, depth)
	}
	checkClean(t, file, r.Run)
	// Sunfish's PV is a walk of its move table; its MTD search probes the
	// root with null windows only, so no node is exact and the tree holds
	// no line beyond the best move: the run's PV is that first move.
	if got := runPV(t, file, r.Run); got != best || !strings.HasPrefix(pv, got+" ") {
		t.Errorf("the trace's PV %q, Sunfish's at depth %d %q", got, depth, pv)
	}
	// Its stream declares MATE_UPPER (K + 10 Q, sunfish.py) as its
	// infinity: a king capture scores ∞, no mate value is declared.
	st := tracetest.Open(t, file)
	run, err := st.Run(context.Background(), r.Run)
	if err != nil {
		t.Fatal(err)
	}
	const mateUpper = 60000 + 10*929
	sf, captures := run.Scores(), 0
	if d, _ := run.Declared(); d.Infinity != mateUpper || d.Mate != 0 {
		t.Errorf("Sunfish declared %+v, want infinity %d (MATE_UPPER) and no mate value", d, mateUpper)
	}
	walk(t, file, r.Run, func(n, p trace.Node) {
		if n.Kind != engine.KindRoot && (n.Kind == engine.KindQS) != (n.Depth == 0) {
			t.Fatalf("node %d: kind %s at depth %d; Sunfish's QS is depth 0", n.ID, n.Kind, n.Depth)
		}
		if n.Score == mateUpper {
			captures++
			if sf.Text(n.Score) != "∞" {
				t.Fatalf("node %d: king capture %d prints %q", n.ID, n.Score, sf.Text(n.Score))
			}
		}
	})
	if captures == 0 {
		t.Errorf("no node scored MATE_UPPER (a king capture) in a pseudo-legal search of depth %d", depth)
	}

	// The same through trace --engine.
	file2 := filepath.Join(t.TempDir(), "sunfish2.trace")
	r2 := foreignRunJSON(t, "trace", "--engine", filepath.Join(dir, "sunfish"), "--fen", fen, "--depth", strconv.Itoa(depth), "-o", file2, "--json")[0]
	if r2.Status != "complete" || r2.StreamNodes != r2.ReportedNodes || r2.StreamNodes != r.StreamNodes || r2.BestMove != best {
		t.Fatalf("trace --engine %+v, import %+v", r2, r)
	}
}

// TestImportHelpExample runs import --help's first example as a user would
// (bash, ./ethereal an instrumented build) and imports what it wrote: the
// example once piped 'quit' right after 'go', and Ethereal quit before it
// searched, recording nothing. No command's help may feed an engine 'quit'
// straight after 'go'.
func TestImportHelpExample(t *testing.T) {
	goQuit := regexp.MustCompile(`go [^'"]*?\\nquit`)
	for _, c := range commands {
		if help := helpOf(t, c.name); goQuit.MatchString(help) {
			t.Errorf("%s --help feeds an engine quit right after go: %s", c.name, goQuit.FindString(help))
		}
	}
	example := regexp.MustCompile(`(?m)^  (.*HORIZON_TRACE=ethereal\.hzt \./ethereal); horizon import ethereal\.hzt -o e\.trace$`).
		FindStringSubmatch(helpOf(t, "import"))
	if example == nil {
		t.Fatalf("import --help has no Ethereal example:\n%s", helpOf(t, "import"))
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not on PATH")
	}
	engines := builtEngines(t)
	dir := t.TempDir()
	if err := os.Symlink(filepath.Join(engines, "ethereal"), filepath.Join(dir, "ethereal")); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bash, "-c", example[1])
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "bestmove") {
		t.Fatalf("%s: %v\n%s", example[1], err, out)
	}
	out := filepath.Join(dir, "e.trace")
	if code, _, errOut := runCLI(t, "", "import", filepath.Join(dir, "ethereal.hzt"), "-o", out); code != 0 {
		t.Fatalf("import: exit %d: %s", code, errOut)
	}
	st := tracetest.Open(t, out)
	runs, err := st.Runs(context.Background())
	if err != nil || len(runs) != 1 || runs[0].Depth != 8 || runs[0].Status != trace.StatusComplete || runs[0].Nodes < 100 {
		t.Fatalf("the example recorded %+v (%v), want one complete run of depth 8", runs, err)
	}
}

// TestTraceFairyMax: Fairy-Max, an xboard engine patched by
// examples/engines/fairymax.patch and driven through fairymax_uci.py,
// searches exactly as the unpatched build (every thinking line the same);
// its stream imports complete, from a file and through horizon trace
// --engine's fd:3 alike, passes check, and its run's best move, score and PV
// are the engine's. Its node count N counts passes of D()'s iteration loop,
// not calls (the patch's comment says why they cannot be equal), so N is
// checked against what the stream's calls can have made: at least one pass
// each but those resumed from the hash table (none), at most one per depth
// from 1 to max(n, 2), and the root's passes: one per iteration written,
// its ordering pass and the pass that plays the move.
func TestTraceFairyMax(t *testing.T) {
	dir := builtEngines(t)
	const depth = 5
	fens := []string{
		kiwipeteFEN, // castling both ways
		"rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 0 1", // Black to move
		"8/P5pk/8/8/8/8/6PK/8 w - - 0 1",                                 // a promotion
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",                      // e.p. captures in the tree
	}
	epd := filepath.Join(t.TempDir(), "fairymax.epd")
	var epdText strings.Builder
	imported := make([]traceJSON, len(fens))
	for i, fen := range fens {
		fmt.Fprintf(&epdText, "%s id p%d;\n", strings.Join(strings.Fields(fen)[:4], " "), i)
		best, infos := uciInfos(t, nil, fen, depth, filepath.Join(dir, "fairymax-plain-uci"))
		stream := filepath.Join(t.TempDir(), "fairymax.hzt")
		tbest, tinfos := uciInfos(t, []string{"HORIZON_TRACE=" + stream}, fen, depth, filepath.Join(dir, "fairymax-uci"))
		if tbest != best || !sameThinking(infos, tinfos) {
			t.Fatalf("%s: traced Fairy-Max: bestmove %s, %+v; as it ships: %s, %+v", fen, tbest, tinfos, best, infos)
		}
		last := infos[len(infos)-1]
		if last.Depth != depth || !last.Scored || last.Bound {
			t.Fatalf("%s: Fairy-Max's last thinking line %+v, want depth %d with a score", fen, last, depth)
		}
		file := filepath.Join(t.TempDir(), "fairymax.trace")
		r := foreignRunJSON(t, "import", stream, "-o", file, "--json")[0]
		imported[i] = r
		if r.Status != "complete" || r.BestMove != best || r.Depth != depth || r.Score != int64(last.Score) ||
			!strings.HasPrefix(r.Engine, "Fairy-Max 5.0b") {
			t.Fatalf("%s: imported %+v; Fairy-Max said bestmove %s, score %d at depth %d", fen, r, best, last.Score, depth)
		}
		checkClean(t, file, r.Run)
		// The run's PV is read from exact nodes whose score equals a child's
		// negated score; Fairy-Max's delayed-loss bonus ends it early.
		enginePV := strings.Join(last.PV, " ")
		if pv := runPV(t, file, r.Run); !strings.HasPrefix(pv, best) || !strings.HasPrefix(enginePV+" ", pv+" ") {
			t.Errorf("%s: the trace's PV %q, Fairy-Max's %q", fen, pv, enginePV)
		}

		var roots, passed, most int64
		walk(t, file, r.Run, func(n, p trace.Node) {
			switch {
			case n.Kind == engine.KindRoot:
				roots++
				return
			case n.Cause == engine.CauseTT || n.Cause == engine.CauseRepetition:
				if n.SubtreeSize != 1 {
					t.Fatalf("%s: node %d, resumed from the hash table (%s), has children", fen, n.ID, n.Cause)
				}
				return
			}
			passed++
			most += int64(max(n.Depth+2, 2))
			if (n.Kind == engine.KindQS) != (n.Depth <= 0) {
				t.Fatalf("%s: node %d: kind %s at depth %d; Fairy-Max's QS is depth <= 0", fen, n.ID, n.Kind, n.Depth)
			}
			// A QS pass starts from its stand pat and only ever raises it.
			if n.Kind == engine.KindQS && n.HasStandPat && n.Score < n.StandPat {
				t.Fatalf("%s: QS node %d scored %d below its stand pat %d", fen, n.ID, n.Score, n.StandPat)
			}
		})
		if roots != depth+1 {
			t.Fatalf("%s: %d roots, want one per iteration 0..%d", fen, roots, depth)
		}
		lo, hi := passed+roots+2, most+roots+2
		t.Logf("%s: %d calls in the stream (%d with no pass: hash table or repetition), N = %d passes, within [%d, %d]",
			fen, r.StreamNodes, r.StreamNodes-roots-passed, r.ReportedNodes, lo, hi)
		if r.ReportedNodes < lo || r.ReportedNodes > hi || r.ReportedNodes < last.Nodes {
			t.Errorf("%s: Fairy-Max counted %d passes; its %d calls can have made %d to %d (and its last thinking line said %d)",
				fen, r.ReportedNodes, r.StreamNodes, lo, hi, last.Nodes)
		}
	}

	// The same searches through horizon trace --engine (HORIZON_TRACE=fd:3
	// passed on by the adapter).
	if err := os.WriteFile(epd, []byte(epdText.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "fairymax-live.trace")
	var runs []traceJSON
	if out := cliJSON(t, &runs, "trace", "--engine", filepath.Join(dir, "fairymax-uci"), "--epd", epd, "--depth", strconv.Itoa(depth),
		"-o", file, "--json"); len(runs) != len(fens) {
		t.Fatalf("trace --engine: %d runs, want %d\n%s", len(runs), len(fens), out)
	}
	for i, r := range runs {
		w := imported[i]
		if r.Status != "complete" || r.StreamNodes != w.StreamNodes || r.ReportedNodes != w.ReportedNodes || r.BestMove != w.BestMove || r.Score != w.Score {
			t.Errorf("%s: trace --engine %+v, import %+v", fens[i], r, w)
		}
		checkClean(t, file, r.Run)
	}
}

// sameThinking says whether two engines' info lines say the same (their
// times aside).
func sameThinking(a, b []uci.Info) bool {
	if len(a) != len(b) || len(a) == 0 {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Depth != y.Depth || x.Nodes != y.Nodes || x.Score != y.Score || x.Scored != y.Scored || strings.Join(x.PV, " ") != strings.Join(y.PV, " ") {
			return false
		}
	}
	return true
}
