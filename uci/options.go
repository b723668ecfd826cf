package uci

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/horizonqs/horizon/engine"
)

// DefaultVariant is the QS preset a session starts with.
const DefaultVariant = "see"

// DefaultTraceMaxNodes bounds a traced search unless TraceMaxNodes says
// otherwise: about a million rows keeps a trace file in the tens of MiB.
const DefaultTraceMaxNodes = 1_000_000

// maxSpin is the largest spin value offered: GUIs store spins in 32 bits.
const maxSpin = 1<<31 - 1

// Preset is the value of a switch option that means "the QSVariant
// preset's own value": the default of every switch, so that a GUI that
// sends every option at its default (as many do at startup) leaves the
// preset it chose exactly as it is. A spin option says it with presetSpin.
const Preset = "preset"

// presetSpin is a spin switch's Preset: spins hold numbers only.
const presetSpin = -1

// option is one UCI option. Engine switches keep the engine's name (spec):
// a value other than Preset set here overrides the QSVariant preset's.
type option struct {
	name string // as shown to the GUI
	typ  string // check, spin, combo, string
	def  string
	vars []string // combo values
	min  int
	max  int
	spec string // engine.OptionSpec name, "" for the session's own options
	// preset: the option offers Preset (a combo's var, a spin's
	// presetSpin), which check returns as Preset.
	preset bool
	help   string
}

// acronyms are the parts of engine option names written in capitals in
// UCI names (qs-levels -> QSLevels).
var acronyms = map[string]string{"qs": "QS", "see": "SEE", "pvs": "PVS", "tt": "TT"}

// uciName turns an engine flag name such as "max-qs-ply" into the CamelCase
// a GUI shows ("MaxQSPly").
func uciName(flag string) string {
	var b strings.Builder
	for _, part := range strings.Split(flag, "-") {
		if a, ok := acronyms[part]; ok {
			b.WriteString(a)
		} else if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}

// normName folds an option name for lookup: UCI option names are case
// insensitive, and the engine's flag spelling (qs-levels) is accepted too.
func normName(s string) string {
	s = strings.ToLower(s)
	return strings.NewReplacer("-", "", "_", "", " ", "").Replace(s)
}

// buildOptions lists the options in the order `uci` announces them. The
// switches come from engine.OptionSpecs, the one table of them: each
// defaults to Preset, and offers the values of its kind besides (a check
// switch is a combo of preset, true and false: a check holds no third
// value). Hash, which GUIs know as a spin of MiB, keeps the number def
// gives it (every preset's).
func buildOptions(def engine.Options) []option {
	opts := []option{
		{name: "QSVariant", typ: "combo", def: DefaultVariant, vars: engine.VariantNames(),
			help: "QS preset; a switch set to other than preset overrides its value"},
		{name: "Hash", typ: "spin", def: strconv.Itoa(def.HashMB), min: 1, max: 4096, spec: "hash",
			help: "transposition table size in MiB (cleared at every go, so searches are reproducible)"},
		{name: "Trace", typ: "string", def: "",
			help: "trace file: every go is recorded there as a run (empty: no tracing)"},
		{name: "TraceMaxNodes", typ: "spin", def: strconv.Itoa(DefaultTraceMaxNodes), min: 0, max: maxSpin,
			help: "a traced search's recording stops after this many nodes, the search goes on unrecorded (0: no limit)"},
	}
	for _, s := range engine.OptionSpecs() {
		if s.Name == "hash" {
			continue // announced above under the name GUIs know
		}
		o := option{name: uciName(s.Name), def: Preset, spec: s.Name, preset: true, help: s.Usage}
		switch s.Kind {
		case "bool":
			o.typ, o.vars = "combo", []string{Preset, "true", "false"}
		case "int":
			o.typ, o.min, o.max = "spin", presetSpin, min(s.Max, maxSpin)
			o.def = strconv.Itoa(presetSpin)
			o.help += fmt.Sprintf(" (%d: the preset's value)", presetSpin)
		case "enum":
			o.typ, o.vars = "combo", append([]string{Preset}, s.Enum...)
		default:
			continue // a kind this package does not know how to offer
		}
		opts = append(opts, o)
	}
	return opts
}

// line returns the `option ...` line announcing o.
func (o option) line() string {
	var b strings.Builder
	fmt.Fprintf(&b, "option name %s type %s", o.name, o.typ)
	switch o.typ {
	case "check", "combo":
		fmt.Fprintf(&b, " default %s", o.def)
	case "spin":
		fmt.Fprintf(&b, " default %s min %d max %d", o.def, o.min, o.max)
	case "string":
		d := o.def
		if d == "" {
			d = "<empty>"
		}
		fmt.Fprintf(&b, " default %s", d)
	}
	for _, v := range o.vars {
		fmt.Fprintf(&b, " var %s", v)
	}
	return b.String()
}

// check validates a value for o and returns it in canonical form.
func (o option) check(v string) (string, error) {
	switch o.typ {
	case "check":
		switch strings.ToLower(v) {
		case "true":
			return "true", nil
		case "false":
			return "false", nil
		}
		return "", fmt.Errorf("option %s: value %q is not true or false", o.name, v)
	case "spin":
		n, err := strconv.Atoi(v)
		if err != nil || n < o.min || n > o.max {
			if o.preset {
				return "", fmt.Errorf("option %s: value %q is not a whole number from %d to %d (%d: the preset's value)",
					o.name, v, o.min, o.max, presetSpin)
			}
			return "", fmt.Errorf("option %s: value %q is not a whole number from %d to %d", o.name, v, o.min, o.max)
		}
		if o.preset && n == presetSpin {
			return Preset, nil
		}
		return strconv.Itoa(n), nil
	case "combo":
		for _, x := range o.vars {
			if strings.EqualFold(x, v) {
				return x, nil
			}
		}
		return "", fmt.Errorf("option %s: value %q is not one of %s", o.name, v, strings.Join(o.vars, ", "))
	}
	if v == "<empty>" {
		return "", nil
	}
	return v, nil
}

// optionNames lists the announced names, sorted, for error messages.
func optionNames(opts []option) string {
	names := make([]string, len(opts))
	for i, o := range opts {
		names[i] = o.name
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// withOverrides returns the preset variant with overrides (engine option
// name -> value) applied, in OptionSpecs order, as the search runs them: a
// switch that the one it needs leaves without effect (delta-margin with
// delta off, Hash with TT off) is set back (engine.Options.DropInert) and
// listed in inert. It is not refused: a GUI sends every option in an
// order of its own (Hash comes before TT), and a value refused would be
// lost when the switch it needs is turned on later; it is kept in the
// overrides, as engines keep UCI_Elo while UCI_LimitStrength is off. The
// error is the engine's word on the combination (engine.Options.Validate).
func withOverrides(variant string, overrides map[string]string) (o engine.Options, inert []engine.Inert, err error) {
	o, err = engine.VariantOptions(variant)
	if err != nil {
		return o, nil, err
	}
	for _, s := range engine.OptionSpecs() {
		if v, ok := overrides[s.Name]; ok {
			if err := o.Set(s.Name, v); err != nil {
				return o, nil, err
			}
		}
	}
	o, inert = o.DropInert()
	return o, inert, o.Validate()
}
