package uci

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// TestHandshakeGolden keeps the answer to "uci" (the options a GUI shows)
// in testdata/uci.golden, so that a change to the options shows in review.
func TestHandshakeGolden(t *testing.T) {
	c := startSession(t)
	c.send("uci")
	got := strings.Join(c.untilPrefix("uciok"), "\n") + "\n"
	path := filepath.Join("testdata", "uci.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./uci/ -run TestHandshakeGolden -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("uci answer differs from %s (rerun with -update if intended):\ngot:\n%swant:\n%s", path, got, want)
	}
}
