// Package ratelimit is the client's proactive rate-limit layer: an
// http.RoundTripper that keeps per-route buckets learned from the
// X-RateLimit-* headers, a global limit, and a global pause after a global
// 429, so that requests wait before they are sent instead of being refused.
//
// It sits below the retrying transport: every attempt passes through it. It
// starts no goroutine; idle buckets are dropped lazily while other requests
// are made, so memory stays bounded by the buckets in recent use.
package ratelimit

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Request describes one call to the transport, carried in the request's
// context (see [NewContext]). The transport reads the first four fields and
// fills the last three; a call's attempts run one after another, so no lock
// is needed.
type Request struct {
	Method string
	Route  string // the route template, "/guilds/{guild.id}/members/{user.id}"
	Major  string // the major parameter: guild id, channel id, or webhook id and token
	// NoWait makes a request that would have to wait for a bucket, the global
	// pause or the global limiter fail at once with a [*WaitError] instead.
	NoWait bool

	Waited time.Duration // total time this call waited in the transport
	Bucket string        // the last X-RateLimit-Bucket seen for this call
	// Limited is what the last answer said of the limit when it was a 429,
	// and nil otherwise, so the layer above need not read the body again.
	Limited *Limited
}

type requestKey struct{}

// NewContext returns ctx carrying r.
func NewContext(ctx context.Context, r *Request) context.Context {
	return context.WithValue(ctx, requestKey{}, r)
}

// FromContext returns the Request in ctx, or nil.
func FromContext(ctx context.Context) *Request {
	r, _ := ctx.Value(requestKey{}).(*Request)
	return r
}

// EventKind says what an [Event] reports.
type EventKind uint8

const (
	// EventWait: a request waited before being sent (Wait is how long).
	EventWait EventKind = iota + 1
	// EventLimited: the service answered 429 (Wait is the wait it asked for).
	EventLimited
)

// Event is reported to [Config.Observe].
type Event struct {
	Kind   EventKind
	Method string
	Route  string
	Bucket string
	Scope  string
	Global bool
	Wait   time.Duration
}

// WaitError reports a wait the transport refused to make: it would have
// outlasted the context's deadline or [Config.MaxWait], or the request asked
// not to wait. Nothing was sent.
type WaitError struct {
	Wait   time.Duration // how long the wait would have been
	Global bool          // the wait was for the global limit
	Bucket string
	Reason string
}

func (e *WaitError) Error() string {
	return "rate limit wait of " + e.Wait.String() + " refused: " + e.Reason
}

// Config configures a [Transport].
type Config struct {
	// Next sends the requests; http.DefaultTransport when nil.
	Next http.RoundTripper
	// GlobalRate is the most requests per second sent; 0 turns the global
	// limiter off. GlobalBurst is how many may be sent at once (at least 1
	// when GlobalRate is set).
	GlobalRate  float64
	GlobalBurst int
	// MaxWait is the longest wait accepted before sending; a longer one fails
	// with a WaitError. 0 means no bound but the context's.
	MaxWait time.Duration
	// IdleTTL is how long a bucket unused is kept; DefaultIdleTTL when 0.
	IdleTTL time.Duration
	// Observe, when set, is told of every 429 and every wait. It is called
	// synchronously from the request's goroutine and must be quick and safe
	// for concurrent use.
	Observe func(Event)
}

// DefaultIdleTTL is how long an unused bucket is kept by default.
const DefaultIdleTTL = 10 * time.Minute

// maxErrorBody bounds how much of a 429 body is read.
const maxErrorBody = 64 << 10

// pollInterval bounds a wait whose end depends on another request's answer,
// so that a lost wake-up costs at most this much.
const pollInterval = 250 * time.Millisecond

// Transport is the rate-limiting http.RoundTripper. Its zero value is not
// usable; make one with [New]. It is safe for concurrent use.
type Transport struct {
	next    http.RoundTripper
	global  *rate.Limiter // nil when off
	maxWait time.Duration
	idleTTL time.Duration
	observe func(Event)

	mu          sync.Mutex
	routes      map[routeKey]string   // route → bucket id learned from X-RateLimit-Bucket
	buckets     map[bucketKey]*bucket // bucket id (or route before it is known) + major → state
	globalUntil time.Time             // no request is sent before this (a global 429)
	nextSweep   time.Time
}

// New returns a Transport.
func New(cfg Config) *Transport {
	t := &Transport{
		next:    cfg.Next,
		maxWait: cfg.MaxWait,
		idleTTL: cfg.IdleTTL,
		observe: cfg.Observe,
		routes:  make(map[routeKey]string),
		buckets: make(map[bucketKey]*bucket),
	}
	if t.next == nil {
		t.next = http.DefaultTransport
	}
	if t.idleTTL <= 0 {
		t.idleTTL = DefaultIdleTTL
	}
	if cfg.GlobalRate > 0 {
		t.global = rate.NewLimiter(rate.Limit(cfg.GlobalRate), max(cfg.GlobalBurst, 1))
	}
	return t
}

// bucket is what the transport knows of one rate-limit bucket for one major
// parameter.
type bucket struct {
	key        bucketKey
	id         string // X-RateLimit-Bucket, once known
	discovered bool   // an answer has been seen
	unlimited  bool   // the last answer carried no limit headers
	limit      int
	remaining  int       // slots left in the current window, less those reserved
	resetAt    time.Time // when the current window ends; zero when not yet known
	gen        uint64    // counts windows, so a late answer from an old one is not applied to the new
	inflight   int       // reserved and not yet answered
	lastUsed   time.Time
	wake       chan struct{} // closed when the state changes; nil when nobody waits
	dead       bool          // merged into another bucket: waiters look again
}

// notify wakes the bucket's waiters; the caller holds t.mu.
func (b *bucket) notify() {
	if b.wake != nil {
		close(b.wake)
		b.wake = nil
	}
}

// waitChan returns the channel closed at the next change; the caller holds
// t.mu.
func (b *bucket) waitChan() chan struct{} {
	if b.wake == nil {
		b.wake = make(chan struct{})
	}
	return b.wake
}

// indefinite is a wait whose end is another request's answer.
const indefinite = time.Duration(-1)

// tryReserve takes a slot, returning 0, or returns how long to wait
// (indefinite when an answer must come first). The caller holds t.mu.
func (b *bucket) tryReserve(now time.Time) time.Duration {
	b.lastUsed = now
	switch {
	case !b.discovered:
		// Nothing is known yet: one request finds out the limits, the others
		// wait for its answer instead of all hitting an unknown limit.
		if b.inflight > 0 {
			return indefinite
		}
	case b.unlimited:
	default:
		if !b.resetAt.IsZero() && !now.Before(b.resetAt) {
			// The window is over: a new one with the full limit begins. Its
			// end is learned from the first answer in it.
			b.remaining = b.limit
			b.resetAt = time.Time{}
			b.gen++
		}
		if b.remaining <= 0 && b.resetAt.IsZero() && b.inflight == 0 {
			// Used up, with no end known and no answer to come (the answers
			// carried no usable headers): start over rather than wait forever.
			b.remaining = max(b.limit, 1)
			b.gen++
		}
		if b.remaining <= 0 {
			if b.resetAt.IsZero() {
				return indefinite
			}
			return b.resetAt.Sub(now)
		}
		b.remaining--
	}
	b.inflight++
	return 0
}

// ticket is one reserved slot.
type ticket struct {
	b   *bucket
	gen uint64
}

// RoundTrip waits for the request's bucket and the global limit, sends the
// request, and learns from the answer.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	info := FromContext(ctx)
	tk, err := t.acquire(ctx, info)
	if err != nil {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, err
	}
	resp, err := t.next.RoundTrip(req)
	t.finish(info, tk, resp, err)
	return resp, err
}

// acquire waits until the request may be sent and reserves its slot.
func (t *Transport) acquire(ctx context.Context, info *Request) (ticket, error) {
	var tk ticket
	for {
		t.mu.Lock()
		now := time.Now()
		t.sweep(now)
		var wait time.Duration
		var wake <-chan struct{}
		global := false
		if now.Before(t.globalUntil) {
			wait, global = t.globalUntil.Sub(now), true
		} else if info != nil {
			b := t.bucketFor(info, now)
			wait = b.tryReserve(now)
			if wait == 0 {
				tk = ticket{b, b.gen}
			} else {
				wake = b.waitChan()
				if b.id != "" {
					info.Bucket = b.id
				}
			}
		}
		t.mu.Unlock()
		if wait == 0 {
			break
		}
		if err := t.sleep(ctx, info, wait, wake, global); err != nil {
			return ticket{}, err
		}
	}
	if t.global == nil || t.global.Allow() {
		return tk, nil
	}
	r := t.global.Reserve()
	if d := r.Delay(); d > 0 {
		if err := t.sleep(ctx, info, d, nil, true); err != nil {
			r.Cancel()
			t.unreserve(tk)
			return ticket{}, err
		}
	}
	return tk, nil
}

// refuse returns a WaitError when a wait of d must not be made.
func (t *Transport) refuse(ctx context.Context, info *Request, d time.Duration, global bool) error {
	if d <= 0 {
		return nil
	}
	reason := ""
	switch dl, ok := ctx.Deadline(); {
	case info != nil && info.NoWait:
		reason = "waiting is turned off for this call"
	case t.maxWait > 0 && d > t.maxWait:
		reason = "the wait is longer than the client accepts"
	case ok && time.Until(dl) < d:
		reason = "the wait would outlast the context deadline"
	default:
		return nil
	}
	we := &WaitError{Wait: d, Global: global, Reason: reason}
	if info != nil {
		we.Bucket = info.Bucket
	}
	return we
}

// sleep waits d (or, when d is indefinite, until wake is closed), ending
// early when wake is closed or ctx is done.
func (t *Transport) sleep(ctx context.Context, info *Request, d time.Duration, wake <-chan struct{}, global bool) error {
	// A wait for another request's answer (indefinite) is not a rate limit
	// but a round trip's wait, so it is made even with NoWait.
	if d != indefinite {
		if err := t.refuse(ctx, info, d, global); err != nil {
			return err
		}
	}
	timeout := d
	if d == indefinite {
		timeout = pollInterval
	}
	start := time.Now()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	var err error
	select {
	case <-ctx.Done():
		err = ctx.Err()
	case <-timer.C:
	case <-wake:
	}
	waited := time.Since(start)
	if info != nil {
		info.Waited += waited
	}
	if t.observe != nil {
		ev := Event{Kind: EventWait, Global: global, Wait: waited}
		if info != nil {
			ev.Method, ev.Route, ev.Bucket = info.Method, info.Route, info.Bucket
		}
		t.observe(ev)
	}
	return err
}

// bucketFor returns the bucket of the request's route and major parameter,
// making it when new. The caller holds t.mu.
func (t *Transport) bucketFor(info *Request, now time.Time) *bucket {
	key := t.bucketKey(info)
	b := t.buckets[key]
	if b == nil {
		b = &bucket{key: key, lastUsed: now}
		b.id = key.id
		t.buckets[key] = b
	}
	return b
}

// routeKey names a route: method and template.
type routeKey struct{ method, route string }

func routeOf(info *Request) routeKey { return routeKey{info.Method, info.Route} }

// bucketKey names a bucket's state for one major parameter: by the bucket
// id once learned, by the route until then. Struct keys cost no allocation.
type bucketKey struct {
	id    string // learned bucket id; "" while unknown
	route routeKey
	major string
}

// bucketKey is the key of the request's bucket. The caller holds t.mu.
func (t *Transport) bucketKey(info *Request) bucketKey {
	rk := routeOf(info)
	if id := t.routes[rk]; id != "" {
		return bucketKey{id: id, major: info.Major}
	}
	return bucketKey{route: rk, major: info.Major}
}

// unreserve gives back a slot that was not used.
func (t *Transport) unreserve(tk ticket) {
	if tk.b == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	tk.b.inflight--
	if tk.gen == tk.b.gen && tk.b.discovered && !tk.b.unlimited {
		tk.b.remaining++
	}
	tk.b.notify()
}

// finish releases the slot and learns what the answer says.
func (t *Transport) finish(info *Request, tk ticket, resp *http.Response, err error) {
	if info == nil && (resp == nil || resp.StatusCode != http.StatusTooManyRequests) {
		return
	}
	var h Headers
	var lim *Limited
	if resp != nil {
		h = ParseHeaders(resp.Header)
		if resp.StatusCode == http.StatusTooManyRequests {
			l := ParseLimited(resp.Header, readBack(resp))
			lim = &l
		}
	}
	now := time.Now()
	t.mu.Lock()
	if lim != nil && lim.Global {
		if until := now.Add(lim.RetryAfter); until.After(t.globalUntil) {
			t.globalUntil = until
		}
	}
	if info != nil {
		info.Limited = lim
	}
	if b := tk.b; b != nil {
		b.inflight--
		switch {
		case resp == nil:
			// No answer: give the slot back unless the window moved on. A
			// request that did reach the service costs at most one 429.
			if tk.gen == b.gen && b.discovered && !b.unlimited {
				b.remaining++
			}
		default:
			t.learn(info, b, tk.gen, h, lim, now)
		}
		b.notify()
		if h.Bucket != "" {
			info.Bucket = h.Bucket
		} else if b.id != "" {
			info.Bucket = b.id
		}
	}
	t.mu.Unlock()
	if lim != nil && t.observe != nil {
		ev := Event{Kind: EventLimited, Global: lim.Global, Bucket: lim.Bucket, Scope: lim.Scope, Wait: lim.RetryAfter}
		if info != nil {
			ev.Method, ev.Route = info.Method, info.Route
		}
		t.observe(ev)
	}
}

// learn applies an answer's headers to the bucket. The caller holds t.mu.
func (t *Transport) learn(info *Request, b *bucket, gen uint64, h Headers, lim *Limited, now time.Time) {
	defer func() { b.notify() }() // b may become the bucket merged into
	if h.Bucket != "" {
		rk := routeOf(info)
		if t.routes[rk] != h.Bucket {
			t.routes[rk] = h.Bucket
		}
		if b.id != h.Bucket {
			b = t.rekey(b, h.Bucket, info.Major)
			gen = b.gen
		}
	}
	b.lastUsed = now
	if lim != nil && (lim.Global || lim.Scope == "shared") {
		// Not this bucket's limit: the global pause covers the first, and a
		// shared limit does not count against the bucket. Nothing is learned,
		// so an unknown bucket stays unknown and is probed again.
		return
	}
	first := !b.discovered
	b.discovered = true
	if lim != nil {
		// The bucket is used up until the wait the service asked for.
		if h.Limited {
			b.limit = h.Limit
		}
		b.limit = max(b.limit, 1)
		b.unlimited = false
		b.remaining = 0
		if until := now.Add(lim.RetryAfter); until.After(b.resetAt) {
			b.resetAt = until
		}
		return
	}
	if !h.Limited {
		if first {
			b.unlimited = true
		}
		return
	}
	b.unlimited = false
	b.limit = h.Limit
	if gen != b.gen && !first {
		// An answer from a window already over says nothing of this one.
		return
	}
	if first {
		b.remaining = h.Remaining
	} else {
		b.remaining = min(b.remaining, h.Remaining)
	}
	if h.HasReset {
		if until := now.Add(h.ResetAfter); until.After(b.resetAt) {
			b.resetAt = until
		}
	} else if b.resetAt.IsZero() {
		// No usable reset: assume a second, the platform's usual window.
		b.resetAt = now.Add(time.Second)
	}
}

// rekey moves b under the bucket id the service named, or merges it into the
// bucket already there (another route sharing the bucket). It returns the
// bucket that now holds the state. The caller holds t.mu.
func (t *Transport) rekey(b *bucket, id, major string) *bucket {
	key := bucketKey{id: id, major: major}
	if t.buckets[b.key] == b {
		delete(t.buckets, b.key)
	}
	other := t.buckets[key]
	if other == nil || other == b {
		b.key, b.id = key, id
		t.buckets[key] = b
		return b
	}
	// Another route already uses this bucket: its state is the truth. The
	// requests still in flight on b count against it.
	b.dead = true
	b.notify()
	if other.discovered && !other.unlimited {
		other.remaining = max(other.remaining-b.inflight, 0)
	}
	return other
}

// sweep drops buckets unused for the idle TTL, at most once per TTL, so the
// map holds only buckets in recent use. The caller holds t.mu.
func (t *Transport) sweep(now time.Time) {
	if now.Before(t.nextSweep) {
		return
	}
	t.nextSweep = now.Add(t.idleTTL)
	for k, b := range t.buckets {
		// A request waiting on a bucket refreshes lastUsed each time it
		// looks, and one waiting for a reset keeps resetAt ahead.
		if b.inflight == 0 && now.Sub(b.lastUsed) >= t.idleTTL && !now.Before(b.resetAt) {
			delete(t.buckets, k)
		}
	}
}

// Len returns how many buckets are held, for tests of the memory bound.
func (t *Transport) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.buckets)
}

// readBack reads a 429 body (bounded) and puts it back for the next reader.
func readBack(resp *http.Response) []byte {
	if resp.Body == nil {
		return nil
	}
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(raw))
	return raw
}

// IsWaitError reports whether err is or wraps a *WaitError.
func IsWaitError(err error) bool {
	var we *WaitError
	return errors.As(err, &we)
}

// CloseIdleConnections closes the idle connections of the transport below,
// so http.Client.CloseIdleConnections works through this one.
func (t *Transport) CloseIdleConnections() {
	if c, ok := t.next.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}
