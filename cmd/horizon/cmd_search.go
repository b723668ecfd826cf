package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
	"github.com/horizonqs/horizon/uci"
)

// searchJSON is the --json output of one search.
type searchJSON struct {
	Label string `json:"label"` // the position's name, as every command gives it (positionLabel)
	FEN   string `json:"fen"`
	// EPDID is the id of the EPD record searched; null when none, as in
	// every run's JSON. ID is the same, under the key search gave it
	// first (kept for scripts).
	EPDID     *string          `json:"epd_id"`
	ID        *string          `json:"id"`
	Variant   string           `json:"variant"`
	Options   json.RawMessage  `json:"options"`   // every switch, typed, as runs --json gives a run's
	BestMove  *string          `json:"best_move"` // null when no iteration finished (engine.Result.Finished)
	Ponder    *string          `json:"ponder"`    // UCI; null when the PV ends at the best move
	Score     *int             `json:"score"`     // null when no iteration finished
	Mate      *int             `json:"mate"`      // moves to mate, as UCI's score mate (negative: mated); null when no mate is found
	PV        []string         `json:"pv"`
	Depth     int              `json:"depth"`
	Nodes     int64            `json:"nodes"`
	QSNodes   int64            `json:"qs_nodes"`
	MaxPly    int              `json:"max_ply"`
	MaxQSPly  int              `json:"max_qs_ply"`
	ElapsedMS int64            `json:"elapsed_ms"`
	NPS       *int64           `json:"nps"`
	Status    string           `json:"status"`     // a run's status words (trace.StopStatus): complete, truncated, interrupted
	StopCause *string          `json:"stop_cause"` // what stopped it: nodes, time or cancel; null when none, as in runs --json
	Cutoffs   map[string]int64 `json:"cutoffs"`
	res       engine.Result
}

func newSearchJSON(p *engine.EPD, label string, o engine.Options, r engine.Result) searchJSON {
	j := searchJSON{Label: label, FEN: p.FEN, EPDID: orNull(p.ID), ID: orNull(p.ID), Variant: engine.VariantSpec(o), Options: trace.ObjectJSON(o.JSON()),
		Depth: r.Depth, Nodes: r.Stats.Nodes, QSNodes: r.Stats.QSNodes,
		MaxPly: r.Stats.MaxPly, MaxQSPly: r.Stats.MaxQSPly, ElapsedMS: r.Elapsed.Milliseconds(),
		NPS: nps(r.Stats.Nodes, r.Elapsed), Status: string(trace.StopStatus(r.Stopped)), StopCause: orNull(stopCause(r.Stopped)), Cutoffs: map[string]int64{}, PV: []string{}, res: r}
	if j.BestMove, j.Score = answer(r); r.Finished() {
		if r.Ponder != engine.NoMove {
			j.Ponder = orNull(r.Ponder.UCI())
		}
		if r.Score.IsMate() {
			mate := r.Score.MateIn()
			j.Mate = &mate
		}
		for _, m := range r.PV {
			j.PV = append(j.PV, m.UCI())
		}
	}
	for c, name := range engine.CauseNames() {
		if n := r.Stats.Cutoffs[c]; n > 0 {
			j.Cutoffs[name] = n
		}
	}
	return j
}

// answer is a search's best move (UCI) and score for JSON: null when no
// iteration finished (engine.Result.Finished), whatever move it would play.
func answer(r engine.Result) (best *string, score *int) {
	if !r.Finished() {
		return nil, nil
	}
	b, sc := r.BestMove.UCI(), int(r.Score)
	return &b, &sc
}

// nps is nodes per second over elapsed (engine.NodesPerSecond); nil (JSON
// null, printed "-") when there is no rate.
func nps(nodes int64, elapsed time.Duration) *int64 {
	r, ok := engine.NodesPerSecond(nodes, elapsed)
	if !ok {
		return nil
	}
	v := int64(r)
	return &v
}

// cell is an optional figure (nps, a best move, a score) in a CSV cell:
// empty when there is none.
func cell[T int | int64 | string](v *T) string {
	if v == nil {
		return ""
	}
	return fmt.Sprint(*v)
}

// npsText prints an nps figure: commas, "-" when there is none.
func npsText(v *int64) string {
	if v == nil {
		return "-"
	}
	return engine.Commas(*v)
}

func runSearch(e *env, args []string) error {
	fs := newFlags(e, "search", "(--fen FEN | --epd FILE) [--depth N] [--qs VARIANT[,VARIANT]] [switches] [--json]",
		`Searches each position with each QS variant and prints UCI-style info lines per
iteration, then the best move. Every engine switch (see the flags below) can be
set on top of a variant's preset. Searches are deterministic: the same position,
variant, switches and limits visit the same tree, node for node.`,
		"horizon search --fen startpos --depth 6",
		"horizon search --fen startpos --movetime 500ms",
		"horizon search --fen '2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1' --depth 5 --qs captures,see",
		"horizon search --epd testdata/wacnew.epd --depth 4 --qs see --json")
	pf := addPositionFlags(e.ctx, fs, fenUsage, "EPD file: search every position in it (or the one named by --id)")
	id := fs.String("id", "", "with --epd: search only the record with this id (its 'id' opcode)")
	asJSON := fs.Bool("json", false, "print one JSON object per search (an array for several)")
	sf := addSearchFlags(fs, "see", 6)
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	job, err := sf.job(pf)
	if err != nil {
		return err
	}
	if job.positions, err = pf.withID(job.positions, *id); err != nil {
		return err
	}
	f := formatOf(*asJSON, false)
	var out searchResult
	for i := range job.positions {
		p := &job.positions[i]
		label := pf.label(p)
		for _, o := range job.opts {
			if e.ctx.Err() != nil {
				return e.stoppedErr()
			}
			s := engine.NewSearcher(o)
			if f == formatText {
				// The info lines stream as the search goes, as a UCI
				// engine's do.
				named := p.FEN
				if label != p.FEN {
					named = label + " " + p.FEN
				}
				fmt.Fprintf(e.stdout, "info string position %s variant %s\n", engine.Printable(named), engine.VariantSpec(o))
				s.OnIteration = func(it engine.IterationInfo) {
					fmt.Fprintln(e.stdout, uci.InfoLine(it.Depth, it.SelDepth, it.Score, true, it.Nodes, it.Elapsed, it.PV))
				}
			}
			j := newSearchJSON(p, label, o, s.Search(e.ctx, p.Pos.Copy(), job.lim, nil))
			if err := e.printPart(j, f); err != nil {
				return err
			}
			out = append(out, j)
		}
	}
	if err := e.print(out, f); err != nil {
		return err
	}
	// The last search finished before the reader left (| head): as
	// trace, nothing was stopped.
	done := len(out) == len(job.positions)*len(job.opts) && (len(out) == 0 || out[len(out)-1].Status != string(trace.StatusInterrupted))
	if e.ctx.Err() != nil && !e.readerLeftAfterAll(done) {
		return e.stoppedErr()
	}
	return nil
}

// searchResult is 'horizon search': each search, printed as it ends.
type searchResult []searchJSON

// MarshalJSON writes one search as an object, several as an array.
func (res searchResult) MarshalJSON() ([]byte, error) { return oneOrMany(res) }

// writeText writes nothing: each search was printed as it ended.
func (res searchResult) writeText(io.Writer) error { return nil }

// stopCause is what stopped a search ("nodes", "time", "cancel"), "" for
// one that completed: the key beside its status in search and compare.
func stopCause(r engine.StopReason) string {
	if r == engine.StopNone {
		return ""
	}
	return r.String()
}

// writeText ends a search's info lines as a UCI engine does, with its
// counts and the best move.
func (j searchJSON) writeText(w io.Writer) error {
	r := j.res
	cause := ""
	if j.StopCause != nil {
		cause = " stop_cause " + *j.StopCause
	}
	fmt.Fprintf(w, "info string nodes %d qsnodes %d maxqsply %d status %s%s\n", r.Stats.Nodes, r.Stats.QSNodes, r.Stats.MaxQSPly, j.Status, cause)
	if !r.Finished() {
		fmt.Fprintln(w, uci.NoAnswerLine)
	}
	_, err := fmt.Fprintln(w, uci.BestmoveLine(r))
	return err
}

func runVariants(e *env, args []string) error {
	fs := newFlags(e, "variants", "[--json]",
		`Lists the QS variants (presets of the engine's switches), the document in
shared/seeds each follows, what it does, where it departs from that document
(quoting it), whether its QS probes and stores the hash table (only
unified's does: other QS nodes neither read nor write it, whatever --tt
says), the value of every switch in each, and what each switch does.`,
		"horizon variants", "horizon search --fen startpos --qs threshold --qs-levels 6")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	var out variantsResult
	for _, v := range engine.Variants() {
		// The switches as search and runs --json give them: typed
		// values under snake_case keys.
		var sw map[string]any
		if err := json.Unmarshal(trace.ObjectJSON(v.Options.JSON()), &sw); err != nil {
			return err
		}
		delete(sw, "variant")
		var source, departs *string
		if v.Source != "-" {
			source = &v.Source
		}
		if v.Departs != "" {
			departs = &v.Departs
		}
		out = append(out, variantJSON{v.Name, source, v.Summary, departs, v.Options.QSUsesTT(), sw, v.Options})
	}
	return e.print(out, formatOf(*asJSON, false))
}

// variantJSON is a QS variant in 'horizon variants --json'.
type variantJSON struct {
	Name    string         `json:"name"`
	Source  *string        `json:"source"` // null for a variant that follows no document
	Summary string         `json:"summary"`
	Departs *string        `json:"departs"` // where it departs from its document; null for a variant that follows none
	QSTT    bool           `json:"qs_tt"`   // its QS nodes probe and store the hash table (engine.Options.QSUsesTT)
	Options map[string]any `json:"options"` // as search and runs --json name a run's switches
	opts    engine.Options
}

// qsTTText says which nodes of a variant use the hash table.
func qsTTText(o engine.Options) string {
	switch {
	case o.QSUsesTT():
		return "full-width and QS nodes probe and store it"
	case !o.TT:
		return "off"
	case !o.HasQS():
		return "full-width nodes probe and store it (no QS)"
	}
	return "full-width nodes only (QS neither probes nor stores it)"
}

// variantsResult is 'horizon variants': every preset.
type variantsResult []variantJSON

func (vs variantsResult) writeText(w io.Writer) error {
	for _, v := range vs {
		source := "-"
		if v.Source != nil {
			source = *v.Source
		}
		fmt.Fprintf(w, "%-10s %s\n           source: %s\n", v.Name, v.Summary, source)
		if v.Departs != nil {
			for i, l := range engine.Wrap("departs: "+*v.Departs, 69) {
				if i > 0 {
					l = "  " + l // under "departs:"'s text
				}
				fmt.Fprintf(w, "           %s\n", l)
			}
		}
		fmt.Fprintf(w, "           hash table: %s\n", qsTTText(v.opts))
	}
	fmt.Fprintln(w, "\nSwitches (set any on top of a variant, e.g. --qs threshold --qs-levels 6):")
	// A tabwriter sizes each column to its widest cell ("recaptures" is
	// wider than any variant's name).
	tw := textTable(w)
	row := []string{" "}
	for _, v := range vs {
		row = append(row, v.Name)
	}
	fmt.Fprintln(tw, strings.Join(row, "\t"))
	for _, spec := range engine.OptionSpecs() {
		row = append(row[:0], "  "+spec.Name)
		for _, v := range vs {
			row = append(row, spec.Get(&v.opts))
		}
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	// The table's names alone left a reader guessing what qs-threshold or
	// delay-penalty do; the flags' help says it, in one place.
	fmt.Fprintln(w, "\nWhat each switch does (the same as its flag in 'horizon search --help'):")
	for _, spec := range engine.OptionSpecs() {
		for i, l := range engine.Wrap(spec.Usage, 80) {
			name := ""
			if i == 0 {
				name = spec.Name
			}
			fmt.Fprintf(w, "  %-14s %s\n", name, l)
		}
	}
	return nil
}
