package trace

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/horizonqs/horizon/engine"
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
	// unindexed holds the runs whose parent index a child list could not
	// use (none, or not usable: indexedChildren), so that each asks once.
	unindexed sync.Map
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
	// origin is the store a snapshot was taken from: a snapshot without
	// a transaction of its own (snap nil) runs its queries on the same
	// database, and RangeCounts' statements prepared there (stmt).
	origin *Store
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
	snap := &Store{db: s.db, path: s.path, readOnly: true, levelless: s.levelless, noQS: s.noQS, snapshot: true, origin: s}
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
	// Statements are cached per connection (reset when put back): the
	// readers make the same few node queries thousands of times, and
	// preparing each again was a third of their cost (the path of a
	// thousand hotspots).
	dsn := prefix + escapePath(path) + "?_busy_timeout=10000&_stmt_cache_size=64"
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

// beforeCreate, when set (by tests), runs when open has found no file at
// path and is about to create it: where another process may make one.
var beforeCreate func(path string)

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
	if err == nil && from > 0 && from < subtreeCountsSchema {
		err = s.upgradeSubtreeCounts(ctx, tx)
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
	ids, err := txRunIDs(ctx, tx, "SELECT id FROM runs WHERE rows >= ?", parentIndexMinRows)
	if err != nil {
		return err
	}
	for _, id := range ids {
		if _, err := tx.ExecContext(ctx, parentIndexSQL(id)); err != nil {
			return err
		}
	}
	return nil
}

// txRunIDs reads the run ids query selects in an upgrade's transaction,
// all of them before the caller writes in it.
func txRunIDs(ctx context.Context, tx *sql.Tx, query string, args ...any) ([]int64, error) {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
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
