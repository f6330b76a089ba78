package redisstore_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"go.uber.org/goleak"

	"github.com/seed012df1e9/guildkit/internal/redistest"
)

func TestMain(m *testing.M) {
	if orders := os.Getenv(gatewayChildEnv); orders != "" {
		// A child process of the gateway tests: see runGatewayChild.
		os.Exit(runGatewayChild(orders))
	}
	if orders := os.Getenv(identifyChildEnv); orders != "" {
		// A child process of the identify tests: see runIdentifyChild.
		os.Exit(runIdentifyChild(orders))
	}
	if orders := os.Getenv(childEnv); orders != "" {
		// A child process of the multi-process tests: see runChild.
		os.Exit(runChild(orders))
	}
	// The tests stop Redis on purpose; go-redis's own log of failed dials
	// would only be noise.
	redis.SetLogger(quietLogger{})
	goleak.VerifyTestMain(m)
}

type quietLogger struct{}

func (quietLogger) Printf(context.Context, string, ...any) {}

// redisServer is a redis-server the test started: on a free loopback port,
// with persistence off, stopped when the test ends.
type redisServer struct{ *redistest.Server }

// startRedis starts a redis-server for t. Without the program it skips the
// test, unless CI=true, where it fails: CI installs it.
func startRedis(t testing.TB) *redisServer { return &redisServer{redistest.Start(t)} }

// start starts the server again, after stop, and waits until it answers.
func (rs *redisServer) start(t testing.TB) { rs.Start(t) }

// stop stops the server and waits for it to exit.
func (rs *redisServer) stop(t testing.TB) { rs.Stop(t) }

// client returns a go-redis client of the server, closed when t ends; it
// gives up quickly when the server is gone.
func (rs *redisServer) client(t testing.TB) *redis.Client {
	t.Helper()
	c := newClient(rs.Addr())
	t.Cleanup(func() { c.Close() })
	return c
}

func newClient(addr string) *redis.Client {
	return redis.NewClient(&redis.Options{
		Addr: addr, MaxRetries: -1, DialTimeout: 200 * time.Millisecond, DialerRetries: 1,
		ReadTimeout: time.Second, WriteTimeout: time.Second, PoolSize: 16,
	})
}
