package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/horizonqs/horizon/trace/tracetest/hostile"
)

// TestHostileTraces: every command that opens a trace refuses a file made
// to harm its reader (a trigger on runs, a view that never ends or gives
// a 400 MB fen, a table shadowing a name Horizon reads, an index on its
// tables), exit 1 with one line naming the object, before anything runs:
// 'trace -o' into a file with a trigger on runs fired it, 'runs' on the
// recursive view spun forever. The files that open (a huge stored value,
// poisoned statistics) read or fail on one line.
func TestHostileTraces(t *testing.T) {
	good, _ := traceFile(t, "--depth", "2", "--qs", "captures")
	for _, h := range hostile.Files {
		t.Run(h.Name, func(t *testing.T) {
			p := hostile.Apply(t, good, "h.trace", h.Stmts...)
			before, _ := os.ReadFile(p)
			for _, args := range [][]string{
				{"runs", p}, {"stats", p}, {"hotspots", p}, {"check", p},
				{"export", p, "-o", filepath.Join(t.TempDir(), "x.json")},
				{"trace", "--depth", "1", "-o", p},
			} {
				code, _, stderr := runCLI(t, "", args...)
				if h.Refused == "" {
					if code != 0 && (code != 1 || strings.Count(strings.TrimSpace(stderr), "\n") > 0) {
						t.Errorf("%s: exit %d, %q; want 0, or 1 and one line", args[0], code, stderr)
					}
					continue
				}
				if code != 1 || !strings.Contains(stderr, h.Refused) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
					t.Errorf("%s: exit %d, %q; want 1 and one line naming %s", args[0], code, stderr, h.Refused)
				}
			}
			if after, _ := os.ReadFile(p); h.Refused != "" && string(after) != string(before) {
				t.Error("a refused file changed")
			}
		})
	}
}
