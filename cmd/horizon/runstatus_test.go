package main

import (
	"strings"
	"testing"

	"github.com/horizonqs/horizon/trace"
)

// Issue 9: runs --help said "running if the recorder died" where runs
// prints "abandoned". The help lists every status runs can print, with
// trace's meaning of it.
func TestRunsHelpNamesEveryStatus(t *testing.T) {
	code, help, _ := runCLI(t, "", "runs", "--help")
	if code != 0 {
		t.Fatalf("runs --help: exit %d", code)
	}
	for _, st := range trace.Statuses {
		if !strings.Contains(help, string(st)+" ") || !strings.Contains(help, st.Meaning()) {
			t.Errorf("runs --help does not give status %s and its meaning %q:\n%s", st, st.Meaning(), help)
		}
	}
	if strings.Contains(help, "running if the recorder died") {
		t.Errorf("runs --help still says a dead recorder's run is running:\n%s", help)
	}
}
