package trace

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/horizonqs/horizon/engine"
)

// VisitMark writes move as a path names its visit-th search under one
// node, searches being how many times the move was searched there: marked
// "dxe6·2" (the second search: a PVS re-search, a threshold level pass)
// whenever the bare move would name another search. That is when visit
// is past 1, or when it is 1 and later searches follow, since Find and the
// viewer read a bare move as its last search (the one whose score the
// parent used): a first search that was searched again prints "dxe6·1".
// A move searched once prints bare. The mark is "·" and not "#", which
// scores use for mate. Every path Horizon prints is marked here, so every
// printed path reads back (Find, the viewer's, the page's) to its node.
func VisitMark(move string, visit, searches int) string {
	if visit < 1 || visit == 1 && searches <= 1 {
		return move
	}
	return move + VisitSep + strconv.Itoa(visit)
}

// MarkVisits returns path's moves each marked with its visit (VisitMark),
// visits[i] and searches[i] being path[i]'s (Visits): a path as
// Horizon prints it.
func MarkVisits(path []string, visits, searches []int) []string {
	out := make([]string, len(path))
	for i, m := range path {
		out[i] = m
		if i < len(visits) {
			n := 0
			if i < len(searches) {
				n = searches[i]
			}
			out[i] = VisitMark(m, visits[i], n)
		}
	}
	return out
}

// PathVisitsText says how a path names one of a move's several searches
// under one node, for the help of every flag and prompt that reads a path.
const PathVisitsText = "a move searched more than once under one node is its last search unless marked with its visit (dxe6" + VisitSep + "1 the first, dxe6" + VisitSep + "2 the second), as the paths Horizon prints mark it; dxe6.2 or dxe6#2 where " + VisitSep + " cannot be typed; another engine's nested search (IID, a singular test) is its mark in brackets: [iid], [singular -e2e4]"

// SplitPath splits a move path as a user writes or pastes it into its
// moves: separated by spaces or commas, as every path flag and prompt
// takes them, with move numbers dropped ("1. dxe6·1 Bxe2 2. exf7+", as
// the viewer's details print a SAN path, or "12...Nf6" as PGN writes it),
// so a path copied from anywhere Horizon prints one reads back. A nested
// search's mark ("[singular -e2e4]", NestedText) is one step, spaces and
// all.
func SplitPath(text string) []string {
	var moves []string
	// A nested search's mark ("[singular -e2e4]", NestedText) is one step:
	// its brackets hold what would otherwise separate.
	inside := false
	for _, f := range strings.FieldsFunc(text, func(r rune) bool {
		switch r {
		case '[':
			inside = true
		case ']':
			inside = false
		}
		return !inside && (r == ',' || unicode.IsSpace(r))
	}) {
		if f = dropMoveNumber(f); f != "" {
			moves = append(moves, f)
		}
	}
	return moves
}

// ParsePlace reads a path the user gave, maybe a place as PlaceText
// prints one: the root it starts from (SplitIteration; It NoIteration
// when it names none) and its moves (PathMoves). Every flag and prompt
// that takes a path reads it so.
func ParsePlace(text string) (root PlaceRoot, moves []string, err error) {
	root, rest, err := SplitIteration(text)
	if err != nil {
		return BareRoot, nil, err
	}
	moves, err = PathMoves(rest)
	return root, moves, err
}

// PlaceRoot is the iteration root a place starts from, as PlaceText
// prints it and ParsePlace reads it: iteration It (NoIteration: the place
// names none and starts in the iteration the run reports), and the
// root's Visit among that iteration's roots in search order (from 1) of
// Searches. An iteration searched more than once (an aspiration window's
// re-search, which Ethereal makes) has several roots: a root prints
// marked as VisitMark marks a move ("iteration 2·1:") where the bare
// iteration would name another, since a bare iteration reads as its last
// root (Visit 0 when read), the one whose answer stood.
type PlaceRoot struct{ It, Visit, Searches int }

// PlaceFields are a node's place as every --json gives it (hotspots,
// check's violations, diff's differences and subtrees, the page's
// divergences), beside the text (PlaceText): its root (Iteration, and the
// root's IterationVisit among the IterationSearches roots of that
// iteration: PlaceRoot), its moves in SAN from the run's position (UCI
// from a move that may not be played where it was), each move's visit
// among the same move's searches under its parent (2: a PVS re-search, a
// later internal iteration or level pass) and how many there were
// (VisitMark marks a path with both).
type PlaceFields struct {
	Iteration         int      `json:"iteration"`
	IterationVisit    int      `json:"iteration_visit"`
	IterationSearches int      `json:"iteration_searches"`
	Path              []string `json:"path"`
	Visits            []int    `json:"visits"`
	Searches          []int    `json:"searches"`
}

// Root is the root p starts from, its iteration named (PlaceIteration
// says whether a run's places may leave it out).
func (p PlaceFields) Root() PlaceRoot {
	return PlaceRoot{It: p.Iteration, Visit: p.IterationVisit, Searches: p.IterationSearches}
}

// BareRoot is the root of a place that names no iteration.
var BareRoot = PlaceRoot{It: NoIteration}

// RootOf is node id's PlaceRoot in a run whose iteration roots (the run
// node's children, in search order) are roots: the iteration of the root
// above id, named unless the run searched QS alone (PlaceIteration), that
// root's visit among the roots of its iteration and their number.
// BareRoot for the run node, which no path names. (A place diff prints
// for two runs takes the larger Searches of the two: compare's marks.)
func RootOf(roots []Node, id int64) PlaceRoot {
	for i, r := range roots {
		if !r.Contains(id) {
			continue
		}
		pr := PlaceRoot{It: PlaceIteration(roots, r.Iteration)}
		if pr.It == NoIteration {
			return pr
		}
		for j, o := range roots {
			if o.Iteration == r.Iteration {
				pr.Searches++
				if j <= i {
					pr.Visit++
				}
			}
		}
		return pr
	}
	return BareRoot
}

// NoIteration is the iteration of a place that names none: what
// SplitIteration and ParsePlace return for a path with no "iteration N:"
// (it starts in the iteration the run reports, ReportedRoot), and what
// PlaceText prints bare. It is not 0: a run's iteration 0 (a search of
// QS alone under its root, before iteration 1) is named as any other.
const NoIteration = -1

// PlaceText writes a node's place as every reader prints it, so that
// ParsePlace (export --path, view --path, the viewer's /, the page's
// search) reads it back to the node: its root's iteration (IterationLabel,
// where "d4" would read as a remaining depth), marked with the root's
// visit where the iteration has later roots (PlaceRoot: "iteration
// 2·1"), and a colon, then its moves each marked with its visit
// (MarkVisits: "dxe6·1" for a first search with later ones), or RootPath
// for the root itself: "iteration 4: Nxe5 dxe6·2". With root.It
// NoIteration the moves print bare (PlaceIteration says where they may).
func PlaceText(root PlaceRoot, path []string, visits, searches []int) string {
	s := strings.Join(MarkVisits(path, visits, searches), " ")
	if s == "" {
		s = RootPath
	}
	if root.It == NoIteration {
		return s
	}
	n := root.Searches
	if n == 0 && root.Visit > 0 {
		n = root.Visit + 1 // a root read from a place (SplitIteration): the visit it named stands
	}
	return VisitMark(IterationLabel(root.It), root.Visit, n) + ": " + s
}

// PlaceIteration is the iteration PlaceText is given for a node of
// iteration it in a run whose iteration roots (the run node's children)
// are roots: it, or NoIteration where the run's one root is of iteration
// 0 (a search of QS alone: Horizon's --qs-only, whose root is its QS root
// and no iteration's), where a bare path reads back as well
// (ReportedRoot). Two roots of iteration 0 (a QS-only search made again)
// are named, as a bare path reads in the last. A place printed for two
// runs (diff's) names the iteration where either run's roots do. In a
// run with later iterations, iteration 0 is named: a bare path there
// starts in the iteration the run reports.
func PlaceIteration(roots []Node, it int) int {
	if it != 0 || len(roots) > 1 {
		return it // several roots: a bare path reads in the last one only
	}
	return NoIteration
}

// RootPath is how a path of no moves prints ("iteration 3: (root)", an
// iteration's root); PathMoves reads it back as no moves.
const RootPath = "(root)"

// PathMoves is SplitPath for a path the user gave: text that holds
// something but no move ("1.", ",") is an error, where SplitPath's empty
// path would name the start node (the reported iteration's root, or the
// node a path starts from) without a word. Blank text is no path.
func PathMoves(text string) ([]string, error) {
	if strings.TrimSpace(text) == RootPath {
		return nil, nil
	}
	moves := SplitPath(text)
	if len(moves) == 0 && strings.TrimSpace(text) != "" {
		return nil, fmt.Errorf("%q names no move (move numbers and commas are left out of a path)", engine.Clip(text, 40))
	}
	return moves, nil
}

// SplitIteration reads the root a printed place names ("iteration 3:
// Bxa6 bxc3·2", "iteration 2·1: e4", as PlaceText prints it:
// IterationLabel, maybe a visit mark, and a colon) off the front of text:
// the root (its Visit 0 when unmarked: the iteration's last root) and
// the path after it, or BareRoot and text unchanged when text names none.
// A path printed for an earlier iteration so reads back there
// (IterationRoot), not in the iteration the run reports; "iteration 0:"
// names iteration 0.
func SplitIteration(text string) (root PlaceRoot, rest string, err error) {
	label := IterationPrefix
	head, tail, ok := strings.Cut(text, ":")
	head = strings.TrimSpace(head)
	if !ok || len(head) < len(label) || !strings.EqualFold(head[:len(label)], label) {
		return BareRoot, text, nil
	}
	num, mark, marked := cutVisit(strings.TrimSpace(head[len(label):]))
	n, err := strconv.Atoi(strings.TrimSpace(num))
	if err != nil || n < 0 {
		return BareRoot, text, fmt.Errorf("%q: want an iteration number, as in %q", engine.Clip(head, 40), IterationLabel(3)+": Bxa6")
	}
	root = PlaceRoot{It: n}
	if marked {
		if root.Visit, err = strconv.Atoi(strings.TrimSpace(mark)); err != nil || root.Visit < 1 {
			return BareRoot, text, fmt.Errorf("%q: %q after %s is no visit number (%q is the iteration's 2nd root, as an aspiration re-search makes)",
				engine.Clip(head, 40), engine.Clip(mark, 20), VisitSep, IterationLabel(n)+VisitSep+"2")
		}
	}
	return root, tail, nil
}

// PathIterationText says how a path names its iteration, for the help of
// every flag and prompt that reads a path with SplitIteration.
const PathIterationText = `a path that begins "iteration N:", as diff, check and hotspots print a node's place, starts at iteration N's root (iteration 0 too, where a run searched QS alone before iteration 1); "iteration N` + VisitSep + `1:" at the first of several roots of iteration N (an aspiration re-search)`

// IterationLabel names iteration it of a run, and its root: "iteration
// 4". Every reader says it so (the viewer's tree, diagrams, diff's paths
// and reasons); "d4" would read as a remaining depth, which is what d
// means beside a node.
func IterationLabel(it int) string { return IterationPrefix + strconv.Itoa(it) }

// IterationPrefix is what IterationLabel puts before the number, and what
// SplitIteration reads before it.
const IterationPrefix = "iteration "

// ReportedRoot picks, among a run's iteration roots in search order, the
// one readers start in (the "last iteration"): the last root of the
// iteration the run reports as its depth, whose answer runs shows. Another
// engine may have begun a deeper iteration it never finished (Sunfish's
// probe of iteration 5 after reporting depth 4): that one is not it. With
// no iteration finished, or while the run is being recorded (a reader
// follows the iteration under way), the last root. A run scored at depth 0
// reports its iteration 0 (another engine's search of QS alone under its
// root), though it may have begun iteration 1. roots must not be empty.
func ReportedRoot(r Run, roots []Node) int {
	if (r.Depth > 0 || r.Scored()) && r.Status != StatusRunning {
		if i, ok := IterationRoot(roots, r.Depth, 0); ok {
			return i
		}
	}
	return len(roots) - 1
}

// IterationRoot picks, among a run's iteration roots in search order, the
// root a path of iteration it starts from: its visit-th root, or with
// visit 0 its last (an aspiration re-search or a probe of the same depth
// before it is not the one whose answer stood); ReportedRoot picks the
// reported iteration's by it. ok is false when the run has no such root.
func IterationRoot(roots []Node, it, visit int) (i int, ok bool) {
	i, _, ok = pickVisit(len(roots), func(j int) bool { return roots[j].Iteration == it }, visit)
	return i, ok
}

// pickVisit finds, among n things in search order, the visit-th that
// match (from 1), or with visit 0 the last: its index, and how many
// matched up to it (all, when there is none or visit is 0). A move's
// searches under a node (ChildByMove) and an iteration's roots
// (IterationRoot) are picked so.
func pickVisit(n int, match func(int) bool, visit int) (at, count int, ok bool) {
	for j := range n {
		if !match(j) {
			continue
		}
		count++
		if visit == 0 || count == visit {
			at, ok = j, true
		}
		if count == visit {
			break
		}
	}
	return at, count, ok
}

// NoIterationText says that a run has no root of iteration it (its
// visit-th, when visit is not 0), naming the iterations it has, for the
// error of a path that names one.
func NoIterationText(roots []Node, it, visit int) string {
	var its []string
	n := 0
	for i, r := range roots {
		if i == 0 || r.Iteration != roots[i-1].Iteration {
			its = append(its, strconv.Itoa(r.Iteration))
		}
		if r.Iteration == it {
			n++
		}
	}
	if n > 0 {
		return fmt.Sprintf("the run searched %s %s: it has no %s", IterationLabel(it), engine.Times(n), IterationLabel(it)+VisitSep+strconv.Itoa(visit))
	}
	return fmt.Sprintf("the run has no %s (its iterations: %s)", IterationLabel(it), strings.Join(its, ", "))
}

// dropMoveNumber strips leading move numbers ("12." or "12...") from a
// path token; digits with no dot are kept, since they are no number PGN
// writes and the move parser names what is wrong with them.
func dropMoveNumber(f string) string {
	for {
		i := 0
		for i < len(f) && f[i] >= '0' && f[i] <= '9' {
			i++
		}
		if i == 0 || i == len(f) || f[i] != '.' {
			return f
		}
		f = strings.TrimLeft(f[i:], ".")
	}
}

// VisitSep separates a move from its visit number in a path (VisitMark).
const VisitSep = "·"

// VisitSepsASCII are the marks read as VisitSep when followed by a
// number, for keyboards that cannot type "·": dxe6.2 and dxe6#2 read as
// dxe6·2 (no SAN holds a '.', and a '#' followed by digits is no mate
// sign).
const VisitSepsASCII = ".#"

// cutVisit cuts text at its visit mark: VisitSep, or failing that the last
// of VisitSepsASCII followed by digits alone. ok is false when it has none.
func cutVisit(text string) (before, mark string, ok bool) {
	if before, mark, ok = strings.Cut(text, VisitSep); ok {
		return before, mark, true
	}
	i := strings.LastIndexAny(text, VisitSepsASCII)
	if i <= 0 || i == len(text)-1 {
		return text, "", false
	}
	for _, c := range text[i+1:] {
		if c < '0' || c > '9' {
			return text, "", false
		}
	}
	return text[:i], text[i+1:], true
}

// SplitVisit reads a move of a path as VisitMark writes it: the move and
// its visit, 0 when the text has no mark (the last visit is meant, as
// Find takes it). The ASCII marks of VisitSepsASCII read as VisitSep.
func SplitVisit(text string) (move string, visit int, err error) {
	move, n, ok := cutVisit(text)
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
	i, n, ok := pickVisit(len(kids), func(j int) bool { return kids[j].Move == m }, visit)
	if ok {
		c = kids[i]
	}
	return c, n, ok
}
