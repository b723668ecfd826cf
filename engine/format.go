package engine

import "strconv"

// String formats a score the one way every part of Horizon prints it:
// centipawns ("-35"), a mate as #N (the side to move mates in N moves) or
// -#N (it is mated in N), and the window's infinite ends as ∞ and -∞ (a
// rule's win or loss, never the number 32000).
func (s Score) String() string {
	switch {
	case s >= Infinity:
		return "∞"
	case s <= -Infinity:
		return "-∞"
	case s.IsMate() && s > 0:
		return "#" + strconv.Itoa(s.MateIn())
	case s.IsMate():
		return "-#" + strconv.Itoa(-s.MateIn())
	}
	return strconv.Itoa(int(s))
}

// Signed is String with a "+" before positive centipawns, for columns
// where the sign carries the meaning (a score, a difference).
func (s Score) Signed() string {
	if s > 0 && !s.IsMate() && s < Infinity {
		return "+" + s.String()
	}
	return s.String()
}

// ScoreFormat is how one run's scores print. Horizon's own runs use
// Horizon's scale (Score.String: mates as #N, the window's ends as ∞).
// Another engine's scores are its own units with its own mate and infinity
// values, which the trace protocol does not declare: read on Horizon's
// scale, Sunfish's 34663 would print as ∞ and Ethereal's mates as the
// wrong #N, so they print as the plain numbers the engine wrote.
type ScoreFormat struct {
	// Raw prints every score as its number (another engine's run).
	Raw bool
}

// HorizonScores and RawScores are the two formats: Horizon's own scale,
// and another engine's plain numbers.
var (
	HorizonScores = ScoreFormat{}
	RawScores     = ScoreFormat{Raw: true}
)

// Text formats s: Score.String on Horizon's scale, the number otherwise.
func (f ScoreFormat) Text(s Score) string {
	if f.Raw {
		return strconv.Itoa(int(s))
	}
	return s.String()
}

// Signed is Text with a "+" before positive centipawns (Score.Signed).
func (f ScoreFormat) Signed(s Score) string {
	if f.Raw {
		if s > 0 {
			return "+" + strconv.Itoa(int(s))
		}
		return strconv.Itoa(int(s))
	}
	return s.Signed()
}

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

// Short formats a count in at most five characters with one rule: exact
// below 10,000, above that three significant digits (rounded) before k, M,
// G, T, P or E: 9999, 12.3k, 123k, 1.23M, 9.36M, 10.3M. So neighbouring
// rows never read 9361k and 10.3M.
func Short(n int64) string {
	if n < 0 {
		return "-" + Short(-(n + 1)) // +1: -MinInt64 does not exist; no short form shows the difference
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
