package gateway

import (
	"math/rand/v2"
	"time"

	"github.com/seed012df1e9/guildkit/ratelimit"
)

// Clock is the time source of a shard: its heartbeats, backoff and
// timeouts run on it, as the identify limiter's do ([ratelimit.Clock], the
// same interface). [guildkittest.Server] is one, so tests move time with
// its AdvanceClock instead of sleeping. The functions a shard gives
// AfterFunc only post to a channel: they never block.
type Clock = ratelimit.Clock

type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }
func (systemClock) AfterFunc(d time.Duration, f func()) func() bool {
	return time.AfterFunc(d, f).Stop
}

// Backoff defaults: the wait before reconnect attempt n is a random
// duration in [0, min(Max, Min×2^(n-1))) (exponential backoff with full
// jitter); READY or RESUMED resets n.
const (
	DefaultBackoffMin = time.Second
	DefaultBackoffMax = 2 * time.Minute
)

// backoff computes the wait before attempt n (1 for the first) with full
// jitter: a uniform draw below the capped exponential.
func backoff(n int, lo, hi time.Duration, random func() float64) time.Duration {
	if n < 1 {
		n = 1
	}
	ceil := lo
	for i := 1; i < n && ceil < hi; i++ {
		ceil *= 2
	}
	ceil = min(ceil, hi)
	return time.Duration(random() * float64(ceil))
}

func defaultRandom() float64 { return rand.Float64() }
