package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"time"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/explain"
	"github.com/horizonqs/horizon/export"
	"github.com/horizonqs/horizon/trace"
)

// explainResult is 'horizon explain': one run's subtrees explained.
type explainResult struct {
	Run      int64              `json:"run"`
	Variant  string             `json:"variant"`
	Subtrees []explainSubtree   `json:"subtrees"`
	scores   engine.ScoreFormat // how the run's node scores print
}

// explainSubtree is one subtree in --json.
type explainSubtree struct {
	Node   int64          `json:"node"`
	Place  string         `json:"place"`
	Nodes  int64          `json:"nodes"`
	Share  float64        `json:"share"` // nodes over the run's nodes
	Shape  explainShape   `json:"shape"`
	Causes []explainCause `json:"causes"`
	// WhatIf is null without --what-if.
	WhatIf []explainWhatIf `json:"what_if"`
	top    trace.Node
}

type explainShape struct {
	// Plies is null for a QS top (qs_plies says it all).
	Plies         []explainLevel   `json:"plies"`
	QSPlies       []explainQSLevel `json:"qs_plies"`
	MaxQSPly      int              `json:"max_qs_ply"`
	QSNodes       int64            `json:"qs_nodes"`
	QSTrees       int64            `json:"qs_trees"`
	BiggestQSTree *explainTree     `json:"biggest_qs_tree"` // null when the subtree has no QS node
	Verdict       string           `json:"verdict"`         // deep, broad, or none (no QS node)
}

type explainLevel struct {
	Ply       int      `json:"ply"`
	Nodes     int64    `json:"nodes"`
	Branching *float64 `json:"branching"` // nodes over the level above's; null at the first level
}

// explainQSLevel is a level by QS ply, keyed as stats keys one.
type explainQSLevel struct {
	QSPly     int      `json:"qs_ply"`
	Nodes     int64    `json:"nodes"`
	Branching *float64 `json:"branching"` // nodes over the QS ply above's; null at QS ply 0
}

type explainTree struct {
	Node  int64   `json:"node"`
	Nodes int64   `json:"nodes"`
	Share float64 `json:"share"` // of the subtree's nodes
}

type explainCause struct {
	Cause   string          `json:"cause"`
	Nodes   int64           `json:"nodes"`
	Share   float64         `json:"share"`
	Example *explainExample `json:"example"` // null for necessary
	Remedy  *string         `json:"remedy"`  // what would remove it; null when nothing would
}

type explainExample struct {
	Node  int64  `json:"node"`
	Place string `json:"place"`
	Nodes int64  `json:"nodes"`
}

type explainWhatIf struct {
	Change string `json:"change"`
	// Nodes and Score are null when Why says why the line has none.
	Nodes        *int64  `json:"nodes"`
	Score        *int    `json:"score"`
	Reproduces   *bool   `json:"reproduces"` // the recorded options' line only; null on the others
	ScoreChanged bool    `json:"score_changed"`
	Why          *string `json:"why"`
}

func runExplain(e *env, args []string) error {
	fs := newFlags(e, "explain", `FILE [--run N] [--node ID | --path "e4 e5 Nf3"] [--top N] [--what-if] [--json]`,
		`Says why a subtree is as big as it is. Every node below the subtree's top is
counted once, under the first cause met on the way down from the top (a move
with a cause gives it to everything beneath it, so the shares add up to 100%;
a move with several causes takes the first of this list):
`+reasonHelp()+`
The causes are read on the positions replayed from the run's FEN (another
engine's run as it declared its moves, pseudo-legal ones too), with the run's
delta margin (200 where it has none). Each cause comes with its share and its
biggest example: the node where it was met, and its place, which 'export
--path' and 'view --path' read back.

Then the subtree's shape: nodes and branching per ply below the top (for a
full-width top) and per QS ply, the deepest QS ply, how many QS trees it holds
and the biggest one's share, and a verdict: `+explain.VerdictText+`.

By default the run's three biggest hotspots are explained (a chain and the QS
tree inside it count as one); --node 0 explains the whole run. --what-if
re-searches the subtree's position with Horizon's engine, same window and depth
(a QS root by the QS alone, the run node by the whole search): once with the
recorded options, which must give the recorded nodes and score (it says why
where the trace cannot hold what that needs), then once per switch that
applies, flipped. A line whose score differs from the recorded one is marked:
cheaper but different is no free win. Another engine's run gets Horizon's
presets, as a reference.`,
		"horizon explain sample.trace",
		"horizon explain sample.trace --node 0 --json",
		`horizon explain sample.trace --path "iteration 3: Bxa6 bxc3" --what-if`)
	run := runFlag(fs, "run `id`, or the id of an EPD record with one run ('horizon runs FILE' lists both)", "the file's last run")
	node := fs.Int64("node", -1, "id of the subtree's top node (0: the whole run); -1 = the run's biggest hotspots")
	path := fs.String("path", "", `move path from the last iteration's root (or from --node), SAN or UCI separated by spaces or commas, e.g. "e4 e5 Nf3"; `+trace.PathVisitsText+"; "+trace.PathIterationText)
	top := fs.Int("top", 3, "how many hotspots to explain when no --node or --path is given")
	whatIf := fs.Bool("what-if", false, "re-search each subtree's position with the recorded options and with each switch flipped")
	asJSON := fs.Bool("json", false, "print JSON")
	file, err := parseFileFlags(fs, args)
	if err != nil {
		return err
	}
	switch {
	case *node < -1:
		return usagef("--node %d: want a node id (0 is the run node) or -1", *node)
	case *top < 1:
		return usagef("--top %d: want a positive number", *top)
	}
	st, sel, err := openSelection(e, fs, file, run, *node, *path)
	if err != nil {
		return err
	}
	defer st.Close()
	chosen := sel.Node >= 0 || len(sel.Path) > 0 || sel.Root != nil
	if !chosen {
		sel.Node = 0
	}
	r, first, err := export.Resolve(e.ctx, st, sel)
	if err != nil {
		return err
	}
	tops := []trace.Node{first}
	if !chosen {
		hs, _, err := outerHotspots(e.ctx, st, r.ID, *top)
		if err != nil {
			return err
		}
		tops = tops[:0]
		for _, h := range hs {
			tops = append(tops, h.Node)
		}
		if len(tops) == 0 {
			tops = []trace.Node{first} // no hotspot: the whole run
		}
	}
	res := explainResult{Run: r.ID, Variant: r.Label(), Subtrees: []explainSubtree{}, scores: r.Scores()}
	var rows atomic.Int64
	src := countingReader{st, &rows}
	for _, t := range tops {
		stop := rowsProgress(e.stderr, fmt.Sprintf("explaining node %d", t.ID), &rows, t.Nodes())
		ex, err := explain.Explain(e.ctx, src, r, t)
		stop()
		if err != nil {
			return err
		}
		rows.Store(0)
		sub := newExplainSubtree(ex, r)
		if *whatIf {
			stop := progressLine(e.stderr, func(el time.Duration) string {
				return fmt.Sprintf("re-searching node %d's position  %.1fs  Ctrl-C stops", t.ID, el.Seconds())
			})
			ws, err := explain.WhatIfs(e.ctx, st, r, t, engine.Limits{Nodes: whatIfNodeCap(t)})
			stop()
			if err != nil {
				return err
			}
			sub.WhatIf = newExplainWhatIfs(ws)
		}
		res.Subtrees = append(res.Subtrees, sub)
	}
	return e.print(res, formatOf(*asJSON, false))
}

// whatIfNodeCap bounds each re-search of a what-if: a switch flipped may
// blow a QS up far past the recorded subtree; ten times its size, and a
// million at least, tells that without waiting for it.
func whatIfNodeCap(top trace.Node) int64 { return max(10*top.Nodes(), 1_000_000) }

// reasonHelp lists the causes with their meanings, one per line, for
// the help text.
func reasonHelp() string {
	var b strings.Builder
	for _, r := range engine.Reasons() {
		fmt.Fprintf(&b, "  %-15s %s\n", r, r.Meaning())
	}
	return b.String()
}

func newExplainSubtree(ex *explain.Subtree, r trace.Run) explainSubtree {
	sub := explainSubtree{Node: ex.Top.ID, Place: ex.Place, Nodes: ex.Nodes, Causes: []explainCause{}, top: ex.Top}
	if r.Nodes > 0 {
		sub.Share = float64(ex.Nodes) / float64(r.Nodes)
	}
	sh := ex.Shape
	sub.Shape = explainShape{Plies: levelsJSON(sh.Plies), QSPlies: []explainQSLevel{}, MaxQSPly: sh.MaxQSPly,
		QSNodes: sh.QSNodes, QSTrees: sh.QSTrees, Verdict: sh.Verdict}
	for _, l := range levelsJSON(sh.QSPlies) {
		sub.Shape.QSPlies = append(sub.Shape.QSPlies, explainQSLevel{QSPly: l.Ply, Nodes: l.Nodes, Branching: l.Branching})
	}
	if sh.BiggestQSTree >= 0 {
		sub.Shape.BiggestQSTree = &explainTree{Node: sh.BiggestQSTree, Nodes: sh.BiggestQSNodes, Share: sh.BiggestQSShare}
	}
	for _, c := range ex.Causes {
		jc := explainCause{Cause: c.Reason.String(), Nodes: c.Nodes, Share: c.Share}
		if c.Example >= 0 {
			jc.Example = &explainExample{Node: c.Example, Place: c.Place, Nodes: c.ExampleNodes}
		}
		if rem := c.Reason.Remedy(); rem != "" {
			jc.Remedy = &rem
		}
		sub.Causes = append(sub.Causes, jc)
	}
	return sub
}

func levelsJSON(ls []explain.Level) []explainLevel {
	if ls == nil {
		return nil
	}
	out := make([]explainLevel, 0, len(ls))
	for _, l := range ls {
		jl := explainLevel{Ply: l.Ply, Nodes: l.Nodes}
		if l.Ply > 0 {
			b := l.Branching
			jl.Branching = &b
		}
		out = append(out, jl)
	}
	return out
}

func newExplainWhatIfs(ws []explain.WhatIf) []explainWhatIf {
	out := make([]explainWhatIf, 0, len(ws))
	for _, w := range ws {
		j := explainWhatIf{Change: w.Change, Reproduces: w.Reproduces, ScoreChanged: w.ScoreChanged}
		if w.Why != "" {
			why := w.Why
			j.Why = &why
			j.ScoreChanged = false
		} else {
			n, sc := w.Nodes, int(w.Score)
			j.Nodes, j.Score = &n, &sc
		}
		out = append(out, j)
	}
	return out
}

func (res explainResult) writeText(w io.Writer) error {
	fmt.Fprintf(w, "run %d  variant %s\n", res.Run, res.Variant)
	for _, s := range res.Subtrees {
		fmt.Fprintln(w)
		place := s.Place
		if place == "" {
			place = "the whole run"
		}
		fmt.Fprintf(w, "node %d  %s\n", s.Node, place)
		fmt.Fprintf(w, "  %s, %s of the run\n", engine.Count(s.Nodes, "node"), engine.SharePercent(s.Share))
		writeShape(w, s.Shape)
		fmt.Fprintln(w, "  causes (each node under the first cause met on the way down):")
		width := 0
		for _, c := range s.Causes {
			width = max(width, len(engine.Commas(c.Nodes)))
		}
		for _, c := range s.Causes {
			ex := ""
			if c.Example != nil {
				ex = fmt.Sprintf("  biggest #%d (%s): %s", c.Example.Node, engine.Count(c.Example.Nodes, "node"), orDash(c.Example.Place))
			}
			fmt.Fprintf(w, "    %6s %*s  %s%s\n", engine.SharePercent(c.Share), width, engine.Commas(c.Nodes), c.Cause, ex)
		}
		if len(s.Causes) > 0 && s.Causes[0].Remedy != nil {
			fmt.Fprintf(w, "  most of it (%s) would go with %s\n", s.Causes[0].Cause, *s.Causes[0].Remedy)
		}
		if s.WhatIf != nil {
			fmt.Fprintf(w, "  what if (Horizon re-searches node %d's position, window [%s, %s]):\n", s.Node,
				res.scores.Signed(s.top.Alpha), res.scores.Signed(s.top.Beta))
			cw, nw := 0, 0
			for _, x := range s.WhatIf {
				cw = max(cw, len(x.Change))
				if x.Nodes != nil {
					nw = max(nw, len(engine.Commas(*x.Nodes)))
				}
			}
			for _, x := range s.WhatIf {
				if x.Why != nil {
					fmt.Fprintf(w, "    %-*s  no figures: %s\n", cw, x.Change, *x.Why)
					continue
				}
				mark := ""
				switch {
				case x.Reproduces != nil && *x.Reproduces:
					mark = "  reproduces the recorded subtree"
				case x.Reproduces != nil:
					mark = "  does not reproduce the recorded subtree"
				}
				if x.ScoreChanged {
					mark += "  score changes"
				}
				fmt.Fprintf(w, "    %-*s  %*s nodes  %6s%s\n", cw, x.Change, nw, engine.Commas(*x.Nodes),
					res.scores.Signed(engine.Score(*x.Score)), mark)
			}
		}
	}
	return nil
}

// writeShape writes a subtree's shape: the verdict first, then the
// levels.
func writeShape(w io.Writer, sh explainShape) {
	switch sh.Verdict {
	case explain.VerdictNoQS:
		fmt.Fprintf(w, "  shape: no QS node\n")
	default:
		fmt.Fprintf(w, "  shape: %s: %s, the biggest #%d holds %s (%s of the subtree); %s; max QS ply %d\n",
			sh.Verdict, engine.Count(sh.QSTrees, "QS tree"), sh.BiggestQSTree.Node, engine.Count(sh.BiggestQSTree.Nodes, "node"),
			engine.SharePercent(sh.BiggestQSTree.Share), engine.Count(sh.QSNodes, "QS node"), sh.MaxQSPly)
	}
	levels := func(name string, ls []explainLevel) {
		if len(ls) == 0 {
			return
		}
		var nodes, branch []string
		for _, l := range ls {
			nodes = append(nodes, engine.Commas(l.Nodes))
			if l.Branching == nil {
				branch = append(branch, "-")
			} else {
				branch = append(branch, fmt.Sprintf("%.2f", *l.Branching))
			}
		}
		fmt.Fprintf(w, "    %s 0..%d: nodes %s\n", name, len(ls)-1, strings.Join(nodes, " "))
		fmt.Fprintf(w, "    %s branching: %s\n", strings.Repeat(" ", len(name)+len(fmt.Sprint(len(ls)-1))+3), strings.Join(branch, " "))
	}
	levels("ply", sh.Plies)
	var qs []explainLevel
	for _, l := range sh.QSPlies {
		qs = append(qs, explainLevel{Ply: l.QSPly, Nodes: l.Nodes, Branching: l.Branching})
	}
	levels("QS ply", qs)
}

// outerHotspots is the run's biggest hotspots (trace.HotspotBySize) with
// the ones inside another left out: a chain and the QS tree inside it
// are one hotspot, the outer. parts maps an outer hotspot's node to the
// hotspots inside it that the list would have shown. Up to limit.
func outerHotspots(ctx context.Context, st trace.Reader, run int64, limit int) (outer []trace.Hotspot, parts map[int64][]trace.Hotspot, err error) {
	// A hotspot nests in at most a few others; four times as many ranked
	// fill the list but for runs of nested chains.
	hs, err := st.Hotspots(ctx, run, trace.HotspotBySize, 4*limit)
	if err != nil {
		return nil, nil, err
	}
	parts = map[int64][]trace.Hotspot{}
	for _, h := range hs {
		inside := false
		for _, o := range outer {
			if o.Node.Contains(h.Node.ID) {
				parts[o.Node.ID] = append(parts[o.Node.ID], h)
				inside = true
				break
			}
		}
		if !inside && len(outer) < limit {
			outer = append(outer, h)
		}
	}
	return outer, parts, nil
}
