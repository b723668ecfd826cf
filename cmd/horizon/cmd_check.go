package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/horizonqs/horizon/check"
	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// errViolations makes check exit 1 after printing its report.
type errViolations struct{ n, runs int64 }

func (e errViolations) Error() string {
	return fmt.Sprintf("%s in %d of the runs checked", engine.Count(e.n, "violation"), e.runs)
}

// ruleHelp lists check's rules for the help text, a line or more each.
func ruleHelp() string {
	var b strings.Builder
	for _, r := range check.RuleInfos() {
		for i, line := range strings.Split(r.Summary, "\n") {
			name := ""
			if i == 0 {
				name = r.Name
			}
			fmt.Fprintf(&b, "  %-13s %s\n", name, line)
		}
	}
	return b.String()
}

func runCheck(e *env, args []string) error {
	fs := newFlags(e, "check", "FILE [--run N] [--max N] [--json]",
		`Checks every node of a run (or of every run in the file) against the rules its
search must keep, and prints each violation with the node id, its place as diff
writes it (iteration and moves, a move searched more than once under one node
marked with its visit: "iteration 3: Bxa6 bxc3·2") and the rule broken, and
ends with "N passed, N failed" (a run passes when it breaks no rule); exits 1
when there is any violation. Rules:
`+ruleHelp()+`Before the rules it runs SQLite's own integrity check (PRAGMA integrity_check)
with the SQLite built into Horizon and reports what it finds (the damaged pages
and their tables), also when damage keeps the runs from being read (a file cut
short, smaller than its header says, is reported as that alone); then it
checks every run it can still read, and a run whose rows it cannot read fails,
its error naming the run and the rows where reading stopped. A run still
being recorded, or whose recorder died, is checked as far as it was committed;
a run recorded under a filter (trace --last-iteration, --under) is checked
by the rows it kept, and the report names the filter.
The variant's switches come from the run's recorded options. Nodes a stop left
incomplete are checked for structure only. Runs of other engines (trace
--engine, import) are checked by the rules that hold for any engine:
structure, subtree-size, legal-move (pseudo-legal moves where the engine
declared them), in-check, bound, cutoff (a real move failing high against the
node's beta ends it with a fail high), stand-pat (a QS node that wrote its
stand pat, and was not ended by a rule of its own such as a hash hit, scores
no lower and searches no move when it reaches beta: a fail-soft engine that
returns beta there breaks it) and, for an engine that declared fail-hard
scores, score (every score inside its window); the others are skipped, and
the report says so. A run of an older Horizon that keeps, at every node where
it shows, a convention its engine has since dropped (delta-pruned captures left
out of a fail-low score; with delay-penalty, a scout's descendants kinded by
their windows) is read as that Horizon recorded it: its note says which rule
was read so.`,
		"horizon check sample.trace",
		"horizon check sample.trace --run 2 --max 20",
		"horizon check sample.trace --json | jq '.[].by_rule'")
	run := runFlag(fs, "run `id`, or an EPD record's id for its runs ('horizon runs FILE' lists both)", "every run")
	maxV := fs.Int("max", 50, "violations to print per run (all are counted)")
	asJSON := fs.Bool("json", false, "print JSON: an array, one object per run (run, variant, status, stop_cause, filter (null when\nthere is none), depth, rows (the rows checked: the nodes and the run node), nodes_checked (rows less the run node, as other commands count nodes), violations, by_rule, listed, skipped, error);\nskipped is null, or {reason, rules: [...], text}: reason \""+check.SkippedOtherEngine+"\" for another engine's run, \""+check.SkippedOlderHorizon+"\" for a run of an older Horizon read by its convention;\nlisted violations have run, node, iteration, iteration_visit, iteration_searches (the root's visit among its iteration's roots, and their number: 2 after an aspiration re-search), path (SAN), visits, searches (path[i]'s searches under its parent: a path marks visits as the text does), place, rule, detail;\na run that could not be read has null rows, nodes_checked and violations and its error, null otherwise")
	file, err := parseFileFlags(fs, args)
	if err != nil {
		return err
	}
	if *maxV < 1 {
		return usagef("--max %d: want a positive number", *maxV)
	}
	st, runs, err := openRuns(e, file, run)
	if err != nil {
		var ue *usageError
		if errors.As(err, &ue) || !fileExists(file) {
			return err
		}
		// A damaged page makes reading the runs fail with SQLite's bare
		// "database disk image is malformed", which says neither where
		// nor how much: the integrity check says both.
		integrity := func(ctx context.Context, limit int) ([]string, error) {
			return trace.CheckFileIntegrity(ctx, file, limit)
		}
		if ierr := checkIntegrity(e, file, integrity); ierr != nil {
			return ierr
		}
		return err
	}
	defer st.Close()
	if len(runs) == 0 {
		return fmt.Errorf("%s holds no runs", file)
	}
	f := formatOf(*asJSON, false)
	// Damage is reported, then every run is checked that can still be
	// read: a damaged page costs the runs whose rows it held, not the
	// report on the others. SQLite's integrity check runs beside the
	// runs' checks, on a connection of its own (it was 4.2 s of the 8.9 s
	// a 5.7M-row file took, on one core): its line comes first all the
	// same, the runs' lines wait for it.
	out := &checkLines{e: e, file: file, f: f, integrity: startIntegrity(e, st.IntegrityCheck)}
	var reports checkResult
	for _, r := range runs {
		var rows atomic.Int64
		stop := rowsProgress(e.stderr, fmt.Sprintf("checking run %d", r.ID), &rows, r.Rows)
		rep, err := check.Run(e.ctx, countingReader{st, &rows}, r.ID, check.Options{Max: *maxV})
		stop()
		if err != nil && e.ctx.Err() != nil {
			if ierr := out.finish(true); ierr != nil {
				return ierr // stopped in the integrity check, as before
			}
			return err
		}
		c := checkedRun{Report: rep, run: r, err: err}
		reports = append(reports, c)
		if err := out.add(c); err != nil {
			return err
		}
	}
	if err := out.finish(true); err != nil {
		return err
	}
	if err := e.print(reports, f); err != nil {
		return err
	}
	return reports.err(out.fileErr)
}

// checkLines prints check's lines in order while SQLite's integrity
// check runs beside the runs' checks: the integrity line first, the runs'
// lines held till it is printed.
type checkLines struct {
	e         *env
	file      string
	f         format
	integrity *integrityRun
	fileErr   error    // what the integrity check found
	held      []result // the runs' lines while the integrity check runs
	printed   bool     // the integrity line
}

// add prints a run's line, or holds it while the integrity check runs.
func (c *checkLines) add(r result) error {
	if !c.printed {
		c.held = append(c.held, r)
		return c.finish(false)
	}
	return c.e.printPart(r, c.f)
}

// finish prints the integrity line once the check has ended, and the
// runs' lines held till then; with wait, it waits for the check to end.
func (c *checkLines) finish(wait bool) error {
	if c.printed {
		return nil
	}
	done, ierr := c.integrity.result(c.e, c.file, wait)
	if !done {
		return nil
	}
	c.printed, c.fileErr = true, ierr
	if c.fileErr != nil && c.e.ctx.Err() != nil {
		return c.fileErr
	}
	var status result = integrityOK(c.file)
	if c.fileErr != nil {
		status = message(c.fileErr.Error())
	}
	for _, p := range append([]result{status}, c.held...) {
		if err := c.e.printPart(p, c.f); err != nil {
			return err
		}
	}
	c.held = nil
	return nil
}

// integrityRun is SQLite's integrity check of a file, running on a
// goroutine (startIntegrity).
type integrityRun struct {
	done     chan struct{}
	problems []string
	err      error
}

// startIntegrity starts integrity(ctx, 20) on a goroutine.
func startIntegrity(e *env, integrity func(context.Context, int) ([]string, error)) *integrityRun {
	r := &integrityRun{done: make(chan struct{})}
	go func() {
		defer close(r.done)
		r.problems, r.err = integrity(e.ctx, 20)
	}()
	return r
}

// result is the check's finding as checkIntegrity gives it, once it has
// ended: done is false when it has not and wait is false; with wait, it
// waits with a progress line.
func (r *integrityRun) result(e *env, file string, wait bool) (done bool, err error) {
	select {
	case <-r.done:
	default:
		if !wait {
			return false, nil
		}
		stop := integrityProgress(e, file)
		<-r.done
		stop()
	}
	return true, integrityFinding(e, file, r.problems, r.err)
}

// printSkipped notes the rules a run of another engine was not checked by.
func printSkipped(w io.Writer, rep *check.Report) {
	if rep.Skipped != nil {
		fmt.Fprintf(w, "  note: %s\n", rep.Skipped.Text)
	}
}

// checkResult is 'horizon check': a report per run, each printed as it
// is done.
type checkResult []checkedRun

// writeText ends the reports, each printed as it was done, with the
// suite's tally: a run passes when it was read to the end and broke no
// rule.
func (res checkResult) writeText(w io.Writer) error {
	failed := 0
	for _, c := range res {
		if !c.passed() {
			failed++
		}
	}
	return writeTally(w, len(res)-failed, failed)
}

// err is check's exit: nil when the file is sound and every run passed,
// otherwise one line saying what failed (fileErr is the integrity
// check's finding, nil when it found none).
func (res checkResult) err(fileErr error) error {
	var parts []string
	if fileErr != nil {
		parts = append(parts, fileErr.Error())
	}
	var unread []string
	var bad errViolations
	for _, c := range res {
		switch {
		case c.err != nil:
			unread = append(unread, fmt.Sprint(c.run.ID))
		case c.Count > 0:
			bad.n += c.Count
			bad.runs++
		}
	}
	switch len(unread) {
	case 0:
	case 1:
		parts = append(parts, "run "+unread[0]+" could not be read")
	default:
		parts = append(parts, "runs "+strings.Join(unread, ", ")+" could not be read")
	}
	if bad.n > 0 {
		if len(parts) == 0 {
			return bad
		}
		parts = append(parts, bad.Error())
	}
	if len(parts) == 0 {
		return nil
	}
	return errors.New(strings.Join(parts, "; "))
}

// checkIntegrity runs SQLite's own integrity check, with the SQLite built
// into Horizon (an older sqlite3 shell may report false errors on a sound
// trace), and prints each problem it finds (the damaged pages) on stderr.
// The check itself can stop at the damage with SQLite's "malformed": what
// it found before that is the report.
func checkIntegrity(e *env, file string, integrity func(context.Context, int) ([]string, error)) error {
	stop := integrityProgress(e, file)
	problems, err := integrity(e.ctx, 20)
	stop()
	return integrityFinding(e, file, problems, err)
}

// integrityProgress draws the integrity check's progress line.
func integrityProgress(e *env, file string) func() {
	return progressLine(e.stderr, func(el time.Duration) string {
		return fmt.Sprintf("SQLite integrity check of %s  %s", file, engine.Elapsed(el))
	})
}

// integrityFinding prints the problems SQLite's integrity check of file
// found and returns checkIntegrity's error.
func integrityFinding(e *env, file string, problems []string, err error) error {
	if len(problems) > 0 {
		for _, p := range problems {
			fmt.Fprintf(e.stderr, "%s: SQLite integrity check: %s\n", engine.Printable(file), engine.Printable(p))
		}
		return fmt.Errorf("%s: SQLite's integrity check found %s: the file is damaged", file, engine.Count(int64(len(problems)), "problem"))
	}
	return err
}

// integrityOK is the line that says SQLite found the file sound.
type integrityOK string

func (file integrityOK) writeText(w io.Writer) error {
	_, err := fmt.Fprintf(w, "%s: SQLite integrity check ok\n", string(file))
	return err
}

// checkedRun is one run's outcome: its report, or the error that kept
// it from being checked (a damaged page of its rows).
type checkedRun struct {
	*check.Report
	run trace.Run
	err error
}

// passed reports whether the run was read to the end and broke no rule.
func (c checkedRun) passed() bool { return c.err == nil && c.Count == 0 }

// checkedRunJSON is a run's object in check --json. A run that could
// not be read has null counts (nothing was checked) and its error.
type checkedRunJSON struct {
	Run     int64  `json:"run"`
	Variant string `json:"variant"`
	// Status, StopCause, Filter and Depth are the run's, as runs --json
	// gives them: what the rows checked are of.
	Status     string            `json:"status"`
	StopCause  *string           `json:"stop_cause"`
	Filter     *string           `json:"filter"` // null when every node searched was recorded
	Depth      int               `json:"depth"`
	Rows       *int64            `json:"rows"`          // the rows checked: the nodes and the run node
	Nodes      *int64            `json:"nodes_checked"` // the nodes checked, as other commands count nodes: rows less the run node
	Count      *int64            `json:"violations"`
	ByRule     map[string]int64  `json:"by_rule"`
	Violations []check.Violation `json:"listed"`
	Skipped    *check.Skipped    `json:"skipped"` // null when no rule was skipped
	Error      *string           `json:"error"`   // null when the run was read to the end
}

func (c checkedRun) MarshalJSON() ([]byte, error) {
	r := c.run
	j := checkedRunJSON{Run: r.ID, Variant: r.Label(), Status: string(r.Status), StopCause: orNull(r.StopCause), Filter: orNull(r.Filter),
		Depth: r.Depth, ByRule: map[string]int64{}, Violations: []check.Violation{}}
	if c.err != nil {
		msg := c.err.Error()
		j.Error = &msg
		return json.Marshal(j)
	}
	rep := c.Report
	nodes := max(rep.Rows-1, 0)
	j.Rows, j.Nodes, j.Count, j.ByRule, j.Violations, j.Skipped = &rep.Rows, &nodes, &rep.Count, rep.ByRule, rep.Violations, rep.Skipped
	return json.Marshal(j)
}

func (c checkedRun) writeText(w io.Writer) error {
	if c.err != nil {
		r := c.run
		_, err := fmt.Fprintf(w, "run %d (%s, %s, depth %d): not checked: %s\n", r.ID, engine.Printable(r.Label()), engine.Printable(trace.StatusText(r.Status, r.StopCause)), r.Depth, engine.Printable(c.err.Error()))
		return err
	}
	rep := c.Report
	r := rep.Run
	// Nodes, as every other command counts them: the run node is
	// Horizon's row, no position (trace.Run.Recorded).
	fmt.Fprintf(w, "run %d (%s, %s, depth %d): %s checked and the run node, ", r.ID, engine.Printable(r.Label()), engine.Printable(trace.StatusText(r.Status, r.StopCause)), r.Depth,
		engine.Count(max(rep.Rows-1, 0), "node"))
	if !r.Ended() {
		fmt.Fprint(w, "the rows committed so far (nodes still open are checked for structure only), ")
	}
	if r.Filter != "" {
		// As runs and stats say it: the rows are not the whole search,
		// and the rules that need every child of a node pass over the
		// nodes the filter left children of out.
		fmt.Fprintf(w, "the rows kept by recording filter: %s (nodes missing children, and the run's totals, are not held to the rules that need them), ", engine.Printable(r.FilterText()))
	}
	if rep.Count == 0 {
		fmt.Fprintln(w, "no violations")
		printSkipped(w, rep)
		return nil
	}
	rules := make([]string, 0, len(rep.ByRule))
	for k := range rep.ByRule {
		rules = append(rules, k)
	}
	sort.Strings(rules)
	parts := make([]string, len(rules))
	for i, k := range rules {
		parts[i] = k + " " + engine.Commas(rep.ByRule[k])
	}
	fmt.Fprintf(w, "%s (%s)\n", engine.Count(rep.Count, "violation"), strings.Join(parts, ", "))
	for _, v := range rep.Violations {
		place := " [" + v.Place + "]"
		if v.Place == "" {
			place = " (the run node)"
		}
		fmt.Fprintf(w, "  node %d%s %s: %s\n", v.Node, place, v.Rule, v.Detail)
	}
	if n := rep.Count - int64(len(rep.Violations)); n > 0 {
		fmt.Fprintf(w, "  ... and %s more (raise --max to list them)\n", engine.Commas(n))
	}
	if rep.Skipped != nil {
		printSkipped(w, rep)
	}
	return nil
}
