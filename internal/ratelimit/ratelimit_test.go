package ratelimit

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// fakeServer is a RoundTripper that behaves as a service with one
// fixed-window bucket per major parameter, counting 429s and the most
// requests it had in flight.
type fakeServer struct {
	limit int
	per   time.Duration
	delay time.Duration

	mu       sync.Mutex
	windows  map[string]*fakeWindow
	limited  int
	served   int
	inflight int
	peak     int
}

type fakeWindow struct {
	start time.Time
	count int
}

func (f *fakeServer) RoundTrip(req *http.Request) (*http.Response, error) {
	f.mu.Lock()
	f.inflight++
	f.peak = max(f.peak, f.inflight)
	f.mu.Unlock()
	if f.delay > 0 {
		time.Sleep(f.delay)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.inflight--
	if f.windows == nil {
		f.windows = make(map[string]*fakeWindow)
	}
	major := req.URL.Path
	now := time.Now()
	w := f.windows[major]
	if w == nil || now.Sub(w.start) >= f.per {
		w = &fakeWindow{start: now}
		f.windows[major] = w
	}
	resetAfter := w.start.Add(f.per).Sub(now)
	h := http.Header{}
	h.Set("X-RateLimit-Bucket", "fake")
	h.Set("X-RateLimit-Limit", strconv.Itoa(f.limit))
	h.Set("X-RateLimit-Reset-After", strconv.FormatFloat(resetAfter.Seconds()+0.0005, 'f', 3, 64))
	status := http.StatusOK
	if w.count >= f.limit {
		f.limited++
		status = http.StatusTooManyRequests
		h.Set("X-RateLimit-Remaining", "0")
	} else {
		w.count++
		f.served++
		h.Set("X-RateLimit-Remaining", strconv.Itoa(f.limit-w.count))
	}
	return &http.Response{StatusCode: status, Header: h, Body: io.NopCloser(strings.NewReader("{}")), Request: req}, nil
}

func send(t *Transport, ctx context.Context, info *Request, path string) (*http.Response, error) {
	req, _ := http.NewRequestWithContext(NewContext(ctx, info), "GET", "http://x.invalid"+path, nil)
	resp, err := t.RoundTrip(req)
	if err == nil {
		resp.Body.Close()
	}
	return resp, err
}

// TestConcurrentCallersNeverOverrunBucket: 40 goroutines on one bucket of 5
// per 100 ms never meet a 429, and requests overlap up to the limit.
func TestConcurrentCallersNeverOverrunBucket(t *testing.T) {
	t.Parallel()
	srv := &fakeServer{limit: 5, per: 100 * time.Millisecond, delay: 5 * time.Millisecond}
	tr := New(Config{Next: srv})
	var wg sync.WaitGroup
	for range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			info := &Request{Method: "GET", Route: "/guilds/{guild.id}", Major: "1"}
			resp, err := send(tr, context.Background(), info, "/guilds/1")
			assert.NoError(t, err)
			assert.Equal(t, http.StatusOK, resp.StatusCode)
			assert.Equal(t, "fake", info.Bucket)
		}()
	}
	wg.Wait()
	assert.Zero(t, srv.limited)
	assert.Equal(t, 40, srv.served)
	assert.Greater(t, srv.peak, 1, "requests in one bucket overlap")
	assert.LessOrEqual(t, srv.peak, 5)
}

// TestMajorParametersAreSeparateBuckets: two guilds do not share a count.
func TestMajorParametersAreSeparateBuckets(t *testing.T) {
	t.Parallel()
	srv := &fakeServer{limit: 1, per: time.Hour}
	tr := New(Config{Next: srv})
	for _, g := range []string{"1", "2"} {
		_, err := send(tr, context.Background(), &Request{Method: "GET", Route: "/guilds/{guild.id}", Major: g}, "/guilds/"+g)
		require.NoError(t, err)
	}
	_, err := send(tr, context.Background(), &Request{Method: "GET", Route: "/guilds/{guild.id}", Major: "1", NoWait: true}, "/guilds/1")
	var we *WaitError
	require.ErrorAs(t, err, &we)
	assert.Greater(t, we.Wait, 50*time.Minute)
	assert.Equal(t, "fake", we.Bucket)
	assert.Zero(t, srv.limited)
}

// TestIdleBucketsAreDropped: memory is bounded by buckets in recent use,
// without a goroutine: the sweep runs when a request is made.
func TestIdleBucketsAreDropped(t *testing.T) {
	t.Parallel()
	srv := &fakeServer{limit: 100, per: 10 * time.Millisecond}
	// The TTL leaves the 1000 sends (about 100 ms alone) ample room on a
	// loaded machine under the race detector.
	tr := New(Config{Next: srv, IdleTTL: 1500 * time.Millisecond})
	for i := range 1000 {
		g := strconv.Itoa(i)
		_, err := send(tr, context.Background(), &Request{Method: "GET", Route: "/guilds/{guild.id}", Major: g}, "/guilds/"+g)
		require.NoError(t, err)
	}
	assert.GreaterOrEqual(t, tr.Len(), 900)
	time.Sleep(2 * time.Second)
	_, err := send(tr, context.Background(), &Request{Method: "GET", Route: "/guilds/{guild.id}", Major: "new"}, "/guilds/new")
	require.NoError(t, err)
	assert.LessOrEqual(t, tr.Len(), 2)
}

// TestGlobal429PausesAndCancelEndsWait: a global 429 pauses every route;
// cancelling the context ends the wait.
func TestGlobal429PausesAndCancelEndsWait(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	next := roundTripFunc(func(req *http.Request) (*http.Response, error) {
		calls.Add(1)
		h := http.Header{"X-Ratelimit-Global": {"true"}}
		return &http.Response{StatusCode: 429, Header: h, Body: io.NopCloser(strings.NewReader(`{"retry_after": 60, "global": true}`)), Request: req}, nil
	})
	var events []Event
	var mu sync.Mutex
	tr := New(Config{Next: next, Observe: func(e Event) { mu.Lock(); events = append(events, e); mu.Unlock() }})
	resp, err := send(tr, context.Background(), &Request{Method: "GET", Route: "/a"}, "/a")
	require.NoError(t, err)
	assert.Equal(t, 429, resp.StatusCode)

	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(30*time.Millisecond, cancel)
	_, err = send(tr, ctx, &Request{Method: "POST", Route: "/b/{x}", Major: ""}, "/b/1")
	assert.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, int32(1), calls.Load(), "nothing sent during the pause")

	ctx2, cancel2 := context.WithTimeout(context.Background(), time.Second)
	defer cancel2()
	_, err = send(tr, ctx2, &Request{Method: "GET", Route: "/c"}, "/c")
	var we *WaitError
	require.ErrorAs(t, err, &we)
	assert.True(t, we.Global)
	assert.Contains(t, we.Reason, "deadline")

	mu.Lock()
	defer mu.Unlock()
	require.GreaterOrEqual(t, len(events), 2)
	assert.Equal(t, EventLimited, events[0].Kind)
	assert.True(t, events[0].Global)
	assert.Equal(t, time.Minute, events[0].Wait)
	assert.Equal(t, EventWait, events[1].Kind)
}

// TestGlobalLimiterPaces: with a rate of 100 per second in bursts of 1, ten
// requests take about 90 ms; a request not allowed to wait fails instead.
func TestGlobalLimiterPaces(t *testing.T) {
	t.Parallel()
	next := roundTripFunc(func(req *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 200, Header: http.Header{}, Body: http.NoBody, Request: req}, nil
	})
	tr := New(Config{Next: next, GlobalRate: 100, GlobalBurst: 1})
	start := time.Now()
	for range 10 {
		_, err := send(tr, context.Background(), &Request{Method: "GET", Route: "/a"}, "/a")
		require.NoError(t, err)
	}
	assert.GreaterOrEqual(t, time.Since(start), 80*time.Millisecond)
	_, err := send(tr, context.Background(), &Request{Method: "GET", Route: "/a", NoWait: true}, "/a")
	var we *WaitError
	require.ErrorAs(t, err, &we)
	assert.True(t, we.Global)
}

// TestNoAnswerGivesSlotBack: a request that gets no answer does not leave
// its bucket stuck.
func TestNoAnswerGivesSlotBack(t *testing.T) {
	t.Parallel()
	var fail atomic.Bool
	srv := &fakeServer{limit: 1, per: time.Hour}
	next := roundTripFunc(func(req *http.Request) (*http.Response, error) {
		if fail.Load() {
			return nil, io.ErrUnexpectedEOF
		}
		return srv.RoundTrip(req)
	})
	tr := New(Config{Next: next})
	fail.Store(true)
	_, err := send(tr, context.Background(), &Request{Method: "GET", Route: "/a"}, "/a")
	require.Error(t, err)
	fail.Store(false)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	resp, err := send(tr, ctx, &Request{Method: "GET", Route: "/a"}, "/a")
	require.NoError(t, err)
	assert.Equal(t, 200, resp.StatusCode)
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestParseHeaders(t *testing.T) {
	t.Parallel()
	h := http.Header{}
	h.Set("X-RateLimit-Limit", "5")
	h.Set("X-RateLimit-Remaining", "3")
	h.Set("X-RateLimit-Reset-After", "0.25")
	h.Set("X-RateLimit-Bucket", "abc")
	got := ParseHeaders(h)
	assert.Equal(t, Headers{Limited: true, Limit: 5, Remaining: 3, ResetAfter: 250 * time.Millisecond, HasReset: true, Bucket: "abc"}, got)

	for _, v := range []string{"NaN", "Inf", "soon", ""} {
		h.Set("X-RateLimit-Reset-After", v)
		assert.False(t, ParseHeaders(h).HasReset, v)
	}
	// A negative Reset-After is a window already over: reset now.
	h.Set("X-RateLimit-Reset-After", "-5")
	got = ParseHeaders(h)
	assert.True(t, got.HasReset)
	assert.Zero(t, got.ResetAfter)

	// Without a usable Reset-After, the absolute Reset is read against the
	// clock; one in the past is now.
	now := time.Unix(1_700_000_000, 0)
	h.Set("X-RateLimit-Reset-After", "soon")
	h.Set("X-RateLimit-Reset", "1700000002.5")
	got = parseHeadersAt(h, now)
	assert.True(t, got.HasReset)
	assert.Equal(t, 2500*time.Millisecond, got.ResetAfter)
	h.Set("X-RateLimit-Reset", "1699999990")
	got = parseHeadersAt(h, now)
	assert.True(t, got.HasReset)
	assert.Zero(t, got.ResetAfter)
	h.Del("X-RateLimit-Reset-After")
	h.Set("X-RateLimit-Reset", "yesterday")
	assert.False(t, parseHeadersAt(h, now).HasReset)
	h.Del("X-RateLimit-Reset")
	h.Set("X-RateLimit-Remaining", "-1")
	assert.False(t, ParseHeaders(h).Limited)
	h.Set("X-RateLimit-Scope", "global")
	assert.True(t, ParseHeaders(h).Global)
}

func TestParseLimited(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		header http.Header
		body   string
		want   time.Duration
		global bool
	}{
		{"body", nil, `{"retry_after": 1.5, "global": true}`, 1500 * time.Millisecond, true},
		{"html body, retry-after", http.Header{"Retry-After": {"3"}}, "<html>slow down</html>", 3 * time.Second, false},
		{"nothing", nil, "<html>", DefaultWait, false},
		{"invalid retry-after", http.Header{"Retry-After": {"soon"}}, "", DefaultWait, false},
		{"negative retry-after", http.Header{"Retry-After": {"-4"}}, "", DefaultWait, false},
		{"huge retry-after", http.Header{"Retry-After": {"1e300"}}, "", 24 * time.Hour, false},
		{"negative reset-after", http.Header{"X-Ratelimit-Reset-After": {"-2"}}, "", DefaultWait, false},
		{"negative body", nil, `{"retry_after": -1}`, DefaultWait, false},
		{"global header", http.Header{"X-Ratelimit-Global": {"true"}, "X-Ratelimit-Reset-After": {"0.5"}}, "", 500 * time.Millisecond, true},
	}
	for _, tt := range tests {
		got := ParseLimited(tt.header, []byte(tt.body))
		assert.Equal(t, tt.want, got.RetryAfter, tt.name)
		assert.Equal(t, tt.global, got.Global, tt.name)
	}
}

// BenchmarkBookkeeping is the cost the bucket layer adds to a request whose
// bucket is known and free: compare with BenchmarkBare.
func BenchmarkBookkeeping(b *testing.B) {
	h := http.Header{}
	h.Set("X-RateLimit-Bucket", "abc")
	h.Set("X-RateLimit-Limit", "1000000000")
	h.Set("X-RateLimit-Remaining", "999999999")
	h.Set("X-RateLimit-Reset-After", "1000")
	resp := &http.Response{StatusCode: 200, Header: h, Body: http.NoBody}
	next := roundTripFunc(func(*http.Request) (*http.Response, error) { return resp, nil })
	tr := New(Config{Next: next})
	info := &Request{Method: "GET", Route: "/guilds/{guild.id}/members/{user.id}", Major: "123456789012345678"}
	req, _ := http.NewRequestWithContext(NewContext(context.Background(), info), "GET", "http://x.invalid/", nil)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tr.RoundTrip(req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBookkeepingGlobal adds the global limiter (at a rate never
// reached).
func BenchmarkBookkeepingGlobal(b *testing.B) {
	h := http.Header{}
	h.Set("X-RateLimit-Bucket", "abc")
	h.Set("X-RateLimit-Limit", "1000000000")
	h.Set("X-RateLimit-Remaining", "999999999")
	h.Set("X-RateLimit-Reset-After", "1000")
	resp := &http.Response{StatusCode: 200, Header: h, Body: http.NoBody}
	next := roundTripFunc(func(*http.Request) (*http.Response, error) { return resp, nil })
	tr := New(Config{Next: next, GlobalRate: 1e12, GlobalBurst: 1 << 30})
	info := &Request{Method: "GET", Route: "/guilds/{guild.id}/members/{user.id}", Major: "123456789012345678"}
	req, _ := http.NewRequestWithContext(NewContext(context.Background(), info), "GET", "http://x.invalid/", nil)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tr.RoundTrip(req); err != nil {
			b.Fatal(err)
		}
	}
}
