package engine

// ttEntry is one transposition table slot (16 bytes).
type ttEntry struct {
	key   uint64
	move  Move
	score int16
	depth int8
	bound Bound
}

// transTable is a single-slot, always-replace hash table: simple and
// deterministic, which matters more to a debugger than the last few Elo.
type transTable struct {
	entries []ttEntry
	mask    uint64
}

func newTransTable(mb int) *transTable {
	n := uint64(1)
	for n*2*16 <= uint64(mb)<<20 {
		n *= 2
	}
	return &transTable{entries: make([]ttEntry, n), mask: n - 1}
}

func (t *transTable) clear() { clear(t.entries) }

func (t *transTable) probe(key uint64) (ttEntry, bool) {
	e := t.entries[key&t.mask]
	return e, e.key == key && e.bound != BoundNone
}

func (t *transTable) store(key uint64, m Move, s Score, depth int, b Bound, ply int) {
	e := &t.entries[key&t.mask]
	if e.key == key && m == NoMove {
		m = e.move // keep the old best move rather than forget it
	}
	*e = ttEntry{key: key, move: m, score: int16(scoreToTT(s, ply)), depth: int8(max(min(depth, 127), -128)), bound: b}
}

// Mate scores are stored relative to the node, not the root, so that a hit
// at another ply reports the right distance.
func scoreToTT(s Score, ply int) Score {
	switch {
	case s > MateBound:
		return s + Score(ply)
	case s < -MateBound:
		return s - Score(ply)
	}
	return s
}

func scoreFromTT(s Score, ply int) Score {
	switch {
	case s > MateBound:
		return s - Score(ply)
	case s < -MateBound:
		return s + Score(ply)
	}
	return s
}
