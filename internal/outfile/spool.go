package outfile

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

// spoolMem is how many bytes a Spool holds in memory before it moves
// them to a file.
var spoolMem = 32 << 20 // a var: tests lower it

// Spool holds an output until it is known to be whole: in memory while it
// is small, then in a temporary file, so that writing all or nothing to
// standard output or a device does not cost the output's size in memory
// (an export of every node of a big subtree writes gigabytes). The file
// is removed as soon as it is made: a killed process leaves nothing.
// The zero Spool is ready to use; Close drops what it holds.
type Spool struct {
	mem  bytes.Buffer
	file *os.File
	size int64
}

// Write holds p.
func (s *Spool) Write(p []byte) (int, error) {
	if s.file == nil && s.mem.Len()+len(p) <= spoolMem {
		s.size += int64(len(p))
		return s.mem.Write(p)
	}
	if s.file == nil {
		f, err := os.CreateTemp("", ".horizon-spool-*")
		if err != nil {
			return 0, fmt.Errorf("hold the output in a temporary file: %w", unwrapPath(err))
		}
		os.Remove(f.Name()) // open, it lives until closed
		s.file = f
		if _, err := f.Write(s.mem.Bytes()); err != nil {
			return 0, fmt.Errorf("hold the output in a temporary file: %w", unwrapPath(err))
		}
		s.mem = bytes.Buffer{}
	}
	n, err := s.file.Write(p)
	s.size += int64(n)
	if err != nil {
		err = fmt.Errorf("hold the output in a temporary file: %w", unwrapPath(err))
	}
	return n, err
}

// Len is how many bytes the spool holds.
func (s *Spool) Len() int64 { return s.size }

// WriteTo writes what the spool holds to w.
func (s *Spool) WriteTo(w io.Writer) (int64, error) {
	if s.file == nil {
		return s.mem.WriteTo(w)
	}
	if _, err := s.file.Seek(0, io.SeekStart); err != nil {
		return 0, err
	}
	return io.Copy(w, s.file)
}

// Close drops what the spool holds.
func (s *Spool) Close() error {
	s.mem = bytes.Buffer{}
	s.size = 0
	if s.file == nil {
		return nil
	}
	err := s.file.Close()
	s.file = nil
	return err
}
