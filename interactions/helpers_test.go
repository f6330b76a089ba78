package interactions_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/interactions"
)

// testKey is the application's key pair of these tests.
var testPub, testPriv = func() (ed25519.PublicKey, ed25519.PrivateKey) {
	seed := bytes.Repeat([]byte{7}, ed25519.SeedSize)
	priv := ed25519.NewKeyFromSeed(seed)
	return priv.Public().(ed25519.PublicKey), priv
}()

const testToken = "interaction-SECRET-token_abc123"

// restCall is one request the fake REST server received.
type restCall struct {
	Method, Path, Query, ContentType string
	Body                             []byte
}

// restServer is a fake of the interface's interaction routes: it records
// every call and answers 204, or with the message a test sets.
type restServer struct {
	*httptest.Server
	mu     sync.Mutex
	calls  []restCall
	status int
	answer string
}

func newRESTServer(t *testing.T) (*restServer, *guildkit.Client) {
	t.Helper()
	rs := &restServer{status: http.StatusOK, answer: `{"id":"900","channel_id":"2","content":"","timestamp":"2026-01-01T00:00:00.000000+00:00","flags":0,"components":[]}`}
	rs.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rs.mu.Lock()
		rs.calls = append(rs.calls, restCall{r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Get("Content-Type"), body})
		status, answer := rs.status, rs.answer
		rs.mu.Unlock()
		if r.Method == http.MethodDelete || (r.Method == http.MethodPost && status == http.StatusOK && bytes.Contains([]byte(r.URL.Path), []byte("/callback"))) {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, answer)
	}))
	t.Cleanup(rs.Close)
	c, err := guildkit.New(nil, guildkit.WithBaseURL(rs.URL+"/api/v10"), guildkit.WithRetry(0, time.Millisecond, time.Millisecond))
	require.NoError(t, err)
	return rs, c
}

func (rs *restServer) Calls() []restCall {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return append([]restCall(nil), rs.calls...)
}

// manualClock is a Clock that moves only when told.
type manualClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*manualTimer
}

type manualTimer struct {
	at      time.Time
	f       func()
	stopped bool
	fired   bool
}

func newManualClock() *manualClock { return &manualClock{now: time.Now()} }

func (c *manualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *manualClock) AfterFunc(d time.Duration, f func()) func() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &manualTimer{at: c.now.Add(d), f: f}
	c.timers = append(c.timers, t)
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		was := !t.stopped && !t.fired
		t.stopped = true
		return was
	}
}

// Advance moves the clock and runs the timers that are due, in their own
// goroutines, as time.AfterFunc does.
func (c *manualClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	var due []func()
	for _, t := range c.timers {
		if !t.stopped && !t.fired && !t.at.After(c.now) {
			t.fired = true
			due = append(due, t.f)
		}
	}
	c.mu.Unlock()
	for _, f := range due {
		go f()
	}
}

// componentInteraction is a click on the button customID of a message.
func componentInteraction(customID string) map[string]any {
	return map[string]any{
		"id": "5001", "application_id": "4001", "type": 3, "token": testToken, "version": 1,
		"guild_id": "1", "channel_id": "2", "app_permissions": "2048", "locale": "en-US",
		"guild": map[string]any{"id": "1", "locale": "en-US", "features": []string{}},
		"member": map[string]any{"user": map[string]any{"id": "77", "username": "ada", "global_name": "Ada", "avatar": "a1"},
			"roles": []string{}, "joined_at": "2025-03-01T10:00:00.123456+00:00", "nick": "ada!", "deaf": false, "mute": false,
			"flags": 0, "permissions": "2147483647", "premium_since": "2025-04-01T10:00:00.123456+00:00"},
		"message": map[string]any{"id": "900", "channel_id": "2", "content": "pick", "timestamp": "2026-01-01T00:00:00.000000+00:00",
			"flags": 0, "components": []any{map[string]any{"type": 1, "id": 1, "components": []any{
				map[string]any{"type": 2, "id": 2, "style": 1, "label": "Go", "custom_id": customID},
				map[string]any{"type": 99, "id": 3, "future": true},
			}}}},
		"data":                           map[string]any{"custom_id": customID, "component_type": 2, "id": 2},
		"entitlements":                   []any{},
		"authorizing_integration_owners": map[string]any{"0": "1"},
		"context":                        0,
		"attachment_size_limit":          26214400,
	}
}

// signed builds the platform's POST of body, signed at ts.
func signed(t testing.TB, body []byte, ts time.Time) *http.Request {
	t.Helper()
	sig, stamp := interactions.Sign(testPriv, ts, body)
	r := httptest.NewRequest(http.MethodPost, "/interactions", bytes.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set(interactions.HeaderSignature, sig)
	r.Header.Set(interactions.HeaderTimestamp, stamp)
	return r
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}

// serve delivers v to h and returns the recorded answer.
func serve(t testing.TB, h http.Handler, v any, now time.Time) *httptest.ResponseRecorder {
	t.Helper()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, signed(t, mustJSON(t, v), now))
	return w
}

func newHandler(t testing.TB, c *guildkit.Client, opts ...interactions.Option) *interactions.Handler {
	t.Helper()
	h, err := interactions.NewHandler(hex.EncodeToString(testPub), c, opts...)
	require.NoError(t, err)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		require.NoError(t, h.Wait(ctx), "functions still running at the end of the test")
	})
	return h
}
