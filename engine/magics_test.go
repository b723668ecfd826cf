package engine

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"os"
	"testing"
)

var updateMagics = flag.Bool("update-magics", false, "search the magic multipliers again and rewrite magics_table.go")

// TestMagicTable checks that the stored magic numbers are the ones in use
// (so none had to be searched at start-up), and with -update-magics writes
// the numbers the search finds.
func TestMagicTable(t *testing.T) {
	if *updateMagics {
		var rm, bm [64]magic
		var rt [len(rookTable)]Bitboard
		var bt [len(bishopTable)]Bitboard
		initMagics(rt[:], &rm, rookDirs, nil)
		initMagics(bt[:], &bm, bishopDirs, nil)
		var b bytes.Buffer
		b.WriteString("package engine\n\n// Magic multipliers found by initMagics' seeded search; TestMagicTable\n// rewrites this file with -update-magics.\n\n")
		for _, tab := range []struct {
			name string
			m    *[64]magic
		}{{"rookMagicNumbers", &rm}, {"bishopMagicNumbers", &bm}} {
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
		if err := os.WriteFile("magics_table.go", src, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	for s := range rookMagics {
		if rookMagics[s].magic != rookMagicNumbers[s] || bishopMagics[s].magic != bishopMagicNumbers[s] {
			t.Fatalf("square %s: stored magic not used (stale magics_table.go? run with -update-magics)", Square(s))
		}
	}
}
