package export

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
	"github.com/parquet-go/parquet-go"
)

// The files of a Parquet export: one per name of the trace's SQL, so that
// a query over a trace reads the same over its export (docs/parquet.md).
const (
	ParquetNodes = "nodes.parquet"
	ParquetRuns  = "runs.parquet"
)

// ParquetFiles lists the files WriteParquet writes, in the order it
// writes them.
func ParquetFiles() []string { return []string{ParquetRuns, ParquetNodes} }

// parquetRowGroup is how many node rows a row group holds. The writer
// holds one row group's columns in memory (about 60 bytes a row before
// compression), so an export of any size stays within tens of MB; a
// million-row group is what analytic engines read best, and this is near
// enough (DuckDB parallelises over row groups).
var parquetRowGroup = int64(256 * 1024)

// parquetBatch is how many rows are handed to the writer at a time.
const parquetBatch = 1024

// NodeRow is a row of nodes.parquet: the columns of the trace's SQL view
// nodes, by the same names and meanings (docs/parquet.md), typed: 0/1
// flags as booleans, NULL where the view has NULL.
type NodeRow struct {
	RunID       int64   `parquet:"run_id"`
	ID          int64   `parquet:"id"`
	ParentID    int64   `parquet:"parent_id"` // -1 for the run node, as in the view
	Ply         int32   `parquet:"ply"`
	Iteration   int32   `parquet:"iteration"`
	Move        *string `parquet:"move"` // UCI; NULL for the run node and iteration roots
	Depth       int32   `parquet:"depth"`
	Alpha       int32   `parquet:"alpha"`
	Beta        int32   `parquet:"beta"`
	Kind        string  `parquet:"kind,dict"`
	QSPly       *int32  `parquet:"qs_ply"`   // NULL outside QS
	QSLevel     *int32  `parquet:"qs_level"` // NULL where the engine has no levels
	InCheck     bool    `parquet:"in_check"`
	StandPat    *int32  `parquet:"stand_pat"` // the static eval; NULL where the node computed none
	Score       int32   `parquet:"score"`
	Bound       string  `parquet:"bound,dict"`
	Cutoff      string  `parquet:"cutoff,dict"`
	CutIndex    int32   `parquet:"cut_index"` // -1 where no move failed high
	Best        *string `parquet:"best"`      // UCI; NULL when none
	Generated   int32   `parquet:"generated"`
	Searched    int32   `parquet:"searched"` // the true count, where the view's saturates at 255
	Extension   int32   `parquet:"extension"`
	SubtreeSize int64   `parquet:"subtree_size"`
	Incomplete  bool    `parquet:"incomplete"`
}

// RunRow is a row of runs.parquet: the columns of the trace's SQL table
// runs that docs/parquet.md documents, typed (created is a timestamp).
type RunRow struct {
	ID        int64     `parquet:"id"`
	Created   time.Time `parquet:"created,timestamp(microsecond:utc)"`
	FEN       string    `parquet:"fen"`
	Variant   string    `parquet:"variant"`
	Options   string    `parquet:"options"` // JSON, as stored
	Limits    string    `parquet:"limits"`  // JSON, as stored
	Version   string    `parquet:"version"`
	Status    string    `parquet:"status"`
	StopCause *string   `parquet:"stop_cause"`
	Filter    string    `parquet:"filter"`
	Nodes     int64     `parquet:"nodes"`
	QSNodes   int64     `parquet:"qs_nodes"`
	Rows      int64     `parquet:"rows"`
	MaxPly    int32     `parquet:"max_ply"`
	MaxQSPly  int32     `parquet:"max_qs_ply"`
	ElapsedMS int64     `parquet:"elapsed_ms"`
	BestMove  *string   `parquet:"best_move"`
	Score     *int32    `parquet:"score"`
	PV        *string   `parquet:"pv"` // UCI moves separated by spaces
	Depth     int32     `parquet:"depth"`
	Engine    *string   `parquet:"engine"` // NULL for Horizon's own engine
	FailHard  bool      `parquet:"fail_hard"`
	EPDID     *string   `parquet:"epd_id"`
}

// ParquetCounts is what WriteParquet wrote.
type ParquetCounts struct {
	Runs, Nodes int64
}

// WriteParquet writes runs of st as Parquet: their rows of the runs table
// to runs, and every node row of each, run by run in id order (pre-order),
// to nodes. Rows are read as a stream and written a row group at a time,
// so memory stays bounded whatever the runs' size.
func WriteParquet(ctx context.Context, st trace.Reader, runs []trace.Run, nodes, runsOut io.Writer) (ParquetCounts, error) {
	var c ParquetCounts
	rw := parquet.NewGenericWriter[RunRow](runsOut, parquet.Compression(&parquet.Snappy), parquet.CreatedBy("horizon", "", ""))
	for _, r := range runs {
		if _, err := rw.Write([]RunRow{runRow(r)}); err != nil {
			return c, fmt.Errorf("write %s: %w", ParquetRuns, err)
		}
		c.Runs++
	}
	if err := rw.Close(); err != nil {
		return c, fmt.Errorf("write %s: %w", ParquetRuns, err)
	}
	nw := parquet.NewGenericWriter[NodeRow](nodes, parquet.Compression(&parquet.Snappy), parquet.CreatedBy("horizon", "", ""),
		parquet.MaxRowsPerRowGroup(parquetRowGroup))
	batch := make([]NodeRow, 0, parquetBatch)
	flush := func() error {
		if _, err := nw.Write(batch); err != nil {
			return fmt.Errorf("write %s: %w", ParquetNodes, err)
		}
		c.Nodes += int64(len(batch))
		batch = batch[:0]
		return nil
	}
	for _, r := range runs {
		err := st.Subtree(ctx, r.ID, 0, -1, func(n trace.Node) error {
			batch = append(batch, nodeRow(n))
			if len(batch) == cap(batch) {
				return flush()
			}
			return nil
		})
		if err != nil {
			return c, err
		}
	}
	if err := flush(); err != nil {
		return c, err
	}
	if err := nw.Close(); err != nil {
		return c, fmt.Errorf("write %s: %w", ParquetNodes, err)
	}
	return c, nil
}

// nodeRow is n as the view nodes gives it.
func nodeRow(n trace.Node) NodeRow {
	r := NodeRow{RunID: n.RunID, ID: n.ID, ParentID: n.Parent, Ply: int32(n.Ply), Iteration: int32(n.Iteration),
		Move: viewMove(n.Move), Depth: int32(n.Depth), Alpha: int32(n.Alpha), Beta: int32(n.Beta), Kind: n.Kind.String(),
		InCheck: n.InCheck, Score: int32(n.Score), Bound: n.Bound.String(), Cutoff: n.Cause.String(),
		CutIndex: int32(n.CutIndex), Best: viewMove(n.Best), Generated: int32(n.Generated), Searched: int32(n.Searched),
		Extension: int32(n.Extension), SubtreeSize: n.SubtreeSize, Incomplete: n.Incomplete}
	if n.QSPly >= 0 {
		r.QSPly = ptr(int32(n.QSPly))
	}
	if n.QSLevel >= 0 {
		r.QSLevel = ptr(int32(n.QSLevel))
	}
	if n.HasStandPat {
		r.StandPat = ptr(int32(n.StandPat))
	}
	return r
}

// viewMove is a move as the view's move and best columns give it: NULL
// for none, "0000" for a null move.
func viewMove(m engine.Move) *string {
	if m == engine.NoMove {
		return nil
	}
	return ptr(m.UCI())
}

// runRow is r as the runs table holds it, with Horizon's reading where it
// knows more than the stored column (docs/parquet.md): an abandoned run's
// status, no score where the run has none.
func runRow(r trace.Run) RunRow {
	row := RunRow{ID: r.ID, Created: r.Created.UTC(), FEN: r.FEN, Variant: r.Variant, Options: r.Options, Limits: r.Limits,
		Version: r.Version, Status: string(r.Status), StopCause: nonEmpty(r.StopCause), Filter: r.Filter,
		Nodes: r.Nodes, QSNodes: r.QSNodes, Rows: r.Rows, MaxPly: int32(r.MaxPly), MaxQSPly: int32(r.MaxQSPly),
		ElapsedMS: r.Elapsed.Milliseconds(), BestMove: nonEmpty(r.BestMove), PV: nonEmpty(strings.Join(r.PV, " ")),
		Depth: int32(r.Depth), Engine: nonEmpty(r.Engine), FailHard: r.FailHard, EPDID: nonEmpty(r.EPDID)}
	if r.Scored() {
		row.Score = ptr(int32(r.Score))
	}
	return row
}

func ptr[T any](v T) *T { return &v }

// nonEmpty is s, NULL when empty.
func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
