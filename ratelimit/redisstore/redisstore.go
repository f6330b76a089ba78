// Package redisstore is a [ratelimit.Store] in Redis, so that every process
// sending with one token keeps the token's limits together: route buckets,
// the global limit (a sliding window: at most N requests in any window),
// the global pause after a global 429, and the count of invalid requests.
//
//	rdb := redis.NewClient(&redis.Options{
//		Addr: "localhost:6379",
//		// Notice an outage within a round trip: one dial of at most 200ms,
//		// no dial or command retries (the store tries again by itself).
//		DialTimeout: 200 * time.Millisecond, DialerRetries: 1, MaxRetries: -1,
//		ReadTimeout: 500 * time.Millisecond, WriteTimeout: 500 * time.Millisecond,
//	})
//	c, err := guildkit.New(guildkit.BotToken(token), guildkit.WithBaseURL(base),
//		guildkit.WithRateLimitStore(redisstore.New(rdb, redisstore.Options{})))
//
// Each Store operation is one Lua script run with EVALSHA (the script is
// sent once; Redis keeps it), so it is one atomic step in Redis and no lock
// is held across a round trip. Time is Redis's TIME, never a client's clock,
// so processes whose clocks disagree still agree on windows. All keys of a
// token start with "{gk:<hash of the token>}": they share one hash slot,
// every key a script touches is declared to Redis (none is made up inside a
// script), so the store works on a single node, with Sentinel, and on a
// Cluster (its tests run against a three-master one), and no key holds a
// token. Every key has a TTL: a bucket lives its idle TTL past its window's
// end, the global window its length.
//
// # When Redis is unavailable
//
// Redis is unavailable when it cannot be reached, or when it answers but
// refuses for its own state: out of memory under noeviction (OOM), a
// replica after a failover (READONLY), loading its data (LOADING), a
// replica cut from its master (MASTERDOWN), a Cluster down or moving a slot
// (CLUSTERDOWN, TRYAGAIN), or busy with a long script (BUSY). Only errors of
// the store itself (a script or its arguments) are returned as errors.
//
// While Redis is unavailable, the store keeps the limits locally, in a
// [ratelimit.MemoryStore], with a share ([Options.FallbackShare], a quarter
// by default) of the global rate and of every bucket's limit per window
// (at least one request), so that four processes cut off at once still keep
// the token's limits, and tries Redis again every [Options.RetryInterval].
// The client says so once through its rate-limit observer and its logger,
// with the error (an [ErrUnavailable] that names the cause, such as the
// refused connection go-redis retried), and again when Redis serves it
// again. It never fails open at the full rate, and never fails every call.
//
// What an outage costs: first, the time to notice it, which is the time a
// call to Redis takes to fail. With the client above, a refused connection
// fails at once and a silent one within the dial or read timeout; with
// go-redis's defaults (five dials 100ms apart, three command retries,
// seconds of timeouts) every call waits the store's [Options.Timeout] (1s)
// before it falls back. Then, because neither side knows what the other
// admitted, the first global window (about a second) after each change
// admits no new request, on the way down and on the way back. So an outage
// costs about a second without requests at its start, plus the time to
// notice it, and up to a second when Redis is back. In the module's outage
// test (four processes that together ask more than the global limit, so
// that requests go out in bursts a second apart even while Redis serves),
// the longest time without a request was 2.0s after Redis went with the
// client above and 2.9s with go-redis's defaults, against 1.0s while Redis
// served, and 1.0s after Redis came back. A bucket the fallback sent in
// stays held to its share until the window it sent in ends, though Redis
// is back: Redis has not seen those sends (the store remembers up to 4096
// such buckets). Invalid requests counted during the outage are added to
// Redis's count when it is back.
package redisstore

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
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
	// FallbackShare is the share of the global rate, and of each bucket's
	// limit per window, kept while Redis is unavailable; 0.25 when 0. It
	// should be at most 1 over the number of processes that share the token.
	FallbackShare float64
	// RetryInterval is how often Redis is tried again while it is
	// unavailable; 1s when 0.
	RetryInterval time.Duration
}

// ErrUnavailable is what the error a fallback reports (see
// [ratelimit.Reservation].FallbackErr and [Store.Down]) wraps: Redis could
// not be reached or refused for its own state. The error also wraps what
// go-redis returned and, when that does not say it, the last failed
// connection attempt.
var ErrUnavailable = errors.New("redisstore: redis unavailable")

// unavailableError is an ErrUnavailable with its causes.
type unavailableError struct {
	err   error // what the call returned
	cause error // the last failed connection attempt during the call, or nil
}

func (e *unavailableError) Error() string {
	msg := ErrUnavailable.Error() + ": " + e.err.Error()
	if e.cause != nil {
		msg += " (last connection attempt: " + e.cause.Error() + ")"
	}
	return msg
}

func (e *unavailableError) Unwrap() []error {
	if e.cause != nil {
		return []error{ErrUnavailable, e.err, e.cause}
	}
	return []error{ErrUnavailable, e.err}
}

// Store is the Redis [ratelimit.Store]. Make one with [New]; it is safe for
// concurrent use, and starts no goroutine.
type Store struct {
	rdb redis.UniversalClient
	o   Options

	local *ratelimit.MemoryStore // the fallback

	mu        sync.Mutex
	down      error     // why Redis was last unavailable; nil while it serves
	downSince time.Time // when it was found unavailable
	nextProbe time.Time // while down: when to try Redis again
	lastLocal time.Time // the last send the fallback admitted
	outages   uint64    // how many times Redis was found unavailable
	upSince   time.Time // when Redis was last found back
	dialErr   error     // the last failed connection attempt
	dialAt    time.Time // and when it failed
	// ids is the bucket id each route is known by, as Redis last said: it
	// names the bucket key a script is given.
	ids map[string]string
	// windows holds, for each bucket the fallback sent in, when its window
	// ends: until then the bucket is held to its share on the way back. It
	// holds at most maxWindows; nextSweep is when its ended windows may be
	// swept again.
	windows   map[string]time.Time
	nextSweep time.Time
	// carry counts, per token, the invalid requests the fallback counted
	// that Redis has not been told of.
	carry map[string]int
}

// maxIDs bounds the route → bucket id map: past it, the map starts over
// (a route's id is then learned again from Redis, at one more round trip).
const maxIDs = 4096

// maxWindows bounds the buckets the fallback remembers sending in: past
// it, ended windows are swept (at most once every sweepEvery) and, while
// it stays full, a further bucket is not held to its share on the way back
// (Redis alone keeps its limit).
const (
	maxWindows = 4096
	sweepEvery = time.Second
)

// New returns a Store keeping its state in rdb (a single node, a Sentinel
// failover client or a Cluster client). It adds a hook to rdb that notes
// rdb's failed connection attempts, so that an outage is reported with its
// cause.
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
	s := &Store{
		rdb: rdb, o: o,
		local: ratelimit.NewMemoryStore(ratelimit.MemoryOptions{
			ClaimTTL: o.ClaimTTL, IdleTTL: o.IdleTTL, BucketShare: o.FallbackShare,
		}),
		ids:     make(map[string]string),
		windows: make(map[string]time.Time),
		carry:   make(map[string]int),
	}
	rdb.AddHook(dialHook{s})
	return s
}

// dialHook notes the store's client's failed connection attempts.
type dialHook struct{ s *Store }

func (h dialHook) DialHook(next redis.DialHook) redis.DialHook {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := next(ctx, network, addr)
		if err != nil {
			h.s.mu.Lock()
			h.s.dialErr, h.s.dialAt = err, time.Now()
			h.s.mu.Unlock()
		}
		return c, err
	}
}

func (dialHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook { return next }

func (dialHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}

func prefix(token string) string { return "{gk:" + token + "}" }

func routeName(r *ratelimit.Reservation) string {
	if r.Route == "" {
		return ""
	}
	return r.Method + " " + r.Route
}

// bucketKey is the key of a bucket's state for one major parameter: under
// the bucket id once known, under the route until then.
func bucketKey(p, id, route, major string) string {
	if id != "" {
		return p + ":b:" + id + ":" + major
	}
	return p + ":b:r:" + route + ":" + major
}

// routeID returns the bucket id the route is believed to have.
func (s *Store) routeID(key string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ids[key]
}

// learnID records the bucket id Redis named for the route.
func (s *Store) learnID(key, id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ids[key] == id {
		return
	}
	if len(s.ids) >= maxIDs {
		clear(s.ids)
	}
	if id == "" {
		delete(s.ids, key)
	} else {
		s.ids[key] = id
	}
}

// useRedis reports whether to try Redis now: it serves, or it is time to
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

// stateReplies are the first words of the replies with which Redis refuses
// a call for its own state, not for the call: out of memory, a replica, a
// replica cut off, loading, a Cluster down or moving a slot, busy with a
// script, unable to persist, too many clients.
var stateReplies = []string{
	"OOM", "READONLY", "LOADING", "MASTERDOWN", "CLUSTERDOWN", "TRYAGAIN",
	"BUSY", "NOREPLICAS", "MISCONF", "MOVED", "ASK",
}

// storeError is an error of the store itself, found in a reply Redis gave.
type storeError struct{ msg string }

func (e *storeError) Error() string { return "redisstore: " + e.msg }

// unavailable reports whether err means that Redis did not serve the call:
// it could not be reached, or it refused for its own state. A script or
// argument error, and the caller giving up, are not. ctx is the caller's
// context, not the one bounded by the store's timeout: a call that ran out
// of the store's timeout found Redis silent, and that is unavailable.
func unavailable(ctx context.Context, err error) bool {
	var se *storeError
	if err == nil || ctx.Err() != nil || errors.As(err, &se) {
		return false
	}
	var re redis.Error
	if !errors.As(err, &re) || errors.Is(err, redis.ErrClosed) {
		return true // not a reply: Redis was not reached
	}
	msg := re.Error()
	if strings.HasPrefix(msg, "ERR max number of clients") {
		return true
	}
	for _, code := range stateReplies {
		// Older servers wrap a refusal met inside a script in a script
		// error: "ERR Error running script ...: -OOM command not allowed".
		if strings.HasPrefix(msg, code+" ") || strings.Contains(msg, "-"+code+" ") {
			return true
		}
	}
	return false
}

// result records how a Redis call begun at start went; it reports whether
// Redis was unavailable (as opposed to an error of the call, or the caller
// giving up). A success marks Redis back.
func (s *Store) result(ctx context.Context, err error, start time.Time) (fallback bool) {
	if err == nil {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.down != nil {
			s.down, s.upSince = nil, time.Now()
		}
		return false
	}
	return s.failed(ctx, err, start)
}

// failed is result for a call that failed, or whose success says nothing
// of whether Redis serves writes.
func (s *Store) failed(ctx context.Context, err error, start time.Time) (fallback bool) {
	if !unavailable(ctx, err) {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.down == nil && start.Before(s.upSince) {
		// A call begun before Redis was found back failed late: it says
		// nothing of Redis now. This call falls back; the store stays up.
		return true
	}
	now := time.Now()
	if s.down == nil {
		s.outages++
		s.nextProbe = now.Add(s.o.RetryInterval)
		s.downSince = now
	}
	ue := &unavailableError{err: err}
	var re redis.Error
	if s.dialErr != nil && !s.dialAt.Before(start) && !errors.As(err, &re) && s.dialErr.Error() != err.Error() {
		ue.cause = s.dialErr
	}
	s.down = ue
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

// Down returns why Redis was unavailable at the last try (an error wrapping
// [ErrUnavailable]), or nil while it serves.
func (s *Store) Down() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.down
}

// localTicket is a ticket of the fallback: the MemoryStore's own, in the
// Ticket's Local. On the way back a bucket held to its share takes a slot
// in Redis too: the Ticket's other fields are then Redis's (withRedis).
type localTicket struct {
	local     ratelimit.Ticket
	withRedis bool
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
			if err != nil || !r.Ticket.Held {
				return err
			}
			if wait := s.handover(r.Global, false); wait > 0 {
				_ = s.Release(ctx, r)
				r.Wait, r.GlobalWait = wait, true
				return nil
			}
			return s.keepShare(ctx, r)
		}
		r.Ticket = ratelimit.Ticket{}
	}
	return s.reserveLocal(ctx, r)
}

// keepShare holds r's bucket to the fallback's share when the fallback sent
// in the bucket's current window: Redis has not seen those sends. r holds a
// slot in Redis.
func (s *Store) keepShare(ctx context.Context, r *ratelimit.Reservation) error {
	if r.Route == "" {
		return nil
	}
	key := windowKey(r)
	s.mu.Lock()
	end, ok := s.windows[key]
	if ok && !time.Now().Before(end) {
		delete(s.windows, key)
		ok = false
	}
	s.mu.Unlock()
	if !ok {
		return nil
	}
	lr := *r
	lr.Global = ratelimit.GlobalLimit{} // Redis keeps the global limit
	if err := s.local.Reserve(ctx, &lr); err != nil {
		_ = s.Release(ctx, r)
		return err
	}
	if lr.Wait > 0 {
		_ = s.Release(ctx, r)
		r.Wait, r.Pending, r.Wake = lr.Wait, lr.Pending, lr.Wake
		return nil
	}
	r.Ticket.Local = &localTicket{local: lr.Ticket, withRedis: true}
	return nil
}

// windowKey names a bucket of a token in the fallback's windows.
func windowKey(r *ratelimit.Reservation) string {
	return r.Token + "\x00" + r.Method + " " + r.Route + "\x00" + r.Major
}

func (s *Store) reserveLocal(ctx context.Context, r *ratelimit.Reservation) error {
	r.Fallback, r.FallbackErr = true, s.Down()
	r.Epoch = s.epoch(true)
	if r.FallbackErr == nil {
		r.FallbackErr = ErrUnavailable
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
	if err == nil && r.Ticket.Held {
		r.Ticket.Local = &localTicket{local: r.Ticket}
		if g.Limit > 0 {
			s.mu.Lock()
			s.lastLocal = time.Now()
			s.mu.Unlock()
		}
	}
	return err
}

// Ask again at most this many times when the bucket key given to a script
// names another id than the route's (another process just learned it).
const maxTries = 3

func (s *Store) reserveRedis(ctx context.Context, r *ratelimit.Reservation) error {
	ctx, cancel := context.WithTimeout(ctx, s.o.Timeout)
	defer cancel()
	p := prefix(r.Token)
	route := routeName(r)
	idKey := r.Token + "\x00" + route
	for range maxTries {
		keys := []string{p + ":pause", p + ":pause", p + ":gl", p + ":gs", p + ":pause"}
		guess := ""
		if route != "" {
			guess = s.routeID(idKey)
			keys[0], keys[4] = p+":r:"+route, bucketKey(p, guess, route, r.Major)
		}
		v, err := reserveScript.Run(ctx, s.rdb, keys,
			b2i(route != ""), guess, r.Global.Limit, r.Global.Window.Microseconds(),
			s.o.ClaimTTL.Milliseconds(), s.o.IdleTTL.Milliseconds(), s.o.PollInterval.Milliseconds(), b2i(r.NoGlobalPause)).Slice()
		if err != nil {
			return err
		}
		if len(v) != 8 {
			return &storeError{fmt.Sprintf("reserve: unexpected reply of %d values", len(v))}
		}
		taken, wait, global, pending := toInt(v[0]), toInt(v[1]), toInt(v[2]), toInt(v[3])
		id, _ := v[4].(string)
		if route != "" {
			s.learnID(idKey, id)
		}
		if id != "" {
			r.Bucket = id
		}
		switch taken {
		case 2:
			continue // the route's id is not the one guessed: ask again
		case 0:
			r.Wait = max(time.Duration(wait)*time.Microsecond, time.Microsecond)
			r.GlobalWait, r.Pending = global == 1, pending == 1
			return nil
		}
		r.Ticket = ratelimit.Ticket{Held: true, Claim: toInt(v[5]) == 1, Gen: toInt(v[6]), Slot: toInt(v[7])}
		if route != "" {
			r.Ticket.Key = keys[4]
		}
		return nil
	}
	return &storeError{"reserve: the route's bucket id kept changing"}
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
	r.Ticket = ratelimit.Ticket{}
	if lt, ok := tk.Local.(*localTicket); ok {
		lr := *r
		lr.Ticket = lt.local
		err := s.local.Release(ctx, &lr)
		if !lt.withRedis {
			return err
		}
	}
	if tk.Key == "" {
		return nil // a global slot only: it stays taken until the window slides
	}
	dctx, cancel := s.detach(ctx)
	defer cancel()
	start := time.Now()
	err := releaseScript.Run(dctx, s.rdb, []string{tk.Key}, tk.Gen, b2i(tk.Claim), s.o.IdleTTL.Milliseconds()).Err()
	// The call is bounded only by the store's timeout, not by the caller's
	// context: running out of it means Redis did not answer.
	if s.result(context.WithoutCancel(ctx), err, start) {
		return nil // Redis is unavailable: the claim's TTL frees it
	}
	return err
}

// Observe implements [ratelimit.Store].
func (s *Store) Observe(ctx context.Context, r *ratelimit.Reservation, o *ratelimit.Observation) error {
	tk := r.Ticket
	r.Ticket = ratelimit.Ticket{}
	lt, _ := tk.Local.(*localTicket)
	if lt != nil {
		lr := *r
		lr.Ticket = lt.local
		err := s.observeLocal(ctx, &lr, o, !lt.withRedis)
		if !lt.withRedis {
			r.Bucket = lr.Bucket
			return err
		}
	}
	if !tk.Held && !s.useRedis() {
		return s.observeLocal(ctx, r, o, true)
	}
	dctx, cancel := s.detach(ctx)
	defer cancel()
	start := time.Now()
	err := s.observeRedis(dctx, r, tk, o)
	// The call is bounded only by the store's timeout, not by the caller's
	// context: running out of it means Redis did not answer.
	if s.result(context.WithoutCancel(ctx), err, start) {
		if lt != nil {
			return nil // the fallback has seen the answer
		}
		// Redis is unavailable: what the answer said still counts here.
		return s.observeLocal(ctx, r, o, true)
	}
	return err
}

// observeLocal gives an answer to the fallback. For an answer to a send the
// fallback admitted (fallback), it notes the end of the bucket's window, and
// an invalid request for Redis to count when it is back.
func (s *Store) observeLocal(ctx context.Context, r *ratelimit.Reservation, o *ratelimit.Observation, fallback bool) error {
	err := s.local.Observe(ctx, r, o)
	if !fallback || o.Status == 0 {
		return err
	}
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	if o.Invalid() {
		s.carry[r.Token]++
	}
	if r.Route == "" {
		return err
	}
	var end time.Time
	switch {
	case o.TooMany() && !o.Global && o.Scope != "shared":
		end = now.Add(o.RetryAfter)
	case o.HasReset:
		end = now.Add(o.ResetAfter)
	case o.Limited:
		end = now.Add(time.Second) // no reset: the platform's usual window
	default:
		return err
	}
	key := windowKey(r)
	old, ok := s.windows[key]
	if !end.After(old) {
		return err
	}
	if !ok && len(s.windows) >= maxWindows {
		if now.Before(s.nextSweep) {
			return err
		}
		s.nextSweep = now.Add(sweepEvery)
		for k, e := range s.windows {
			if !now.Before(e) {
				delete(s.windows, k)
			}
		}
		if len(s.windows) >= maxWindows {
			return err
		}
	}
	s.windows[key] = end
	return err
}

// takeCarry takes the invalid requests of token Redis has not been told of;
// giveCarry gives them back when telling failed.
func (s *Store) takeCarry(token string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.carry[token]
	delete(s.carry, token)
	return n
}

func (s *Store) giveCarry(token string, n int) {
	if n == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.carry[token] += n
}

func (s *Store) observeRedis(ctx context.Context, r *ratelimit.Reservation, tk ratelimit.Ticket, o *ratelimit.Observation) error {
	p := prefix(r.Token)
	route := routeName(r)
	idKey := r.Token + "\x00" + route
	reset := int64(-1)
	if o.HasReset {
		reset = o.ResetAfter.Milliseconds()
	}
	held := tk.Held && tk.Key != ""
	carry := s.takeCarry(r.Token)
	for range maxTries {
		keys := []string{p + ":pause", p + ":pause", p + ":pause", p + ":gl", p + ":inv", p + ":pause"}
		guess := ""
		if route != "" {
			keys[0] = p + ":r:" + route
			if held {
				keys[2] = tk.Key
			} else {
				guess = s.routeID(idKey)
				keys[2] = bucketKey(p, guess, route, r.Major)
			}
			keys[5] = keys[2]
			if o.Bucket != "" {
				keys[5] = bucketKey(p, o.Bucket, "", r.Major)
			}
		}
		slot := int64(0)
		if tk.Held {
			slot = tk.Slot
		}
		v, err := observeScript.Run(ctx, s.rdb, keys,
			b2i(route != ""), guess, o.Status, b2i(o.Limited), o.Limit, o.Remaining, reset, o.Bucket,
			o.RetryAfter.Milliseconds(), b2i(o.Global), o.Scope, b2i(held), tk.Gen, b2i(tk.Claim),
			s.o.IdleTTL.Milliseconds(), slot, r.Global.Margin.Microseconds(), carry).Slice()
		if err != nil {
			s.giveCarry(r.Token, carry)
			return err
		}
		if len(v) != 2 {
			s.giveCarry(r.Token, carry)
			return &storeError{fmt.Sprintf("observe: unexpected reply of %d values", len(v))}
		}
		id, _ := v[1].(string)
		if toInt(v[0]) == 2 {
			s.learnID(idKey, id)
			continue // the route's id is not the one guessed: ask again
		}
		if id != "" {
			r.Bucket = id
			s.learnID(idKey, id)
		}
		return nil
	}
	s.giveCarry(r.Token, carry)
	return &storeError{"observe: the route's bucket id kept changing"}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// InvalidRequests implements [ratelimit.Store]. While Redis is unavailable
// it is the fallback's count.
func (s *Store) InvalidRequests(ctx context.Context, token string) (int, error) {
	if s.Down() != nil {
		return s.local.InvalidRequests(ctx, token)
	}
	tctx, cancel := context.WithTimeout(ctx, s.o.Timeout)
	defer cancel()
	carry := s.takeCarry(token)
	start := time.Now()
	n, err := invalidScript.Run(tctx, s.rdb, []string{prefix(token) + ":inv"}, carry).Int()
	if err != nil {
		s.giveCarry(token, carry)
	}
	// A count read says nothing of whether Redis takes writes: only a
	// failure changes what the store believes.
	if err != nil && s.failed(ctx, err, start) {
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
