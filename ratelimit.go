package guildkit

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"time"

	"github.com/seed012df1e9/guildkit/internal/ratelimit"
	shared "github.com/seed012df1e9/guildkit/ratelimit"
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
//
// The global limit is a sliding window: at most 50 requests in any window of
// one second (plus a margin of 20ms for the time requests take to travel),
// so that no second of the service's count, however it places its windows,
// sees more than 50.

// Default global rate limit: the reference platform's 50 requests per second,
// all of which may be sent at once. The one-second window the client keeps
// has a margin (see the package ratelimit's DefaultMargin), so a client
// keeping to the rate never meets the global limit because one request
// travelled faster than the one before it.
const (
	DefaultGlobalRate  = 50
	DefaultGlobalBurst = 50
)

type rateLimitConfig struct {
	globalRate  float64
	globalBurst int
	observer    func(RateLimitEvent)
	store       shared.Store
	off         bool // WithoutRateLimiter
}

func defaultRateLimitConfig() rateLimitConfig {
	return rateLimitConfig{globalRate: DefaultGlobalRate, globalBurst: DefaultGlobalBurst}
}

// WithGlobalRateLimit sets the most requests the client sends in all in any
// one second (a sliding window, with a small margin), and how many it may
// send at once (burst, at least 1; a burst of perSecond or more adds no limit
// of its own). The default is [DefaultGlobalRate] per second, all at once.
// perSecond 0 turns the client's global limiter off (a global 429 still
// pauses every request). Clients sharing a token in one process keep the
// limit together when they share a store ([WithRateLimitStore]); so do
// processes sharing a store such as the Redis one.
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
	// RateLimitStoreDown: the shared rate-limit store is unavailable (it
	// could not be reached, or refused for its own state), and the client
	// keeps to a local share of the limits until it serves again (Err says
	// why). Told once per outage.
	RateLimitStoreDown
	// RateLimitStoreUp: the shared store answers again after an outage.
	RateLimitStoreUp
	// RateLimitStoreError: the store failed to record an answer or to give
	// back a slot not used (Err says why). The call goes on; the store's
	// expiry frees what it could not. Told at most once every 10 seconds.
	RateLimitStoreError
)

// String returns "wait", "hit", "store-down", "store-up" or "store-error".
func (k RateLimitEventKind) String() string {
	switch k {
	case RateLimitWait:
		return "wait"
	case RateLimitHit:
		return "hit"
	case RateLimitStoreDown:
		return "store-down"
	case RateLimitStoreUp:
		return "store-up"
	case RateLimitStoreError:
		return "store-error"
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
	// Err is why the store is unavailable (RateLimitStoreDown) or why it
	// failed (RateLimitStoreError).
	Err error
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

// WithRateLimitStore keeps the rate-limit state (route buckets, the global
// limit and pause, the count of invalid requests) in store instead of the
// client's own [shared.MemoryStore]. Clients and processes using one token
// share its limits when they share a store: one MemoryStore for clients in
// one process, the Redis store (module
// github.com/seed012df1e9/guildkit/ratelimit/redisstore) for many processes.
// The store names the token by a hash, never the token itself.
func WithRateLimitStore(store shared.Store) Option {
	return func(c *config) error {
		if store == nil {
			return fmt.Errorf("WithRateLimitStore: nil store")
		}
		c.limits.store = store
		return nil
	}
}

// WithoutRateLimiter turns the client's bucket and global limiters off, for a
// client behind a rate-limiting HTTP proxy that keeps the limits for every
// process ([WithBaseURL] is then the proxy's address). Requests are sent at
// once; a 429 the proxy passes on is still retried after the wait it names,
// and a 408 or a lost connection only for GET, HEAD, PUT and DELETE, never
// for a POST or PATCH, which may have taken effect.
func WithoutRateLimiter() Option {
	return func(c *config) error {
		c.limits.off = true
		return nil
	}
}

// InvalidRequests returns how many invalid requests (401, 403, and 429 other
// than scope "shared") the client's token made in the last 10 minutes, as its
// rate-limit store counted them: every process sharing the store counts. The
// reference platform bans an address for a while after 10,000 in 10
// minutes. It is 0 with [WithoutRateLimiter].
func (c *Client) InvalidRequests(ctx context.Context) (int, error) {
	if c.limiter == nil {
		return 0, nil
	}
	return c.limiter.InvalidRequests(ctx)
}

// withRateLimits returns a copy of hc whose transport goes through the
// client's rate-limit layer. The caller's client is not changed.
func (c *Client) withRateLimits(hc *http.Client, cfg rateLimitConfig) *http.Client {
	if cfg.off {
		return hc
	}
	maxWait := c.retry.maxRateLimitWait
	if maxWait == 0 {
		maxWait = time.Nanosecond // WithMaxRateLimitWait(0): accept no wait
	}
	rc := ratelimit.Config{
		Next:        hc.Transport,
		GlobalRate:  cfg.globalRate,
		GlobalBurst: cfg.globalBurst,
		MaxWait:     maxWait,
		Store:       cfg.store,
		Token:       shared.TokenHash(c.credentialKey()),
	}
	f := cfg.observer
	rc.Observe = func(e ratelimit.Event) {
		var kind RateLimitEventKind
		switch e.Kind {
		case ratelimit.EventWait:
			kind = RateLimitWait
		case ratelimit.EventLimited:
			kind = RateLimitHit
		case ratelimit.EventFallback:
			kind = RateLimitStoreDown
			c.logger.LogAttrs(context.Background(), slog.LevelWarn,
				"guildkit: rate-limit store unavailable; keeping a local share of the limits until it serves again",
				slog.String("error", errString(e.Err)))
		case ratelimit.EventRecovered:
			kind = RateLimitStoreUp
			c.logger.LogAttrs(context.Background(), slog.LevelWarn, "guildkit: rate-limit store answers again")
		case ratelimit.EventStoreError:
			kind = RateLimitStoreError
			c.logger.LogAttrs(context.Background(), slog.LevelWarn,
				"guildkit: rate-limit store failed to record an answer or give back a slot; told at most once every 10s",
				slog.String("error", errString(e.Err)))
		}
		if f != nil {
			// The bucket and scope are the server's text: the credential's
			// token is taken out should a proxy echo it there.
			secrets := []string{credentialToken(c.cred)}
			if st, ok := e.Call.(*attempt); ok {
				secrets = st.secrets
			}
			f(RateLimitEvent{Kind: kind, Method: e.Method, Route: e.Route, Bucket: redactText(e.Bucket, secrets),
				Scope: redactText(e.Scope, secrets), Global: e.Global, Wait: e.Wait, Err: e.Err})
		}
	}
	cp := *hc
	c.limiter = ratelimit.New(rc)
	cp.Transport = c.limiter
	return &cp
}

// credentialKey is what names the client's credential in the rate-limit
// store, before hashing: "" for none.
func (c *Client) credentialKey() string {
	if c.cred == nil {
		return ""
	}
	return c.cred.authorization()
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// limitOf returns what a 429 answer said of the limit, as the bucket layer
// parsed it on its way up; body is read only when that layer did not see the
// answer.
func limitOf(st *attempt, h http.Header, body []byte) ratelimit.Limited {
	if st.rl.Limited != nil {
		return *st.rl.Limited
	}
	return ratelimit.ParseLimited(h, body)
}

// limitOfResponse is limitOf for a 429 whose body the bucket layer did not
// read (the layer is off: [WithoutRateLimiter]); the body is read, bounded,
// and put back for the caller.
func limitOfResponse(st *attempt, resp *http.Response) ratelimit.Limited {
	if st.rl.Limited != nil {
		return *st.rl.Limited
	}
	return ratelimit.ParseLimited(resp.Header, ratelimit.ReadBack(resp))
}
