package trace

import (
	"context"
	"database/sql"
	"embed"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/horizonqs/horizon/engine"
	sqlite3 "github.com/mattn/go-sqlite3"
)

// applicationID marks a SQLite file as a Horizon trace ("HRZN").
const applicationID = 0x48525a4e

//go:embed schema/*.sql
var schemaFS embed.FS

// migration is one numbered schema file; applying migration N leaves the
// file at user_version N.
type migration struct {
	version int
	name    string
	sql     string
}

var migrations = sync.OnceValue(func() []migration {
	files, err := fs.Glob(schemaFS, "schema/*.sql")
	if err != nil {
		panic(err) // the pattern is constant
	}
	var ms []migration
	for _, f := range files {
		base := strings.TrimPrefix(f, "schema/")
		num, _, _ := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if err != nil {
			panic("trace: migration file without a number: " + f)
		}
		text, err := schemaFS.ReadFile(f)
		if err != nil {
			panic(err)
		}
		ms = append(ms, migration{v, base, string(text)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	for i, m := range ms {
		if m.version != i+1 {
			panic("trace: migrations must be numbered 1, 2, 3, ...: " + m.name)
		}
	}
	return ms
})

// minReadOnlyVersion is the oldest schema a read-only open reads as it is:
// version 2 only added run columns, which queries read as defaults on
// version 1 (see runSelect).
const minReadOnlyVersion = 1

// SchemaVersion is the schema version this build writes (PRAGMA user_version).
func SchemaVersion() int { return len(migrations()) }

// Store is an open trace file. It is safe for concurrent use; queries may
// run while a Recorder writes (the file is in WAL mode).
type Store struct {
	db       *sql.DB
	path     string
	readOnly bool
	writer   bool // opened by Create: WAL while open, rollback journal after Close
	version  int  // the file's schema version once open (older only when read-only)

	// maxPages, when set, caps the file's size in pages on the recorder's
	// connection: tests use it to make the disk "full".
	maxPages int
}

// Open opens an existing trace for reading and writing (new runs can be
// recorded into it). Errors name the file and wrap ErrNotTrace,
// ErrNewerSchema or ErrCorrupt where those apply.
func Open(path string) (*Store, error) { return open(path, false, false) }

// OpenReadOnly opens an existing trace for queries only; it works on files
// the user cannot write and never changes the file.
func OpenReadOnly(path string) (*Store, error) { return open(path, true, false) }

// Create opens the trace at path for recording, creating the file if it
// does not exist; an existing trace is kept and new runs are appended. An
// existing file that is not a trace is an error wrapping ErrNotTrace, and is
// left untouched.
func Create(path string) (*Store, error) { return open(path, false, true) }

func open(path string, readOnly, create bool) (*Store, error) {
	fresh := false
	if err := checkHeader(path); err != nil {
		switch {
		case create && errors.Is(err, fs.ErrNotExist):
			fresh = true
		case create && errors.Is(err, errEmpty):
			fresh = true
		default:
			return nil, err
		}
	}
	if fresh {
		// Create the file ourselves first: the OS names the problem
		// (no such directory, permission denied) more clearly than SQLite's
		// "unable to open database file".
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o666)
		if err != nil {
			return nil, fmt.Errorf("create trace: %w", err)
		}
		f.Close()
	}
	dsn := "file:" + escapePath(path) + "?_busy_timeout=10000"
	if readOnly {
		dsn += "&mode=ro"
	} else {
		dsn += "&_txlock=immediate"
	}
	db, err := sql.Open("sqlite3", dsn)
	if err != nil {
		return nil, fmt.Errorf("open trace %s: %w", path, err)
	}
	s := &Store{db: db, path: path, readOnly: readOnly, writer: create}
	if err := s.init(fresh, create); err != nil {
		db.Close()
		if fresh {
			os.Remove(path) // do not leave a half-made file behind
		}
		return nil, err
	}
	return s, nil
}

// escapePath makes path safe inside a "file:" URI.
func escapePath(p string) string {
	return strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(p)
}

var errEmpty = errors.New("empty file")

// checkHeader looks at the file's first 100 bytes before SQLite does, so a
// file that is not SQLite, or a SQLite file cut short, gets a clear error.
func checkHeader(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("open trace %s: %w", path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("open trace %s: %w", path, err)
	}
	if st.IsDir() {
		return fmt.Errorf("open trace %s: is a directory: %w", path, ErrNotTrace)
	}
	if st.Size() == 0 {
		return fmt.Errorf("open trace %s: %w: %w", path, errEmpty, ErrNotTrace)
	}
	var h [100]byte
	n, err := io.ReadFull(f, h[:])
	if err != nil && err != io.ErrUnexpectedEOF {
		return fmt.Errorf("open trace %s: %w", path, err)
	}
	const magic = "SQLite format 3\x00"
	if n < len(magic) || string(h[:len(magic)]) != magic {
		if n < len(magic) && string(h[:n]) == magic[:n] {
			return fmt.Errorf("open trace %s: %d bytes, cut off inside the header: %w", path, n, ErrCorrupt)
		}
		return fmt.Errorf("open trace %s: not a SQLite file: %w", path, ErrNotTrace)
	}
	if n < len(h) {
		return fmt.Errorf("open trace %s: %d bytes, cut off inside the header: %w", path, n, ErrCorrupt)
	}
	pageSize := int64(binary.BigEndian.Uint16(h[16:18]))
	if pageSize == 1 {
		pageSize = 65536
	}
	pages := int64(binary.BigEndian.Uint32(h[28:32]))
	changeCounter := binary.BigEndian.Uint32(h[24:28])
	validFor := binary.BigEndian.Uint32(h[92:96])
	if pages > 0 && changeCounter == validFor && st.Size() < pages*pageSize {
		return fmt.Errorf("open trace %s: truncated: %d bytes, the header says %d: %w",
			path, st.Size(), pages*pageSize, ErrCorrupt)
	}
	return nil
}

// sqliteErr maps SQLite's error codes onto the package's sentinels.
func sqliteErr(path string, err error) error {
	var se sqlite3.Error
	if errors.As(err, &se) {
		switch se.Code {
		case sqlite3.ErrNotADB:
			return fmt.Errorf("open trace %s: %v: %w", path, err, ErrNotTrace)
		case sqlite3.ErrCorrupt:
			return fmt.Errorf("trace %s: %v: %w", path, err, ErrCorrupt)
		}
	}
	return fmt.Errorf("trace %s: %w", path, err)
}

func (s *Store) init(fresh, create bool) error {
	ctx := context.Background()
	var appID, version int
	if err := s.db.QueryRowContext(ctx, "PRAGMA application_id").Scan(&appID); err != nil {
		return sqliteErr(s.path, err)
	}
	if err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return sqliteErr(s.path, err)
	}
	if !fresh && appID != applicationID {
		if appID == 0 && version == 0 && create && s.isEmptyDB(ctx) {
			fresh = true // an empty SQLite file: make it a trace
		} else {
			return fmt.Errorf("open trace %s: a SQLite file, but not one Horizon wrote: %w", s.path, ErrNotTrace)
		}
	}
	if version > SchemaVersion() {
		return fmt.Errorf("open trace %s: schema version %d, this Horizon knows up to %d; upgrade Horizon: %w",
			s.path, version, SchemaVersion(), ErrNewerSchema)
	}
	if !s.readOnly {
		if create {
			// WAL lets a viewer read while a search writes. Close turns it
			// off again, so that reading a finished trace leaves no -wal and
			// -shm files beside it.
			if _, err := s.db.ExecContext(ctx, "PRAGMA journal_mode=WAL"); err != nil {
				return sqliteErr(s.path, err)
			}
		}
		if err := s.migrate(ctx, version); err != nil {
			return err
		}
		if create {
			if err := s.fillLookups(ctx); err != nil {
				return err
			}
		}
	} else if version < minReadOnlyVersion {
		return fmt.Errorf("open trace %s: schema version %d is older than %d; open it read-write once to upgrade it",
			s.path, version, minReadOnlyVersion)
	}
	s.version = version
	if !s.readOnly {
		s.version = SchemaVersion()
	}
	// Touch the tables a query needs, so a damaged file fails here, at
	// open, and not in the middle of browsing.
	var n int
	if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM runs").Scan(&n); err != nil {
		return sqliteErr(s.path, err)
	}
	return nil
}

func (s *Store) isEmptyDB(ctx context.Context) bool {
	var n int
	err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&n)
	return err == nil && n == 0
}

func (s *Store) migrate(ctx context.Context, from int) error {
	for _, m := range migrations()[from:] {
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			return sqliteErr(s.path, err)
		}
		_, err = tx.ExecContext(ctx, m.sql)
		if err == nil {
			// PRAGMA arguments cannot be bound; the values are integers
			// this package owns.
			_, err = tx.ExecContext(ctx, fmt.Sprintf("PRAGMA application_id=%d; PRAGMA user_version=%d", applicationID, m.version))
		}
		if err == nil {
			err = tx.Commit()
		} else {
			tx.Rollback()
		}
		if err != nil {
			return fmt.Errorf("trace %s: migration %s: %w", s.path, m.name, err)
		}
	}
	return nil
}

// Meanings of the engine's codes, stored beside their names so the file
// explains itself. Codes the engine adds later get an empty meaning.
var ()

func (s *Store) fillLookups(ctx context.Context) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return sqliteErr(s.path, err)
	}
	defer tx.Rollback()
	meaning := func(table string, code int) string {
		switch table {
		case "kinds":
			return engine.NodeKind(code).Meaning()
		case "bounds":
			return engine.Bound(code).Meaning()
		}
		return engine.Cause(code).Meaning()
	}
	for _, t := range []struct {
		table string
		names []string
	}{
		{"kinds", engine.KindNames()},
		{"bounds", engine.BoundNames()},
		{"causes", engine.CauseNames()},
	} {
		// The table name is one of three constants above, never input.
		q := "INSERT OR REPLACE INTO " + t.table + "(code, name, meaning) VALUES (?, ?, ?)"
		for code, name := range t.names {
			if _, err := tx.ExecContext(ctx, q, code, name, meaning(t.table, code)); err != nil {
				return sqliteErr(s.path, err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return sqliteErr(s.path, err)
	}
	return nil
}

// File returns the path the store was opened with.
func (s *Store) File() string { return s.path }

// Close closes the file. Recorders must be finished first.
func (s *Store) Close() error {
	if s.writer {
		// Checkpoint and leave WAL mode. This fails harmlessly (the file
		// stays in WAL mode) while another process, a viewer, has it open.
		s.db.SetMaxOpenConns(1)
		s.db.ExecContext(context.Background(), "PRAGMA journal_mode=DELETE")
	}
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("close trace %s: %w", s.path, err)
	}
	return nil
}

const runColumns = `id, created, fen, variant, options, limits, version, status, filter, nodes, qs_nodes, rows,
	max_ply, max_qs_ply, elapsed_ms, best_move, score, pv, depth`

// runColumnsV2 are the columns schema version 2 added to runs; a file of
// version 1 opened read-only reads them as Horizon's engine, fail-soft.
const (
	runColumnsV2    = `, engine, fail_hard`
	runColumnsV2On1 = `, NULL, 0`
)

// runSelect is the select list of a runs query on this file.
func (s *Store) runSelect() string {
	if s.version < 2 {
		return runColumns + runColumnsV2On1
	}
	return runColumns + runColumnsV2
}

func scanRun(sc interface{ Scan(...any) error }) (Run, error) {
	var (
		r       Run
		created string
		elapsed int64
		best    sql.NullString
		score   sql.NullInt64
		pv      sql.NullString
		depth   sql.NullInt64
		eng     sql.NullString
	)
	err := sc.Scan(&r.ID, &created, &r.FEN, &r.Variant, &r.Options, &r.Limits, &r.Version, &r.Status, &r.Filter,
		&r.Nodes, &r.QSNodes, &r.Rows, &r.MaxPly, &r.MaxQSPly, &elapsed, &best, &score, &pv, &depth, &eng, &r.FailHard)
	if err != nil {
		return r, err
	}
	r.Created, _ = time.Parse(time.RFC3339Nano, created)
	r.Elapsed = time.Duration(elapsed) * time.Millisecond
	r.BestMove = best.String
	r.Score = int(score.Int64)
	if pv.String != "" {
		r.PV = strings.Fields(pv.String)
	}
	r.Depth = int(depth.Int64)
	r.Engine = eng.String
	return r, nil
}

// Runs lists the runs in the file by id.
func (s *Store) Runs(ctx context.Context) ([]Run, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT "+s.runSelect()+" FROM runs ORDER BY id")
	if err != nil {
		return nil, sqliteErr(s.path, err)
	}
	defer rows.Close()
	var runs []Run
	for rows.Next() {
		r, err := scanRun(rows)
		if err != nil {
			return nil, sqliteErr(s.path, err)
		}
		runs = append(runs, r)
	}
	if err := rows.Err(); err != nil {
		return nil, sqliteErr(s.path, err)
	}
	return runs, nil
}

// Run returns one run; the error wraps ErrNoRun when there is none.
func (s *Store) Run(ctx context.Context, id int64) (Run, error) {
	r, err := scanRun(s.db.QueryRowContext(ctx, "SELECT "+s.runSelect()+" FROM runs WHERE id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return r, fmt.Errorf("trace %s: run %d: %w", s.path, id, ErrNoRun)
	}
	if err != nil {
		return r, sqliteErr(s.path, err)
	}
	return r, nil
}
