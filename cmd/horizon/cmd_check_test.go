package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/horizonqs/horizon/check"
	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

func TestCheckCommand(t *testing.T) {
	file := filepath.Join(t.TempDir(), "c.trace")
	// With the hash table on (the default): cutoffs by the table are
	// checked too.
	code, _, errOut := runCLI(t, "", "compare", "--fen", kiwipete, "--depth", "3", "--qs", "captures,threshold,unified", "--trace", file, "--csv")
	if code != 0 {
		t.Fatalf("recording: %s", errOut)
	}
	code, out, errOut := runCLI(t, "", "check", file)
	if code != 0 || strings.Count(out, "no violations") != 3 || !strings.HasSuffix(out, "\n3 passed, 0 failed\n") {
		t.Fatalf("clean trace: exit %d\n%s%s", code, out, errOut)
	}
	if !strings.Contains(out, "SQLite integrity check ok") {
		t.Errorf("check does not report SQLite's integrity check:\n%s", out)
	}

	// Damage one row: a QS node with children claims a better score.
	st, err := trace.OpenReadOnly(file)
	if err != nil {
		t.Fatal(err)
	}
	var victim trace.Node
	err = st.Subtree(context.Background(), 2, 0, -1, func(n trace.Node) error {
		if victim.ID == 0 && n.Kind == engine.KindQS && n.SubtreeSize > 1 && n.Cause == engine.CauseNone {
			victim = n
		}
		return nil
	})
	st.Close()
	if err != nil || victim.ID == 0 {
		t.Fatalf("no QS node to damage: %v", err)
	}
	db, err := sql.Open("sqlite3", file)
	if err != nil {
		t.Fatal(err)
	}
	_, err = db.Exec("UPDATE node_rows SET score = score + 5, stand_diff = stand_diff + 5 WHERE run_id = 2 AND id = ?", victim.ID)
	db.Close()
	if err != nil {
		t.Fatal(err)
	}

	code, out, errOut = runCLI(t, "", "check", file)
	if code != 1 {
		t.Fatalf("damaged trace: exit %d, want 1\n%s", code, out)
	}
	checkOneLineError(t, errOut, "violations in 1 of the runs")
	if !strings.HasSuffix(out, "\n2 passed, 1 failed\n") {
		t.Errorf("damaged trace: the report does not end with the suite's tally:\n%s", out)
	}
	if want := fmt.Sprintf("node %d [", victim.ID); !strings.Contains(out, want) || !strings.Contains(out, "score:") {
		t.Errorf("output does not name node %d and the score rule:\n%s", victim.ID, out)
	}
	text := out

	code, out, _ = runCLI(t, "", "check", file, "--run", "2", "--json")
	var reps []check.Report
	if err := json.Unmarshal([]byte(out), &reps); err != nil || code != 1 || len(reps) != 1 {
		t.Fatalf("--json: exit %d, %v\n%s", code, err, out)
	}
	if r := reps[0]; r.RunID != 2 || r.Count == 0 || r.ByRule[check.RuleScore] == 0 || r.Violations[0].Rule == "" {
		t.Errorf("--json report %+v", r)
	}
	// The text places each node as diff does ("iteration 3: Bxa6
	// bxc3·2"), as --json's place says it.
	for _, v := range reps[0].Violations {
		if p := trace.PlaceText(v.Root(), v.Path, v.Visits, v.Searches); v.Place != p {
			t.Errorf("--json's place %q is not its iteration %d and path %q", v.Place, v.Iteration, v.Path)
		}
		if want := fmt.Sprintf("  node %d [%s] %s: %s\n", v.Node, v.Place, v.Rule, v.Detail); !strings.Contains(text, want) {
			t.Errorf("text does not say\n%s(from --json %+v):\n%s", want, v, text)
		}
	}

	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{file, "--run", "7"}, 1, "no such run"},
		{[]string{}, 2, "trace file"},
		{[]string{file, "--max", "0"}, 2, "--max"},
		{[]string{filepath.Join(t.TempDir(), "none.trace")}, 1, "none.trace"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			checkFails(t, append([]string{"check"}, tc.args...), tc.code, tc.want)
		})
	}
}

// fileLayout returns a trace file's page size and the root page of each
// table named, where a test damages it as a bad disk would.
func fileLayout(t *testing.T, path string, tables ...string) (pageSize int64, roots map[string]int64) {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.QueryRow("PRAGMA page_size").Scan(&pageSize); err != nil {
		t.Fatal(err)
	}
	roots = map[string]int64{}
	for _, table := range tables {
		var root int64
		if err := db.QueryRow("SELECT rootpage FROM sqlite_master WHERE name = ?", table).Scan(&root); err != nil {
			t.Fatal(err)
		}
		roots[table] = root
	}
	return pageSize, roots
}

// TestCheckDamagedPages: a trace with a damaged page of its runs or its
// nodes table failed with SQLite's bare "database disk image is
// malformed" before any integrity report. check runs SQLite's integrity
// check when reading fails and reports the damaged page and its table,
// exit 1.
func TestCheckDamagedPages(t *testing.T) {
	clean, _ := traceFile(t, "--fen", kiwipete, "--depth", "3", "--qs", "captures")
	pageSize, roots := fileLayout(t, clean, "runs", "node_rows")
	orig, err := os.ReadFile(clean)
	if err != nil {
		t.Fatal(err)
	}
	for table, root := range roots {
		t.Run(table, func(t *testing.T) {
			b := append([]byte(nil), orig...)
			for i := (root - 1) * pageSize; i < root*pageSize; i++ {
				b[i] = 0xa5
			}
			file := filepath.Join(t.TempDir(), "damaged.trace")
			if err := os.WriteFile(file, b, 0o644); err != nil {
				t.Fatal(err)
			}
			code, _, errOut := runCLI(t, "", "check", file)
			want := fmt.Sprintf("page %d", root)
			if code != 1 || !strings.Contains(errOut, want) || !strings.Contains(errOut, "("+table+")") ||
				!strings.Contains(errOut, "SQLite's integrity check found") {
				t.Errorf("check of a damaged %s page: exit %d, stderr %q; want exit 1 naming %s of %s", table, code, errOut, want, table)
			}
		})
	}
}

// TestCheckDamagedRun: a damaged page of one run's rows made check stop
// at the integrity report, printing nothing on stdout (no JSON, no tally)
// and checking none of the runs the file still held whole. Every run that
// can be read is checked; the one that cannot is a failed run whose error
// names it; the tally and the JSON are printed; exit 1.
func TestCheckDamagedRun(t *testing.T) {
	clean, _ := traceFile(t, "--fen", kiwipete, "--depth", "3", "--qs", "captures,see,none")
	size, _ := fileLayout(t, clean)
	pageSize := int(size)
	b, err := os.ReadFile(clean)
	if err != nil {
		t.Fatal(err)
	}
	// The runs are written one after the other, so a leaf page of the
	// nodes (a b-tree leaf: type byte 10 or 13) half-way through the file
	// holds a run's rows, and not the first run's.
	page := len(b) / pageSize / 2
	for page*pageSize < len(b) && b[page*pageSize] != 10 && b[page*pageSize] != 13 {
		page++
	}
	if page*pageSize >= len(b) {
		t.Fatal("no leaf page in the second half of the file")
	}
	for i := page * pageSize; i < (page+1)*pageSize; i++ {
		b[i] = 0xa5
	}
	file := filepath.Join(t.TempDir(), "damaged.trace")
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}

	code, out, errOut := runCLI(t, "", "check", file)
	if code != 1 || strings.Contains(errOut, "panic") {
		t.Fatalf("exit %d, want 1\n%s%s", code, out, errOut)
	}
	if !strings.Contains(out, "no violations") || !strings.Contains(out, "not checked: ") ||
		!strings.HasSuffix(out, " passed, 1 failed\n") || strings.HasPrefix(out, "0 passed") {
		t.Errorf("text: want the readable runs checked, the damaged one failed and the tally:\n%s", out)
	}
	last := errOut[strings.LastIndex(strings.TrimSuffix(errOut, "\n"), "\n")+1:]
	if !strings.Contains(last, "the file is damaged") || !strings.Contains(last, "could not be read") {
		t.Errorf("the last line of stderr does not say what failed: %q", last)
	}

	code, out, _ = runCLI(t, "", "check", file, "--json")
	var reps []struct {
		Run        int64   `json:"run"`
		Violations *int64  `json:"violations"`
		Error      *string `json:"error"`
	}
	if err := json.Unmarshal([]byte(out), &reps); err != nil || code != 1 || len(reps) != 3 {
		t.Fatalf("--json: exit %d, %v\n%s", code, err, out)
	}
	failed := 0
	for _, r := range reps {
		switch {
		case r.Error == nil && r.Violations == nil:
			t.Errorf("run %d: neither checked nor failed", r.Run)
		case r.Error != nil:
			failed++
			if want := fmt.Sprintf("run %d: the rows ", r.Run); !strings.Contains(*r.Error, want) || r.Violations != nil {
				t.Errorf("run %d: error %q (violations %v); want it to name %q and no count", r.Run, *r.Error, r.Violations, want)
			}
		}
	}
	if failed != 1 {
		t.Errorf("--json: %d runs failed, want 1\n%s", failed, out)
	}
}

// TestCheckHelpListsEveryRule: the help's list of rules is check's table,
// so a rule the checker applies is never missing from it (see-prune,
// delta-prune, proved and options were, in a list kept by hand).
func TestCheckHelpListsEveryRule(t *testing.T) {
	help := helpOf(t, "check")
	for _, r := range check.RuleInfos() {
		if !strings.Contains(help, "\n  "+r.Name+" ") {
			t.Errorf("check --help does not list rule %s", r.Name)
		}
	}
}

// TestCheckHelpNamesJSON: --json's help names every key of a listed
// violation and every reason a run's rules are skipped for, from check's
// own types: it lacked searches (a place key since paths mark a first
// search) and older_horizon (an older Horizon's run read by its
// conventions).
func TestCheckHelpNamesJSON(t *testing.T) {
	help := strings.Join(strings.Fields(helpOf(t, "check")), " ")
	var names []string
	for _, f := range reflect.VisibleFields(reflect.TypeOf(check.Violation{})) {
		if tag, _, _ := strings.Cut(f.Tag.Get("json"), ","); !f.Anonymous && tag != "" && tag != "-" {
			names = append(names, tag)
		}
	}
	for _, name := range names {
		if !strings.Contains(help, " "+name+",") && !strings.Contains(help, " "+name+";") && !strings.Contains(help, " "+name+" ") {
			t.Errorf("check --help does not name listed's key %s:\n%s", name, help)
		}
	}
	for _, reason := range []string{check.SkippedOtherEngine, check.SkippedOlderHorizon} {
		if !strings.Contains(help, `"`+reason+`"`) {
			t.Errorf("check --help does not name skipped's reason %q", reason)
		}
	}
}

// TestCheckCountsByRule: the counts by rule read with thousands
// separators, as the total beside them does ("1,234 violations (bound
// 1234)" before), and one is a violation ("1 violations" before, and in
// the error line).
func TestCheckCountsByRule(t *testing.T) {
	for _, tc := range []struct {
		n          int64
		want, line string
	}{
		{1234, "1,234 violations (bound 1,234)", "1,234 violations in 1 of the runs checked"},
		{1, "1 violation (bound 1)", "1 violation in 1 of the runs checked"},
	} {
		rep := &check.Report{Run: trace.Run{ID: 1, Status: trace.StatusComplete}, Rows: 5000, Count: tc.n, ByRule: map[string]int64{check.RuleBound: tc.n}}
		var b strings.Builder
		if err := (checkedRun{Report: rep, run: rep.Run}).writeText(&b); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), tc.want) {
			t.Errorf("check says\n%s\nwant %q", b.String(), tc.want)
		}
		if got := (errViolations{n: tc.n, runs: 1}).Error(); got != tc.line {
			t.Errorf("error %q, want %q", got, tc.line)
		}
	}
}

// TestCheckNamesTheFilter: a run recorded under a filter is checked by
// the rows it kept, and check (text and --json) says so as runs and stats
// do ("no violations" read as if the whole search had been checked).
func TestCheckNamesTheFilter(t *testing.T) {
	file, _ := traceFile(t, "--fen", "startpos", "--depth", "3", "--qs", "captures", "--last-iteration")
	code, out, stderr := runCLI(t, "", "check", file)
	if code != 0 || !strings.Contains(out, "checked and the run node, the rows kept by recording filter: last-iteration (") {
		t.Errorf("check: exit %d\n%s%s\nwant the filter named", code, out, stderr)
	}
	var runs []struct {
		Filter string `json:"filter"`
		Depth  int    `json:"depth"`
		Status string `json:"status"`
	}
	cliJSON(t, &runs, "check", file, "--json")
	if len(runs) != 1 || runs[0].Filter != "last-iteration" || runs[0].Depth != 3 || runs[0].Status != "complete" {
		t.Errorf("check --json %+v, want the run's filter, depth and status", runs)
	}
}

// TestCheckSkippedTyped: check --json says which rules another engine's run
// was not checked by as data, a reason code and the rules by name beside
// the sentence the text prints (skipped was that sentence alone), and
// null for Horizon's own runs, where no rule is skipped. The text is as
// before.
func TestCheckSkippedTyped(t *testing.T) {
	dir := t.TempDir()
	stream := writeFile(t, "soft.hzt", "HZT 1\nengine Other\nposition startpos\nE - 2 -50 50\nE e2e4 1 -50 50\nE e7e5 0 -50 50\nL 10\nL -10\nL 10\nend best=e2e4 time=5\n")
	file := filepath.Join(dir, "t.trace")
	if code, _, errOut := runCLI(t, "", "import", stream, "-o", file); code != 0 {
		t.Fatalf("import: exit %d: %s", code, errOut)
	}
	if code, _, errOut := runCLI(t, "", "trace", "--fen", "startpos", "--depth", "1", "--qs", "captures", "-o", file); code != 0 {
		t.Fatalf("trace: exit %d: %s", code, errOut)
	}
	code, out, errOut := runCLI(t, "", "check", file)
	if code != 0 || !strings.Contains(out, "  note: skipped for another engine's run: qs-moves, leaf-cause, best-move, run, counts, node-kind, score (rules of Horizon's own engine") {
		t.Errorf("check: exit %d, want the note on skipped rules:\n%s%s", code, out, errOut)
	}
	var runs []map[string]json.RawMessage
	cliJSON(t, &runs, "check", file, "--json")
	if len(runs) != 2 {
		t.Fatalf("check --json: %d runs, want 2", len(runs))
	}
	var skipped struct {
		Reason string   `json:"reason"`
		Rules  []string `json:"rules"`
		Text   string   `json:"text"`
	}
	if err := json.Unmarshal(runs[0]["skipped"], &skipped); err != nil {
		t.Fatalf("check --json: skipped %s is not an object: %v", runs[0]["skipped"], err)
	}
	want := []string{check.RuleQSMoves, check.RuleLeaf, check.RuleBest, check.RuleRun, check.RuleCounts, check.RuleKind, check.RuleScore}
	if skipped.Reason != "other_engine" || fmt.Sprint(skipped.Rules) != fmt.Sprint(want) || !strings.HasPrefix(skipped.Text, "skipped for another engine's run: ") {
		t.Errorf("check --json: skipped %+v, want reason other_engine, rules %v and the text", skipped, want)
	}
	if got, ok := runs[1]["skipped"]; !ok || string(got) != "null" {
		t.Errorf("check --json of Horizon's run: skipped %s (present %v), want null", got, ok)
	}
}
