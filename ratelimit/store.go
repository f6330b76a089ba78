// Package ratelimit holds the state of guildkit's rate limiter behind an
// interface, [Store], so that many processes using one token can share it.
//
// The reference platform's limits belong to the token, not to a process: a
// route's bucket (X-RateLimit-Bucket, counted per major parameter), the
// global limit of 50 requests per second, the global pause after a 429 with
// "global": true, and the count of invalid requests (401, 403, and 429 other
// than scope "shared") that gets an address banned for a while when it
// passes 10,000 in 10 minutes. A process alone cannot keep those limits
// when others send with the same token; a Store they all use can.
//
// Every Store operation is one atomic step in the store: [Store.Reserve]
// takes a slot (or says how long to wait), [Store.Observe] merges what an
// answer said, and [Store.Release] gives back a slot or a discovery claim
// that was not used. No lock is held between two operations, so requests in
// one bucket overlap as far as the bucket allows.
//
// [MemoryStore] is the default: one process's state, in memory. The Redis
// store lives in its own module, github.com/seed012df1e9/guildkit/ratelimit/redisstore,
// so that programs that do not use it do not depend on a Redis client. The
// package storetest checks that a Store behaves as this package says.
//
// Keys never carry a token: the client names a token by [TokenHash], and a
// major parameter that holds a webhook token by [SecretHash].
package ratelimit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"time"
)

// Store is the shared state of the rate limiter. Implementations must be
// safe for concurrent use, and each method must be one atomic step: two
// processes calling Reserve at once never both take the last slot.
type Store interface {
	// Reserve takes a slot in r's bucket and in r's global limit, both or
	// neither. When it cannot, it sets r.Wait to how long to wait before
	// asking again (and the reason: r.GlobalWait, r.Pending) and holds
	// nothing. A request that got a slot must end it with Observe or
	// Release. An error means the store could not answer at all.
	Reserve(ctx context.Context, r *Reservation) error
	// Observe ends r's reservation with what the answer said: it merges the
	// bucket's headers (in one window the lower remaining and the later reset
	// win), learns the route's bucket id, starts the global pause after a
	// global 429, and counts invalid requests. It may be called without a
	// slot held (for a request the store never saw). Observe and Release
	// finish their work even when ctx is already done: the answer is in, and
	// a slot must not stay held for it.
	Observe(ctx context.Context, r *Reservation, o *Observation) error
	// Release gives back r's slot, or its discovery claim, unused: the
	// request was not sent, or got no answer.
	Release(ctx context.Context, r *Reservation) error
	// InvalidRequests returns how many invalid requests (401, 403, and 429
	// other than scope "shared") the token made in the last 10 minutes.
	InvalidRequests(ctx context.Context, token string) (int, error)
}

// Reservation is one request's business with a [Store], from Reserve to the
// Observe or Release that ends it. The caller sets the first fields; the
// store sets the others.
type Reservation struct {
	// Token names the credential: [TokenHash] of it, never the token.
	Token  string
	Method string
	// Route is the route template ("/guilds/{guild.id}"); "" for a request
	// that has no bucket (only the global limits apply).
	Route string
	// Major is the major parameter (guild id, channel id, webhook id, or
	// webhook id and [SecretHash] of its token).
	Major string
	// Global is the global limit to keep; a zero Limit keeps none (the global
	// pause still applies unless NoGlobalPause).
	Global GlobalLimit
	// NoGlobalPause exempts the request from the global pause after a global
	// 429: interaction routes, which the reference platform does not hold to
	// the global limit, and whose answers are due within 3 seconds.
	NoGlobalPause bool

	// Wait is 0 when a slot was taken; otherwise how long to wait before
	// calling Reserve again.
	Wait time.Duration
	// GlobalWait reports that Wait is for the global pause or the global
	// limit, not the bucket.
	GlobalWait bool
	// Pending reports that Wait is for another request's answer (the one
	// finding out an unknown bucket's limits), not for a limit: Wait is then
	// only how often to look again.
	Pending bool
	// Bucket is the bucket id the service named for this route, when known.
	Bucket string
	// Wake, when not nil, is closed when the bucket's state changes, so a
	// waiter may look again before Wait is over. In-process stores set it.
	Wake <-chan struct{}
	// Fallback reports that the answer came from a local stand-in because
	// the shared store could not be reached; FallbackErr says why.
	Fallback    bool
	FallbackErr error
	// Epoch orders the store's changes between itself and its fallback, so
	// that reservations made concurrently across a change are not taken for
	// another change: it grows by one at each change, and is odd while the
	// fallback answers. A store without a fallback leaves it 0.
	Epoch uint64

	// Ticket is what the store keeps from Reserve to Observe or Release.
	Ticket Ticket
}

// Ticket is a store's record of what a [Reservation] holds. Callers leave it
// alone; stores use the fields they need.
type Ticket struct {
	Held  bool   // a slot or a discovery claim is held
	Claim bool   // the slot is the claim to find out an unknown bucket
	Key   string // the bucket's key in the store
	Gen   int64  // the bucket's window when the slot was taken
	Slot  int64  // the send's entry in the global window
	At    int64  // when that entry was made (store's clock, ns)
	Local any    // an in-process store's own record
}

// GlobalLimit is a limit on every request of a token: at most Limit sends
// in any window of Window. Window includes Margin, the allowance for the
// time a request takes to reach the service (see [SlidingWindow]).
//
// A send is counted from when its slot was reserved. When its answer comes
// back later than Margin after that, the send is counted from the answer,
// less Margin, instead: the request reached the service at the latest when
// it answered, so a slow request keeps its place in the window for as long
// as the service may count it.
type GlobalLimit struct {
	Limit  int
	Window time.Duration
	Margin time.Duration
}

// DefaultMargin is added to a one-second global window so that requests
// sent at most Limit per window still arrive at most Limit per window when
// the time they take to travel varies by less than this. Other windows get
// the same share of their length (2%).
const DefaultMargin = 20 * time.Millisecond

// maxGlobalLog bounds the sends a global window remembers: a higher rate is
// kept over a shorter window.
const maxGlobalLog = 4096

// SlidingWindow returns the global limit of perSecond requests in any
// second, with the margin: for a whole number up to 4096 the window is one
// second plus [DefaultMargin]. A rate under 1 allows one request per
// 1/perSecond seconds; a higher rate is kept as 4096 requests in the time
// they take at that rate. perSecond <= 0 gives the zero limit (none).
func SlidingWindow(perSecond float64) GlobalLimit {
	if !(perSecond > 0) {
		return GlobalLimit{}
	}
	n := int(min(max(perSecond, 1), maxGlobalLog))
	w := time.Duration(float64(n) / perSecond * float64(time.Second))
	m := w/time.Second*DefaultMargin + (w%time.Second)*DefaultMargin/time.Second
	return GlobalLimit{Limit: n, Window: w + m, Margin: m}
}

// Observation is what an answer said, for [Store.Observe].
type Observation struct {
	// Status is the answer's status code; 0 when there was no answer.
	Status int
	// Limited reports that the answer carried a usable X-RateLimit-Limit and
	// X-RateLimit-Remaining; Limit and Remaining are then set.
	Limited   bool
	Limit     int
	Remaining int
	// ResetAfter is X-RateLimit-Reset-After, when HasReset.
	ResetAfter time.Duration
	HasReset   bool
	// Bucket is X-RateLimit-Bucket.
	Bucket string
	// For a 429: the wait asked for, whether the limit was the global one,
	// and X-RateLimit-Scope ("user", "global", "shared").
	RetryAfter time.Duration
	Global     bool
	Scope      string
}

// TooMany reports whether the answer was a 429.
func (o *Observation) TooMany() bool { return o.Status == 429 }

// Invalid reports whether the answer counts as an invalid request: 401, 403,
// or a 429 of any scope but "shared".
func (o *Observation) Invalid() bool {
	return o.Status == 401 || o.Status == 403 || (o.Status == 429 && o.Scope != "shared")
}

// InvalidWindow is the span over which invalid requests are counted.
const InvalidWindow = 10 * time.Minute

// DefaultIdleTTL is how long a bucket nobody uses is kept.
const DefaultIdleTTL = 10 * time.Minute

// DefaultClaimTTL is how long a discovery claim (the one request allowed to
// find out an unknown bucket's limits) holds when its answer never comes:
// after it another request may try.
const DefaultClaimTTL = 10 * time.Second

// Key is a key a store holds, with the time left before it expires, as a
// store that can list its keys reports it (the conformance suite checks that
// none names a token and that all expire).
type Key struct {
	Name string
	TTL  time.Duration // 0: never expires
}

// TokenHash names a credential in a store: the first 16 bytes of its
// SHA-256, in hex. It never reveals the token. The empty credential (calls
// that need none, such as webhook-token calls) is "none".
func TokenHash(credential string) string {
	if credential == "" {
		return "none"
	}
	return SecretHash(credential)
}

// SecretHash is [TokenHash] for any secret, such as a webhook token in a
// major parameter.
func SecretHash(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:16])
}
