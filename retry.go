package guildkit

import (
	"bytes"
	"context"
	"io"
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

// rateLimitInfo is what a 429 answer says about the limit.
type rateLimitInfo struct {
	parsed     bool
	retryAfter time.Duration
	global     bool
	bucket     string
	scope      string
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
		info := readRateLimit(resp)
		st.rateLimit = info
		if st.rl.NoWait || !st.replayable {
			return false, nil
		}
		if info.retryAfter > c.retry.maxRateLimitWait {
			return false, c.refuseWait(st, info, "the wait is longer than the client accepts (see WithMaxRateLimitWait)")
		}
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < info.retryAfter {
			return false, c.refuseWait(st, info, "the wait would outlast the context deadline")
		}
		st.wait, st.waitSet = info.retryAfter, true
		c.logRetry(ctx, st, resp.StatusCode, st.wait)
		return true, nil
	case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		// The service or a proxy in front of it failed. A POST or PATCH may
		// have taken effect, so it is never sent a second time.
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

func (c *Client) refuseWait(st *attempt, info rateLimitInfo, reason string) *RateLimitError {
	return &RateLimitError{
		Method: st.rl.Method, Route: st.rl.Route, RetryAfter: info.retryAfter, Global: info.global,
		Bucket: info.bucket, Scope: info.scope, Reason: reason,
	}
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
	if st.rateLimit.bucket != "" {
		attrs = append(attrs, slog.String("bucket", st.rateLimit.bucket))
	}
	c.logger.LogAttrs(ctx, slog.LevelDebug, "guildkit: retrying", attrs...)
}

// readRateLimit reads a 429 answer's headers and body, and puts the body back
// for whoever reads it next.
func readRateLimit(resp *http.Response) rateLimitInfo {
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(raw))
	return parseRateLimit(resp.Header, raw)
}

// parseRateLimit reads the wait from, most precise first: the body's
// retry_after (seconds, fractional), X-RateLimit-Reset-After (seconds,
// fractional) and Retry-After (seconds or an HTTP date). A 429 whose body is
// not JSON (a proxy's HTML page) is still a rate limit; with none of the
// three the wait is one second. Negative or unreadable values are ignored;
// values over a day count as a day.
func parseRateLimit(h http.Header, body []byte) rateLimitInfo {
	l := ratelimit.ParseLimited(h, body)
	return rateLimitInfo{parsed: true, retryAfter: l.RetryAfter, global: l.Global, bucket: l.Bucket, scope: l.Scope}
}

// parseRetryAfterHeader reads Retry-After as seconds (possibly fractional) or
// an HTTP date. It reports false for an absent, negative or unreadable value.
func parseRetryAfterHeader(v string) (time.Duration, bool) {
	return ratelimit.ParseRetryAfter(v)
}
