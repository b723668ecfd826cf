package uci

import (
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/horizonqs/horizon/engine"
)

func TestSplitCommand(t *testing.T) {
	for _, tc := range []struct {
		line, cmd, rest string
		skipped         []string
	}{
		{"uci", "uci", "", nil},
		{"  isready \r", "isready", "", nil},
		{"joho debug on", "debug", "on", []string{"joho"}},
		{"a b go depth 3", "go", "depth 3", []string{"a", "b"}},
		{"setoption name Trace value /tmp/a  b.trace", "setoption", "name Trace value /tmp/a  b.trace", nil},
		{"nonsense", "", "", []string{"nonsense"}},
		{"", "", "", nil},
		{"\t", "", "", nil},
		{"GO depth 1", "", "", []string{"GO", "depth", "1"}}, // commands are case sensitive
	} {
		t.Run(tc.line, func(t *testing.T) {
			cmd, rest, skipped := splitCommand(tc.line)
			if cmd != tc.cmd || rest != tc.rest || !reflect.DeepEqual(skipped, tc.skipped) {
				t.Errorf("got %q %q %q, want %q %q %q", cmd, rest, skipped, tc.cmd, tc.rest, tc.skipped)
			}
		})
	}
}

func TestParseGo(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct {
		args     string
		want     goParams
		warnings int
	}{
		{"", goParams{}, 0},
		{"depth 5", goParams{depth: 5}, 0},
		{"nodes 100000 movetime 2500", goParams{nodes: 100000, movetime: 2500 * ms}, 0},
		{"wtime 60000 btime 55000 winc 1000 binc 900 movestogo 20",
			goParams{wtime: 60000 * ms, btime: 55000 * ms, winc: 1000 * ms, binc: 900 * ms, movestogo: 20, hasClock: true}, 0},
		{"infinite", goParams{infinite: true}, 0},
		{"ponder wtime 100 btime 100", goParams{ponder: true, wtime: 100 * ms, btime: 100 * ms, hasClock: true}, 0},
		// Some GUIs send a negative time once a side has overstepped.
		{"wtime -20 btime 100", goParams{btime: 100 * ms, hasClock: true}, 0},
		{"mate 3", goParams{mate: 3}, 0},
		{"searchmoves e2e4 d2d4 depth 2", goParams{moves: []string{"e2e4", "d2d4"}, depth: 2}, 0},
		// Bad values are skipped, the next keyword still counts.
		{"depth infinite", goParams{infinite: true, rejected: true}, 1},
		{"depth x nodes 5", goParams{nodes: 5, rejected: true}, 1},
		{"depth 0", goParams{rejected: true}, 1},
		{"nodes -5 depth 2", goParams{depth: 2, rejected: true}, 1},
		// A missing value or an unknown token is a limit lost: with no
		// other limit the go searches to depth 1, not until stop.
		{"depth", goParams{rejected: true}, 1},
		{"wtime", goParams{rejected: true}, 1},
		{"frobnicate depth 3", goParams{depth: 3, rejected: true}, 1},
		{"frobnicate", goParams{rejected: true}, 1},
		{"perft 2", goParams{perft: 2}, 0},
		{"perft 3 depth 2", goParams{perft: 3, depth: 2}, 0},
		{"perft 0", goParams{perftBad: true}, 1},
		{"perft 16", goParams{perftBad: true}, 1},
		{"perft x", goParams{perftBad: true}, 1},
		{"perft", goParams{perftBad: true}, 1},
		{"depth 99999999999999999999", goParams{depth: 1000}, 0}, // beyond int64: as deep as allowed
		{"depth abc", goParams{rejected: true}, 1},
		{"nodes -99999999999999999999", goParams{rejected: true}, 1},
		{"depth 5000", goParams{depth: 1000}, 0},
	} {
		t.Run(tc.args, func(t *testing.T) {
			got, warnings := parseGo(strings.Fields(tc.args))
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
			if len(warnings) != tc.warnings {
				t.Errorf("warnings %q, want %d", warnings, tc.warnings)
			}
		})
	}
}

func TestParsePosition(t *testing.T) {
	kiwi := "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
	for _, tc := range []struct {
		args    string
		want    positionArgs
		wantErr string
	}{
		{"startpos", positionArgs{fen: "startpos"}, ""},
		{"startpos moves", positionArgs{fen: "startpos", moves: []string{}}, ""},
		{"startpos moves e2e4 e7e5", positionArgs{fen: "startpos", moves: []string{"e2e4", "e7e5"}}, ""},
		{"fen " + kiwi, positionArgs{fen: kiwi}, ""},
		{"fen " + kiwi + " moves e1g1", positionArgs{fen: kiwi, moves: []string{"e1g1"}}, ""},
		{"fen 8/8/8/8/8/8/8/K6k w - -", positionArgs{fen: "8/8/8/8/8/8/8/K6k w - -"}, ""},
		{"", positionArgs{}, "got nothing"},
		{"fen", positionArgs{}, "FEN is missing"},
		{"fen moves e2e4", positionArgs{}, "FEN is missing"},
		{"start", positionArgs{}, `"start"`},
		{"startpos e2e4", positionArgs{}, `"e2e4"`},
	} {
		t.Run(tc.args, func(t *testing.T) {
			got, err := parsePosition(strings.Fields(tc.args))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("error %v, want one containing %s", err, tc.wantErr)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
}

func TestParseSetOption(t *testing.T) {
	for _, tc := range []struct {
		rest, name, value string
		ok                bool
	}{
		{"name Hash value 64", "Hash", "64", true},
		{"name Clear Hash", "Clear Hash", "", true},
		{"name  Multi   Word  value  a  b ", "Multi Word", "a  b", true},
		{"name Trace value /tmp/my games/a.trace", "Trace", "/tmp/my games/a.trace", true},
		{"name Trace value", "Trace", "", true},
		{"name Trace\tvalue\tx", "Trace", "x", true},
		{"name Trace value value", "Trace", "value", true},
		{"name", "", "", false},
		{"name value 3", "", "", false},
		{"Hash value 3", "", "", false},
		{"", "", "", false},
	} {
		t.Run(tc.rest, func(t *testing.T) {
			name, value, err := parseSetOption(tc.rest)
			if (err == nil) != tc.ok || name != tc.name || value != tc.value {
				t.Errorf("got %q %q %v, want %q %q ok=%v", name, value, err, tc.name, tc.value, tc.ok)
			}
		})
	}
}

func TestOptions(t *testing.T) {
	def, err := engine.VariantOptions(DefaultVariant)
	if err != nil {
		t.Fatal(err)
	}
	opts := buildOptions(def)
	seen := map[string]bool{}
	for _, o := range opts {
		t.Run(o.name, func(t *testing.T) {
			if seen[normName(o.name)] {
				t.Fatalf("two options fold to %q", normName(o.name))
			}
			seen[normName(o.name)] = true
			if strings.ContainsAny(o.name, " -") {
				t.Errorf("name %q: GUIs show CamelCase names", o.name)
			}
			// The announced default must be accepted back as a value.
			if v, err := o.check(o.def); err != nil || v != o.def && !o.preset {
				t.Errorf("default %q rejected: %q, %v", o.def, v, err)
			}
			// A switch's announced default means the preset's own value,
			// whatever preset is chosen (Hash, every preset's 16 MiB, keeps
			// the number GUIs expect).
			if o.spec != "" && o.spec != "hash" {
				if v, err := o.check(o.def); err != nil || v != Preset || !o.preset {
					t.Errorf("default %q reads as %q (%v), want %s", o.def, v, err, Preset)
				}
			}
			switch o.typ {
			case "spin":
				for _, bad := range []string{"x", "", strings.Repeat("9", 30)} {
					if _, err := o.check(bad); err == nil {
						t.Errorf("spin value %q accepted", bad)
					}
				}
				if o.min > 0 {
					if _, err := o.check("0"); err == nil {
						t.Errorf("value 0 accepted below min %d", o.min)
					}
				}
			case "check":
				if v, err := o.check("TRUE"); err != nil || v != "true" {
					t.Errorf("check value TRUE: %q, %v", v, err)
				}
				if _, err := o.check("yes"); err == nil {
					t.Error("check value yes accepted")
				}
			case "combo":
				if _, err := o.check("no such value"); err == nil {
					t.Error("combo accepted a value it does not offer")
				}
			}
		})
	}
	for _, s := range engine.OptionSpecs() {
		if !seen[normName(s.Name)] && s.Name != "hash" {
			t.Errorf("engine option %s has no UCI option", s.Name)
		}
	}
}

func TestUCIName(t *testing.T) {
	for flag, want := range map[string]string{"qs-levels": "QSLevels", "see-prune": "SEEPrune", "max-qs-ply": "MaxQSPly",
		"pvs": "PVS", "stand-pat": "StandPat", "tt": "TT", "delta": "Delta"} {
		if got := uciName(flag); got != want {
			t.Errorf("uciName(%q) = %q, want %q", flag, got, want)
		}
		if normName(flag) != normName(want) {
			t.Errorf("%q and %q do not fold to the same name", flag, want)
		}
	}
}

func TestAllocate(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct {
		left, inc time.Duration
		mtg       int
	}{
		{0, 0, 0}, {5 * ms, 0, 0}, {40 * ms, 0, 0}, {100 * ms, 0, 0}, {time.Second, 0, 0},
		{time.Second, 2 * time.Second, 0}, {60 * time.Second, 0, 0}, {60 * time.Second, time.Second, 0},
		{60 * time.Second, 0, 40}, {60 * time.Second, 0, 1}, {10 * time.Second, 0, 2}, {time.Hour, 0, 0},
	} {
		b := allocate(tc.left, tc.inc, tc.mtg)
		name := tc.left.String() + "+" + tc.inc.String() + "/" + time.Duration(tc.mtg).String()
		t.Run(name, func(t *testing.T) {
			if b.target <= 0 || b.hard < b.target {
				t.Fatalf("target %v hard %v: want 0 < target <= hard", b.target, b.hard)
			}
			share := 2
			if tc.mtg == 1 {
				share = 1
			}
			// Never more than half the clock (all of it on the last move
			// before the time control), whatever the increment.
			if tc.left > 0 && b.hard > tc.left/time.Duration(share) {
				t.Errorf("hard %v of a %v clock", b.hard, tc.left)
			}
			if tc.left > 4*moveOverhead && b.hard > tc.left-moveOverhead {
				t.Errorf("hard %v leaves less than the overhead of a %v clock", b.hard, tc.left)
			}
			// More time, more increment or fewer moves to go never gives less.
			if more := allocate(2*tc.left, tc.inc, tc.mtg); more.target < b.target || more.hard < b.hard {
				t.Errorf("doubling the clock gives %+v < %+v", more, b)
			}
			if more := allocate(tc.left, tc.inc+time.Second, tc.mtg); more.target < b.target {
				t.Errorf("a bigger increment gives %+v < %+v", more, b)
			}
			if tc.mtg > 1 {
				if fewer := allocate(tc.left, tc.inc, tc.mtg-1); fewer.target < b.target {
					t.Errorf("fewer moves to go gives %+v < %+v", fewer, b)
				}
			}
		})
	}
	// The documented rule on one example: 60 s, 1 s increment, sudden death.
	b := allocate(60*time.Second, time.Second, 0)
	usable := 60*time.Second - moveOverhead
	if want := usable/defaultMovesToGo + time.Second/2; b.target != want || b.hard != 3*want {
		t.Errorf("60s+1s: %+v, want target %v hard %v", b, want, 3*want)
	}
}

func FuzzSplitCommand(f *testing.F) {
	for _, s := range []string{"uci", "joho debug on", "setoption name Trace value a  b", "go depth 3", "\x00\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		cmd, rest, skipped := splitCommand(line)
		if cmd != "" && !commands[cmd] {
			t.Fatalf("unknown command %q returned", cmd)
		}
		if cmd == "" && rest != "" {
			t.Fatalf("rest %q without a command", rest)
		}
		// The command is the first known word; the words before it are
		// skipped, the words after it are rest's.
		words := strings.Fields(line)
		k := slices.IndexFunc(words, func(w string) bool { return commands[w] })
		if k < 0 {
			k = len(words)
		}
		if !slices.Equal(skipped, words[:k]) || k < len(words) && (cmd != words[k] || !slices.Equal(strings.Fields(rest), words[k+1:])) {
			t.Fatalf("%q split as %q, %q, skipping %q", line, cmd, rest, skipped)
		}
		parseSetOption(rest)
		parseGo(strings.Fields(rest))
	})
}

func FuzzPosition(f *testing.F) {
	for _, s := range []string{"startpos moves e2e4 e7e5", "fen 8/8/8/8/8/8/8/K6k w - - 0 1 moves a1a2",
		"startpos moves e2e4 e7e5 e5e4", "fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves e2e4 e7e5 g1f3"} {
		f.Add(s)
	}
	// A position refused keeps the one before and says so on one info
	// line; one taken is its root with its moves played, as a trace's
	// limits record them (posRoot, posMoves).
	const kept = "4k3/8/8/8/8/8/8/4K2R w K - 0 1"
	f.Fuzz(func(t *testing.T, args string) {
		var out strings.Builder
		s := newSession(t.Context(), &out, Config{})
		s.position([]string{"fen", kept, "moves", "h1h2"})
		if out.Len() != 0 {
			t.Fatalf("setting up: %s", out.String())
		}
		before, root, moves := s.pos.FEN(), s.posRoot, s.posMoves
		fields := strings.Fields(args)
		s.position(fields)
		if s.pos == nil {
			t.Fatal("position lost")
		}
		if said := out.String(); said != "" {
			if !strings.HasPrefix(said, "info string position refused, previous position kept: ") || strings.Count(said, "\n") != 1 {
				t.Fatalf("%q refused with %q", args, said)
			}
			if s.pos.FEN() != before || s.posRoot != root || !slices.Equal(s.posMoves, moves) {
				t.Fatalf("%q refused, yet the position is %s (%s moves %v)", args, s.pos.FEN(), s.posRoot, s.posMoves)
			}
			return
		}
		if i := slices.Index(fields, "moves"); i >= 0 && !slices.Equal(s.posMoves, fields[i+1:]) || i < 0 && len(s.posMoves) != 0 {
			t.Fatalf("%q taken with moves %v", args, s.posMoves)
		}
		p, err := engine.ParseFEN(s.posRoot)
		if err != nil {
			t.Fatalf("%q taken with root %q: %v", args, s.posRoot, err)
		}
		for _, mv := range s.posMoves {
			m, err := p.ParseUCI(mv)
			if err != nil {
				t.Fatalf("%q taken with move %s: %v", args, mv, err)
			}
			p.MakeMove(m)
		}
		if p.FEN() != s.pos.FEN() || p.Key() != s.pos.Key() {
			t.Fatalf("%q: position %s, its root and moves give %s", args, s.pos.FEN(), p.FEN())
		}
	})
}

// FuzzSession feeds arbitrary command lines to a session: nothing may
// panic, and every go must be answered by exactly one bestmove.
// engineWords are the first words of the lines an engine sends a GUI.
var engineWords = map[string]bool{"id": true, "uciok": true, "readyok": true, "bestmove": true, "copyprotection": true,
	"registration": true, "info": true, "option": true}

func FuzzSession(f *testing.F) {
	for _, s := range []string{
		"uci\nisready\nposition startpos moves e2e4\ngo depth 2",
		"position fen 8/8/8/8/8/8/8/K6k w - - 0 1\ngo infinite",
		"setoption name QSVariant value threshold\nsetoption name QSLevels value 3\ngo nodes 100",
		"go ponder wtime 100 btime 100\nponderhit",
		"position startpos moves e2e4 e7e5 e5e4\ngo wtime -1 btime 0 movestogo 1",
		"joho debug on\nsetoption name Hash value 1\nucinewgame\ngo mate 1 searchmoves e2e4",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, script string) {
		var out syncBuilder
		s := newSession(t.Context(), &out, Config{})
		gos := 0
		for _, line := range strings.Split(script, "\n") {
			if l := strings.ToLower(line); strings.Contains(l, "trace") || strings.Contains(l, "hash") {
				continue // files wherever the fuzzer points, gigabytes of hash table
			}
			if cmd, _, _ := splitCommand(line); cmd == "quit" {
				break
			}
			wasBusy := s.busy()
			s.handle(line)
			if cmd, _, _ := splitCommand(line); cmd == "go" && !wasBusy {
				gos++
			}
			s.stop()
		}
		s.shutdown()
		if n := strings.Count(out.String(), "\nbestmove ") + b2i(strings.HasPrefix(out.String(), "bestmove ")); n != gos {
			t.Fatalf("%d go, %d bestmove:\n%s", gos, n, out.String())
		}
		// Whatever the GUI sent, each line back is one a GUI reads.
		for _, l := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
			w, _, _ := strings.Cut(l, " ")
			if l != "" && !engineWords[w] || strings.ContainsAny(l, "\r\x00") {
				t.Fatalf("line %q is no UCI output:\n%s", l, out.String())
			}
		}
	})
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// syncBuilder is a strings.Builder safe for the session's two goroutines.
type syncBuilder struct {
	mu sync.Mutex
	b  strings.Builder
}

func (w *syncBuilder) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *syncBuilder) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}
