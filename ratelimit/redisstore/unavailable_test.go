package redisstore_test

import (
	"context"
	"errors"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/ratelimit"
	"github.com/seed012df1e9/guildkit/ratelimit/redisstore"
)

// freePort returns a loopback port nothing listens on.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := l.Addr().(*net.TCPAddr).Port
	require.NoError(t, l.Close())
	return port
}

// TestRefusingRedis: Redis answers, but refuses for its own state: out of
// memory under noeviction (OOM), and a replica of a master that is not
// there (READONLY). Calls keep flowing on the fallback, the client tells
// of it once, with the reply, and goes back to Redis when Redis serves
// again.
func TestRefusingRedis(t *testing.T) {
	for _, tc := range []struct {
		name          string
		reply         string
		refuse, serve func(ctx context.Context, admin *redis.Client) error
	}{
		{
			name: "OOM", reply: "OOM command not allowed",
			refuse: func(ctx context.Context, admin *redis.Client) error {
				if err := admin.ConfigSet(ctx, "maxmemory-policy", "noeviction").Err(); err != nil {
					return err
				}
				return admin.ConfigSet(ctx, "maxmemory", "1").Err()
			},
			serve: func(ctx context.Context, admin *redis.Client) error {
				return admin.ConfigSet(ctx, "maxmemory", "0").Err()
			},
		},
		{
			name: "READONLY", reply: "READONLY You can't write against a read only replica",
			refuse: func(ctx context.Context, admin *redis.Client) error {
				return admin.ReplicaOf(ctx, "127.0.0.1", strconv.Itoa(freePort(t))).Err()
			},
			serve: func(ctx context.Context, admin *redis.Client) error {
				return admin.ReplicaOf(ctx, "NO", "ONE").Err()
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs := startRedis(t)
			admin := rs.client(t)
			sc := newStoreClient(t, rs.client(t))
			srv, store, ev, logs, get := sc.srv, sc.store, sc.ev, sc.logs, sc.get
			ctx := context.Background()
			for range 3 {
				get()
			}
			require.NoError(t, store.Down())
			keys, err := store.Keys(ctx)
			require.NoError(t, err)
			require.NotEmpty(t, keys, "Redis holds the limits")

			require.NoError(t, tc.refuse(ctx, admin))
			for range 10 {
				get()
			}
			down := store.Down()
			require.Error(t, down, "Redis refuses: the store is down")
			assert.ErrorIs(t, down, redisstore.ErrUnavailable)
			assert.Contains(t, down.Error(), tc.reply)
			assert.Equal(t, 1, ev.count(guildkit.RateLimitStoreDown), "told once")
			assert.Contains(t, logs.String(), "rate-limit store unavailable")
			assert.Contains(t, logs.String(), tc.reply)

			require.NoError(t, tc.serve(ctx, admin))
			waitFor(t, "the store back on Redis", func() bool {
				get()
				return ev.count(guildkit.RateLimitStoreUp) == 1
			})
			assert.NoError(t, store.Down())
			require.NoError(t, admin.FlushAll(ctx).Err())
			get()
			keys, err = store.Keys(ctx)
			require.NoError(t, err)
			assert.NotEmpty(t, keys, "Redis holds the limits again")
			assert.Equal(t, 1, ev.count(guildkit.RateLimitStoreDown))
			assert.Zero(t, srv.RateLimited())
		})
	}
}

// TestScriptErrorIsAnError: an error of the store itself (here, a key of
// the wrong type where a script expects a hash) is returned, not taken for
// Redis being unavailable.
func TestScriptErrorIsAnError(t *testing.T) {
	rs := startRedis(t)
	rdb := rs.client(t)
	store := redisstore.New(rdb, redisstore.Options{})
	ctx := context.Background()
	tok := ratelimit.TokenHash("Bot wrong-type")
	require.NoError(t, rdb.Set(ctx, "{gk:"+tok+"}:b:r:GET /guilds/{guild.id}:1", "x", time.Minute).Err())
	r := &ratelimit.Reservation{Token: tok, Method: "GET", Route: "/guilds/{guild.id}", Major: "1"}
	err := store.Reserve(ctx, r)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "WRONGTYPE")
	assert.False(t, r.Fallback)
	assert.NoError(t, store.Down(), "Redis answered: it is not down")
}

// TestOutageErrorNamesItsCause: with go-redis's default options, a stopped
// Redis makes each call fail by the store's timeout while go-redis retries
// its dials; the error the store reports names the refused connection.
func TestOutageErrorNamesItsCause(t *testing.T) {
	rs := startRedis(t)
	rdb := redis.NewClient(&redis.Options{Addr: rs.Addr()})
	t.Cleanup(func() { rdb.Close() })
	store := redisstore.New(rdb, redisstore.Options{Timeout: 300 * time.Millisecond})
	ctx := context.Background()
	r := &ratelimit.Reservation{Token: ratelimit.TokenHash("Bot cause"), Global: ratelimit.SlidingWindow(50)}
	require.NoError(t, store.Reserve(ctx, r))
	require.False(t, r.Fallback)
	rs.stop(t)
	require.NoError(t, store.Reserve(ctx, r))
	require.True(t, r.Fallback)
	err := r.FallbackErr
	require.Error(t, err)
	assert.ErrorIs(t, err, redisstore.ErrUnavailable)
	assert.True(t, errors.Is(err, context.DeadlineExceeded) || strings.Contains(err.Error(), "connection refused"), err.Error())
	assert.Contains(t, err.Error(), "connection refused", "the cause is named")
	assert.Equal(t, err, store.Down())
}

// TestInvalidRequestsCarriedBack: invalid requests counted on the fallback
// are added to Redis's count when it is back, where every process sees
// them.
func TestInvalidRequestsCarriedBack(t *testing.T) {
	rs := startRedis(t)
	store := redisstore.New(rs.client(t), redisstore.Options{RetryInterval: 50 * time.Millisecond})
	other := redisstore.New(rs.client(t), redisstore.Options{})
	ctx := context.Background()
	tok := ratelimit.TokenHash("Bot invalid")
	observe := func(status int) {
		t.Helper()
		r := &ratelimit.Reservation{Token: tok, Method: "GET", Route: "/guilds/{guild.id}", Major: "1"}
		require.NoError(t, store.Reserve(ctx, r))
		require.NoError(t, store.Observe(ctx, r, &ratelimit.Observation{Status: status, Scope: "user", RetryAfter: time.Millisecond}))
	}
	observe(403)
	rs.stop(t)
	for _, status := range []int{401, 403, 429, 200, 404} {
		observe(status)
	}
	require.Error(t, store.Down())
	n, err := store.InvalidRequests(ctx, tok)
	require.NoError(t, err)
	assert.Equal(t, 3, n, "the fallback's own count while Redis is gone")

	rs.start(t)
	waitFor(t, "the store back on Redis", func() bool {
		r := &ratelimit.Reservation{Token: tok}
		require.NoError(t, store.Reserve(ctx, r))
		return !r.Fallback
	})
	n, err = store.InvalidRequests(ctx, tok)
	require.NoError(t, err)
	assert.Equal(t, 3, n, "the three counted on the fallback, in Redis (restarted empty)")
	n, err = other.InvalidRequests(ctx, tok)
	require.NoError(t, err)
	assert.Equal(t, 3, n, "another process sees them")
	observe(401)
	n, err = other.InvalidRequests(ctx, tok)
	require.NoError(t, err)
	assert.Equal(t, 4, n, "carried once, not again")
}

// TestBucketShareAfterOutage: a bucket the fallback sent in stays held to
// the fallback's share (here one request of a limit of 4) until the window
// it sent in ends, though Redis is back (restarted empty, it knows nothing
// of that window); then Redis alone is in charge.
func TestBucketShareAfterOutage(t *testing.T) {
	rs := startRedis(t)
	store := redisstore.New(rs.client(t), redisstore.Options{RetryInterval: 50 * time.Millisecond})
	ctx := context.Background()
	tok := ratelimit.TokenHash("Bot share")
	res := func() *ratelimit.Reservation {
		return &ratelimit.Reservation{Token: tok, Method: "GET", Route: "/guilds/{guild.id}", Major: "1"}
	}
	rs.stop(t)
	r := res()
	require.NoError(t, store.Reserve(ctx, r))
	require.True(t, r.Fallback)
	require.Zero(t, r.Wait)
	const window = 1500 * time.Millisecond
	sentAt := time.Now()
	require.NoError(t, store.Observe(ctx, r, &ratelimit.Observation{Status: 200, Limited: true, Limit: 4, Remaining: 3, ResetAfter: window, HasReset: true}))
	r = res()
	require.NoError(t, store.Reserve(ctx, r))
	assert.True(t, r.Fallback)
	assert.Positive(t, r.Wait, "a quarter of 4 is one request per window")

	rs.start(t)
	waitFor(t, "the store back on Redis", func() bool {
		r := &ratelimit.Reservation{Token: tok}
		require.NoError(t, store.Reserve(ctx, r))
		return !r.Fallback
	})
	r = res()
	require.NoError(t, store.Reserve(ctx, r))
	assert.False(t, r.Fallback, "Redis answers")
	assert.Positive(t, r.Wait, "the window the fallback sent in is not over: its share is used")
	assert.LessOrEqual(t, r.Wait, time.Until(sentAt.Add(window))+50*time.Millisecond)
	// The claim this took in Redis was given back: a process that did not
	// send in that window takes it.
	other := redisstore.New(rs.client(t), redisstore.Options{})
	o := res()
	require.NoError(t, other.Reserve(ctx, o))
	assert.Zero(t, o.Wait)
	assert.True(t, o.Ticket.Claim)
	require.NoError(t, other.Release(ctx, o))

	time.Sleep(time.Until(sentAt.Add(window + 50*time.Millisecond)))
	for range 3 {
		r = res()
		require.NoError(t, store.Reserve(ctx, r))
		assert.Zero(t, r.Wait, "the window is over: Redis alone is in charge")
		require.NoError(t, store.Observe(ctx, r, &ratelimit.Observation{Status: 200, Limited: true, Limit: 4, Remaining: 3, ResetAfter: time.Second, HasReset: true}))
	}
}

// TestBucketKeyAskedAgain: a process that believes a route's bucket id
// other than Redis's (another learned it, or Redis restarted empty) is
// told, and uses the right key at once.
func TestBucketKeyAskedAgain(t *testing.T) {
	rs := startRedis(t)
	rdb := rs.client(t)
	a := redisstore.New(rdb, redisstore.Options{})
	b := redisstore.New(rdb, redisstore.Options{})
	ctx := context.Background()
	tok := ratelimit.TokenHash("Bot ids")
	res := func() *ratelimit.Reservation {
		return &ratelimit.Reservation{Token: tok, Method: "GET", Route: "/guilds/{guild.id}", Major: "1"}
	}
	r := res()
	require.NoError(t, a.Reserve(ctx, r))
	require.True(t, r.Ticket.Claim)
	require.NoError(t, a.Observe(ctx, r, &ratelimit.Observation{Status: 200, Bucket: "bk", Limited: true, Limit: 2, Remaining: 0, ResetAfter: 5 * time.Second, HasReset: true}))
	// b never saw the id: it is told, and sees a's used-up bucket.
	r = res()
	require.NoError(t, b.Reserve(ctx, r))
	assert.Equal(t, "bk", r.Bucket)
	assert.Greater(t, r.Wait, 4*time.Second, "the bucket under its id, used up")
	// Redis forgets everything: a believes "bk", Redis knows none.
	require.NoError(t, rdb.FlushAll(ctx).Err())
	r = res()
	require.NoError(t, a.Reserve(ctx, r))
	assert.Zero(t, r.Wait)
	assert.True(t, r.Ticket.Claim, "an unknown bucket again: a claims its discovery")
	// An answer observed without a slot, by b which believes "bk" too.
	require.NoError(t, b.Observe(ctx, res(), &ratelimit.Observation{Status: 200, Bucket: "bk2", Limited: true, Limit: 3, Remaining: 2, ResetAfter: time.Second, HasReset: true}))
	require.NoError(t, a.Observe(ctx, r, &ratelimit.Observation{Status: 200, Bucket: "bk2", Limited: true, Limit: 3, Remaining: 1, ResetAfter: time.Second, HasReset: true}))
	r = res()
	require.NoError(t, b.Reserve(ctx, r))
	assert.Equal(t, "bk2", r.Bucket)
	assert.Zero(t, r.Wait, "one left of the merged answers")
	r2 := res()
	require.NoError(t, a.Reserve(ctx, r2))
	assert.Positive(t, r2.Wait, "and only one")
}

// TestFallbackWindowsBounded: the buckets the fallback remembers sending in
// (held to their share on the way back) are bounded, however many buckets
// it sends in during an outage.
func TestFallbackWindowsBounded(t *testing.T) {
	rdb := newClient("127.0.0.1:" + strconv.Itoa(freePort(t))) // nothing listens: an outage
	t.Cleanup(func() { rdb.Close() })
	store := redisstore.New(rdb, redisstore.Options{RetryInterval: time.Hour})
	ctx := context.Background()
	tok := ratelimit.TokenHash("Bot many buckets")
	r := &ratelimit.Reservation{Token: tok}
	require.NoError(t, store.Reserve(ctx, r))
	require.True(t, r.Fallback)
	major := 0
	send := func(n int, reset time.Duration) {
		t.Helper()
		for range n {
			major++
			r := &ratelimit.Reservation{Token: tok, Method: "GET", Route: "/channels/{channel.id}", Major: strconv.Itoa(major)}
			require.NoError(t, store.Observe(ctx, r, &ratelimit.Observation{Status: 200, Limited: true, Limit: 5, Remaining: 4, ResetAfter: reset, HasReset: true}))
		}
	}
	// Windows that end soon fill the bound; once they ended, the next
	// bucket sweeps them.
	send(redisstore.MaxWindows, 20*time.Millisecond)
	require.Equal(t, redisstore.MaxWindows, store.Windows())
	time.Sleep(50 * time.Millisecond)
	send(500, time.Minute)
	assert.Equal(t, 500, store.Windows(), "the ended windows were swept")
	// Windows that have not ended stay; the bound holds.
	send(redisstore.MaxWindows+500, time.Minute)
	assert.Equal(t, redisstore.MaxWindows, store.Windows(), "held at the bound")
}
