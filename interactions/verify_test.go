package interactions_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit/interactions"
)

// TestVerificationRefusals: each way a delivery can fail verification is
// answered 401 and reaches no function.
func TestVerificationRefusals(t *testing.T) {
	t.Parallel()
	_, c := newRESTServer(t)
	var logs bytes.Buffer
	h := newHandler(t, c, interactions.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	called := false
	h.HandleFallback(func(ctx context.Context, r *interactions.Request) error { called = true; return nil })
	body := mustJSON(t, componentInteraction("go"))
	now := time.Now()

	cases := map[string]func(r *http.Request){
		"missing signature": func(r *http.Request) { r.Header.Del(interactions.HeaderSignature) },
		"missing timestamp": func(r *http.Request) { r.Header.Del(interactions.HeaderTimestamp) },
		"bad signature": func(r *http.Request) {
			sig := []byte(r.Header.Get(interactions.HeaderSignature))
			sig[10] ^= 1 // still hexadecimal
			if sig[10] > 'f' || (sig[10] > '9' && sig[10] < 'a') {
				sig[10] = '0'
			}
			r.Header.Set(interactions.HeaderSignature, string(sig))
		},
		"signature not hexadecimal": func(r *http.Request) {
			r.Header.Set(interactions.HeaderSignature, strings.Repeat("zz", 64))
		},
		"signature too short": func(r *http.Request) { r.Header.Set(interactions.HeaderSignature, "abcd") },
		"altered timestamp": func(r *http.Request) {
			r.Header.Set(interactions.HeaderTimestamp, strconv.FormatInt(now.Unix()+1, 10))
		},
		"altered body": func(r *http.Request) {
			altered := bytes.Replace(body, []byte(`"go"`), []byte(`"no"`), 1)
			r.Body = http.NoBody
			*r = *httptest.NewRequest(http.MethodPost, "/interactions", bytes.NewReader(altered)).WithContext(r.Context())
			r.Header.Set(interactions.HeaderSignature, sigOf(t, body, now))
			r.Header.Set(interactions.HeaderTimestamp, strconv.FormatInt(now.Unix(), 10))
		},
		"signed by another key": func(r *http.Request) {
			other := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{9}, ed25519.SeedSize))
			sig, _ := interactions.Sign(other, now, body)
			r.Header.Set(interactions.HeaderSignature, sig)
		},
	}
	for name, mutate := range cases {
		t.Run(name, func(t *testing.T) {
			r := signed(t, body, now)
			mutate(r)
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			assert.Equal(t, http.StatusUnauthorized, w.Code)
			assert.NotContains(t, w.Body.String(), "ed25519", "the refusal reveals nothing")
		})
	}
	t.Run("stale timestamp", func(t *testing.T) {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, signed(t, body, now.Add(-interactions.DefaultReplayWindow-time.Minute)))
		assert.Equal(t, http.StatusUnauthorized, w.Code)
	})
	t.Run("timestamp in the future", func(t *testing.T) {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, signed(t, body, now.Add(interactions.DefaultReplayWindow+time.Minute)))
		assert.Equal(t, http.StatusUnauthorized, w.Code)
	})
	assert.False(t, called, "no refused delivery reaches a function")
	assert.NotContains(t, logs.String(), testToken)
}

func sigOf(t *testing.T, body []byte, ts time.Time) string {
	t.Helper()
	sig, _ := interactions.Sign(testPriv, ts, body)
	return sig
}

func TestMalformedKeyIsRefusedAtConstruction(t *testing.T) {
	t.Parallel()
	_, c := newRESTServer(t)
	for name, key := range map[string]string{
		"empty":           "",
		"not hexadecimal": strings.Repeat("g", 64),
		"too short":       hex.EncodeToString(testPub[:31]),
		"too long":        hex.EncodeToString(append(append([]byte{}, testPub...), 0)),
	} {
		t.Run(name, func(t *testing.T) {
			h, err := interactions.NewHandler(key, c)
			assert.Nil(t, h)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "public key")
		})
	}
	_, err := interactions.NewHandler(hex.EncodeToString(testPub), nil)
	assert.ErrorContains(t, err, "guildkit.Client")
	h, err := interactions.NewHandler(" "+strings.ToUpper(hex.EncodeToString(testPub))+"\n", c)
	assert.NoError(t, err, "a key pasted with spaces or in capitals is still the key")
	assert.NotNil(t, h)
}

// TestRequestLimits: the method check comes first, bodies are bounded,
// and a signed body that is not an interaction is a 400.
func TestRequestLimits(t *testing.T) {
	t.Parallel()
	_, c := newRESTServer(t)
	h := newHandler(t, c, interactions.WithMaxBody(4096))
	for _, m := range []string{http.MethodGet, http.MethodPut, http.MethodHead, http.MethodDelete} {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(m, "/interactions", nil))
		assert.Equal(t, http.StatusMethodNotAllowed, w.Code, m)
		assert.Equal(t, http.MethodPost, w.Header().Get("Allow"), m)
	}
	big := bytes.Repeat([]byte("x"), 5000)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, signed(t, big, time.Now()))
	assert.Equal(t, http.StatusRequestEntityTooLarge, w.Code, "declared length over the bound")
	r := signed(t, big, time.Now())
	r.ContentLength = -1 // chunked: the bound is met while reading
	w = httptest.NewRecorder()
	h.ServeHTTP(w, r)
	assert.Equal(t, http.StatusRequestEntityTooLarge, w.Code, "read past the bound")

	for name, body := range map[string]string{
		"not JSON":       "hello",
		"trailing bytes": `{"type":1} x`,
		"wrong type":     `{"type":"one"}`,
		"unknown type":   `{"type":42,"id":"1","token":"t"}`,
		"no token":       `{"type":3,"id":"1","data":{"custom_id":"a","component_type":2}}`,
	} {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, signed(t, []byte(body), time.Now()))
		assert.Equal(t, http.StatusBadRequest, w.Code, name)
	}
}

// TestPingIsAnsweredWithPong: the platform's check of the endpoint, a
// signed PING, gets {"type":1} from the Handler itself.
func TestPingIsAnsweredWithPong(t *testing.T) {
	t.Parallel()
	rs, c := newRESTServer(t)
	h := newHandler(t, c)
	w := serve(t, h, map[string]any{"id": "1", "application_id": "2", "type": 1, "token": testToken, "version": 1}, time.Now())
	assert.Equal(t, http.StatusOK, w.Code)
	assert.Equal(t, "application/json", w.Header().Get("Content-Type"))
	assert.JSONEq(t, `{"type":1}`, w.Body.String())
	assert.Empty(t, rs.Calls(), "a PING needs no REST call")
}

// TestReplayWindowUsesTheClock: the window is measured on the Handler's
// clock, and WithReplayWindow(0) turns it off.
func TestReplayWindowUsesTheClock(t *testing.T) {
	t.Parallel()
	_, c := newRESTServer(t)
	clock := newManualClock()
	ping := mustJSON(t, map[string]any{"id": "1", "application_id": "2", "type": 1, "token": "t"})
	h := newHandler(t, c, interactions.WithClock(clock), interactions.WithReplayWindow(time.Minute))
	w := httptest.NewRecorder()
	h.ServeHTTP(w, signed(t, ping, clock.Now()))
	assert.Equal(t, http.StatusOK, w.Code)
	old := clock.Now()
	clock.Advance(2 * time.Minute)
	w = httptest.NewRecorder()
	h.ServeHTTP(w, signed(t, ping, old))
	assert.Equal(t, http.StatusUnauthorized, w.Code, "replayed two minutes later")

	off := newHandler(t, c, interactions.WithReplayWindow(0))
	w = httptest.NewRecorder()
	off.ServeHTTP(w, signed(t, ping, time.Unix(1000, 0)))
	assert.Equal(t, http.StatusOK, w.Code)

	_, err := interactions.NewHandler(hex.EncodeToString(testPub), c, interactions.WithDeadline(3*time.Second))
	assert.Error(t, err, "a deadline of 3s leaves no time for the answer")
}
