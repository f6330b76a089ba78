package ratelimit

import (
	"context"
	"slices"
	"sync"
	"time"
)

// MemoryStore is the state of one process, in memory: the default
// [Store]. It may be shared by several clients in the process, with the same
// token or different ones. Its zero value is not usable; make one with
// [NewMemoryStore]. It starts no goroutine: idle buckets are dropped as
// requests are made.
type MemoryStore struct {
	idleTTL  time.Duration
	claimTTL time.Duration
	share    float64 // BucketShare; 0: the whole limit

	mu        sync.Mutex
	routes    map[routeKey]string   // token + route → bucket id learned from X-RateLimit-Bucket
	buckets   map[bucketKey]*bucket // token + bucket id (or route before it is known) + major → state
	tokens    map[string]*tokenState
	nextSweep time.Time
}

// MemoryOptions configures a [MemoryStore]; the zero value gives the
// defaults.
type MemoryOptions struct {
	// IdleTTL is how long a bucket unused is kept; DefaultIdleTTL when 0.
	IdleTTL time.Duration
	// ClaimTTL is how long a discovery claim holds without an answer;
	// DefaultClaimTTL when 0.
	ClaimTTL time.Duration
	// BucketShare, between 0 and 1, keeps every bucket to that share of its
	// limit in each of its windows, and at least one request: the
	// store stands in for a shared one, for one of several processes cut
	// off from it at once, so that together they still keep each bucket's
	// limit. 0 (or 1) allows the whole limit.
	BucketShare float64
}

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore(o MemoryOptions) *MemoryStore {
	m := &MemoryStore{
		idleTTL:  o.IdleTTL,
		claimTTL: o.ClaimTTL,
		share:    o.BucketShare,
		routes:   make(map[routeKey]string),
		buckets:  make(map[bucketKey]*bucket),
		tokens:   make(map[string]*tokenState),
	}
	if m.idleTTL <= 0 {
		m.idleTTL = DefaultIdleTTL
	}
	if m.claimTTL <= 0 {
		m.claimTTL = DefaultClaimTTL
	}
	if !(m.share > 0 && m.share < 1) {
		m.share = 0
	}
	return m
}

// tokenState is what the store knows of one token beyond its buckets.
type tokenState struct {
	pauseUntil time.Time // the global pause after a global 429
	// sent holds the times of the last len(sent) sends, for the global
	// limit's sliding window: a ring whose oldest entry is at next, until an
	// entry is moved later by a late answer (see GlobalLimit); from then on
	// (moved), the oldest is found by looking at them all, and each send
	// takes the oldest's place, so an entry's index stays its own.
	sent  []time.Time
	next  int
	moved bool
	// invalid counts invalid requests per minute over InvalidWindow.
	invalid    [10]int
	invalidMin [10]int64
}

// oldest returns the index of the oldest entry.
func (ts *tokenState) oldest() int {
	if !ts.moved {
		return ts.next
	}
	o := 0
	for i := range ts.sent {
		if ts.sent[i].Before(ts.sent[o]) {
			o = i
		}
	}
	return o
}

// globalWait returns how long until one more request fits the global limit
// g at now, or 0.
func (ts *tokenState) globalWait(g GlobalLimit, now time.Time) time.Duration {
	if g.Limit <= 0 {
		return 0
	}
	if len(ts.sent) != g.Limit {
		ts.resize(g.Limit)
	}
	oldest := ts.sent[ts.oldest()]
	if oldest.IsZero() {
		return 0
	}
	if free := oldest.Add(g.Window); now.Before(free) {
		return free.Sub(now)
	}
	return 0
}

// take records a send at now in the global window and returns its entry
// (index + 1; 0 when there is no limit).
func (ts *tokenState) take(g GlobalLimit, now time.Time) int64 {
	if g.Limit <= 0 {
		return 0
	}
	i := ts.oldest()
	ts.sent[i] = now
	if !ts.moved {
		ts.next = (ts.next + 1) % len(ts.sent)
	}
	return int64(i) + 1
}

// answered moves a send's entry to the time of its answer less the margin,
// when that is later: the service counted the request by then.
func (ts *tokenState) answered(g GlobalLimit, slot int64, at time.Time, now time.Time) {
	i := int(slot) - 1
	if g.Limit <= 0 || i < 0 || i >= len(ts.sent) || !ts.sent[i].Equal(at) {
		return
	}
	if now.Sub(at) <= max(g.Margin, lateFloor) {
		return // answered within the margin: the margin covers it
	}
	if t := now.Add(-g.Margin); t.After(at) {
		ts.sent[i] = t
		ts.moved = true
	}
}

// lateFloor is the least delay of an answer that moves its send in the
// global window: below it, the margin of a very high rate (a few
// nanoseconds) would move every send for nothing.
const lateFloor = time.Millisecond

// resize keeps the newest send times in a ring of n entries.
func (ts *tokenState) resize(n int) {
	old := slices.Clone(ts.sent)
	slices.SortFunc(old, func(a, b time.Time) int { return b.Compare(a) }) // newest first
	ring := make([]time.Time, n)
	for i := 0; i < len(old) && i < n; i++ {
		ring[n-1-i] = old[i]
	}
	ts.sent, ts.next, ts.moved = ring, 0, false
}

func (ts *tokenState) countInvalid(now time.Time) {
	m := now.Unix() / 60
	i := int(m % int64(len(ts.invalid)))
	if ts.invalidMin[i] != m {
		ts.invalidMin[i], ts.invalid[i] = m, 0
	}
	ts.invalid[i]++
}

func (ts *tokenState) invalidCount(now time.Time) int {
	m := now.Unix() / 60
	n := 0
	for i, c := range ts.invalid {
		if m-ts.invalidMin[i] < int64(len(ts.invalid)) {
			n += c
		}
	}
	return n
}

// bucket is what the store knows of one rate-limit bucket for one major
// parameter.
type bucket struct {
	key        bucketKey
	id         string // X-RateLimit-Bucket, once known
	discovered bool   // an answer has been seen
	unlimited  bool   // the last answer carried no limit headers
	limit      int
	remaining  int       // slots left in the current window, less those reserved
	resetAt    time.Time // when the current window ends; zero when not yet known
	gen        int64     // counts windows, so a late answer from an old one is not applied to the new
	inflight   int       // reserved and not yet answered
	cur        int       // of those, reserved in the current window
	sent       int       // reserved in the current window, answered or not (for BucketShare)
	claimUntil time.Time // while undiscovered: when the discovery claim lapses
	lastUsed   time.Time
	wake       chan struct{} // closed when the state changes; nil when nobody waits
}

// notify wakes the bucket's waiters; the caller holds m.mu.
func (b *bucket) notify() {
	if b.wake != nil {
		close(b.wake)
		b.wake = nil
	}
}

// waitChan returns the channel closed at the next change; the caller holds
// m.mu.
func (b *bucket) waitChan() chan struct{} {
	if b.wake == nil {
		b.wake = make(chan struct{})
	}
	return b.wake
}

// pollInterval bounds a wait whose end is another request's answer, so that
// a lost wake-up costs at most this much.
const pollInterval = 250 * time.Millisecond

// check returns 0 when a slot is free, or how long to wait (pending: for
// another request's answer). It rolls an ended window over but takes
// nothing. share is the store's BucketShare. The caller holds m.mu.
func (b *bucket) check(now time.Time, share float64) (wait time.Duration, pending bool) {
	b.lastUsed = now
	switch {
	case !b.discovered:
		// Nothing is known yet: one request finds out the limits, the others
		// wait for its answer instead of all hitting an unknown limit.
		if b.inflight > 0 && now.Before(b.claimUntil) {
			return pollInterval, true
		}
	case b.unlimited:
	default:
		if !b.resetAt.IsZero() && !now.Before(b.resetAt) {
			// The window is over: a new one with the full limit begins, less
			// the requests of the last window still in flight, which may yet
			// reach the service in the new one. Its end is learned from the
			// first answer in it.
			b.remaining = max(b.limit-b.cur, 0)
			b.cur = 0
			b.sent = 0
			b.resetAt = time.Time{}
			b.gen++
		}
		// With a BucketShare, the window also ends for this store when it
		// has sent its share.
		full := b.remaining <= 0 || (share > 0 && b.sent >= max(1, int(float64(b.limit)*share)))
		if full && b.resetAt.IsZero() && b.inflight == 0 {
			// Used up, with no end known and no answer to come (the answers
			// carried no usable headers): start over rather than wait forever.
			b.remaining = max(b.limit, 1)
			b.sent = 0
			b.gen++
			full = false
		}
		if full {
			if b.resetAt.IsZero() {
				return pollInterval, true
			}
			return b.resetAt.Sub(now), false
		}
	}
	return 0, false
}

// take takes the slot check found free. The caller holds m.mu.
func (b *bucket) take(now time.Time, claimTTL time.Duration) (claim bool) {
	if !b.discovered {
		b.claimUntil = now.Add(claimTTL)
		claim = true
	} else if !b.unlimited {
		b.remaining--
		b.cur++
	}
	b.sent++
	b.inflight++
	return claim
}

// routeKey names a route of a token: method and template.
type routeKey struct{ token, method, route string }

// bucketKey names a bucket's state for one major parameter: by the bucket
// id once learned, by the route until then. Struct keys cost no allocation.
type bucketKey struct {
	id    string // learned bucket id; "" while unknown
	route routeKey
	major string
}

func (m *MemoryStore) token(name string) *tokenState {
	ts := m.tokens[name]
	if ts == nil {
		ts = &tokenState{}
		m.tokens[name] = ts
	}
	return ts
}

// bucketFor returns the bucket of r's route and major parameter, making it
// when new. The caller holds m.mu.
func (m *MemoryStore) bucketFor(r *Reservation, now time.Time) *bucket {
	rk := routeKey{r.Token, r.Method, r.Route}
	key := bucketKey{route: rk, major: r.Major}
	if id := m.routes[rk]; id != "" {
		key = bucketKey{id: id, route: routeKey{token: r.Token}, major: r.Major}
	}
	b := m.buckets[key]
	if b == nil {
		b = &bucket{key: key, id: key.id, lastUsed: now}
		m.buckets[key] = b
	}
	return b
}

// Reserve implements [Store].
func (m *MemoryStore) Reserve(_ context.Context, r *Reservation) error {
	r.Wait, r.GlobalWait, r.Pending, r.Wake = 0, false, false, nil
	r.Ticket = Ticket{}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := time.Now()
	m.sweep(now)
	ts := m.token(r.Token)
	if !r.NoGlobalPause && now.Before(ts.pauseUntil) {
		r.Wait, r.GlobalWait = ts.pauseUntil.Sub(now), true
		return nil
	}
	var b *bucket
	if r.Route != "" {
		b = m.bucketFor(r, now)
		if b.id != "" {
			r.Bucket = b.id
		}
		if wait, pending := b.check(now, m.share); wait > 0 {
			r.Wait, r.Pending, r.Wake = wait, pending, b.waitChan()
			return nil
		}
	}
	if wait := ts.globalWait(r.Global, now); wait > 0 {
		r.Wait, r.GlobalWait = wait, true
		return nil
	}
	r.Ticket.Slot = ts.take(r.Global, now)
	r.Ticket.At = now.UnixNano()
	r.Ticket.Held = true
	if b != nil {
		r.Ticket.Claim = b.take(now, m.claimTTL)
		r.Ticket.Gen = b.gen
		r.Ticket.Local = b
	}
	return nil
}

// Release implements [Store].
func (m *MemoryStore) Release(_ context.Context, r *Reservation) error {
	tk := r.Ticket
	r.Ticket = Ticket{}
	b, _ := tk.Local.(*bucket)
	if !tk.Held || b == nil {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	b.inflight--
	if tk.Gen == b.gen {
		b.sent = max(b.sent-1, 0)
	}
	if tk.Gen == b.gen && b.discovered && !b.unlimited && !tk.Claim {
		b.remaining++
		b.cur = max(b.cur-1, 0)
	}
	b.notify()
	return nil
}

// Observe implements [Store].
func (m *MemoryStore) Observe(_ context.Context, r *Reservation, o *Observation) error {
	tk := r.Ticket
	r.Ticket = Ticket{}
	now := time.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	ts := m.token(r.Token)
	if o.Invalid() {
		ts.countInvalid(now)
	}
	if o.TooMany() && o.Global {
		if until := now.Add(o.RetryAfter); until.After(ts.pauseUntil) {
			ts.pauseUntil = until
		}
	}
	if tk.Held && tk.Slot > 0 && o.Status != 0 {
		ts.answered(r.Global, tk.Slot, time.Unix(0, tk.At), now)
	}
	b, _ := tk.Local.(*bucket)
	if !tk.Held || b == nil {
		if r.Route == "" || o.Status == 0 {
			return nil
		}
		// An answer the store did not reserve for: learn from it all the same.
		b = m.bucketFor(r, now)
		tk.Gen = b.gen
		b.inflight++
	} else if tk.Gen == b.gen && !tk.Claim {
		b.cur = max(b.cur-1, 0)
	}
	b.inflight--
	if o.Status == 0 {
		// No answer: give the slot back unless the window moved on. A
		// request that did reach the service costs at most one 429.
		if tk.Gen == b.gen {
			b.sent = max(b.sent-1, 0)
		}
		if tk.Gen == b.gen && b.discovered && !b.unlimited && !tk.Claim {
			b.remaining++
		}
		b.notify()
		return nil
	}
	b = m.learn(r, b, tk.Gen, o, now)
	if b.id != "" {
		r.Bucket = b.id
	}
	return nil
}

// learn applies an answer to the bucket and returns the bucket that holds
// the state now. The caller holds m.mu.
func (m *MemoryStore) learn(r *Reservation, b *bucket, gen int64, o *Observation, now time.Time) *bucket {
	old := b
	defer func() { old.notify(); b.notify() }() // b may become the bucket merged into
	if o.Bucket != "" {
		rk := routeKey{r.Token, r.Method, r.Route}
		if m.routes[rk] != o.Bucket {
			m.routes[rk] = o.Bucket
		}
		if b.id != o.Bucket {
			b = m.rekey(b, o.Bucket, r.Token, r.Major)
			gen = b.gen
		}
	}
	b.lastUsed = now
	if o.TooMany() && (o.Global || o.Scope == "shared") {
		// Not this bucket's limit: the global pause covers the first, and a
		// shared limit does not count against the bucket. Nothing is learned,
		// so an unknown bucket stays unknown and is probed again.
		return b
	}
	first := !b.discovered
	b.discovered = true
	if o.TooMany() {
		// The bucket is used up until the wait the service asked for.
		if o.Limited {
			b.limit = o.Limit
		}
		b.limit = max(b.limit, 1)
		b.unlimited = false
		b.remaining = 0
		if until := now.Add(o.RetryAfter); until.After(b.resetAt) {
			b.resetAt = until
		}
		return b
	}
	if !o.Limited {
		if first {
			b.unlimited = true
		}
		return b
	}
	b.unlimited = false
	b.limit = o.Limit
	if gen != b.gen && !first {
		// An answer from a window already over says nothing of this one.
		return b
	}
	if first {
		// Requests still in flight on a bucket not yet known (a claim taken
		// under the bucket's id while this one was answered under its
		// route) count against what the answer says is left.
		b.remaining = max(o.Remaining-b.inflight, 0)
	} else {
		b.remaining = min(b.remaining, o.Remaining)
	}
	if o.HasReset {
		if until := now.Add(o.ResetAfter); until.After(b.resetAt) {
			b.resetAt = until
		}
	} else if b.resetAt.IsZero() {
		// No usable reset: assume a second, the platform's usual window.
		b.resetAt = now.Add(time.Second)
	}
	return b
}

// rekey moves b under the bucket id the service named, or merges it into the
// bucket already there (another route sharing the bucket). It returns the
// bucket that now holds the state. The caller holds m.mu.
func (m *MemoryStore) rekey(b *bucket, id, token, major string) *bucket {
	key := bucketKey{id: id, route: routeKey{token: token}, major: major}
	if m.buckets[b.key] == b {
		delete(m.buckets, b.key)
	}
	other := m.buckets[key]
	if other == nil || other == b {
		b.key, b.id = key, id
		m.buckets[key] = b
		return b
	}
	// Another route already uses this bucket: its state is the truth. The
	// requests still in flight on b count against it.
	b.notify()
	if other.discovered && !other.unlimited {
		other.remaining = max(other.remaining-b.inflight, 0)
	}
	return other
}

// sweep drops buckets unused for the idle TTL, at most once per TTL, so the
// map holds only buckets in recent use. The caller holds m.mu.
func (m *MemoryStore) sweep(now time.Time) {
	if now.Before(m.nextSweep) {
		return
	}
	m.nextSweep = now.Add(m.idleTTL)
	for k, b := range m.buckets {
		// A request waiting on a bucket refreshes lastUsed each time it
		// looks, and one waiting for a reset keeps resetAt ahead.
		if b.inflight == 0 && now.Sub(b.lastUsed) >= m.idleTTL && !now.Before(b.resetAt) {
			delete(m.buckets, k)
		}
	}
	for k, ts := range m.tokens {
		if !now.Before(ts.pauseUntil.Add(m.idleTTL)) && ts.invalidCount(now) == 0 && ts.globalIdle(now, m.idleTTL) {
			delete(m.tokens, k)
		}
	}
}

// globalIdle reports whether the token sent nothing for ttl.
func (ts *tokenState) globalIdle(now time.Time, ttl time.Duration) bool {
	if len(ts.sent) == 0 {
		return true
	}
	for _, e := range ts.sent {
		if now.Sub(e) < ttl {
			return false
		}
	}
	return true
}

// InvalidRequests implements [Store].
func (m *MemoryStore) InvalidRequests(_ context.Context, token string) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	ts := m.tokens[token]
	if ts == nil {
		return 0, nil
	}
	return ts.invalidCount(time.Now()), nil
}

// Keys lists what the store holds, as "token/bucket-or-route/major" and
// "token/global", each with the time left before it is dropped as idle; for
// the conformance suite's check that no key names a token.
func (m *MemoryStore) Keys(_ context.Context) ([]Key, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := time.Now()
	var out []Key
	for k, b := range m.buckets {
		name := k.id
		if name == "" {
			name = k.route.method + " " + k.route.route
		}
		tok := k.route.token
		out = append(out, Key{Name: tok + "/" + name + "/" + k.major, TTL: max(b.lastUsed.Add(m.idleTTL).Sub(now), b.resetAt.Sub(now), time.Nanosecond)})
	}
	for tok := range m.tokens {
		out = append(out, Key{Name: tok + "/global", TTL: m.idleTTL})
	}
	return out, nil
}

// Len returns how many buckets the store holds.
func (m *MemoryStore) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.buckets)
}
