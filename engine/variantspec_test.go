package engine

import (
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
}

// FuzzParseVariantSpec checks that the parser never panics and that a
// parsed spec's canonical form parses back to the same options.
func FuzzParseVariantSpec(f *testing.F) {
	for _, s := range []string{"see", "see+qs-checks=false", "threshold+qs-levels=6+delta=true", "none+",
		"captures+qs-order=tutorial", "x+=", "see++", "see+hash=4096+max-qs-ply=1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		o, err := ParseVariantSpec(spec)
		if err != nil {
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
