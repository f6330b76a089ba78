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

	resp, _ := get(t, context.Background(), srv, path)
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

	resp, _ = get(t, context.Background(), srv, path)
	assert.Equal(t, "0", resp.Header.Get("X-RateLimit-Remaining"))

	resp, body := get(t, context.Background(), srv, path)
	assert.Equal(t, 429, resp.StatusCode)
	assert.Equal(t, "user", resp.Header.Get("X-RateLimit-Scope"))
	assert.Equal(t, bucket, resp.Header.Get("X-RateLimit-Bucket"))
	assert.Equal(t, "60", resp.Header.Get("Retry-After"))
	assert.Equal(t, false, body["global"])
	assert.InDelta(t, 60, body["retry_after"], 1)
	assert.Equal(t, 1, srv.RateLimited())

	// Another guild is another window.
	g2 := srv.AddGuild(guildkit.Guild{})
	resp, _ = get(t, context.Background(), srv, "/guilds/"+g2.ID.String())
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
		resp, _ := get(t, context.Background(), srv, "/guilds/"+g.ID.String())
		assert.Equal(t, 200, resp.StatusCode)
	}
	resp, body := get(t, context.Background(), srv, "/guilds/"+g.ID.String())
	assert.Equal(t, 429, resp.StatusCode)
	assert.Equal(t, "true", resp.Header.Get("X-RateLimit-Global"))
	assert.Equal(t, "global", resp.Header.Get("X-RateLimit-Scope"))
	assert.Equal(t, true, body["global"])
	assert.InDelta(t, 20, body["retry_after"], 1, "one request's share of the minute")
	assert.Equal(t, 1, srv.RateLimited())
}

func TestLatencyAndPeakConcurrency(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t, guildkittest.WithLatency(100*time.Millisecond))
	g := srv.AddGuild(guildkit.Guild{})
	var wg sync.WaitGroup
	for range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, _ := get(t, context.Background(), srv, "/guilds/"+g.ID.String())
			assert.Equal(t, 200, resp.StatusCode)
		}()
	}
	wg.Wait()
	assert.Equal(t, 5, srv.PeakConcurrency(), "the latency is spent outside the server's lock")
}

func TestLatencyEndsWhenClientGivesUp(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t, guildkittest.WithLatency(time.Hour))
	g := srv.AddGuild(guildkit.Guild{})
	c := srv.Client()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := c.Guilds.Get(ctx, g.ID, nil)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
}
