package main

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/uci"
)

// benchFENs are the positions of `stockfish bench` (see testdata/README.md
// for their provenance), embedded so that the bench runs from any directory.
//
//go:embed bench.fen
var benchFENs string

// variantTotals sums one variant's searches over a set of positions:
// a row of bench and of compare.
type variantTotals struct {
	Variant   string  `json:"variant"`
	Positions int     `json:"positions"`
	Nodes     int64   `json:"nodes"`
	QSNodes   int64   `json:"qs_nodes"`
	QSShare   float64 `json:"qs_share"`
	MaxQSPly  int     `json:"max_qs_ply"`
	ElapsedMS int64   `json:"elapsed_ms"`
	NPS       *int64  `json:"nps"`
}

type benchRow struct {
	variantTotals
	// NPSRatio is Horizon's nodes per second over Stockfish's
	// (horizonOverStockfish); null without Stockfish.
	NPSRatio *float64 `json:"horizon_over_stockfish_nps"`
	Capped   int      `json:"capped"` // searches stopped by the node cap
}

// Horizon's speed beside Stockfish's is one figure, in one direction, in
// bench and perft --bench alike: Horizon's nodes per second over
// Stockfish's, so that above 1 Horizon is the faster. --stockfish may
// name another UCI engine: the figure is then against that engine, and
// the text names it (speedRival); the JSON keys stay.
const npsRatioHelp = "H/SF nps: Horizon's nodes per second over Stockfish's, so that above 1\n" +
	"Horizon is the faster (horizon_over_stockfish_nps in --json). --stockfish may\n" +
	"name any UCI engine: the ratio is then against that engine, whose UCI id name\n" +
	"the text gives (H/Ethereal nps) and --json's stockfish_name; the keys stay"

// speedRival is the engine bench and perft --bench set Horizon's speed
// beside: whichever --stockfish names, called by its UCI id name. It is
// the one home of their labels for it.
type speedRival struct {
	name string // its 'id name'
	path string
}

// word is the first word of the rival's name ("Stockfish", "Ethereal").
func (r speedRival) word() string {
	if f := strings.Fields(r.name); len(f) > 0 {
		return f[0]
	}
	return "engine"
}

// label is the rival as a table's title names it: "Stockfish 15.1
// (/usr/games/stockfish)".
func (r speedRival) label() string { return r.name + " (" + r.path + ")" }

// ratioHead is the ratio's column: "H/SF nps" against Stockfish,
// "H/Ethereal nps" against Ethereal.
func (r speedRival) ratioHead() string {
	if strings.EqualFold(r.word(), "stockfish") {
		return "H/SF nps"
	}
	return "H/" + r.word() + " nps"
}

// timeHead is the column of the rival's times in perft --bench:
// "stockfish s".
func (r speedRival) timeHead() string { return strings.ToLower(r.word()) + " s" }

// ratioWidth is the ratio column's width: its head's, 8 at least.
func (r speedRival) ratioWidth() int { return max(8, len(r.ratioHead())) }

// ratioNote says under a table what the ratio is.
func (r speedRival) ratioNote() string {
	return fmt.Sprintf("%s = Horizon's nodes per second / %s's (above 1: Horizon is faster)", r.ratioHead(), r.name)
}

// horizonOverStockfish is the H/SF nps figure.
func horizonOverStockfish(horizonNPS, stockfishNPS float64) float64 {
	return horizonNPS / max(stockfishNPS, 1e-9)
}

// npsRatioText prints an H/SF nps figure, "-" when there is none.
func npsRatioText(r *float64) string {
	if r == nil {
		return "-"
	}
	return fmt.Sprintf("%.2fx", *r)
}

// positiveOrNull is v for JSON, null when it is not positive: a figure of
// an engine that was not run (Stockfish's rate or time).
func positiveOrNull[T int64 | float64](v T) *T {
	if v <= 0 {
		return nil
	}
	return &v
}

type benchJSON struct {
	Depth    int        `json:"depth"`
	NodeCap  int64      `json:"node_cap"`
	Variants []benchRow `json:"variants"`
	// Stockfish is the path of the engine --stockfish named (Stockfish
	// or another), StockfishName its UCI id name; null without one
	// (MarshalJSON).
	Stockfish     string `json:"-"`
	StockfishName string `json:"-"`
	StockfishNPS  int64  `json:"-"`
	TotalNodes    int64  `json:"nodes"`
	TotalNPS      *int64 `json:"nps"`
	positions     int
	sfTime        time.Duration // Stockfish's time per position
	sfSkipped     bool          // --stockfish none
}

// MarshalJSON writes the Stockfish figures as null when none was run (the
// text says why: skipped or not found).
func (out benchJSON) MarshalJSON() ([]byte, error) {
	type fields benchJSON // its fields, without this method
	return json.Marshal(struct {
		fields
		Stockfish     *string `json:"stockfish"`
		StockfishName *string `json:"stockfish_name"`
		StockfishNPS  *int64  `json:"stockfish_nps"`
	}{fields(out), orNull(out.Stockfish), orNull(out.StockfishName), positiveOrNull(out.StockfishNPS)})
}

func runBench(e *env, args []string) error {
	fs := newFlags(e, "bench", "[--depth N] [--nodes N] [--qs LIST] [--fen FEN | --epd FILE] [--stockfish PATH|none] [--json]",
		`Searches the bench positions (those of 'stockfish bench', built in) with each QS
variant at a fixed depth, untraced, and prints per variant: nodes, QS nodes, QS
share, deepest QS ply, time and nodes per second. The node counts are the bench
signature: any change to the search changes them (testdata/bench.golden keeps
them for review). When Stockfish is found, it searches the same positions in
the same run (one thread, --sf-movetime each), and each variant gets its
`+npsRatioHelp+`.
A node cap per search keeps the artificial stress positions from dominating.`,
		"horizon bench", "horizon bench --depth 4 --nodes 1000000", "horizon bench --depth 5 --qs see,captures --stockfish none")
	// The defaults are those of testdata/bench.golden, so the signature
	// printed here can be checked against it.
	depth := fs.Int("depth", 3, "search depth of every search")
	nodes := fs.Int64("nodes", 100_000, "node cap per search (0 = none)")
	qs := fs.String("qs", strings.Join(engine.VariantNames(), ","), "QS variants to bench")
	pf := addPositionFlags(e.ctx, fs, "bench this position instead of the built-in ones", "bench the positions of this EPD file instead")
	sfFlag := fs.String("stockfish", "", "Stockfish (or another UCI engine) for the speed ratio (default: PATH or /usr/games/stockfish; 'none' to skip)")
	sfTime := fs.Duration("sf-movetime", 200*time.Millisecond, "Stockfish's time per position (at least 1ms)")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if *depth < 1 || *depth >= engine.MaxPly {
		return usagef("--depth %d: want 1 to %d", *depth, engine.MaxPly-1)
	}
	if *nodes < 0 {
		return usagef("--nodes %d: want a node cap, or 0 for none", *nodes)
	}
	// Stockfish is told "go movetime N" in whole milliseconds; no time
	// would be a search that never ends.
	if *sfTime < time.Millisecond {
		return usagef("--sf-movetime %s: want at least 1ms", *sfTime)
	}
	opts, err := engine.ParseVariantSpecs(*qs)
	if err != nil {
		return usagef("--qs: %v", err)
	}
	var positions []engine.EPD
	if pf.given() {
		if positions, err = pf.load(); err != nil {
			return err
		}
	} else {
		for _, line := range strings.Split(strings.TrimSpace(benchFENs), "\n") {
			p, err := engine.ParseFEN(line)
			if err != nil {
				return fmt.Errorf("built-in bench position: %v", err)
			}
			positions = append(positions, engine.EPD{FEN: p.FEN(), Pos: p})
		}
	}
	out := benchJSON{Depth: *depth, NodeCap: *nodes, positions: len(positions), sfTime: *sfTime, sfSkipped: *sfFlag == "none"}
	lim := engine.Limits{Depth: *depth, Nodes: *nodes}
	var totalTime time.Duration
	// Progress on a terminal only, as every command's: a pipe or a log
	// gets the table and nothing else.
	prog := countProgress(e.stderr, "searches", len(opts)*len(positions))
	defer prog.Stop()
	for _, o := range opts {
		row := benchRow{variantTotals: variantTotals{Variant: engine.VariantSpec(o), Positions: len(positions)}}
		s := engine.NewSearcher(o)
		var elapsed time.Duration
		for i := range positions {
			if e.ctx.Err() != nil {
				return e.stoppedErr()
			}
			r := s.Search(e.ctx, positions[i].Pos.Copy(), lim, nil)
			row.Nodes += r.Stats.Nodes
			row.QSNodes += r.Stats.QSNodes
			row.MaxQSPly = max(row.MaxQSPly, r.Stats.MaxQSPly)
			elapsed += r.Elapsed
			if r.Stopped == engine.StopNodes {
				row.Capped++
			}
			prog.Add(1)
		}
		row.ElapsedMS = elapsed.Milliseconds()
		row.NPS = nps(row.Nodes, elapsed)
		if row.Nodes > 0 {
			row.QSShare = float64(row.QSNodes) / float64(row.Nodes)
		}
		out.TotalNodes += row.Nodes
		totalTime += elapsed
		out.Variants = append(out.Variants, row)
	}
	prog.Stop()
	out.TotalNPS = nps(out.TotalNodes, totalTime)

	if *sfFlag != "none" {
		path, err := perftStockfishPath(*sfFlag)
		if err == nil && path != "" {
			sfNPS, name, err := stockfishNPS(e, path, positions, *sfTime)
			if err != nil {
				if e.ctx.Err() != nil {
					return e.stoppedErr() // as in Horizon's searches: not the engine's failure
				}
				return fmt.Errorf("stockfish: %v", err)
			}
			out.Stockfish, out.StockfishName, out.StockfishNPS = path, name, sfNPS
			for i := range out.Variants {
				if v := out.Variants[i].NPS; v != nil {
					r := horizonOverStockfish(float64(*v), float64(sfNPS))
					out.Variants[i].NPSRatio = &r
				}
			}
		} else if *sfFlag != "" {
			return err
		}
	}
	return e.print(out, formatOf(*asJSON, false))
}

func (out benchJSON) writeText(w io.Writer) error {
	nodeCap := "no node cap"
	if out.NodeCap > 0 {
		nodeCap = "node cap " + engine.Commas(out.NodeCap) + " per search"
	}
	fmt.Fprintf(w, "bench: %d positions, depth %d, %s, untraced\n\n", out.positions, out.Depth, nodeCap)
	// The column names are compare's, which prints the same totals.
	rival := speedRival{out.StockfishName, out.Stockfish}
	if out.Stockfish == "" {
		rival.name = "Stockfish" // the column reads "-"
	}
	rw := max(9, rival.ratioWidth())
	fmt.Fprintf(w, "%-10s %12s %12s %8s %10s %9s %10s %7s %*s\n", "variant", "nodes", "QS nodes", "QS share", "max QS ply", "time ms", "nps", "capped", rw, rival.ratioHead())
	for _, r := range out.Variants {
		fmt.Fprintf(w, "%-10s %12s %12s %8s %10d %9s %10s %7d %*s\n", r.Variant, engine.Commas(r.Nodes), engine.Commas(r.QSNodes),
			engine.Percent(r.QSShare), r.MaxQSPly, engine.Commas(r.ElapsedMS), npsText(r.NPS), r.Capped, rw, npsRatioText(r.NPSRatio))
	}
	fmt.Fprintf(w, "\ntotal: %s nodes, %s nps\n", engine.Commas(out.TotalNodes), npsText(out.TotalNPS))
	switch {
	case out.Stockfish != "":
		fmt.Fprintf(w, "%s, 1 thread, %s per position: %s nps\n%s\n", rival.label(), out.sfTime, engine.Commas(out.StockfishNPS), rival.ratioNote())
	case out.sfSkipped:
		fmt.Fprintln(w, "stockfish: skipped (--stockfish none), no speed ratio")
	default:
		fmt.Fprintln(w, "stockfish: not found, no speed ratio (install it or pass --stockfish PATH)")
	}
	// The signature stays in bare digits: it is compared with
	// testdata/bench.golden, which keeps them so.
	fmt.Fprintln(w, "\nsignature:")
	for _, r := range out.Variants {
		fmt.Fprintf(w, "  %s %d\n", r.Variant, r.Nodes)
	}
	return nil
}

// stockfishNPS searches each position for movetime in Stockfish (or the
// UCI engine at path; one thread) and returns its nodes per second over
// all of them, from its own reports, and its UCI id name.
func stockfishNPS(e *env, path string, positions []engine.EPD, movetime time.Duration) (int64, string, error) {
	u, err := uci.StartEngine(e.ctx, path)
	if err != nil {
		return 0, "", err
	}
	defer u.Close()
	if err := u.Send("setoption name Threads value 1", "setoption name Hash value 16"); err != nil {
		return 0, "", err
	}
	var nodes, ms int64
	prog := countProgress(e.stderr, speedRival{name: u.Name}.word()+" searches", len(positions))
	defer prog.Stop()
	for i := range positions {
		if err := u.SetPosition(positions[i].FEN); err != nil {
			return 0, "", err
		}
		res, err := u.Go(e.ctx, engine.Limits{MoveTime: movetime}, uci.GoOptions{Timeout: movetime + 10*time.Second})
		if err != nil {
			return 0, "", fmt.Errorf("%s: waiting for \"bestmove\": %w", u.Name, err)
		}
		// The search's totals are those of its last info line that
		// gives them.
		n, t := max(res.Nodes, 0), max(res.TimeMS, 0)
		nodes += n
		ms += t
		prog.Add(1)
	}
	// Its rate by Horizon's one rule (engine.NodesPerSecond).
	r, ok := engine.NodesPerSecond(nodes, time.Duration(ms)*time.Millisecond)
	if !ok {
		return 0, "", fmt.Errorf("reported %d ms in all, under the %d ms a rate needs", ms, engine.MinRateElapsed.Milliseconds())
	}
	return int64(r), u.Name, nil
}
