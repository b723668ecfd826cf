package viewer

import (
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// Options set up a Model.
type Options struct {
	// Run is the run to show; 0 picks the last run of the file and, when the
	// file holds several, opens the run picker.
	Run int64
	// Node selects this node id at start (expanding the path to it); 0 is
	// the run node. nil selects the default (the last iteration).
	Node *int64
	// Path selects the node this move path (SAN or UCI, from the root
	// position, in the last iteration) leads to at start.
	Path []string
	// Root, when not nil, starts Path at that iteration root
	// (trace.IterationRoot; with no Path, selects the root): a place diff
	// or check printed, "iteration 2: ..." or "iteration 2·1: ..."
	// (trace.ParsePlace; iteration 0 included). nil starts it in the
	// iteration the run reports.
	Root *trace.PlaceRoot
	// ASCII draws the board, markers and bars in plain ASCII.
	ASCII bool
	// UCI shows moves in UCI instead of SAN.
	UCI bool
	// NoColor turns colour off; it is also off when NO_COLOR is set.
	NoColor bool
	// File is the name shown in the header.
	File string
}

// mode is what the keyboard currently drives.
type mode int

const (
	modeTree mode = iota
	modePrompt
	modeHelp
	modeRuns
	modeHotspots
)

// Model is the viewer's whole state: the run(s) shown, their trees, the
// cursor, the overlays and prompts. It draws itself on a tcell.Screen and
// changes only in Handle, so the screen goroutine owns it entirely.
type Model struct {
	ctx   context.Context // ictx: what queries run with
	ictx  *interruptible
	src   trace.Reader
	opt   Options
	runs  []trace.Run
	panes []*pane // one, or two in compare mode
	focus int

	st    styles
	g     *glyphs
	ascii bool
	uci   bool
	flip  bool
	info  bool // narrow screens: show board and details instead of the tree

	mode      mode
	prompt    prompt
	msg       string
	msgErr    bool
	quit      bool
	help      int // scroll of the help screen, in lines
	helpLines int // lines of the help screen at the last draw
	list      int // cursor in the run or hotspot list
	pick      pickPurpose
	hotByGr   bool // the hotspot list ranks by growth rather than size

	lastMouse  bool // button 1 was down at the previous mouse event
	lay        layout
	alignCache map[[4]int64]*aligned // compare mode: child alignments along the followed path
	clip       []byte                // text to put on the clipboard at the next draw
	hotPaths   map[[2]int64]string   // move paths of hotspots shown in the list
	resync     bool                  // the user asked for a full redraw
	// post sends an event to the screen goroutine (tcell's PostEvent);
	// nil when there is no event loop, and then nothing runs in the
	// background.
	post func(tcell.Event) error
}

// pane is one tree on screen with its selection details.
type pane struct {
	t       *tree
	hot     []trace.Hotspot // loaded on first use
	hotGr   []trace.Hotspot
	hotIdx  int
	hotBusy bool // hotspots are being ranked in the background
	hotGen  int  // bumped on reload, so a late ranking is dropped
	sel     *nodeInfo
	// partner maps node ids of this pane's followed path to the other
	// pane's nodes (compare mode).
	partner map[int64]int64
	lost    string // compare mode: where following the other pane stopped
}

type pickPurpose int

const (
	pickRun pickPurpose = iota
	pickCompare
)

// New opens the run asked for and selects the start node. Every problem
// with the options (no such run, node or move) is an error here, before a
// screen is touched.
func New(ctx context.Context, src trace.Reader, opt Options) (*Model, error) {
	runs, err := src.Runs(ctx)
	if err != nil {
		return nil, err
	}
	if len(runs) == 0 {
		return nil, fmt.Errorf("%s holds no runs yet (record one with 'horizon trace')", nameOr(opt.File, "the trace"))
	}
	m := &Model{src: src, opt: opt, runs: runs, ascii: opt.ASCII, uci: opt.UCI}
	m.ictx = newInterruptible(ctx)
	m.ctx, ctx = m.ictx, m.ictx
	color := !opt.NoColor && os.Getenv("NO_COLOR") == ""
	m.st = newStyles(color)
	m.setGlyphs()
	id := opt.Run
	if id == 0 {
		id = runs[len(runs)-1].ID
	} else if !m.hasRun(id) {
		if _, err := src.Run(ctx, id); err != nil {
			return nil, err // trace's wording, with the runs there are
		}
		return nil, fmt.Errorf("%s: run %d: %w", nameOr(opt.File, "trace"), id, trace.ErrNoRun)
	}
	t, err := newTree(ctx, src, id)
	if err != nil {
		return nil, err
	}
	m.panes = []*pane{{t: t}}
	switch {
	case opt.Node != nil:
		if err := t.reveal(*opt.Node); err != nil {
			return nil, fmt.Errorf("--node %d: %w", *opt.Node, err)
		}
	case len(opt.Path) > 0 || opt.Root != nil:
		from, fen := t.runNode, ""
		if opt.Root != nil {
			if from, err = t.iterationRoot(*opt.Root); err != nil {
				return nil, fmt.Errorf("--path %q: %w", trace.PlaceText(*opt.Root, opt.Path, nil, nil), err)
			}
			fen = t.run.FEN
		}
		n, err := t.findPath(from, fen, opt.Path)
		if err != nil {
			return nil, fmt.Errorf("--path %q: %w", strings.Join(opt.Path, " "), err)
		}
		if err := t.reveal(n.ID); err != nil {
			return nil, fmt.Errorf("--path %q: %w", strings.Join(opt.Path, " "), err)
		}
	}
	if opt.Run == 0 && len(runs) > 1 && opt.Node == nil && len(opt.Path) == 0 && opt.Root == nil {
		m.openPicker(pickRun)
	}
	m.refreshSel()
	return m, nil
}

func nameOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func (m *Model) hasRun(id int64) bool {
	for _, r := range m.runs {
		if r.ID == id {
			return true
		}
	}
	return false
}

func (m *Model) setGlyphs() {
	if m.ascii {
		m.g = &asciiGlyphs
	} else {
		m.g = &unicodeGlyphs
	}
}

// Quit reports whether the user asked to leave.
func (m *Model) Quit() bool { return m.quit }

// SelectedFEN returns the position at the selected node, which the command
// prints on exit.
func (m *Model) SelectedFEN() string {
	p := m.cur()
	if p.sel == nil {
		return p.t.run.FEN
	}
	return p.sel.fen
}

// SelectedNode returns the selected node of the focused pane.
func (m *Model) SelectedNode() trace.Node {
	_, n, _ := m.cur().t.selected()
	return n
}

func (m *Model) cur() *pane { return m.panes[m.focus] }

func (m *Model) setMsg(format string, a ...any) {
	m.msg, m.msgErr = fmt.Sprintf(format, a...), false
}

func (m *Model) setErr(err error) {
	if err == nil {
		return
	}
	m.msg, m.msgErr = shortErr(err), true
	if errors.Is(err, context.Canceled) && m.ictx != nil && m.ictx.base.Err() == nil {
		m.msg = "interrupted"
	}
}

// tracePrefix is how the trace package starts its errors ("trace FILE: ");
// on screen the file is in the header already.
var tracePrefix = regexp.MustCompile(`(open )?trace [^: ]*: `)

func shortErr(err error) string {
	return tracePrefix.ReplaceAllString(err.Error(), "")
}

// nodeInfo is what the board and details panes show about the selected
// node, computed once per selection.
type nodeInfo struct {
	node     trace.Node
	parent   trace.Node // zero for the run node
	path     []trace.Node
	san      []string // moves of the path in SAN (nodes without a move skipped)
	uci      []string // moves of the path in UCI, a re-searched move marked with its visit
	numbered string   // the SAN path with move numbers, a re-searched move marked with its visit
	numTok   []string // numbered, a move (with its number) a token
	// root is the iteration root the node's path must name to read back
	// (pathText), when named is true; a bare path, which '/' and --path
	// read in the iteration the run reports, leads to the others.
	root     trace.PlaceRoot
	named    bool
	pos      *engine.Position
	fen      string
	last     engine.Move
	swing    []swingStep  // QS nodes: material along the path from the QS root
	swingFor engine.Color // the side to move at the QS root, whose view the swing takes
	qsRoot   int          // index in path of the QS root, -1 outside QS
	// unrecorded counts the nodes below the node that a recording filter
	// left out of the file (trace.Unrecorded): the tree pane cannot show
	// them, so the details say how many there are.
	unrecorded int64
	err        error
	// why is the cause of the node's move (explain.MoveReason), mix the
	// cause mix of its subtree (see explainSel); nil mix: none worked out
	// (an error above, or a node still being searched).
	why    engine.Reason
	whyErr error
	mix    *causeMix
	// explained: explainSel ran. It runs when the details are drawn,
	// not when the selection moves: a held key passes many nodes
	// between two draws.
	explained bool
}

// pathText is the node's move path as the details print it, SAN with move
// numbers or UCI, each re-searched move marked with its visit, led by its
// iteration ("iteration 3: 1. dxe6·2 Bxe2") when the node lies outside the
// iteration a bare path reads in, so that every path the viewer prints
// reads back through '/' and --path to the node: the reported
// iteration's root is "(root)" (trace.RootPath).
func (in *nodeInfo) pathText(uci bool) string {
	path := in.numTok
	if uci {
		path = in.uci
	}
	switch {
	case in.node.Kind == engine.KindRun:
		return "(root position)" // no path names the run node
	case !in.named:
		return trace.PlaceText(trace.BareRoot, path, nil, nil)
	}
	return trace.PlaceText(in.root, path, nil, nil) // the tokens carry their visits
}

// swingStep is one move of a QS line and the material balance after it,
// from the view of the side to move at the QS root.
type swingStep struct {
	san      string
	captured engine.PieceType
	balance  int
}

// refreshSel recomputes the selection details of every pane whose selected
// node changed.
func (m *Model) refreshSel() {
	for _, p := range m.panes {
		_, n, err := p.t.selected()
		if err != nil {
			dropSel(p.sel)
			p.sel = &nodeInfo{node: n, err: err, fen: p.t.run.FEN}
			continue
		}
		if p.sel != nil && p.sel.node.ID == n.ID && p.sel.node.RunID == n.RunID && p.sel.err == nil {
			continue
		}
		dropSel(p.sel)
		p.sel = p.t.info(n)
	}
}

// info reads the path to n and replays it.
func (t *tree) info(n trace.Node) *nodeInfo {
	in := &nodeInfo{node: n, fen: t.run.FEN, qsRoot: -1}
	path, err := t.src.Path(t.ctx, t.run.ID, n.ID)
	if err != nil {
		in.err = err
		return in
	}
	in.path = path
	if len(path) >= 2 {
		in.parent = path[len(path)-2]
	}
	pos, err := engine.ParseFEN(t.run.FEN)
	if err != nil {
		in.err = err
		return in
	}
	rootSide := pos.SideToMove()
	rule := t.run.MoveRule()
	for i, x := range path {
		if x.Kind == engine.KindQS && in.qsRoot < 0 {
			in.qsRoot = i
			in.swingFor = rootSide
			if x.Ply%2 == 1 {
				in.swingFor = rootSide.Other()
			}
		}
		if trace.IsNested(x) && i >= 1 {
			// A nested search's root: its mark is a step of the path (a
			// place names it so), marked with its visit as a move is.
			v, n, err := t.visit(path[i-1], x)
			if err != nil {
				in.err = err
				break
			}
			tok := trace.VisitMark(trace.NestedText(t.nested[x.ID]), v, n)
			in.numTok, in.uci = append(in.numTok, tok), append(in.uci, tok)
			continue
		}
		if x.Move == engine.NoMove {
			continue
		}
		if !rule.Playable(pos, x.Move) {
			in.err = fmt.Errorf("node %d: move %s is not legal in %s", x.ID, x.Move.UCI(), pos.FEN())
			break
		}
		san := pos.SAN(x.Move)
		tok := san
		if pos.SideToMove() == engine.White {
			tok = fmt.Sprintf("%d. %s", pos.Fullmove(), san)
		} else if len(in.numTok) == 0 {
			tok = fmt.Sprintf("%d... %s", pos.Fullmove(), san)
		}
		// A move searched more than once under its parent (a PVS
		// re-search) is marked with its visit, as diff, hotspots and the
		// page mark it.
		uci := x.Move.UCI()
		if i >= 1 {
			v, n, err := t.visit(path[i-1], x)
			if err != nil {
				in.err = err
				break
			}
			tok, uci = trace.VisitMark(tok, v, n), trace.VisitMark(uci, v, n)
		}
		in.numTok = append(in.numTok, tok)
		in.san = append(in.san, san)
		in.uci = append(in.uci, uci)
		if in.qsRoot >= 0 && i > in.qsRoot {
			capt := pos.Captured(x.Move)
			gain := engine.PieceValue(capt)
			if pr := x.Move.Promotion(); pr != engine.NoPieceType {
				gain += engine.PieceValue(pr) - engine.PieceValue(engine.Pawn)
			}
			// The move into x was made at ply x.Ply-1; the balance is kept
			// from the view of the side to move at the QS root.
			if (x.Ply-1)%2 != path[in.qsRoot].Ply%2 {
				gain = -gain
			}
			prev := 0
			if len(in.swing) > 0 {
				prev = in.swing[len(in.swing)-1].balance
			}
			in.swing = append(in.swing, swingStep{san: san, captured: capt, balance: prev + gain})
		}
		pos.MakeMove(x.Move)
	}
	in.numbered = strings.Join(in.numTok, " ")
	if len(path) >= 2 && path[0].Kind == engine.KindRun {
		bare, roots, err := t.reportedRoot(path[0])
		if err != nil {
			in.err = err
			return in
		}
		if bare != path[1].ID {
			in.root, in.named = trace.RootOf(roots, path[1].ID), true
		}
	}
	in.pos = pos
	in.fen = pos.FEN()
	in.last = pos.LastMove()
	if t.run.Filter != "" && n.SubtreeSize > 1 && !stillOpen(n) {
		kids, err := t.src.Children(t.ctx, t.run.ID, n.ID, trace.BySearch, 0, 0)
		if err != nil {
			in.err = err
			return in
		}
		in.unrecorded = trace.Unrecorded(n, kids)
	}
	return in
}

// bareRoot is the root a bare path starts from, for one state of the run.
type bareRoot struct {
	id, size int64
	depth    int
	status   trace.Status
	roots    []trace.Node // the run node's children, which a place's root is named among (trace.RootOf)
}

// reportedRoot is the id of the iteration root a bare path starts from
// (trace.ReportedRoot) under run, the run node, and the run's roots, read
// once per state of the run rather than per selection: a cursor move
// reads no child list.
func (t *tree) reportedRoot(run trace.Node) (int64, []trace.Node, error) {
	key := bareRoot{size: run.SubtreeSize, depth: t.run.Depth, status: t.run.Status}
	if t.bare.id > 0 && t.bare.size == key.size && t.bare.depth == key.depth && t.bare.status == key.status {
		return t.bare.id, t.bare.roots, nil
	}
	roots, err := t.children(run.ID, trace.BySearch, 0, 0)
	if err != nil || len(roots) == 0 {
		return -1, nil, err
	}
	key.id, key.roots = roots[trace.ReportedRoot(t.run, roots)].ID, roots
	t.bare = key
	return key.id, roots, nil
}

// iterationRoot is the root a path of root's iteration starts from
// (trace.IterationRoot), or an error naming the iterations the run has.
func (t *tree) iterationRoot(root trace.PlaceRoot) (trace.Node, error) {
	roots, err := t.children(t.runNode.ID, trace.BySearch, 0, 0)
	if err != nil {
		return trace.Node{}, err
	}
	i, ok := trace.IterationRoot(roots, root.It, root.Visit)
	if !ok {
		return trace.Node{}, fmt.Errorf("%s: %w", trace.NoIterationText(roots, root.It, root.Visit), trace.ErrNoMove)
	}
	return roots[i], nil
}

// findPath follows moves (SAN or UCI) down from node from; when from is the
// run node the path starts at the root of the iteration the run reports
// (trace.ReportedRoot), as trace.Find's does. fen is the
// position at from ("" for the run node). Where a move was searched
// several times at one node (a re-search) the last search is taken, as
// trace.Find does: it is the one whose score the parent used; a move
// marked with its visit (dxe6·2) takes that visit.
func (t *tree) findPath(from trace.Node, fen string, moves []string) (trace.Node, error) {
	cur := from
	if from.Kind == engine.KindRun {
		roots, err := t.children(from.ID, trace.BySearch, 0, 0)
		if err != nil {
			return cur, err
		}
		if len(roots) == 0 {
			return cur, fmt.Errorf("run %d has no iterations", t.run.ID)
		}
		cur, fen = roots[trace.ReportedRoot(t.run, roots)], t.run.FEN
	}
	pos, err := engine.ParseFEN(fen)
	if err != nil {
		return cur, err
	}
	for i, text := range moves {
		if trace.IsNestedStep(text) {
			// A nested search's root: the same position, no move made.
			next, err := t.childByNested(cur, text)
			if err != nil {
				return cur, fmt.Errorf("step %d (%s): %w", i+1, text, err)
			}
			cur = next
			continue
		}
		mv, visit, err := trace.ParsePathMove(pos, text)
		if err != nil {
			return cur, fmt.Errorf("move %d (%s): %w", i+1, text, err)
		}
		next, searched, ok, err := t.childByMove(cur, mv, visit)
		if err != nil {
			return cur, err
		}
		if !ok && searched > 0 {
			return cur, fmt.Errorf("move %d (%s): node %d has no child for it: %s %s: %w", i+1, text, cur.ID, pos.SAN(mv), trace.NotSearchedText(searched), trace.ErrNoMove)
		}
		if !ok {
			return cur, fmt.Errorf("move %d (%s): node %d has no child for it: %w", i+1, text, cur.ID, trace.ErrNoMove)
		}
		cur = next
		pos.MakeMove(mv)
	}
	return cur, nil
}

// reveal selects node id in the focused pane, turning the filters off when
// they hide it.
func (m *Model) reveal(id int64) error {
	t := m.cur().t
	err := t.reveal(id)
	var he hiddenError
	if errors.As(err, &he) {
		if err := t.setFilter(filter{}); err != nil {
			return err
		}
		if err := t.reveal(id); err != nil {
			return err
		}
		m.setMsg("filters turned off to show node %d", id)
		return nil
	}
	return err
}
