package redisstore_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit/ratelimit"
	"github.com/seed012df1e9/guildkit/ratelimit/redisstore"
	"github.com/seed012df1e9/guildkit/ratelimit/storetest"
)

// TestConformance runs the store suite against a real redis-server.
func TestConformance(t *testing.T) {
	rs := startRedis(t)
	rdb := rs.client(t)
	storetest.Run(t, func(t *testing.T, cfg storetest.Config) ratelimit.Store {
		return redisstore.New(rdb, redisstore.Options{ClaimTTL: cfg.ClaimTTL, PollInterval: 20 * time.Millisecond})
	})
}

// TestKeysShareOneSlotAndExpire: every key the store writes for a token
// starts with {gk:<hash>}, so all share one hash slot, and has a TTL.
func TestKeysShareOneSlotAndExpire(t *testing.T) {
	rs := startRedis(t)
	rdb := rs.client(t)
	s := redisstore.New(rdb, redisstore.Options{})
	ctx := context.Background()
	tok := ratelimit.TokenHash("Bot very-secret")
	r := &ratelimit.Reservation{Token: tok, Method: "GET", Route: "/guilds/{guild.id}", Major: "1", Global: ratelimit.SlidingWindow(50)}
	require.NoError(t, s.Reserve(ctx, r))
	require.NoError(t, s.Observe(ctx, r, &ratelimit.Observation{Status: 429, Scope: "user", Bucket: "b1", Limited: true, Limit: 5, Remaining: 0, RetryAfter: time.Second}))
	require.NoError(t, s.Observe(ctx, &ratelimit.Reservation{Token: tok}, &ratelimit.Observation{Status: 429, Global: true, RetryAfter: time.Second}))
	keys, err := s.Keys(ctx)
	require.NoError(t, err)
	require.NotEmpty(t, keys)
	for _, k := range keys {
		// The hash tag is the part in braces: one per token, one slot.
		assert.True(t, strings.HasPrefix(k.Name, "{gk:"+tok+"}"), k.Name)
		assert.NotContains(t, k.Name, "very-secret")
		assert.Positive(t, k.TTL, k.Name)
	}
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = k.Name
	}
	assert.Contains(t, names, "{gk:"+tok+"}:pause")
	assert.Contains(t, names, "{gk:"+tok+"}:gl")
	assert.Contains(t, names, "{gk:"+tok+"}:b:b1:1")
}
