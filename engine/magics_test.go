package engine

import (
	"bytes"
	"fmt"
	"go/format"
	"testing"

	"github.com/horizonqs/horizon/internal/golden"
)

// TestMagicTable keeps magics_table.go as a golden file: it must hold the
// magic numbers in use, so that none had to be searched again at start-up.
// With -update the numbers are searched from scratch and written there.
func TestMagicTable(t *testing.T) {
	rm, bm := &rookMagics, &bishopMagics
	if golden.Update() {
		rm, bm = new([64]magic), new([64]magic)
		var rt [len(rookTable)]Bitboard
		var bt [len(bishopTable)]Bitboard
		initMagics(rt[:], rm, rookDirs, nil)
		initMagics(bt[:], bm, bishopDirs, nil)
	}
	var b bytes.Buffer
	b.WriteString("package engine\n\n// Magic multipliers found by initMagics' seeded search; TestMagicTable\n// rewrites this file with -update.\n\n")
	for _, tab := range []struct {
		name string
		m    *[64]magic
	}{{"rookMagicNumbers", rm}, {"bishopMagicNumbers", bm}} {
		fmt.Fprintf(&b, "var %s = [64]uint64{\n", tab.name)
		for s := range tab.m {
			fmt.Fprintf(&b, "\t%#016x,\n", tab.m[s].magic)
		}
		b.WriteString("}\n\n")
	}
	src, err := format.Source(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "magics_table.go", src)
}
