package engine

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// findStockfish returns the path of a Stockfish binary, or "".
func findStockfish() string {
	if p, err := exec.LookPath("stockfish"); err == nil {
		return p
	}
	if p, err := exec.LookPath("/usr/games/stockfish"); err == nil {
		return p
	}
	return ""
}

// uciPerft drives a UCI engine that understands Stockfish's "go perft".
type uciPerft struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

func startUCIPerft(ctx context.Context, path string) (*uciPerft, error) {
	cmd := exec.CommandContext(ctx, path)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	e := &uciPerft{cmd: cmd, in: in, out: bufio.NewScanner(out)}
	fmt.Fprintln(in, "uci")
	if err := e.waitFor("uciok"); err != nil {
		e.close()
		return nil, err
	}
	return e, nil
}

func (e *uciPerft) waitFor(line string) error {
	for e.out.Scan() {
		if strings.TrimSpace(e.out.Text()) == line {
			return nil
		}
	}
	return fmt.Errorf("engine stopped before %q: %v", line, e.out.Err())
}

// divide runs "go perft depth" and returns the per-move counts and the total.
func (e *uciPerft) divide(fen string, depth int) (map[string]uint64, uint64, error) {
	fmt.Fprintf(e.in, "position fen %s\ngo perft %d\n", fen, depth)
	moves := map[string]uint64{}
	for e.out.Scan() {
		line := strings.TrimSpace(e.out.Text())
		if total, ok := strings.CutPrefix(line, "Nodes searched:"); ok {
			n, err := strconv.ParseUint(strings.TrimSpace(total), 10, 64)
			return moves, n, err
		}
		mv, count, ok := strings.Cut(line, ": ")
		if !ok {
			continue
		}
		n, err := strconv.ParseUint(count, 10, 64)
		if err != nil {
			return nil, 0, fmt.Errorf("bad divide line %q", line)
		}
		moves[mv] = n
	}
	return nil, 0, fmt.Errorf("engine stopped during perft: %v", e.out.Err())
}

func (e *uciPerft) close() {
	fmt.Fprintln(e.in, "quit")
	e.in.Close()
	e.cmd.Wait()
}

// TestDivideAgainstStockfish compares Divide with Stockfish's "go perft" on
// positions reached by random walks from the test data.
func TestDivideAgainstStockfish(t *testing.T) {
	sf := findStockfish()
	if sf == "" {
		t.Skip("stockfish not found (PATH or /usr/games/stockfish); install it to run the perft oracle test")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	eng, err := startUCIPerft(ctx, sf)
	if err != nil {
		t.Fatalf("starting %s: %v", sf, err)
	}
	defer eng.close()

	count, depth := 40, 4
	if testing.Short() {
		count, depth = 12, 3
	}
	all := testPositions(t)
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
		want, wantTotal, err := eng.divide(fen, depth)
		if err != nil {
			t.Fatalf("stockfish on %s: %v", fen, err)
		}
		got := map[string]uint64{}
		var total uint64
		for _, d := range Divide(p, depth) {
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
