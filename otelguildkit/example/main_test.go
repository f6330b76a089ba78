package main

import (
	"bytes"
	"context"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
