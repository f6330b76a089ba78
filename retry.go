package guildkit

import (
	"context"
	"log/slog"
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

// checkRetry decides whether an attempt is tried again. It is the one place
// that decision is made; each branch says why.
func (c *Client) checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	st := attemptFrom(ctx)
	if st == nil {
		return false, err
	}
	st.tries++
	st.wait, st.waitSet = 0, false
	if ctx.Err() != nil {
		// The caller gave up: nothing more is sent.
		return false, ctx.Err()
	}
	if err != nil {
		// No answer. The request may or may not have reached the service, so
		// only a method that is safe to repeat is sent again, and only when
		// its body can be sent again whole.
		if !isIdempotent(st.rl.Method) || !st.replayable || isPermanent(err) {
			return false, err
		}
		c.logRetry(ctx, st, 0, c.expBackoff(st.tries-1))
		return true, nil
	}
	switch resp.StatusCode {
	case http.StatusTooManyRequests:
		// A rate limit: the request was not processed, so any method is
		// retried after the wait the service asks for, unless the caller
		// turned that off or the body cannot be sent again.
		lim := limitOfResponse(st, resp)
		if st.rl.NoWait || !st.replayable {
			return false, nil
		}
		if lim.RetryAfter > c.retry.maxRateLimitWait {
			return false, c.refuseWait(st, lim, "the wait is longer than the client accepts (see WithMaxRateLimitWait)")
		}
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < lim.RetryAfter {
			return false, c.refuseWait(st, lim, "the wait would outlast the context deadline")
		}
		st.wait, st.waitSet = lim.RetryAfter, true
		c.logRetry(ctx, st, resp.StatusCode, st.wait)
		return true, nil
	case http.StatusRequestTimeout, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		// The service or a proxy in front of it failed or timed out. A POST
		// or PATCH may have taken effect, so it is never sent a second time.
		if !isIdempotent(st.rl.Method) || !st.replayable {
			return false, nil
		}
		wait, ok := parseRetryAfterHeader(resp.Header.Get("Retry-After"))
		if !ok || wait > c.retry.maxWait {
			wait = c.expBackoff(st.tries - 1)
		}
		st.wait, st.waitSet = wait, true
		c.logRetry(ctx, st, resp.StatusCode, wait)
		return true, nil
	}
	return false, nil
}

func (c *Client) refuseWait(st *attempt, lim ratelimit.Limited, reason string) *RateLimitError {
	return &RateLimitError{
		Method: st.rl.Method, Route: st.rl.Route, RetryAfter: lim.RetryAfter, Global: lim.Global,
		Bucket: lim.Bucket, Scope: lim.Scope, Reason: reason,
	}
}

// limitOf returns what a 429 answer said of the limit, as the bucket layer
// parsed it on its way up; body is read only when that layer did not see the
// answer.
func limitOf(st *attempt, h http.Header, body []byte) ratelimit.Limited {
	if st.rl.Limited != nil {
		return *st.rl.Limited
	}
	return ratelimit.ParseLimited(h, body)
}

// backoff returns the wait checkRetry chose, or the exponential backoff when
// there was no answer to read one from.
func (c *Client) backoff(_, _ time.Duration, n int, resp *http.Response) time.Duration {
	if resp != nil && resp.Request != nil {
		if st := attemptFrom(resp.Request.Context()); st != nil && st.waitSet {
			return st.wait
		}
	}
	return c.expBackoff(n)
}

// expBackoff doubles from minWait, capped at maxWait.
func (c *Client) expBackoff(n int) time.Duration {
	if n > 30 {
		n = 30
	}
	w := c.retry.minWait << n
	if w > c.retry.maxWait || w < 0 {
		w = c.retry.maxWait
	}
	return w
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
		attrs = append(attrs, slog.String("bucket", st.rl.Bucket))
	}
	c.logger.LogAttrs(ctx, slog.LevelDebug, "guildkit: retrying", attrs...)
}

// parseRetryAfterHeader reads Retry-After as seconds (possibly fractional) or
// an HTTP date. It reports false for an absent, negative or unreadable value.
func parseRetryAfterHeader(v string) (time.Duration, bool) {
	return ratelimit.ParseRetryAfter(v)
}
