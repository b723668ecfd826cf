package trace

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/horizonqs/horizon/engine"
)

// walkBoth walks the subtree of node id of run as Subtree does with the
// rows read in one stream (subtreeFrom) and read ahead in chunks
// (subtreeAhead, with chunks of a few ids so that every boundary case
// comes up), and returns both walks' rows and errors.
func walkBoth(t *testing.T, s *Store, run, id int64, stopAt int64) (seq, ahead []Node, seqErr, aheadErr error) {
	t.Helper()
	chunk, minRows := aheadChunk, aheadMinRows
	defer func() { aheadChunk, aheadMinRows = chunk, minRows }()
	walk := func(out *[]Node) error {
		return s.Subtree(context.Background(), run, id, -1, func(n Node) error {
			if n.ID == stopAt {
				return errStop
			}
			*out = append(*out, n)
			return nil
		})
	}
	aheadMinRows = 1 << 40
	seqErr = walk(&seq)
	aheadChunk, aheadMinRows = 7, 1
	aheadErr = walk(&ahead)
	return seq, ahead, seqErr, aheadErr
}

var errStop = errors.New("stop")

// TestSubtreeAhead: a walk whose rows are read ahead, in chunks on
// goroutines of their own, passes the same rows in the same order as the
// one stream, stops where fn stops it, and fails where a damaged row
// makes the stream fail, with the same error.
func TestSubtreeAhead(t *testing.T) {
	ctx := context.Background()
	s, path := mustCreate(t)
	rec, _ := searchInto(t, ctx, s, kiwipeteFEN, "captures", engine.Limits{Depth: 2}, RecordOptions{})
	run := rec.RunID()
	for _, c := range []struct {
		name     string
		id, stop int64
	}{
		{"run", 0, -1},
		{"a subtree", 3, -1},
		{"stopped by fn", 0, 500},
	} {
		t.Run(c.name, func(t *testing.T) {
			seq, ahead, seqErr, aheadErr := walkBoth(t, s, run, c.id, c.stop)
			if len(seq) < 100 {
				t.Fatalf("only %d rows walked", len(seq))
			}
			if !reflect.DeepEqual(seq, ahead) || !errors.Is(seqErr, errStop) != (c.stop < 0) || !errors.Is(aheadErr, errStop) != (c.stop < 0) {
				t.Errorf("read ahead: %d rows, error %v; one stream: %d rows, error %v", len(ahead), aheadErr, len(seq), seqErr)
			}
		})
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	alterFile(t, path, "UPDATE node_rows SET size = 0 WHERE run_id = 1 AND id = 300")
	d, err := OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	seq, ahead, seqErr, aheadErr := walkBoth(t, d, run, 0, -1)
	if seqErr == nil || aheadErr == nil || seqErr.Error() != aheadErr.Error() || !reflect.DeepEqual(seq, ahead) {
		t.Errorf("damaged row: read ahead %d rows, error %v; one stream %d rows, error %v", len(ahead), aheadErr, len(seq), seqErr)
	}
}
