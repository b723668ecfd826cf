package engine

import (
	"fmt"
	"strings"
	"testing"
)

func TestParseVariantSpec(t *testing.T) {
	tests := []struct {
		spec, canon, err string
	}{
		{"see", "see", ""},
		{" see + qs-checks = false ", "see+qs-checks=false", ""},
		{"threshold+qs-levels=6", "threshold+qs-levels=6", ""},
		{"see+qs-checks=true", "see", ""}, // the preset's own value changes nothing
		{"captures+delta=true+see-prune=true", "captures+see-prune=true+delta=true", ""},
		{"", "", "want a preset name"},
		{"+qs-checks=false", "", "want a preset name"},
		{"nosuch", "", "unknown QS variant"},
		{"see+qs-checks", "", "is not switch=value"},
		{"see+qs-checks=", "", "is not switch=value"},
		{"see+", "", "is not switch=value"},
		{"see+bogus=1", "", "unknown search option"},
		{"see+qs-levels=99", "", "not a number from 0 to 16"},
		{"see+qs-checks=false+qs-checks=true", "", "given twice"},
		{"none+qs-checks=true", "", "cannot apply to variant none"},
		// A switch the spec names is judged set whatever its value: these
		// changed nothing and were accepted while their values were
		// the presets' (200 is every preset's margin, 16 its hash).
		{"captures+delta-margin=200", "", "switch delta-margin cannot apply to variant captures: delta-margin needs delta true"},
		{"see+delta=false+delta-margin=200", "", "switch delta-margin cannot apply to variant see: delta-margin needs delta true"},
		{"see+tt=false+hash=16", "", "switch hash cannot apply to variant see: hash needs tt true"},
		{"none+stand-pat=false", "", "switch stand-pat cannot apply to variant none"},
		{"mvv-lva+qs-threshold=0", "", "switch qs-threshold cannot apply to variant mvv-lva"},
		{"unified+qs-levels=0", "", "switch qs-levels cannot apply to variant unified"},
		// A switch set to its inert value away from the preset's is what
		// turns it off: DropInert's label parses back.
		{"see+qs-moves=none+stand-pat=false+see-prune=false+delta=false+qs-checks=false+qs-evasions=false",
			"see+qs-moves=none+stand-pat=false+see-prune=false+delta=false+qs-checks=false+qs-evasions=false", ""},
		{"see+qs-moves=none+stand-pat=false+see-prune=false+delta=false+qs-checks=false+qs-evasions=false+delta-margin=200", "",
			"switch delta-margin cannot apply to variant see"},
	}
	for _, tc := range tests {
		t.Run(tc.spec, func(t *testing.T) {
			o, err := ParseVariantSpec(tc.spec)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want it to contain %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := VariantSpec(o); got != tc.canon {
				t.Errorf("VariantSpec = %q, want %q", got, tc.canon)
			}
		})
	}
}

func TestParseVariantSpecs(t *testing.T) {
	os, err := ParseVariantSpecs("see, see+qs-checks=false ,threshold+qs-levels=6")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range os {
		got = append(got, VariantSpec(o))
	}
	if strings.Join(got, ",") != "see,see+qs-checks=false,threshold+qs-levels=6" {
		t.Errorf("got %v", got)
	}
	if os[1].QSChecks || !os[0].QSChecks || os[2].QSLevels != 6 {
		t.Errorf("switches not applied: %+v", os)
	}
	for _, bad := range []string{"", " , ", "see,see+qs-checks=true", "see,nosuch"} {
		if _, err := ParseVariantSpecs(bad); err == nil {
			t.Errorf("ParseVariantSpecs(%q): no error", bad)
		}
	}

	// Switches on top (a command's flags) are judged as a spec's own are,
	// and may make two specs one.
	for _, tc := range []struct {
		list  string
		onTop []Switch
		want  string // the error, or the canonical specs
	}{
		{"see,captures", []Switch{{"delta-margin", "200"}}, `variant spec "captures": switch delta-margin cannot apply to variant captures`},
		{"see+delta-margin=200", []Switch{{"delta", "false"}}, `variant spec "see+delta-margin=200": switch delta-margin cannot apply to variant see`},
		{"see", []Switch{{"delta", "false"}, {"delta-margin", "200"}}, "switch delta-margin cannot apply to variant see"},
		{"see,see+tt=false", []Switch{{"tt", "false"}}, "are both see+tt=false once the switches set on top"},
		{"see,captures", []Switch{{"tt", "false"}, {"hash", "16"}}, "switch hash cannot apply to variant see"},
		{"see+delta-margin=100,captures+delta=true", []Switch{{"qs-checks", "false"}},
			"see+delta-margin=100+qs-checks=false,captures+delta=true"},
		{"see", []Switch{{"delta-margin", "x"}}, `variant spec "see" with delta-margin=x: option delta-margin`},
	} {
		os, err := ParseVariantSpecs(tc.list, tc.onTop...)
		var got []string
		for _, o := range os {
			got = append(got, VariantSpec(o))
		}
		if err != nil && !strings.Contains(err.Error(), tc.want) || err == nil && strings.Join(got, ",") != tc.want {
			t.Errorf("ParseVariantSpecs(%q, %v) = %v, %v; want %q", tc.list, tc.onTop, got, err, tc.want)
		}
	}
}

// FuzzParseVariantSpec checks that the parser never panics, that an error
// is one line naming the spec, and that a parsed spec's canonical form
// parses back to the same options.
func FuzzParseVariantSpec(f *testing.F) {
	for _, s := range []string{"see", "see+qs-checks=false", "threshold+qs-levels=6+delta=true", "none+",
		"captures+qs-order=tutorial", "x+=", "see++", "see+hash=4096+max-qs-ply=1", "see+delta=x\ny", "see+a\nb=1+a\nb=2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		o, err := ParseVariantSpec(spec)
		if err != nil {
			if msg := err.Error(); strings.Contains(msg, "\n") || !strings.HasPrefix(msg, fmt.Sprintf("variant spec %q", spec)) {
				t.Fatalf("ParseVariantSpec(%q): error %q is not one line naming the spec", spec, msg)
			}
			return
		}
		c := VariantSpec(o)
		o2, err := ParseVariantSpec(c)
		if err != nil {
			t.Fatalf("canonical %q of %q does not parse: %v", c, spec, err)
		}
		if o2 != o {
			t.Fatalf("%q -> %q -> different options", spec, c)
		}
		if _, err := ParseVariantSpecs(spec); err != nil && !strings.Contains(spec, ",") {
			t.Fatalf("list of one valid spec %q fails: %v", spec, err)
		}
	})
}
