package foreign

import (
	"context"
	"io"
	"sync/atomic"
	"time"
)

// ctxReader reads a stream in a goroutine of its own, so that a Read
// waiting on a stream that sends nothing (a FIFO, the pipe of a live
// engine that is thinking or hung) returns when ctx is cancelled: the
// import then ends its run as interrupted, as a Ctrl-C asks, instead of
// waiting until the writer closes its end. A regular file never waits,
// and pays one copy of its bytes.
//
// Before a Read that would wait, idle is called: the importer commits the
// nodes it holds then, so that a live viewer sees a stream that pauses;
// when idle asks to be called again after a while (it commits at most so
// often), it is, if the stream still sends nothing.
//
// The goroutine ends at the stream's end or error, or when ctx is done
// (Import cancels it as it returns); it may have read up to two chunks past
// where its reader stopped. One blocked inside a read of a stream that
// neither sends nor closes stays there until the stream does (the process
// exits, or the engine is killed, soon after a cancel).
type ctxReader struct {
	ctx    context.Context
	chunks chan chunk
	free   chan []byte
	idle   func() (again time.Duration)
	// waiting, when set, holds the Unix ns since which the caller has
	// waited for the stream's next chunk, 0 while it has one: the stream's
	// silence, which the pump's reading ahead cannot tell (its Read waits
	// while the caller is still busy with what it read).
	waiting *atomic.Int64
	cur     []byte // what the caller has not read of the current chunk
	buf     []byte // the current chunk's buffer, to hand back
	err     error  // the stream's error after its last chunk
}

type chunk struct {
	b   []byte
	err error
}

// chunkSize is the size of one read of the stream.
const chunkSize = 64 << 10

func newCtxReader(ctx context.Context, r io.Reader, idle func() time.Duration, waiting *atomic.Int64) *ctxReader {
	c := &ctxReader{ctx: ctx, chunks: make(chan chunk, 1), free: make(chan []byte, 2), idle: idle, waiting: waiting}
	c.free <- make([]byte, chunkSize)
	c.free <- make([]byte, chunkSize)
	go c.pump(r)
	return c
}

// pump reads the stream ahead of the importer, a chunk at a time.
func (c *ctxReader) pump(r io.Reader) {
	for {
		var buf []byte
		select {
		case buf = <-c.free:
		case <-c.ctx.Done():
			return
		}
		n, err := r.Read(buf)
		select {
		case c.chunks <- chunk{buf[:n], err}:
		case <-c.ctx.Done():
			return
		}
		if err != nil {
			return
		}
	}
}

// Read implements io.Reader: the stream's bytes, then its error; ctx's
// error once ctx is cancelled while it waits.
func (c *ctxReader) Read(p []byte) (int, error) {
	for len(c.cur) == 0 {
		if c.err != nil {
			return 0, c.err
		}
		if c.buf != nil {
			c.free <- c.buf[:cap(c.buf)]
			c.buf = nil
		}
		ch, err := c.next()
		if err != nil {
			c.err = err
			return 0, err
		}
		c.cur, c.buf, c.err = ch.b, ch.b, ch.err
	}
	n := copy(p, c.cur)
	c.cur = c.cur[n:]
	return n, nil
}

// next waits for the next chunk, calling idle while the stream pauses.
func (c *ctxReader) next() (chunk, error) {
	select {
	case ch := <-c.chunks:
		return ch, nil
	default:
	}
	if c.waiting != nil {
		c.waiting.Store(time.Now().UnixNano())
		defer c.waiting.Store(0)
	}
	again := time.NewTimer(0)
	defer again.Stop()
	for {
		again.Stop()
		if c.idle != nil {
			if d := c.idle(); d > 0 {
				again.Reset(d)
			}
		}
		select {
		case ch := <-c.chunks:
			return ch, nil
		case <-c.ctx.Done():
			return chunk{}, c.ctx.Err()
		case <-again.C:
		}
	}
}
