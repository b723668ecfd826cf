package trace

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestLockedNamesHolder: a writer kept out of a file in rollback-journal
// mode by another process's read transaction failed with SQLite's bare
// "database is locked", naming no one and no remedy. It names the process
// that has the file open and says what to do.
func TestLockedNamesHolder(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a subprocess")
	}
	s, p := mustCreate(t)
	record(t, s, 1, 1, RecordOptions{}, nil)
	s.Close() // rollback-journal mode again
	cmd, out := startHelper(t, "TestHelperReadAndHang", p)
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, err := os.Stat(p + ".reading"); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the helper never began its read:\n%s", out)
		}
		time.Sleep(10 * time.Millisecond)
	}
	w, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.db.SetMaxOpenConns(1)
	w.db.Exec("PRAGMA busy_timeout = 100") // not the 10 s a user waits
	_, err = w.NewRecorder(context.Background(), RunInfo{FEN: tacticalFEN}, RecordOptions{})
	wants := []string{p, "database is locked", "end its transaction or close it, then try again"}
	if runtime.GOOS == "linux" {
		wants = append(wants, ", pid "+strconv.Itoa(cmd.Process.Pid)+")")
	}
	for _, want := range wants {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("NewRecorder beside a reader: %v; want it to say %q", err, want)
		}
	}
}

// TestHelperReadAndHang is TestLockedNamesHolder's subprocess: a reader
// of the file, as the sqlite3 shell is, in a read transaction until it is
// killed.
func TestHelperReadAndHang(t *testing.T) {
	p := os.Getenv(helperEnv)
	if p == "" {
		t.Skip("a helper for TestLockedNamesHolder")
	}
	db, err := sql.Open("sqlite3", p)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := tx.QueryRow("SELECT count(*) FROM runs").Scan(&n); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(p+".reading", nil, 0o644)
	time.Sleep(time.Minute)
}

// TestCloseBesideWriter: a writer's Close kept out of the WAL's end by
// another writer said "another process was reading it as it closed"; it
// says another horizon was recording into it, and which run.
func TestCloseBesideWriter(t *testing.T) {
	defer func(w time.Duration) { closeWait = w }(closeWait)
	closeWait = 200 * time.Millisecond
	ctx := context.Background()
	a, p := mustCreate(t)
	rec, g := startRecording(t, a, RecordOptions{BatchRows: 100}, 3, nil)
	g.run(1)
	rec.Flush()
	// Something holds the WAL's end as b closes: a read transaction
	// stands in for the other writer's transaction (a batch being
	// written), which is over too soon to meet.
	db, err := sql.Open("sqlite3", p)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := tx.QueryRow("SELECT count(*) FROM node_rows").Scan(&n); err != nil {
		t.Fatal(err)
	}
	b, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	record(t, b, 1, 1, RecordOptions{}, nil)
	err = b.Close()
	tx.Rollback()
	var kept *WALKeptError
	want := "another horizon was recording into it as it closed (run " + strconv.FormatInt(rec.RunID(), 10) + ")"
	if !errors.As(err, &kept) || !strings.Contains(err.Error(), want) {
		t.Errorf("Close beside a writer: %v; want a WALKeptError saying %q", err, want)
	}
	if err := rec.Finish(Result{}); err != nil {
		t.Fatal(err)
	}
}
