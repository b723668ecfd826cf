// Package qsbench measures quiescence searches against an oracle: it
// collects horizon positions (the roots of the QS calls of real searches),
// values them with a much deeper search, and runs each QS variant alone from
// each position to set its cost (QS nodes, time) against its error.
package qsbench

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/internal/fifo"
)

// Classes of a horizon position, by what QS can do there.
const (
	Quiet    = "quiet"    // not in check, no promotion, no capture that wins material by SEE
	Tactical = "tactical" // in check, or a promotion, or a capture that wins material by SEE
)

// Oracle is a value of a position from a deeper search, from the side to
// move's point of view: EPD's ce (centipawns), acd (depth), acn (nodes), pv
// and the oracle opcode naming the searcher and its options.
type Oracle struct {
	Name  string   // "horizon see+see-prune=false+delta=false" or "Stockfish 15.1"
	Score int      // ce: centipawns for the side to move; mates as engine.Score mate values
	Depth int      // acd
	Nodes int64    // acn
	PV    []string // pv, SAN
}

// Valid reports whether the oracle holds a value (a record read before the
// oracle was generated has none).
func (o Oracle) Valid() bool { return o.Name != "" }

// Position is one record of a benchmark set: a horizon position, the move
// that led to it (so that a QS reading the last move, as the recapture
// variant does, sees what it saw in the search), where it came from, and its
// oracle value.
type Position struct {
	ID       string // id, "qsb.0001"
	FEN      string // the horizon position, where QS starts
	Parent   string // lmpos: the FEN the last move was played from
	LastMove string // lm: the last move, UCI
	Source   string // src: the suite record whose search reached it, "WAC.002"
	Class    string // class: Quiet or Tactical
	Oracle   Oracle
	Line     int // 1-based line in its file, for messages

	pos *engine.Position // Parent with LastMove made: FEN with its history
}

// Pos returns a copy of the horizon position with the last move in its
// history, ready to search.
func (p *Position) Pos() *engine.Position { return p.pos.Copy() }

// newPosition builds a record from the parent position and the last move,
// checking both.
func newPosition(parent, lastMove string) (*Position, error) {
	pp, err := engine.ParseFEN(parent)
	if err != nil {
		return nil, fmt.Errorf("lmpos: %v", err)
	}
	m, err := pp.ParseUCI(lastMove)
	if err != nil {
		return nil, fmt.Errorf("lm: %v", err)
	}
	pp.MakeMove(m)
	return &Position{FEN: pp.FEN(), Parent: parent, LastMove: lastMove, pos: pp}, nil
}

// WithHistory returns an EPD record's position with the move that led to
// it in its history, when the record names that move (lm, UCI) and the
// position it was played from (lmpos), as benchmark sets do; else a copy of
// its position. The two must lead to the record's position.
func WithHistory(e *engine.EPD) (*engine.Position, error) {
	parent, lm := e.Ops["lmpos"], e.Ops["lm"]
	if parent == "" && lm == "" {
		return e.Pos.Copy(), nil
	}
	p, err := newPosition(parent, lm)
	if err != nil {
		return nil, fmt.Errorf("record %q: %v", e.ID, err)
	}
	if p.FEN != e.FEN {
		return nil, fmt.Errorf("record %q: lmpos + lm give %s, not the record's position %s", e.ID, p.FEN, e.FEN)
	}
	return p.pos, nil
}

// ParseRecord parses one EPD line of a benchmark set. The position is
// checked against its parent and last move: they must lead to it.
func ParseRecord(line string) (*Position, error) {
	e, err := engine.ParseEPD(line)
	if err != nil {
		return nil, err
	}
	if e.Ops["lmpos"] == "" || e.Ops["lm"] == "" {
		return nil, fmt.Errorf("record %q: want the lmpos and lm operations (the move that led to the position)", e.ID)
	}
	pos, err := WithHistory(e)
	if err != nil {
		return nil, err
	}
	p := &Position{FEN: e.FEN, Parent: e.Ops["lmpos"], LastMove: e.Ops["lm"], pos: pos}
	p.ID, p.Source, p.Class = e.ID, e.Ops["src"], e.Ops["class"]
	if p.Class != "" && p.Class != Quiet && p.Class != Tactical {
		return nil, fmt.Errorf("record %q: class %q is not %s or %s", e.ID, p.Class, Quiet, Tactical)
	}
	o, err := parseOracle(e)
	if err != nil {
		return nil, fmt.Errorf("record %q: %v", e.ID, err)
	}
	p.Oracle = o
	return p, nil
}

// parseOracle reads ce, acd, acn, pv and oracle; a record with none of
// them has no oracle value, one with some but not all is an error.
func parseOracle(e *engine.EPD) (Oracle, error) {
	name, ce := e.Ops["oracle"], e.Ops["ce"]
	if name == "" && ce == "" {
		return Oracle{}, nil
	}
	if name == "" || ce == "" || e.Ops["acd"] == "" {
		return Oracle{}, fmt.Errorf("an oracle value needs ce, acd and oracle together")
	}
	o := Oracle{Name: name}
	var err error
	if o.Score, err = strconv.Atoi(ce); err != nil || o.Score <= -int(engine.Infinity) || o.Score >= int(engine.Infinity) {
		return o, fmt.Errorf("ce %q is not a centipawn score", ce)
	}
	if o.Depth, err = strconv.Atoi(e.Ops["acd"]); err != nil || o.Depth < 0 {
		return o, fmt.Errorf("acd %q is not a depth", e.Ops["acd"])
	}
	if s := e.Ops["acn"]; s != "" {
		if o.Nodes, err = strconv.ParseInt(s, 10, 64); err != nil || o.Nodes < 0 {
			return o, fmt.Errorf("acn %q is not a node count", s)
		}
	}
	if s := e.Ops["pv"]; s != "" {
		o.PV = strings.Fields(s)
	}
	return o, nil
}

// Format returns the record as one EPD line. ParseRecord reads it back.
func (p *Position) Format() string {
	fields := strings.Fields(p.FEN)
	var b strings.Builder
	b.WriteString(strings.Join(fields[:4], " "))
	op := opWriter(&b)
	q := quote
	if p.ID != "" {
		op("id", q(p.ID))
	}
	if p.Class != "" {
		op("class", p.Class)
	}
	if p.Source != "" {
		op("src", q(p.Source))
	}
	op("lm", p.LastMove)
	op("lmpos", q(p.Parent))
	if o := p.Oracle; o.Valid() {
		o.writeOps(op)
	}
	op("hmvc", fields[4])
	op("fmvn", fields[5])
	return b.String()
}

// writeOps writes the oracle's operations (ce, acd, acn, pv, oracle) with
// op, as a set and a second-oracle file both hold them.
func (o Oracle) writeOps(op func(code, val string)) {
	op("ce", strconv.Itoa(o.Score))
	op("acd", strconv.Itoa(o.Depth))
	if o.Nodes > 0 {
		op("acn", strconv.FormatInt(o.Nodes, 10))
	}
	if len(o.PV) > 0 {
		pv := strings.Join(o.PV, " ")
		if strings.Contains(pv, ";") {
			// Read from a quoted operand: unquoted, the ';' would end
			// the operation there.
			pv = quote(pv)
		}
		op("pv", pv)
	}
	op("oracle", quote(o.Name))
}

// opWriter returns the function that writes one EPD operation to b.
func opWriter(b *strings.Builder) func(code, val string) {
	return func(code, val string) { fmt.Fprintf(b, " %s %s;", code, val) }
}

// Read reads a benchmark set. Errors name the file and line; ids must be
// unique, so a second oracle file can be matched to the set by id.
func Read(r io.Reader, name string) ([]*Position, error) {
	var out []*Position
	ids := map[string]int{}
	err := engine.ScanEPD(r, name, func(ln int, text string) error {
		p, err := ParseRecord(text)
		if err != nil {
			return err
		}
		p.Line = ln
		if p.ID == "" {
			p.ID = name + ":" + strconv.Itoa(ln)
		}
		if prev, dup := ids[p.ID]; dup {
			return fmt.Errorf("id %q already used on line %d", p.ID, prev)
		}
		ids[p.ID] = ln
		out = append(out, p)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ReadFile reads a benchmark set from a file. A FIFO is waited for until
// it has a writer, or ctx ends (Ctrl-C).
func ReadFile(ctx context.Context, path string) ([]*Position, error) {
	r, err := fifo.OpenReader(ctx, path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return Read(r, path)
}

// Write writes a benchmark set, a header comment first (each line
// prefixed with "# ").
func Write(w io.Writer, header string, set []*Position) error {
	bw := bufio.NewWriter(w)
	for _, l := range strings.Split(strings.TrimRight(header, "\n"), "\n") {
		if header != "" {
			fmt.Fprintf(bw, "# %s\n", l)
		}
	}
	for _, p := range set {
		fmt.Fprintln(bw, p.Format())
	}
	return bw.Flush()
}

// quote writes an EPD string operand. EPD has no escapes inside quotes, so
// a double quote becomes a single one and a line break a space: the only
// changes a round trip makes, and only to free text (ids, names).
func quote(s string) string {
	return `"` + strings.NewReplacer(`"`, "'", "\n", " ", "\r", " ").Replace(s) + `"`
}
