package compare

import (
	"fmt"
	"sort"
	"testing"

	"github.com/horizonqs/horizon/trace"
)

// TestTreeSeek checks tree.seek, which looks for an id where consecutive
// ids put it before it searches, against a plain binary search: on
// consecutive ids, on ids a recording filter left gaps in (where the
// guessed position holds another id), and past both ends.
func TestTreeSeek(t *testing.T) {
	ids := func(xs ...int64) []trace.Node {
		out := make([]trace.Node, len(xs))
		for i, x := range xs {
			out[i].ID = x
		}
		return out
	}
	for _, tc := range []struct {
		name string
		buf  []trace.Node
	}{
		{"consecutive", ids(10, 11, 12, 13, 14, 15)},
		{"gaps", ids(10, 11, 14, 15, 20, 21, 22, 40)},
		{"gap at the start", ids(10, 30, 31, 32, 33, 34, 35, 36)},
		{"one row", ids(7)},
		{"empty", nil},
	} {
		tr := &tree{buf: tc.buf}
		for from := 0; from <= len(tc.buf); from++ {
			for id := int64(0); id <= 45; id++ {
				want := from + sort.Search(len(tc.buf)-from, func(k int) bool { return tc.buf[from+k].ID >= id })
				if got := tr.seek(from, id); got != want {
					t.Errorf("%s: seek(%d, %d) = %d, want %d", tc.name, from, id, got, want)
				}
			}
		}
		for id := int64(0); id <= 45; id++ {
			want := -1
			for i, n := range tc.buf {
				if n.ID == id {
					want = i
				}
			}
			if got := tr.index(id); got != want {
				t.Errorf("%s: %s = %d, want %d", tc.name, fmt.Sprintf("index(%d)", id), got, want)
			}
		}
	}
}
