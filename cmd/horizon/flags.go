package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
)

// newFlags returns a FlagSet for a subcommand whose --help prints the
// summary, the usage line, every flag and the examples.
func newFlags(e *env, name, usage, about string, examples ...string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {
		w := e.stdout
		fmt.Fprintf(w, "Usage: horizon %s %s\n\n%s\n\nFlags:\n", name, usage, strings.TrimSpace(about))
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
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
