package guildkittest_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// TestAttachmentURLServesTheFile: the URL of an uploaded attachment answers
// with the bytes and content type uploaded, as the reference platform's
// CDN does; an unknown one is 404.
func TestAttachmentURLServesTheFile(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "logs", Type: guildkit.ChannelTypeGuildText})
	w := srv.AddWebhook(ch.ID, "CI")
	c := srv.Client()
	msg, err := c.Webhooks.Execute(t.Context(), w.ID, w.Token, &guildkit.WebhookExecuteParams{
		Wait: guildkit.Some(true),
		Files: []guildkit.File{
			{Name: "build log.txt", ContentType: "text/plain; charset=utf-8", Reader: strings.NewReader("step 1 ok\nstep 2 ok\n")},
			{Name: "chart.png", ContentType: "image/png", Reader: strings.NewReader("\x89PNG\r\n\x1a\nnot really")},
		},
	})
	require.NoError(t, err)
	require.Len(t, msg.Attachments, 2)

	get := func(url string) (*http.Response, string) {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, url, nil)
		require.NoError(t, err)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp, string(b)
	}
	resp, body := get(msg.Attachments[0].URL)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "text/plain; charset=utf-8", resp.Header.Get("Content-Type"))
	assert.Equal(t, "step 1 ok\nstep 2 ok\n", body)
	assert.True(t, strings.HasSuffix(msg.Attachments[0].URL, "/build%20log.txt"), msg.Attachments[0].URL)

	resp, body = get(msg.Attachments[1].ProxyURL)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "image/png", resp.Header.Get("Content-Type"))
	assert.Equal(t, "\x89PNG\r\n\x1a\nnot really", body)

	resp, _ = get(srv.URL + "/attachments/1/2/missing.txt")
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
}
