package engine

// Perft counts the leaf nodes of the legal move tree to depth, counting the
// moves at the last ply in bulk rather than making them.
func Perft(p *Position, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	// One move list per ply, allocated once: a MoveList is 1 KiB, and zeroing
	// a fresh one at every node would cost as much as generating the moves.
	lists := make([]MoveList, depth)
	return perft(p, depth, lists)
}

func perft(p *Position, depth int, lists []MoveList) uint64 {
	l := &lists[depth-1]
	p.Generate(GenAll, l)
	if depth == 1 {
		return uint64(l.N)
	}
	var n uint64
	for _, m := range l.Slice() {
		p.MakeMove(m)
		n += perft(p, depth-1, lists)
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
	if depth < 1 {
		return nil
	}
	var l MoveList
	p.Generate(GenAll, &l)
	out := make([]DivideEntry, 0, l.N)
	for _, m := range l.Slice() {
		p.MakeMove(m)
		out = append(out, DivideEntry{m, Perft(p, depth-1)})
		p.UnmakeMove()
	}
	return out
}
