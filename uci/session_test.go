package uci

import (
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/internal/horizonbin"
	"github.com/horizonqs/horizon/trace"
	"github.com/horizonqs/horizon/trace/tracetest"
)

// transports run the same scripts against Run in-process (where -race
// sees the session and search goroutines) and against the built binary
// (what GUIs talk to).
var transports = []struct {
	name  string
	start func(t *testing.T) *conn
}{
	{"in-process", func(t *testing.T) *conn { return startSession(t) }},
	{"binary", func(t *testing.T) *conn { return startProcess(t, horizonbin.Path(t), "uci") }},
}

// script is one scripted UCI conversation.
type script struct {
	name string
	run  func(t *testing.T, c *conn)
}

var scripts = []script{
	{"handshake", func(t *testing.T, c *conn) {
		c.send("uci")
		got := c.untilPrefix("uciok")
		if !strings.HasPrefix(got[0], "id name Horizon") {
			t.Errorf("first line %q, want id name Horizon...", got[0])
		}
		if !slices.ContainsFunc(got, func(l string) bool { return strings.HasPrefix(l, "id author ") }) {
			t.Errorf("no id author line in %q", got)
		}
		opts := map[string]string{}
		for _, l := range got {
			if !strings.HasPrefix(l, "option ") {
				continue
			}
			f := strings.Fields(l)
			if len(f) < 6 || f[1] != "name" || f[3] != "type" || f[5] != "default" {
				t.Errorf("malformed option line %q", l)
				continue
			}
			opts[f[2]] = l
		}
		want := map[string]string{"QSVariant": "combo", "Hash": "spin", "Trace": "string", "TraceMaxNodes": "spin",
			"QSLevels": "spin", "SEEPrune": "combo", "QSMoves": "combo"}
		for name, typ := range want {
			if !strings.Contains(opts[name], " type "+typ+" ") {
				t.Errorf("option %s: got %q, want type %s", name, opts[name], typ)
			}
		}
		for _, v := range engine.VariantNames() {
			if !strings.Contains(opts["QSVariant"]+" ", " var "+v+" ") {
				t.Errorf("QSVariant does not offer %s: %q", v, opts["QSVariant"])
			}
		}
		c.send("isready")
		c.untilPrefix("readyok")
	}},
	{"go depth", func(t *testing.T, c *conn) {
		c.send("ucinewgame", "position startpos moves e2e4 e7e5", "go depth 4")
		got := c.untilPrefix("bestmove")
		var depths []int
		for _, in := range infos(got) {
			d, _ := strconv.Atoi(in.fields["depth"])
			depths = append(depths, d)
			if in.fields["score cp"] == "" && in.fields["score mate"] == "" {
				t.Errorf("info line without a score: %v", in.fields)
			}
			for _, k := range []string{"seldepth", "nodes", "time"} {
				if _, err := strconv.Atoi(in.fields[k]); err != nil {
					t.Errorf("info %s = %q, want a number", k, in.fields[k])
				}
			}
			// A rate only where there is one (engine.NodesPerSecond).
			ms, _ := strconv.Atoi(in.fields["time"])
			if nps, ok := in.fields["nps"]; ok != (int64(ms) >= engine.MinRateElapsed.Milliseconds()) {
				t.Errorf("info nps %q at time %d ms: a rate is given from %v", nps, ms, engine.MinRateElapsed)
			} else if _, err := strconv.Atoi(nps); ok && err != nil {
				t.Errorf("info nps = %q, want a number", nps)
			}
			if len(in.pv) == 0 {
				t.Errorf("info line without a pv: %v", in.fields)
			}
		}
		if !slices.Equal(depths, []int{1, 2, 3, 4}) {
			t.Errorf("info depths %v, want 1 2 3 4", depths)
		}
		best := checkBestmove(t, got[len(got)-1], "e2e4", "e7e5")
		if pv := infos(got)[len(depths)-1].pv; pv[0] != best {
			t.Errorf("bestmove %s is not the last pv's first move %v", best, pv)
		}
	}},
	// A limited search ends by itself with a legal bestmove, its last info
	// line within the limit.
	{"go with a limit", func(t *testing.T, c *conn) {
		for _, tc := range []struct {
			moves    []string
			goCmd    string
			field    string // of the last info line
			min, max int64
		}{
			{nil, "go nodes 3000", "nodes", 1, 3000},
			// The search may only stop once the time is used: no iterative
			// deepening from the start position completes depth 127 in 150 ms.
			{[]string{"d2d4"}, "go movetime 150", "time", 150, math.MaxInt64},
			// Not a speed goal: the engine must not lose on time (the side
			// to move's clock is the limit).
			{nil, "go wtime 3000 btime 3000 winc 100 binc 100", "time", 0, 3000 - 1},
			{[]string{"e2e4"}, "go wtime 60000 btime 2000 movestogo 5", "time", 0, 2000 - 1},
			{[]string{"e2e4", "c7c5"}, "go wtime 500 btime 90000", "time", 0, 500 - 1},
		} {
			pos := "position startpos"
			if len(tc.moves) > 0 {
				pos += " moves " + strings.Join(tc.moves, " ")
			}
			c.send(pos, tc.goCmd)
			got := c.untilPrefix("bestmove")
			ins := infos(got)
			if len(ins) == 0 {
				t.Fatalf("%s: no info lines: %q", tc.goCmd, got)
			}
			v := ins[len(ins)-1].fields[tc.field]
			if n, err := strconv.ParseInt(v, 10, 64); err != nil || n < tc.min || n > tc.max {
				t.Errorf("%s: last info %s %q, want %d..%d", tc.goCmd, tc.field, v, tc.min, tc.max)
			}
			checkBestmove(t, got[len(got)-1], tc.moves...)
		}
	}},
	{"stop during go infinite, isready during a search", func(t *testing.T, c *conn) {
		c.send("position startpos", "go infinite")
		c.untilPrefix("info depth 2 ")
		c.readyWithoutBestmove("bestmove before stop under go infinite")
		c.send("stop")
		c.legalBestmove()
		// The engine is idle and answers again.
		c.send("isready")
		c.untilPrefix("readyok")
	}},
	{"go infinite holds bestmove after the search ends", func(t *testing.T, c *conn) {
		// Black is mated: the search ends at once, but UCI wants the
		// bestmove only after stop.
		c.send("position startpos moves f2f3 e7e5 g2g4 d8h4", "go infinite", "isready")
		got := c.untilPrefix("readyok")
		c.send("isready")
		got = append(got, c.untilPrefix("readyok")...)
		if slices.ContainsFunc(got, func(l string) bool { return strings.HasPrefix(l, "bestmove") }) {
			t.Fatalf("bestmove before stop under go infinite: %q", got)
		}
		c.send("stop")
		got = c.untilPrefix("bestmove")
		if got[len(got)-1] != "bestmove 0000" {
			t.Errorf("mated side answered %q, want bestmove 0000", got[len(got)-1])
		}
	}},
	// go searchmoves restricts the root: go searchmoves a2a3 h2h4 played
	// g1f3. Bad moves in the list are skipped with an info string each,
	// and a list with no legal move left searches every move.
	{"go searchmoves", func(t *testing.T, c *conn) {
		c.send("position startpos", "go depth 3 searchmoves a2a3 h2h4")
		got := c.untilPrefix("bestmove")
		if best, _ := bestmove(t, got[len(got)-1]); best != "a2a3" && best != "h2h4" {
			t.Errorf("searchmoves a2a3 h2h4: bestmove %s", best)
		}
		if msgs := infoStrings(got); len(msgs) != 0 {
			t.Errorf("searchmoves a2a3 h2h4: info strings %q, want none", msgs)
		}
		for _, in := range infos(got) {
			if pv := in.fields["pv"]; pv != "" && !strings.HasPrefix(pv, "a2a3") && !strings.HasPrefix(pv, "h2h4") {
				t.Errorf("searchmoves a2a3 h2h4: info line with pv %s", pv)
			}
		}
		// The best move (Rxd5, winning the queen) left out of the list.
		const fen = "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1"
		play := func(cmd string) (string, []string) {
			c.send(cmd)
			got := c.untilPrefix("bestmove")
			best, _ := bestmove(t, got[len(got)-1])
			return best, infoStrings(got)
		}
		c.send("position fen " + fen)
		if best, _ := play("go depth 3"); best != "d2d5" {
			t.Fatalf("%s: bestmove %s, want d2d5", fen, best)
		}
		best, msgs := play("go depth 3 searchmoves e1e2 d2d5x e1e3 e1f1 e1e2")
		if best != "e1e2" && best != "e1f1" {
			t.Errorf("searchmoves without d2d5: bestmove %s, want e1e2 or e1f1", best)
		}
		if len(msgs) != 2 || !strings.Contains(msgs[0], "d2d5x skipped") || !strings.Contains(msgs[1], "e1e3 skipped") {
			t.Errorf("searchmoves with bad moves: info strings %q, want one for d2d5x and one for e1e3", msgs)
		}
		if best, msgs := play("go depth 3 searchmoves e2e4"); best != "d2d5" || len(msgs) != 2 || !strings.Contains(msgs[1], "searching every move") {
			t.Errorf("searchmoves of no legal move: bestmove %s, info strings %q, want d2d5 from every move, and why", best, msgs)
		}
		// A control character the GUI sent comes back escaped, never raw:
		// a NUL in an info string ended the GUI's line (FuzzSession).
		if _, msgs := play("go depth 1 searchmoves e1e2\x00"); len(msgs) == 0 || !strings.Contains(msgs[0], `e1e2\x00 skipped`) || strings.ContainsRune(msgs[0], 0) {
			t.Errorf("searchmoves with a NUL: info strings %q, want the move quoted with \\x00", msgs)
		}
		// The next go without searchmoves searches every move again.
		if best, _ := play("go depth 3"); best != "d2d5" {
			t.Errorf("go after go searchmoves: bestmove %s, want d2d5", best)
		}
	}},
	{"mate score and go mate", func(t *testing.T, c *conn) {
		c.send("position startpos moves f2f3 e7e5 g2g4", "go depth 3")
		got := c.untilPrefix("bestmove")
		ins := infos(got)
		if len(ins) == 0 || ins[len(ins)-1].fields["score mate"] != "1" {
			t.Errorf("want a last info with score mate 1, got %q", got)
		}
		if best, _ := bestmove(t, got[len(got)-1]); best != "d8h4" {
			t.Errorf("bestmove %s, want the mate d8h4", best)
		}
		c.send("go mate 1")
		got = c.untilPrefix("bestmove")
		if best, _ := bestmove(t, got[len(got)-1]); best != "d8h4" {
			t.Errorf("go mate 1: bestmove %s, want d8h4", best)
		}
	}},
	{"go ponder, ponderhit and stop", func(t *testing.T, c *conn) {
		c.send("position startpos moves e2e4", "go ponder wtime 2000 btime 2000")
		c.untilPrefix("info depth 1 ")
		c.readyWithoutBestmove("bestmove while pondering")
		// After ponderhit the clock runs: the search ends by itself.
		c.send("ponderhit")
		c.legalBestmove("e2e4")
		// A ponder search the GUI stops (its ponder move was not played).
		c.send("go ponder wtime 2000 btime 2000")
		c.untilPrefix("info depth 1 ")
		c.send("stop")
		c.legalBestmove("e2e4")
	}},
	{"illegal move keeps the previous position", func(t *testing.T, c *conn) {
		c.send("position startpos moves e2e4", "position startpos moves e2e4 e7e5 e5e4", "isready")
		got := c.untilPrefix("readyok")
		msgs := infoStrings(got)
		if len(msgs) != 1 || !strings.Contains(msgs[0], "e5e4") || !strings.Contains(msgs[0], "previous position kept") {
			t.Errorf("info strings %q, want one naming e5e4 and saying the previous position is kept", msgs)
		}
		c.send("go depth 2")
		c.legalBestmove("e2e4") // a black move
	}},
	// Each input line gets one info string saying what is wrong with it, or
	// none; a refused line changes nothing, and the engine still searches.
	{"input lines and their answers", func(t *testing.T, c *conn) {
		for _, tc := range []struct{ line, want string }{
			// A switch that the one it needs leaves without effect is
			// kept, for when that is on, and the GUI is told: a GUI sends
			// every option in its own order, and refusing made the order
			// matter (Hash before TT refused TT false).
			{"setoption name QSVariant value none", ""},
			{"setoption name SEEPrune value true", "SEEPrune true has no effect for now: see-prune needs qs-moves other than none"},
			{"setoption name QSVariant value unified", ""},
			{"setoption name QSLevels value 3", "QSLevels 3 has no effect for now: qs-levels needs unified false"},
			{"setoption name CheckExt value true", ""},
			{"setoption name QSVariant value see", ""},
			{"setoption name QSVariant value none", "SEEPrune true, QSLevels 3 have no effect for now: see-prune, qs-levels need qs-moves other than none"},
			{"setoption name SEEPrune value preset", ""},
			{"setoption name QSLevels value -1", ""},
			{"setoption name QSVariant value see", ""},
			{"setoption name Hash value 64", ""},
			{"setoption name TT value false", "Hash 64 has no effect for now: hash needs tt true"},
			{"setoption name TT value preset", ""},
			{"setoption name Hash value 16", ""},
			{"setoption name DeltaMargin value 50", ""},
			{"setoption name Delta value false", "DeltaMargin 50 has no effect for now: delta-margin needs delta true"},
			{"setoption name QSMoves value none", "StandPat true, SEEPrune true, QSChecks true, QSEvasions true have no effect for now"},
			{"setoption name QSMoves value preset", ""},
			{"setoption name Delta value preset", ""},
			{"setoption name DeltaMargin value -1", ""},
			{"setoption name QSLevels value -2", "-1: the preset's value"},
			{"setoption name MaxQSPly value 0", "max-qs-ply"},
			// Malformed input is reported and ignored.
			{"foo bar", "unknown command"},
			{"setoption name NoSuchOption value 3", "unknown option"},
			{"setoption name Hash value 0", "Hash"},
			{"setoption name SEEPrune value maybe", "not one of preset, true, false"},
			{"setoption name QSVariant value nonsense", "QSVariant"},
			{"setoption", "want name"},
			{"position fen 8/8/8/8 w - - 0 1", "previous position kept"},
			{"position", "previous position kept"},
			{"position startpos moves e2e5", "previous position kept"},
			{"position startpos e2e4", "previous position kept"},
			// A long token in the reason no longer clips the verdict off
			// the info string (FuzzPosition's 2aa0ed8f5ca75df2).
			{"position " + strings.Repeat("\xfa", 300), "position refused, previous position kept: want startpos or fen"},
			{"position startpos moves " + strings.Repeat("e2e4", 200), "position refused, previous position kept: move 1 of 1"},
			{"debug sideways", "on or off"},
			{"setoption name Trace value /nonexistent-dir/x.trace", "tracing stays off"},
			{"ponderhit", "ponderhit ignored"},
		} {
			c.answers(tc.line, tc.want)
		}
		c.send("go depth 2")
		c.legalBestmove()
		// Unknown tokens before a command are skipped, as the UCI spec asks.
		c.send("joho isready")
		got := c.untilPrefix("readyok")
		if msgs := infoStrings(got); len(msgs) != 1 || !strings.Contains(msgs[0], "joho") {
			t.Errorf("joho isready: info strings %q, want one naming joho", msgs)
		}
		// A bad go value is skipped; the rest of the command stands.
		c.send("position startpos", "go depth x nodes 2000")
		got = c.untilPrefix("bestmove")
		if msgs := infoStrings(got); len(msgs) == 0 || !strings.Contains(msgs[0], `"x"`) {
			t.Errorf("go depth x: info strings %q, want one naming x", msgs)
		}
		checkBestmove(t, got[len(got)-1])
	}},
	// A switch without effect for now is kept for when the switch it needs
	// is on, and the runs say what was searched: TT false with Hash 64 ran
	// labelled see+tt=false+hash=64 with the nodes of see+tt=false, and
	// DeltaMargin 50 with Delta false was refused, so it was lost when
	// Delta came back on.
	{"a switch without effect is kept and left out of the run", func(t *testing.T, c *conn) {
		path := filepath.Join(t.TempDir(), "inert.trace")
		c.send("setoption name Trace value "+path, "setoption name Hash value 64", "setoption name TT value false",
			"setoption name Delta value false", "setoption name DeltaMargin value 50", "position startpos", "go depth 2")
		c.legalBestmove()
		c.send("setoption name TT value preset", "setoption name Delta value preset", "go depth 2")
		c.legalBestmove()
		c.quit()
		runs := tracetest.Runs(t, path)
		want := []string{"see+delta=false+tt=false", "see+delta-margin=50+hash=64"}
		if len(runs) != len(want) {
			t.Fatalf("%d runs, want %d", len(runs), len(want))
		}
		for i, r := range runs {
			o, err := engine.ParseOptionsJSON(r.Options, "")
			if got := engine.VariantSpec(o); err != nil || got != want[i] || o.Validate() != nil {
				t.Errorf("run %d: options %s (%v), want %s", i+1, got, err, want[i])
			}
		}
	}},
	// A GUI that sends every option at its advertised default, before or
	// after the QSVariant it chose, runs that preset exactly. The
	// switches advertised the see preset's values as their defaults and
	// set them as overrides: QSVariant threshold ran
	// threshold+see-prune=true+delta=true+qs-checks=true+qs-evasions=true.
	{"every option at its default keeps the chosen preset", func(t *testing.T, c *conn) {
		c.send("uci")
		var defaults []string
		for _, l := range c.untilPrefix("uciok") {
			f := strings.Fields(l)
			// The trace file is this test's; QSVariant is the GUI's choice.
			if len(f) < 7 || f[0] != "option" || f[2] == "Trace" || f[2] == "QSVariant" {
				continue
			}
			defaults = append(defaults, "setoption name "+f[2]+" value "+f[6])
		}
		path := filepath.Join(t.TempDir(), "defaults.trace")
		c.send("setoption name Trace value " + path)
		var want []string
		for _, v := range []string{"threshold", "recapture", "none", "unified", "see"} {
			for _, after := range []bool{true, false} {
				variant := "setoption name QSVariant value " + v
				lines := append([]string{variant}, defaults...)
				if after {
					lines = append(append([]string(nil), defaults...), variant)
				}
				c.send(append(lines, "isready")...)
				if msgs := infoStrings(c.untilPrefix("readyok")); len(msgs) > 1 || len(msgs) == 1 && !strings.Contains(msgs[0], "tracing every go") {
					t.Errorf("%s with every option at its default: info strings %q", v, msgs)
				}
				c.send("position startpos", "go depth 2")
				c.legalBestmove()
				want = append(want, v)
			}
		}
		c.quit()
		runs := tracetest.Runs(t, path)
		if len(runs) != len(want) {
			t.Fatalf("%d runs, want %d", len(runs), len(want))
		}
		for i, r := range runs {
			got, err := engine.ParseOptionsJSON(r.Options, "")
			preset, _ := engine.VariantOptions(want[i])
			if err != nil || got != preset || engine.VariantSpec(got) != want[i] {
				t.Errorf("run %d: options %s (%s, %v), want the %s preset exactly", i+1, r.Options, engine.VariantSpec(got), err, want[i])
			}
		}
	}},
	{"a traced search the clock ends is truncated, not interrupted", func(t *testing.T, c *conn) {
		// The time manager ends a clock search through the job's context
		// (its soft limit after an iteration): that is the search's own
		// time limit, which a run calls truncated; stop and quit
		// interrupt. It was recorded as interrupted.
		path := filepath.Join(t.TempDir(), "clock.trace")
		c.send("setoption name Trace value "+path, "isready")
		c.untilPrefix("readyok")
		c.send("position startpos", "go wtime 300 btime 300")
		c.legalBestmove()
		c.quit()
		runs := tracetest.Runs(t, path)
		if len(runs) != 1 || runs[0].Status != trace.StatusTruncated {
			t.Fatalf("runs %+v; want one truncated run", runs)
		}
	}},
	{"traced go leaves runs in the trace file", func(t *testing.T, c *conn) {
		path := filepath.Join(t.TempDir(), "games.trace")
		c.send("setoption name Trace value "+path, "setoption name QSVariant value threshold",
			"setoption name QSLevels value 6", "isready")
		c.untilPrefix("readyok")
		c.send("position startpos moves e2e4 e7e5 g1f3", "go depth 3")
		best := c.legalBestmove("e2e4", "e7e5", "g1f3")
		// TraceMaxNodes bounds the recording, not the search: it stopped
		// go depth 5 after 500 nodes at depth 3, so a traced game played
		// otherwise than an untraced one. The same go untraced gives the
		// same answer and nodes.
		lastInfo := func(lines []string) (best, nodes string) {
			ins := infos(lines)
			best, _ = bestmove(t, lines[len(lines)-1])
			return best, ins[len(ins)-1].fields["nodes"]
		}
		c.send("setoption name TraceMaxNodes value 500", "setoption name QSVariant value mvv-lva",
			"position startpos", "go depth 5")
		got := c.untilPrefix("bestmove")
		best2, nodes2 := lastInfo(got)
		// It says what the run keeps, the iteration roots past the cap
		// counted: it said "the first 500" of a run of 502 rows.
		sayRecorded := infoStrings(got)
		c.send("setoption name Trace value <empty>", "go depth 5")
		got = c.untilPrefix("bestmove")
		if best, nodes := lastInfo(got); best != best2 || nodes != nodes2 {
			t.Errorf("untraced: bestmove %s after %s nodes; traced past TraceMaxNodes: %s after %s", best, nodes, best2, nodes2)
		}
		c.quit()

		runs := tracetest.Runs(t, path)
		if len(runs) != 2 {
			t.Fatalf("%d runs in the trace, want 2", len(runs))
		}
		r := runs[0]
		if want := mustPosition(t, "startpos", "e2e4", "e7e5", "g1f3").FEN(); r.FEN != want {
			t.Errorf("run 1 FEN %q, want %q", r.FEN, want)
		}
		if r.Variant != "threshold" || r.Status != trace.StatusComplete || r.Depth != 3 || r.BestMove != best {
			t.Errorf("run 1: variant %q status %q depth %d bestmove %q; want threshold complete 3 %s",
				r.Variant, r.Status, r.Depth, r.BestMove, best)
		}
		if r.Nodes <= 0 || r.Rows != r.Nodes+1 {
			t.Errorf("run 1: %d nodes, %d rows; want every node recorded", r.Nodes, r.Rows)
		}
		var opts map[string]any
		if err := json.Unmarshal([]byte(r.Options), &opts); err != nil || opts["qs-levels"] != 6.0 {
			t.Errorf("run 1 options %s (%v): want qs-levels 6", r.Options, err)
		}
		var lim limitsJSON
		if err := json.Unmarshal([]byte(r.Limits), &lim); err != nil {
			t.Fatalf("run 1 limits %s: %v", r.Limits, err)
		}
		if lim.Position != "startpos" || !slices.Equal(lim.Moves, []string{"e2e4", "e7e5", "g1f3"}) ||
			lim.Depth != 3 || lim.Go != "go depth 3" {
			t.Errorf("run 1 limits %s: want startpos, moves e2e4 e7e5 g1f3, depth 3, go depth 3", r.Limits)
		}
		// The run is the search's (status, depth, nodes, answer); its
		// rows are the first 500 nodes and the iteration roots after
		// them, as its recording filter says.
		r = runs[1]
		if r.Variant != "mvv-lva" || r.Status != trace.StatusComplete || r.Depth != 5 || strconv.FormatInt(r.Nodes, 10) != nodes2 ||
			r.BestMove != best2 || r.Filter != "first 500 nodes" || r.Recorded() < 500 || r.Recorded() > 505 {
			t.Errorf("run 2: variant %q status %q depth %d nodes %d recorded %d filter %q bestmove %q; want mvv-lva complete 5 %s, 500 to 505, first 500 nodes, %s",
				r.Variant, r.Status, r.Depth, r.Nodes, r.Recorded(), r.Filter, r.BestMove, nodes2, best2)
		}
		later := r.Recorded() - 500
		want := fmt.Sprintf("recorded %d of the search's %s nodes, the first 500 nodes and %s (TraceMaxNodes)",
			r.Recorded(), nodes2, engine.CountOf(later, "later iteration root", "later iteration roots"))
		if len(sayRecorded) != 1 || !strings.Contains(sayRecorded[0], want) || later < 1 {
			t.Errorf("go depth 5 past TraceMaxNodes: info strings %q, want %q (later roots: %d)", sayRecorded, want, later)
		}
		if got := r.FilterText(); got != "first 500 nodes and "+engine.CountOf(later, "later iteration root", "later iteration roots") {
			t.Errorf("run 2's filter in words: %q", got)
		}
	}},
	// Issue 17 item 9: a go sent during a long limited search blocked the
	// command loop: stop, isready and quit got no answer until it ended.
	{"go during a search blocks nothing", func(t *testing.T, c *conn) {
		c.searching("go nodes 2000000000")
		c.send("go depth 2", "isready")
		c.untilPrefix("readyok")
		c.send("stop")
		c.untilPrefix("bestmove")
		// stop dropped the waiting go: the next answer is readyok.
		c.send("isready")
		got := c.untilPrefix("readyok")
		for _, l := range got {
			if strings.HasPrefix(l, "bestmove") {
				t.Errorf("a bestmove after stop: the waiting go ran: %q", got)
			}
		}
		c.searching("go nodes 2000000000")
		c.send("go depth 2")
		c.quit()
	}},
	// Issue 17 item 15: info strings echoed a huge input whole.
	{"a huge bad input is quoted in part", func(t *testing.T, c *conn) {
		junk := strings.Repeat("x", 500_000)
		c.send("position fen "+junk+" w - - 0 1", "foo"+junk+" uci", "setoption name "+junk+" value 1", "isready")
		for _, l := range c.untilPrefix("readyok") {
			if len(l) > 1000 {
				t.Errorf("a line of %d bytes: %.80s...", len(l), l)
			}
		}
	}},
	// go perft N counts as Stockfish does. It was an unknown token that
	// left the go with no limit: a search until stop, after which go
	// depth 1 was refused as if go infinite ran.
	{"go perft", func(t *testing.T, c *conn) {
		for _, tc := range []struct {
			moves []string
			depth int
		}{{nil, 2}, {[]string{"e2e4", "d7d5"}, 3}, {nil, 1}} {
			pos := mustPosition(t, "startpos", tc.moves...)
			c.send("position startpos moves "+strings.Join(tc.moves, " "), "go perft "+strconv.Itoa(tc.depth))
			got := c.untilPrefix("Nodes searched: ")
			if msgs := infoStrings(got); len(msgs) > 0 {
				t.Errorf("go perft %d: info strings %q", tc.depth, msgs)
			}
			want := map[string]uint64{}
			for _, d := range engine.Divide(pos.Copy(), tc.depth) {
				want[d.Move.UCI()] = d.Nodes
			}
			lines := 0
			for _, l := range got[:len(got)-1] {
				if l == "" {
					continue
				}
				mv, n, _ := strings.Cut(l, ": ")
				if c, err := strconv.ParseUint(n, 10, 64); err != nil || want[mv] != c {
					t.Errorf("go perft %d: line %q, want %s: %d", tc.depth, l, mv, want[mv])
				}
				lines++
			}
			if total := fmt.Sprint(engine.Perft(pos.Copy(), tc.depth)); lines != len(want) || got[len(got)-1] != "Nodes searched: "+total {
				t.Errorf("go perft %d: %d move lines (want %d), last %q (want Nodes searched: %s)", tc.depth, lines, len(want), got[len(got)-1], total)
			}
		}
		// The engine is idle: a go is searched, not refused.
		c.send("go depth 1")
		got := c.untilPrefix("bestmove")
		if msgs := infoStrings(got); len(msgs) > 0 {
			t.Errorf("go depth 1 after go perft: info strings %q", msgs)
		}
		// A bad depth refuses the go, saying so; stop ends a long count.
		c.answers("go perft 0", "go ignored")
		c.answers("go perft", "go ignored")
		c.send("position startpos", "go perft 7", "stop", "go depth 1")
		got = c.untilPrefix("bestmove")
		if !slices.ContainsFunc(infoStrings(got), func(s string) bool { return strings.Contains(s, "perft 7 stopped") }) {
			t.Errorf("stop during go perft 7: %q, want it said the count stopped", got)
		}
	}},
	// An unknown token keeps the other limits and never leaves a go
	// with none (a search until stop): it searches to depth 1.
	{"go with an unknown token is not infinite", func(t *testing.T, c *conn) {
		c.send("position startpos", "go frobnicate")
		got := c.untilPrefix("bestmove")
		said := strings.Join(infoStrings(got), "\n")
		if !strings.Contains(said, `"frobnicate"`) || !strings.Contains(said, "depth 1") {
			t.Errorf("go frobnicate: info strings %q, want frobnicate named and depth 1", said)
		}
		c.send("go frobnicate depth 3")
		got = c.untilPrefix("bestmove")
		if ins := infos(got); len(ins) == 0 || ins[len(ins)-1].fields["depth"] != "3" {
			t.Errorf("go frobnicate depth 3: %q, want a search to depth 3", got)
		}
	}},
	// A search stopped before its first iteration finished has no answer:
	// its last info line gives no score and no PV (it gave "pv e1d1", the
	// first legal move, never searched), and an info string says so.
	{"no iteration finished", func(t *testing.T, c *conn) {
		c.send("position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "go nodes 10")
		got := c.untilPrefix("bestmove")
		if len(got) < 3 || got[len(got)-2] != NoAnswerLine || strings.Contains(got[len(got)-3], " pv ") || strings.Contains(got[len(got)-3], " score ") {
			t.Errorf("go nodes 10 on Kiwipete: %q", got)
		}
	}},
	// Issue 17 item 17: go depth abc started a search that ran until stop.
	{"go with a bad limit searches to depth 1", func(t *testing.T, c *conn) {
		for _, g := range []string{"go depth abc", "go depth 0", "go nodes 3e8", "go movetime -5", "go depth"} {
			c.send("position startpos", g)
			got := c.untilPrefix("bestmove")
			said := strings.Join(got, "\n")
			if !strings.Contains(said, "info string") || !strings.Contains(said, "depth 1") {
				t.Errorf("%s: want info strings saying what it did (depth 1); got %q", g, got)
			}
		}
	}},
}

func init() {
	// The ways a session ends during a search: each ends it cleanly.
	for _, tc := range []struct {
		name, goCmd string
		end         func(c *conn)
	}{
		{"quit during a search", "go infinite", (*conn).quit},
		// Issue 17 item 10: the end of input left a limited search running
		// at full CPU; it stops it, as Stockfish does, with a bestmove.
		{"end of input stops a search", "go nodes 2000000000", func(c *conn) {
			c.e.CloseInput()
			c.untilPrefix("bestmove")
			c.exits("the end of input")
		}},
	} {
		scripts = append(scripts, script{tc.name, func(t *testing.T, c *conn) {
			c.searching(tc.goCmd)
			tc.end(c)
		}})
	}
	scripts = append(scripts, script{"go queued behind a limited search", func(t *testing.T, c *conn) {
		// Sent at once: the second go waits for the first search, as in
		// Stockfish, instead of being dropped.
		c.send("position startpos", "go depth 3", "position startpos moves e2e4", "go depth 3")
		first := c.untilPrefix("bestmove")
		second := c.untilPrefix("bestmove")
		for _, l := range append(first, second...) {
			if strings.Contains(l, "ignored") {
				t.Errorf("a go was dropped: %q", l)
			}
		}
		// The second search ran on the second position: its move is Black's.
		checkBestmove(t, second[len(second)-1], "e2e4")
	}})
}

func TestSession(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			for _, sc := range scripts {
				t.Run(sc.name, func(t *testing.T) {
					c := tr.start(t)
					sc.run(t, c)
				})
			}
		})
	}
}
