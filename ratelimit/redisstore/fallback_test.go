package redisstore_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
	"github.com/seed012df1e9/guildkit/ratelimit"
	"github.com/seed012df1e9/guildkit/ratelimit/redisstore"
)

// events collects what a client's rate-limit observer is told.
type events struct {
	mu   sync.Mutex
	list []guildkit.RateLimitEvent
}

func (e *events) observe(ev guildkit.RateLimitEvent) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.list = append(e.list, ev)
}

func (e *events) count(k guildkit.RateLimitEventKind) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	n := 0
	for _, ev := range e.list {
		if ev.Kind == k {
			n++
		}
	}
	return n
}

// syncBuffer is a bytes.Buffer safe for the logger's concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// storeClient is a client of an in-memory server sharing its limits
// through a Redis store, with what it tells: events and warnings.
type storeClient struct {
	srv   *guildkittest.Server
	store *redisstore.Store
	ev    *events
	logs  *syncBuffer
	// get makes one Get Guild call, which must succeed.
	get func()
}

// newStoreClient makes a storeClient on rdb; the store tries Redis again
// every 100 ms while it is down.
func newStoreClient(t *testing.T, rdb *redis.Client) *storeClient {
	t.Helper()
	sc := &storeClient{ev: new(events), logs: new(syncBuffer)}
	sc.srv = guildkittest.NewServer(t, guildkittest.WithRouteLimit("GET /guilds/{guild.id}", 100, time.Second))
	g := sc.srv.AddGuild(guildkit.Guild{})
	sc.store = redisstore.New(rdb, redisstore.Options{RetryInterval: 100 * time.Millisecond})
	c := sc.srv.Client(guildkit.WithRateLimitStore(sc.store), guildkit.WithRateLimitObserver(sc.ev.observe),
		guildkit.WithLogger(slog.New(slog.NewTextHandler(sc.logs, &slog.HandlerOptions{Level: slog.LevelWarn}))))
	sc.get = func() {
		t.Helper()
		_, err := c.Guilds.Get(context.Background(), g.ID, nil)
		require.NoError(t, err)
	}
	return sc
}

// TestFallbackAndRecovery: Redis stops while a client uses it. Every call
// still succeeds; the client says so once, through the observer and the
// logger, and keeps a quarter of the global rate locally; when Redis is
// back, the store uses it again and the client says so once.
func TestFallbackAndRecovery(t *testing.T) {
	rs := startRedis(t)
	sc := newStoreClient(t, rs.client(t))
	srv, store, ev, logs, get := sc.srv, sc.store, sc.ev, sc.logs, sc.get
	ctx := context.Background()
	for range 3 {
		get()
	}
	assert.Zero(t, ev.count(guildkit.RateLimitStoreDown))
	assert.NoError(t, store.Down())

	rs.stop(t)
	for range 5 {
		get()
	}
	assert.Error(t, store.Down())
	assert.Equal(t, 1, ev.count(guildkit.RateLimitStoreDown), "said once")
	assert.Equal(t, 1, strings.Count(logs.String(), "rate-limit store unavailable"), logs.String())
	assert.NotContains(t, logs.String(), srv.Token())

	// While down, the global limit is a quarter: 2 of 8 in the window, once
	// the window in which Redis may have admitted all 8 has passed.
	tok := ratelimit.TokenHash("Bot fallback")
	gl := ratelimit.GlobalLimit{Limit: 8, Window: 300 * time.Millisecond}
	r := &ratelimit.Reservation{Token: tok, Global: gl}
	require.NoError(t, store.Reserve(ctx, r))
	assert.True(t, r.Fallback)
	assert.Error(t, r.FallbackErr)
	taken := 0
	if r.Wait > 0 {
		assert.True(t, r.GlobalWait, "the hand-over window")
		time.Sleep(r.Wait)
	} else {
		taken++
	}
	for range 7 {
		r := &ratelimit.Reservation{Token: tok, Global: gl}
		require.NoError(t, store.Reserve(ctx, r))
		assert.True(t, r.Fallback)
		if r.Wait == 0 {
			taken++
		}
	}
	assert.Equal(t, 2, taken)

	rs.start(t)
	deadline := time.Now().Add(10 * time.Second)
	for ev.count(guildkit.RateLimitStoreUp) == 0 && time.Now().Before(deadline) {
		get()
		time.Sleep(20 * time.Millisecond)
	}
	assert.Equal(t, 1, ev.count(guildkit.RateLimitStoreUp), "recovered, said once")
	assert.NoError(t, store.Down())
	get()
	assert.Equal(t, 1, ev.count(guildkit.RateLimitStoreDown))
	assert.Contains(t, logs.String(), "rate-limit store answers again")
	assert.Zero(t, srv.RateLimited())
}

// BenchmarkReserveObserve is one reservation and one observation of a known
// bucket: through Redis (a real redis-server on loopback: two round trips)
// and through the local MemoryStore.
func BenchmarkReserveObserve(b *testing.B) {
	ctx := context.Background()
	run := func(b *testing.B, s ratelimit.Store) {
		tok := ratelimit.TokenHash("Bot bench")
		r := &ratelimit.Reservation{Token: tok, Method: "GET", Route: "/guilds/{guild.id}", Major: "1", Global: ratelimit.SlidingWindow(1e12)}
		o := &ratelimit.Observation{Status: 200, Bucket: "b", Limited: true, Limit: 1 << 30, Remaining: 1 << 29, ResetAfter: time.Hour, HasReset: true}
		b.ReportAllocs()
		for b.Loop() {
			if err := s.Reserve(ctx, r); err != nil {
				b.Fatal(err)
			}
			if r.Wait != 0 {
				b.Fatalf("waited %v", r.Wait)
			}
			if err := s.Observe(ctx, r, o); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("memory", func(b *testing.B) { run(b, ratelimit.NewMemoryStore(ratelimit.MemoryOptions{})) })
	b.Run("redis", func(b *testing.B) {
		rs := startRedis(b)
		run(b, redisstore.New(rs.client(b), redisstore.Options{}))
	})
}
