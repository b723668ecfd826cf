// Minnow is a small, complete chess engine written to show how an engine
// is instrumented for Horizon (docs/guide-go.md): legal move generation
// on a 0x88 board, material and a small piece-square eval, iterative
// deepening fail-soft alpha-beta with null-move pruning, and a quiescence
// search of captures with stand pat. It speaks enough UCI for Horizon:
// uci, isready, ucinewgame, position (startpos or fen, with moves),
// go depth N / go nodes N, quit; and "perft N" to check its moves.
//
// With HORIZON_TRACE set it writes the Horizon trace protocol there;
// built with -tags notrace, the tracing calls are compiled away.
package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/horizonqs/horizon/emit"
)

func main() {
	// Open the stream once, at startup: nil when HORIZON_TRACE is unset.
	tw, err := emit.OpenHeader(emit.Header{Engine: "Minnow (Go) 1.0", Scale: scale})
	if err != nil {
		fmt.Fprintln(os.Stderr, "minnow:", err)
		os.Exit(1)
	}
	defer tw.Close()

	pos, _ := parseFEN(startFEN)
	posArgs := "startpos" // the position command's arguments, for the stream
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	for in.Scan() {
		f := strings.Fields(in.Text())
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "uci":
			fmt.Fprintln(out, "id name Minnow (Go) 1.0\nid author the Horizon authors\nuciok")
		case "isready":
			fmt.Fprintln(out, "readyok")
		case "position":
			p, err := parsePosition(f[1:])
			if err != nil {
				fmt.Fprintln(out, "info string", err)
				break
			}
			pos, posArgs = p, strings.Join(f[1:], " ")
		case "go":
			depth, nodes := goLimits(f[1:])
			s := &Searcher{pos: pos, tw: tw, maxNodes: nodes}
			best := s.run(posArgs, strings.Join(f[1:], " "), depth, out)
			fmt.Fprintln(out, "bestmove", best.uci())
		case "perft":
			d, _ := strconv.Atoi(f[len(f)-1])
			fmt.Fprintln(out, "perft", d, pos.perft(d))
		case "quit":
			out.Flush()
			return
		}
		out.Flush()
	}
}

// parsePosition reads a UCI position command's arguments.
func parsePosition(args []string) (*Position, error) {
	if len(args) == 0 {
		return nil, fmt.Errorf("position: want startpos or fen")
	}
	fen, rest := startFEN, args[1:]
	if args[0] == "fen" {
		i := 1
		for i < len(args) && args[i] != "moves" {
			i++
		}
		fen, rest = strings.Join(args[1:i], " "), args[i:]
	} else if args[0] != "startpos" {
		return nil, fmt.Errorf("position %s: want startpos or fen", args[0])
	}
	p, err := parseFEN(fen)
	if err != nil {
		return nil, err
	}
	if len(rest) > 0 && rest[0] == "moves" {
		for _, s := range rest[1:] {
			m, err := p.parseMove(s)
			if err != nil {
				return nil, err
			}
			p.make(m)
		}
	}
	return p, nil
}

// goLimits reads "go depth N" and "go nodes N"; depth 5 when none is given.
func goLimits(args []string) (depth int, nodes int64) {
	depth = 5
	for i := 0; i+1 < len(args); i++ {
		n, err := strconv.ParseInt(args[i+1], 10, 64)
		if err != nil {
			continue
		}
		switch args[i] {
		case "depth":
			depth = int(n)
			if depth < 1 {
				depth = 1
			}
			if depth > maxPly/2 {
				depth = maxPly / 2
			}
		case "nodes":
			nodes = n
			depth = maxPly / 2
		}
	}
	return depth, nodes
}

// run is iterative deepening: one root search per depth, each written as
// a root of its own. It prints an info line per finished iteration and
// returns the best move of the last one.
func (s *Searcher) run(posArgs, limits string, depth int, out *bufio.Writer) Move {
	start := time.Now()
	if traced && s.tw.On() {
		s.tw.Position(posArgs)
		s.tw.Limits(limits)
	}
	best := noMove
	if ms := s.pos.legal(nil, false); len(ms) > 0 {
		best = ms[0] // what a search stopped in its first iteration plays
	}
	for d := 1; d <= depth && best != noMove; d++ {
		score := s.search(Move{}, d, -infinity, infinity, 0)
		if s.stopped {
			break
		}
		best, s.pvMove = s.rootBest, s.rootBest
		ms := time.Since(start).Milliseconds()
		fmt.Fprintf(out, "info depth %d score %s nodes %d time %d pv %s\n", d, uciScore(score), s.nodes, ms, best.uci())
		out.Flush()
	}
	if traced && s.tw.On() {
		if s.stopped {
			// One abort closes every node the stop left open. Nothing
			// follows it but the end record: no leave of those nodes, no
			// node of a search that carried on past its stop flag.
			s.tw.Abort()
		}
		s.tw.EndTime(best.uci(), s.nodes, time.Since(start).Milliseconds())
	}
	return best
}

// uciScore writes a score as UCI's "cp N" or "mate N" (moves, not plies).
func uciScore(score int) string {
	switch {
	case score >= mateMin:
		return "mate " + strconv.Itoa((mate-score+1)/2)
	case score <= -mateMin:
		return "mate " + strconv.Itoa(-(mate+score)/2)
	}
	return "cp " + strconv.Itoa(score)
}
