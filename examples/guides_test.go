package examples

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/horizonqs/horizon/internal/horizonbin"
)

// block is a fenced code block of a Markdown page: its language (the first
// word of its info string), the attributes after it (skip="why",
// needs=TOOL,TOOL, unchecked="why"), its lines and the line of the page it
// starts on.
type block struct {
	lang  string
	attrs map[string]string
	lines []string
	at    int
}

// attrRE is one attribute of a fence's info string: name=value or
// name="a value with spaces".
var attrRE = regexp.MustCompile(`(\w+)=("[^"]*"|\S+)`)

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
			info := strings.TrimSpace(strings.TrimPrefix(trimmed, "```"))
			lang, rest, _ := strings.Cut(info, " ")
			cur = &block{lang: lang, attrs: map[string]string{}, at: n}
			for _, m := range attrRE.FindAllStringSubmatch(rest, -1) {
				cur.attrs[m[1]] = strings.Trim(m[2], `"`)
			}
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

// guides are the pages whose code blocks quote the example engines, with
// the example sources each language's blocks come from.
var guides = []struct {
	page    string
	sources map[string][]string // code block language: the files its lines come from
}{
	{"../docs/guide-c.md", map[string][]string{"c": {"c/minnow.c", "../emit/c/hztest.c"}}},
	{"../docs/guide-go.md", map[string][]string{"go": {"go/main.go", "go/search.go", "go/traced.go", "../foreign/nestengine_test.go"}, "gomod": {"go/go.mod"}}},
	{"../docs/guide-python.md", map[string][]string{"python": {"python/minnow.py", "python/nested.py"}}},
}

// pages are the Markdown pages of the repository, each with the tool its
// sh blocks need besides horizon (their page is skipped, saying so, when
// it is missing). TestEveryPageIsRun keeps the list whole.
var pages = []struct{ page, tool string }{
	{"../README.md", "cc"},
	{"../docs/tutorial.md", ""},
	{"../docs/guide-c.md", "cc"},
	{"../docs/guide-go.md", "go"},
	{"../docs/guide-python.md", "python3"},
	{"../docs/reference.md", "cc"},
	{"../docs/trace-file.md", ""},
	{"../docs/trace-protocol.md", ""},
	{"../docs/performance.md", ""},
	{"../docs/parquet.md", ""},
	{"../testdata/README.md", ""},
}

// notCommands are the languages of code blocks that hold no command: code
// the guides quote, SQL, and text (a stream, a screen, or what the
// commands before it print, which TestDocs checks).
var notCommands = map[string]bool{"c": true, "go": true, "gomod": true, "python": true, "sql": true, "text": true}

// TestEveryPageIsRun: every Markdown page of the repository (outside
// third_party and the examples' own folders) is one TestDocs runs, and
// every code block says what it is: sh (a command, run), or a language
// that holds no command; a skip says why.
func TestEveryPageIsRun(t *testing.T) {
	listed := map[string]bool{}
	for _, p := range pages {
		listed[filepath.Clean(p.page)] = true
	}
	found, _ := filepath.Glob("../docs/*.md")
	found = append(found, "../README.md", "../testdata/README.md")
	for _, f := range found {
		if !listed[filepath.Clean(f)] {
			t.Errorf("%s is not in pages: its command blocks are never run", f)
		}
	}
	for _, p := range pages {
		for _, b := range blocks(t, p.page) {
			switch {
			case b.lang == "sh":
			case notCommands[b.lang]:
				if _, ok := b.attrs["skip"]; ok {
					t.Errorf("%s:%d: a %s block is not run anyway: no skip", p.page, b.at, b.lang)
				}
			default:
				t.Errorf("%s:%d: a code block of language %q: say sh for a command, or one of text, sql, c, go, gomod, python", p.page, b.at, b.lang)
			}
			if why, ok := b.attrs["skip"]; ok && strings.TrimSpace(why) == "" {
				t.Errorf("%s:%d: skip says no reason", p.page, b.at)
			}
		}
	}
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

// TestDocs runs the sh blocks of every page, in order, as one script per
// page from the root of a copy of what a reader's checkout holds of the
// example sources, the emitters and testdata, with the horizon command on
// the PATH, and checks the output its text blocks quote. Pages run in
// parallel, each in its own folder.
//
// A block whose info string says skip="why" is not run, and the test logs
// why (it must name what runs those commands instead); needs=TOOL,TOOL
// runs it only when each tool is on the PATH (or in /usr/games) and logs
// the skip otherwise. Lines that build or test Horizon itself use the
// test's build: 'go build -o FILE ./cmd/horizon' copies it to FILE, 'go run
// ./cmd/horizon ARGS' runs it, and 'go test ./...' (this very run) is left
// out. 'horizon bench' gives Stockfish 10 ms a position, not 200. A line that opens the viewer ('horizon view', '--view') runs in a
// pseudo-terminal (script(1)) that types q; without script(1) it is left
// out, and the test says so.
func TestDocs(t *testing.T) {
	bin := horizonbin.Path(t)
	for _, p := range pages {
		t.Run(strings.TrimPrefix(p.page, "../"), func(t *testing.T) {
			t.Parallel()
			if p.tool != "" {
				if _, err := exec.LookPath(p.tool); err != nil && !(p.tool == "go" && goAvailable()) {
					t.Skipf("%s is not on PATH: %s's commands are not run", p.tool, p.page)
				}
			}
			script := pageScript(t, p.page, bin)
			if len(script) == 0 {
				return // a page of reference text and quoted code only
			}
			root := t.TempDir()
			for src, dst := range map[string]string{"../emit": "emit", "c": "examples/c", "go": "examples/go", "python": "examples/python", "../testdata": "testdata"} {
				if err := copyTree(src, filepath.Join(root, dst)); err != nil {
					t.Fatal(err)
				}
			}
			cmd := exec.Command("sh", "-eux", "-c", strings.Join(script, "\n"))
			cmd.Dir = root
			cmd.Env = docsEnv(root, bin)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%s: %v\n%s", p.page, err, out)
			}
			shownOutput(t, p.page, string(out))
		})
	}
}

// pageScript is the lines of a page's sh blocks that run, rewritten as
// TestDocs says; it logs each block and line left out, and why.
func pageScript(t *testing.T, page, bin string) []string {
	var script []string
	for _, b := range blocks(t, page) {
		if b.lang != "sh" {
			continue
		}
		if why, ok := b.attrs["skip"]; ok {
			t.Logf("%s:%d: not run: %s", page, b.at, why)
			continue
		}
		if missing := missingTools(b.attrs["needs"]); missing != "" {
			t.Logf("%s:%d: not run: %s is not installed", page, b.at, missing)
			continue
		}
		for _, l := range b.lines {
			script = append(script, docLine(t, l))
		}
	}
	return script
}

// missingTools is the first of a comma-separated list of commands that is
// neither on the PATH nor in /usr/games, "" when all are at hand.
func missingTools(list string) string {
	for _, tool := range strings.Split(list, ",") {
		if tool == "" {
			continue
		}
		if _, err := exec.LookPath(tool); err != nil {
			if _, err := os.Stat(filepath.Join("/usr/games", tool)); err != nil {
				return tool
			}
		}
	}
	return ""
}

// docsEnv is the environment of a page's script: the test's, with the
// horizon command first on the PATH, /usr/games last, HOME in the page's
// folder (a page may write ~/bin), and the go tool's caches kept where
// they are, so the Go guide's build does not start cold.
func docsEnv(root, bin string) []string {
	env := []string{"PATH=" + filepath.Dir(bin) + string(os.PathListSeparator) + goBinDir() + os.Getenv("PATH") + string(os.PathListSeparator) + "/usr/games",
		"GOWORK=off", "HOME=" + root, "HORIZON_BIN=" + bin}
	if tool, err := goTool(); err == nil {
		for _, v := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
			if out, err := exec.Command(tool, "env", v).Output(); err == nil {
				env = append(env, v+"="+strings.TrimSpace(string(out)))
			}
		}
	}
	for _, kv := range os.Environ() {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case "PATH", "HORIZON_TRACE", "GOWORK", "HOME", "GOCACHE", "GOMODCACHE", "GOPATH":
		default:
			env = append(env, kv)
		}
	}
	return env
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
		_, skipped := b.attrs["skip"]
		ran = ran || (b.lang == "sh" && !skipped && missingTools(b.attrs["needs"]) == "")
		if _, unchecked := b.attrs["unchecked"]; !ran || b.lang != "text" || unchecked {
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

// horizonBuild matches the lines that build, run or test Horizon itself.
var horizonBuild = regexp.MustCompile(`^go (build -o (\S+)|run|test) (\./cmd/horizon|\./\.\.\.)(\s.*)?$`)

// docLine is a page's command line as TestDocs runs it: Horizon's own
// build, run and test lines use the test's build, and a line that opens
// the viewer, which needs a terminal, runs in a pseudo-terminal that quits
// it; other lines stay as they are.
func docLine(t *testing.T, l string) string {
	cmdText, _, _ := strings.Cut(l, " #")
	cmdText = strings.TrimSpace(cmdText)
	m := horizonBuild.FindStringSubmatch(cmdText)
	if m != nil {
		switch {
		case m[2] != "":
			return `mkdir -p "$(dirname ` + m[2] + `)" && cp "$HORIZON_BIN" ` + m[2]
		case strings.HasPrefix(m[1], "run"):
			cmdText = "horizon" + m[4]
		default:
			t.Logf("not running %q: this is that run", l)
			return ": " + l
		}
	}
	f := strings.Fields(cmdText)
	if len(f) >= 2 && (f[0] == "horizon" || f[0] == "./horizon") && f[1] == "bench" && !strings.Contains(cmdText, "--sf-movetime") && !strings.Contains(cmdText, "--stockfish none") {
		// Stockfish's default 200 ms a position is 10 s of waiting in
		// every run of the tests; a short think still runs the
		// comparison the line shows.
		t.Logf("running %q with Stockfish's think cut to --sf-movetime 10ms", cmdText)
		return cmdText + " --sf-movetime 10ms"
	}
	if len(f) < 2 || !(f[0] == "horizon" || f[0] == "./horizon") || (f[1] != "view" && !strings.Contains(cmdText, " --view")) {
		if m != nil {
			return cmdText // 'go run': the comment was Go's line's
		}
		return l
	}
	if _, err := exec.LookPath("script"); err != nil {
		t.Logf("script(1) is not on PATH: not running %q", l)
		return ": " + l
	}
	return "(sleep 1; printf q) | script -qec '" + strings.ReplaceAll(cmdText, "'", `'\''`) + "' /dev/null >/dev/null"
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
