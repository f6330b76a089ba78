package state_test

import (
	"errors"
	"testing"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/gateway"
	"github.com/seed012df1e9/guildkit/state"
)

func raw(name, data string) *gateway.RawEvent {
	return &gateway.RawEvent{Name: name, Data: []byte(data)}
}

// TestEventsTheGatewayDeliversRaw: the events the gateway package has no
// type for (threads, presences, voice states, expressions, the bot's user,
// pins, voice channel status) reach the cache decoded by Updates.
func TestEventsTheGatewayDeliversRaw(t *testing.T) {
	p := state.DefaultPolicies()
	p.Members, p.Presences, p.VoiceStates = state.All(), state.All(), state.All()
	c := state.NewCache(&state.Options{Policies: &p})
	g, members, channels := workedExample()
	apply(t, c, &gateway.Ready{User: guildkit.User{ID: 1, Username: "bot"}, Guilds: []guildkit.UnavailableGuild{{ID: 100}}})
	apply(t, c, &gateway.GuildCreate{Guild: *g, Members: members, Channels: channels, MemberCount: len(members)})

	apply(t, c, raw("THREAD_CREATE", `{"id":"400","type":11,"guild_id":"100","parent_id":"300","name":"t","thread_metadata":{"archived":false,"auto_archive_duration":60,"archive_timestamp":"2026-01-01T00:00:00Z","locked":true}}`))
	if th, err := c.Channel(400); err != nil || !th.Locked || th.ParentID != 300 || !th.IsThread() {
		t.Errorf("THREAD_CREATE: %+v, %v", th, err)
	}
	apply(t, c, raw("THREAD_LIST_SYNC", `{"guild_id":"100","channel_ids":["300"],"threads":[{"id":"401","type":11,"parent_id":"300","name":"u"}]}`))
	if _, err := c.Channel(400); !errors.Is(err, state.ErrNotFound) {
		t.Errorf("THREAD_LIST_SYNC kept thread 400: %v", err)
	}
	if th, err := c.Channel(401); err != nil || th.GuildID != 100 {
		t.Errorf("THREAD_LIST_SYNC: %+v, %v", th, err)
	}
	apply(t, c, raw("THREAD_DELETE", `{"id":"401","guild_id":"100","parent_id":"300","type":11}`))
	if _, err := c.Channel(401); !errors.Is(err, state.ErrNotFound) {
		t.Errorf("THREAD_DELETE: %v", err)
	}

	apply(t, c, raw("PRESENCE_UPDATE", `{"user":{"id":"11","username":"alice2"},"guild_id":"100","status":"dnd","activities":[{"name":"Go","type":0}],"client_status":{"mobile":"dnd"}}`))
	if pr, err := c.Presence(100, 11); err != nil || pr.Status != "dnd" || pr.ClientStatus.Mobile != "dnd" || pr.Activities.Len() != 1 || pr.Activities.At(0).Name != "Go" {
		t.Errorf("PRESENCE_UPDATE: %+v, %v", pr, err)
	}
	if m, _ := c.Member(100, 11); m.User.Username != "alice2" {
		t.Errorf("the presence's user fields are not merged: %q", m.User.Username)
	}
	apply(t, c, raw("PRESENCE_UPDATE", `{"user":{"id":"11"},"guild_id":"100","status":"offline","activities":[],"client_status":{}}`))
	if _, err := c.Presence(100, 11); !errors.Is(err, state.ErrNotFound) {
		t.Errorf("offline presence kept: %v", err)
	}

	apply(t, c, raw("VOICE_STATE_UPDATE", `{"guild_id":"100","channel_id":"300","user_id":"12","session_id":"s","deaf":false,"mute":true,"self_deaf":false,"self_mute":false,"self_video":false,"suppress":false,"request_to_speak_timestamp":null}`))
	if vs, err := c.VoiceState(100, 12); err != nil || vs.ChannelID != 300 || !vs.Mute {
		t.Errorf("VOICE_STATE_UPDATE: %+v, %v", vs, err)
	}
	apply(t, c, raw("VOICE_STATE_UPDATE", `{"guild_id":"100","channel_id":null,"user_id":"12","session_id":"s","deaf":false,"mute":false,"self_deaf":false,"self_mute":false,"self_video":false,"suppress":false,"request_to_speak_timestamp":null}`))
	if _, err := c.VoiceState(100, 12); !errors.Is(err, state.ErrNotFound) {
		t.Errorf("a voice leave kept the state: %v", err)
	}

	apply(t, c, raw("GUILD_EMOJIS_UPDATE", `{"guild_id":"100","emojis":[{"id":"500","name":"gopher","roles":["201"],"animated":true}]}`))
	if e, err := c.Emoji(100, 500); err != nil || e.Name != "gopher" || !e.Animated || !e.Roles.Has(201) {
		t.Errorf("GUILD_EMOJIS_UPDATE: %+v, %v", e, err)
	}
	apply(t, c, raw("GUILD_STICKERS_UPDATE", `{"guild_id":"100","stickers":[{"id":"600","name":"wave","description":null,"tags":"wave","type":2,"format_type":1}]}`))
	if s, err := c.Sticker(100, 600); err != nil || s.Name != "wave" {
		t.Errorf("GUILD_STICKERS_UPDATE: %+v, %v", s, err)
	}
	apply(t, c, raw("USER_UPDATE", `{"id":"1","username":"renamed"}`))
	if me, _ := c.CurrentUser(); me.Username != "renamed" {
		t.Errorf("USER_UPDATE: %+v", me)
	}
	apply(t, c, raw("CHANNEL_PINS_UPDATE", `{"guild_id":"100","channel_id":"300","last_pin_timestamp":"2026-02-03T04:05:06Z"}`))
	if ch, _ := c.Channel(300); !ch.LastPinTimestamp.Equal(time.Date(2026, 2, 3, 4, 5, 6, 0, time.UTC)) {
		t.Errorf("CHANNEL_PINS_UPDATE: %v", ch.LastPinTimestamp)
	}
	apply(t, c, raw("VOICE_CHANNEL_STATUS_UPDATE", `{"id":"302","guild_id":"100","status":"live"}`))
	if ch, _ := c.Channel(302); ch.Status != "live" {
		t.Errorf("VOICE_CHANNEL_STATUS_UPDATE: %q", ch.Status)
	}
	if _, err := state.Updates([2]int{0, 1}, raw("PRESENCE_UPDATE", `{"user":`)); err == nil {
		t.Error("a body that does not decode is not an error")
	}
}

// TestOutageKeepsTheGuildStale: GUILD_DELETE unavailable keeps the guild
// and reads report ErrStale with the last values; GUILD_CREATE makes it
// fresh; GUILD_DELETE without unavailable drops it with what is under it.
func TestOutageKeepsTheGuildStale(t *testing.T) {
	c := filled(t)
	apply(t, c, &gateway.GuildDelete{ID: 100, Unavailable: true})
	g, err := c.Guild(100)
	if !errors.Is(err, state.ErrStale) || !g.Unavailable || g.Name != "worked" {
		t.Errorf("during the outage: %+v, %v", g, err)
	}
	if m, err := c.Member(100, 11); !errors.Is(err, state.ErrStale) || m.User.ID != 11 {
		t.Errorf("member during the outage: %v", err)
	}
	if p, err := c.MemberPermissionsIn(300, 11); !errors.Is(err, state.ErrStale) || p != 126016 {
		t.Errorf("permissions during the outage: %d, %v", p, err)
	}
	wg, members, channels := workedExample()
	apply(t, c, &gateway.GuildCreate{Guild: *wg, Members: members, Channels: channels, MemberCount: len(members)})
	if _, err := c.Guild(100); err != nil {
		t.Errorf("after the outage: %v", err)
	}
	apply(t, c, &gateway.GuildDelete{ID: 100})
	if _, err := c.Guild(100); !errors.Is(err, state.ErrNotFound) {
		t.Errorf("left guild: %v", err)
	}
	if _, err := c.Channel(300); !errors.Is(err, state.ErrNotFound) {
		t.Errorf("left guild's channel: %v", err)
	}
	if st := c.Stats(); st.Users != 0 || st.Members != 0 {
		t.Errorf("left guild's members or users kept: %+v", st)
	}
}
