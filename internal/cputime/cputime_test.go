package cputime

import (
	"testing"
	"time"
)

// TestUsedGrows: CPU spent between two readings shows in the second.
func TestUsedGrows(t *testing.T) {
	start := Used()
	if start <= 0 {
		t.Fatalf("Used() = %v in a running test; want > 0", start)
	}
	x := uint64(1)
	for deadline := time.Now().Add(10 * time.Second); Used()-start < 20*time.Millisecond; {
		if time.Now().After(deadline) {
			t.Fatalf("Used() grew by %v over 10 s of busy work; want 20ms or more", Used()-start)
		}
		for i := 0; i < 100000; i++ {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	t.Logf("spun %d", x>>60) // uses the loop's result
}
