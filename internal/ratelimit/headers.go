package ratelimit

import (
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// DefaultWait is how long a 429 that names no wait at all (no retry_after in
// its body, no X-RateLimit-Reset-After, no Retry-After) is waited out.
const DefaultWait = time.Second

// maxSeconds caps every wait read from a header or body: a longer one is
// taken as a day.
const maxSeconds = 86400

// Headers is what a response's X-RateLimit-* headers say about its bucket.
type Headers struct {
	// Limited reports whether the response carried X-RateLimit-Limit and
	// X-RateLimit-Remaining with usable values. When false the other fields
	// but Bucket, Global and Scope are zero.
	Limited    bool
	Limit      int
	Remaining  int
	ResetAfter time.Duration // from X-RateLimit-Reset-After; 0 when absent or unusable
	HasReset   bool          // whether ResetAfter was read from the header
	Bucket     string        // X-RateLimit-Bucket
	Global     bool          // X-RateLimit-Global: true, or X-RateLimit-Scope: global
	Scope      string        // X-RateLimit-Scope: user, global or shared
}

// ParseHeaders reads the rate-limit headers. It never fails: a header that is
// absent, not a number or absurd is ignored. The relative, sub-second
// X-RateLimit-Reset-After is used for timing when it is usable; a negative
// one means the window has already ended (reset now). When it is absent or
// unreadable, the absolute X-RateLimit-Reset (seconds since the epoch) is
// read against the local clock, a reset in the past again meaning now.
func ParseHeaders(h http.Header) Headers {
	return parseHeadersAt(h, time.Now())
}

func parseHeadersAt(h http.Header, now time.Time) Headers {
	out := Headers{
		Bucket: headerValue(h, hBucket),
		Scope:  headerValue(h, hScope),
	}
	out.Global = strings.EqualFold(headerValue(h, hGlobal), "true") || out.Scope == "global"
	// Absent headers are not parsed: strconv's error for "" allocates, and
	// most answers without a limit would pay it on every call.
	limit, err1 := atoi(headerValue(h, hLimit))
	remaining, err2 := atoi(headerValue(h, hRemaining))
	if err1 == nil && err2 == nil && limit > 0 && remaining >= 0 {
		out.Limited = true
		out.Limit = limit
		out.Remaining = min(remaining, limit)
	}
	if f, err := parseFloat(headerValue(h, hResetAfter)); err == nil && !math.IsNaN(f) && !math.IsInf(f, 0) {
		// Seconds maps a negative value, a window already over, to 0.
		out.ResetAfter, out.HasReset = Seconds(f), true
	} else if f, err := parseFloat(headerValue(h, hReset)); err == nil && !math.IsNaN(f) && !math.IsInf(f, 0) && f > 0 {
		at := time.Unix(0, 0).Add(time.Duration(f * float64(time.Second)))
		out.ResetAfter, out.HasReset = Seconds(at.Sub(now).Seconds()), true
	}
	return out
}

var errAbsent = errors.New("absent")

func atoi(s string) (int, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, errAbsent
	}
	return strconv.Atoi(s)
}

func parseFloat(s string) (float64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, errAbsent
	}
	return strconv.ParseFloat(s, 64)
}

// The headers' canonical keys (http.CanonicalHeaderKey), so reading them
// allocates nothing.
const (
	hLimit      = "X-Ratelimit-Limit"
	hRemaining  = "X-Ratelimit-Remaining"
	hResetAfter = "X-Ratelimit-Reset-After"
	hReset      = "X-Ratelimit-Reset"
	hBucket     = "X-Ratelimit-Bucket"
	hGlobal     = "X-Ratelimit-Global"
	hScope      = "X-Ratelimit-Scope"
	hRetryAfter = "Retry-After"
)

// headerValue is h.Get for a key already canonical.
func headerValue(h http.Header, key string) string {
	if v := h[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// Limited is what a 429 answer says about the limit it hit.
type Limited struct {
	RetryAfter time.Duration
	Global     bool
	Bucket     string
	Scope      string
}

// ParseLimited reads a 429 answer. The wait comes from, most precise first:
// the body's retry_after (seconds, fractional), X-RateLimit-Reset-After
// (seconds, fractional) and Retry-After (seconds or an HTTP date). A body that
// is not JSON (a proxy's HTML page) is still a rate limit; with none of the
// three the wait is [DefaultWait]. Negative or unreadable values are ignored;
// values over a day count as a day. Global is true when the body says
// "global": true, X-RateLimit-Global is true or X-RateLimit-Scope is global.
func ParseLimited(h http.Header, body []byte) Limited {
	hd := ParseHeaders(h)
	out := Limited{Global: hd.Global, Bucket: hd.Bucket, Scope: hd.Scope}
	var b struct {
		RetryAfter *float64 `json:"retry_after"`
		Global     bool     `json:"global"`
	}
	found := false
	if len(body) > 0 && json.Unmarshal(body, &b) == nil {
		out.Global = out.Global || b.Global
		if b.RetryAfter != nil && *b.RetryAfter >= 0 {
			out.RetryAfter, found = Seconds(*b.RetryAfter), true
		}
	}
	if !found && hd.HasReset && !strings.HasPrefix(strings.TrimSpace(headerValue(h, hResetAfter)), "-") {
		out.RetryAfter, found = hd.ResetAfter, true
	}
	if !found {
		out.RetryAfter, found = ParseRetryAfter(headerValue(h, hRetryAfter))
	}
	if !found {
		out.RetryAfter = DefaultWait
	}
	return out
}

// Seconds converts a count of seconds to a Duration, mapping NaN and
// negative values to 0 and values over a day to a day.
func Seconds(f float64) time.Duration {
	switch {
	case math.IsNaN(f) || f <= 0:
		return 0
	case f > maxSeconds:
		return maxSeconds * time.Second
	}
	return time.Duration(f * float64(time.Second))
}

// ParseRetryAfter reads Retry-After as seconds (possibly fractional) or an
// HTTP date. It reports false for an absent, negative or unreadable value.
func ParseRetryAfter(v string) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if f, err := strconv.ParseFloat(v, 64); err == nil && f >= 0 {
		return Seconds(f), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return Seconds(time.Until(t).Seconds()), true
	}
	return 0, false
}
