package trace

import (
	"context"
	"database/sql"
	"errors"
)

var errTODO = errors.New("trace: not implemented yet")

// Store is an open trace file. It is safe for concurrent use; queries may
// run while a Recorder writes (the file is in WAL mode).
type Store struct {
	db       *sql.DB
	path     string
	readOnly bool
}

// Open opens an existing trace for reading and writing (new runs can be
// recorded into it). Errors name the file and wrap ErrNotTrace,
// ErrNewerSchema or ErrCorrupt where those apply.
func Open(path string) (*Store, error) { return nil, errTODO }

// OpenReadOnly opens an existing trace for queries only; it works on files
// the user cannot write and never changes the file.
func OpenReadOnly(path string) (*Store, error) { return nil, errTODO }

// Create opens the trace at path for recording, creating the file if it
// does not exist; an existing trace is kept and new runs are appended.
func Create(path string) (*Store, error) { return nil, errTODO }

// File returns the path the store was opened with.
func (s *Store) File() string { return s.path }

// Close closes the file. Recorders must be finished first.
func (s *Store) Close() error { return errTODO }

// Runs lists the runs in the file by id.
func (s *Store) Runs(ctx context.Context) ([]Run, error) { return nil, errTODO }

// Run returns one run; the error wraps ErrNoRun when there is none.
func (s *Store) Run(ctx context.Context, id int64) (Run, error) { return Run{}, errTODO }
