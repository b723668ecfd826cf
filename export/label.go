package export

import (
	"strconv"
	"strings"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// Colours: tints of the Okabe-Ito palette, which colour-blind readers tell
// apart, light enough for black text and for printing. Each outcome also
// has its own border style and a line of text, so the diagram reads in
// grey too.
const (
	colBetaFill     = "#F0C7A6" // vermillion #D55E00, 35%
	colBetaLine     = "#D55E00"
	colStandFill    = "#F8F3AA" // yellow #F0E442, 45%
	colStandLine    = "#E69F00" // orange
	colExactFill    = "#C4E5F7" // sky blue #56B4E9, 35%
	colExactLine    = "#0072B2" // blue
	colLowFill      = "#FFFFFF"
	colLowLine      = "#666666"
	colSummaryFill  = "#EEEEEE"
	colSummaryLine  = "#888888"
	colEdge         = "#666666"
	colPV           = "#000000"
	colIcicleFW     = "#9CCFEF" // sky blue, 60%
	colIcicleFW2    = "#C4E5F7" // sky blue, 35%
	colIcicleQS     = "#F0C566" // orange #E69F00, 60%
	colIcicleQS2    = "#F7DFA8" // orange, 35%
	colIcicleRoot   = "#D9D9D9"
	colIcicleMerged = "#BBBBBB"
	// colOnly marks nodes only one run of a diff page has: Okabe-Ito
	// reddish purple, apart from every other colour here; the page also
	// hatches them, so they read without colour.
	colOnly = "#CC79A7"
)

// outcome is how a node ended, as the diagrams colour it.
type outcome int

const (
	outFailLow  outcome = iota // upper bound or no bound
	outBetaCut                 // fail high: a move (or a rule) reached beta
	outStandPat                // the static eval alone reached beta in QS
	outExact                   // score inside the window
)

func outcomeOf(n trace.Node) outcome {
	switch {
	case n.Cause == engine.CauseStandPat:
		return outStandPat
	case n.Bound == engine.BoundLower:
		return outBetaCut
	case n.Bound == engine.BoundExact:
		return outExact
	}
	return outFailLow
}

// causeText says why a node stopped, for labels (engine.Cause.LongLabel);
// "" for CauseNone.
// positionLine is a run's position in a heading: "FEN ...", after the id
// of its EPD record when it has one ("WAC.002: FEN ..."), as runs and the
// viewer name it before the FEN (trace.Run.Position).
func positionLine(r trace.Run) string {
	if r.EPDID == "" {
		return "FEN " + r.FEN
	}
	return r.EPDID + ": FEN " + r.FEN
}

func causeText(c engine.Cause) string { return c.LongLabel() }

// nodeCause is what a label says of why node n of run r stopped: a node
// still open when its rows were written never stopped, and is called by
// its run's word for such nodes (trace.Status.OpenNode, as the viewer
// says it: "running", "abandoned").
func nodeCause(r trace.Run, n trace.Node) string {
	if n.Open {
		return r.Status.OpenNode()
	}
	return causeText(n.Cause)
}

// nodeLines are the lines of a node's label, shared by DOT and the icicle's
// tooltips; run r says how its scores print (trace.Run.Scores), w how its
// static eval is named (r.EvalWords, read once by the caller).
func nodeLines(r trace.Run, w trace.EvalWords, n trace.Node, san string) []string {
	sf := r.Scores()
	var lines []string
	head := san
	switch {
	case n.Kind == engine.KindRun:
		head = "run " + strconv.FormatInt(n.RunID, 10)
	case n.Kind == engine.KindRoot:
		head = "root"
	case n.Move == engine.NoMove && !trace.IsNested(n):
		head = trace.QSRootLabel
	case head == "":
		head = n.Move.UCI()
	}
	lines = append(lines, head)
	d := n.DepthText()
	if n.InCheck {
		d += ", in check"
	}
	if n.Extension > 0 {
		d += ", ext +" + strconv.Itoa(n.Extension)
	}
	lines = append(lines, d)
	if n.Kind != engine.KindRun {
		lines = append(lines, r.WindowText(n))
	}
	if n.HasStandPat {
		lines = append(lines, w.Label(n)+" "+sf.Signed(n.StandPat))
	}
	switch {
	case n.Open:
		// A placeholder's score and bound are not the search's: the
		// node had not returned when its rows were written.
		lines = append(lines, "score not known")
	case n.Kind != engine.KindRun || n.Bound != engine.BoundNone:
		lines = append(lines, "score "+r.NodeScores(n).Signed(n.Score)+" "+n.Bound.String())
	}
	if c := nodeCause(r, n); c != "" {
		lines = append(lines, c)
	}
	if n.Incomplete {
		lines = append(lines, "incomplete")
	}
	lines = append(lines, "id "+strconv.FormatInt(n.ID, 10)+", "+engine.Count(n.Nodes(), "node"))
	return lines
}

// summaryLines are the lines of a summary node's label.
func summaryLines(s Summary) []string {
	lines := []string{"+" + engine.Count(s.Nodes, "node")}
	if s.Children > 0 {
		what := "move"
		if s.QSTrees {
			what = "QS tree"
		}
		if s.Children != 1 {
			what += "s"
		}
		lines = append(lines, "in "+engine.Commas(int64(s.Children))+" "+what)
	}
	if s.Rows > 0 {
		l := engine.WholePercent(s.QSShare()) + " QS"
		if s.MaxQSPly >= 0 {
			l += ", max QS ply " + strconv.Itoa(s.MaxQSPly)
		}
		lines = append(lines, l)
	}
	switch {
	case s.Rows == 0 && s.Unrecorded == s.Nodes:
		lines = append(lines, "not recorded (recording filter)")
	case s.Rows < s.Nodes:
		lines = append(lines, engine.Commas(s.Rows)+" recorded (recording filter)")
	}
	if s.DepthLimit {
		lines = append(lines, "below the depth limit")
	}
	return lines
}

// topWhere names an export's top node in its heading: "the whole run",
// "node 5 (root of iteration 3)", or "node 812 (iteration 3: Nxe5
// dxe6·2)" with its place (topLine.place), which --path reads back.
func topWhere(top trace.Node, place string) string {
	where := "node " + strconv.FormatInt(top.ID, 10)
	switch {
	case top.Kind == engine.KindRun:
		return "the whole run"
	case top.Kind == engine.KindRoot:
		// The root's place without its path: "iteration 2·1" names the
		// first of two roots of iteration 2, as --path reads it.
		label, ok := strings.CutSuffix(place, ": "+trace.RootPath)
		if !ok {
			label = trace.IterationLabel(top.Iteration)
		}
		return where + " (root of " + label + ")"
	case place != "" && place != trace.RootPath: // RootPath: a QS-only run's root, no iteration's, is "node 1"
		return where + " (" + place + ")"
	}
	return where
}
