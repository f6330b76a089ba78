// Package ratelimit is the client's proactive rate-limit layer: an
// http.RoundTripper that keeps per-route buckets learned from the
// X-RateLimit-* headers, a global limit, and a global pause after a global
// 429, so that requests wait before they are sent instead of being refused.
// The state lives in a store (the public package ratelimit): in memory by
// default, or shared by many processes.
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
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"

	shared "github.com/seed012df1e9/guildkit/ratelimit"
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
	// NoGlobal exempts the request from the global limit and the global
	// pause (interaction routes); its bucket still applies.
	NoGlobal bool

	Waited time.Duration // total time this call waited in the transport
	Bucket string        // the last X-RateLimit-Bucket seen for this call
	// Limited is what the last answer said of the limit when it was a 429,
	// and nil otherwise, so the layer above need not read the body again.
	Limited *Limited

	// Call is the caller's own record of the call, opaque to this package:
	// it rides in the one context value the call carries, so the layers
	// above need no context value of their own.
	Call any

	// res and obs are the call's business with the store; they live here so
	// that an attempt allocates nothing of its own.
	res   shared.Reservation
	obs   shared.Observation
	ready bool // res's request fields are set
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
	// EventFallback: the shared store could not be reached and a local limit
	// stands in for it (Err says why). Reported once per outage.
	EventFallback
	// EventRecovered: the shared store answers again.
	EventRecovered
	// EventStoreError: the store failed to record an answer or to give a
	// slot back (Err says why). Reported at most once every
	// [StoreErrorEvery].
	EventStoreError
)

// StoreErrorEvery is the least time between two EventStoreError reports:
// a store failing every call is told of, not a flood.
const StoreErrorEvery = 10 * time.Second

// Event is reported to [Config.Observe].
type Event struct {
	Kind   EventKind
	Method string
	Route  string
	Bucket string
	Scope  string
	Global bool
	Wait   time.Duration
	Err    error // for EventFallback and EventStoreError
	// Call is the Request's Call, for the observer to know the call by.
	Call any
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
	// Store holds the state; a new MemoryStore when nil.
	Store shared.Store
	// Token names the credential in the store ([shared.TokenHash]).
	Token string
	// GlobalRate is the most requests sent in any one second; 0 turns the
	// global limit off. GlobalBurst is how many may be sent at once; a burst
	// of at least the rate adds nothing to the one-second window.
	GlobalRate  float64
	GlobalBurst int
	// MaxWait is the longest wait accepted before sending; a longer one fails
	// with a WaitError. 0 means no bound but the context's.
	MaxWait time.Duration
	// IdleTTL is how long a bucket unused is kept in the default store;
	// DefaultIdleTTL when 0.
	IdleTTL time.Duration
	// Observe, when set, is told of every 429 and every wait. It is called
	// synchronously from the request's goroutine and must be quick and safe
	// for concurrent use.
	Observe func(Event)
}

// DefaultIdleTTL is how long an unused bucket is kept by default.
const DefaultIdleTTL = shared.DefaultIdleTTL

// maxErrorBody bounds how much of a 429 body is read.
const maxErrorBody = 64 << 10

// Transport is the rate-limiting http.RoundTripper. Its zero value is not
// usable; make one with [New]. It is safe for concurrent use.
type Transport struct {
	next    http.RoundTripper
	store   shared.Store
	memory  *shared.MemoryStore // store, when it is the default
	token   string
	global  shared.GlobalLimit
	burst   *rate.Limiter // nil unless the burst is below the rate
	maxWait time.Duration
	observe func(Event)

	epoch atomic.Uint64 // the latest store epoch seen (see shared.Reservation.Epoch)
	// nextStoreError is when a store error may be reported again (Unix ns).
	nextStoreError atomic.Int64
	// lastMajor is the last two-part major parameter (an id and a token)
	// and its key, so that the calls of one webhook or interaction hash its
	// token once.
	lastMajor atomic.Pointer[[2]string]
}

// New returns a Transport.
func New(cfg Config) *Transport {
	t := &Transport{
		next:    cfg.Next,
		store:   cfg.Store,
		token:   cfg.Token,
		maxWait: cfg.MaxWait,
		observe: cfg.Observe,
		global:  shared.SlidingWindow(cfg.GlobalRate),
	}
	if t.next == nil {
		t.next = http.DefaultTransport
	}
	if t.token == "" {
		t.token = shared.TokenHash("")
	}
	if t.store == nil {
		t.memory = shared.NewMemoryStore(shared.MemoryOptions{IdleTTL: cfg.IdleTTL})
		t.store = t.memory
	}
	if cfg.GlobalRate > 0 && cfg.GlobalBurst < t.global.Limit {
		t.burst = rate.NewLimiter(rate.Limit(cfg.GlobalRate), max(cfg.GlobalBurst, 1))
	}
	return t
}

// RoundTrip waits for the request's bucket and the global limit, sends the
// request, and learns from the answer.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	info := FromContext(ctx)
	if info == nil {
		// Not a call of the client: only the global limits apply.
		info = &Request{Method: req.Method}
	}
	if !info.ready {
		info.res = shared.Reservation{
			Token: t.token, Method: info.Method, Route: info.Route,
			Major: t.majorKey(info.Major), Global: t.global,
		}
		if info.NoGlobal {
			info.res.Global = shared.GlobalLimit{}
			info.res.NoGlobalPause = true
		}
		info.ready = true
	}
	if err := t.acquire(ctx, info); err != nil {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, err
	}
	resp, err := t.next.RoundTrip(req)
	t.finish(ctx, info, resp)
	return resp, err
}

// majorKey is the major parameter as the store keys it: the token of a
// two-part major (an id and a token: webhook and interaction routes) is
// replaced by its hash.
func (t *Transport) majorKey(major string) string {
	if !strings.Contains(major, "/") {
		return major
	}
	if last := t.lastMajor.Load(); last != nil && last[0] == major {
		return last[1]
	}
	id, tok, ok := strings.Cut(major, "/")
	if !ok {
		return major
	}
	key := id + "/" + shared.SecretHash(tok)
	t.lastMajor.Store(&[2]string{major, key})
	return key
}

// acquire waits until the request may be sent and reserves its slot.
func (t *Transport) acquire(ctx context.Context, info *Request) error {
	res := &info.res
	for {
		if err := t.store.Reserve(ctx, res); err != nil {
			return err
		}
		t.noteFallback(res)
		if res.Bucket != "" {
			info.Bucket = res.Bucket
		}
		if res.Wait <= 0 {
			break
		}
		if err := t.sleep(ctx, info, res.Wait, res.Wake, res.GlobalWait, res.Pending); err != nil {
			return err
		}
	}
	if t.burst == nil || info.NoGlobal || t.burst.Allow() {
		return nil
	}
	r := t.burst.Reserve()
	if d := r.Delay(); d > 0 {
		if err := t.sleep(ctx, info, d, nil, true, false); err != nil {
			r.Cancel()
			t.storeFailed(info, t.store.Release(ctx, res))
			return err
		}
	}
	return nil
}

// noteFallback tells the observer when the store starts or stops answering
// from its fallback: once per change, however many reservations cross it.
// An outage this process's reservations never met (the epoch moves from one
// "up" to a later one, or from one "down" to a later one) changes nothing
// the observer was told, so it is not reported: Down and Up alternate.
func (t *Transport) noteFallback(res *shared.Reservation) {
	e := res.Epoch
	var last uint64
	for {
		last = t.epoch.Load()
		if e <= last {
			return
		}
		if t.epoch.CompareAndSwap(last, e) {
			break
		}
	}
	if t.observe == nil || e%2 == last%2 {
		return
	}
	ev := Event{Kind: EventRecovered}
	if e%2 == 1 {
		ev = Event{Kind: EventFallback, Err: res.FallbackErr}
	}
	t.observe(ev)
}

// storeFailed reports a store's error in recording an answer or giving a
// slot back, at most once every StoreErrorEvery. The call goes on: the
// answer is in, and the store's TTLs free what it could not.
func (t *Transport) storeFailed(info *Request, err error) {
	if err == nil || t.observe == nil {
		return
	}
	now := time.Now().UnixNano()
	next := t.nextStoreError.Load()
	if now < next || !t.nextStoreError.CompareAndSwap(next, now+int64(StoreErrorEvery)) {
		return
	}
	t.observe(Event{Kind: EventStoreError, Err: err, Method: info.Method, Route: info.Route, Bucket: info.Bucket, Call: info.Call})
}

// refuse returns a WaitError when a wait of d must not be made.
func (t *Transport) refuse(ctx context.Context, info *Request, d time.Duration, global bool) error {
	if d <= 0 {
		return nil
	}
	reason := ""
	switch dl, ok := ctx.Deadline(); {
	case info.NoWait:
		reason = "waiting is turned off for this call"
	case t.maxWait > 0 && d > t.maxWait:
		reason = "the wait is longer than the client accepts"
	case ok && time.Until(dl) < d:
		reason = "the wait would outlast the context deadline"
	default:
		return nil
	}
	return &WaitError{Wait: d, Global: global, Bucket: info.Bucket, Reason: reason}
}

// sleep waits d, ending early when wake is closed or ctx is done.
func (t *Transport) sleep(ctx context.Context, info *Request, d time.Duration, wake <-chan struct{}, global, pending bool) error {
	// A wait for another request's answer (pending) is not a rate limit
	// but a round trip's wait, so it is made even with NoWait.
	if !pending {
		if err := t.refuse(ctx, info, d, global); err != nil {
			return err
		}
	}
	start := time.Now()
	timer := time.NewTimer(d)
	defer timer.Stop()
	var err error
	select {
	case <-ctx.Done():
		err = ctx.Err()
	case <-timer.C:
	case <-wake:
	}
	waited := time.Since(start)
	info.Waited += waited
	if t.observe != nil {
		t.observe(Event{Kind: EventWait, Global: global, Wait: waited, Method: info.Method, Route: info.Route, Bucket: info.Bucket, Call: info.Call})
	}
	return err
}

// finish ends the reservation with what the answer says.
func (t *Transport) finish(ctx context.Context, info *Request, resp *http.Response) {
	o := &info.obs
	*o = shared.Observation{}
	info.Limited = nil
	if resp != nil {
		h := ParseHeaders(resp.Header)
		o.Status = resp.StatusCode
		o.Limited, o.Limit, o.Remaining = h.Limited, h.Limit, h.Remaining
		o.ResetAfter, o.HasReset, o.Bucket = h.ResetAfter, h.HasReset, h.Bucket
		if resp.StatusCode == http.StatusTooManyRequests {
			l := ParseLimited(resp.Header, ReadBack(resp))
			info.Limited = &l
			o.RetryAfter, o.Global, o.Scope = l.RetryAfter, l.Global, l.Scope
		}
	}
	// The answer is in: a store finishes this even when ctx is done.
	t.storeFailed(info, t.store.Observe(ctx, &info.res, o))
	if o.Bucket != "" {
		info.Bucket = o.Bucket
	} else if info.res.Bucket != "" {
		info.Bucket = info.res.Bucket
	}
	if lim := info.Limited; lim != nil && t.observe != nil {
		t.observe(Event{Kind: EventLimited, Global: lim.Global, Bucket: lim.Bucket, Scope: lim.Scope, Wait: lim.RetryAfter, Method: info.Method, Route: info.Route, Call: info.Call})
	}
}

// Len returns how many buckets the default store holds, for tests of the
// memory bound; 0 with another store.
func (t *Transport) Len() int {
	if t.memory == nil {
		return 0
	}
	return t.memory.Len()
}

// InvalidRequests returns the store's count of the token's invalid requests
// in the last 10 minutes.
func (t *Transport) InvalidRequests(ctx context.Context) (int, error) {
	return t.store.InvalidRequests(ctx, t.token)
}

// ReadBack reads a 429 body (bounded) and puts it back for the next reader.
func ReadBack(resp *http.Response) []byte {
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
