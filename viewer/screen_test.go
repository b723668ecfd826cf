package viewer

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/horizonqs/horizon/compare"
	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/foreign"
	"github.com/horizonqs/horizon/foreign/foreigntest"
	"github.com/horizonqs/horizon/internal/golden"
	"github.com/horizonqs/horizon/trace"
)

// A screen script is a list of steps: "<Name>" is a special key (Enter,
// Esc, Tab, Up, Down, Left, Right, PgDn, PgUp, Home, End, BS), "<resize
// WxH>", "<click X,Y>", "<wheel-down X,Y>", "<wheel-up X,Y>"; anything else
// is typed one character at a time.
var specialKeys = map[string]tcell.Key{
	"Enter": tcell.KeyEnter, "Esc": tcell.KeyEscape, "Tab": tcell.KeyTab, "Up": tcell.KeyUp,
	"Down": tcell.KeyDown, "Left": tcell.KeyLeft, "Right": tcell.KeyRight, "PgDn": tcell.KeyPgDn,
	"PgUp": tcell.KeyPgUp, "Home": tcell.KeyHome, "End": tcell.KeyEnd, "BS": tcell.KeyBackspace2,
}

// screenRig is a model on a simulation screen.
type screenRig struct {
	t *testing.T
	s tcell.SimulationScreen
	m *Model
}

func newRig(t *testing.T, st trace.Reader, w, h int, opt Options) *screenRig {
	t.Helper()
	if opt.File == "" {
		opt.File = "fixture.trace"
	}
	m, s := newSim(t, st, opt, w, h)
	r := &screenRig{t: t, s: s, m: m}
	r.draw()
	return r
}

// newSim opens a model on src and a simulation screen w by h (0: the
// screen's own size), finalised with the test.
func newSim(tb testing.TB, src trace.Reader, opt Options, w, h int) (*Model, tcell.SimulationScreen) {
	tb.Helper()
	m, err := New(context.Background(), src, opt)
	if err != nil {
		tb.Fatal(err)
	}
	s := tcell.NewSimulationScreen("UTF-8")
	if err := s.Init(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(s.Fini)
	if w > 0 {
		s.SetSize(w, h)
	}
	return m, s
}

func (r *screenRig) draw() {
	r.m.Draw(r.s)
	r.s.Show()
}

// post delivers one event through the screen's queue, as the real loop
// would, and redraws.
func (r *screenRig) post(inject func()) {
	inject()
	for r.s.HasPendingEvent() {
		ev := r.s.PollEvent()
		if _, ok := ev.(*tcell.EventResize); ok {
			r.s.Sync()
		}
		r.m.Handle(ev)
	}
	r.draw()
}

func (r *screenRig) run(steps ...string) {
	r.t.Helper()
	for _, step := range steps {
		if k, ok := specialKeys[strings.Trim(step, "<>")]; ok && strings.HasPrefix(step, "<") {
			r.post(func() { r.s.InjectKey(k, 0, tcell.ModNone) })
			continue
		}
		var a, b int
		switch {
		case sscan(step, "<resize %dx%d>", &a, &b):
			r.s.SetSize(a, b)
			r.post(func() { r.s.PostEvent(tcell.NewEventResize(a, b)) })
		case sscan(step, "<click %d,%d>", &a, &b):
			r.post(func() { r.s.InjectMouse(a, b, tcell.Button1, tcell.ModNone) })
			r.post(func() { r.s.InjectMouse(a, b, tcell.ButtonNone, tcell.ModNone) })
		case sscan(step, "<wheel-down %d,%d>", &a, &b):
			r.post(func() { r.s.InjectMouse(a, b, tcell.WheelDown, tcell.ModNone) })
		case sscan(step, "<wheel-up %d,%d>", &a, &b):
			r.post(func() { r.s.InjectMouse(a, b, tcell.WheelUp, tcell.ModNone) })
		case strings.HasPrefix(step, "<"):
			r.t.Fatalf("unknown step %q", step)
		default:
			for _, c := range step {
				r.post(func() { r.s.InjectKey(tcell.KeyRune, c, tcell.ModNone) })
			}
		}
	}
}

func sscan(s, format string, a ...any) bool {
	n, err := fmt.Sscanf(s, format, a...)
	return err == nil && n == len(a)
}

// text returns the screen as lines of text, trailing blanks cut.
func (r *screenRig) text() string {
	cells, w, h := r.s.GetContents()
	var b strings.Builder
	for y := 0; y < h; y++ {
		var line strings.Builder
		for x := 0; x < w; x++ {
			c := cells[y*w+x]
			if len(c.Runes) == 0 {
				line.WriteByte(' ')
				continue
			}
			line.WriteString(string(c.Runes))
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
		b.WriteByte('\n')
	}
	return b.String()
}

// capture is the screen text plus what the text cannot show: which node
// is selected, on which row.
func (r *screenRig) capture() string {
	p := r.m.cur()
	_, n, _ := p.t.selected()
	return fmt.Sprintf("%s-- selected: run %d node %d, row %d, top %d, %d rows\n",
		r.text(), p.t.run.ID, n.ID, p.t.cursor, p.t.top, p.t.rows())
}

// checkGolden compares a screen capture with testdata/screens/name.txt
// (-update rewrites it).
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	golden.CheckString(t, filepath.Join("testdata", "screens", name+".txt"), got)
}

// pvSAN returns the first n moves of a run's PV in SAN.
func pvSAN(t *testing.T, st *trace.Store, run int64, n int) []string {
	t.Helper()
	r, err := st.Run(context.Background(), run)
	if err != nil {
		t.Fatal(err)
	}
	pos := engine.MustParseFEN(r.FEN)
	var out []string
	for _, u := range r.PV[:min(n, len(r.PV))] {
		mv, err := pos.ParseUCI(u)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, pos.SAN(mv))
		pos.MakeMove(mv)
	}
	return out
}

// TestScreens drives the viewer with keys and the mouse on a simulation
// screen and compares each screen with its golden capture.
func TestScreens(t *testing.T) {
	st := openFixture(t)
	pv := pvSAN(t, st, 1, 2)
	one := Options{Run: 1}
	cases := []struct {
		name string
		w, h int
		opt  Options
		keys []string
	}{
		{"start_80x24", 80, 24, one, nil},
		{"start_120x40", 120, 40, one, nil},
		{"start_170x45", 170, 45, one, nil},
		{"picker_100x30", 100, 30, Options{}, nil},
		{"picker_pick_100x30", 100, 30, Options{}, []string{"k", "<Enter>"}},
		{"expand_80x24", 80, 24, one, []string{"j", "l", "l", "j", "<Right>", "<Enter>"}},
		{"collapse_80x24", 80, 24, one, []string{"j", "l", "l", "h", "h", "<Left>"}},
		{"info_80x24", 80, 24, one, []string{"j", "l", "l", "i"}},
		{"help_100x40", 100, 40, one, []string{"?"}},
		{"ascii_uci_100x30", 100, 30, Options{Run: 1, ASCII: true, UCI: true}, []string{"j", "l"}},
		{"toggles_120x30", 120, 30, one, []string{"j", "u", "a", "b"}},
		{"hotspot_120x40", 120, 40, one, []string{"n", "n"}},
		{"hotspot_back_120x40", 120, 40, one, []string{"n", "n", "N"}},
		{"hotlist_120x40", 120, 40, one, []string{"H"}},
		{"hotlist_growth_120x40", 120, 40, one, []string{"H", "g", "j", "<Enter>"}},
		{"heaviest_120x40", 120, 40, one, []string{"*"}},
		{"only_qs_100x30", 100, 30, one, []string{"Q"}},
		{"only_cutoffs_100x30", 100, 30, one, []string{"!", "j", "l"}},
		{"min_size_100x30", 100, 30, one, []string{"m", "100", "<Enter>", "G"}},
		{"by_size_100x30", 100, 30, one, []string{"s"}},
		{"pv_120x40", 120, 40, one, []string{"v"}},
		{"path_120x40", 120, 40, one, []string{"/", strings.Join(pv, " "), "<Enter>"}},
		{"path_relative_120x40", 120, 40, one, []string{"/", pv[0], "<Enter>", "/", "+" + pv[1], "<Enter>"}},
		{"path_error_100x30", 100, 30, one, []string{"/", pv[0] + " Ke9", "<Enter>"}},
		{"node_120x40", 120, 40, one, []string{":", "100", "<Enter>"}},
		{"node_error_100x30", 100, 30, one, []string{":", "99999999", "<Enter>"}},
		{"prompt_open_100x30", 100, 30, one, []string{"/", "e4 e"}},
		{"prompt_cancel_100x30", 100, 30, one, []string{"/", "e4", "<Esc>"}},
		{"find_100x30", 100, 30, one, []string{"f", pv[0], "<Enter>", ";"}},
		{"compare_120x40", 120, 40, one, []string{"=", "j", "<Enter>", "j", "l", "j"}},
		{"compare_tab_170x40", 170, 40, one, []string{"=", "j", "<Enter>", "<Tab>", "j", "l", "j", "j"}},
		{"compare_off_100x30", 100, 30, one, []string{"=", "j", "<Enter>", "="}},
		{"unified_100x30", 100, 30, Options{Run: 3}, []string{"j", "l"}},
		{"threshold_120x40", 120, 40, Options{Run: 4}, []string{"n"}},
		{"run_switch_100x30", 100, 30, one, []string{"R", "j", "<Enter>"}},
		{"resize_80x24_to_130x35", 80, 24, one, []string{"j", "<resize 130x35>"}},
		{"resize_small_40x10", 100, 30, one, []string{"<resize 40x10>"}},
		{"mouse_100x30", 100, 30, one, []string{"<click 20,8>", "<click 4,8>", "<wheel-down 20,8>"}},
		{"start_node_120x40", 120, 40, Options{Run: 2, Node: ptr(500)}, nil},
		{"start_path_120x40", 120, 40, Options{Run: 1, Path: pv}, nil},
		{"page_down_80x24", 80, 24, one, []string{"<PgDn>", "<PgDn>", "<PgUp>", "<End>"}},
		{"reload_100x30", 100, 30, one, []string{"j", "l", "r"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newRig(t, st, c.w, c.h, c.opt)
			r.run(c.keys...)
			checkGolden(t, c.name, r.capture())
		})
	}
}

func TestScreenQuitAndCopy(t *testing.T) {
	st := openFixture(t)
	r := newRig(t, st, 100, 30, Options{Run: 1})
	r.run("j", "y")
	fen := r.m.SelectedFEN()
	if got := string(r.s.GetClipboardData()); got != fen {
		t.Errorf("clipboard holds %q, want the FEN %q", got, fen)
	}
	_, n, _ := r.m.cur().t.selected()
	pos, err := st.Position(context.Background(), 1, n.ID)
	if err != nil {
		t.Fatal(err)
	}
	if pos.FEN() != fen {
		t.Errorf("SelectedFEN %q, position of node %d is %q", fen, n.ID, pos.FEN())
	}
	if r.m.Quit() {
		t.Fatal("quit before q")
	}
	r.run("?", "q")
	if !r.m.Quit() {
		t.Error("q in the help screen did not quit")
	}
}

// TestLoopQuits runs the real event loop on a simulation screen.
func TestLoopQuits(t *testing.T) {
	st := openFixture(t)
	m, err := New(context.Background(), st, Options{Run: 1})
	if err != nil {
		t.Fatal(err)
	}
	s := tcell.NewSimulationScreen("UTF-8")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Run(ctx, s, m) }()
	cancel() // as SIGTERM would: the loop must end and finalise the screen
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !m.Quit() {
		t.Error("the loop ended without the model quitting")
	}
}

// TestNoColor checks that without colour nothing on screen has a colour,
// and that with colour QS rows and cutoffs do.
func TestNoColor(t *testing.T) {
	st := openFixture(t)
	for _, noColor := range []bool{true, false} {
		t.Run("nocolor="+strconv.FormatBool(noColor), func(t *testing.T) {
			r := newRig(t, st, 120, 40, Options{Run: 1, NoColor: noColor})
			r.run("n") // a QS tree on screen
			cells, _, _ := r.s.GetContents()
			colored := 0
			reverse := 0
			for _, c := range cells {
				fg, bg, attr := c.Style.Decompose()
				if fg != tcell.ColorDefault || bg != tcell.ColorDefault {
					colored++
				}
				if attr&tcell.AttrReverse != 0 {
					reverse++
				}
			}
			if noColor && colored > 0 {
				t.Errorf("%d cells have a colour with NoColor", colored)
			}
			if noColor && reverse == 0 {
				t.Error("no reverse-video cells: the cursor and bars need it without colour")
			}
			if !noColor && colored == 0 {
				t.Error("no coloured cells with colour on")
			}
		})
	}
	t.Run("NO_COLOR", func(t *testing.T) {
		t.Setenv("NO_COLOR", "1")
		m, err := New(context.Background(), st, Options{Run: 1})
		if err != nil {
			t.Fatal(err)
		}
		if m.st.qs != m.st.base {
			t.Error("NO_COLOR set, but QS rows get a colour")
		}
	})
}

// TestNewErrors checks that bad options fail in New, before any screen.
func TestNewErrors(t *testing.T) {
	st := openFixture(t)
	cases := []struct {
		name string
		opt  Options
		want error
		text string
	}{
		{"no such run", Options{Run: 42}, trace.ErrNoRun, "run 42: no such run (its runs: 1 "},
		{"no such node", Options{Run: 1, Node: ptr(1 << 30)}, trace.ErrNoNode, "--node 1073741824"},
		{"illegal move", Options{Run: 1, Path: []string{"Ke9"}}, nil, `--path "Ke9": move 1 (Ke9)`},
		{"move not searched", Options{Run: 1, Path: []string{"a3", "Kd8", "a4", "Kc8"}}, trace.ErrNoMove, "has no child for it"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := New(context.Background(), st, c.opt)
			if err == nil {
				t.Fatal("no error")
			}
			if c.want != nil && !errors.Is(err, c.want) {
				t.Errorf("error %v does not wrap %v", err, c.want)
			}
			if !strings.Contains(err.Error(), c.text) {
				t.Errorf("error %q does not say %q", err, c.text)
			}
		})
	}
}

// TestCompareFollows moves the cursor of the left pane over a sample of
// nodes: the right pane must select the node package compare says lines
// up with it, or say where the path left the other run's tree.
func TestCompareFollows(t *testing.T) {
	st := openFixture(t)
	r := newRig(t, st, 160, 40, Options{Run: 1})
	r.run("=", "j", "<Enter>")
	if len(r.m.panes) != 2 || r.m.panes[1].t.run.ID != 2 {
		t.Fatalf("compare mode did not open run 2 beside run 1")
	}
	a, b := compare.Side{Store: st, Run: 1}, compare.Side{Store: st, Run: 2}
	run, err := st.Run(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	found, lost := 0, 0
	for id := int64(1); id < run.Rows; id += run.Rows/60 + 1 {
		if err := r.m.reveal(id); err != nil {
			t.Fatal(err)
		}
		r.m.afterChange()
		want, ok, err := compare.Counterpart(context.Background(), a, id, b)
		if err != nil {
			t.Fatal(err)
		}
		_, got, err := r.m.panes[1].t.selected()
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			found++
			if got.ID != want.ID || r.m.panes[1].lost != "" {
				t.Errorf("left node %d: right pane on node %d (lost %q), compare says %d", id, got.ID, r.m.panes[1].lost, want.ID)
			}
		} else {
			lost++
			if r.m.panes[1].lost == "" {
				t.Errorf("left node %d has no counterpart, but the right pane (on node %d) does not say so", id, got.ID)
			}
		}
	}
	if found == 0 || lost == 0 {
		t.Errorf("sample not telling: %d nodes with a counterpart, %d without", found, lost)
	}
}

// TestCompareDifferentPositions: runs of different positions cannot be
// compared. With two runs = says so at once; with more, = opens the picker,
// and picking a run of another position says why and stays on the run
// shown (it must not switch to the picked run).
func TestCompareDifferentPositions(t *testing.T) {
	for _, tc := range []struct {
		name  string
		runs  [][2]string // FEN and variant of each run, in run id order
		width int
		keys  []string
	}{
		{"two runs", [][2]string{{kiwipete, "captures"}, {engine.StartFEN, "captures"}}, 100, []string{"="}},
		{"the picker", [][2]string{{kiwipete, "captures"}, {engine.StartFEN, "captures"}, {kiwipete, "see"}}, 120, []string{"=", "j", "<Enter>"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, recordRuns(t, 2, tc.runs), tc.width, 30, Options{Run: 1})
			r.run(tc.keys...)
			if len(r.m.panes) != 1 || r.m.cur().t.run.ID != 1 || !strings.Contains(r.text(), "different root positions") {
				t.Errorf("comparing with a run of another position should say so and stay on run 1 (on run %d, %d panes):\n%s",
					r.m.cur().t.run.ID, len(r.m.panes), r.text())
			}
		})
	}
}

// TestComparePickRun: R in compare mode puts the picked run in the
// focused pane. It must not put there the run the other pane shows (a run
// compared with itself) or a run of another position (its moves would be
// lined up with another position's); either is refused with the pair kept.
// Another run of the position replaces the focused pane's, and the other
// pane follows it.
func TestComparePickRun(t *testing.T) {
	st := recordRuns(t, 2, [][2]string{{kiwipete, "captures"}, {kiwipete, "see"}, {engine.StartFEN, "captures"}, {kiwipete, "threshold"}})
	for _, tc := range []struct {
		name        string
		keys        []string // after = has opened run 2 beside run 1
		left, right int64
		say         string
	}{
		{"the other pane's run", []string{"R", "j", "<Enter>"}, 1, 2, "run 2 is already in the other pane"},
		{"another position", []string{"R", "j", "j", "<Enter>"}, 1, 2, "different root positions"},
		{"another run", []string{"R", "j", "j", "j", "<Enter>", "j"}, 4, 2, "run 4"},
		{"from the right pane", []string{"<Tab>", "R", "k", "<Enter>"}, 1, 2, "run 1 is already in the other pane"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, st, 120, 30, Options{Run: 1})
			r.run("=", "j", "<Enter>")
			r.run(tc.keys...)
			if len(r.m.panes) != 2 || r.m.panes[0].t.run.ID != tc.left || r.m.panes[1].t.run.ID != tc.right {
				var ids []int64
				for _, p := range r.m.panes {
					ids = append(ids, p.t.run.ID)
				}
				t.Fatalf("panes show runs %v, want %d and %d:\n%s", ids, tc.left, tc.right, r.text())
			}
			if !strings.Contains(r.text(), tc.say) {
				t.Errorf("the screen does not say %q:\n%s", tc.say, r.text())
			}
			lead, fol := r.m.cur(), r.m.other(r.m.cur())
			_, ln, err := lead.t.selected()
			if err != nil {
				t.Fatal(err)
			}
			want, ok, err := compare.Counterpart(context.Background(), r.m.side(lead), ln.ID, r.m.side(fol))
			if err != nil {
				t.Fatal(err)
			}
			if _, fn, _ := fol.t.selected(); ok && fn.ID != want.ID {
				t.Errorf("run %d node %d selected; the following pane (run %d) is on node %d, its counterpart is %d",
					lead.t.run.ID, ln.ID, fol.t.run.ID, fn.ID, want.ID)
			}
		})
	}
}

// TestTooSmallSaysSo: a screen too small to draw on says so in full, with
// the size it has and the size it needs, wrapped to its width (at 20
// columns the one line read "horizon: window too"); grown again, it draws
// the viewer.
func TestTooSmallSaysSo(t *testing.T) {
	st := openFixture(t)
	for _, sz := range [][2]int{{20, 8}, {29, 30}, {100, 7}, {16, 6}} {
		r := newRig(t, st, sz[0], sz[1], Options{Run: 1})
		want := fmt.Sprintf("horizon: window too small (%dx%d; needs at least 30x8)", sz[0], sz[1])
		if got := strings.Join(strings.Fields(r.text()), " "); got != want {
			t.Errorf("%dx%d screen says %q, want %q:\n%s", sz[0], sz[1], got, want, r.text())
		}
		r.run("<resize 100x30>")
		if !strings.Contains(r.text(), "run 1") {
			t.Errorf("grown to 100x30 from %dx%d, the screen is not redrawn:\n%s", sz[0], sz[1], r.text())
		}
	}
}

// TestPromptNumberErrors: a number the node and minimum-size prompts
// cannot take is named for what is wrong with it: "-5" and a number past
// int64 are numbers (both prompts said "is not a number").
func TestPromptNumberErrors(t *testing.T) {
	st := openFixture(t)
	for _, tc := range []struct{ keys, want string }{
		{":-5", `node id: "-5": want a whole number from 0`},
		{":99999999999999999999", `node id: "99999999999999999999" is too large`},
		{"m99999999999999999999", `minimum subtree size: "99999999999999999999" is too large`},
		{":abc", `node id: "abc": want a whole number from 0`},
		{"m-5", `minimum subtree size: "-5": want a whole number from 0`},
		{"mabc", `minimum subtree size: "abc": want a whole number from 0`},
		{"m-5k", `minimum subtree size: "-5k": want a whole number from 0`},
	} {
		r := newRig(t, st, 120, 30, Options{Run: 1})
		r.run(tc.keys, "<Enter>")
		if !strings.Contains(r.text(), tc.want) {
			t.Errorf("%q then Enter: the screen does not say %q:\n%s", tc.keys, tc.want, r.text())
		}
	}
}

// TestListMouse: in the hotspot list and the run picker, a click on a row
// below the last entry does nothing (it ran off the list's end: the viewer
// ended with "index out of range"), and the wheel stops at the list's
// ends, as j and k do (it moved an invisible cursor past them, so turning
// it back seemed to do nothing).
func TestListMouse(t *testing.T) {
	const bare = "7k/8/8/8/8/8/8/K7 w - - 0 1"
	st := recordRuns(t, 1, [][2]string{{bare, "captures"}, {bare, "see"}}) // captures: five QS trees
	r := newRig(t, st, 120, 30, Options{Run: 1})
	r.run("H")
	if n := len(r.m.hotList(r.m.cur())); n == 0 || n > 10 {
		t.Fatalf("%d hotspots, want a few", n)
	}
	r.run("j", "<click 30,25>")
	if r.m.mode != modeHotspots || r.m.list != 1 {
		t.Errorf("a click below the hotspots: mode %d, entry %d; want the list still open on entry 1", r.m.mode, r.m.list)
	}
	for _, tc := range []struct {
		keys []string
		want int
	}{
		{[]string{"<wheel-up 30,10>", "<wheel-up 30,10>", "<wheel-up 30,10>", "<wheel-down 30,10>"}, 1},
		{[]string{"<End>", "<wheel-down 30,10>", "<wheel-down 30,10>", "<wheel-up 30,10>"}, -2}, // the last but one
	} {
		for _, open := range []string{"H", "R"} {
			r := newRig(t, st, 120, 30, Options{Run: 1})
			r.run(open)
			r.run(tc.keys...)
			want := tc.want
			if want < 0 {
				want += r.m.listLen()
			}
			if r.m.list != want {
				t.Errorf("%s then %v: on entry %d, want %d", open, tc.keys, r.m.list, want)
			}
		}
	}
}

// TestPromptShowsInput: what is typed at a prompt, and the cursor after
// it, stay on screen however narrow it is and however long the line: the
// label gives way (at 40 columns the path prompt's label filled the line
// and "Bxa6 b" was not shown; a long path ran off an 80-column screen).
func TestPromptShowsInput(t *testing.T) {
	st := openFixture(t)
	long := strings.Repeat("Nf3 Nf6 Ng1 Ng8 ", 5) + "e4"
	for _, tc := range []struct {
		w    int
		keys []string
		want string // the end of the footer line
	}{
		{120, []string{"/", "Bxa6 b"}, " move path (e4 e5 Nf3; +Nf3 from the node): Bxa6 b"},
		{40, []string{"/", "Bxa6 b"}, ": Bxa6 b"},
		{40, []string{":", "123"}, " node id: 123"},
		{80, []string{"/", long}, "Ng8 Nf3 Nf6 Ng1 Ng8 e4"},
		{30, []string{"m", "100k"}, ": 100k"},
	} {
		r := newRig(t, st, tc.w, 24, Options{Run: 1})
		r.run(tc.keys...)
		lines := strings.Split(r.text(), "\n")
		foot := lines[23]
		if !strings.HasSuffix(foot, tc.want) {
			t.Errorf("%dx24 %q: footer %q, want it to end with %q", tc.w, tc.keys, foot, tc.want)
		}
		x, y, vis := r.s.GetCursor()
		if n := len([]rune(foot)); !vis || y != 23 || x != n || x >= tc.w {
			t.Errorf("%dx24 %q: cursor at %d,%d (shown %v), want it after the text at %d,23 on screen", tc.w, tc.keys, x, y, vis, n)
		}
	}
}

// laterKids is a trace whose run's children past node cut are not written
// yet, as a run being recorded has them (cut 0: all are).
type laterKids struct {
	*trace.Store
	run, cut int64
}

func (l *laterKids) Children(ctx context.Context, run, id int64, order trace.Order, offset, limit int) ([]trace.Node, error) {
	kids, err := l.Store.Children(ctx, run, id, order, offset, limit)
	if run != l.run || l.cut == 0 {
		return kids, err
	}
	return slices.DeleteFunc(kids, func(n trace.Node) bool { return n.ID >= l.cut }), err
}

// TestCompareReloadRealigns: r in compare mode aligns the two runs'
// children anew. The alignment was cached across the reload, so a child
// the other run recorded after the first look stayed unmatched: the
// following pane said the other run did not search a move it had.
func TestCompareReloadRealigns(t *testing.T) {
	st := openFixture(t)
	ctx := context.Background()
	root := func(run int64) trace.Node { // the root of the last iteration
		kids := allChildren(t, st, run, 0, trace.BySearch)
		return kids[len(kids)-1]
	}
	r1, r2 := root(1), root(2)
	k1, k2 := allChildren(t, st, 1, r1.ID, trace.BySearch), allChildren(t, st, 2, r2.ID, trace.BySearch)
	src := &laterKids{Store: st, run: 2, cut: k2[len(k2)/2].ID}
	// The last child of run 1's root that run 2 has among its later ones.
	a, b := compare.Side{Store: st, Run: 1}, compare.Side{Store: st, Run: 2}
	var late, want trace.Node
	for _, n := range k1 {
		if c, ok, err := compare.Counterpart(ctx, a, n.ID, b); err == nil && ok && c.ID >= src.cut {
			late, want = n, c
		}
	}
	if late.ID == 0 {
		t.Fatal("no child of run 1's last root has a counterpart among run 2's later children")
	}
	r := newRig(t, src, 160, 40, Options{Run: 1})
	r.run("=", "j", "<Enter>")
	if len(r.m.panes) != 2 || r.m.panes[1].t.run.ID != 2 {
		t.Fatal("compare mode did not open run 2 beside run 1")
	}
	for _, id := range []int64{k1[0].ID, late.ID} { // the children of both roots aligned, run 2's half written
		if err := r.m.reveal(id); err != nil {
			t.Fatal(err)
		}
		r.m.afterChange()
	}
	if r.m.panes[1].lost == "" {
		t.Fatalf("with run 2's later children not written, the right pane does not say it lacks node %d's counterpart", late.ID)
	}
	src.cut = 0
	r.run("r")
	for _, id := range []int64{k1[0].ID, late.ID} {
		if err := r.m.reveal(id); err != nil {
			t.Fatal(err)
		}
		r.m.afterChange()
	}
	if _, got, err := r.m.panes[1].t.selected(); err != nil || got.ID != want.ID || r.m.panes[1].lost != "" {
		t.Errorf("after r, run 1 node %d: the right pane is on node %d (%v), lost %q; want node %d",
			late.ID, got.ID, err, r.m.panes[1].lost, want.ID)
	}
}

// TestCompareTabForgetsLost: after Tab the pane that led and lost its way
// leads no more; once the cursor is on a node both runs have (g: the
// run), neither pane may still say the other run did not search a move.
func TestCompareTabForgetsLost(t *testing.T) {
	st := openFixture(t)
	r := newRig(t, st, 170, 40, Options{Run: 1})
	r.run("v", "=", "j", "<Enter>")
	if len(r.m.panes) != 2 {
		t.Fatal("compare mode did not open")
	}
	lost := func() bool { return r.m.panes[0].lost != "" || r.m.panes[1].lost != "" }
	if !lost() {
		// Walk the PV's neighbourhood until a node of run 1 has no
		// counterpart in run 2, as the user's Bxa6 had.
		for i := 0; i < 200 && !lost(); i++ {
			r.run("k")
		}
		if !lost() {
			t.Skip("no node of run 1 near its PV lacks a counterpart in run 2")
		}
	}
	r.run("<Tab>", "g")
	if strings.Contains(r.text(), "did not search") || lost() {
		t.Errorf("on the run node, which both runs have, a pane still says a move was not searched:\n%s", r.text())
	}
}

// TestDetailLabelsFit: every label of the details pane is narrower than
// its column, so a value never runs into it ("incompletestill open").
func TestDetailLabelsFit(t *testing.T) {
	st := openFixture(t)
	r := newRig(t, st, 170, 45, Options{Run: 1})
	r.run("v", "=", "j", "<Enter>")
	p := r.m.cur()
	for _, incomplete := range []bool{false, true} {
		p.sel.node.Incomplete = incomplete
		for _, d := range r.m.details(p) {
			if len([]rune(d.label)) >= detailLabelW {
				t.Errorf("label %q (incomplete=%v) fills the %d-wide label column: the value %q runs into it",
					d.label, incomplete, detailLabelW, d.value)
			}
		}
	}
}

// wrapped is a trace source that is not a *trace.Store: any trace.Reader.
type wrapped struct{ trace.Reader }

// TestCompareAnySource: compare mode works on any trace.Reader, not only
// on a trace file opened as a *trace.Store (it used to refuse with
// "compare mode needs a trace file").
func TestCompareAnySource(t *testing.T) {
	st := openFixture(t)
	r := newRig(t, wrapped{st}, 160, 40, Options{Run: 1})
	m := r.m
	r.run("=", "j", "<Enter>", "j", "l", "j")
	if len(m.panes) != 2 || m.msgErr {
		t.Fatalf("compare mode did not open on a wrapped source (message %q)", m.msg)
	}
	if !strings.Contains(r.text(), "run 2") {
		t.Errorf("the second pane does not show run 2:\n%s", r.text())
	}
}

// TestHotlistPathsDistinct: two hotspots of one iteration are different
// nodes, so their paths must read differently; a move searched again
// under the same parent (a PVS re-search) is marked with its visit, ·2,
// as diff marks it. In size mode the growth column (a QS root's growth is
// its size) gives way to the share of the run.
func TestHotlistPathsDistinct(t *testing.T) {
	st := openFixture(t)
	marked := 0
	for _, run := range []int64{1, 2, 3, 4} {
		for _, growth := range []bool{false, true} {
			r := newRig(t, st, 200, 60, Options{Run: run})
			r.run("H")
			if growth {
				r.run("g")
			}
			p := r.m.cur()
			seen := map[string]int64{}
			for _, h := range r.m.hotList(p) {
				key := fmt.Sprintf("%d %s", h.Node.Iteration, r.m.hotPath(p, h.Node.ID))
				if other, dup := seen[key]; dup {
					t.Errorf("run %d growth=%v: nodes %d and %d both read %q", run, growth, other, h.Node.ID, key)
				}
				seen[key] = h.Node.ID
				if strings.Contains(key, "·2") {
					marked++
				}
			}
			screen := r.text()
			if !growth && (strings.Contains(screen, " growth ") || !strings.Contains(screen, "% run")) {
				t.Errorf("run %d: the size-ranked list shows a growth column, not the share of the run:\n%s", run, screen)
			}
		}
	}
	if marked == 0 {
		t.Error("no hotspot lies under a re-search (the test needs one: its paths read alike unmarked)")
	}
}

// visitMark is a visit's mark, "·N"; "#N" would read as mate in N.
var visitMark = regexp.MustCompile(`·[0-9]+$`)

// TestVisitPathMarksResearch: a move searched again under the same parent
// reads with its visit (·2), so its path differs from the first search's.
func TestVisitPathMarksResearch(t *testing.T) {
	st := openFixture(t)
	ctx := context.Background()
	for _, run := range []int64{1, 3, 4} {
		r := newRig(t, st, 120, 40, Options{Run: run})
		p := r.m.cur()
		pairs := 0
		err := st.Subtree(ctx, run, 0, 3, func(n trace.Node) error {
			if n.SubtreeSize <= 1 || pairs >= 5 {
				return nil
			}
			first := map[engine.Move]int64{}
			for _, k := range allChildren(t, st, run, n.ID, trace.BySearch) {
				a, seen := first[k.Move]
				if !seen || k.Move == engine.NoMove {
					first[k.Move] = k.ID
					continue
				}
				pairs++
				pa, pb := r.m.hotPath(p, a), r.m.hotPath(p, k.ID)
				if pa == pb || !visitMark.MatchString(pb) {
					t.Errorf("run %d: nodes %d and %d (the same move searched again) read %q and %q", run, a, k.ID, pa, pb)
				}
				return nil
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if run != 1 && pairs == 0 {
			t.Errorf("run %d: no move searched twice under one node to test with", run)
		}
	}
}

// ptr is a node id for Options.Node.
func ptr(id int64) *int64 { return &id }

// TestStartNode: Options.Node selects any node, the run node (id 0)
// included (view --node 0 once opened the last iteration's root); nil
// selects that root.
func TestStartNode(t *testing.T) {
	st := openFixture(t)
	for _, tc := range []struct {
		node *int64
		want int64 // -1: the last iteration's root
	}{{ptr(0), 0}, {ptr(500), 500}, {nil, -1}} {
		m, err := New(context.Background(), st, Options{Run: 1, Node: tc.node})
		if err != nil {
			t.Fatal(err)
		}
		got := m.SelectedNode()
		if tc.want >= 0 && got.ID != tc.want || tc.want < 0 && got.Kind != engine.KindRoot {
			t.Errorf("Node %v: selected node %d (%s), want %d", tc.node, got.ID, got.Kind, tc.want)
		}
	}
}

// TestNoQSPointsToGrowth: on a run without QS (qs-moves none) n has no
// QS tree to go to; it says where the hotspots are, the full-width nodes
// ranked by growth (H then g, as the list's title says), which lists
// them. n said "no hotspots" and nothing more (walkthrough).
func TestNoQSPointsToGrowth(t *testing.T) {
	r := newRig(t, recordRuns(t, 3, [][2]string{{kiwipete, "none"}}), 140, 30, Options{Run: 1})
	r.run("n")
	if screen := r.text(); !strings.Contains(screen, "no hotspots in run 1") || !strings.Contains(screen, "H then g lists full-width nodes by growth") {
		t.Errorf("n on a run without QS:\n%s", screen)
	}
	r.run("H", "g")
	if n := len(r.m.hotList(r.m.cur())); n == 0 {
		t.Errorf("g: no growth hotspots on a run of %d nodes", r.m.cur().t.run.Nodes)
	}
}

// TestPathPromptNamesNoMove: a path typed at / that holds no move ("1.",
// as a move number pasted alone) says so and leaves the selection where
// it was; it went to the reported root without a word.
func TestPathPromptNamesNoMove(t *testing.T) {
	st := openFixture(t)
	r := newRig(t, st, 120, 40, Options{Run: 1})
	r.run("j", "j", "j")
	before := r.m.cur().sel.node.ID
	r.run("/", "1.", "<Enter>")
	if got := r.m.cur().sel.node.ID; got != before || !strings.Contains(r.text(), `path "1." names no move`) {
		t.Errorf("selection %d (was %d); want it kept and the error shown:\n%s", got, before, r.text())
	}
}

// TestDetailsPathNamesIteration: the path the details print for a node
// of an iteration before the reported one begins with that iteration
// ("iteration 2: 1. Bxa6 ..."), so pasted into / (SAN or UCI) it leads
// back to the node. It printed the bare path, which / reads in the
// reported iteration: another node, or none. Under the first of two roots
// of one iteration (an aspiration re-search, in an imported run) it names
// the root's visit ("iteration 2·1: 1. e4"), which / reads back too.
func TestDetailsPathNamesIteration(t *testing.T) {
	st := openFixture(t)
	checked := 0
	for run := int64(1); run <= int64(len(fixtureVariants)); run++ {
		checked += detailsPathsReadBack(t, st, run)
	}
	asp, _ := foreigntest.Import(t, foreigntest.AspirationStream(true), foreign.Options{})
	checked += detailsPathsReadBack(t, asp, 1)
	t.Logf("%d printed paths read back", checked)
}

// detailsPathsReadBack selects nodes of every iteration root of run in
// st, pastes the path the details print into / and reports how many it
// checked.
func detailsPathsReadBack(t *testing.T, st *trace.Store, run int64) int {
	t.Helper()
	checked := 0
	roots := allChildren(t, st, run, 0, trace.BySearch)
	r := newRig(t, st, 120, 40, Options{Run: run})
	for i, root := range roots {
		stride := max(root.SubtreeSize/2, 1)
		for id := root.ID; id < root.End(); id += stride {
			r.run(":", strconv.FormatInt(id, 10), "<Enter>")
			in := r.m.cur().sel
			if in == nil || in.node.ID != id || in.err != nil {
				t.Fatalf("run %d: :%d selected %+v", run, id, in)
			}
			for _, uci := range []bool{false, true} {
				text := in.pathText(uci)
				if i != trace.ReportedRoot(r.m.cur().t.run, roots) && !strings.HasPrefix(text, trace.IterationLabel(root.Iteration)) {
					t.Errorf("run %d: node %d of iteration %d prints %q, naming no iteration", run, id, root.Iteration, text)
				}
				r.run("/", text, "<Enter>")
				if got := r.m.cur().sel.node.ID; got != id {
					t.Errorf("run %d: node %d prints path %q, which / reads as node %d:\n%s", run, id, text, got, r.text())
					r.run(":", strconv.FormatInt(id, 10), "<Enter>")
				}
				checked++
			}
		}
	}
	return checked
}

// TestPathPromptNamesIteration: / reads a place as diff and check print
// it ("iteration 1: e4"), from that iteration's root, and --path's
// Options.Iteration does the same at start; an iteration the run lacks,
// or one after + (a path from the node), is said and the selection kept.
func TestPathPromptNamesIteration(t *testing.T) {
	st := openFixture(t)
	roots := allChildren(t, st, 1, 0, trace.BySearch)
	i, ok := trace.IterationRoot(roots, 1, 0)
	if !ok || roots[i].ID == roots[len(roots)-1].ID {
		t.Fatalf("the fixture's run 1 needs an iteration 1 before its last (roots %d)", len(roots))
	}
	kids := allChildren(t, st, 1, roots[i].ID, trace.BySearch)
	want := kids[len(kids)-1]
	r := newRig(t, st, 120, 40, Options{Run: 1})
	move := want.Move.UCI()
	r.run("/", "iteration 1: "+move, "<Enter>")
	if got := r.m.cur().sel.node.ID; got != want.ID {
		t.Errorf("/ iteration 1: %s selected node %d, want %d:\n%s", move, got, want.ID, r.text())
	}
	for _, c := range []struct{ text, says string }{
		{"iteration 99: " + move, "the run has no iteration 99"},
		{"+iteration 1: " + move, "a path from the node (+) names no iteration"},
	} {
		r.run("/", c.text, "<Enter>")
		if got := r.m.cur().sel.node.ID; got != want.ID || !strings.Contains(r.text(), c.says) {
			t.Errorf("/ %s: selection %d (was %d); want it kept and %q shown:\n%s", c.text, got, want.ID, c.says, r.text())
		}
	}
	r = newRig(t, st, 120, 40, Options{Run: 1, Root: &trace.PlaceRoot{It: 1}, Path: []string{move}})
	if got := r.m.cur().sel.node.ID; got != want.ID {
		t.Errorf("Options{Root: iteration 1, Path: %s} selected node %d, want %d", move, got, want.ID)
	}
}

// TestSelectionCentredOnFirstDraw: a node selected before a pane is first
// drawn (view --node, view --path, the following pane as compare mode
// opens) shows as centre() places it at the pane's height, with the rows
// above it on screen. Before the first draw the height was unknown, so
// the selected row became the pane's top row: --node opened on a node
// with no parent in sight, and the right pane of = started rows away
// from the left one until the cursor moved (walkthrough).
func TestSelectionCentredOnFirstDraw(t *testing.T) {
	st := openFixture(t)
	for _, tc := range []struct {
		name string
		opt  Options
		keys []string
	}{
		{"--node", Options{Run: 1, Node: ptr(500)}, nil},
		{"--path", Options{Run: 1, Path: pvSAN(t, st, 1, 3)}, nil},
		{"compare mode", Options{Run: 1}, []string{"=", "j", "<Enter>"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, st, 160, 40, tc.opt)
			r.run(tc.keys...)
			for i, p := range r.m.panes {
				tr := p.t
				want := max(0, min(tr.cursor-tr.height/2, tr.rows()-tr.height))
				if tr.cursor < 3 || tr.top != want {
					t.Errorf("pane %d: cursor on row %d, top row %d, want %d (%d rows, %d on screen):\n%s",
						i, tr.cursor, tr.top, want, tr.rows(), tr.height, r.text())
				}
			}
		})
	}
}
