package guildkit_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
)

// recorder keeps every event an Observer is told, in order.
type recorder struct {
	mu     sync.Mutex
	starts []guildkit.CallInfo
	tries  []guildkit.AttemptEvent
	ends   []guildkit.CallEvent
	limits []guildkit.RateLimitEvent
	ctxOK  []bool // whether each Attempt/CallEnd saw the context CallStart returned
}

type recorderKey struct{}

func (r *recorder) observer() guildkit.Observer {
	return guildkit.Observer{
		CallStart: func(ctx context.Context, c guildkit.CallInfo) context.Context {
			r.mu.Lock()
			defer r.mu.Unlock()
			r.starts = append(r.starts, c)
			return context.WithValue(ctx, recorderKey{}, "call")
		},
		Attempt: func(ctx context.Context, e guildkit.AttemptEvent) {
			r.mu.Lock()
			defer r.mu.Unlock()
			r.tries = append(r.tries, e)
			r.ctxOK = append(r.ctxOK, ctx.Value(recorderKey{}) == "call")
		},
		CallEnd: func(ctx context.Context, e guildkit.CallEvent) {
			r.mu.Lock()
			defer r.mu.Unlock()
			r.ends = append(r.ends, e)
			r.ctxOK = append(r.ctxOK, ctx.Value(recorderKey{}) == "call")
		},
		RateLimit: func(e guildkit.RateLimitEvent) {
			r.mu.Lock()
			defer r.mu.Unlock()
			r.limits = append(r.limits, e)
		},
	}
}

// dump prints every event with %+v, for searching for secrets.
func (r *recorder) dump() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return fmt.Sprintf("%+v\n%+v\n%+v\n%+v", r.starts, r.tries, r.ends, r.limits)
}

func TestObserverReportsARetriedCall(t *testing.T) {
	t.Parallel()
	var rec recorder
	c, mux := setup(t, guildkit.WithObserver(rec.observer()))
	var n atomic.Int32
	mux.HandleFunc("GET /guilds/{id}", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, "GET")
		assert.Equal(t, "41771983423143937", r.PathValue("id"))
		w.Header().Set("X-RateLimit-Bucket", "guild-get")
		w.Header().Set("X-RateLimit-Limit", "5")
		w.Header().Set("X-RateLimit-Remaining", "4")
		w.Header().Set("X-RateLimit-Reset-After", "1")
		if n.Add(1) == 1 {
			http.Error(w, "upstream", http.StatusServiceUnavailable)
			return
		}
		io.WriteString(w, `{"id":"41771983423143937","name":"g"}`)
	})
	g, err := c.Guilds.Get(t.Context(), 41771983423143937, nil)
	require.NoError(t, err)
	assert.Equal(t, "g", g.Name)

	require.Len(t, rec.starts, 1)
	call := rec.starts[0]
	assert.Equal(t, "GET", call.Method)
	assert.Equal(t, "/guilds/{guild.id}", call.Route)
	assert.Equal(t, "41771983423143937", call.Major)
	assert.True(t, strings.HasSuffix(call.URL, "/api/v10/guilds/41771983423143937"), call.URL)

	require.Len(t, rec.tries, 2)
	assert.Equal(t, 1, rec.tries[0].Attempt)
	assert.Equal(t, http.StatusServiceUnavailable, rec.tries[0].Status)
	assert.Equal(t, guildkit.ErrorKindAPI, rec.tries[0].ErrorKind)
	assert.Equal(t, 2, rec.tries[1].Attempt)
	assert.Equal(t, http.StatusOK, rec.tries[1].Status)
	assert.Equal(t, guildkit.ErrorKindNone, rec.tries[1].ErrorKind)
	assert.Equal(t, "guild-get", rec.tries[1].Bucket)
	assert.Equal(t, call, rec.tries[1].Call)

	require.Len(t, rec.ends, 1)
	end := rec.ends[0]
	assert.Equal(t, call, end.Call)
	assert.Equal(t, 2, end.Attempts)
	assert.Equal(t, http.StatusOK, end.Status)
	assert.Equal(t, guildkit.ErrorKindNone, end.ErrorKind)
	assert.NoError(t, end.Err)
	assert.Equal(t, "guild-get", end.Bucket)
	assert.GreaterOrEqual(t, end.Duration, rec.tries[0].Duration+rec.tries[1].Duration)
	assert.Equal(t, []bool{true, true, true}, rec.ctxOK, "Attempt and CallEnd get CallStart's context")
}

func TestObserverErrorKinds(t *testing.T) {
	t.Parallel()
	var rec recorder
	c, mux := setup(t, guildkit.WithObserver(rec.observer()), guildkit.WithRetry(0, time.Millisecond, time.Millisecond))
	mux.HandleFunc("GET /guilds/1", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"code":10004,"message":"Unknown Guild"}`)
	})
	mux.HandleFunc("GET /guilds/2", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `<html>not json</html>`)
	})
	mux.HandleFunc("GET /guilds/3", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "120")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusTooManyRequests)
		io.WriteString(w, `{"message":"slow down","retry_after":120,"global":false}`)
	})
	ctx := t.Context()
	for id, want := range map[guildkit.Snowflake]guildkit.ErrorKind{
		1: guildkit.ErrorKindAPI, 2: guildkit.ErrorKindDecode, 3: guildkit.ErrorKindRateLimited,
	} {
		rec = recorder{}
		_, err := c.Guilds.Get(ctx, id, nil)
		require.Error(t, err)
		require.Len(t, rec.ends, 1, "guild %d", id)
		assert.Equal(t, want, rec.ends[0].ErrorKind, "guild %d", id)
		assert.Equal(t, err, rec.ends[0].Err, "guild %d", id)
	}

	rec = recorder{}
	canceled, cancel := context.WithCancel(ctx)
	cancel()
	_, err := c.Guilds.Get(canceled, 1, nil)
	require.Error(t, err)
	require.Len(t, rec.ends, 1)
	assert.Equal(t, guildkit.ErrorKindCanceled, rec.ends[0].ErrorKind)

	// Refused before sending: not a call.
	rec = recorder{}
	_, err = c.Guilds.Get(ctx, 0, nil)
	var ve *guildkit.ValidationError
	require.ErrorAs(t, err, &ve)
	assert.Empty(t, rec.starts)
	assert.Empty(t, rec.ends)
}

func TestObserverTransportError(t *testing.T) {
	t.Parallel()
	var rec recorder
	c, err := guildkit.New(guildkit.BotToken(testToken), guildkit.WithBaseURL("http://127.0.0.1:1/api"),
		guildkit.WithObserver(rec.observer()), guildkit.WithRetry(1, time.Millisecond, time.Millisecond))
	require.NoError(t, err)
	_, err = c.Guilds.Get(t.Context(), 5, nil)
	require.Error(t, err)
	require.Len(t, rec.tries, 2)
	assert.Equal(t, guildkit.ErrorKindTransport, rec.tries[0].ErrorKind)
	assert.Zero(t, rec.tries[0].Status)
	require.Len(t, rec.ends, 1)
	assert.Equal(t, guildkit.ErrorKindTransport, rec.ends[0].ErrorKind)
	assert.Equal(t, 2, rec.ends[0].Attempts)
}

func TestObserverRateLimitWait(t *testing.T) {
	t.Parallel()
	var rec recorder
	c, mux := setup(t, guildkit.WithObserver(rec.observer()))
	mux.HandleFunc("GET /guilds/7/roles", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-RateLimit-Bucket", "roles-bucket")
		w.Header().Set("X-RateLimit-Limit", "1")
		w.Header().Set("X-RateLimit-Remaining", "0")
		w.Header().Set("X-RateLimit-Reset-After", "0.05")
		io.WriteString(w, `[]`)
	})
	ctx := t.Context()
	for range 2 {
		_, err := c.Roles.List(ctx, 7)
		require.NoError(t, err)
	}
	require.Len(t, rec.tries, 2)
	assert.Zero(t, rec.tries[0].RateLimitWait)
	assert.Positive(t, rec.tries[1].RateLimitWait, "the second call waits for the bucket's reset")
	assert.Equal(t, "roles-bucket", rec.tries[1].Bucket)
	require.Len(t, rec.ends, 2)
	assert.Equal(t, rec.tries[1].RateLimitWait, rec.ends[1].RateLimitWait)
	assert.Equal(t, "7", rec.ends[1].Call.Major)
	require.NotEmpty(t, rec.limits)
	assert.Equal(t, guildkit.RateLimitWait, rec.limits[0].Kind)
}

// A webhook token is in no event: not the major parameter, not the URL, not
// an error.
func TestObserverNeverSeesAWebhookToken(t *testing.T) {
	t.Parallel()
	const token = "whtok-S3cr3t_value"
	var rec recorder
	c, mux := setup(t, guildkit.WithObserver(rec.observer()), guildkit.WithRetry(1, time.Millisecond, time.Millisecond))
	mux.HandleFunc("POST /webhooks/88/{token}", func(w http.ResponseWriter, r *http.Request) {
		assert.Equal(t, token, r.PathValue("token"))
		w.Header().Set("X-RateLimit-Bucket", "wh")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"code":10015,"message":"Unknown Webhook"}`)
	})
	mux.HandleFunc("GET /webhooks/88/{token}", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "busy", http.StatusServiceUnavailable)
	})
	ctx := t.Context()
	_, err := c.Webhooks.Execute(ctx, 88, token, &guildkit.WebhookExecuteParams{Content: guildkit.Some("hi")})
	require.Error(t, err)
	_, err = c.Webhooks.GetWithToken(ctx, 88, token)
	require.Error(t, err)

	require.Len(t, rec.starts, 2)
	for _, call := range rec.starts {
		assert.Equal(t, "88", call.Major)
		assert.Contains(t, call.URL, "/webhooks/88/REDACTED")
		assert.Equal(t, "/webhooks/{webhook.id}/{webhook.token}", call.Route)
	}
	require.Len(t, rec.tries, 3, "one POST, two GETs")
	require.Len(t, rec.ends, 2)
	all := rec.dump()
	assert.NotContains(t, all, token)
	assert.NotContains(t, all, "S3cr3t")
	for _, e := range rec.ends {
		assert.NotContains(t, e.Err.Error(), token)
	}
}

// A body the caller reads ends the call when it is closed.
func TestObserverStreamedBodyEndsOnClose(t *testing.T) {
	t.Parallel()
	var rec recorder
	c, mux := setup(t, guildkit.WithObserver(rec.observer()))
	mux.HandleFunc("GET /guilds/9/widget.png", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		io.WriteString(w, "\x89PNG")
	})
	rc, err := c.Guilds.GetWidgetImage(t.Context(), 9, "")
	require.NoError(t, err)
	assert.Empty(t, rec.ends, "not ended before the body is closed")
	_, _ = io.ReadAll(rc)
	require.NoError(t, rc.Close())
	require.Len(t, rec.ends, 1)
	assert.Equal(t, http.StatusOK, rec.ends[0].Status)
}

func TestErrorKindString(t *testing.T) {
	t.Parallel()
	for k, want := range map[guildkit.ErrorKind]string{
		guildkit.ErrorKindNone: "", guildkit.ErrorKindAPI: "api", guildkit.ErrorKindRateLimited: "rate_limited",
		guildkit.ErrorKindTransport: "transport", guildkit.ErrorKindCanceled: "canceled",
		guildkit.ErrorKindTimeout: "timeout", guildkit.ErrorKindDecode: "decode", 99: "ErrorKind(99)",
	} {
		assert.Equal(t, want, k.String())
	}
}

// A call the rate limiter refuses to wait for is a call of no attempt.
func TestObserverCallNotSent(t *testing.T) {
	t.Parallel()
	var rec recorder
	c, mux := setup(t, guildkit.WithObserver(rec.observer()))
	mux.HandleFunc("GET /guilds/7/roles", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-RateLimit-Bucket", "roles-bucket")
		w.Header().Set("X-RateLimit-Limit", "1")
		w.Header().Set("X-RateLimit-Remaining", "0")
		w.Header().Set("X-RateLimit-Reset-After", "60")
		io.WriteString(w, `[]`)
	})
	ctx := t.Context()
	_, err := c.Roles.List(ctx, 7)
	require.NoError(t, err)
	_, err = c.Roles.List(ctx, 7, guildkit.WithoutRateLimitRetry())
	var rl *guildkit.RateLimitError
	require.ErrorAs(t, err, &rl)
	require.True(t, rl.NotSent)
	require.Len(t, rec.tries, 1, "the refused call made no attempt")
	require.Len(t, rec.ends, 2)
	assert.Zero(t, rec.ends[1].Attempts)
	assert.Zero(t, rec.ends[1].Status)
	assert.Equal(t, guildkit.ErrorKindRateLimited, rec.ends[1].ErrorKind)
}
