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

// ReadFile reads the whole of path, as os.ReadFile does, opened by
// OpenReader: a FIFO's writer is waited for, and read from, until ctx
// ends, so a writer that stalls or never comes cannot keep a Ctrl-C
// waiting. It holds the whole file: readers of files that may be endless
// (--epd /dev/zero) read through OpenReader and bound their records.
func ReadFile(ctx context.Context, path string) ([]byte, error) {
	r, err := OpenReader(ctx, path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

// OpenReader opens path for reading by Open and returns a reader that
// stops when ctx ends: a FIFO's read that waits is woken (a deadline),
// and a device that never blocks and never ends (/dev/zero), which takes
// no deadline, has ctx looked at before every read. Its error is then
// ctx's. A regular file ends, and is read at the disk's speed: ctx is
// looked at once every regularRun bytes, so a small one is read whole
// (as before a command's output is checked, however early a Ctrl-C came).
func OpenReader(ctx context.Context, path string) (io.ReadCloser, error) {
	f, err := Open(ctx, path, os.O_RDONLY)
	if err != nil {
		return nil, err
	}
	// A regular file or a device has no deadline (SetReadDeadline fails).
	stop := context.AfterFunc(ctx, func() { f.SetReadDeadline(time.Now()) })
	r := &ctxReader{ctx: ctx, f: f, stop: stop}
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		r.run, r.left = regularRun, regularRun
	}
	return r, nil
}

// regularRun is how many bytes of a regular file OpenReader's reader
// reads between looks at its context.
const regularRun = 64 << 20

type ctxReader struct {
	ctx  context.Context
	f    *os.File
	stop func() bool
	run  int // bytes of a regular file between looks at ctx; 0 for others
	left int // bytes before the next look
}

func (r *ctxReader) Read(p []byte) (int, error) {
	if r.left <= 0 {
		if err := r.ctx.Err(); err != nil {
			return 0, err
		}
		r.left = r.run
	}
	n, err := r.f.Read(p)
	r.left -= n
	if err != nil && err != io.EOF && r.ctx.Err() != nil { // a deadline's error
		return n, r.ctx.Err()
	}
	return n, err
}

func (r *ctxReader) Close() error {
	r.stop()
	return r.f.Close()
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
