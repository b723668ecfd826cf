package engine

import "fmt"

// The assert* checks run only behind `if asserts`, Stockfish's assert() in
// Go: without the horizonassert tag the constant false compiles the calls
// and their conditions away, so an invariant may be as dear to check as it
// needs. Each tests its condition first and formats only when it is
// broken, so a passing check allocates nothing (TestNoAllocationPerNode
// holds with the tag too).

// broken panics naming the invariant the search relied on.
func broken(format string, a ...any) {
	panic(fmt.Sprintf("engine invariant broken: "+format, a...))
}

// assertEnter checks what every routine assumes of a node it enters: a
// window that is not empty and lies within the score range, a ply and QS
// ply within the stack, and a frame the parent set up for its kind.
func (s *Searcher) assertEnter(f *frame, ply, depth int, alpha, beta Score, kind NodeKind) {
	if !(-Infinity <= alpha && alpha < beta && beta <= Infinity) {
		broken("node %d at ply %d: window [%d, %d] is empty or out of range", f.id, ply, alpha, beta)
	}
	if ply < 0 || ply > MaxPly {
		broken("node %d: ply %d outside [0, %d]", f.id, ply, MaxPly)
	}
	switch {
	case kind == KindQS && (f.qsPly < 0 || depth != -f.qsPly):
		broken("QS node %d at ply %d: QS ply %d, depth %d (want -QS ply)", f.id, ply, f.qsPly, depth)
	case kind == KindQS && f.qsPly > s.opts.MaxQSPly:
		broken("QS node %d: QS ply %d past the limit %d", f.id, f.qsPly, s.opts.MaxQSPly)
	case kind != KindQS && depth > MaxPly:
		broken("node %d at ply %d: depth %d past %d", f.id, ply, depth, MaxPly)
	}
}

// assertMove checks a move before the move loop makes it: MakeMove trusts
// its caller with legality, and a pruning or ordering step that let an
// illegal move through would corrupt the board silently.
func (s *Searcher) assertMove(f *frame, m Move, i int) {
	if !s.pos.IsLegal(m) {
		broken("node %d: move %d (%s) is not legal in %s", f.id, i, m.UCI(), s.pos.FEN())
	}
}

// assertUnmade checks that a child left the board as it found it.
func (s *Searcher) assertUnmade(f *frame, m Move, key uint64) {
	if s.pos.key != key || s.pos.key != s.pos.computeKey() {
		broken("node %d: the board's key changed across %s and its subtree", f.id, m.UCI())
	}
}
