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
	"github.com/horizonqs/horizon/foreign"
	"github.com/horizonqs/horizon/foreign/foreigntest"
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
		run.Variant, run.Engine, run.EPDID, run.Filter = "v"+evil, "e"+evil, "id"+evil, "f"+evil
		page := filepath.Join(dir, fmt.Sprintf("tree%d.html", k))
		b.openPage(t, page, func(w io.Writer) error { return WriteHTML(ctx, st, run, top, HTMLOptions{Depth: 3}, w) })
		if got := b.injected(t); got != "" {
			t.Errorf("payload %q: %s", evil, got)
		}
		head := b.text(t, "header")
		for _, want := range []string{"id" + evil, "f" + evil, hostile[0] + ".trace"} {
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
