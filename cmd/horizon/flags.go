package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// newFlags returns a FlagSet for a subcommand whose --help prints the
// summary, the usage line, every flag and the examples.
func newFlags(e *env, name, usage, about string, examples ...string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {
		w := e.stdout
		fmt.Fprintf(w, "%s\n\n%s\n", strings.TrimSpace("Usage: horizon "+name+" "+usage), strings.TrimSpace(about))
		// A command without flags (uci) gets no empty "Flags:" heading.
		hasFlags := false
		fs.VisitAll(func(*flag.Flag) { hasFlags = true })
		if hasFlags {
			fmt.Fprintln(w, "\nFlags:")
			fs.SetOutput(w)
			fs.PrintDefaults()
			fs.SetOutput(io.Discard)
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

// parseFlags parses args, turning -h into errHelp (after printing help) and a
// bad flag into a usage error.
func parseFlags(fs *flag.FlagSet, args []string) error {
	// fs.Parse itself calls Usage on -h and on every bad flag; silence it so
	// that -h prints the help once and a bad flag prints only its error.
	usage := fs.Usage
	fs.Usage = func() {}
	err := fs.Parse(args)
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
	files, err := parseArgsAnywhere(fs, args)
	if err != nil {
		return "", err
	}
	switch len(files) {
	case 0:
		return "", usagef("give a trace file")
	case 1:
		return files[0], nil
	}
	return "", usagef("give one trace file, not %d (%s)", len(files), strings.Join(files, ", "))
}

// flagGiven reports whether flag name was given on the command line (even
// with its default or an empty value).
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

// movePath splits a move path flag (--under, --path) into its moves: SAN
// or UCI, separated by spaces or commas, as every path flag takes them.
func movePath(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' })
}

// runFlag registers --run for a command that reads one run (or, with 0,
// every run or the last): given twice it is a usage error naming both
// values, where the flag package kept the last one silently ("check FILE
// --run 1 --run 2" checked run 2 alone). diff, which takes two runs, has
// its own flag.
func runFlag(fs *flag.FlagSet, usage string) *int64 {
	v := new(onceInt64)
	fs.Var(v, "run", usage)
	return &v.n
}

// onceInt64 is an int64 flag that may be given once.
type onceInt64 struct {
	n   int64
	set bool
}

func (o *onceInt64) String() string {
	if o == nil {
		return "0"
	}
	return strconv.FormatInt(o.n, 10)
}

func (o *onceInt64) Set(s string) error {
	n, err := strconv.ParseInt(s, 0, 64)
	if err != nil {
		return fmt.Errorf("want a number")
	}
	if o.set {
		return fmt.Errorf("given twice (%d, then %d): give one", o.n, n)
	}
	o.n, o.set = n, true
	return nil
}
