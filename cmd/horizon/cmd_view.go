package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/horizonqs/horizon/export"
	"github.com/horizonqs/horizon/trace"
	"github.com/horizonqs/horizon/viewer"
	"golang.org/x/term"
)

const viewAbout = `
Opens a trace file in a terminal tree browser: one row per search node with
its move, kind, depth or QS ply, window, stand pat, score and bound, cutoff
cause and subtree size; the board and every field of the selected node
beside it. 'n' walks the biggest QS trees, 'v' goes to the PV, '/' to a
move path, '?' lists every key, 'q' quits and prints the FEN of the
selected node. A file still being recorded can be opened ('r' reloads it).`

// viewJSON is what --json prints on exit: the node the user left on.
type viewJSON struct {
	File string `json:"file"`
	Run  int64  `json:"run"`
	Node int64  `json:"node"`
	FEN  string `json:"fen"`
}

func runView(e *env, args []string) error {
	fs := newFlags(e, "view", "FILE [flags]", viewAbout,
		"horizon view sample.trace",
		"horizon view sample.trace --run 2 --path \"dxe6 fxe6\"",
		"horizon view sample.trace --run 1 --node 100000 --ascii --uci")
	run := runFlag(fs, "run `id` to open, or the id of an EPD record with one run", "the last run, or the run picker for a file of several runs")
	node := fs.Int64("node", -1, "select this node id at start (0: the run node; -1: the root of the iteration whose result the run reports)")
	path := fs.String("path", "", "select the node this move path leads to at start (SAN or UCI separated by spaces or commas, from the root position, in the last iteration); "+trace.PathVisitsText+"; "+trace.PathIterationText)
	ascii := fs.Bool("ascii", false, "plain ASCII board, markers and bars")
	uci := fs.Bool("uci", false, "show moves in UCI instead of SAN")
	asJSON := fs.Bool("json", false, "on exit print the selected node as JSON instead of its FEN")
	// Flags may come before or after the file.
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	rest := fs.Args()
	if len(rest) == 0 {
		return usagef("missing FILE: the trace to browse (record one with 'horizon trace')")
	}
	file := rest[0]
	if err := parseFlags(fs, rest[1:]); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("one trace file at a time; unexpected %q", strings.Join(fs.Args(), " "))
	}
	root, moves, err := trace.ParsePlace(*path)
	if err != nil {
		return usagef("--path %v", err)
	}
	opt := viewer.Options{Path: moves, Root: namedRoot(root), ASCII: *ascii, UCI: *uci}
	if flagGiven(fs, "node") {
		if *node < 0 {
			return usagef("--node %d: node ids start at 0", *node)
		}
		if *path != "" {
			return usagef("--node and --path both select the start node; give one")
		}
		opt.Node = node
	}
	return view(e, file, opt, run, *asJSON)
}

// viewTrace browses the trace at path, opening run (0: the last one); the
// trace command's --view calls it after recording.
func viewTrace(e *env, path string, run int64) error {
	return view(e, path, viewer.Options{Run: run}, nil, false)
}

// view checks everything it can before it takes over the terminal, so a
// bad file, run, node or path is a one-line error and not a flash of screen.
// run, when not nil, is view's --run, which names opt.Run in the file.
func view(e *env, path string, opt viewer.Options, run *runRef, asJSON bool) error {
	st, err := trace.OpenReadOnly(path)
	if err != nil {
		return err
	}
	defer st.Close()
	if run != nil {
		if opt.Run, err = run.one(e.ctx, st, path); err != nil {
			return err
		}
	}
	opt.File = filepath.Base(path)
	m, err := viewer.New(e.ctx, st, opt)
	if err != nil {
		return err
	}
	if !hasTerminal() {
		return errors.New("view needs a terminal: this process has none (no /dev/tty: a cron job, CI, ssh without -t); run it in one")
	}
	scr, err := tcell.NewScreen()
	if err != nil {
		return fmt.Errorf("open the terminal: %w", err)
	}
	fullScreen.set(scr.Fini)
	err = viewer.Run(e.ctx, scr, m)
	fullScreen.set(nil)
	if err != nil {
		return err
	}
	if e.ctx.Err() != nil {
		// A signal (kill, a closed terminal) ended the viewer: no node
		// was chosen, so none is printed for 'fen=$(horizon view ...)'.
		return e.stoppedErr()
	}
	n := m.SelectedNode()
	return e.print(viewJSON{File: path, Run: n.RunID, Node: n.ID, FEN: m.SelectedFEN()}, formatOf(asJSON, false))
}

// hasTerminal reports whether the process has a terminal for the viewer.
// tcell draws on and reads keys from the controlling terminal (/dev/tty),
// whatever standard output is, so that 'fen=$(horizon view t.trace)' and
// 'horizon view t.trace --json | jq' work; a cron job, CI or 'ssh host
// cmd' has none. A variable, so that tests never take over the terminal
// they were started from.
var hasTerminal = func() bool {
	f, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	return term.IsTerminal(int(f.Fd()))
}

// noTerminalToView is the error of a command told to --view what it
// records (into out) when the process has no terminal: checked before it
// records, so the search is not spent for nothing.
func noTerminalToView(out string) error {
	return fmt.Errorf("--view needs a terminal and this process has none (no /dev/tty); record without it and run 'horizon view %s' in a terminal", shellQuote(out))
}

// writeText is the FEN of the node the viewer was left on, for a pipe.
func (v viewJSON) writeText(w io.Writer) error {
	_, err := fmt.Fprintln(w, v.FEN)
	return err
}

// namedRoot is the root a --path names (trace.ParsePlace) as
// export.Selection and viewer.Options take it: nil when it names none.
// pathFlag reads --path as export and explain take it, beside --node: the
// root the place names (nil for none) and its moves. A place naming its
// iteration and --node both say where the path starts: a usage error.
func pathFlag(fs *flag.FlagSet, path string) (*trace.PlaceRoot, []string, error) {
	root, moves, err := trace.ParsePlace(path)
	if err != nil {
		return nil, nil, usagef("--path %v", err)
	}
	if root.It != trace.NoIteration && flagGiven(fs, "node") {
		return nil, nil, usagef("--node and --path's %q both say where the path starts; give one", trace.IterationLabel(root.It))
	}
	return namedRoot(root), moves, nil
}

// openSelection opens file as one snapshot (a run being recorded commits
// rows meanwhile) and reads the subtree --run, --node and --path select,
// as export and explain take them. The caller closes the store.
func openSelection(e *env, fs *flag.FlagSet, file string, run *runRef, node int64, path string) (*trace.Store, export.Selection, error) {
	root, moves, err := pathFlag(fs, path)
	if err != nil {
		return nil, export.Selection{}, err
	}
	st, err := trace.OpenSnapshot(e.ctx, file)
	if err != nil {
		return nil, export.Selection{}, err
	}
	sel := export.Selection{Node: node, Path: moves, Root: root}
	if sel.Run, err = run.one(e.ctx, st, file); err != nil {
		st.Close()
		return nil, export.Selection{}, err
	}
	return st, sel, nil
}

func namedRoot(root trace.PlaceRoot) *trace.PlaceRoot {
	if root.It == trace.NoIteration {
		return nil
	}
	return &root
}
