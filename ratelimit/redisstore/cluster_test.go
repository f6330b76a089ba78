package redisstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit/internal/redistest"
	"github.com/seed012df1e9/guildkit/ratelimit"
	"github.com/seed012df1e9/guildkit/ratelimit/redisstore"
	"github.com/seed012df1e9/guildkit/ratelimit/storetest"
)

// redisCluster is a three-master Redis Cluster the test started: three
// redis-servers with --cluster-enabled yes on free loopback ports, joined by
// redis-cli --cluster create, stopped when the test ends. Without
// redis-server or redis-cli it skips the test, unless CI=true.
type redisCluster struct{ *redistest.Cluster }

func startCluster(t testing.TB) *redisCluster { return &redisCluster{redistest.StartCluster(t)} }

// client returns a Cluster client of the cluster, closed when t ends.
func (rc *redisCluster) client(t testing.TB) *redis.ClusterClient {
	t.Helper()
	c := redis.NewClusterClient(&redis.ClusterOptions{
		Addrs: rc.Addrs(), DialTimeout: 200 * time.Millisecond, DialerRetries: 1,
		ReadTimeout: time.Second, WriteTimeout: time.Second, PoolSize: 16,
	})
	t.Cleanup(func() { c.Close() })
	return c
}

// TestClusterConformance runs the store suite and the identify suite
// against a three-master Redis Cluster: every script's keys share the
// token's hash slot and are declared, so each runs on the one master that
// holds them.
func TestClusterConformance(t *testing.T) {
	rc := startCluster(t)
	rdb := rc.client(t)
	t.Run("storetest", func(t *testing.T) {
		storetest.Run(t, func(t *testing.T, cfg storetest.Config) ratelimit.Store {
			return redisstore.New(rdb, redisstore.Options{ClaimTTL: cfg.ClaimTTL, PollInterval: 20 * time.Millisecond})
		})
	})
	t.Run("identify", func(t *testing.T) {
		storetest.RunIdentify(t, false, func(t *testing.T, cfg storetest.IdentifyConfig) ratelimit.IdentifyLimiter {
			return redisstore.NewIdentifyLimiter(rdb, redisstore.IdentifyOptions{
				Window: cfg.Window, Lease: cfg.Lease, Reserve: cfg.Reserve, PollInterval: 10 * time.Millisecond})
		})
	})
	// The suite's tokens hash to slots on more than one master: the cluster
	// was used, not one node of it.
	used := 0
	for _, rs := range rc.Nodes {
		c := redis.NewClient(&redis.Options{Addr: rs.Addr()})
		n, err := c.DBSize(context.Background()).Result()
		c.Close()
		require.NoError(t, err)
		if n > 0 {
			used++
		}
	}
	require.Greater(t, used, 1, "the suite's keys lie on more than one master")
}
