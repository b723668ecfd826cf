package trace

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/horizonqs/horizon/engine"
)

// VisitMark is the compact mark of a move's visit in a path ("dxe6·2": the
// second search of dxe6 under one node, a PVS re-search or a threshold
// level pass). It is "·" and not "#", which scores use for mate; the first
// visit is the bare move. Every path Horizon prints is marked with it, and
// every path it reads (Find, the viewer's, the page's) takes the marks.
// A first search prints bare even when the move was searched again, and
// Find and the viewer read a bare move as its last search: such a path
// reads back to its node only with ·1 added (the page reads bare as the
// first).
func VisitMark(move string, visit int) string {
	if visit <= 1 {
		return move
	}
	return move + VisitSep + strconv.Itoa(visit)
}

// MarkVisits returns path's moves each marked with its visit (VisitMark),
// visits[i] being path[i]'s (compare.Visits): a path as Horizon prints it.
func MarkVisits(path []string, visits []int) []string {
	out := make([]string, len(path))
	for i, m := range path {
		out[i] = m
		if i < len(visits) {
			out[i] = VisitMark(m, visits[i])
		}
	}
	return out
}

// PathVisitsText says how a path names one of a move's several searches
// under one node, for the help of every flag and prompt that reads a path.
const PathVisitsText = "a move searched more than once under one node is its last search unless marked with its visit (dxe6" + VisitSep + "1 the first, dxe6" + VisitSep + "2 the second); the paths Horizon prints leave a first search bare, so add " + VisitSep + "1 to such a move"

// VisitSep separates a move from its visit number in a path (VisitMark).
const VisitSep = "·"

// SplitVisit reads a move of a path as VisitMark writes it: the move and
// its visit, 0 when the text has no mark (the last visit is meant, as
// Find takes it).
func SplitVisit(text string) (move string, visit int, err error) {
	move, n, ok := strings.Cut(text, VisitSep)
	if !ok {
		return text, 0, nil
	}
	v, err := strconv.Atoi(n)
	if err != nil || v < 1 {
		// Quoted and clipped: the text is the user's, of any length, and
		// an error is one line.
		return move, 0, fmt.Errorf("%q after %s is no visit number (%q is a move's 2nd search under one node)",
			engine.Clip(n, 40), VisitSep, engine.Clip(move, 40)+VisitSep+"2")
	}
	return move, v, nil
}

// ChildByMove returns the child of kids (one node's children in search
// order) played with move m: its visit-th search there, or with visit 0
// the last, the one whose score the parent used. ok is false when there is
// none; n then says how many times m was searched.
func ChildByMove(kids []Node, m engine.Move, visit int) (c Node, n int, ok bool) {
	for _, k := range kids {
		if k.Move != m {
			continue
		}
		n++
		if visit == 0 || n == visit {
			c, ok = k, true
		}
		if n == visit {
			break
		}
	}
	return c, n, ok
}
