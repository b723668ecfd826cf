package trace

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/horizonqs/horizon/engine"
)

// copyFixtureV1 copies testdata/v1.trace (three runs written by Horizon
// with schema version 1: captures and see at depth 2, none with
// --last-iteration) into a temp dir.
func copyFixtureV1(t *testing.T) string { return copyFixture(t, "v1.trace") }

// oldFixtures are traces written by earlier Horizons: v1.trace (schema 1,
// three runs) and v2.trace (schema 2, the same node layout with the run
// columns of other engines; captures and see at depth 2); v3.trace (schema
// 3, the keyed layout, written by 359b488: captures and see at depth 2 on
// Kiwipete, an imported two-node stream of another engine, and a see run
// under --last-iteration --under Nf3), whose runs counted the run node
// among their nodes; v4.trace (schema 4, written by 3d038e6 before runs
// kept their stop cause: captures and see at depth 2 on Kiwipete, and a
// captures run at depth 6 truncated by --nodes 400). v5.trace, the
// previous release's file (schema 5, with stop causes), has a test of its
// own (TestPreviousReleaseTrace).
var oldFixtures = []oldFixture{{"v1.trace", 1, 3}, {"v2.trace", 2, 2}, {"v3.trace", 3, 4}, {"v4.trace", 4, 3}}

func copyFixture(t *testing.T, name string) string {
	t.Helper()
	return copyTrace(t, filepath.Join("testdata", name), name)
}

// copyTrace copies the file at src, as name, into a new temporary
// directory and returns the copy's path.
func copyTrace(tb testing.TB, src, name string) string {
	tb.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		tb.Fatal(err)
	}
	p := filepath.Join(tb.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		tb.Fatal(err)
	}
	return p
}

// openOldFixture opens a copy of the fixture name read-only, closed when
// the test ends, and returns its runs.
func openOldFixture(t *testing.T, name string) (*Store, []Run) {
	t.Helper()
	s, err := OpenReadOnly(copyFixture(t, name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	runs, err := s.Runs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return s, runs
}

// readWriteUnchanged opens p read-write, reads every run and closes it,
// failing when the file then differs from before (what changed it).
func readWriteUnchanged(t *testing.T, p string, before []byte, what string) {
	t.Helper()
	s, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	readAll(t, s)
	s.Close()
	if after, _ := os.ReadFile(p); !bytes.Equal(before, after) {
		t.Errorf("%s changed the file", what)
	}
}

// appendRun records a run into the file at p, as a new Horizon appends to
// an old file, and returns it and what was recorded.
func appendRun(t *testing.T, p string) (int64, *memTracer) {
	t.Helper()
	w, err := Create(p)
	if err != nil {
		t.Fatal(err)
	}
	run, mem := record(t, w, 5, 3, RecordOptions{}, nil)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return run, mem
}

// sameNodes fails unless every run of old reads back row for row in now,
// after what happened to the file in between.
func sameNodes(t *testing.T, after string, old, now map[int64][]Node) {
	t.Helper()
	for id, nodes := range old {
		if len(now[id]) != len(nodes) {
			t.Fatalf("run %d: %d rows after %s, %d before", id, len(now[id]), after, len(nodes))
		}
		for i := range nodes {
			if now[id][i] != nodes[i] {
				t.Fatalf("run %d node %d changed after %s:\n%+v\n%+v", id, nodes[i].ID, after, nodes[i], now[id][i])
			}
		}
	}
}

// readAll reads everything a reader would from every run of s.
func readAll(t *testing.T, s *Store) map[int64][]Node {
	t.Helper()
	ctx := context.Background()
	runs, err := s.Runs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int64][]Node{}
	for _, r := range runs {
		nodes := allNodes(t, s, r.ID)
		if int64(len(nodes)) != r.Rows {
			t.Errorf("run %d: %d rows read, the run says %d", r.ID, len(nodes), r.Rows)
		}
		checkTreeShape(t, nodes)
		if _, err := s.Stats(ctx, r.ID); err != nil {
			t.Error(err)
		}
		if _, err := s.Hotspots(ctx, r.ID, HotspotBySize, 5); err != nil {
			t.Error(err)
		}
		for _, n := range nodes[:min(len(nodes), 50)] {
			if _, err := s.Children(ctx, r.ID, n.ID, BySearch, 0, 0); err != nil {
				t.Error(err)
			}
			if _, err := s.Path(ctx, r.ID, n.ID); err != nil {
				t.Error(err)
			}
		}
		out[r.ID] = nodes
	}
	return out
}

// TestV1ReadOnly: traces of schema versions 1, 2 and 3 open read-only,
// every query works, QS plies are derived (-depth) where none was stored,
// and the file is not changed at all.
func TestV1ReadOnly(t *testing.T) {
	for _, f := range oldFixtures {
		t.Run(f.name, func(t *testing.T) {
			p := copyFixture(t, f.name)
			before, _ := os.ReadFile(p)
			s, err := OpenReadOnly(p)
			if err != nil {
				t.Fatal(err)
			}
			if v := s.schema(); v != f.version {
				t.Fatalf("schema version %d, want %d", v, f.version)
			}
			nodes := readAll(t, s)
			if len(nodes) != f.runs {
				t.Fatalf("%d runs, want %d", len(nodes), f.runs)
			}
			qs := 0
			for _, n := range nodes[1] {
				if n.Kind == engine.KindQS {
					qs++
					// Schemas 1 and 2 had no QS ply: it is derived.
					if f.version < 3 && n.QSPly != -n.Depth {
						t.Fatalf("old QS node %d: QS ply %d, depth %d", n.ID, n.QSPly, n.Depth)
					}
				} else if n.QSPly != -1 {
					t.Fatalf("old node %d outside QS has QS ply %d", n.ID, n.QSPly)
				}
			}
			if qs == 0 {
				t.Fatal("no QS nodes in the fixture")
			}
			checkNoLevels(t, s, nodes)
			// Schemas up to 3 counted the run node among the nodes; read as
			// they are, their runs count positions, as new ones do.
			runs, err := s.Runs(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range runs {
				if r.Filter == "" && r.Nodes != r.Rows-1 {
					t.Errorf("run %d: %d nodes of %d rows; want every row but the run node's", r.ID, r.Nodes, r.Rows)
				}
				// Files before schema 5 kept no stop cause.
				if r.StopCause != "" {
					t.Errorf("run %d: stop cause %q; want none", r.ID, r.StopCause)
				}
			}
			s.Close()
			// Open (read-write) does not change the file either until a run
			// is recorded.
			readWriteUnchanged(t, p, before, "reading an old trace")
			for _, suffix := range []string{"-wal", "-shm", "-journal"} {
				if _, err := os.Stat(p + suffix); err == nil {
					t.Errorf("reading left %s behind", suffix)
				}
			}
		})
	}
}

// TestV1UpgradeOnWrite: recording into a trace of schema version 1, 2 or 3
// upgrades it, and the old runs read back the same: opened after the
// upgrade, and through a reader that had the file open while another
// writer upgraded it (as the viewer has while another process records).
// Such a reader kept the version it read at open: a schema 3 reader showed
// each run one node short, a schema 1 or 2 reader failed ("no such column:
// n.k").
func TestV1UpgradeOnWrite(t *testing.T) {
	for _, f := range oldFixtures {
		t.Run(f.name, func(t *testing.T) { testUpgradeOnWrite(t, copyFixture(t, f.name), false) })
		t.Run(f.name+" reader open", func(t *testing.T) { testUpgradeOnWrite(t, copyFixture(t, f.name), true) })
	}
}

// testUpgradeOnWrite records a run into the old trace p and compares what
// a reader reads before and after; readerOpen keeps the reader open
// across the upgrade, or opens a new one after it.
func testUpgradeOnWrite(t *testing.T, p string, readerOpen bool) {
	s, err := OpenReadOnly(p)
	if err != nil {
		t.Fatal(err)
	}
	old := readAll(t, s)
	oldRuns, err := s.Runs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !readerOpen {
		s.Close()
	}

	run, mem := appendRun(t, p)
	if !readerOpen {
		if s, err = OpenReadOnly(p); err != nil {
			t.Fatal(err)
		}
	}
	defer s.Close()
	now := readAll(t, s)
	defer func() {
		if v := s.schema(); v != SchemaVersion() {
			t.Errorf("schema version %d after a write, want %d", v, SchemaVersion())
		}
	}()
	sameNodes(t, "the upgrade", old, now)
	runs, err := s.Runs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range oldRuns {
		if runs[i].Nodes != r.Nodes || runs[i].StopCause != "" {
			t.Errorf("run %d: %d nodes after the upgrade, %d before; stop cause %q, want none", r.ID, runs[i].Nodes, r.Nodes, runs[i].StopCause)
		}
	}
	// The upgraded file has the column; its runs hold no cause (the new
	// one is complete).
	var v int
	if err := s.db.QueryRow("SELECT count(*) FROM runs WHERE stop_cause IS NOT NULL").Scan(&v); err != nil || v != 0 {
		t.Errorf("upgraded runs with a stop cause: %d, %v; want none", v, err)
	}
	if got := now[run]; len(got) != len(mem.nodes) {
		t.Errorf("new run: %d rows, want %d", len(got), len(mem.nodes))
	}
	s.db.QueryRow("SELECT count(*) FROM nodes WHERE run_id = 1 AND qs_ply IS NOT NULL AND qs_ply <> -depth").Scan(&v)
	if v != 0 {
		t.Errorf("%d upgraded QS nodes have qs_ply <> -depth", v)
	}
	checkNoLevels(t, s, now)
	for _, r := range oldRuns {
		if o, err := r.SearchOptions(); err == nil && o != nil && !o.UsesLevels() {
			s.db.QueryRow("SELECT count(*) FROM nodes WHERE run_id = ? AND qs_level IS NOT NULL", r.ID).Scan(&v)
			if v != 0 {
				t.Errorf("run %d uses no QS levels, and %d of its upgraded rows have one in the nodes view", r.ID, v)
			}
		}
	}
}

// TestV3FromV1Levels: a schema 1 file the last release upgraded to schema
// 3 on a write kept schema 1's QS plies in the level field of runs without
// levels (its migration copied the bits): such a file reads no level for
// them, and its upgrade to this schema clears the bits. v3.trace with the
// bits set by hand on its captures run stands in for it.
func TestV3FromV1Levels(t *testing.T) {
	p := copyFixture(t, "v3.trace")
	db, err := sql.Open("sqlite3", p)
	if err != nil {
		t.Fatal(err)
	}
	// QS ply 1..3 in the level bits (34-40) of run 1's QS nodes, as the
	// copied v1 rows had them.
	res, err := db.Exec("UPDATE node_rows SET info = info | ((1 + id % 3) << 34) WHERE run_id = 1 AND id IN (SELECT id FROM nodes WHERE run_id = 1 AND kind = 'qs')")
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		t.Fatal("no QS node in run 1 of v3.trace")
	}
	db.Close()
	s, err := OpenReadOnly(p)
	if err != nil {
		t.Fatal(err)
	}
	checkNoLevels(t, s, readAll(t, s))
	s.Close()
	testUpgradeOnWrite(t, p, false)
	s, err = OpenReadOnly(p)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var left int
	if err := s.db.QueryRow("SELECT count(*) FROM node_rows WHERE run_id = 1 AND (info >> 34) & 127 != 0").Scan(&left); err != nil || left != 0 {
		t.Errorf("%d rows of run 1 keep level bits after the upgrade (%v)", left, err)
	}
	checkNoLevels(t, s, readAll(t, s))
}

// checkNoLevels: a Horizon run whose options use no QS levels reads none,
// in its nodes and its stats. Schema 1 stored the QS ply in the level
// field, and v1.trace's captures run read levels 0 to 3 at nodes 2, 3, 19
// and 20 (diff against v3.trace reported "QS level A 0, B none").
func checkNoLevels(t *testing.T, s *Store, nodes map[int64][]Node) {
	t.Helper()
	runs, err := s.Runs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, r := range runs {
		o, err := r.SearchOptions()
		if err != nil || o == nil || o.UsesLevels() {
			continue
		}
		checked++
		for _, n := range nodes[r.ID] {
			if n.QSLevel != -1 {
				t.Fatalf("run %d (%s) node %d: QS level %d; the run uses no levels", r.ID, r.Variant, n.ID, n.QSLevel)
			}
		}
		st, err := s.Stats(context.Background(), r.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(st.QSLevels) != 0 {
			t.Errorf("run %d (%s): stats by QS level %v; the run uses no levels", r.ID, r.Variant, st.QSLevels)
		}
	}
	if checked == 0 {
		t.Fatal("no run without QS levels in the fixture")
	}
}

// TestV1FailedUpgrade: an upgrade that fails half-way leaves the file
// exactly as it was, from every old schema.
// upgradeFixtures are the files whose upgrade on a first write must be all
// or nothing: every older schema's, the previous releases' (v5.trace,
// v6.trace, written before schema 7's nested searches, and v7.trace,
// written by 5638af1 before schema 8's subtree figures: captures and see
// at depth 2 on Kiwipete, a captures run cut by --nodes 3000, and an
// imported stream with two nested searches) included.
var upgradeFixtures = append(oldFixtures[:len(oldFixtures):len(oldFixtures)],
	oldFixture{"v5.trace", 5, 4}, oldFixture{"v6.trace", 6, 4}, oldFixture{"v7.trace", 7, 4})

// oldFixture is a trace file of an older schema in testdata/.
type oldFixture struct {
	name    string
	version int // its schema version
	runs    int
}

func TestV1FailedUpgrade(t *testing.T) {
	for _, f := range upgradeFixtures {
		t.Run(f.name, func(t *testing.T) { testFailedUpgrade(t, copyFixture(t, f.name), f.version) })
	}
}

func testFailedUpgrade(t *testing.T, p string, version int) {
	before, _ := os.ReadFile(p)
	w, err := Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w.upgradeHook = func() error { return errors.New("injected failure") }
	_, err = w.NewRecorder(context.Background(), RunInfo{FEN: tacticalFEN}, RecordOptions{})
	if err == nil {
		t.Fatal("the injected failure was not reported")
	}
	t.Log(err)
	w.Close()
	after, _ := os.ReadFile(p)
	if !bytes.Equal(before, after) {
		t.Error("a failed upgrade changed the file")
	}
	s, err := OpenReadOnly(p)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.schema() != version {
		t.Errorf("schema version %d after a failed upgrade, want %d", s.schema(), version)
	}
	readAll(t, s)
}

// TestV1KilledUpgrade kills a process in the middle of the upgrade of each
// older schema's file (inside its transaction, after the migrations ran)
// and checks that the next open finds the file as it was, byte for byte.
func TestV1KilledUpgrade(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a subprocess")
	}
	for _, f := range upgradeFixtures {
		t.Run(f.name, func(t *testing.T) {
			p := copyFixture(t, f.name)
			before, _ := os.ReadFile(p)
			cmd, out := startHelper(t, "TestHelperUpgradeAndHang", p)
			// The helper creates this file once its upgrade is inside the
			// transaction.
			deadline := time.Now().Add(30 * time.Second)
			for {
				if _, err := os.Stat(p + ".hanging"); err == nil {
					break
				}
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					t.Fatalf("the helper never reached the upgrade:\n%s", out)
				}
				time.Sleep(10 * time.Millisecond)
			}
			cmd.Process.Kill()
			cmd.Wait()
			if mid, _ := os.ReadFile(p); bytes.Equal(mid, before) {
				t.Log("the killed upgrade had not written into the file yet")
			}
			// A hot journal is left. A reader that may write the file
			// rolls it back, as a writer does (every reader failed with
			// 'attempt to write a readonly database' here).
			if _, err := os.Stat(p + "-journal"); err != nil {
				t.Fatalf("the killed upgrade left no journal: %v", err)
			}
			// One that may not says so, and leaves file and journal.
			func() {
				dir := filepath.Dir(p)
				if os.Geteuid() == 0 {
					// root may write anything: the check is replaced.
					defer func(f func(string) string) { cannotWrite = f }(cannotWrite)
					cannotWrite = func(string) string { return "its directory " + dir + " is read-only" }
				} else {
					os.Chmod(dir, 0o555)
					defer os.Chmod(dir, 0o755)
				}
				r, err := OpenReadOnly(p)
				if err == nil {
					r.Close()
					t.Fatal("a reader that may not write the file read it")
				}
				for _, want := range []string{p, "cut short", f.name + "-journal", "must be rolled back", "may not, as its directory " + dir + " is read-only"} {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("%v: does not say %q", err, want)
					}
				}
				if _, err := os.Stat(p + "-journal"); err != nil {
					t.Errorf("the journal is gone: %v", err)
				}
			}()
			r, err := OpenReadOnly(p)
			if err != nil {
				t.Fatalf("a reader after a killed upgrade: %v", err)
			}
			readAll(t, r)
			r.Close()
			if after, _ := os.ReadFile(p); !bytes.Equal(before, after) {
				t.Error("the file a reader rolled back is not the file before the upgrade")
			}
			readWriteUnchanged(t, p, before, "a killed upgrade")
		})
	}
}

// TestHelperUpgradeAndHang is TestV1KilledUpgrade's subprocess.
func TestHelperUpgradeAndHang(t *testing.T) {
	w, p := helperStore(t, "TestV1KilledUpgrade")
	// A tiny page cache makes SQLite write changed pages into the file
	// before the commit (their originals saved in the journal), so the
	// kill leaves a changed file and a hot journal to roll back.
	w.db.SetMaxOpenConns(1)
	if _, err := w.db.Exec("PRAGMA cache_size=2"); err != nil {
		t.Fatal(err)
	}
	w.upgradeHook = func() error {
		os.WriteFile(p+".hanging", nil, 0o644)
		time.Sleep(time.Minute)
		return nil
	}
	w.NewRecorder(context.Background(), RunInfo{FEN: tacticalFEN}, RecordOptions{})
}

// TestV1TwoWriters: two writers open the same version 1 trace; the first
// to record upgrades it, the second finds it upgraded and records too.
func TestV1TwoWriters(t *testing.T) {
	p := copyFixtureV1(t)
	a, err := Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ra, _ := record(t, a, 1, 2, RecordOptions{}, nil)
	rb, _ := record(t, b, 2, 2, RecordOptions{}, nil)
	for _, s := range []*Store{a, b} {
		runs, err := s.Runs(context.Background())
		if err != nil || len(runs) != 5 || runs[3].ID != ra || runs[4].ID != rb {
			t.Errorf("runs: %v, %v", runs, err)
		}
	}
}

// TestOldNoQSReadsAsNew: variant none searches no QS, but Horizons before
// 4a9794d recorded its horizon nodes (depth-0 leaves returning the static
// eval, cause horizon) as QS nodes at QS ply 0 and counted them in
// runs.qs_nodes, the stats and the QS hotspots: diff of v1.trace's run 3
// against the same search recorded now read "QS nodes 207 vs 0". Read
// through this package, the old run must say what a new recording of the
// same search says, from the file as it is and from the file upgraded by
// a write, and reading must leave the file unchanged.
func TestOldNoQSReadsAsNew(t *testing.T) {
	ctx := context.Background()
	p := copyFixtureV1(t)
	before, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	fresh, _ := mustCreate(t)
	old, err := OpenReadOnly(p)
	if err != nil {
		t.Fatal(err)
	}
	r, err := old.Run(ctx, 3)
	if err != nil {
		t.Fatal(err)
	}
	old.Close()
	if r.Variant != "none" || r.Filter != "last-iteration" || r.Depth != 2 {
		t.Fatalf("v1.trace run 3 is %s, filter %q, depth %d; the test expects none, last-iteration, 2", r.Variant, r.Filter, r.Depth)
	}
	rec, _ := searchInto(t, ctx, fresh, r.FEN, "none", engine.Limits{Depth: 2}, RecordOptions{LastIterationOnly: true})
	compare := func(t *testing.T, s *Store) {
		t.Helper()
		a, err := s.Run(ctx, 3)
		if err != nil {
			t.Fatal(err)
		}
		b, err := fresh.Run(ctx, rec.RunID())
		if err != nil {
			t.Fatal(err)
		}
		if a.Nodes != b.Nodes || a.QSNodes != b.QSNodes || a.MaxQSPly != b.MaxQSPly || a.QSShare() != b.QSShare() {
			t.Errorf("old run: nodes %d, QS nodes %d, max QS ply %d, QS share %.3f; new: %d, %d, %d, %.3f",
				a.Nodes, a.QSNodes, a.MaxQSPly, a.QSShare(), b.Nodes, b.QSNodes, b.MaxQSPly, b.QSShare())
		}
		an, bn := allNodes(t, s, a.ID), allNodes(t, fresh, b.ID)
		if len(an) != len(bn) {
			t.Fatalf("old run %d nodes, new %d", len(an), len(bn))
		}
		for i := range an {
			x, y := an[i], bn[i]
			if x.ID != y.ID || x.Move != y.Move || x.Kind != y.Kind || x.QSLevel != y.QSLevel || x.QSPly != y.QSPly ||
				x.Depth != y.Depth || x.Cause != y.Cause || x.Score != y.Score || x.Bound != y.Bound || x.InCheck != y.InCheck {
				t.Fatalf("node %d: old reads %s qs level %d qs ply %d depth %d cause %s in check %v; new %s %d %d %d %s %v",
					x.ID, x.Kind, x.QSLevel, x.QSPly, x.Depth, x.Cause, x.InCheck, y.Kind, y.QSLevel, y.QSPly, y.Depth, y.Cause, y.InCheck)
			}
		}
		as, err := s.Stats(ctx, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		bs, err := fresh.Stats(ctx, b.ID)
		if err != nil {
			t.Fatal(err)
		}
		as.RunID = bs.RunID
		if !reflect.DeepEqual(as, bs) {
			t.Errorf("stats differ:\nold %+v\nnew %+v", as, bs)
		}
		for _, order := range []HotspotOrder{HotspotBySize, HotspotByGrowth, HotspotQS, HotspotChains} {
			ah, err := s.Hotspots(ctx, a.ID, order, 10)
			if err != nil {
				t.Fatal(err)
			}
			bh, err := fresh.Hotspots(ctx, b.ID, order, 10)
			if err != nil {
				t.Fatal(err)
			}
			if len(ah) != len(bh) {
				t.Fatalf("hotspots by %s: old %d, new %d", order, len(ah), len(bh))
			}
			for i := range ah {
				if ah[i].Node.ID != bh[i].Node.ID || ah[i].Node.Kind != bh[i].Node.Kind || ah[i].Growth != bh[i].Growth || ah[i].Cause != bh[i].Cause {
					t.Errorf("hotspot %d by %s: old %+v, new %+v", i, order, ah[i], bh[i])
				}
			}
		}
	}
	t.Run("as stored", func(t *testing.T) {
		s, err := OpenReadOnly(p)
		if err != nil {
			t.Fatal(err)
		}
		compare(t, s)
		s.Close()
		readWriteUnchanged(t, p, before, "reading run 3")
	})
	t.Run("upgraded", func(t *testing.T) {
		testUpgradeOnWrite(t, p, false)
		s, err := OpenReadOnly(p)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		compare(t, s)
	})
}

// TestPreviousReleaseTrace: v5.trace was written by the previous Horizon
// (07571f9, schema 5, before this schema's comments changed and before old
// variant-none runs and no-time imports were read anew): captures and none
// at depth 2 on Kiwipete, a captures run cut by --nodes 400 before its
// first iteration (stop cause nodes), and an imported two-node stream
// without a time. It reads as it was written, is not changed by reading,
// and takes a new run after an upgrade to schema 6, its runs reading back
// the same, with no EPD id (epd_id NULL).
func TestPreviousReleaseTrace(t *testing.T) {
	p := copyFixture(t, "v5.trace")
	before, _ := os.ReadFile(p)
	s, err := OpenReadOnly(p)
	if err != nil {
		t.Fatal(err)
	}
	if v := s.schema(); v != 5 {
		t.Fatalf("schema version %d, want 5", v)
	}
	old := readAll(t, s)
	oldRuns, err := s.Runs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if len(oldRuns) != 4 || oldRuns[1].Variant != "none" || oldRuns[1].QSNodes != 0 || oldRuns[2].StopCause != StopNodes ||
		oldRuns[2].Scored() || oldRuns[3].Engine != "Tiny" || !oldRuns[3].ElapsedKnown() {
		t.Fatalf("runs read %+v", oldRuns)
	}
	readWriteUnchanged(t, p, before, "reading the previous release's trace")

	run, mem := appendRun(t, p)
	if s, err = OpenReadOnly(p); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if v := s.schema(); v != SchemaVersion() {
		t.Errorf("schema version %d after a write, want %d", v, SchemaVersion())
	}
	var withID int
	if err := s.db.QueryRow("SELECT count(*) FROM runs WHERE epd_id IS NOT NULL").Scan(&withID); err != nil || withID != 0 {
		t.Errorf("runs with an epd_id after the upgrade: %d, %v; want 0", withID, err)
	}
	now := readAll(t, s)
	sameNodes(t, "a run was added", old, now)
	runs, err := s.Runs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range oldRuns {
		g := runs[i]
		if g.Nodes != r.Nodes || g.QSNodes != r.QSNodes || g.StopCause != r.StopCause || g.Elapsed != r.Elapsed || g.Score != r.Score || g.BestMove != r.BestMove || g.EPDID != "" {
			t.Errorf("run %d changed: %+v, was %+v", r.ID, g, r)
		}
	}
	if got := now[run]; len(got) != len(mem.nodes) {
		t.Errorf("new run: %d rows, want %d", len(got), len(mem.nodes))
	}
}

// TestPreviousReleaseTraceReaderOpen: a reader that has v5.trace open
// while another writer upgrades it to schema 6 and records a run reads the
// old runs as before (stop causes kept, no EPD id) and the new run, after
// taking the new version (readRuns), as TestV1UpgradeOnWrite's reader
// does for schemas 1 to 4.
func TestPreviousReleaseTraceReaderOpen(t *testing.T) {
	ctx := context.Background()
	p := copyFixture(t, "v5.trace")
	s, err := OpenReadOnly(p)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	old := readAll(t, s)
	oldRuns, err := s.Runs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	run, _ := appendRun(t, p)
	cut, err := s.Run(ctx, 3) // Run, not Runs, first: either takes the new version
	if err != nil || cut.StopCause != StopNodes || s.schema() != SchemaVersion() {
		t.Fatalf("run 3 after the upgrade: stop cause %q, %v; schema version %d; want %s, %d", cut.StopCause, err, s.schema(), StopNodes, SchemaVersion())
	}
	sameNodes(t, "the upgrade", old, readAll(t, s))
	runs, err := s.Runs(ctx)
	if err != nil || len(runs) != len(oldRuns)+1 || runs[len(oldRuns)].ID != run {
		t.Fatalf("runs after the upgrade: %d, %v; want %d, the last %d", len(runs), err, len(oldRuns)+1, run)
	}
	for i, r := range oldRuns {
		if g := runs[i]; g.Nodes != r.Nodes || g.StopCause != r.StopCause || g.Score != r.Score || g.EPDID != "" {
			t.Errorf("run %d changed: %+v, was %+v", r.ID, g, r)
		}
	}
}

// TestV6UpgradeOnWrite: v6.trace, as the Horizon before nested searches
// wrote it, reads unchanged (byte for byte) until a run is recorded into
// it; that write upgrades it to the current schema, and its runs and
// nodes read as before, with no nested search among them.
func TestV6UpgradeOnWrite(t *testing.T) {
	ctx := context.Background()
	p := copyFixture(t, "v6.trace")
	before, _ := os.ReadFile(p)
	s, err := OpenReadOnly(p)
	if err != nil {
		t.Fatal(err)
	}
	if v := s.schema(); v != 6 {
		t.Fatalf("schema version %d, want 6", v)
	}
	old := readAll(t, s)
	oldRuns, err := s.Runs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	readWriteUnchanged(t, p, before, "reading v6.trace")

	run, mem := appendRun(t, p)
	if s, err = OpenReadOnly(p); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if v := s.schema(); v != SchemaVersion() || v < 7 {
		t.Errorf("schema version %d after a write, want %d (7 or later)", v, SchemaVersion())
	}
	now := readAll(t, s)
	sameNodes(t, "a run was added", old, now)
	runs, err := s.Runs(ctx)
	if err != nil || len(runs) != len(oldRuns)+1 {
		t.Fatalf("runs after the upgrade: %d, %v; want %d", len(runs), err, len(oldRuns)+1)
	}
	for i, r := range oldRuns {
		g := runs[i]
		if g.Nodes != r.Nodes || g.StopCause != r.StopCause || g.Score != r.Score || g.BestMove != r.BestMove || g.EPDID != r.EPDID || g.Engine != r.Engine {
			t.Errorf("run %d changed: %+v, was %+v", r.ID, g, r)
		}
		nested, err := s.NestedSearches(ctx, r.ID)
		if err != nil || len(nested) != 0 {
			t.Errorf("run %d: nested searches %v, %v; want none", r.ID, nested, err)
		}
	}
	if got := now[run]; len(got) != len(mem.nodes) {
		t.Errorf("new run: %d rows, want %d", len(got), len(mem.nodes))
	}
}

// TestV7UpgradeOnWrite: v7.trace, as the Horizon before subtree figures
// wrote it, reads unchanged (byte for byte) until a run is recorded into
// it; that write upgrades it to schema 8 and stores the figures of its
// finished runs' big subtrees, which equal their rows', and its runs and
// nodes read as before. Before the write RangeCounts adds up the rows
// themselves, and after it the same figures.
func TestV7UpgradeOnWrite(t *testing.T) {
	lowCountsMin(t, 16)
	ctx := context.Background()
	p := copyFixture(t, "v7.trace")
	before, _ := os.ReadFile(p)
	s, err := OpenReadOnly(p)
	if err != nil {
		t.Fatal(err)
	}
	if v := s.schema(); v != 7 {
		t.Fatalf("schema version %d, want 7", v)
	}
	old := readAll(t, s)
	oldRuns, err := s.Runs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range oldRuns {
		if figs, err := s.StoredSubtreeCounts(ctx, r.ID); err != nil || len(figs) != 0 {
			t.Fatalf("run %d of a schema-7 file: %d stored figures, %v", r.ID, len(figs), err)
		}
		checkRangeCounts(t, s, r.ID)
	}
	s.Close()
	readWriteUnchanged(t, p, before, "reading v7.trace")

	run, _ := appendRun(t, p)
	if s, err = OpenReadOnly(p); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if v := s.schema(); v != SchemaVersion() || v < 8 {
		t.Errorf("schema version %d after a write, want %d (8 or later)", v, SchemaVersion())
	}
	sameNodes(t, "a run was added", old, readAll(t, s))
	runs, err := s.Runs(ctx)
	if err != nil || len(runs) != len(oldRuns)+1 || runs[len(oldRuns)].ID != run {
		t.Fatalf("runs after the upgrade: %d, %v; want %d", len(runs), err, len(oldRuns)+1)
	}
	stored := 0
	for i, r := range oldRuns {
		if g := runs[i]; g.Nodes != r.Nodes || g.Status != r.Status || g.StopCause != r.StopCause || g.Score != r.Score {
			t.Errorf("run %d changed: %+v, was %+v", r.ID, g, r)
		}
		figs, err := s.StoredSubtreeCounts(ctx, r.ID)
		if err != nil {
			t.Fatal(err)
		}
		if r.Nodes >= 1000 && len(figs) == 0 {
			t.Errorf("run %d (%d nodes, %s): no stored figures after the upgrade", r.ID, r.Nodes, r.Status)
		}
		stored += checkRangeCounts(t, s, r.ID)
	}
	if stored == 0 {
		t.Error("no range held a stored subtree")
	}
}

// TestV7UpgradeDamagedRun: a schema-7 file with a run whose rows do not
// read (a size stored as text) still takes a new run: the upgrade gives
// that run no stored figures, and the others theirs. It failed the whole
// write before ("upgrading from schema version 7 failed").
func TestV7UpgradeDamagedRun(t *testing.T) {
	lowCountsMin(t, 16)
	ctx := context.Background()
	p := copyFixture(t, "v7.trace")
	db, err := sql.Open("sqlite3", p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("UPDATE node_rows SET size = 'abc' WHERE run_id = 1 AND id = 1"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	appendRun(t, p)
	s, err := OpenReadOnly(p)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if v := s.schema(); v != SchemaVersion() {
		t.Fatalf("schema version %d after a write, want %d", v, SchemaVersion())
	}
	runs, err := s.Runs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		figs, err := s.StoredSubtreeCounts(ctx, r.ID)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case r.ID == 1 && len(figs) != 0:
			t.Errorf("the damaged run 1 has %d stored figures, want none", len(figs))
		case r.ID == 2 && len(figs) == 0:
			t.Errorf("run 2 (%d nodes) has no stored figures after the upgrade", r.Nodes)
		}
	}
}
