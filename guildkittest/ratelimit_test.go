package guildkittest_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// get sends a raw GET with the bot's token and returns the answer with its
// body decoded.
func get(t *testing.T, ctx context.Context, srv *guildkittest.Server, path string) (*http.Response, map[string]any) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, "GET", srv.BaseURL()+path, nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bot "+srv.Token())
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var body map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&body)
	return resp, body
}

func TestRouteLimitHeadersAnd429(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t, guildkittest.WithRouteLimit("GET /guilds/{guild.id}", 2, time.Minute))
	g := srv.AddGuild(guildkit.Guild{})
	path := "/guilds/" + g.ID.String()

	resp, _ := get(t, t.Context(), srv, path)
	assert.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "2", resp.Header.Get("X-RateLimit-Limit"))
	assert.Equal(t, "1", resp.Header.Get("X-RateLimit-Remaining"))
	bucket := resp.Header.Get("X-RateLimit-Bucket")
	assert.NotEmpty(t, bucket)
	ra, err := strconv.ParseFloat(resp.Header.Get("X-RateLimit-Reset-After"), 64)
	require.NoError(t, err)
	assert.InDelta(t, 60, ra, 1)
	reset, err := strconv.ParseFloat(resp.Header.Get("X-RateLimit-Reset"), 64)
	require.NoError(t, err)
	assert.InDelta(t, float64(time.Now().Add(time.Minute).Unix()), reset, 2)

	resp, _ = get(t, t.Context(), srv, path)
	assert.Equal(t, "0", resp.Header.Get("X-RateLimit-Remaining"))

	resp, body := get(t, t.Context(), srv, path)
	assert.Equal(t, 429, resp.StatusCode)
	assert.Equal(t, "user", resp.Header.Get("X-RateLimit-Scope"))
	assert.Equal(t, bucket, resp.Header.Get("X-RateLimit-Bucket"))
	assert.Equal(t, "60", resp.Header.Get("Retry-After"))
	assert.Equal(t, false, body["global"])
	assert.InDelta(t, 60, body["retry_after"], 1)
	assert.Equal(t, 1, srv.RateLimited())

	// Another guild is another window.
	g2 := srv.AddGuild(guildkit.Guild{})
	resp, _ = get(t, t.Context(), srv, "/guilds/"+g2.ID.String())
	assert.Equal(t, 200, resp.StatusCode)

	reqs := srv.Requests()
	require.Len(t, reqs, 4)
	assert.Equal(t, 429, reqs[2].Status)
	assert.Equal(t, "/guilds/{guild.id}", reqs[2].Route)
}

func TestGlobalLimit429(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t, guildkittest.WithGlobalLimit(3, time.Minute))
	g := srv.AddGuild(guildkit.Guild{})
	for range 3 {
		resp, _ := get(t, t.Context(), srv, "/guilds/"+g.ID.String())
		assert.Equal(t, 200, resp.StatusCode)
	}
	resp, body := get(t, t.Context(), srv, "/guilds/"+g.ID.String())
	assert.Equal(t, 429, resp.StatusCode)
	assert.Equal(t, "true", resp.Header.Get("X-RateLimit-Global"))
	assert.Equal(t, "global", resp.Header.Get("X-RateLimit-Scope"))
	assert.Equal(t, true, body["global"])
	assert.InDelta(t, 20, body["retry_after"], 1, "one request's share of the minute")
	assert.Equal(t, 1, srv.RateLimited())
}

func TestLatencyAndPeakConcurrency(t *testing.T) {
	t.Parallel()
	// The latency is longer than the test: the requests overlap however
	// slowly the machine starts them, and end when their context does.
	srv := guildkittest.NewServer(t, guildkittest.WithLatency(time.Hour))
	g := srv.AddGuild(guildkit.Guild{})
	ctx, cancel := context.WithCancel(t.Context())
	var wg sync.WaitGroup
	for range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := srv.Client().Guilds.Get(ctx, g.ID, nil)
			assert.ErrorIs(t, err, context.Canceled)
		}()
	}
	deadline := time.Now().Add(10 * time.Second)
	for srv.PeakConcurrency() < 5 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	wg.Wait()
	assert.Equal(t, 5, srv.PeakConcurrency(), "the latency is spent outside the server's lock")
}

func TestLatencyEndsWhenClientGivesUp(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t, guildkittest.WithLatency(time.Hour))
	g := srv.AddGuild(guildkit.Guild{})
	c := srv.Client()
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	_, err := c.Guilds.Get(ctx, g.ID, nil)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
}

// TestGlobalWindows: the same requests counted three ways, under a limit of
// 3 per second: one at 0, three at 600 ms, two at 1.1 s. A fixed window
// (opened by the first) refuses the fourth and admits both at 1.1 s (a new
// window); a sliding window refuses the fourth too and only one at 1.1 s
// (the two from 600 ms are still within the second); a token bucket, full
// again by 600 ms, admits all three there but has refilled only one and a
// half tokens by 1.1 s.
func TestGlobalWindows(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		mode  guildkittest.GlobalWindow
		want  []int // statuses: at 0, 600ms, 600ms, 600ms, then 1.1s, 1.1s
		limit int
	}{
		{guildkittest.FixedWindow, []int{200, 200, 200, 429, 200, 200}, 1},
		{guildkittest.SlidingWindow, []int{200, 200, 200, 429, 200, 429}, 2},
		{guildkittest.TokenBucket, []int{200, 200, 200, 200, 200, 429}, 1},
	} {
		t.Run(tc.mode.String(), func(t *testing.T) {
			t.Parallel()
			// The server's clock is stepped, not waited for, so the test
			// means the same on a loaded machine.
			var mu sync.Mutex
			start := time.Now()
			at := start
			clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return at }
			srv := guildkittest.NewServer(t, guildkittest.WithGlobalLimit(3, time.Second), guildkittest.WithGlobalWindow(tc.mode),
				guildkittest.WithClock(clock))
			g := srv.AddGuild(guildkit.Guild{})
			path := "/guilds/" + g.ID.String()
			var got []int
			for i, ms := range []time.Duration{0, 600, 600, 600, 1100, 1100} {
				mu.Lock()
				at = start.Add(ms * time.Millisecond)
				mu.Unlock()
				resp, body := get(t, t.Context(), srv, path)
				got = append(got, resp.StatusCode)
				if resp.StatusCode == 429 {
					assert.Equal(t, true, body["global"], "request %d", i)
					assert.Equal(t, "global", resp.Header.Get("X-RateLimit-Scope"))
					ra, _ := body["retry_after"].(float64)
					assert.Greater(t, ra, 0.0)
					assert.LessOrEqual(t, ra, 1.0, "at most the window")
				}
			}
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.limit, srv.GlobalRateLimited())
			assert.Equal(t, tc.limit, srv.RateLimited())
			assert.Empty(t, srv.RateLimitedByBucket(), "global 429s are no bucket's")
		})
	}
	assert.Equal(t, "GlobalWindow(9)", guildkittest.GlobalWindow(9).String())
}

// TestInjectGlobalLimit: the next request, and only it, gets a global 429
// with the wait asked for; route 429s are counted by bucket.
func TestInjectGlobalLimit(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t, guildkittest.WithRouteLimit("GET /guilds/{guild.id}", 1, time.Minute))
	g := srv.AddGuild(guildkit.Guild{})
	path := "/guilds/" + g.ID.String()
	srv.InjectGlobalLimit(1500 * time.Millisecond)
	resp, body := get(t, t.Context(), srv, path)
	assert.Equal(t, 429, resp.StatusCode)
	assert.Equal(t, "true", resp.Header.Get("X-RateLimit-Global"))
	assert.Equal(t, 1.5, body["retry_after"])
	assert.Equal(t, "2", resp.Header.Get("Retry-After"))
	resp, _ = get(t, t.Context(), srv, path)
	assert.Equal(t, 200, resp.StatusCode, "the injected 429 took nothing from the route")
	bucket := resp.Header.Get("X-RateLimit-Bucket")
	resp, _ = get(t, t.Context(), srv, path)
	assert.Equal(t, 429, resp.StatusCode)
	assert.Equal(t, 2, srv.RateLimited())
	assert.Equal(t, 1, srv.GlobalRateLimited())
	assert.Equal(t, map[string]int{bucket + "/" + g.ID.String(): 1}, srv.RateLimitedByBucket())
}
