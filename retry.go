package guildkit

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"time"

	"github.com/seed012df1e9/guildkit/internal/ratelimit"
)

// retryPolicy is what WithRetry sets.
type retryPolicy struct {
	max              int
	minWait, maxWait time.Duration // backoff bounds after a 5xx or a lost connection
	maxRateLimitWait time.Duration // the longest 429 wait accepted
}

// attemptFacts is what the retry decision needs to know of a call and of
// the attempt that just ended, besides its answer and transport error.
type attemptFacts struct {
	tries      int    // attempts made so far, the one that just ended included
	method     string // the HTTP method
	route      string // the route template, for a refusal's error
	replayable bool   // the body can be sent again whole
	noWait     bool   // WithoutRateLimitRetry: a 429 is not waited out
	ctxErr     error  // the context's error, nil while it is live
	// untilDeadline is the time left before the context's deadline, and
	// hasDeadline whether it has one.
	untilDeadline time.Duration
	hasDeadline   bool
	// limited is what a 429 answer said of the limit (read by the caller,
	// which may have to read the body for it).
	limited ratelimit.Limited
	// jitter, in [0, 1), picks the wait within a backoff's jitter range.
	jitter float64
}

// retryDecision is the outcome of [retryPolicy.decide]: whether to send
// again, after how long, or the error to end the call with (nil when the
// answer itself is what the caller gets).
type retryDecision struct {
	retry bool
	wait  time.Duration
	err   error
}

// decide is the retry policy: a pure function of the attempt, its answer
// (nil when there was none) and its transport error. It is the one place
// that decision is made; each branch says why.
//
// A 429 is retried after exactly the wait the service asks for: waiting
// less is refused again, waiting more wastes the caller's time. The backoff
// after a lost connection or a 5xx doubles from minWait up to maxWait and is
// jittered down by up to half, so that many clients cut off at once do not
// come back at once; a Retry-After on a 5xx is honoured as given.
func (p retryPolicy) decide(a attemptFacts, resp *http.Response, err error) retryDecision {
	if a.ctxErr != nil {
		// The caller gave up: nothing more is sent.
		return retryDecision{err: a.ctxErr}
	}
	if err != nil || resp == nil {
		// No answer. The request may or may not have reached the service, so
		// only a method that is safe to repeat is sent again, and only when
		// its body can be sent again whole.
		if !isIdempotent(a.method) || !a.replayable || isPermanent(err) {
			return retryDecision{err: err}
		}
		wait := p.backoff(a.tries, a.jitter)
		if a.pastDeadline(wait) {
			return retryDecision{err: err}
		}
		return retryDecision{retry: true, wait: wait}
	}
	switch resp.StatusCode {
	case http.StatusTooManyRequests:
		// A rate limit: the request was not processed, so any method is
		// retried after the wait the service asks for, unless the caller
		// turned that off or the body cannot be sent again.
		if a.noWait || !a.replayable {
			return retryDecision{}
		}
		if a.limited.RetryAfter > p.maxRateLimitWait {
			return retryDecision{err: a.refuseWait("the wait is longer than the client accepts (see WithMaxRateLimitWait)")}
		}
		if a.pastDeadline(a.limited.RetryAfter) {
			return retryDecision{err: a.refuseWait("the wait would outlast the context deadline")}
		}
		return retryDecision{retry: true, wait: a.limited.RetryAfter}
	case http.StatusRequestTimeout, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		// The service or a proxy in front of it failed or timed out. A POST
		// or PATCH may have taken effect, so it is never sent a second time.
		if !isIdempotent(a.method) || !a.replayable {
			return retryDecision{}
		}
		wait, ok := parseRetryAfterHeader(resp.Header.Get("Retry-After"))
		if !ok || wait > p.maxWait {
			wait = p.backoff(a.tries, a.jitter)
		}
		if a.pastDeadline(wait) {
			// Waiting would only end in the deadline: the caller gets this
			// answer now instead.
			return retryDecision{}
		}
		return retryDecision{retry: true, wait: wait}
	}
	return retryDecision{}
}

// backoff is the wait before attempt tries+1 after a failure without a wait
// of its own: minWait doubled for each attempt after the first, capped at
// maxWait, then lowered by up to half by jitter (in [0, 1)).
func (p retryPolicy) backoff(tries int, jitter float64) time.Duration {
	n := min(max(tries-1, 0), 30)
	w := p.minWait << n
	if w > p.maxWait || w < 0 {
		w = p.maxWait
	}
	return w - time.Duration(float64(w/2)*jitter)
}

func (a attemptFacts) pastDeadline(wait time.Duration) bool {
	return a.hasDeadline && a.untilDeadline < wait
}

func (a attemptFacts) refuseWait(reason string) *RateLimitError {
	lim := a.limited
	return &RateLimitError{
		Method: a.method, Route: a.route, RetryAfter: lim.RetryAfter, Global: lim.Global,
		Bucket: lim.Bucket, Scope: lim.Scope, Reason: reason,
	}
}

// checkRetry adapts [retryPolicy.decide] to go-retryablehttp's CheckRetry
// hook: it gathers the facts, keeps the decision for [attempt.backoff], and
// logs a retry.
func (st *attempt) checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	c := st.c
	st.tries++
	a := attemptFacts{
		tries: st.tries, method: st.rl.Method, route: st.rl.Route,
		replayable: st.replayable, noWait: st.rl.NoWait, ctxErr: ctx.Err(), jitter: rand.Float64(),
	}
	if dl, ok := ctx.Deadline(); ok {
		a.untilDeadline, a.hasDeadline = time.Until(dl), true
	}
	if err == nil && resp != nil && resp.StatusCode == http.StatusTooManyRequests && a.ctxErr == nil {
		a.limited = limitOfResponse(st, resp)
	}
	st.next = c.retry.decide(a, resp, err)
	if st.next.err != nil {
		var rl *RateLimitError
		if errors.As(st.next.err, &rl) {
			rl.Bucket, rl.Scope = st.redact(rl.Bucket), st.redact(rl.Scope)
		}
	}
	if st.next.retry {
		status := 0
		if resp != nil {
			status = resp.StatusCode
		}
		c.logRetry(ctx, st, status, st.next.wait)
	}
	return st.next.retry, st.next.err
}

// backoff adapts go-retryablehttp's Backoff hook: it returns the wait
// [attempt.checkRetry] just decided.
func (st *attempt) backoff(_, _ time.Duration, _ int, _ *http.Response) time.Duration {
	return st.next.wait
}

func (c *Client) logRetry(ctx context.Context, st *attempt, status int, wait time.Duration) {
	if !c.logger.Enabled(ctx, slog.LevelDebug) {
		return
	}
	attrs := []slog.Attr{
		slog.String("method", st.rl.Method), slog.String("route", st.rl.Route),
		slog.Int("attempt", st.tries), slog.Int("status", status), slog.Duration("wait", wait),
	}
	if st.rl.Bucket != "" {
		attrs = append(attrs, slog.String("bucket", st.redact(st.rl.Bucket)))
	}
	c.logger.LogAttrs(ctx, slog.LevelDebug, "guildkit: retrying", attrs...)
}

// parseRetryAfterHeader reads Retry-After as seconds (possibly fractional) or
// an HTTP date. It reports false for an absent, negative or unreadable value.
func parseRetryAfterHeader(v string) (time.Duration, bool) {
	return ratelimit.ParseRetryAfter(v)
}
