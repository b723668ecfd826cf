package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// hotspotsRunJSON is one run's hotspots in --json output.
type hotspotsRunJSON struct {
	Run      int64         `json:"run"`
	Variant  string        `json:"variant"`
	By       string        `json:"by"`
	Hotspots []hotspotJSON `json:"hotspots"`
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
		hs, err := hotspotsJSON(e.ctx, st, r.ID, order, *limit)
		return hotspotsRunJSON{Run: r.ID, Variant: r.Label(), By: *by, Hotspots: hs}, err
	})
	if err != nil {
		return err
	}
	return e.print(hotspotsResult(out), formatOf(*asJSON, false))
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
			fmt.Fprintf(w, "  %10s %-5s %7s  %-13s #%-9d%s  %s\n", engine.Commas(h.Size), noun, engine.SharePercent(h.Share), orDash(cell(h.Cause)),
				h.Node, extra, h.Place)
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
