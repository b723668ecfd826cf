package fifo

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// mkfifo makes a FIFO in a new directory, or skips the test.
func mkfifo(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "f")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	return path
}

// TestOpenWaitsForTheOtherEnd: a FIFO with no other end is waited for
// until ctx ends, for reading as for writing (a blocking open could not be
// stopped); a plain file is opened at once.
func TestOpenWaitsForTheOtherEnd(t *testing.T) {
	plain := filepath.Join(t.TempDir(), "plain")
	if err := os.WriteFile(plain, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		path string
		flag int
		want error
	}{
		{"read, no writer", mkfifo(t), os.O_RDONLY, context.DeadlineExceeded},
		{"write, no reader", mkfifo(t), os.O_WRONLY, context.DeadlineExceeded},
		{"plain file", plain, os.O_RDONLY, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			defer cancel()
			done := make(chan error, 1)
			go func() {
				f, err := Open(ctx, tc.path, tc.flag)
				if err == nil {
					f.Close()
				}
				done <- err
			}()
			select {
			case err := <-done:
				if !errors.Is(err, tc.want) {
					t.Errorf("Open: %v, want %v", err, tc.want)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("Open still waits 10s after its ctx ended")
			}
		})
	}
}

// TestOpenReadsWhatTheWriterSends: a FIFO's read end opened before its
// writer reads what the writer sends, not an end at once (a non-blocking
// read end with no writer reads as ended); a writer that sends nothing
// and closes is an empty stream.
func TestOpenReadsWhatTheWriterSends(t *testing.T) {
	for _, sent := range []string{"HZT 1\nengine Late\n", ""} {
		path := mkfifo(t)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		got := make(chan string, 1)
		go func() {
			f, err := Open(ctx, path, os.O_RDONLY)
			if err != nil {
				got <- err.Error()
				return
			}
			defer f.Close()
			b, err := io.ReadAll(f)
			if err != nil {
				got <- err.Error()
				return
			}
			got <- string(b)
		}()
		// The writer comes after the reader waits, and does not wait for a
		// reader itself: it finds the read end Open holds.
		time.Sleep(100 * time.Millisecond)
		w, err := Open(ctx, path, os.O_WRONLY)
		if err != nil {
			t.Fatal(err)
		}
		w.WriteString(sent)
		w.Close()
		select {
		case g := <-got:
			if g != sent {
				t.Errorf("read %q, want %q", g, sent)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the reader still waits 10s after the writer closed")
		}
	}
}

// TestReadFileStopsOnCancel: a FIFO whose writer came, sent part of its
// text and stalls is read until ctx ends, not until the writer closes;
// a writer that closes gives its whole text, as a plain file does.
func TestReadFileStopsOnCancel(t *testing.T) {
	for _, closes := range []bool{false, true} {
		path := mkfifo(t)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		var got []byte
		go func() {
			var err error
			got, err = ReadFile(ctx, path)
			done <- err
		}()
		w, err := Open(context.Background(), path, os.O_WRONLY)
		if err != nil {
			t.Fatal(err)
		}
		w.WriteString("8/8/8/8/8/8/8/K6k w - -")
		if closes {
			w.Close()
		} else {
			defer w.Close()
			time.Sleep(50 * time.Millisecond)
			cancel()
		}
		select {
		case err := <-done:
			switch {
			case closes && (err != nil || string(got) != "8/8/8/8/8/8/8/K6k w - -"):
				t.Errorf("writer closed: ReadFile = %q, %v; want its text", got, err)
			case !closes && !errors.Is(err, context.Canceled):
				t.Errorf("writer stalled, ctx cancelled: ReadFile = %q, %v; want context.Canceled", got, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("writer closes %v: ReadFile still reads 10s later", closes)
		}
		cancel()
	}
}

// TestReaderStopsOnCancelOnEndlessDevice: /dev/zero never blocks, never
// ends and takes no read deadline; a Ctrl-C must still stop its reader
// (io.ReadAll of it grew 0.5 GB/s through a first Ctrl-C).
func TestReaderStopsOnCancelOnEndlessDevice(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero here")
	}
	ctx, cancel := context.WithCancel(context.Background())
	r, err := OpenReader(ctx, "/dev/zero")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	time.AfterFunc(50*time.Millisecond, cancel)
	done := make(chan error, 1)
	go func() {
		_, err := io.Copy(io.Discard, r)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("read of /dev/zero ended with %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("read of /dev/zero went on 10 s after the cancel")
	}
}

// TestReaderReadsRegularFileWhole: a regular file, which ends, is read
// whole under a context already ended, as os.ReadFile would (a command
// told to stop before it began still checks its output first).
func TestReaderReadsRegularFileWhole(t *testing.T) {
	path := filepath.Join(t.TempDir(), "set.epd")
	if err := os.WriteFile(path, []byte("8/8/8/8/8/8/8/K6k w - -\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, err := OpenReader(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if b, err := io.ReadAll(r); err != nil || string(b) != "8/8/8/8/8/8/8/K6k w - -\n" {
		t.Errorf("read %q, %v", b, err)
	}
}
