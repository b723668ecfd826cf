package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// newFlags returns a FlagSet for a subcommand whose --help prints the
// summary, the usage line, every flag and the examples.
func newFlags(e *env, name, usage, about string, examples ...string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {
		w := e.stdout
		fmt.Fprintf(w, "%s\n\n%s\n", strings.TrimSpace("Usage: horizon "+name+" "+usage), wrapHelp(strings.TrimSpace(about)))
		// A command without flags (uci) gets no empty "Flags:" heading.
		hasFlags := false
		fs.VisitAll(func(*flag.Flag) { hasFlags = true })
		if hasFlags {
			fmt.Fprintln(w, "\nFlags:")
			var b strings.Builder
			fs.SetOutput(&b)
			fs.PrintDefaults()
			fs.SetOutput(io.Discard)
			fmt.Fprint(w, wrapFlagHelp(b.String()))
		}
		if len(examples) > 0 {
			fmt.Fprintln(w, "\nExamples:")
			for _, ex := range examples {
				fmt.Fprintf(w, "  %s\n", ex)
			}
		}
	}
	return fs
}

// helpWidth is the width of a command's help text.
const helpWidth = 80

// wrapHelp lays out a command's help text at helpWidth columns: the lines
// of each run of prose (lines not indented) are joined and wrapped anew,
// so an edit never leaves a ragged paragraph; blank and indented lines
// (tables, lists, commands) stand as written.
func wrapHelp(text string) string {
	var out, prose []string
	flush := func() {
		if len(prose) > 0 {
			out = append(out, engine.Wrap(strings.Join(prose, " "), helpWidth)...)
			prose = nil
		}
	}
	for _, l := range strings.Split(text, "\n") {
		if l == "" || l[0] == ' ' || l[0] == '\t' {
			flush()
			out = append(out, l)
			continue
		}
		prose = append(prose, l)
	}
	flush()
	return strings.Join(out, "\n")
}

// flagIndent begins each line of a flag's text in flag.PrintDefaults'
// layout: eight columns on a terminal.
const flagIndent = "    \t"

// wrapFlagHelp lays out the flags' texts that flag.PrintDefaults wrote
// (defaults) at helpWidth columns under the same indent, as wrapHelp lays
// out prose: flag.PrintDefaults writes a flag's text as one line however
// long, and the lines of a text in several as they were cut.
func wrapFlagHelp(defaults string) string {
	var out, prose []string
	flush := func() {
		for _, w := range engine.Wrap(strings.Join(prose, " "), helpWidth-8) {
			out = append(out, flagIndent+w)
		}
		prose = nil
	}
	for _, l := range strings.Split(strings.TrimSuffix(defaults, "\n"), "\n") {
		if text, ok := strings.CutPrefix(l, flagIndent); ok && text != "" && text[0] != ' ' {
			prose = append(prose, text)
			continue
		}
		flush()
		out = append(out, l)
	}
	flush()
	return strings.Join(out, "\n") + "\n"
}

// parseFlags parses args, turning -h into errHelp (after printing help) and a
// bad flag into a usage error.
func parseFlags(fs *flag.FlagSet, args []string) error {
	// fs.Parse itself calls Usage on -h and on every bad flag; silence it so
	// that -h prints the help once and a bad flag prints only its error.
	usage := fs.Usage
	fs.Usage = func() {}
	restore := onceFlags(fs)
	err := fs.Parse(args)
	restore()
	fs.Usage = usage
	if err != nil {
		if err == flag.ErrHelp {
			usage()
			return errHelp
		}
		return usagef("%v", err)
	}
	return nil
}

// onceFlags makes every flag of fs refuse a second, different value
// while fs parses, until the returned func restores the flags' own values.
// The flag package keeps the last value silently: 'trace --engine A
// --engine B' traced B alone, '--qs see --qs captures' searched captures.
// The same value again is harmless and allowed. diff's --run, which takes
// two, and --run, which says so itself, keep their own Set. The values are
// wrapped for the parse only: --help's defaults are printed from the
// flags' own types.
func onceFlags(fs *flag.FlagSet) (restore func()) {
	given := map[string]bool{} // by an earlier parse of the same command line
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	orig := map[*flag.Flag]flag.Value{}
	fs.VisitAll(func(f *flag.Flag) {
		switch f.Value.(type) {
		case *runIDs, *runRef:
			return
		}
		orig[f] = f.Value
		o := onceValue{Value: f.Value, name: f.Name, given: given}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			f.Value = onceBool{o}
		} else {
			f.Value = o
		}
	})
	return func() {
		for f, v := range orig {
			f.Value = v
		}
	}
}

// onceValue is a flag's value that refuses a second, different one.
type onceValue struct {
	flag.Value
	name  string
	given map[string]bool
}

func (o onceValue) Set(s string) error {
	if o.given[o.name] {
		if prev := o.Value.String(); prev != s {
			hint := ""
			if o.name == "qs" {
				hint = fmt.Sprintf("; several variants are one comma-separated list: --qs %s,%s", prev, s)
			}
			return fmt.Errorf("given twice (%s, then %s): give one%s", prev, s, hint)
		}
	}
	o.given[o.name] = true
	return o.Value.Set(s)
}

// onceBool is onceValue for a boolean flag, which takes no argument.
type onceBool struct{ onceValue }

func (onceBool) IsBoolFlag() bool { return true }

// intRange is an int flag's value and the range it must lie in (hi 0:
// no upper bound), for checkRanges.
type intRange struct {
	name      string
	v, lo, hi int
}

// checkRanges is the usage error naming the first flag of rs out of its
// range ("--limit -1: want 0 or more"), nil when all are in theirs: one
// error per flag, where a line that listed every flag's range left the
// user to find which one was wrong.
func checkRanges(rs ...intRange) error {
	for _, r := range rs {
		switch {
		case r.hi == 0 && r.v < r.lo:
			return usagef("--%s %d: want %d or more", r.name, r.v, r.lo)
		case r.hi != 0 && (r.v < r.lo || r.v > r.hi):
			return usagef("--%s %d: want %d to %d", r.name, r.v, r.lo, r.hi)
		}
	}
	return nil
}

// parseNoArgs is parseFlags for the commands that take flags only: an
// argument left over is a usage error naming it.
func parseNoArgs(fs *flag.FlagSet, args []string) error {
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	return nil
}

// parseArgsAnywhere parses flags that may come before, between or after
// the positional arguments ("diff A.db --run 1 B.db --run 2") and returns
// the positional ones.
func parseArgsAnywhere(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := parseFlags(fs, args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// parseFileFlags parses args that hold flags and exactly one trace file, in
// any order ("stats FILE --run 2" as well as "stats --run 2 FILE").
func parseFileFlags(fs *flag.FlagSet, args []string) (string, error) {
	return parseOneArg(fs, args, "trace file")
}

// parseOneArg is parseFileFlags for one argument of another kind (what,
// as the usage error names it: "trace stream").
func parseOneArg(fs *flag.FlagSet, args []string, what string) (string, error) {
	files, err := parseArgsAnywhere(fs, args)
	if err != nil {
		return "", err
	}
	switch len(files) {
	case 0:
		return "", usagef("give a %s", what)
	case 1:
		return files[0], nil
	}
	return "", usagef("give one %s, not %d (%s)", what, len(files), strings.Join(files, ", "))
}

// flagGiven reports whether flag name was given on the command line (even
// with its default or an empty value).
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

// runFlag registers --run for a command that reads one run (or, left
// out, what absent says: "every run", "the file's last run"): a run id, or
// the id of an EPD record (trace --epd keeps it; runs shows it before the
// FEN) for that record's runs. Given twice it is a usage error naming both
// values, where the flag package kept the last one silently ("check FILE
// --run 1 --run 2" checked run 2 alone). --run 0 is refused with the words
// to use: it meant every run to some commands and the last to others, and
// to diff no run. diff, which takes two runs, has its own flag.
func runFlag(fs *flag.FlagSet, usage, absent string) *runRef {
	r := &runRef{absent: absent}
	fs.Var(r, "run", usage+"; without --run: "+absent)
	return r
}

// runRef is a --run value: a run id (0 when not given), or an EPD
// record's id: a value that is not a number.
type runRef struct {
	id     int64
	epd    string
	text   string // as given
	absent string // what the command reads without --run
}

func (r *runRef) String() string {
	if r == nil || r.text == "" {
		return "0"
	}
	return r.text
}

func (r *runRef) Set(s string) error {
	if r.text != "" {
		return fmt.Errorf("given twice (%s, then %s): give one", r.text, s)
	}
	switch n, err := strconv.ParseInt(s, 10, 64); {
	case strings.TrimSpace(s) == "":
		return fmt.Errorf("want a run id or an EPD record's id")
	case err == nil && n < 0:
		return fmt.Errorf("want a run id (1, 2, ...) or an EPD record's id")
	case err == nil && n == 0:
		return fmt.Errorf("runs are numbered from 1; for %s leave --run out", r.absent)
	case err == nil:
		r.id = n
	default:
		r.epd = s
	}
	r.text = s
	return nil
}

// runs returns the runs r names in st: its one run, every run of its EPD
// record, or every run for 0. An id no run has is an error naming file.
func (r *runRef) runs(ctx context.Context, st *trace.Store, file string) ([]trace.Run, error) {
	if r.epd == "" && r.id != 0 {
		run, err := st.Run(ctx, r.id)
		if err != nil {
			return nil, err
		}
		return []trace.Run{run}, nil
	}
	all, err := st.Runs(ctx)
	if err != nil || r.epd == "" {
		return all, err
	}
	var out []trace.Run
	for _, run := range all {
		if run.EPDID == r.epd {
			out = append(out, run)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--run %s: %s has no run of an EPD record with that id ('horizon runs %s' lists runs and ids)", r.epd, file, shellQuote(file))
	}
	return out, nil
}

// one returns the run id r names for a command that reads one run: its
// id (0 for the command's default), or the one run of its EPD record; a
// record with several runs (one per variant) is an error listing them.
func (r *runRef) one(ctx context.Context, st *trace.Store, file string) (int64, error) {
	if r.epd == "" {
		return r.id, nil
	}
	runs, err := r.runs(ctx, st, file)
	if err != nil {
		return 0, err
	}
	if len(runs) > 1 {
		return 0, usagef("--run %s names %d runs of %s (%s): give one by its number", r.epd, len(runs), file, trace.RunList(runs))
	}
	return runs[0].ID, nil
}

// maxJobs is the most searches a command runs at once: the CPUs Go may
// use. Each search runs on one CPU, so more jobs are no faster, and each
// holds its own search tables: 'compare --jobs 5000' and 'qsbench --jobs
// 5000' ran out of memory.
func maxJobs() int { return runtime.GOMAXPROCS(0) }

// jobsFlag registers a command's --jobs: what is what runs at once
// ("positions searched"). It defaults to maxJobs, and its help says the
// cap.
func jobsFlag(fs *flag.FlagSet, what string) *int {
	return fs.Int("jobs", maxJobs(), fmt.Sprintf("%s at once, 1 to %d (the CPUs here: each takes one; more would only take memory)", what, maxJobs()))
}

// capJobs checks --jobs (at least 1, a usage error otherwise) and lowers
// it to maxJobs with a note saying so.
func (e *env) capJobs(jobs *int) error {
	if err := checkRanges(intRange{"jobs", *jobs, 1, 0}); err != nil {
		return err
	}
	if m := maxJobs(); *jobs > m {
		e.notef("--jobs %d: running %d at once, the CPUs here (each search takes one; more would only take memory)", *jobs, m)
		*jobs = m
	}
	return nil
}
