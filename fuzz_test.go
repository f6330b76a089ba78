package guildkit

import (
	"net/http"
	"testing"
	"time"

	"github.com/seed012df1e9/guildkit/internal/ratelimit"
)

// Fuzz targets for the parsers that read what the service (or a proxy in
// front of it) sends. Seed corpora are in testdata/fuzz. Run one at a time:
//
//	go test -run '^$' -fuzz '^FuzzParseErrorBody$' -fuzztime 2m -parallel 1 .

// FuzzParseErrorBody: any error body, JSON or not, fills an APIError without
// panicking, keeps the body, and always has a message.
func FuzzParseErrorBody(f *testing.F) {
	f.Add(400, []byte(`{"code": 50035, "message": "Invalid Form Body", "errors": {"roles": {"0": {"_errors": [{"code": "X", "message": "Y"}]}}}}`))
	f.Add(400, []byte(`{"target_users_file": ["line 2: not a snowflake"]}`))
	f.Add(429, []byte(`{"message": "You are being rate limited.", "retry_after": 1.5, "global": false}`))
	f.Add(502, []byte(`<html><body>Bad Gateway</body></html>`))
	f.Add(403, []byte(`{"code": "50013", "message": 5, "errors": [1, {"a": []}]}`))
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		e := &APIError{Status: status, Method: "GET", Route: "/guilds/{guild.id}"}
		e.parseErrorBody(body)
		if string(e.Body) != string(body) {
			t.Fatalf("body not kept")
		}
		if e.Message == "" && http.StatusText(status) != "" {
			t.Fatalf("no message for status %d", status)
		}
		_ = e.Error()
		for _, fe := range e.Errors {
			_ = fe.Error()
		}
	})
}

// FuzzParseRateLimit: any 429 headers and body give a wait between zero and
// a day, never a panic.
func FuzzParseRateLimit(f *testing.F) {
	f.Add("1", "0.5", "true", "user", "abc", []byte(`{"retry_after": 0.25, "global": false}`))
	f.Add("", "", "", "", "", []byte(`<html>429</html>`))
	f.Add("Wed, 21 Oct 2015 07:28:00 GMT", "-1", "false", "global", "", []byte(`{"retry_after": -3}`))
	f.Add("1e400", "NaN", "TRUE", "shared", "x", []byte(`{"retry_after": 1e400, "global": true}`))
	f.Add("99999999999999", "Inf", "", "", "", []byte(`{"retry_after": "5"}`))
	f.Fuzz(func(t *testing.T, retryAfter, resetAfter, global, scope, bucket string, body []byte) {
		h := http.Header{}
		h.Set("Retry-After", retryAfter)
		h.Set("X-RateLimit-Reset-After", resetAfter)
		h.Set("X-RateLimit-Global", global)
		h.Set("X-RateLimit-Scope", scope)
		h.Set("X-RateLimit-Bucket", bucket)
		lim := ratelimit.ParseLimited(h, body)
		if lim.RetryAfter < 0 || lim.RetryAfter > 24*time.Hour {
			t.Fatalf("wait %v out of range", lim.RetryAfter)
		}
		if scope == "global" && !lim.Global {
			t.Fatalf("global scope not global")
		}
	})
}
