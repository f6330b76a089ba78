package redisstore_test

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit/ratelimit"
	"github.com/seed012df1e9/guildkit/ratelimit/redisstore"
	"github.com/seed012df1e9/guildkit/ratelimit/storetest"
)

// redisCluster is a three-master Redis Cluster the test started: three
// redis-servers with --cluster-enabled yes on free loopback ports, joined by
// redis-cli --cluster create, stopped when the test ends.
type redisCluster struct {
	nodes []*redisServer
}

// freeClusterPort returns a free loopback port whose cluster bus port (the
// port plus 10000) is free too.
func freeClusterPort(t testing.TB) int {
	t.Helper()
	for range 100 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		port := l.Addr().(*net.TCPAddr).Port
		if port+10000 > 65535 {
			l.Close()
			continue
		}
		bus, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port+10000))
		l.Close()
		if err != nil {
			continue
		}
		bus.Close()
		return port
	}
	t.Fatal("no free port pair for a cluster node")
	return 0
}

// startCluster starts a three-master cluster for t. Without redis-server or
// redis-cli it skips the test, unless CI=true, where it fails.
func startCluster(t testing.TB) *redisCluster {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	cli, cliErr := exec.LookPath("redis-cli")
	if err != nil || cliErr != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("redis-server or redis-cli is not installed; .ci/run installs them")
		}
		t.Skip("redis-server and redis-cli are not installed (apt-get install redis-server redis-tools)")
	}
	rc := &redisCluster{}
	var addrs []string
	for range 3 {
		rs := &redisServer{bin: bin, port: freeClusterPort(t), dir: t.TempDir(),
			extra: []string{"--cluster-enabled", "yes", "--cluster-node-timeout", "2000"}}
		rs.extra = append(rs.extra, "--cluster-config-file", filepath.Join(rs.dir, "nodes.conf"))
		rs.start(t)
		t.Cleanup(func() { rs.stop(t) })
		rc.nodes = append(rc.nodes, rs)
		addrs = append(addrs, rs.Addr())
	}
	args := append([]string{"--cluster", "create"}, addrs...)
	args = append(args, "--cluster-replicas", "0", "--cluster-yes")
	out, err := exec.Command(cli, args...).CombinedOutput()
	require.NoError(t, err, "redis-cli --cluster create: %s", out)
	// Every node must see every slot served before the cluster is used.
	deadline := time.Now().Add(20 * time.Second)
	for _, rs := range rc.nodes {
		c := redis.NewClient(&redis.Options{Addr: rs.Addr(), MaxRetries: -1})
		for {
			info, err := c.ClusterInfo(context.Background()).Result()
			if err == nil && strings.Contains(info, "cluster_state:ok") && strings.Contains(info, "cluster_slots_ok:16384") {
				break
			}
			if time.Now().After(deadline) {
				c.Close()
				t.Fatalf("cluster not ready: %v %s", err, info)
			}
			time.Sleep(50 * time.Millisecond)
		}
		c.Close()
	}
	return rc
}

// client returns a Cluster client of the cluster, closed when t ends.
func (rc *redisCluster) client(t testing.TB) *redis.ClusterClient {
	t.Helper()
	var addrs []string
	for _, rs := range rc.nodes {
		addrs = append(addrs, rs.Addr())
	}
	c := redis.NewClusterClient(&redis.ClusterOptions{
		Addrs: addrs, DialTimeout: 200 * time.Millisecond, DialerRetries: 1,
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
	for _, rs := range rc.nodes {
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
