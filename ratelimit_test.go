package guildkit_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// Scenarios shared by the tests (which check correctness) and the
// benchmarks (which report time against the ideal).

// bucketScenario: 20 goroutines make 50 requests to one route limited to 5
// per second. Ideal: 10 windows, the last opening 9 s after the first.
func bucketScenario(tb testing.TB) (elapsed, ideal time.Duration, srv *guildkittest.Server, errs []error) {
	srv = guildkittest.NewServer(tb, guildkittest.WithRouteLimit("GET /guilds/{guild.id}", 5, time.Second))
	g := srv.AddGuild(guildkit.Guild{})
	c := srv.Client()
	start := time.Now()
	errs = runConcurrent(20, 50, func(int) error {
		_, err := c.Guilds.Get(context.Background(), g.ID, nil)
		return err
	})
	return time.Since(start), 9 * time.Second, srv, errs
}

// globalScenario: 20 goroutines make 300 requests across 5 guilds (5
// buckets) under a global limit of 50 per second, counted as mode says.
// Ideal: the first 50 at once, then 50 per second: (300-50)/50 = 5 s.
func globalScenario(tb testing.TB, mode guildkittest.GlobalWindow) (elapsed, ideal time.Duration, srv *guildkittest.Server, errs []error) {
	srv = guildkittest.NewServer(tb, guildkittest.WithGlobalLimit(50, time.Second), guildkittest.WithGlobalWindow(mode))
	var ids []guildkit.Snowflake
	for range 5 {
		ids = append(ids, srv.AddGuild(guildkit.Guild{}).ID)
	}
	c := srv.Client()
	start := time.Now()
	errs = runConcurrent(20, 300, func(i int) error {
		_, err := c.Guilds.Get(context.Background(), ids[i%5], nil)
		return err
	})
	return time.Since(start), 5 * time.Second, srv, errs
}

// latencyScenario: 50 concurrent requests to one route allowing 50 per
// second, with 50 ms of server latency, under a global limit of 50 per
// second. A client that held the route for the whole round trip would take
// 50 × 50 ms = 2.5 s.
func latencyScenario(tb testing.TB) (elapsed time.Duration, srv *guildkittest.Server, errs []error) {
	srv = guildkittest.NewServer(tb,
		guildkittest.WithGlobalLimit(50, time.Second),
		guildkittest.WithRouteLimit("GET /guilds/{guild.id}", 50, time.Second),
		guildkittest.WithLatency(50*time.Millisecond))
	g := srv.AddGuild(guildkit.Guild{})
	c := srv.Client()
	start := time.Now()
	errs = runConcurrent(50, 50, func(int) error {
		_, err := c.Guilds.Get(context.Background(), g.ID, nil)
		return err
	})
	return time.Since(start), srv, errs
}

// TestBucketConcurrentCallersNeverOverrun: 20 goroutines, 50 requests, one
// route limited to 5 per second: every request succeeds and the server
// serves at most one 429. Takes about 9 s.
func TestBucketConcurrentCallersNeverOverrun(t *testing.T) {
	// Not parallel: the scenario measures timing against a real limit, so it
	// runs alone rather than beside the package's other tests.
	_, _, srv, errs := bucketScenario(t)
	requireNoErrors(t, errs)
	assert.LessOrEqual(t, srv.RateLimited(), 1, "at most the bucket's discovery meets a 429")
	ok := 0
	for _, r := range srv.Requests() {
		if r.Status == http.StatusOK {
			ok++
		}
	}
	assert.Equal(t, 50, ok)
}

// TestGlobalLimitAcrossRoutes: 300 requests over 5 buckets under a global
// limit of 50 per second that the server counts in sliding windows (no
// second holds more than 50, the strictest count): no 429 and no error.
// Takes about 5 s.
func TestGlobalLimitAcrossRoutes(t *testing.T) {
	// Not parallel: the scenario measures timing against a real limit, so it
	// runs alone rather than beside the package's other tests.
	_, _, srv, errs := globalScenario(t, guildkittest.SlidingWindow)
	requireNoErrors(t, errs)
	assert.Zero(t, srv.RateLimited(), "the client kept to the global limit")
	assert.Len(t, srv.Requests(), 300)
}

// TestRequestsOverlapWithinABucket: with 50 ms of latency, requests to one
// bucket are in flight together, as many as it has remaining.
func TestRequestsOverlapWithinABucket(t *testing.T) {
	// Not parallel: the scenario measures timing against a real limit, so it
	// runs alone rather than beside the package's other tests.
	_, srv, errs := latencyScenario(t)
	requireNoErrors(t, errs)
	assert.GreaterOrEqual(t, srv.PeakConcurrency(), 10, "requests to one bucket overlap")
	assert.Zero(t, srv.RateLimited())
}

// TestRoutesSharingABucketShareItsState: two routes that the service puts in
// one bucket (X-RateLimit-Bucket) draw from the same count.
func TestRoutesSharingABucketShareItsState(t *testing.T) {
	t.Parallel()
	const limit, per = 2, 300 * time.Millisecond
	var mu sync.Mutex
	var windowStart time.Time
	count, limited := 0, 0
	handler := func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		now := time.Now()
		if now.Sub(windowStart) >= per {
			windowStart, count = now, 0
		}
		resetAfter := windowStart.Add(per).Sub(now)
		w.Header().Set("X-RateLimit-Bucket", "shared-bucket")
		w.Header().Set("X-RateLimit-Limit", strconv.Itoa(limit))
		w.Header().Set("X-RateLimit-Reset-After", strconv.FormatFloat(resetAfter.Seconds()+0.001, 'f', 3, 64))
		if count >= limit {
			limited++
			w.Header().Set("X-RateLimit-Remaining", "0")
			writeJSON(w, 429, map[string]any{"retry_after": resetAfter.Seconds(), "global": false})
			return
		}
		count++
		w.Header().Set("X-RateLimit-Remaining", strconv.Itoa(limit-count))
		writeJSON(w, 200, map[string]any{"ok": true})
	}
	c, mux := setup(t)
	mux.HandleFunc("GET /guilds/{id}/a", handler)
	mux.HandleFunc("GET /guilds/{id}/b", handler)
	for i := range 8 {
		route := "/guilds/{guild.id}/a"
		if i%2 == 1 {
			route = "/guilds/{guild.id}/b"
		}
		_, err := guildkit.ExportDo(c, t.Context(), "GET", route, nil, nil, guildkit.Snowflake(7))
		require.NoError(t, err)
	}
	mu.Lock()
	defer mu.Unlock()
	assert.Zero(t, limited, "the second route waited on the shared bucket instead of overrunning it")
}

// TestBucketWaitBeyondDeadlineFailsAtOnce: a used-up bucket whose reset is
// after the context's deadline fails at once, before sending, saying how long
// the wait would have been.
func TestBucketWaitBeyondDeadlineFailsAtOnce(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t, guildkittest.WithRouteLimit("GET /guilds/{guild.id}", 1, 10*time.Second))
	g := srv.AddGuild(guildkit.Guild{})
	c := srv.Client()
	_, err := c.Guilds.Get(t.Context(), g.ID, nil)
	require.NoError(t, err)

	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
	defer cancel()
	start := time.Now()
	_, err = c.Guilds.Get(ctx, g.ID, nil)
	var rl *guildkit.RateLimitError
	require.ErrorAs(t, err, &rl)
	assert.True(t, rl.NotSent)
	assert.Contains(t, rl.Reason, "deadline")
	assert.Greater(t, rl.RetryAfter, 5*time.Second, "the wait it would have made")
	assert.NotEmpty(t, rl.Bucket)
	assert.ErrorIs(t, err, guildkit.ErrRateLimited)
	assert.Less(t, time.Since(start), time.Second, "it did not sleep into the deadline")
	assert.Len(t, srv.Requests(), 1, "the second call was not sent")
	assert.Zero(t, srv.RateLimited())
}

// TestWithoutRateLimitRetryFailsFastOnUsedUpBucket: the per-call option
// also stops the bucket layer from waiting.
func TestWithoutRateLimitRetryFailsFastOnUsedUpBucket(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t, guildkittest.WithRouteLimit("GET /guilds/{guild.id}", 1, 10*time.Second))
	g := srv.AddGuild(guildkit.Guild{})
	c := srv.Client()
	_, err := c.Guilds.Get(t.Context(), g.ID, nil, guildkit.WithoutRateLimitRetry())
	require.NoError(t, err, "the first call finds the bucket free")
	_, err = c.Guilds.Get(t.Context(), g.ID, nil, guildkit.WithoutRateLimitRetry())
	var rl *guildkit.RateLimitError
	require.ErrorAs(t, err, &rl)
	assert.True(t, rl.NotSent)
	assert.Contains(t, rl.Reason, "turned off")
	assert.Len(t, srv.Requests(), 1)

	// Another guild is another bucket: not limited.
	g2 := srv.AddGuild(guildkit.Guild{})
	_, err = c.Guilds.Get(t.Context(), g2.ID, nil, guildkit.WithoutRateLimitRetry())
	require.NoError(t, err)
}

// TestMaxRateLimitWaitBoundsBucketWaits: WithMaxRateLimitWait bounds the
// bucket layer's waits too.
func TestMaxRateLimitWaitBoundsBucketWaits(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t, guildkittest.WithRouteLimit("GET /guilds/{guild.id}", 1, 10*time.Second))
	g := srv.AddGuild(guildkit.Guild{})
	c := srv.Client(guildkit.WithMaxRateLimitWait(time.Second))
	_, err := c.Guilds.Get(t.Context(), g.ID, nil)
	require.NoError(t, err)
	_, err = c.Guilds.Get(t.Context(), g.ID, nil)
	var rl *guildkit.RateLimitError
	require.ErrorAs(t, err, &rl)
	assert.Contains(t, rl.Reason, "longer than the client accepts")
}

// TestBucketWaitEndsWithContext: a bucket wait ends when the context is
// cancelled.
func TestBucketWaitEndsWithContext(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t, guildkittest.WithRouteLimit("GET /guilds/{guild.id}", 1, 10*time.Second))
	g := srv.AddGuild(guildkit.Guild{})
	c := srv.Client()
	_, err := c.Guilds.Get(t.Context(), g.ID, nil)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(50*time.Millisecond, cancel)
	_, err = c.Guilds.Get(ctx, g.ID, nil)
	assert.ErrorIs(t, err, context.Canceled)
	assert.Len(t, srv.Requests(), 1)
}

// TestGlobal429PausesEveryRequest: after a global 429 that names no bucket,
// no request on any route is sent until the wait it asked for is over.
func TestGlobal429PausesEveryRequest(t *testing.T) {
	t.Parallel()
	const pause = 300 * time.Millisecond
	var mu sync.Mutex
	var limitedAt time.Time
	var arrivals []time.Time
	c, mux := setup(t)
	mux.HandleFunc("GET /guilds/{id}", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		first := limitedAt.IsZero()
		if first {
			limitedAt = time.Now()
		} else {
			arrivals = append(arrivals, time.Now())
		}
		mu.Unlock()
		if first {
			w.Header().Set("X-RateLimit-Global", "true")
			writeJSON(w, 429, map[string]any{"message": "You are being rate limited.", "retry_after": pause.Seconds(), "global": true})
			return
		}
		writeJSON(w, 200, map[string]any{"id": r.PathValue("id")})
	})
	_, err := c.Guilds.Get(t.Context(), 1, nil, guildkit.WithoutRateLimitRetry())
	var rl *guildkit.RateLimitError
	require.ErrorAs(t, err, &rl)
	assert.True(t, rl.Global)

	errs := runConcurrent(5, 5, func(i int) error {
		_, err := c.Guilds.Get(t.Context(), guildkit.Snowflake(10+i), nil)
		return err
	})
	requireNoErrors(t, errs)
	mu.Lock()
	defer mu.Unlock()
	require.Len(t, arrivals, 5)
	for _, a := range arrivals {
		assert.GreaterOrEqual(t, a.Sub(limitedAt), pause, "sent during the global pause")
	}
}

// TestHiddenLimit429IsRetried: a 429 from a shared limit the headers did not
// announce is retried, never surfaced while retries remain, and does not
// mark the route's bucket as used up.
func TestHiddenLimit429IsRetried(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	c, mux := setup(t)
	mux.HandleFunc("GET /guilds/{id}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-RateLimit-Bucket", "b1")
		w.Header().Set("X-RateLimit-Limit", "5")
		w.Header().Set("X-RateLimit-Remaining", "4")
		w.Header().Set("X-RateLimit-Reset-After", "1.000")
		if calls.Add(1) == 1 {
			w.Header().Set("X-RateLimit-Scope", "shared")
			writeJSON(w, 429, map[string]any{"retry_after": 0.02, "global": false})
			return
		}
		writeJSON(w, 200, map[string]any{"id": "1"})
	})
	g, err := c.Guilds.Get(t.Context(), 1, nil)
	require.NoError(t, err)
	assert.Equal(t, guildkit.Snowflake(1), g.ID)
	assert.Equal(t, int32(2), calls.Load())
}

// TestSubSecondResetAfter: a bucket used up with Reset-After 0.2 is free
// again after about 0.2 s, not after a whole second.
func TestSubSecondResetAfter(t *testing.T) {
	t.Parallel()
	var events []guildkit.RateLimitEvent
	var mu sync.Mutex
	observe := func(e guildkit.RateLimitEvent) {
		mu.Lock()
		defer mu.Unlock()
		events = append(events, e)
	}
	c, mux := setup(t, guildkit.WithRateLimitObserver(observe))
	var calls atomic.Int32
	mux.HandleFunc("GET /guilds/{id}", func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.Header().Set("X-RateLimit-Bucket", "fast")
		w.Header().Set("X-RateLimit-Limit", "1")
		w.Header().Set("X-RateLimit-Remaining", "0")
		w.Header().Set("X-RateLimit-Reset", "99999999999") // far future: must be ignored
		w.Header().Set("X-RateLimit-Reset-After", "0.200")
		writeJSON(w, 200, map[string]any{"id": "1"})
	})
	for range 2 {
		_, err := c.Guilds.Get(t.Context(), 1, nil)
		require.NoError(t, err)
	}
	mu.Lock()
	defer mu.Unlock()
	require.Len(t, events, 1, "one wait, for the bucket")
	e := events[0]
	assert.Equal(t, guildkit.RateLimitWait, e.Kind)
	assert.Equal(t, "/guilds/{guild.id}", e.Route)
	assert.Equal(t, "fast", e.Bucket)
	assert.GreaterOrEqual(t, e.Wait, 150*time.Millisecond)
	assert.Less(t, e.Wait, 900*time.Millisecond, "Reset-After is used to the millisecond")
}

// TestObserverToldOf429AndLogsNameBucket: the observer is told of each 429;
// the debug record names the bucket and the time waited, never a token.
func TestObserverToldOf429AndLogsNameBucket(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	var mu sync.Mutex
	logger := slog.New(slog.NewTextHandler(&syncWriter{w: &logs, mu: &mu}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	var hits atomic.Int32
	c, mux := setup(t, guildkit.WithLogger(logger), guildkit.WithRateLimitObserver(func(e guildkit.RateLimitEvent) {
		if e.Kind == guildkit.RateLimitHit {
			hits.Add(1)
			assert.Equal(t, 10*time.Millisecond, e.Wait)
			assert.Equal(t, "/webhooks/{webhook.id}/{webhook.token}", e.Route)
		}
	}))
	const secret = "hook-token-secret"
	var calls atomic.Int32
	mux.HandleFunc("POST /webhooks/{id}/{token}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-RateLimit-Bucket", "hookbucket")
		w.Header().Set("X-RateLimit-Limit", "5")
		w.Header().Set("X-RateLimit-Remaining", "4")
		w.Header().Set("X-RateLimit-Reset-After", "2")
		if calls.Add(1) == 1 {
			writeJSON(w, 429, map[string]any{"retry_after": 0.01, "global": false})
			return
		}
		w.WriteHeader(204)
	})
	_, err := guildkit.ExportDoNoAuth(c, t.Context(), "POST", "/webhooks/{webhook.id}/{webhook.token}", map[string]string{"content": "x"}, nil, guildkit.Snowflake(3), secret)
	require.NoError(t, err)
	assert.Equal(t, int32(1), hits.Load())
	mu.Lock()
	out := logs.String()
	mu.Unlock()
	assert.Contains(t, out, "bucket=hookbucket")
	assert.Contains(t, out, "bucket_wait=")
	assert.Contains(t, out, "status=204")
	assert.NotContains(t, out, secret)
}

type syncWriter struct {
	w  *bytes.Buffer
	mu *sync.Mutex
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

func TestWithGlobalRateLimitValidates(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		rate  float64
		burst int
		ok    bool
	}{{50, 45, true}, {0, 0, true}, {-1, 1, false}, {10, 0, false}} {
		_, err := guildkit.New(nil, guildkit.WithBaseURL("https://x.example/api"), guildkit.WithGlobalRateLimit(tc.rate, tc.burst))
		if tc.ok {
			assert.NoError(t, err, "%v/%d", tc.rate, tc.burst)
		} else {
			assert.ErrorContains(t, err, "WithGlobalRateLimit", "%v/%d", tc.rate, tc.burst)
		}
	}
}

// The scenario benchmarks run each scenario once per iteration (use
// -benchtime=1x) and report its wall time against the ideal.

func BenchmarkScenarioBucket(b *testing.B) {
	for b.Loop() {
		elapsed, ideal, srv, errs := bucketScenario(b)
		reportScenario(b, elapsed, ideal, srv, errs)
	}
}

// BenchmarkScenarioGlobal runs the global scenario against each way the
// server may count its global limit; sliding-window is the strictest.
func BenchmarkScenarioGlobal(b *testing.B) {
	for _, mode := range []guildkittest.GlobalWindow{guildkittest.SlidingWindow, guildkittest.FixedWindow, guildkittest.TokenBucket} {
		b.Run(mode.String(), func(b *testing.B) {
			for b.Loop() {
				elapsed, ideal, srv, errs := globalScenario(b, mode)
				reportScenario(b, elapsed, ideal, srv, errs)
			}
		})
	}
}

func BenchmarkScenarioLatency(b *testing.B) {
	for b.Loop() {
		elapsed, srv, errs := latencyScenario(b)
		reportScenario(b, elapsed, 0, srv, errs)
		b.ReportMetric(float64(srv.PeakConcurrency()), "peak-in-flight")
	}
}

func reportScenario(b *testing.B, elapsed, ideal time.Duration, srv *guildkittest.Server, errs []error) {
	for _, err := range errs {
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(elapsed.Seconds(), "s/scenario")
	if ideal > 0 {
		b.ReportMetric(elapsed.Seconds()/ideal.Seconds(), "x-ideal")
	}
	b.ReportMetric(float64(srv.RateLimited()), "429s")
}

// TestStateIsPerClient: the caller's http.Client is not changed, and two
// clients keep separate buckets.
func TestStateIsPerClient(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t, guildkittest.WithRouteLimit("GET /guilds/{guild.id}", 1, time.Minute))
	g := srv.AddGuild(guildkit.Guild{})
	hc := &http.Client{}
	c1, err := guildkit.New(guildkit.BotToken(srv.Token()), guildkit.WithBaseURL(srv.BaseURL()), guildkit.WithHTTPClient(hc))
	require.NoError(t, err)
	assert.Nil(t, hc.Transport, "the caller's client is not changed")
	_, err = c1.Guilds.Get(t.Context(), g.ID, nil)
	require.NoError(t, err)

	// A second client knows nothing of the first one's bucket: it sends,
	// meets the service's 429, and (told not to wait) reports it.
	c2 := srv.Client()
	_, err = c2.Guilds.Get(t.Context(), g.ID, nil, guildkit.WithoutRateLimitRetry())
	var rl *guildkit.RateLimitError
	require.ErrorAs(t, err, &rl)
	assert.False(t, rl.NotSent)
	assert.Equal(t, 1, srv.RateLimited())
	hc.CloseIdleConnections()
}

// TestPastResetDoesNotDelay: an answer that says the bucket is used up but
// its window already ended (a negative X-RateLimit-Reset-After, or none and
// an X-RateLimit-Reset in the past) does not hold the next calls back.
func TestPastResetDoesNotDelay(t *testing.T) {
	t.Parallel()
	for name, headers := range map[string]map[string]string{
		"negative Reset-After":      {"X-RateLimit-Reset-After": "-3.5", "X-RateLimit-Reset": "1"},
		"Reset in the past":         {"X-RateLimit-Reset": "1000000000"},
		"unreadable Reset-After":    {"X-RateLimit-Reset-After": "soon", "X-RateLimit-Reset": "1000000000.25"},
		"negative, no Reset at all": {"X-RateLimit-Reset-After": "-0.001"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			var waits []guildkit.RateLimitEvent
			c, mux := setup(t, guildkit.WithRateLimitObserver(func(e guildkit.RateLimitEvent) {
				if e.Kind == guildkit.RateLimitWait {
					mu.Lock()
					waits = append(waits, e)
					mu.Unlock()
				}
			}))
			var calls atomic.Int32
			mux.HandleFunc("GET /guilds/1", func(w http.ResponseWriter, r *http.Request) {
				calls.Add(1)
				w.Header().Set("X-RateLimit-Limit", "1")
				w.Header().Set("X-RateLimit-Remaining", "0")
				w.Header().Set("X-RateLimit-Bucket", "b1")
				for k, v := range headers {
					w.Header().Set(k, v)
				}
				writeJSON(w, http.StatusOK, map[string]any{"id": "1", "name": "g"})
			})
			for range 3 {
				_, err := c.Guilds.Get(t.Context(), 1, nil)
				require.NoError(t, err)
			}
			assert.Equal(t, int32(3), calls.Load())
			mu.Lock()
			defer mu.Unlock()
			assert.Empty(t, waits, "no call waited for a window that had already ended")
		})
	}
}
