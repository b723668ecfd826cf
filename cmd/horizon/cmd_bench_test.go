package main

import "testing"

// TestBenchRefusesBadLimits: 'bench --sf-movetime 0s' hung, Stockfish
// being told "go infinite" (and under 1ms, "go movetime 0", which is no
// limit to it either); a negative --nodes ran with no cap. Each is a usage
// error, exit 2, before anything is searched (here without Stockfish,
// where they were ignored).
func TestBenchRefusesBadLimits(t *testing.T) {
	for _, tc := range []struct {
		flag, value, want string
	}{
		{"--sf-movetime", "0s", "--sf-movetime 0s: want at least 1ms"},
		{"--sf-movetime", "-1s", "--sf-movetime -1s"},
		{"--sf-movetime", "500us", "--sf-movetime 500µs"},
		{"--nodes", "-1", "--nodes -1"},
		{"--depth", "0", "--depth 0"},
	} {
		t.Run(tc.flag+" "+tc.value, func(t *testing.T) {
			checkFails(t, []string{"bench", "--fen", "startpos", "--qs", "none", "--stockfish", "none", tc.flag, tc.value}, 2, tc.want)
		})
	}
	checkFails(t, []string{"perft", "--bench", "--runs", "0", "--stockfish", "none"}, 2, "--runs")
}
