package guildkit_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/components"
)

var updateErrors = flag.Bool("update-errors", false, "rewrite testdata/errors/*.golden from the errors' texts")

// TestErrorTextsGolden: the text of every error type, as a person reads
// it, against testdata/errors. Each error is made the way a user meets it:
// through the client and real HTTP. Run with -update-errors after a
// deliberate change and read the diff.
func TestErrorTextsGolden(t *testing.T) {
	t.Parallel()
	c, mux := setup(t, guildkit.WithRetry(0, time.Millisecond, time.Millisecond))
	mux.HandleFunc("PATCH /guilds/1", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusBadRequest, map[string]any{"code": 50035, "message": "Invalid Form Body",
			"errors": map[string]any{"name": map[string]any{"_errors": []any{map[string]any{"code": "BASE_TYPE_BAD_LENGTH", "message": "Must be between 2 and 100 in length."}}},
				"roles": map[string]any{"0": map[string]any{"_errors": []any{map[string]any{"code": "UNKNOWN_ROLE", "message": "Unknown role"}}}}}})
	})
	mux.HandleFunc("GET /guilds/2", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusUnauthorized, map[string]any{"code": 0, "message": "401: Unauthorized"})
	})
	mux.HandleFunc("GET /guilds/3", func(w http.ResponseWriter, r *http.Request) {
		http.NotFound(w, r) // "404 page not found", text/plain: not the interface
	})
	mux.HandleFunc("GET /guilds/4", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<html><body>Welcome to nginx!</body></html>")
	})
	mux.HandleFunc("GET /guilds/5", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-RateLimit-Scope", "user")
		writeJSON(w, http.StatusTooManyRequests, map[string]any{"message": "You are being rate limited.", "retry_after": 59.999808572, "global": false})
	})
	mux.HandleFunc("GET /guilds/6", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusNotFound, map[string]any{"code": 10004, "message": "Unknown Guild"})
	})
	mux.HandleFunc("GET /guilds/7", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "https://elsewhere.example/api/v10/guilds/7", http.StatusMovedPermanently)
	})
	mux.HandleFunc("GET /guilds/10", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{"id": "not-a-number", "name": "x"})
	})
	mux.HandleFunc("GET /invites/abc/target-users/job-status", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{"status": 3, "total_users": 2, "processed_users": 1,
			"created_at": "2026-01-02T03:04:05Z", "completed_at": nil, "error_message": "Failed to parse file"})
	})
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	down, err := guildkit.New(guildkit.BotToken("x"), guildkit.WithBaseURL(closed.URL+"/api/v10"), guildkit.WithRetry(0, time.Millisecond, time.Millisecond))
	require.NoError(t, err)
	anonymous, err := guildkit.New(nil, guildkit.WithBaseURL("https://chat.example.com/api/v10"))
	require.NoError(t, err)

	ctx := t.Context()
	cases := map[string]func() error{
		"validation_one": func() error {
			_, err := c.Members.Timeout(ctx, 1, 2, time.Now().Add(29*24*time.Hour+time.Minute))
			return err
		},
		"validation_many": func() error {
			_, err := c.Members.Modify(ctx, 1, 2, &guildkit.MemberModifyParams{
				Roles: guildkit.Some([]guildkit.Snowflake{0}), Flags: guildkit.Some(guildkit.MemberFlagDidRejoin),
				ChannelID: guildkit.Some[guildkit.Snowflake](0), CommunicationDisabledUntil: guildkit.Some(time.Now().Add(-90 * time.Minute)),
			})
			return err
		},
		"api_form_errors": func() error {
			_, err := c.Guilds.Modify(ctx, 1, &guildkit.GuildModifyParams{Name: guildkit.Some("ok name")})
			return err
		},
		"api_unauthorized":   func() error { _, err := c.Guilds.Get(ctx, 2, nil); return err },
		"api_wrong_base_url": func() error { _, err := c.Guilds.Get(ctx, 3, nil); return err },
		"decode_html":        func() error { _, err := c.Guilds.Get(ctx, 4, nil); return err },
		"rate_limited": func() error {
			_, err := c.Guilds.Get(ctx, 5, nil, guildkit.WithoutRateLimitRetry())
			return err
		},
		"api_not_found":  func() error { _, err := c.Guilds.Get(ctx, 6, nil); return err },
		"redirect":       func() error { _, err := c.Guilds.Get(ctx, 7, nil); return err },
		"request_failed": func() error { _, err := down.Guilds.Get(ctx, 8, nil); return err },
		"no_credential":  func() error { _, err := anonymous.Guilds.Get(ctx, 9, nil); return err },
		"bot_prefix": func() error {
			_, err := guildkit.New(guildkit.BotToken("Bot abc.def"), guildkit.WithBaseURL("https://chat.example.com/api/v10"))
			return err
		},
		"parse_snowflake":  func() error { _, err := guildkit.ParseSnowflake("12a"); return err },
		"decode_snowflake": func() error { _, err := c.Guilds.Get(ctx, 10, nil); return err },
		"webhook_components": func() error {
			// A plain webhook drops components unless asked to keep them.
			wc, err := guildkit.NewWebhookClientFromID(11, "webhook-token", guildkit.WithBaseURL("https://chat.example.com/api/v10"))
			require.NoError(t, err)
			_, err = wc.Execute(ctx, &guildkit.WebhookExecuteParams{Content: guildkit.Some("hi"), Components: []components.Component{
				components.NewActionRow(components.LinkButton("https://ci.example.com/1", "Open")),
			}})
			return err
		},
		"components_validate": func() error {
			return components.Validate(components.LegacyMessage,
				components.NewActionRow(components.NewButton(components.ButtonPrimary, "", "")),
				components.NewActionRow())
		},
		"modal_field_type": func() error {
			_, err := modalSubmit(t).Text("area")
			return err
		},
		"modal_no_field": func() error {
			_, err := modalSubmit(t).Text("nothing")
			return err
		},
		"target_users_csv": func() error {
			for _, err := range guildkit.ParseTargetUsersCSV(strings.NewReader("user_id\n123\nabc\n")) {
				if err != nil {
					return err
				}
			}
			return nil
		},
		"target_users_job": func() error {
			_, err := c.Invites.WaitTargetUsersJob(ctx, "abc", time.Millisecond)
			return err
		},
		"webhook_url": func() error {
			_, err := guildkit.NewWebhookClient("https://chat.example.com/api/v10/webhooks/secret-token/123")
			return err
		},
	}
	port := regexp.MustCompile(`127\.0\.0\.1:\d+`)
	for name, call := range cases {
		t.Run(name, func(t *testing.T) {
			err := call()
			require.Error(t, err)
			text := port.ReplaceAllString(err.Error(), "127.0.0.1:PORT") + "\n"
			file := filepath.Join("testdata", "errors", name+".golden")
			if *updateErrors {
				require.NoError(t, os.MkdirAll(filepath.Dir(file), 0o755))
				require.NoError(t, os.WriteFile(file, []byte(text), 0o644))
				return
			}
			want, err := os.ReadFile(file)
			require.NoError(t, err, "run go test -run TestErrorTextsGolden -update-errors")
			assert.Equal(t, string(want), text)
			assert.Len(t, packagePrefix.FindAllString(text, -1), 1, "one package prefix")
		})
	}
}

// packagePrefix finds the package prefixes of an error's text.
var packagePrefix = regexp.MustCompile(`(^|: )(guildkit|components|wire|strconv|snowflake): `)

// modalSubmit is a modal submission with a string select "area".
func modalSubmit(t *testing.T) *components.ModalSubmitData {
	t.Helper()
	var d components.ModalSubmitData
	require.NoError(t, json.Unmarshal([]byte(`{"custom_id": "report", "components": [
		{"type": 18, "id": 1, "component": {"type": 3, "id": 2, "custom_id": "area", "values": ["ui"]}}]}`), &d))
	return &d
}

// TestErrorHints: each hint comes with its error and only with it, and the
// errors still match their sentinels.
func TestErrorHints(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	mux.HandleFunc("GET /guilds/3", func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) })
	mux.HandleFunc("GET /guilds/6", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusNotFound, map[string]any{"code": 10004, "message": "Unknown Guild"})
	})
	mux.HandleFunc("GET /guilds/2", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusUnauthorized, map[string]any{"code": 0, "message": "401: Unauthorized"})
	})
	mux.HandleFunc("GET /guilds/4", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<html><body>Welcome to nginx!</body></html>")
	})
	mux.HandleFunc("GET /guilds/10", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{"id": "not-a-number"})
	})

	_, err := c.Guilds.Get(t.Context(), 3, nil)
	require.ErrorIs(t, err, guildkit.ErrNotFound, "a code-less 404 is still not found")
	var apiErr *guildkit.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Contains(t, apiErr.Hint, "base URL")
	assert.Contains(t, apiErr.Hint, "path prefix "+basePath)

	_, err = c.Guilds.Get(t.Context(), 6, nil)
	require.ErrorAs(t, err, &apiErr)
	assert.Empty(t, apiErr.Hint, "the interface's own 404 needs no hint")

	// An HTML page where JSON was expected: the base URL again.
	_, err = c.Guilds.Get(t.Context(), 4, nil)
	var decErr *guildkit.DecodeError
	require.ErrorAs(t, err, &decErr)
	assert.Contains(t, decErr.Hint, "text/html")
	assert.Contains(t, decErr.Hint, "path prefix "+basePath)
	assert.NotContains(t, err.Error(), testToken)
	// JSON of the wrong shape is a decoding problem, not a wrong base URL.
	_, err = c.Guilds.Get(t.Context(), 10, nil)
	require.ErrorAs(t, err, &decErr)
	assert.Empty(t, decErr.Hint, "a JSON answer needs no base-URL hint")

	_, err = c.Guilds.Get(t.Context(), 2, nil)
	require.ErrorIs(t, err, guildkit.ErrUnauthorized)
	require.ErrorAs(t, err, &apiErr)
	assert.Contains(t, apiErr.Hint, "Authorization: Bot <token>")
	assert.NotContains(t, err.Error(), testToken)

	for _, tok := range []string{"Bot abc", "bot abc", "Bearer abc"} {
		_, err = guildkit.New(guildkit.BotToken(tok), guildkit.WithBaseURL("https://x.example/api"))
		assert.ErrorContains(t, err, "pass the token alone", tok)
	}
	_, err = guildkit.New(guildkit.BotToken("Botanist.token"), guildkit.WithBaseURL("https://x.example/api"))
	assert.NoError(t, err, "a token that merely starts with the letters is fine")
}
