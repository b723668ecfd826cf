package uci

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/horizonqs/horizon/internal/golden"
)

// TestHandshakeGolden keeps the answer to "uci" (the options a GUI shows)
// in testdata/uci.golden, so that a change to the options shows in review.
func TestHandshakeGolden(t *testing.T) {
	c := startSession(t)
	c.send("uci")
	got := strings.Join(c.untilPrefix("uciok"), "\n") + "\n"
	golden.CheckString(t, filepath.Join("testdata", "uci.golden"), got)
}
