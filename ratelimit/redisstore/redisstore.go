package redisstore

import (
	"context"
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
	// FallbackShare is the share of the global rate, and of each bucket's
	// limit per window, kept while Redis is unavailable; 0.25 when 0. It
	// should be at most 1 over the number of processes that share the token.
	FallbackShare float64
	// RetryInterval is how often Redis is tried again while it is
	// unavailable; 1s when 0.
	RetryInterval time.Duration
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
	return scanKeys(ctx, s.rdb)
}

// scanKeys lists the keys "{gk:...}" of rdb with their TTLs.
func scanKeys(ctx context.Context, rdb redis.UniversalClient) ([]ratelimit.Key, error) {
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
	if cc, ok := rdb.(*redis.ClusterClient); ok {
		err := cc.ForEachMaster(ctx, func(ctx context.Context, c *redis.Client) error { return scan(ctx, c) })
		return out, err
	}
	return out, scan(ctx, rdb)
}
