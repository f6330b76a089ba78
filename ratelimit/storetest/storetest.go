// Package storetest checks that a [ratelimit.Store] behaves as the package
// ratelimit says: window roll-over, the merge of concurrent observations,
// the discovery claim and its expiry, an answer not reserved for, the
// global pause and limit, the exemption from the pause, shared 429s, the count of invalid requests, atomic reservations, and keys that
// name no token and all expire.
//
// A store's tests call [Run] with a function that makes a store:
//
//	func TestConformance(t *testing.T) {
//		storetest.Run(t, func(t *testing.T, cfg storetest.Config) ratelimit.Store {
//			return mystore.New(..., cfg.ClaimTTL)
//		})
//	}
//
// Stores from one call of newStore are used by one subtest; the subtests run
// in parallel, each with its own token.
//
// [RunIdentify] is the same for a [ratelimit.IdentifyLimiter], the gateway's
// identify spacing and daily budget.
package storetest

import (
	"context"
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

// Config is what the store under test must be made with.
type Config struct {
	// ClaimTTL is how long a discovery claim holds without an answer.
	ClaimTTL time.Duration
}

// ClaimTTL is the claim TTL the suite asks for.
const ClaimTTL = 400 * time.Millisecond

// KeyLister is implemented by a store that can list its keys, for the checks
// that keys name no token and all expire.
type KeyLister interface {
	Keys(ctx context.Context) ([]ratelimit.Key, error)
}

// secret is a token and a webhook token the suite hashes; no key may hold it.
const secret = "storetest-secret-0123456789"

// Run runs the conformance suite against stores made by newStore.
func Run(t *testing.T, newStore func(t *testing.T, cfg Config) ratelimit.Store) {
	cfg := Config{ClaimTTL: ClaimTTL}
	var n atomic.Int64
	token := func() string {
		// A fresh token per subtest, so that stores sharing a backend do not
		// see each other's state.
		return ratelimit.TokenHash("Bot " + secret + strconv.FormatInt(time.Now().UnixNano(), 36) + strconv.FormatInt(n.Add(1), 10))
	}
	for _, tc := range []struct {
		name string
		f    func(t *testing.T, s ratelimit.Store, tok string)
	}{
		{"DiscoveryClaim", testDiscoveryClaim},
		{"ClaimExpiry", testClaimExpiry},
		{"ReleaseClaim", testReleaseClaim},
		{"WindowRollOver", testWindowRollOver},
		{"MergeConcurrentObservations", testMerge},
		{"LateAnswerFromOldWindow", testLateAnswer},
		{"NoAnswerGivesSlotBack", testNoAnswer},
		{"RoutesSharingABucket", testSharedBucket},
		{"AnswerNotReservedFor", testUnreserved},
		{"AtomicBucket", testAtomicBucket},
		{"GlobalLimit", testGlobalLimit},
		{"AtomicGlobal", testAtomicGlobal},
		{"SlowAnswerKeepsItsPlace", testSlowAnswer},
		{"GlobalPause", testGlobalPause},
		{"NoGlobalPause", testNoGlobalPause},
		{"SharedScope429", testSharedScope},
		{"InvalidRequests", testInvalid},
		{"Unlimited", testUnlimited},
		{"KeysNameNoTokenAndExpire", testKeys},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.f(t, newStore(t, cfg), token())
		})
	}
}

var ctx = context.Background()

func res(tok, route, major string) *ratelimit.Reservation {
	return &ratelimit.Reservation{Token: tok, Method: "GET", Route: route, Major: major}
}

// reserve calls Reserve and fails the test on an error.
func reserve(t *testing.T, s ratelimit.Store, r *ratelimit.Reservation) *ratelimit.Reservation {
	t.Helper()
	require.NoError(t, s.Reserve(ctx, r))
	return r
}

func observe(t *testing.T, s ratelimit.Store, r *ratelimit.Reservation, o ratelimit.Observation) {
	t.Helper()
	require.NoError(t, s.Observe(ctx, r, &o))
}

// limited is a 200 answer's headers.
func limited(bucket string, limit, remaining int, reset time.Duration) ratelimit.Observation {
	return ratelimit.Observation{Status: 200, Bucket: bucket, Limited: true, Limit: limit, Remaining: remaining, ResetAfter: reset, HasReset: true}
}

// discover takes the claim on a new bucket and answers it.
func discover(t *testing.T, s ratelimit.Store, r *ratelimit.Reservation, o ratelimit.Observation) {
	t.Helper()
	reserve(t, s, r)
	require.Zero(t, r.Wait)
	require.True(t, r.Ticket.Held)
	require.True(t, r.Ticket.Claim, "the first request on a new bucket claims its discovery")
	observe(t, s, r, o)
}

func testDiscoveryClaim(t *testing.T, s ratelimit.Store, tok string) {
	a := reserve(t, s, res(tok, "/guilds/{guild.id}", "1"))
	require.Zero(t, a.Wait)
	assert.True(t, a.Ticket.Claim)
	b := reserve(t, s, res(tok, "/guilds/{guild.id}", "1"))
	assert.Positive(t, b.Wait)
	assert.True(t, b.Pending, "waits for the claim's answer, not a limit")
	assert.False(t, b.GlobalWait)
	assert.False(t, b.Ticket.Held)
	// Another major parameter is another bucket.
	c := reserve(t, s, res(tok, "/guilds/{guild.id}", "2"))
	assert.Zero(t, c.Wait)
	require.NoError(t, s.Release(ctx, c))

	observe(t, s, a, limited("bk", 3, 2, 5*time.Second))
	reserve(t, s, b)
	assert.Zero(t, b.Wait, "the answer ends the claim")
	assert.False(t, b.Ticket.Claim)
	assert.Equal(t, "bk", b.Bucket)
	observe(t, s, b, limited("bk", 3, 1, 5*time.Second))
}

func testClaimExpiry(t *testing.T, s ratelimit.Store, tok string) {
	a := reserve(t, s, res(tok, "/channels/{channel.id}", "9"))
	require.True(t, a.Ticket.Claim)
	// The claimer dies: no answer, no release.
	b := reserve(t, s, res(tok, "/channels/{channel.id}", "9"))
	require.True(t, b.Pending)
	deadline := time.Now().Add(ClaimTTL + 2*time.Second)
	for b.Wait > 0 && time.Now().Before(deadline) {
		time.Sleep(min(b.Wait, 50*time.Millisecond))
		reserve(t, s, b)
	}
	require.Zero(t, b.Wait, "after the claim's TTL another request claims")
	assert.True(t, b.Ticket.Claim)
	observe(t, s, b, limited("c", 5, 4, time.Second))
}

func testReleaseClaim(t *testing.T, s ratelimit.Store, tok string) {
	a := reserve(t, s, res(tok, "/guilds/{guild.id}/roles", "1"))
	require.True(t, a.Ticket.Claim)
	require.NoError(t, s.Release(ctx, a))
	assert.False(t, a.Ticket.Held, "Release ends the ticket")
	b := reserve(t, s, res(tok, "/guilds/{guild.id}/roles", "1"))
	assert.Zero(t, b.Wait, "a released claim is free at once")
	assert.True(t, b.Ticket.Claim)
	require.NoError(t, s.Release(ctx, b))
}

func testWindowRollOver(t *testing.T, s ratelimit.Store, tok string) {
	route := "/guilds/{guild.id}/members"
	discover(t, s, res(tok, route, "1"), limited("w", 2, 1, 300*time.Millisecond))
	r := reserve(t, s, res(tok, route, "1"))
	require.Zero(t, r.Wait)
	observe(t, s, r, limited("w", 2, 0, 290*time.Millisecond))
	r = reserve(t, s, res(tok, route, "1"))
	require.Positive(t, r.Wait, "used up")
	assert.False(t, r.GlobalWait)
	assert.False(t, r.Pending)
	assert.LessOrEqual(t, r.Wait, 300*time.Millisecond)
	time.Sleep(r.Wait + 10*time.Millisecond)
	for range 2 {
		reserve(t, s, r)
		assert.Zero(t, r.Wait, "a new window has the full limit")
		require.NoError(t, s.Release(ctx, r))
		reserve(t, s, r)
		require.Zero(t, r.Wait)
		observe(t, s, r, limited("w", 2, 1, 300*time.Millisecond))
	}
}

func testMerge(t *testing.T, s ratelimit.Store, tok string) {
	route := "/guilds/{guild.id}/bans"
	discover(t, s, res(tok, route, "1"), limited("m", 10, 9, 2*time.Second))
	r1 := reserve(t, s, res(tok, route, "1"))
	r2 := reserve(t, s, res(tok, route, "1"))
	require.Zero(t, r1.Wait)
	require.Zero(t, r2.Wait)
	// Two answers from one window, in either order: the lower remaining and
	// the later reset win.
	observe(t, s, r2, limited("m", 10, 1, 3*time.Second))
	observe(t, s, r1, limited("m", 10, 7, 2*time.Second))
	r := reserve(t, s, res(tok, route, "1"))
	require.Zero(t, r.Wait, "one left")
	r = reserve(t, s, res(tok, route, "1"))
	require.Positive(t, r.Wait, "the lower remaining won")
	assert.Greater(t, r.Wait, 2500*time.Millisecond, "the later reset won")
	assert.LessOrEqual(t, r.Wait, 3*time.Second)
}

func testLateAnswer(t *testing.T, s ratelimit.Store, tok string) {
	route := "/guilds/{guild.id}/invites"
	discover(t, s, res(tok, route, "1"), limited("l", 3, 2, 200*time.Millisecond))
	late := reserve(t, s, res(tok, route, "1"))
	require.Zero(t, late.Wait)
	time.Sleep(250 * time.Millisecond)
	// A new window: its limit less the request of the last one still in
	// flight, which may yet reach the service in this one.
	r1 := reserve(t, s, res(tok, route, "1"))
	require.Zero(t, r1.Wait)
	r2 := reserve(t, s, res(tok, route, "1"))
	require.Zero(t, r2.Wait)
	r3 := reserve(t, s, res(tok, route, "1"))
	assert.Positive(t, r3.Wait, "the request still in flight counts against the new window")
	// The old request's answer, saying 0 left, says nothing of this window.
	observe(t, s, late, limited("l", 3, 0, 0))
	require.NoError(t, s.Release(ctx, r2))
	r3 = reserve(t, s, res(tok, route, "1"))
	assert.Zero(t, r3.Wait, "an answer from an old window says nothing of this one")
	require.NoError(t, s.Release(ctx, r3))
	observe(t, s, r1, limited("l", 3, 2, 300*time.Millisecond))
}

func testNoAnswer(t *testing.T, s ratelimit.Store, tok string) {
	route := "/guilds/{guild.id}/channels"
	discover(t, s, res(tok, route, "1"), limited("n", 1, 1, 5*time.Second))
	r := reserve(t, s, res(tok, route, "1"))
	require.Zero(t, r.Wait)
	observe(t, s, r, ratelimit.Observation{Status: 0})
	r = reserve(t, s, res(tok, route, "1"))
	assert.Zero(t, r.Wait, "a request with no answer gave its slot back")
	require.NoError(t, s.Release(ctx, r))
	r = reserve(t, s, res(tok, route, "1"))
	assert.Zero(t, r.Wait, "so did a released one")
	observe(t, s, r, limited("n", 1, 0, 5*time.Second))
	r = reserve(t, s, res(tok, route, "1"))
	assert.Positive(t, r.Wait)
}

func testSharedBucket(t *testing.T, s ratelimit.Store, tok string) {
	a, b := "/guilds/{guild.id}/roles/{role.id}", "/guilds/{guild.id}/roles"
	discover(t, s, res(tok, a, "1"), limited("shared", 2, 1, 5*time.Second))
	// Route b is new: it claims, and its answer names the same bucket.
	r := reserve(t, s, res(tok, b, "1"))
	require.Zero(t, r.Wait)
	observe(t, s, r, limited("shared", 2, 0, 5*time.Second))
	assert.Equal(t, "shared", r.Bucket)
	r = reserve(t, s, res(tok, a, "1"))
	assert.Positive(t, r.Wait, "route a sees what route b used")
	assert.Equal(t, "shared", r.Bucket)
}

func testUnreserved(t *testing.T, s ratelimit.Store, tok string) {
	route := "/channels/{channel.id}/messages"
	// An answer to a request the store did not reserve for (sent by a
	// client that does not use it) still teaches it the bucket.
	require.NoError(t, s.Observe(ctx, res(tok, route, "5"), &ratelimit.Observation{
		Status: 200, Bucket: "u", Limited: true, Limit: 2, Remaining: 0, ResetAfter: 3 * time.Second, HasReset: true,
	}))
	r := reserve(t, s, res(tok, route, "5"))
	assert.Positive(t, r.Wait, "used up, as the answer said")
	assert.Greater(t, r.Wait, 2*time.Second, "until the answer's reset")
	assert.False(t, r.Pending, "known: no discovery to wait for")
	assert.Equal(t, "u", r.Bucket)
	// Nor did it take a slot of another major parameter: "6" is a new
	// bucket of the route's id, its claim free, and free again once
	// released.
	other := reserve(t, s, res(tok, route, "6"))
	assert.Zero(t, other.Wait)
	assert.True(t, other.Ticket.Claim)
	assert.Equal(t, "u", other.Bucket, "the route's bucket id, learned from the answer")
	require.NoError(t, s.Release(ctx, other))
	other = reserve(t, s, res(tok, route, "6"))
	require.Zero(t, other.Wait, "the released claim is free")
	assert.True(t, other.Ticket.Claim)
	observe(t, s, other, limited("u", 2, 1, 3*time.Second))
	other = reserve(t, s, res(tok, route, "6"))
	assert.Zero(t, other.Wait, "one left, as the answer on \"6\" said: the answer on \"5\" took nothing here")
	assert.Equal(t, "u", other.Bucket)
	require.NoError(t, s.Release(ctx, other))
}

// race runs f on n goroutines at once and counts the reservations taken.
func race(t *testing.T, s ratelimit.Store, n int, mk func(i int) *ratelimit.Reservation) (taken []*ratelimit.Reservation) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := mk(i)
			<-start
			if !assert.NoError(t, s.Reserve(ctx, r)) {
				return
			}
			if r.Wait == 0 {
				mu.Lock()
				taken = append(taken, r)
				mu.Unlock()
			}
		}()
	}
	close(start)
	wg.Wait()
	return taken
}

func testAtomicBucket(t *testing.T, s ratelimit.Store, tok string) {
	route := "/guilds/{guild.id}/emojis"
	discover(t, s, res(tok, route, "1"), limited("a", 6, 5, 5*time.Second))
	taken := race(t, s, 20, func(int) *ratelimit.Reservation { return res(tok, route, "1") })
	assert.Len(t, taken, 5, "exactly the remaining slots, never more")
	for _, r := range taken {
		require.NoError(t, s.Release(ctx, r))
	}
}

func testGlobalLimit(t *testing.T, s ratelimit.Store, tok string) {
	g := ratelimit.GlobalLimit{Limit: 3, Window: 400 * time.Millisecond}
	for i := range 3 {
		r := res(tok, "/guilds/{guild.id}", strconv.Itoa(i))
		r.Global = g
		reserve(t, s, r)
		require.Zero(t, r.Wait)
		observe(t, s, r, ratelimit.Observation{Status: 200})
	}
	r := res(tok, "", "")
	r.Global = g
	reserve(t, s, r)
	require.Positive(t, r.Wait, "a fourth in the window waits, bucket or none")
	assert.True(t, r.GlobalWait)
	assert.LessOrEqual(t, r.Wait, g.Window)
	// The wait took nothing: the bucket it would have used is still free.
	other := res(tok, "/guilds/{guild.id}", "9")
	other.Global = g
	reserve(t, s, other)
	require.Positive(t, other.Wait)
	time.Sleep(r.Wait + 10*time.Millisecond)
	reserve(t, s, other)
	assert.Zero(t, other.Wait, "the window slid past the first")
	assert.True(t, other.Ticket.Claim, "the bucket's claim was not taken while waiting")
	require.NoError(t, s.Release(ctx, other))
}

func testAtomicGlobal(t *testing.T, s ratelimit.Store, tok string) {
	g := ratelimit.GlobalLimit{Limit: 5, Window: 10 * time.Second}
	taken := race(t, s, 20, func(i int) *ratelimit.Reservation {
		r := res(tok, "/guilds/{guild.id}", strconv.Itoa(i))
		r.Global = g
		return r
	})
	assert.Len(t, taken, 5, "exactly the global limit, never more")
}

func testGlobalPause(t *testing.T, s ratelimit.Store, tok string) {
	r := reserve(t, s, res(tok, "/guilds/{guild.id}", "1"))
	require.Zero(t, r.Wait)
	observe(t, s, r, ratelimit.Observation{Status: 429, Global: true, Scope: "global", RetryAfter: 500 * time.Millisecond})
	for _, route := range []string{"/guilds/{guild.id}", "/channels/{channel.id}", ""} {
		o := reserve(t, s, res(tok, route, "2"))
		assert.True(t, o.GlobalWait, "every request of the token pauses: %q", route)
		assert.Positive(t, o.Wait)
		assert.LessOrEqual(t, o.Wait, 500*time.Millisecond)
		assert.False(t, o.Ticket.Held)
	}
	// Observed without a reservation (a client that never reserved) too.
	other := ratelimit.TokenHash("Bot other" + tok)
	require.NoError(t, s.Observe(ctx, res(other, "", ""), &ratelimit.Observation{Status: 429, Global: true, RetryAfter: time.Second}))
	assert.True(t, reserve(t, s, res(other, "", "")).GlobalWait)
	// A third token is not paused.
	third := reserve(t, s, res(ratelimit.TokenHash("Bot third"+tok), "", ""))
	assert.Zero(t, third.Wait)
	require.NoError(t, s.Release(ctx, third))
	time.Sleep(520 * time.Millisecond)
	o := reserve(t, s, res(tok, "", ""))
	assert.Zero(t, o.Wait, "the pause ends")
	require.NoError(t, s.Release(ctx, o))
}

func testNoGlobalPause(t *testing.T, s ratelimit.Store, tok string) {
	r := reserve(t, s, res(tok, "/guilds/{guild.id}", "1"))
	require.Zero(t, r.Wait)
	observe(t, s, r, ratelimit.Observation{Status: 429, Global: true, Scope: "global", RetryAfter: 5 * time.Second})
	paused := reserve(t, s, res(tok, "/interactions/{interaction.id}/{interaction.token}/callback", "7"))
	assert.True(t, paused.GlobalWait, "without the exemption the request pauses")
	assert.False(t, paused.Ticket.Held)
	// An exempt request is sent at once, with and without a route, and
	// still keeps its bucket.
	route := "/interactions/{interaction.id}/{interaction.token}/callback"
	for _, rt := range []string{route, ""} {
		e := res(tok, rt, "7")
		e.NoGlobalPause = true
		reserve(t, s, e)
		assert.Zero(t, e.Wait, "exempt from the global pause: %q", rt)
		require.True(t, e.Ticket.Held)
		if rt == "" {
			require.NoError(t, s.Release(ctx, e))
			continue
		}
		observe(t, s, e, limited("ix", 1, 0, 5*time.Second))
	}
	e := res(tok, route, "7")
	e.NoGlobalPause = true
	reserve(t, s, e)
	assert.Positive(t, e.Wait, "its bucket still applies")
	assert.False(t, e.GlobalWait)
	// The pause still holds the others.
	o := reserve(t, s, res(tok, "", ""))
	assert.True(t, o.GlobalWait)
}

func testSharedScope(t *testing.T, s ratelimit.Store, tok string) {
	route := "/guilds/{guild.id}/widget"
	discover(t, s, res(tok, route, "1"), limited("sh", 5, 4, 5*time.Second))
	r := reserve(t, s, res(tok, route, "1"))
	observe(t, s, r, ratelimit.Observation{Status: 429, Scope: "shared", Bucket: "sh", RetryAfter: 2 * time.Second})
	r = reserve(t, s, res(tok, route, "1"))
	assert.Zero(t, r.Wait, "a shared limit does not use up the bucket")
	require.NoError(t, s.Release(ctx, r))
	n, err := s.InvalidRequests(ctx, tok)
	require.NoError(t, err)
	assert.Zero(t, n, "a shared 429 is not an invalid request")
	// A user-scope 429 uses the bucket up until its wait.
	r = reserve(t, s, res(tok, route, "1"))
	observe(t, s, r, ratelimit.Observation{Status: 429, Scope: "user", Bucket: "sh", RetryAfter: 2 * time.Second})
	r = reserve(t, s, res(tok, route, "1"))
	assert.Greater(t, r.Wait, time.Second)
	assert.False(t, r.GlobalWait)
}

func testInvalid(t *testing.T, s ratelimit.Store, tok string) {
	for _, o := range []ratelimit.Observation{
		{Status: 401}, {Status: 403}, {Status: 429, Scope: "user", RetryAfter: time.Millisecond},
		{Status: 429, Scope: "shared", RetryAfter: time.Millisecond}, {Status: 404}, {Status: 200},
	} {
		r := reserve(t, s, res(tok, "", ""))
		observe(t, s, r, o)
	}
	n, err := s.InvalidRequests(ctx, tok)
	require.NoError(t, err)
	assert.Equal(t, 3, n, "401, 403 and a user 429")
	n, err = s.InvalidRequests(ctx, ratelimit.TokenHash("Bot nobody"+tok))
	require.NoError(t, err)
	assert.Zero(t, n)
}

func testUnlimited(t *testing.T, s ratelimit.Store, tok string) {
	route := "/guilds/{guild.id}/regions"
	discover(t, s, res(tok, route, "1"), ratelimit.Observation{Status: 200})
	for range 5 {
		r := reserve(t, s, res(tok, route, "1"))
		require.Zero(t, r.Wait, "no limit headers: no limit")
		observe(t, s, r, ratelimit.Observation{Status: 200})
	}
}

func testKeys(t *testing.T, s ratelimit.Store, tok string) {
	kl, ok := s.(KeyLister)
	if !ok {
		t.Skip("the store does not list its keys")
	}
	webhook := "/webhooks/{webhook.id}/{webhook.token}"
	major := "42/" + ratelimit.SecretHash(secret)
	discover(t, s, res(tok, webhook, major), limited("wh", 5, 4, time.Second))
	r := reserve(t, s, res(tok, "/guilds/{guild.id}", "1"))
	r.Global = ratelimit.GlobalLimit{Limit: 10, Window: time.Second}
	observe(t, s, r, ratelimit.Observation{Status: 429, Global: true, Scope: "global", RetryAfter: time.Second})
	r = reserve(t, s, res(tok, "/guilds/{guild.id}", "1"))
	observe(t, s, r, ratelimit.Observation{Status: 403})
	keys, err := kl.Keys(ctx)
	require.NoError(t, err)
	require.NotEmpty(t, keys)
	mine := 0
	for _, k := range keys {
		assert.NotContains(t, k.Name, secret, "no key holds a token")
		if strings.Contains(k.Name, tok) {
			mine++
			assert.Positive(t, k.TTL, "key %s has a TTL", k.Name)
		}
	}
	assert.Positive(t, mine, "the token's keys are named by its hash")
}

func testSlowAnswer(t *testing.T, s ratelimit.Store, tok string) {
	g := ratelimit.GlobalLimit{Limit: 1, Window: 400 * time.Millisecond, Margin: 50 * time.Millisecond}
	r := res(tok, "", "")
	r.Global = g
	reserve(t, s, r)
	require.Zero(t, r.Wait)
	time.Sleep(250 * time.Millisecond)
	// Answered 250ms after it was sent: the service may have counted it as
	// late as that, so it holds the window until 200ms (250 less the
	// margin) plus 400ms, not until 400ms.
	observe(t, s, r, ratelimit.Observation{Status: 200})
	next := res(tok, "", "")
	next.Global = g
	reserve(t, s, next)
	assert.True(t, next.GlobalWait)
	assert.Greater(t, next.Wait, 250*time.Millisecond, "counted from the answer less the margin")
	assert.LessOrEqual(t, next.Wait, 400*time.Millisecond)
}
