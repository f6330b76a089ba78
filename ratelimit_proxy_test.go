package guildkit_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
	"github.com/seed012df1e9/guildkit/ratelimit"
)

// Proxy mode: WithoutRateLimiter sends at once, leaving the limits to a
// proxy, and keeps the retry rules: a 429 is retried after its wait; a 408 or
// a lost connection only for idempotent methods.

// TestWithoutRateLimiterSendsAtOnce: a bucket the service says is used up
// for a minute holds nothing back behind a proxy; with the limiter on, the
// same call (accepting no wait) is refused before sending.
func TestWithoutRateLimiterSendsAtOnce(t *testing.T) {
	t.Parallel()
	for _, proxy := range []bool{true, false} {
		var opts []guildkit.Option
		if proxy {
			opts = append(opts, guildkit.WithoutRateLimiter())
		}
		c, mux := setup(t, append(opts, guildkit.WithMaxRateLimitWait(0))...)
		var n atomic.Int32
		mux.HandleFunc("GET /guilds/{id}", func(w http.ResponseWriter, r *http.Request) {
			testMethod(t, r, "GET")
			n.Add(1)
			w.Header().Set("X-RateLimit-Bucket", "b")
			w.Header().Set("X-RateLimit-Limit", "1")
			w.Header().Set("X-RateLimit-Remaining", "0")
			w.Header().Set("X-RateLimit-Reset-After", "60")
			_, _ = w.Write([]byte(`{"id":"1"}`))
		})
		_, err := c.Guilds.Get(t.Context(), 1, nil)
		require.NoError(t, err)
		_, err = c.Guilds.Get(t.Context(), 1, nil)
		if proxy {
			require.NoError(t, err)
			assert.Equal(t, int32(2), n.Load(), "both sent")
			got, err := c.InvalidRequests(t.Context())
			assert.NoError(t, err)
			assert.Zero(t, got)
		} else {
			var rl *guildkit.RateLimitError
			require.ErrorAs(t, err, &rl)
			assert.True(t, rl.NotSent)
			assert.Equal(t, int32(1), n.Load())
		}
	}
}

// TestWithoutRateLimiterRetries429AfterItsWait: the proxy's 429 (its wait in
// the body only) is retried after that wait, for a POST too.
func TestWithoutRateLimiterRetries429AfterItsWait(t *testing.T) {
	t.Parallel()
	c, mux := setup(t, guildkit.WithoutRateLimiter())
	var n atomic.Int32
	mux.HandleFunc("POST /guilds/{id}/roles", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, "POST")
		if n.Add(1) == 1 {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = w.Write([]byte(`{"message":"You are being rate limited.","retry_after":0.01,"global":false}`))
			return
		}
		_, _ = w.Write([]byte(`{"id":"7","name":"r"}`))
	})
	role, err := c.Roles.Create(t.Context(), 1, &guildkit.RoleCreateParams{Name: guildkit.Some("r")})
	require.NoError(t, err)
	assert.Equal(t, guildkit.Snowflake(7), role.ID)
	assert.Equal(t, int32(2), n.Load())
}

// TestWithoutRateLimiter408AndLostConnection: a 408 or a lost connection is
// retried for a GET, never for a POST.
func TestWithoutRateLimiter408AndLostConnection(t *testing.T) {
	t.Parallel()
	for _, fault := range []string{"408", "reset"} {
		c, mux := setup(t, guildkit.WithoutRateLimiter())
		var gets, posts atomic.Int32
		fail := func(w http.ResponseWriter) {
			if fault == "408" {
				w.WriteHeader(http.StatusRequestTimeout)
				return
			}
			resetConn(t, w)
		}
		mux.HandleFunc("GET /guilds/{id}", func(w http.ResponseWriter, r *http.Request) {
			testMethod(t, r, "GET")
			if gets.Add(1) == 1 {
				fail(w)
				return
			}
			_, _ = w.Write([]byte(`{"id":"1"}`))
		})
		mux.HandleFunc("POST /guilds/{id}/roles", func(w http.ResponseWriter, r *http.Request) {
			testMethod(t, r, "POST")
			posts.Add(1)
			fail(w)
		})
		_, err := c.Guilds.Get(t.Context(), 1, nil)
		require.NoError(t, err, fault)
		assert.Equal(t, int32(2), gets.Load(), "%s: the GET is sent again", fault)
		_, err = c.Roles.Create(t.Context(), 1, &guildkit.RoleCreateParams{Name: guildkit.Some("r")})
		require.Error(t, err, fault)
		assert.Equal(t, int32(1), posts.Load(), "%s: the POST is sent once", fault)
		if fault == "408" {
			var apiErr *guildkit.APIError
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, http.StatusRequestTimeout, apiErr.Status)
		} else {
			var reqErr *guildkit.RequestError
			assert.ErrorAs(t, err, &reqErr)
		}
	}
}

// TestSharedMemoryStore: two clients of one token that share a store share
// its buckets: the second knows the bucket the first used up and, accepting
// no wait, is refused before sending. The store counts the service's 429s
// as invalid requests for the token.
func TestSharedMemoryStore(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t, guildkittest.WithRouteLimit("GET /guilds/{guild.id}", 1, time.Minute))
	g := srv.AddGuild(guildkit.Guild{})
	store := ratelimit.NewMemoryStore(ratelimit.MemoryOptions{})
	c1 := srv.Client(guildkit.WithRateLimitStore(store))
	c2 := srv.Client(guildkit.WithRateLimitStore(store))
	_, err := c1.Guilds.Get(t.Context(), g.ID, nil)
	require.NoError(t, err)
	_, err = c2.Guilds.Get(t.Context(), g.ID, nil, guildkit.WithoutRateLimitRetry())
	var rl *guildkit.RateLimitError
	require.ErrorAs(t, err, &rl)
	assert.True(t, rl.NotSent, "the shared bucket is used up")
	assert.Zero(t, srv.RateLimited())

	// A third client with its own store meets the service's 429, which the
	// shared store does not see; the own store counts it.
	c3 := srv.Client()
	_, err = c3.Guilds.Get(t.Context(), g.ID, nil, guildkit.WithoutRateLimitRetry())
	require.ErrorAs(t, err, &rl)
	assert.False(t, rl.NotSent)
	n, err := c3.InvalidRequests(t.Context())
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	n, err = c1.InvalidRequests(t.Context())
	require.NoError(t, err)
	assert.Zero(t, n)

	_, err = guildkit.New(nil, guildkit.WithBaseURL("https://x.example/api"), guildkit.WithRateLimitStore(nil))
	assert.ErrorContains(t, err, "WithRateLimitStore")
}

func TestRateLimitEventKindString(t *testing.T) {
	t.Parallel()
	for k, want := range map[guildkit.RateLimitEventKind]string{
		guildkit.RateLimitWait: "wait", guildkit.RateLimitHit: "hit",
		guildkit.RateLimitStoreDown: "store-down", guildkit.RateLimitStoreUp: "store-up",
		guildkit.RateLimitStoreError:   "store-error",
		guildkit.RateLimitEventKind(9): "RateLimitEventKind(9)",
	} {
		assert.Equal(t, want, k.String())
	}
}

// failingStore is a MemoryStore whose Observe fails after doing its work,
// as a shared store may when it cannot record an answer.
type failingStore struct {
	*ratelimit.MemoryStore
	calls atomic.Int32
}

func (s *failingStore) Observe(ctx context.Context, r *ratelimit.Reservation, o *ratelimit.Observation) error {
	s.calls.Add(1)
	_ = s.MemoryStore.Observe(ctx, r, o)
	return errors.New("store: cannot record the answer")
}

// TestStoreObserveErrorReported: a store failing to record answers does not
// fail the calls; the client tells its observer and its logger, once for
// many failures.
func TestStoreObserveErrorReported(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{})
	store := &failingStore{MemoryStore: ratelimit.NewMemoryStore(ratelimit.MemoryOptions{})}
	var mu sync.Mutex
	var got []guildkit.RateLimitEvent
	var logs bytes.Buffer
	c := srv.Client(guildkit.WithRateLimitStore(store),
		guildkit.WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelWarn}))),
		guildkit.WithRateLimitObserver(func(e guildkit.RateLimitEvent) {
			mu.Lock()
			defer mu.Unlock()
			if e.Kind == guildkit.RateLimitStoreError {
				got = append(got, e)
			}
		}))
	for range 5 {
		_, err := c.Guilds.Get(context.Background(), g.ID, nil)
		require.NoError(t, err, "the answer is in: the call succeeds")
	}
	assert.Equal(t, int32(5), store.calls.Load())
	mu.Lock()
	defer mu.Unlock()
	require.Len(t, got, 1, "told once for five failures")
	assert.EqualError(t, got[0].Err, "store: cannot record the answer")
	assert.Equal(t, "GET", got[0].Method)
	assert.Equal(t, "/guilds/{guild.id}", got[0].Route)
	assert.Equal(t, 1, strings.Count(logs.String(), "rate-limit store failed to record an answer or give back a slot"), logs.String())
	assert.Contains(t, logs.String(), "cannot record the answer")
	assert.NotContains(t, logs.String(), srv.Token())
}
