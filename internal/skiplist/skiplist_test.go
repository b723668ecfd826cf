package skiplist

import (
	"strings"
	"testing"
)

// TestFilter: a passing package prints its ok line, a failing test its
// output, and every skipped test is listed with its message.
func TestFilter(t *testing.T) {
	const p = `"Package":"github.com/horizonqs/horizon/engine"`
	in := strings.Join([]string{
		`{"Action":"run",` + p + `,"Test":"TestA"}`,
		`{"Action":"output",` + p + `,"Test":"TestA","Output":"=== RUN   TestA\n"}`,
		`{"Action":"output",` + p + `,"Test":"TestA","Output":"    a_test.go:9: stockfish is not installed\n"}`,
		`{"Action":"output",` + p + `,"Test":"TestA","Output":"--- SKIP: TestA (0.00s)\n"}`,
		`{"Action":"skip",` + p + `,"Test":"TestA"}`,
		`{"Action":"output",` + p + `,"Test":"TestB","Output":"    b_test.go:3: got 2, want 3\n"}`,
		`{"Action":"output",` + p + `,"Test":"TestB","Output":"--- FAIL: TestB (0.00s)\n"}`,
		`{"Action":"fail",` + p + `,"Test":"TestB"}`,
		`{"Action":"output",` + p + `,"Test":"TestC","Output":"    c_test.go:3: quiet\n"}`,
		`{"Action":"pass",` + p + `,"Test":"TestC"}`,
		`{"Action":"output",` + p + `,"Output":"PASS\n"}`,
		`{"Action":"output",` + p + `,"Output":"ok  \tgithub.com/horizonqs/horizon/engine\t0.1s\n"}`,
		`{"Action":"pass",` + p + `}`,
		`# github.com/horizonqs/horizon/x`,
	}, "\n")
	var out strings.Builder
	failed, err := Filter(strings.NewReader(in), &out)
	if err != nil || !failed {
		t.Fatalf("failed %v, err %v", failed, err)
	}
	got := out.String()
	for _, want := range []string{"ok  \tgithub.com/horizonqs/horizon/engine", "b_test.go:3: got 2, want 3", "# github.com/horizonqs/horizon/x",
		"1 test skipped, each with why:\n  engine TestA: a_test.go:9: stockfish is not installed\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	for _, not := range []string{"quiet", "PASS\n", "=== RUN"} {
		if strings.Contains(got, not) {
			t.Errorf("output has %q:\n%s", not, got)
		}
	}
}
