package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"time"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/uci"
)

// perftTimed is a node count and the time it took, with the rate by
// Horizon's one rule (engine.NodesPerSecond): what --fen's and --epd's
// outputs both end with.
type perftTimed struct {
	Nodes     uint64 `json:"nodes"`
	ElapsedMS int64  `json:"elapsed_ms"`
	NPS       *int64 `json:"nps"` // null when there is no rate
	elapsed   time.Duration
}

func timedPerft(nodes uint64, elapsed time.Duration) perftTimed {
	return perftTimed{Nodes: nodes, ElapsedMS: elapsed.Milliseconds(), NPS: nps(int64(nodes), elapsed), elapsed: elapsed}
}

// perftJSON is the --json output of one perft count.
type perftJSON struct {
	FEN   string  `json:"fen"`
	ID    *string `json:"id"` // the EPD record's id; null when none
	Depth int     `json:"depth"`
	perftTimed
	Divide []perftDivideJSON `json:"divide"` // null without --divide
	label  string            // the position's name when there are several
	first  bool
}

type perftDivideJSON struct {
	Move  string `json:"move"`
	Nodes uint64 `json:"nodes"`
}

// perftCheckJSON is the --json output of checking an EPD perft suite. Its
// tally counts positions: a position passes when every one of its counts
// checked matches. Counts and FailedCounts are the counts themselves, and
// Failures lists each wrong one.
type perftCheckJSON struct {
	File         string `json:"file"`
	Positions    int    `json:"positions"`
	Passed       int    `json:"passed"`
	Failed       int    `json:"failed"`
	Counts       int    `json:"counts"`
	FailedCounts int    `json:"failed_counts"`
	perftTimed
	Failures []perftFailureJSON `json:"failures"`
}

type perftFailureJSON struct {
	Line  int     `json:"line"`
	ID    *string `json:"id"` // the EPD record's id; null when none
	FEN   string  `json:"fen"`
	Depth int     `json:"depth"`
	Got   uint64  `json:"got"`
	Want  uint64  `json:"want"`
}

// perftBenchJSON is the --json output of --bench.
type perftBenchJSON struct {
	Stockfish string `json:"-"` // path of the Stockfish (or the engine --stockfish named) run alongside, "" if none (null in JSON)
	// StockfishName is its UCI id name; null in JSON without one.
	StockfishName string          `json:"-"`
	Runs          int             `json:"runs"`
	Results       []perftBenchRow `json:"results"`
	sfSkipped     bool            // --stockfish none
}

// MarshalJSON writes stockfish and stockfish_name as null when no engine
// was run alongside.
func (res perftBenchJSON) MarshalJSON() ([]byte, error) {
	type fields perftBenchJSON // its fields, without this method
	return json.Marshal(struct {
		Stockfish     *string `json:"stockfish"`
		StockfishName *string `json:"stockfish_name"`
		fields
	}{orNull(res.Stockfish), orNull(res.StockfishName), fields(res)})
}

// rival is the engine run alongside.
func (res perftBenchJSON) rival() speedRival { return speedRival{res.StockfishName, res.Stockfish} }

type perftBenchRow struct {
	Name        string   `json:"name"`
	FEN         string   `json:"fen"`
	Depth       int      `json:"depth"`
	Nodes       uint64   `json:"nodes"`
	ElapsedMS   float64  `json:"elapsed_ms"`
	Mnps        *float64 `json:"mnps"`         // null when there is no rate (engine.NodesPerSecond)
	StockfishMS *float64 `json:"stockfish_ms"` // null when Stockfish was not run
	// NPSRatio is Horizon's nodes per second over Stockfish's, as in
	// bench (horizonOverStockfish): 0.5 means Horizon takes twice as long;
	// null without Stockfish or when either has no rate.
	NPSRatio *float64 `json:"horizon_over_stockfish_nps"`
	// The best times, Horizon's and Stockfish's (0: not run).
	elapsed, sfElapsed time.Duration
	ratioWidth         int // the ratio column's (speedRival.ratioWidth)
}

// perftBenchPositions are the benchmark: start position depth 6 and
// Kiwipete depth 5.
var perftBenchPositions = []struct {
	name, fen string
	depth     int
}{
	{"startpos", engine.StartFEN, 6},
	{"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5},
}

func runPerft(e *env, args []string) error {
	fs := newFlags(e, "perft", "(--fen FEN --depth N [--divide] | --epd FILE [--max-depth N] | --bench) [--json]",
		`Counts the leaf nodes of the legal move tree (perft), the standard check of a
chess move generator. With --fen it prints the count, and with --divide the
count below each legal move first, as "e2e4: 9771" lines in the format of
Stockfish's "go perft", so the two can be diffed. With --epd it checks every
";D1 20"-style count of an EPD perft suite and ends with "N passed, N failed"
over positions: a position passes when all its counts match (exit status 1 if
any failed); adding --depth instead counts every position of
the file at that depth. --bench times the start position at depth 6 and
Kiwipete at depth 5 and, when Stockfish is installed, runs the same perfts in
Stockfish in the same run and prints
`+npsRatioHelp+`.`,
		"horizon perft --fen startpos --depth 5",
		"horizon perft --fen 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1' --depth 3 --divide",
		"horizon perft --epd testdata/perftsuite.epd --max-depth 4",
		"horizon perft --bench")
	pf := addPositionFlags(e.ctx, fs, fenUsage, "EPD file: check its ;Dn perft counts (or count each position at --depth)")
	depth := fs.Int("depth", 0, "perft depth in plies (0 counts the position itself: 1)")
	maxDepth := fs.Int("max-depth", 0, "with --epd: check only the counts of depth <= N (0: all)")
	divide := fs.Bool("divide", false, "print the count below each legal move (\"e2e4: 9771\")")
	bench := fs.Bool("bench", false, "benchmark: startpos depth 6 and Kiwipete depth 5, side by side with Stockfish")
	runs := fs.Int("runs", 1, "with --bench: time each perft this many times and keep the fastest")
	stockfish := fs.String("stockfish", "", "with --bench: Stockfish binary (default: stockfish in PATH or /usr/games/stockfish; 'none' to skip)")
	asJSON := fs.Bool("json", false, "print the results as JSON")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if *depth < 0 || *maxDepth < 0 {
		return usagef("--depth and --max-depth must not be negative")
	}
	if *depth > engine.MaxPerftDepth || *maxDepth > engine.MaxPerftDepth {
		return usagef("--depth and --max-depth go up to %d", engine.MaxPerftDepth)
	}
	f := formatOf(*asJSON, false)
	// --depth 0 is a count (perft(0) = 1, the position itself); no
	// --depth is none.
	depthGiven := flagGiven(fs, "depth")
	if *bench {
		if pf.given() || depthGiven || *divide || *maxDepth != 0 {
			return usagef("--bench runs fixed positions: it takes no --fen, --epd, --depth, --divide or --max-depth")
		}
		if *runs < 1 {
			return usagef("--runs must be at least 1")
		}
		return perftBench(e, *runs, *stockfish, f)
	}
	positions, err := pf.load()
	if err != nil {
		return err
	}
	if !depthGiven {
		if pf.epd == "" {
			return usagef("--depth N is required with --fen")
		}
		if *divide {
			return usagef("--divide needs --depth")
		}
		return perftCheck(e, pf.epd, positions, *maxDepth, f)
	}
	if *maxDepth != 0 {
		return usagef("--max-depth applies to checking an EPD suite; with --depth every position is counted at that depth")
	}
	return perftCount(e, pf, positions, *depth, *divide, f)
}

// perftRoot counts perft below each root move, checking ctx between root
// moves so that a long count can be interrupted; each (may be nil) is
// called as each root move is done.
func perftRoot(ctx context.Context, p *engine.Position, depth int, each func(engine.DivideEntry)) ([]engine.DivideEntry, uint64, error) {
	if depth == 0 {
		return nil, 1, nil // the position itself, below no move
	}
	out, err := engine.DivideContext(ctx, p, depth, each)
	if err != nil {
		return nil, 0, err // ctx's: run says what stopped the command
	}
	var total uint64
	for _, d := range out {
		total += d.Nodes
	}
	return out, total, nil
}

// perftMnps is a perft's rate in millions of nodes per second, nil when
// there is none (engine.NodesPerSecond: d under engine.MinRateElapsed).
func perftMnps(nodes uint64, d time.Duration) *float64 {
	r, ok := engine.NodesPerSecond(int64(nodes), d)
	if !ok {
		return nil
	}
	r /= 1e6
	return &r
}

// mnpsText prints a perft rate: "62.3", "-" when there is none.
func mnpsText(nodes uint64, d time.Duration) string {
	r := perftMnps(nodes, d)
	if r == nil {
		return "-"
	}
	return fmt.Sprintf("%.1f", *r)
}

// perftRatio is Horizon's rate over Stockfish's (horizonOverStockfish),
// nil (none) when either has no rate.
func perftRatio(nodes uint64, horizon, stockfish time.Duration) *float64 {
	h, sf := perftMnps(nodes, horizon), perftMnps(nodes, stockfish)
	if h == nil || sf == nil {
		return nil
	}
	r := horizonOverStockfish(*h, *sf)
	return &r
}

func perftCount(e *env, pf *positionFlags, positions []engine.EPD, depth int, divide bool, f format) error {
	var out perftResult
	for i := range positions {
		pos := &positions[i]
		start := time.Now()
		// A bar of root moves while it counts (a deep perft takes
		// minutes), cleared before the count is printed.
		prog := countProgress(e.stderr, "root moves counted", int(engine.Perft(pos.Pos, min(depth, 1))))
		div, total, err := perftRoot(e.ctx, pos.Pos, depth, func(engine.DivideEntry) { prog.Add(1) })
		prog.Stop()
		if err != nil {
			return err
		}
		elapsed := time.Since(start)
		// Sorted by move text, so the output diffs cleanly against another engine's.
		sort.Slice(div, func(a, b int) bool { return div[a].Move.UCI() < div[b].Move.UCI() })
		j := perftJSON{FEN: pos.FEN, ID: orNull(pos.ID), Depth: depth, perftTimed: timedPerft(total, elapsed)}
		if divide {
			j.Divide = []perftDivideJSON{}
			for _, d := range div {
				j.Divide = append(j.Divide, perftDivideJSON{d.Move.UCI(), d.Nodes})
			}
		}
		if len(positions) > 1 {
			j.label, j.first = pf.label(pos), i == 0
		}
		if err := e.printPart(j, f); err != nil {
			return err
		}
		out = append(out, j)
	}
	return e.print(out, f)
}

// perftResult is 'perft --fen' or 'perft --epd --depth': a count per
// position, each printed as it ends.
type perftResult []perftJSON

// MarshalJSON writes one count as an object, several as an array.
func (res perftResult) MarshalJSON() ([]byte, error) { return oneOrMany(res) }

// writeText writes nothing: each count was printed as it ended.
func (res perftResult) writeText(io.Writer) error { return nil }

// writeText writes a count as Stockfish's "go perft" does, with the
// position first when there are several.
func (j perftJSON) writeText(w io.Writer) error {
	if j.label != "" {
		if !j.first {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "position %s: %s\n", j.label, j.FEN)
	}
	if j.Divide != nil {
		for _, d := range j.Divide {
			fmt.Fprintf(w, "%s: %d\n", d.Move, d.Nodes)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "Nodes searched: %d\n", j.Nodes)
	_, err := fmt.Fprintf(w, "Time: %s (%s Mnps)\n", engine.Elapsed(j.elapsed), mnpsText(j.Nodes, j.elapsed))
	return err
}

func perftCheck(e *env, file string, positions []engine.EPD, maxDepth int, f format) error {
	res := perftCheckJSON{File: file, Failures: []perftFailureJSON{}}
	var nodes uint64
	start := time.Now()
	for i := range positions {
		pos := &positions[i]
		var depths []int
		for _, d := range pos.Depths() {
			if maxDepth == 0 || d <= maxDepth {
				depths = append(depths, d)
			}
		}
		if len(depths) == 0 {
			continue
		}
		res.Positions++
		c := perftChecked{label: positionLabel(file, pos), depths: depths}
		posStart := time.Now()
		for _, d := range depths {
			_, got, err := perftRoot(e.ctx, pos.Pos, d, nil)
			if err != nil {
				return err
			}
			c.nodes += got
			if want := pos.Perft[d]; got != want {
				c.failures = append(c.failures, perftFailureJSON{Line: pos.Line, ID: orNull(pos.ID), FEN: pos.FEN, Depth: d, Got: got, Want: want})
			}
		}
		c.elapsed = time.Since(posStart)
		if len(c.failures) == 0 {
			res.Passed++
		} else {
			res.Failed++
		}
		res.Counts += len(depths)
		res.FailedCounts += len(c.failures)
		res.Failures = append(res.Failures, c.failures...)
		nodes += c.nodes
		if err := e.printPart(c, f); err != nil {
			return err
		}
	}
	if res.Positions == 0 {
		if maxDepth > 0 {
			return fmt.Errorf("%s: no ;Dn perft counts of depth %d or less", file, maxDepth)
		}
		return fmt.Errorf("%s: no ;Dn perft counts", file)
	}
	res.perftTimed = timedPerft(nodes, time.Since(start))
	if err := e.print(res, f); err != nil {
		return err
	}
	if res.Failed > 0 {
		return fmt.Errorf("%d of %d positions in %s have a wrong perft count (%d of %d counts wrong)", res.Failed, res.Positions, file, res.FailedCounts, res.Counts)
	}
	return nil
}

// perftChecked is one position of a perft suite, printed as it is done.
type perftChecked struct {
	label    string
	depths   []int
	nodes    uint64
	elapsed  time.Duration
	failures []perftFailureJSON
}

func (c perftChecked) writeText(w io.Writer) error {
	if len(c.failures) == 0 {
		_, err := fmt.Fprintf(w, "ok   %s depth %d..%d, %s, %s\n", c.label, c.depths[0], c.depths[len(c.depths)-1], engine.Count(int64(c.nodes), "node"), engine.Elapsed(c.elapsed))
		return err
	}
	for _, f := range c.failures {
		fmt.Fprintf(w, "FAIL %s depth %d: got %d, want %d (%s)\n", c.label, f.Depth, f.Got, f.Want, f.FEN)
	}
	return nil
}

// writeText is the suite's closing lines; the tally counts positions, as
// the line above it says.
func (res perftCheckJSON) writeText(w io.Writer) error {
	fmt.Fprintf(w, "%s, %s (%d wrong), %s in %s (%s Mnps); a position passes when all its counts match\n",
		engine.Count(int64(res.Positions), "position"), engine.Count(int64(res.Counts), "perft count"), res.FailedCounts,
		engine.Count(int64(res.Nodes), "node"), engine.Elapsed(res.elapsed), mnpsText(res.Nodes, res.elapsed))
	return writeTally(w, res.Passed, res.Failed)
}

// perftStockfishPath resolves --stockfish: "" looks in PATH, then in
// /usr/games (Debian's location, often not in PATH), as a name does;
// "none" turns it off.
func perftStockfishPath(flag string) (string, error) {
	switch flag {
	case "none":
		return "", nil
	case "":
		return uci.FindStockfish(), nil
	}
	path, err := uci.LookPath(flag)
	if err != nil {
		return "", fmt.Errorf("--stockfish %s: %v", flag, err)
	}
	return path, nil
}

func perftBench(e *env, runs int, sfFlag string, f format) error {
	sfPath, err := perftStockfishPath(sfFlag)
	if err != nil {
		return err
	}
	var sf *uci.Engine
	res := perftBenchJSON{Stockfish: sfPath, Runs: runs, sfSkipped: sfFlag == "none"}
	if sfPath != "" {
		if sf, err = uci.StartEngine(e.ctx, sfPath); err != nil {
			if e.ctx.Err() != nil {
				return e.stoppedErr()
			}
			return fmt.Errorf("starting %s: %v", sfPath, err)
		}
		defer sf.Close()
		res.StockfishName = sf.Name
	}
	// The table's head first: the rows come as they are timed.
	if err := e.printPart(perftBenchHead(res), f); err != nil {
		return err
	}
	for _, b := range perftBenchPositions {
		p, err := engine.ParseFEN(b.fen)
		if err != nil {
			return err
		}
		var nodes uint64
		best := time.Duration(1<<63 - 1)
		for r := 0; r < runs; r++ {
			start := time.Now()
			_, n, err := perftRoot(e.ctx, p, b.depth, nil)
			if err != nil {
				return err
			}
			best = min(best, time.Since(start))
			nodes = n
		}
		row := perftBenchRow{Name: b.name, FEN: b.fen, Depth: b.depth, Nodes: nodes,
			ElapsedMS: float64(best.Microseconds()) / 1e3, Mnps: perftMnps(nodes, best), elapsed: best}
		if sf != nil {
			row.sfElapsed = time.Duration(1<<63 - 1)
			for r := 0; r < runs; r++ {
				_, n, d, err := sf.Perft(b.fen, b.depth)
				if err != nil && e.ctx.Err() != nil {
					return e.stoppedErr()
				}
				if err != nil {
					return fmt.Errorf("stockfish perft of %s: %v", b.name, err)
				}
				if n != nodes {
					return fmt.Errorf("perft %s depth %d: Horizon counts %d, Stockfish %d", b.name, b.depth, nodes, n)
				}
				row.sfElapsed = min(row.sfElapsed, d)
			}
			row.withStockfish(row.sfElapsed)
			row.ratioWidth = res.rival().ratioWidth()
		}
		res.Results = append(res.Results, row)
		if err := e.printPart(row, f); err != nil {
			return err
		}
	}
	return e.print(res, f)
}

// withStockfish completes a row with Stockfish's best time for its count.
func (row *perftBenchRow) withStockfish(sf time.Duration) {
	row.sfElapsed = sf
	ms := float64(sf.Microseconds()) / 1e3
	row.StockfishMS = &ms
	row.NPSRatio = perftRatio(row.Nodes, row.elapsed, sf)
}

// perftBenchHead is the head of the --bench table.
type perftBenchHead perftBenchJSON

func (h perftBenchHead) writeText(w io.Writer) error {
	if h.Stockfish != "" {
		r := perftBenchJSON(h).rival()
		fmt.Fprintf(w, "perft benchmark, Horizon and %s in the same run, best of %d\n", r.label(), h.Runs)
		_, err := fmt.Fprintf(w, "%-9s %5s %11s %10s %7s %12s %7s %*s\n", "position", "depth", "nodes", "horizon s", "Mnps",
			r.timeHead(), "Mnps", r.ratioWidth(), r.ratioHead())
		return err
	}
	why := "Stockfish not found: no comparison; install it or pass --stockfish PATH"
	if h.sfSkipped {
		why = "Stockfish skipped (--stockfish none): no comparison"
	}
	fmt.Fprintf(w, "perft benchmark, best of %d (%s)\n", h.Runs, why)
	_, err := fmt.Fprintf(w, "%-9s %5s %11s %10s %7s\n", "position", "depth", "nodes", "horizon s", "Mnps")
	return err
}

func (row perftBenchRow) writeText(w io.Writer) error {
	fmt.Fprintf(w, "%-9s %5d %11s %10.3f %7s", row.Name, row.Depth, engine.Commas(int64(row.Nodes)), row.elapsed.Seconds(), mnpsText(row.Nodes, row.elapsed))
	if row.sfElapsed > 0 {
		fmt.Fprintf(w, " %12.3f %7s %*s", row.sfElapsed.Seconds(), mnpsText(row.Nodes, row.sfElapsed), max(8, row.ratioWidth), npsRatioText(row.NPSRatio))
	}
	_, err := fmt.Fprintln(w)
	return err
}

// writeText is the table's total row (the rows were printed as they were
// timed).
func (res perftBenchJSON) writeText(w io.Writer) error {
	var nodes uint64
	var h, sf time.Duration
	for _, r := range res.Results {
		nodes += r.Nodes
		h += r.elapsed
		sf += r.sfElapsed
	}
	fmt.Fprintf(w, "%-9s %5s %11s %10.3f %7s", "total", "", engine.Commas(int64(nodes)), h.Seconds(), mnpsText(nodes, h))
	if res.Stockfish != "" {
		fmt.Fprintf(w, " %12.3f %7s %*s", sf.Seconds(), mnpsText(nodes, sf), res.rival().ratioWidth(), npsRatioText(perftRatio(nodes, h, sf)))
	}
	fmt.Fprintln(w)
	if res.Stockfish != "" {
		fmt.Fprintf(w, "%s; %s timed from sending \"go perft\" to its node count\n", res.rival().ratioNote(), res.rival().word())
	}
	return nil
}
