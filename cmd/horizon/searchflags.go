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
	defDepth int // the depth searched when no limit is given
	fs       *flag.FlagSet
	switches map[string]*string
}

// addSearchFlags registers the shared flags; defQS is the default --qs and
// defDepth the depth searched when the user gives no limit at all.
func addSearchFlags(fs *flag.FlagSet, defQS string, defDepth int) *searchFlags {
	sf := &searchFlags{fs: fs, defDepth: defDepth, switches: map[string]*string{}}
	fs.StringVar(&sf.qs, "qs", defQS, "QS variant(s), comma-separated, each a preset with switches set on top if wanted (see+see-prune=false); 'horizon variants' lists them")
	// The default depth is not the flag's default: a --nodes or --movetime
	// given alone must not be cut short by a depth the user never asked for.
	fs.IntVar(&sf.depth, "depth", 0, fmt.Sprintf("search depth in plies (iterations of iterative deepening); "+
		"with no --depth, --nodes or --movetime: %d. Limits given together stop the search at the first reached", defDepth))
	fs.Int64Var(&sf.nodes, "nodes", 0, "stop the search after this many nodes (alone: no depth limit)")
	fs.Var((*durationFlag)(&sf.movetime), "movetime", "stop the search after this `duration`, like 5s or 500ms (alone: no depth limit)")
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

// searchJob is what a searching command's flags ask for: every position
// searched with every variant, within the limits.
type searchJob struct {
	positions []engine.EPD
	opts      []engine.Options
	lim       engine.Limits
}

// job checks the variants and limits and loads the positions of pf.
func (sf *searchFlags) job(pf *positionFlags) (searchJob, error) {
	opts, err := sf.options()
	if err != nil {
		return searchJob{}, err
	}
	lim, err := sf.limits()
	if err != nil {
		return searchJob{}, err
	}
	positions, err := pf.load()
	return searchJob{positions, opts, lim}, err
}

// options returns one Options per variant in --qs, with every switch the
// user set explicitly applied on top of each preset. A switch flag is
// judged set whatever its value (engine.Options.Validate): --delta false
// --delta-margin 200 is refused as --delta-margin 50 is.
func (sf *searchFlags) options() ([]engine.Options, error) {
	// The specs alone first, so that a mistake in --qs is blamed on --qs.
	if _, err := engine.ParseVariantSpecs(sf.qs); err != nil {
		return nil, usagef("--qs: %v", err)
	}
	var onTop []engine.Switch
	var serr error
	sf.fs.Visit(func(f *flag.Flag) {
		if v, ok := sf.switches[f.Name]; ok && serr == nil {
			var probe engine.Options
			if err := probe.Set(f.Name, *v); err != nil {
				serr = usagef("--%s: %v", f.Name, err)
				return
			}
			onTop = append(onTop, engine.Switch{Name: f.Name, Value: *v})
		}
	})
	if serr != nil {
		return nil, serr
	}
	opts, err := engine.ParseVariantSpecs(sf.qs, onTop...)
	if err != nil {
		return nil, usagef("%v", err)
	}
	return opts, nil
}

// limits returns the search limits the user asked for, checking them. The
// default depth applies only when no limit at all is given: a node or time
// limit alone searches as deep as it lets.
func (sf *searchFlags) limits() (engine.Limits, error) {
	given := map[string]bool{}
	sf.fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if given["depth"] && (sf.depth < 1 || sf.depth >= engine.MaxPly) {
		return engine.Limits{}, usagef("--depth %d: want 1 to %d (for no depth limit give --nodes or --movetime alone)", sf.depth, engine.MaxPly-1)
	}
	if given["nodes"] && sf.nodes < 1 {
		return engine.Limits{}, usagef("--nodes %d: want a positive number", sf.nodes)
	}
	if given["movetime"] && sf.movetime <= 0 {
		return engine.Limits{}, usagef("--movetime %s: want a positive duration", sf.movetime)
	}
	lim := engine.Limits{Depth: sf.depth, Nodes: sf.nodes, MoveTime: sf.movetime}
	if lim == (engine.Limits{}) {
		lim.Depth = sf.defDepth
	}
	return lim, nil
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
