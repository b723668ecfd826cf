package engine

import (
	"context"
	"errors"
)

// MaxPerftDepth bounds perft: depth 15 from the start position is already
// beyond any published count.
const MaxPerftDepth = 15

// ErrPerftStopped is returned by PerftContext when its context ends first.
var ErrPerftStopped = errors.New("perft stopped")

// Perft counts the leaf nodes of the legal move tree to depth, counting the
// moves at the last ply in bulk rather than making them.
func Perft(p *Position, depth int) uint64 {
	n, _ := PerftContext(context.Background(), p, depth)
	return n
}

// PerftContext is Perft that stops, restoring the position, soon after ctx
// is done: the context is polled every 4096 interior nodes, which bulk
// counting makes a negligible cost.
func PerftContext(ctx context.Context, p *Position, depth int) (uint64, error) {
	if depth <= 0 {
		return 1, nil
	}
	// One move list per ply, allocated once: a MoveList is 1 KiB, and zeroing
	// a fresh one at every node would cost as much as generating the moves.
	pf := perfter{lists: make([]MoveList, depth), done: ctx.Done()}
	n := pf.perft(p, depth)
	if pf.stopped {
		return 0, ErrPerftStopped
	}
	return n, nil
}

type perfter struct {
	lists    []MoveList
	done     <-chan struct{}
	interior uint32
	stopped  bool
}

func (pf *perfter) perft(p *Position, depth int) uint64 {
	l := &pf.lists[depth-1]
	p.Generate(GenAll, l)
	if depth == 1 {
		return uint64(l.N)
	}
	if pf.interior++; pf.interior&4095 == 0 && pf.done != nil {
		select {
		case <-pf.done:
			pf.stopped = true
		default:
		}
	}
	var n uint64
	for _, m := range l.Slice() {
		if pf.stopped {
			break
		}
		p.MakeMove(m)
		n += pf.perft(p, depth-1)
		p.UnmakeMove()
	}
	return n
}

// DivideEntry is one root move and the perft count below it.
type DivideEntry struct {
	Move  Move
	Nodes uint64
}

// Divide returns the perft count below each legal root move, in generation order.
func Divide(p *Position, depth int) []DivideEntry {
	out, _ := DivideContext(context.Background(), p, depth, nil)
	return out
}

// DivideContext is Divide that stops soon after ctx is done. each, when
// not nil, is called with every root move's count as it is done, for a
// progress line.
func DivideContext(ctx context.Context, p *Position, depth int, each func(DivideEntry)) ([]DivideEntry, error) {
	if depth < 1 {
		return nil, nil
	}
	var l MoveList
	p.Generate(GenAll, &l)
	out := make([]DivideEntry, 0, l.N)
	for _, m := range l.Slice() {
		p.MakeMove(m)
		n, err := PerftContext(ctx, p, depth-1)
		p.UnmakeMove()
		if err != nil {
			return nil, err
		}
		out = append(out, DivideEntry{m, n})
		if each != nil {
			each(out[len(out)-1])
		}
	}
	return out, nil
}
