// Package cputime reads the CPU time the process has used, for benchmarks
// that report CPU per row or node beside the wall-clock rate: on a machine
// shared with other work the wall clock swings with the load, the CPU cost
// much less.
package cputime

import (
	"syscall"
	"time"
)

// Used returns the process's user and system CPU time so far, or 0 when
// the system does not say.
func Used() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
