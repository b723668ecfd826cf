package export

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"path/filepath"
	"sort"
	"sync/atomic"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/explain"
	"github.com/horizonqs/horizon/trace"
)

// The page's script and styles, written for Horizon (no third-party code).
var (
	//go:embed htmlassets/page.css
	pageCSS string
	//go:embed htmlassets/page.js
	pageJS string
)

// HTMLOptions shape an interactive HTML page.
type HTMLOptions struct {
	// Width is the merge resolution in pixels: nodes narrower than
	// 1/Width of the top node's subtree are merged with their neighbours
	// and not read below, as in the icicle export. <= 0 means
	// DefaultHTMLWidth.
	Width int
	// Depth is how many levels below the top node are read; < 0 means all.
	Depth int
	// Hotspots is how many entries each hotspot list keeps; <= 0 means 20.
	Hotspots int
	// Progress, when set, counts the rows read so far, for a progress
	// line; it may be read while the page is built.
	Progress *atomic.Int64
}

func (o *HTMLOptions) read(n int) {
	if o.Progress != nil {
		o.Progress.Add(int64(n))
	}
}

// DefaultHTMLWidth is the default merge resolution of a page: ten times a
// 1,600-pixel chart, so that a node can be zoomed ten times before the
// nodes merged below it would be wider than a pixel on screen.
const DefaultHTMLWidth = 16000

// A page's size: HTMLPageBytes of script and styles, then at most
// HTMLNodeBytes for each node it draws and each run of narrow neighbours it
// merges. What it draws depends on the tree's shape and the width, not on
// the node count: every node at least 1/Width of the top's subtree wide,
// at most Width of them on a level. A bushy tree of millions of nodes can
// draw fewer than a deep, narrow one of a hundred thousand.
const (
	HTMLPageBytes = 50 << 10
	HTMLNodeBytes = 200
)

func (o *HTMLOptions) defaults() {
	if o.Width <= 0 {
		o.Width = DefaultHTMLWidth
	}
	if o.Hotspots <= 0 {
		o.Hotspots = 20
	}
}

// PageData is what an HTML page embeds (as JSON) and draws: one tree, or
// two aligned trees for a diff. It is exported for the golden tests and
// for tools that want the data without the page.
type PageData struct {
	Version int    `json:"version"` // of this layout; 1
	Kind    string `json:"kind"`    // "tree" or "diff"
	Title   string `json:"title"`
	// Width is the merge resolution the data was cut at.
	Width  int          `json:"width"`
	Labels PageLabels   `json:"labels"`
	Colors PageColors   `json:"colors"`
	Sides  []*PageSide  `json:"sides"`
	Diff   *PageDiffTop `json:"diff,omitempty"`
}

// PageLabels are the engine's names and meanings of its codes, indexed
// by code, so the page never keeps its own copy.
type PageLabels struct {
	Kinds         []string `json:"kinds"`
	KindMeanings  []string `json:"kind_meanings"`
	Bounds        []string `json:"bounds"`
	BoundMeanings []string `json:"bound_meanings"`
	Causes        []string `json:"causes"`
	CauseTexts    []string `json:"cause_texts"`
	CauseMeanings []string `json:"cause_meanings"`
	// VisitSep is trace.VisitSep, which marks a move's visit in a path;
	// VisitSepsASCII trace.VisitSepsASCII, read as it before a number.
	VisitSep       string `json:"visit_sep"`
	VisitSepsASCII string `json:"visit_seps_ascii"`
	// Iteration is trace.IterationPrefix, which names an iteration
	// ("iteration 3") and begins a place that names one.
	Iteration string `json:"iteration"`
	// RootPath is trace.RootPath, how a place of no moves prints.
	RootPath string `json:"root_path"`
	// Reasons are engine.Reason's names, meanings and remedies, by code:
	// why a node is in the tree (PageNodes.Reason, PageSide.CauseMix).
	Reasons        []string `json:"reasons"`
	ReasonMeanings []string `json:"reason_meanings"`
	ReasonRemedies []string `json:"reason_remedies"`
}

// PageColors are the export palette (label.go), handed to the page.
type PageColors struct {
	Root     string   `json:"root"`
	FW       string   `json:"fw"`
	FW2      string   `json:"fw2"`
	QS       string   `json:"qs"`
	QS2      string   `json:"qs2"`
	Merged   string   `json:"merged"`
	PV       string   `json:"pv"`
	Outcomes []string `json:"outcomes"` // by outcome code: fail low, beta cutoff, stand pat, exact
	Only     string   `json:"only"`     // nodes only one run of a diff has
}

// PageSide is one tree of a page: its run, the path to its top node, the
// nodes drawn on their own (in pre-order, columns of equal length) and the
// merged runs of narrow nodes.
type PageSide struct {
	Label   string   `json:"label"`
	File    string   `json:"file"` // base name of the trace file
	Run     PageRun  `json:"run"`
	TopPath []string `json:"top_path"` // SAN from the run's position to the top node
	// TopVisits is the visit of each move of TopPath (trace.Visits): 2
	// for a move searched again under the same parent, as a PVS
	// re-search; TopSearches how many times each was searched there. The
	// page marks the moves with both as diff does (dxe6·2, dxe6·1:
	// trace.VisitMark).
	TopVisits   []int `json:"top_visits"`
	TopSearches []int `json:"top_searches"`
	// NameIteration says that a node's place on this side names its
	// iteration ("iteration 3: Nxe5 dxe6·2", trace.PlaceText), as diff,
	// check and hotspots print it, so that the page's search and --path
	// read it back there: false for a run that searched QS alone, whose
	// places print bare (trace.PlaceIteration).
	NameIteration bool `json:"name_iteration"`
	// TopRoot is the iteration root above the top node (the top itself
	// when it is one; iteration -1 when it is the run node), which names
	// the places of a page that does not draw it (trace.PlaceRoot).
	TopRoot  PageRoot      `json:"top_root"`
	Nodes    PageNodes     `json:"nodes"`
	Merged   PageMerged    `json:"merged"`
	Hotspots []PageHotspot `json:"hotspots"`
	// Elsewhere lists the run's biggest QS trees that lie outside the
	// page's top (another iteration's, most often), which the page
	// cannot zoom to but names, with the command that draws each: the
	// run's biggest explosion was left out of a page of another
	// iteration. Empty when the top is the run node.
	Elsewhere []PageElsewhere `json:"elsewhere"`
	// CauseMix is, for the biggest drawn nodes (at most maxCauseMixes),
	// their subtrees' nodes by cause as horizon explain counts them (each
	// node under the first reason met on the way down from the drawn
	// node; the drawn node itself necessary): CauseMixNode[k] is a node's
	// index, CauseMix[k] its counts as pairs of an engine.Reason and a
	// node count, biggest first. Transpositions are judged against every
	// position searched before under the page's top, so below the top a
	// mix may count a few more than horizon explain --node does alone.
	// Empty when the top's subtree is over maxCauseRows rows (CauseNote
	// says so).
	CauseMixNode []int     `json:"cause_mix_node"`
	CauseMix     [][]int64 `json:"cause_mix"`
	CauseNote    string    `json:"cause_note,omitempty"`
	// Read is how many rows were read from the trace below the top node.
	Read int64 `json:"read"`
	// TopNodes is the top node's node count (trace.Node.Nodes): its size
	// less the run node's row when it is the run node. The page says it
	// where it says the top's nodes; every other node's is its size.
	TopNodes int64 `json:"top_nodes"`

	// What labelling a chain's cause needs: the run's options (nil for
	// another engine's run), each drawn node's move, and the top node's
	// parent (the zero Node when the top is the run node).
	opts      *engine.Options
	run       trace.Run       // how its scores print (trace.Run.Scores)
	words     trace.EvalWords // how a node's static eval is named
	moves     []engine.Move
	topParent trace.Node
	topPlace  string // the title's (topLine.place)
}

// PageRoot is a trace.PlaceRoot: the iteration of a root, its visit
// among that iteration's roots and their number.
type PageRoot struct {
	Iteration int `json:"iteration"`
	Visit     int `json:"iteration_visit"`    // as trace.PlaceFields names it
	Searches  int `json:"iteration_searches"` // as trace.PlaceFields names it
}

// PageRun describes the run a side shows.
type PageRun struct {
	ID      int64  `json:"id"`
	Variant string `json:"variant"`
	FEN     string `json:"fen"`
	// PositionLine is the heading's line of the position (positionLine):
	// its FEN, after its EPD record's id when it has one.
	PositionLine string `json:"position_line"`
	Status       string `json:"status"`
	Depth        int    `json:"depth"`
	Nodes        int64  `json:"nodes"`
	QSNodes      int64  `json:"qs_nodes"`
	// QSShareText is the run's QS share as runs, stats and the viewer
	// print it (engine.Percent of trace.Run.QSShare).
	QSShareText string `json:"qs_share_text"`
	BestMove    string `json:"best_move"`
	// BestSAN is BestMove in SAN (trace.Run.BestSAN), "" when it does not
	// read: the page names the move as the commands' text does.
	BestSAN string `json:"best_san"`
	Score   *int   `json:"score"` // null when the run has no score
	// ScoreText is Score as the run's scores print (trace.Run.Scores:
	// #N for Horizon's mates and another engine's declared ones, its
	// other numbers as they are), "none"
	// when the run has no score (no iteration finished).
	ScoreText string `json:"score_text"`
	Filter    string `json:"filter,omitempty"`
	// OpenWord is what the page calls a node still open when its rows
	// were written (PageNodes.Open): trace.Status.OpenNode; "" for a
	// run that has no such node (trace.Status.Partial).
	OpenWord string `json:"open_word,omitempty"`
}

// PageNodes are the nodes drawn on their own, one column per field, in
// pre-order, so a node's descendants among them follow it.
type PageNodes struct {
	ID     []int64  `json:"id"`
	Parent []int    `json:"parent"` // index of the parent; -1 for the top node
	SAN    []string `json:"san"`    // "" for the run node and iteration roots
	// Visit is the visit of the node's move under its parent
	// (trace.ChildVisits): 2 for a second search of it there. The top
	// node's is the last of TopVisits (1 when it has no move).
	Visit []int `json:"visit"`
	// Searches is how many times the node's move was searched under its
	// parent (trace.ChildVisits; on a diff page the most either run
	// made, compare.Pair), which the page's paths mark as
	// trace.VisitMark does. The top node's is the last of TopSearches.
	Searches []int    `json:"searches"`
	UCI      []string `json:"uci"`
	Kind     []int    `json:"kind"` // engine.NodeKind
	Iter     []int    `json:"iteration"`
	Ply      []int    `json:"ply"`
	Depth    []int    `json:"depth"`
	// QSPly is the distance from the QS root, -1 outside QS; QSLevel the
	// engine's QS level, -1 where it has none.
	QSPly    []int    `json:"qs_ply"`
	QSLevel  []int    `json:"qs_level"`
	Alpha    []string `json:"alpha"`
	Beta     []string `json:"beta"`
	StandPat []string `json:"stand_pat"` // "" when none
	// EvalOnly lists the nodes (by index) whose stand_pat is a static
	// eval they did not stand on (trace.EvalWords.StoodPat): the page
	// calls it "static eval" there, as the viewer does.
	EvalOnly []int    `json:"eval_only,omitempty"`
	Score    []string `json:"score"`
	Bound    []int    `json:"bound"`   // engine.Bound
	Cause    []int    `json:"cause"`   // engine.Cause
	Outcome  []int    `json:"outcome"` // colour of the outcome stripe (PageColors.Outcomes)
	CutIndex []int    `json:"cut_index"`
	// CutAtLeast lists the nodes (by index) whose cut index is a lower
	// bound (trace.Node.CutIndexAtLeast): the page labels them beta@255+.
	CutAtLeast []int `json:"cut_at_least,omitempty"`
	// CutText is trace.Run.CutText's wording of a node with a cut index
	// (the viewer's and diff's), "" for the others.
	CutText []string `json:"cut_text"`
	// MovesText is trace.Run.MovesText's wording of the node's move
	// counts (the viewer's): passes, a lower bound, a count another
	// engine left out.
	MovesText []string `json:"moves_text"`
	// Open lists the nodes (by index) that were still open when their
	// rows were written (trace.Node.Open): they never stopped, and their
	// score is not known; the page calls them PageRun.OpenWord.
	Open       []int    `json:"open,omitempty"`
	Extension  []int    `json:"extension"`
	InCheck    []int    `json:"in_check"`   // 0 or 1
	Incomplete []int    `json:"incomplete"` // 0 or 1
	PV         []int    `json:"pv"`         // 0 or 1: on the principal variation from the top node
	Size       []int64  `json:"size"`
	FEN        []string `json:"fen"`
	// Reason is why the node is in the tree: the engine.Reason of its
	// move, judged at its parent as horizon explain judges it; -1 for the
	// top, whose move the page does not judge, and for every node when
	// the page carries no causes (PageSide.CauseNote).
	Reason []int `json:"reason"`
	// Match is, in a diff, the index of the aligned node in the other
	// side, -1 when only this side has the node.
	Match []int `json:"match,omitempty"`
}

// PageMerged are runs of neighbouring children of one drawn node, each
// narrower than a pixel at the top level, drawn as one rectangle: the id
// range [From, End) of their subtrees. Their subtrees were not read.
type PageMerged struct {
	Parent []int   `json:"parent"`
	From   []int64 `json:"from"`
	End    []int64 `json:"end"`
	Count  []int64 `json:"count"` // nodes merged
	QS     []int64 `json:"qs"`    // of them QS
	Size   []int64 `json:"size"`  // nodes in their subtrees
	// Only counts, in a diff, the merged nodes the other side lacks.
	Only []int64 `json:"only,omitempty"`
}

// PageHotspot is one entry of a hotspot list.
type PageHotspot struct {
	What  string `json:"what"`  // "qs" (a QS tree) or "ext" (an extension chain, trace.IsChainTop)
	Cause string `json:"cause"` // engine.GrowthCause: qs, recapture-ext, check-ext, threshold-ext or ext (cause unknown)
	Node  int    `json:"node"`  // index into Nodes
	Size  int64  `json:"size"`  // subtree size
	Chain int    `json:"chain"` // ext: the longest run of consecutive extended moves from Node down
}

// A page's causes are bounded: the walk that finds them reads the top's
// whole subtree (the page itself reads only what it draws) and replays
// every move, about 4 µs a node, so a top of more than maxCauseRows rows
// gets none (a 1.4M-node page took 9 s of CPU with them, 3.5 s
// without); and only the maxCauseMixes biggest drawn nodes carry their
// subtree's mix (the others' are a horizon explain away).
const (
	maxCauseRows  = 1_000_000
	maxCauseMixes = 2000
)

// findCauses gives each drawn node its move's reason and the biggest
// drawn nodes their subtrees' cause mixes, in one walk of the top's
// subtree (explain.Each). Each node is counted, for every drawn node
// above it, under the first reason met below that drawn node: a walk
// keeps the open path and counts a node for each drawn node on it.
func (s *PageSide) findCauses(ctx context.Context, st trace.Reader, run trace.Run, top trace.Node) error {
	s.CauseMixNode, s.CauseMix = []int{}, [][]int64{}
	if top.SubtreeSize > maxCauseRows {
		s.CauseNote = fmt.Sprintf("the page's top holds %s nodes, over the %s the page explains", engine.Commas(top.SubtreeSize), engine.Commas(maxCauseRows))
		return nil
	}
	c := &s.Nodes
	at := make(map[int64]int, len(c.ID))
	for i, id := range c.ID {
		at[id] = i
	}
	mix := make([][engine.NumReasons]int64, len(c.ID))
	type open struct {
		end   int64
		drawn int // index among the drawn nodes, -1 when not drawn
		own   engine.Reason
	}
	path := []open{{end: top.End(), drawn: 0, own: engine.ReasonNecessary}}
	count := func() {
		first := engine.ReasonNecessary
		for k := len(path) - 1; k >= 0; k-- {
			if d := path[k].drawn; d >= 0 {
				mix[d][first]++
			}
			if path[k].own != engine.ReasonNecessary {
				first = path[k].own
			}
		}
	}
	if top.Parent >= 0 {
		count() // explain counts the top itself, not the run node's row
	}
	err := explain.Each(ctx, st, run, top, func(n trace.Node, own engine.Reason) error {
		for len(path) > 1 && n.ID >= path[len(path)-1].end {
			path = path[:len(path)-1]
		}
		d, ok := at[n.ID]
		if !ok {
			d = -1
		} else {
			c.Reason[d] = int(own)
		}
		path = append(path, open{end: n.End(), drawn: d, own: own})
		count()
		return nil
	})
	if err != nil {
		return err
	}
	// The biggest drawn nodes of more than one node, biggest first.
	var big []int
	for i := range c.ID {
		if c.Size[i] > 1 {
			big = append(big, i)
		}
	}
	sort.SliceStable(big, func(a, b int) bool { return c.Size[big[a]] > c.Size[big[b]] })
	big = big[:min(len(big), maxCauseMixes)]
	sort.Ints(big)
	for _, i := range big {
		var pairs []int64
		for _, r := range engine.Reasons() {
			if n := mix[i][r]; n > 0 {
				pairs = append(pairs, int64(r), n)
			}
		}
		sortPairs(pairs)
		s.CauseMixNode = append(s.CauseMixNode, i)
		s.CauseMix = append(s.CauseMix, pairs)
	}
	return nil
}

// sortPairs orders (reason, count) pairs by count, biggest first, ties in
// the reasons' order, as explain lists causes.
func sortPairs(p []int64) {
	type pair struct{ r, n int64 }
	ps := make([]pair, 0, len(p)/2)
	for k := 0; k+1 < len(p); k += 2 {
		ps = append(ps, pair{p[k], p[k+1]})
	}
	sort.SliceStable(ps, func(a, b int) bool { return ps[a].n > ps[b].n })
	for k, x := range ps {
		p[2*k], p[2*k+1] = x.r, x.n
	}
}

// PageElsewhere is a QS tree of the run outside the page's top.
type PageElsewhere struct {
	ID    int64  `json:"id"`
	Size  int64  `json:"size"`
	Place string `json:"place"` // trace.Place: what --path reads back
}

// elsewhereLimit is how many of the run's biggest QS trees a page looks
// at for those outside its top.
const elsewhereLimit = 5

// findElsewhere lists the run's biggest QS trees outside top (see
// PageSide.Elsewhere).
func (s *PageSide) findElsewhere(ctx context.Context, st trace.Reader, run trace.Run, top trace.Node) error {
	if top.Parent < 0 {
		return nil
	}
	hs, err := st.Hotspots(ctx, run.ID, trace.HotspotQS, elsewhereLimit)
	if err != nil {
		return err
	}
	for _, h := range hs {
		if top.Contains(h.Node.ID) || h.Node.ID < 0 {
			continue
		}
		place, err := trace.Place(ctx, st, run.ID, h.Node.ID)
		if err != nil {
			return err
		}
		s.Elsewhere = append(s.Elsewhere, PageElsewhere{ID: h.Node.ID, Size: h.Node.SubtreeSize, Place: place})
	}
	return nil
}

// PageDiffTop lists where two aligned trees part.
type PageDiffTop struct {
	Matched int64          `json:"matched"`
	OnlyA   int64          `json:"only_a"`
	OnlyB   int64          `json:"only_b"`
	Changed int64          `json:"changed"`
	Items   []PageDiffItem `json:"items"`
}

// PageDiffItem is one divergence: the first, or a subtree whose sizes
// differ most. A and B are node indexes, -1 where the side lacks the node
// or it was merged.
type PageDiffItem struct {
	What string `json:"what"` // "first" or "size"
	// PlaceFields are as diff gives them, and Place them as diff prints
	// them (compare.Report.Place), which the page lists and its search
	// reads back.
	trace.PlaceFields
	Place  string `json:"place"`
	A      int    `json:"a"`
	B      int    `json:"b"`
	NodesA int64  `json:"nodes_a"`
	NodesB int64  `json:"nodes_b"`
	Reason string `json:"reason,omitempty"`
	// Why is the first difference's rule and its words ("see-prune: B
	// prunes Qxf6: SEE -580 (see-prune)"; compare.Why).
	Why string `json:"why,omitempty"`
}

func pageLabels() PageLabels {
	var l PageLabels
	l.Kinds = engine.KindNames()
	for i := range l.Kinds {
		l.KindMeanings = append(l.KindMeanings, engine.NodeKind(i).Meaning())
	}
	l.Bounds = engine.BoundNames()
	for i := range l.Bounds {
		l.BoundMeanings = append(l.BoundMeanings, engine.Bound(i).Meaning())
	}
	l.Causes = engine.CauseNames()
	for i := range l.Causes {
		l.CauseTexts = append(l.CauseTexts, causeText(engine.Cause(i)))
		l.CauseMeanings = append(l.CauseMeanings, engine.Cause(i).Meaning())
	}
	l.VisitSep, l.VisitSepsASCII, l.Iteration, l.RootPath = trace.VisitSep, trace.VisitSepsASCII, trace.IterationPrefix, trace.RootPath
	for _, r := range engine.Reasons() {
		l.Reasons = append(l.Reasons, r.String())
		l.ReasonMeanings = append(l.ReasonMeanings, r.Meaning())
		l.ReasonRemedies = append(l.ReasonRemedies, r.Remedy())
	}
	return l
}

func pageColors() PageColors {
	return PageColors{Root: colIcicleRoot, FW: colIcicleFW, FW2: colIcicleFW2, QS: colIcicleQS, QS2: colIcicleQS2,
		Merged: colIcicleMerged, PV: colPV,
		Outcomes: []string{outFailLow: colLowLine, outBetaCut: colBetaLine, outStandPat: colStandLine, outExact: colExactLine},
		Only:     colOnly}
}

func pageRun(r trace.Run) PageRun {
	p := PageRun{ID: r.ID, Variant: r.Label(), FEN: r.FEN, PositionLine: positionLine(r), Status: string(r.Status), Depth: r.Depth,
		Nodes: r.Nodes, QSNodes: r.QSNodes, QSShareText: engine.Percent(r.QSShare()), BestMove: r.BestMove, BestSAN: r.BestSAN(), ScoreText: "none", Filter: r.FilterText()}
	if r.Scored() {
		p.Score = &r.Score
		p.ScoreText = r.ResultScores().Signed(engine.Score(r.Score))
	}
	if r.Status.Partial() {
		p.OpenWord = r.Status.OpenNode()
	}
	return p
}

// add appends a node and returns its index.
func (s *PageSide) add(n trace.Node, parent int, san string, visit, searches int, fen string, qsPly int, pv bool) int {
	c := &s.Nodes
	i := len(c.ID)
	uci := ""
	if n.Move != engine.NoMove {
		uci = n.Move.UCI()
	}
	sp := ""
	if n.HasStandPat {
		sp = s.run.Scores().Signed(n.StandPat)
	}
	s.moves = append(s.moves, n.Move)
	c.ID = append(c.ID, n.ID)
	c.Parent = append(c.Parent, parent)
	c.SAN = append(c.SAN, san)
	c.Visit = append(c.Visit, visit)
	c.Searches = append(c.Searches, searches)
	c.UCI = append(c.UCI, uci)
	c.Kind = append(c.Kind, int(n.Kind))
	c.Iter = append(c.Iter, n.Iteration)
	c.Ply = append(c.Ply, n.Ply)
	c.Depth = append(c.Depth, n.Depth)
	c.QSPly = append(c.QSPly, qsPly)
	c.QSLevel = append(c.QSLevel, n.QSLevel)
	wf := s.run.WindowScores(n)
	c.Alpha = append(c.Alpha, wf.Text(n.Alpha))
	c.Beta = append(c.Beta, wf.Text(n.Beta))
	c.StandPat = append(c.StandPat, sp)
	if n.HasStandPat && !s.words.StoodPat(n) {
		c.EvalOnly = append(c.EvalOnly, i)
	}
	c.Score = append(c.Score, s.run.NodeScores(n).Signed(n.Score))
	c.Bound = append(c.Bound, int(n.Bound))
	c.Cause = append(c.Cause, int(n.Cause))
	c.Outcome = append(c.Outcome, int(outcomeOf(n)))
	c.CutIndex = append(c.CutIndex, n.CutIndex)
	cut := ""
	if n.CutIndex >= 0 {
		cut = s.run.CutText(n)
	}
	c.CutText = append(c.CutText, cut)
	if n.CutIndexAtLeast {
		c.CutAtLeast = append(c.CutAtLeast, i)
	}
	c.MovesText = append(c.MovesText, s.run.MovesText(n))
	if n.Open {
		c.Open = append(c.Open, i)
	}
	c.Extension = append(c.Extension, n.Extension)
	c.InCheck = append(c.InCheck, b01(n.InCheck))
	c.Incomplete = append(c.Incomplete, b01(n.Incomplete))
	c.PV = append(c.PV, b01(pv))
	c.Size = append(c.Size, n.SubtreeSize)
	c.FEN = append(c.FEN, fen)
	c.Reason = append(c.Reason, -1)
	return i
}

func b01(b bool) int {
	if b {
		return 1
	}
	return 0
}

// pending is a run of narrow children of one node being merged.
type pending struct {
	active          bool
	from, end       int64
	count, qs, size int64
	only            int64
}

// take adds a narrow node to the run, first flushing the run when the
// node does not continue it (a recording filter left a gap).
func (p *pending) take(s *PageSide, parent int, n trace.Node, only bool) {
	if p.active && n.ID != p.end {
		p.flush(s, parent)
	}
	if !p.active {
		*p = pending{active: true, from: n.ID}
	}
	p.end = n.End()
	p.count++
	p.size += n.SubtreeSize
	if n.Kind == engine.KindQS {
		p.qs++
	}
	if only {
		p.only++
	}
}

func (p *pending) flush(s *PageSide, parent int) {
	if !p.active {
		return
	}
	m := &s.Merged
	m.Parent = append(m.Parent, parent)
	m.From = append(m.From, p.from)
	m.End = append(m.End, p.end)
	m.Count = append(m.Count, p.count)
	m.QS = append(m.QS, p.qs)
	m.Size = append(m.Size, p.size)
	if m.Only != nil {
		m.Only = append(m.Only, p.only)
	}
	*p = pending{}
}

// qsPlyOf gives a child's QS ply from its parent's (-1 outside QS).
func qsPlyOf(k trace.Node, parentQSPly int) int {
	switch {
	case k.Kind != engine.KindQS:
		return -1
	case parentQSPly >= 0:
		return parentQSPly + 1
	}
	return 0
}

// treeBuilder reads one side's tree.
type treeBuilder struct {
	ctx    context.Context
	st     trace.Reader
	run    trace.Run
	nested map[int64]trace.NestedSearch // the run's, each root labelled with its mark
	opts   HTMLOptions
	side   *PageSide
	scale  float64 // pixels per node at the top level
	// lists, when not nil, holds the child lists walk reads (readLists).
	lists map[int64][]trace.Node
}

func (b *treeBuilder) narrow(n trace.Node) bool {
	return float64(n.SubtreeSize)*b.scale < icicleMinRect
}

// children returns drawn node n's children in search order, checked:
// from the lists read ahead (readLists) when there are some, else from
// the trace.
func (b *treeBuilder) children(n trace.Node) (trace.Node, []trace.Node, error) {
	if b.lists == nil {
		return trace.RunChildren(b.ctx, b.st, b.run, n, trace.BySearch, 0, 0)
	}
	kids := b.lists[n.ID]
	return n, kids, trace.CheckChildren(n, kids)
}

// listedMaxRows is the biggest subtree whose page reads its child lists in
// one stream of the subtree's rows (readLists, about 1 us a row) rather
// than with a query for each drawn node (about 50 us each). How many nodes
// a page draws depends on the tree's shape: the threshold run of the
// README's trace draws a node for every few of its 188,388 rows (2.1 s of
// queries, 0.2 s streamed), a 1.1-million-node captures run far fewer.
// Past this size a stream could cost more than the queries it spares.
var listedMaxRows = int64(500_000)

// readLists reads the child lists walk asks for, those of top and of each
// node below it that is drawn (not narrow), in one pre-order stream of
// top's subtree. A row whose parent is not the node whose range holds it
// (a child with no row of its own) is left out with its subtree, as the
// trace's child lists leave it out.
func (b *treeBuilder) readLists(top trace.Node) error {
	type open struct {
		id, end int64
		listed  bool
	}
	var stack []open
	lists := map[int64][]trace.Node{}
	err := b.st.Subtree(b.ctx, b.run.ID, top.ID, -1, func(n trace.Node) error {
		end := max(n.End(), n.ID+1)
		if len(stack) == 0 { // the top
			stack = append(stack, open{n.ID, end, true})
			return nil
		}
		for len(stack) > 1 && n.ID >= stack[len(stack)-1].end {
			stack = stack[:len(stack)-1]
		}
		up := stack[len(stack)-1]
		listed := false
		if up.listed && n.Parent == up.id {
			lists[up.id] = append(lists[up.id], n)
			listed = n.SubtreeSize > 1 && !b.narrow(n)
		}
		stack = append(stack, open{n.ID, min(end, up.end), listed})
		return nil
	})
	if err != nil {
		return err
	}
	b.lists = lists
	return nil
}

// walk reads the children of the drawn node i (n, whose move is made on
// pos), adds the wide ones and merges runs of the narrow ones.
func (b *treeBuilder) walk(i int, n trace.Node, pos *engine.Position, row, qsPly int, pv bool) error {
	if n.SubtreeSize <= 1 || (b.opts.Depth >= 0 && row >= b.opts.Depth) {
		return nil
	}
	if err := b.ctx.Err(); err != nil {
		return err
	}
	// A damaged file's sizes must not send the layout round in circles or
	// down without end (issue 17); while the run is recorded n is
	// checked as read after its children, as it grows between the reads.
	n, kids, err := b.children(n)
	if err != nil {
		return err
	}
	if row >= trace.MaxNesting && len(kids) > 0 {
		return &trace.DamagedError{Run: b.run.ID, Node: kids[0].ID,
			Detail: fmt.Sprintf("lies more than %d levels below the chart's top; no search goes that deep", trace.MaxNesting)}
	}
	b.side.Read += int64(len(kids))
	b.opts.read(len(kids))
	pk := -1
	if pv {
		pk = trace.PVChild(b.run, n, kids)
	}
	visits, searches := trace.ChildVisits(n, kids, b.nested)
	var p pending
	for ci, k := range kids {
		if b.narrow(k) {
			p.take(b.side, i, k, false)
			continue
		}
		p.flush(b.side, i)
		san, err := makeMove(b.run.ID, b.run.MoveRule(), pos, k)
		if err != nil {
			return err
		}
		if trace.IsNested(k) {
			// Marked as the viewer marks it, and as a path names it
			// (the page's search and --path read it back).
			san = trace.NestedText(b.nested[k.ID])
		}
		kq := qsPlyOf(k, qsPly)
		j := b.side.add(k, i, san, visits[ci], searches[ci], pos.FEN(), kq, ci == pk)
		err = b.walk(j, k, pos, row+1, kq, ci == pk)
		if k.Move != engine.NoMove {
			pos.UnmakeMove()
		}
		if err != nil {
			return err
		}
	}
	p.flush(b.side, i)
	return nil
}

// makeMove plays node k's move on pos and returns it in SAN ("" for the
// roots, which have none).
func makeMove(run int64, rule trace.MoveRule, pos *engine.Position, k trace.Node) (string, error) {
	m := k.Move
	if m == engine.NoMove {
		return "", nil
	}
	if !rule.Playable(pos, m) {
		return "", fmt.Errorf("run %d: node %d: move %s is not legal in %s: %w", run, k.ID, m.UCI(), pos.FEN(), trace.ErrCorrupt)
	}
	san := pos.SAN(m)
	pos.MakeMove(m)
	return san, nil
}

// newSide starts a side with its top node.
func newSide(ctx context.Context, st trace.Reader, run trace.Run, top trace.Node, label string) (*PageSide, *engine.Position, int, error) {
	tl, err := topOf(ctx, st, run, top)
	if err != nil {
		return nil, nil, 0, err
	}
	pos, san, visits, searches := tl.pos, tl.san, tl.visits, tl.searches
	_, q, _ := newWalker(tl.nodes).visit(top)
	if top.Kind != engine.KindQS {
		q = -1
	}
	s := &PageSide{Label: label, File: filepath.Base(st.File()), Run: pageRun(run), TopPath: orNone(san), TopVisits: visits, TopSearches: searches, Hotspots: []PageHotspot{}, Elsewhere: []PageElsewhere{}, TopNodes: top.Nodes(),
		Merged: PageMerged{Parent: []int{}, From: []int64{}, End: []int64{}, Count: []int64{}, QS: []int64{}, Size: []int64{}}}
	roots, err := st.Children(ctx, run.ID, 0, trace.BySearch, 0, 0)
	if err != nil {
		return nil, nil, 0, err
	}
	s.NameIteration = trace.PlaceIteration(roots, 0) != trace.NoIteration
	tr := trace.RootOf(roots, top.ID)
	s.TopRoot = PageRoot{Iteration: tr.It, Visit: tr.Visit, Searches: tr.Searches}
	s.topPlace = tl.place
	// Options that no longer parse leave chains labelled ext (cause unknown).
	s.opts, _ = run.SearchOptions()
	s.run, s.words = run, run.EvalWords()
	if top.Parent >= 0 {
		if s.topParent, err = st.Node(ctx, run.ID, top.Parent); err != nil {
			return nil, nil, 0, err
		}
	}
	topSAN, topVisit, topSearches := "", 1, 1
	if ownStep(top) && len(san) > 0 {
		topSAN = san[len(san)-1]
	}
	if ownStep(top) && len(visits) > 0 {
		topVisit, topSearches = visits[len(visits)-1], searches[len(searches)-1]
	}
	s.add(top, -1, topSAN, topVisit, topSearches, pos.FEN(), q, true)
	return s, pos, q, nil
}

func orNone[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// BuildPage reads the subtree under top into the data of a tree page.
func BuildPage(ctx context.Context, st trace.Reader, run trace.Run, top trace.Node, opts HTMLOptions) (*PageData, error) {
	opts.defaults()
	side, pos, q, err := newSide(ctx, st, run, top, fmt.Sprintf("run %d (%s)", run.ID, run.Label()))
	if err != nil {
		return nil, err
	}
	nested, err := st.NestedSearches(ctx, run.ID)
	if err != nil {
		return nil, err
	}
	b := &treeBuilder{ctx: ctx, st: st, run: run, nested: nested, opts: opts, side: side,
		scale: float64(opts.Width) / float64(max(top.SubtreeSize, 1))}
	if !run.Status.Partial() && opts.Depth < 0 && top.SubtreeSize <= listedMaxRows {
		if err := b.readLists(top); err != nil {
			return nil, err
		}
	}
	if err := b.walk(0, top, pos, 0, q, true); err != nil {
		return nil, err
	}
	side.findHotspots(opts.Hotspots)
	if err := side.findElsewhere(ctx, st, run, top); err != nil {
		return nil, err
	}
	if err := side.findCauses(ctx, st, run, top); err != nil {
		return nil, err
	}
	where := topWhere(top, side.topPlace)
	return &PageData{Version: 1, Kind: "tree", Width: opts.Width, Labels: pageLabels(), Colors: pageColors(),
		Title: fmt.Sprintf("Horizon: run %d, %s, %s", run.ID, run.Label(), where), Sides: []*PageSide{side}}, nil
}

// findHotspots lists the biggest QS trees and extension chains among the
// drawn nodes, chains as trace.IsChainTop defines them and labelled by
// trace.ChainCause. A QS tree or chain narrower than a pixel at the top
// level is smaller than every drawn one, so the lists miss only those.
func (s *PageSide) findHotspots(limit int) {
	c := &s.Nodes
	n := len(c.ID)
	chain := make([]int, n) // the longest run of consecutive extended moves from the node down, along drawn nodes
	for i := n - 1; i >= 0; i-- {
		if c.Extension[i] > 0 {
			chain[i] = max(chain[i], 1)
		}
		if p := c.Parent[i]; p >= 0 && chain[i] > 0 && c.Extension[p] > 0 {
			chain[p] = max(chain[p], chain[i]+1)
		}
	}
	var qs, ext []PageHotspot
	for i := 0; i < n; i++ {
		p := c.Parent[i]
		if c.QSPly[i] >= 0 && (p < 0 || c.QSPly[p] < 0) {
			qs = append(qs, PageHotspot{What: "qs", Cause: engine.GrowthQS.String(), Node: i, Size: c.Size[i]})
		}
		parentExt, parentMove := s.topParent.Extension, s.topParent.Move
		if p >= 0 {
			parentExt, parentMove = c.Extension[p], s.moves[p]
		}
		if trace.IsChainTop(c.Extension[i], parentExt) {
			cause := trace.ChainCause(s.opts, parentMove, s.moves[i], c.InCheck[i] == 1, c.QSPly[i] >= 0)
			ext = append(ext, PageHotspot{What: "ext", Cause: cause.String(), Node: i, Size: c.Size[i], Chain: chain[i]})
		}
	}
	by := func(h []PageHotspot) {
		sort.SliceStable(h, func(a, b int) bool {
			if h[a].Size != h[b].Size {
				return h[a].Size > h[b].Size
			}
			return h[a].Node < h[b].Node
		})
	}
	by(qs)
	by(ext)
	s.Hotspots = append(s.Hotspots, qs[:min(len(qs), limit)]...)
	s.Hotspots = append(s.Hotspots, ext[:min(len(ext), limit)]...)
}

// WriteHTML writes a self-contained interactive page of the subtree under
// top: a zoomable icicle, node details with the board, hotspots and a
// search by move path. It fetches nothing: the data, script and styles are
// all in the file.
func WriteHTML(ctx context.Context, st trace.Reader, run trace.Run, top trace.Node, opts HTMLOptions, w io.Writer) error {
	d, err := BuildPage(ctx, st, run, top, opts)
	if err != nil {
		return err
	}
	return d.WritePage(w)
}

// WritePage writes the page around the data.
func (d *PageData) WritePage(w io.Writer) error {
	data, err := json.Marshal(d) // escapes <, > and &: safe inside <script>
	if err != nil {
		return err
	}
	var b bytes.Buffer
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	b.WriteString(`<meta name="viewport" content="width=device-width, initial-scale=1">` + "\n")
	b.WriteString(`<meta http-equiv="Content-Security-Policy" content="` + pageCSP + `">` + "\n")
	fmt.Fprintf(&b, "<title>%s</title>\n<style>%s</style>\n</head>\n<body>\n", html.EscapeString(d.Title), pageStyle)
	b.WriteString(`<script type="application/json" id="horizon-data">`)
	b.Write(data)
	b.WriteString("</script>\n<script>")
	b.WriteString(pageScript)
	b.WriteString("</script>\n</body>\n</html>\n")
	_, err = w.Write(b.Bytes())
	return err
}

// The page's script and style elements hold exactly these texts, which
// pageCSP allows by their hashes.
var (
	pageScript = "\n" + pageJS
	pageStyle  = "\n" + pageCSS
)

// pageCSP is the page's Content-Security-Policy: no network (it may load
// nothing but what it holds: default-src 'none', images only from data:
// URLs), and no inline code but its own. Its one script and one style
// sheet are allowed by their SHA-256 hashes, not by 'unsafe-inline', so
// that an escaping bug in a trace's text could not run an injected
// handler or style attribute; the script sets styles through the CSSOM,
// which the policy does not govern. The data element is JSON
// (type="application/json"), never run.
var pageCSP = "default-src 'none'; script-src " + cspHash(pageScript) + "; style-src " + cspHash(pageStyle) + "; img-src data:"

func cspHash(s string) string {
	h := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(h[:]) + "'"
}
