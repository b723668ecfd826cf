package emit_test

import (
	"os/exec"
	"testing"
)

// TestPython runs the Python emitter's own unit tests.
func TestPython(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not on PATH")
	}
	cmd := exec.Command(py, "-B", "-m", "unittest", "-q", "test_horizon_trace")
	cmd.Dir = "python"
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("python3 -m unittest: %v\n%s", err, out)
	}
}
