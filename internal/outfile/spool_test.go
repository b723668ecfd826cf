package outfile

import (
	"bytes"
	"strings"
	"testing"
)

// TestSpool writes outputs below, at and over the memory a Spool holds
// and checks that each comes back whole and in order, and that one over
// the limit went to a file (which Close drops).
func TestSpool(t *testing.T) {
	defer func(m int) { spoolMem = m }(spoolMem)
	spoolMem = 1000
	for _, size := range []int{0, 999, 1000, 1001, 10_000} {
		var s Spool
		var want bytes.Buffer
		for i := 0; want.Len() < size; i++ {
			chunk := strings.Repeat(string(rune('a'+i%26)), min(37, size-want.Len()))
			want.WriteString(chunk)
			if _, err := s.Write([]byte(chunk)); err != nil {
				t.Fatal(err)
			}
		}
		if s.Len() != int64(size) {
			t.Fatalf("%d bytes: Len %d", size, s.Len())
		}
		if inFile := s.file != nil; inFile != (size > spoolMem) {
			t.Fatalf("%d bytes: held in a file: %v", size, inFile)
		}
		var got bytes.Buffer
		if _, err := s.WriteTo(&got); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Fatalf("%d bytes: got back %d bytes, not the same", size, got.Len())
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if s.file != nil || s.Len() != 0 {
			t.Fatalf("%d bytes: Close kept the output", size)
		}
	}
}
