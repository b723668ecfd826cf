package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/explain"
	"github.com/horizonqs/horizon/trace"
)

// hotspotsRunJSON is one run's hotspots in --json output.
type hotspotsRunJSON struct {
	Run      int64             `json:"run"`
	Variant  string            `json:"variant"`
	By       string            `json:"by"`
	Hotspots []hotspotLineJSON `json:"hotspots"`
	// Verdict is the run's shape (explain.Verdict): deep when its biggest
	// QS tree holds at least half of its QS nodes, broad when none does
	// (the growth is spread over many trees: no hotspot is the cause),
	// none without QS. BiggestQSShare is that tree's share of the QS
	// nodes; QSRoots counts the run's QS trees (as stats does).
	Verdict        string  `json:"verdict"`
	BiggestQSShare float64 `json:"biggest_qs_share"`
	QSRoots        int64   `json:"qs_roots"`
}

// hotspotLineJSON is a hotspot of 'horizon hotspots': its ranking, what
// explain finds in it, and (--by size) the hotspots inside it.
type hotspotLineJSON struct {
	hotspotJSON
	// TopCause is the cause most of the hotspot's nodes are under
	// ('horizon explain'), TopCauseShare their share of it.
	TopCause      string  `json:"top_cause"`
	TopCauseShare float64 `json:"top_cause_share"`
	// Parts are the hotspots ranked inside this one (a QS tree inside a
	// chain): --by size lists the outer alone. Empty for the other
	// rankings.
	Parts []hotspotPartJSON `json:"parts"`
}

// hotspotPartJSON is a hotspot inside a listed one.
type hotspotPartJSON struct {
	Node  int64   `json:"node"`
	Cause *string `json:"cause"`
	Size  int64   `json:"subtree_size"`
}

// hotspotOrders are the rankings --by takes, the default first: the one
// list the usage line, the flag's help and its error are made from.
var hotspotOrders = []trace.HotspotOrder{trace.HotspotBySize, trace.HotspotQS, trace.HotspotChains, trace.HotspotByGrowth}

// hotspotOrderNames is the --by values joined by sep.
func hotspotOrderNames(sep string) string {
	var names []string
	for _, o := range hotspotOrders {
		names = append(names, o.String())
	}
	return strings.Join(names, sep)
}

// hotspotsResult is 'horizon hotspots': one entry per run.
type hotspotsResult []hotspotsRunJSON

func runHotspots(e *env, args []string) error {
	fs := newFlags(e, "hotspots", "FILE [--run N] [--by "+hotspotOrderNames("|")+"] [--limit N] [--json]",
		`Lists where a run's tree explodes. --by size (the default) ranks the biggest
growth whatever its cause by the number of nodes below: QS trees (a QS root, where
a quiescence search began, with its subtree) and extension chains. An extension
chain is a maximal run of consecutive extended moves: its top is a node whose move
got an extension while its parent's move did not; the chain is that node with its
whole subtree (chains nest: one deeper down counts in both). Each entry is labelled
with its cause, qs, recapture-ext, check-ext, threshold-ext (the top's extension,
from the run's options; threshold-ext: a threshold QS's cheap capture, which keeps
its level) or ext (another engine's extension, cause unknown), and its share of the
run's nodes. --by qs and --by chain list one kind only. --by growth
ranks full-width nodes by their subtree size relative to their remaining depth:
size^(1/(depth+1)), the branching factor a full-width tree would need to be that
big, so a node 2 plies from the horizon with 50,000 nodes below ranks above a
node 6 plies away with as many. Each line gives the node id (for 'horizon view'
and 'horizon export') and its place as diff and check print one, its iteration
and its move path in SAN ("iteration 3: Bxa6 bxc3"), which 'export --path' and
'view --path' read back to the node. Traces written
before chains were ranked get them from a scan of the run's rows.`,
		"horizon hotspots sample.trace --run 1", "horizon hotspots sample.trace --run 2 --by growth --limit 20 --json")
	run := runFlag(fs, "run `id`, or an EPD record's id for its runs ('horizon runs FILE' lists both)", "every run")
	by := fs.String("by", "size", "ranking: size (QS trees and extension chains by subtree size), qs, chain, or growth (full-width nodes by size relative to depth)")
	limit := fs.Int("limit", 10, "how many nodes to list per run")
	asJSON := fs.Bool("json", false, "print JSON (an array, one object per run)")
	file, err := parseFileFlags(fs, args)
	if err != nil {
		return err
	}
	order, known := trace.HotspotBySize, false
	for _, o := range hotspotOrders {
		if o.String() == *by {
			order, known = o, true
		}
	}
	if !known {
		return usagef("--by %q: want one of %s", *by, hotspotOrderNames(", "))
	}
	if *limit <= 0 {
		return usagef("--limit %d: want a positive number", *limit)
	}
	out, err := eachRun(e, file, run, func(st *trace.Store, r trace.Run) (hotspotsRunJSON, error) {
		return hotspotLines(e, st, r, order, *limit)
	})
	if err != nil {
		return err
	}
	return e.print(hotspotsResult(out), formatOf(*asJSON, false))
}

// hotspotLines ranks run r's hotspots by order, each with its top cause
// ('horizon explain'); --by size lists a chain and the QS tree inside it
// as one, the outer, the inner named as its part.
func hotspotLines(e *env, st *trace.Store, r trace.Run, order trace.HotspotOrder, limit int) (hotspotsRunJSON, error) {
	res := hotspotsRunJSON{Run: r.ID, Variant: r.Label(), By: order.String(), Hotspots: []hotspotLineJSON{}}
	var hs []trace.Hotspot
	parts := map[int64][]trace.Hotspot{}
	var err error
	if order == trace.HotspotBySize {
		hs, parts, err = outerHotspots(e.ctx, st, r.ID, limit)
	} else {
		hs, err = st.Hotspots(e.ctx, r.ID, order, limit)
	}
	if err != nil {
		return res, err
	}
	placed := placeAhead(e.ctx, st, r.ID, hs)
	defer placed.stop()
	var rows atomic.Int64
	var total int64
	for _, h := range hs {
		total += h.Node.Nodes()
	}
	stop := rowsProgress(e.stderr, fmt.Sprintf("explaining %s", engine.Count(int64(len(hs)), "hotspot")), &rows, total)
	causes, err := hotspotCauses(e.ctx, countingReader{st, &rows}, r, hs, placed)
	stop()
	if err != nil {
		return res, err
	}
	for i, h := range hs {
		l := hotspotLineJSON{hotspotJSON: causes[i].line, Parts: []hotspotPartJSON{}}
		if c := causes[i].causes; len(c) > 0 {
			l.TopCause, l.TopCauseShare = c[0].Reason.String(), c[0].Share
		}
		for _, p := range parts[h.Node.ID] {
			l.Parts = append(l.Parts, hotspotPartJSON{Node: p.Node.ID, Cause: orNull(p.Cause.String()), Size: p.Node.SubtreeSize})
		}
		res.Hotspots = append(res.Hotspots, l)
	}
	qs, err := st.Hotspots(e.ctx, r.ID, trace.HotspotQS, 1)
	if err != nil {
		return res, err
	}
	var biggest int64
	if len(qs) > 0 {
		biggest = qs[0].Node.SubtreeSize
	}
	stats, err := st.Stats(e.ctx, r.ID)
	if err != nil {
		return res, err
	}
	res.Verdict, res.QSRoots = explain.Verdict(biggest, stats.QSNodes), stats.QSRoots
	if stats.QSNodes > 0 {
		res.BiggestQSShare = float64(biggest) / float64(stats.QSNodes)
	}
	return res, nil
}

// hotspotCause is a hotspot's line placed and the causes of its subtree's
// mass (explain.CountAt's, no places).
type hotspotCause struct {
	line   hotspotJSON
	causes []explain.Cause
}

// causeWorkers is how many hotspots' subtrees are counted at once.
const causeWorkers = 2

// hotspotCauses counts the subtree of each of hs from its position as
// placed (placed), causeWorkers at a time: the hotspots of the threshold
// search of Kiwipete at depth 7 take 0.6 s of counting and 0.3 s of
// placing, which the two cores share. An error is the first hotspot's,
// in the list's order, that fails: hotspots are taken in order, and none
// is taken after one failed, so every one before it is counted.
func hotspotCauses(ctx context.Context, src trace.Reader, r trace.Run, hs []trace.Hotspot, placed *hotspotsAhead) ([]hotspotCause, error) {
	out := make([]hotspotCause, len(hs))
	errs := make([]error, len(hs))
	var mu sync.Mutex
	next, failed := 0, false
	take := func() (int, placedHotspot, error, bool) {
		mu.Lock()
		defer mu.Unlock()
		if failed || next == len(hs) {
			return 0, placedHotspot{}, nil, false
		}
		i := next
		next++
		p, err := placed.next()
		return i, p, err, true
	}
	var wg sync.WaitGroup
	for range causeWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i, p, err, ok := take()
				if !ok {
					return
				}
				var ex *explain.Subtree
				if err == nil {
					ex, err = explain.CountAt(ctx, src, r, hs[i].Node, p.pos)
				}
				if err != nil {
					mu.Lock()
					errs[i], failed = err, true
					mu.Unlock()
					return
				}
				out[i] = hotspotCause{line: p.line, causes: ex.Causes}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// placedHotspot is a hotspot's line placed and its position.
type placedHotspot struct {
	line hotspotJSON
	pos  *engine.Position
	err  error
}

// hotspotsAhead places hotspots on a goroutine of its own, ahead of the
// caller, who counts each one's subtree meanwhile (explain.CountAt): the
// two take about as long, each a core (placing 1,000 hotspots of the
// depth-7 captures search 0.25 s, counting them 0.3 s).
type hotspotsAhead struct {
	ch     chan placedHotspot
	ctx    context.Context
	cancel context.CancelFunc
}

// placeAhead starts placing hs, in order, by one Placer of run.
func placeAhead(ctx context.Context, st *trace.Store, run int64, hs []trace.Hotspot) *hotspotsAhead {
	ctx, cancel := context.WithCancel(ctx)
	a := &hotspotsAhead{ch: make(chan placedHotspot, 64), ctx: ctx, cancel: cancel}
	go func() {
		defer close(a.ch)
		placer := trace.NewPlacer(st, run)
		for _, h := range hs {
			if ctx.Err() != nil {
				return
			}
			var p placedHotspot
			p.line, p.err = hotspotPlaced(ctx, placer, h)
			if p.err == nil {
				p.pos, p.err = placer.Position(ctx, h.Node.ID)
			}
			select {
			case a.ch <- p:
			case <-ctx.Done():
				return
			}
			if p.err != nil {
				return
			}
		}
	}()
	return a
}

// next returns the next hotspot placed.
func (a *hotspotsAhead) next() (placedHotspot, error) {
	p, ok := <-a.ch
	if !ok {
		// The placing ends early only when its context ends.
		return p, context.Cause(a.ctx)
	}
	return p, p.err
}

// stop ends the placing and waits for its goroutine: the store outlives
// it.
func (a *hotspotsAhead) stop() {
	a.cancel()
	for range a.ch {
	}
}

func (res hotspotsResult) writeText(w io.Writer) error {
	for _, j := range res {
		fmt.Fprintf(w, "run %d  variant %s  by %s\n", j.Run, engine.Printable(j.Variant), j.By)
		if len(j.Hotspots) == 0 {
			fmt.Fprintln(w, "  (none)")
		}
		for _, h := range j.Hotspots {
			extra := ""
			if j.By == trace.HotspotByGrowth.String() {
				extra = fmt.Sprintf("  depth %d growth %.2f", h.Depth, h.Growth)
			}
			noun := "nodes"
			if h.Size == 1 {
				noun = "node"
			}
			top := ""
			if h.TopCause != "" {
				top = engine.SharePercent(h.TopCauseShare) + " " + h.TopCause
			}
			fmt.Fprintf(w, "  %10s %-5s %7s  %-13s #%-9d%s  %-20s  %s\n", engine.Commas(h.Size), noun, engine.SharePercent(h.Share), orDash(cell(h.Cause)),
				h.Node, extra, top, h.Place)
		}
		// Each line ends with its place (scripts read it there): the
		// parts of a hotspot follow the list.
		for _, h := range j.Hotspots {
			if len(h.Parts) == 0 {
				continue
			}
			var ps []string
			for _, p := range h.Parts {
				ps = append(ps, fmt.Sprintf("#%d (%s, %s)", p.Node, orDash(cell(p.Cause)), engine.Count(p.Size, "node")))
			}
			fmt.Fprintf(w, "  #%d holds %s: one hotspot, listed once\n", h.Node, strings.Join(ps, ", "))
		}
		switch j.Verdict {
		case explain.VerdictBroad:
			fmt.Fprintf(w, "  the run is broad, not deep: its biggest QS tree holds %s of its QS nodes (%s); look at rules that cost a little everywhere, not at one position ('horizon explain FILE --node 0')\n",
				engine.SharePercent(j.BiggestQSShare), engine.Count(j.QSRoots, "QS tree"))
		case explain.VerdictDeep:
			fmt.Fprintf(w, "  the run is deep: its biggest QS tree holds %s of its QS nodes\n", engine.SharePercent(j.BiggestQSShare))
		}
		if _, err := fmt.Fprintln(w); err != nil {
			return err
		}
	}
	return nil
}

// orDash is s, or "-" when s is empty (a node ranked by growth that heads
// no QS tree or chain).
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
