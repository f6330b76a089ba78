// Package redisstore is a [ratelimit.Store] in Redis, so that every process
// sending with one token keeps the token's limits together: route buckets,
// the global limit (a sliding window: at most N requests in any window),
// the global pause after a global 429, and the count of invalid requests.
//
//	rdb := redis.NewClient(&redis.Options{Addr: "localhost:6379"})
//	c, err := guildkit.New(guildkit.BotToken(token), guildkit.WithBaseURL(base),
//		guildkit.WithRateLimitStore(redisstore.New(rdb, redisstore.Options{})))
//
// Each Store operation is one Lua script run with EVALSHA (the script is
// sent once; Redis keeps it), so it is one atomic step in Redis and no lock
// is held across a round trip. Time is Redis's TIME, never a client's clock,
// so processes whose clocks disagree still agree on windows. All keys of a
// token start with "{gk:<hash of the token>}": they share one hash slot, so
// the store works on a single node, with Sentinel, or on a Cluster, and no
// key holds a token. Every key has a TTL: a bucket lives its idle TTL past
// its window's end, the global window its length.
//
// When Redis cannot be reached, the store keeps limits locally, in a
// [ratelimit.MemoryStore], with a share of the global rate
// ([Options.FallbackShare], a quarter by default, so that four processes
// cut off at once still keep the token's limit), and tries Redis again every
// [Options.RetryInterval]. The client says so once through its rate-limit
// observer and its logger, and again when Redis answers. It never fails open
// at the full rate, and never fails every call. Because neither side knows
// what the other admitted, the first window after each change admits no new
// request: an outage costs at most a second's pause, never a burst. How
// soon an outage is noticed depends on the go-redis client's own retries: a
// client made with small MaxRetries and DialerRetries (and timeouts) falls
// back within a round trip or two.
package redisstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/seed012df1e9/guildkit/ratelimit"
)

// Options configures a [Store]; the zero value gives the defaults.
type Options struct {
	// ClaimTTL is how long a discovery claim (the one request finding out an
	// unknown bucket's limits) holds when its answer never comes, as when
	// its process dies; ratelimit.DefaultClaimTTL when 0.
	ClaimTTL time.Duration
	// IdleTTL is how long a bucket is kept past its window's end;
	// ratelimit.DefaultIdleTTL when 0.
	IdleTTL time.Duration
	// PollInterval is how often a request waiting for another's discovery
	// looks again; 50ms when 0.
	PollInterval time.Duration
	// Timeout bounds each Redis operation; 1s when 0.
	Timeout time.Duration
	// FallbackShare is the share of the global rate kept while Redis cannot
	// be reached; 0.25 when 0. It should be at most 1 over the number of
	// processes that share the token.
	FallbackShare float64
	// RetryInterval is how often Redis is tried again while it cannot be
	// reached; 1s when 0.
	RetryInterval time.Duration
}

// Store is the Redis [ratelimit.Store]. Make one with [New]; it is safe for
// concurrent use, and starts no goroutine.
type Store struct {
	rdb redis.UniversalClient
	o   Options

	local *ratelimit.MemoryStore // the fallback

	mu        sync.Mutex
	down      error     // why Redis was last unreachable; nil while it answers
	downSince time.Time // when it was found unreachable
	nextProbe time.Time // while down: when to try Redis again
	lastLocal time.Time // the last send the fallback admitted
	outages   uint64    // how many times Redis was found unreachable
	upSince   time.Time // when Redis was last found back
}

// New returns a Store keeping its state in rdb (a single node, a Sentinel
// failover client or a Cluster client).
func New(rdb redis.UniversalClient, o Options) *Store {
	if o.ClaimTTL <= 0 {
		o.ClaimTTL = ratelimit.DefaultClaimTTL
	}
	if o.IdleTTL <= 0 {
		o.IdleTTL = ratelimit.DefaultIdleTTL
	}
	if o.PollInterval <= 0 {
		o.PollInterval = 50 * time.Millisecond
	}
	if o.Timeout <= 0 {
		o.Timeout = time.Second
	}
	if !(o.FallbackShare > 0 && o.FallbackShare <= 1) {
		o.FallbackShare = 0.25
	}
	if o.RetryInterval <= 0 {
		o.RetryInterval = time.Second
	}
	return &Store{rdb: rdb, o: o, local: ratelimit.NewMemoryStore(ratelimit.MemoryOptions{ClaimTTL: o.ClaimTTL, IdleTTL: o.IdleTTL})}
}

func prefix(token string) string { return "{gk:" + token + "}" }

func routeName(r *ratelimit.Reservation) string {
	if r.Route == "" {
		return ""
	}
	return r.Method + " " + r.Route
}

// useRedis reports whether to try Redis now: it answers, or it is time to
// try it again.
func (s *Store) useRedis() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.down == nil {
		return true
	}
	now := time.Now()
	if now.Before(s.nextProbe) {
		return false
	}
	s.nextProbe = now.Add(s.o.RetryInterval) // one probe per interval
	return true
}

// result records how a Redis call begun at start went; it reports whether
// err means Redis could not be reached (as opposed to an error Redis
// answered with, or the caller giving up).
func (s *Store) result(ctx context.Context, err error, start time.Time) (unreachable bool) {
	if err != nil && (ctx.Err() != nil || isReply(err)) {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err == nil {
		if s.down != nil {
			s.down, s.upSince = nil, time.Now()
		}
		return false
	}
	if s.down == nil && start.Before(s.upSince) {
		// A call begun before Redis was found back failed late: it says
		// nothing of Redis now. This call falls back; the store stays up.
		return true
	}
	if s.down == nil {
		s.outages++
		now := time.Now()
		s.nextProbe = now.Add(s.o.RetryInterval)
		s.downSince = now
	}
	s.down = err
	return true
}

// handover returns how long a send must wait when it changes between Redis
// and the fallback, or 0. Neither knows the sends the other admitted in the
// last window: on the way down, Redis may have admitted the whole global
// limit; on the way back, Redis (perhaps restarted empty) has not seen the
// fallback's sends. So the first window after each change admits nothing
// new, and the token's limit holds across the change.
func (s *Store) handover(g ratelimit.GlobalLimit, local bool) time.Duration {
	if g.Limit <= 0 {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	var until time.Time
	if local {
		until = s.downSince.Add(g.Window)
	} else if !s.lastLocal.IsZero() {
		until = s.lastLocal.Add(g.Window)
		if !now.Before(until) {
			s.lastLocal = time.Time{}
		}
	}
	if now.Before(until) {
		return until.Sub(now)
	}
	return 0
}

// isReply reports an error Redis answered with (a script error, say), not
// a failure to reach it.
func isReply(err error) bool {
	var re redis.Error
	return errors.As(err, &re) && !errors.Is(err, redis.ErrClosed)
}

// epoch is the reservation epoch (see ratelimit.Reservation.Epoch) of an
// answer from Redis or, with fallback, from the fallback: 2k-1 during the
// k-th outage, 2k after it.
func (s *Store) epoch(fallback bool) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if fallback {
		return max(s.outages, 1)*2 - 1
	}
	return s.outages * 2
}

// Down returns why Redis could not be reached at the last try, or nil while
// it answers.
func (s *Store) Down() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.down
}

// Reserve implements [ratelimit.Store].
func (s *Store) Reserve(ctx context.Context, r *ratelimit.Reservation) error {
	r.Wait, r.GlobalWait, r.Pending, r.Wake = 0, false, false, nil
	r.Ticket = ratelimit.Ticket{}
	r.Fallback, r.FallbackErr = false, nil
	if s.useRedis() {
		start := time.Now()
		err := s.reserveRedis(ctx, r)
		if !s.result(ctx, err, start) {
			r.Epoch = s.epoch(false)
			if err == nil && r.Ticket.Held {
				if wait := s.handover(r.Global, false); wait > 0 {
					_ = s.Release(ctx, r)
					r.Wait, r.GlobalWait = wait, true
				}
			}
			return err
		}
	}
	return s.reserveLocal(ctx, r)
}

func (s *Store) reserveLocal(ctx context.Context, r *ratelimit.Reservation) error {
	r.Fallback, r.FallbackErr = true, s.Down()
	r.Epoch = s.epoch(true)
	if r.FallbackErr == nil {
		r.FallbackErr = errors.New("redis unreachable")
	}
	if wait := s.handover(r.Global, true); wait > 0 {
		r.Wait, r.GlobalWait = wait, true
		return nil
	}
	g := r.Global
	if g.Limit > 0 {
		r.Global.Limit = max(1, int(float64(g.Limit)*s.o.FallbackShare))
	}
	err := s.local.Reserve(ctx, r)
	r.Global = g
	if err == nil && r.Ticket.Held && g.Limit > 0 {
		s.mu.Lock()
		s.lastLocal = time.Now()
		s.mu.Unlock()
	}
	return err
}

func (s *Store) reserveRedis(ctx context.Context, r *ratelimit.Reservation) error {
	ctx, cancel := context.WithTimeout(ctx, s.o.Timeout)
	defer cancel()
	p := prefix(r.Token)
	route := routeName(r)
	keys := []string{p + ":r:" + route, p + ":pause", p + ":gl", p + ":gs"}
	v, err := reserveScript.Run(ctx, s.rdb, keys,
		p, route, r.Major, r.Global.Limit, r.Global.Window.Microseconds(),
		s.o.ClaimTTL.Milliseconds(), s.o.IdleTTL.Milliseconds(), s.o.PollInterval.Milliseconds()).Slice()
	if err != nil {
		return err
	}
	if len(v) != 9 {
		return fmt.Errorf("redisstore: reserve: unexpected reply of %d values", len(v))
	}
	taken, wait, global, pending := toInt(v[0]), toInt(v[1]), toInt(v[2]), toInt(v[3])
	if id, _ := v[4].(string); id != "" {
		r.Bucket = id
	}
	if taken == 0 {
		r.Wait = max(time.Duration(wait)*time.Microsecond, time.Microsecond)
		r.GlobalWait, r.Pending = global == 1, pending == 1
		return nil
	}
	key, _ := v[7].(string)
	r.Ticket = ratelimit.Ticket{Held: true, Claim: toInt(v[5]) == 1, Gen: toInt(v[6]), Key: key, Slot: toInt(v[8])}
	return nil
}

func toInt(v any) int64 {
	switch n := v.(type) {
	case int64:
		return n
	case string:
		i, _ := strconv.ParseInt(n, 10, 64)
		return i
	}
	return 0
}

// detach keeps ctx's values but not its cancellation, bounded by the
// store's timeout: the answer is in, and its bookkeeping must be done.
func (s *Store) detach(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), s.o.Timeout)
}

// Release implements [ratelimit.Store].
func (s *Store) Release(ctx context.Context, r *ratelimit.Reservation) error {
	tk := r.Ticket
	if !tk.Held {
		return nil
	}
	if tk.Local != nil {
		return s.local.Release(ctx, r)
	}
	r.Ticket = ratelimit.Ticket{}
	if tk.Key == "" {
		return nil // a global slot only: it stays taken until the window slides
	}
	ctx, cancel := s.detach(ctx)
	defer cancel()
	claim := 0
	if tk.Claim {
		claim = 1
	}
	start := time.Now()
	err := releaseScript.Run(ctx, s.rdb, []string{tk.Key}, tk.Gen, claim, s.o.IdleTTL.Milliseconds()).Err()
	if s.result(ctx, err, start) {
		return nil // Redis is gone: the claim's TTL frees it
	}
	return err
}

// Observe implements [ratelimit.Store].
func (s *Store) Observe(ctx context.Context, r *ratelimit.Reservation, o *ratelimit.Observation) error {
	tk := r.Ticket
	if tk.Held && tk.Local != nil {
		return s.local.Observe(ctx, r, o)
	}
	r.Ticket = ratelimit.Ticket{}
	if !tk.Held && !s.useRedis() {
		return s.local.Observe(ctx, r, o)
	}
	ctx, cancel := s.detach(ctx)
	defer cancel()
	p := prefix(r.Token)
	route := routeName(r)
	reset := int64(-1)
	if o.HasReset {
		reset = o.ResetAfter.Milliseconds()
	}
	start := time.Now()
	v, err := observeScript.Run(ctx, s.rdb, []string{p + ":r:" + route, p + ":pause", tk.Key, p + ":gl"},
		p, route, r.Major, o.Status, b2i(o.Limited), o.Limit, o.Remaining, reset, o.Bucket,
		o.RetryAfter.Milliseconds(), b2i(o.Global), o.Scope, b2i(tk.Held), tk.Gen, b2i(tk.Claim),
		s.o.IdleTTL.Milliseconds(), tk.Slot, r.Global.Margin.Microseconds()).Text()
	if s.result(ctx, err, start) {
		// Redis is gone: what the answer said still counts here.
		return s.local.Observe(ctx, r, o)
	}
	if err == nil && v != "" {
		r.Bucket = v
	}
	return err
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// InvalidRequests implements [ratelimit.Store].
func (s *Store) InvalidRequests(ctx context.Context, token string) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, s.o.Timeout)
	defer cancel()
	start := time.Now()
	n, err := invalidScript.Run(ctx, s.rdb, []string{prefix(token) + ":inv"}, prefix(token)).Int()
	if s.result(ctx, err, start) {
		return s.local.InvalidRequests(ctx, token)
	}
	return n, err
}

// Keys lists the store's keys ("{gk:...}") with their TTLs, by SCAN on the
// node rdb reaches (on a Cluster, on each master). It is for tests and
// inspection, not for a busy production instance.
func (s *Store) Keys(ctx context.Context) ([]ratelimit.Key, error) {
	var out []ratelimit.Key
	var mu sync.Mutex
	scan := func(ctx context.Context, c redis.Cmdable) error {
		it := c.Scan(ctx, 0, "{gk:*", 500).Iterator()
		for it.Next(ctx) {
			name := it.Val()
			ttl, err := c.PTTL(ctx, name).Result()
			if err != nil {
				return err
			}
			if ttl < 0 {
				ttl = 0
			}
			mu.Lock()
			out = append(out, ratelimit.Key{Name: name, TTL: ttl})
			mu.Unlock()
		}
		return it.Err()
	}
	if cc, ok := s.rdb.(*redis.ClusterClient); ok {
		err := cc.ForEachMaster(ctx, func(ctx context.Context, c *redis.Client) error { return scan(ctx, c) })
		return out, err
	}
	return out, scan(ctx, s.rdb)
}
