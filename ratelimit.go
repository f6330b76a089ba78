package guildkit

import (
	"fmt"
	"math"
	"net/http"
	"time"

	"github.com/seed012df1e9/guildkit/internal/ratelimit"
)

// The interface's documents leave rate limits "not shown"; guildkit follows
// the reference platform's public scheme. Every answer may carry
// X-RateLimit-Limit, -Remaining, -Reset, -Reset-After (seconds, fractional),
// -Bucket, -Global and -Scope; a 429's body holds retry_after (seconds,
// fractional) and global; and a bot may make 50 requests per second in all.
//
// Below the retries, the client keeps one bucket per route template and
// major parameter (the guild id, channel id, or webhook id and token in the
// path), learned from X-RateLimit-Bucket so that routes sharing a bucket
// share its state. Before sending, a request reserves a slot: as many
// requests as the bucket has left go out at once, and the next ones wait for
// the bucket's reset (X-RateLimit-Reset-After, kept to the millisecond). A 429
// with global set pauses every request until it ends. Buckets unused for ten
// minutes are dropped as requests are made; the client runs no goroutine.

// Default global rate limit: the reference platform's 50 requests per second.
// The burst leaves the service's own count of 50 a few requests of headroom,
// so a client keeping to the rate never meets the global limit because one
// request travelled faster than the one before it.
const (
	DefaultGlobalRate  = 50
	DefaultGlobalBurst = 45
)

type rateLimitConfig struct {
	globalRate  float64
	globalBurst int
	observer    func(RateLimitEvent)
}

func defaultRateLimitConfig() rateLimitConfig {
	return rateLimitConfig{globalRate: DefaultGlobalRate, globalBurst: DefaultGlobalBurst}
}

// WithGlobalRateLimit sets the most requests per second the client sends in
// all, and how many it may send at once (burst, at least 1). The default is
// [DefaultGlobalRate] per second in bursts of [DefaultGlobalBurst]. perSecond
// 0 turns the client's global limiter off (a global 429 still pauses every
// request). Clients sharing a token should share the rate between them.
func WithGlobalRateLimit(perSecond float64, burst int) Option {
	return func(c *config) error {
		switch {
		case perSecond < 0 || math.IsNaN(perSecond) || math.IsInf(perSecond, 0):
			return fmt.Errorf("WithGlobalRateLimit: need 0 <= perSecond, got %v", perSecond)
		case perSecond > 0 && burst < 1:
			return fmt.Errorf("WithGlobalRateLimit: need burst >= 1, got %d", burst)
		}
		c.limits.globalRate, c.limits.globalBurst = perSecond, burst
		return nil
	}
}

// RateLimitEventKind says what a [RateLimitEvent] reports.
type RateLimitEventKind uint8

const (
	// RateLimitWait: a request waited before being sent, for its bucket's
	// reset, the global pause or the global limiter.
	RateLimitWait RateLimitEventKind = iota + 1
	// RateLimitHit: the service answered 429. Most are retried: see
	// [WithRetry].
	RateLimitHit
)

// String returns "wait" or "hit".
func (k RateLimitEventKind) String() string {
	switch k {
	case RateLimitWait:
		return "wait"
	case RateLimitHit:
		return "hit"
	}
	return fmt.Sprintf("RateLimitEventKind(%d)", uint8(k))
}

// RateLimitEvent is what a rate-limit observer is told.
type RateLimitEvent struct {
	Kind   RateLimitEventKind
	Method string
	Route  string // the route template, never the URL
	Bucket string // the X-RateLimit-Bucket the service named, when known
	Scope  string // for a hit: X-RateLimit-Scope ("user", "global", "shared")
	Global bool   // the global limit, not a route's
	// Wait is how long the request waited (RateLimitWait) or how long the
	// service asked it to wait (RateLimitHit).
	Wait time.Duration
}

// WithRateLimitObserver sets a function told of every 429 the service answers
// and every wait the client makes before sending, for metrics. It is called
// synchronously on the calling goroutine, so it must be quick and safe for
// concurrent use. The default observes nothing.
func WithRateLimitObserver(f func(RateLimitEvent)) Option {
	return func(c *config) error {
		c.limits.observer = f
		return nil
	}
}

// withRateLimits returns a copy of hc whose transport goes through the
// client's rate-limit layer. The caller's client is not changed.
func (c *Client) withRateLimits(hc *http.Client, cfg rateLimitConfig) *http.Client {
	maxWait := c.retry.maxRateLimitWait
	if maxWait == 0 {
		maxWait = time.Nanosecond // WithMaxRateLimitWait(0): accept no wait
	}
	rc := ratelimit.Config{
		Next:        hc.Transport,
		GlobalRate:  cfg.globalRate,
		GlobalBurst: cfg.globalBurst,
		MaxWait:     maxWait,
	}
	if f := cfg.observer; f != nil {
		rc.Observe = func(e ratelimit.Event) {
			kind := RateLimitWait
			if e.Kind == ratelimit.EventLimited {
				kind = RateLimitHit
			}
			f(RateLimitEvent{Kind: kind, Method: e.Method, Route: e.Route, Bucket: e.Bucket, Scope: e.Scope, Global: e.Global, Wait: e.Wait})
		}
	}
	cp := *hc
	c.limiter = ratelimit.New(rc)
	cp.Transport = c.limiter
	return &cp
}
