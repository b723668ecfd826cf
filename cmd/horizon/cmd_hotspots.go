package main

import (
	"fmt"
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

func runHotspots(e *env, args []string) error {
	fs := newFlags(e, "hotspots", "FILE [--run N] [--by size|growth] [--limit N] [--json]",
		`Lists where a run's tree explodes. --by size (the default) ranks QS roots
(where a quiescence search began) by the number of nodes below them. --by growth
ranks full-width nodes by their subtree size relative to their remaining depth:
size^(1/(depth+1)), the branching factor a full-width tree would need to be that
big, so a node 2 plies from the horizon with 50,000 nodes below ranks above a
node 6 plies away with as many. Each line gives the node id (for 'horizon view'
and 'horizon export'), its iteration and its move path in SAN.`,
		"horizon hotspots sample.trace --run 1", "horizon hotspots sample.trace --run 2 --by growth --limit 20 --json")
	run := fs.Int64("run", 0, "run id ('horizon runs FILE' lists them); 0 = every run")
	by := fs.String("by", "size", "ranking: size (QS roots by subtree size) or growth (full-width nodes by size relative to depth)")
	limit := fs.Int("limit", 10, "how many nodes to list per run")
	asJSON := fs.Bool("json", false, "print JSON (an array, one object per run)")
	file, err := parseFileFlags(fs, args)
	if err != nil {
		return err
	}
	order := trace.HotspotBySize
	switch *by {
	case "size":
	case "growth":
		order = trace.HotspotByGrowth
	default:
		return usagef("--by %q: want size or growth", *by)
	}
	if *limit <= 0 {
		return usagef("--limit %d: want a positive number", *limit)
	}
	st, runs, err := openRuns(e, file, *run)
	if err != nil {
		return err
	}
	defer st.Close()
	out := []hotspotsRunJSON{}
	for _, r := range runs {
		hs, err := hotspotsJSON(e.ctx, st, r.ID, order, *limit)
		if err != nil {
			return err
		}
		out = append(out, hotspotsRunJSON{Run: r.ID, Variant: r.Variant, By: *by, Hotspots: hs})
	}
	if *asJSON {
		return writeJSON(e.stdout, out)
	}
	for _, j := range out {
		fmt.Fprintf(e.stdout, "run %d  variant %s  by %s\n", j.Run, j.Variant, j.By)
		if len(j.Hotspots) == 0 {
			fmt.Fprintln(e.stdout, "  (none)")
		}
		for _, h := range j.Hotspots {
			extra := ""
			if order == trace.HotspotByGrowth {
				extra = fmt.Sprintf("  depth %d growth %.2f", h.Depth, h.Growth)
			}
			fmt.Fprintf(e.stdout, "  %10s nodes  #%-9d it %-2d%s  %s\n", engine.Commas(h.Size), h.Node, h.Iteration, extra, strings.Join(h.PathSAN, " "))
		}
		fmt.Fprintln(e.stdout)
	}
	return nil
}
