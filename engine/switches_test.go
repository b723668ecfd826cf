package engine

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

// switchProbe says how the switch table sets one switch away from a
// preset's value, and where: the position and depth that exercise it.
type switchProbe struct {
	value func(o Options) string // the value to set, given the preset's options
	fen   string
	depth int
}

func flipBool(name string) func(Options) string {
	return func(o Options) string {
		spec := optionSpec(name)
		b, _ := strconv.ParseBool(spec.Get(&o))
		return strconv.FormatBool(!b)
	}
}

func optionSpec(name string) OptionSpec { return optionSpecByName(name) }

// switchProbes covers every switch of OptionSpecs; TestSwitchTable fails
// when one is missing, so a new switch must say how it is tested.
var switchProbes = map[string]switchProbe{
	"qs-moves": {value: func(o Options) string {
		if o.QSMoves == QSRecaptures {
			return "captures"
		}
		return "recaptures"
	}},
	"qs-order": {value: func(o Options) string {
		if o.Ordering == OrderMVVLVA {
			return "tutorial"
		}
		return "mvv-lva"
	}},
	"stand-pat":   {value: flipBool("stand-pat")},
	"see-prune":   {value: flipBool("see-prune")},
	"delta":       {value: flipBool("delta")},
	"qs-checks":   {value: flipBool("qs-checks")},
	"qs-evasions": {value: flipBool("qs-evasions")},
	"qs-levels": {value: func(o Options) string {
		if o.QSLevels == 0 {
			return "4"
		}
		return "1"
	}},
	"qs-threshold":  {value: func(Options) string { return "300" }},
	"recapture-ext": {value: flipBool("recapture-ext")},
	"delay-penalty": {value: flipBool("delay-penalty")},
	"unified":       {value: flipBool("unified")},
	"pvs":           {value: flipBool("pvs")},
	// At depth 3 Kiwipete's tree has no transposition the table answers.
	"tt":        {value: flipBool("tt"), fen: kiwipete, depth: 4},
	"check-ext": {value: flipBool("check-ext")},
	// Kiwipete's cutoffs at depth 3 are all captures: quiet cutoffs, which
	// feed killers and history, need a quiet position and more depth.
	"killers": {value: flipBool("killers"), fen: StartFEN, depth: 5},
	"history": {value: flipBool("history"), fen: StartFEN, depth: 5},
	// Parameters: each is tested with its switch on where the preset has it.
	"delta-margin": {value: func(Options) string { return "50" }},
	"max-qs-ply":   {value: func(Options) string { return "2" }},
	// The table's size changes the tree only once entries collide, which a
	// tree of this size hardly does: hash is exercised by the TT tests.
	"hash": {},
}

// TestSwitchTable is issue 11's table as a test: for every preset (every
// routine: search, qsearch, threshold QS, unified) and every switch, the
// switch set away from the preset's value is either refused by Validate,
// with a message naming the switch and the variant, or changes the tree
// (its hash over every traced event) on a position that exercises it. A
// switch that some routine ignores fails here.
func TestSwitchTable(t *testing.T) {
	for _, spec := range optionSpecs {
		if _, ok := switchProbes[spec.Name]; !ok {
			t.Fatalf("switch %s has no probe in switchProbes", spec.Name)
		}
	}
	var table strings.Builder
	fmt.Fprintf(&table, "%-10s", "variant")
	for _, spec := range optionSpecs {
		fmt.Fprintf(&table, " %s", spec.Name)
	}
	table.WriteString("\n")
	search := func(o Options, fen string, depth int) (uint64, int64) {
		var h hashTracer
		r := NewSearcher(o).Search(context.Background(), MustParseFEN(fen), Limits{Depth: depth, Nodes: 300_000}, &h)
		return h.h, r.Stats.Nodes
	}
	for _, v := range VariantNames() {
		fmt.Fprintf(&table, "%-10s", v)
		for _, spec := range optionSpecs {
			probe := switchProbes[spec.Name]
			if probe.value == nil {
				fmt.Fprintf(&table, " %s", strings.Repeat("-", len(spec.Name)))
				continue
			}
			fen, depth := probe.fen, probe.depth
			if fen == "" {
				fen, depth = kiwipete, 3
			}
			o := mustVariant(v)
			o.TT = false
			if spec.Name == "delta-margin" {
				o.DeltaPrune = o.DeltaPrune || o.HasQS()
			}
			if spec.Name == "qs-threshold" && o.QSLevels == 0 && !o.Unified && o.HasQS() {
				o.QSLevels = 4
			}
			if err := o.Validate(); err != nil {
				t.Fatalf("%s: the table's base is refused: %v", v, err)
			}
			flipped := o
			val := probe.value(o)
			if err := flipped.Set(spec.Name, val); err != nil {
				t.Fatal(err)
			}
			if err := flipped.Validate(); err != nil {
				if !strings.Contains(err.Error(), "switch "+spec.Name+" ") || !strings.Contains(err.Error(), "variant "+v) {
					t.Errorf("%s %s=%s: refusal %q does not name the switch and the variant", v, spec.Name, val, err)
				}
				fmt.Fprintf(&table, " %*s", len(spec.Name), "refused")
				continue
			}
			hb, nb := search(o, fen, depth)
			hf, nf := search(flipped, fen, depth)
			if hb == hf {
				t.Errorf("%s: %s=%s is accepted but leaves the tree unchanged (%d nodes)", v, spec.Name, val, nb)
			}
			fmt.Fprintf(&table, " %*s", len(spec.Name), fmt.Sprintf("%d>%d", nb, nf))
		}
		table.WriteString("\n")
	}
	t.Logf("switch table (base nodes > switched nodes; Kiwipete depth 3, TT off):\n%s", table.String())
}

// TestValidatePresets: every preset is a valid combination, and refusals
// are one line naming the switch and the variant.
func TestValidate(t *testing.T) {
	for _, v := range VariantNames() {
		if err := mustVariant(v).Validate(); err != nil {
			t.Errorf("preset %s refused: %v", v, err)
		}
	}
	// set is switch=value pairs applied in order; sw is the switch the
	// refusal names (the one set away from the preset) and needs what it
	// says that switch needs.
	for _, tc := range []struct{ variant, set, sw, needs string }{
		{"none", "see-prune=true", "see-prune", "see-prune needs qs-moves other than none"},
		{"none", "stand-pat=true", "stand-pat", "stand-pat needs qs-moves other than none"},
		{"none", "qs-evasions=true", "qs-evasions", "qs-evasions needs qs-moves other than none"},
		{"none", "qs-levels=3", "qs-levels", "qs-levels needs qs-moves other than none"},
		{"none", "max-qs-ply=10", "max-qs-ply", "max-qs-ply needs qs-moves other than none"},
		{"see", "qs-moves=none", "qs-moves", "stand-pat needs qs-moves other than none"},
		{"unified", "qs-levels=3", "qs-levels", "qs-levels needs unified false"},
		{"threshold", "unified=true", "unified", "qs-levels needs unified false"},
		{"mvv-lva", "qs-threshold=200", "qs-threshold", "qs-threshold needs qs-levels above 0"},
		{"threshold", "qs-threshold=200,qs-levels=0", "qs-threshold", "qs-threshold needs qs-levels above 0"},
		{"mvv-lva", "delta-margin=100", "delta-margin", "delta-margin needs delta true"},
		{"see", "delta=false,delta-margin=50", "delta-margin", "delta-margin needs delta true"},
		{"see", "tt=false,hash=64", "hash", "hash needs tt true"},
		{"see", "hash=64,tt=false", "hash", "hash needs tt true"},
	} {
		o := withSwitches(t, tc.variant, tc.set)
		err := o.Validate()
		if err == nil {
			t.Errorf("%s %s accepted", tc.variant, tc.set)
			continue
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, "switch "+tc.sw+" cannot apply to variant "+tc.variant+": ") ||
			!strings.Contains(msg, tc.needs) || strings.Contains(msg, "\n") {
			t.Errorf("%s %s: %q, want it to name %s and say %q", tc.variant, tc.set, msg, tc.sw, tc.needs)
		}
		// The same options through DropInert are valid, with the
		// switch it names, or the one its parent leaves without effect,
		// set back.
		d, dropped := o.DropInert()
		if err := d.Validate(); err != nil || len(dropped) == 0 {
			t.Errorf("%s %s: DropInert left %v (dropped %v)", tc.variant, tc.set, err, dropped)
		}
	}
	// A parent off with its child at the inert value is no conflict.
	for _, spec := range []string{"see+tt=false", "see+delta=false", "mvv-lva+hash=64", "see+delta-margin=50", "none+qs-moves=captures"} {
		if _, err := ParseVariantSpec(spec); err != nil {
			t.Errorf("%s refused: %v", spec, err)
		}
	}
}

// withSwitches returns the preset variant with set, switch=value pairs
// separated by commas, applied in order.
func withSwitches(t *testing.T, variant, set string) Options {
	t.Helper()
	o := mustVariant(variant)
	for _, kv := range strings.Split(set, ",") {
		k, v, _ := strings.Cut(kv, "=")
		if err := o.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	return o
}

// TestDropInert: what DropInert sets back and what it leaves, for the
// options a UCI GUI may send in any order.
func TestDropInert(t *testing.T) {
	for _, tc := range []struct {
		variant, set string
		want         string // the canonical spec after DropInert
		dropped      []string
	}{
		{"see", "tt=false,hash=64", "see+tt=false", []string{"hash"}},
		{"see", "hash=64", "see+hash=64", nil},
		{"mvv-lva", "delta-margin=50", "mvv-lva", []string{"delta-margin"}},
		{"see", "qs-moves=none", "see+qs-moves=none+stand-pat=false+see-prune=false+delta=false+qs-checks=false+qs-evasions=false",
			[]string{"stand-pat", "see-prune", "delta", "qs-checks", "qs-evasions"}},
		{"see", "qs-moves=none,delta-margin=50", "see+qs-moves=none+stand-pat=false+see-prune=false+delta=false+qs-checks=false+qs-evasions=false",
			[]string{"stand-pat", "see-prune", "delta", "qs-checks", "qs-evasions", "delta-margin"}},
		{"threshold", "unified=true,qs-threshold=100", "threshold+qs-levels=0+unified=true", []string{"qs-levels", "qs-threshold"}},
	} {
		o := withSwitches(t, tc.variant, tc.set)
		d, dropped := o.DropInert()
		var names []string
		for _, in := range dropped {
			names = append(names, in.Switch)
			if !strings.HasPrefix(in.Reason(), in.Switch+" needs ") || in.Value == "" {
				t.Errorf("%s %s: dropped %+v", tc.variant, tc.set, in)
			}
		}
		if got := VariantSpec(d); got != tc.want || !slices.Equal(names, tc.dropped) || d.Validate() != nil {
			t.Errorf("%s %s: DropInert gives %s dropping %v, want %s dropping %v", tc.variant, tc.set, got, names, tc.want, tc.dropped)
		}
	}
}
