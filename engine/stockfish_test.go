package engine_test

import (
	"context"
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/uci"
)

// TestDivideAgainstStockfish compares Divide with Stockfish's "go perft" on
// positions reached by random walks from the test data.
func TestDivideAgainstStockfish(t *testing.T) {
	sf := uci.FindStockfish()
	if sf == "" {
		t.Skip("stockfish not found (PATH or /usr/games/stockfish); install it to run the perft oracle test")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	eng, err := uci.StartEngine(ctx, sf)
	if err != nil {
		t.Fatalf("starting %s: %v", sf, err)
	}
	defer eng.Close()

	count, depth := 40, 4
	if testing.Short() {
		count, depth = 12, 3
	}
	all := engine.TestPositions(t)
	rng := rand.New(rand.NewSource(2))
	for i := 0; i < count; i++ {
		p := all[rng.Intn(len(all))].Copy()
		for n := rng.Intn(30); n > 0; n-- {
			moves := p.LegalMoves()
			if len(moves) == 0 {
				break
			}
			p.MakeMove(moves[rng.Intn(len(moves))])
		}
		fen := p.FEN()
		want, wantTotal, _, err := eng.Perft(fen, depth)
		if err != nil {
			t.Fatalf("stockfish on %s: %v", fen, err)
		}
		got := map[string]uint64{}
		var total uint64
		for _, d := range engine.Divide(p, depth) {
			got[d.Move.UCI()] = d.Nodes
			total += d.Nodes
		}
		if total == wantTotal && fmt.Sprint(got) == fmt.Sprint(want) {
			continue
		}
		var diff []string
		for mv := range merged(got, want) {
			if got[mv] != want[mv] {
				diff = append(diff, fmt.Sprintf("%s: horizon %d, stockfish %d", mv, got[mv], want[mv]))
			}
		}
		sort.Strings(diff)
		t.Errorf("perft(%d) of %s: horizon %d, stockfish %d; moves that differ: %s",
			depth, fen, total, wantTotal, strings.Join(diff, "; "))
	}
}

func merged(a, b map[string]uint64) map[string]bool {
	m := map[string]bool{}
	for k := range a {
		m[k] = true
	}
	for k := range b {
		m[k] = true
	}
	return m
}
