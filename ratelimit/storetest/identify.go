package storetest

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit/ratelimit"
)

// IdentifyConfig is what the identify limiter under test must be made with.
type IdentifyConfig struct {
	// Window is how long one IDENTIFY takes its rate-limit key.
	Window time.Duration
	// Lease is how long a key stays taken when done never comes.
	Lease time.Duration
	// Reserve is how many session starts the limiter never spends.
	Reserve int
	// Clock is the clock the limiter must run on, when the suite runs on a
	// controlled clock; nil when it runs on real time (a limiter whose time
	// is its server's, such as the Redis one).
	Clock ratelimit.Clock
}

// The windows the identify suite asks for on real time: short, so that
// the suite takes seconds, but long against a round trip to a local server.
const (
	IdentifyWindow  = 300 * time.Millisecond
	IdentifyLease   = 900 * time.Millisecond
	IdentifyReserve = 2
)

// RunIdentify runs the conformance suite of [ratelimit.IdentifyLimiter]
// against limiters made by newLimiter: one IDENTIFY per rate-limit key per
// window, keys independent, callers of a key served in arrival order, done
// keeping the key a window from then, a lease never done expiring, the
// daily budget counted and refused at the reserve with
// [ratelimit.ErrIdentifyBudget], SetLimit's lower-remaining rule, a
// cancelled wait leaving no place in the queue behind, and (for a limiter
// that is a [KeyLister]) keys that name no token and all expire.
//
// With clocked, the suite gives each limiter a [ManualClock]
// (IdentifyConfig.Clock) and the production windows (5 s, lease 15 s), and
// moves the clock itself; without, it uses real time and the short
// windows above. Each subtest has its own token and runs in parallel.
func RunIdentify(t *testing.T, clocked bool, newLimiter func(t *testing.T, cfg IdentifyConfig) ratelimit.IdentifyLimiter) {
	var n atomic.Int64
	for _, tc := range []struct {
		name string
		f    func(e *identifyEnv)
	}{
		{"OnePerKeyPerWindow", testOnePerKey},
		{"KeysIndependent", testKeysIndependent},
		{"FIFOPerKey", testFIFO},
		{"DoneKeepsKeyAWindowFromThen", testDoneFromThen},
		{"LeaseExpires", testLeaseExpires},
		{"Budget", testBudget},
		{"BudgetRefusesWaiters", testBudgetWaiters},
		{"BudgetWindowResets", testBudgetReset},
		{"SetLimitLowerRemainingWins", testLowerRemaining},
		{"SetLimitRejectsNonsense", testSetLimitNonsense},
		{"CancelLeavesNoQueueEntry", testCancel},
		{"CancelledBeforeCall", testCancelledBefore},
		{"OutOfRange", testOutOfRange},
		{"KeysNameNoTokenAndExpire", testIdentifyKeys},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := IdentifyConfig{Window: IdentifyWindow, Lease: IdentifyLease, Reserve: IdentifyReserve}
			var clock *ManualClock
			if clocked {
				clock = NewManualClock()
				cfg = IdentifyConfig{Window: ratelimit.IdentifyWindow, Lease: ratelimit.DefaultIdentifyLease,
					Reserve: IdentifyReserve, Clock: clock}
			}
			tok := ratelimit.TokenHash("Bot " + secret + strconv.FormatInt(time.Now().UnixNano(), 36) + strconv.FormatInt(n.Add(1), 10))
			tc.f(&identifyEnv{t: t, l: newLimiter(t, cfg), cfg: cfg, clock: clock, tok: tok})
		})
	}
}

type identifyEnv struct {
	t     *testing.T
	l     ratelimit.IdentifyLimiter
	cfg   IdentifyConfig
	clock *ManualClock // nil on real time
	tok   string
}

// tolerance is how early a real-time limiter may seem to free a key: its
// server's clock and ours read the same system clock at different moments.
func (e *identifyEnv) tolerance() time.Duration {
	if e.clock != nil {
		return 0
	}
	return 10 * time.Millisecond
}

func (e *identifyEnv) now() time.Time {
	if e.clock != nil {
		return e.clock.Now()
	}
	return time.Now()
}

// elapse lets d pass.
func (e *identifyEnv) elapse(d time.Duration) {
	if e.clock != nil {
		e.clock.Advance(d)
		return
	}
	time.Sleep(d)
}

// settle gives goroutines just started the time to reach their wait (and,
// on a Redis limiter, their place in the queue). The clock does not move.
func (e *identifyEnv) settle() { time.Sleep(50 * time.Millisecond) }

// until waits for cond, moving the clock in small steps when there is one.
// It fails the test when cond does not come within ten leases.
func (e *identifyEnv) until(cond func() bool) {
	e.t.Helper()
	start := e.now()
	limit := 10 * e.cfg.Lease
	realLimit := time.Now().Add(max(limit, 10*time.Second))
	for !cond() {
		if e.now().Sub(start) > limit || time.Now().After(realLimit) {
			e.t.Fatalf("nothing happened within %v", limit)
		}
		time.Sleep(time.Millisecond)
		if e.clock != nil {
			e.clock.Advance(e.cfg.Window / 100)
		}
	}
}

type acquired struct {
	done func()
	at   time.Time
	err  error
}

// start calls Acquire on its own goroutine; the answer comes on the channel,
// with the instant it came.
func (e *identifyEnv) start(ctx context.Context, shard, maxConcurrency int) <-chan acquired {
	ch := make(chan acquired, 1)
	go func() {
		done, err := e.l.Acquire(ctx, e.tok, shard, maxConcurrency)
		ch <- acquired{done, e.now(), err}
	}()
	return ch
}

// wait waits for the answer of start, moving the clock.
func (e *identifyEnv) wait(ch <-chan acquired) acquired {
	e.t.Helper()
	var a acquired
	got := false
	e.until(func() bool {
		if got {
			return true
		}
		select {
		case a = <-ch:
			got = true
		default:
		}
		return got
	})
	return a
}

// acquire takes shard's key, failing the test on an error.
func (e *identifyEnv) acquire(shard, maxConcurrency int) acquired {
	e.t.Helper()
	a := e.wait(e.start(context.Background(), shard, maxConcurrency))
	require.NoError(e.t, a.err)
	return a
}

// notBefore asserts that a came no earlier than t.
func (e *identifyEnv) notBefore(a acquired, t time.Time, what string) {
	e.t.Helper()
	assert.False(e.t, a.at.Before(t.Add(-e.tolerance())), "%s: came %v early", what, t.Sub(a.at))
}

// testOnePerKey: shards of one rate-limit key (0, 4, 8 at max_concurrency
// 4) identify a window apart.
func testOnePerKey(e *identifyEnv) {
	a := e.acquire(0, 4)
	doneAt := e.now()
	a.done()
	b := e.acquire(4, 4)
	e.notBefore(b, doneAt.Add(e.cfg.Window), "shard 4 after shard 0")
	doneAt = e.now()
	b.done()
	c := e.acquire(8, 4)
	e.notBefore(c, doneAt.Add(e.cfg.Window), "shard 8 after shard 4")
	c.done()
}

// testKeysIndependent: one shard of each key identifies at once, whatever
// the others hold.
func testKeysIndependent(e *identifyEnv) {
	start := time.Now()
	var dones []func()
	for shard := range 4 {
		ch := e.start(context.Background(), shard, 4)
		select {
		case a := <-ch:
			require.NoError(e.t, a.err)
			dones = append(dones, a.done)
		case <-time.After(5 * time.Second):
			e.t.Fatalf("shard %d waited for another key", shard)
		}
	}
	if e.clock == nil {
		// No done is called: a key that waited for another would wait out
		// its lease, so the bound is the lease, not a window a loaded
		// machine may overrun.
		assert.Less(e.t, time.Since(start), e.cfg.Lease, "four keys took longer than a lease")
	}
	for _, d := range dones {
		d()
	}
}

// testFIFO: callers of one key are served in the order they came, a
// window apart.
func testFIFO(e *identifyEnv) {
	hold := e.acquire(0, 2)
	const n = 4
	type got struct {
		i  int
		at time.Time
	}
	var mu sync.Mutex
	var order []got
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			done, err := e.l.Acquire(context.Background(), e.tok, 2*(i+1), 2)
			if !assert.NoError(e.t, err) {
				return
			}
			mu.Lock()
			order = append(order, got{i, e.now()})
			mu.Unlock()
			done()
		}()
		e.settle() // i is in the queue before i+1 comes
	}
	doneAt := e.now()
	hold.done()
	e.until(func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(order) == n
	})
	wg.Wait()
	prev := doneAt
	for k, g := range order {
		assert.Equal(e.t, k, g.i, "served out of arrival order: %v", order)
		assert.False(e.t, g.at.Before(prev.Add(e.cfg.Window-e.tolerance())), "caller %d came %v after the one before", g.i, g.at.Sub(prev))
		prev = g.at
	}
}

// testDoneFromThen: a handshake that takes a while keeps the key a window
// from its done, not from the take.
func testDoneFromThen(e *identifyEnv) {
	a := e.acquire(1, 3)
	e.elapse(e.cfg.Window / 2)
	doneAt := e.now()
	a.done()
	a.done() // a second done changes nothing
	b := e.acquire(4, 3)
	e.notBefore(b, doneAt.Add(e.cfg.Window), "the key after a late done")
	b.done()
}

// testLeaseExpires: a taker that never says it identified (a process that
// died mid-identify) holds the key for the lease, no longer; its late done
// does not free the key its successor holds.
func testLeaseExpires(e *identifyEnv) {
	a := e.acquire(0, 1)
	b := e.acquire(5, 1)
	e.notBefore(b, a.at.Add(e.cfg.Lease), "the key of a lease never done")
	if e.clock == nil {
		assert.Less(e.t, b.at.Sub(a.at), e.cfg.Lease+e.cfg.Window, "the lease did not expire in time")
	}
	a.done() // late: the key is b's now
	c := e.start(context.Background(), 7, 1)
	e.elapse(e.cfg.Window + e.cfg.Window/2)
	e.settle()
	select {
	case got := <-c:
		e.t.Fatalf("a late done freed its successor's key (err %v)", got.err)
	default:
	}
	doneAt := e.now()
	b.done()
	ac := e.wait(c)
	require.NoError(e.t, ac.err)
	e.notBefore(ac, doneAt.Add(e.cfg.Window), "the key after its holder's done")
	ac.done()
}

// testBudget: each take spends a session start; at the reserve Acquire
// refuses at once with ErrIdentifyBudget, saying how many are left but not
// naming the token.
func testBudget(e *identifyEnv) {
	ctx := context.Background()
	require.NoError(e.t, e.l.SetLimit(ctx, e.tok, ratelimit.SessionStartLimit{
		Total: 1000, Remaining: e.cfg.Reserve + 2, ResetAfter: time.Hour, MaxConcurrency: 4}))
	for shard := range 2 {
		e.acquire(shard, 4).done()
	}
	_, err := e.l.Acquire(ctx, e.tok, 2, 4)
	require.ErrorIs(e.t, err, ratelimit.ErrIdentifyBudget)
	assert.Contains(e.t, err.Error(), strconv.Itoa(e.cfg.Reserve)+" of 1000", "the figures")
	assert.NotContains(e.t, err.Error(), e.tok)
	assert.NotContains(e.t, err.Error(), secret)
	// Refused, it took nothing: still refused, and the key is free.
	_, err = e.l.Acquire(ctx, e.tok, 3, 4)
	require.ErrorIs(e.t, err, ratelimit.ErrIdentifyBudget)
}

// testBudgetWaiters: callers queued for a key when the budget runs down
// are refused too, not served past the reserve.
func testBudgetWaiters(e *identifyEnv) {
	ctx := context.Background()
	require.NoError(e.t, e.l.SetLimit(ctx, e.tok, ratelimit.SessionStartLimit{
		Total: 1000, Remaining: e.cfg.Reserve + 2, ResetAfter: time.Hour, MaxConcurrency: 1}))
	a := e.acquire(0, 1)
	b := e.start(ctx, 1, 1)
	e.settle()
	c := e.start(ctx, 2, 1)
	e.settle()
	a.done()
	ab := e.wait(b)
	require.NoError(e.t, ab.err, "the second start is within the budget")
	ab.done()
	ac := e.wait(c)
	require.ErrorIs(e.t, ac.err, ratelimit.ErrIdentifyBudget, "the third would spend the reserve")
}

// testBudgetReset: when the budget's window ends, the whole total is back.
func testBudgetReset(e *identifyEnv) {
	ctx := context.Background()
	require.NoError(e.t, e.l.SetLimit(ctx, e.tok, ratelimit.SessionStartLimit{
		Total: 50, Remaining: e.cfg.Reserve, ResetAfter: e.cfg.Window, MaxConcurrency: 1}))
	_, err := e.l.Acquire(ctx, e.tok, 0, 1)
	require.ErrorIs(e.t, err, ratelimit.ErrIdentifyBudget)
	e.elapse(e.cfg.Window + e.cfg.Window/10)
	e.acquire(0, 1).done()
}

// testLowerRemaining: within a budget window, a report with more starts
// left than the limiter counted (an older answer of GET /gateway/bot) does
// not give starts back; a lower one is taken.
func testLowerRemaining(e *identifyEnv) {
	ctx := context.Background()
	r := e.cfg.Reserve
	limit := ratelimit.SessionStartLimit{Total: 1000, Remaining: r + 3, ResetAfter: time.Hour, MaxConcurrency: 4}
	require.NoError(e.t, e.l.SetLimit(ctx, e.tok, limit))
	e.acquire(0, 4).done()
	e.acquire(1, 4).done() // r+1 left
	limit.Remaining = r + 50
	require.NoError(e.t, e.l.SetLimit(ctx, e.tok, limit))
	e.acquire(2, 4).done() // r left
	_, err := e.l.Acquire(ctx, e.tok, 3, 4)
	require.ErrorIs(e.t, err, ratelimit.ErrIdentifyBudget, "an older, higher report gave starts back")

	// A lower report wins.
	other := e.tok + "-lower"
	limit.Remaining = r + 10
	require.NoError(e.t, e.l.SetLimit(ctx, other, limit))
	limit.Remaining = r + 1
	require.NoError(e.t, e.l.SetLimit(ctx, other, limit))
	done, err := e.l.Acquire(ctx, other, 0, 4)
	require.NoError(e.t, err)
	done()
	_, err = e.l.Acquire(ctx, other, 1, 4)
	require.ErrorIs(e.t, err, ratelimit.ErrIdentifyBudget, "the lower report was not taken")
}

func testSetLimitNonsense(e *identifyEnv) {
	ctx := context.Background()
	for _, l := range []ratelimit.SessionStartLimit{
		{Total: 0, Remaining: 0, MaxConcurrency: 1},
		{Total: 1000, Remaining: -1, MaxConcurrency: 1},
		{Total: 1000, Remaining: 5, ResetAfter: -time.Second, MaxConcurrency: 1},
	} {
		assert.Error(e.t, e.l.SetLimit(ctx, e.tok, l), "%+v", l)
	}
	// None was recorded: no budget is enforced.
	e.acquire(0, 1).done()
}

// testCancel: a caller that gives up leaves the queue; the caller behind it
// is served when the key frees, not after the one that left.
func testCancel(e *identifyEnv) {
	hold := e.acquire(0, 1)
	ctx, cancel := context.WithCancel(context.Background())
	gone := e.start(ctx, 1, 1)
	e.settle()
	next := e.start(context.Background(), 2, 1)
	e.settle()
	cancel()
	g := e.wait(gone)
	require.ErrorIs(e.t, g.err, context.Canceled)
	assert.Nil(e.t, g.done)
	doneAt := e.now()
	hold.done()
	n := e.wait(next)
	require.NoError(e.t, n.err)
	e.notBefore(n, doneAt.Add(e.cfg.Window), "the next caller")
	if e.clock == nil {
		assert.Less(e.t, n.at.Sub(doneAt), 2*e.cfg.Window, "the caller that left still held its place")
	}
	n.done()
}

// testCancelledBefore: a caller whose context is already done takes
// nothing, not even a free key.
func testCancelledBefore(e *identifyEnv) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	done, err := e.l.Acquire(ctx, e.tok, 0, 1)
	require.ErrorIs(e.t, err, context.Canceled)
	assert.Nil(e.t, done)
	start := e.now()
	a := e.acquire(0, 1)
	// Taken for the caller that gave up, the key would be free only after
	// its lease (no done comes).
	assert.Less(e.t, a.at.Sub(start), e.cfg.Lease, "the key was taken for a caller that gave up")
	a.done()
}

func testOutOfRange(e *identifyEnv) {
	ctx := context.Background()
	for _, c := range [][2]int{{-1, 1}, {0, 0}, {3, -2}} {
		_, err := e.l.Acquire(ctx, e.tok, c[0], c[1])
		assert.Error(e.t, err, "shard %d, max_concurrency %d", c[0], c[1])
		assert.False(e.t, errors.Is(err, ratelimit.ErrIdentifyBudget))
	}
}

// testIdentifyKeys: a limiter that keeps keys names no token in them, and
// every key expires.
func testIdentifyKeys(e *identifyEnv) {
	kl, ok := e.l.(KeyLister)
	if !ok {
		e.t.Skip("the limiter keeps no keys")
	}
	ctx := context.Background()
	require.NoError(e.t, e.l.SetLimit(ctx, e.tok, ratelimit.SessionStartLimit{Total: 1000, Remaining: 900, ResetAfter: time.Hour, MaxConcurrency: 2}))
	hold := e.acquire(0, 2)
	wctx, cancel := context.WithCancel(ctx)
	w := e.start(wctx, 2, 2)
	e.settle()
	keys, err := kl.Keys(ctx)
	require.NoError(e.t, err)
	mine := 0
	for _, k := range keys {
		assert.NotContains(e.t, k.Name, secret)
		if strings.Contains(k.Name, e.tok) {
			mine++
			assert.Positive(e.t, k.TTL, "%s has no TTL", k.Name)
		}
	}
	assert.NotZero(e.t, mine, "no key of the token")
	cancel()
	require.ErrorIs(e.t, e.wait(w).err, context.Canceled)
	hold.done()
}
