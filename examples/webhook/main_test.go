package main

import (
	"bytes"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// runMain runs the program's main with its standard output captured.
func runMain(t *testing.T) string {
	t.Helper()
	r, w, err := os.Pipe()
	require.NoError(t, err)
	stdout := os.Stdout
	os.Stdout = w
	defer func() { os.Stdout = stdout }()
	var buf bytes.Buffer
	done := make(chan struct{})
	go func() {
		_, _ = io.Copy(&buf, r)
		close(done)
	}()
	main()
	w.Close()
	<-done
	return buf.String()
}

var ids = regexp.MustCompile(`\d{15,20}`)

func TestWebhookInMemory(t *testing.T) {
	t.Setenv("GUILDKIT_WEBHOOK_URL", "")
	out := ids.ReplaceAllString(runMain(t), "ID")
	assert.True(t, strings.HasPrefix(out, "GUILDKIT_WEBHOOK_URL is not set: running against the in-memory server\n"), out)
	assert.Contains(t, out, "posted message ID\n")
	assert.Contains(t, out, "posted the log as build.log (41 bytes), shown by a File component\n")
	assert.Contains(t, out, "refused before sending: guildkit: invalid request: files[0]:")
	assert.Contains(t, out, "deleted both messages\n")
	assert.NotContains(t, out, "error")
}

// With a URL, the program posts to the webhook it names (here on a
// guildkittest server reached over HTTP), and never prints its token.
func TestWebhookWithURL(t *testing.T) {
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "Remote"})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "builds", Type: guildkit.ChannelTypeGuildText})
	hook := srv.AddWebhook(ch.ID, "CI")
	t.Setenv("GUILDKIT_WEBHOOK_URL", srv.BaseURL()+"/webhooks/"+hook.ID.String()+"/"+hook.Token)
	before := len(srv.Requests())
	out := runMain(t)
	assert.NotContains(t, out, "in-memory")
	assert.NotContains(t, out, hook.Token)
	assert.Contains(t, out, "deleted both messages\n")
	var posted int
	for _, r := range srv.Requests()[before:] {
		if r.Method == "POST" && r.Route == "/webhooks/{webhook.id}/{webhook.token}" {
			posted++
		}
	}
	assert.Positive(t, posted, "the program posted through the server")
}
