package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/export"
	"github.com/horizonqs/horizon/export/render"
	"github.com/horizonqs/horizon/internal/outfile"
	"github.com/horizonqs/horizon/trace"
)

// exportCmd is an export as its flags ask for it (parseExport).
type exportCmd struct {
	fs    *flag.FlagSet
	file  string
	run   *runRef
	node  int64
	path  string
	out   string
	spec  export.Spec
	paint bool // an icicle painted as a PNG (-o FILE.png)
	job   export.Job
}

func runExport(e *env, args []string) error {
	c, err := parseExport(e, args)
	if err != nil {
		return err
	}
	return c.do(e)
}

// parseExport reads export's flags and checks them before any work.
func parseExport(e *env, args []string) (*exportCmd, error) {
	fs := newFlags(e, "export", `FILE [--run N] [--node ID | --path "e4 e5 Nf3"] [--depth D] [--max-nodes N] [--qs-only] [--format `+export.FormatNames("|", "|")+`] [--rankdir TB|LR] [-o OUT]`,
		exportAbout(),
		"horizon export sample.trace -o tree.svg",
		`horizon export sample.trace --path "dxe6 fxe6" --max-nodes 60 --rankdir LR -o line.png`,
		"horizon export sample.trace --node 0 --format icicle -o map.svg",
		"horizon export sample.trace -o tree.html",
		"horizon export sample.trace --qs-only --max-nodes 100 -o qs.svg",
		"horizon export sample.trace --format parquet -o exports/sample")
	c := &exportCmd{fs: fs}
	c.run = runFlag(fs, "run `id`, or the id of an EPD record with one run ('horizon runs FILE' lists both)", "the file's last run")
	node := fs.Int64("node", -1, "id of the subtree's top node; -1 = the last iteration's root")
	path := fs.String("path", "", `move path from the last iteration's root (or from --node), SAN or UCI separated by spaces or commas, e.g. "e4 e5 Nf3"; `+trace.PathVisitsText+"; "+trace.PathIterationText)
	depth := fs.Int("depth", -1, "plies shown below the top node (below each QS root with --qs-only); -1 = no limit")
	maxNodes := fs.Int("max-nodes", export.DefaultMaxNodes, "node budget of the graph formats (the icicle merges by pixel instead)")
	qsOnly := fs.Bool("qs-only", false, "graph only the QS trees under the top node, biggest first, each hung from it by its full-width path")
	format := fs.String("format", "", export.FormatNames(", ", " or ")+" (default: from -o's extension, else dot)")
	rankdir := fs.String("rankdir", "TB", "graph layout: TB (top-down) or LR (left to right)")
	width := fs.Int("width", 1600, "icicle width in pixels; for html the merge resolution, 16000 unless given")
	out := fs.String("o", "-", "output file (a directory for parquet); - = standard output")
	file, err := parseFileFlags(fs, args)
	if err != nil {
		return nil, err
	}
	c.file, c.node, c.path, c.out = file, *node, *path, *out
	if c.spec, c.paint, err = exportFormat(*format, *out); err != nil {
		return nil, err
	}
	f := c.spec.Format
	switch {
	case *node < -1:
		return nil, usagef("--node %d: want a node id (0 is the run node) or -1", *node)
	case *maxNodes < 1:
		return nil, usagef("--max-nodes %d: want at least 1", *maxNodes)
	case *depth < -1:
		return nil, usagef("--depth %d: want a number of plies, or -1 for no limit", *depth)
	case *width < 200 || *width > 100000:
		return nil, usagef("--width %d: want 200 to 100000 pixels", *width)
	case *qsOnly && !c.spec.Graph:
		return nil, usagef("--qs-only applies to the graph formats, not to the %s (it already colours QS apart)", f)
	}
	if err := c.checkWholeRuns(); err != nil {
		return nil, err
	}
	dir := strings.ToUpper(*rankdir)
	if dir != "TB" && dir != "LR" {
		return nil, usagef("--rankdir %q: want TB or LR", *rankdir)
	}
	if *out == "-" && c.spec.Binary && isTerminal(e.stdout) {
		// PNG bytes written to a terminal garble it (as gzip and curl
		// refuse to do).
		return nil, usagef("--format %s writes binary bytes, and standard output is a terminal: give -o FILE.%s, or redirect it to a file or a pipe", f, c.spec.ExtText())
	}
	c.job.Graph = export.Options{MaxNodes: *maxNodes, Depth: *depth, QSOnly: *qsOnly, RankDir: dir}
	c.job.Icicle = export.IcicleOptions{Width: *width, Depth: *depth}
	c.job.HTML = export.HTMLOptions{Width: export.DefaultHTMLWidth, Depth: *depth}
	if flagGiven(fs, "width") {
		c.job.HTML.Width = *width
	}
	return c, nil
}

// checkWholeRuns refuses the flags that pick or draw a subtree for a
// format of whole runs (Parquet).
func (c *exportCmd) checkWholeRuns() error {
	if len(c.spec.Files) == 0 {
		return nil
	}
	for _, name := range []string{"node", "path", "depth", "max-nodes", "qs-only", "rankdir", "width"} {
		if flagGiven(c.fs, name) {
			return usagef("--%s draws a subtree; --format %s writes whole runs (--run's, or every run of the file)", name, c.spec.Format)
		}
	}
	return nil
}

// exportAbout is export's --help text.
func exportAbout() string {
	return fmt.Sprintf(`Draws a subtree of a recorded search as a diagram. By default the subtree is
the last iteration of the file's last run; --node or --path (moves in SAN or
UCI, from the last iteration's root, or from --node) pick another.

The graph formats (dot, svg, png, json) keep at most --max-nodes tree nodes:
children are kept by principal variation first, then by subtree size, so the
part of the tree where the search spent its nodes stays visible. The children
of a shown node that do not fit are collapsed into one summary node
("+12,345 nodes in 23 moves, 97%% QS, max QS ply 9"): nothing is dropped
silently. Boxes are full-width nodes, ellipses QS nodes; colours and borders
tell fail high / beta cutoff, stand-pat cutoff, exact score and fail low; the
principal variation is bold; edges are labelled with the move's place in the
search order. DOT and JSON are written by Horizon (same trace, same bytes);
JSON names a node's fields as the trace's SQL view nodes does (cutoff, best,
generated: null where another engine's stream left it out), and gives what
is absent as null: cut_index where no move failed high (the view says -1),
best, the move of the run node and of iteration roots, depth with no --depth,
a node's order and repeat where it has no place among siblings (the top node,
--qs-only's QS roots), via and summary where they do not apply, and qs_roots,
qs_nodes and full_width_left_out without --qs-only. SVG and PNG are laid out by Graphviz (go-graphviz, built in), at most %s
nodes (a bigger --max-nodes is refused; DOT and JSON have no limit, and a
budget that shows every node is written as the rows are read, in little
memory). PNGs are scaled down to at most 8000 pixels a side and 24 million
pixels.

--format icicle writes an SVG icicle chart of the whole subtree instead: one
rectangle per node, as wide as its subtree, one row per level, QS in orange;
hover a rectangle for the node's fields. Subtrees narrower than a pixel are
merged and never read, so a chart of millions of nodes takes under a second.
With -o FILE.png the chart is drawn as a PNG (the tooltips are SVG's alone).

--format html (or -o FILE.html) writes one self-contained page to share: a
zoomable icicle (click a node to zoom, breadcrumbs to go back), the node's
fields and board on click or hover, the biggest QS trees and extension chains,
and a search by move path. It fetches nothing. Nodes narrower than a pixel of
a chart --width pixels wide are merged as in the icicle, and not read below;
for html --width defaults to 16000 (ten times a 1600-pixel screen), so nodes
stay apart until a node is zoomed ten times. The page's size depends on how
many nodes it draws, not on the subtree's node count: %d KB of script, then
up to %d bytes for each node at least 1/width of the subtree wide and each
run of merged ones (about width of them a level at most). At the default
width a bushy subtree of a million nodes draws a few thousand (1 to 2 MB); a
deep, narrow one of 100,000 nodes can draw as many.

--format parquet -o DIR writes whole runs for analytic engines (DuckDB,
Spark, Polars, Trino): runs.parquet and nodes.parquet in directory DIR (made
when missing), with the column names and meanings of the trace's SQL table
runs and view nodes, streamed a row group at a time in bounded memory. It
writes every run of the file, or --run's; --node, --path, --depth,
--max-nodes, --qs-only, --rankdir and --width do not apply. A directory per
trace keeps each trace's run ids apart: docs/parquet.md has the column
types and a DuckDB query over several exports.

The format defaults to the output file's extension (.dot/.gv, .svg, .png,
.json, .html), else dot. Output goes to standard output unless -o is given; a file
is written whole or not at all (through a link, its target), and a device, FIFO
or /dev/fd/N is written to, never replaced.`, engine.Commas(render.MaxNodes), export.HTMLPageBytes>>10, export.HTMLNodeBytes)
}

// exportFormat finds the format --format and -o's extension ask for, and
// whether an icicle is painted as a PNG. They must agree: a format
// asked for by name may go to one of its own extensions, or to a format
// it is drawn as (an icicle to .svg or .png).
func exportFormat(format, out string) (spec export.Spec, paint bool, err error) {
	g, named := export.FormatOf(out)
	named = named && out != "-"
	if format == "" {
		if named {
			spec, _ = export.SpecOf(g)
			return spec, false, nil
		}
		if ext := filepath.Ext(out); ext != "" && out != "-" {
			// Writing DOT into "tree.pdf" would only puzzle the user later.
			return spec, false, usagef("-o %s: the extension %s names no format Horizon writes; give --format (%s) or use %s", out, ext, export.FormatNames(", ", ", "), export.FormatExts())
		}
		spec, _ = export.SpecOf(export.DOT)
		return spec, false, nil
	}
	f, err := export.ParseFormat(format)
	if err != nil {
		return spec, false, usagef("--format: %v", err)
	}
	spec, _ = export.SpecOf(f)
	if len(spec.Files) > 0 {
		if out == "-" {
			return spec, false, usagef("--format %s writes %s into a directory: give -o DIR", f, spec.ExtText())
		}
		return spec, false, nil // -o names a directory, whatever its name
	}
	if !named || g == f {
		return spec, false, nil
	}
	if slices.Contains(spec.DrawnAs, g) {
		return spec, g == export.PNG, nil
	}
	return spec, false, usagef("-o %s: --format %s does not write %s; name the file .%s or drop --format", out, f, g, spec.ExtText())
}

// do runs the export: it opens the trace and the output, writes the
// format and finishes the output (finish).
func (c *exportCmd) do(e *env) error {
	if len(c.spec.Files) > 0 {
		return c.doFiles(e)
	}
	st, sel, err := openSelection(e, c.fs, c.file, c.run, c.node, c.path)
	if err != nil {
		return err
	}
	defer st.Close()
	// Open the output before the work, so an unwritable path fails at once;
	// the file appears only when everything succeeded.
	var dst io.Writer
	var outFile *outfile.File
	var buf outfile.Spool
	defer buf.Close()
	if c.out == "-" {
		dst = &buf // standard output gets all or nothing too
	} else {
		if outFile, err = outfile.Create(e.ctx, c.out, c.file); err != nil {
			return err
		}
		defer outFile.Abort()
		dst = outFile
	}
	r, top, err := export.Resolve(e.ctx, st, sel)
	if err != nil {
		return err
	}
	later, err := laterRoots(e.ctx, st, r, top, sel)
	if err != nil {
		return err
	}
	if err := c.checkLayout(top); err != nil {
		return err
	}
	// A big subtree takes seconds to read: a progress line on a terminal,
	// and Ctrl-C stops the reading (every reader checks the context).
	var rows atomic.Int64
	c.job.St, c.job.Run, c.job.Top = countingReader{st, &rows}, r, top
	// What Graphviz lays out, and an icicle painted as a PNG, is held in
	// memory (it is small); every other format goes straight out.
	var held bytes.Buffer
	to := dst
	if c.spec.Layout || c.paint {
		to = &held
	}
	stop := rowsProgress(e.stderr, c.spec.Reading(top), &rows, 0)
	what, err := c.spec.Write(e.ctx, c.job, to)
	stop()
	if err != nil {
		return err
	}
	switch {
	case c.spec.Layout:
		err = render.Render(e.ctx, held.Bytes(), render.Format(c.spec.Format), dst)
	case c.paint:
		err = render.PaintFlatSVG(held.Bytes(), dst)
	}
	if err != nil {
		return err
	}
	return c.finish(e, outFile, &buf, what, later)
}

// doFiles runs an export of whole runs into files (Parquet): --run's
// runs, or every run of the file, into the directory -o names, which is
// made when missing. Each file is written whole or not at all.
func (c *exportCmd) doFiles(e *env) error {
	st, err := trace.OpenSnapshot(e.ctx, c.file)
	if err != nil {
		return err
	}
	defer st.Close()
	runs, err := c.run.runs(e.ctx, st, c.file)
	if err != nil {
		return err
	}
	made := false
	if _, err := os.Stat(c.out); errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(c.out, 0o777); err != nil {
			return err
		}
		made = true
	}
	files := map[string]io.Writer{}
	var outs []*outfile.File
	defer func() {
		for _, f := range outs {
			f.Abort()
		}
		if made {
			os.Remove(c.out) // only if empty: nothing was written
		}
	}()
	for _, name := range c.spec.Files {
		f, err := outfile.Create(e.ctx, filepath.Join(c.out, name), c.file)
		if err != nil {
			return err
		}
		outs = append(outs, f)
		files[name] = f
	}
	var rows atomic.Int64
	var total int64
	for _, r := range runs {
		total += r.Rows
	}
	c.job.St, c.job.Runs = countingReader{st, &rows}, runs
	stop := rowsProgress(e.stderr, c.spec.Reading(trace.Node{}), &rows, total)
	what, err := c.spec.WriteFiles(e.ctx, c.job, files)
	stop()
	if err != nil {
		return err
	}
	if err := e.ctx.Err(); err != nil {
		return err
	}
	for _, f := range outs {
		if err := f.Commit(); err != nil {
			return err
		}
	}
	made = false
	fmt.Fprintf(e.stderr, "wrote %s into %s (%s): %s\n", c.spec.ExtText(), engine.Printable(c.out), c.spec.Format, what)
	return nil
}

// checkLayout refuses, before any work, a graph bigger than Graphviz lays
// out.
func (c *exportCmd) checkLayout(top trace.Node) error {
	maxNodes := c.job.Graph.MaxNodes
	if shown := min(int64(maxNodes), top.Nodes()); c.spec.Layout && shown > render.MaxNodes {
		return usagef("--max-nodes %d: a %s of node %d's subtree (%s) would lay out %s nodes, and Graphviz lays out at most %s (its time grows faster than the graph: %s take minutes); lower --max-nodes, or write dot or json, which have no limit",
			maxNodes, c.spec.Format, top.ID, engine.Count(top.Nodes(), "node"), engine.Commas(shown), engine.Commas(render.MaxNodes), engine.Commas(render.MaxNodes))
	}
	return nil
}

// finish makes the output appear (the file, or the spooled standard
// output) and prints what was written and what the subtree leaves out.
func (c *exportCmd) finish(e *env, outFile *outfile.File, buf *outfile.Spool, what, later string) error {
	// Ctrl-C while the graph was written (a budget of a million nodes
	// writes for seconds) leaves no file, as it does while it is built.
	if err := e.ctx.Err(); err != nil {
		return err
	}
	if outFile == nil {
		// The spool may be larger than memory: JSON is escaped for a
		// terminal (as every command's --json) as it streams out.
		var w io.Writer = e.stdout
		jw := &jsonControlsWriter{w: e.stdout}
		if c.spec.Format == export.JSON {
			w = jw
		}
		if _, err := buf.WriteTo(w); err != nil {
			return err
		}
		if err := jw.flush(); err != nil {
			return err
		}
	} else {
		if err := outFile.Commit(); err != nil {
			return err
		}
		fmt.Fprintf(e.stderr, "wrote %s (%s): %s\n", engine.Printable(c.out), c.spec.Format, engine.Printable(what))
	}
	if later != "" {
		e.notef("%s", later)
	}
	return nil
}

// laterRoots says what the default subtree, the root of the iteration the
// run reports (trace.ReportedRoot), leaves out: the roots searched after
// it, an iteration the search began and did not conclude. A run whose
// engine was stopped in its last iteration holds most of its nodes there,
// and its export drew the iteration before without a word. "" when the
// subtree was chosen (--node, --path) or nothing comes after it.
func laterRoots(ctx context.Context, st trace.Reader, r trace.Run, top trace.Node, sel export.Selection) (string, error) {
	if sel.Node >= 0 || len(sel.Path) > 0 || sel.Root != nil || top.Kind != engine.KindRoot || top.End() > r.Nodes {
		return "", nil
	}
	roots, err := st.Children(ctx, r.ID, 0, trace.BySearch, 0, 0)
	if err != nil {
		return "", err
	}
	var first trace.Node
	var n, nodes int64
	for _, x := range roots {
		if x.ID >= top.End() {
			if n == 0 {
				first = x
			}
			n++
			nodes += x.SubtreeSize
		}
	}
	if n == 0 {
		return "", nil
	}
	one := n == 1
	return fmt.Sprintf("node %d is the root of iteration %d, the one the run reports; %s after it (%s, iteration %d on) %s not drawn: --node %d draws %s, --node 0 every iteration",
		top.ID, top.Iteration, engine.CountOf(n, "root", "roots"), engine.Count(nodes, "node"), first.Iteration,
		map[bool]string{true: "is", false: "are"}[one], first.ID, map[bool]string{true: "it", false: "the first"}[one]), nil
}

// htmlProgress shows how many rows a page has read so far while it is
// built, when w is a terminal, counting them in opts.Progress; the
// returned func clears the line.
func htmlProgress(w io.Writer, opts *export.HTMLOptions) func() {
	read := new(atomic.Int64)
	opts.Progress = read
	return progressLine(w, func(el time.Duration) string {
		return fmt.Sprintf("building the page: %s rows read  %s", engine.Commas(read.Load()), engine.Elapsed(el))
	})
}
