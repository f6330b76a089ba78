package guildkittest

import (
	"encoding/json"

	"github.com/seed012df1e9/guildkit"
)

// intentBits names the documented intents, by bit.
var intentBits = []struct {
	bit  uint64
	name string
}{
	{1 << 0, "GUILDS"}, {1 << 1, "GUILD_MEMBERS"}, {1 << 2, "GUILD_MODERATION"}, {1 << 3, "GUILD_EXPRESSIONS"},
	{1 << 4, "GUILD_INTEGRATIONS"}, {1 << 5, "GUILD_WEBHOOKS"}, {1 << 6, "GUILD_INVITES"}, {1 << 7, "GUILD_VOICE_STATES"},
	{1 << 8, "GUILD_PRESENCES"}, {1 << 9, "GUILD_MESSAGES"}, {1 << 10, "GUILD_MESSAGE_REACTIONS"},
	{1 << 11, "GUILD_MESSAGE_TYPING"}, {1 << 12, "DIRECT_MESSAGES"}, {1 << 13, "DIRECT_MESSAGE_REACTIONS"},
	{1 << 14, "DIRECT_MESSAGE_TYPING"}, {1 << 15, "MESSAGE_CONTENT"}, {1 << 16, "GUILD_SCHEDULED_EVENTS"},
	{1 << 20, "AUTO_MODERATION_CONFIGURATION"}, {1 << 21, "AUTO_MODERATION_EXECUTION"},
	{1 << 24, "GUILD_MESSAGE_POLLS"}, {1 << 25, "DIRECT_MESSAGE_POLLS"},
}

// intentNames lists the names of the bits set in intents.
func intentNames(intents uint64) []string {
	out := []string{}
	for _, ib := range intentBits {
		if intents&ib.bit != 0 {
			out = append(out, ib.name)
		}
	}
	return out
}

const (
	intentGuilds            = 1 << 0
	intentGuildModeration   = 1 << 2
	intentGuildIntegrations = 1 << 4
	intentGuildWebhooks     = 1 << 5
	intentGuildInvites      = 1 << 6
	intentGuildMessages     = 1 << 9
	intentDirectMessages    = 1 << 12
)

// mustJSON encodes v as the server answers it (shaped).
func mustJSON(v any) []byte {
	b, err := json.Marshal(withShapes(v))
	if err != nil {
		return []byte("null")
	}
	return b
}

// objectWith encodes v (an object) with extra keys set and def keys set
// when absent.
func objectWith(v any, extra, def map[string]any) []byte {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(mustJSON(v), &m); err != nil || m == nil {
		m = map[string]json.RawMessage{}
	}
	for k, x := range extra {
		m[k], _ = json.Marshal(x)
	}
	for k, x := range def {
		if _, ok := m[k]; !ok {
			m[k], _ = json.Marshal(x)
		}
	}
	b, _ := json.Marshal(m)
	return b
}

// userObject is a user as events carry it: id, username, discriminator,
// avatar always present.
func userObject(u guildkit.User) json.RawMessage {
	return objectWith(u, nil, map[string]any{"avatar": nil, "discriminator": "0", "global_name": nil})
}

// readyLocked builds READY's d: the union of the fields the strictest
// libraries require (spec §3.5's safe READY). The caller holds s.mu and
// the hub's mu.
func (s *Server) readyLocked(sess *gwSession, guilds []*guildState, resumeURL string, appFlags int) []byte {
	bot := guildkit.User{ID: s.bot, Username: "guildkit-bot", Discriminator: "0", Bot: true}
	if u, ok := s.users[s.bot]; ok {
		bot = *u
	}
	user := objectWith(bot, map[string]any{"bot": true}, map[string]any{
		"avatar": nil, "global_name": nil, "mfa_enabled": false, "verified": true, "flags": 0, "email": nil,
	})
	unavailable := make([]map[string]any, 0, len(guilds))
	for _, g := range guilds {
		unavailable = append(unavailable, map[string]any{"id": g.guild.ID, "unavailable": true})
	}
	v := 10
	if sess.version == "9" {
		v = 9
	}
	d := map[string]any{
		"v":                   v,
		"user":                json.RawMessage(user),
		"guilds":              unavailable,
		"session_id":          sess.id,
		"resume_gateway_url":  resumeURL,
		"application":         map[string]any{"id": s.appID(), "flags": appFlags},
		"private_channels":    []any{},
		"presences":           []any{},
		"relationships":       []any{},
		"guild_join_requests": []any{},
		"_trace":              []string{"guildkittest"},
	}
	if sess.shardSent {
		d["shard"] = []int{sess.shardID, sess.numShards}
	}
	b, _ := json.Marshal(d)
	return b
}

// guildCreateLocked builds GUILD_CREATE's d for gs as sess sees it: the
// guild with every field §3.6 lists, "unavailable": false among them
// (discord.js keeps a guild READY listed unavailable unless it reads
// that). Members: without GUILD_PRESENCES only the bot and members in
// voice; with it, every member of a guild up to large_threshold, else
// those online, holding a role or a nickname, or in voice. The caller
// holds s.mu.
func (s *Server) guildCreateLocked(gs *guildState, sess *gwSession) []byte {
	g := s.guildJSON(gs)
	total := len(gs.members)
	large := total > sess.largeThreshold
	presencesIntent := sess.intents&intentGuildPresences != 0
	members := []guildkit.Member{}
	presences := []map[string]any{}
	voice := []map[string]any{}
	for _, ms := range gs.sortedMembers() {
		m := ms.member
		if m.User == nil {
			continue
		}
		inVoice := ms.voiceChannel != 0
		var listed bool
		switch {
		case m.User.ID == s.bot || inVoice:
			listed = true
		case !presencesIntent || total > 75000:
			listed = false
		case !large:
			listed = true
		default:
			listed = ms.online || len(m.Roles) > 0 || m.Nick != nil
		}
		if !listed {
			continue
		}
		members = append(members, copyMember(m))
		if presencesIntent && (ms.online || m.User.ID == s.bot) {
			presences = append(presences, map[string]any{
				"user": map[string]any{"id": m.User.ID}, "status": "online", "activities": []any{},
				"client_status": map[string]any{"desktop": "online"},
			})
		}
		if inVoice {
			voice = append(voice, map[string]any{
				"channel_id": ms.voiceChannel, "user_id": m.User.ID, "session_id": m.User.ID.String(),
				"deaf": m.Deaf, "mute": m.Mute, "self_deaf": false, "self_mute": false, "self_video": false,
				"self_stream": false, "suppress": false, "request_to_speak_timestamp": nil,
			})
		}
	}
	channels := gs.sortedChannels()
	for i := range channels {
		channels[i].GuildID = gs.guild.ID
	}
	threads := []guildkit.Channel{}
	for _, ch := range sortedByID(gs.channels) {
		if ch.Type.IsThread() && (ch.ThreadMetadata == nil || !ch.ThreadMetadata.Archived) {
			t := copyChannel(*ch)
			t.GuildID = gs.guild.ID
			threads = append(threads, t)
		}
	}
	events := []guildkit.GuildScheduledEvent{}
	for _, e := range sortedByID(s.inv.events) {
		if e.GuildID == gs.guild.ID {
			events = append(events, *e)
		}
	}
	var joinedAt any
	if bm, ok := gs.members[s.bot]; ok && bm.member.JoinedAt != nil {
		joinedAt = bm.member.JoinedAt.UTC()
	}
	// The guild's own lists (roles, emojis, stickers) come shaped with it,
	// [] when empty (fillGuild).
	return objectWith(g, map[string]any{
		"joined_at":              joinedAt,
		"large":                  large,
		"unavailable":            false,
		"member_count":           total,
		"members":                withShapes(members),
		"channels":               withShapes(channels),
		"threads":                withShapes(threads),
		"presences":              presences,
		"voice_states":           voice,
		"stage_instances":        []any{},
		"guild_scheduled_events": withShapes(events),
		"soundboard_sounds":      []any{},
		"embedded_activities":    []any{},
		"activity_instances":     []any{},
	}, nil)
}

func nonNil[T any](v []T) []T {
	if v == nil {
		return []T{}
	}
	return v
}
