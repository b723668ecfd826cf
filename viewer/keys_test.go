package viewer

import (
	"strings"
	"testing"
)

// TestKeyTables checks the key tables themselves: every key name is one
// tcell reports, no key is bound twice in a table under the same
// condition, and every footer entry and help line names keys that are
// bound.
func TestKeyTables(t *testing.T) {
	tables := map[string][]keyAction{"tree": treeKeys, "help": helpModeKeys, "list": listKeys}
	for name, table := range tables {
		t.Run(name, func(t *testing.T) {
			seen := map[keyID]int{}
			for i, a := range table {
				if a.foot != "" && len(a.binds) == 0 {
					t.Errorf("line %d: footer %q names no bound key", i, a.foot)
				}
				if a.when != nil {
					continue // bound only in some states: checked by the screens
				}
				for _, b := range a.binds {
					if b.do == nil {
						t.Errorf("line %d (%s): a binding without an action", i, a.desc)
					}
					for _, k := range append(append([]string{}, b.keys...), b.also...) {
						for _, id := range keyIDs(k) { // panics on a bad name
							if j, dup := seen[id]; dup {
								t.Errorf("key %q bound on line %d and again on line %d", k, j, i)
							}
							seen[id] = i
						}
					}
				}
			}
		})
	}
}

// TestHelpFitsNarrowScreens scrolls the help screen through at 80x24: no
// line may be cut with an ellipsis, and every word of every description
// must be on screen at some point.
func TestHelpFitsNarrowScreens(t *testing.T) {
	st := openFixture(t)
	for _, ascii := range []bool{false, true} {
		r := newRig(t, st, 80, 24, Options{Run: 1, ASCII: ascii})
		r.run("?")
		seen := map[string]bool{}
		for i := 0; i < 80; i++ {
			for _, line := range strings.Split(r.text(), "\n")[2:22] {
				if strings.Contains(line, "…") || (ascii && strings.Contains(line, "~")) {
					t.Errorf("ascii=%v: help line cut: %q", ascii, line)
				}
				for _, w := range strings.Fields(line) {
					seen[w] = true
				}
			}
			r.run("j")
		}
		for _, l := range helpText() {
			what := l.what
			if ascii {
				what = asciiArrows.Replace(what)
			}
			for _, w := range strings.Fields(what) {
				if !seen[w] {
					t.Errorf("ascii=%v: the help never shows %q (of %q)", ascii, w, l.what)
				}
			}
		}
	}
}
