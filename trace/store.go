package trace

import (
	"bytes"
	"context"
	"database/sql"
	"embed"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unicode/utf8"

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

// SchemaVersion is the schema version this build writes (PRAGMA user_version).
func SchemaVersion() int { return len(migrations()) }

// Store is an open trace file. It is safe for concurrent use; queries may
// run while a Recorder writes (the file is in WAL mode).
type Store struct {
	db       *sql.DB
	path     string
	readOnly bool
	writer   bool        // prepared for writing: WAL while open, rollback journal after Close
	held     *heldFile   // the file itself, for Close to see it was deleted or moved (rescue)
	closed   atomic.Bool // Close ran: a second Close does nothing

	// maxPages, when set, caps the file's size in pages on the recorder's
	// connection: tests use it to make the disk "full".
	maxPages int

	// version is the file's schema version (see schema). A version 1
	// file is read through its own layout (queries1) and upgraded by the
	// first write.
	version atomic.Int64
	mu      sync.Mutex
	ready   bool // prepared for writing: upgraded, WAL, lookups filled
	// upgradeHook, when set, runs inside the upgrade transaction before it
	// commits; tests use it to fail or kill an upgrade half-way.
	upgradeHook func() error
	// recording holds the runs whose recorders are not finished: each
	// holds a connection until Finish, which Close must not wait for.
	recording map[int64]bool
	// levelless holds the Horizon runs of a file older than positionNodes
	// whose options use no QS levels: early files stored such a node's QS
	// ply in the level field, which readers show as none, and schema 3
	// files the last release upgraded from them kept those bits. Filled at
	// open, only read after.
	levelless map[int64]bool
	// noQS holds the Horizon runs whose options search no QS (qs-moves
	// none). Horizons before 4a9794d recorded such a run's horizon nodes
	// as QS nodes at QS ply 0 and counted them in runs.qs_nodes, its stats
	// and its QS hotspots; readers see them as a new Horizon records them,
	// full-width nodes (noQSNode), and no QS figure. A run recorded now
	// has none of those to correct. Filled at open, only read after.
	noQS map[int64]bool
	// stmts holds the statements prepared (prepared), by their text; the
	// database closes them with its connections.
	stmts sync.Map
	// searched holds the searched counts searchedFromRows worked out, by
	// searchedKey, up to maxSearchedCached of them: a closed node's
	// children never change, and a child list read again (every visit mark
	// of a path reads each ancestor's; the viewer's every expand) read
	// each sibling's children again. searchedCached counts them.
	searched       sync.Map
	searchedCached atomic.Int64
	// snapshot: the store is a snapshot (Snapshot), for reading; its
	// Close leaves the database open. snap is its read transaction, where
	// every read query runs (read): nil for the store itself, and for a
	// snapshot of a file no recorder has open (see Snapshot). gone holds
	// the recorders of its running runs that had ended before it was taken
	// (recorderGone). base is the store an OpenSnapshot opened for it,
	// closed with it.
	snapshot bool
	snap     *sql.Tx
	gone     map[string]bool
	base     *Store
}

// querier runs the read queries: the store's database, or a snapshot's
// transaction.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// read returns where the store's read queries run.
func (s *Store) read() querier {
	if s.snap != nil {
		return s.snap
	}
	return s.db
}

// OpenSnapshot opens the trace at path read-only (OpenReadOnly) and
// returns a snapshot of it (Snapshot), for a command that reads the file
// once: its Close closes both.
func OpenSnapshot(ctx context.Context, path string) (*Store, error) {
	base, err := open(ctx, path, true, false)
	if err != nil {
		return nil, err
	}
	snap, err := base.Snapshot(ctx)
	if err != nil {
		base.Close()
		return nil, err
	}
	snap.base = base
	return snap, nil
}

// Snapshot returns a reader of the file as it is now: every query of the
// snapshot reads that one state, in one read transaction, however a
// recorder commits meanwhile, so a one-shot reader of a run being recorded
// (export, stats, diff, check) sees one tree, not a run's row of one commit
// beside nodes of a later one. Close the snapshot when done (it keeps
// SQLite from moving the WAL into the file while open); the store stays
// open, and must outlive it. A snapshot is for reading only.
//
// A file in rollback-journal mode has no recorder open (a recorder's
// store keeps the file in WAL mode until it closes), and there a read
// transaction would hold SQLite's shared lock to its end, keeping out a
// recorder that opens the file meanwhile ('database is locked' once the
// busy timeout passes): the snapshot of such a file reads as the store
// does, query by query. The runs it reads do not change: a recorder that
// opens the file meanwhile appends runs of its own (and one that upgrades
// the file is met as the store meets it: see upgraded).
func (s *Store) Snapshot(ctx context.Context) (*Store, error) {
	if s.snapshot {
		return nil, fmt.Errorf("trace %s: a snapshot of a snapshot", s.path)
	}
	if !s.readOnly {
		// A writer's connections begin IMMEDIATE: its snapshot would hold
		// the write lock, keeping every recorder out while it reads.
		return nil, fmt.Errorf("trace %s: a snapshot is taken of a store opened read-only (OpenSnapshot)", s.path)
	}
	// Which recorders had ended is asked before the snapshot is taken: a
	// run whose recorder ends after it (finishing the run, which the
	// snapshot does not see) must read as the snapshot has it, running,
	// not abandoned.
	gone := s.goneWriters(ctx)
	// Not ended by ctx: a cancelled reader's queries fail by their own
	// context, and its Close ends the transaction.
	tx, err := s.db.BeginTx(context.WithoutCancel(ctx), nil)
	if err != nil {
		return nil, sqliteErr(s.path, err)
	}
	// SQLite's BEGIN is deferred: the transaction takes its snapshot at
	// its first read, which reads the schema version the snapshot has.
	var v int
	var hasRuns bool
	var mode string
	err = tx.QueryRowContext(ctx, "SELECT (SELECT user_version FROM pragma_user_version), EXISTS (SELECT 1 FROM runs)").Scan(&v, &hasRuns)
	if err == nil {
		err = tx.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode)
	}
	if err != nil {
		tx.Rollback()
		return nil, sqliteErr(s.path, err)
	}
	snap := &Store{db: s.db, path: s.path, readOnly: true, levelless: s.levelless, noQS: s.noQS, snapshot: true}
	if strings.EqualFold(mode, "wal") {
		snap.snap, snap.gone = tx, gone
	} else {
		tx.Rollback()
	}
	snap.version.Store(s.version.Load())
	if err := snap.takeVersion(v); err != nil && !errors.Is(err, errUpgraded) {
		snap.Close()
		return nil, err
	}
	return snap, nil
}

// goneWriters returns the runs.writer values of the running runs whose
// recorders have ended (writerGone). Files before schema version 3 name no
// writer.
func (s *Store) goneWriters(ctx context.Context) map[string]bool {
	gone := map[string]bool{}
	if s.schema() < 3 {
		return gone
	}
	rows, err := s.db.QueryContext(ctx, "SELECT DISTINCT writer FROM runs WHERE status = ? AND writer IS NOT NULL", string(StatusRunning))
	if err != nil {
		return gone // the snapshot's own reads meet the error
	}
	defer rows.Close()
	for rows.Next() {
		var w string
		if rows.Scan(&w) == nil && writerGone(w) {
			gone[w] = true
		}
	}
	return gone
}

// recorderGone reports whether the recorder a runs.writer value names has
// ended: by now for a store, and for a snapshot in its transaction, by
// the time the snapshot was taken (gone).
func (s *Store) recorderGone(w string) bool {
	if s.snap != nil {
		return s.gone[w]
	}
	return writerGone(w)
}

// Open opens an existing trace for reading and writing (new runs can be
// recorded into it). Errors name the file and wrap ErrNotTrace,
// ErrNewerSchema or ErrCorrupt where those apply.
func Open(path string) (*Store, error) { return open(context.Background(), path, false, false) }

// OpenReadOnly opens an existing trace for queries only; it works on files
// the user cannot write and never changes the file.
func OpenReadOnly(path string) (*Store, error) { return open(context.Background(), path, true, false) }

// Create opens the trace at path for recording, creating the file if it
// does not exist; an existing trace is kept and new runs are appended. An
// existing file that is not a trace is an error wrapping ErrNotTrace, and is
// left untouched.
func Create(path string) (*Store, error) { return open(context.Background(), path, false, true) }

// open opens the trace at path; ctx bounds the reads of the open (the
// schema's check, the runs an old file's reading needs), so that a
// one-shot reader's Ctrl-C stops it there too (OpenSnapshot).
func open(ctx context.Context, path string, readOnly, create bool) (*Store, error) {
	// fresh: a new trace is made (a schema written); created: by this
	// open, so a failure removes the file, and nothing else (never what
	// the user had, an empty file or anything else).
	fresh, created := false, false
	if err := checkHeader(path); err != nil {
		switch {
		case create && errors.Is(err, fs.ErrNotExist):
			fresh, created = true, true
		case create && errors.Is(err, errEmpty):
			fresh = true
		default:
			return nil, err
		}
	}
	if created {
		if beforeCreate != nil {
			beforeCreate(path)
		}
		// Create the file ourselves first: the OS names the problem
		// (no such directory, permission denied) more clearly than SQLite's
		// "unable to open database file". Exclusively: a file another
		// process made since checkHeader is theirs, opened as it is and
		// never removed here (init makes an empty one a trace).
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		switch {
		case errors.Is(err, fs.ErrExist):
			fresh, created = false, false
		case err != nil:
			return nil, fmt.Errorf("create trace: %w", err)
		default:
			f.Close()
		}
	}
	db, err := sql.Open(driverFor(readOnly), dsn(path, readOnly))
	if err != nil {
		return nil, fmt.Errorf("open trace %s: %w", path, err)
	}
	s := &Store{db: db, path: path, readOnly: readOnly}
	err = s.init(ctx, fresh, create)
	if readOnly && hotJournal(err) {
		// A write cut short (a kill during an upgrade) left a hot
		// journal, which a read-only connection cannot roll back: every
		// reader failed. It is rolled back as SQLite does for a writer,
		// once, and the file opened again.
		db.Close()
		if err = rollBack(path); err == nil {
			if db, err = sql.Open(driverFor(readOnly), dsn(path, readOnly)); err != nil {
				return nil, fmt.Errorf("open trace %s: %w", path, err)
			}
			s = &Store{db: db, path: path, readOnly: readOnly}
			err = s.init(ctx, fresh, create)
		}
	}
	if err != nil {
		db.Close()
		if created {
			os.Remove(path) // do not leave a half-made file behind
		}
		return nil, err
	}
	if !readOnly {
		s.held = holdFile(path)
	}
	return s, nil
}

// dsn is the data source name a store opens path by, for reading only or
// for reading and writing.
func dsn(path string, readOnly bool) string {
	// An absolute path takes an empty authority ("file://" then the
	// path): "file:" + "//tmp/t.trace" read tmp as the URI's authority
	// ("invalid uri authority").
	prefix := "file:"
	if strings.HasPrefix(path, "/") {
		prefix = "file://"
	}
	dsn := prefix + escapePath(path) + "?_busy_timeout=10000"
	if readOnly {
		dsn += "&mode=ro"
		if immutableOK(path) {
			// A file left in WAL mode in a directory the user cannot
			// write: SQLite cannot create the -shm file it wants even to
			// read. With no -wal beside it the file is self-contained,
			// and no writer can change it there.
			dsn += "&immutable=1"
		}
	} else {
		// Never created by SQLite: open made the file, and a connection
		// opened after it was deleted must fail, not make an empty trace.
		dsn += "&mode=rw&_txlock=immediate"
	}
	return dsn
}

// immutableOK reports whether a read-only open must (and may) tell SQLite
// the file is immutable: it is in WAL mode, has no -wal file, and its
// directory is not writable.
func immutableOK(path string) bool {
	var h [20]byte
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	_, err = io.ReadFull(f, h[:])
	f.Close()
	if err != nil || h[18] != 2 {
		return false
	}
	if _, err := os.Stat(path + "-wal"); err == nil {
		return false
	}
	return !writable(filepath.Dir(path))
}

// escapePath makes path safe inside a "file:" URI.
func escapePath(p string) string {
	return strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(p)
}

var errEmpty = errors.New("empty file")

// beforeCreate, when set (by tests), runs when open has found no file at
// path and is about to create it: where another process may make one.
var beforeCreate func(path string)

// fileError is a trace file that cannot be opened, in one wording for
// every command ("open trace x.trace: no such file", not the OS's
// "open trace x.trace: open x.trace: no such file or directory"); it
// still matches the OS error (errors.Is(err, fs.ErrNotExist)).
type fileError struct {
	msg  string
	path string
	err  error
}

func (e *fileError) Error() string { return e.msg }
func (e *fileError) Unwrap() error { return e.err }

// MissingFile reports whether err is the error of opening a trace file
// that does not exist, and its path: the CLI says how to record one.
func MissingFile(err error) (path string, ok bool) {
	var fe *fileError
	if errors.As(err, &fe) && errors.Is(fe.err, fs.ErrNotExist) {
		return fe.path, true
	}
	return "", false
}

// openError words err, from opening the trace at path.
func openError(path string, err error) error {
	why := err.Error()
	var pe *fs.PathError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		why = "no such file"
	case errors.Is(err, fs.ErrPermission):
		why = "permission denied"
	case errors.As(err, &pe):
		why = pe.Err.Error() // the path is said once
	}
	return &fileError{msg: "open trace " + path + ": " + why, path: path, err: err}
}

// checkHeader looks at the file's first 100 bytes before SQLite does, so a
// file that is not SQLite, or a SQLite file cut short, gets a clear error.
func checkHeader(path string) error {
	// Looked at before it is opened: opening a FIFO waits for a writer
	// ('horizon runs FIFO' hung, deaf to Ctrl-C).
	st, err := os.Stat(path)
	if err != nil {
		return openError(path, err)
	}
	if st.IsDir() {
		return fmt.Errorf("open trace %s: is a directory: %w", path, ErrNotTrace)
	}
	if !st.Mode().IsRegular() {
		// /dev/null, /dev/full, a FIFO: SQLite cannot keep a database
		// there, and 'trace -o /dev/full' removed the device, as root,
		// after its schema failed to write.
		return fmt.Errorf("open trace %s: not a regular file (a device or a FIFO): %w", path, ErrNotTrace)
	}
	f, err := os.Open(path)
	if err != nil {
		return openError(path, err)
	}
	defer f.Close()
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
		if bytes.HasPrefix(h[:n], []byte("HZT ")) {
			// The stream an engine writes (docs/trace-protocol.md), the
			// usual mix-up of the two files 'horizon import' takes and
			// writes.
			return fmt.Errorf("open trace %s: a trace stream, the text an engine writes ('horizon import' records it into a trace file): %w", path, ErrNotTrace)
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
	// While a -wal file holds committed pages (during recording, after a
	// kill or a full disk), the header's page count may run ahead of the
	// main file: SQLite reads those pages from the WAL.
	if pages > 0 && changeCounter == validFor && st.Size() < pages*pageSize && !walHasFrames(path) {
		return fmt.Errorf("open trace %s: truncated: %d bytes, the header says %d: %w",
			path, st.Size(), pages*pageSize, ErrCorrupt)
	}
	return nil
}

// walHasFrames reports whether the file's -wal holds more than its header.
func walHasFrames(path string) bool {
	st, err := os.Stat(path + "-wal")
	return err == nil && st.Size() > 32
}

// sqliteErr maps SQLite's error codes onto the package's sentinels, with
// SQLite's message on one line (oneLine).
func sqliteErr(path string, err error) error {
	var se sqlite3.Error
	if !errors.As(err, &se) {
		return fmt.Errorf("trace %s: %w", path, err)
	}
	switch se.Code {
	case sqlite3.ErrNotADB:
		return fmt.Errorf("open trace %s: %s: %w", path, oneLine(err), ErrNotTrace)
	case sqlite3.ErrCorrupt:
		return fmt.Errorf("trace %s: %s: %w", path, oneLine(err), ErrCorrupt)
	case sqlite3.ErrBusy, sqlite3.ErrLocked:
		// SQLite's "database is locked" names no one: a reader in a
		// transaction (the sqlite3 shell, a horizon still reading a file
		// in rollback-journal mode) keeps a writer out past the busy
		// timeout. Say who has the file open, and what to do.
		who := "another process (a reader in a transaction: the sqlite3 shell, another horizon)"
		if h := holders(path); len(h) > 0 {
			who = "another process that has it open (" + strings.Join(h, "; ") + ")"
		}
		return &shortErr{msg: fmt.Sprintf("trace %s: %s: %s holds a lock on it; end its transaction or close it, then try again", path, oneLine(err), who), err: err}
	case sqlite3.ErrTooBig:
		// A value over the bound a connection reads with (harden).
		return &shortErr{msg: fmt.Sprintf("trace %s: a value longer than Horizon writes (%s): %v", path, oneLine(err), ErrCorrupt),
			err: errors.Join(err, ErrCorrupt)}
	case sqlite3.ErrReadonly:
		// SQLite names no file: the one it could not write may be the
		// trace itself, its -wal or -shm (read-only, immutable, a
		// directory), or the directory they are to be made in.
		base := filepath.Base(path)
		why := fmt.Sprintf("%s and the %s-wal and %s-shm beside it must be writable files", base, base, base)
		switch dir := filepath.Dir(path); {
		case !writable(path):
			why = base + " is read-only"
		case !writable(dir):
			why = fmt.Sprintf("its directory %s is read-only, and recording makes %s-wal and %s-shm there", dir, base, base)
		}
		return &shortErr{msg: fmt.Sprintf("trace %s: cannot be written (%s): %s", path, oneLine(err), why), err: err}
	}
	err = diskFull(err)
	return &shortErr{msg: "trace " + path + ": " + oneLine(err), err: err}
}

// diskFull words SQLite's SQLITE_FULL as the OS does, "no space left on
// device" (what a user searches for, and what every other command's
// write says), where SQLite says "database or disk is full"; the error
// still matches both (errors.Is(err, syscall.ENOSPC)). SQLite returns it
// for a write that ENOSPC cut short; its other cause, a max_page_count
// cap, Horizon sets only in tests. Other errors pass unchanged.
func diskFull(err error) error {
	var se sqlite3.Error
	if err == nil || !errors.As(err, &se) || se.Code != sqlite3.ErrFull {
		return err
	}
	return &shortErr{msg: syscall.ENOSPC.Error(), err: errors.Join(err, syscall.ENOSPC)}
}

// maxErrText bounds the text oneLine keeps of an error.
const maxErrText = 160

// oneLine returns err's text on one line and cut short: SQLite's message
// for a damaged schema quotes the schema's SQL from the damaged byte on,
// newlines, comments and all, and an error is one line.
func oneLine(err error) string {
	msg := err.Error()
	if strings.ContainsAny(msg, "\n\r\t") {
		msg = strings.Join(strings.Fields(msg), " ")
	}
	if len(msg) > maxErrText {
		cut := maxErrText
		for cut > 0 && !utf8.RuneStart(msg[cut]) {
			cut--
		}
		msg = msg[:cut] + "..."
	}
	return msg
}

// shortErr is an error with a shortened text (oneLine) that still wraps
// the error it was made from.
type shortErr struct {
	msg string
	err error
}

func (e *shortErr) Error() string { return e.msg }
func (e *shortErr) Unwrap() error { return e.err }

func (s *Store) init(ctx context.Context, fresh, create bool) error {
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
	if fresh {
		version = 0
	} else if version < 1 {
		return fmt.Errorf("open trace %s: a Horizon trace without a schema version: %w", s.path, ErrCorrupt)
	}
	if !fresh {
		// Before any statement of Horizon's reads or writes the data.
		if err := checkSchema(ctx, s.db, s.path, version); err != nil {
			return err
		}
	}
	s.version.Store(int64(version))
	if fresh {
		// A new file gets its schema now; an existing one is upgraded and
		// switched to WAL only when a run is recorded into it, so that
		// opening a file never changes it.
		if err := s.prepareWrite(ctx); err != nil {
			return err
		}
	}
	// Touch the tables a query needs, so a damaged file fails here, at
	// open, and not in the middle of browsing.
	var n int
	if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM runs").Scan(&n); err != nil {
		return sqliteErr(s.path, err)
	}
	if !fresh {
		s.findNoQS(ctx)
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("open trace %s: %w", s.path, err)
		}
	}
	if !fresh && version < positionNodes {
		runs, err := s.Runs(ctx)
		if err != nil {
			return err
		}
		for _, r := range runs {
			// Another engine's run (nil options) and options this build
			// cannot read keep what the file says.
			if o, err := r.SearchOptions(); err == nil && o != nil && !o.UsesLevels() {
				if s.levelless == nil {
					s.levelless = make(map[int64]bool)
				}
				s.levelless[r.ID] = true
			}
		}
	}
	return nil
}

// findNoQS fills noQS. Only runs whose options or variant name say none
// are read: a file may hold thousands of runs. A run it cannot read is
// left out: reading it reports the damage where a reader meets it, and
// the file still opens, as it did.
func (s *Store) findNoQS(ctx context.Context) {
	ids, _ := queryRows(ctx, s, func(rows *sql.Rows) (int64, error) {
		var id int64
		return id, rows.Scan(&id)
	}, "SELECT id FROM runs WHERE options LIKE '%none%' OR variant LIKE '%none%'")
	for _, id := range ids {
		if ctx.Err() != nil {
			return // open says so
		}
		r, err := s.Run(ctx, id)
		if err != nil {
			continue
		}
		// Another engine's run (nil options) and options this build
		// cannot read keep what the file says.
		if o, err := r.SearchOptions(); err == nil && o != nil && !o.HasQS() {
			if s.noQS == nil {
				s.noQS = make(map[int64]bool)
			}
			s.noQS[id] = true
		}
	}
}

// noQSNode turns a node of a run without QS (noQS) that an early Horizon
// recorded as a QS node into the full-width horizon node a Horizon records
// now: a QS node's window is the one it was entered with, and it has
// neither QS level nor QS ply.
func noQSNode(n *Node) {
	if n.Kind == engine.KindQS {
		n.Kind = engine.FullWidthKind(n.Ply, n.Alpha, n.Beta)
		n.QSLevel, n.QSPly = -1, -1
	}
}

// prepareWrite readies the file for recording, once: it upgrades an older
// schema (one transaction), turns on WAL (a viewer can read while a search
// writes; Close turns it off again) and fills the lookup tables, writing
// the nodes view's names out from them (writeNodesView).
func (s *Store) prepareWrite(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ready {
		return nil
	}
	if s.readOnly {
		return fmt.Errorf("trace %s: opened read-only, cannot record", s.path)
	}
	if v := s.schema(); v > 0 {
		// Checked again before the first write (a trigger fires on it):
		// the file may have been opened long before, and changed since;
		// by the version it has now, as another Horizon may have
		// upgraded it meanwhile.
		if err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
			return sqliteErr(s.path, err)
		}
		if err := checkSchema(ctx, s.db, s.path, v); err != nil {
			return err
		}
	}
	// The upgrade runs before WAL is turned on: in the rollback journal a
	// killed upgrade is undone by the next open, and the file is left as
	// it was, byte for byte.
	if err := s.migrate(ctx, s.schema()); err != nil {
		return err
	}
	s.version.Store(int64(SchemaVersion()))
	if _, err := s.db.ExecContext(ctx, "PRAGMA journal_mode=WAL"); err != nil {
		return sqliteErr(s.path, err)
	}
	s.writer = true
	if err := s.fillLookups(ctx); err != nil {
		return err
	}
	s.ready = true
	return nil
}

// keyLayout is the schema version from which node_rows is keyed by
// (run_id, id); older files key it by run_id << 32 | id (queries1).
const keyLayout = 3

// positionNodes is the schema version from which runs.nodes counts the
// positions the search visited, not the run node (004_positions.sql); an
// older file read as it is counts one more.
const positionNodes = 4

// v1 reports whether the file has the old node layout of schema versions 1
// and 2 (node_rows keyed by run_id << 32 | id).
func (s *Store) v1() bool { return s.schema() < keyLayout }

// schema is the file's schema version as this store last read it.
func (s *Store) schema() int { return int(s.version.Load()) }

// upgraded reports whether another process has upgraded the file since
// this store read its schema version (a newer Horizon recording into it
// upgrades it to the version it writes: schema 3 to 4, say, or 1 to 5),
// and takes the new version: the node queries,
// the decoding of rows and the run columns follow it. Readers call it when
// a node query fails (the old layout's queries then fail to prepare), so
// that the hot read paths pay nothing for it; Runs and Run read the
// version with the runs themselves instead (takeVersion), as an upgrade
// that changes only what runs.nodes counts fails no query.
func (s *Store) upgraded(ctx context.Context) bool {
	var v int
	if err := s.read().QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return false
	}
	return errors.Is(s.takeVersion(v), errUpgraded)
}

// takeVersion takes the schema version v the file has now, when it
// differs from the store's: it reports errUpgraded then, or an error
// wrapping ErrNewerSchema when this build cannot read v.
func (s *Store) takeVersion(v int) error {
	now := s.schema()
	switch {
	case v == now:
		return nil
	case v > SchemaVersion():
		return fmt.Errorf("trace %s: upgraded to schema version %d by a newer Horizon meanwhile; this Horizon knows up to %d: %w",
			s.path, v, SchemaVersion(), ErrNewerSchema)
	case v < 1:
		return damagedf("trace %s: schema version %d", s.path, v)
	}
	s.version.CompareAndSwap(int64(now), int64(v))
	return errUpgraded
}

// errUpgraded: the file's schema version changed while the store read it
// (see upgraded); the read is repeated.
var errUpgraded = errors.New("the trace was upgraded while it was read")

func (s *Store) isEmptyDB(ctx context.Context) bool {
	var n int
	err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&n)
	return err == nil && n == 0
}

func (s *Store) migrate(ctx context.Context, from int) error {
	todo := migrations()[from:]
	if len(todo) == 0 {
		return nil
	}
	// Every step in one transaction: an upgrade is all or nothing.
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return sqliteErr(s.path, err)
	}
	defer conn.Close()
	if from > 0 {
		// An existing file must not be in WAL mode for the upgrade (see
		// prepareWrite). Leaving WAL needs no other connection open; when
		// one is, the upgrade still runs in one transaction, in the WAL.
		conn.ExecContext(ctx, "PRAGMA journal_mode=DELETE")
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return sqliteErr(s.path, err)
	}
	defer tx.Rollback()
	// Another process may have upgraded the file since it was opened; the
	// transaction holds the write lock, so this version is the one to
	// start from.
	var now int
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&now); err != nil {
		return sqliteErr(s.path, err)
	}
	if now != from {
		if now > SchemaVersion() {
			return fmt.Errorf("trace %s: upgraded to schema version %d by a newer Horizon meanwhile: %w", s.path, now, ErrNewerSchema)
		}
		from, todo = now, migrations()[now:]
	}
	name := ""
	for _, m := range todo {
		name = m.name
		if _, err = tx.ExecContext(ctx, m.sql); err != nil {
			break
		}
		// PRAGMA arguments cannot be bound; the values are integers this
		// package owns.
		if _, err = tx.ExecContext(ctx, fmt.Sprintf("PRAGMA application_id=%d; PRAGMA user_version=%d", applicationID, m.version)); err != nil {
			break
		}
	}
	if err == nil && from > 0 && from < keyLayout {
		err = parentIndexes(ctx, tx)
	}
	if err == nil && from > 0 && from < positionNodes {
		// The upgraded file reads as the old one did (levelless): the QS
		// ply early files kept in the level field (now bits 34-40) of
		// runs without levels is no level. From schema 3 too: the upgrade
		// to it (before schema 4) copied those bits.
		for run := range s.levelless {
			if _, err = tx.ExecContext(ctx, "UPDATE node_rows SET info = info & ~(127 << 34) WHERE run_id = ? AND (info >> 34) & 127 != 0", run); err != nil {
				break
			}
			if _, err = tx.ExecContext(ctx, "DELETE FROM stats WHERE run_id = ? AND dim = 'qs_level'", run); err != nil {
				break
			}
		}
	}
	if err == nil && s.upgradeHook != nil && from > 0 {
		err = s.upgradeHook()
	}
	if err == nil {
		err = tx.Commit()
	}
	if err != nil {
		if from == 0 {
			return fmt.Errorf("trace %s: creating the schema (%s): %w", s.path, name, diskFull(err))
		}
		return fmt.Errorf("trace %s: upgrading from schema version %d failed at %s, the file is unchanged: %w", s.path, from, name, diskFull(err))
	}
	return nil
}

// parentIndexes creates the parent index of every run in the file (see
// parentIndexSQL), for a file upgraded from the old node layout.
func parentIndexes(ctx context.Context, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, "SELECT id FROM runs WHERE rows >= ?", parentIndexMinRows)
	if err != nil {
		return err
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, id := range ids {
		if _, err := tx.ExecContext(ctx, parentIndexSQL(id)); err != nil {
			return err
		}
	}
	return nil
}

// fillLookups writes the names and meanings of this build's codes into the
// lookup tables (a file may hold codes of a newer Horizon too, which stay),
// and the nodes view's names from them, in one transaction.
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
	if err := writeNodesView(ctx, tx); err != nil {
		return sqliteErr(s.path, err)
	}
	if err := tx.Commit(); err != nil {
		return sqliteErr(s.path, err)
	}
	return nil
}

// File returns the path the store was opened with.
func (s *Store) File() string { return s.path }

// Close closes the file. Recorders must be finished first. A store that
// wrote leaves a self-contained file: it moves the WAL's pages into the file
// and truncates the WAL (waiting up to closeWait for another process's
// read transaction), then leaves WAL mode, which succeeds unless another
// process still has the file open; either way copying the .trace alone
// copies every run. A read transaction that outlasts the wait keeps the
// last runs in the WAL: Close returns a WALKeptError.
//
// Close never waits for a recorder that was not finished (it would wait
// forever: the recorder holds its connection until Finish): it closes what
// it can and returns an error naming the run, which keeps the rows of its
// last commit and the status running, as after a kill. A query of this
// process still holding a connection is waited for up to closeWait; after
// that the WAL stays beside the file (SQLite moves it in when the last
// connection closes, or the next open does) and Close says so.
func (s *Store) Close() error {
	if !s.closed.CompareAndSwap(false, true) {
		return nil // a deferred Close after the one whose error was read
	}
	if s.snapshot {
		// A snapshot ends its read transaction; the store it was taken
		// of stays open, but for OpenSnapshot's.
		var err error
		if s.snap != nil {
			if rerr := s.snap.Rollback(); rerr != nil && !errors.Is(rerr, sql.ErrTxDone) {
				err = fmt.Errorf("close trace %s: %w", s.path, rerr)
			}
		}
		if s.base != nil {
			err = errors.Join(err, s.base.Close())
		}
		return err
	}
	var err error
	var place func() error
	if s.writer {
		place = s.rescue()
		err = s.leaveWAL()
	}
	if cerr := s.db.Close(); cerr != nil && err == nil {
		err = fmt.Errorf("close trace %s: %w", s.path, cerr)
	}
	if place != nil {
		err = errors.Join(place(), err)
	}
	if s.held != nil {
		s.held.close()
	}
	return err
}

// rescue looks whether the store's file is still at its name as it
// closes. A file deleted while runs were recorded into it (rm, a
// cleanup script) lives on only while it is open: it is copied whole
// (VACUUM INTO, which reads the WAL too) into a temporary file beside
// its name, and the function returned puts that copy in place after the
// store's connections close (there, or beside the name if another file
// took it). A moved file needs nothing but saying where it went. nil
// when the file is where it was.
func (s *Store) rescue() func() error {
	if s.held == nil {
		return nil
	}
	here, moved, deleted := s.held.where(s.path)
	switch {
	case here:
		return nil
	case !deleted:
		return func() error { return &FileGoneError{Path: s.path, To: moved} }
	}
	// VACUUM INTO writes into a file that is new or empty.
	tmp := ""
	f, err := os.CreateTemp(filepath.Dir(s.path), "."+filepath.Base(s.path)+".*.tmp")
	if err == nil {
		tmp = f.Name()
		f.Close()
		_, err = s.db.Exec("VACUUM INTO ?", tmp)
	}
	if err != nil {
		for _, suffix := range []string{"", "-journal", "-wal", "-shm"} {
			os.Remove(tmp + suffix)
		}
		why := "writing it back failed (" + oneLine(diskFull(err)) + ")"
		if _, serr := os.Stat(filepath.Dir(s.path)); errors.Is(serr, fs.ErrNotExist) {
			why = "with its directory" // the temporary file's name would only confuse
		}
		return func() error {
			return fmt.Errorf("trace %s was deleted while it was recorded, %s: its runs are lost", s.path, why)
		}
	}
	if mode, ok := s.held.mode(); ok {
		os.Chmod(tmp, mode) // a failure leaves the copy 0600: readable by its owner still
	}
	return func() error {
		// Not over another file that took the name, nor beside a -wal
		// that is not the copy's: SQLite would read it into the copy.
		for _, to := range []string{s.path, s.path + ".rescued"} {
			if _, err := os.Lstat(to + "-wal"); err == nil {
				continue
			}
			if os.Link(tmp, to) == nil {
				os.Remove(tmp)
				return &FileGoneError{Path: s.path, To: to, Deleted: true}
			}
		}
		return &FileGoneError{Path: s.path, To: tmp, Deleted: true}
	}
}

// goneWhy says, when the store's file is no longer at its name, what
// became of it, for refusing to start a run there; "" while it is there.
func (s *Store) goneWhy() string {
	if s.held == nil {
		return ""
	}
	here, moved, deleted := s.held.where(s.path)
	switch {
	case here:
		return ""
	case deleted:
		return "was deleted while this command had it open" // Close says what became of its runs
	}
	return "was moved to " + moved + " while this command had it open"
}

// FileGoneError is Close's report that the trace's name no longer named
// its file as it closed: the file was moved (To is where it went) or
// deleted while runs were recorded into it, and written back (To is
// where). Nothing is lost: it is a note for the user, not a failure.
type FileGoneError struct {
	Path, To string
	Deleted  bool
}

func (e *FileGoneError) Error() string {
	if e.Deleted {
		return fmt.Sprintf("%s was deleted while it was recorded: its runs were written back to %s", e.Path, e.To)
	}
	return fmt.Sprintf("%s was moved while it was recorded: its runs are in %s", e.Path, e.To)
}

// closeWait bounds how long Close waits for a connection a query of this
// process still holds (a variable so a test need not wait that long).
var closeWait = 10 * time.Second

// leaveWAL checkpoints the WAL into the file and leaves WAL mode, on the
// store's one connection.
func (s *Store) leaveWAL() error {
	s.mu.Lock()
	var open []int64
	for run := range s.recording {
		open = append(open, run)
	}
	s.mu.Unlock()
	if len(open) > 0 {
		slices.Sort(open)
		return fmt.Errorf("close trace %s: run %d is still being recorded (its recorder was not finished): the run keeps the rows of its last commit and its status running", s.path, open[0])
	}
	// Leaving WAL needs the store's other connections closed: idle ones go
	// with the limit.
	s.db.SetMaxOpenConns(1)
	ctx, cancel := context.WithTimeout(context.Background(), closeWait)
	conn, err := s.db.Conn(ctx)
	cancel()
	if err != nil {
		return fmt.Errorf("close trace %s: a query of this process still holds the file after %v: its WAL (%s-wal) is moved into the file when that query ends: %w",
			s.path, closeWait, filepath.Base(s.path), err)
	}
	defer conn.Close()
	ctx = context.Background()
	// Another process's read transaction is waited for once, as long as
	// a query of this process is (closeWait), where the checkpoint and
	// the journal mode each waited the busy timeout.
	conn.ExecContext(ctx, fmt.Sprintf("PRAGMA busy_timeout = %d", closeWait.Milliseconds()))
	var busy, frames, moved int
	err = conn.QueryRowContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)").Scan(&busy, &frames, &moved)
	conn.ExecContext(ctx, "PRAGMA busy_timeout = 0")
	// A reader still in its transaction (a check, an export, the sqlite3
	// shell) kept the checkpoint from the WAL's end: the runs are safe,
	// in the WAL, but a copy of the .trace alone would lose them, so the
	// caller is told. A reader merely open keeps the file in WAL mode with
	// the WAL empty, which loses nothing.
	if err != nil {
		// The checkpoint itself failed: a full disk has no room in the
		// file for the WAL's pages. They are as safe where they are; a
		// WAL with no pages (the failure was elsewhere: a -shm that is
		// a directory) keeps nothing to speak of.
		if !walHasFrames(s.path) {
			return nil
		}
		return &WALKeptError{Path: s.path, Err: diskFull(err)}
	}
	if busy != 0 {
		return &WALKeptError{Path: s.path, Recording: s.othersRecording(ctx, conn)}
	}
	conn.ExecContext(ctx, "PRAGMA journal_mode=DELETE")
	return nil
}

// WALKeptError is Close's report that another process held the file open
// as it closed, so the last runs stay in the WAL beside it (PATH-wal)
// rather than in the file. Nothing is lost: every reader reads the WAL,
// and the next Horizon that writes the file moves it in when it closes.
// It is a warning for the user, not a failure of the recording. Err is
// set when no reader but a failed write kept them there (a full disk):
// the next horizon that writes the file moves them in once there is room.
type WALKeptError struct {
	Path string
	Err  error
	// Recording lists the runs other recorders were writing into the
	// file as it closed (runs of status running whose recorder lives):
	// then a writer, not a reader, kept the WAL.
	Recording []int64
}

func (e *WALKeptError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: its last runs stay in %s-wal beside it, as moving them into the file failed (%s), until the next horizon that writes it closes with room to; copy both files meanwhile",
			e.Path, filepath.Base(e.Path), oneLine(e.Err))
	}
	if len(e.Recording) > 0 {
		return fmt.Sprintf("%s: another horizon was recording into it as it closed (run %d), so its last runs stay in %s-wal beside it until that horizon, or the next that writes it, closes; copy both files meanwhile",
			e.Path, e.Recording[0], filepath.Base(e.Path))
	}
	// Not known to be a reader: another writer may be closing too, its
	// runs finished (two writers said "another process was reading it").
	return fmt.Sprintf("%s: another process was using it as it closed (reading it, or another horizon writing it), so its last runs stay in %s-wal beside it until the next horizon that writes it closes; copy both files meanwhile",
		e.Path, filepath.Base(e.Path))
}

// othersRecording returns the runs of the file whose recorders live and
// are not this store's: what another writer is recording.
func (s *Store) othersRecording(ctx context.Context, conn *sql.Conn) []int64 {
	rows, err := conn.QueryContext(ctx, "SELECT id, writer FROM runs WHERE status = ? AND writer IS NOT NULL ORDER BY id", string(StatusRunning))
	if err != nil {
		return nil
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		var w string
		if rows.Scan(&id, &w) == nil && !writerGone(w) {
			ids = append(ids, id)
		}
	}
	return ids
}

func (e *WALKeptError) Unwrap() error { return e.Err }

// IntegrityCheck runs SQLite's own integrity check (PRAGMA integrity_check)
// with the SQLite built into Horizon, and returns its findings: none when
// the file is sound. At most limit findings are returned; each names the
// damaged page, and the table it belongs to where SQLite names its b-tree.
// On a badly damaged file the check itself can stop with an error
// ("database disk image is malformed") after its first findings: it
// returns both, and the findings are the report.
func (s *Store) IntegrityCheck(ctx context.Context, limit int) ([]string, error) {
	if limit <= 0 {
		limit = 100
	}
	rows, err := s.db.QueryContext(ctx, fmt.Sprintf("PRAGMA integrity_check(%d)", limit))
	if err != nil {
		return nil, sqliteErr(s.path, err)
	}
	defer rows.Close()
	var lines []string
	for rows.Next() {
		var text string
		if err := rows.Scan(&text); err != nil {
			return lines, sqliteErr(s.path, err)
		}
		for _, line := range strings.Split(text, "\n") {
			// The "*** in database main ***" heading says nothing to a
			// trace's reader: the file is one database.
			if line = strings.TrimSpace(line); line != "" && line != "*** in database main ***" {
				lines = append(lines, line)
			}
		}
	}
	err = rows.Err()
	if len(lines) == 1 && lines[0] == "ok" && err == nil {
		return nil, nil // a sound file
	}
	s.nameTrees(ctx, lines)
	if err != nil {
		return lines, sqliteErr(s.path, err)
	}
	return lines, nil
}

// treeRef is how integrity_check names a b-tree: by its root page.
var treeRef = regexp.MustCompile(`^Tree (\d+) `)

// nameTrees adds the table (or index) name after each "Tree N" of an
// integrity finding, as far as the schema still reads.
func (s *Store) nameTrees(ctx context.Context, lines []string) {
	rows, err := s.db.QueryContext(ctx, "SELECT rootpage, name FROM sqlite_master WHERE rootpage > 0")
	if err != nil {
		return
	}
	defer rows.Close()
	names := map[string]string{}
	for rows.Next() {
		var root, name string
		if rows.Scan(&root, &name) == nil {
			names[root] = name
		}
	}
	for i, l := range lines {
		if m := treeRef.FindStringSubmatch(l); m != nil && names[m[1]] != "" {
			lines[i] = "Tree " + m[1] + " (" + names[m[1]] + ") " + l[len(m[0]):]
		}
	}
}

// CheckFileIntegrity runs IntegrityCheck on the SQLite file at path without
// opening it as a trace: Open reads the runs table and so fails on a
// damaged page there with SQLite's bare "malformed", where the integrity
// check names the pages. For a file that Open or a read refused.
func CheckFileIntegrity(ctx context.Context, path string, limit int) ([]string, error) {
	if err := checkHeader(path); err != nil {
		return nil, err
	}
	db, err := sql.Open(driverName, dsn(path, true))
	if err != nil {
		return nil, fmt.Errorf("open trace %s: %w", path, err)
	}
	s := &Store{db: db, path: path, readOnly: true}
	lines, err := s.IntegrityCheck(ctx, limit)
	db.Close()
	if hotJournal(err) {
		// As open does: the journal a cut-short write left is rolled
		// back first, where this process may.
		if err := rollBack(path); err != nil {
			return nil, err
		}
		return CheckFileIntegrity(ctx, path, limit)
	}
	return lines, err
}

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
