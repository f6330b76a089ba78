//go:build !unix

// Package cputime reads the CPU time the process has used, for the
// benchmarks that report CPU per event.
package cputime

import "time"

// Process returns 0: the process's CPU time is not read here.
func Process() time.Duration { return 0 }
