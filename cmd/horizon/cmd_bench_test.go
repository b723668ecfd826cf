package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestBenchRefusesBadLimits: 'bench --sf-movetime 0s' hung, Stockfish
// being told "go infinite" (and under 1ms, "go movetime 0", which is no
// limit to it either); a negative --nodes ran with no cap. Each is a usage
// error, exit 2, before anything is searched (here without Stockfish,
// where they were ignored).
func TestBenchRefusesBadLimits(t *testing.T) {
	for _, tc := range []struct {
		flag, value, want string
	}{
		{"--sf-movetime", "0s", "--sf-movetime 0s: want at least 1ms"},
		{"--sf-movetime", "-1s", "--sf-movetime -1s"},
		{"--sf-movetime", "500us", "--sf-movetime 500µs"},
		{"--nodes", "-1", "--nodes -1"},
		{"--depth", "0", "--depth 0"},
	} {
		t.Run(tc.flag+" "+tc.value, func(t *testing.T) {
			checkFails(t, []string{"bench", "--fen", "startpos", "--qs", "none", "--stockfish", "none", tc.flag, tc.value}, 2, tc.want)
		})
	}
	checkFails(t, []string{"perft", "--bench", "--runs", "0", "--stockfish", "none"}, 2, "--runs")
}

// TestSpeedJSONAbsentIsNull: bench --json and perft --bench --json give
// the figures of a Stockfish not run as null under their keys (bench left
// stockfish, stockfish_name, stockfish_nps and horizon_over_stockfish_nps
// out; perft --bench gave stockfish as "" and left the others out), and
// perft --bench --stockfish none says Stockfish was skipped, as bench does,
// not that it was not found.
func TestSpeedJSONAbsentIsNull(t *testing.T) {
	nullKeys := func(what string, obj map[string]json.RawMessage, keys ...string) {
		t.Helper()
		for _, k := range keys {
			if v, ok := obj[k]; !ok || string(v) != "null" {
				t.Errorf("%s: %s is %s (present %v), want null", what, k, v, ok)
			}
		}
	}
	var b struct {
		Variants []map[string]json.RawMessage `json:"variants"`
	}
	var top map[string]json.RawMessage
	args := []string{"bench", "--depth", "1", "--qs", "see", "--fen", kiwipete, "--stockfish", "none", "--json"}
	js := cliJSON(t, &top, args...)
	if err := json.Unmarshal([]byte(js), &b); err != nil || len(b.Variants) != 1 {
		t.Fatalf("bench --json: %v\n%s", err, js)
	}
	nullKeys("bench --json", top, "stockfish", "stockfish_name", "stockfish_nps")
	nullKeys("bench --json variant", b.Variants[0], "horizon_over_stockfish_nps")

	row := perftBenchRow{Name: "startpos", Depth: 1, Nodes: 20, elapsed: time.Second}
	js2, err := json.Marshal(perftBenchJSON{Runs: 1, Results: []perftBenchRow{row}})
	if err != nil {
		t.Fatal(err)
	}
	var p struct {
		Results []map[string]json.RawMessage `json:"results"`
	}
	if err := json.Unmarshal(js2, &top); err != nil || json.Unmarshal(js2, &p) != nil || len(p.Results) != 1 {
		t.Fatalf("perft --bench --json: %v\n%s", err, js2)
	}
	nullKeys("perft --bench --json", top, "stockfish", "stockfish_name")
	nullKeys("perft --bench --json row", p.Results[0], "stockfish_ms", "horizon_over_stockfish_nps")

	var text strings.Builder
	perftBenchHead{Runs: 1, sfSkipped: true}.writeText(&text)
	if s := text.String(); strings.Contains(s, "not found") || !strings.Contains(s, "skipped (--stockfish none)") {
		t.Errorf("perft --bench --stockfish none says:\n%s", s)
	}
}

// TestPerftBenchCommas: perft --bench's rows and total give node counts with
// separators, as bench and every other table does (119060324 was bare).
func TestPerftBenchCommas(t *testing.T) {
	row := perftBenchRow{Name: "startpos", Depth: 6, Nodes: 119060324, elapsed: time.Second}
	var text strings.Builder
	row.writeText(&text)
	perftBenchJSON{Runs: 1, Results: []perftBenchRow{row, row}}.writeText(&text)
	if s := text.String(); !strings.Contains(s, "startpos      6 119,060,324 ") || !strings.Contains(s, "total           238,120,648 ") {
		t.Errorf("perft --bench rows:\n%s", s)
	}
}
