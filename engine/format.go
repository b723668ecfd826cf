package engine

import (
	"fmt"
	"math"
	"strconv"
	"time"
)

// String formats a score the one way every part of Horizon prints it:
// centipawns ("-35"), a mate as #N (the side to move mates in N moves) or
// -#N (it is mated in N), and the window's infinite ends as ∞ and -∞ (a
// rule's win or loss, never the number 32000). It is HorizonScores.Text.
func (s Score) String() string { return HorizonScale.text(s, false) }

// Signed is String with a "+" before positive centipawns, for columns
// where the sign carries the meaning (a score, a difference).
func (s Score) Signed() string { return HorizonScale.signed(s, false) }

// ScoreScale is an engine's mate and infinity values, which give its
// scores their meaning beyond centipawns: the values a run's stream
// declares (docs/trace-protocol.md, the "mate" and "infinity" records),
// or Horizon's own (HorizonScale). A zero field declares nothing: such
// scores print as plain numbers.
type ScoreScale struct {
	// Mate is the score of a mate at distance 0: Mate - k is a mate k
	// units away for the side to move, -(Mate - k) a loss; 0 when none
	// was declared.
	Mate Score
	// MateMin is the smallest score that is a mate (Ethereal's
	// MATE_IN_MAX): scores between it and Mate are mates, those below it
	// centipawns (a tablebase win just under it stays a number).
	MateMin Score
	// MateTurns says the distance counts the mated side's turns to move,
	// its mated position included (micro-Max and Fairy-Max, whose
	// delayed-loss bonus adds a point at each of the losing side's
	// nodes), not plies (Ethereal, Stockfish, Horizon).
	MateTurns bool
	// Infinity is the window's end for "no bound" and a win by rule: a
	// score at or beyond it prints ∞ (-∞); 0 when none was declared.
	Infinity Score
}

// HorizonScale is Horizon's own engine's: a mate k plies from the root
// scores MateScore - k, the window's ends are ±Infinity.
var HorizonScale = ScoreScale{Mate: MateScore, MateMin: MateBound + 1, Infinity: Infinity}

// mateMoves is the number of moves to mate of a score in the mate band,
// positive when the side to move mates, as the engine's own UCI "score
// mate N" says it; ok is false for a score outside the band or one the
// scale cannot place (above Mate). root says s is a root's score (see
// ScoreFormat.Root).
func (sc ScoreScale) mateMoves(s Score, root bool) (n int, ok bool) {
	if sc.Mate <= 0 || (s < sc.MateMin && s > -sc.MateMin) {
		return 0, false
	}
	k := int(sc.Mate) - int(s)
	if s < 0 {
		k = int(sc.Mate) + int(s)
	}
	switch {
	case k < 0:
		return 0, false
	case sc.MateTurns && s > 0:
		return k, true
	case sc.MateTurns && root:
		return -k, true // no bonus of the root's own: k counts the turns after it
	case sc.MateTurns:
		return -(k - 1), k >= 1 // the mated position is a turn of its own
	case s > 0:
		return (k + 1) / 2, true // a mate in k plies is the winner's (k+1)/2 moves
	}
	return -(k / 2), true
}

// text formats s on the scale (Score.String on Horizon's), a root's
// score when root is set.
func (sc ScoreScale) text(s Score, root bool) string {
	switch {
	case sc.Infinity > 0 && s >= sc.Infinity:
		return "∞"
	case sc.Infinity > 0 && s <= -sc.Infinity:
		return "-∞"
	}
	if n, ok := sc.mateMoves(s, root); ok {
		if s > 0 {
			return "#" + strconv.Itoa(n)
		}
		return "-#" + strconv.Itoa(-n)
	}
	return strconv.Itoa(int(s))
}

// signed is text with a "+" before positive centipawns.
func (sc ScoreScale) signed(s Score, root bool) string {
	t := sc.text(s, root)
	if s > 0 && t[0] >= '0' && t[0] <= '9' {
		return "+" + t
	}
	return t
}

// ScoreFormat is how one run's scores print. Horizon's own runs use
// Horizon's scale (Score.String: mates as #N, the window's ends as ∞).
// Another engine's scores are its own units with its own mate and infinity
// values: read on Horizon's scale, Sunfish's 34663 would print as ∞ and
// Ethereal's mates as the wrong #N, so they print as the plain numbers the
// engine wrote, except the mates and infinity its stream declared (Scale).
type ScoreFormat struct {
	// Foreign says the scores are another engine's: only what Scale
	// declares is read as a mate or ∞, the rest prints as numbers.
	Foreign bool
	// Scale is the engine's declared mate and infinity values (Foreign).
	Scale ScoreScale
	// root says the scores are a root's (Root).
	root bool
}

// Root is the format of a root's scores: an iteration's root and the
// run's result, as the engine reports them. A micro-Max engine (a scale
// in turns) adds its delayed-loss bonus to a node's score as the node
// returns, and reports its root's score before that: Fairy-Max's root
// mated in one scores -(Mate - 1), where a node deeper in the tree, whose
// bonus counted its own turn, would score -(Mate - 2) (docs/trace-protocol.md,
// Score scale). On a scale in plies the two formats are one.
func (f ScoreFormat) Root() ScoreFormat {
	f.root = true
	return f
}

// HorizonScores and RawScores are the two formats without a declaration:
// Horizon's own scale, and another engine's plain numbers.
var (
	HorizonScores = ScoreFormat{}
	RawScores     = ScoreFormat{Foreign: true}
)

// DeclaredScores is the format of another engine's scores on the scale
// its stream declared (RawScores when it declared nothing).
func DeclaredScores(sc ScoreScale) ScoreFormat { return ScoreFormat{Foreign: true, Scale: sc} }

func (f ScoreFormat) scale() ScoreScale {
	if f.Foreign {
		return f.Scale
	}
	return HorizonScale
}

// Text formats s: Score.String on Horizon's scale, the engine's declared
// mates and infinity on another engine's, the number otherwise.
func (f ScoreFormat) Text(s Score) string { return f.scale().text(s, f.root) }

// Signed is Text with a "+" before positive centipawns (Score.Signed).
func (f ScoreFormat) Signed(s Score) string { return f.scale().signed(s, f.root) }

// Commas formats n with thousands separators: 12,345,678. It is the long
// form of a count (a summary line, a details pane); Short is the column
// form.
func Commas(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	b := make([]byte, 0, len(s)+len(s)/3+1)
	if neg {
		b = append(b, '-')
	}
	for i := 0; i < len(s); i++ {
		if i > 0 && (len(s)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, s[i])
	}
	return string(b)
}

// Count is n with thousands separators and its noun, singular for one:
// "1 node", "12,345 nodes".
func Count(n int64, noun string) string { return CountOf(n, noun, noun+"s") }

// CountOf is Count for a noun whose plural is not its singular and an s:
// "1 summary", "3 summaries".
func CountOf(n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return Commas(n) + " " + many
}

// Ordinal is n as an English ordinal: "1st", "2nd", "3rd", "11th", "22nd".
func Ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return strconv.Itoa(n) + suffix
}

// Times is how often something happened: "once", "twice", "3 times".
func Times(n int) string {
	switch n {
	case 1:
		return "once"
	case 2:
		return "twice"
	}
	return strconv.Itoa(n) + " times"
}

// Percent formats a share (0.948) as a percentage with one decimal:
// "94.8%". It is how a run's QS share reads everywhere (runs, stats,
// trace, the viewer, HTML pages), so that one run never shows two figures.
func Percent(share float64) string { return strconv.FormatFloat(100*share, 'f', 1, 64) + "%" }

// SharePercent formats a part's share of a whole that is mostly small, such
// as a hotspot's subtree of its run: two significant figures under 10%
// ("0.061%", "2.8%"), one decimal from there ("19.2%"). A part never
// reads 0 (a nonzero share) or 100% (a share under 1): "99.9%". It is how
// a hotspot's share of the run reads everywhere (hotspots, trace's
// summary, the viewer, the HTML page's lists and details, whose script
// follows it), where one decimal made most hotspots 0.0% or 0.1%, the
// viewer said 0.06% and the page 0.061% of one tree.
func SharePercent(share float64) string {
	p := 100 * share
	switch {
	case p <= 0:
		return "0%"
	case p < 10:
		decimals := max(1, 1-int(math.Floor(math.Log10(p))))
		// Rounding can carry into a digit more (9.96 -> "10.0"): fine.
		return strconv.FormatFloat(p, 'f', decimals, 64) + "%"
	case share < 1 && p >= 99.95:
		return "99.9%"
	}
	return strconv.FormatFloat(p, 'f', 1, 64) + "%"
}

// WholePercent formats a share as a whole percentage ("12%"), for a figure
// read at a glance (a node's QS share in a diagram, the viewer's share
// column); a share that is not exactly 0 or 1 never rounds to "0%" or
// "100%", which would need a special case ("<1%") in every reader's head.
func WholePercent(share float64) string {
	p := int(share*100 + 0.5)
	switch {
	case share > 0 && p == 0:
		p = 1
	case share < 1 && p == 100:
		p = 99
	}
	return strconv.Itoa(p) + "%"
}

// PercentChange formats how much to differs from from as a signed whole
// percentage: "+12%", "-3%", "+0%" (compare mode's node counts).
func PercentChange(from, to float64) string {
	return fmt.Sprintf("%+.0f%%", 100*(to/from-1))
}

// MinRateElapsed is the shortest elapsed time a rate (nodes per second)
// is given for: below it the time is mostly the clock's grain and the
// start-up, and the rate would be 0 or millions by chance.
const MinRateElapsed = 10 * time.Millisecond

// NodesPerSecond is the one rule of a rate: nodes over elapsed, and
// whether there is one (false under MinRateElapsed). Every command's text
// and JSON, and the UCI info lines, give a rate by it: "-" in text, null in
// JSON, no nps field in an info line when there is none.
func NodesPerSecond(nodes int64, elapsed time.Duration) (float64, bool) {
	if elapsed < MinRateElapsed {
		return 0, false
	}
	return float64(nodes) / elapsed.Seconds(), true
}

// Elapsed formats a time the one way every command's text prints one (a
// run's summary, diff, compare, perft, progress lines), with three
// significant figures at most, rounded: under 100 ms in whole
// milliseconds ("4ms", "99ms"), under 10 s in seconds with two decimals
// ("0.59s", "1.23s"), under a minute with one ("12.3s"), then minutes and
// seconds ("2m05s") and hours and minutes ("1h02m"). A nonzero time never
// reads 0: under a millisecond it is "<1ms". Zero (and a negative time,
// which no clock gives) is "0ms". JSON keeps its numbers (elapsed_ms).
func Elapsed(d time.Duration) string {
	const ms = time.Millisecond
	switch {
	case d <= 0:
		return "0ms"
	case d < ms:
		return "<1ms"
	}
	if n := d.Round(ms) / ms; n < 100 {
		return strconv.FormatInt(int64(n), 10) + "ms"
	}
	if cs := d.Round(10*ms) / (10 * ms); cs < 1000 {
		return fmt.Sprintf("%d.%02ds", cs/100, cs%100)
	}
	if ds := d.Round(100*ms) / (100 * ms); ds < 600 {
		return fmt.Sprintf("%d.%ds", ds/10, ds%10)
	}
	if s := d.Round(time.Second) / time.Second; s < 3600 {
		return fmt.Sprintf("%dm%02ds", s/60, s%60)
	}
	m := d.Round(time.Minute) / time.Minute
	return fmt.Sprintf("%dh%02dm", m/60, m%60)
}

// Short formats a count in at most five characters with one rule: exact
// below 10,000, above that three significant digits (rounded) before k, M,
// G, T, P or E: 9999, 12.3k, 123k, 1.23M, 9.36M, 10.3M. So neighbouring
// rows never read 9361k and 10.3M.
func Short(n int64) string {
	if n == math.MinInt64 {
		return "-" + Short(math.MaxInt64) // -MinInt64 does not exist; no short form shows the difference
	}
	if n < 0 {
		return "-" + Short(-n)
	}
	if n < 10000 {
		return strconv.FormatInt(n, 10)
	}
	const units = "kMGTPE"
	v := float64(n) / 1000
	u := 0
	for v >= 999.5 && u < len(units)-1 { // 999.5k rounds to 1.00M, not 1000k
		v /= 1000
		u++
	}
	prec := 0
	switch {
	case v < 9.995:
		prec = 2
	case v < 99.95:
		prec = 1
	}
	return strconv.FormatFloat(v, 'f', prec, 64) + units[u:u+1]
}

// Text is the move in UCI notation for messages, or "none" for NoMove
// (where UCI's "0000" would read as a square).
func (m Move) Text() string {
	if m == NoMove {
		return "none"
	}
	return m.UCI()
}
