package redisstore_test

import (
	"context"
	"errors"
	"net"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
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
type redisServer struct {
	bin   string
	port  int
	dir   string
	extra []string // more arguments for redis-server
	cmd   *exec.Cmd
}

// startRedis starts a redis-server for t. Without the program it skips the
// test, unless CI=true, where it fails: CI installs it.
func startRedis(t testing.TB) *redisServer {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("redis-server is not installed; .ci/run installs it")
		}
		t.Skip("redis-server is not installed (apt-get install redis-server); these tests need a real one")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := l.Addr().(*net.TCPAddr).Port
	require.NoError(t, l.Close())
	rs := &redisServer{bin: bin, port: port, dir: t.TempDir()}
	rs.start(t)
	t.Cleanup(func() { rs.stop(t) })
	return rs
}

// Addr returns the server's address.
func (rs *redisServer) Addr() string { return "127.0.0.1:" + strconv.Itoa(rs.port) }

// start starts the server (again, after stop) and waits until it answers.
func (rs *redisServer) start(t testing.TB) {
	t.Helper()
	args := []string{"--port", strconv.Itoa(rs.port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", rs.dir, "--protected-mode", "no", "--loglevel", "warning"}
	rs.cmd = exec.Command(rs.bin, append(args, rs.extra...)...)
	require.NoError(t, rs.cmd.Start())
	c := redis.NewClient(&redis.Options{Addr: rs.Addr(), MaxRetries: -1, DialTimeout: 100 * time.Millisecond})
	defer c.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		err := c.Ping(context.Background()).Err()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("redis-server did not answer: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// stop stops the server and waits for it to exit.
func (rs *redisServer) stop(t testing.TB) {
	t.Helper()
	if rs.cmd == nil {
		return
	}
	_ = rs.cmd.Process.Kill()
	err := rs.cmd.Wait()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Errorf("redis-server: %v", err)
	}
	rs.cmd = nil
}

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
