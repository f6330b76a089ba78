package guildkit_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
)

// basePath is where setup mounts the fake API, so that a method that builds
// an absolute path instead of one relative to the base URL is caught.
const basePath = "/api/v10"

// testToken is the bot token setup's client sends.
const testToken = "test-bot-token.XyZ"

// setup starts an httptest server and returns a client pointed at it and the
// mux to register handlers on, in go-github's style. Requests outside
// basePath fail the test.
func setup(t *testing.T, opts ...guildkit.Option) (*guildkit.Client, *http.ServeMux) {
	t.Helper()
	mux := http.NewServeMux()
	root := http.NewServeMux()
	root.Handle(basePath+"/", http.StripPrefix(basePath, mux))
	root.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("request outside the base path: %s %s", r.Method, r.URL.Path)
		http.Error(w, "outside base path", http.StatusBadGateway)
	})
	srv := httptest.NewServer(root)
	t.Cleanup(srv.Close)
	base := []guildkit.Option{
		guildkit.WithBaseURL(srv.URL + basePath),
		guildkit.WithRetry(3, time.Millisecond, 20*time.Millisecond),
	}
	c, err := guildkit.New(guildkit.BotToken(testToken), append(base, opts...)...)
	require.NoError(t, err)
	return c, mux
}

func testMethod(t *testing.T, r *http.Request, want string) {
	t.Helper()
	assert.Equal(t, want, r.Method, "method")
}

func testQuery(t *testing.T, r *http.Request, want url.Values) {
	t.Helper()
	got := r.URL.Query()
	if len(want) == 0 {
		assert.Empty(t, got, "query")
		return
	}
	assert.Equal(t, want, got, "query")
}

func testHeader(t *testing.T, r *http.Request, key, want string) {
	t.Helper()
	assert.Equal(t, want, r.Header.Get(key), "header %s", key)
}

// testJSONBody asserts the request body equals want as JSON: keys absent from
// want must be absent from the body, and null must be null.
func testJSONBody(t *testing.T, r *http.Request, want string) {
	t.Helper()
	b, err := io.ReadAll(r.Body)
	require.NoError(t, err)
	assert.JSONEq(t, want, string(b), "body")
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// newServer serves mux under basePath and returns the base URL.
func newServer(t *testing.T, mux *http.ServeMux) string {
	t.Helper()
	root := http.NewServeMux()
	root.Handle(basePath+"/", http.StripPrefix(basePath, mux))
	srv := httptest.NewServer(root)
	t.Cleanup(srv.Close)
	return srv.URL + basePath
}

// ptr returns a pointer to v, for response fields that are pointers.
func ptr[T any](v T) *T { return &v }
