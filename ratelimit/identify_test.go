package ratelimit_test

import (
	"testing"

	"github.com/seed012df1e9/guildkit/ratelimit"
	"github.com/seed012df1e9/guildkit/ratelimit/storetest"
)

// TestIdentifyConformance runs the identify suite against the memory
// limiter on a manual clock (production windows, no wall-clock wait) and on
// real time (short windows), as a Redis limiter runs it.
func TestIdentifyConformance(t *testing.T) {
	newLimiter := func(t *testing.T, cfg storetest.IdentifyConfig) ratelimit.IdentifyLimiter {
		return ratelimit.NewMemoryIdentifyLimiter(ratelimit.IdentifyOptions{
			Clock: cfg.Clock, Window: cfg.Window, Lease: cfg.Lease, Reserve: cfg.Reserve})
	}
	t.Run("ManualClock", func(t *testing.T) { storetest.RunIdentify(t, true, newLimiter) })
	t.Run("RealTime", func(t *testing.T) { storetest.RunIdentify(t, false, newLimiter) })
}
