package redisstate_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"go.uber.org/goleak"

	"github.com/seed012df1e9/guildkit/internal/redistest"
	"github.com/seed012df1e9/guildkit/state"
	"github.com/seed012df1e9/guildkit/state/redisstate"
)

func TestMain(m *testing.M) {
	if orders := os.Getenv(childEnv); orders != "" {
		// A child process of the multi-process test: see runChild.
		os.Exit(runChild(orders))
	}
	// The tests stop Redis on purpose; go-redis's own log of failed dials
	// would only be noise.
	redis.SetLogger(quietLogger{})
	goleak.VerifyTestMain(m)
}

type quietLogger struct{}

func (quietLogger) Printf(context.Context, string, ...any) {}

func newClient(addr string) *redis.Client {
	return redis.NewClient(&redis.Options{
		Addr: addr, MaxRetries: -1, DialTimeout: 200 * time.Millisecond, DialerRetries: 1,
		ReadTimeout: time.Second, WriteTimeout: time.Second, PoolSize: 16,
	})
}

// client returns a client of a server started for t, closed when t ends.
func client(t testing.TB, rs *redistest.Server) *redis.Client {
	c := newClient(rs.Addr())
	t.Cleanup(func() { c.Close() })
	return c
}

// clusterClient returns a client of a cluster started for t.
func clusterClient(t testing.TB, rc *redistest.Cluster) *redis.ClusterClient {
	c := redis.NewClusterClient(&redis.ClusterOptions{
		Addrs: rc.Addrs(), DialTimeout: 200 * time.Millisecond, DialerRetries: 1,
		ReadTimeout: time.Second, WriteTimeout: time.Second, PoolSize: 16,
	})
	t.Cleanup(func() { c.Close() })
	return c
}

// newStore returns a store on rdb with pol, closed when t ends.
func newStore(t testing.TB, rdb redis.UniversalClient, pol *state.Policies, o redisstate.Options) *redisstate.Store {
	o.Policies = pol
	s := redisstate.New(rdb, o)
	t.Cleanup(func() { s.Close() })
	return s
}
