package engine

import (
	"math"
	"testing"
	"time"
)

func TestScoreString(t *testing.T) {
	for _, c := range []struct {
		s            Score
		want, signed string
	}{
		{0, "0", "0"},
		{35, "35", "+35"},
		{-35, "-35", "-35"},
		{Infinity, "∞", "∞"},
		{-Infinity, "-∞", "-∞"},
		{MateScore - 1, "#1", "#1"},
		{MateScore - 5, "#3", "#3"},
		{-MateScore + 2, "-#1", "-#1"},
		{-MateScore + 4, "-#2", "-#2"},
	} {
		if got := c.s.String(); got != c.want {
			t.Errorf("Score(%d).String() = %q, want %q", int(c.s), got, c.want)
		}
		if got := c.s.Signed(); got != c.signed {
			t.Errorf("Score(%d).Signed() = %q, want %q", int(c.s), got, c.signed)
		}
	}
}

// TestScoreFormat: another engine's scores print as its numbers, never on
// Horizon's scale (Sunfish's 34663 is not ∞, Ethereal's 31990 not #5),
// except the mates and infinity it declared, read on its own scale: in
// plies as Ethereal's UCI says them ((k+1)/2 moves to mate, k/2 to be
// mated), in the mated side's turns as Fairy-Max's delayed-loss bonus
// counts them.
func TestScoreFormat(t *testing.T) {
	ethereal := DeclaredScores(ScoreScale{Mate: 32000, MateMin: 31872, Infinity: 32000})
	fairy := DeclaredScores(ScoreScale{Mate: 8000, MateMin: 7745, MateTurns: true, Infinity: 8000})
	sunfish := DeclaredScores(ScoreScale{Infinity: 69290})
	for _, c := range []struct {
		f            ScoreFormat
		s            Score
		want, signed string
	}{
		{HorizonScores, 34663, "∞", "∞"},
		{HorizonScores, MateScore - 5, "#3", "#3"},
		{HorizonScores, 35, "35", "+35"},
		{RawScores, 34663, "34663", "+34663"},
		{RawScores, -Infinity, "-32000", "-32000"},
		{RawScores, MateScore - 5, "30995", "+30995"},
		{RawScores, -35, "-35", "-35"},
		{RawScores, 0, "0", "0"},
		{ethereal, 31999, "#1", "#1"},
		{ethereal, 31990, "#5", "#5"},
		{ethereal, -31998, "-#1", "-#1"},
		{ethereal, 31872, "#64", "#64"},
		{ethereal, 31871, "31871", "+31871"}, // a tablebase win, below MATE_IN_MAX
		{ethereal, -31871, "-31871", "-31871"},
		{ethereal, 32000, "∞", "∞"},
		{ethereal, -32000, "-∞", "-∞"},
		{ethereal, 35, "35", "+35"},
		{fairy, 7999, "#1", "#1"},
		{fairy, -7999, "-#0", "-#0"}, // mated: its own turn counts
		{fairy, -7998, "-#1", "-#1"},
		// A root's score is reported before its own delayed-loss bonus:
		// Fairy-Max's root mated in one (k7/8/1K6/8/8/8/8/7R b) scores
		// -7999 and printed -#0; its mate in one, 7999, has no bonus.
		{fairy.Root(), -7999, "-#1", "-#1"},
		{fairy.Root(), -7997, "-#3", "-#3"},
		{fairy.Root(), -8000, "-∞", "-∞"},
		{fairy.Root(), 7999, "#1", "#1"},
		{fairy.Root(), -35, "-35", "-35"},
		{ethereal.Root(), -31998, "-#1", "-#1"}, // plies: a root as any node
		{HorizonScores.Root(), -(MateScore - 2), "-#1", "-#1"},
		{fairy, 7744, "7744", "+7744"},
		{fairy, 8000, "∞", "∞"},
		{sunfish, 69290, "∞", "∞"},
		{sunfish, 47998, "47998", "+47998"},
		{DeclaredScores(ScoreScale{Mate: 100, MateMin: 50}), 120, "120", "+120"}, // above the declared mate: no distance
	} {
		if got := c.f.Text(c.s); got != c.want {
			t.Errorf("%+v.Text(%d) = %q, want %q", c.f, int(c.s), got, c.want)
		}
		if got := c.f.Signed(c.s); got != c.signed {
			t.Errorf("%+v.Signed(%d) = %q, want %q", c.f, int(c.s), got, c.signed)
		}
	}
}

func TestCommas(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{
		{0, "0"}, {999, "999"}, {1000, "1,000"}, {-1234567, "-1,234,567"}, {10800000, "10,800,000"},
		{math.MinInt64, "-9,223,372,036,854,775,808"},
	} {
		if got := Commas(c.n); got != c.want {
			t.Errorf("Commas(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

func TestOrdinalTimes(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Ordinal(1), "1st"}, {Ordinal(2), "2nd"}, {Ordinal(3), "3rd"}, {Ordinal(4), "4th"}, {Ordinal(11), "11th"},
		{Ordinal(12), "12th"}, {Ordinal(13), "13th"}, {Ordinal(22), "22nd"}, {Ordinal(101), "101st"}, {Ordinal(111), "111th"},
		{Times(0), "0 times"}, {Times(1), "once"}, {Times(2), "twice"}, {Times(3), "3 times"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func TestShort(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{
		{0, "0"}, {987, "987"}, {9999, "9999"}, {10000, "10.0k"}, {12345, "12.3k"}, {99949, "99.9k"}, {99950, "100k"}, {10960, "11.0k"},
		{100000, "100k"}, {999499, "999k"}, {999500, "1.00M"}, {1000000, "1.00M"}, {9361000, "9.36M"}, {9994999, "9.99M"}, {9995000, "10.0M"},
		{10300000, "10.3M"}, {123456789, "123M"}, {4294967295, "4.29G"}, {-12345, "-12.3k"}, {-5, "-5"}, {-9999, "-9999"}, {-1, "-1"},
		{math.MaxInt64, "9.22E"}, {math.MinInt64, "-9.22E"},
	} {
		if got := Short(c.n); got != c.want {
			t.Errorf("Short(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

// TestShortOneRule: neighbouring counts never switch between a 4-digit k
// form and an M form (the 9361k next to 10.3M of issue 16).
func TestShortOneRule(t *testing.T) {
	for n := int64(10000); n < 1e13; n = n*11/10 + 7 {
		s := Short(n)
		if len(s) > 5 {
			t.Fatalf("Short(%d) = %q: longer than 5 characters", n, s)
		}
	}
}

// TestElapsed: one rule for a time in text, and a nonzero time never
// reads as 0 (trace's summary printed a 4 ms search as "0.00s").
func TestElapsed(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0ms"}, {-ms, "0ms"}, {time.Nanosecond, "<1ms"}, {ms / 2, "<1ms"}, {ms, "1ms"}, {4 * ms, "4ms"}, {99 * ms, "99ms"},
		{99*ms + 600*time.Microsecond, "0.10s"}, {100 * ms, "0.10s"}, {590 * ms, "0.59s"}, {1234 * ms, "1.23s"},
		{9995 * ms, "10.0s"}, {12345 * ms, "12.3s"}, {59949 * ms, "59.9s"}, {59950 * ms, "1m00s"}, {125 * time.Second, "2m05s"},
		{3599499 * ms, "59m59s"}, {3599500 * ms, "1h00m"}, {2*time.Hour + 29*time.Minute + 31*time.Second, "2h30m"},
	} {
		if got := Elapsed(c.d); got != c.want {
			t.Errorf("Elapsed(%v) = %q, want %q", c.d, got, c.want)
		}
	}
}

func TestSharePercent(t *testing.T) {
	for _, c := range []struct {
		share float64
		want  string
	}{
		{0, "0%"}, {0.0000001, "0.000010%"}, {940.0 / 1547550, "0.061%"}, {0.0276, "2.8%"}, {0.0994, "9.9%"},
		{0.192, "19.2%"}, {0.99894, "99.9%"}, {0.99999, "99.9%"}, {1, "100.0%"},
	} {
		if got := SharePercent(c.share); got != c.want {
			t.Errorf("SharePercent(%v) = %q, want %q", c.share, got, c.want)
		}
	}
}

// TestWholePercent: whole percentages, where a share that is not exactly 0
// or 1 never reads "0%" or "100%".
func TestWholePercent(t *testing.T) {
	for _, c := range []struct {
		share float64
		want  string
	}{
		{0, "0%"}, {0.001, "1%"}, {0.004, "1%"}, {0.006, "1%"}, {0.5, "50%"}, {0.994, "99%"}, {0.999, "99%"}, {1, "100%"},
	} {
		if got := WholePercent(c.share); got != c.want {
			t.Errorf("WholePercent(%v) = %q, want %q", c.share, got, c.want)
		}
	}
}

// TestPercentChange: signed whole percentages of a change.
func TestPercentChange(t *testing.T) {
	for _, c := range []struct {
		from, to float64
		want     string
	}{
		{100, 112, "+12%"}, {100, 97, "-3%"}, {100, 100, "+0%"}, {3, 1, "-67%"},
	} {
		if got := PercentChange(c.from, c.to); got != c.want {
			t.Errorf("PercentChange(%v, %v) = %q, want %q", c.from, c.to, got, c.want)
		}
	}
}
