package engine

import "testing"

// TestBoundOf: a score at or above beta is a lower bound, inside the
// window exact, at or below alpha an upper bound; ttCuts takes a stored
// bound as deciding exactly when it says the window's result.
func TestBoundOf(t *testing.T) {
	for _, tc := range []struct {
		score, alpha, beta Score
		want               Bound
	}{
		{50, 10, 50, BoundLower},
		{60, 10, 50, BoundLower},
		{49, 10, 50, BoundExact},
		{11, 10, 50, BoundExact},
		{10, 10, 50, BoundUpper},
		{-Infinity, 10, 50, BoundUpper},
	} {
		if got := BoundOf(tc.score, tc.alpha, tc.beta); got != tc.want {
			t.Errorf("BoundOf(%d, %d, %d) = %s, want %s", tc.score, tc.alpha, tc.beta, got, tc.want)
		}
		// A score's own bound in a window always decides that window.
		if !ttCuts(tc.want, tc.score, tc.alpha, tc.beta) {
			t.Errorf("ttCuts(%s, %d, %d, %d) = false, want true", tc.want, tc.score, tc.alpha, tc.beta)
		}
	}
	for _, tc := range []struct {
		b                  Bound
		score, alpha, beta Score
		want               bool
	}{
		{BoundExact, 30, 10, 50, true},
		{BoundLower, 30, 10, 50, false}, // at least 30: could be above beta
		{BoundUpper, 30, 10, 50, false}, // at most 30: could be below alpha
		{BoundUpper, 10, 10, 50, true},
		{BoundLower, 50, 10, 50, true},
		{BoundNone, 30, 10, 50, false},
	} {
		if got := ttCuts(tc.b, tc.score, tc.alpha, tc.beta); got != tc.want {
			t.Errorf("ttCuts(%s, %d, %d, %d) = %v, want %v", tc.b, tc.score, tc.alpha, tc.beta, got, tc.want)
		}
	}
}

// TestPawnOnSeventh: only the side to move's pawns count, on its own 7th
// rank (the 2nd for Black).
func TestPawnOnSeventh(t *testing.T) {
	for _, tc := range []struct {
		fen  string
		want bool
	}{
		{"4k3/P7/8/8/8/8/8/4K3 w - - 0 1", true},
		{"4k3/P7/8/8/8/8/8/4K3 b - - 0 1", false},
		{"4k3/8/8/8/8/8/7p/4K3 b - - 0 1", true},
		{"4k3/8/8/8/8/8/P6p/4K3 w - - 0 1", false},
		{"4k3/7p/8/8/8/8/8/4K3 b - - 0 1", false},
	} {
		if got := MustParseFEN(tc.fen).PawnOnSeventh(); got != tc.want {
			t.Errorf("%s: PawnOnSeventh = %v, want %v", tc.fen, got, tc.want)
		}
	}
}
