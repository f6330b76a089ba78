package redisstore

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"regexp"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/seed012df1e9/guildkit/ratelimit"
)

// IdentifyOptions configures an [IdentifyLimiter]; the zero value gives
// the defaults.
type IdentifyOptions struct {
	// Window is how long one IDENTIFY takes its rate-limit key, from its
	// done; ratelimit.IdentifyWindow + ratelimit.DefaultIdentifyMargin
	// (5.5s) when 0.
	Window time.Duration
	// Lease is how long a key stays taken by a process that never says it
	// sent its IDENTIFY (it died mid-identify);
	// ratelimit.DefaultIdentifyLease when 0.
	Lease time.Duration
	// Reserve is how many of the day's session starts are never spent;
	// ratelimit.DefaultIdentifyReserve when 0, none when negative.
	Reserve int
	// PollInterval is how often a waiting caller asks Redis again (it also
	// keeps its place in the queue alive); 100ms when 0.
	PollInterval time.Duration
	// Timeout bounds each Redis operation; 1s when 0.
	Timeout time.Duration
	// RetryInterval is how often Redis is tried again while it is
	// unavailable; 1s when 0.
	RetryInterval time.Duration
	// Logger, when set, is told when Redis becomes unavailable (a warning
	// with the error: no new session starts until it is back) and when it
	// serves again. The token is never logged.
	Logger *slog.Logger
}

// IdentifyLimiter is the [ratelimit.IdentifyLimiter] in Redis: every
// process that shares a token shares its rate-limit keys, their queues and
// the daily budget. Make one with [NewIdentifyLimiter]; it is safe for
// concurrent use and starts no goroutine.
//
// Each operation is one Lua script on Redis's time. A caller waits in its
// key's queue (first come, first served across processes) and asks again
// every [IdentifyOptions.PollInterval]; a caller that stops asking (its
// process died) leaves the queue about two polls and two timeouts later.
// A key taken and never done (the process died mid-identify) is free
// again after the lease. The budget is counted in Redis at each take.
//
// While Redis is unavailable, Acquire waits: it identifies nobody, and
// tries Redis again every [IdentifyOptions.RetryInterval] until it serves
// or the caller gives up. No process can know what the others take
// meanwhile, and any local guess (spacing keys by the window times the
// number of processes) still lets two processes hit one key in the same
// window, so waiting is the only choice that never costs an INVALID_SESSION
// nor a start from the budget. When Redis is back, a process that saw it
// gone waits until a lease and a window have passed since it went before
// taking a key, in case Redis lost its data (a restart without persistence)
// and with it the keys taken just before. Shards already connected, and
// shards that resume, do not use the limiter and go on. The cost: no new
// session starts during the outage and up to Lease+Window (20s) after it;
// never a storm.
type IdentifyLimiter struct {
	rdb     redis.UniversalClient
	o       IdentifyOptions
	reserve int
	alive   time.Duration

	mu        sync.Mutex
	down      error     // why Redis was last unavailable; nil while it serves
	downSince time.Time // when it was found unavailable
	holdUntil time.Time // after an outage: no take before then
}

// NewIdentifyLimiter returns an identify limiter keeping its state in rdb
// (a single node, a Sentinel failover client or a Cluster client).
func NewIdentifyLimiter(rdb redis.UniversalClient, o IdentifyOptions) *IdentifyLimiter {
	if o.Window <= 0 {
		o.Window = ratelimit.IdentifyWindow + ratelimit.DefaultIdentifyMargin
	}
	if o.Lease <= 0 {
		o.Lease = ratelimit.DefaultIdentifyLease
	}
	if o.PollInterval <= 0 {
		o.PollInterval = 100 * time.Millisecond
	}
	if o.Timeout <= 0 {
		o.Timeout = time.Second
	}
	if o.RetryInterval <= 0 {
		o.RetryInterval = time.Second
	}
	l := &IdentifyLimiter{rdb: rdb, o: o, reserve: o.Reserve}
	if l.reserve == 0 {
		l.reserve = ratelimit.DefaultIdentifyReserve
	} else if l.reserve < 0 {
		l.reserve = 0
	}
	l.alive = 2 * (o.PollInterval + o.Timeout)
	return l
}

var hashed = regexp.MustCompile(`^(none|[0-9a-f]{32})$`)

// identifyPrefix is the hash tag of a token's identify keys: the token's
// [ratelimit.TokenHash], as callers pass it; a caller that passed the token
// itself gets it hashed, so that no key ever holds a token.
func identifyPrefix(token string) string {
	if !hashed.MatchString(token) {
		token = ratelimit.TokenHash(token)
	}
	return prefix(token) + ":id:"
}

// SetLimit implements [ratelimit.IdentifyLimiter].
func (l *IdentifyLimiter) SetLimit(ctx context.Context, token string, sl ratelimit.SessionStartLimit) error {
	if sl.Total <= 0 || sl.Remaining < 0 || sl.ResetAfter < 0 {
		return fmt.Errorf("redisstore: session start limit %+v is not one the platform sends", sl)
	}
	ctx, cancel := context.WithTimeout(ctx, l.o.Timeout)
	defer cancel()
	err := identifySetLimitScript.Run(ctx, l.rdb, []string{identifyPrefix(token) + "b"},
		sl.Total, sl.Remaining, sl.ResetAfter.Milliseconds()).Err()
	if err != nil {
		if unavailable(ctx, err) {
			l.markDown(err)
			return &unavailableError{err: err}
		}
		return fmt.Errorf("redisstore: set identify limit: %w", err)
	}
	return nil
}

// Down returns why Redis was unavailable at the last try (an error wrapping
// [ErrUnavailable]), or nil while it serves.
func (l *IdentifyLimiter) Down() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.down
}

func (l *IdentifyLimiter) markDown(err error) {
	l.mu.Lock()
	went := l.down == nil
	if went {
		l.downSince = time.Now()
	}
	l.down = &unavailableError{err: err}
	down := l.down
	l.mu.Unlock()
	if went && l.o.Logger != nil {
		l.o.Logger.Warn("redisstore: Redis is unavailable: no IDENTIFY until it is back", slog.String("error", down.Error()))
	}
}

// markUp notes that Redis serves; after an outage it sets the hold.
func (l *IdentifyLimiter) markUp() {
	l.mu.Lock()
	back := l.down != nil
	var hold time.Time
	if back {
		l.down = nil
		l.holdUntil = l.downSince.Add(l.o.Lease + l.o.Window)
		hold = l.holdUntil
	}
	l.mu.Unlock()
	if back && l.o.Logger != nil {
		l.o.Logger.Info("redisstore: Redis serves again: the next IDENTIFY waits out the keys it may have lost",
			slog.Duration("wait", time.Until(hold).Round(time.Millisecond)))
	}
}

// hold returns how long a take must wait after an outage, or 0.
func (l *IdentifyLimiter) hold() time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	return time.Until(l.holdUntil)
}

func newWaiterID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Acquire implements [ratelimit.IdentifyLimiter]. While Redis is
// unavailable it waits (see [IdentifyLimiter]).
func (l *IdentifyLimiter) Acquire(ctx context.Context, token string, shardID, maxConcurrency int) (func(), error) {
	if shardID < 0 || maxConcurrency < 1 {
		return nil, fmt.Errorf("redisstore: Acquire(shard %d, max_concurrency %d): out of range", shardID, maxConcurrency)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p := identifyPrefix(token)
	k := strconv.Itoa(shardID % maxConcurrency)
	keys := []string{p + "k:" + k, p + "q:" + k, p + "a:" + k, p + "n", p + "b"}
	id := newWaiterID()
	for {
		if d := l.hold(); d > 0 {
			if err := sleep(ctx, d); err != nil {
				return nil, err
			}
			continue
		}
		if l.Down() != nil {
			// Probe with a PING: a script run now would take a key before
			// the hold after the outage is known.
			if err := l.probe(ctx); err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				if err := sleep(ctx, l.o.RetryInterval); err != nil {
					return nil, err
				}
			}
			continue
		}
		v, err := l.acquireOnce(ctx, keys, id)
		if err != nil {
			if ctx.Err() != nil {
				l.leave(ctx, keys, id)
				return nil, ctx.Err()
			}
			if !unavailable(ctx, err) {
				l.leave(ctx, keys, id)
				return nil, err
			}
			l.markDown(err)
			continue
		}
		switch toInt(v[0]) {
		case 1:
			return l.doneFunc(keys[0], id), nil
		case 2:
			if len(v) < 4 {
				return nil, &storeError{"identify acquire: short reply"}
			}
			return nil, fmt.Errorf("redisstore: %w: %d of %d session starts left (%d kept in reserve), reset in %v",
				ratelimit.ErrIdentifyBudget, toInt(v[1]), toInt(v[2]), l.reserve,
				(time.Duration(toInt(v[3])) * time.Millisecond).Round(time.Second))
		}
		wait := l.o.PollInterval
		if len(v) > 1 {
			if d := time.Duration(toInt(v[1])) * time.Millisecond; d > 0 && d < wait {
				wait = d
			}
		}
		if err := sleep(ctx, wait); err != nil {
			l.leave(ctx, keys, id)
			return nil, err
		}
	}
}

func (l *IdentifyLimiter) acquireOnce(ctx context.Context, keys []string, id string) ([]any, error) {
	tctx, cancel := context.WithTimeout(ctx, l.o.Timeout)
	defer cancel()
	v, err := identifyAcquireScript.Run(tctx, l.rdb, keys, id, l.o.Lease.Milliseconds(),
		l.alive.Milliseconds(), l.reserve, l.o.Window.Milliseconds()).Slice()
	if err != nil {
		return nil, err
	}
	if len(v) == 0 {
		return nil, &storeError{"identify acquire: empty reply"}
	}
	return v, nil
}

// probe asks Redis whether it serves again; it marks it up when it does.
func (l *IdentifyLimiter) probe(ctx context.Context) error {
	tctx, cancel := context.WithTimeout(ctx, l.o.Timeout)
	defer cancel()
	err := l.rdb.Ping(tctx).Err()
	if err != nil {
		if unavailable(ctx, err) {
			l.markDown(err)
		}
		return err
	}
	l.markUp()
	return nil
}

// leave takes the waiter out of the queue, whatever the caller's context:
// a place left behind would hold up the callers behind it until it is
// given up as gone.
func (l *IdentifyLimiter) leave(ctx context.Context, keys []string, id string) {
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), l.o.Timeout)
	defer cancel()
	_ = identifyLeaveScript.Run(dctx, l.rdb, []string{keys[1], keys[2]}, id).Err()
}

// doneFunc returns the done of a take: the first call keeps the key a
// window from then; later calls do nothing. When Redis is unavailable, the
// key stays taken until its lease ends.
func (l *IdentifyLimiter) doneFunc(key, id string) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			ctx, cancel := context.WithTimeout(context.Background(), l.o.Timeout)
			defer cancel()
			if err := identifyDoneScript.Run(ctx, l.rdb, []string{key}, id, l.o.Window.Milliseconds()).Err(); err != nil && unavailable(ctx, err) {
				l.markDown(err)
			}
		})
	}
}

// sleep waits d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Keys lists the keys ("{gk:...}") of rdb with their TTLs, the identify
// limiter's and a store's alike; see [Store.Keys].
func (l *IdentifyLimiter) Keys(ctx context.Context) ([]ratelimit.Key, error) {
	return scanKeys(ctx, l.rdb)
}
