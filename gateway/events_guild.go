package gateway

import (
	"time"

	"github.com/seed012df1e9/guildkit"
)

// GuildCreate is GUILD_CREATE (intent GUILDS), sent to fill in each guild
// READY listed as unavailable, when an unavailable guild comes back, and when
// the bot joins a guild. During an outage it is only {id, unavailable: true}:
// then Unavailable is true and nothing but ID is set.
//
// Which members it lists depends on intents: without the privileged
// GUILD_PRESENCES (or in a guild over 75,000 members) only the bot itself
// and members in voice; otherwise every member of a small guild, and in a
// large one those online, holding a role or a nickname, or in voice. The
// rest come from [Shard.RequestGuildMembers] (op 8), as GUILD_MEMBERS_CHUNK.
type GuildCreate struct {
	guildkit.Guild
	// JoinedAt is when the bot joined the guild.
	JoinedAt time.Time `json:"joined_at"`
	// Large is whether the guild has more members than IDENTIFY's
	// large_threshold.
	Large bool `json:"large"`
	// Unavailable is true only during an outage.
	Unavailable bool `json:"unavailable"`
	// MemberCount is the guild's total number of members.
	MemberCount int `json:"member_count"`
	// VoiceStates are the members in voice, without their guild id.
	VoiceStates []guildkit.VoiceState `json:"voice_states"`
	// Members are the members listed (see above).
	Members []guildkit.Member `json:"members"`
	// Channels are the guild's channels; the platform may leave out their
	// guild id, which the decoding fills in.
	Channels []guildkit.Channel `json:"channels"`
	// Threads are the active threads the bot can see (guild id filled in as
	// for Channels).
	Threads []guildkit.Channel `json:"threads"`
	// Presences are partial presences of the members listed (privileged
	// GUILD_PRESENCES); in a large guild only those not offline.
	Presences []guildkit.Presence `json:"presences"`
	// StageInstances are the guild's live stages.
	StageInstances []guildkit.StageInstance `json:"stage_instances"`
	// GuildScheduledEvents are the guild's scheduled events.
	GuildScheduledEvents []guildkit.GuildScheduledEvent `json:"guild_scheduled_events"`
	// SoundboardSounds are the guild's soundboard sounds.
	SoundboardSounds []guildkit.SoundboardSound `json:"soundboard_sounds"`
}

// EventName returns "GUILD_CREATE".
func (*GuildCreate) EventName() string { return "GUILD_CREATE" }

// GuildUpdate is GUILD_UPDATE (intent GUILDS): a guild setting changed
// (Modify Guild, Modify Guild Widget, Modify Guild Welcome Screen). It is
// the guild object, without GUILD_CREATE's extras.
type GuildUpdate struct {
	guildkit.Guild
}

// EventName returns "GUILD_UPDATE".
func (*GuildUpdate) EventName() string { return "GUILD_UPDATE" }

// GuildDelete is GUILD_DELETE (intent GUILDS): a guild went offline
// (Unavailable true) or the bot left it or was removed (Unavailable false).
type GuildDelete struct {
	ID          guildkit.Snowflake `json:"id"`
	Unavailable bool               `json:"unavailable"` // false when the field is absent: the bot left
}

// EventName returns "GUILD_DELETE".
func (*GuildDelete) EventName() string { return "GUILD_DELETE" }

// ChannelCreate is CHANNEL_CREATE (intent GUILDS): a guild channel the bot
// can see was created (Create Guild Channel).
type ChannelCreate struct {
	guildkit.Channel
}

// EventName returns "CHANNEL_CREATE".
func (*ChannelCreate) EventName() string { return "CHANNEL_CREATE" }

// ChannelUpdate is CHANNEL_UPDATE (intent GUILDS): a channel changed (one
// per channel moved by Modify Guild Channel Positions). It is not sent when
// only last_message_id changes, and its overwrites may name roles or members
// that no longer exist.
type ChannelUpdate struct {
	guildkit.Channel
}

// EventName returns "CHANNEL_UPDATE".
func (*ChannelUpdate) EventName() string { return "CHANNEL_UPDATE" }

// ChannelDelete is CHANNEL_DELETE (intent GUILDS): a channel the bot could
// see was deleted.
type ChannelDelete struct {
	guildkit.Channel
}

// EventName returns "CHANNEL_DELETE".
func (*ChannelDelete) EventName() string { return "CHANNEL_DELETE" }

// GuildRoleCreate is GUILD_ROLE_CREATE (intent GUILDS): Create Guild Role.
type GuildRoleCreate struct {
	GuildID guildkit.Snowflake `json:"guild_id"`
	Role    guildkit.Role      `json:"role"`
}

// EventName returns "GUILD_ROLE_CREATE".
func (*GuildRoleCreate) EventName() string { return "GUILD_ROLE_CREATE" }

// GuildRoleUpdate is GUILD_ROLE_UPDATE (intent GUILDS): Modify Guild Role,
// and one per role moved by Modify Guild Role Positions.
type GuildRoleUpdate struct {
	GuildID guildkit.Snowflake `json:"guild_id"`
	Role    guildkit.Role      `json:"role"`
}

// EventName returns "GUILD_ROLE_UPDATE".
func (*GuildRoleUpdate) EventName() string { return "GUILD_ROLE_UPDATE" }

// GuildRoleDelete is GUILD_ROLE_DELETE (intent GUILDS): Delete Guild Role.
type GuildRoleDelete struct {
	GuildID guildkit.Snowflake `json:"guild_id"`
	RoleID  guildkit.Snowflake `json:"role_id"`
}

// EventName returns "GUILD_ROLE_DELETE".
func (*GuildRoleDelete) EventName() string { return "GUILD_ROLE_DELETE" }
