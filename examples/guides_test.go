package examples

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/horizonqs/horizon/internal/horizonbin"
)

// block is a fenced code block of a Markdown page: its info string, its
// lines and the line of the page it starts on.
type block struct {
	lang  string
	lines []string
	at    int
}

// blocks returns the fenced code blocks of a page; an indented fence (in a
// list item) counts, its indentation removed.
func blocks(t *testing.T, page string) []block {
	t.Helper()
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	var out []block
	var cur *block
	indent := ""
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		trimmed := strings.TrimLeft(line, " ")
		switch {
		case cur == nil && strings.HasPrefix(trimmed, "```"):
			indent = line[:len(line)-len(trimmed)]
			cur = &block{lang: strings.TrimSpace(strings.TrimPrefix(trimmed, "```")), at: n}
		case cur != nil && strings.TrimSpace(line) == "```":
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			cur.lines = append(cur.lines, strings.TrimPrefix(line, indent))
		}
	}
	if cur != nil {
		t.Fatalf("%s: the code block of line %d is never closed", page, cur.at)
	}
	return out
}

// guides are the pages whose sh blocks TestGuides runs, with the tool each
// needs besides horizon and the example sources its code blocks quote.
var guides = []struct {
	page, tool string
	sources    map[string][]string // code block language: the files its lines come from
}{
	{"../docs/guide-c.md", "cc", map[string][]string{"c": {"c/minnow.c"}}},
	{"../docs/guide-go.md", "go", map[string][]string{"go": {"go/main.go", "go/search.go", "go/traced.go"}, "gomod": {"go/go.mod"}}},
	{"../docs/guide-python.md", "python3", map[string][]string{"python": {"python/minnow.py"}}},
	{"../docs/tutorial.md", "", nil},
}

// TestGuideCodeIsTheExample: every line of a guide's code blocks in its
// language is a line of the example engine (indentation aside), so the
// walkthrough shows the code the tests build and trace, not a copy that
// drifts from it.
func TestGuideCodeIsTheExample(t *testing.T) {
	for _, g := range guides {
		for lang, files := range g.sources {
			have := map[string]bool{}
			for _, f := range files {
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				for _, l := range strings.Split(string(data), "\n") {
					have[strings.TrimSpace(l)] = true
				}
			}
			quoted := 0
			for _, b := range blocks(t, g.page) {
				if b.lang != lang {
					continue
				}
				for i, l := range b.lines {
					if l = strings.TrimSpace(l); l != "" && !have[l] {
						t.Errorf("%s:%d: %q is no line of %s", g.page, b.at+1+i, l, strings.Join(files, ", "))
					}
					quoted++
				}
			}
			if quoted == 0 {
				t.Errorf("%s quotes no %s code", g.page, lang)
			}
		}
	}
}

// TestGuides runs each guide's sh blocks, in order, as one script from the
// root of a copy of the example sources and the emitters (what a reader's
// checkout holds of them), with the horizon command on the PATH. A
// `horizon view` line runs in a pseudo-terminal (script(1)) that types q;
// without script(1) it is left out, and the test says so.
func TestGuides(t *testing.T) {
	bin := horizonbin.Path(t)
	for _, g := range guides {
		t.Run(filepath.Base(g.page), func(t *testing.T) {
			if g.tool != "" {
				if _, err := exec.LookPath(g.tool); err != nil && !(g.tool == "go" && goAvailable()) {
					t.Skipf("%s is not on PATH: %s's commands are not run", g.tool, g.page)
				}
			}
			var script []string
			for _, b := range blocks(t, g.page) {
				if b.lang != "sh" {
					continue
				}
				for _, l := range b.lines {
					script = append(script, viewLine(t, l))
				}
			}
			if len(script) == 0 {
				t.Fatalf("%s has no sh block", g.page)
			}
			root := t.TempDir()
			for _, dir := range []string{"../emit", "c", "go", "python"} {
				dst := filepath.Join(root, "examples", dir)
				if dir == "../emit" {
					dst = filepath.Join(root, "emit")
				}
				if err := copyTree(dir, dst); err != nil {
					t.Fatal(err)
				}
			}
			cmd := exec.Command("sh", "-eux", "-c", strings.Join(script, "\n"))
			cmd.Dir = root
			cmd.Env = []string{"PATH=" + filepath.Dir(bin) + string(os.PathListSeparator) + goBinDir() + os.Getenv("PATH"), "GOWORK=off"}
			for _, kv := range os.Environ() {
				if k, _, _ := strings.Cut(kv, "="); k != "PATH" && k != "HORIZON_TRACE" && k != "GOWORK" {
					cmd.Env = append(cmd.Env, kv)
				}
			}
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%s: %v\n%s", g.page, err, out)
			}
			shownOutput(t, g.page, string(out))
		})
	}
}

// shownOutput wants each line of a page's text blocks after its first sh
// block, which show what the commands print, in the output of its script
// (spacing aside; "..." stands for text left out), so that a figure the
// page quotes is the one its commands print today.
func shownOutput(t *testing.T, page, out string) {
	t.Helper()
	var got []string
	for _, l := range strings.Split(out, "\n") {
		got = append(got, strings.Join(strings.Fields(l), " "))
	}
	ran := false
	for _, b := range blocks(t, page) {
		ran = ran || b.lang == "sh"
		if !ran || b.lang != "text" {
			continue
		}
	lines:
		for i, l := range b.lines {
			var parts []string
			for _, p := range strings.Split(l, "...") {
				if p = strings.Join(strings.Fields(p), " "); p != "" {
					parts = append(parts, p)
				}
			}
			if len(parts) == 0 {
				continue
			}
			for _, g := range got {
				rest, ok := g, true
				for _, p := range parts {
					k := strings.Index(rest, p)
					if k < 0 {
						ok = false
						break
					}
					rest = rest[k+len(p):]
				}
				if ok {
					continue lines
				}
			}
			t.Errorf("%s:%d: %q is not in what the commands printed", page, b.at+1+i, l)
		}
	}
}

// viewLine turns a `horizon view` command, which needs a terminal, into
// one run in a pseudo-terminal that quits it; other lines stay as they are.
func viewLine(t *testing.T, l string) string {
	if !strings.HasPrefix(strings.TrimSpace(l), "horizon view ") {
		return l
	}
	if _, err := exec.LookPath("script"); err != nil {
		t.Logf("script(1) is not on PATH: not running %q", l)
		return ": " + l
	}
	return "(sleep 1; printf q) | script -qec '" + strings.ReplaceAll(l, "'", `'\''`) + "' /dev/null >/dev/null"
}

// goAvailable reports whether the go tool is at hand off the PATH (in
// GOROOT, where 'go test' found it).
func goAvailable() bool {
	_, err := goTool()
	return err == nil
}

// goBinDir is the go tool's folder with a trailing list separator, "" when
// the go tool is not at hand.
func goBinDir() string {
	p, err := goTool()
	if err != nil {
		return ""
	}
	return filepath.Dir(p) + string(os.PathListSeparator)
}

// copyTree copies the regular files under src to dst.
func copyTree(src, dst string) error {
	return filepath.Walk(src, func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		if info.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !info.Mode().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, info.Mode().Perm())
	})
}
