package uci

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/internal/horizonbin"
)

// Games against engines from Debian's packages (stockfish, fairymax,
// polyglot; CI installs them into /usr/games). Each move either side plays
// must be legal in the game's position; the test skips with a message when
// the opponents are not installed.

// findProgram returns the path of a Debian games binary, or skips.
func findProgram(t *testing.T, name string) string {
	t.Helper()
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	p := "/usr/games/" + name
	if _, err := os.Stat(p); err == nil {
		return p
	}
	t.Skipf("%s is not installed (apt-get install %s puts it in /usr/games): game test skipped", name, name)
	return ""
}

// game keeps the moves played and checks each new one.
type game struct {
	t     *testing.T
	pos   *engine.Position
	moves []string
}

func newGame(t *testing.T) *game {
	return &game{t: t, pos: mustPosition(t, "startpos")}
}

// play checks that the engine called who played a legal move and makes it.
func (g *game) play(who, move string) {
	g.t.Helper()
	m, err := g.pos.ParseUCI(move)
	if err != nil {
		g.t.Fatalf("ply %d: %s played %s: %v\ngame: %s", len(g.moves)+1, who, move, err, strings.Join(g.moves, " "))
	}
	g.pos.MakeMove(m)
	g.moves = append(g.moves, move)
}

// over reports whether the side to move has no legal move.
func (g *game) over() bool { return len(g.pos.LegalMoves()) == 0 }

func (g *game) positionCmd() string {
	if len(g.moves) == 0 {
		return "position startpos"
	}
	return "position startpos moves " + strings.Join(g.moves, " ")
}

// uciMove asks a UCI engine for its move in the game's position.
func (g *game) uciMove(c *conn, goCmd string) string {
	g.t.Helper()
	c.send(g.positionCmd(), goCmd)
	got := c.untilPrefix("bestmove")
	best, _ := bestmove(g.t, got[len(got)-1])
	return best
}

func TestGameAgainstStockfish(t *testing.T) {
	sfPath := findProgram(t, "stockfish")
	if testing.Short() {
		t.Skip("a game takes seconds: skipped in -short mode")
	}
	plies := 30
	for _, tc := range []struct {
		name           string
		horizonWhite   bool
		variant        string
		horizonClock   time.Duration // 0: horizonGo instead
		horizonGo      string
		stockfishGo    string
		stockfishSkill string
	}{
		{"horizon white on the clock", true, "see", 2 * time.Second, "", "go depth 1", "0"},
		{"horizon black at fixed depth", false, "threshold", 0, "go depth 4", "go depth 2", "3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hz := startProcess(t, horizonbin.Path(t), "uci")
			sf := startProcess(t, sfPath)
			for _, c := range []*conn{hz, sf} {
				c.send("uci")
				c.untilPrefix("uciok")
			}
			sf.send("setoption name Skill Level value " + tc.stockfishSkill)
			hz.send("setoption name QSVariant value " + tc.variant)
			for _, c := range []*conn{hz, sf} {
				c.send("ucinewgame", "isready")
				c.untilPrefix("readyok")
			}
			g := newGame(t)
			clock := [2]time.Duration{tc.horizonClock, tc.horizonClock} // Horizon's, and a nominal one for Stockfish
			inc := 50 * time.Millisecond
			for ply := 0; ply < plies && !g.over(); ply++ {
				horizonToMove := (ply%2 == 0) == tc.horizonWhite
				if !horizonToMove {
					g.play("stockfish", g.uciMove(sf, tc.stockfishGo))
					continue
				}
				goCmd := tc.horizonGo
				if tc.horizonClock > 0 {
					w, b := clock[0], clock[1]
					if !tc.horizonWhite {
						w, b = b, w
					}
					goCmd = "go wtime " + ms(w) + " btime " + ms(b) + " winc " + ms(inc) + " binc " + ms(inc)
				}
				start := time.Now()
				move := g.uciMove(hz, goCmd)
				if tc.horizonClock > 0 {
					clock[0] -= time.Since(start)
					if clock[0] <= 0 {
						t.Fatalf("ply %d: Horizon lost on time (%s)", ply+1, goCmd)
					}
					clock[0] += inc
				}
				g.play("horizon", move)
			}
			t.Logf("game: %s", strings.Join(g.moves, " "))
			if len(g.moves) < 10 && !g.over() {
				t.Errorf("only %d plies played", len(g.moves))
			}
			for _, c := range []*conn{hz, sf} {
				c.quit()
			}
		})
	}
}

func ms(d time.Duration) string { return strconv.FormatInt(d.Milliseconds(), 10) }

// xboardReply waits for an xboard engine's "move X" line, or for a line
// that ends the game (a result, a resignation): then move is "" and the
// line is returned as result.
func xboardReply(t *testing.T, c *conn) (move, result string, lines []string) {
	t.Helper()
	got := c.until("a move or a result", func(l string) bool {
		return strings.HasPrefix(l, "move ") || gameEnd.MatchString(l)
	})
	last := got[len(got)-1]
	if m, ok := strings.CutPrefix(last, "move "); ok {
		return strings.TrimSpace(m), "", got
	}
	return "", last, got
}

var gameEnd = regexp.MustCompile(`^(1-0|0-1|1/2-1/2|resign|tellusererror)`)

// thinking is an xboard "post" line: ply score time nodes pv.
var thinking = regexp.MustCompile(`^\s*\d+\s+[-+]?\d+\s+\d+\s+\d+\s+\S`)

// TestGameThroughPolyglot plays Horizon, behind polyglot (the adapter that
// lets xboard GUIs use UCI engines), against fairymax, an xboard engine:
// the test speaks xboard to both, so Horizon is driven by a real UCI client,
// clock included.
func TestGameThroughPolyglot(t *testing.T) {
	pgPath := findProgram(t, "polyglot")
	fmPath := findProgram(t, "fairymax")
	if testing.Short() {
		t.Skip("a game takes seconds: skipped in -short mode")
	}
	pg := startProcess(t, pgPath, "-noini", "-ec", horizonbin.Path(t)+" uci")
	fm := startProcess(t, fmPath)
	for _, c := range []*conn{pg, fm} {
		c.send("xboard", "protover 2", "ping 1")
		c.untilPrefix("pong 1")
	}
	// Horizon plays white with 40 moves in 1 minute, always told it has 5 s
	// left (polyglot turns that into wtime and movestogo); fairymax searches
	// 2 plies.
	pg.send("new", "level 40 1 0", "post", "time 500", "otim 500", "go")
	fm.send("new", "sd 2")
	g := newGame(t)
	posted := 0
	for ply := 0; ply < 30 && !g.over(); ply++ {
		if ply%2 == 0 {
			move, result, got := xboardReply(t, pg)
			for _, l := range got {
				if thinking.MatchString(l) {
					posted++
				}
			}
			if move == "" {
				t.Logf("polyglot ended the game: %s", result)
				break
			}
			g.play("horizon via polyglot", move)
			fm.send(move)
			continue
		}
		move, result, _ := xboardReply(t, fm)
		if move == "" {
			t.Logf("fairymax ended the game: %s", result)
			break
		}
		g.play("fairymax", move)
		if !g.over() {
			pg.send("time 500", "otim 500", "usermove "+move)
		}
	}
	t.Logf("game: %s", strings.Join(g.moves, " "))
	if posted == 0 {
		t.Error("polyglot showed no thinking lines: it could not read Horizon's info lines")
	}
	for _, c := range []*conn{pg, fm} {
		c.quit()
	}
}
