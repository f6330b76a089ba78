package guildkit_test

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
)

// Fault injection: an httptest server that misbehaves on purpose. Each case
// ends in a typed error or a correct retry, never a panic, and (TestMain's
// goleak) leaves no goroutine behind. A POST or PATCH is never repeated after
// a 5xx or a lost connection.

// resetConn closes the connection with a TCP reset, before any answer.
func resetConn(t *testing.T, w http.ResponseWriter) {
	t.Helper()
	conn, _, err := w.(http.Hijacker).Hijack()
	require.NoError(t, err)
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	conn.Close()
}

func TestFaultConnectionResetBeforeAnswer(t *testing.T) {
	t.Parallel()
	t.Run("GET is retried", func(t *testing.T) {
		t.Parallel()
		c, mux := setup(t)
		var calls atomic.Int32
		mux.HandleFunc("GET /guilds/{id}", func(w http.ResponseWriter, r *http.Request) {
			if calls.Add(1) <= 2 {
				resetConn(t, w)
				return
			}
			writeJSON(w, 200, map[string]any{"id": "1", "name": "ok"})
		})
		g, err := c.Guilds.Get(t.Context(), 1, nil)
		require.NoError(t, err)
		assert.Equal(t, "ok", g.Name)
		assert.Equal(t, int32(3), calls.Load())
	})
	for _, method := range []string{"POST", "PATCH"} {
		t.Run(method+" is not repeated", func(t *testing.T) {
			t.Parallel()
			c, mux := setup(t)
			var calls atomic.Int32
			mux.HandleFunc(method+" /things", func(w http.ResponseWriter, r *http.Request) {
				calls.Add(1)
				resetConn(t, w)
			})
			_, err := guildkit.ExportDo(c, t.Context(), method, "/things", map[string]string{"a": "b"}, nil)
			var re *guildkit.RequestError
			require.ErrorAs(t, err, &re)
			assert.Equal(t, "/things", re.Route)
			assert.Equal(t, int32(1), calls.Load())
		})
	}
}

func TestFaultConnectionResetDuringBody(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	mux.HandleFunc("GET /guilds/{id}", func(w http.ResponseWriter, r *http.Request) {
		conn, buf, err := w.(http.Hijacker).Hijack()
		require.NoError(t, err)
		defer conn.Close()
		fmt.Fprint(buf, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"id\":\"1\",\"na")
		buf.Flush()
		if tc, ok := conn.(*net.TCPConn); ok {
			_ = tc.SetLinger(0)
		}
	})
	_, err := c.Guilds.Get(t.Context(), 1, nil)
	var de *guildkit.DecodeError
	require.ErrorAs(t, err, &de, "a broken body is a decode error of a 200")
	assert.Equal(t, 200, de.Status)
}

func TestFaultServerErrorStorms(t *testing.T) {
	t.Parallel()
	for _, status := range []int{500, 502, 503, 504} {
		for _, method := range []string{"GET", "DELETE", "POST", "PATCH"} {
			t.Run(fmt.Sprint(status, method), func(t *testing.T) {
				t.Parallel()
				c, mux := setup(t)
				var calls atomic.Int32
				mux.HandleFunc(method+" /guilds/{id}/x", func(w http.ResponseWriter, r *http.Request) {
					calls.Add(1)
					writeJSON(w, status, map[string]any{"message": "storm", "code": 0})
				})
				var body any
				if method == "POST" || method == "PATCH" {
					body = map[string]string{"k": "v"}
				}
				_, err := guildkit.ExportDo(c, t.Context(), method, "/guilds/{guild.id}/x", body, nil, guildkit.Snowflake(1))
				var apiErr *guildkit.APIError
				require.ErrorAs(t, err, &apiErr)
				assert.Equal(t, status, apiErr.Status)
				assert.ErrorIs(t, err, guildkit.ErrServer)
				want := int32(1) // a 500 is not retried, nor is a POST or PATCH
				if status != 500 && (method == "GET" || method == "DELETE") {
					want = 4 // 1 attempt + 3 retries
				}
				assert.Equal(t, want, calls.Load())
			})
		}
	}
}

func TestFaultSlowHeadersBeyondDeadline(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	mux.HandleFunc("GET /guilds/{id}", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	})
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := c.Guilds.Get(ctx, 1, nil)
	var re *guildkit.RequestError
	require.ErrorAs(t, err, &re)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Less(t, time.Since(start), 5*time.Second)
}

func TestFaultTruncatedJSON(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	mux.HandleFunc("GET /guilds/{id}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"id":"1","name":"trunc`))
	})
	_, err := c.Guilds.Get(t.Context(), 1, nil)
	var de *guildkit.DecodeError
	require.ErrorAs(t, err, &de)
	assert.Equal(t, "/guilds/{guild.id}", de.Route)
}

func TestFaultHTMLErrorPage(t *testing.T) {
	t.Parallel()
	const page = "<html><body><h1>403 Forbidden</h1>nginx</body></html>"
	c, mux := setup(t)
	var calls atomic.Int32
	mux.HandleFunc("GET /guilds/{id}", func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(403)
		w.Write([]byte(page))
	})
	_, err := c.Guilds.Get(t.Context(), 1, nil)
	var apiErr *guildkit.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.ErrorIs(t, err, guildkit.ErrForbidden)
	assert.Equal(t, "Forbidden", apiErr.Message)
	assert.Equal(t, page, string(apiErr.Body))
	assert.Equal(t, int32(1), calls.Load())
}

// TestFault429WithHTMLBody: a proxy's HTML 429 is a rate limit: waited out
// (Retry-After) and retried, never a decode error.
func TestFault429WithHTMLBody(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	var calls atomic.Int32
	mux.HandleFunc("POST /things", func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(429)
			w.Write([]byte("<html><h1>429 Too Many Requests</h1></html>"))
			return
		}
		writeJSON(w, 200, map[string]any{"ok": true})
	})
	var out map[string]any
	_, err := guildkit.ExportDo(c, t.Context(), "POST", "/things", map[string]any{}, &out)
	require.NoError(t, err)
	assert.Equal(t, true, out["ok"])
	assert.Equal(t, int32(2), calls.Load())
}

func TestFaultHugeBody(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	var written atomic.Int64
	mux.HandleFunc("GET /guilds/{id}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"id":"1","name":"`))
		chunk := bytes.Repeat([]byte("x"), 1<<20)
		for range 100 { // 100 MiB
			n, err := w.Write(chunk)
			written.Add(int64(n))
			if err != nil {
				return
			}
		}
		w.Write([]byte(`"}`))
	})
	_, err := c.Guilds.Get(t.Context(), 1, nil)
	var de *guildkit.DecodeError
	require.ErrorAs(t, err, &de)
	assert.Contains(t, err.Error(), "larger than")
	c2 := written.Load()
	assert.Less(t, c2, int64(100<<20), "the client stopped reading")
}

func TestFaultBadRetryAfter(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, value string
		want        time.Duration
		reason      string
	}{
		{"not a number", "soon", time.Second, "deadline"},
		{"negative", "-5", time.Second, "deadline"},
		{"NaN", "NaN", time.Second, "deadline"},
		{"huge", "99999999999999", 24 * time.Hour, "longer than the client accepts"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, mux := setup(t)
			var calls atomic.Int32
			mux.HandleFunc("GET /guilds/{id}", func(w http.ResponseWriter, r *http.Request) {
				calls.Add(1)
				w.Header().Set("Retry-After", tt.value)
				w.WriteHeader(429)
			})
			// A deadline shorter than the default one-second wait shows the
			// wait the client chose without sleeping through it.
			ctx, cancel := context.WithTimeout(t.Context(), 500*time.Millisecond)
			defer cancel()
			_, err := c.Guilds.Get(ctx, 1, nil)
			var rl *guildkit.RateLimitError
			require.ErrorAs(t, err, &rl)
			assert.Equal(t, tt.want, rl.RetryAfter)
			assert.Contains(t, rl.Reason, tt.reason)
			assert.Equal(t, int32(1), calls.Load())
		})
	}
	t.Run("invalid then retried after the default wait", func(t *testing.T) {
		t.Parallel()
		c, mux := setup(t)
		var calls atomic.Int32
		mux.HandleFunc("GET /guilds/{id}", func(w http.ResponseWriter, r *http.Request) {
			if calls.Add(1) == 1 {
				w.Header().Set("Retry-After", "later")
				w.WriteHeader(429)
				return
			}
			writeJSON(w, 200, map[string]any{"id": "1"})
		})
		_, err := c.Guilds.Get(t.Context(), 1, nil)
		require.NoError(t, err)
		assert.Equal(t, int32(2), calls.Load())
	})
}

// TestFaultNegativeResetAfter: a negative X-RateLimit-Reset-After is not a
// wait: the bucket falls back to the platform's one-second window instead of
// waiting forever or not at all, and a 429 carrying one waits the default.
func TestFaultNegativeResetAfter(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	var calls atomic.Int32
	mux.HandleFunc("GET /guilds/{id}", func(w http.ResponseWriter, r *http.Request) {
		n := calls.Add(1)
		w.Header().Set("X-RateLimit-Bucket", "neg")
		w.Header().Set("X-RateLimit-Limit", "1")
		w.Header().Set("X-RateLimit-Remaining", "0")
		w.Header().Set("X-RateLimit-Reset-After", "-5")
		if n == 2 {
			w.WriteHeader(429)
			return
		}
		writeJSON(w, 200, map[string]any{"id": "1"})
	})
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	for range 2 {
		_, err := c.Guilds.Get(ctx, 1, nil)
		require.NoError(t, err)
	}
	assert.Equal(t, int32(3), calls.Load(), "the 429 was retried once")
}

// TestFaultGlobal429Storm: for 300 ms every request gets a global 429 with
// no bucket header; the client pauses everything each time, retries, and
// every call ends well, a POST included (a 429 means it was not processed).
func TestFaultGlobal429Storm(t *testing.T) {
	t.Parallel()
	c, mux := setup(t, guildkit.WithRetry(12, time.Millisecond, 20*time.Millisecond))
	var once sync.Once
	var start time.Time
	var limited, served atomic.Int32
	storm := func(w http.ResponseWriter) bool {
		once.Do(func() { start = time.Now() })
		if time.Since(start) < 300*time.Millisecond {
			limited.Add(1)
			w.Header().Set("X-RateLimit-Global", "true")
			w.Header().Set("X-RateLimit-Scope", "global")
			writeJSON(w, 429, map[string]any{"message": "You are being rate limited.", "retry_after": 0.05, "global": true})
			return true
		}
		served.Add(1)
		return false
	}
	var mu sync.Mutex
	mux.HandleFunc("GET /guilds/{id}", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if !storm(w) {
			writeJSON(w, 200, map[string]any{"id": r.PathValue("id")})
		}
	})
	mux.HandleFunc("POST /guilds/{id}/things", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if !storm(w) {
			writeJSON(w, 200, map[string]any{"ok": true})
		}
	})
	errs := runConcurrent(10, 20, func(i int) error {
		if i%5 == 0 {
			_, err := guildkit.ExportDo(c, t.Context(), "POST", "/guilds/{guild.id}/things", map[string]int{"i": i}, nil, guildkit.Snowflake(100+i))
			return err
		}
		_, err := c.Guilds.Get(t.Context(), guildkit.Snowflake(100+i), nil)
		return err
	})
	requireNoErrors(t, errs)
	assert.Equal(t, int32(20), served.Load())
	// Without the global pause each of the 10 workers would retry on its
	// own; with it they retry in about six rounds of at most ten.
	assert.LessOrEqual(t, limited.Load(), int32(80))
}
