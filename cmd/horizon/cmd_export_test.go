package main

import (
	"bytes"
	"encoding/json"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/export"
	"github.com/horizonqs/horizon/export/render"
)

// exportTrace records a small trace with horizon trace and returns its path.
func exportTrace(t *testing.T) string {
	t.Helper()
	path, _ := traceFile(t, "--fen", sampleFEN, "--depth", "2", "--qs", "see")
	return path
}

func TestExport(t *testing.T) {
	tr := exportTrace(t)
	dir := t.TempDir()
	cases := []struct {
		name  string
		args  []string
		out   string
		check func(t *testing.T, b []byte)
	}{
		{"dot to stdout", []string{"--max-nodes", "10"}, "", func(t *testing.T, b []byte) {
			if !bytes.HasPrefix(b, []byte("// horizon export")) || !bytes.Contains(b, []byte("digraph horizon {")) {
				t.Fatalf("not DOT: %.80q", b)
			}
		}},
		{"json by flag", []string{"--format", "json", "--max-nodes", "5", "--depth", "1"}, "g.out", func(t *testing.T, b []byte) {
			var g struct {
				Nodes []struct {
					ID int64 `json:"id"`
				} `json:"nodes"`
			}
			if err := json.Unmarshal(b, &g); err != nil || len(g.Nodes) == 0 || len(g.Nodes) > 5 {
				t.Fatalf("JSON: %v, %d nodes", err, len(g.Nodes))
			}
		}},
		{"svg by extension", []string{"--max-nodes", "8", "--rankdir", "lr"}, "g.svg", func(t *testing.T, b []byte) {
			if !bytes.Contains(b, []byte("<svg")) || !bytes.Contains(b, []byte(`class="node"`)) {
				t.Fatalf("not a Graphviz SVG: %.80q", b)
			}
		}},
		{"png", []string{"--max-nodes", "6", "--qs-only"}, "g.png", func(t *testing.T, b []byte) {
			if !bytes.HasPrefix(b, []byte("\x89PNG")) {
				t.Fatalf("not a PNG: %.16q", b)
			}
		}},
		{"html by extension", []string{"--path", "Qxf6"}, "t.html", func(t *testing.T, b []byte) {
			d := pageData(t, b)
			if d.Kind != "tree" || len(d.Sides) != 1 || d.Width != export.DefaultHTMLWidth ||
				strings.Join(d.Sides[0].TopPath, " ") != "Qxf6" || len(d.Sides[0].Nodes.ID) < 2 {
				t.Fatalf("page data: kind %q, width %d, %d sides", d.Kind, d.Width, len(d.Sides))
			}
		}},
		// Paths take commas as trace --under does ("not a legal move" before).
		{"path with commas", []string{"--format", "json", "--path", "Qxf6,Bxf6", "--max-nodes", "3"}, "p.json", func(t *testing.T, b []byte) {
			var g struct {
				TopPath []string `json:"top_path"`
			}
			if err := json.Unmarshal(b, &g); err != nil || strings.Join(g.TopPath, " ") != "Qxf6 Bxf6" {
				t.Fatalf("JSON: %v, top path %v", err, g.TopPath)
			}
		}},
		{"icicle of the run", []string{"--format", "icicle", "--node", "0"}, "i.svg", func(t *testing.T, b []byte) {
			if !bytes.Contains(b, []byte("Horizon icicle")) {
				t.Fatalf("not an icicle: %.200q", b)
			}
		}},
		// Issue 16: this wrote SVG into map.png with exit 0.
		{"icicle as a PNG", []string{"--format", "icicle", "--node", "0", "--width", "900"}, "map.png", func(t *testing.T, b []byte) {
			img, err := png.Decode(bytes.NewReader(b))
			if err != nil {
				t.Fatalf("not a PNG (%v): %.32q", err, b)
			}
			if w := img.Bounds().Dx(); w != 900 {
				t.Errorf("PNG %d pixels wide, want --width 900", w)
			}
			// Painted, not blank: the chart's colours are there.
			colours := map[color.RGBA]bool{}
			for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y += 3 {
				for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x += 3 {
					r, g, b, _ := img.At(x, y).RGBA()
					colours[color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 255}] = true
				}
			}
			if len(colours) < 6 {
				t.Errorf("PNG holds %d colours: not the chart", len(colours))
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"export", tr}, c.args...)
			if c.out != "" {
				args = append(args, "-o", filepath.Join(dir, c.out))
			}
			code, stdout, stderr := runCLI(t, "", args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			b := []byte(stdout)
			if c.out != "" {
				var err error
				if b, err = os.ReadFile(filepath.Join(dir, c.out)); err != nil {
					t.Fatal(err)
				}
				if stdout != "" || !strings.HasPrefix(stderr, "wrote ") {
					t.Fatalf("stdout %q, stderr %q", stdout, stderr)
				}
			}
			c.check(t, b)
		})
	}
}

// TestExportParquet: --format parquet writes runs.parquet and
// nodes.parquet into the directory -o names (made when missing, written
// over when there), with every run of the file or --run's, and says so.
func TestExportParquet(t *testing.T) {
	tr, _ := traceFile(t, "--fen", sampleFEN, "--depth", "2", "--qs", "see,captures")
	dir := filepath.Join(t.TempDir(), "exports", "kiwi")
	for _, c := range []struct {
		args []string
		runs int
	}{
		{nil, 2},
		{[]string{"--run", "2"}, 1}, // over the first export
	} {
		code, stdout, stderr := runCLI(t, "", append([]string{"export", tr, "--format", "parquet", "-o", dir}, c.args...)...)
		if code != 0 || stdout != "" || !strings.HasPrefix(stderr, "wrote runs.parquet and nodes.parquet into "+dir+" (parquet): "+engine.Count(int64(c.runs), "run")) {
			t.Fatalf("export %v: exit %d, stdout %q, stderr %q", c.args, code, stdout, stderr)
		}
		runs, err := parquet.ReadFile[export.RunRow](filepath.Join(dir, export.ParquetRuns))
		if err != nil || len(runs) != c.runs {
			t.Fatalf("runs.parquet: %d runs, %v; want %d", len(runs), err, c.runs)
		}
		nodes, err := parquet.ReadFile[export.NodeRow](filepath.Join(dir, export.ParquetNodes))
		var rows int64
		for _, r := range runs {
			rows += r.Rows
		}
		if err != nil || int64(len(nodes)) != rows {
			t.Fatalf("nodes.parquet: %d rows, %v; the runs hold %d", len(nodes), err, rows)
		}
		if nodes[0].RunID != runs[0].ID || nodes[len(nodes)-1].RunID != runs[len(runs)-1].ID {
			t.Fatalf("nodes.parquet runs from run %d to %d, runs.parquet lists %d to %d", nodes[0].RunID, nodes[len(nodes)-1].RunID, runs[0].ID, runs[len(runs)-1].ID)
		}
	}
}

// TestExportErrors checks that bad input gives exit status 2 (usage) or 1
// with a one-line error naming the problem, and leaves no file behind.
func TestExportErrors(t *testing.T) {
	tr := exportTrace(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "x.svg")
	cases := []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"no file", []string{"export"}, 2, []string{"trace file"}},
		{"missing file", []string{"export", filepath.Join(dir, "none.trace"), "-o", out}, 1, []string{"none.trace"}},
		{"unknown format", []string{"export", tr, "--format", "gif", "-o", out}, 2, []string{"gif", "icicle"}},
		{"unknown run", []string{"export", tr, "--run", "9", "-o", out}, 1, []string{"run 9"}},
		{"unknown node", []string{"export", tr, "--node", "99999999", "-o", out}, 1, []string{"99999999"}},
		{"illegal move in path", []string{"export", tr, "--path", "Qxf6 Ke9", "-o", out}, 1, []string{"Ke9"}},
		{"bad rankdir", []string{"export", tr, "--rankdir", "BT", "-o", out}, 2, []string{"BT"}},
		{"bad budget", []string{"export", tr, "--max-nodes", "0", "-o", out}, 2, []string{"--max-nodes"}},
		{"svg into a .png", []string{"export", tr, "--format", "svg", "-o", filepath.Join(dir, "x.png")}, 2, []string{"x.png", "svg"}},
		{"html into a .svg", []string{"export", tr, "--format", "html", "-o", out}, 2, []string{"x.svg", "html"}},
		{"qs-only icicle", []string{"export", tr, "--format", "icicle", "--qs-only", "-o", out}, 2, []string{"--qs-only"}},
		{"qs-only html", []string{"export", tr, "--qs-only", "-o", filepath.Join(dir, "x.html")}, 2, []string{"--qs-only", "html"}},
		{"unwritable output", []string{"export", tr, "-o", filepath.Join(dir, "no", "dir", "x.svg")}, 1, []string{"no/dir"}},
		{"output is a directory", []string{"export", tr, "-o", dir}, 1, []string{"directory"}},
		{"parquet to stdout", []string{"export", tr, "--format", "parquet"}, 2, []string{"parquet", "-o DIR"}},
		{"parquet of a subtree", []string{"export", tr, "--format", "parquet", "--node", "3", "-o", filepath.Join(dir, "pq")}, 2, []string{"--node", "whole runs"}},
		{"parquet with a budget", []string{"export", tr, "--format", "parquet", "--max-nodes", "30", "-o", filepath.Join(dir, "pq")}, 2, []string{"--max-nodes"}},
		{"parquet of an unknown run", []string{"export", tr, "--format", "parquet", "--run", "9", "-o", filepath.Join(dir, "pq")}, 1, []string{"run 9"}},
		{"parquet into a file", []string{"export", tr, "--format", "parquet", "-o", tr}, 1, []string{"not a directory"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, "", c.args...)
			if code != c.code {
				t.Fatalf("exit %d, want %d; stderr %q", code, c.code, stderr)
			}
			if stdout != "" {
				t.Fatalf("wrote to stdout: %.100q", stdout)
			}
			if c.code == 2 {
				stderr, _, _ = strings.Cut(stderr, "\nrun 'horizon export --help'")
				stderr += "\n"
			}
			checkOneLineError(t, stderr, c.want...)
			ents, _ := os.ReadDir(dir)
			if len(ents) != 0 {
				t.Fatalf("left files behind: %v", ents)
			}
		})
	}
}

// pageData reads the data an HTML page embeds.
func pageData(t *testing.T, page []byte) *export.PageData {
	t.Helper()
	_, rest, ok := bytes.Cut(page, []byte(`<script type="application/json" id="horizon-data">`))
	data, _, ok2 := bytes.Cut(rest, []byte("</script>"))
	if !ok || !ok2 {
		t.Fatalf("no embedded data in the page: %.200q", page)
	}
	var d export.PageData
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatalf("page data: %v", err)
	}
	return &d
}

// TestOutputsWriteIntoTheirTarget: the commands that write -o files write
// into what the name is instead of replacing it (internal/outfile): as root,
// 'export -o /dev/null' once turned /dev/null into a regular file, and a
// symbolic link became a file while its target stayed as it was.
func TestOutputsWriteIntoTheirTarget(t *testing.T) {
	tr := exportTrace(t)
	dir := t.TempDir()
	null, err := os.Stat("/dev/null")
	if err != nil || null.Mode()&os.ModeCharDevice == 0 {
		t.Skip("no /dev/null character device here")
	}
	for _, c := range []struct {
		name string
		args []string
		want string // in the written file
	}{
		{"export", []string{"export", tr, "--max-nodes", "5", "--format", "dot"}, "digraph horizon {"},
		{"diff --html", []string{"diff", tr, tr, "--html"}, "<!DOCTYPE html>"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if code, _, stderr := runCLI(t, "", append(c.args, "-o", "/dev/null")...); code != 0 {
				t.Fatalf("-o /dev/null: exit %d: %s", code, stderr)
			}
			if after, err := os.Stat("/dev/null"); err != nil || after.Mode() != null.Mode() || !os.SameFile(null, after) {
				t.Fatalf("/dev/null changed: %v -> %v (%v)", null.Mode(), after.Mode(), err)
			}
			target, link := filepath.Join(dir, c.name+".txt"), filepath.Join(dir, c.name+".link")
			if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Base(target), link); err != nil {
				t.Skipf("no symbolic links: %v", err)
			}
			if code, _, stderr := runCLI(t, "", append(c.args, "-o", link)...); code != 0 {
				t.Fatalf("-o a link: exit %d: %s", code, stderr)
			}
			if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
				t.Fatalf("the link is no longer a link: %v %v", st.Mode(), err)
			}
			if b, err := os.ReadFile(target); err != nil || !strings.Contains(string(b), c.want) {
				t.Fatalf("the link's target holds %.60q (%v), want %q in it", b, err, c.want)
			}
		})
	}
}

// TestOutputIsInputRefused: export, diff --html and qsbench refuse to
// write their output over a file they read, by its name or through a link
// (exit 1, the file unchanged). Both replaced the trace with the page or picture
// and exited 0; the next command found "not a SQLite file".
func TestOutputIsInputRefused(t *testing.T) {
	src, err := os.ReadFile(exportTrace(t))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	tr := filepath.Join(dir, "t.trace")
	if err := os.WriteFile(tr, src, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.svg")
	if err := os.Symlink("t.trace", link); err != nil {
		t.Fatal(err)
	}
	// qsbench's outputs are written after long work: refused before it.
	epdText := "8/8/8/4k3/8/8/3K4/8 w - - id \"x\";\n"
	epd := writeFile(t, "set.epd", epdText)
	plot := filepath.Join(dir, "plot.svg")
	if err := os.Symlink(epd, plot); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"export", tr, "--format", "svg", "-o", tr},
		{"export", tr, "--format", "svg", "-o", link},
		{"export", tr, "--format", "html", "-o", tr},
		{"diff", tr, "--run", "1", "--run", "1", "--html", "-o", tr},
		{"qsbench", "--epd", epd, "--plot", plot},
		{"qsbench", "collect", "--sources", epd, "-o", epd},
	} {
		code, _, stderr := runCLI(t, "", args...)
		if code != 1 {
			t.Errorf("%v: exit %d, want 1", args, code)
		}
		checkOneLineError(t, stderr, "which this command reads", "name another file")
		if b, err := os.ReadFile(tr); err != nil || !bytes.Equal(b, src) {
			t.Fatalf("%v: the trace changed (%v)", args, err)
		}
		if b, err := os.ReadFile(epd); err != nil || string(b) != epdText {
			t.Fatalf("%v: the EPD file changed (%v)", args, err)
		}
	}
	if code, _, stderr := runCLI(t, "", "runs", tr); code != 0 {
		t.Errorf("runs after the refusals: exit %d: %s", code, stderr)
	}
}

// TestExportJSONNames: export's JSON names a node's cutoff and best move as
// the trace's SQL view nodes and diff --json do (it said "cause", which
// hotspots --json uses for a growth cause, and "best_uci"), and gives a
// generated count another engine's stream left out as null, not 0.
func TestExportJSONNames(t *testing.T) {
	stream := writeFile(t, "s.hzt", "HZT 1\nposition startpos\nE - 1 -50 50\nE e2e4 0 -50 50\nL 10 g=3\nE d2d4 0 -50 50\nL 20\nL -10\nend\n")
	tr := filepath.Join(t.TempDir(), "s.trace")
	if code, _, stderr := runCLI(t, "", "import", stream, "-o", tr); code != 0 {
		t.Fatal(stderr)
	}
	var g struct {
		Nodes []map[string]any `json:"nodes"`
	}
	cliJSON(t, &g, "export", tr, "--format", "json")
	want := map[string]any{"e2e4": float64(3), "d2d4": nil}
	for _, n := range g.Nodes {
		move, _ := n["move_uci"].(string)
		if _, ok := n["cause"]; ok {
			t.Errorf("node %v has the key cause", n["id"])
		}
		if n["cutoff"] == nil {
			t.Errorf("node %v has no cutoff", n["id"])
		}
		if n["id"] == float64(1) && n["best"] != "e2e4" {
			t.Errorf("root best %v, want e2e4", n["best"])
		}
		if w, ok := want[move]; ok {
			if got, has := n["generated"]; !has || got != w {
				t.Errorf("%s: generated %v, want %v", move, got, w)
			}
		}
	}
}

// TestExportJSONAbsentIsNull: export --format json and diff --json give
// what a node or the export lacks as null, not as a sentinel a script must
// know: cut_index of a node no move failed high at (it was -1), best of a
// node with no best move and the run node's move (the keys were left out),
// the export's depth with no --depth (-1) and a summary's max_qs_ply when
// it holds no QS node (-1). Present values stay numbers and strings.
func TestExportJSONAbsentIsNull(t *testing.T) {
	file, _ := traceFile(t, "--fen", kiwipete, "--depth", "2", "--qs", "captures,see")
	var g struct {
		Depth     json.RawMessage              `json:"depth"`
		Nodes     []map[string]json.RawMessage `json:"nodes"`
		Summaries []map[string]json.RawMessage `json:"summaries"`
	}
	cliJSON(t, &g, "export", file, "--node", "0", "--format", "json", "--max-nodes", "40")
	if string(g.Depth) != "null" {
		t.Errorf("export --json: depth %s with no --depth, want null", g.Depth)
	}
	var cut, noCut, noBest, root bool
	for _, n := range g.Nodes {
		for _, k := range []string{"cut_index", "best", "move_san", "move_uci"} {
			if _, ok := n[k]; !ok {
				t.Errorf("node %s lacks %s", n["id"], k)
			}
		}
		switch c := string(n["cut_index"]); {
		case c == "-1":
			t.Errorf("node %s: cut_index -1, want null", n["id"])
		case c == "null":
			noCut = true
		default:
			cut = true
		}
		noBest = noBest || string(n["best"]) == "null"
		if string(n["id"]) == "0" {
			root = string(n["move_san"]) == "null" && string(n["move_uci"]) == "null"
		}
	}
	for _, s := range g.Summaries {
		if string(s["max_qs_ply"]) == "-1" {
			t.Errorf("summary of %s: max_qs_ply -1, want null", s["parent"])
		}
	}
	if !cut || !noCut || !noBest || !root {
		t.Errorf("export --json: want nodes with and without a cut index (%v, %v), one with no best move (%v), the run node's move null (%v)", cut, noCut, noBest, root)
	}
	code, out, errOut := runCLI(t, "", "diff", file, "--run", "1", "--run", "2", "--json")
	if code != 0 {
		t.Fatalf("diff --json: exit %d: %s", code, errOut)
	}
	if strings.Contains(out, `"cut_index": -1`) || !strings.Contains(out, `"cut_index": null`) {
		t.Errorf("diff --json: want cut_index null where no move failed high:\n%.3000s", out)
	}
}

// TestExportOneNode: a leaf's label in DOT (and the icicle's tooltips) says
// "1 node", as a summary's does; it said "id 21376, 1 nodes".
func TestExportOneNode(t *testing.T) {
	file, _ := traceFile(t, "--fen", "startpos", "--depth", "1", "--qs", "none") // a root and its 20 leaves
	code, out, errOut := runCLI(t, "", "export", file, "--format", "dot")
	if code != 0 {
		t.Fatalf("export: exit %d: %s", code, errOut)
	}
	if strings.Contains(out, " 1 nodes") || !strings.Contains(out, `, 1 node"`) {
		t.Errorf("export --format dot: want leaves labelled \"1 node\":\n%.3000s", out)
	}
	// The line saying what was written too (node 2 is a leaf).
	dir := t.TempDir()
	for _, tc := range []struct{ out, want string }{
		{"leaf.svg", "(icicle): icicle of node 2 (1 node)\n"},
		{"leaf.html", "(html): page of node 2 (1 node)\n"},
		{"leaf.dot", "(dot): node 2: 1 of 1 node shown, 0 summaries\n"},
	} {
		format := strings.TrimPrefix(filepath.Ext(tc.out), ".")
		if format == "svg" {
			format = "icicle"
		}
		code, out, errOut := runCLI(t, "", "export", file, "--node", "2", "--format", format, "-o", filepath.Join(dir, tc.out))
		if code != 0 || !strings.HasSuffix(out+errOut, tc.want) {
			t.Errorf("export --node 2 -o %s: exit %d, said %q, want %q", tc.out, code, out+errOut, tc.want)
		}
	}
	// And the diagram's title.
	if code, out, errOut := runCLI(t, "", "export", file, "--node", "2", "--format", "dot"); code != 0 || !strings.Contains(out, "): 1 node; 1 shown, 0 summaries (budget") {
		t.Errorf("export --node 2 --format dot: exit %d, want the title to say 1 node:\n%s%s", code, out, errOut)
	}
}

// TestExportSaysShownWithCommas: the line saying what was written gives
// the nodes shown as every other count ("2,119 of 2,119 nodes shown"); it
// printed "2119 of 2,119".
func TestExportSaysShownWithCommas(t *testing.T) {
	file, _ := traceFile(t, "--fen", kiwipete, "--depth", "2", "--qs", "captures")
	out := filepath.Join(t.TempDir(), "all.json")
	code, stdout, errOut := runCLI(t, "", "export", file, "--node", "0", "--max-nodes", "100000", "--format", "json", "-o", out)
	m := regexp.MustCompile(`node 0: ([0-9,]+) of ([0-9,]+) nodes shown`).FindStringSubmatch(stdout + errOut)
	if code != 0 || m == nil || len(m[2]) < 5 || m[1] != m[2] {
		t.Errorf("export --node 0: exit %d, said %q: want every node shown, counted with commas", code, stdout+errOut)
	}
}

// TestExportScoresSigned: a node's stand pat and score read as the viewer's
// details give them, a "+" before positive centipawns ("score +69 lower");
// export wrote "score 69 lower" where the viewer said +69. Windows stay as
// the viewer writes them, unsigned.
func TestExportScoresSigned(t *testing.T) {
	file, _ := traceFile(t, "--fen", kiwipete, "--depth", "1", "--qs", "captures")
	code, out, errOut := runCLI(t, "", "export", file, "--format", "dot")
	if code != 0 {
		t.Fatalf("export: exit %d: %s", code, errOut)
	}
	if regexp.MustCompile(`\\n(score|stand pat) [1-9]`).MatchString(out) || !regexp.MustCompile(`\\nscore \+[1-9]`).MatchString(out) || !regexp.MustCompile(`\\nstand pat \+[1-9]`).MatchString(out) {
		t.Errorf("export --format dot: want positive scores and stand pats signed:\n%.4000s", out)
	}
}

// TestExportSaysWhatItLeavesOut: export's default subtree is the iteration
// the run reports; an engine stopped in its next iteration holds most of its
// nodes there, and export drew the iteration before without a word (a
// stream of 1.37M nodes, stopped in iteration 3: "node 31286: 300 of 76,850
// nodes shown"). It says so, with the node that draws the rest; a subtree
// chosen with --node says nothing more.
func TestExportSaysWhatItLeavesOut(t *testing.T) {
	stream := writeFile(t, "s.hzt", "HZT 1\nposition startpos\nlimits depth 2\n"+
		"E - 1 -50 50\nE e2e4 0 -50 50\nL -10\nL 10\n"+
		"E - 2 -50 50\nE e2e4 1 -50 50\nE e7e5 0 -50 50\nL 5\nL -5\nE d2d4 1 -50 50\nA\nend\n")
	file := filepath.Join(t.TempDir(), "t.trace")
	if code, _, stderr := runCLI(t, "", "import", stream, "-o", file); code != 0 {
		t.Fatalf("import: exit %d: %s", code, stderr)
	}
	const note = "horizon export: node 1 is the root of iteration 1, the one the run reports; 1 root after it (4 nodes, iteration 2 on) is not drawn: --node 3 draws it, --node 0 every iteration\n"
	for _, args := range [][]string{{"--format", "dot"}, {"--format", "icicle", "-o", filepath.Join(t.TempDir(), "m.svg")}} {
		code, _, errOut := runCLI(t, "", append([]string{"export", file}, args...)...)
		if code != 0 || !strings.HasSuffix(errOut, note) {
			t.Errorf("export %s: exit %d, said %q, want it to end with %q", args, code, errOut, note)
		}
	}
	if code, _, errOut := runCLI(t, "", "export", file, "--node", "1", "--format", "dot"); code != 0 || errOut != "" {
		t.Errorf("export --node 1: exit %d, said %q, want nothing", code, errOut)
	}
}

// TestPathNamingNoMove: a --path or --under that holds no move ("1.", a
// comma) is a usage error naming the flag; since trace.SplitPath dropped
// move numbers, --under "1." recorded the whole search unfiltered and
// --path "1." drew or opened the reported root without a word.
func TestPathNamingNoMove(t *testing.T) {
	file, _ := traceFile(t, "--fen", "startpos", "--depth", "1", "--qs", "captures")
	for _, args := range [][]string{
		{"export", file, "--path", "1.", "-o", filepath.Join(t.TempDir(), "x.svg")},
		{"view", file, "--path", " , "},
		{"trace", "--fen", "startpos", "--depth", "1", "--under", "1.", "-o", filepath.Join(t.TempDir(), "u.trace")},
	} {
		flag := args[len(args)-2]
		if args[0] == "export" || args[0] == "trace" {
			flag = args[len(args)-4]
		}
		code, _, stderr := runCLI(t, "", args...)
		if code != 2 || !strings.Contains(stderr, flag+" ") || !strings.Contains(stderr, "names no move") {
			t.Errorf("%s: exit %d, %q; want exit 2 naming %s", strings.Join(args, " "), code, stderr, flag)
		}
	}
}

// TestExportRefusesBigLayouts asks for SVG and PNG of more nodes than
// Graphviz lays out (render.MaxNodes): refused at once, a usage error that
// gives both figures, no file; the same budget as DOT is written, and an
// SVG within the limit of the same subtree is drawn.
func TestExportRefusesBigLayouts(t *testing.T) {
	tr, _ := traceFile(t, "--fen", sampleFEN, "--depth", "4", "--qs", "captures")
	dir := t.TempDir()
	over := strconv.Itoa(render.MaxNodes + 1)
	for _, f := range []string{"svg", "png"} {
		out := filepath.Join(dir, "big."+f)
		code, stdout, stderr := runCLI(t, "", "export", tr, "--node", "0", "--max-nodes", over, "-o", out)
		if code != 2 || stdout != "" {
			t.Fatalf("%s over the limit: exit %d, stdout %.80q, stderr %q", f, code, stdout, stderr)
		}
		stderr, _, _ = strings.Cut(stderr, "\nrun 'horizon export --help'")
		checkOneLineError(t, stderr+"\n", "--max-nodes "+over, engine.Commas(render.MaxNodes+1), engine.Commas(render.MaxNodes))
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Fatalf("%s over the limit left %s: %v", f, out, err)
		}
	}
	if code, _, stderr := runCLI(t, "", "export", tr, "--node", "0", "--max-nodes", over, "-o", filepath.Join(dir, "big.dot")); code != 0 {
		t.Fatalf("dot of the same budget: exit %d: %s", code, stderr)
	}
	if code, _, stderr := runCLI(t, "", "export", tr, "--node", "0", "--max-nodes", "50", "-o", filepath.Join(dir, "small.svg")); code != 0 {
		t.Fatalf("svg within the limit: exit %d: %s", code, stderr)
	}
}

// TestExportPNGNotToTerminal: export --format png with no -o refuses to
// write PNG bytes to a terminal (it garbled it), and writes them to a pipe
// or a file as before.
func TestExportPNGNotToTerminal(t *testing.T) {
	file, _ := traceFile(t, "--fen", "startpos", "--depth", "1", "--qs", "captures")
	code, stdout, _ := runCLI(t, "", "export", file, "--format", "png", "--max-nodes", "5")
	if code != 0 || !strings.HasPrefix(stdout, "\x89PNG") {
		t.Fatalf("to a pipe: exit %d, %d bytes", code, len(stdout))
	}
	fakeTerminal(t)
	code, stdout, stderr := runCLI(t, "", "export", file, "--format", "png", "--max-nodes", "5")
	if code != 2 || stdout != "" || !strings.Contains(stderr, "standard output is a terminal: give -o FILE.png") {
		t.Errorf("to a terminal: exit %d, %d bytes, %q", code, len(stdout), stderr)
	}
}
