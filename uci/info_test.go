package uci

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/horizonqs/horizon/engine"
)

func TestParseInfo(t *testing.T) {
	for _, tc := range []struct {
		line    string
		ok      bool
		want    Info
		wantErr bool
	}{
		{"bestmove e2e4", false, Info{}, false},
		{"info depth 12 seldepth 18 multipv 1 score cp 31 nodes 250123 nps 900000 time 277 pv e2e4 e7e5 g1f3",
			true, Info{Depth: 12, Nodes: 250123, TimeMS: 277, Score: 31, Scored: true, PV: []string{"e2e4", "e7e5", "g1f3"}}, false},
		{"info depth 9 score cp -15 lowerbound nodes 100", true, Info{Depth: 9, Nodes: 100, TimeMS: -1, Score: -15, Scored: true, Bound: true}, false},
		{"info depth 5 score mate 2 pv d8h4", true, Info{Depth: 5, Nodes: -1, TimeMS: -1, Score: engine.MateScore - 3, Scored: true, PV: []string{"d8h4"}}, false},
		{"info depth 5 score mate -1", true, Info{Depth: 5, Nodes: -1, TimeMS: -1, Score: -engine.MateScore + 2, Scored: true}, false},
		{"info nodes 40 time 3", true, Info{Nodes: 40, TimeMS: 3}, false},
		// Free text is not read, whatever words it holds.
		{"info string depth x nodes y", true, Info{Nodes: -1, TimeMS: -1}, false},
		{"info depth x", false, Info{}, true},
		{"info score cp", false, Info{}, true},
		{"info score wdl 1 2 3", false, Info{}, true},
		{"info nodes", false, Info{}, true},
		{"info depth 3 pv", true, Info{Depth: 3, Nodes: -1, TimeMS: -1}, false},
		// Scores beyond Horizon's scale are no score (they wrapped: cp
		// 4294967296 read as 0, or a far mate read as a loss), said in
		// BadScore; the rest of the line is read (Sunfish's mates are cp
		// 50000 and more).
		{"info score cp 4294967296", true, Info{Nodes: -1, TimeMS: -1, BadScore: "cp 4294967296"}, false},
		{"info depth 7 score cp -32000 nodes 900", true, Info{Depth: 7, Nodes: 900, TimeMS: -1, BadScore: "cp -32000"}, false},
		{"info score cp 31999", true, Info{Nodes: -1, TimeMS: -1, Score: 31999, Scored: true}, false},
		{"info score mate 100000 nodes 5", true, Info{Nodes: 5, TimeMS: -1, BadScore: "mate 100000"}, false},
		{"info score mate 499", true, Info{Nodes: -1, TimeMS: -1, Score: engine.MateScore - 997, Scored: true}, false},
		{"info score mate -499", true, Info{Nodes: -1, TimeMS: -1, Score: -engine.MateScore + 998, Scored: true}, false},
	} {
		in, ok, err := ParseInfo(tc.line)
		switch {
		case (err != nil) != tc.wantErr:
			t.Errorf("%q: error %v, want error %v", tc.line, err, tc.wantErr)
		case ok != tc.ok:
			t.Errorf("%q: ok %v, want %v", tc.line, ok, tc.ok)
		case ok && (in.Depth != tc.want.Depth || in.Nodes != tc.want.Nodes || in.TimeMS != tc.want.TimeMS ||
			in.Score != tc.want.Score || in.Scored != tc.want.Scored || in.Bound != tc.want.Bound || !slices.Equal(in.PV, tc.want.PV) ||
			in.BadScore != tc.want.BadScore):
			t.Errorf("%q: %+v, want %+v", tc.line, in, tc.want)
		}
	}
}

// FuzzParseInfo: any line parses or is refused with an error, never a
// panic, a line that is not an info line is never read as one, and a
// score read is the one the line gives.
func FuzzParseInfo(f *testing.F) {
	f.Add("info depth 12 seldepth 18 score cp 31 nodes 250123 time 277 pv e2e4 e7e5")
	f.Add("info score mate -3 upperbound")
	f.Add("info string hello")
	f.Add("bestmove e2e4 ponder e7e5")
	f.Fuzz(func(t *testing.T, line string) {
		in, ok, err := ParseInfo(line)
		if err != nil && ok {
			t.Fatalf("%q: ok with error %v", line, err)
		}
		if f := strings.Fields(line); ok && f[0] != "info" {
			t.Fatalf("%q: read as an info line", line)
		}
		if ok && in.PV != nil && len(in.PV) == 0 {
			t.Fatalf("%q: an empty PV is nil", line)
		}
		// A score read is the score the line gives: the number a cp
		// score names, the moves a mate score names, never a value
		// wrapped or cut to fit.
		f := strings.Fields(line)
		scores := 0
		for _, w := range f {
			if w == "score" {
				scores++
			}
		}
		// Depth, nodes and time are the numbers the line gives (the last
		// of a key given twice), or absent: 0 and -1; the bound is read
		// where the line names one. Free text and the PV are not read.
		if ok {
			read := f[1:]
			if i := slices.IndexFunc(read, func(w string) bool { return w == "pv" || w == "string" }); i >= 0 {
				read = read[:i]
			}
			for _, c := range []struct {
				key  string
				got  int64
				none int64
			}{{"depth", int64(in.Depth), 0}, {"nodes", in.Nodes, -1}, {"time", in.TimeMS, -1}} {
				want := c.none
				for i := range read {
					// A key is never the number of another: that would not
					// have parsed.
					if read[i] == c.key && i+1 < len(read) {
						want, _ = strconv.ParseInt(read[i+1], 10, 64)
					}
				}
				if c.got != want {
					t.Fatalf("%q: %s %d, the line gives %d", line, c.key, c.got, want)
				}
			}
			if bound := slices.Contains(read, "lowerbound") || slices.Contains(read, "upperbound"); in.Bound != bound {
				t.Fatalf("%q: bound %v", line, in.Bound)
			}
		}
		if ok && in.Scored && scores == 1 {
			i := slices.Index(f, "score")
			n, _ := strconv.Atoi(f[i+2])
			switch {
			case f[i+1] == "cp" && int(in.Score) != n:
				t.Fatalf("%q: score %d", line, in.Score)
			case f[i+1] == "mate" && (!in.Score.IsMate() || in.Score.MateIn() != n):
				t.Fatalf("%q: score %d, a mate in %d", line, in.Score, in.Score.MateIn())
			}
		}
	})
}

// TestInfoLineSelDepth: seldepth is the deepest ply the search reached,
// also below the nominal depth: a mate in 1 searched to depth 4 never goes
// past ply 1 after Rd8# is found, and its info line said "depth 4
// seldepth 4".
func TestInfoLineSelDepth(t *testing.T) {
	pos := engine.MustParseFEN("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
	o, err := engine.VariantOptions(DefaultVariant)
	if err != nil {
		t.Fatal(err)
	}
	s := engine.NewSearcher(o)
	var lines []string
	shallow := false
	s.OnIteration = func(it engine.IterationInfo) {
		line := InfoLine(it.Depth, it.SelDepth, it.Score, true, it.Nodes, it.Elapsed, it.PV)
		lines = append(lines, line)
		if !strings.Contains(line, fmt.Sprintf(" depth %d seldepth %d ", it.Depth, it.SelDepth)) {
			t.Errorf("iteration %d reached ply %d: %q", it.Depth, it.SelDepth, line)
		}
		shallow = shallow || it.SelDepth < it.Depth
	}
	s.Search(context.Background(), pos, engine.Limits{Depth: 4}, nil)
	if !shallow {
		t.Errorf("no iteration stayed above its depth, the case this test is for: %q", lines)
	}
}

// TestInfoLineRate: an info line gives nps only where there is a rate
// (engine.NodesPerSecond), and ParseInfo reads the line either way.
// 'horizon search' printed "nodes 25 nps 95786 time 0" where its --json
// said "nps": null.
func TestInfoLineRate(t *testing.T) {
	for _, tc := range []struct {
		elapsed time.Duration
		want    string
	}{
		{0, " nodes 25 time 0 pv e2e4"},
		{time.Millisecond, " nodes 25 time 1 pv e2e4"},
		{engine.MinRateElapsed - 1, " nodes 25 time 9 pv e2e4"},
		{engine.MinRateElapsed, " nodes 25 nps 2500 time 10 pv e2e4"},
		{2 * time.Second, " nodes 25 nps 12 time 2000 pv e2e4"},
	} {
		e4, err := engine.MustParseFEN(engine.StartFEN).ParseUCI("e2e4")
		if err != nil {
			t.Fatal(err)
		}
		line := InfoLine(1, 1, 20, true, 25, tc.elapsed, []engine.Move{e4})
		if !strings.HasSuffix(line, tc.want) {
			t.Errorf("%v: %q, want it to end %q", tc.elapsed, line, tc.want)
		}
		in, ok, err := ParseInfo(line)
		if !ok || err != nil || in.Nodes != 25 || in.TimeMS != tc.elapsed.Milliseconds() {
			t.Errorf("%v: %q reads back as %+v (%v, %v)", tc.elapsed, line, in, ok, err)
		}
	}
}
