package guildkit

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/seed012df1e9/guildkit/internal/ratelimit"
)

// TestRetryDecision covers every branch of the retry policy, on its own:
// a table of (attempt, answer, transport error) and the decision.
func TestRetryDecision(t *testing.T) {
	t.Parallel()
	policy := retryPolicy{max: 3, minWait: 500 * time.Millisecond, maxWait: 30 * time.Second, maxRateLimitWait: time.Minute}
	connReset := &netOpError{syscall.ECONNRESET}
	certErr := &tls.CertificateVerificationError{Err: errors.New("unknown authority")}
	waitErr := &ratelimit.WaitError{Wait: time.Second}

	// answer builds a response with a status, header pairs and a body.
	answer := func(status int, body string, kv ...string) *http.Response {
		h := make(http.Header)
		for i := 0; i+1 < len(kv); i += 2 {
			h.Set(kv[i], kv[i+1])
		}
		return &http.Response{StatusCode: status, Header: h, Body: io.NopCloser(strings.NewReader(body))}
	}
	tests := []struct {
		name   string
		facts  attemptFacts // method defaults to GET, tries to 1; replayable is set from once
		once   bool         // the body cannot be sent again
		resp   *http.Response
		err    error
		want   retryDecision
		errIs  error  // when want.err is a sentinel or the transport error
		reason string // the *RateLimitError reason, when the decision refuses a wait
	}{
		// 429: exact waits from the body, the headers, or the default.
		{name: "429 body retry_after", facts: attemptFacts{method: "POST"},
			resp: answer(429, `{"message":"slow","retry_after":1.5,"global":false}`, "Retry-After", "9"),
			want: retryDecision{retry: true, wait: 1500 * time.Millisecond}},
		{name: "429 header Reset-After", resp: answer(429, ``, "X-RateLimit-Reset-After", "2.25", "X-RateLimit-Reset", "1", "X-RateLimit-Remaining", "0"),
			want: retryDecision{retry: true, wait: 2250 * time.Millisecond}},
		{name: "429 header Retry-After only", facts: attemptFacts{method: "PATCH"}, resp: answer(429, `not json`, "Retry-After", "3"),
			want: retryDecision{retry: true, wait: 3 * time.Second}},
		{name: "429 nothing said", facts: attemptFacts{method: "DELETE"}, resp: answer(429, ``),
			want: retryDecision{retry: true, wait: ratelimit.DefaultWait}},
		{name: "429 jitter does not touch the wait", facts: attemptFacts{jitter: 0.99}, resp: answer(429, `{"retry_after":4}`),
			want: retryDecision{retry: true, wait: 4 * time.Second}},
		{name: "429 WithoutRateLimitRetry", facts: attemptFacts{noWait: true}, resp: answer(429, `{"retry_after":1}`),
			want: retryDecision{}},
		{name: "429 body cannot be sent again", facts: attemptFacts{method: "POST"}, once: true, resp: answer(429, `{"retry_after":1}`),
			want: retryDecision{}},
		{name: "429 wait longer than accepted", resp: answer(429, `{"retry_after":61}`),
			reason: "the wait is longer than the client accepts (see WithMaxRateLimitWait)"},
		{name: "429 wait past the deadline", facts: attemptFacts{hasDeadline: true, untilDeadline: time.Second}, resp: answer(429, `{"retry_after":2}`),
			reason: "the wait would outlast the context deadline"},
		{name: "429 wait within the deadline", facts: attemptFacts{hasDeadline: true, untilDeadline: 3 * time.Second}, resp: answer(429, `{"retry_after":2}`),
			want: retryDecision{retry: true, wait: 2 * time.Second}},

		// 5xx and 408, by method: only idempotent methods are sent again.
		{name: "503 GET backoff first", resp: answer(503, ``), want: retryDecision{retry: true, wait: 500 * time.Millisecond}},
		{name: "503 GET backoff doubles", facts: attemptFacts{tries: 3}, resp: answer(503, ``), want: retryDecision{retry: true, wait: 2 * time.Second}},
		{name: "503 GET backoff capped", facts: attemptFacts{tries: 20}, resp: answer(503, ``), want: retryDecision{retry: true, wait: 30 * time.Second}},
		{name: "503 GET jitter takes up to half", facts: attemptFacts{tries: 2, jitter: 0.5}, resp: answer(503, ``),
			want: retryDecision{retry: true, wait: 750 * time.Millisecond}},
		{name: "503 Retry-After honoured exactly", facts: attemptFacts{jitter: 0.9}, resp: answer(503, ``, "Retry-After", "7"),
			want: retryDecision{retry: true, wait: 7 * time.Second}},
		{name: "503 Retry-After beyond maxWait is backoff", resp: answer(503, ``, "Retry-After", "3600"),
			want: retryDecision{retry: true, wait: 500 * time.Millisecond}},
		{name: "502 HEAD", facts: attemptFacts{method: "HEAD"}, resp: answer(502, ``), want: retryDecision{retry: true, wait: 500 * time.Millisecond}},
		{name: "504 PUT", facts: attemptFacts{method: "PUT"}, resp: answer(504, ``), want: retryDecision{retry: true, wait: 500 * time.Millisecond}},
		{name: "408 DELETE", facts: attemptFacts{method: "DELETE"}, resp: answer(408, ``), want: retryDecision{retry: true, wait: 500 * time.Millisecond}},
		{name: "503 POST never again", facts: attemptFacts{method: "POST"}, resp: answer(503, ``), want: retryDecision{}},
		{name: "502 PATCH never again", facts: attemptFacts{method: "PATCH"}, resp: answer(502, ``), want: retryDecision{}},
		{name: "408 POST never again", facts: attemptFacts{method: "POST"}, resp: answer(408, ``), want: retryDecision{}},
		{name: "503 GET body cannot be sent again", once: true, resp: answer(503, ``), want: retryDecision{}},
		{name: "503 GET backoff past the deadline", facts: attemptFacts{hasDeadline: true, untilDeadline: 100 * time.Millisecond},
			resp: answer(503, ``), want: retryDecision{}},
		{name: "500 is an answer", resp: answer(500, `{"code":0}`), want: retryDecision{}},
		{name: "501 is an answer", resp: answer(501, ``), want: retryDecision{}},
		{name: "404 is an answer", resp: answer(404, `{"code":10004}`), want: retryDecision{}},
		{name: "200", resp: answer(200, `{}`), want: retryDecision{}},

		// No answer at all.
		{name: "connection reset GET", err: connReset, want: retryDecision{retry: true, wait: 500 * time.Millisecond}},
		{name: "connection reset PUT jittered", facts: attemptFacts{method: "PUT", tries: 2, jitter: 0.25}, err: connReset,
			want: retryDecision{retry: true, wait: 875 * time.Millisecond}},
		{name: "connection reset POST", facts: attemptFacts{method: "POST"}, err: connReset, errIs: connReset},
		{name: "connection reset PATCH", facts: attemptFacts{method: "PATCH"}, err: connReset, errIs: connReset},
		{name: "connection reset, body cannot be sent again", once: true, err: connReset, errIs: connReset},
		{name: "connection reset, backoff past the deadline", facts: attemptFacts{hasDeadline: true, untilDeadline: time.Millisecond},
			err: connReset, errIs: connReset},
		{name: "certificate refused", err: certErr, errIs: certErr},
		{name: "limiter refused to wait", err: waitErr, errIs: waitErr},

		// The context ended: nothing more, whatever the answer.
		{name: "canceled after 503", facts: attemptFacts{ctxErr: context.Canceled}, resp: answer(503, ``), errIs: context.Canceled},
		{name: "deadline after 429", facts: attemptFacts{ctxErr: context.DeadlineExceeded}, resp: answer(429, `{"retry_after":1}`), errIs: context.DeadlineExceeded},
		{name: "canceled, no answer", facts: attemptFacts{ctxErr: context.Canceled}, err: connReset, errIs: context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := tt.facts
			if a.method == "" {
				a.method = http.MethodGet
			}
			if a.tries == 0 {
				a.tries = 1
			}
			a.replayable = !tt.once
			a.route = "/guilds/{guild.id}"
			if tt.resp != nil && tt.resp.StatusCode == 429 {
				body, _ := io.ReadAll(tt.resp.Body)
				a.limited = ratelimit.ParseLimited(tt.resp.Header, body)
			}
			got := policy.decide(a, tt.resp, tt.err)
			switch {
			case tt.reason != "":
				var rl *RateLimitError
				if assert.ErrorAs(t, got.err, &rl) {
					assert.Equal(t, tt.reason, rl.Reason)
					assert.Equal(t, a.limited.RetryAfter, rl.RetryAfter)
					assert.Equal(t, "GET", rl.Method)
					assert.Equal(t, "/guilds/{guild.id}", rl.Route)
				}
				assert.False(t, got.retry)
			case tt.errIs != nil:
				assert.False(t, got.retry)
				assert.ErrorIs(t, got.err, tt.errIs)
			default:
				assert.Equal(t, tt.want, got)
			}
		})
	}
}

// TestRetryBackoffJitterRange checks that a jittered backoff stays within
// (half the wait, the wait] for every attempt, so it never shrinks below
// half of what the doubling asks for.
func TestRetryBackoffJitterRange(t *testing.T) {
	t.Parallel()
	p := retryPolicy{minWait: 100 * time.Millisecond, maxWait: 5 * time.Second}
	for tries := 1; tries <= 40; tries++ {
		full := p.backoff(tries, 0)
		for _, j := range []float64{0, 0.1, 0.5, 0.999999} {
			w := p.backoff(tries, j)
			assert.LessOrEqual(t, w, full)
			assert.Greater(t, w, full/2-1, "tries %d jitter %v", tries, j)
		}
		assert.LessOrEqual(t, full, p.maxWait)
	}
}

// netOpError is a transport error that is not permanent.
type netOpError struct{ err error }

func (e *netOpError) Error() string { return "read tcp: " + e.err.Error() }
func (e *netOpError) Unwrap() error { return e.err }
