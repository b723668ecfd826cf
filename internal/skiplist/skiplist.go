// Package skiplist turns the events of 'go test -json' back into what
// plain 'go test' prints, and lists every test that skipped with its
// message: plain 'go test ./...' shows the output of passing packages to
// no one, so a test that skips for want of Stockfish or Chromium would
// pass unseen (issue 31). .ci/run pipes the test run through it
// (.ci/skips.go).
package skiplist

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
)

// event is one line of 'go test -json' (test2json's TestEvent).
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
}

// Filter reads 'go test -json' from r and writes to w what plain 'go test'
// prints (each package's ok or FAIL line, a build error, the output of the
// tests that failed), then every test that skipped with the message it
// skipped with. It reports whether a test or a package failed.
func Filter(r io.Reader, w io.Writer) (failed bool, err error) {
	type key struct{ pkg, test string }
	outputs := map[key][]string{}
	var skips []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			fmt.Fprintln(w, sc.Text()) // not an event: the go command's own words (a build error)
			continue
		}
		k := key{e.Package, e.Test}
		switch e.Action {
		case "output":
			if e.Test == "" {
				// The package's own lines: its ok or FAIL line, a build
				// error; PASS is the ok line's echo.
				if e.Output != "PASS\n" && !strings.HasPrefix(e.Output, "=== ") {
					fmt.Fprint(w, e.Output)
				}
				continue
			}
			outputs[k] = append(outputs[k], e.Output)
		case "fail":
			failed = true
			if e.Test != "" {
				fmt.Fprint(w, strings.Join(outputs[k], ""))
			}
		case "skip":
			if e.Test == "" {
				continue // a package with no tests
			}
			var why []string
			for _, l := range outputs[k] {
				if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "=== ") && !strings.HasPrefix(t, "--- SKIP") {
					why = append(why, t)
				}
			}
			skips = append(skips, fmt.Sprintf("  %s %s: %s", strings.TrimPrefix(e.Package, "github.com/horizonqs/horizon/"), e.Test, strings.Join(why, " / ")))
		}
		if e.Action == "pass" || e.Action == "fail" || e.Action == "skip" {
			delete(outputs, k)
		}
	}
	if len(skips) > 0 {
		sort.Strings(skips)
		noun := "tests"
		if len(skips) == 1 {
			noun = "test"
		}
		fmt.Fprintf(w, "\n%d %s skipped, each with why:\n%s\n", len(skips), noun, strings.Join(skips, "\n"))
	}
	return failed, sc.Err()
}
