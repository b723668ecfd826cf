package trace

import (
	"context"
	"database/sql"
	"fmt"
	"testing"
	"time"
)

// TestRowsNeedingAQueryOnOneConnection: a row that takes a second query to
// read (a searched count the file stores saturated, counted from the
// child rows; a schema-1 placeholder size, cut to the rows the run has)
// is read with the first query's rows closed. Read while they were open,
// the second query needed a second connection: with one allowed (as in
// Close) the saturated count waited until the context's deadline and the
// placeholder, which had no context, for ever.
func TestRowsNeedingAQueryOnOneConnection(t *testing.T) {
	for _, tc := range []struct {
		name string
		open func(t *testing.T) (*Store, int64) // the store and the run, whose last iteration root is the row
	}{
		{"saturated searched count", func(t *testing.T) (*Store, int64) {
			s, p := mustCreate(t)
			run, mem := record(t, s, 1, 3, RecordOptions{}, nil)
			s.Close()
			// The root of the last iteration: it has children.
			var root int64
			for id, n := range mem.nodes {
				if n.Parent == 0 && id > root {
					root = id
				}
			}
			alter(t, p, fmt.Sprintf("UPDATE node_rows SET counts = counts | (255 << 8) WHERE run_id = %d AND id = %d", run, root))
			return reopen(t, p), run
		}},
		{"schema-1 placeholder", func(t *testing.T) (*Store, int64) {
			p := copyFixtureV1(t)
			// The last iteration root of run 1 as a recorder of schema 1
			// left it open: incomplete, its size to the end of the ids.
			alter(t, p, "UPDATE node_rows SET size = 4294967296 - (k & 4294967295), info = info | (1 << 35) "+
				"WHERE k = (SELECT max(k) FROM node_rows WHERE k >> 32 = 1 AND k - up = 1 << 32)")
			return reopen(t, p), 1
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, run := tc.open(t)
			roots, err := s.Children(context.Background(), run, 0, BySearch, 0, 0)
			if err != nil || len(roots) == 0 {
				t.Fatalf("iteration roots: %v (%d)", err, len(roots))
			}
			last := roots[len(roots)-1]
			s.db.SetMaxOpenConns(1)
			for _, r := range []struct {
				name string
				read func(ctx context.Context) error
			}{
				{"Children", func(ctx context.Context) error {
					kids, err := s.Children(ctx, run, 0, BySearch, 0, 0)
					if err == nil && len(kids) == 0 {
						err = fmt.Errorf("no children")
					}
					return err
				}},
				{"Subtree", func(ctx context.Context) error {
					return s.Subtree(ctx, run, 0, -1, func(Node) error { return nil })
				}},
				{"Subtree to depth 1", func(ctx context.Context) error {
					return s.Subtree(ctx, run, 0, 1, func(Node) error { return nil })
				}},
				{"Path", func(ctx context.Context) error {
					path, err := s.Path(ctx, run, last.ID+1)
					if err == nil && (len(path) != 3 || path[1].ID != last.ID || path[1].SubtreeSize != last.SubtreeSize || path[1].Searched != last.Searched) {
						err = fmt.Errorf("path %v, want the run node, %v and its first child", path, last)
					}
					return err
				}},
			} {
				done := make(chan error, 1)
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				go func() { done <- r.read(ctx) }()
				select {
				case err := <-done:
					if err != nil {
						t.Errorf("%s with one connection: %v", r.name, err)
					}
				case <-time.After(20 * time.Second):
					t.Errorf("%s with one connection: still waiting after 20 s, past its context's deadline", r.name)
				}
				cancel()
			}
		})
	}
}

// alter runs one statement on the closed trace file p.
func alter(t *testing.T, p, stmt string) {
	t.Helper()
	db, err := sql.Open("sqlite3", p)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	res, err := db.Exec(stmt)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		t.Fatalf("%s: %d rows changed, want 1", stmt, n)
	}
}

// reopen opens the trace file p read-only until the test ends.
func reopen(t *testing.T, p string) *Store {
	t.Helper()
	s, err := OpenReadOnly(p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}
