package engine

import (
	"encoding/json"
	"testing"
)

// TestOptionsJSONRoundTrip: every preset, and a preset with switches set on
// top, reads back from its JSON as it was; typed and string values both read.
func TestOptionsJSONRoundTrip(t *testing.T) {
	cases := Variants()
	tweaked := mustVariant("threshold")
	tweaked.Variant = "threshold"
	if err := tweaked.Set("qs-levels", "6"); err != nil {
		t.Fatal(err)
	}
	tweaked.StandPat = false
	cases = append(cases, Variant{Name: "threshold", Options: tweaked})
	for _, v := range cases {
		o := v.Options
		o.Variant = v.Name
		b, err := json.Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		var back Options
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if back != o {
			t.Errorf("%s: read back as %+v, want %+v", b, back, o)
		}
	}
	o, err := ParseOptionsJSON(`{"qs-levels": "6", "tt": "false"}`, "threshold")
	if err != nil || o.QSLevels != 6 || o.TT || o.Variant != "threshold" {
		t.Errorf("string values and default variant: %+v, %v", o, err)
	}
	if _, err := ParseOptionsJSON(`{"variant": "see", "no-such": 1}`, ""); err == nil {
		t.Error("an unknown switch was accepted")
	}
}
