package export

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/horizonqs/horizon/compare"
	"github.com/horizonqs/horizon/explain"
	"github.com/horizonqs/horizon/foreign"
	"github.com/horizonqs/horizon/foreign/foreigntest"
	"github.com/horizonqs/horizon/internal/longtest"
	"github.com/horizonqs/horizon/trace"
)

// hostile texts: each would run code (setting window.pwned) or add an
// element if the page put it into its markup unescaped.
var hostile = []string{
	`<img src=x onerror="window.pwned='img'">`,
	`</script><script>window.pwned='script'</script>`,
	`"><svg onload="window.pwned='svg'">`,
	`' onmouseover='window.pwned=1' x='`,
}

// injected reports what a hostile text got into the page: window.pwned
// set, an element the page never makes (img, svg, iframe, object, embed,
// a second script), or an attribute that runs code.
func (b *browser) injected(tb testing.TB) string {
	tb.Helper()
	var got string
	b.eval(tb, `(() => {
		if (window.pwned !== undefined) return 'window.pwned = ' + window.pwned;
		const odd = document.querySelectorAll('img, svg, iframe, object, embed, link, meta[http-equiv="refresh"]');
		if (odd.length) return odd.length + ' unexpected element(s): ' + odd[0].outerHTML;
		if (document.scripts.length !== 2) return document.scripts.length + ' script elements';
		for (const e of document.querySelectorAll('*')) for (const a of e.attributes) {
			if (/^on/i.test(a.name) || /^\s*javascript:/i.test(a.value)) return e.tagName + ' has ' + a.name + '=' + a.value;
		}
		return '';
	})()`, &got)
	return got
}

// TestHTMLInjectionInBrowser gives every free text a page shows hostile
// markup: a run's variant, engine, EPD id and recording filter, the trace
// file's name, a foreign stream's engine name, both sides of a diff page,
// the search box and the address's fragment. Each must show as text and
// nothing may run or be added to the page.
func TestHTMLInjectionInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test: skipped with -short")
	}
	b := newBrowser(t, 1366, 768)
	ctx := context.Background()
	dir := t.TempDir()
	// A file named with markup (no slash: a file name cannot hold one).
	st, _ := recordedTrace(t, hostile[0]+".trace", fixedFEN, 2, false, "captures", "see")
	for k, evil := range hostile {
		run, top := resolve(t, st, Selection{Run: 1, Node: 0})
		// A hand-edited file may hold anything in its text columns.
		run.Variant, run.Engine, run.EPDID, run.Filter, run.BestMove = "v"+evil, "e"+evil, "id"+evil, "f"+evil, "b"+evil
		page := filepath.Join(dir, fmt.Sprintf("tree%d.html", k))
		b.openPage(t, page, func(w io.Writer) error { return WriteHTML(ctx, st, run, top, HTMLOptions{Depth: 3}, w) })
		if got := b.injected(t); got != "" {
			t.Errorf("payload %q: %s", evil, got)
		}
		head := b.text(t, "header")
		for _, want := range []string{"id" + evil, "f" + evil, "b" + evil, hostile[0] + ".trace"} {
			if !strings.Contains(head, want) {
				t.Errorf("the header does not show %q as text:\n%s", want, head)
			}
		}
		// The search box and its message.
		if err := chromedp.Run(b.ctx, chromedp.SetValue(`#search-input`, evil, chromedp.ByQuery), chromedp.Click(`#search button`, chromedp.ByQuery)); err != nil {
			t.Fatal(err)
		}
		if got := b.injected(t); got != "" {
			t.Errorf("search %q: %s", evil, got)
		}
		// The address's fragment, as a pasted link gives it.
		b.open(t, page+"#node="+url.PathEscape(evil))
		if got := b.injected(t); got != "" {
			t.Errorf("fragment %q: %s", evil, got)
		}
		if m := b.text(t, "#search-msg"); !strings.Contains(m, "not a node") {
			t.Errorf("the page opened at #node=%s says %q", evil, m)
		}
	}
	// A diff page of the two runs, each named with markup.
	a, bs := compare.Side{Store: st, Run: 1}, compare.Side{Store: st, Run: 2}
	d, err := BuildDiffPage(ctx, a, bs, HTMLOptions{Depth: 3})
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range d.Sides {
		s.Label += hostile[i]
		s.Run.Variant += hostile[2+i]
		s.Run.PositionLine += hostile[i]
	}
	d.Title += hostile[1]
	b.openPage(t, filepath.Join(dir, "diff.html"), d.WritePage)
	if got := b.injected(t); got != "" {
		t.Errorf("diff page: %s", got)
	}
	// A foreign stream whose engine names itself with markup.
	stream := strings.Replace(foreigntest.AspirationStream(false), "engine Asp", "engine "+hostile[0]+hostile[2], 1)
	fs, _ := foreigntest.Import(t, stream, foreign.Options{})
	run, top := resolve(t, fs, Selection{Run: 1, Node: 0})
	if !strings.Contains(run.Label(), hostile[0]) {
		t.Fatalf("the stream's engine name did not reach the run: %q", run.Label())
	}
	b.openPage(t, filepath.Join(dir, "foreign.html"), func(w io.Writer) error { return WriteHTML(ctx, fs, run, top, HTMLOptions{Depth: -1}, w) })
	if got := b.injected(t); got != "" {
		t.Errorf("foreign stream: %s", got)
	}
	if head := b.text(t, "header"); !strings.Contains(head, hostile[0]+hostile[2]) {
		t.Errorf("the header does not show the engine's name as text:\n%s", head)
	}
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors: %v", errs)
	}
}

// TestHTMLPolicyInBrowser: the page's policy allows its own script and
// styles by their hashes, not 'unsafe-inline', so that markup an escaping
// bug let into the page could run nothing: an inline handler, an inline
// script and a style attribute planted in the written page are refused,
// and the page still draws.
func TestHTMLPolicyInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test: skipped with -short")
	}
	if strings.Contains(pageCSP, "unsafe") || !strings.Contains(pageCSP, "script-src 'sha256-") || !strings.Contains(pageCSP, "style-src 'sha256-") {
		t.Fatalf("the page's policy is %q: want its script and styles by hash, nothing unsafe", pageCSP)
	}
	st, _ := fixedTrace(t)
	ctx := context.Background()
	run, top := resolve(t, st, Selection{Node: 0})
	var page bytes.Buffer
	if err := WriteHTML(ctx, st, run, top, HTMLOptions{Depth: 2}, &page); err != nil {
		t.Fatal(err)
	}
	// What an escaping bug would let through.
	planted := `<img id="planted" src="data:," onerror="window.pwned='img'" style="position:fixed;top:0;left:0;width:100px;height:100px">` +
		`<script>window.pwned='script'</script><div id="styled" style="display:none">x</div>`
	p := strings.Replace(page.String(), "<body>\n", "<body>\n"+planted, 1)
	path := filepath.Join(t.TempDir(), "planted.html")
	if err := os.WriteFile(path, []byte(p), 0o644); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, 1366, 768)
	b.open(t, path)
	var got struct {
		Pwned   string
		Display string
	}
	b.eval(t, `({Pwned: String(window.pwned ?? ''), Display: getComputedStyle(document.getElementById('styled')).display})`, &got)
	if got.Pwned != "" {
		t.Errorf("planted code ran: window.pwned = %q", got.Pwned)
	}
	if got.Display == "none" {
		t.Errorf("a planted style attribute applied")
	}
	// The browser said what it refused; nothing else went wrong.
	refused := 0
	for _, e := range b.consoleErrors() {
		if strings.Contains(e, "Content Security Policy") {
			refused++
			continue
		}
		t.Errorf("console error: %s", e)
	}
	if refused == 0 {
		t.Errorf("the browser reported no refusal of the planted code")
	}
	// The page's own script ran and drew.
	var nodes int
	b.eval(t, `horizon.data.sides[0].nodes.id.length`, &nodes)
	if nodes < 2 {
		t.Errorf("the page drew %d nodes", nodes)
	}
}

// box is an element's place on the page, in viewport coordinates.
type box struct {
	Name                     string
	Left, Top, Right, Bottom float64
}

// layout reads the places of the page's parts: header, bar, each chart,
// the node details, the board and the lists; the viewport's size and the
// document's width.
func (b *browser) layout(tb testing.TB) (parts []box, width, height, docWidth float64) {
	tb.Helper()
	var out struct {
		Parts                  []box
		Width, Height, DocWide float64
	}
	b.eval(tb, `(() => {
		const parts = [];
		const add = (name, e) => { if (!e) return; const r = e.getBoundingClientRect(); if (r.width && r.height) parts.push({Name: name, Left: r.left, Top: r.top, Right: r.right, Bottom: r.bottom}); };
		add('header', document.querySelector('header'));
		add('bar', document.getElementById('bar'));
		document.querySelectorAll('.chart').forEach((c, k) => add('chart ' + k, c));
		add('node details', document.getElementById('node-box'));
		add('board', document.getElementById('board-section'));
		add('lists', document.getElementById('lists'));
		return {Parts: parts, Width: innerWidth, Height: innerHeight, DocWide: document.documentElement.scrollWidth};
	})()`, &out)
	return out.Parts, out.Width, out.Height, out.DocWide
}

// TestHTMLLayoutInBrowser loads a tree page and a diff page at a laptop's
// 1366x768 and a phone's 390x844: no part of the page overlaps another or
// runs off its side, every chart is at least 300 pixels wide, the top of
// the node details is in view after a click on the chart and after one
// on a list, and at 1366x768 the hotspot lists start above the fold. On
// the phone the right pane was fixed at 360 px: the chart was 30 px wide,
// a diff page's 5 px each.
func TestHTMLLayoutInBrowser(t *testing.T) {
	longtest.Skip(t, "a browser test of many pages")
	st, _ := recordedTrace(t, "kiwi.trace", kiwipete, 3, true, "captures", "see")
	ctx := context.Background()
	dir := t.TempDir()
	run, top := resolve(t, st, Selection{Run: 1, Node: 0})
	tree, diff := filepath.Join(dir, "tree.html"), filepath.Join(dir, "diff.html")
	write := func(path string, w func(io.Writer) error) {
		var buf bytes.Buffer
		if err := w(&buf); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(tree, func(w io.Writer) error { return WriteHTML(ctx, st, run, top, HTMLOptions{Depth: -1}, w) })
	write(diff, func(w io.Writer) error {
		return WriteDiffHTML(ctx, compare.Side{Store: st, Run: 1}, compare.Side{Store: st, Run: 2}, HTMLOptions{Depth: -1}, w)
	})
	for _, size := range [][2]int{{1366, 768}, {390, 844}} {
		b := newBrowser(t, size[0], size[1])
		// The window's size is not the viewport's (headless windows are
		// at least 500 px wide): set the viewport itself.
		if err := chromedp.Run(b.ctx, chromedp.EmulateViewport(int64(size[0]), int64(size[1]))); err != nil {
			t.Fatal(err)
		}
		for _, page := range []string{tree, diff} {
			name := fmt.Sprintf("%s at %dx%d", filepath.Base(page), size[0], size[1])
			b.open(t, page)
			shot := filepath.Join(dir, fmt.Sprintf("%s-%dx%d", filepath.Base(page), size[0], size[1]))
			if d := os.Getenv("HORIZON_SCREENSHOTS"); d != "" {
				shot = filepath.Join(d, filepath.Base(shot)) // to look at
			}
			b.screenshot(t, shot+"-opened.png")
			parts, w, h, doc := b.layout(t)
			if w != float64(size[0]) {
				t.Fatalf("%s: the viewport is %v wide", name, w)
			}
			if doc > w+0.5 {
				t.Errorf("%s: the page is %v px wide, wider than the screen", name, doc)
			}
			for i, p := range parts {
				if p.Left < -0.5 || p.Right > w+0.5 {
					t.Errorf("%s: %s runs off the screen: %+v", name, p.Name, p)
				}
				for _, q := range parts[i+1:] {
					if p.Left < q.Right-0.5 && q.Left < p.Right-0.5 && p.Top < q.Bottom-0.5 && q.Top < p.Bottom-0.5 {
						t.Errorf("%s: %s %+v overlaps %s %+v", name, p.Name, p, q.Name, q)
					}
				}
				if strings.HasPrefix(p.Name, "chart") && p.Right-p.Left < 300 {
					t.Errorf("%s: %s is %.0f px wide, want 300 or more", name, p.Name, p.Right-p.Left)
				}
			}
			if size[0] > 1000 && page == tree {
				var first float64
				b.eval(t, `document.querySelector('#lists .list button').getBoundingClientRect().top`, &first)
				if first > h-20 {
					t.Errorf("%s: the first hotspot starts at %v px, below the fold (%v)", name, first, h)
				}
			}
			// A message has a line of its own: it shifted the search box.
			var moved struct{ Before, After []float64 }
			b.eval(t, `(() => { const r = () => { const x = document.getElementById('search-input').getBoundingClientRect(); return [x.left, x.top, x.width]; };
				const before = r(), i = document.getElementById('search-input');
				i.value = 'Qxh8 Qxh8 Qxh8'; document.getElementById('search').requestSubmit();
				return {Before: before, After: r()}; })()`, &moved)
			if fmt.Sprint(moved.Before) != fmt.Sprint(moved.After) || b.text(t, "#search-msg") == "" {
				t.Errorf("%s: a message (%q) moved the search box from %v to %v", name, b.text(t, "#search-msg"), moved.Before, moved.After)
			}
			// A click on the chart, then one on the last list entry: the
			// details' top is in view after each.
			n := biggestChild(t, st, 1, top.ID)
			b.click(t, 0, n.ID)
			b.detailsInView(t, name+", after a click on the chart")
			// A tree page's details say why the node is there (issue 29):
			// its move's reason and its subtree's causes, as explain's.
			if page == tree {
				ex, err := explain.Explain(ctx, st, run, n)
				if err != nil {
					t.Fatal(err)
				}
				d := b.text(t, "#details")
				if !strings.Contains(d, "its move") || !strings.Contains(d, "causes") || !strings.Contains(d, ex.Causes[0].Reason.String()) {
					t.Errorf("%s: the details of node %d do not say why it is there (explain's first cause %s):\n%s", name, n.ID, ex.Causes[0].Reason, d)
				}
			}
			if err := chromedp.Run(b.ctx, chromedp.Click(`#lists .list li:last-child button`, chromedp.ByQuery)); err != nil {
				t.Fatal(err)
			}
			b.detailsInView(t, name+", after a click on a list")
			b.screenshot(t, shot+"-clicked.png")
		}
		if errs := b.consoleErrors(); len(errs) > 0 {
			t.Errorf("%dx%d: console errors: %v", size[0], size[1], errs)
		}
	}
}

// detailsInView checks that the top of the node details is on screen.
func (b *browser) detailsInView(tb testing.TB, what string) {
	tb.Helper()
	var got struct{ Top, Height float64 }
	b.eval(tb, `({Top: document.getElementById('node-box').getBoundingClientRect().top, Height: innerHeight})`, &got)
	if got.Top < -0.5 || got.Top > got.Height-40 {
		tb.Errorf("%s: the details' top is at %v px of a %v px screen", what, got.Top, got.Height)
	}
}

// TestHTMLDiffLinksInBrowser: on a diff page the address names both
// sides, so that a link made on side B at a node only B has reopens B at
// that node (it said #node=N, read as A's node N); the details say once
// that A lacks the node, not on every row; and a re-searched move's box
// is labelled with its visit (dxe6·2), as its path is.
func TestHTMLDiffLinksInBrowser(t *testing.T) {
	longtest.Skip(t, "a browser test of many pages")
	st, _ := recordedTrace(t, "kiwi.trace", kiwipete, 4, true, "captures", "see")
	ctx := context.Background()
	page := filepath.Join(t.TempDir(), "diff.html")
	b := newBrowser(t, 1366, 768)
	b.openPage(t, page, func(w io.Writer) error {
		return WriteDiffHTML(ctx, compare.Side{Store: st, Run: 1}, compare.Side{Store: st, Run: 2}, HTMLOptions{Depth: -1}, w)
	})
	var onlyB int64 = -1
	b.eval(t, `(() => { const n = horizon.data.sides[1].nodes; let best = -1;
		for (let i = 0; i < n.id.length; i++) if (n.match[i] < 0 && (best < 0 || n.size[i] > n.size[best])) best = i;
		return best < 0 ? -1 : n.id[best]; })()`, &onlyB)
	if onlyB < 0 {
		t.Fatal("the page draws no node only B has (the test needs one)")
	}
	b.eval(t, fmt.Sprintf("horizon.zoom(1, %d)", onlyB), nil)
	var before []struct{ Zoom, Selected int64 }
	b.eval(t, "horizon.state()", &before)
	var hash string
	b.eval(t, "location.hash", &hash)
	if !strings.Contains(hash, fmt.Sprintf("b=%d", onlyB)) || !strings.Contains(hash, "side=b") {
		t.Errorf("zoomed to B's node %d, the address is %q", onlyB, hash)
	}
	if d := b.text(t, "#details"); strings.Count(d, "not in A") != 1 {
		t.Errorf("the details of B's node %d say %d times that A lacks it:\n%s", onlyB, strings.Count(d, "not in A"), d)
	}
	b.open(t, page+hash)
	var after []struct{ Zoom, Selected int64 }
	b.eval(t, "horizon.state()", &after)
	if fmt.Sprint(after) != fmt.Sprint(before) {
		t.Errorf("the link %s reopened the page at %+v, want %+v", hash, after, before)
	}
	if side, node := b.attr(t, "#details", "data-side"), b.attr(t, "#details", "data-node"); side != "1" || node != fmt.Sprint(onlyB) {
		t.Errorf("the link %s shows side %s node %s, want B's node %d", hash, side, node, onlyB)
	}
	// An older link names A's node; one B lacks is said with its command.
	b.open(t, page+fmt.Sprintf("#node=%d", before[0].Zoom))
	var st0 []struct{ Zoom, Selected int64 }
	b.eval(t, "horizon.state()", &st0)
	if st0[0].Zoom != before[0].Zoom {
		t.Errorf("#node=%d opened A at %d", before[0].Zoom, st0[0].Zoom)
	}
	b.open(t, page+"#a=1&b=999999999")
	if m := b.text(t, "#search-msg"); !strings.Contains(m, "B's node 999999999 is not on this page (horizon export kiwi.trace --run 2 --node 999999999") {
		t.Errorf("a link to a node B lacks says %q", m)
	}
	// Labels carry the visit mark of a move searched more than once.
	var marked struct {
		ID    int64
		Label string
	}
	b.eval(t, `(() => { for (const [si, s] of horizon.data.sides.entries()) { const n = s.nodes;
		for (let i = 1; i < n.id.length; i++) if (n.searches[i] > 1 && n.san[i]) return {ID: n.id[i], Label: horizon.label(si, n.id[i])}; }
		return {ID: -1}; })()`, &marked)
	if marked.ID < 0 {
		t.Fatal("no drawn move was searched twice under one node (the test needs one)")
	}
	if !strings.Contains(marked.Label, trace.VisitSep) {
		t.Errorf("node %d, searched twice under its parent, is labelled %q, with no visit mark", marked.ID, marked.Label)
	}
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors: %v", errs)
	}
}

// TestHTMLElsewhereInBrowser: a page of an iteration that does not hold
// the run's biggest QS tree lists it, with the command that draws it, and
// a click on the entry says that command.
func TestHTMLElsewhereInBrowser(t *testing.T) {
	longtest.Skip(t, "a browser test of many pages")
	st, _ := recordedTrace(t, "kiwi.trace", kiwipete, 4, true, "captures")
	ctx := context.Background()
	hs, err := st.Hotspots(ctx, 1, trace.HotspotQS, 1)
	if err != nil || len(hs) != 1 {
		t.Fatalf("hotspots: %v %v", hs, err)
	}
	roots, err := st.Children(ctx, 1, 0, trace.BySearch, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var page trace.Node
	for _, r := range roots {
		if !r.Contains(hs[0].Node.ID) {
			page = r
		}
	}
	if page.ID == 0 {
		t.Fatal("every iteration holds the biggest QS tree (the test needs one that does not)")
	}
	run, _ := resolve(t, st, Selection{Run: 1, Node: 0})
	b := newBrowser(t, 1366, 768)
	b.openPage(t, filepath.Join(t.TempDir(), "it.html"), func(w io.Writer) error { return WriteHTML(ctx, st, run, page, HTMLOptions{Depth: -1}, w) })
	want := fmt.Sprintf("horizon export kiwi.trace --run 1 --node %d -o node-%d.html", hs[0].Node.ID, hs[0].Node.ID)
	if got := b.text(t, "#elsewhere-0"); !strings.Contains(got, want) {
		t.Errorf("the page of iteration %d lists elsewhere:\n%s\nwant %q", page.Iteration, got, want)
	}
	if err := chromedp.Run(b.ctx, chromedp.Click(`#elsewhere-0 button`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	if m := b.text(t, "#search-msg"); !strings.Contains(m, want) {
		t.Errorf("a click on the biggest QS tree elsewhere says %q", m)
	}
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors: %v", errs)
	}
}
