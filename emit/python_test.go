package emit

import (
	"os/exec"
	"strings"
	"testing"
)

// TestPython runs the Python emitter's own unit tests.
func TestPython(t *testing.T) {
	cmd := exec.Command(needTool(t, "python3"), "-B", "-m", "unittest", "-q", "test_horizon_trace")
	cmd.Dir = "python"
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("python3 -m unittest: %v\n%s", err, out)
	}
}

// TestPythonRecords: the Python emitter writes the same records for the
// same calls.
func TestPythonRecords(t *testing.T) {
	py := needTool(t, "python3")
	var script strings.Builder
	script.WriteString("import io, sys, horizon_trace\nout = io.StringIO()\n")
	script.WriteString(`w = horizon_trace.Writer(out, "Tiny\nEngine", fail_hard=True, pseudo_legal=True)` + "\n")
	for _, r := range records {
		if r.py != "" {
			script.WriteString("w." + r.py + "\n")
		}
	}
	script.WriteString("sys.stdout.write(out.getvalue())\n")
	cmd := exec.Command(py, "-B", "-c", script.String())
	cmd.Dir = "python"
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3: %v\n%s", err, out)
	}
	if want := wantRecords(func(py string) bool { return py != "" }); string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
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

// TestPythonHeaderScale: the Python emitter writes the same header for
// each scale as the Go one (headers).
func TestPythonHeaderScale(t *testing.T) {
	py := needTool(t, "python3")
	for _, h := range headers {
		args := `out, "E"`
		if h.py != "" {
			args += ", " + h.py
		}
		script := "import io, sys, horizon_trace\nout = io.StringIO()\nhorizon_trace.Writer(" + args + ")\nsys.stdout.write(out.getvalue())\n"
		cmd := exec.Command(py, "-B", "-c", script)
		cmd.Dir = "python"
		out, err := cmd.Output()
		if err != nil || string(out) != h.want {
			t.Errorf("Writer(%s): got %q (%v), want %q", args, out, err, h.want)
		}
	}
}
