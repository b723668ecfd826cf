package engine

import "testing"

// Perft benchmarks: startpos depth 6 and Kiwipete depth 5, bulk counting at
// the last ply. Compare with Stockfish via `horizon perft --bench`.
func BenchmarkPerftStartD6(b *testing.B) {
	p := MustParseFEN(StartFEN)
	for i := 0; i < b.N; i++ {
		if n := Perft(p, 6); n != 119060324 {
			b.Fatalf("perft = %d", n)
		}
	}
	b.ReportMetric(float64(119060324*b.N)/b.Elapsed().Seconds()/1e6, "Mnps")
}

func BenchmarkPerftKiwipeteD5(b *testing.B) {
	p := MustParseFEN("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	for i := 0; i < b.N; i++ {
		if n := Perft(p, 5); n != 193690690 {
			b.Fatalf("perft = %d", n)
		}
	}
	b.ReportMetric(float64(193690690*b.N)/b.Elapsed().Seconds()/1e6, "Mnps")
}
