package export

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// Format is an output format of horizon export.
type Format string

// Output formats. DOT, JSON and Icicle are written by this package; SVG and
// PNG are the DOT laid out by Graphviz (export/render). HTML is an
// interactive page (html.go). Parquet is whole runs as two files
// (parquet.go).
const (
	DOT     Format = "dot"
	SVG     Format = "svg"
	PNG     Format = "png"
	JSON    Format = "json"
	Icicle  Format = "icicle"
	HTML    Format = "html"
	Parquet Format = "parquet"
)

// Spec is one row of the format table: everything horizon export's help,
// its --format and -o checks and its dispatch know of a format, so that a
// format is spelled once.
type Spec struct {
	Format Format
	// Exts are the output file extensions that name the format, the first
	// the one messages suggest; -o FILE.ext picks the format when --format
	// is not given. None for a format asked for by name alone (icicle).
	Exts []string
	// DrawnAs are the formats whose files the format may be written to
	// when --format names it: the icicle's SVG is written as it is to an
	// .svg file and painted as a PNG (export/render) into a .png one.
	DrawnAs []Format
	// Graph: the format draws a node-budget graph (Options: --max-nodes,
	// --qs-only, --rankdir apply).
	Graph bool
	// Layout: Write writes the DOT, which Graphviz lays out into the
	// format (export/render), at most render.MaxNodes nodes.
	Layout bool
	// Binary: the output is bytes a terminal must not be sent.
	Binary bool
	// Reading names the work in a progress line ("reading node 5's
	// subtree").
	Reading func(top trace.Node) string
	// Write writes the format of the job's subtree to w (the DOT, for a
	// Layout format) and says what it wrote, for the line a command
	// prints ("icicle of node 5 (1,234 nodes)").
	Write func(ctx context.Context, j Job, w io.Writer) (what string, err error)
	// Files are the files a format of whole runs writes into the
	// directory -o names (Parquet), and WriteFiles writes the job's runs
	// to them, each to files[name]; such a format has no Write.
	Files      []string
	WriteFiles func(ctx context.Context, j Job, files map[string]io.Writer) (what string, err error)
}

// Job is one export: the subtree and the options of every format (each
// writer reads its own).
type Job struct {
	St     trace.Reader
	Run    trace.Run
	Top    trace.Node
	Graph  Options
	Icicle IcicleOptions
	HTML   HTMLOptions
	// Runs are the runs a format of whole runs writes.
	Runs []trace.Run
}

// specs is the format table, in the order help texts show the formats.
var specs = []Spec{
	{Format: DOT, Exts: []string{".dot", ".gv"}, Graph: true, Reading: readingSubtree, Write: graphWriter(DOT)},
	{Format: SVG, Exts: []string{".svg"}, Graph: true, Layout: true, Reading: readingSubtree, Write: graphWriter(DOT)},
	{Format: PNG, Exts: []string{".png"}, Graph: true, Layout: true, Binary: true, Reading: readingSubtree, Write: graphWriter(DOT)},
	{Format: JSON, Exts: []string{".json"}, Graph: true, Reading: readingSubtree, Write: graphWriter(JSON)},
	{Format: Icicle, DrawnAs: []Format{SVG, PNG}, Reading: readingSubtree, Write: writeIcicleJob},
	{Format: HTML, Exts: []string{".html", ".htm"}, Reading: func(trace.Node) string { return "building the page" }, Write: writeHTMLJob},
	{Format: Parquet, Files: ParquetFiles(), Reading: func(trace.Node) string { return "exporting the runs" }, WriteFiles: writeParquetJob},
}

// Specs returns the format table, in the order help texts show the
// formats.
func Specs() []Spec { return specs }

// Formats lists every format, in the order help texts show them.
func Formats() []Format {
	fs := make([]Format, len(specs))
	for i, s := range specs {
		fs[i] = s.Format
	}
	return fs
}

// SpecOf returns the table's row of format f.
func SpecOf(f Format) (Spec, bool) {
	for _, s := range specs {
		if s.Format == f {
			return s, true
		}
	}
	return Spec{}, false
}

// ParseFormat checks a format name (case-insensitive).
func ParseFormat(s string) (Format, error) {
	f := Format(strings.ToLower(strings.TrimSpace(s)))
	if _, ok := SpecOf(f); ok {
		return f, nil
	}
	return "", fmt.Errorf("unknown format %q (valid: %s)", s, FormatNames(", ", ", "))
}

// FormatNames lists the format names, sep between them and last before
// the last one ("dot, svg, png, json, icicle or html").
func FormatNames(sep, last string) string {
	names := make([]string, len(specs))
	for i, s := range specs {
		names[i] = string(s.Format)
	}
	return joinLast(names, sep, last)
}

// FormatExts lists the first extension of each format that has one
// (".dot, .svg, .png, .json or .html").
func FormatExts() string {
	var exts []string
	for _, s := range specs {
		if len(s.Exts) > 0 {
			exts = append(exts, s.Exts[0])
		}
	}
	return joinLast(exts, ", ", " or ")
}

// joinLast joins words with sep, and last before the last word.
func joinLast(words []string, sep, last string) string {
	if len(words) < 2 {
		return strings.Join(words, sep)
	}
	return strings.Join(words[:len(words)-1], sep) + last + words[len(words)-1]
}

// FormatOf guesses the format from an output file's extension; ok is false
// when the extension says nothing. An .svg file is taken as a Graphviz SVG;
// the icicle must be asked for by name.
func FormatOf(path string) (f Format, ok bool) {
	ext := strings.ToLower(filepath.Ext(path))
	for _, s := range specs {
		for _, e := range s.Exts {
			if e == ext {
				return s.Format, true
			}
		}
	}
	return "", false
}

// ExtText names the file extensions format f writes to, for a message
// ("svg or .png": after a dot the message writes).
func (s Spec) ExtText() string {
	if len(s.Exts) > 0 {
		return strings.TrimPrefix(s.Exts[0], ".")
	}
	if len(s.Files) > 0 {
		return strings.Join(s.Files, " and ")
	}
	names := make([]string, len(s.DrawnAs))
	for i, f := range s.DrawnAs {
		names[i] = string(f)
	}
	return strings.Join(names, " or .")
}

// readingSubtree is the progress line's words of the formats that read
// the top node's subtree.
func readingSubtree(top trace.Node) string { return fmt.Sprintf("reading node %d's subtree", top.ID) }

// graphWriter writes a graph as f (DOT or JSON).
func graphWriter(f Format) func(context.Context, Job, io.Writer) (string, error) {
	return func(ctx context.Context, j Job, w io.Writer) (string, error) {
		counts, err := WriteGraph(ctx, j.St, j.Run, j.Top, j.Graph, f, w)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("node %d: %s of %s shown, %s", j.Top.ID, engine.Commas(counts.Shown), engine.Count(j.Top.Nodes(), "node"),
			engine.CountOf(counts.Summaries, "summary", "summaries")), nil
	}
}

func writeIcicleJob(ctx context.Context, j Job, w io.Writer) (string, error) {
	if err := WriteIcicle(ctx, j.St, j.Run, j.Top, j.Icicle, w); err != nil {
		return "", err
	}
	return fmt.Sprintf("icicle of node %d (%s)", j.Top.ID, engine.Count(j.Top.Nodes(), "node")), nil
}

func writeHTMLJob(ctx context.Context, j Job, w io.Writer) (string, error) {
	if err := WriteHTML(ctx, j.St, j.Run, j.Top, j.HTML, w); err != nil {
		return "", err
	}
	return fmt.Sprintf("page of node %d (%s)", j.Top.ID, engine.Count(j.Top.Nodes(), "node")), nil
}

func writeParquetJob(ctx context.Context, j Job, files map[string]io.Writer) (string, error) {
	c, err := WriteParquet(ctx, j.St, j.Runs, files[ParquetNodes], files[ParquetRuns])
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s, %s", engine.Count(c.Runs, "run"), engine.CountOf(c.Nodes, "node row", "node rows")), nil
}
