package main

import (
	"strings"
	"testing"
)

// TestUCICommandLine checks the uci command's own flags: its help, and
// arguments or flags it does not take as usage errors.
func TestUCICommandLine(t *testing.T) {
	if help := helpOf(t, "uci"); !strings.Contains(help, "Usage: horizon uci") {
		t.Errorf("uci --help:\n%s", help)
	}
	checkFails(t, []string{"uci", "extra"}, 2, "uci takes no arguments")
	checkFails(t, []string{"uci", "--nope"}, 2, "nope")
}
