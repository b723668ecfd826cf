package trace

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/horizonqs/horizon/engine"
)

// FuzzSplitVisit: SplitVisit reads what VisitMark writes, and any text
// either splits into a move and a visit of at least 1 or gets an error
// that quotes the mark. A move marked for any of its searches under a node
// (VisitMark with visit and searches from 1 to 64) reads back
// (SplitVisit, ChildByMove) to that search among the node's children,
// with other moves searched between: what the rule is for, that every
// printed path leads to its node.
func FuzzSplitVisit(f *testing.F) {
	for _, s := range []string{"dxe6", "dxe6·2", "Nf3·1", "e2e4·10", "e4·", "e4·x", "e4·0", "e4·-1", "·2", "a·2·3", "e\n4·x", "dxe6.2", "Qxf7#3", "Qxf7#", "e4.0", ".2", "e4.2.3"} {
		f.Add(s, 2, 3)
	}
	f.Add("e2e4", 0, 1) // a move's only search: bare
	f.Add("e2e4", 0, 0) // one of a count not known
	f.Add("e2e4", 0, 3) // the first of three: marked ·1
	f.Fuzz(func(t *testing.T, text string, visit, searches int) {
		readsBack(t, visit, searches)
		move, v, err := SplitVisit(text)
		switch {
		case err != nil:
			if !strings.Contains(err.Error(), "is no visit number") || strings.Contains(err.Error(), "\n") {
				t.Errorf("SplitVisit(%q): %v", text, err)
			}
		case !strings.Contains(text, VisitSep) && v == 0:
			if move != text {
				t.Errorf("SplitVisit(%q) = %q, %d; want the text, 0", text, move, v)
			}
		case !strings.Contains(text, VisitSep):
			// An ASCII mark: the move, one of VisitSepsASCII, the number.
			if rest := text[min(len(move)+1, len(text)):]; move == "" || len(move) >= len(text) || !strings.ContainsRune(VisitSepsASCII, rune(text[len(move)])) ||
				strings.Trim(rest, "0123456789") != "" || rest == "" {
				t.Errorf("SplitVisit(%q) = %q, %d: no ASCII mark", text, move, v)
			}
		case v < 1 || move+VisitSep != text[:len(move)+len(VisitSep)]:
			t.Errorf("SplitVisit(%q) = %q, %d", text, move, v)
		}
		if strings.Contains(text, VisitSep) || visit < 2 {
			return
		}
		if m, v, err := SplitVisit(VisitMark(text, visit, visit)); err != nil || m != text || v != visit {
			t.Errorf("SplitVisit(VisitMark(%q, %d, %d)) = %q, %d, %v", text, visit, visit, m, v, err)
		}
	})
}

// readsBack checks that the visit-th of a move's searches under one node,
// of searches in all (visit and searches taken modulo 64, visit at most
// searches; searches 0 is a count not known, as MarkVisits passes for a
// path without one), marked by VisitMark, reads back to that child: by
// SplitVisit and ChildByMove, among children that search other moves
// between the move's searches.
func readsBack(t *testing.T, visit, searches int) {
	t.Helper()
	searches = int(uint(searches) % 64)
	visit = 1 + int(uint(visit)%uint(max(searches, 1)))
	pos, err := engine.ParseFEN("startpos")
	if err != nil {
		t.Fatal(err)
	}
	m, err1 := pos.ParseUCI("e2e4")
	other, err2 := pos.ParseUCI("d2d4")
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	var kids []Node
	for i := range max(searches, 1) {
		kids = append(kids, Node{ID: int64(2*i + 1), Move: other}, Node{ID: int64(2*i + 2), Move: m})
	}
	mark := VisitMark(m.UCI(), visit, searches)
	mv, v, err := SplitVisit(mark)
	if err != nil || mv != m.UCI() {
		t.Fatalf("VisitMark(%s, %d, %d) = %q reads as %q, %v", m.UCI(), visit, searches, mark, mv, err)
	}
	if c, _, ok := ChildByMove(kids, m, v); !ok || c.ID != int64(2*visit) {
		t.Fatalf("VisitMark(%s, %d, %d) = %q leads to child %d (found %v), want %d", m.UCI(), visit, searches, mark, c.ID, ok, 2*visit)
	}
}

// TestVisitMark: a move is marked wherever bare would name another of its
// searches (bare reads as the last): a second or later visit, and a first
// one that has later ones; a move's only search prints bare.
func TestVisitMark(t *testing.T) {
	for _, c := range []struct {
		visit, searches int
		want            string
	}{
		{0, 0, "dxe6"}, // no visit: a move the path names without one
		{1, 0, "dxe6"},
		{1, 1, "dxe6"},
		{1, 2, "dxe6·1"},
		{1, 3, "dxe6·1"},
		{2, 2, "dxe6·2"},
		{2, 3, "dxe6·2"},
		{3, 3, "dxe6·3"},
		{2, 0, "dxe6·2"}, // searches unknown: a re-search is still marked
	} {
		if got := VisitMark("dxe6", c.visit, c.searches); got != c.want {
			t.Errorf("VisitMark(dxe6, %d, %d) = %q, want %q", c.visit, c.searches, got, c.want)
		}
	}
	if got := strings.Join(MarkVisits([]string{"Nxe5", "dxe6", "Qf3"}, []int{1, 1, 2}, []int{1, 2, 2}), " "); got != "Nxe5 dxe6·1 Qf3·2" {
		t.Errorf("MarkVisits = %q", got)
	}
}

func TestSplitPath(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"e4 e5 Nf3", []string{"e4", "e5", "Nf3"}},
		{"e4,e5, Nf3", []string{"e4", "e5", "Nf3"}},
		{"1. dxe6·1 Bxe2 2. exf7+", []string{"dxe6·1", "Bxe2", "exf7+"}},
		{"12...Nf6 13.O-O", []string{"Nf6", "O-O"}},
		{"1... Nf6\tNf3\n", []string{"Nf6", "Nf3"}},
		{"0-0 e2e4", []string{"0-0", "e2e4"}},
		{"12 e4", []string{"12", "e4"}}, // no move number: the move parser names it
		{"1.", nil},
		// A nested search's mark is one step, spaces inside and all.
		{"e4 [singular -e2e4]·2, 1... Nf6 [iid]", []string{"e4", "[singular -e2e4]·2", "Nf6", "[iid]"}},
		{"[iid],e4", []string{"[iid]", "e4"}},
	} {
		if got := SplitPath(c.in); !slices.Equal(got, c.want) {
			t.Errorf("SplitPath(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestPathMoves: a path the user gave that holds no move is an error,
// not the start node: --under "1." recorded the whole search with no
// filter, and --path "1." drew the reported root, where the flags before
// SplitPath refused "1." as no move.
func TestPathMoves(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
		err  bool
	}{
		{"", nil, false},
		{"  ", nil, false},
		{"1. e4", []string{"e4"}, false},
		{"1.", nil, true},
		{" , ", nil, true},
		{"12...", nil, true},
	} {
		got, err := PathMoves(c.in)
		if !slices.Equal(got, c.want) || (err != nil) != c.err {
			t.Errorf("PathMoves(%q) = %q, %v; want %q, error %v", c.in, got, err, c.want, c.err)
		}
		if err != nil && !strings.Contains(err.Error(), fmt.Sprintf("%q names no move", c.in)) {
			t.Errorf("PathMoves(%q): error %q does not quote the path", c.in, err)
		}
	}
}

// FuzzSplitPath: any text splits into moves that hold no separator and no
// move number, and the moves read back the same joined as every printer
// joins a path: by spaces, by commas, and numbered as the viewer's SAN path
// and PGN number them ("1. e4 e5 2. Nf3", "1... e5 2. Nf3"), each move
// marked with a visit too. PathMoves gives the same moves, or one line of
// error for text that is not blank and names no move.
func FuzzSplitPath(f *testing.F) {
	for _, s := range []string{"1. e4 e5 2. Nf3", "12...Nf6,O-O", "dxe6·2 Bxe2", "1.", "0-0 9..."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		moves := SplitPath(text)
		for _, m := range moves {
			if m == "" || strings.ContainsFunc(m, func(r rune) bool { return r == ',' || unicode.IsSpace(r) }) {
				t.Fatalf("SplitPath(%q): move %q", text, m)
			}
			if d := dropMoveNumber(m); d != m {
				t.Fatalf("SplitPath(%q): move %q keeps a move number", text, m)
			}
		}
		// PathMoves, for a path the user gave: SplitPath's moves, or an
		// error of one line where text holds something but no move.
		if pm, err := PathMoves(text); err != nil {
			if len(moves) > 0 || strings.TrimSpace(text) == "" || strings.Contains(err.Error(), "\n") {
				t.Fatalf("PathMoves(%q): %q, SplitPath %q", text, err, moves)
			}
		} else if !slices.Equal(pm, moves) || len(pm) == 0 && strings.TrimSpace(text) != "" {
			t.Fatalf("PathMoves(%q) = %q and no error, SplitPath %q", text, pm, moves)
		}
		marked := MarkVisits(moves, slices.Repeat([]int{2}, len(moves)), nil)
		for _, printed := range [][]string{moves, marked} {
			for _, joined := range []string{strings.Join(printed, " "), strings.Join(printed, ", "), numbered(printed, 0), numbered(printed, 1)} {
				if again := SplitPath(joined); !slices.Equal(again, printed) {
					t.Fatalf("SplitPath(%q) = %q, printed %q, which reads back as %q", text, moves, joined, again)
				}
			}
		}
	})
}

// numbered writes moves as the viewer numbers a SAN path: "1. e4 e5 2. Nf3"
// from white (side 0), "1... e5 2. Nf3" from black.
func numbered(moves []string, side int) string {
	var b strings.Builder
	for i, m := range moves {
		switch n := (i+side)/2 + 1; {
		case (i+side)%2 == 0:
			fmt.Fprintf(&b, "%d. ", n)
		case i == 0:
			fmt.Fprintf(&b, "%d... ", n)
		}
		b.WriteString(m + " ")
	}
	return b.String()
}

func TestSplitIteration(t *testing.T) {
	for _, c := range []struct {
		in, rest string
		root     PlaceRoot
		err      string
	}{
		{"iteration 3: Bxa6 bxc3·2", " Bxa6 bxc3·2", PlaceRoot{It: 3}, ""},
		{"  Iteration 12:e4", "e4", PlaceRoot{It: 12}, ""},
		{"iteration 0:", "", PlaceRoot{It: 0}, ""},
		{"iteration 0: e4", " e4", PlaceRoot{It: 0}, ""},
		{"iteration 2·1: e4", " e4", PlaceRoot{It: 2, Visit: 1}, ""},
		{"iteration 2 · 3 : e4", " e4", PlaceRoot{It: 2, Visit: 3}, ""},
		{"iteration 2.1: e4", " e4", PlaceRoot{It: 2, Visit: 1}, ""}, // where · cannot be typed
		{"iteration 2#3: e4", " e4", PlaceRoot{It: 2, Visit: 3}, ""},
		{"iteration 2.x: e4", "", BareRoot, "want an iteration number"},
		{"e4 e5", "e4 e5", BareRoot, ""},
		{"e4: e5", "e4: e5", BareRoot, ""},
		{"", "", BareRoot, ""},
		{"iteration x: e4", "", BareRoot, `"iteration x": want an iteration number`},
		{"iteration -1: e4", "", BareRoot, "want an iteration number"},
		{"iteration 2·0: e4", "", BareRoot, `"0" after · is no visit number`},
		{"iteration 2·x: e4", "", BareRoot, "is no visit number"},
	} {
		root, rest, err := SplitIteration(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) || root != BareRoot {
				t.Errorf("SplitIteration(%q): %+v, error %v, want %q", c.in, root, err, c.err)
			}
			continue
		}
		if err != nil || root != c.root || rest != c.rest {
			t.Errorf("SplitIteration(%q) = %+v, %q, %v; want %+v, %q", c.in, root, rest, err, c.root, c.rest)
		}
	}
	roots := []Node{{ID: 1, Iteration: 1}, {ID: 5, Iteration: 2}, {ID: 9, Iteration: 2}, {ID: 20, Iteration: 3}}
	for _, c := range []struct {
		it, visit int
		want      int64 // 0: none
	}{
		{2, 0, 9}, // the last root of iteration 2
		{2, 1, 5},
		{2, 2, 9},
		{2, 3, 0},
		{4, 0, 0},
		{3, 0, 20},
	} {
		i, ok := IterationRoot(roots, c.it, c.visit)
		if ok != (c.want != 0) || ok && roots[i].ID != c.want {
			t.Errorf("IterationRoot(%d, %d) = %d, %v; want node %d", c.it, c.visit, i, ok, c.want)
		}
	}
	if got, want := NoIterationText(roots, 4, 0), "the run has no iteration 4 (its iterations: 1, 2, 3)"; got != want {
		t.Errorf("NoIterationText = %q, want %q", got, want)
	}
	if got, want := NoIterationText(roots, 2, 3), "the run searched iteration 2 twice: it has no iteration 2·3"; got != want {
		t.Errorf("NoIterationText = %q, want %q", got, want)
	}
}

// FuzzSplitIteration: any text either names no iteration (and is left as
// it was), names a root (iteration 0 included, maybe marked with its
// visit) that reads back when printed as PlaceText prints a place, or
// gets a one-line error quoting what it read.
func FuzzSplitIteration(f *testing.F) {
	for _, s := range []string{"iteration 3: Bxa6 bxc3·2", "e4 e5", "iteration x: e4", "Iteration 0:", "iteration 0: e4", "iteration 99999999999999999999: e4", "iteration 2·1: e4", "iteration 2·: e4"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		root, rest, err := SplitIteration(text)
		switch {
		case err != nil:
			if strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "want an iteration number") && !strings.Contains(err.Error(), "is no visit number") || root != BareRoot {
				t.Fatalf("SplitIteration(%q): %+v, error %q", text, root, err)
			}
		case root.It == NoIteration:
			if rest != text || root != BareRoot {
				t.Fatalf("SplitIteration(%q) named no iteration and changed the text to %q (%+v)", text, rest, root)
			}
		case root.It < 0 || root.Visit < 0:
			t.Fatalf("SplitIteration(%q) = %+v", text, root)
		default:
			// Printed with the visit it read (and a later root, so the
			// mark shows), it reads back.
			printed := PlaceRoot{It: root.It, Visit: root.Visit, Searches: root.Visit + 1}
			again, r2, err := SplitIteration(VisitMark(IterationLabel(root.It), printed.Visit, printed.Searches) + ":" + rest)
			if err != nil || again != root || r2 != rest {
				t.Fatalf("SplitIteration(%q) = %+v, %q, which printed reads back as %+v, %q, %v", text, root, rest, again, r2, err)
			}
		}
	})
}

// TestPlaceText: a place prints its iteration, 0 included, unless it is
// given none (a run of QS alone, PlaceIteration), marked with its root's
// visit where the iteration has later roots, and ParsePlace reads every
// one back; iteration 0 printed bare, as it was, read back as the
// reported iteration's.
func TestPlaceText(t *testing.T) {
	for _, c := range []struct {
		root            PlaceRoot
		path            []string
		visits, searchs []int
		want            string
		read            PlaceRoot
	}{
		{PlaceRoot{3, 1, 1}, []string{"Bxa6", "bxc3"}, []int{1, 2}, []int{1, 2}, "iteration 3: Bxa6 bxc3·2", PlaceRoot{It: 3}},
		{PlaceRoot{It: 0}, []string{"dxe6", "Bxe2"}, []int{1, 1}, []int{2, 1}, "iteration 0: dxe6·1 Bxe2", PlaceRoot{It: 0}},
		{PlaceRoot{It: 0}, nil, nil, nil, "iteration 0: (root)", PlaceRoot{It: 0}},
		{PlaceRoot{2, 1, 2}, []string{"e4"}, []int{1}, []int{1}, "iteration 2·1: e4", PlaceRoot{It: 2, Visit: 1}},
		{PlaceRoot{2, 2, 2}, []string{"e4"}, []int{1}, []int{1}, "iteration 2·2: e4", PlaceRoot{It: 2, Visit: 2}},
		{BareRoot, []string{"e4"}, []int{1}, []int{1}, "e4", BareRoot},
		{BareRoot, nil, nil, nil, "(root)", BareRoot},
	} {
		got := PlaceText(c.root, c.path, c.visits, c.searchs)
		if got != c.want {
			t.Errorf("PlaceText(%+v, %q) = %q, want %q", c.root, c.path, got, c.want)
		}
		root, moves, err := ParsePlace(got)
		if want := MarkVisits(c.path, c.visits, c.searchs); err != nil || root != c.read || !slices.Equal(moves, want) && len(moves)+len(want) > 0 {
			t.Errorf("ParsePlace(%q) = %+v, %q, %v; want %+v, %q", got, root, moves, err, c.read, want)
		}
	}
	aspiration := []Node{{ID: 1, SubtreeSize: 3, Iteration: 1}, {ID: 4, SubtreeSize: 5, Iteration: 2}, {ID: 9, SubtreeSize: 9, Iteration: 2}}
	for _, c := range []struct {
		id   int64
		want PlaceRoot
	}{
		{0, BareRoot},
		{2, PlaceRoot{1, 1, 1}},
		{6, PlaceRoot{2, 1, 2}},
		{9, PlaceRoot{2, 2, 2}},
		{17, PlaceRoot{2, 2, 2}},
		{18, BareRoot},
	} {
		if got := RootOf(aspiration, c.id); got != c.want {
			t.Errorf("RootOf(node %d) = %+v, want %+v", c.id, got, c.want)
		}
	}
	if got := RootOf([]Node{{ID: 1, SubtreeSize: 10}}, 5); got != BareRoot {
		t.Errorf("RootOf in a run of QS alone = %+v, want BareRoot", got)
	}
	qsAlone := []Node{{ID: 1}}
	qsTwice := []Node{{ID: 1}, {ID: 4}} // a bare path reads in node 4 only
	later := []Node{{ID: 1}, {ID: 4, Iteration: 1}}
	for _, c := range []struct {
		roots    []Node
		it, want int
	}{
		{qsAlone, 0, NoIteration},
		{qsTwice, 0, 0},
		{later, 0, 0},
		{later, 1, 1},
		{nil, 0, NoIteration},
		{[]Node{{ID: 1, Iteration: 2}}, 2, 2},
	} {
		if got := PlaceIteration(c.roots, c.it); got != c.want {
			t.Errorf("PlaceIteration(%v, %d) = %d, want %d", c.roots, c.it, got, c.want)
		}
	}
}

// FuzzPlaceText: a place PlaceText prints from any iteration and any moves
// a path can hold reads back through ParsePlace to that iteration and
// those moves.
func FuzzPlaceText(f *testing.F) {
	f.Add(0, "dxe6 Bxe2", 1, 2)
	f.Add(NoIteration, "e4", 1, 1)
	f.Add(12, "", 0, 0)
	f.Fuzz(func(t *testing.T, it int, text string, visit, searches int) {
		if it < NoIteration {
			it = NoIteration
		}
		// The root's own visit, of searches roots of its iteration.
		root := PlaceRoot{It: it, Visit: max(visit, 1), Searches: searches}
		read := PlaceRoot{It: it}
		if it != NoIteration && strings.Contains(PlaceText(root, nil, nil, nil), VisitSep) {
			read.Visit = root.Visit
		}
		path := SplitPath(text)
		for _, m := range path {
			if strings.Contains(m, VisitSep) || m == RootPath || strings.Contains(m, ":") {
				return // no move a trace holds
			}
		}
		visits, counts := make([]int, len(path)), make([]int, len(path))
		for i := range path {
			visits[i], counts[i] = max(visit, 1), searches
		}
		place := PlaceText(root, path, visits, counts)
		got, moves, err := ParsePlace(place)
		want := MarkVisits(path, visits, counts)
		if err != nil || got != read || len(moves) != len(want) || len(want) > 0 && !slices.Equal(moves, want) {
			t.Fatalf("PlaceText(%+v, %q) = %q, read back as %+v, %q, %v", root, path, place, got, moves, err)
		}
	})
}

// TestSplitVisitASCII: dxe6.2 and dxe6#2 read as dxe6·2, for keyboards
// without "·" (before, both were no move); a mate sign, a move number and
// a mark with no number are no mark.
func TestSplitVisitASCII(t *testing.T) {
	for _, c := range []struct {
		in, move string
		visit    int
		err      string
	}{
		{"dxe6.2", "dxe6", 2, ""},
		{"dxe6#2", "dxe6", 2, ""},
		{"Qxf7#", "Qxf7#", 0, ""},
		{"Qxf7##2", "Qxf7#", 2, ""},
		{"e2e4.10", "e2e4", 10, ""},
		{"dxe6.x", "dxe6.x", 0, ""},
		{".2", ".2", 0, ""},
		{"dxe6.0", "", 0, "is no visit number"},
	} {
		move, v, err := SplitVisit(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("SplitVisit(%q): error %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || move != c.move || v != c.visit {
			t.Errorf("SplitVisit(%q) = %q, %d, %v; want %q, %d", c.in, move, v, err, c.move, c.visit)
		}
	}
}

// TestSplitNestedStep: a nested search's step reads as NestedText and
// VisitMark write it, spaces made one, and a bad mark is named.
func TestSplitNestedStep(t *testing.T) {
	for _, c := range []struct {
		in, mark string
		visit    int
		err      string
	}{
		{"[iid]", "[iid]", 0, ""},
		{"[iid]·2", "[iid]", 2, ""},
		{"[iid].2", "[iid]", 2, ""},
		{"[iid]#3", "[iid]", 3, ""},
		{"[ singular   -e2e4 ]·1", "[singular -e2e4]", 1, ""},
		{"[]", "", 0, "names no reason"},
		{"[iid", "", 0, "named by its reason in brackets"},
		{"[iid]·0", "", 0, "is no visit mark"},
		{"[iid]x", "", 0, `"x" after [iid] is no visit mark`},
	} {
		mark, visit, err := SplitNestedStep(c.in)
		if mark != c.mark || visit != c.visit || (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("SplitNestedStep(%q) = %q, %d, %v; want %q, %d, error with %q", c.in, mark, visit, err, c.mark, c.visit, c.err)
		}
	}
}

// FuzzSplitNestedStep: a nested search's mark as NestedText writes it,
// marked with any visit (VisitMark), reads back to the mark and the visit,
// and SplitPath keeps it one step; any other text either reads as a
// bracketed mark or gets an error, never a panic.
func FuzzSplitNestedStep(f *testing.F) {
	for _, s := range []string{"iid", "singular", "probcut", "my_own-word"} {
		f.Add(s, uint16(0), 2, "[iid]·2")
	}
	f.Add("singular", uint16(12), 1, "[singular  -e2e4].1")
	start, err := engine.ParseFEN("startpos")
	if err != nil {
		f.Fatal(err)
	}
	moves := start.LegalMoves()
	f.Fuzz(func(t *testing.T, reason string, excluded uint16, visit int, text string) {
		if mark, _, err := SplitNestedStep(text); err == nil && (!strings.HasPrefix(mark, "[") || !strings.HasSuffix(mark, "]")) {
			t.Fatalf("SplitNestedStep(%q) = %q", text, mark)
		}
		if reason == "" || strings.IndexFunc(reason, func(r rune) bool {
			return !(r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_'))
		}) >= 0 {
			return // no reason an import takes
		}
		ns := NestedSearch{Reason: reason}
		if excluded%2 == 1 {
			ns.Excluded = moves[int(excluded/2)%len(moves)]
		}
		visit = (visit%64+64)%64 + 1
		step := VisitMark(NestedText(ns), visit, 64)
		mark, v, err := SplitNestedStep(step)
		if err != nil || mark != NestedText(ns) || v != visit {
			t.Fatalf("SplitNestedStep(%q) = %q, %d, %v; want %q, %d", step, mark, v, err, NestedText(ns), visit)
		}
		if got := SplitPath("e4 " + step + ", Nf3"); len(got) != 3 || got[1] != step {
			t.Fatalf("SplitPath splits %q as %q", step, got)
		}
	})
}
