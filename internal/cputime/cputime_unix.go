//go:build unix

// Package cputime reads the CPU time the process has used, for the
// benchmarks that report CPU per event: on a shared machine it moves less
// than wall time, which counts the waits for a core.
package cputime

import (
	"syscall"
	"time"
)

// Process returns the CPU time (user and system) the process has used, or
// 0 where it cannot be read.
func Process() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
