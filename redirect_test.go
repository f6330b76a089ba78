package guildkit_test

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
)

// TestRedirectsAreNotFollowed: a 3xx answer to any call is a
// *RedirectError naming the status and the target's host, and nothing —
// not the bot token, not an access token in a body, not a webhook token in
// a path — reaches the target: to the same host on another port, to
// another host, and from https down to http.
func TestRedirectsAreNotFollowed(t *testing.T) {
	t.Parallel()
	const botToken = "bot-SECRET-token"
	const accessToken = "access-SECRET-token"
	const hookToken = "hook-SECRET-token"

	var reached atomic.Int32
	var leaked atomic.Value
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Add(1)
		body, _ := io.ReadAll(r.Body)
		leaked.Store(r.Header.Get("Authorization") + " " + r.URL.Path + " " + string(body))
		w.WriteHeader(http.StatusOK)
	}))
	t.Cleanup(target.Close)
	targetPort := target.URL[strings.LastIndexByte(target.URL, ':')+1:]

	for _, tc := range []struct {
		name   string
		tls    bool
		host   string // the target's host as the Location names it
		status int
	}{
		{"same host, another port", false, "127.0.0.1:" + targetPort, http.StatusTemporaryRedirect},
		{"another host", false, "localhost:" + targetPort, http.StatusPermanentRedirect},
		{"https to http", true, "127.0.0.1:" + targetPort, http.StatusFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			redirect := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, "http://"+tc.host+r.URL.RequestURI(), tc.status)
			})
			var srv *httptest.Server
			if tc.tls {
				srv = httptest.NewTLSServer(redirect)
			} else {
				srv = httptest.NewServer(redirect)
			}
			t.Cleanup(srv.Close)
			opts := []guildkit.Option{guildkit.WithBaseURL(srv.URL + "/api/v10"), guildkit.WithHTTPClient(srv.Client())}
			c, err := guildkit.New(guildkit.BotToken(botToken), opts...)
			require.NoError(t, err)
			wc, err := guildkit.NewWebhookClient(srv.URL+"/api/v10/webhooks/123456789012345678/"+hookToken, guildkit.WithHTTPClient(srv.Client()))
			require.NoError(t, err)

			calls := map[string]func() error{
				"bot token": func() error { _, err := c.Guilds.Get(t.Context(), 1, nil); return err },
				"access token in the body": func() error {
					_, err := c.Members.Add(t.Context(), 1, 2, &guildkit.MemberAddParams{AccessToken: accessToken})
					return err
				},
				"webhook token in the path": func() error {
					_, err := wc.Execute(t.Context(), &guildkit.WebhookExecuteParams{Content: guildkit.Some("hi")})
					return err
				},
				"interaction token in the path": func() error {
					_, err := c.Interactions.CreateResponse(t.Context(), 1, "interaction-SECRET-token",
						guildkit.DeferredUpdateResponse(), nil)
					return err
				},
				"interaction token in a follow-up's path": func() error {
					_, err := c.Interactions.CreateFollowup(t.Context(), 1, "interaction-SECRET-token",
						&guildkit.InteractionMessageParams{Content: guildkit.Some("hi")})
					return err
				},
			}
			for what, call := range calls {
				err := call()
				var re *guildkit.RedirectError
				require.True(t, errors.As(err, &re), "%s: %v", what, err)
				assert.Equal(t, tc.status, re.Status, what)
				assert.Equal(t, tc.host, re.Host, what)
				for _, s := range []string{botToken, accessToken, hookToken, "interaction-SECRET-token"} {
					assert.NotContains(t, err.Error(), s, what)
					assert.NotContains(t, fmt.Sprintf("%+v %#v", err, err), s, what)
				}
			}
			assert.Zero(t, reached.Load(), "the redirect's target was reached: %v", leaked.Load())
		})
	}
}
