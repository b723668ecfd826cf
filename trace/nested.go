package trace

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/horizonqs/horizon/engine"
)

// nestedSchema is the schema version from which a file has the nested
// table (007_nested.sql); an older file has no nested searches.
const nestedSchema = 7

// NestedSearch is a search an engine made of a node's own position from
// inside that node (internal iterative deepening, a singular-extension
// test, a razoring probe, ProbCut, a null-move verification). Its root is
// a child of the searching node with no move: the same position and side
// to move, its window and score not negated.
type NestedSearch struct {
	ID       int64       // the nested search's root
	Reason   string      // iid, singular, razor, probcut, verify, or the engine's own word
	Excluded engine.Move // the move a singular search leaves out; NoMove for none
	// Uncounted: the engine's own node count has no node for the root (it
	// searched the node's moves in a loop, calling nothing for the root).
	Uncounted bool
}

// IsNested reports whether n is the root of a nested search: a node with
// no move whose parent is no run node. Run nodes, iteration roots and a
// QS-only run's QS root (below the run node, QSRootLabel) are the only
// other nodes without a move.
func IsNested(n Node) bool {
	return n.Move == engine.NoMove && n.Parent > 0 && n.Kind != engine.KindRun && n.Kind != engine.KindRoot
}

// NestedText is how readers mark a nested search's root where a child
// shows its move: "[iid]", "[singular -e2e4]" (the move it leaves out).
func NestedText(ns NestedSearch) string {
	if ns.Reason == "" {
		ns.Reason = "nested"
	}
	if ns.Excluded != engine.NoMove {
		return "[" + ns.Reason + " -" + ns.Excluded.UCI() + "]"
	}
	return "[" + ns.Reason + "]"
}

// AddNested stores why run's nested searches were made, once the
// recorder has written their nodes (foreign.Import calls it as a run
// ends). A file opened read-only, or one that a write cannot upgrade,
// refuses it.
func (s *Store) AddNested(ctx context.Context, run int64, ns []NestedSearch) error {
	if len(ns) == 0 {
		return nil
	}
	if err := s.prepareWrite(ctx); err != nil {
		return err
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("trace %s: run %d: store its nested searches: %w", s.path, run, err)
	}
	defer tx.Rollback()
	st, err := tx.PrepareContext(ctx, "INSERT OR REPLACE INTO nested (run_id, id, reason, excluded, uncounted) VALUES (?, ?, ?, ?, ?)")
	if err != nil {
		return fmt.Errorf("trace %s: run %d: store its nested searches: %w", s.path, run, err)
	}
	defer st.Close()
	for _, n := range ns {
		if _, err := st.ExecContext(ctx, run, n.ID, n.Reason, int64(n.Excluded), n.Uncounted); err != nil {
			return fmt.Errorf("trace %s: run %d: store nested search %d: %w", s.path, run, n.ID, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("trace %s: run %d: store its nested searches: %w", s.path, run, err)
	}
	return nil
}

// maxNestedReason bounds a stored reason a reader takes: a file is
// untrusted input, and a reason is shown in one cell.
const maxNestedReason = 32

// NestedSearches returns run's nested searches by their roots' ids: empty
// for a run without any, and for a file older than schema version 7.
func (s *Store) NestedSearches(ctx context.Context, run int64) (map[int64]NestedSearch, error) {
	out := map[int64]NestedSearch{}
	if s.schema() < nestedSchema {
		return out, nil
	}
	rows, err := s.read().QueryContext(ctx, "SELECT id, reason, excluded, uncounted FROM nested WHERE run_id = ? ORDER BY id", run)
	if err != nil {
		return nil, s.readErr(err, fmt.Sprintf("run %d: nested searches", run))
	}
	defer rows.Close()
	for rows.Next() {
		var n NestedSearch
		var excluded int64
		if err := rows.Scan(&n.ID, &n.Reason, &excluded, &n.Uncounted); err != nil {
			return nil, s.readErr(err, fmt.Sprintf("run %d: nested searches", run))
		}
		if len(n.Reason) > maxNestedReason {
			n.Reason = n.Reason[:maxNestedReason]
		}
		if excluded > 0 && excluded < 1<<20 {
			n.Excluded = engine.Move(excluded)
		}
		out[n.ID] = n
	}
	if err := rows.Err(); err != nil {
		return nil, s.readErr(err, fmt.Sprintf("run %d: nested searches", run))
	}
	return out, nil
}

// nestedChild reports whether k, a child of parent, is a nested search's
// root (IsNested): a child without a move of any node but the run node.
func nestedChild(parent, k Node) bool {
	return parent.Kind != engine.KindRun && k.Move == engine.NoMove
}

// IsNestedStep reports whether text, one step of a path (SplitPath), names
// a nested search as NestedText marks it ("[iid]", "[singular -e2e4]·2")
// rather than a move: it opens with "[", which no move does.
func IsNestedStep(text string) bool { return strings.HasPrefix(text, "[") }

// SplitNestedStep reads a path's step that names a nested search
// (IsNestedStep): its mark as NestedText writes it, spaces inside made
// one ("[singular  -e2e4]" is "[singular -e2e4]"), and its visit among the
// node's nested searches of that mark (SplitVisit: 0 for the last).
func SplitNestedStep(text string) (mark string, visit int, err error) {
	i := strings.LastIndex(text, "]")
	if !IsNestedStep(text) || i < 0 {
		return "", 0, fmt.Errorf("%q: a nested search is named by its reason in brackets, as in %q or %q", engine.Clip(text, 40), "[iid]", "[singular -e2e4]")
	}
	mark = "[" + strings.Join(strings.Fields(text[1:i]), " ") + "]"
	if mark == "[]" {
		return "", 0, fmt.Errorf("%q names no reason: a nested search is named as in %q", engine.Clip(text, 40), "[iid]")
	}
	rest := text[i+1:]
	if rest == "" {
		return mark, 0, nil
	}
	n, ok := strings.CutPrefix(rest, VisitSep)
	if !ok && strings.ContainsAny(rest[:1], VisitSepsASCII) {
		n, ok = rest[1:], true
	}
	if visit, err = strconv.Atoi(n); !ok || err != nil || visit < 1 {
		return "", 0, fmt.Errorf("%q after %s is no visit mark (%q is the node's 2nd such search)", engine.Clip(rest, 20), mark, mark+VisitSep+"2")
	}
	return mark, visit, nil
}

// ChildByNested returns the child of kids (the children of parent in
// search order) that is the nested search marked mark (NestedText, read
// case-blind), nested being the run's nested searches: its visit-th such
// search, or with visit 0 the last, as ChildByMove picks a move's. ok is
// false when there is none; n then says how many there were.
func ChildByNested(parent Node, kids []Node, nested map[int64]NestedSearch, mark string, visit int) (c Node, n int, ok bool) {
	i, n, ok := pickVisit(len(kids), func(j int) bool {
		return nestedChild(parent, kids[j]) && strings.EqualFold(NestedText(nested[kids[j].ID]), mark)
	}, visit)
	if ok {
		c = kids[i]
	}
	return c, n, ok
}

// NestedMarks lists the marks of the nested searches among kids (the
// children of parent), each once in search order, for the error of a path
// naming one that is not there.
func NestedMarks(parent Node, kids []Node, nested map[int64]NestedSearch) string {
	var marks []string
	for _, k := range kids {
		if m := NestedText(nested[k.ID]); nestedChild(parent, k) && !slices.Contains(marks, m) {
			marks = append(marks, m)
		}
	}
	if len(marks) == 0 {
		return "it made no nested search"
	}
	return "its nested searches: " + strings.Join(marks, ", ")
}

// NestedNotMadeText says why a path's nested search found no child: the
// node made no such search, or made fewer than its visit mark asks.
func NestedNotMadeText(n int) string {
	if n == 0 {
		return "no such nested search was made"
	}
	return "such a search was made " + engine.Times(n)
}

// NestedStat counts a run's nested searches of one reason: how many it
// made and the nodes they searched (their roots' subtrees, a node counted
// once however many searches of the reason it lies in), as stats gives
// them.
type NestedStat struct {
	Reason   string `json:"reason"`
	Searches int64  `json:"searches"`
	Nodes    int64  `json:"nodes"`
}

// NestedStats returns run's nested searches by reason, the reasons in
// order: none for a run without any (or a file before schema 7). It reads
// one row per nested search.
func NestedStats(ctx context.Context, r Reader, run int64) ([]NestedStat, error) {
	nested, err := r.NestedSearches(ctx, run)
	if err != nil || len(nested) == 0 {
		return []NestedStat{}, err
	}
	ids := make([]int64, 0, len(nested))
	for id := range nested {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	byReason := map[string]*NestedStat{}
	end := map[string]int64{} // where the reason's last outermost search's subtree ends
	for _, id := range ids {
		reason := nested[id].Reason
		if reason == "" {
			reason = "nested"
		}
		n, err := r.Node(ctx, run, id)
		if err != nil {
			return nil, err
		}
		s := byReason[reason]
		if s == nil {
			s = &NestedStat{Reason: reason}
			byReason[reason] = s
		}
		s.Searches++
		// Roots in id order: one inside an earlier search of its reason
		// (an IID search below an IID search) adds no nodes of its own.
		if id >= end[reason] {
			s.Nodes += n.SubtreeSize
			end[reason] = n.End()
		}
	}
	out := make([]NestedStat, 0, len(byReason))
	for _, s := range byReason {
		out = append(out, *s)
	}
	slices.SortFunc(out, func(a, b NestedStat) int { return strings.Compare(a.Reason, b.Reason) })
	return out, nil
}
