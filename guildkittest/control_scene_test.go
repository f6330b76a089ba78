package guildkittest_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

func eventNames(srv *guildkittest.Server) []guildkit.EventName {
	var out []guildkit.EventName
	for _, e := range srv.Events() {
		out = append(out, e.Name)
	}
	return out
}

// A moderator made from the control API alone: a role, a join, the role
// given; then taken, and the member leaves. Each step emits what the
// platform would.
func TestControlScene(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "g"})
	base := "api/guilds/" + g.ID.String()

	status, body := controlDo(t, srv, "POST", base+"/roles", `{"name": "Moderators", "permissions": "1099511627776", "color": 3447003}`)
	require.Equal(t, http.StatusCreated, status, string(body))
	var role guildkit.Role
	require.NoError(t, json.Unmarshal(body, &role))
	assert.Equal(t, "Moderators", role.Name)
	assert.Equal(t, guildkit.PermissionModerateMembers, role.Permissions)
	got, ok := srv.Role(g.ID, role.ID)
	require.True(t, ok)
	assert.Equal(t, 1, got.Position)

	status, body = controlDo(t, srv, "POST", base+"/members", `{"username": "mod"}`)
	require.Equal(t, http.StatusCreated, status, string(body))
	var m guildkit.Member
	require.NoError(t, json.Unmarshal(body, &m))
	assert.Equal(t, "mod", m.User.Username)
	uid := m.User.ID.String()

	status, body = controlDo(t, srv, "PUT", base+"/members/"+uid+"/roles/"+role.ID.String(), "")
	require.Equal(t, http.StatusNoContent, status, string(body))
	status, _ = controlDo(t, srv, "PUT", base+"/members/"+uid+"/roles/"+role.ID.String(), "")
	require.Equal(t, http.StatusNoContent, status, "giving a role twice is no error, and no event")
	assert.True(t, srv.Permissions(g.ID, m.User.ID).Has(guildkit.PermissionModerateMembers))

	status, _ = controlDo(t, srv, "DELETE", base+"/members/"+uid+"/roles/"+role.ID.String(), "")
	require.Equal(t, http.StatusNoContent, status)
	status, _ = controlDo(t, srv, "DELETE", base+"/members/"+uid, "")
	require.Equal(t, http.StatusNoContent, status)
	_, ok = srv.Member(g.ID, m.User.ID)
	assert.False(t, ok)

	status, body = controlDo(t, srv, "POST", base+"/members", `{"user_id": "`+uid+`"}`)
	require.Equal(t, http.StatusCreated, status, "a known user joins again: %s", body)

	assert.Equal(t, []guildkit.EventName{guildkit.EventGuildRoleCreate, guildkit.EventGuildMemberAdd, guildkit.EventGuildMemberUpdate,
		guildkit.EventGuildMemberUpdate, guildkit.EventGuildMemberRemove, guildkit.EventGuildMemberAdd}, eventNames(srv))
}

func TestControlSceneRefusals(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "g"})
	m := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "ada"}})
	base := "api/guilds/" + g.ID.String()
	uid := m.User.ID.String()
	for _, tc := range []struct {
		method, path, body string
		status             int
		says               string
	}{
		{"POST", base + "/roles", `{}`, 400, "name"},
		{"POST", base + "/roles", `{"name": "x", "color": -1}`, 400, "color"},
		{"POST", base + "/roles", `{"name": "x", "extra": 1}`, 400, "extra"},
		{"POST", "api/guilds/1/roles", `{"name": "x"}`, 404, "no guild"},
		{"POST", "api/guilds/nope/roles", `{"name": "x"}`, 400, "guild_id"},
		{"POST", base + "/members", `{}`, 400, "user_id"},
		{"POST", base + "/members", `{"user_id": "` + uid + `", "username": "b"}`, 400, "not both"},
		{"POST", base + "/members", `{"user_id": "` + uid + `"}`, 409, "already"},
		{"POST", base + "/members", `{"user_id": "5"}`, 404, "no user"},
		{"POST", base + "/members", `{"username": "x"}`, 400, "username"},
		{"DELETE", base + "/members/5", "", 404, "not a member"},
		{"DELETE", base + "/members/" + g.OwnerID.String(), "", 400, "owner"},
		{"PUT", base + "/members/" + uid + "/roles/5", "", 404, "no role"},
		{"PUT", base + "/members/" + uid + "/roles/" + g.ID.String(), "", 404, "@everyone"},
		{"PUT", base + "/members/5/roles/5", "", 404, "not a member"},
	} {
		status, body := controlDo(t, srv, tc.method, tc.path, tc.body)
		assert.Equal(t, tc.status, status, "%s %s %s: %s", tc.method, tc.path, tc.body, body)
		assert.Contains(t, string(body), tc.says, "%s %s %s", tc.method, tc.path, tc.body)
	}
	assert.Empty(t, srv.Events(), "nothing refused emits an event")
}

func TestSceneVerbs(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "g"})
	mods := srv.CreateRole(g.ID, guildkit.Role{Name: "Moderators", Permissions: guildkit.PermissionModerateMembers})
	ada := srv.JoinMember(g.ID, guildkit.User{Username: "ada"})
	srv.GiveRole(g.ID, ada.User.ID, mods.ID)
	assert.True(t, srv.Permissions(g.ID, ada.User.ID).Has(guildkit.PermissionModerateMembers))
	srv.TakeRole(g.ID, ada.User.ID, mods.ID)
	srv.TakeRole(g.ID, ada.User.ID, mods.ID) // not there: nothing
	srv.LeaveMember(g.ID, ada.User.ID)
	assert.Equal(t, []guildkit.EventName{guildkit.EventGuildRoleCreate, guildkit.EventGuildMemberAdd, guildkit.EventGuildMemberUpdate,
		guildkit.EventGuildMemberUpdate, guildkit.EventGuildMemberRemove}, eventNames(srv))
	assert.Panics(t, func() { srv.LeaveMember(g.ID, ada.User.ID) })
	assert.Panics(t, func() { srv.GiveRole(g.ID, g.OwnerID, 5) })
}
