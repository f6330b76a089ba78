//go:build !unix

package gateway

import "time"

// processCPU returns 0 where the process's CPU time is not measured.
func processCPU() time.Duration { return 0 }
