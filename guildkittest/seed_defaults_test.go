package guildkittest_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// withoutKeys decodes v's JSON and drops the keys that differ between two
// objects by nature (ids, names, positions, times).
func withoutKeys(t *testing.T, v any, keys ...string) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	for _, k := range keys {
		delete(m, k)
	}
	return m
}

// TestSeededObjectsHaveTheCreatedDefaults builds every kind of object a
// seed makes (and AddChannel/AddRole make) next to its twin created
// through the REST routes, and compares them field by field: a library
// reading a seeded object must find what it finds in a created one (a
// seeded voice channel once lacked bitrate and user_limit).
func TestSeededObjectsHaveTheCreatedDefaults(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "twins"})
	client := srv.Client()
	for _, typ := range []guildkit.ChannelType{
		guildkit.ChannelTypeGuildText, guildkit.ChannelTypeGuildVoice, guildkit.ChannelTypeGuildCategory,
		guildkit.ChannelTypeGuildAnnouncement, guildkit.ChannelTypeGuildStageVoice, guildkit.ChannelTypeGuildForum,
		guildkit.ChannelTypeGuildMedia,
	} {
		t.Run(typ.String(), func(t *testing.T) {
			seeded := srv.AddChannel(g.ID, guildkit.Channel{Name: "twin", Type: typ})
			created, err := client.Channels.Create(t.Context(), g.ID, &guildkit.ChannelCreateParams{Name: "twin", Type: guildkit.Some(typ)})
			require.NoError(t, err)
			assert.Equal(t, withoutKeys(t, created, "id", "position"), withoutKeys(t, seeded, "id", "position"))
			stored, ok := srv.Channel(g.ID, seeded.ID)
			require.True(t, ok)
			assert.Equal(t, withoutKeys(t, created, "id", "position"), withoutKeys(t, stored, "id", "position"), "as stored")
		})
	}
	t.Run("role", func(t *testing.T) {
		seeded := srv.AddRole(g.ID, guildkit.Role{Name: "twin"})
		created, err := client.Roles.Create(t.Context(), g.ID, &guildkit.RoleCreateParams{Name: guildkit.Some("twin"),
			Permissions: guildkit.Some(guildkit.Permissions(0))})
		require.NoError(t, err)
		assert.Equal(t, withoutKeys(t, created, "id", "position"), withoutKeys(t, seeded, "id", "position"))
	})
	t.Run("seed file", func(t *testing.T) {
		// The README's seed shape: a voice channel that names no bitrate.
		res := srv.ApplySeed(&guildkittest.Seed{Guilds: []guildkittest.SeedGuild{{
			Guild:    guildkit.Guild{Name: "seeded"},
			Channels: []guildkit.Channel{{Name: "Voice", Type: guildkit.ChannelTypeGuildVoice}},
		}}})
		chs := srv.Channels(res.Guilds[0].ID)
		require.Len(t, chs, 1)
		require.NotNil(t, chs[0].Bitrate)
		require.NotNil(t, chs[0].UserLimit)
		assert.Equal(t, 64000, *chs[0].Bitrate)
		assert.Equal(t, 0, *chs[0].UserLimit)
	})
}

func TestSeededMemberHasTheAddedDefaults(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "twins"})
	seeded := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "seeded"}})
	u := srv.AddUser(guildkit.User{Username: "added"})
	added, err := srv.Client().Members.Add(t.Context(), g.ID, u.ID, &guildkit.MemberAddParams{AccessToken: srv.NewAccessToken(u.ID)})
	require.NoError(t, err)
	require.NotNil(t, added.Member)
	stored, ok := srv.Member(g.ID, seeded.User.ID)
	require.True(t, ok)
	assert.Equal(t, withoutKeys(t, added.Member, "user", "joined_at"), withoutKeys(t, stored, "user", "joined_at"))
	assert.Equal(t, withoutKeys(t, added.Member.User, "id", "username"), withoutKeys(t, stored.User, "id", "username"))
}
