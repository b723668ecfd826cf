package qsbench

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/internal/fifo"
)

// A second oracle (a UCI engine's values) is stored apart from the set, in
// an EPD file of its own: one record per position, with the set's id and
// position, and ce, acd, acn, pv and oracle. Its evaluation is not
// Horizon's, so its errors mix what a QS misses with how two evaluations
// differ; it is shown beside the first oracle, never in its place.

// FormatSecond returns p's record with the value o, for a second-oracle file.
func FormatSecond(p *Position, o Oracle) string {
	fields := strings.Fields(p.FEN)
	var b strings.Builder
	b.WriteString(strings.Join(fields[:4], " "))
	op := opWriter(&b)
	op("id", quote(p.ID))
	o.writeOps(op)
	op("hmvc", fields[4])
	op("fmvn", fields[5])
	return b.String()
}

// WriteSecond writes a second-oracle file for set to w: the header as
// comments, then a record for each position vals values.
func WriteSecond(w io.Writer, header string, set []*Position, vals []Oracle) error {
	bw := bufio.NewWriter(w)
	for _, l := range strings.Split(strings.TrimRight(header, "\n"), "\n") {
		fmt.Fprintf(bw, "# %s\n", l)
	}
	for i, p := range set {
		if vals[i].Valid() {
			fmt.Fprintln(bw, FormatSecond(p, vals[i]))
		}
	}
	return bw.Flush()
}

// ReadSecondOracle reads a second-oracle file and returns its values by the
// index of set's positions (invalid where it has none). A record whose id
// is not in the set, or whose position differs from the set's, is an error
// naming its line. A FIFO is waited for until it has a writer, or ctx ends.
func ReadSecondOracle(ctx context.Context, path string, set []*Position) ([]Oracle, error) {
	r, err := fifo.OpenReader(ctx, path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return readSecond(r, path, set)
}

func readSecond(r io.Reader, name string, set []*Position) ([]Oracle, error) {
	byID := make(map[string]int, len(set))
	for i, p := range set {
		byID[p.ID] = i
	}
	out := make([]Oracle, len(set))
	err := engine.ScanEPD(r, name, func(ln int, text string) error {
		e, err := engine.ParseEPD(text)
		if err != nil {
			return err
		}
		i, ok := byID[e.ID]
		if !ok {
			return nil // a position of the full set while a run uses --limit
		}
		if e.FEN != set[i].FEN {
			return fmt.Errorf("record %q is %s, but the set's %s is %s", e.ID, e.FEN, e.ID, set[i].FEN)
		}
		o, err := parseOracle(e)
		if err != nil {
			return fmt.Errorf("record %q: %v", e.ID, err)
		}
		if !o.Valid() {
			return fmt.Errorf("record %q has no value (ce, acd, oracle)", e.ID)
		}
		out[i] = o
		return nil
	})
	if err != nil && !errors.Is(err, engine.ErrNoPositions) { // no second values: none to add
		return nil, err
	}
	return out, nil
}

// ReadHeader returns the comment lines at the top of a set, without their
// "# ".
func ReadHeader(r io.Reader) (string, error) {
	var lines []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		t := sc.Text()
		if !strings.HasPrefix(t, "#") {
			break
		}
		lines = append(lines, strings.TrimPrefix(strings.TrimPrefix(t, "#"), " "))
	}
	return strings.Join(lines, "\n"), sc.Err()
}

// StripOracleHeader removes what 'horizon qsbench oracle' adds to a header,
// so that a new oracle replaces the old one's lines.
func StripOracleHeader(h string) string {
	var keep []string
	for _, l := range strings.Split(h, "\n") {
		if strings.HasPrefix(l, "Oracle:") || strings.HasPrefix(l, "Regenerate: horizon qsbench oracle") {
			continue
		}
		keep = append(keep, l)
	}
	return strings.TrimRight(strings.Join(keep, "\n"), "\n")
}

// ClampedError is |QS - oracle| with both clamped to ±Clamp, the error
// every figure is made of.
func ClampedError(qs, oracle int) int { return absErr(qs, oracle) }
