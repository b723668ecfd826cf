package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/horizonqs/horizon/internal/golden"
)

// scaleStream is an Ethereal-like search of a mate in 1 (Ethereal's
// values: a mated node at height h scores -MATE + h, the root's window is
// [-MATE, MATE], MATE = 32000), with the score scale its stream declares.
const scaleStream = `HZT 2
engine Ethereal-like 1.0
mate 32000 31872
infinity 32000
position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1
limits depth 2
E - 2 -32000 32000 i=2
M d1d8 0
E d1d8 1 -32000 32000
L -31999
M d1d2 1
E d1d2 1 -31999 -31998
E f7f6 0 31998 31999
S 40
L 40
L -40
L 31999
end best=d1d8 nodes=4 time=2
`

// plainStream is scaleStream without the declaration: a version 1 stream
// as written before the scale records existed.
var plainStream = regexp.MustCompile(`(?m)^(mate|infinity) .*\n`).ReplaceAllString(strings.Replace(scaleStream, "HZT 2", "HZT 1", 1), "")

// TestScaleText: a run whose stream declared its mate and infinity values
// prints its mates as #N and its window's ends as ∞ in import, runs,
// export (DOT), check and diff (testdata/scale_declared.golden,
// scale_diff.golden); the same stream without the records prints the
// engine's numbers, as it did before the records existed
// (scale_plain.golden). --json keeps the raw integers.
func TestScaleText(t *testing.T) {
	dir := t.TempDir()
	both := filepath.Join(dir, "both.trace")
	for _, tc := range []struct{ name, stream string }{{"plain", plainStream}, {"declared", scaleStream}} {
		t.Run(tc.name, func(t *testing.T) {
			in := writeFile(t, tc.name+".hzt", tc.stream)
			file := filepath.Join(dir, tc.name+".trace")
			var out strings.Builder
			for _, args := range [][]string{
				{"import", in, "-o", file},
				{"runs", file},
				{"export", file, "--format", "dot", "-o", "-"},
				{"check", file},
			} {
				code, stdout, stderr := runCLI(t, "", args...)
				if code != 0 {
					t.Fatalf("horizon %s: exit %d: %s", strings.Join(args, " "), code, stderr)
				}
				out.WriteString("$ horizon " + args[0] + "\n" + stdout)
			}
			text := strings.ReplaceAll(strings.ReplaceAll(out.String(), in, tc.name+".hzt"), file, tc.name+".trace")
			golden.Check(t, "testdata/scale_"+tc.name+".golden", []byte(text))

			// JSON keeps the engine's integers, typed, and says the scale
			// in the run's options.
			var nodes struct {
				Nodes []struct {
					Alpha int `json:"alpha"`
					Score int `json:"score"`
				} `json:"nodes"`
			}
			cliJSON(t, &nodes, "export", file, "--format", "json", "-o", "-")
			var runs []struct {
				Score   int            `json:"score"`
				Options map[string]any `json:"options"`
			}
			cliJSON(t, &runs, "runs", file, "--json")
			_, declared := runs[0].Options["mate"]
			if len(nodes.Nodes) != 4 || nodes.Nodes[0].Alpha != -32000 || nodes.Nodes[0].Score != 31999 || runs[0].Score != 31999 ||
				declared != (tc.name == "declared") {
				t.Errorf("--json: nodes %+v, runs %+v", nodes.Nodes, runs)
			}
			if code, _, stderr := runCLI(t, "", "import", in, "-o", both); code != 0 {
				t.Fatal(stderr)
			}
		})
	}
	code, stdout, stderr := runCLI(t, "", "diff", both, "--run", "1", "--run", "2")
	if code != 0 {
		t.Fatal(stderr)
	}
	golden.Check(t, "testdata/scale_diff.golden", []byte(strings.ReplaceAll(stdout, both, "both.trace")))
}
