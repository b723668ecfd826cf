package viewer

import (
	"testing"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// TestUsesLevels: the tree shows QS levels when the run's options give its
// QS levels, whatever the variant is named (issue 11 item 5).
func TestUsesLevels(t *testing.T) {
	opts := func(variant string, levels int) string {
		o, err := engine.VariantOptions(variant)
		if err != nil {
			t.Fatal(err)
		}
		o.QSLevels = levels
		return o.JSON()
	}
	for _, tc := range []struct {
		name string
		run  trace.Run
		want bool
	}{
		{"captures --qs-levels 3", trace.Run{Variant: "captures", Options: opts("captures", 3)}, true},
		{"threshold --qs-levels 0", trace.Run{Variant: "threshold", Options: opts("threshold", 0)}, false},
		{"threshold preset", trace.Run{Variant: "threshold", Options: "{}"}, true},
		{"another engine named threshold", trace.Run{Variant: "threshold", Engine: "threshold", Options: `{"moves":"legal"}`}, false},
		{"unreadable options", trace.Run{Variant: "threshold", Options: `{"warp":9}`}, false},
	} {
		if got := usesLevels(tc.run); got != tc.want {
			t.Errorf("%s: uses levels %v, want %v", tc.name, got, tc.want)
		}
	}
}
