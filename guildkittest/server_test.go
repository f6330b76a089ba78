package guildkittest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestPermissionsFromRoles(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	owner := srv.AddUser(guildkit.User{Username: "owner"})
	g := srv.AddGuild(guildkit.Guild{Name: "perm", OwnerID: owner.ID, Roles: []guildkit.Role{
		{ID: 0, Name: "@everyone"},
	}})
	admin := srv.AddRole(g.ID, guildkit.Role{Name: "admin", Permissions: guildkit.PermissionAdministrator})
	mod := srv.AddRole(g.ID, guildkit.Role{Name: "mod", Permissions: guildkit.PermissionKickMembers})
	a := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "a"}, Roles: []guildkit.Snowflake{admin.ID}})
	m := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "m"}, Roles: []guildkit.Snowflake{mod.ID}})
	plain := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "p"}})
	outsider := srv.AddUser(guildkit.User{Username: "x"})

	all := guildkit.Permissions(1<<47 - 1 | 0x1F<<48)
	assert.Equal(t, all, srv.Permissions(g.ID, owner.ID), "the owner holds every permission the platform defines")
	assert.Equal(t, all, srv.Permissions(g.ID, a.User.ID), "ADMINISTRATOR holds everything")
	assert.Equal(t, guildkittest.DefaultEveryonePermissions|guildkit.PermissionKickMembers, srv.Permissions(g.ID, m.User.ID), "@everyone OR the member's roles")
	assert.Equal(t, guildkittest.DefaultEveryonePermissions, srv.Permissions(g.ID, plain.User.ID))
	assert.Zero(t, srv.Permissions(g.ID, outsider.ID))
}

func TestServesUnderAPIPrefixAndRoot(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "prefix"})
	for _, base := range []string{srv.URL, srv.BaseURL()} {
		req, err := http.NewRequest("GET", base+"/guilds/"+g.ID.String(), nil)
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bot "+srv.Token())
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, 200, resp.StatusCode, base)
	}
	reqs := srv.Requests()
	require.Len(t, reqs, 2)
	for _, r := range reqs {
		assert.Equal(t, "/guilds/{guild.id}", r.Route)
		assert.Equal(t, "/guilds/"+g.ID.String(), r.Path)
	}
}

func TestUnknownRouteIs404WithErrorBody(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	resp, err := http.Get(srv.BaseURL() + "/nothing/here")
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, 404, resp.StatusCode)
	assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
	req, ok := srv.LastRequest()
	require.True(t, ok)
	assert.Equal(t, "", req.Route)
	assert.Equal(t, 404, req.Status)
}

func TestUnauthorized(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{})
	for _, auth := range []string{"", "Bot nope", "Basic " + srv.Token(), srv.Token()} {
		req, _ := http.NewRequestWithContext(t.Context(), "GET", srv.BaseURL()+"/guilds/"+g.ID.String(), nil)
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, 401, resp.StatusCode, "Authorization %q", auth)
	}
}

func TestInviteSeeding(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "inv"})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	inv := srv.AddInvite(g.ID, ch.ID, guildkit.Invite{})
	assert.NotEmpty(t, inv.Code)
	require.NotNil(t, inv.Guild)
	assert.Equal(t, g.ID, inv.Guild.ID)
	assert.Equal(t, ch.ID, inv.Channel.ID)
	assert.Equal(t, srv.BotID(), inv.Inviter.ID)
	assert.True(t, inv.HasMetadata())
	assert.True(t, inv.ExpiresAt.IsNull())
	got, ok := srv.Invite(inv.Code)
	require.True(t, ok)
	assert.Equal(t, inv.Code, got.Code)
}
