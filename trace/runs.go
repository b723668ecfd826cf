package trace

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/horizonqs/horizon/engine"
)

const runColumns = `id, created, fen, variant, options, limits, version, status, filter, nodes, qs_nodes, rows,
	max_ply, max_qs_ply, elapsed_ms, best_move, score, pv, depth`

// runColumns6 adds the run columns of schema versions 2 (engine,
// fail_hard), 3 (writer, summary_at, file_bytes), 5 (stop_cause) and 6
// (epd_id).
const runColumns6 = runColumns + `, engine, fail_hard, writer, summary_at, file_bytes, stop_cause, epd_id`

// runColumns5, runColumns3, runColumns2 and runColumns1 read older files
// with the same shape.
const (
	runColumns5 = runColumns + `, engine, fail_hard, writer, summary_at, file_bytes, stop_cause, NULL`
	runColumns3 = runColumns + `, engine, fail_hard, writer, summary_at, file_bytes, NULL, NULL`
	runColumns2 = runColumns + `, engine, fail_hard, NULL, NULL, 0, NULL, NULL`
	runColumns1 = runColumns + `, NULL, 0, NULL, NULL, 0, NULL, NULL`
)

// stopCauses is the schema version from which runs keep their stop cause;
// epdIDs the one from which they keep their EPD record's id.
const (
	stopCauses = 5
	epdIDs     = 6
)

// runSelect selects the runs of a file of schema version v, and the
// version the file has when the statement reads them (scanRun compares).
// SQLite evaluates the version's subquery once per statement.
func runSelect(v int) string {
	cols := runColumns6
	switch {
	case v < 2:
		cols = runColumns1
	case v < 3:
		cols = runColumns2
	case v < stopCauses:
		cols = runColumns3
	case v < epdIDs:
		cols = runColumns5
	}
	return "SELECT " + cols + ", (SELECT user_version FROM pragma_user_version) FROM runs"
}

// readRuns runs read, a query of runs (runSelect) by the store's schema
// version, again when it read a file another process has upgraded since
// (errUpgraded): then the store has taken the new version.
func readRuns[T any](s *Store, read func(v int) (T, error)) (T, error) {
	var (
		res T
		err error
	)
	for range 3 {
		if res, err = read(s.schema()); !errors.Is(err, errUpgraded) {
			break
		}
	}
	return res, err
}

// scanRun reads a row of runSelect(v).
func (s *Store) scanRun(sc interface{ Scan(...any) error }, v int) (Run, error) {
	var (
		r       Run
		created string
		elapsed int64
		best    sql.NullString
		score   sql.NullInt64
		pv      sql.NullString
		depth   sql.NullInt64
		engine  sql.NullString
		writer  sql.NullString
		sumAt   sql.NullString
		status  string
		cause   sql.NullString
		epdID   sql.NullString
		fileV   int
	)
	err := sc.Scan(&r.ID, &created, &r.FEN, &r.Variant, &r.Options, &r.Limits, &r.Version, &status, &r.Filter,
		&r.Nodes, &r.QSNodes, &r.Rows, &r.MaxPly, &r.MaxQSPly, &elapsed, &best, &score, &pv, &depth,
		&engine, &r.FailHard, &writer, &sumAt, &r.FileBytes, &cause, &epdID, &fileV)
	if err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return r, err
		}
		return r, s.readErr(err, fmt.Sprintf("run %d: its row in runs", r.ID))
	}
	if fileV != v {
		// Upgraded by another process since the store read the version:
		// the row is read again by the new one (readRuns).
		if err := s.takeVersion(fileV); err != nil {
			return r, err
		}
		return r, errUpgraded
	}
	if v < positionNodes && r.Nodes > 0 {
		r.Nodes-- // the run node, counted by schemas 1 to 3
	}
	if s.noQS[r.ID] {
		// Early files counted variant none's horizon nodes as QS (noQS).
		r.QSNodes, r.MaxQSPly = 0, 0
	}
	r.Status = Status(status)
	r.StopCause = cause.String
	r.EPDID = epdID.String
	r.Created, _ = time.Parse(time.RFC3339Nano, created)
	r.Elapsed = time.Duration(elapsed) * time.Millisecond
	r.BestMove = best.String
	r.Score = int(score.Int64)
	if pv.String != "" {
		r.PV = strings.Fields(pv.String)
	}
	r.Depth = int(depth.Int64)
	// A QS-only run has no iteration (depth 0): its score is the
	// quiescence search's, finished when the run completed.
	lim, _ := r.SearchLimits()
	r.scored = score.Valid && (r.Depth > 0 || lim.QSOnly && r.Status == StatusComplete)
	r.Engine = engine.String
	// Another engine's stream may search QS alone under its root (depth
	// <= 0: iteration 0), and its score is then that search's answer, at
	// depth 0 as a stream with no iteration concluded: the rows tell them
	// apart (qsAnswer).
	r.qsAnswer = !r.scored && score.Valid && r.Depth == 0 && r.Engine != ""
	if !r.scored && r.Engine == "" {
		// Horizon's search with no answer: files before Result.NoAnswer
		// kept the move it would have played (the first legal move, never
		// searched, or the unfinished iteration's best so far).
		r.BestMove, r.PV = "", nil
	}
	r.liveSummary = sumAt.Valid
	if r.Status == StatusRunning && writer.Valid && s.recorderGone(writer.String) {
		r.Status = StatusAbandoned
	}
	if r.Nodes < 0 || r.Rows < 0 || r.QSNodes < 0 {
		return r, damagedf("trace %s: run %d has %d nodes, %d rows", s.path, r.ID, r.Nodes, r.Rows)
	}
	return r, nil
}

// prepared returns query prepared once for the store, or nil when it
// does not prepare (the caller runs it unprepared, and meets the error
// there). Run is read for every position a reader shows (replay), and
// preparing its query each time was most of the read: 33 µs a read
// unprepared, 23 µs prepared, with the schema version read in the same
// statement (runSelect).
func (s *Store) prepared(ctx context.Context, query string) *sql.Stmt {
	if s.snapshot {
		return nil // a snapshot's queries run in its transaction (read), where it has one
	}
	if st, ok := s.stmts.Load(query); ok {
		return st.(*sql.Stmt)
	}
	st, err := s.db.PrepareContext(ctx, query)
	if err != nil {
		return nil
	}
	if old, loaded := s.stmts.LoadOrStore(query, st); loaded {
		st.Close()
		return old.(*sql.Stmt)
	}
	return st
}

// Runs lists the runs in the file by id.
func (s *Store) Runs(ctx context.Context) ([]Run, error) {
	runs, err := readRuns(s, func(v int) ([]Run, error) {
		scan := func(rows *sql.Rows) (Run, error) { return s.scanRun(rows, v) }
		return queryRows(ctx, s, scan, runSelect(v)+" ORDER BY id")
	})
	for i := range runs {
		if err == nil {
			err = s.qsAnswer(ctx, &runs[i])
		}
	}
	return runs, s.bigRunValue(ctx, err)
}

// qsAnswer completes run r when scanRun could not tell whether its score
// is an answer (Run.qsAnswer): another engine's run at depth 0 with a
// score stored, which the importer writes both for a stream that
// concluded no iteration (a score of nothing) and for one that searched QS
// alone under its root, iteration 0, and concluded it. The run is scored
// when its roots say iteration 0 concluded, by the importer's own rule (a
// later iteration began after it, or its last root closed exact, not cut
// short), and the stored score is one of its exact roots': a file of any
// schema, written by any importer, so reads the same truth. A run whose
// roots the file cannot read keeps no score.
func (s *Store) qsAnswer(ctx context.Context, r *Run) error {
	if !r.qsAnswer {
		return nil
	}
	r.qsAnswer = false
	roots, err := s.Children(ctx, r.ID, 0, BySearch, 0, 0)
	if err != nil {
		return nil // the run reads without a score; the reader meets the damage where it reads the rows
	}
	last := -1
	for i, n := range roots {
		if n.Iteration == 0 {
			last = i
		}
	}
	if last < 0 {
		return nil
	}
	concluded := last < len(roots)-1 ||
		roots[last].Bound == engine.BoundExact && !roots[last].Incomplete && roots[last].Cause != engine.CauseStop
	r.scored = concluded && slices.ContainsFunc(roots[:last+1], func(n Node) bool {
		return n.Iteration == 0 && n.Kind == engine.KindRoot && n.Bound == engine.BoundExact && int(n.Score) == r.Score
	})
	return nil
}

// noRun is the error for a run id the file does not hold. It lists the
// runs the file does hold, so the user sees which to give: every command
// says it this way.
func (s *Store) noRun(ctx context.Context, id int64) error {
	runs, err := s.Runs(ctx)
	if err != nil {
		return fmt.Errorf("trace %s: run %d: %w (its runs cannot be listed: %v)", s.path, id, ErrNoRun, err)
	}
	return fmt.Errorf("trace %s: run %d: %w (its runs: %s)", s.path, id, ErrNoRun, RunList(runs))
}

// RunList names runs for a message, id and label: "1 see, 2 captures";
// "none" when there are none. A long list keeps its first and last runs
// (the newest are most often the ones meant) and says how many it left
// out, so a message stays one line.
func RunList(runs []Run) string {
	const first, last = 3, 5
	if len(runs) == 0 {
		return "none"
	}
	name := func(r Run) string { return fmt.Sprintf("%d %s", r.ID, r.Label()) }
	var ids []string
	for i, r := range runs {
		switch {
		case len(runs) <= first+last+1 || i < first || i >= len(runs)-last:
			ids = append(ids, name(r))
		case i == first:
			ids = append(ids, fmt.Sprintf("... %d more", len(runs)-first-last))
		}
	}
	return strings.Join(ids, ", ")
}

// Run returns one run; the error wraps ErrNoRun when there is none.
func (s *Store) Run(ctx context.Context, id int64) (Run, error) {
	r, err := readRuns(s, func(v int) (Run, error) {
		q := runSelect(v) + " WHERE id = ?"
		if st := s.prepared(ctx, q); st != nil {
			return s.scanRun(st.QueryRowContext(ctx, id), v)
		}
		return s.scanRun(s.read().QueryRowContext(ctx, q, id), v)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return r, s.noRun(ctx, id)
	}
	if err != nil {
		return r, s.bigRunValue(ctx, err)
	}
	return r, s.qsAnswer(ctx, &r)
}
