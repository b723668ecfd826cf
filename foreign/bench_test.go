package foreign

import (
	"bytes"
	"context"
	"testing"
	"time"
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
	var spent time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		st := mustCreate(b)
		b.StartTimer()
		start := time.Now()
		runs, err := Import(context.Background(), st, bytes.NewReader(stream), Options{})
		spent += time.Since(start)
		if err != nil || len(runs) != 1 || runs[0].Nodes != nodes-1 {
			b.Fatalf("runs %+v, err %v", runs, err)
		}
		total += nodes
	}
	b.ReportMetric(float64(total)/spent.Seconds(), "nodes/s")
}
