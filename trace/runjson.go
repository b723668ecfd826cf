package trace

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/horizonqs/horizon/engine"
)

// OptionsObject returns the run's options for a --json output: the stored
// JSON object with typed values (true, 16, "captures"), not a JSON string
// holding JSON; see ObjectJSON.
func (r Run) OptionsObject() json.RawMessage { return ObjectJSON(r.Options) }

// LimitsObject is OptionsObject for the run's limits. An imported run
// whose stream had no limits record has no go command: its "go" is null,
// as every fact that does not apply, also in a trace written before the
// importer stored null there (it stored "").
func (r Run) LimitsObject() json.RawMessage {
	obj := ObjectJSON(r.Limits)
	var m map[string]json.RawMessage
	if json.Unmarshal(obj, &m) != nil || string(m["go"]) != `""` {
		return obj
	}
	m["go"] = json.RawMessage("null")
	if b, err := json.Marshal(m); err == nil {
		return b
	}
	return obj
}

// ObjectJSON turns stored metadata (a run's options or limits) into a value
// for --json output. A JSON object is returned as an object with its keys
// in snake_case, as every --json's are (options are stored under the
// switches' flag names, qs-moves); {} for an empty text; anything else,
// which a file written by another tool may hold, as a JSON string, so the
// output stays valid JSON.
func ObjectJSON(s string) json.RawMessage {
	t := bytes.TrimSpace([]byte(s))
	if len(t) == 0 {
		return json.RawMessage("{}")
	}
	var m map[string]json.RawMessage
	if t[0] == '{' && json.Unmarshal(t, &m) == nil {
		out := make(map[string]json.RawMessage, len(m))
		for k, v := range m {
			out[strings.ReplaceAll(k, "-", "_")] = v
		}
		if b, err := json.Marshal(out); err == nil {
			return b
		}
	}
	b, _ := json.Marshal(s)
	return b
}

// RunFacts is what every command's --json says about a run it prints
// whole (runs, trace and import, diff): one type, so that a fact has one
// key and one type wherever a run is printed. Commands embed it beside
// keys of their own. A fact that does not apply is null, never left out,
// so a run's object has the same keys whatever its data.
type RunFacts struct {
	FEN string `json:"fen"`
	// EPDID is the id of the EPD record searched (Run.EPDID); null when
	// none.
	EPDID   *string `json:"epd_id"`
	Variant string  `json:"variant"` // Run.Label
	Engine  string  `json:"engine"`  // "" for Horizon's own engine
	Status  string  `json:"status"`
	// StopCause is what stopped a truncated or interrupted run
	// (Run.StopCause); null when none or not kept (files before schema 5).
	StopCause *string `json:"stop_cause"`
	// Filter is the recording filter (last-iteration, under PATH, first N
	// nodes); null when every node searched was recorded.
	Filter   *string `json:"filter"`
	Depth    int     `json:"depth"`
	Nodes    int64   `json:"nodes"` // the positions searched, as engines count them
	QSNodes  int64   `json:"qs_nodes"`
	QSShare  float64 `json:"qs_share"` // qs_nodes over nodes (Run.QSShare)
	Rows     int64   `json:"rows"`     // node rows recorded, the run node included
	MaxPly   int     `json:"max_ply"`
	MaxQSPly int     `json:"max_qs_ply"`
	BestMove *string `json:"best_move"` // UCI; null when none (no iteration finished)
	// BestSAN is BestMove in SAN (Run.BestSAN); null when none or when the
	// move does not parse in the run's position.
	BestSAN *string `json:"best_san"`
	Score   *int    `json:"score"` // null when the run has no score (Run.Scored)
	// ScoreBound is "lower" or "upper" when the score is only a bound
	// (another engine's run; BoundWord); null when it is exact or there is
	// no score.
	ScoreBound *string `json:"score_bound"`
	// ElapsedMS is null while the run is recorded, after its recorder
	// died, or when another engine's stream gave no time (ElapsedKnown).
	ElapsedMS *int64 `json:"elapsed_ms"`
}

// Facts returns the run's facts for --json; bound is the bound of its
// score (Store.ScoreBound).
func (r Run) Facts(bound engine.Bound) RunFacts {
	f := RunFacts{FEN: r.FEN, EPDID: r.EPDIDOrNil(), Variant: r.Label(), Engine: r.Engine, Status: string(r.Status),
		StopCause: nullString(r.StopCause), Filter: nullString(r.Filter), Depth: r.Depth,
		Nodes: r.Nodes, QSNodes: r.QSNodes, QSShare: r.QSShare(), Rows: r.Rows, MaxPly: r.MaxPly, MaxQSPly: r.MaxQSPly,
		BestMove: nullString(r.BestMove), BestSAN: nullString(r.BestSAN()), ElapsedMS: r.ElapsedMS()}
	if r.Scored() {
		score := r.Score
		f.Score, f.ScoreBound = &score, nullString(BoundWord(bound))
	}
	return f
}

// nullString is s for JSON: null when it is empty.
func nullString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
