package uci

import "time"

// Time management for clock games. It is deliberately simple: a debugger's
// engine needs to finish its games, not to win them.
const (
	// moveOverhead is kept back from the clock for the GUI's, the pipe's
	// and the operating system's lag.
	moveOverhead = 30 * time.Millisecond
	// defaultMovesToGo is the number of moves the remaining time is spread
	// over in sudden-death and increment games.
	defaultMovesToGo = 30
	// minThink is the least a search is given, so that it completes at
	// least its first iterations even on an almost empty clock.
	minThink = time.Millisecond
)

// budget is the time a clock game allows for one move.
type budget struct {
	// target is the time the move should take: no new iteration is begun
	// once half of it has passed (the next one would most likely overrun).
	target time.Duration
	// hard stops the search wherever it is.
	hard time.Duration
}

// allocate splits the side to move's clock: left on the clock, inc added
// after each move, movesToGo moves to the next time control (0 when the
// whole game must be played in left).
//
// target = usable/movesToGo + inc/2 and hard = 3*target, both capped at
// half the usable time (four fifths when this is the last move before the
// time control), where usable is left minus moveOverhead but never less
// than a quarter of left.
func allocate(left, inc time.Duration, movesToGo int) budget {
	left = max(left, 0)
	inc = max(inc, 0)
	usable := max(left-moveOverhead, left/4)
	mtg := defaultMovesToGo
	if movesToGo > 0 {
		mtg = movesToGo
	}
	limit := usable / 2
	if mtg == 1 {
		limit = usable * 4 / 5
	}
	b := budget{target: usable/time.Duration(mtg) + inc/2}
	b.hard = min(3*b.target, limit)
	b.target = min(b.target, b.hard)
	b.target = max(b.target, minThink)
	b.hard = max(b.hard, minThink)
	return b
}
