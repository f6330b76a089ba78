package redisstore_test

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/gateway"
	"github.com/seed012df1e9/guildkit/guildkittest"
	"github.com/seed012df1e9/guildkit/ratelimit/redisstore"
)

// TestGatewayOpensThroughARedisOutage: shards opened while Redis is down
// (the identify limiter's SetLimit is unavailable at once, unlike Acquire,
// which waits) neither fail nor stay idle: each says it waits, none
// identifies, and every one is ready once Redis is back.
func TestGatewayOpensThroughARedisOutage(t *testing.T) {
	rs := startRedis(t)
	const count = 4
	srv := guildkittest.NewServer(t, guildkittest.WithGateway(guildkittest.GatewaySettings{MaxConcurrency: count}))
	for k := range count {
		srv.AddGuild(guildkit.Guild{ID: guildkit.Snowflake(uint64(1000*count+k) << 22)})
	}
	lim := redisstore.NewIdentifyLimiter(rs.client(t), redisstore.IdentifyOptions{Window: 500 * time.Millisecond,
		Lease: time.Second, PollInterval: 10 * time.Millisecond, RetryInterval: 20 * time.Millisecond, Timeout: 300 * time.Millisecond})
	rs.stop(t)

	var mu sync.Mutex
	waiting := map[int]bool{}
	allWaiting := make(chan struct{})
	m, err := gateway.NewManager(srv.Token(), gateway.WithShardCount(count),
		gateway.WithStatusObserver(func(s gateway.ShardState) {
			mu.Lock()
			defer mu.Unlock()
			if s.Status == gateway.StatusWaiting && !waiting[s.Shard[0]] {
				waiting[s.Shard[0]] = true
				if len(waiting) == count {
					close(allWaiting)
				}
			}
		}),
		gateway.WithShardOptions(gateway.WithClient(srv.Client()), gateway.WithIdentifyLimiter(lim),
			gateway.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))))
	require.NoError(t, err)
	ctx := context.Background()
	t.Cleanup(func() { _ = m.End(ctx) })
	opened := make(chan error, 1)
	go func() { opened <- m.Open(ctx) }()

	select {
	case <-allWaiting:
	case err := <-opened:
		t.Fatalf("Open returned while Redis was down: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatalf("not every shard said it waits: %v", m.States())
	}
	for _, s := range m.States() {
		assert.Equal(t, gateway.StatusWaiting, s.Status, "shard %v", s.Shard)
	}
	assert.Zero(t, srv.IdentifyStats().Total, "an IDENTIFY went while Redis was down")

	rs.start(t)
	select {
	case err := <-opened:
		require.NoError(t, err)
	case <-time.After(30 * time.Second):
		t.Fatalf("the shards did not start after Redis came back: %v", m.States())
	}
	for _, s := range m.States() {
		assert.Equal(t, gateway.StatusReady, s.Status, "shard %v", s.Shard)
	}
	st := srv.IdentifyStats()
	assert.Equal(t, count, st.Total)
	assert.Zero(t, st.Refused)
}
