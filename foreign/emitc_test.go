package foreign_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/foreign"
	"github.com/horizonqs/horizon/foreign/foreigntest"
	"github.com/horizonqs/horizon/trace"
)

// TestCHeader builds emit/c/hztest.c with tracing on and off: on, its
// stream imports whole with the node count the program counted; off
// (HORIZON_TRACE_OFF), it writes nothing.
func TestCHeader(t *testing.T) {
	cc := needTool(t, "cc")
	dir := t.TempDir()
	for _, tc := range []struct {
		name  string
		flags []string
	}{{"on", nil}, {"off", []string{"-DHORIZON_TRACE_OFF"}}, {"lazy", []string{"-DHZTEST_NO_INIT"}},
		{"scale", []string{"-DHZTEST_SCALE"}}, {"off scale", []string{"-DHORIZON_TRACE_OFF", "-DHZTEST_SCALE"}},
		{"nested", []string{"-DHZTEST_NESTED"}}, {"off nested", []string{"-DHORIZON_TRACE_OFF", "-DHZTEST_NESTED"}}} {
		t.Run(tc.name, func(t *testing.T) {
			bin := filepath.Join(dir, "hztest-"+tc.name)
			args := append([]string{"-std=c99", "-Wall", "-Wextra", "-Werror", "-O2", "-o", bin, "../emit/c/hztest.c"}, tc.flags...)
			if out, err := exec.Command(cc, args...).CombinedOutput(); err != nil {
				t.Fatalf("cc: %v\n%s", err, out)
			}
			stream := filepath.Join(dir, tc.name+".hzt")
			cmd := exec.Command(bin)
			cmd.Env = append(os.Environ(), "HORIZON_TRACE="+stream)
			out, err := cmd.Output()
			if err != nil {
				t.Fatal(err)
			}
			data, _ := os.ReadFile(stream)
			if strings.HasPrefix(tc.name, "off") {
				if len(data) != 0 || !strings.Contains(string(out), "active 0") {
					t.Fatalf("tracing off wrote %d bytes, printed %q", len(data), out)
				}
				return
			}
			st, runs := foreigntest.Import(t, string(data), foreign.Options{})
			name := "hztest 1.0"
			if tc.name == "lazy" { // HZ_POSITION opened the stream, unnamed
				name = "unknown engine"
			}
			// Each iteration's IID search and its QS node are counted,
			// the singular test's root is not (u=1) but its QS node is.
			nodes, uncounted, said := int64(8), int64(0), "nodes 8 active 1"
			if tc.name == "nested" {
				nodes, uncounted, said = 16, 2, "nodes 14 active 1"
			}
			if len(runs) != 1 || runs[0].Engine != name || runs[0].Status != trace.StatusComplete ||
				runs[0].Nodes-runs[0].Uncounted != runs[0].EngineNodes || runs[0].Nodes != nodes || runs[0].Uncounted != uncounted ||
				!strings.Contains(string(out), said) {
				t.Fatalf("runs %+v, program said %q", runs, out)
			}
			// HZ_SCALE before HZ_INIT: a version 2 header declaring it;
			// without it, version 1 and nothing declared.
			run, err := st.Run(context.Background(), runs[0].RunID)
			if err != nil {
				t.Fatal(err)
			}
			want, head := engine.ScoreScale{}, "HZT 1\n"
			switch tc.name {
			case "scale":
				want, head = engine.ScoreScale{Mate: 900, MateMin: 800, Infinity: 1000}, "HZT 2\n"
			case "nested":
				head = "HZT 4\n"
				ns, err := st.NestedSearches(context.Background(), runs[0].RunID)
				if err != nil || len(ns) != 4 {
					t.Errorf("nested searches %+v (%v), want 4", ns, err)
				}
			}
			if d, _ := run.Declared(); d.Scale() != want || !strings.HasPrefix(string(data), head) {
				t.Errorf("declared %+v, want %+v; stream starts %q", d.Scale(), want, string(data[:min(len(data), 40)]))
			}
		})
	}
}

// needTool is the path of an outside program the test needs, or a skip
// that says it is missing.
func needTool(t *testing.T, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s is not on PATH", name)
	}
	return path
}
