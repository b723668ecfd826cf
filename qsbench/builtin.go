package qsbench

import (
	"bytes"
	_ "embed" // the built-in set
)

// BuiltinPath is where the built-in set lives in Horizon's repository:
// 'horizon qsbench collect' and 'oracle' rewrite it there, and the binary
// carries the copy it was built with, so 'horizon qsbench' runs anywhere
// with no file, as 'horizon bench' does.
const BuiltinPath = "qsbench/data/qsbench.epd"

// BuiltinName names the built-in set in output, where a file's name goes.
const BuiltinName = "built-in " + BuiltinPath

var (
	//go:embed data/qsbench.epd
	builtinSet []byte
	//go:embed data/qsbench.stockfish.epd
	builtinSecond []byte
)

// Builtin returns the built-in set, read afresh: callers may change it.
func Builtin() ([]*Position, error) {
	return Read(bytes.NewReader(builtinSet), BuiltinName)
}

// BuiltinSecond returns the built-in set's second oracle (Stockfish's
// values), by the index of set's positions, as ReadSecondOracle does.
func BuiltinSecond(set []*Position) ([]Oracle, error) {
	return readSecond(bytes.NewReader(builtinSecond), "built-in qsbench/data/qsbench.stockfish.epd", set)
}

// TraceRecord is the record as 'horizon trace --epd' needs it to record
// the QS the benchmark ran: the position, its id and the move that led
// there, without the set's other operations.
func (p *Position) TraceRecord() string {
	q := *p
	q.Class, q.Source, q.Oracle = "", "", Oracle{}
	return q.Format()
}
