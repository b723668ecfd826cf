package export

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/horizonqs/horizon/compare"
	"github.com/horizonqs/horizon/trace"
)

// millionTrace returns a complete run of about 1.4 million nodes
// (Kiwipete, see QS, depth 7, TT on), recorded once into the benchmark
// cache directory (see bigTrace).
func millionTrace(b *testing.B) (*trace.Store, trace.Run) {
	b.Helper()
	return cachedTrace(b, "html-kiwipete-see-d7.trace", "see", 7, 1_000_000)
}

// BenchmarkHTML1M exports the whole run of a 1.4-million-node trace as a
// page at the default resolution and loads it in headless Chromium. It
// reports the page's size (goal: under 10 MB), the export's time, and two
// first-paint figures from navigation start, medians over b.N loads:
// first-contentful-paint from the browser's Paint Timing API, and the
// moment the page's script had drawn the icicle and the details (goal:
// under 1 s).
func BenchmarkHTML1M(b *testing.B) {
	st, run := millionTrace(b)
	ctx := context.Background()
	top, err := st.Node(ctx, run.ID, 0)
	if err != nil {
		b.Fatal(err)
	}
	page := filepath.Join(b.TempDir(), "million.html")
	f, err := os.Create(page)
	if err != nil {
		b.Fatal(err)
	}
	t0 := time.Now()
	if err := WriteHTML(ctx, st, run, top, HTMLOptions{Depth: -1}, f); err != nil {
		b.Fatal(err)
	}
	exportTime := time.Since(t0)
	f.Close()
	fi, err := os.Stat(page)
	if err != nil {
		b.Fatal(err)
	}
	br := newBrowser(b, 1600, 1000)
	var fcp, drawn []float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		br.open(b, page)
		var paint, done float64
		// Paint entries are recorded after the frame is presented: wait two.
		err := chromedp.Run(br.ctx, chromedp.Evaluate(`new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() =>
			r((performance.getEntriesByName('first-contentful-paint')[0] || {startTime: -1}).startTime))))`, &paint,
			func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
		if err != nil {
			b.Fatal(err)
		}
		br.eval(b, `horizon.drawnAt`, &done)
		fcp = append(fcp, paint)
		drawn = append(drawn, done)
	}
	b.StopTimer()
	if errs := br.consoleErrors(); len(errs) > 0 {
		b.Errorf("console errors: %v", errs)
	}
	b.ReportMetric(float64(top.SubtreeSize), "nodes")
	b.ReportMetric(float64(fi.Size())/1e6, "html-MB")
	b.ReportMetric(exportTime.Seconds()*1000, "export-ms")
	b.ReportMetric(median(fcp), "fcp-ms")
	b.ReportMetric(median(drawn), "drawn-ms")
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}

// BenchmarkDiffHTML builds the diff page of two whole runs of Kiwipete at
// depth 6, captures against see (TT on; about 0.4 and 0.3 million nodes,
// each recorded once into the benchmark cache directory): compare.Align's
// report and the walk of both trees pair by pair. It reports the nodes of
// both runs per second.
func BenchmarkDiffHTML(b *testing.B) {
	sa, ra := cachedTrace(b, "diff-kiwipete-captures-d6.trace", "captures", 6, 100_000)
	sb, rb := cachedTrace(b, "diff-kiwipete-see-d6.trace", "see", 6, 100_000)
	ctx := context.Background()
	a, c := compare.Side{Store: sa, Run: ra.ID}, compare.Side{Store: sb, Run: rb.ID}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := BuildDiffPage(ctx, a, c, HTMLOptions{Depth: -1}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(ra.Rows+rb.Rows)*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
}

// BenchmarkTreePage builds the page of the last iteration of Kiwipete's
// threshold search at depth 5 (the README's run: about 130,000 nodes
// under its last iteration) both ways in each iteration: its child lists
// read in one stream of the subtree (readLists, what pages of up to
// listedMaxRows rows do) and with a query for each drawn node. It reports
// each one's milliseconds and their ratio (streamed over queried).
func BenchmarkTreePage(b *testing.B) {
	st, run := cachedTrace(b, "page-kiwipete-threshold-d5.trace", "threshold", 5, 150_000)
	ctx := context.Background()
	r, top, err := Resolve(ctx, st, Selection{Run: run.ID, Node: -1})
	if err != nil {
		b.Fatal(err)
	}
	if top.SubtreeSize > listedMaxRows {
		b.Fatalf("the page's top has %d rows, over listedMaxRows", top.SubtreeSize)
	}
	build := func(maxRows int64) time.Duration {
		defer func(m int64) { listedMaxRows = m }(listedMaxRows)
		listedMaxRows = maxRows
		t0 := time.Now()
		if _, err := BuildPage(ctx, st, r, top, HTMLOptions{Depth: -1}); err != nil {
			b.Fatal(err)
		}
		return time.Since(t0)
	}
	var listed, queried []float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		listed = append(listed, build(listedMaxRows).Seconds()*1000)
		queried = append(queried, build(0).Seconds()*1000)
	}
	b.ReportMetric(float64(top.SubtreeSize), "nodes")
	b.ReportMetric(median(listed), "listed-ms")
	b.ReportMetric(median(queried), "queried-ms")
	b.ReportMetric(median(listed)/median(queried), "listed/queried")
}
