package guildkit

import (
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWebhookUploadRetriedAfter429 executes a webhook with a file from an
// *os.File at the transport level (POST /webhooks/{webhook.id}/{webhook.token}
// with payload_json and files[0]). The first attempt meets a 429; the retry
// sends the file whole again, and the call succeeds.
func TestWebhookUploadRetriedAfter429(t *testing.T) {
	t.Parallel()
	const size = 8 << 20
	f, sum := bigFile(t, size)

	var mu sync.Mutex
	var attempts [][]receivedPart
	c := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		assert.Equal(t, "POST", r.Method)
		assert.Equal(t, "/webhooks/5/hook-token", r.URL.Path)
		assert.Empty(t, r.Header.Get("Authorization"), "webhook-token routes send no credential")
		parts := readParts(t, r) // the whole body, every attempt
		mu.Lock()
		attempts = append(attempts, parts)
		n := len(attempts)
		mu.Unlock()
		w.Header().Set("X-RateLimit-Bucket", "hook")
		w.Header().Set("X-RateLimit-Limit", "5")
		w.Header().Set("X-RateLimit-Reset-After", "0.050")
		if n == 1 {
			w.Header().Set("X-RateLimit-Remaining", "0")
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusTooManyRequests)
			w.Write([]byte(`{"message": "You are being rate limited.", "retry_after": 0.05, "global": false}`))
			return
		}
		w.Header().Set("X-RateLimit-Remaining", "4")
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"id": "77", "content": "report"}`))
	}))

	var msg struct {
		ID      string `json:"id"`
		Content string `json:"content"`
	}
	_, err := c.do(t.Context(), &request{
		method: "POST", route: "/webhooks/{webhook.id}/{webhook.token}", path: []any{Snowflake(5), "hook-token"},
		auth: authNone, body: map[string]any{"content": "report"},
		parts: []formPart{filePart("files[0]", File{Name: "report.bin", Reader: f})},
	}, &msg)
	require.NoError(t, err)
	assert.Equal(t, "77", msg.ID)

	mu.Lock()
	defer mu.Unlock()
	require.Len(t, attempts, 2, "one 429, one retry")
	for i, parts := range attempts {
		require.Len(t, parts, 2, "attempt %d", i+1)
		assert.Equal(t, "payload_json", parts[0].field)
		assert.JSONEq(t, `{"content":"report"}`, parts[0].small)
		assert.Equal(t, "files[0]", parts[1].field)
		assert.Equal(t, "report.bin", parts[1].filename)
		assert.Equal(t, int64(size), parts[1].size, "attempt %d sent the file whole", i+1)
		assert.Equal(t, sum, parts[1].sum, "attempt %d sent the file unchanged", i+1)
	}
}

// TestMajorParam: the bucket's major parameter is read from the route.
func TestMajorParam(t *testing.T) {
	t.Parallel()
	tests := []struct{ route, path, want string }{
		{"/guilds/{guild.id}", "/guilds/1", "1"},
		{"/guilds/{guild.id}/members/{user.id}", "/guilds/1/members/2", "1"},
		{"/channels/{channel.id}/invites", "/channels/9/invites", "9"},
		{"/webhooks/{webhook.id}/{webhook.token}", "/webhooks/5/tok", "5/tok"},
		{"/webhooks/{webhook.id}/{webhook.token}/messages/{message.id}", "/webhooks/5/tok/messages/3", "5/tok"},
		{"/webhooks/{webhook.id}", "/webhooks/5", "5"},
		{"/guilds/templates/{template.code}", "/guilds/templates/x", ""},
		{"/invites/{invite.code}", "/invites/abc", ""},
		{"/guilds", "/guilds", ""},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, majorParam(tt.route, tt.path), tt.route)
	}
}
