package examples

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkTracingOff measures what tracing compiled in but off costs
// (issue 30: within 2%): the Go example built as it ships, every tracing
// call behind `if traced && tw.On()` with HORIZON_TRACE unset, against the
// same engine built with -tags notrace, where traced is false and the
// calls compile away. Each round runs both on the same fixed-depth
// searches (Kiwipete at depth 5, the start position at depth 6), in
// alternating order so that neither always runs first, and times each by
// the CPU time of its process: on a machine shared with other work the
// wall clock swings with the load, the CPU time much less. It reports the
// ratio of the medians, off/notrace (1.00 is free), and of the fastest
// rounds, beside each build's median in ms; and, with valgrind at hand,
// the ratio of the instructions each executes (instructionRatio), which
// the machine's load does not move. Run it with a fixed count of rounds:
//
//	go test ./examples/ -run '^$' -bench TracingOff -benchtime 10x
func BenchmarkTracingOff(b *testing.B) {
	if testing.Short() {
		b.Skip("-short: not building the example engine")
	}
	dir := b.TempDir()
	off, plain := filepath.Join(dir, "minnow"), filepath.Join(dir, "minnow-notrace")
	if err := buildGo(off); err != nil {
		b.Fatal(err)
	}
	if err := buildGo(plain, "notrace"); err != nil {
		b.Fatal(err)
	}
	const script = "position fen " + kiwipete + "\ngo depth 5\nposition startpos\ngo depth 6\nquit\n"
	run := func(bin string) (time.Duration, string) {
		cmd := exec.Command(bin)
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "HORIZON_TRACE=") {
				cmd.Env = append(cmd.Env, kv)
			}
		}
		cmd.Stdin = strings.NewReader(script)
		out, err := cmd.Output()
		if err != nil {
			b.Fatalf("%s: %v", bin, err)
		}
		// The searches' results without their times: both builds must
		// search the same trees for the times to compare.
		var res []string
		for _, l := range strings.Split(string(out), "\n") {
			if i := strings.Index(l, " time "); i >= 0 {
				l = l[:i]
			}
			res = append(res, l)
		}
		return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), strings.Join(res, "\n")
	}
	var tOff, tPlain []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		first, second := off, plain
		if i%2 == 1 {
			first, second = plain, off
		}
		t1, r1 := run(first)
		t2, r2 := run(second)
		if r1 != r2 {
			b.Fatalf("the two builds searched differently:\n%s\n---\n%s", r1, r2)
		}
		if first == off {
			tOff, tPlain = append(tOff, t1), append(tPlain, t2)
		} else {
			tOff, tPlain = append(tOff, t2), append(tPlain, t1)
		}
	}
	b.StopTimer()
	if ratio, ok := instructionRatio(b, off, plain); ok {
		b.ReportMetric(ratio, "instr-off/instr-notrace")
	}
	mOff, mPlain := median(tOff), median(tPlain)
	b.ReportMetric(float64(mOff)/float64(mPlain), "off/notrace")
	// The fastest rounds are the least disturbed by other work.
	b.ReportMetric(float64(fastest(tOff))/float64(fastest(tPlain)), "min-off/min-notrace")
	b.ReportMetric(float64(mOff)/1e6, "ms-off")
	b.ReportMetric(float64(mPlain)/1e6, "ms-notrace")
}

// instructionRatio counts the instructions each build executes on a
// smaller fixed search (Kiwipete at depth 4, the start position at depth
// 5) under valgrind's cachegrind, when valgrind is on the PATH: a count
// that no other work on the machine changes, where CPU times on a loaded
// machine swing by several percent from run to run.
func instructionRatio(b *testing.B, off, plain string) (float64, bool) {
	vg, err := exec.LookPath("valgrind")
	if err != nil {
		b.Log("valgrind is not on PATH: no instruction counts")
		return 0, false
	}
	const script = "position fen " + kiwipete + "\ngo depth 4\nposition startpos\ngo depth 5\nquit\n"
	refs := func(bin string) float64 {
		cmd := exec.Command(vg, "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", bin)
		cmd.Stdin = strings.NewReader(script)
		var errOut strings.Builder
		cmd.Stderr = &errOut
		if err := cmd.Run(); err != nil {
			b.Fatalf("valgrind %s: %v\n%s", bin, err, errOut.String())
		}
		for _, l := range strings.Split(errOut.String(), "\n") {
			if _, v, ok := strings.Cut(l, "I   refs:"); ok {
				n, err := strconv.ParseFloat(strings.ReplaceAll(strings.TrimSpace(v), ",", ""), 64)
				if err == nil {
					return n
				}
			}
		}
		b.Fatalf("valgrind %s printed no instruction count:\n%s", bin, errOut.String())
		return 0
	}
	return refs(off) / refs(plain), true
}

func sorted(ds []time.Duration) []time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s
}

func median(ds []time.Duration) time.Duration  { return sorted(ds)[len(ds)/2] }
func fastest(ds []time.Duration) time.Duration { return sorted(ds)[0] }
