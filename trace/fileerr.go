package trace

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"unicode/utf8"

	sqlite3 "github.com/mattn/go-sqlite3"
)

var errEmpty = errors.New("empty file")

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
