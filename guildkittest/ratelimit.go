package guildkittest

import (
	"encoding/json"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Rate limits. The server enforces the limits its options set, the way the
// reference platform does: each answer on a limited route carries
// X-RateLimit-Limit, -Remaining, -Reset (Unix seconds), -Reset-After
// (seconds, to the millisecond, rounded up) and -Bucket; a request over a
// route's limit gets 429 with X-RateLimit-Scope: user, Retry-After and the
// body {"message", "retry_after", "global": false}; a request over the
// global limit gets 429 with X-RateLimit-Global: true, X-RateLimit-Scope:
// global and "global": true. A route's window opens at its first request and
// lasts the limit's period; it is counted per major parameter (guild id,
// channel id, or webhook id and token). The global limit is counted as
// [WithGlobalWindow] says: a token bucket by default, or fixed or sliding
// windows. A rate-limited request has no effect, is recorded in
// [Server.Requests] with status 429, and is counted by [Server.RateLimited].

// rateLimits is the server's rate-limit state; it has its own lock, so a
// handler holding s.mu never waits for it.
type rateLimits struct {
	mu      sync.Mutex
	routes  map[string]routeLimit // "GET /guilds/{guild.id}" → limit
	other   routeLimit            // every other route's limit; n == 0 when none: WithDefaultRouteLimit
	windows map[string]*window    // route + major → current window
	global  *tokenBucket
	mode    GlobalWindow
	fixed   window      // the current global window (FixedWindow)
	served  []time.Time // the last n requests served, a ring (SlidingWindow)
	next    int
	inject  atomic.Int64 // the next request gets a global 429 with this wait (ns)
	latency time.Duration

	byBucket      map[string]int // 429s of a route's limit, by bucket id and major
	limitedGlobal atomic.Int64

	limited  atomic.Int64
	inflight atomic.Int64
	peak     atomic.Int64
}

type routeLimit struct {
	n      int
	per    time.Duration
	bucket string
}

type window struct {
	start time.Time
	count int
}

type tokenBucket struct {
	rate   float64 // tokens per second
	burst  float64
	tokens float64
	last   time.Time
	n      int
	per    time.Duration
}

// GlobalWindow is how the server counts its global limit of n requests per
// period ([WithGlobalLimit]).
type GlobalWindow uint8

const (
	// TokenBucket: n per period on average, at most n at once. A client
	// that sends n at once and then one every period/n keeps to it.
	TokenBucket GlobalWindow = iota
	// FixedWindow: at most n in each window, a window opening at the first
	// request after the last one ended and lasting the period: the
	// reference platform's observable behaviour. Up to 2n may arrive in one
	// period that spans two windows.
	FixedWindow
	// SlidingWindow: at most n in any span of one period: the strictest.
	SlidingWindow
)

// String returns "token-bucket", "fixed-window" or "sliding-window".
func (g GlobalWindow) String() string {
	switch g {
	case TokenBucket:
		return "token-bucket"
	case FixedWindow:
		return "fixed-window"
	case SlidingWindow:
		return "sliding-window"
	}
	return "GlobalWindow(" + strconv.Itoa(int(g)) + ")"
}

// WithGlobalWindow sets how the global limit is counted; the default is
// [TokenBucket]. It has no effect without [WithGlobalLimit].
func WithGlobalWindow(g GlobalWindow) Option {
	return func(s *Server) { s.limits.mode = g }
}

// InjectGlobalLimit makes the server answer the next request with a global
// 429 asking for a wait of d, whatever the limits, as a fault for tests: the
// request has no effect. It does not refuse the requests after it.
func (s *Server) InjectGlobalLimit(d time.Duration) {
	s.limits.inject.Store(int64(max(d, time.Millisecond)))
}

// GlobalRateLimited returns how many global 429 answers the server has
// served ([Server.RateLimited] counts them too).
func (s *Server) GlobalRateLimited() int { return int(s.limits.limitedGlobal.Load()) }

// RateLimitedByBucket returns how many 429 answers each route bucket has
// served, keyed by its X-RateLimit-Bucket and major parameter
// ("bucket/major"); global 429s are not in it.
func (s *Server) RateLimitedByBucket() map[string]int {
	s.limits.mu.Lock()
	defer s.limits.mu.Unlock()
	out := make(map[string]int, len(s.limits.byBucket))
	for k, v := range s.limits.byBucket {
		out[k] = v
	}
	return out
}

// globalWait returns how long until the global limit admits one more
// request at now, or 0. The caller holds l.mu.
func (l *rateLimits) globalWait(now time.Time) time.Duration {
	g := l.global
	switch l.mode {
	case FixedWindow:
		if l.fixed.start.IsZero() || !now.Before(l.fixed.start.Add(g.per)) {
			l.fixed = window{start: now}
		}
		if l.fixed.count >= g.n {
			return l.fixed.start.Add(g.per).Sub(now)
		}
		return 0
	case SlidingWindow:
		if len(l.served) != g.n {
			l.served, l.next = make([]time.Time, g.n), 0
		}
		oldest := l.served[l.next]
		if !oldest.IsZero() && now.Before(oldest.Add(g.per)) {
			return oldest.Add(g.per).Sub(now)
		}
		return 0
	}
	g.tokens = math.Min(g.burst, g.tokens+now.Sub(g.last).Seconds()*g.rate)
	g.last = now
	if g.tokens < 1 {
		return time.Duration((1 - g.tokens) / g.rate * float64(time.Second))
	}
	return 0
}

// takeGlobal counts a request served at now. The caller holds l.mu.
func (l *rateLimits) takeGlobal(now time.Time) {
	switch l.mode {
	case FixedWindow:
		l.fixed.count++
	case SlidingWindow:
		l.served[l.next] = now
		l.next = (l.next + 1) % len(l.served)
	default:
		l.global.tokens--
	}
}

// WithRouteLimit limits route, given as the method and the interface's
// template ("GET /guilds/{guild.id}"), to n requests per period for each
// major parameter. Each limited route is its own bucket. It panics when n < 1
// or per <= 0.
func WithRouteLimit(route string, n int, per time.Duration) Option {
	if n < 1 || per <= 0 {
		panic("guildkittest: WithRouteLimit: need n >= 1 and per > 0")
	}
	return func(s *Server) {
		if s.limits.routes == nil {
			s.limits.routes = make(map[string]routeLimit)
		}
		method, tmpl, _ := strings.Cut(route, " ")
		key := strings.ToUpper(method) + " " + tmpl
		s.limits.routes[key] = routeLimit{n: n, per: per, bucket: bucketID(key)}
	}
}

// WithDefaultRouteLimit limits every route [WithRouteLimit] does not name
// to n requests per period for each major parameter, each route its own
// bucket, so that every answer carries X-RateLimit-* bucket headers, as the
// reference platform sends them on every route. The standalone emulator
// sets a roomy one (1000 a second) by default, so a bucket-aware client
// exercises its bucket code without being slowed. It panics when n < 1 or
// per <= 0.
func WithDefaultRouteLimit(n int, per time.Duration) Option {
	if n < 1 || per <= 0 {
		panic("guildkittest: WithDefaultRouteLimit: need n >= 1 and per > 0")
	}
	return func(s *Server) { s.limits.other = routeLimit{n: n, per: per} }
}

// maxWindows bounds the route windows kept at once (one per route and
// major parameter): past it, the ended ones are dropped, and if all are
// still open, all are, so ids made up by a client cannot grow the map
// without end.
const maxWindows = 1 << 14

// WithGlobalLimit limits every request to n per period on average, at most n
// at once, as the platform's global limit (50 per second per bot). It panics
// when n < 1 or per <= 0.
func WithGlobalLimit(n int, per time.Duration) Option {
	if n < 1 || per <= 0 {
		panic("guildkittest: WithGlobalLimit: need n >= 1 and per > 0")
	}
	return func(s *Server) {
		s.limits.global = &tokenBucket{rate: float64(n) / per.Seconds(), burst: float64(n), tokens: float64(n), n: n, per: per}
	}
}

// WithLatency delays every answer by d, as a distant service would. The
// delay is spent before the request takes the server's lock, so requests
// in flight overlap, and it ends early when the client gives up.
func WithLatency(d time.Duration) Option {
	return func(s *Server) { s.limits.latency = d }
}

// RateLimited returns how many 429 answers the server has served.
func (s *Server) RateLimited() int { return int(s.limits.limited.Load()) }

// PeakConcurrency returns the most requests the server has had in flight at
// once (counting the latency set with [WithLatency]).
func (s *Server) PeakConcurrency() int { return int(s.limits.peak.Load()) }

// bucketID makes the X-RateLimit-Bucket of a route: opaque, stable, short.
func bucketID(key string) string {
	var h uint64 = 14695981039346656037 // FNV-1a
	for i := 0; i < len(key); i++ {
		h ^= uint64(key[i])
		h *= 1099511628211
	}
	return strconv.FormatUint(h, 16)
}

// admit runs before a route's handler: it counts the request in flight,
// waits the latency, and enforces the limits. When it reports false it has
// answered 429. release must be called when the request ends.
func (s *Server) admit(w http.ResponseWriter, r *http.Request, route string) (release func(), ok bool) {
	l := &s.limits
	n := l.inflight.Add(1)
	for {
		p := l.peak.Load()
		if n <= p || l.peak.CompareAndSwap(p, n) {
			break
		}
	}
	release = func() { l.inflight.Add(-1) }
	if l.latency > 0 {
		t := time.NewTimer(l.latency)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			w.WriteHeader(http.StatusServiceUnavailable)
			return release, false
		}
	}
	if l.global == nil && len(l.routes) == 0 && l.other.n == 0 && l.inject.Load() == 0 {
		return release, true
	}
	key := r.Method + " " + route
	rl, limited := l.routes[key]
	if !limited && l.other.n > 0 {
		rl, limited = l.other, true
		rl.bucket = bucketID(key)
	}

	l.mu.Lock()
	// The time is read under the lock, so that the requests are counted in
	// the order of their times. It is the server's clock ([WithClock],
	// [Server.AdvanceClock]), so a test can step through a window.
	now := s.now()
	var win *window
	if limited {
		wk := key + "\x00" + majorOf(r, route)
		if l.windows == nil {
			l.windows = make(map[string]*window)
		}
		win = l.windows[wk]
		if win == nil || !now.Before(win.start.Add(rl.per)) {
			if win == nil && len(l.windows) >= maxWindows {
				l.pruneWindows(now)
			}
			win = &window{start: now}
			l.windows[wk] = win
		}
	}
	globalWait := time.Duration(0)
	if d := l.inject.Swap(0); d > 0 {
		globalWait = time.Duration(d)
	} else if l.global != nil && !globalExempt(route) {
		globalWait = l.globalWait(now)
	}
	routeFull := win != nil && win.count >= rl.n
	if globalWait == 0 && !routeFull {
		if l.global != nil && !globalExempt(route) {
			l.takeGlobal(now)
		}
		if win != nil {
			win.count++
		}
	} else if globalWait == 0 {
		if l.byBucket == nil {
			l.byBucket = make(map[string]int)
		}
		l.byBucket[rl.bucket+"/"+majorOf(r, route)]++
	}
	var remaining int
	var resetAfter time.Duration
	if win != nil {
		remaining = rl.n - win.count
		resetAfter = win.start.Add(rl.per).Sub(now)
	}
	l.mu.Unlock()

	h := w.Header()
	if win != nil {
		h.Set("X-RateLimit-Limit", strconv.Itoa(rl.n))
		h.Set("X-RateLimit-Remaining", strconv.Itoa(remaining))
		h.Set("X-RateLimit-Reset", strconv.FormatFloat(float64(now.Add(resetAfter).UnixMilli())/1000, 'f', 3, 64))
		h.Set("X-RateLimit-Reset-After", secondsString(resetAfter))
		h.Set("X-RateLimit-Bucket", rl.bucket)
	}
	switch {
	case globalWait > 0:
		s.limits.limitedGlobal.Add(1)
		h.Set("X-RateLimit-Global", "true")
		h.Set("X-RateLimit-Scope", "global")
		s.tooMany(w, r, route, globalWait, true)
		return release, false
	case routeFull:
		h.Set("X-RateLimit-Scope", "user")
		s.tooMany(w, r, route, resetAfter, false)
		return release, false
	}
	return release, true
}

// pruneWindows drops the route windows that have ended at now, and all of
// them when none has. The caller holds l.mu.
func (l *rateLimits) pruneWindows(now time.Time) {
	longest := l.other.per
	for _, rl := range l.routes {
		longest = max(longest, rl.per)
	}
	for k, w := range l.windows {
		if !now.Before(w.start.Add(longest)) {
			delete(l.windows, k)
		}
	}
	if len(l.windows) >= maxWindows {
		clear(l.windows)
	}
}

// tooMany answers 429 and records it.
func (s *Server) tooMany(w http.ResponseWriter, r *http.Request, route string, wait time.Duration, global bool) {
	s.limits.limited.Add(1)
	w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusTooManyRequests)
	ra, _ := strconv.ParseFloat(secondsString(wait), 64)
	_ = json.NewEncoder(w).Encode(map[string]any{
		"message": "You are being rate limited.", "retry_after": ra, "global": global,
	})
	s.record(r, route, nil, http.StatusTooManyRequests)
}

// secondsString formats d in seconds to the millisecond, rounded up, so a
// client waiting that long never comes back early.
func secondsString(d time.Duration) string {
	ms := (d + time.Millisecond - 1) / time.Millisecond
	return strconv.FormatFloat(float64(ms)/1000, 'f', 3, 64)
}

// majorOf returns the request's major parameter, by which route limits are
// counted separately.
func majorOf(r *http.Request, route string) string {
	switch {
	case strings.HasPrefix(route, "/guilds/{guild.id}"):
		return r.PathValue("guild_id")
	case strings.HasPrefix(route, "/channels/{channel.id}"):
		return r.PathValue("channel_id")
	case strings.HasPrefix(route, "/webhooks/{webhook.id}/{webhook.token}"):
		return r.PathValue("webhook_id") + "/" + r.PathValue("webhook_token")
	case strings.HasPrefix(route, "/webhooks/{webhook.id}"):
		return r.PathValue("webhook_id")
	}
	return ""
}
