package check

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
	"github.com/horizonqs/horizon/trace/tracetest"
)

func TestCheckEngineTracesClean(t *testing.T) {
	fens := tracetest.BenchFENs(t, 4)
	depth := 3
	if testing.Short() {
		fens = fens[:2]
	}
	for _, name := range engine.VariantNames() {
		t.Run(name, func(t *testing.T) {
			st, _ := tracetest.CreateTrace(t)
			for _, fen := range fens {
				run := tracetest.RecordSearch(t, st, fen, tracetest.VariantOptions(t, name), engine.Limits{Depth: depth})
				if rep := checkClean(t, st, run, 0, fen); rep.Rows < 10 {
					t.Fatalf("%s: only %d rows walked", fen, rep.Rows)
				}
			}
		})
	}
}

// TestCheckFindsCorruptRows damages one row of a clean trace with plain
// SQL, as a buggy engine or a broken writer would, and expects Run to
// name that row and the rule it breaks.
func TestCheckFindsCorruptRows(t *testing.T) {
	ctx := context.Background()
	type target struct {
		pick func(n trace.Node) bool
		// sql sets the damage; ?1 is the row's id, ?2 a value from value, ?3 the run.
		sql   string
		value func(t *testing.T, st *trace.Store, run int64, n trace.Node) int64
		rule  string
		says  string // in the violation's detail, when not ""
	}
	hasKids := func(n trace.Node) bool { return n.SubtreeSize > 1 }
	betaCut := func(n trace.Node) bool {
		return n.Kind == engine.KindNonPV && hasKids(n) && n.Cause == engine.CauseBeta
	}
	for _, tc := range []struct {
		name string
		target
	}{
		{"score of a full-width node", target{
			pick: betaCut,
			sql:  "UPDATE node_rows SET score = score + 7, stand_diff = stand_diff + 7 WHERE run_id = ?3 AND id = ?1",
			rule: RuleScore}},
		{"score of a QS node", target{
			pick: func(n trace.Node) bool { return n.Kind == engine.KindQS && hasKids(n) && n.Cause == engine.CauseNone },
			sql:  "UPDATE node_rows SET score = score - 3, stand_diff = stand_diff - 3 WHERE run_id = ?3 AND id = ?1",
			rule: RuleScore}},
		{"exact bound made lower", target{
			pick: func(n trace.Node) bool { return n.Kind == engine.KindPV && n.Bound == engine.BoundExact },
			sql:  "UPDATE node_rows SET info = (info & ~24) | 16 WHERE run_id = ?3 AND id = ?1",
			rule: RuleBound}},
		{"subtree size", target{
			pick: func(n trace.Node) bool { return n.Kind == engine.KindQS && hasKids(n) },
			sql:  "UPDATE node_rows SET size = size - 1 WHERE run_id = ?3 AND id = ?1",
			rule: RuleSize}},
		{"stored subtree figures", target{
			// A QS subtree of 64 ids or more: the file stores its
			// figures (schema 8), QS rows among them.
			pick: func(n trace.Node) bool { return n.Kind == engine.KindQS && n.SubtreeSize >= 64 },
			sql:  "UPDATE subtree_counts SET qs_rows = qs_rows - 1 WHERE run_id = ?3 AND id = ?1",
			rule: RuleSize,
			says: "stored figures"}},
		{"illegal move", target{
			pick: func(n trace.Node) bool { return n.Kind == engine.KindQS && n.SubtreeSize == 1 },
			sql:  "UPDATE node_rows SET move = ?2 WHERE run_id = ?3 AND id = ?1",
			value: func(t *testing.T, st *trace.Store, run int64, n trace.Node) int64 {
				// From the square the move went to, which was empty or
				// held an enemy piece: never legal.
				return int64(n.Move.To()) | int64(n.Move.From())<<6
			},
			rule: RuleMove}},
		{"stand pat above the score", target{
			pick: func(n trace.Node) bool {
				return n.Kind == engine.KindQS && n.HasStandPat && n.Cause == engine.CauseNone && n.Score > n.StandPat
			},
			sql:   "UPDATE node_rows SET stand_diff = score - ?2 WHERE run_id = ?3 AND id = ?1",
			value: func(t *testing.T, st *trace.Store, run int64, n trace.Node) int64 { return int64(n.Score) + 50 },
			rule:  RuleStandPat}},
		{"quiet move in QS", target{
			pick: func(n trace.Node) bool { return n.Kind == engine.KindQS && n.Ply >= 4 && n.SubtreeSize == 1 },
			sql:  "UPDATE node_rows SET move = ?2 WHERE run_id = ?3 AND id = ?1",
			value: func(t *testing.T, st *trace.Store, run int64, n trace.Node) int64 {
				pos, err := st.Position(ctx, run, n.Parent)
				if err != nil {
					t.Fatal(err)
				}
				for _, m := range pos.LegalMoves() {
					if !pos.IsCapture(m) && m.Promotion() == engine.NoPieceType && !pos.GivesCheck(m) {
						return int64(m)
					}
				}
				t.Skip("no quiet move in the position")
				return 0
			},
			rule: RuleQSMoves,
			// The run's label (trace.Run.Label), as runs and check's
			// header name it: it read "variant captures allows".
			says: "variant captures+tt=false allows"}},
		// Causes read in the words diff, export and the viewer use
		// (engine.Cause.LongLabel): it read "ended by tt".
		{"hash cutoff with children", target{
			pick: betaCut,
			sql:  "UPDATE node_rows SET info = (info & ~992) | 96 WHERE run_id = ?3 AND id = ?1",
			rule: RuleLeaf,
			says: "ended before its moves (TT cutoff), but has"}},
		{"searched count", target{
			pick: func(n trace.Node) bool { return n.Kind == engine.KindQS && hasKids(n) && n.Searched < 200 },
			sql:  "UPDATE node_rows SET counts = counts + 256 WHERE run_id = ?3 AND id = ?1",
			rule: RuleCounts}},
		{"generated fewer than searched", target{
			pick: func(n trace.Node) bool { return n.Kind == engine.KindNonPV && n.Searched >= 2 },
			sql:  "UPDATE node_rows SET counts = (counts & ~255) | 1 WHERE run_id = ?3 AND id = ?1",
			rule: RuleCounts}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, path, run := cleanTrace(t, "captures")
			victim := tracetest.FirstNode(t, st, run, "node to damage", func(n trace.Node) bool { return n.Ply >= 2 && tc.pick(n) })
			var v int64
			if tc.value != nil {
				v = tc.value(t, st, run, victim)
			}
			got := damageAndFind(t, st, path, run, victim, v, tc.sql, tc.rule, " ("+tc.name+")")
			if !strings.Contains(got.Detail, tc.says) {
				t.Errorf("violation says %q, want %q in it", got.Detail, tc.says)
			}
		})
	}
}

// checkClean checks run and fails the test for each violation, saying
// what was searched; max bounds the violations listed (0: the checker's
// default), the rest are counted.
func checkClean(t *testing.T, st *trace.Store, run int64, max int, what string) *Report {
	t.Helper()
	rep, err := Run(context.Background(), st, run, Options{Max: max})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range rep.Violations {
		t.Errorf("%s: node %d %v: %s: %s", what, v.Node, v.Path, v.Rule, v.Detail)
	}
	if rep.Count > int64(len(rep.Violations)) {
		t.Errorf("%s: %d violations in all %v", what, rep.Count, rep.ByRule)
	}
	return rep
}

// cleanTrace records the preset's search of Kiwipete to depth 3 into a new
// trace, the ground the damage tests break, and stops the test unless it
// checks clean.
func cleanTrace(t *testing.T, preset string) (st *trace.Store, path string, run int64) {
	t.Helper()
	st, path = tracetest.CreateTrace(t)
	run = tracetest.RecordSearch(t, st, tracetest.Kiwipete, tracetest.VariantOptions(t, preset), engine.Limits{Depth: 3})
	if rep := checkClean(t, st, run, 0, "the clean trace of "+preset); rep.Count != 0 {
		t.FailNow()
	}
	return st, path, run
}

// damageAndFind runs query (its arguments: the victim's id, v, the run) on
// the trace file, checks the run again and expects a violation of rule at
// the victim, which it returns.
func damageAndFind(t *testing.T, st *trace.Store, path string, run int64, victim trace.Node, v int64, query, rule, what string) Violation {
	t.Helper()
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(query, victim.ID, v, run); err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), st, run, Options{Max: 1000})
	if err != nil {
		t.Fatal(err)
	}
	for _, got := range rep.Violations {
		if got.Node == victim.ID && got.Rule == rule {
			t.Logf("found: node %d %v: %s: %s", got.Node, got.Path, got.Rule, got.Detail)
			return got
		}
	}
	t.Errorf("damaged node %d%s, want a %s violation there; got %d: %+v", victim.ID, what, rule, rep.Count, rep.Violations)
	return Violation{}
}

// TestCheckScoresPrintAsTheViewer: a violation's scores read as the
// viewer, export and diff print them (∞ and #N on Horizon's scale), not
// as the stored numbers: an iteration root's beta is ∞, not 32000.
func TestCheckScoresPrintAsTheViewer(t *testing.T) {
	st, path, run := cleanTrace(t, "captures")
	root := tracetest.FirstNode(t, st, run, "iteration root", func(n trace.Node) bool {
		return n.Kind == engine.KindRoot && n.Bound == engine.BoundExact
	})
	if root.Alpha != -engine.Infinity || root.Beta != engine.Infinity {
		t.Fatalf("iteration root %d has window [%d, %d], want the full window", root.ID, root.Alpha, root.Beta)
	}
	got := damageAndFind(t, st, path, run, root, 0, "UPDATE node_rows SET info = (info & ~24) | 16 WHERE run_id = ?3 AND id = ?1", RuleBound, " (exact made lower)")
	if !strings.Contains(got.Detail, "∞") || strings.Contains(got.Detail, "32000") {
		t.Errorf("violation says %q, want the root's window end as ∞", got.Detail)
	}
}

// TestCheckRunTotalsPrintAsRuns: the run's totals and a subtree's size read
// with thousands separators (engine.Commas), as runs, stats and export's
// labels print them: the QS count read "the run counts 21284 QS nodes".
func TestCheckRunTotalsPrintAsRuns(t *testing.T) {
	st, path, run := cleanTrace(t, "captures")
	r, err := st.Run(context.Background(), run)
	if err != nil {
		t.Fatal(err)
	}
	if r.QSNodes < 1000 {
		t.Fatalf("the clean trace has %d QS nodes, want at least 1,000 for a separator", r.QSNodes)
	}
	got := damageAndFind(t, st, path, run, trace.Node{}, 0, "UPDATE runs SET qs_nodes = qs_nodes + 1 WHERE id = ?3", RuleSize, " (QS count)")
	want := fmt.Sprintf("the run counts %s QS nodes, the file holds %s", engine.Commas(r.QSNodes+1), engine.Commas(r.QSNodes))
	if got.Detail != want {
		t.Errorf("violation says %q, want %q", got.Detail, want)
	}
	// A subtree's size reads as export's labels count nodes.
	root := tracetest.FirstNode(t, st, run, "iteration root of 1,000 nodes", func(n trace.Node) bool { return n.Kind == engine.KindRoot && n.SubtreeSize >= 1000 })
	got = damageAndFind(t, st, path, run, root, 0, "UPDATE node_rows SET size = size - 1 WHERE run_id = ?3 AND id = ?1", RuleSize, " (size)")
	if want := "subtree size " + engine.Commas(root.SubtreeSize-1) + " says"; !strings.Contains(got.Detail, want) {
		t.Errorf("violation says %q, want %q in it", got.Detail, want)
	}
}

// TestViolationPathLeadsToItsNode: a violation's path is the moves to its
// own node (trace.Store.PathSAN), also when the rule that found it ran at
// the node's parent: delta pruning's rule names the child that should have
// been pruned, and its path read the parent's.
func TestViolationPathLeadsToItsNode(t *testing.T) {
	ctx := context.Background()
	st, path, run := cleanTrace(t, "see")
	victim := tracetest.FirstNode(t, st, run, "QS node with a finite alpha that searched a capture", func(n trace.Node) bool {
		return n.Kind == engine.KindQS && n.SubtreeSize > 1 && n.HasStandPat && !n.InCheck && n.Alpha > -engine.MateScore
	})
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// A stand pat 3000 lower makes every capture the node searched one
	// delta pruning skips.
	if _, err := db.Exec("UPDATE node_rows SET stand_diff = stand_diff + 3000 WHERE run_id = ?1 AND id = ?2", run, victim.ID); err != nil {
		t.Fatal(err)
	}
	rep, err := Run(ctx, st, run, Options{Max: 1000})
	if err != nil {
		t.Fatal(err)
	}
	children := 0
	for _, v := range rep.Violations {
		want, err := st.PathSAN(ctx, run, v.Node)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(v.Path, " ") != strings.Join(want, " ") {
			t.Errorf("node %d %s: path %q, want %q", v.Node, v.Rule, v.Path, want)
		}
		if v.Node != victim.ID {
			children++
		}
	}
	if rep.ByRule[RuleDelta] == 0 || children == 0 {
		t.Errorf("violations %+v, want delta-prune at a child of node %d", rep.Violations, victim.ID)
	}
}

// TestViolationPlace: a violation names its node's place as diff does
// (compare.Difference): its iteration, its path, and each move's visit
// among the same move's searches under its parent and how many there
// were, so that a node below a threshold level pass or a PVS re-search
// does not read as its namesake in the first search, and the path marked
// with them (trace.MarkVisits) reads back through trace.Find (export
// --path) to the node. The searches of an open node's move are counted
// when its parent closes: a first search's later ones come after the
// violation is seen (the path printed bare, which reads as the last).
func TestViolationPlace(t *testing.T) {
	ctx := context.Background()
	st, path, run := cleanTrace(t, "threshold")
	// The first QS nodes with children below a move's second visit, and
	// below a first visit the move has later ones of, with the visits of
	// the moves to them.
	type open struct {
		n      trace.Node
		visit  int
		visits map[engine.Move]int // of its children so far
	}
	var stack []open
	var victims []trace.Node
	var visits [][]int
	var again, first bool
	errDone := errors.New("found")
	err := st.Subtree(ctx, run, 0, -1, func(n trace.Node) error {
		for len(stack) > 0 && n.ID >= stack[len(stack)-1].n.End() {
			stack = stack[:len(stack)-1]
		}
		o := open{n: n, visits: map[engine.Move]int{}}
		if len(stack) > 0 && n.Move != engine.NoMove {
			p := stack[len(stack)-1]
			p.visits[n.Move]++
			o.visit = p.visits[n.Move]
		}
		stack = append(stack, o)
		if n.Kind != engine.KindQS || n.SubtreeSize < 2 || n.Cause != engine.CauseNone {
			return nil
		}
		var v []int
		re, later := false, false
		for i, f := range stack {
			if f.visit == 0 {
				continue
			}
			v = append(v, f.visit)
			re = re || f.visit > 1
			if f.visit == 1 && !later {
				kids, err := st.Children(ctx, run, stack[i-1].n.ID, trace.BySearch, 0, 0)
				if err != nil {
					return err
				}
				later = slices.ContainsFunc(kids, func(k trace.Node) bool { return k.Move == f.n.Move && k.ID > f.n.ID })
			}
		}
		switch {
		case re && !again:
			again = true
		case later && !re && !first:
			first = true
		default:
			return nil
		}
		victims, visits = append(victims, n), append(visits, v)
		if again && first {
			return errDone
		}
		return nil
	})
	if !errors.Is(err, errDone) {
		t.Fatalf("no QS node with children below a second visit and one below a first with later ones (%v)", err)
	}
	for i, victim := range victims {
		got := damageAndFind(t, st, path, run, victim, 0, "UPDATE node_rows SET score = score - 3, stand_diff = stand_diff - 3 WHERE run_id = ?3 AND id = ?1", RuleScore, " (score)")
		san, err := st.PathSAN(ctx, run, victim.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Iteration != victim.Iteration || !slices.Equal(got.Path, san) || !slices.Equal(got.Visits, visits[i]) {
			t.Errorf("node %d placed at iteration %d, %q, visits %v; want %d, %q, %v", victim.ID, got.Iteration, got.Path, got.Visits,
				victim.Iteration, san, visits[i])
		}
		nodes, err := st.Path(ctx, run, victim.ID)
		if err != nil {
			t.Fatal(err)
		}
		var searches []int
		for j := 2; j < len(nodes); j++ {
			kids, err := st.Children(ctx, run, nodes[j-1].ID, trace.BySearch, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			searches = append(searches, len(slices.DeleteFunc(kids, func(k trace.Node) bool { return k.Move != nodes[j].Move })))
		}
		if !slices.Equal(got.Searches, searches) {
			t.Errorf("node %d: searches %v, want %v", victim.ID, got.Searches, searches)
		}
		marked := trace.MarkVisits(got.Path, got.Visits, got.Searches)
		if n, err := st.Find(ctx, run, nodes[1].ID, marked); err != nil || n.ID != victim.ID {
			t.Errorf("node %d placed at %q, which reads back to node %d (%v)", victim.ID, strings.Join(marked, " "), n.ID, err)
		}
	}
}

// TestCheckMovesInSAN: the moves a violation names read in SAN, as its
// path and every reader's moves do (they read "f3f6 -531 (node 56)").
func TestCheckMovesInSAN(t *testing.T) {
	st, path, run := cleanTrace(t, "captures")
	victim := tracetest.FirstNode(t, st, run, "QS node with children", func(n trace.Node) bool {
		return n.Kind == engine.KindQS && n.SubtreeSize > 1 && n.Cause == engine.CauseNone
	})
	child := tracetest.FirstNode(t, st, run, "its first child", func(n trace.Node) bool { return n.Parent == victim.ID })
	pos, err := st.Position(context.Background(), run, victim.ID)
	if err != nil {
		t.Fatal(err)
	}
	got := damageAndFind(t, st, path, run, victim, 0, "UPDATE node_rows SET score = score - 3, stand_diff = stand_diff - 3 WHERE run_id = ?3 AND id = ?1", RuleScore, " (score)")
	if want := fmt.Sprintf("%s %s (node %d)", pos.SAN(child.Move), engine.HorizonScores.Text(-child.Score), child.ID); !strings.Contains(got.Detail, want) {
		t.Errorf("violation says %q, want %q in it", got.Detail, want)
	}
}

// TestCountsClampedGenerated: a generated count the file stores clamped
// (255, read as 255 or more) is no violation beside more different moves
// searched; RuleCounts said "generated 255, but it searched 300 different
// moves". An exact count below them still is one.
func TestCountsClampedGenerated(t *testing.T) {
	for _, atLeast := range []bool{false, true} {
		c := &checker{rep: &Report{ByRule: map[string]int64{}}}
		f := &cframe{n: trace.Node{ID: 1, Kind: engine.KindPV, Depth: 2, Generated: 255, GeneratedAtLeast: atLeast, Searched: 300, CutIndex: -1}}
		for i := range 300 {
			f.kids = append(f.kids, kid{id: int64(2 + i), move: engine.Move(i + 1), depth: 1, alpha: -1, beta: 1})
		}
		c.counts(f)
		if got, want := c.rep.ByRule[RuleCounts], map[bool]int64{false: 1, true: 0}[atLeast]; got != want {
			t.Errorf("generated at least %v: %d counts violations %+v, want %d", atLeast, got, c.rep.Violations, want)
		}
	}
}

// TestCheckTooManyChildren: a node with more children than readers read
// (trace.MaxChildren; export and the viewer call it damaged) is a
// structure violation, said once. check passed a run whose node had a
// million children while export refused its file as damaged.
func TestCheckTooManyChildren(t *testing.T) {
	ctx := context.Background()
	st, _ := tracetest.CreateTrace(t)
	rec, err := st.NewRecorder(ctx, trace.RunInfo{FEN: engine.StartFEN, Variant: "Other"}, trace.RecordOptions{Engine: "Other"})
	if err != nil {
		t.Fatal(err)
	}
	rec.Enter(engine.EnterInfo{ID: 0, Parent: -1, Depth: 2, Alpha: -engine.Infinity, Beta: engine.Infinity, Kind: engine.KindRun, QSPly: -1, QSLevel: -1})
	rec.Enter(engine.EnterInfo{ID: 1, Parent: 0, Depth: 2, Alpha: -50, Beta: 50, Kind: engine.KindRoot, QSPly: -1, QSLevel: -1, Iteration: 2})
	e4, err := engine.MustParseFEN(engine.StartFEN).ParseUCI("e2e4")
	if err != nil {
		t.Fatal(err)
	}
	kids := int64(trace.MaxChildren + 2)
	for id := int64(2); id < 2+kids; id++ {
		rec.Enter(engine.EnterInfo{ID: id, Parent: 1, Ply: 1, Depth: 1, Alpha: -50, Beta: 50, Kind: engine.KindPV, QSPly: -1, QSLevel: -1, Move: e4, Iteration: 2})
		rec.Leave(engine.LeaveInfo{ID: id, Bound: engine.BoundExact, CutIndex: -1, Best: engine.NoMove})
	}
	rec.Leave(engine.LeaveInfo{ID: 1, Bound: engine.BoundExact, CutIndex: -1, Best: e4, Searched: int(kids)})
	rec.Leave(engine.LeaveInfo{ID: 0, Bound: engine.BoundExact, CutIndex: -1, Best: e4})
	if err := rec.Finish(trace.Result{BestMove: e4, Depth: 2}); err != nil {
		t.Fatal(err)
	}
	rep, err := Run(ctx, st, rec.RunID(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("node 1 has more than %d children, more than readers read", trace.MaxChildren)
	if rep.ByRule[RuleStructure] != 1 || rep.Count != 1 || !strings.Contains(rep.Violations[0].Detail, want) {
		t.Errorf("violations %+v, want one structure violation: %q", rep.Violations, want)
	}
}

// TestCheckDeltaBound: with delta pruning a QS node that fails low scores
// the most its delta-pruned captures were assumed to win (eval + victim +
// margin; eval + queen + margin for a node pruned whole), as the engine
// does since 2026-11-25. A node of such a run scoring its stand pat and
// searched moves alone, as Horizon's QS did before, breaks the score rule:
// the run counts the captures elsewhere, so no older Horizon recorded it
// (TestCheckOlderHorizon reads the runs of one that did).
func TestCheckDeltaBound(t *testing.T) {
	for _, tc := range []struct {
		what string
		pick func(n trace.Node) bool
	}{
		{"a node delta-pruned whole", func(n trace.Node) bool { return n.Generated == 0 }},
		{"a node whose every capture was delta-pruned", func(n trace.Node) bool { return n.Generated > 0 }},
	} {
		t.Run(tc.what, func(t *testing.T) {
			st, path, run := cleanTrace(t, "see")
			victim := tracetest.FirstNode(t, st, run, tc.what, func(n trace.Node) bool {
				return n.Kind == engine.KindQS && n.Cause == engine.CauseDelta && n.HasStandPat && n.Score > n.StandPat && tc.pick(n)
			})
			got := damageAndFind(t, st, path, run, victim, 0, "UPDATE node_rows SET score = score - stand_diff, stand_diff = 0 WHERE run_id = ?3 AND id = ?1", RuleScore, " (scored its stand pat)")
			if !strings.Contains(got.Detail, "delta-pruned") {
				t.Errorf("detail %q does not name the pruning", got.Detail)
			}
		})
	}
}

// TestCheckOlderHorizon reads testdata/older.trace, written by the Horizon
// of commit 73a8719's parent (testdata/README): its see and
// unified+delta=true runs score delta-pruned nodes on their stand pat and
// searched moves alone, its recapture run (delay-penalty) gives a scout's
// descendants the pv kind their windows say. Each keeps that convention
// throughout, so it checks clean, and the report names the rule read as
// that Horizon recorded it.
func TestCheckOlderHorizon(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(filepath.Join("testdata", "older.trace"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "older.trace")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := trace.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for run, rule := range map[int64]string{1: RuleScore, 2: RuleScore, 3: RuleKind} {
		rep := checkClean(t, st, run, 0, fmt.Sprintf("older.trace run %d", run))
		if rep.Skipped == nil || rep.Skipped.Reason != SkippedOlderHorizon || !slices.Equal(rep.Skipped.Rules, []string{rule}) ||
			!strings.HasPrefix(rep.Skipped.Text, "read as an older Horizon recorded it: "+rule+" (") {
			t.Errorf("run %d: skipped %+v, want %s read as an older Horizon recorded it", run, rep.Skipped, rule)
		}
	}
}

// TestCheckNodeKind: a pv node below a nonpv node (a scout's subtree
// searched as pv) breaks the node-kind rule in a run of Horizon's; a run
// with delay-penalty whose every full-width node has the kind its window
// says, as a Horizon before commit 73a8719 recorded it (a scout's
// descendants, with windows wider than one, as pv), is not checked by it
// and the report says so; without delay-penalty no Horizon recorded such a
// node, so there it is a fault whatever the other kinds.
func TestCheckNodeKind(t *testing.T) {
	for _, tc := range []struct {
		preset      string
		windowKinds bool // rewrite every kind as the window says, as an old Horizon gave it
		applies     bool
	}{
		{"recapture", false, true},
		{"recapture", true, false},
		{"captures", true, true},
	} {
		t.Run(fmt.Sprintf("%s window kinds %v", tc.preset, tc.windowKinds), func(t *testing.T) {
			st, path, run := cleanTrace(t, tc.preset)
			db, err := sql.Open("sqlite3", path)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if tc.windowKinds {
				res, err := db.Exec("UPDATE node_rows SET info = (info & ~7) | CASE WHEN width > 1 THEN ?1 ELSE ?2 END WHERE run_id = ?3 AND (info & 7) IN (?1, ?2)",
					int(engine.KindPV), int(engine.KindNonPV), run)
				if err != nil {
					t.Fatal(err)
				}
				rep, err := Run(context.Background(), st, run, Options{Max: 1000})
				if err != nil {
					t.Fatal(err)
				}
				if n, _ := res.RowsAffected(); !tc.applies {
					// The recapture run as a Horizon before 73a8719 recorded it.
					if rep.Count != 0 || rep.Skipped == nil || rep.Skipped.Reason != SkippedOlderHorizon ||
						!slices.Equal(rep.Skipped.Rules, []string{RuleKind}) || !strings.Contains(rep.Skipped.Text, "delay-penalty") {
						t.Errorf("%d kinds read off the windows: violations %v, skipped %+v; want none, node-kind skipped", n, rep.ByRule, rep.Skipped)
					}
					return
				}
			}
			parent := tracetest.FirstNode(t, st, run, "nonpv node with full-width children", func(n trace.Node) bool {
				return n.Kind == engine.KindNonPV && n.Depth > 1 && n.SubtreeSize > 1
			})
			kids, err := st.Children(context.Background(), run, parent.ID, trace.BySearch, 0, 1)
			if err != nil || len(kids) != 1 || kids[0].Kind != engine.KindNonPV {
				t.Fatalf("children of node %d: %+v, %v: want a nonpv node", parent.ID, kids, err)
			}
			got := damageAndFind(t, st, path, run, kids[0], int64(engine.KindPV), "UPDATE node_rows SET info = (info & ~7) | ?2 WHERE run_id = ?3 AND id = ?1", RuleKind, " (made pv)")
			if !strings.Contains(got.Detail, fmt.Sprintf("below nonpv node %d", parent.ID)) {
				t.Errorf("detail %q does not name the parent", got.Detail)
			}
			// Reported after the walk, it is placed where the walk found it.
			if want, err := st.PathSAN(context.Background(), run, got.Node); err != nil || !slices.Equal(got.Path, want) {
				t.Errorf("path %q, want %q (%v)", got.Path, want, err)
			}
		})
	}
}

// TestReadAhead: the rows the checker is handed from the reading goroutine
// are the run's rows in pre-order, as Subtree streams them, across many
// batches; an error from the checker stops the reading and comes back;
// a cancelled context stops it with the context's error.
func TestReadAhead(t *testing.T) {
	ctx := context.Background()
	st, _ := tracetest.CreateTrace(t)
	run := tracetest.RecordSearch(t, st, tracetest.Kiwipete, tracetest.VariantOptions(t, "captures"), engine.Limits{Depth: 3})
	var want []int64
	if err := st.Subtree(ctx, run, 0, -1, func(n trace.Node) error { want = append(want, n.ID); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(want) < 3*4096 {
		t.Fatalf("%d rows: the test wants several batches", len(want))
	}
	var got []int64
	if err := readAhead(ctx, st, run, func(n trace.Node) error { got = append(got, n.ID); return nil }); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Errorf("read ahead %d rows, Subtree %d, or in another order", len(got), len(want))
	}
	stop := errors.New("stop")
	seen := 0
	err := readAhead(ctx, st, run, func(trace.Node) error {
		if seen++; seen == 5000 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || seen != 5000 {
		t.Errorf("stopped by the checker: error %v after %d rows, want %v after 5000", err, seen, stop)
	}
	cctx, cancel := context.WithCancel(ctx)
	seen = 0
	err = readAhead(cctx, st, run, func(trace.Node) error {
		if seen++; seen == 10 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: error %v, want %v", err, context.Canceled)
	}
}
