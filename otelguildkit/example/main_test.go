package main

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// The example, run against the in-memory server, prints one span for the
// retried Get Guild with an event per attempt (503, then 200) under the
// parent span, and one for List Roles.
func TestExamplePrintsTheSpanTreeOfARetriedCall(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out, func(string) string { return "" }))
	// Times vary; everything else is fixed.
	got := regexp.MustCompile(`\((at \+)?[0-9.]+(µs|ms|s)\)`).ReplaceAllString(out.String(), "(T)")
	got = regexp.MustCompile(`major_parameter = \d+`).ReplaceAllString(got, "major_parameter = ID")
	assert.Equal(t, `GUILDKIT_TOKEN is not set: running against the in-memory server, whose first Get Guild answers 503
guild "Gopher Guild", roles: 1

show guild (T)
├─ GET /guilds/{guild.id} [client] status 200, attempts 2 (T)
│    url.template = /guilds/{guild.id}
│    server.address = 127.0.0.1
│    guildkit.major_parameter = ID
│    http.request.resend_count = 1
│  ├─ event attempt 1: status 503, error.type 503 (T)
│  └─ event attempt 2: status 200 (T)
└─ GET /guilds/{guild.id}/roles [client] status 200, attempts 1 (T)
     url.template = /guilds/{guild.id}/roles
     server.address = 127.0.0.1
     guildkit.major_parameter = ID
   └─ event attempt 1: status 200 (T)
`, got)
}

// With a token the program calls the deployment the environment names (here
// a guildkittest server reached over HTTP, which fails nothing, so every
// call takes one attempt).
func TestExampleWithToken(t *testing.T) {
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "Remote"})
	env := map[string]string{"GUILDKIT_TOKEN": srv.Token(), "GUILDKIT_BASE_URL": srv.BaseURL(), "GUILDKIT_GUILD_ID": g.ID.String()}
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out, func(k string) string { return env[k] }))
	assert.True(t, strings.HasPrefix(out.String(), "guild \"Remote\", roles: 1\n\nshow guild ("), out.String())
	assert.Contains(t, out.String(), "├─ GET /guilds/{guild.id} [client] status 200, attempts 1 (")
	assert.Contains(t, out.String(), "└─ GET /guilds/{guild.id}/roles [client] status 200, attempts 1 (")
	assert.NotContains(t, out.String(), "503")
}
