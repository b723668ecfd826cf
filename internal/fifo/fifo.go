// Package fifo opens the files commands read and write by name without
// blocking on a FIFO: a blocking open(2) of a FIFO waits for its other
// end, and a signal Go has caught (Ctrl-C) cannot stop it.
package fifo

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// retry is how often a FIFO whose other end has not come is looked at
// again.
const retry = 20 * time.Millisecond

// Open opens path as os.OpenFile(path, flag, 0) does. A FIFO is opened
// when its other end has come, as a shell's redirection waits for it: for
// writing, when it has a reader; for reading, when a writer has sent its
// first bytes or closed its end. ctx ends the wait. The file is opened
// non-blocking; Go's poller makes its reads and writes wait as usual.
func Open(ctx context.Context, path string, flag int) (*os.File, error) {
	writes := flag&(os.O_WRONLY|os.O_RDWR) != 0
	// A FIFO's read end is held while its writer is awaited, so that a
	// writer that does not wait for a reader (Horizon's own -o) can come.
	var f *os.File
	for {
		if f == nil {
			var err error
			f, err = os.OpenFile(path, flag|syscall.O_NONBLOCK, 0)
			if err != nil && !errors.Is(err, syscall.ENXIO) { // ENXIO: a FIFO with no reader
				return nil, err
			}
		}
		if f != nil && (writes || !isFIFO(f) || writerCame(f)) {
			return f, nil
		}
		select {
		case <-ctx.Done():
			if f != nil {
				f.Close()
			}
			return nil, ctx.Err()
		case <-time.After(retry):
		}
	}
}

// ReadFile reads the whole of path, as os.ReadFile does, opened by Open:
// a FIFO's writer is waited for, and read from, until ctx ends, so a
// writer that stalls or never comes cannot keep a Ctrl-C waiting.
func ReadFile(ctx context.Context, path string) ([]byte, error) {
	f, err := Open(ctx, path, os.O_RDONLY)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// A regular file has no deadline (SetReadDeadline fails): it never
	// blocks long.
	stop := context.AfterFunc(ctx, func() { f.SetReadDeadline(time.Now()) })
	defer stop()
	b, err := io.ReadAll(f)
	if err != nil && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return b, err
}

// isFIFO reports whether f is a FIFO.
func isFIFO(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&fs.ModeNamedPipe != 0
}

// writerCame reports whether the FIFO's read end f has something to read:
// bytes, or the end of a writer that came and went. The kernel reports no
// hang-up to a reader that has seen no writer yet, and a read would say
// the end at once.
func writerCame(f *os.File) bool {
	rc, err := f.SyscallConn()
	if err != nil {
		return true // a read will say what is wrong
	}
	ready := true
	rc.Control(func(fd uintptr) {
		p := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(p, 0)
		ready = (err != nil && err != unix.EINTR) || (n > 0 && p[0].Revents != 0)
	})
	return ready
}
