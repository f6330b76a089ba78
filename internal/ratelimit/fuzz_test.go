package ratelimit

import (
	"net/http"
	"testing"
	"time"
)

// FuzzParseHeaders: any X-RateLimit-* headers parse without panicking into
// values a bucket can use: a positive limit, a remaining count between 0 and
// the limit, a reset between zero and a day. Seed corpus in
// testdata/fuzz/FuzzParseHeaders.
func FuzzParseHeaders(f *testing.F) {
	f.Add("5", "4", "0.25", "abc", "", "user", []byte(nil))
	f.Add("5", "0", "-5", "abc", "true", "global", []byte(`{"retry_after": 1, "global": true}`))
	f.Add("0", "-1", "NaN", "", "false", "shared", []byte(`<html>`))
	f.Add("99999999999999999999", "7", "1e400", "", "", "", []byte(`{"retry_after": -1}`))
	f.Add(" 10 ", "20", "Inf", "b", "TRUE", "", []byte(`{"retry_after": 1e308}`))
	f.Fuzz(func(t *testing.T, limit, remaining, resetAfter, bucket, global, scope string, body []byte) {
		h := http.Header{}
		h.Set("X-RateLimit-Limit", limit)
		h.Set("X-RateLimit-Remaining", remaining)
		h.Set("X-RateLimit-Reset-After", resetAfter)
		h.Set("X-RateLimit-Bucket", bucket)
		h.Set("X-RateLimit-Global", global)
		h.Set("X-RateLimit-Scope", scope)
		got := ParseHeaders(h)
		if got.Limited && (got.Limit <= 0 || got.Remaining < 0 || got.Remaining > got.Limit) {
			t.Fatalf("unusable limits: %+v", got)
		}
		if got.ResetAfter < 0 || got.ResetAfter > 24*time.Hour || (!got.HasReset && got.ResetAfter != 0) {
			t.Fatalf("unusable reset: %+v", got)
		}
		l := ParseLimited(h, body)
		if l.RetryAfter < 0 || l.RetryAfter > 24*time.Hour {
			t.Fatalf("unusable wait: %+v", l)
		}
		if got.Global && !l.Global {
			t.Fatalf("global header lost")
		}
	})
}
