package viewer

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
	"github.com/horizonqs/horizon/trace/tracetest"
)

// The benchmarks need a big trace: at least benchNodes nodes in one run.
// It is recorded once (Kiwipete, captures, TT off, depth 8 stopped at
// benchNodes nodes; about a minute) and kept in the temp directory for the
// next runs; -bench-trace names another file (its last run is used).
const benchNodes = 6_000_000

var benchTrace = flag.String("bench-trace", "", "trace file for the viewer benchmarks (default: a cached 6M-node trace in the temp directory)")

func benchPath(b *testing.B) (string, int64) {
	b.Helper()
	if *benchTrace != "" {
		return *benchTrace, lastRun(b, *benchTrace)
	}
	path := filepath.Join(os.TempDir(), fmt.Sprintf("horizon-viewer-bench-s%d-%d.trace", trace.SchemaVersion(), benchNodes))
	if _, err := os.Stat(path); err == nil {
		return path, lastRun(b, path)
	}
	b.Logf("recording a %d-node trace into %s (once; later runs reuse it)", benchNodes, path)
	tmp := path + ".partial"
	os.Remove(tmp)
	st, err := trace.Create(tmp)
	if err != nil {
		b.Fatal(err)
	}
	o, _ := engine.VariantOptions("captures")
	o.TT = false
	rec, err := st.NewRecorder(context.Background(), trace.RunInfo{FEN: kiwipete, Variant: "captures", Options: o.String()}, trace.RecordOptions{})
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	res := engine.NewSearcher(o).Search(rec.Context(), engine.MustParseFEN(kiwipete), engine.Limits{Depth: 8, Nodes: benchNodes}, rec)
	if err := rec.Finish(trace.Result{BestMove: res.BestMove, Score: res.Score, PV: res.PV, Depth: res.Depth}); err != nil {
		b.Fatal(err)
	}
	if err := st.Close(); err != nil {
		b.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		b.Fatal(err)
	}
	b.Logf("recorded %d nodes in %v", res.Stats.Nodes, time.Since(start).Round(time.Second))
	return path, lastRun(b, path)
}

func lastRun(b *testing.B, path string) int64 {
	b.Helper()
	runs := tracetest.Runs(b, path)
	if len(runs) == 0 {
		b.Fatalf("%s: no runs", path)
	}
	r := runs[len(runs)-1]
	if *benchTrace == "" && r.Rows < benchNodes*9/10 {
		b.Fatalf("%s: run %d has %d rows; delete the file to record it again", path, r.ID, r.Rows)
	}
	return r.ID
}

func newBenchScreen(b *testing.B) tcell.SimulationScreen {
	s := tcell.NewSimulationScreen("UTF-8")
	if err := s.Init(); err != nil {
		b.Fatal(err)
	}
	s.SetSize(120, 40)
	return s
}

// BenchmarkFirstScreen measures opening the file, reading the run and
// drawing the first screen (tree, board and details): what a user waits
// for after 'horizon view FILE'. Target: under 100 ms.
func BenchmarkFirstScreen(b *testing.B) {
	path, run := benchPath(b)
	s := newBenchScreen(b)
	defer s.Fini()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		st, err := trace.OpenReadOnly(path)
		if err != nil {
			b.Fatal(err)
		}
		m, err := New(context.Background(), st, Options{Run: run})
		if err != nil {
			b.Fatal(err)
		}
		m.Draw(s)
		s.Show()
		b.StopTimer()
		st.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/screen")
}

// sampleNodes picks n nodes with children by random descents from the
// last iteration's root, so every depth and kind is represented.
func sampleNodes(b *testing.B, st *trace.Store, run int64, n int) []trace.Node {
	b.Helper()
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	// Children through a tree: the viewer's own reader.
	t, err := newTree(ctx, st, run)
	if err != nil {
		b.Fatal(err)
	}
	iters, err := t.children(0, trace.BySearch, 0, 0)
	if err != nil {
		b.Fatal(err)
	}
	var out []trace.Node
	for len(out) < n {
		cur := iters[len(iters)-1-rng.IntN(min(2, len(iters)))]
		steps := 1 + rng.IntN(12)
		for s := 0; s < steps && cur.SubtreeSize > 1; s++ {
			kids, err := t.children(cur.ID, trace.BySearch, 0, 0)
			if err != nil {
				b.Fatal(err)
			}
			next := kids[rng.IntN(len(kids))]
			if next.SubtreeSize <= 1 {
				break
			}
			cur = next
		}
		if cur.SubtreeSize > 1 && cur.Kind != engine.KindRoot {
			out = append(out, cur)
		}
	}
	return out
}

// BenchmarkOpenNode measures opening a node: expand (its children counted
// and their first page read) and redraw, and going to a node by id from a
// closed tree (the path read, every ancestor opened) then opening it.
// Target: under 5 ms.
func BenchmarkOpenNode(b *testing.B) {
	path, run := benchPath(b)
	st, err := trace.OpenReadOnly(path)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	nodes := sampleNodes(b, st, run, 200)
	s := newBenchScreen(b)
	defer s.Fini()
	m, err := New(context.Background(), st, Options{Run: run})
	if err != nil {
		b.Fatal(err)
	}
	m.Draw(s)
	t := m.cur().t
	// open reveals node i's row (timed or not), opens it and draws.
	open := func(b *testing.B, i int, timeReveal bool) {
		b.StopTimer()
		t.collapseAll()
		if timeReveal {
			b.StartTimer()
		}
		if err := m.reveal(nodes[i%len(nodes)].ID); err != nil {
			b.Fatal(err)
		}
		if !timeReveal {
			m.afterChange()
			m.Draw(s)
			b.StartTimer()
		}
		if err := t.expandRow(t.cursor); err != nil {
			b.Fatal(err)
		}
		m.afterChange()
		m.Draw(s)
		s.Show()
	}

	b.Run("expand", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			open(b, i, false)
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/open")
	})
	b.Run("goto", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			open(b, i, true)
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/goto")
	})
	b.Run("hotspot", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			m.Handle(tcell.NewEventKey(tcell.KeyRune, 'n', tcell.ModNone))
			m.Draw(s)
			s.Show()
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/hotspot")
	})
}

// BenchmarkWalkMemory browses the big trace in a fresh process (so the
// recording above does not count) and reports its memory afterwards: Go
// heap in use, memory obtained from the OS by Go, and the resident set of
// the whole process (Go, SQLite's caches, the binary). Target: under 50 MB.
func BenchmarkWalkMemory(b *testing.B) {
	path, run := benchPath(b)
	// One walk gives the figures; the loop only satisfies the benchmark
	// protocol, so -benchtime does not multiply a walk of several seconds.
	for i := 0; i < min(b.N, 1); i++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestWalkHelper$", "-test.count=1")
		cmd.Env = append(os.Environ(), "HORIZON_VIEWER_WALK="+path, "HORIZON_VIEWER_WALK_RUN="+strconv.FormatInt(run, 10))
		out, err := cmd.CombinedOutput()
		if err != nil {
			b.Fatalf("walk helper: %v\n%s", err, out)
		}
		sc := bufio.NewScanner(strings.NewReader(string(out)))
		found := false
		for sc.Scan() {
			line := sc.Text()
			if !strings.HasPrefix(line, "WALK ") {
				continue
			}
			found = true
			for _, f := range strings.Fields(line)[1:] {
				k, v, _ := strings.Cut(f, "=")
				x, _ := strconv.ParseFloat(v, 64)
				b.ReportMetric(x, k)
			}
		}
		if !found {
			b.Fatalf("walk helper printed no figures:\n%s", out)
		}
	}
}

// TestWalkHelper is BenchmarkWalkMemory's child process; it does nothing
// in a normal test run.
func TestWalkHelper(t *testing.T) {
	path := os.Getenv("HORIZON_VIEWER_WALK")
	if path == "" {
		t.Skip("helper process for BenchmarkWalkMemory")
	}
	run, _ := strconv.ParseInt(os.Getenv("HORIZON_VIEWER_WALK_RUN"), 10, 64)
	st := tracetest.Open(t, path)
	m, err := New(context.Background(), st, Options{Run: run})
	if err != nil {
		t.Fatal(err)
	}
	s := tcell.NewSimulationScreen("UTF-8")
	if err := s.Init(); err != nil {
		t.Fatal(err)
	}
	s.SetSize(160, 50)
	key := func(r rune) {
		m.Handle(tcell.NewEventKey(tcell.KeyRune, r, tcell.ModNone))
		m.Draw(s)
		s.Show()
	}
	special := func(k tcell.Key) {
		m.Handle(tcell.NewEventKey(k, 0, tcell.ModNone))
		m.Draw(s)
		s.Show()
	}
	m.Draw(s)
	before := memFigures()
	// Walk: every hotspot, the heaviest line below each, a few screens of
	// rows around each; then sorting and filtering over all that is open.
	start := time.Now()
	for i := 0; i < 100; i++ {
		key('n')
		key('l')
		for j := 0; j < 5; j++ {
			special(tcell.KeyPgDn)
		}
		if i%10 == 0 {
			key('*')
		}
	}
	key('s')
	key('m')
	for _, r := range "1000" {
		key(r)
	}
	special(tcell.KeyEnter)
	key('s')
	key('v')
	for i := 0; i < 200; i++ {
		special(tcell.KeyPgDn)
	}
	elapsed := time.Since(start)
	after := memFigures()
	fmt.Printf("WALK heap_inuse_MB=%.1f go_sys_MB=%.1f rss_MB=%.1f rss_peak_MB=%.1f rss_start_MB=%.1f open_nodes=%d walk_s=%.1f\n",
		after.heap, after.sys, after.rss, after.hwm, before.rss, len(m.cur().t.open), elapsed.Seconds())
}

type mem struct{ heap, sys, rss, hwm float64 }

func memFigures() mem {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	out := mem{heap: float64(ms.HeapInuse) / 1e6, sys: float64(ms.Sys) / 1e6}
	if data, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			var kb float64
			if n, _ := fmt.Sscanf(line, "VmRSS: %f kB", &kb); n == 1 {
				out.rss = kb / 1e3
			}
			if n, _ := fmt.Sscanf(line, "VmHWM: %f kB", &kb); n == 1 {
				out.hwm = kb / 1e3
			}
		}
	}
	return out
}
