package guildkit_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed012df1e9/guildkit"
)

// FuzzRedirect answers every call with a redirect of any status and any
// Location (other hosts, other ports, userinfo, the token itself, garbage):
// the call fails with a *RedirectError, nothing is sent a second time, and
// no secret shows in the error.
func FuzzRedirect(f *testing.F) {
	f.Add(307, "http://127.0.0.1:1/steal")
	f.Add(308, "https://evil.example:8443/webhooks/1/tok")
	f.Add(301, "//other.example/path?q=1")
	f.Add(302, "/relative/path")
	f.Add(303, "http://user:pass@evil.example/")
	f.Add(300, "")
	f.Add(399, "::not a url::")
	f.Add(304, "http://[::1]:80/x")
	f.Fuzz(func(t *testing.T, status int, location string) {
		if status < 300 || status > 399 || status == http.StatusNotModified {
			return // 304 carries no Location to follow and is not sent here
		}
		const botToken = "bot-FUZZ-secret"
		const hookToken = "hook-FUZZ-secret"
		var calls atomic.Int32
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			calls.Add(1)
			loc := strings.NewReplacer("{token}", hookToken, "{bot}", botToken).Replace(location)
			if strings.ContainsFunc(loc, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
				loc = "" // not a header value a server can send
			}
			w.Header()["Location"] = []string{loc}
			w.WriteHeader(status)
		}))
		defer srv.Close()
		c, err := guildkit.New(guildkit.BotToken(botToken), guildkit.WithBaseURL(srv.URL), guildkit.WithRetry(1, time.Millisecond, time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Webhooks.Execute(t.Context(), 1, hookToken, &guildkit.WebhookExecuteParams{Content: guildkit.Some("x")})
		var re *guildkit.RedirectError
		if !errors.As(err, &re) {
			t.Fatalf("status %d: got %v, want a *RedirectError", status, err)
		}
		if re.Status != status {
			t.Fatalf("status %d reported as %d", status, re.Status)
		}
		if n := calls.Load(); n != 1 {
			t.Fatalf("the server was called %d times", n)
		}
		for _, s := range []string{botToken, hookToken} {
			if strings.Contains(err.Error(), s) || strings.Contains(fmt.Sprintf("%+v %#v", err, err), s) {
				t.Fatalf("the error shows a secret: %v", err)
			}
		}
	})
}

// FuzzSecretsInErrors has a server answer with any status, headers and
// body built around the secrets the client holds (echoed raw, escaped, cut
// into the message, the bucket id, the field problems): no secret shows in
// the error's text, in %+v, or in any log record.
func FuzzSecretsInErrors(f *testing.F) {
	f.Add(400, `{"code":50035,"message":"{bot} {token} {access}","errors":{"a":{"_errors":[{"code":"X","message":"{access}"}]}}}`, "{bot}")
	f.Add(429, `{"message":"slow {token}","retry_after":0.001}`, "bucket-{token}")
	f.Add(403, `<html>{bot}</html>`, "")
	f.Add(404, `{"message":"{escaped}"}`, "{escaped}")
	f.Add(500, `{"code":"{bot}","message":["{access}"]}`, "{access}")
	f.Fuzz(func(t *testing.T, status int, body, bucket string) {
		if status < 400 || status > 599 {
			return
		}
		const botToken = "bot-FUZZ/secret"
		const hookToken = "hook-FUZZ_secret"
		const access = "access-FUZZ.secret"
		fill := strings.NewReplacer("{bot}", botToken, "{token}", hookToken, "{access}", access, "{escaped}", url.PathEscape(botToken)).Replace
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if b := fill(bucket); !strings.ContainsAny(b, "\r\n\x00") {
				w.Header()["X-Ratelimit-Bucket"] = []string{b}
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			_, _ = io.WriteString(w, fill(body))
		}))
		defer srv.Close()
		// Each call holds its own secrets: the bot token always, and the
		// access token or the webhook token it carries.
		calls := []struct {
			secrets []string
			call    func(c *guildkit.Client) error
		}{
			{[]string{botToken, access, url.PathEscape(botToken)}, func(c *guildkit.Client) error {
				_, err := c.Members.Add(t.Context(), 1, 2, &guildkit.MemberAddParams{AccessToken: access})
				return err
			}},
			{[]string{botToken, hookToken, url.PathEscape(botToken)}, func(c *guildkit.Client) error {
				_, err := c.Webhooks.Execute(t.Context(), 1, hookToken, &guildkit.WebhookExecuteParams{Content: guildkit.Some("x")})
				return err
			}},
		}
		for _, tc := range calls {
			var logs bytes.Buffer
			c, err := guildkit.New(guildkit.BotToken(botToken), guildkit.WithBaseURL(srv.URL),
				guildkit.WithRetry(1, time.Millisecond, time.Millisecond), guildkit.WithMaxRateLimitWait(time.Millisecond),
				guildkit.WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
			if err != nil {
				t.Fatal(err)
			}
			err = tc.call(c)
			if err == nil {
				t.Fatalf("status %d: no error", status)
			}
			text := err.Error() + fmt.Sprintf(" %+v %#v", err, err)
			var apiErr *guildkit.APIError
			if errors.As(err, &apiErr) {
				text += string(apiErr.Body) + apiErr.Message + fmt.Sprint(apiErr.Errors, apiErr.Header)
			}
			for _, s := range tc.secrets {
				if strings.Contains(text, s) {
					t.Fatalf("a secret shows in the error: %s", text)
				}
				if strings.Contains(logs.String(), s) {
					t.Fatalf("a secret shows in a log record: %s", logs.String())
				}
			}
		}
	})
}
