package main

import (
	"flag"
	"fmt"
	"time"

	"github.com/horizonqs/horizon/engine"
)

// searchFlags are the flags every command that runs a search shares: the QS
// variants, limits, and one flag per engine switch so that a user can set
// any switch on top of a preset (--qs threshold --qs-levels 6).
type searchFlags struct {
	qs       string
	depth    int
	nodes    int64
	movetime time.Duration
	fs       *flag.FlagSet
	switches map[string]*string
}

// addSearchFlags registers the shared flags; defQS is the default --qs.
func addSearchFlags(fs *flag.FlagSet, defQS string, defDepth int) *searchFlags {
	sf := &searchFlags{fs: fs, switches: map[string]*string{}}
	fs.StringVar(&sf.qs, "qs", defQS, "QS variant(s), comma-separated; 'horizon variants' lists them")
	fs.IntVar(&sf.depth, "depth", defDepth, "search depth in plies (iterations of iterative deepening)")
	fs.Int64Var(&sf.nodes, "nodes", 0, "stop the search after this many nodes (0 = no limit)")
	fs.Var((*durationFlag)(&sf.movetime), "movetime", "stop the search after this `duration`, like 5s or 500ms (0 = no limit)")
	for _, spec := range engine.OptionSpecs() {
		v := new(string)
		sf.switches[spec.Name] = v
		usage := spec.Usage + " (" + spec.Kind
		if spec.Kind == "enum" {
			usage += ": " + fmt.Sprint(spec.Enum)
		}
		usage += "; default: the variant's)"
		fs.StringVar(v, spec.Name, "", usage)
	}
	return sf
}

// parse returns the options of every variant in --qs and the limits.
func (sf *searchFlags) parse() ([]engine.Options, engine.Limits, error) {
	opts, err := sf.options()
	if err != nil {
		return nil, engine.Limits{}, err
	}
	lim, err := sf.limits()
	return opts, lim, err
}

// options returns one Options per variant in --qs, with every switch the
// user set explicitly applied on top of each preset.
func (sf *searchFlags) options() ([]engine.Options, error) {
	opts, err := engine.ParseVariantList(sf.qs)
	if err != nil {
		return nil, usagef("--qs: %v", err)
	}
	var serr error
	sf.fs.Visit(func(f *flag.Flag) {
		if v, ok := sf.switches[f.Name]; ok && serr == nil {
			for i := range opts {
				if err := opts[i].Set(f.Name, *v); err != nil {
					serr = usagef("--%s: %v", f.Name, err)
					return
				}
			}
		}
	})
	if serr != nil {
		return nil, serr
	}
	for _, o := range opts {
		if err := o.Validate(); err != nil {
			return nil, usagef("%v", err)
		}
	}
	return opts, nil
}

// limits returns the search limits, checking them.
func (sf *searchFlags) limits() (engine.Limits, error) {
	if sf.depth < 0 || sf.depth >= engine.MaxPly {
		return engine.Limits{}, usagef("--depth %d: want 1 to %d (0 for no depth limit)", sf.depth, engine.MaxPly-1)
	}
	if sf.nodes < 0 {
		return engine.Limits{}, usagef("--nodes %d: want a positive number", sf.nodes)
	}
	if sf.depth == 0 && sf.nodes == 0 && sf.movetime == 0 {
		return engine.Limits{}, usagef("no limit: give --depth, --nodes or --movetime")
	}
	return engine.Limits{Depth: sf.depth, Nodes: sf.nodes, MoveTime: sf.movetime}, nil
}

// durationFlag is a time.Duration flag whose error teaches the format: a
// bare number, the commonest slip, gets a hint instead of "parse error".
type durationFlag time.Duration

func (d *durationFlag) String() string { return time.Duration(*d).String() }

func (d *durationFlag) Set(v string) error {
	t, err := time.ParseDuration(v)
	if err != nil {
		return fmt.Errorf("%q is not a duration: give a number with a unit, like 5s, 500ms or 1m30s", v)
	}
	if t < 0 {
		return fmt.Errorf("%q: want a positive duration", v)
	}
	*d = durationFlag(t)
	return nil
}
