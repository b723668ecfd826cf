package main

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/horizonqs/horizon/engine"
)

// TestVariantsTable: every column of the switch table starts where its
// variant's name does, however wide a value is ("recaptures"); issue 16.
func TestVariantsTable(t *testing.T) {
	code, out, errOut := runCLI(t, "", "variants")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	_, table, ok := strings.Cut(out, "Switches")
	if !ok {
		t.Fatalf("no switch table in\n%s", out)
	}
	table, _, _ = strings.Cut(table, "\n\n") // the switches' meanings follow
	lines := strings.Split(strings.TrimRight(table, "\n"), "\n")[1:]
	starts := func(line string) []int {
		var s []int
		prev := ' '
		for i, r := range line {
			if r != ' ' && prev == ' ' {
				s = append(s, utf8.RuneCountInString(line[:i]))
			}
			prev = r
		}
		return s
	}
	head := starts(lines[0])
	if len(lines) < 10 || len(head) < 8 {
		t.Fatalf("switch table too small:\n%s", table)
	}
	for _, l := range lines[1:] {
		got := starts(l)
		if len(got) != len(head)+1 || !equalInts(got[1:], head) {
			t.Errorf("row %q: columns start at %v, the header's at %v", l, got, head)
		}
	}
}

// TestVariantsSaysWhatSwitchesDo: below the switch table, every switch
// is named with what it does, its flag's help text; the table alone
// named qs-threshold or delay-penalty and left a learner guessing
// (walkthrough).
func TestVariantsSaysWhatSwitchesDo(t *testing.T) {
	_, out, _ := runCLI(t, "", "variants")
	_, legend, ok := strings.Cut(out, "\nWhat each switch does")
	if !ok {
		t.Fatalf("no list of what the switches do in\n%s", out)
	}
	for _, spec := range engine.OptionSpecs() {
		words := strings.Fields(spec.Usage)
		if want := "\n  " + spec.Name + " "; !strings.Contains(legend, want) || !strings.Contains(strings.Join(strings.Fields(legend), " "), strings.Join(words, " ")) {
			t.Errorf("switch %s: no line %q with %q in\n%s", spec.Name, want, spec.Usage, legend)
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestVariantsJSONTyped: switch values are JSON booleans, numbers and
// strings, keys snake_case (issue 16), under "options" as search and runs
// --json name them (it said "switches"); a variant that follows no
// document has a null source (it said "-").
func TestVariantsJSONTyped(t *testing.T) {
	var got []struct {
		Name     string         `json:"name"`
		Source   *string        `json:"source"`
		Switches map[string]any `json:"options"`
	}
	cliJSON(t, &got, "variants", "--json")
	if len(got) < 8 {
		t.Fatalf("%d variants", len(got))
	}
	for _, v := range got {
		if (v.Source == nil) != (v.Name == "none" || v.Name == "see") || v.Source != nil && *v.Source == "-" {
			t.Errorf("%s: source %v", v.Name, v.Source)
		}
		if _, ok := v.Switches["stand_pat"].(bool); !ok {
			t.Errorf("%s: stand_pat is %#v, want a boolean", v.Name, v.Switches["stand_pat"])
		}
		if _, ok := v.Switches["hash"].(float64); !ok {
			t.Errorf("%s: hash is %#v, want a number", v.Name, v.Switches["hash"])
		}
		if _, ok := v.Switches["qs_moves"].(string); !ok {
			t.Errorf("%s: qs_moves is %#v, want a string", v.Name, v.Switches["qs_moves"])
		}
		for k := range v.Switches {
			if strings.Contains(k, "-") {
				t.Errorf("%s: key %q is not snake_case", v.Name, k)
			}
		}
	}
}

// TestVariantsDeparts: every variant that follows a document says where it
// departs from it, quoting the document, in the text and in --json
// ("departs", null for a variant that follows none); the audit's readings
// of ambiguous passages are among them. It says too, in --json ("qs_tt")
// and in its text, which presets' QS probes and stores the hash table
// (only unified's), and the presets whose documents' QS does so while
// Horizon's does not (002's micro-Max, 001's depth bootstrapping) declare
// it among their departures.
func TestVariantsDeparts(t *testing.T) {
	var got []struct {
		Name    string  `json:"name"`
		Source  *string `json:"source"`
		Departs *string `json:"departs"`
		QSTT    *bool   `json:"qs_tt"`
	}
	cliJSON(t, &got, "variants", "--json")
	_, text, _ := runCLI(t, "", "variants")
	words := strings.Join(strings.Fields(text), " ")
	says := map[string]string{ // a phrase each departure must contain
		"captures":  "fails hard",
		"mvv-lva":   "promotions",
		"recapture": "mate scores are exempt",
		"beal":      "pushes to the 7th rank",
		"threshold": "fails hard",
		"unified":   "stored in the hash table at depth 0",
	}
	declaresTT := map[string]bool{"recapture": true, "threshold": true}
	for _, v := range got {
		if v.QSTT == nil || *v.QSTT != (v.Name == "unified") {
			t.Errorf("%s: qs_tt %v, want %v", v.Name, v.QSTT, v.Name == "unified")
		}
		if declaresTT[v.Name] && (v.Departs == nil || !strings.Contains(*v.Departs, "neither probe")) {
			t.Errorf("%s: departs does not say its QS leaves the hash table alone: %v", v.Name, v.Departs)
		}
		if (v.Departs == nil) != (v.Source == nil) {
			t.Errorf("%s: source %v, departs %v: a variant departs from its document, and only then", v.Name, v.Source, v.Departs)
			continue
		}
		if v.Departs == nil {
			continue
		}
		if !strings.Contains(*v.Departs, says[v.Name]) || !strings.Contains(*v.Departs, "'") {
			t.Errorf("%s: departs %q, want %q and a quote of the document", v.Name, *v.Departs, says[v.Name])
		}
		if !strings.Contains(words, "departs: "+*v.Departs) {
			t.Errorf("%s: the text does not print its departures", v.Name)
		}
	}
	if n, m := strings.Count(text, "QS neither probes nor stores it"), strings.Count(text, "full-width and QS nodes probe and store it"); n != 6 || m != 1 {
		t.Errorf("variants text: %d presets whose QS leaves the hash table alone, %d whose QS uses it; want 6 and 1", n, m)
	}
}
