package redisstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit/ratelimit"
	"github.com/seed012df1e9/guildkit/ratelimit/redisstore"
)

// pauseRedis makes the server hold every client's commands for d (CLIENT
// PAUSE): it is reached, but silent. The pause is lifted when t ends.
func pauseRedis(t *testing.T, rs *redisServer, d time.Duration) {
	t.Helper()
	admin := rs.client(t)
	require.NoError(t, admin.Do(context.Background(), "CLIENT", "PAUSE", d.Milliseconds(), "ALL").Err())
	t.Cleanup(func() { _ = admin.Do(context.Background(), "CLIENT", "UNPAUSE").Err() })
}

// silentStore is a store on rs whose own Timeout (100ms) ends a call to a
// silent Redis: its client's read timeout is longer, and it does not take
// the context's deadline as its own.
func silentStore(t *testing.T, rs *redisServer) *redisstore.Store {
	t.Helper()
	rdb := redis.NewClient(&redis.Options{
		Addr: rs.Addr(), MaxRetries: -1, DialTimeout: 200 * time.Millisecond, DialerRetries: 1,
		ReadTimeout: 400 * time.Millisecond, WriteTimeout: 400 * time.Millisecond,
	})
	t.Cleanup(func() { rdb.Close() })
	return redisstore.New(rdb, redisstore.Options{Timeout: 100 * time.Millisecond, RetryInterval: time.Hour})
}

// TestSilentRedisOnObserve: Redis is reached but does not answer, and the
// store's Timeout ends the call that records an answer. That is an outage,
// not the caller giving up: the store falls back, the answer (a global 429)
// is kept by the fallback, and Observe returns no error.
func TestSilentRedisOnObserve(t *testing.T) {
	rs := startRedis(t)
	s := silentStore(t, rs)
	ctx := context.Background()
	tok := ratelimit.TokenHash("Bot silent")
	r := &ratelimit.Reservation{Token: tok, Method: "GET", Route: "/guilds/{guild.id}", Major: "1"}
	require.NoError(t, s.Reserve(ctx, r))
	require.True(t, r.Ticket.Held)
	require.False(t, r.Fallback)

	pauseRedis(t, rs, 3*time.Second)
	err := s.Observe(ctx, r, &ratelimit.Observation{Status: 429, Global: true, Scope: "global", RetryAfter: 2 * time.Second})
	require.NoError(t, err, "a silent Redis is an outage, not an error of the call")
	require.ErrorIs(t, s.Down(), redisstore.ErrUnavailable, "the store is down")

	next := &ratelimit.Reservation{Token: tok, Method: "GET", Route: "/channels/{channel.id}", Major: "2"}
	require.NoError(t, s.Reserve(ctx, next))
	assert.True(t, next.Fallback)
	assert.True(t, next.GlobalWait, "the fallback was given the global 429")
	assert.Greater(t, next.Wait, time.Second)
}

// TestSilentRedisOnReleaseAndCount: the same for giving a slot back and for
// reading the count of invalid requests.
func TestSilentRedisOnReleaseAndCount(t *testing.T) {
	for _, op := range []string{"Release", "InvalidRequests"} {
		t.Run(op, func(t *testing.T) {
			rs := startRedis(t)
			s := silentStore(t, rs)
			ctx := context.Background()
			tok := ratelimit.TokenHash("Bot silent " + op)
			r := &ratelimit.Reservation{Token: tok, Method: "GET", Route: "/guilds/{guild.id}", Major: "1"}
			require.NoError(t, s.Reserve(ctx, r))
			require.True(t, r.Ticket.Held)

			pauseRedis(t, rs, 3*time.Second)
			if op == "Release" {
				require.NoError(t, s.Release(ctx, r))
			} else {
				n, err := s.InvalidRequests(ctx, tok)
				require.NoError(t, err)
				assert.Zero(t, n, "the fallback's count")
			}
			require.ErrorIs(t, s.Down(), redisstore.ErrUnavailable, "the store is down")
		})
	}
	// A caller that gives up is not an outage.
	rs := startRedis(t)
	s := silentStore(t, rs)
	pauseRedis(t, rs, 3*time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err := s.InvalidRequests(ctx, ratelimit.TokenHash("Bot gives up"))
	require.Error(t, err)
	assert.NotErrorIs(t, err, redisstore.ErrUnavailable)
	assert.NoError(t, s.Down(), "the caller gave up: Redis is not marked down")
}
