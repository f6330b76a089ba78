package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// The reference platform's identify limits (gateway.md §4): at most
// max_concurrency IDENTIFYs per 5 seconds, one per rate-limit key
// (shard_id % max_concurrency), and a daily budget of session starts
// (normally 1000 per 24 hours, counted across every shard of the token)
// that GET /gateway/bot reports as session_start_limit. Spending the whole
// budget gets the token reset.
const (
	// IdentifyWindow is how long a rate-limit key is taken by one IDENTIFY.
	IdentifyWindow = 5 * time.Second
	// DefaultIdentifyMargin is what a limiter of shards started together
	// adds to IdentifyWindow (the Redis limiter by default; the gateway's
	// shard manager gives its memory limiter the same). The platform
	// counts 5 s between the IDENTIFYs it receives, and the limiter
	// between the moments they were sent: an IDENTIFY that was slow to
	// arrive (a busy connection, a busy server) would let the next one on
	// its key arrive less than 5 s after it, and be refused with
	// INVALID_SESSION. Against the emulator on a loaded two-core machine,
	// 64 shards at max_concurrency 16 had 2 to 4 IDENTIFYs refused without
	// it, none with it.
	DefaultIdentifyMargin = 500 * time.Millisecond
	// DefaultIdentifyLease is how long an [IdentifyLimiter] keeps a key for
	// a caller that took it and never said it sent its IDENTIFY (a process
	// that died mid-identify): the window, plus time for the handshake.
	DefaultIdentifyLease = IdentifyWindow + 10*time.Second
	// DefaultIdentifyReserve is how many session starts a limiter keeps
	// unspent: below it, it refuses with [ErrIdentifyBudget] rather than
	// spend the token's last starts.
	DefaultIdentifyReserve = 10
)

// ErrIdentifyBudget is returned (wrapped, with the figures) by
// [IdentifyLimiter.Acquire] when the day's session starts are down to the
// reserve. Identifying anyway would risk the platform resetting the token;
// the caller should wait for the reset the error names, or resume.
var ErrIdentifyBudget = errors.New("the daily session-start budget is spent")

// SessionStartLimit is what GET /gateway/bot reports of the identify
// budget (its session_start_limit).
type SessionStartLimit struct {
	Total          int           // session starts allowed per window, normally 1000
	Remaining      int           // starts left in the current window
	ResetAfter     time.Duration // until Remaining returns to Total
	MaxConcurrency int           // IDENTIFYs allowed per 5 s
}

// IdentifyLimiter spaces a token's IDENTIFYs as the platform requires and
// counts its daily session starts. Gateway shards call Acquire before each
// IDENTIFY; many processes that share one limiter (the Redis one, in
// module ratelimit/redisstore) share one budget and one set of keys.
// Implementations must be safe for concurrent use.
//
// token names the bot: the token itself (as a gateway shard passes it) or
// its [TokenHash]. An implementation that keeps state outside the process
// names it by the hash, and none puts it in an error or a log.
type IdentifyLimiter interface {
	// SetLimit records what the platform reported for the token. Within
	// one budget window the lower remaining count wins, so a report older
	// than the limiter's own count does not give back starts.
	SetLimit(ctx context.Context, token string, l SessionStartLimit) error
	// Acquire blocks until shardID may send IDENTIFY: no other IDENTIFY of
	// its rate-limit key (shardID % maxConcurrency) within IdentifyWindow,
	// and callers of one key served in the order they came. It takes one
	// session start from the budget. The caller sends IDENTIFY and then
	// calls done, which keeps the key for IdentifyWindow (plus, for shards
	// started together, a margin for the IDENTIFY's transit,
	// [DefaultIdentifyMargin]) from that moment;
	// a key whose done never comes is freed after the lease
	// ([DefaultIdentifyLease]), so a caller that dies mid-identify never
	// holds it for good. When the budget is down to the reserve, Acquire
	// returns an error wrapping [ErrIdentifyBudget] at once.
	Acquire(ctx context.Context, token string, shardID, maxConcurrency int) (done func(), err error)
}

// Clock is the time source of a [MemoryIdentifyLimiter]. guildkittest's
// Server is one, so tests move time instead of sleeping.
type Clock interface {
	Now() time.Time
	// AfterFunc calls f once d has passed, unless stop is called first.
	AfterFunc(d time.Duration, f func()) (stop func() bool)
}

type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }
func (systemClock) AfterFunc(d time.Duration, f func()) func() bool {
	return time.AfterFunc(d, f).Stop
}

// IdentifyOptions configures a [MemoryIdentifyLimiter]; the zero value
// gives the defaults.
type IdentifyOptions struct {
	// Clock is the limiter's time source; the system clock when nil.
	Clock Clock
	// Window is how long one IDENTIFY takes its rate-limit key, from its
	// done; IdentifyWindow when 0. Shards started together (several keys
	// at once) should set IdentifyWindow + DefaultIdentifyMargin.
	Window time.Duration
	// Lease is how long a key stays taken without done;
	// DefaultIdentifyLease when 0.
	Lease time.Duration
	// Reserve is how many session starts are never spent;
	// DefaultIdentifyReserve when 0, none when negative.
	Reserve int
}

// MemoryIdentifyLimiter is the in-process [IdentifyLimiter]: one process's
// shards, one budget.
type MemoryIdentifyLimiter struct {
	clock   Clock
	window  time.Duration
	lease   time.Duration
	reserve int

	// mu guards tokens and everything they hold (limits, keys, queues);
	// it is never held across a wait: Acquire waits on its wake channel.
	mu     sync.Mutex
	tokens map[string]*identifyToken
}

type identifyToken struct {
	limit   SessionStartLimit // Total 0: never reported, no budget enforced
	resetAt time.Time
	keys    map[int]*identifyKey
}

type identifyKey struct {
	freeAt time.Time       // when the key may be taken again
	lease  uint64          // the current taker's lease number
	queue  []chan struct{} // waiters in arrival order; the head is woken
	stop   func() bool     // stops the pending wake-up of the head, if any
}

// NewMemoryIdentifyLimiter returns an in-memory limiter.
func NewMemoryIdentifyLimiter(o IdentifyOptions) *MemoryIdentifyLimiter {
	m := &MemoryIdentifyLimiter{clock: o.Clock, window: o.Window, lease: o.Lease, reserve: o.Reserve,
		tokens: make(map[string]*identifyToken)}
	if m.clock == nil {
		m.clock = systemClock{}
	}
	if m.window <= 0 {
		m.window = IdentifyWindow
	}
	if m.lease <= 0 {
		m.lease = DefaultIdentifyLease
	}
	if m.reserve == 0 {
		m.reserve = DefaultIdentifyReserve
	} else if m.reserve < 0 {
		m.reserve = 0
	}
	return m
}

func (m *MemoryIdentifyLimiter) token(token string) *identifyToken {
	t := m.tokens[token]
	if t == nil {
		t = &identifyToken{keys: make(map[int]*identifyKey)}
		m.tokens[token] = t
	}
	return t
}

// SetLimit implements [IdentifyLimiter].
func (m *MemoryIdentifyLimiter) SetLimit(_ context.Context, token string, l SessionStartLimit) error {
	if l.Total <= 0 || l.Remaining < 0 || l.ResetAfter < 0 {
		return fmt.Errorf("ratelimit: session start limit %+v is not one the platform sends", l)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	t := m.token(token)
	now := m.clock.Now()
	resetAt := now.Add(l.ResetAfter)
	sameWindow := t.limit.Total > 0 && now.Before(t.resetAt)
	if sameWindow && t.limit.Remaining < l.Remaining {
		l.Remaining = t.limit.Remaining
		resetAt = t.resetAt
	}
	t.limit, t.resetAt = l, resetAt
	return nil
}

// Remaining returns the session starts the limiter believes are left for
// token, and whether a limit was ever set.
func (m *MemoryIdentifyLimiter) Remaining(token string) (int, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t := m.token(token)
	m.refill(t)
	return t.limit.Remaining, t.limit.Total > 0
}

func (m *MemoryIdentifyLimiter) refill(t *identifyToken) {
	if t.limit.Total > 0 && !m.clock.Now().Before(t.resetAt) {
		t.limit.Remaining = t.limit.Total
		t.resetAt = m.clock.Now().Add(24 * time.Hour)
	}
}

// Acquire implements [IdentifyLimiter].
func (m *MemoryIdentifyLimiter) Acquire(ctx context.Context, token string, shardID, maxConcurrency int) (func(), error) {
	if shardID < 0 || maxConcurrency < 1 {
		return nil, fmt.Errorf("ratelimit: Acquire(shard %d, max_concurrency %d): out of range", shardID, maxConcurrency)
	}
	if err := ctx.Err(); err != nil {
		return nil, err // never take a key for a caller that gave up
	}
	keyID := shardID % maxConcurrency
	wake := make(chan struct{}, 1)
	m.mu.Lock()
	t := m.token(token)
	k := t.keys[keyID]
	if k == nil {
		k = &identifyKey{}
		t.keys[keyID] = k
	}
	k.queue = append(k.queue, wake)
	for {
		if err := m.budgetLocked(t); err != nil {
			m.leaveLocked(k, wake)
			m.mu.Unlock()
			return nil, err
		}
		now := m.clock.Now()
		if k.queue[0] == wake {
			if !now.Before(k.freeAt) {
				k.queue = k.queue[1:]
				k.lease++
				lease := k.lease
				k.freeAt = now.Add(m.lease)
				if t.limit.Total > 0 {
					t.limit.Remaining--
				}
				m.wakeAtLocked(k)
				m.mu.Unlock()
				return func() { m.done(k, lease) }, nil
			}
			m.wakeAtLocked(k)
		}
		m.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
			m.mu.Lock()
			m.leaveLocked(k, wake)
			m.mu.Unlock()
			return nil, ctx.Err()
		}
		m.mu.Lock()
	}
}

// budgetLocked refuses when the day's starts are down to the reserve.
func (m *MemoryIdentifyLimiter) budgetLocked(t *identifyToken) error {
	m.refill(t)
	if t.limit.Total > 0 && t.limit.Remaining <= m.reserve {
		return fmt.Errorf("ratelimit: %w: %d of %d session starts left (%d kept in reserve), reset in %v",
			ErrIdentifyBudget, t.limit.Remaining, t.limit.Total, m.reserve,
			t.resetAt.Sub(m.clock.Now()).Round(time.Second))
	}
	return nil
}

// done marks the IDENTIFY of lease sent: the key is taken for one window
// from now.
func (m *MemoryIdentifyLimiter) done(k *identifyKey, lease uint64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if k.lease != lease {
		return
	}
	k.lease++ // a second done is a no-op
	k.freeAt = m.clock.Now().Add(m.window)
	m.wakeAtLocked(k)
}

// wakeAtLocked wakes the queue's head when the key frees. A key has at
// most one wake-up pending: a new one replaces it, so waiting under a long
// lease leaves no trail of timers.
func (m *MemoryIdentifyLimiter) wakeAtLocked(k *identifyKey) {
	if k.stop != nil {
		k.stop()
		k.stop = nil
	}
	if len(k.queue) == 0 {
		return
	}
	head := k.queue[0]
	wake := func() {
		select {
		case head <- struct{}{}:
		default:
		}
	}
	if d := k.freeAt.Sub(m.clock.Now()); d > 0 {
		k.stop = m.clock.AfterFunc(d, wake)
	} else {
		wake()
	}
}

// leaveLocked takes wake out of k's queue, waking the next head if wake
// was the head.
func (m *MemoryIdentifyLimiter) leaveLocked(k *identifyKey, wake chan struct{}) {
	for i, w := range k.queue {
		if w == wake {
			k.queue = append(k.queue[:i:i], k.queue[i+1:]...)
			if i == 0 {
				m.wakeAtLocked(k)
			}
			return
		}
	}
}
