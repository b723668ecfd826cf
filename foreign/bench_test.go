package foreign

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/internal/cputime"
	"github.com/horizonqs/horizon/trace"
)

// BenchmarkImport imports a stream of Horizon's own search of Kiwipete
// (variant see, depth 6) into a fresh trace file: parsing,
// replaying every move, deriving, and the recorder's writes. nodes/s is
// the figure the issue asks for (at least 1M on the team's machine).
func BenchmarkImport(b *testing.B) {
	stream, nodes := horizonStream(b, kiwipete, "see", 6)
	b.SetBytes(int64(len(stream)))
	b.ResetTimer()
	var total int64
	var spent, cpu time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		st := mustCreate(b)
		b.StartTimer()
		start, c := time.Now(), cputime.Used()
		runs, err := Import(context.Background(), st, bytes.NewReader(stream), Options{})
		spent += time.Since(start)
		cpu += cputime.Used() - c
		if err != nil || len(runs) != 1 || runs[0].Nodes != nodes {
			b.Fatalf("runs %+v, err %v", runs, err)
		}
		total += nodes
	}
	b.ReportMetric(float64(total)/spent.Seconds(), "nodes/s")
	b.ReportMetric(float64(cpu)/float64(total), "cpu-ns/node")
}

// BenchmarkRead is BenchmarkImport without the trace file: parsing,
// replaying every move and deriving, the events fed to a counter. Beside
// BenchmarkImport it shows how much of the import is the reader's and how
// much the SQLite writer's.
func BenchmarkRead(b *testing.B) {
	stream, nodes := horizonStream(b, kiwipete, "see", 6)
	b.SetBytes(int64(len(stream)))
	b.ResetTimer()
	start, cpu := time.Now(), cputime.Used()
	for i := 0; i < b.N; i++ {
		im := newImporter(context.Background(), nil, Options{})
		var c counter
		im.newSink = func(trace.RunInfo, trace.RecordOptions) (sink, error) { return &c, nil }
		// The sink is entered once more than the search counts nodes: the
		// run node, as the engine's own Tracer is.
		if err := im.read(bytes.NewReader(stream)); err != nil || c.entered != nodes+1 {
			b.Fatalf("err %v, %d nodes entered, want %d", err, c.entered, nodes+1)
		}
	}
	b.ReportMetric(float64(nodes)*float64(b.N)/time.Since(start).Seconds(), "nodes/s")
	b.ReportMetric(float64(cputime.Used()-cpu)/float64(nodes)/float64(b.N), "cpu-ns/node")
}

// counter is a sink that counts.
type counter struct{ entered, left int64 }

func (c *counter) Enter(engine.EnterInfo)         { c.entered++ }
func (c *counter) StandPat(engine.StandPatInfo)   {}
func (c *counter) Move(engine.MoveInfo)           {}
func (c *counter) Extension(engine.ExtensionInfo) {}
func (c *counter) Leave(engine.LeaveInfo)         { c.left++ }
func (c *counter) Context() context.Context       { return context.Background() }
func (c *counter) RunID() int64                   { return 1 }
func (c *counter) Finish(trace.Result) error      { return nil }
func (c *counter) Flush()                         {}
