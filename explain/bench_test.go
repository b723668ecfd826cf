package explain

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/internal/cputime"
	"github.com/horizonqs/horizon/trace/tracetest"
)

// BenchmarkExplainMillion explains a subtree of a million nodes or more
// (the whole run of Kiwipete searched by mvv-lva without PVS to depth 6, hash table
// off): the goal is under 5 s a subtree, in memory bounded by the tree's
// depth and the fixed table of positions. It reports the rows a second,
// the heap the walk added at its peak (sampled) and the heap in use after
// it, and the CPU seconds a subtree.
//
//	go test ./explain -run '^$' -bench ExplainMillion -benchtime 1x
func BenchmarkExplainMillion(b *testing.B) {
	st, _ := tracetest.CreateTrace(b)
	run := tracetest.RecordSearch(b, st, tracetest.Kiwipete, options(b, "mvv-lva", "pvs=false"), engine.Limits{Depth: 6})
	ctx := context.Background()
	r, err := st.Run(ctx, run)
	if err != nil {
		b.Fatal(err)
	}
	top, err := st.Node(ctx, run, 0)
	if err != nil {
		b.Fatal(err)
	}
	if top.Nodes() < 1_000_000 {
		b.Fatalf("the run has %d nodes, want a million or more", top.Nodes())
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	// The peak heap while the walks run, sampled: what the walk holds
	// (the table of positions, the open frames, SQLite's rows in Go) on
	// top of what the recorded trace left.
	done, peak := make(chan struct{}), make(chan uint64)
	go func() {
		var hi uint64
		var ms runtime.MemStats
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			runtime.ReadMemStats(&ms)
			hi = max(hi, ms.HeapInuse)
			select {
			case <-done:
				peak <- hi
				return
			case <-tick.C:
			}
		}
	}()
	b.ResetTimer()
	cpu := cputime.Used()
	var res *Subtree
	for range b.N {
		if res, err = Explain(ctx, st, r, top); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	cpu = cputime.Used() - cpu
	close(done)
	hi := <-peak
	b.ReportMetric(float64(hi-min(base, hi))/(1<<20), "peak-heap-MiB")
	runtime.GC()
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(res.Nodes)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	b.ReportMetric(float64(res.Nodes), "rows")
	// On a machine shared with other work the wall clock swings with the
	// load; the CPU time a subtree takes much less.
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heap-MiB")
}
