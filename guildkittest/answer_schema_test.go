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

// getJSON calls the server as the bot and decodes the answer as raw
// fields.
func getJSON(t *testing.T, srv *guildkittest.Server, path string, out any) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.BaseURL()+path, nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bot "+srv.Token())
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.NoError(t, json.NewDecoder(resp.Body).Decode(out))
}

// TestExternalIntegrationAnswersWithUser: a twitch or youtube integration
// carries the user who connected it and its sync fields, as the
// platform's published schema requires; a bot integration has no user.
func TestExternalIntegrationAnswersWithUser(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	owner := srv.AddUser(guildkit.User{Username: "streamer"})
	g := srv.AddGuild(guildkit.Guild{Name: "streams", OwnerID: owner.ID})
	srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{ID: srv.BotID()}, Roles: []guildkit.Snowflake{
		srv.AddRole(g.ID, guildkit.Role{Name: "manager", Permissions: guildkit.PermissionManageGuild}).ID}})
	other := srv.AddUser(guildkit.User{Username: "editor"})
	tw := srv.AddIntegration(g.ID, guildkit.Integration{Name: "tw", Type: guildkit.IntegrationTypeTwitch})
	yt := srv.AddIntegration(g.ID, guildkit.Integration{Name: "yt", Type: guildkit.IntegrationTypeYouTube, User: &other})
	bot := srv.AddIntegration(g.ID, guildkit.Integration{Name: "bot", Type: guildkit.IntegrationTypeBot})

	var list []map[string]json.RawMessage
	getJSON(t, srv, "/guilds/"+g.ID.String()+"/integrations", &list)
	byID := map[string]map[string]json.RawMessage{}
	for _, in := range list {
		var id string
		require.NoError(t, json.Unmarshal(in["id"], &id))
		byID[id] = in
	}
	for _, tc := range []struct {
		id   guildkit.Snowflake
		user guildkit.Snowflake
	}{{tw.ID, owner.ID}, {yt.ID, other.ID}} {
		in := byID[tc.id.String()]
		require.NotNil(t, in, "integration %s listed", tc.id)
		for _, k := range []string{"type", "name", "account", "enabled", "id", "user", "syncing", "synced_at", "subscriber_count",
			"revoked", "expire_behavior", "expire_grace_period"} {
			assert.Contains(t, in, k, "integration %s", tc.id)
		}
		var u guildkit.User
		require.NoError(t, json.Unmarshal(in["user"], &u))
		assert.Equal(t, tc.user, u.ID)
	}
	assert.Contains(t, byID[tw.ID.String()], "enable_emoticons", "twitch only")
	assert.NotContains(t, byID[yt.ID.String()], "enable_emoticons", "twitch only")
	assert.NotContains(t, byID[bot.ID.String()], "user")
	assert.NotContains(t, byID[bot.ID.String()], "syncing", "not for bots")
}

// TestInviteCarriesWholeScheduledEvent: Get Invite with
// guild_scheduled_event_id carries every field of the scheduled-event
// object the platform's published schema requires, nullable ones as null.
func TestInviteCarriesWholeScheduledEvent(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "events"})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	creator := srv.AddUser(guildkit.User{Username: "host"})
	ev := srv.AddScheduledEvent(g.ID, guildkit.GuildScheduledEvent{Name: "launch", CreatorID: &creator.ID})
	inv := srv.AddInvite(g.ID, ch.ID, guildkit.Invite{})

	var raw struct {
		Event map[string]json.RawMessage `json:"guild_scheduled_event"`
	}
	getJSON(t, srv, "/invites/"+inv.Code+"?guild_scheduled_event_id="+ev.ID.String(), &raw)
	require.NotNil(t, raw.Event)
	for _, k := range []string{"id", "guild_id", "name", "description", "channel_id", "creator_id", "image", "scheduled_start_time",
		"scheduled_end_time", "status", "entity_type", "entity_id", "recurrence_rule", "privacy_level", "guild_scheduled_event_exceptions"} {
		assert.Contains(t, raw.Event, k)
	}
	assert.JSONEq(t, "null", string(raw.Event["recurrence_rule"]))
	assert.JSONEq(t, "[]", string(raw.Event["guild_scheduled_event_exceptions"]))
	assert.JSONEq(t, "null", string(raw.Event["description"]))
	var who guildkit.User
	require.NoError(t, json.Unmarshal(raw.Event["creator"], &who))
	assert.Equal(t, creator.ID, who.ID)

	// The SDK reads it into its own type.
	got, err := srv.Client().Invites.Get(t.Context(), inv.Code, &guildkit.InviteGetParams{GuildScheduledEventID: guildkit.Some(ev.ID)})
	require.NoError(t, err)
	require.NotNil(t, got.GuildScheduledEvent)
	assert.Equal(t, "launch", got.GuildScheduledEvent.Name)

	// Without the parameter, or with another guild's event, there is none.
	var bare map[string]json.RawMessage
	getJSON(t, srv, "/invites/"+inv.Code, &bare)
	assert.NotContains(t, bare, "guild_scheduled_event")
}
