package engine

import (
	"fmt"
	"slices"
	"strings"
)

// A variant spec names a QS variant with switches set on top of its preset:
// "see", "see+qs-checks=false", "threshold+qs-levels=6+delta=true". The
// switch names and values are those of OptionSpecs (the flags of every
// search command), set through Options.Set, so a switch has one name
// everywhere.

// ParseVariantSpec parses one variant spec: a preset name, then
// "+switch=value" for each switch to change. A switch may be given once,
// and the result must pass Options.Validate, which judges every switch the
// spec names as set whatever its value (captures+delta-margin=200 is
// refused: captures has no delta pruning for a margin to apply to).
func ParseVariantSpec(spec string) (Options, error) {
	return parseVariantSpec(spec, nil)
}

// A Switch is one switch set by name, as a command's switch flag sets it
// on top of every variant spec (--delta false).
type Switch struct{ Name, Value string }

func parseVariantSpec(spec string, onTop []Switch) (Options, error) {
	parts := strings.Split(strings.TrimSpace(spec), "+")
	name := strings.TrimSpace(parts[0])
	if name == "" {
		return Options{}, fmt.Errorf("variant spec %q: want a preset name first, like see+qs-checks=false", spec)
	}
	o, err := VariantOptions(name)
	if err != nil {
		return o, fmt.Errorf("variant spec %q: %v", spec, err)
	}
	var given []string
	for _, kv := range parts[1:] {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok || k == "" || v == "" {
			return o, fmt.Errorf("variant spec %q: %q is not switch=value", spec, kv)
		}
		if slices.Contains(given, k) {
			return o, fmt.Errorf("variant spec %q: switch %s given twice", spec, k)
		}
		given = append(given, k)
		if err := o.Set(k, v); err != nil {
			return o, fmt.Errorf("variant spec %q: %v", spec, err)
		}
	}
	for _, sw := range onTop {
		if err := o.Set(sw.Name, sw.Value); err != nil {
			return o, fmt.Errorf("variant spec %q with %s=%s: %v", spec, sw.Name, sw.Value, err)
		}
		given = append(given, sw.Name)
	}
	if err := o.Validate(given...); err != nil {
		return o, fmt.Errorf("variant spec %q: %v", spec, err)
	}
	return o, nil
}

// VariantSpec returns the canonical spec of o: its preset name and every
// switch whose value differs from the preset's, in OptionSpecs order.
// ParseVariantSpec(VariantSpec(o)) gives o back.
func VariantSpec(o Options) string {
	p, err := VariantOptions(o.Variant)
	if err != nil {
		return o.String() // not from a preset: every switch spelled out
	}
	var b strings.Builder
	b.WriteString(o.Variant)
	for _, s := range optionSpecs {
		if v := s.get(&o); v != s.get(&p) {
			b.WriteString("+" + s.Name + "=" + v)
		}
	}
	return b.String()
}

// ParseVariantSpecs parses a comma-separated list of variant specs,
// rejecting an empty list and two specs that name the same options. The
// switches of onTop (a command's switch flags) are set on every spec after
// its own and judged by Validate as the spec's own are.
func ParseVariantSpecs(list string, onTop ...Switch) ([]Options, error) {
	seen := map[string]string{}
	return variantList(list, "valid presets", func(spec string) (Options, error) {
		o, err := parseVariantSpec(spec, onTop)
		if err != nil {
			return o, err
		}
		c := VariantSpec(o)
		if prev, dup := seen[c]; dup {
			if len(onTop) > 0 {
				return o, fmt.Errorf("variant specs %q and %q are both %s once the switches set on top of every spec are applied", prev, spec, c)
			}
			return o, fmt.Errorf("variant specs %q and %q name the same options (%s)", prev, spec, c)
		}
		seen[c] = spec
		return o, nil
	})
}
