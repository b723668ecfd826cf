package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestOldTracesOpenInEveryCommand: trace files written by earlier Horizons
// (schema 1 at the start of the keyed-schema work, schema 2 after it,
// schema 3 the keyed layout, with another engine's run and a filtered one;
// schema 4 before runs kept their stop cause, with truncated runs; schema
// 5 as 07571f9 wrote it; schema 6 as the previous Horizon, e3932cd, wrote
// it: 'trace --epd' of a one-record EPD (id v6.kiwi) with captures,see at
// depth 2, then 'import' of a Sunfish stream whose root gives g=300 and of
// a QS-only stream scored 20, neither with a limits record; schema 7 as
// 5638af1 wrote it: captures and see at depth 2 on Kiwipete, a captures
// run cut by --nodes 3000, and an import with nested searches) are read by
// every reading command without being changed, byte for byte: a file is
// upgraded only when a run is recorded into it. The readers of this
// session read v6.trace's stored data anew: its "go": "" is null, the
// QS-only run has its score, the clamped count is a lower bound.
func TestOldTracesOpenInEveryCommand(t *testing.T) {
	for _, name := range []string{"v1.trace", "v2.trace", "v3.trace", "v4.trace", "v5.trace", "v6.trace", "v7.trace"} {
		t.Run(name, func(t *testing.T) {
			orig, err := os.ReadFile(filepath.Join("..", "..", "trace", "testdata", name))
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			p := filepath.Join(dir, name)
			if err := os.WriteFile(p, orig, 0o644); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{
				{"runs", p},
				{"runs", p, "--json"},
				{"stats", p, "--run", "1"},
				{"hotspots", p, "--run", "1"},
				{"check", p, "--run", "1"},
				{"export", p, "--run", "1", "--max-nodes", "40", "-o", filepath.Join(dir, "t.dot")},
				{"export", p, "--run", "1", "--format", "icicle", "-o", filepath.Join(dir, "m.svg")},
				{"export", p, "--run", "1", "-o", filepath.Join(dir, "t.html")},
				{"diff", p, "--run", "1", "--run", "1"},
			} {
				if code, _, stderr := runCLI(t, "", args...); code != 0 {
					t.Errorf("horizon %v: exit %d: %s", args[:1], code, stderr)
				}
			}
			// Files before schema 5 kept no stop cause: null. v5.trace's
			// and v7.trace's run 3 was cut by --nodes.
			var runs []map[string]any
			cliJSON(t, &runs, "runs", p, "--json")
			for _, r := range runs {
				var want any
				if (name == "v5.trace" || name == "v7.trace") && r["id"] == 3.0 {
					want = "nodes"
				}
				if cause, ok := r["stop_cause"]; !ok || cause != want {
					t.Errorf("run %v: stop_cause %v (present %v); want %v", r["id"], cause, ok, want)
				}
				// Files before schema 6 kept no EPD id: null.
				var wantID any
				if name == "v6.trace" && r["id"].(float64) <= 2 {
					wantID = "v6.kiwi"
				}
				if id, ok := r["epd_id"]; !ok || id != wantID {
					t.Errorf("run %v: epd_id %v (present %v); want %v", r["id"], id, ok, wantID)
				}
				if name != "v6.trace" || r["id"].(float64) < 3 {
					continue
				}
				// The imported runs: no limits record stored "go": "".
				if lim, _ := r["limits"].(map[string]any); lim == nil || lim["go"] != nil {
					t.Errorf("run %v: limits %v; want go null", r["id"], r["limits"])
				}
				if r["id"] == 4.0 && r["score"] != 20.0 {
					t.Errorf("run 4 (QS only, root exact 20): score %v; want 20", r["score"])
				}
			}
			if name == "v6.trace" {
				var g struct {
					Nodes []struct {
						ID               int64 `json:"id"`
						Generated        *int  `json:"generated"`
						GeneratedAtLeast bool  `json:"generated_at_least"`
					} `json:"nodes"`
				}
				cliJSON(t, &g, "export", p, "--run", "3", "--format", "json")
				if len(g.Nodes) == 0 || g.Nodes[0].Generated == nil || *g.Nodes[0].Generated != 255 || !g.Nodes[0].GeneratedAtLeast {
					t.Errorf("run 3's root (g=300 stored as 255): %+v; want generated 255, generated_at_least", g.Nodes)
				}
			}
			now, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(now, orig) {
				t.Errorf("%s changed on disk after reading commands", name)
			}
			for _, ext := range []string{"-wal", "-shm"} {
				if _, err := os.Stat(p + ext); err == nil {
					t.Errorf("reading left %s%s behind", name, ext)
				}
			}
		})
	}
}
