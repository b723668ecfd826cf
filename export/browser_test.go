package export

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/horizonqs/horizon/compare"
	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/foreign"
	"github.com/horizonqs/horizon/foreign/foreigntest"
	"github.com/horizonqs/horizon/internal/golden"
	"github.com/horizonqs/horizon/internal/longtest"
	"github.com/horizonqs/horizon/trace"
	"github.com/horizonqs/horizon/trace/tracetest"
)

// kiwipete is the README's sample position (horizon trace's default).
const kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

// chromium returns the path of a Chromium to drive, or skips the test:
// $HORIZON_CHROMIUM, else chromium (Debian's package) on the PATH.
func chromium(tb testing.TB) string {
	tb.Helper()
	if p := os.Getenv("HORIZON_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	tb.Skip("no Chromium found (install Debian's chromium package or set HORIZON_CHROMIUM): skipping the browser test")
	return ""
}

// browser is a headless Chromium with a fresh profile, logging console
// errors, uncaught exceptions and requests for anything but local files
// of the pages it loads.
type browser struct {
	ctx    context.Context
	mu     sync.Mutex
	errors []string
}

// newBrowser starts Chromium headless with flags that let it run as root
// on a machine without network: no sandbox, GPU, first-run, background
// networking, component updates or sync.
func newBrowser(tb testing.TB, width, height int) *browser {
	tb.Helper()
	exe := chromium(tb)
	// A fresh profile, removed by hand: Chromium's helper processes may
	// still write to it for a moment after the browser closed, which
	// would fail t.TempDir's cleanup.
	profile, err := os.MkdirTemp("", "horizon-chromium-")
	if err != nil {
		tb.Fatal(err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.UserDataDir(profile),
		chromedp.NoSandbox,
		chromedp.Headless,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.WindowSize(width, height),
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelB := chromedp.NewContext(actx)
	ctx, cancelC := context.WithTimeout(ctx, 90*time.Second)
	tb.Cleanup(func() {
		chromedp.Cancel(ctx) // closes the browser and waits for it
		cancelC()
		cancelB()
		cancelA()
		for i := 0; i < 20; i++ {
			if os.RemoveAll(profile) == nil {
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
	})
	b := &browser{ctx: ctx}
	chromedp.ListenTarget(ctx, func(ev any) {
		b.mu.Lock()
		defer b.mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.APITypeError || e.Type == runtime.APITypeAssert {
				var parts []string
				for _, a := range e.Args {
					parts = append(parts, string(a.Value)+a.Description)
				}
				b.errors = append(b.errors, "console."+string(e.Type)+": "+strings.Join(parts, " "))
			}
		case *runtime.EventExceptionThrown:
			b.errors = append(b.errors, "exception: "+e.ExceptionDetails.Error())
		case *network.EventRequestWillBeSent:
			// The page may load itself and nothing else.
			if u := e.Request.URL; !strings.HasPrefix(u, "file://") && u != "about:blank" {
				b.errors = append(b.errors, "request: "+u)
			}
		case *cdplog.EventEntryAdded:
			if e.Entry.Level == cdplog.LevelError {
				b.errors = append(b.errors, "log: "+e.Entry.Text+" "+e.Entry.URL)
			}
		}
	})
	if err := chromedp.Run(ctx, cdplog.Enable(), network.Enable()); err != nil {
		tb.Fatalf("start Chromium %s: %v", exe, err)
	}
	return b
}

func (b *browser) consoleErrors() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.errors...)
}

// openPage writes a page into the file path with write, and opens it.
func (b *browser) openPage(tb testing.TB, path string, write func(io.Writer) error) {
	tb.Helper()
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		tb.Fatal(err)
	}
	b.open(tb, path)
}

// open loads a page file (with an optional #fragment) and waits until its
// script has drawn.
func (b *browser) open(tb testing.TB, path string) {
	tb.Helper()
	path, frag, _ := strings.Cut(path, "#")
	abs, err := filepath.Abs(path)
	if err != nil {
		tb.Fatal(err)
	}
	if frag != "" {
		abs += "#" + frag
	}
	// A page whose script failed never gets ready: give up soon.
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Run(ctx, chromedp.Navigate("about:blank"), chromedp.Navigate("file://"+abs), chromedp.WaitReady(`body[data-ready="1"]`)); err != nil {
		tb.Fatalf("load %s: %v (console: %v)", path, err, b.consoleErrors())
	}
}

// eval evaluates a JavaScript expression into out.
func (b *browser) eval(tb testing.TB, expr string, out any) {
	tb.Helper()
	if err := chromedp.Run(b.ctx, chromedp.Evaluate(expr, out)); err != nil {
		tb.Fatalf("evaluate %s: %v", expr, err)
	}
}

type rect struct{ X, Y, W, H float64 }

// click clicks the middle of node id's rectangle on side si of the page.
func (b *browser) click(tb testing.TB, si int, id int64) {
	tb.Helper()
	r := b.rect(tb, si, id)
	if err := chromedp.Run(b.ctx, chromedp.MouseClickXY(r.X+r.W/2, r.Y+r.H/2)); err != nil {
		tb.Fatal(err)
	}
}

// rect returns node id's rectangle on side si, in viewport coordinates.
func (b *browser) rect(tb testing.TB, si int, id int64) rect {
	tb.Helper()
	var js string
	b.eval(tb, fmt.Sprintf("JSON.stringify(horizon.rect(%d, %d))", si, id), &js)
	var r *rect
	if err := json.Unmarshal([]byte(js), &r); err != nil || r == nil {
		var state string
		b.eval(tb, "JSON.stringify(horizon.state())", &state)
		tb.Fatalf("node %d is not drawn on side %d (page state %s)", id, si, state)
	}
	return *r
}

// hover moves the mouse over the middle of node id's rectangle.
func (b *browser) hover(tb testing.TB, si int, id int64) {
	tb.Helper()
	r := b.rect(tb, si, id)
	if err := chromedp.Run(b.ctx, chromedp.MouseEvent(input.MouseMoved, r.X+r.W/2, r.Y+r.H/2)); err != nil {
		tb.Fatal(err)
	}
}

// waitNode waits (a few seconds at most) for the details to show node id:
// Chromium delivers mouse moves with the next frame, not at once. It
// returns the node shown.
func (b *browser) waitNode(tb testing.TB, id int64) (string, bool) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
	defer cancel()
	if chromedp.Run(ctx, chromedp.WaitReady(fmt.Sprintf(`#details[data-node="%d"]`, id), chromedp.ByQuery)) == nil {
		return fmt.Sprint(id), true
	}
	return b.attr(tb, "#details", "data-node"), false
}

func (b *browser) screenshot(tb testing.TB, path string) {
	tb.Helper()
	var png []byte
	if err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot(&png)); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		tb.Fatal(err)
	}
	tb.Logf("screenshot: %s", path)
}

// text returns the text of the first element matching sel.
func (b *browser) text(tb testing.TB, sel string) string {
	tb.Helper()
	var s string
	if err := chromedp.Run(b.ctx, chromedp.Text(sel, &s, chromedp.ByQuery)); err != nil {
		tb.Fatalf("text of %s: %v", sel, err)
	}
	return s
}

func (b *browser) attr(tb testing.TB, sel, name string) string {
	tb.Helper()
	var s string
	var ok bool
	if err := chromedp.Run(b.ctx, chromedp.AttributeValue(sel, name, &s, &ok, chromedp.ByQuery)); err != nil {
		tb.Fatalf("attribute %s of %s: %v", name, sel, err)
	}
	return s
}

// boardPieces reads the board the page drew: square -> FEN piece letter.
func (b *browser) boardPieces(tb testing.TB) map[string]string {
	tb.Helper()
	var nodes []*cdp.Node
	if err := chromedp.Run(b.ctx, chromedp.Nodes(`#board [data-square]`, &nodes, chromedp.ByQueryAll)); err != nil {
		tb.Fatal(err)
	}
	got := map[string]string{}
	for _, n := range nodes {
		if p := n.AttributeValue("data-piece"); p != "" {
			got[n.AttributeValue("data-square")] = p
		}
	}
	if len(nodes) != 64 {
		tb.Errorf("the board has %d squares, want 64", len(nodes))
	}
	return got
}

// fenPieces reads a FEN's piece placement the way the engine does.
func fenPieces(tb testing.TB, fen string) map[string]string {
	tb.Helper()
	pos, err := engine.ParseFEN(fen)
	if err != nil {
		tb.Fatal(err)
	}
	want := map[string]string{}
	for sq := engine.Square(0); sq < 64; sq++ {
		if p := pos.PieceAt(sq); p != engine.NoPiece {
			want[sq.String()] = string(p.Letter())
		}
	}
	return want
}

// biggestChild returns the drawn child of node id with the biggest
// subtree that is not a root (so it has a move and a board of its own).
func biggestChild(tb testing.TB, st *trace.Store, run, id int64) trace.Node {
	tb.Helper()
	kids, err := st.Children(context.Background(), run, id, trace.BySize, 0, 1)
	if err != nil || len(kids) == 0 {
		tb.Fatalf("children of node %d: %v", id, err)
	}
	return kids[0]
}

// TestHTMLInBrowser exports a page of the README's sample trace (Kiwipete,
// depth 5, runs captures and threshold; the page is of run 2's last
// iteration), loads it in headless Chromium, clicks a node to
// zoom into it, and checks that the details and the board show that node,
// that the breadcrumbs lead back, that a hotspot and the move search zoom,
// and that the page logged no error. With -update it also writes the
// README's screenshot, docs/html.png.
// markedPath is node id's path as diff prints it: SAN, each move searched
// more than once under its parent marked with its visit (trace.VisitMark).
func markedPath(t *testing.T, st *trace.Store, run, id int64) string {
	t.Helper()
	ctx := context.Background()
	san, err := st.PathSAN(ctx, run, id)
	if err != nil {
		t.Fatal(err)
	}
	visits, searches, err := trace.Visits(ctx, st, run, id)
	if err != nil || len(visits) != len(san) || len(searches) != len(san) {
		t.Fatalf("visits %v, searches %v of path %v: %v", visits, searches, san, err)
	}
	return strings.Join(trace.MarkVisits(san, visits, searches), " ")
}

// pagePath is a drawn node's path as the page prints it, and the node the
// page's search reached with it.
type pagePath struct {
	ID        int64
	Iteration int
	Path      string
	Zoom      int64
	Msg       string // what the search said
}

// pagePaths reads the paths of up to max drawn nodes of side si (every
// k-th, below the top) as the page prints them (horizon.path), each
// searched with the page's search box, which zooms side si when the path
// reads back on it.
func (b *browser) pagePaths(t *testing.T, si, max int) []pagePath {
	t.Helper()
	var out []pagePath
	b.eval(t, fmt.Sprintf(`(() => {
		const n = horizon.data.sides[%d].nodes, out = [], step = Math.max(1, Math.floor(n.id.length / %d));
		const input = document.getElementById('search-input'), form = document.getElementById('search');
		for (let i = 1; i < n.id.length; i += step) {
			if (n.kind[i] === 0) continue; // the run node: no path names it
			const path = horizon.path(%[1]d, n.id[i]);
			input.value = path;
			form.requestSubmit();
			out.push({ID: n.id[i], Iteration: n.iteration[i], Path: path, Zoom: horizon.state()[%[1]d].zoom, Msg: document.getElementById('search-msg').textContent});
		}
		return out; })()`, si, max), &out)
	if len(out) == 0 {
		t.Fatalf("side %d draws no node below its top", si)
	}
	return out
}

// findsBack reads place, a node's place as the page prints it, back as
// export --path and view --path read it (trace.ParsePlace, then Resolve:
// from the iteration it names, or the one the run reports) and reports
// whether it reaches node id.
func findsBack(t *testing.T, st *trace.Store, run, id int64, place string) bool {
	t.Helper()
	root, moves, err := trace.ParsePlace(place)
	if err != nil {
		t.Errorf("place %q does not parse: %v", place, err)
		return false
	}
	sel := Selection{Run: run, Node: -1, Path: moves}
	if root.It != trace.NoIteration {
		sel.Root = &root
	}
	_, n, err := Resolve(context.Background(), st, sel)
	return err == nil && n.ID == id
}

func TestHTMLInBrowser(t *testing.T) {
	longtest.Skip(t, "a browser test of many pages")
	b := newBrowser(t, 1600, 1000)
	dir := t.TempDir()
	st, _ := recordedTrace(t, "kiwi.trace", kiwipete, 5, true, "captures", "threshold") // run 1, as in the README
	ctx := context.Background()
	run, top := resolve(t, st, Selection{Node: -1})
	page := filepath.Join(dir, "tree.html")
	b.openPage(t, page, func(w io.Writer) error { return WriteHTML(ctx, st, run, top, HTMLOptions{Depth: -1}, w) })
	// The best move as the commands' text names it: SAN, then UCI (it
	// said the UCI alone).
	for _, want := range []string{"FEN " + run.FEN, "best " + run.BestSAN() + " (" + run.BestMove + ") "} {
		if header := b.text(t, "header"); run.BestSAN() == "" || !strings.Contains(header, want) {
			t.Errorf("the page's header lacks %q:\n%s", want, header)
		}
	}

	// Two levels down the biggest subtrees: click the child, then its child.
	n1 := biggestChild(t, st, run.ID, top.ID)
	b.click(t, 0, n1.ID)
	n2 := biggestChild(t, st, run.ID, n1.ID)
	b.click(t, 0, n2.ID)
	var state []struct{ Zoom, Selected int64 }
	b.eval(t, "horizon.state()", &state)
	if len(state) != 1 || state[0].Zoom != n2.ID || state[0].Selected != n2.ID {
		t.Fatalf("after clicking node %d the page is at %+v", n2.ID, state)
	}
	if got := b.attr(t, "#details", "data-node"); got != fmt.Sprint(n2.ID) {
		t.Errorf("details show node %s, want %d", got, n2.ID)
	}
	details := b.text(t, "#details")
	san, err := st.PathSAN(ctx, run.ID, n2.ID)
	if err != nil {
		t.Fatal(err)
	}
	window := "[" + n2.Alpha.String() + ", " + n2.Beta.String() + "]"
	for _, want := range []string{
		strings.Join(san, " "),
		fmt.Sprintf("id %d", n2.ID),
		window,
		n2.Score.String() + " " + n2.Bound.String(),
		run.MovesText(n2),
		engine.Commas(n2.SubtreeSize) + " nodes",
	} {
		if !strings.Contains(details, want) {
			t.Errorf("details of node %d lack %q:\n%s", n2.ID, want, details)
		}
	}
	pos, err := st.Position(ctx, run.ID, n2.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.attr(t, "#board", "data-fen"); got != pos.FEN() {
		t.Errorf("board FEN %q, want %q", got, pos.FEN())
	}
	got, want := b.boardPieces(t), fenPieces(t, pos.FEN())
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("board shows %v, want %v", got, want)
	}
	crumbs := b.text(t, "#crumbs")
	if !strings.Contains(crumbs, san[len(san)-1]) || !strings.Contains(crumbs, san[len(san)-2]) {
		t.Errorf("breadcrumbs %q lack the path %v", crumbs, san)
	}
	// Hovering a child shows its details; leaving the chart shows the
	// selected node's again.
	n3 := biggestChild(t, st, run.ID, n2.ID)
	b.hover(t, 0, n3.ID)
	if got, ok := b.waitNode(t, n3.ID); !ok {
		t.Errorf("hovering node %d shows node %s", n3.ID, got)
	}
	if err := chromedp.Run(b.ctx, chromedp.MouseEvent(input.MouseMoved, 5, 5)); err != nil {
		t.Fatal(err)
	}
	if got, ok := b.waitNode(t, n2.ID); !ok {
		t.Errorf("after the mouse left the chart the details show node %s, want the selected %d", got, n2.ID)
	}
	b.screenshot(t, filepath.Join(dir, "zoomed.png"))
	if golden.Update() {
		b.screenshot(t, filepath.Join("..", "docs", "html.png"))
	}

	// The breadcrumb of the top zooms back out.
	if err := chromedp.Run(b.ctx, chromedp.Click(`#crumbs button[data-index="0"]`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	b.eval(t, "horizon.state()", &state)
	if state[0].Zoom != top.ID {
		t.Errorf("the first breadcrumb zoomed to %d, want %d", state[0].Zoom, top.ID)
	}

	// The first QS hotspot zooms to the biggest QS tree.
	hs, err := st.Hotspots(ctx, run.ID, trace.HotspotBySize, 50)
	if err != nil {
		t.Fatal(err)
	}
	var biggest trace.Node
	for _, h := range hs {
		if top.Contains(h.Node.ID) {
			biggest = h.Node
			break
		}
	}
	if err := chromedp.Run(b.ctx, chromedp.Click(`#hotspots-qs-0 button`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	b.eval(t, "horizon.state()", &state)
	if state[0].Zoom != biggest.ID {
		t.Errorf("the first QS hotspot zoomed to %d, want the biggest QS tree %d", state[0].Zoom, biggest.ID)
	}

	// The search follows a move path from the top.
	if err := chromedp.Run(b.ctx,
		chromedp.SetValue(`#search-input`, strings.Join(san[len(san)-2:], " "), chromedp.ByQuery),
		chromedp.Click(`#search button`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	b.eval(t, "horizon.state()", &state)
	if state[0].Zoom != n2.ID {
		t.Errorf("searching %v zoomed to %d, want %d (message %q)", san[len(san)-2:], state[0].Zoom, n2.ID, b.text(t, "#search-msg"))
	}
	if err := chromedp.Run(b.ctx,
		chromedp.SetValue(`#search-input`, "Qxh8", chromedp.ByQuery),
		chromedp.Click(`#search button`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	if m := b.text(t, "#search-msg"); !strings.Contains(m, "Qxh8") {
		t.Errorf("searching an absent move says %q", m)
	}
	// A path pasted with move numbers and commas, as the viewer's details
	// and PGN write it, reads as trace.SplitPath reads it.
	numbered := "1. " + san[len(san)-2] + ", " + san[len(san)-1]
	for _, text := range []string{numbered, "12...Nf6 13.O-O\t0-0", " e4,,e5\n1.", "12 e4 1.2.e5"} {
		var got []string
		b.eval(t, fmt.Sprintf("horizon.splitPath(%q)", text), &got)
		if want := trace.SplitPath(text); !slices.Equal(got, want) {
			t.Errorf("the page splits %q into %q, trace.SplitPath into %q", text, got, want)
		}
	}
	// A place's iteration reads as trace.SplitIteration reads it.
	for _, text := range []string{"iteration 3: e4", " Iteration 0 :(root)", "iteration 2·1: e4", "iteration 2 · 2 : e4", "iteration 2.1: e4", "iteration 2#3: e4", "iteration 2.x: e4", "iteration 2·0: e4", "iteration 2·x: e4", "iteration x: e4", "iteration -1: e4", "iterations 2: e4", "e4 e5", "iteration 2", "it 2: e4"} {
		var got struct {
			It, Visit int
			Rest      string
			Err       string
		}
		b.eval(t, fmt.Sprintf("(() => { const r = horizon.splitIteration(%q); return {It: r.it ?? -1, Visit: r.visit ?? 0, Rest: r.rest ?? '', Err: r.err ?? ''}; })()", text), &got)
		root, rest, err := trace.SplitIteration(text)
		if err != nil {
			rest = ""
		}
		if got.It != root.It || got.Visit != root.Visit || got.Rest != rest || (got.Err != "") != (err != nil) {
			t.Errorf("the page reads %q as %+v, trace.SplitIteration as %+v, %q, %v", text, got, root, rest, err)
		}
	}
	// A move's visit mark reads as trace.SplitVisit reads it, the ASCII
	// marks too (dxe6.2, dxe6#2: most keyboards cannot type the dot).
	for _, text := range []string{"dxe6", "dxe6·2", "dxe6.2", "Qxf7#3", "Qxf7#", "Qxf7##2", "dxe6.x", ".2", "dxe6.0", "dxe6·x", "e4·2·3"} {
		var got struct {
			Move  string
			Visit int
			Err   string
		}
		b.eval(t, fmt.Sprintf("(() => { const r = horizon.splitVisit(%q); return {Move: r.move, Visit: r.visit, Err: r.err ?? ''}; })()", text), &got)
		move, visit, err := trace.SplitVisit(text)
		if (got.Err != "") != (err != nil) || err == nil && (got.Move != move || got.Visit != visit) {
			t.Errorf("the page reads %q as %+v, trace.SplitVisit as %q, %d, %v", text, got, move, visit, err)
		}
	}
	if err := chromedp.Run(b.ctx,
		chromedp.SetValue(`#search-input`, numbered, chromedp.ByQuery),
		chromedp.Click(`#search button`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	b.eval(t, "horizon.state()", &state)
	if state[0].Zoom != n2.ID {
		t.Errorf("searching %q zoomed to %d, want %d (message %q)", numbered, state[0].Zoom, n2.ID, b.text(t, "#search-msg"))
	}
	// A visit mark that is no visit number is refused as trace.SplitVisit
	// refuses it; the page read "Nf3·x" and "Nf3·0" as the last search.
	// A path with no move in it names no node, as trace.PathMoves says.
	if err := chromedp.Run(b.ctx,
		chromedp.SetValue(`#search-input`, "1.", chromedp.ByQuery),
		chromedp.Click(`#search button`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	if _, goErr := trace.PathMoves("1."); goErr == nil || !strings.Contains(b.text(t, "#search-msg"), "names no move") {
		t.Errorf("searching %q says %q; trace.PathMoves says %v", "1.", b.text(t, "#search-msg"), goErr)
	}
	for _, mark := range []string{"x", "0", "2·3", ""} {
		text := san[len(san)-2] + trace.VisitSep + mark
		if err := chromedp.Run(b.ctx,
			chromedp.SetValue(`#search-input`, text, chromedp.ByQuery),
			chromedp.Click(`#search button`, chromedp.ByQuery)); err != nil {
			t.Fatal(err)
		}
		_, _, goErr := trace.SplitVisit(text)
		if m := b.text(t, "#search-msg"); goErr == nil || !strings.Contains(m, "is no visit number") {
			t.Errorf("searching %q says %q; trace.SplitVisit says %v", text, m, goErr)
		}
	}
	// The address names the zoomed node; loading it opens the page there.
	var hash string
	b.eval(t, "location.hash", &hash)
	if hash != fmt.Sprintf("#node=%d", n2.ID) {
		t.Errorf("address hash %q after zooming to %d", hash, n2.ID)
	}
	// A node under a re-searched move (a PVS re-search): its path is
	// marked with the visit as diff marks it, and searching that path
	// finds it, not the first search's node.
	var again []int64
	b.eval(t, "horizon.data.sides[0].nodes.id.filter((id, i) => horizon.data.sides[0].nodes.visit[i] > 1)", &again)
	if len(again) == 0 {
		t.Fatal("the page draws no re-searched move (the test needs one)")
	}
	marked := markedPath(t, st, run.ID, again[len(again)-1])
	b.eval(t, fmt.Sprintf("horizon.zoom(0, %d)", again[len(again)-1]), nil)
	if d := b.text(t, "#details"); !strings.Contains(d, marked) {
		t.Errorf("details of node %d lack its path %q:\n%s", again[len(again)-1], marked, d)
	}
	if c := strings.ReplaceAll(b.text(t, "#crumbs"), " › ", " "); !strings.HasSuffix(c, " "+marked) {
		t.Errorf("breadcrumbs of node %d %q do not end with its path %q", again[len(again)-1], c, marked)
	}
	b.eval(t, "horizon.zoom(0, "+fmt.Sprint(top.ID)+")", nil)
	if err := chromedp.Run(b.ctx,
		chromedp.SetValue(`#search-input`, marked, chromedp.ByQuery),
		chromedp.Click(`#search button`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	b.eval(t, "horizon.state()", &state)
	if state[0].Zoom != again[len(again)-1] {
		t.Errorf("searching %q zoomed to %d, want %d (message %q)", marked, state[0].Zoom, again[len(again)-1], b.text(t, "#search-msg"))
	}
	// Every drawn path reads back to its node, on the page and through
	// export --path: a first search with later ones prints dxe6·1, for
	// bare reads as the last search.
	firsts := 0
	for _, p := range b.pagePaths(t, 0, 300) {
		if p.Zoom != p.ID {
			t.Errorf("the page prints node %d's path as %q, which its search reads as node %d (%s)", p.ID, p.Path, p.Zoom, p.Msg)
		}
		if !findsBack(t, st, run.ID, p.ID, p.Path) {
			t.Errorf("the page prints node %d's path as %q, which export --path does not read back to it", p.ID, p.Path)
		}
		if strings.Contains(p.Path, trace.VisitSep+"1") {
			firsts++
		}
	}
	if firsts == 0 {
		t.Errorf("no drawn path marks a first search ·1 (the test needs one)")
	}
	b.open(t, page+fmt.Sprintf("#node=%d", n1.ID))
	b.eval(t, "horizon.state()", &state)
	if state[0].Zoom != n1.ID {
		t.Errorf("the page opened at #node=%d is zoomed to %d", n1.ID, state[0].Zoom)
	}
	// The biggest QS tree's entry: the end of its path after an ellipsis,
	// its share of the run (as hotspots gives it), not of the top node.
	var entry string
	b.eval(t, "document.querySelector('#hotspots-qs-0 button').textContent", &entry)
	if !strings.HasPrefix(entry, "… ") || !strings.Contains(entry, "of the run)") {
		t.Errorf("the biggest QS tree's entry %q: want a path after '… ' and a share 'of the run'", entry)
	}
	// The run's QS share reads as runs, stats and the viewer print it
	// (the page said "95%" where they say 94.8%).
	if head, want := b.text(t, "header .sub"), fmt.Sprintf(", %.1f%% QS; ", 100*run.QSShare()); !strings.Contains(head, want) {
		t.Errorf("the header %q does not say %q", head, want)
	}
	// The search box's example is a line the page holds (it was "Qg6
	// hxg6", illegal on most pages): searching it zooms, with no message.
	var found struct {
		Placeholder, Said string
		Zoom              int64
	}
	b.eval(t, `(() => {
		const i = document.getElementById('search-input'), m = i.placeholder.match(/e\.g\. (.+) \(SAN or UCI\)$/);
		if (!m) return {Placeholder: i.placeholder};
		i.value = m[1];
		document.getElementById('search').requestSubmit();
		return {Placeholder: i.placeholder, Said: document.getElementById('search-msg').textContent, Zoom: horizon.state()[0].Zoom};
	})()`, &found)
	if found.Said != "" || found.Zoom == top.ID || !strings.Contains(found.Placeholder, "e.g. ") {
		t.Errorf("the search box's example: placeholder %q, searching it says %q and zooms to %d", found.Placeholder, found.Said, found.Zoom)
	}
	// A node the page does not hold (the previous iteration's last) is
	// said, with the command that makes its page. The run is named: on a
	// page of run 1, "--node N" alone made export's default run, the
	// file's last (2), draw its own node N.
	first, firstTop := resolve(t, st, Selection{Run: 1, Node: -1})
	firstPage := filepath.Join(dir, "run1.html")
	b.openPage(t, firstPage, func(w io.Writer) error { return WriteHTML(ctx, st, first, firstTop, HTMLOptions{Depth: 2}, w) })
	b.open(t, firstPage+fmt.Sprintf("#node=%d", firstTop.ID-1))
	var said string
	b.eval(t, "document.getElementById('search-msg').textContent", &said)
	if want := fmt.Sprintf("node %d is not on this page (horizon export kiwi.trace --run 1 --node %d -o node-%d.html)",
		firstTop.ID-1, firstTop.ID-1, firstTop.ID-1); said != want {
		t.Errorf("the page opened at a node it does not hold says %q, want %q", said, want)
	}
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors: %v", errs)
	}

	// A threshold QS root passes over its moves once a level: the page
	// words its counts as the viewer does (trace.Run.MovesText), passes
	// and all; it once printed "N generated, M searched" with M > N.
	thr, _ := resolve(t, st, Selection{Run: 2, Node: -1})
	passes := tracetest.FirstNode(t, st, thr.ID, "threshold QS node that searched more moves than it generated",
		func(n trace.Node) bool { return n.Kind == engine.KindQS && n.Searched > n.Generated })
	b.openPage(t, filepath.Join(dir, "passes.html"), func(w io.Writer) error { return WriteHTML(ctx, st, thr, passes, HTMLOptions{Depth: -1}, w) })
	words := thr.MovesText(passes)
	if details := b.text(t, "#details"); !strings.Contains(words, "counted over all its passes") || !strings.Contains(details, words) {
		t.Errorf("details of threshold node %d lack %q:\n%s", passes.ID, words, details)
	}
	// A run of an EPD record is named by the record's id before its FEN.
	epdRun := run
	epdRun.EPDID = "kiwi.1"
	b.openPage(t, filepath.Join(dir, "epd.html"), func(w io.Writer) error { return WriteHTML(ctx, st, epdRun, top, HTMLOptions{Depth: 1}, w) })
	if header, want := b.text(t, "header"), "kiwi.1: FEN "+run.FEN; !strings.Contains(header, want) {
		t.Errorf("the page of an EPD record's run: header lacks %q:\n%s", want, header)
	}

	// A share short of the whole never reads 100%: a node holding all of
	// its parent's subtree but the parent itself read "100% of its parent".
	var prev trace.Node
	only := tracetest.FirstNode(t, st, run.ID, "node of 300 or more nodes under a parent of one more", func(n trace.Node) bool {
		hit := n.ID > top.ID && n.SubtreeSize >= 300 && n.Parent == prev.ID && prev.SubtreeSize == n.SubtreeSize+1
		prev = n
		return hit
	})
	b.openPage(t, page, func(w io.Writer) error { return WriteHTML(ctx, st, run, top, HTMLOptions{Depth: -1}, w) })
	b.eval(t, fmt.Sprintf("horizon.zoom(0, %d)", only.ID), nil)
	if details := b.text(t, "#details"); !strings.Contains(details, "99.9% of its parent") {
		t.Errorf("node %d, %d nodes of its parent's %d, reads:\n%s", only.ID, only.SubtreeSize, only.SubtreeSize+1, details)
	}
	// The page words a share as engine.SharePercent does, as the commands
	// and the viewer say a hotspot's share of the run (one tree was 0.1%
	// in hotspots, 0.06% in the viewer and 0.061% on the page).
	for _, c := range [][2]int64{{0, 5}, {1, 10_000_000}, {940, 1547550}, {276, 10000}, {994, 10000}, {192, 1000}, {940, 941}, {99999, 100000}, {5, 5}} {
		var got string
		b.eval(t, fmt.Sprintf("horizon.share(%d, %d)", c[0], c[1]), &got)
		if want := engine.SharePercent(float64(c[0]) / float64(c[1])); got != want {
			t.Errorf("the page words %d of %d as %q, engine.SharePercent %q", c[0], c[1], got, want)
		}
	}
}

// TestHTMLAspirationRootsInBrowser: on the page of a run that searched
// iteration 2 twice (an aspiration re-search), every drawn node's place
// names its root's visit where the iteration has another root
// ("iteration 2·1: e4 e5"), and reads back to it on the page (its search
// took the last root) and through export --path; so do a diff page's
// divergences against a run that searched it once.
func TestHTMLAspirationRootsInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test: skipped with -short")
	}
	b := newBrowser(t, 1600, 1000)
	st, _ := foreigntest.Import(t, foreigntest.AspirationStream(true), foreign.Options{})
	ctx := context.Background()
	if _, err := foreign.Import(ctx, st, strings.NewReader(foreigntest.AspirationStream(false)), foreign.Options{}); err != nil {
		t.Fatal(err)
	}
	run, top := resolve(t, st, Selection{Run: 1, Node: 0})
	b.openPage(t, filepath.Join(t.TempDir(), "asp.html"), func(w io.Writer) error { return WriteHTML(ctx, st, run, top, HTMLOptions{Depth: -1}, w) })
	first := 0
	for _, p := range b.pagePaths(t, 0, 100) {
		if p.Zoom != p.ID || !findsBack(t, st, run.ID, p.ID, p.Path) {
			t.Errorf("the page prints node %d's place as %q, which its search reads as node %d (%s), or --path does not read back", p.ID, p.Path, p.Zoom, p.Msg)
		}
		if strings.HasPrefix(p.Path, "iteration 2"+trace.VisitSep+"1: ") {
			first++
		}
	}
	if first == 0 {
		t.Error("no drawn place names iteration 2's first root (the test needs one)")
	}
	// An iteration the run lacks is said (the search threw on it).
	var said string
	b.eval(t, `(() => { const i = document.getElementById('search-input'); i.value = 'iteration 7: e4';
		document.getElementById('search').requestSubmit(); return document.getElementById('search-msg').textContent; })()`, &said)
	if !strings.Contains(said, "no drawn root of iteration 7") {
		t.Errorf("searching an iteration the run lacks says %q", said)
	}
	b.openPage(t, filepath.Join(t.TempDir(), "aspdiff.html"), func(w io.Writer) error {
		return WriteDiffHTML(ctx, compare.Side{Store: st, Run: 1}, compare.Side{Store: st, Run: 2}, HTMLOptions{Depth: -1}, w)
	})
	for si, run := range []int64{1, 2} {
		for _, p := range b.pagePaths(t, si, 100) {
			if !findsBack(t, st, run, p.ID, p.Path) {
				t.Errorf("the diff page prints run %d node %d's place as %q, which --path does not read back", run, p.ID, p.Path)
			}
		}
	}
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors: %v", errs)
	}
}

// TestHTMLDiffInBrowser loads a diff page of two runs, clicks a node of A
// and checks that both sides zoom to the aligned nodes and the details
// show both, with no console error.
func TestHTMLDiffInBrowser(t *testing.T) {
	longtest.Skip(t, "a browser test of many pages")
	b := newBrowser(t, 1600, 1000)
	dir := t.TempDir()
	st, _ := recordedTrace(t, "two.trace", fixedFEN, 3, false, "captures", "see")
	ctx := context.Background()
	a, bs := compare.Side{Store: st, Run: 1}, compare.Side{Store: st, Run: 2}
	page := filepath.Join(dir, "diff.html")
	b.openPage(t, page, func(w io.Writer) error { return WriteDiffHTML(ctx, a, bs, HTMLOptions{Depth: -1}, w) })

	// The last iteration, then its biggest child, in A.
	it := biggestChild(t, st, 1, 0)
	kids, err := st.Children(ctx, 1, 0, trace.BySearch, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	it = kids[len(kids)-1]
	b.click(t, 0, it.ID)
	n := biggestChild(t, st, 1, it.ID)
	b.click(t, 0, n.ID)
	want, ok, err := compare.Counterpart(ctx, a, n.ID, bs)
	if err != nil || !ok {
		t.Fatalf("no counterpart of A node %d in B: %v", n.ID, err)
	}
	var state []struct{ Zoom, Selected int64 }
	b.eval(t, "horizon.state()", &state)
	if len(state) != 2 || state[0].Zoom != n.ID || state[1].Zoom != want.ID {
		t.Fatalf("after clicking A node %d the page is at %+v, want B at %d", n.ID, state, want.ID)
	}
	details := b.text(t, "#details")
	for _, s := range []string{fmt.Sprintf("id %d", n.ID), fmt.Sprintf("id %d", want.ID), engine.Commas(n.SubtreeSize) + " nodes", engine.Commas(want.SubtreeSize) + " nodes"} {
		if !strings.Contains(details, s) {
			t.Errorf("details lack %q:\n%s", s, details)
		}
	}
	pos, err := st.Position(ctx, 1, n.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.attr(t, "#board", "data-fen"); got != pos.FEN() {
		t.Errorf("board FEN %q, want %q", got, pos.FEN())
	}
	// A node only A has: its details say B lacks it.
	var onlyA int64 = -1
	b.eval(t, `(() => { const n = horizon.data.sides[0].nodes; let best = -1;
		for (let i = 0; i < n.id.length; i++) if (n.match[i] < 0 && (best < 0 || n.size[i] > n.size[best])) best = i;
		return best < 0 ? -1 : n.id[best]; })()`, &onlyA)
	if onlyA < 0 {
		t.Errorf("the page marks no node as only in A")
	} else {
		if _, ok, err := compare.Counterpart(ctx, a, onlyA, bs); err != nil || ok {
			t.Errorf("the page marks A node %d as only in A, but compare finds it in B (%v)", onlyA, err)
		}
		b.eval(t, fmt.Sprintf("horizon.zoom(0, %d)", onlyA), nil)
		if d := b.text(t, "#details"); !strings.Contains(d, "not in B") || !strings.Contains(d, fmt.Sprintf("id %d", onlyA)) {
			t.Errorf("details of A node %d, only in A:\n%s", onlyA, d)
		}
	}
	// A divergence zooms. Its place, as diff prints it, reads back to
	// its node on the page (it named its iteration, which the page's
	// search read as a move) and through export --path.
	var items []struct {
		Text, Msg string
		A, B      int64
		Zoom      []int64
	}
	b.eval(t, `(() => {
		const input = document.getElementById('search-input'), form = document.getElementById('search'), out = [];
		horizon.data.diff.items.forEach((it, k) => {
			const text = document.querySelectorAll('#divergences button')[k].firstChild.textContent, id = (si, i) => i < 0 ? -1 : horizon.data.sides[si].nodes.id[i];
			input.value = text;
			form.requestSubmit();
			out.push({Text: text, A: id(0, it.a), B: id(1, it.b), Zoom: horizon.state().map(s => s.zoom), Msg: document.getElementById('search-msg').textContent});
		});
		return out; })()`, &items)
	if len(items) < 2 {
		t.Errorf("%d divergences listed: the test needs two", len(items))
	}
	for _, it := range items {
		if it.A >= 0 && (it.Zoom[0] != it.A || !findsBack(t, st, 1, it.A, it.Text)) || it.A < 0 && it.B >= 0 && it.Zoom[1] != it.B {
			t.Errorf("divergence %q (A %d, B %d): its search zooms to %v (%s)", it.Text, it.A, it.B, it.Zoom, it.Msg)
		}
		if it.B >= 0 && !findsBack(t, st, 2, it.B, it.Text) {
			t.Errorf("divergence %q does not read back to B's node %d through --path", it.Text, it.B)
		}
	}
	if err := chromedp.Run(b.ctx, chromedp.Click(`#divergences li:nth-child(2) button`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	// Every drawn node's place reads back to it in its run, on the page
	// and through export --path, and to the other run's counterpart where
	// that is drawn: the marks count the searches either run made
	// (compare.Pair). A place names its iteration: a bare path of an
	// earlier iteration's node read into the last iteration.
	earlier := 0
	for si, run := range []int64{1, 2} {
		var match []int
		b.eval(t, fmt.Sprintf("horizon.data.sides[%d].nodes.match", si), &match)
		var ids [2][]int64
		b.eval(t, "horizon.data.sides[0].nodes.id", &ids[0])
		b.eval(t, "horizon.data.sides[1].nodes.id", &ids[1])
		at := map[int64]int{}
		for i, id := range ids[si] {
			at[id] = i
		}
		for _, p := range b.pagePaths(t, si, 150) {
			if p.Iteration != it.Iteration {
				earlier++
			}
			if p.Zoom != p.ID {
				t.Errorf("the page prints run %d node %d's place as %q, which its search reads as node %d (%s)", run, p.ID, p.Path, p.Zoom, p.Msg)
			}
			if !findsBack(t, st, run, p.ID, p.Path) {
				t.Errorf("the page prints run %d node %d's path as %q, which export --path does not read back to it", run, p.ID, p.Path)
			}
			if j := match[at[p.ID]]; j >= 0 && !findsBack(t, st, 3-run, ids[1-si][j], p.Path) {
				t.Errorf("the page prints run %d node %d's path as %q, which does not read back to its counterpart %d in run %d", run, p.ID, p.Path, ids[1-si][j], 3-run)
			}
		}
	}
	if earlier == 0 {
		t.Errorf("no drawn node of an earlier iteration was searched (the test needs one)")
	}
	b.screenshot(t, filepath.Join(dir, "diff.png"))
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors: %v", errs)
	}
	var data struct {
		Kind string `json:"kind"`
	}
	var raw string
	b.eval(t, "JSON.stringify({kind: horizon.data.kind})", &raw)
	if err := json.Unmarshal([]byte(raw), &data); err != nil || data.Kind != "diff" {
		t.Errorf("page data kind %q (%v)", data.Kind, err)
	}
}
