package emit

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

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
	}{{"on", nil}, {"off", []string{"-DHORIZON_TRACE_OFF"}}, {"lazy", []string{"-DHZTEST_NO_INIT"}}} {
		t.Run(tc.name, func(t *testing.T) {
			bin := filepath.Join(dir, "hztest-"+tc.name)
			args := append([]string{"-std=c99", "-Wall", "-Wextra", "-Werror", "-O2", "-o", bin, "c/hztest.c"}, tc.flags...)
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
			if tc.name == "off" {
				if len(data) != 0 || !strings.Contains(string(out), "active 0") {
					t.Fatalf("tracing off wrote %d bytes, printed %q", len(data), out)
				}
				return
			}
			_, runs := foreigntest.Import(t, string(data), foreign.Options{})
			name := "hztest 1.0"
			if tc.name == "lazy" { // HZ_POSITION opened the stream, unnamed
				name = "unknown engine"
			}
			if len(runs) != 1 || runs[0].Engine != name || runs[0].Status != trace.StatusComplete ||
				runs[0].Nodes != runs[0].EngineNodes || runs[0].Nodes != 8 || !strings.Contains(string(out), "nodes 8 active 1") {
				t.Fatalf("runs %+v, program said %q", runs, out)
			}
		})
	}
}
