package main

import (
	"fmt"
	"os"
	"strings"
)

// engineArgv splits trace --engine's command line into the engine's path
// and arguments. A command line that names an existing file as given is
// that file, spaces and all (/opt/My Engines/ethereal). Otherwise it is
// split at spaces as a shell and cutechess-cli's cmd= would: "..." and
// '...' quote a path or argument with spaces ("/opt/My Engines/eth" -v),
// a backslash escapes the next character outside single quotes (inside
// double quotes only \" and \\). An unterminated quote is an error.
func engineArgv(cmd string) ([]string, error) {
	if fi, err := os.Stat(cmd); err == nil && !fi.IsDir() && strings.ContainsAny(cmd, " \t") {
		return []string{cmd}, nil
	}
	var (
		argv  []string
		word  strings.Builder
		in    bool // a word has begun (a quoted "" is an empty word)
		quote rune // the open quote, 0 outside quotes
		esc   bool // the previous character was an escaping backslash
	)
	for _, c := range cmd {
		switch {
		case esc:
			if quote == '"' && c != '"' && c != '\\' {
				word.WriteRune('\\')
			}
			word.WriteRune(c)
			esc = false
		case c == '\\' && quote != '\'':
			esc, in = true, true
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			word.WriteRune(c)
		case c == '"' || c == '\'':
			quote, in = c, true
		case c == ' ' || c == '\t' || c == '\n':
			if in {
				argv = append(argv, word.String())
				word.Reset()
				in = false
			}
		default:
			word.WriteRune(c)
			in = true
		}
	}
	switch {
	case quote != 0:
		return nil, fmt.Errorf("unterminated %c quote", quote)
	case esc:
		return nil, fmt.Errorf("a backslash ends it (escaping nothing)")
	case in:
		argv = append(argv, word.String())
	}
	return argv, nil
}
