// Package outfile writes the files that commands are told to write with
// -o (and --plot): whole or not at all, and into what the name names.
//
// A regular file, existing or new, is written through a temporary file in
// its directory that Commit renames over it, so an error or Ctrl-C never
// leaves half a file. The temporary file is made when the first bytes are
// written, not at Create, before the command's work: a SIGKILL during
// that work (no cleanup runs) leaves nothing. One that a kill during the
// writing left is removed by the next Create of the same output. A
// symbolic link is followed and its target written that way (a dangling
// link's target is created), so the link stays a link.
// Anything else a name may be (a character device such as /dev/null, a
// FIFO, /dev/stdout, a shell's /dev/fd/N) cannot be replaced without
// breaking whoever uses it: it is opened for writing as it is, and the
// bytes are held back until Commit, so a failed command writes nothing to
// it either.
package outfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/horizonqs/horizon/internal/fifo"
)

// newFile stands for the permissions of a target that does not exist yet
// (an existing file's may be anything, 0 included).
const newFile = ^fs.FileMode(0)

// maxLinks bounds a chain of symbolic links, as the kernel's ELOOP does.
const maxLinks = 40

// File is an output being written; Commit makes it appear, Abort drops it.
type File struct {
	path string // the name the user gave, for messages

	// A regular file: tmp, made in dir by the first Write (or Commit), is
	// renamed to target on Commit.
	tmp    *os.File
	dir    string
	target string
	mode   fs.FileMode

	// Anything else: direct is the file opened as it is; buf holds the
	// bytes until Commit.
	direct *os.File
	buf    Spool

	done bool
}

// Create opens path for writing. It is called before a command's work, so
// an unwritable target fails at once and nothing has been spent. A FIFO is
// opened when it has a reader, as a shell's redirection waits for one; ctx
// ends the wait (Ctrl-C), which a plain open would not.
//
// inputs are the files the command reads: an output that is one of them,
// by whatever name (a symbolic or hard link), is refused, since writing it
// would destroy what is read (export -o of the trace it exports).
func Create(ctx context.Context, path string, inputs ...string) (*File, error) {
	if path == "" {
		return nil, errors.New("output: empty file name")
	}
	if err := NotInput(path, inputs...); err != nil {
		return nil, err
	}
	target, mode, direct, err := resolve(path)
	if err != nil {
		return nil, fmt.Errorf("output %s: %w", path, err)
	}
	if direct {
		f, err := openDirect(ctx, path)
		if err != nil {
			return nil, fmt.Errorf("output %s: %w", path, unwrapPath(err))
		}
		return &File{path: path, direct: f}, nil
	}
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	removeStale(dir, base)
	// A temporary file made and removed at once: the directory takes
	// files now, and the work can begin.
	tmp, err := createTemp(dir, base, mode)
	if err != nil {
		// The temporary file's name would only confuse.
		return nil, fmt.Errorf("output %s: cannot write in %s: %w", path, dir, unwrapPath(err))
	}
	tmp.Close()
	os.Remove(tmp.Name())
	return &File{path: path, dir: dir, target: target, mode: mode}, nil
}

// begin makes the temporary file, at the first bytes written (or a
// Commit of none).
func (f *File) begin() error {
	temps.Lock()
	defer temps.Unlock()
	if temps.quitting {
		return fmt.Errorf("output %s: %w", f.path, errQuitting)
	}
	tmp, err := createTemp(f.dir, filepath.Base(f.target), f.mode)
	if err != nil {
		return fmt.Errorf("output %s: cannot write in %s: %w", f.path, f.dir, unwrapPath(err))
	}
	f.tmp = tmp
	temps.files[f] = true
	return nil
}

// started is when this process began, near enough: a temporary file of
// Horizon's pattern last written before it is taken for one a killed
// Horizon left. A Horizon writing the same output now writes its
// temporary file from the first byte to the rename without long pauses
// (the work comes before it), so its file's time is newer.
var started = time.Now()

// removeStale removes the temporary files that Horizons killed while
// writing an output named base left in dir: regular files named exactly
// as createTemp names them, last modified before this process started.
func removeStale(dir, base string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if !e.Type().IsRegular() || !isTempOf(e.Name(), base) {
			continue
		}
		if fi, err := e.Info(); err == nil && fi.ModTime().Before(started) {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// isTempOf reports whether name is createTemp's name for a temporary file
// of base: "." + base + "." + a uint64 in base 36 + ".tmp".
func isTempOf(name, base string) bool {
	rest, ok := strings.CutPrefix(name, "."+base+".")
	if !ok {
		return false
	}
	id, ok := strings.CutSuffix(rest, ".tmp")
	if !ok || id == "" || len(id) > 13 {
		return false
	}
	_, err := strconv.ParseUint(id, 36, 64)
	return err == nil && strings.ToLower(id) == id
}

// temps is every temporary file not yet renamed or removed, for
// RemoveTemps; quitting is set by it. Commit holds the lock over the
// rename, so that an output is either renamed whole or its temporary file
// removed.
var temps = struct {
	sync.Mutex
	files    map[*File]bool
	quitting bool
}{files: map[*File]bool{}}

// errQuitting is an output's Commit after RemoveTemps.
var errQuitting = errors.New("not written: Horizon is quitting")

// RemoveTemps removes the temporary file of every output not yet
// committed or aborted, for a program about to exit without its cleanup
// (a second Ctrl-C), so that no half-written file is left beside its
// target; a later Commit writes nothing.
func RemoveTemps() {
	temps.Lock()
	defer temps.Unlock()
	temps.quitting = true
	for f := range temps.files {
		os.Remove(f.tmp.Name()) // in files only once made
	}
}

// NotInput is Create's refusal of an output that is one of the inputs,
// for a command that writes its output only after long work and should
// refuse before it.
func NotInput(path string, inputs ...string) error {
	out, err := os.Stat(path)
	if err != nil {
		return nil // a new file is no input
	}
	for _, in := range inputs {
		if fi, err := os.Stat(in); err == nil && os.SameFile(out, fi) {
			return fmt.Errorf("output %s: that is %s, which this command reads: writing it would destroy it; name another file", path, in)
		}
	}
	return nil
}

// resolve follows path's symbolic links to what is to be written. For a
// regular file, existing or not, it returns its name (links resolved) and
// the permissions it is to have: an existing file keeps its own; a new
// one's are newFile here, and it gets what a new file gets (0666 less the
// umask, as a shell's redirection gives it). direct is set for anything
// that is not a regular file.
func resolve(path string) (target string, mode fs.FileMode, direct bool, err error) {
	p := path
	for links := 0; ; links++ {
		if procFile(p) {
			// /dev/stdout, /dev/fd/N, /proc/self/fd/N: their links name
			// open files ("pipe:[123]"), not paths to rename over.
			return "", 0, true, nil
		}
		fi, err := os.Lstat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return p, newFile, false, nil
		case err != nil:
			return "", 0, false, unwrapPath(err)
		case fi.Mode().IsRegular():
			return p, fi.Mode().Perm(), false, nil
		case fi.IsDir():
			return "", 0, false, errors.New("is a directory")
		case fi.Mode()&fs.ModeSymlink == 0:
			return "", 0, true, nil // device, FIFO, socket
		case links == maxLinks:
			return "", 0, false, errors.New("too many levels of symbolic links")
		}
		to, err := os.Readlink(p)
		if err != nil {
			return "", 0, false, unwrapPath(err)
		}
		if !filepath.IsAbs(to) {
			// Relative to the link's directory, as the kernel reads it;
			// that directory's own links resolved first, so ".." in the
			// link means what it does to the kernel.
			dir, err := filepath.EvalSymlinks(filepath.Dir(p))
			if err != nil {
				return "", 0, false, unwrapPath(err)
			}
			to = filepath.Join(dir, to)
		}
		p = to
	}
}

// createTemp creates a temporary file beside the target, hidden and
// unique. A new target's is created with 0666 for the umask to shape, as
// os.Create would create the target itself; an existing target's with
// 0600 until Commit gives it the target's own permissions.
func createTemp(dir, base string, mode fs.FileMode) (*os.File, error) {
	perm := fs.FileMode(0o666)
	if mode != newFile {
		perm = 0o600
	}
	for try := 0; ; try++ {
		name := filepath.Join(dir, "."+base+"."+strconv.FormatUint(rand.Uint64(), 36)+".tmp")
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if !errors.Is(err, fs.ErrExist) || try == 100 {
			return f, err
		}
	}
}

// procFile reports whether p names one of a process's open files through
// /proc or /dev/fd rather than a file of its own.
func procFile(p string) bool {
	p = filepath.Clean(p)
	switch p {
	case "/dev/stdin", "/dev/stdout", "/dev/stderr":
		return true
	}
	return strings.HasPrefix(p, "/dev/fd/") || strings.HasPrefix(p, "/proc/")
}

// openDirect opens a file that is not to be replaced, truncating it where
// it can be truncated; a FIFO when it has a reader, ctx ending the wait
// (fifo.Open).
func openDirect(ctx context.Context, path string) (*os.File, error) {
	f, err := fifo.Open(ctx, path, os.O_WRONLY|os.O_TRUNC)
	if errors.Is(err, syscall.EINVAL) {
		f, err = fifo.Open(ctx, path, os.O_WRONLY)
	}
	return f, err
}

// unwrapPath drops an fs.PathError's operation and path: messages name the
// output themselves.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Write writes to the temporary file, or holds the bytes for Commit.
func (f *File) Write(p []byte) (int, error) {
	if f.done {
		return 0, fmt.Errorf("output %s: already closed", f.path)
	}
	if f.direct != nil {
		return f.buf.Write(p)
	}
	if f.tmp == nil {
		if err := f.begin(); err != nil {
			return 0, err
		}
	}
	n, err := f.tmp.Write(p)
	if err != nil {
		// Named as the output the user gave ("output tree.svg: no space
		// left on device"), not as the temporary file no one asked for.
		err = fmt.Errorf("output %s: %w", f.path, unwrapPath(err))
	}
	return n, err
}

// Commit makes the output appear: it renames the temporary file over the
// target, or writes the held bytes to the file opened as it is.
func (f *File) Commit() error {
	if f.done {
		return fmt.Errorf("output %s: already closed", f.path)
	}
	f.done = true
	if f.direct != nil {
		_, err := f.buf.WriteTo(f.direct)
		if cerr := f.direct.Close(); err == nil {
			err = cerr
		}
		f.buf.Close()
		if err != nil {
			return fmt.Errorf("output %s: %w", f.path, unwrapPath(err))
		}
		return nil
	}
	if f.tmp == nil {
		if err := f.begin(); err != nil { // an empty output
			return err
		}
	}
	temps.Lock()
	defer temps.Unlock()
	delete(temps.files, f)
	name := f.tmp.Name()
	var err error
	if temps.quitting {
		err = errQuitting
	} else if f.mode != newFile {
		err = f.tmp.Chmod(f.mode) // an existing file's own, which the umask did not shape
	}
	if cerr := f.tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(name, f.target)
	}
	if err != nil {
		os.Remove(name)
		return fmt.Errorf("output %s: %w", f.path, unwrapPath(err))
	}
	return nil
}

// Abort drops the output: the temporary file is removed, held bytes are
// never written. After Commit it does nothing, so it can be deferred.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	if f.direct != nil {
		f.buf.Close()
		f.direct.Close()
		return
	}
	temps.Lock()
	defer temps.Unlock()
	if f.tmp == nil {
		return
	}
	delete(temps.files, f)
	f.tmp.Close()
	os.Remove(f.tmp.Name())
}

var _ io.Writer = (*File)(nil)
