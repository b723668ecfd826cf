package engine

// ttEntry is one transposition table slot (16 bytes). The move field also
// carries the search generation that wrote the entry, so that starting a
// search "clean" is one increment rather than clearing the whole table.
type ttEntry struct {
	key     uint64
	moveGen uint32 // move in bits 0-19, generation above
	score   int16
	depth   int8
	bound   Bound
}

const ttGenShift = 20

// transTable is a single-slot, always-replace hash table: simple and
// deterministic, which matters more to a debugger than the last few Elo.
type transTable struct {
	entries []ttEntry
	mask    uint64
	gen     uint32
	mb      int // size asked for, in MiB
}

func newTransTable(mb int) *transTable {
	n := uint64(1)
	for n*2*16 <= uint64(mb)<<20 {
		n *= 2
	}
	return &transTable{entries: make([]ttEntry, n), mask: n - 1, gen: 1, mb: mb}
}

// clear makes every entry invalid for the searches that follow.
func (t *transTable) clear() {
	t.gen++
	if t.gen >= 1<<(32-ttGenShift) {
		clear(t.entries)
		t.gen = 1
	}
}

func (t *transTable) probe(key uint64) (ttEntry, bool) {
	e := t.entries[key&t.mask]
	return e, e.key == key && e.moveGen>>ttGenShift == t.gen && e.bound != BoundNone
}

func (e ttEntry) move() Move { return Move(e.moveGen & (1<<ttGenShift - 1)) }

// ttCuts reports whether a stored score sc of bound b decides a node with
// window (alpha, beta) without a search: an exact score, a lower bound at
// or above beta, an upper bound at or below alpha. The full-width search
// (its cutoff) and the unified search (its depth bootstrapping) both take
// it here.
func ttCuts(b Bound, sc, alpha, beta Score) bool {
	return b == BoundExact || (b == BoundLower && sc >= beta) || (b == BoundUpper && sc <= alpha)
}

func (t *transTable) store(key uint64, m Move, s Score, depth int, b Bound, ply int) {
	e := &t.entries[key&t.mask]
	if m == NoMove && e.key == key && e.moveGen>>ttGenShift == t.gen {
		m = e.move() // keep the old best move rather than forget it
	}
	*e = ttEntry{key: key, moveGen: uint32(m) | t.gen<<ttGenShift, score: int16(scoreToTT(s, ply)),
		depth: int8(max(min(depth, 127), -128)), bound: b}
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
