package export

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/horizonqs/horizon/export/render"
	"github.com/horizonqs/horizon/internal/cputime"
	"github.com/horizonqs/horizon/trace"
)

// BenchmarkExportSVG2000 exports a graph of 2,000 drawn nodes (shown
// nodes plus summaries) to SVG: building the graph from the trace, writing
// DOT and laying it out with Graphviz. Goal: under 1 s.
func BenchmarkExportSVG2000(b *testing.B) {
	st, _ := fixedTrace(b)
	ctx := context.Background()
	run, top := resolve(b, st, Selection{Node: -1})
	// The biggest budget whose graph draws at most 2,000 nodes.
	lo, hi := 1, 2000
	for lo < hi {
		mid := (lo + hi + 1) / 2
		g, err := Build(ctx, st, run, top, Options{MaxNodes: mid, Depth: -1})
		if err != nil {
			b.Fatal(err)
		}
		if len(g.Nodes)+len(g.Summaries) <= 2000 {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	benchExportSVG(b, st, run, top, lo)
}

// BenchmarkExportSVGBudget2000 exports the graph of a 2,000-node budget:
// 2,000 shown nodes and the summaries of their collapsed children.
func BenchmarkExportSVGBudget2000(b *testing.B) {
	st, _ := fixedTrace(b)
	run, top := resolve(b, st, Selection{Node: -1})
	benchExportSVG(b, st, run, top, 2000)
}

func benchExportSVG(b *testing.B, st *trace.Store, run trace.Run, top trace.Node, budget int) {
	ctx := context.Background()
	// Start Graphviz once outside the timing: a process pays that once.
	if err := render.Render(ctx, []byte("digraph{a}"), render.SVG, io.Discard); err != nil {
		b.Fatal(err)
	}
	var buildTime, renderTime time.Duration
	var svgBytes, drawn int
	c0 := cputime.Used()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		g, err := Build(ctx, st, run, top, Options{MaxNodes: budget, Depth: -1})
		if err != nil {
			b.Fatal(err)
		}
		var dot, svg bytes.Buffer
		if err := g.WriteDOT(&dot); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if err := render.Render(ctx, dot.Bytes(), render.SVG, &svg); err != nil {
			b.Fatal(err)
		}
		buildTime += t1.Sub(t0)
		renderTime += time.Since(t1)
		svgBytes, drawn = svg.Len(), len(g.Nodes)+len(g.Summaries)
	}
	b.ReportMetric(float64(drawn), "drawn-nodes")
	b.ReportMetric(float64(buildTime.Milliseconds())/float64(b.N), "build-ms/op")
	b.ReportMetric(float64(renderTime.Milliseconds())/float64(b.N), "render-ms/op")
	b.ReportMetric((cputime.Used()-c0).Seconds()*1000/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(svgBytes)/1e6, "svg-MB")
}

// bigTrace returns a trace of about 6.9 million nodes (Kiwipete, threshold
// QS, depth 8, TT on), recorded once into a cache directory outside the
// repository: $HORIZON_BENCH_CACHE, else the user cache directory. Only
// benchmarks call it; recording takes a minute or so.
func bigTrace(b *testing.B) (*trace.Store, trace.Run) {
	b.Helper()
	return cachedTrace(b, "export-kiwipete-threshold-d8.trace", "threshold", 8, 5_000_000)
}

// cachedTrace returns the complete one-run trace of a Kiwipete search
// (variant, depth, TT on) cached under name in the benchmark cache
// directory, recording it first when the cache holds no complete run of
// minRows rows or more.
func cachedTrace(b *testing.B, name, variant string, depth int, minRows int64) (*trace.Store, trace.Run) {
	b.Helper()
	dir := os.Getenv("HORIZON_BENCH_CACHE")
	if dir == "" {
		c, err := os.UserCacheDir()
		if err != nil {
			b.Skip("no cache directory for the benchmark trace: set HORIZON_BENCH_CACHE")
		}
		dir = filepath.Join(c, "horizon-bench")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(dir, name)
	open := func() (*trace.Store, trace.Run, bool) {
		st, err := trace.OpenReadOnly(path)
		if err != nil {
			return nil, trace.Run{}, false
		}
		runs, err := st.Runs(context.Background())
		if err != nil || len(runs) != 1 || runs[0].Status != trace.StatusComplete || runs[0].Rows < minRows {
			st.Close()
			return nil, trace.Run{}, false
		}
		// A file an older build recorded has no subtree figures, which
		// the summaries add up: it is recorded anew.
		if figs, err := st.StoredSubtreeCounts(context.Background(), runs[0].ID); err != nil || len(figs) == 0 {
			st.Close()
			return nil, trace.Run{}, false
		}
		return st, runs[0], true
	}
	if st, run, ok := open(); ok {
		return st, run
	}
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(path + suffix)
	}
	b.Logf("recording the benchmark trace into %s (once)", path)
	t0 := time.Now()
	recordSearchTT(b, path, kiwipete, variant, depth)
	b.Logf("recorded in %v", time.Since(t0))
	st, run, ok := open()
	if !ok {
		b.Fatalf("%s: the recorded trace is not a complete run of %d rows or more", path, minRows)
	}
	return st, run
}

// peakHeap samples the Go heap while fn runs and returns its peak.
func peakHeap(fn func()) (peak uint64) {
	var mu sync.Mutex
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var ms runtime.MemStats
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			runtime.ReadMemStats(&ms)
			mu.Lock()
			peak = max(peak, ms.HeapInuse)
			mu.Unlock()
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	fn()
	close(done)
	wg.Wait()
	return peak
}

// BenchmarkIcicle5M draws the icicle of a whole run of about 6.9 million
// nodes. Goal: under 10 s and 200 MB. rows-read is how many rows the chart
// read: the children of the nodes it draws, not the whole subtree.
func BenchmarkIcicle5M(b *testing.B) {
	st, run := bigTrace(b)
	defer st.Close()
	ctx := context.Background()
	top, err := st.Node(ctx, run.ID, 0)
	if err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	var size int
	var peak uint64
	var read int64
	c0 := cputime.Used()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var out bytes.Buffer
		p := peakHeap(func() {
			if read, err = writeIcicle(ctx, st, run, top, IcicleOptions{Depth: -1}, &out); err != nil {
				b.Fatal(err)
			}
		})
		peak = max(peak, p)
		size = out.Len()
	}
	b.ReportMetric((cputime.Used()-c0).Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(top.SubtreeSize), "nodes")
	b.ReportMetric(float64(read), "rows-read")
	b.ReportMetric(float64(peak)/1e6, "peak-heap-MB")
	b.ReportMetric(float64(size)/1e6, "svg-MB")
}

// BenchmarkGraphBigIteration builds the default 300-node graph of the big
// trace's last iteration: the summaries' QS figures need one pass over its
// millions of rows.
func BenchmarkGraphBigIteration(b *testing.B) {
	st, run := bigTrace(b)
	defer st.Close()
	ctx := context.Background()
	_, top, err := Resolve(ctx, st, Selection{Run: run.ID, Node: -1})
	if err != nil {
		b.Fatal(err)
	}
	var peak uint64
	c0 := cputime.Used()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		peak = max(peak, peakHeap(func() {
			if _, err := Build(ctx, st, run, top, Options{Depth: -1}); err != nil {
				b.Fatal(err)
			}
		}))
	}
	b.ReportMetric((cputime.Used()-c0).Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(top.SubtreeSize), "nodes")
	b.ReportMetric(float64(peak)/1e6, "peak-heap-MB")
}

// BenchmarkGraphBudgets exports a whole run of about 188,000 rows
// (Kiwipete, threshold QS, depth 5, TT on) as JSON and as DOT with a big
// budget and with every node: the in-memory build and the writers, which
// queried each shown node's children, parsed the run's options for each
// node's label and encoded 140 MB at once before.
func BenchmarkGraphBudgets(b *testing.B) {
	st, run := cachedTrace(b, "export-kiwipete-threshold-d5.trace", "threshold", 5, 150_000)
	defer st.Close()
	ctx := context.Background()
	top, err := st.Node(ctx, run.ID, 0)
	if err != nil {
		b.Fatal(err)
	}
	for _, budget := range []int{300, 20_000, int(top.SubtreeSize)} {
		for _, format := range []string{"json", "dot"} {
			b.Run(fmt.Sprintf("%s-%d", format, budget), func(b *testing.B) {
				var size int
				c0 := cputime.Used()
				for i := 0; i < b.N; i++ {
					g, err := Build(ctx, st, run, top, Options{MaxNodes: budget, Depth: -1})
					if err != nil {
						b.Fatal(err)
					}
					var out bytes.Buffer
					if format == "json" {
						err = g.WriteJSON(&out)
					} else {
						err = g.WriteDOT(&out)
					}
					if err != nil {
						b.Fatal(err)
					}
					size = out.Len()
				}
				b.ReportMetric((cputime.Used()-c0).Seconds()/float64(b.N), "cpu-s/op")
				b.ReportMetric(float64(top.SubtreeSize), "nodes")
				b.ReportMetric(float64(size)/1e6, "MB")
			})
		}
	}
}
