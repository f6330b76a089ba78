package guildkit_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
)

func TestNewRequiresBaseURL(t *testing.T) {
	t.Parallel()
	_, err := guildkit.New(guildkit.BotToken("x"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "WithBaseURL is required")

	for _, bad := range []string{"example.com/api", "ftp://example.com", "http://", "https://x.example/api?q=1", "https://user:pw@x.example/api"} {
		_, err := guildkit.New(guildkit.BotToken("x"), guildkit.WithBaseURL(bad))
		assert.Error(t, err, bad)
	}
	_, err = guildkit.New(guildkit.BotToken(" "), guildkit.WithBaseURL("https://x.example/api"))
	assert.ErrorContains(t, err, "empty token")
	_, err = guildkit.New(nil, guildkit.WithBaseURL("https://x.example/api"), guildkit.WithRetry(-1, 0, 0))
	assert.ErrorContains(t, err, "WithRetry")

	c, err := guildkit.New(nil, guildkit.WithBaseURL("https://x.example/api/v10/"))
	require.NoError(t, err)
	assert.Equal(t, "https://x.example/api/v10", c.BaseURL())
}

func TestCredentialNeverPrinted(t *testing.T) {
	t.Parallel()
	cred := guildkit.BotToken("very-secret-token")
	c, err := guildkit.New(cred, guildkit.WithBaseURL("https://x.example/api"))
	require.NoError(t, err)
	for _, s := range []string{fmt.Sprint(cred), fmt.Sprintf("%v %+v %#v %s", cred, cred, cred, cred), c.String(), fmt.Sprintf("%v", c)} {
		assert.NotContains(t, s, "very-secret-token")
	}
	assert.Equal(t, "Bot <redacted>", cred.String())
}

func TestRequestHeaders(t *testing.T) {
	t.Parallel()
	c, mux := setup(t, guildkit.WithUserAgent("mybot/1.0"))
	mux.HandleFunc("GET /guilds/{id}", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, "GET")
		testHeader(t, r, "Authorization", "Bot "+testToken)
		testHeader(t, r, "User-Agent", "mybot/1.0")
		testHeader(t, r, "X-Trace", "abc")
		testQuery(t, r, url.Values{"with_counts": {"true"}})
		assert.Equal(t, "1", r.PathValue("id"))
		writeJSON(w, 200, map[string]any{"id": "1", "name": "g"})
	})
	g, err := c.Guilds.Get(t.Context(), 1, &guildkit.GuildGetParams{WithCounts: guildkit.Some(true)}, guildkit.WithHeader("X-Trace", "abc"))
	require.NoError(t, err)
	assert.Equal(t, "g", g.Name)
}

func TestBearerToken(t *testing.T) {
	t.Parallel()
	var got atomic.Value
	_, mux := setup(t)
	mux.HandleFunc("GET /guilds/{id}", func(w http.ResponseWriter, r *http.Request) {
		got.Store(r.Header.Get("Authorization"))
		writeJSON(w, 200, map[string]any{"id": "1"})
	})
	// A second client on the same mux with a bearer credential.
	srv := newServer(t, mux)
	c, err := guildkit.New(guildkit.BearerToken("oauth"), guildkit.WithBaseURL(srv))
	require.NoError(t, err)
	_, err = c.Guilds.Get(t.Context(), 1, nil)
	require.NoError(t, err)
	assert.Equal(t, "Bearer oauth", got.Load())
}

func TestNoCredential(t *testing.T) {
	t.Parallel()
	c, err := guildkit.New(nil, guildkit.WithBaseURL("http://127.0.0.1:1/api"))
	require.NoError(t, err)
	_, err = c.Guilds.Get(t.Context(), 1, nil)
	assert.ErrorIs(t, err, guildkit.ErrNoCredential)
}

func TestMissingPathIDIsValidationError(t *testing.T) {
	t.Parallel()
	c, _ := setup(t) // any request would fail the test through the catch-all
	_, err := c.Guilds.Get(t.Context(), 0, nil)
	var ve *guildkit.ValidationError
	require.ErrorAs(t, err, &ve)
	require.Len(t, ve.Problems, 1)
	assert.Equal(t, "guild.id", ve.Problems[0].Path)
}

func TestReasonOnlyOnAuditLogOperations(t *testing.T) {
	t.Parallel()
	c, _ := setup(t)
	_, err := c.Guilds.Get(t.Context(), 1, nil, guildkit.WithReason("why"))
	var ve *guildkit.ValidationError
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, "reason", ve.Problems[0].Path)
}

func TestNullInQueryIsValidationError(t *testing.T) {
	t.Parallel()
	c, _ := setup(t)
	_, err := c.Guilds.Get(t.Context(), 1, &guildkit.GuildGetParams{WithCounts: guildkit.Null[bool]()})
	var ve *guildkit.ValidationError
	require.ErrorAs(t, err, &ve)
	assert.Contains(t, ve.Error(), "with_counts")
}

func TestRetry429OnPOSTOnceThenSuccess(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	var calls atomic.Int32
	mux.HandleFunc("POST /things", func(w http.ResponseWriter, r *http.Request) {
		testJSONBody(t, r, `{"name":"x"}`)
		if calls.Add(1) == 1 {
			w.Header().Set("Retry-After", "0.01")
			writeJSON(w, 429, map[string]any{"message": "You are being rate limited.", "retry_after": 0.01, "global": false})
			return
		}
		writeJSON(w, 200, map[string]any{"ok": true})
	})
	var out map[string]any
	res, err := guildkit.ExportDo(c, t.Context(), "POST", "/things", map[string]string{"name": "x"}, &out)
	require.NoError(t, err)
	assert.Equal(t, 200, res)
	assert.Equal(t, int32(2), calls.Load(), "one retry after the 429")
	assert.Equal(t, true, out["ok"])
}

func TestNoRetryOf503OnPOST(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	var calls atomic.Int32
	mux.HandleFunc("POST /things", func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		writeJSON(w, 503, map[string]any{"message": "unavailable"})
	})
	_, err := guildkit.ExportDo(c, t.Context(), "POST", "/things", map[string]string{}, nil)
	var apiErr *guildkit.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, 503, apiErr.Status)
	assert.ErrorIs(t, err, guildkit.ErrServer)
	assert.Equal(t, int32(1), calls.Load(), "a POST is never sent twice after a 5xx")
}

func TestNoRetryOf502OnPATCH(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	var calls atomic.Int32
	mux.HandleFunc("PATCH /things", func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.WriteHeader(502)
	})
	_, err := guildkit.ExportDo(c, t.Context(), "PATCH", "/things", map[string]string{}, nil)
	require.Error(t, err)
	assert.Equal(t, int32(1), calls.Load())
}

func TestRetry503TwiceThenSuccessOnGET(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	var calls atomic.Int32
	mux.HandleFunc("GET /guilds/{id}", func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) <= 2 {
			w.WriteHeader(503)
			return
		}
		writeJSON(w, 200, map[string]any{"id": "5", "name": "back"})
	})
	g, err := c.Guilds.Get(t.Context(), 5, nil)
	require.NoError(t, err)
	assert.Equal(t, "back", g.Name)
	assert.Equal(t, int32(3), calls.Load())
}

func TestRetriesUsedUp(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	var calls atomic.Int32
	mux.HandleFunc("GET /guilds/{id}", func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.Header().Set("X-RateLimit-Bucket", "abc")
		writeJSON(w, 429, map[string]any{"message": "slow down", "retry_after": 0.001, "global": true})
	})
	_, err := c.Guilds.Get(t.Context(), 5, nil)
	var rl *guildkit.RateLimitError
	require.ErrorAs(t, err, &rl)
	assert.True(t, rl.Global)
	assert.Equal(t, "abc", rl.Bucket)
	assert.Equal(t, time.Millisecond, rl.RetryAfter)
	assert.ErrorIs(t, err, guildkit.ErrRateLimited)
	var apiErr *guildkit.APIError
	require.ErrorAs(t, err, &apiErr, "the 429 answer stays reachable")
	assert.Equal(t, "slow down", apiErr.Message)
	assert.Equal(t, int32(4), calls.Load(), "1 attempt + 3 retries")
}

func TestRateLimitWaitSources(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		header  http.Header
		body    string
		minWait time.Duration
	}{
		{"body retry_after", http.Header{}, `{"retry_after": 0.05}`, 50 * time.Millisecond},
		{"reset-after header", http.Header{"X-Ratelimit-Reset-After": {"0.05"}}, `{}`, 50 * time.Millisecond},
		{"retry-after header", http.Header{"Retry-After": {"0.05"}}, `<html>429</html>`, 50 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, mux := setup(t)
			var calls atomic.Int32
			mux.HandleFunc("GET /guilds/{id}", func(w http.ResponseWriter, r *http.Request) {
				if calls.Add(1) == 1 {
					for k, v := range tt.header {
						w.Header()[k] = v
					}
					w.WriteHeader(429)
					w.Write([]byte(tt.body))
					return
				}
				writeJSON(w, 200, map[string]any{"id": "1"})
			})
			start := time.Now()
			_, err := c.Guilds.Get(t.Context(), 1, nil)
			require.NoError(t, err)
			assert.GreaterOrEqual(t, time.Since(start), tt.minWait, "the wait the service asked for was honoured")
		})
	}
}

func TestCancelEndsRetryAfterWait(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	reached := make(chan struct{}, 1)
	mux.HandleFunc("GET /guilds/{id}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "10")
		writeJSON(w, 429, map[string]any{"message": "wait", "retry_after": 10})
		reached <- struct{}{}
	})
	ctx, cancel := context.WithCancel(t.Context())
	go func() {
		<-reached
		time.Sleep(20 * time.Millisecond)
		cancel()
	}()
	start := time.Now()
	_, err := c.Guilds.Get(ctx, 1, nil)
	assert.ErrorIs(t, err, context.Canceled)
	assert.Less(t, time.Since(start), 5*time.Second, "the 10 s wait ended with the context")
}

func TestRateLimitWaitBeyondDeadlineFailsAtOnce(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	var calls atomic.Int32
	mux.HandleFunc("GET /guilds/{id}", func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		writeJSON(w, 429, map[string]any{"retry_after": 30})
	})
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	_, err := c.Guilds.Get(ctx, 1, nil)
	var rl *guildkit.RateLimitError
	require.ErrorAs(t, err, &rl)
	assert.Equal(t, 30*time.Second, rl.RetryAfter)
	assert.Contains(t, rl.Reason, "deadline")
	assert.Equal(t, int32(1), calls.Load())
}

func TestWithoutRateLimitRetry(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	var calls atomic.Int32
	mux.HandleFunc("GET /guilds/{id}", func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		writeJSON(w, 429, map[string]any{"retry_after": 0.001})
	})
	_, err := c.Guilds.Get(t.Context(), 1, nil, guildkit.WithoutRateLimitRetry())
	var rl *guildkit.RateLimitError
	require.ErrorAs(t, err, &rl)
	assert.Equal(t, int32(1), calls.Load())
	assert.Contains(t, rl.Reason, "turned off")
}

func TestErrorBodyFlattened(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	mux.HandleFunc("GET /guilds/{id}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(400)
		w.Write([]byte(`{"code":50035,"message":"Invalid Form Body","errors":{"roles":{"0":{"_errors":[{"code":"X","message":"Y"}]},"10":{"_errors":[{"code":"Z","message":"W"}]},"2":{"_errors":[{"code":"A","message":"B"}]}},"name":{"_errors":[{"code":"BASE_TYPE_BAD_LENGTH","message":"Must be between 2 and 100 in length."}]}}}`))
	})
	_, err := c.Guilds.Get(t.Context(), 1, nil)
	var apiErr *guildkit.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, 400, apiErr.Status)
	assert.Equal(t, guildkit.CodeInvalidFormBody, apiErr.Code)
	assert.Equal(t, "Invalid Form Body", apiErr.Message)
	assert.Equal(t, "GET", apiErr.Method)
	assert.Equal(t, "/guilds/{guild.id}", apiErr.Route)
	assert.Equal(t, []guildkit.FieldError{
		{Path: "name", Code: "BASE_TYPE_BAD_LENGTH", Message: "Must be between 2 and 100 in length."},
		{Path: "roles[0]", Code: "X", Message: "Y"},
		{Path: "roles[2]", Code: "A", Message: "B"},
		{Path: "roles[10]", Code: "Z", Message: "W"},
	}, apiErr.Errors)
	assert.Contains(t, apiErr.Body, byte('{'))
	assert.ErrorIs(t, err, guildkit.ErrBadRequest)
	assert.Equal(t, "guildkit: GET /guilds/{guild.id}: 400 Bad Request: Invalid Form Body (50035)\n\tname: Must be between 2 and 100 in length. (BASE_TYPE_BAD_LENGTH)\n\troles[0]: Y (X)\n\troles[2]: B (A)\n\troles[10]: W (Z)", err.Error())
}

func TestErrorBodyTargetUsersForm(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	mux.HandleFunc("GET /guilds/{id}", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 400, map[string]any{"target_users_file": []string{"line 2: invalid user id", "line 5: invalid user id"}})
	})
	_, err := c.Guilds.Get(t.Context(), 1, nil)
	var apiErr *guildkit.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, []guildkit.FieldError{
		{Path: "target_users_file", Message: "line 2: invalid user id"},
		{Path: "target_users_file", Message: "line 5: invalid user id"},
	}, apiErr.Errors)
}

func TestErrorStatusesMapToSentinels(t *testing.T) {
	t.Parallel()
	tests := []struct {
		status int
		want   error
		body   string
	}{
		{401, guildkit.ErrUnauthorized, `{"message":"401: Unauthorized","code":0}`},
		{403, guildkit.ErrForbidden, `{"message":"Missing Permissions","code":50013}`},
		{404, guildkit.ErrNotFound, `{"message":"Unknown Guild","code":10004}`},
		{500, guildkit.ErrServer, `<html><body>Internal error</body></html>`},
		{502, guildkit.ErrServer, `<html><body>Bad gateway</body></html>`},
	}
	for _, tt := range tests {
		t.Run(http.StatusText(tt.status), func(t *testing.T) {
			t.Parallel()
			c, mux := setup(t, guildkit.WithRetry(0, 0, 0))
			mux.HandleFunc("GET /guilds/{id}", func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tt.status)
				w.Write([]byte(tt.body))
			})
			_, err := c.Guilds.Get(t.Context(), 1, nil)
			var apiErr *guildkit.APIError
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, tt.status, apiErr.Status)
			assert.ErrorIs(t, err, tt.want)
			for _, other := range []error{guildkit.ErrUnauthorized, guildkit.ErrForbidden, guildkit.ErrNotFound} {
				if other != tt.want {
					assert.NotErrorIs(t, err, other)
				}
			}
			assert.NotEmpty(t, apiErr.Message)
		})
	}
}

func TestDecodeErrorOnBadSuccessBody(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	mux.HandleFunc("GET /guilds/{id}", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"id": "1", "name": `))
	})
	_, err := c.Guilds.Get(t.Context(), 1, nil)
	var de *guildkit.DecodeError
	require.ErrorAs(t, err, &de)
	assert.Equal(t, 200, de.Status)
	assert.Equal(t, "/guilds/{guild.id}", de.Route)
}

func TestPathSegmentsEscaped(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	mux.HandleFunc("GET /invites/{code}", func(w http.ResponseWriter, r *http.Request) {
		assert.Equal(t, "a/b c", r.PathValue("code"))
		assert.Equal(t, "/invites/a%2Fb%20c", r.URL.EscapedPath())
		writeJSON(w, 200, map[string]any{})
	})
	_, err := guildkit.ExportDo(c, t.Context(), "GET", "/invites/{invite.code}", nil, nil, "a/b c")
	require.NoError(t, err)
}

func TestLogsNameRoutesNotTokens(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c, mux := setup(t, guildkit.WithLogger(logger))
	const secret = "wh-secret-token-123"
	mux.HandleFunc("POST /webhooks/{id}/{token}", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 404, map[string]any{"message": "Unknown Webhook", "code": 10015})
	})
	mux.HandleFunc("GET /webhooks/{id}/{token}", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(503)
	})
	_, err := guildkit.ExportDoNoAuth(c, t.Context(), "POST", "/webhooks/{webhook.id}/{webhook.token}", map[string]string{}, nil, guildkit.Snowflake(9), secret)
	require.Error(t, err)
	assert.NotContains(t, err.Error(), secret)
	assert.Contains(t, err.Error(), "/webhooks/{webhook.id}/{webhook.token}")
	_, err = guildkit.ExportDoNoAuth(c, t.Context(), "GET", "/webhooks/{webhook.id}/{webhook.token}", nil, nil, guildkit.Snowflake(9), secret)
	require.Error(t, err)
	assert.NotContains(t, err.Error(), secret)

	// A connection that is refused: the transport's error text holds the URL.
	dead, err := guildkit.New(nil, guildkit.WithBaseURL("http://127.0.0.1:1/api"), guildkit.WithLogger(logger), guildkit.WithRetry(1, time.Millisecond, time.Millisecond))
	require.NoError(t, err)
	_, err = guildkit.ExportDoNoAuth(dead, t.Context(), "GET", "/webhooks/{webhook.id}/{webhook.token}", nil, nil, guildkit.Snowflake(9), secret)
	var re *guildkit.RequestError
	require.ErrorAs(t, err, &re)
	assert.NotContains(t, err.Error(), secret)
	assert.NotContains(t, fmt.Sprintf("%+v %#v", err, err), secret)

	out := logs.String()
	assert.Contains(t, out, "route=/webhooks/{webhook.id}/{webhook.token}")
	assert.Contains(t, out, "guildkit: retrying")
	assert.NotContains(t, out, secret)
	assert.NotContains(t, out, testToken)
	assert.NotContains(t, out, "127.0.0.1:1/api/webhooks")
}

func TestNoLoggingWorkWhenDisabled(t *testing.T) {
	t.Parallel()
	var h countingHandler
	c, mux := setup(t, guildkit.WithLogger(slog.New(&h)))
	mux.HandleFunc("GET /guilds/{id}", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, map[string]any{"id": "1"})
	})
	_, err := c.Guilds.Get(t.Context(), 1, nil)
	require.NoError(t, err)
	assert.Zero(t, h.handled.Load(), "no record is built when debug is off")
	assert.Positive(t, h.asked.Load())
}

type countingHandler struct{ asked, handled atomic.Int32 }

func (h *countingHandler) Enabled(context.Context, slog.Level) bool { h.asked.Add(1); return false }
func (h *countingHandler) Handle(context.Context, slog.Record) error {
	h.handled.Add(1)
	return nil
}
func (h *countingHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *countingHandler) WithGroup(string) slog.Handler      { return h }

func TestReasonPercentEncoded(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	mux.HandleFunc("PATCH /things", func(w http.ResponseWriter, r *http.Request) {
		testHeader(t, r, "X-Audit-Log-Reason", "appeal%20accepted%20%E2%80%94%20d%C3%A9j%C3%A0%20vu")
		got, err := url.PathUnescape(r.Header.Get("X-Audit-Log-Reason"))
		require.NoError(t, err)
		assert.Equal(t, "appeal accepted — déjà vu", got)
		w.WriteHeader(204)
	})
	_, err := guildkit.ExportDoAL(c, t.Context(), "PATCH", "/things", map[string]any{}, guildkit.WithReason("appeal accepted — déjà vu"))
	require.NoError(t, err)
}

func TestResponseBodyBounded(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	mux.HandleFunc("GET /guilds/{id}", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"id":"1","name":"`))
		chunk := bytes.Repeat([]byte("a"), 1<<20)
		for range 40 {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
		w.Write([]byte(`"}`))
	})
	_, err := c.Guilds.Get(t.Context(), 1, nil)
	var de *guildkit.DecodeError
	require.ErrorAs(t, err, &de)
	assert.Contains(t, err.Error(), "larger than")
}

func TestValidationErrorListsEveryProblem(t *testing.T) {
	t.Parallel()
	c, _ := setup(t)
	_, err := guildkit.ExportDo(c, t.Context(), "GET", "/guilds/{guild.id}/members/{user.id}", nil, nil, guildkit.Snowflake(0), guildkit.Snowflake(0))
	var ve *guildkit.ValidationError
	require.ErrorAs(t, err, &ve)
	paths := []string{}
	for _, p := range ve.Problems {
		paths = append(paths, p.Path)
	}
	assert.Equal(t, []string{"guild.id", "user.id"}, paths)
	var fe guildkit.FieldError
	assert.True(t, errors.As(err, &fe))
	assert.True(t, strings.HasPrefix(err.Error(), "guildkit: invalid request, "), err.Error())
}

// TestAPIErrorHeader: an error answer's header is kept for the caller (the
// rate-limit scope, trace ids), without cookies and without any header
// whose value echoes a secret the client holds.
func TestAPIErrorHeader(t *testing.T) {
	t.Parallel()
	const hookToken = "hook-token-Secret_123"
	c, mux := setup(t)
	answer := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-RateLimit-Scope", "user")
		w.Header().Set("X-Trace-Id", "trace-42")
		w.Header().Set("Set-Cookie", "session=abc")
		w.Header().Set("X-Echo-Authorization", r.Header.Get("Authorization"))
		w.Header().Set("X-Echo-Path", r.URL.Path)
		writeJSON(w, http.StatusForbidden, map[string]any{"code": 50013, "message": "Missing Permissions"})
	}
	mux.HandleFunc("GET /guilds/1", answer)
	mux.HandleFunc("GET /webhooks/2/"+hookToken, answer)

	for name, call := range map[string]func() error{
		"bot token": func() error { _, err := c.Guilds.Get(t.Context(), 1, nil); return err },
		"webhook token": func() error {
			_, err := c.Webhooks.GetWithToken(t.Context(), 2, hookToken)
			return err
		},
	} {
		t.Run(name, func(t *testing.T) {
			var apiErr *guildkit.APIError
			require.ErrorAs(t, call(), &apiErr)
			assert.Equal(t, "user", apiErr.Header.Get("X-RateLimit-Scope"))
			assert.Equal(t, "trace-42", apiErr.Header.Get("X-Trace-Id"))
			assert.Empty(t, apiErr.Header.Values("Set-Cookie"))
			if name == "webhook token" {
				assert.Empty(t, apiErr.Header.Values("X-Echo-Path"), "the webhook token echoed in a path")
			} else {
				assert.Empty(t, apiErr.Header.Values("X-Echo-Authorization"), "the bot token echoed")
				assert.Equal(t, "/guilds/1", apiErr.Header.Get("X-Echo-Path"), "a header without secrets is kept")
			}
			assert.NotContains(t, fmt.Sprintf("%+v %#v", apiErr, apiErr), testToken)
			assert.NotContains(t, fmt.Sprintf("%+v %#v", apiErr, apiErr), hookToken)
		})
	}
}

// TestHTTPClientTimeoutKept: the Timeout of the caller's http.Client still
// bounds each attempt, the reading of the answer included, as net/http
// would bound it; the caller's client is left as it was.
func TestHTTPClientTimeoutKept(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	c, mux := setup(t)
	mux.HandleFunc("GET /guilds/1", func(w http.ResponseWriter, r *http.Request) {
		select { // never answers in time
		case <-release:
		case <-r.Context().Done():
		}
	})
	mux.HandleFunc("GET /guilds/2", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"id":"2",`)) // the rest never comes
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	srvURL := strings.TrimSuffix(c.BaseURL(), basePath)
	hc := &http.Client{Timeout: 100 * time.Millisecond}
	tc, err := guildkit.New(guildkit.BotToken(testToken), guildkit.WithBaseURL(srvURL+basePath), guildkit.WithHTTPClient(hc),
		guildkit.WithRetry(0, time.Millisecond, time.Millisecond))
	require.NoError(t, err)
	for _, id := range []guildkit.Snowflake{1, 2} {
		_, err = tc.Guilds.Get(t.Context(), id, nil)
		require.Error(t, err, "guild %d", id)
		assert.ErrorIs(t, err, context.DeadlineExceeded, "guild %d: %v", id, err)
	}
	assert.Equal(t, 100*time.Millisecond, hc.Timeout, "the caller's client is not changed")
}
