package guildkittest_test

import (
	"bufio"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// TestMalformedBodiesAreClientErrors sends every operation of the spec
// bodies of the wrong shape (not JSON, null, an array, an object of wrong
// types, a truncated object) with real ids in the path. The server must
// answer each with a 4xx of the interface's shape (or a 2xx where the body is
// ignored), never a 5xx or a dropped connection: a handler that panics or
// trusts its input would show here. Reading operations get malformed query
// strings instead.
func TestMalformedBodiesAreClientErrors(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "robust"})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	member := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "m"}})
	role := srv.AddRole(g.ID, guildkit.Role{Name: "r"})
	inv := srv.AddInvite(g.ID, ch.ID, guildkit.Invite{})
	hook := srv.AddWebhook(ch.ID, "hook")
	integration := srv.AddIntegration(g.ID, guildkit.Integration{Name: "i", Type: guildkit.IntegrationTypeYouTube})
	values := map[string]string{
		"{guild.id}": g.ID.String(), "{channel.id}": ch.ID.String(), "{user.id}": member.User.ID.String(),
		"{role.id}": role.ID.String(), "{invite.code}": inv.Code, "{webhook.id}": hook.ID.String(),
		"{webhook.token}": hook.Token, "{message.id}": "1", "{integration.id}": integration.ID.String(),
	}
	bodies := []string{`not json`, `null`, `[1,2]`, `{"name": 5, "roles": "x", "user_ids": {}, "content": [], "flags": "a", "position": {}}`, `{"name":`, `[{"id": "x", "position": "y"}]`}

	f, err := os.Open(filepath.Join("..", "testdata", "operations.txt"))
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, "\t")
		method, route := parts[1], parts[2]
		path := route
		for k, v := range values {
			path = strings.ReplaceAll(path, k, v)
		}
		if method == http.MethodGet || method == http.MethodDelete {
			// Queries of the wrong shape instead.
			for _, q := range []string{"limit=abc&after=x&before=-1", "with_counts=maybe&days=0&include_roles=a,,b", "limit=100000&query=&thread_id=zz&style=nope"} {
				req, err := http.NewRequest(method, srv.BaseURL()+path+"?"+q, nil)
				require.NoError(t, err)
				req.Header.Set("Authorization", "Bot "+srv.Token())
				resp, err := http.DefaultClient.Do(req)
				require.NoError(t, err, "%s %s?%s: the connection must survive", method, route, q)
				resp.Body.Close()
				assert.Less(t, resp.StatusCode, 500, "%s %s?%s", method, route, q)
				n++
			}
			continue
		}
		for _, body := range bodies {
			req, err := http.NewRequest(method, srv.BaseURL()+path, strings.NewReader(body))
			require.NoError(t, err)
			req.Header.Set("Authorization", "Bot "+srv.Token())
			req.Header.Set("Content-Type", "application/json")
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err, "%s %s with %q: the connection must survive", method, route, body)
			resp.Body.Close()
			assert.Less(t, resp.StatusCode, 500, "%s %s with %q", method, route, body)
			n++
		}
	}
	require.NoError(t, sc.Err())
	assert.Greater(t, n, 100)
}
