package trace

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"

	sqlite3 "github.com/mattn/go-sqlite3"
)

// damaged is an error about what a trace file holds: a row that breaks the
// rules every trace keeps (a subtree size below 1, a parent after its child,
// a NULL where the schema forbids one). It matches ErrCorrupt.
type damaged struct{ msg string }

func (d *damaged) Error() string        { return d.msg }
func (d *damaged) Is(target error) bool { return target == ErrCorrupt }

// damagedf formats a damaged error; messages start with "damaged trace".
func damagedf(format string, a ...any) error {
	return &damaged{msg: "damaged " + fmt.Sprintf(format, a...)}
}

// readErr turns an error from reading rows into one that says where: SQLite's
// own errors go through sqliteErr, a value that does not scan (a NULL or a
// text in an integer column) is damage in the named place.
func (s *Store) readErr(err error, where string) error {
	var se sqlite3.Error
	if errors.As(err, &se) || errors.Is(err, os.ErrNotExist) {
		return sqliteErr(s.path, err)
	}
	if strings.Contains(err.Error(), "Scan error") || strings.Contains(err.Error(), "converting") {
		return damagedf("trace %s: %s: %s", s.path, where, oneLine(err))
	}
	return sqliteErr(s.path, err)
}

// walkErr wraps an error that stopped a walk of run's rows from id from,
// naming where it stopped (after the last row read, or at from when none
// was), so a damaged page is a place in the tree: SQLite's "database disk
// image is malformed" alone says nothing of where.
func (s *Store) walkErr(err error, run, from, last int64) error {
	where := fmt.Sprintf("run %d: the rows from node %d", run, from)
	if last >= 0 {
		where = fmt.Sprintf("run %d: the rows after node %d", run, last)
	}
	return s.placeErr(err, where)
}

// placeErr wraps an error of a read of the rows where says (a walk, a
// node's children, the path to a node), naming that place when the file
// is damaged there.
func (s *Store) placeErr(err error, where string) error {
	var se sqlite3.Error
	if errors.As(err, &se) && se.Code == sqlite3.ErrCorrupt {
		return fmt.Errorf("trace %s: %s: %s: %w", s.path, where, oneLine(err), ErrCorrupt)
	}
	return sqliteErr(s.path, err)
}

// checkRow rejects a node row whose id, parent or subtree size breaks the
// rules every trace keeps, so no reader loops, recurses or allocates on
// the strength of a damaged number.
func (s *Store) checkRow(n *Node) error {
	switch {
	case n.ID < 0 || n.ID >= maxNodesPerRun:
		return damagedf("trace %s: run %d has a node with id %d", s.path, n.RunID, n.ID)
	case n.SubtreeSize < 1 || n.SubtreeSize > maxNodesPerRun-n.ID:
		return damagedf("trace %s: run %d node %d has subtree size %d", s.path, n.RunID, n.ID, n.SubtreeSize)
	case n.ID == 0 && n.Parent != -1:
		return damagedf("trace %s: run %d: the run node has parent %d (want -1)", s.path, n.RunID, n.Parent)
	case n.ID > 0 && (n.Parent < 0 || n.Parent >= n.ID):
		return damagedf("trace %s: run %d node %d has parent %d (a parent comes before its children)", s.path, n.RunID, n.ID, n.Parent)
	}
	return nil
}

// writerID names this process so that readers can tell whether the
// recorder of a running run is still alive: the boot, the pid and the
// process's start time (pids are reused). Empty where /proc is missing.
var writerID = func() string {
	boot, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return ""
	}
	pid := os.Getpid()
	start := procStart(pid)
	if start == "" {
		return ""
	}
	return strings.TrimSpace(string(boot)) + " " + strconv.Itoa(pid) + " " + start
}()

// procStart returns field 22 of /proc/PID/stat, the process's start time in
// clock ticks since boot, or "" when there is no such process or it has
// ended: a process killed or exited stays listed, as a zombie (state Z, or
// X while it goes), until its parent reaps it, which a parent that never
// waits never does.
func procStart(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	// The command name (field 2) is in parentheses and may hold spaces.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return ""
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 || f[0] == "Z" || f[0] == "X" {
		return ""
	}
	return f[19]
}

// writerGone reports whether the process a runs.writer value names has
// ended: same boot, and no process with that pid and start time. On another
// machine or boot it cannot tell, and reports a boot change as gone.
func writerGone(w string) bool {
	f := strings.Fields(w)
	if len(f) != 3 || writerID == "" {
		return false
	}
	me := strings.Fields(writerID)
	if f[0] != me[0] {
		return true // the machine rebooted since (or another machine wrote it: cannot tell; treat as gone)
	}
	pid, err := strconv.Atoi(f[1])
	if err != nil || pid <= 0 {
		return false
	}
	return procStart(pid) != f[2]
}

// writable reports whether the current user may write the file at path,
// or create files in it when it is a directory.
func writable(path string) bool {
	return syscall.Access(path, 2 /* W_OK */) == nil
}
