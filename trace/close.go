package trace

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"
)

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
