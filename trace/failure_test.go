package trace

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace/tracetest/hostile"
)

// TestDiskFull fills the "disk" (a page cap on the writer's connection)
// in the middle of a second run: Finish reports the error, and the first
// run stays intact.
func TestDiskFull(t *testing.T) {
	s, path := mustCreate(t)
	first, mem := record(t, s, 41, 4, RecordOptions{}, nil)
	var pages int
	if err := s.db.QueryRow("PRAGMA page_count").Scan(&pages); err != nil {
		t.Fatal(err)
	}
	s.maxPages = pages + 20
	rec, g := startRecording(t, s, RecordOptions{BatchRows: 500}, 43, nil)
	g.width = 4
	g.run(8)
	err := rec.Finish(Result{})
	if err == nil {
		t.Fatal("a full disk was not reported")
	}
	if !strings.Contains(err.Error(), "no space left on device") || !strings.Contains(err.Error(), path) || !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("error %q does not say the disk is full (as the OS does) and name the file", err)
	}
	if rec.Context().Err() == nil {
		t.Error("the write error did not stop the search (its context is not cancelled)")
	}
	s.maxPages = 0
	s.Close()

	s2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	r, err := s2.Run(context.Background(), first)
	if err != nil || r.Status != StatusComplete {
		t.Fatalf("first run: %+v, %v", r, err)
	}
	if got := allNodes(t, s2, first); len(got) != len(mem.nodes) {
		t.Errorf("first run has %d rows, want %d", len(got), len(mem.nodes))
	}
	r2, err := s2.Run(context.Background(), rec.RunID())
	if err != nil {
		t.Fatal(err)
	}
	if r2.Status != StatusFailed && r2.Status != StatusRunning {
		t.Errorf("the failed run's status is %s", r2.Status)
	}
}

func TestUnwritablePath(t *testing.T) {
	missingDir := filepath.Join(t.TempDir(), "no", "such", "dir", "t.trace")
	_, err := Create(missingDir)
	if err == nil || !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), missingDir) {
		t.Errorf("Create in a missing directory: %v", err)
	}
	if os.Geteuid() == 0 {
		return // root writes anywhere
	}
	ro := t.TempDir()
	os.Chmod(ro, 0o555)
	defer os.Chmod(ro, 0o755)
	_, err = Create(filepath.Join(ro, "t.trace"))
	if err == nil || !errors.Is(err, os.ErrPermission) {
		t.Errorf("Create in a read-only directory: %v", err)
	}
}

// TestRecorderEventsDoNotAllocate: the tracer methods the search calls
// allocate nothing (within a batch; handing a batch over reuses buffers).
func TestRecorderEventsDoNotAllocate(t *testing.T) {
	s, _ := mustCreate(t)
	rec, err := s.NewRecorder(context.Background(), RunInfo{FEN: tacticalFEN}, RecordOptions{BatchRows: 1 << 16})
	if err != nil {
		t.Fatal(err)
	}
	rec.Enter(engine.EnterInfo{ID: 0, Parent: -1, Kind: engine.KindRun, QSLevel: -1})
	rec.Enter(engine.EnterInfo{ID: 1, Parent: 0, Kind: engine.KindRoot, QSLevel: -1, Iteration: 1, Depth: 1})
	next := int64(2)
	allocs := testing.AllocsPerRun(100, func() {
		for i := 0; i < 100; i++ {
			id := next
			next++
			rec.Enter(engine.EnterInfo{ID: id, Parent: 1, Ply: 1, Kind: engine.KindQS, Iteration: 1, Move: engine.Move(i + 1)})
			rec.StandPat(engine.StandPatInfo{ID: id, Eval: 12})
			rec.Move(engine.MoveInfo{ID: id, Move: 77, Index: 0})
			rec.Extension(engine.ExtensionInfo{ID: id, Move: 77, Plies: 1})
			rec.Leave(engine.LeaveInfo{ID: id, Score: 5, Bound: engine.BoundExact, CutIndex: -1})
		}
	})
	if allocs != 0 {
		t.Errorf("%.1f allocations per 100 nodes", allocs)
	}
	if err := rec.Finish(Result{}); err != nil {
		t.Fatal(err)
	}
}

// TestDamagedSchemaOneLine: a damaged byte in the schema's SQL makes SQLite
// quote the schema from there on, comments and newlines and all (the
// first failure FuzzOpen found, testdata/fuzz/FuzzOpen/99117d4370395e41);
// the error says the file is damaged, on one short line.
func TestDamagedSchemaOneLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.trace")
	data := recordedFile(t, path, 1, 1)
	at := []byte("\n" + strings.Repeat(" ", 42) + "-- readers show")
	if !bytes.Contains(data, at) {
		t.Fatal("the runs table's SQL has changed: pick another place to damage")
	}
	data = bytes.ReplaceAll(data, at, append([]byte("\n`"), at[2:]...))
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := OpenReadOnly(path)
	if err == nil {
		_, err = s.Runs(context.Background())
		s.Close()
	}
	if err == nil || !errors.Is(err, ErrCorrupt) || strings.Contains(err.Error(), "\n") || len(err.Error()) > 400 {
		t.Fatalf("got %q, want one short line that matches ErrCorrupt", err)
	}
}

// FuzzOpen: whatever bytes a file holds, Open returns a store or an error,
// never panics, and a store it returns answers Runs; an error is one line
// that names the file. A file that reads opens for writing too, or fails
// on one line, and keeps what it read (writeOpenKeeps). Seeds: a file of
// this build, and an older Horizon's of schema 1 and of schema 6 (whose
// nodes view a write spells out).
func FuzzOpen(f *testing.F) {
	data := recordedFile(f, filepath.Join(f.TempDir(), "good.trace"), 1, 2)
	f.Add(data)
	f.Add(data[:100])
	f.Add(data[:4096])
	f.Add([]byte("SQLite format 3\x00"))
	f.Add([]byte("hello"))
	// A file whose runs have parent indexes, which child lists read
	// through (indexedChildren).
	func() {
		defer func(n int64) { parentIndexMinRows = n }(parentIndexMinRows)
		parentIndexMinRows = 1
		f.Add(recordedFile(f, filepath.Join(f.TempDir(), "indexed.trace"), 2, 2))
	}()
	for _, name := range []string{"v1.trace", "v6.trace", "v7.trace"} {
		old, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(old)
	}
	// Files made to harm their reader (a trigger, views that never end
	// or give a huge value, a table shadowing a name Horizon reads, an
	// index, a huge value, poisoned statistics): refused at open, or
	// read within bounds.
	good := filepath.Join(f.TempDir(), "good.trace")
	if err := os.WriteFile(good, data, 0o644); err != nil {
		f.Fatal(err)
	}
	for _, m := range hostile.Files {
		b, err := os.ReadFile(hostile.Apply(f, good, "hostile.trace", m.Stmts...))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		p := filepath.Join(t.TempDir(), "f.trace")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		// A damaged file is one error on one line, as the CLI prints it.
		oneLine := func(err error) {
			if err != nil && strings.Contains(err.Error(), "\n") {
				t.Fatalf("error on more than one line: %q", err)
			}
			if err != nil && !strings.Contains(err.Error(), p) {
				t.Fatalf("error names no file: %q", err)
			}
		}
		ctx := context.Background()
		// read opens the file one way and reads its runs: false when
		// either failed, on one line.
		read := func(open func() (*Store, error)) (*Store, []Run, bool) {
			s, err := open()
			if oneLine(err); err != nil {
				return nil, nil, false
			}
			t.Cleanup(func() { s.Close() })
			runs, err := s.Runs(ctx)
			oneLine(err)
			return s, runs, err == nil
		}
		s, runs, ok := read(func() (*Store, error) { return OpenReadOnly(p) })
		if !ok {
			return
		}
		for _, r := range runs {
			_, err := s.Stats(ctx, r.ID)
			oneLine(err)
			_, err = s.Children(ctx, r.ID, 0, BySearch, 0, 10)
			oneLine(err)
		}
		// The one-shot readers' way in (export, stats, check, runs, diff):
		// a snapshot reads what the store read, or fails on one line.
		snap, again, ok := read(func() (*Store, error) { return OpenSnapshot(ctx, p) })
		if !ok {
			return
		}
		if len(again) != len(runs) {
			t.Fatalf("the store reads %d runs, a snapshot %d", len(runs), len(again))
		}
		for i, r := range again {
			if r.ID != runs[i].ID || r.Scored() != runs[i].Scored() || r.Score != runs[i].Score || r.Nodes != runs[i].Nodes {
				t.Fatalf("run %d reads %+v from the store, %+v from a snapshot", r.ID, runs[i], r)
			}
			_, err := snap.Run(ctx, r.ID)
			oneLine(err)
			_, err = snap.Stats(ctx, r.ID)
			oneLine(err)
			_, err = snap.Children(ctx, r.ID, 0, BySearch, 0, 10)
			oneLine(err)
		}
		writeOpenKeeps(t, b, runs)
	})
}

// writeOpenKeeps opens a copy of a file that reads (b, whose runs are
// runs) for writing as a recorder does (Open and prepareWrite: the schema
// upgraded, the lookup tables filled, the nodes view written out) and
// checks that nothing is lost: the open succeeds or fails on one line
// naming the file, the copy reads the same runs afterwards either way, and
// a nodes view Horizon wrote answers as the schema's lookups do.
func writeOpenKeeps(t *testing.T, b []byte, runs []Run) {
	t.Helper()
	ctx := context.Background()
	p := filepath.Join(t.TempDir(), "w.trace")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Open(p)
	if err == nil {
		if err = s.prepareWrite(ctx); err == nil {
			sameViewAsLookups(t, s)
		}
		if cerr := s.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil && (strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), p)) {
		t.Fatalf("opening for writing: %q, want one line naming the file", err)
	}
	r, err2 := OpenReadOnly(p)
	if err2 != nil {
		t.Fatalf("the file read before it was opened for writing (%v), now: %v", err, err2)
	}
	defer r.Close()
	again, err2 := r.Runs(ctx)
	if err2 != nil || len(again) != len(runs) {
		t.Fatalf("%d runs read before the file was opened for writing (%v), %d now: %v", len(runs), err, len(again), err2)
	}
	for i, x := range again {
		if w := runs[i]; x.ID != w.ID || x.Scored() != w.Scored() || x.Score != w.Score || x.Nodes != w.Nodes || x.Status != w.Status {
			t.Fatalf("run %d read %+v before the file was opened for writing (%v), %+v now", x.ID, w, err, x)
		}
	}
}

// sameViewAsLookups checks, where s's nodes view is one Horizon wrote, that
// it answers as the schema's lookups do (sameAsLookups, on a file that may
// be damaged: where the lookups read, the view reads the same).
func sameViewAsLookups(t *testing.T, s *Store) {
	t.Helper()
	ctx := context.Background()
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return
	}
	defer conn.Close()
	var view string
	if conn.QueryRowContext(ctx, "SELECT sql FROM sqlite_schema WHERE type = 'view' AND name = 'nodes'").Scan(&view) != nil || !horizonsView(view) {
		return
	}
	if _, err := conn.ExecContext(ctx, lookupView()); err != nil {
		return
	}
	defer conn.ExecContext(ctx, "DROP VIEW temp.lookup_nodes")
	_, old, err := readView(conn, "lookup_nodes")
	if err != nil {
		return
	}
	_, now, err := readView(conn, "nodes")
	if err != nil || !reflect.DeepEqual(old, now) {
		t.Fatalf("the nodes view Horizon wrote reads %d rows (%v), the lookups %d, or reads them otherwise", len(now), err, len(old))
	}
}

// TestReadWhileRecording: a reader opened on the file while a run is being
// recorded sees the run as running, its run node and iteration roots (as
// incomplete placeholders until they finish), and every finished subtree.
func TestReadWhileRecording(t *testing.T) {
	s, path := mustCreate(t)
	rec, err := s.NewRecorder(context.Background(), RunInfo{FEN: tacticalFEN}, RecordOptions{BatchRows: 50})
	if err != nil {
		t.Fatal(err)
	}
	mem := newMemTracer()
	g := newSynth(teeTracer{rec, mem}, 51, engine.MustParseFEN(tacticalFEN))
	g.stopAt, g.abrupt = 3000, true // feed part of a search, leave it open
	g.run(20)
	rd, r := openLive(t, path, rec)
	ctx := context.Background()
	top, err := rd.Node(ctx, r.ID, 0)
	if err != nil || !top.Incomplete {
		t.Fatalf("run node while recording: %+v, %v", top, err)
	}
	roots, err := rd.Children(ctx, r.ID, 0, BySearch, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var wantRoots []int64
	for _, id := range refChildren(mem, 0) {
		wantRoots = append(wantRoots, id)
	}
	if !slices.Equal(ids(roots), wantRoots) {
		t.Fatalf("iteration roots while recording: %v, want %v", ids(roots), wantRoots)
	}
	last := roots[len(roots)-1]
	if !last.Incomplete || roots[0].Incomplete {
		t.Errorf("finished roots should be complete, the open one incomplete: %+v", roots)
	}
	// The finished children of the open root are there, with their rows.
	kids, err := rd.Children(ctx, r.ID, last.ID, BySearch, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	// The finished children of the open root are there, with their rows;
	// the open one is a placeholder, marked incomplete, whose subtree
	// reaches to the last node entered, so no committed row lacks its
	// parent.
	for i, k := range kids {
		w := mem.nodes[k.ID]
		open := i == len(kids)-1 && w.SubtreeSize == 0
		if k.Parent != last.ID || !open && (k.SubtreeSize != w.SubtreeSize || k.Incomplete) || open && (!k.Incomplete || k.End() != g.next) {
			t.Errorf("child %d of the open root: %+v, reference %+v", k.ID, k, w)
		}
	}
	if got := allNodes(t, rd, r.ID); len(got) > 0 {
		checkTreeShape(t, got)
		if got[0].End() != g.next {
			t.Errorf("the run node's placeholder covers ids up to %d, %d were entered", got[0].End(), g.next)
		}
	}
	if err := rec.Finish(Result{}); err != nil {
		t.Fatal(err)
	}
	r, _ = rd.Run(ctx, rec.RunID())
	if r.Status != StatusInterrupted || r.Rows != g.next {
		t.Errorf("after Finish: %s, %d rows; want interrupted, %d", r.Status, r.Rows, g.next)
	}
	checkTreeShape(t, allNodes(t, rd, r.ID))
}

// openLive hands the batch being filled, and every batch queued, to the
// writer of rec (recording into path) and waits until they are in; then it
// opens path for reading (closed when the test ends) and returns the run
// being recorded, failing unless it reads as running.
func openLive(t *testing.T, path string, rec *Recorder) (*Store, Run) {
	t.Helper()
	for i := 0; i < numBatches+1; i++ {
		rec.handoff()
	}
	rd, err := OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rd.Close() })
	r, err := rd.Run(context.Background(), rec.RunID())
	if err != nil || r.Status != StatusRunning {
		t.Fatalf("run %+v, %v; want running", r, err)
	}
	return rd, r
}

// TestNodesAfterFlush: a progress line's count moves when the source
// pauses: Nodes counted every 256th node only, so 'horizon import' of an
// engine's slow stream showed "nodes 0" while nodes were open. Flush (the
// importer's pause) publishes the count.
func TestNodesAfterFlush(t *testing.T) {
	s, _ := mustCreate(t)
	rec, err := s.NewRecorder(context.Background(), RunInfo{FEN: tacticalFEN}, RecordOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rec.Enter(engine.EnterInfo{ID: 0, Parent: -1, Kind: engine.KindRun, QSLevel: -1})
	rec.Enter(engine.EnterInfo{ID: 1, Parent: 0, Kind: engine.KindRoot, QSLevel: -1, Iteration: 1, Depth: 1})
	rec.Enter(engine.EnterInfo{ID: 2, Parent: 1, Ply: 1, Kind: engine.KindQS, Iteration: 1, Move: 77})
	rec.Flush()
	if got := rec.Nodes(); got != 2 {
		t.Errorf("Nodes after Flush with 2 positions open = %d, want 2", got)
	}
	rec.Flush() // nothing new to hand over: the count stays
	if got := rec.Nodes(); got != 2 {
		t.Errorf("Nodes after a second Flush = %d, want 2", got)
	}
	if err := rec.Finish(Result{}); err != nil {
		t.Fatal(err)
	}
}

// TestFileGoneWhileRecording deletes, moves or replaces a trace while it
// is open for recording: Close writes a deleted file's runs back under its
// name (or beside it when another file took the name) and says so, and
// names where a moved one went; no run is lost and no other file is
// overwritten. Before, a deleted file's runs vanished with exit 0.
func TestFileGoneWhileRecording(t *testing.T) {
	for _, tc := range []struct {
		name   string
		do     func(t *testing.T, path string) // while the run is recorded
		at, to string                          // where the runs are, and what Close says
	}{
		{"deleted", func(t *testing.T, path string) { mustRemove(t, path) }, "t.trace", "written back to"},
		{"deleted and wal too", func(t *testing.T, path string) {
			mustRemove(t, path)
			mustRemove(t, path+"-wal")
		}, "t.trace", "written back to"},
		{"moved", func(t *testing.T, path string) {
			if err := os.Rename(path, filepath.Join(filepath.Dir(path), "moved.trace")); err != nil {
				t.Fatal(err)
			}
		}, "moved.trace", "moved while it was recorded: its runs are in"},
		{"replaced", func(t *testing.T, path string) {
			mustRemove(t, path)
			if err := os.WriteFile(path, []byte("someone else's"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, "t.trace.rescued", "written back to"},
		// Nowhere to write it back: said, not silent (exit 0 before).
		{"directory deleted", func(t *testing.T, path string) {
			if err := os.RemoveAll(filepath.Dir(path)); err != nil {
				t.Fatal(err)
			}
		}, "", "was deleted while it was recorded, with its directory: its runs are lost"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, path := mustCreate(t)
			// Not the mode os.CreateTemp gives the copy written back.
			if err := os.Chmod(path, 0o640); err != nil {
				t.Fatal(err)
			}
			first, mem := record(t, s, 41, 3, RecordOptions{}, nil)
			rec, g := startRecording(t, s, RecordOptions{BatchRows: 100}, 43, nil)
			g.run(2)
			tc.do(t, path)
			g.run(1)
			if err := rec.Finish(Result{}); err != nil {
				t.Fatal(err)
			}
			// A run begun once the file is gone is refused, and makes no
			// file at the name: its writer's connection made an empty
			// database there, and the run failed on "no such table".
			if _, err := s.NewRecorder(context.Background(), RunInfo{FEN: tacticalFEN}, RecordOptions{}); err == nil || !strings.Contains(err.Error(), "while this command had it open") {
				t.Errorf("a run begun after: %v, want it refused", err)
			}
			if _, err := os.Lstat(path); tc.name != "replaced" && !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("a run begun after made a file at %s (%v)", path, err)
			}
			err := s.Close()
			if tc.at == "" {
				if err == nil || !strings.Contains(err.Error(), path) || !strings.HasSuffix(err.Error(), tc.to) {
					t.Errorf("Close = %v, want %q", err, tc.to)
				}
				return
			}
			var gone *FileGoneError
			if !errors.As(err, &gone) || !strings.Contains(err.Error(), tc.to) || !strings.HasSuffix(err.Error(), tc.at) {
				t.Fatalf("Close = %v, want a FileGoneError saying %q ... %s", err, tc.to, tc.at)
			}
			if tc.name == "replaced" {
				if b, _ := os.ReadFile(path); string(b) != "someone else's" {
					t.Errorf("the file that took the name was overwritten: %q", b)
				}
			}
			if fi, err := os.Stat(filepath.Join(filepath.Dir(path), tc.at)); err != nil || fi.Mode().Perm() != 0o640 {
				t.Errorf("the runs' file has mode %v (%v), want the trace's -rw-r-----", fi.Mode(), err)
			}
			s2, err := OpenReadOnly(filepath.Join(filepath.Dir(path), tc.at))
			if err != nil {
				t.Fatal(err)
			}
			defer s2.Close()
			runs, err := s2.Runs(context.Background())
			if err != nil || len(runs) != 2 || runs[0].Status != StatusComplete || runs[1].Status != StatusComplete {
				t.Fatalf("runs: %+v, %v", runs, err)
			}
			if got := allNodes(t, s2, first); len(got) != len(mem.nodes) {
				t.Errorf("first run has %d rows, want %d", len(got), len(mem.nodes))
			}
			if problems, err := s2.IntegrityCheck(context.Background(), 10); err != nil || len(problems) > 0 {
				t.Errorf("integrity check: %v, %v", problems, err)
			}
			left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*.tmp"))
			if len(left) > 0 {
				t.Errorf("temporary files left: %v", left)
			}
		})
	}
}

func mustRemove(t *testing.T, path string) {
	t.Helper()
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
}

// TestNotRegularFile: a FIFO (or a device: /dev/null, /dev/full) named as
// a trace is refused at once, for reading and for recording, and left as
// it was. Opening it hung waiting for a writer; recording into a device
// wrote a schema that failed and then removed the device (as root).
func TestNotRegularFile(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "t.trace")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("cannot make a FIFO: %v", err)
	}
	for _, open := range []struct {
		name string
		open func(string) (*Store, error)
	}{{"OpenReadOnly", OpenReadOnly}, {"Open", Open}, {"Create", Create}} {
		// Before, this waited for a writer until go test's timeout.
		s, err := open.open(fifo)
		if err == nil {
			s.Close()
		}
		if !errors.Is(err, ErrNotTrace) || !strings.Contains(err.Error(), "not a regular file") || !strings.Contains(err.Error(), fifo) {
			t.Errorf("%s of a FIFO: %v", open.name, err)
		}
		if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
			t.Fatalf("%s: the FIFO is gone or changed: %v, %v", open.name, fi, err)
		}
	}
}

// TestShmNotWritable: a trace whose -shm cannot be written (a directory
// here; read-only or immutable files fail the same way) is refused for
// recording with an error that names the files SQLite needs to write, not
// only SQLite's "attempt to write a readonly database"; its runs stay.
func TestShmNotWritable(t *testing.T) {
	s, path := mustCreate(t)
	record(t, s, 41, 2, RecordOptions{}, nil)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(path+"-shm", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := tryRecord(path); err == nil || !strings.Contains(err.Error(), "t.trace-shm") || strings.Count(err.Error(), "\n") > 0 {
		t.Errorf("recording with a -shm that is a directory: %v", err)
	}
	if err := os.Remove(path + "-shm"); err != nil {
		t.Fatal(err)
	}
	firstRunStays(t, path)
}

// tryRecord opens path for writing and begins a run in it, as 'horizon
// trace -o path' does, and returns what refused it.
func tryRecord(path string) error {
	s, err := Create(path)
	if err != nil {
		return err
	}
	defer s.Close()
	_, err = s.NewRecorder(context.Background(), RunInfo{FEN: tacticalFEN}, RecordOptions{})
	return err
}

// firstRunStays checks that run 1 of the trace at path still reads
// complete after a recording into the file was refused.
func firstRunStays(t *testing.T, path string) {
	t.Helper()
	s, err := OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if r, err := s.Run(context.Background(), 1); err != nil || r.Status != StatusComplete {
		t.Errorf("the run before: %+v, %v", r, err)
	}
}

// TestReadOnlyTraceSaysWhich: recording into a read-only trace, or one in
// a read-only directory, says which of the two is read-only (both read
// only SQLite's "attempt to write a readonly database"); the runs stay.
// Root writes anything: run as another user.
func TestReadOnlyTraceSaysWhich(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root may write read-only files and directories: run as another user")
	}
	for _, tc := range []struct {
		name string
		lock func(path string) string // makes something read-only, returns what to undo
		want string
	}{
		{"file", func(path string) string { return path }, "t.trace is read-only"},
		{"directory", func(path string) string { return filepath.Dir(path) }, "is read-only, and recording makes t.trace-wal and t.trace-shm there"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, path := mustCreate(t)
			record(t, s, 41, 2, RecordOptions{}, nil)
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			locked := tc.lock(path)
			fi, _ := os.Stat(locked)
			os.Chmod(locked, fi.Mode().Perm()&^0o222)
			defer os.Chmod(locked, fi.Mode().Perm())
			if err := tryRecord(path); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("recording: %v, want %q", err, tc.want)
			}
			firstRunStays(t, path)
		})
	}
}

// TestCreateRace: a file another process makes at the name between
// Create's look and its create (two 'horizon trace -o new.trace' at once,
// or another program writing there) is opened as it is and never removed.
// Create took it for its own, wrote its schema over it and, when that
// failed, removed it: another program's file was lost.
func TestCreateRace(t *testing.T) {
	for _, tc := range []struct {
		name  string
		make  func(t *testing.T, path string) // the other process
		check func(t *testing.T, path string, err error)
	}{
		{"another trace", func(t *testing.T, path string) {
			s, err := Create(path)
			if err != nil {
				t.Fatal(err)
			}
			record(t, s, 5, 2, RecordOptions{}, nil)
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
		}, func(t *testing.T, path string, err error) {
			if err != nil {
				t.Errorf("recording into the trace another process made: %v", err)
			}
			firstRunStays(t, path)
		}},
		{"another program's file", func(t *testing.T, path string) {
			if err := os.WriteFile(path, []byte("someone else's notes"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, func(t *testing.T, path string, err error) {
			if !errors.Is(err, ErrNotTrace) {
				t.Errorf("recording into another program's file: %v, want ErrNotTrace", err)
			}
			if b, rerr := os.ReadFile(path); string(b) != "someone else's notes" {
				t.Errorf("the other program's file: %q, %v", b, rerr)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "new.trace")
			beforeCreate = func(p string) {
				beforeCreate = nil // the other process's Create finds no rival
				tc.make(t, p)
			}
			t.Cleanup(func() { beforeCreate = nil })
			s, err := Create(path)
			if err == nil {
				_, err = s.NewRecorder(context.Background(), RunInfo{FEN: tacticalFEN}, RecordOptions{})
				s.Close()
			}
			tc.check(t, path, err)
		})
	}
}
