package statebench

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"
)

// The stream every cache is fed: GUILD_CREATE payloads of guilds of
// members, every nullable field set (nickname, guild avatar and banner,
// premium_since, a timeout, avatar decorations; the user's global name,
// avatar, banner, accent colour), a presence per member with an activity,
// 20 roles, 30 channels with overwrites, 10 emojis per guild. Each user is
// a member of two guilds (share users per guild pair), as users of a bot
// are members of several of its guilds.

const (
	rolesPerGuild    = 20
	channelsPerGuild = 30
)

func hash(n int) string { return fmt.Sprintf("%032x", uint64(n)*0x9e3779b97f4a7c15) }

func id(n int) string { return strconv.FormatUint(uint64(n)+1<<50, 10) }

// guildCreate returns the GUILD_CREATE d of guild g (0-based) with members
// members, whose users are numbered so that guilds 2k and 2k+1 share them
// when shared is true.
func guildCreate(g, members int, shared bool) []byte {
	gid := id(1_000_000_000 + g)
	base := g * members
	if shared {
		base = (g / 2) * members
	}
	t := time.Date(2024, 1, 2, 3, 4, 5, 123456000, time.UTC)
	roles := make([]any, rolesPerGuild)
	for i := range roles {
		rid := id(2_000_000_000 + g*rolesPerGuild + i)
		if i == 0 {
			rid = gid
		}
		roles[i] = map[string]any{"id": rid, "name": "role " + strconv.Itoa(i), "color": i * 1000,
			"colors": map[string]any{"primary_color": i * 1000, "secondary_color": nil, "tertiary_color": nil},
			"hoist":  i%2 == 0, "icon": nil, "unicode_emoji": nil, "position": i, "permissions": "1071698660929",
			"managed": false, "mentionable": true, "flags": 0}
	}
	channels := make([]any, channelsPerGuild)
	for i := range channels {
		channels[i] = map[string]any{"id": id(3_000_000_000 + g*channelsPerGuild + i), "type": 0, "guild_id": gid,
			"name": "channel-" + strconv.Itoa(i), "position": i, "topic": "the topic of channel " + strconv.Itoa(i),
			"nsfw": false, "rate_limit_per_user": 0, "parent_id": nil, "last_message_id": id(9_000_000_000 + i),
			"permission_overwrites": []any{
				map[string]any{"id": gid, "type": 0, "allow": "0", "deny": "2048"},
				map[string]any{"id": id(2_000_000_000 + g*rolesPerGuild + 1 + i%(rolesPerGuild-1)), "type": 0, "allow": "2048", "deny": "0"},
			}}
	}
	emojis := make([]any, 10)
	for i := range emojis {
		emojis[i] = map[string]any{"id": id(4_000_000_000 + g*10 + i), "name": "emoji" + strconv.Itoa(i), "roles": []any{},
			"require_colons": true, "managed": false, "animated": false, "available": true}
	}
	ms := make([]any, members)
	ps := make([]any, members)
	for i := range ms {
		u := base + i
		uid := id(u)
		r1 := id(2_000_000_000 + g*rolesPerGuild + 1 + u%7)
		r2 := id(2_000_000_000 + g*rolesPerGuild + 8 + u%5)
		r3 := id(2_000_000_000 + g*rolesPerGuild + 13 + u%3)
		ms[i] = map[string]any{
			"user": map[string]any{"id": uid, "username": "user" + strconv.Itoa(u), "global_name": "User " + strconv.Itoa(u),
				"discriminator": "0", "avatar": hash(u), "banner": hash(u + 1), "accent_color": u % 0xFFFFFF,
				"public_flags": 64, "bot": false, "avatar_decoration_data": map[string]any{"asset": "a_" + hash(u%40), "sku_id": id(5_000 + u%40)}},
			"nick": "nick" + strconv.Itoa(u), "avatar": hash(u + 2), "banner": hash(u + 3),
			"roles": []string{r1, r2, r3}, "joined_at": t.Add(time.Duration(u) * time.Minute).Format(time.RFC3339Nano),
			"premium_since": t.Format(time.RFC3339Nano), "deaf": false, "mute": false, "flags": 0, "pending": false,
			"communication_disabled_until": t.Add(24 * time.Hour).Format(time.RFC3339Nano),
			"avatar_decoration_data":       map[string]any{"asset": "a_" + hash(u%40), "sku_id": id(5_000 + u%40)},
		}
		ps[i] = map[string]any{"user": map[string]any{"id": uid}, "status": "online",
			"client_status": map[string]any{"desktop": "online"},
			"activities": []any{map[string]any{"name": "Game " + strconv.Itoa(u%50), "type": 0, "created_at": 1700000000000,
				"state": "In a match", "details": "Ranked", "timestamps": map[string]any{"start": 1700000000000}}}}
	}
	d := map[string]any{
		"id": gid, "name": "guild " + strconv.Itoa(g), "icon": hash(g), "splash": nil, "discovery_splash": nil,
		"owner_id": id(base), "afk_channel_id": nil, "afk_timeout": 300, "verification_level": 1,
		"default_message_notifications": 0, "explicit_content_filter": 0, "roles": roles, "emojis": emojis,
		"features": []string{"COMMUNITY", "NEWS"}, "mfa_level": 0, "application_id": nil, "system_channel_id": nil,
		"system_channel_flags": 0, "rules_channel_id": nil, "vanity_url_code": nil, "description": "a guild",
		"banner": nil, "premium_tier": 0, "preferred_locale": "en-US", "public_updates_channel_id": nil,
		"nsfw_level": 0, "premium_progress_bar_enabled": false, "safety_alerts_channel_id": nil, "stickers": []any{},
		"joined_at": t.Format(time.RFC3339Nano), "large": true, "unavailable": false, "member_count": members,
		"voice_states": []any{}, "members": ms, "channels": channels, "threads": []any{}, "presences": ps,
		"stage_instances": []any{}, "guild_scheduled_events": []any{}, "soundboard_sounds": []any{},
	}
	b, err := json.Marshal(d)
	if err != nil {
		panic(err)
	}
	return b
}
