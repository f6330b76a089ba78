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

// TestIdentifyConformance runs the identify suite against a real
// redis-server, on Redis's time with short windows.
func TestIdentifyConformance(t *testing.T) {
	rs := startRedis(t)
	rdb := rs.client(t)
	storetest.RunIdentify(t, false, func(t *testing.T, cfg storetest.IdentifyConfig) ratelimit.IdentifyLimiter {
		return redisstore.NewIdentifyLimiter(rdb, redisstore.IdentifyOptions{
			Window: cfg.Window, Lease: cfg.Lease, Reserve: cfg.Reserve, PollInterval: 10 * time.Millisecond})
	})
}

// TestIdentifyKeysHashTheToken: a caller that passes the token itself, not
// its hash, still gets keys that name no token, all under one hash tag.
func TestIdentifyKeysHashTheToken(t *testing.T) {
	t.Parallel()
	rs := startRedis(t)
	l := redisstore.NewIdentifyLimiter(rs.client(t), redisstore.IdentifyOptions{Window: 100 * time.Millisecond})
	ctx := context.Background()
	const raw = "Bot raw-secret-token"
	require.NoError(t, l.SetLimit(ctx, raw, ratelimit.SessionStartLimit{Total: 1000, Remaining: 999, ResetAfter: time.Hour, MaxConcurrency: 1}))
	done, err := l.Acquire(ctx, raw, 0, 1)
	require.NoError(t, err)
	done()
	keys, err := l.Keys(ctx)
	require.NoError(t, err)
	require.NotEmpty(t, keys)
	tag := "{gk:" + ratelimit.TokenHash(raw) + "}:id:"
	for _, k := range keys {
		assert.NotContains(t, k.Name, "raw-secret")
		assert.True(t, strings.HasPrefix(k.Name, tag), k.Name)
		assert.Positive(t, k.TTL, k.Name)
	}
}
