package guildkit_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
)

// TestNoSecretUnderAnyVerb prints every type that holds a secret, as a
// value and as a pointer, on its own and nested in structs (exported and
// unexported fields, embedded), under every fmt verb, through slog's text
// and JSON handlers and through encoding/json: no token ever shows.
func TestNoSecretUnderAnyVerb(t *testing.T) {
	t.Parallel()
	const botToken = "bot-SECRET-token.Abc123"
	const bearer = "bearer-SECRET-access.Def456"
	const hookToken = "hook-SECRET_token-Ghi789"

	c, err := guildkit.New(guildkit.BotToken(botToken), guildkit.WithBaseURL("https://chat.example.com/api/v10"))
	require.NoError(t, err)
	wc, err := guildkit.NewWebhookClient("https://chat.example.com/api/v10/webhooks/123456789012345678/" + hookToken)
	require.NoError(t, err)
	cred := guildkit.BotToken(botToken)
	bearerCred := guildkit.BearerToken(bearer)
	hook := guildkit.Webhook{ID: 1, Type: guildkit.WebhookTypeIncoming, Token: hookToken, URL: "https://x/webhooks/1/" + hookToken}

	type nested struct {
		Client      *guildkit.Client
		client      *guildkit.Client
		ClientValue guildkit.Client
		clientValue guildkit.Client
		Webhook     guildkit.WebhookClient
		webhook     guildkit.WebhookClient
		WebhookPtr  *guildkit.WebhookClient
		Cred        guildkit.Credential
		cred        guildkit.Credential
	}
	type withWebhook struct {
		Hook  guildkit.Webhook
		Hooks []guildkit.Webhook
	}
	type embedding struct {
		*guildkit.Client
		guildkit.Credential
	}
	values := map[string]any{
		"*Client":           c,
		"Client":            *c,
		"*WebhookClient":    wc,
		"WebhookClient":     *wc,
		"bot credential":    cred,
		"bearer credential": bearerCred,
		"Webhook":           hook,
		"*Webhook":          &hook,
		"nested":            nested{c, c, *c, *c, *wc, *wc, wc, cred, bearerCred},
		"*nested":           &nested{c, c, *c, *c, *wc, *wc, wc, cred, bearerCred},
		"Webhook nested":    withWebhook{hook, []guildkit.Webhook{hook}},
		"embedding":         embedding{c, cred},
		"[]any":             []any{c, *c, wc, *wc, cred},
		"map":               map[string]any{"c": c, "w": *wc, "cred": bearerCred},
	}
	secrets := []string{botToken, bearer, hookToken, "SECRET"}
	check := func(t *testing.T, what, out string) {
		t.Helper()
		for _, s := range secrets {
			if strings.Contains(out, s) {
				t.Errorf("%s shows a secret: %s", what, out)
				return
			}
		}
	}
	for name, v := range values {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			verbs := []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d", "%T", "%p"}
			webhookObject := strings.Contains(name, "Webhook") && !strings.Contains(name, "WebhookClient")
			if webhookObject {
				// %p of a struct value is fmt's "bad verb" path, which
				// prints exported fields as they are; the Webhook object's
				// Token is one. Every other verb goes through its Format.
				verbs = verbs[:len(verbs)-1]
			}
			for _, verb := range verbs {
				check(t, verb, fmt.Sprintf(verb, v))
			}
			check(t, "Sprint", fmt.Sprint(v))
			check(t, "Sprintln", fmt.Sprintln(v))
			var text, js bytes.Buffer
			slog.New(slog.NewTextHandler(&text, nil)).Info("value", "v", v)
			slog.New(slog.NewJSONHandler(&js, nil)).Info("value", "v", v)
			check(t, "slog text", text.String())
			if !webhookObject || name == "Webhook" || name == "*Webhook" {
				// slog's JSON handler encodes a value nested in a struct with
				// encoding/json, which, for a Webhook object, includes the
				// token: the object is the interface's data.
				check(t, "slog JSON", js.String())
			}
			if b, err := json.Marshal(v); err == nil {
				if !webhookObject {
					// A Webhook object encodes its token: that is the
					// interface's data, sent back to the service.
					check(t, "encoding/json", string(b))
				}
			}
		})
	}
}

// TestEchoedSecretsAreRedacted: a server (or a proxy) that echoes the
// request — its Authorization header, its path and its body — in its error
// answer, in a rate-limit bucket id and in headers cannot make a secret show
// in err.Error(), %+v, or any log record or observer event.
func TestEchoedSecretsAreRedacted(t *testing.T) {
	t.Parallel()
	const botToken = testToken
	const accessToken = "access-SECRET-token.Def"
	const hookToken = "hook-SECRET-token_Ghi"
	echo := func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		said := r.Header.Get("Authorization") + " " + r.URL.Path + " " + string(body)
		w.Header().Set("X-RateLimit-Bucket", "bucket "+said)
		w.Header().Set("X-Echo", said)
		status := http.StatusBadRequest
		if r.URL.Query().Get("limit") == "429" || strings.Contains(string(body), "limited") {
			status = http.StatusTooManyRequests
		}
		writeJSON(w, status, map[string]any{"code": 50035, "message": "you sent " + said, "retry_after": 3600,
			"errors": map[string]any{"access_token": map[string]any{"_errors": []any{map[string]any{"code": "BAD", "message": said}}}}})
	}
	var logs bytes.Buffer
	var events bytes.Buffer
	var mu sync.Mutex
	record := func(format string, a ...any) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(&events, format+"\n", a...)
	}
	c, mux := setup(t, guildkit.WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))),
		guildkit.WithRateLimitObserver(func(e guildkit.RateLimitEvent) { record("%+v", e) }),
		guildkit.WithObserver(guildkit.Observer{
			Attempt: func(_ context.Context, e guildkit.AttemptEvent) { record("%+v", e) },
			CallEnd: func(_ context.Context, e guildkit.CallEvent) { record("%+v", e) },
		}))
	mux.HandleFunc("PUT /guilds/1/members/2", echo)
	mux.HandleFunc("GET /guilds/1", echo)
	mux.HandleFunc("POST /webhooks/3/"+hookToken, echo)
	const interactionToken = "interaction-SECRET-token_Jkl"
	mux.HandleFunc("POST /interactions/4/"+interactionToken+"/callback", echo)
	mux.HandleFunc("PATCH /webhooks/5/"+interactionToken+"/messages/@original", echo)

	var errs []error
	_, err := c.Members.Add(t.Context(), 1, 2, &guildkit.MemberAddParams{AccessToken: accessToken})
	errs = append(errs, err)
	_, err = c.Guilds.Get(t.Context(), 1, nil, guildkit.WithoutRateLimitRetry(), guildkit.WithHeader("X-Q", "1"))
	errs = append(errs, err)
	_, err = c.Webhooks.Execute(t.Context(), 3, hookToken, &guildkit.WebhookExecuteParams{Content: guildkit.Some("limited")},
		guildkit.WithoutRateLimitRetry())
	errs = append(errs, err)
	_, err = c.Interactions.CreateResponse(t.Context(), 4, interactionToken, guildkit.DeferredUpdateResponse(), nil)
	errs = append(errs, err)
	_, err = c.Interactions.EditOriginalResponse(t.Context(), 5, interactionToken,
		&guildkit.WebhookMessageEditParams{Content: guildkit.Some("limited")}, guildkit.WithoutRateLimitRetry())
	errs = append(errs, err)

	secrets := []string{botToken, accessToken, hookToken, interactionToken, "SECRET"}
	for i, err := range errs {
		require.Error(t, err, "call %d", i)
		var apiErr *guildkit.APIError
		require.True(t, errors.As(err, &apiErr), "call %d: %v", i, err)
		assert.Contains(t, apiErr.Message, "<redacted>", "call %d: the echo is kept, the secret is not", i)
		text := err.Error() + fmt.Sprintf(" %+v %#v %s %v", err, err, apiErr.Body, apiErr.Errors)
		for _, s := range secrets {
			assert.NotContains(t, text, s, "call %d", i)
		}
		var rl *guildkit.RateLimitError
		if errors.As(err, &rl) {
			assert.Contains(t, rl.Bucket, "<redacted>")
		}
	}
	mu.Lock()
	defer mu.Unlock()
	require.NotEmpty(t, logs.String())
	require.NotEmpty(t, events.String())
	for _, s := range secrets {
		assert.NotContains(t, logs.String(), s, "a log record")
		assert.NotContains(t, events.String(), s, "an observer event")
	}
}

// TestWebhookURLErrorsDoNotEchoTheToken: a webhook URL with its id and
// token swapped, or otherwise wrong, fails without its token in the error.
func TestWebhookURLErrorsDoNotEchoTheToken(t *testing.T) {
	t.Parallel()
	const tok = "hook-SECRET-token_Xyz"
	for _, u := range []string{
		"https://chat.example.com/api/v10/webhooks/" + tok + "/123456789012345678",
		"https://chat.example.com/api/v10/webhooks/" + tok,
		"https://chat.example.com/api/v10/webhooks/123/" + tok + "/extra",
		"https://user:" + tok + "@chat.example.com/api/v10/webhooks/123/" + tok,
		"https://chat.example.com/api/v10/webhooks/123/" + tok + "?x=" + tok,
		"ftp://chat.example.com/webhooks/123/" + tok,
		"://" + tok,
	} {
		_, err := guildkit.NewWebhookClient(u)
		require.Error(t, err, u)
		assert.NotContains(t, err.Error(), tok, u)
		assert.NotContains(t, fmt.Sprintf("%+v %#v", err, err), tok, u)
	}
}

// TestPlainHTTPWarning: a plain http:// base URL to another machine is
// logged once as a warning (tokens in clear, and through HTTP_PROXY); one on
// this machine, or https, is not.
func TestPlainHTTPWarning(t *testing.T) {
	t.Parallel()
	for base, warns := range map[string]bool{
		"http://chat.example.com/api/v10":  true,
		"http://10.0.0.5:8080/api/v10":     true,
		"http://127.0.0.1:8080/api/v10":    false,
		"http://[::1]:8080/api/v10":        false,
		"http://localhost:8080/api/v10":    false,
		"https://chat.example.com/api/v10": false,
	} {
		var logs bytes.Buffer
		_, err := guildkit.New(guildkit.BotToken(testToken), guildkit.WithBaseURL(base),
			guildkit.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
		require.NoError(t, err)
		if warns {
			assert.Equal(t, 1, strings.Count(logs.String(), "level=WARN"), base)
			assert.Contains(t, logs.String(), "HTTP_PROXY", base)
			assert.NotContains(t, logs.String(), testToken)
		} else {
			assert.Empty(t, logs.String(), base)
		}
	}
}
