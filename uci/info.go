package uci

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/horizonqs/horizon/engine"
)

// Info is what another engine's "info" line reports, for Horizon's side of
// a UCI conversation (bench's Stockfish speed, qsbench's second oracle,
// trace --engine's node counts). Fields the line does not give are zero,
// or -1 for the counts.
type Info struct {
	Depth  int
	Nodes  int64 // -1: not given
	TimeMS int64 // -1: not given
	// Score is the reported score on Horizon's scale: centipawns, or a
	// mate in N moves as engine.MateScore less the plies to mate.
	Score  engine.Score
	Scored bool // the line gives a score
	// BadScore is a score beyond Horizon's scale, as the line gives it
	// ("cp 50000", "mate 900"): Scored is false, and the rest of the
	// line is read (another engine's own mate scores, such as Sunfish's,
	// must not cost its node count). A caller that needs the score says
	// so.
	BadScore string
	Bound    bool     // the score is a lowerbound or upperbound only
	PV       []string // UCI moves
}

// maxMateMoves bounds the moves of a mate score ParseInfo reads: Horizon's
// mate scores are the 1,000 plies above engine.MateBound.
const maxMateMoves = 500

// ParseInfo reads an "info" line; ok is false for any other line. A
// number that does not parse is an error naming the line. Free text after
// "string" is not read.
func ParseInfo(line string) (in Info, ok bool, err error) {
	f := strings.Fields(line)
	if len(f) == 0 || f[0] != "info" {
		return Info{}, false, nil
	}
	in = Info{Nodes: -1, TimeMS: -1}
	bad := func(what string) (Info, bool, error) {
		return Info{}, false, fmt.Errorf("bad %s in %q", what, line)
	}
	for i := 1; i < len(f); i++ {
		next := ""
		if i+1 < len(f) {
			next = f[i+1]
		}
		var err error
		switch f[i] {
		case "string":
			return in, true, nil
		case "depth":
			in.Depth, err = strconv.Atoi(next)
		case "nodes":
			in.Nodes, err = strconv.ParseInt(next, 10, 64)
		case "time":
			in.TimeMS, err = strconv.ParseInt(next, 10, 64)
		case "lowerbound", "upperbound":
			in.Bound = true
			continue
		case "score":
			if i+2 >= len(f) {
				return bad("score")
			}
			v, err := strconv.Atoi(f[i+2])
			if err != nil {
				return bad("score")
			}
			switch next {
			case "cp":
				// Beyond Horizon's scale a score would wrap or read as
				// infinite.
				if v <= -int(engine.Infinity) || v >= int(engine.Infinity) {
					in.BadScore = next + " " + f[i+2]
					i += 2
					continue
				}
				in.Score = engine.Score(v)
			case "mate":
				// A mate further than Horizon's mate scores reach would
				// read as a centipawn score, or wrap.
				if v <= -maxMateMoves || v >= maxMateMoves {
					in.BadScore = next + " " + f[i+2]
					i += 2
					continue
				}
				// Mate in v moves is 2v-1 plies to mate for the side to
				// move; mated in -v moves, -2v plies.
				if v > 0 {
					in.Score = engine.MateScore - engine.Score(2*v-1)
				} else {
					in.Score = -engine.MateScore + engine.Score(-2*v)
				}
			default:
				return bad("score")
			}
			in.Scored = true
			i += 2
			continue
		case "pv":
			if i+1 < len(f) {
				in.PV = f[i+1:]
			}
			return in, true, nil
		default:
			continue
		}
		if err != nil {
			return bad(f[i])
		}
		i++
	}
	return in, true, nil
}
