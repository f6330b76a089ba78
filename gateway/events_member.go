package gateway

import "github.com/seed012df1e9/guildkit"

// GuildMemberAdd is GUILD_MEMBER_ADD (intent GUILD_MEMBERS, privileged): a
// user joined the guild (Add Guild Member, an invite accepted); it may also
// be sent for someone already a member. Member.User is set, and
// Member.Pending is true while a screening guild's rules are not accepted.
type GuildMemberAdd struct {
	guildkit.Member
	GuildID guildkit.Snowflake `json:"guild_id"`
}

// EventName returns "GUILD_MEMBER_ADD".
func (*GuildMemberAdd) EventName() string { return "GUILD_MEMBER_ADD" }

// GuildMemberUpdate is GUILD_MEMBER_UPDATE (intent GUILD_MEMBERS,
// privileged; the bot's own update arrives without it): a member or the
// member's user changed (Modify Guild Member, Modify Current Member, Add or
// Remove Guild Member Role, screening completed). The member is whole, not a
// difference: Roles lists every role it now has. JoinedAt may be nil.
type GuildMemberUpdate struct {
	guildkit.Member
	GuildID guildkit.Snowflake `json:"guild_id"`
}

// EventName returns "GUILD_MEMBER_UPDATE".
func (*GuildMemberUpdate) EventName() string { return "GUILD_MEMBER_UPDATE" }

// GuildMemberRemove is GUILD_MEMBER_REMOVE (intent GUILD_MEMBERS,
// privileged): a user left, was kicked (Remove Guild Member, one per member
// pruned by Begin Guild Prune) or was banned (then a GUILD_BAN_ADD comes
// too).
type GuildMemberRemove struct {
	GuildID guildkit.Snowflake `json:"guild_id"`
	User    guildkit.User      `json:"user"`
}

// EventName returns "GUILD_MEMBER_REMOVE".
func (*GuildMemberRemove) EventName() string { return "GUILD_MEMBER_REMOVE" }

// GuildMembersChunk is GUILD_MEMBERS_CHUNK: one part of the answer to a
// Request Guild Members (op 8), at most 1,000 members each, ChunkIndex from
// 0 to ChunkCount-1. No intent gates it (asking for the whole list needs
// the privileged GUILD_MEMBERS; presences need GUILD_PRESENCES).
type GuildMembersChunk struct {
	GuildID    guildkit.Snowflake `json:"guild_id"`
	Members    []guildkit.Member  `json:"members"`
	ChunkIndex int                `json:"chunk_index"`
	ChunkCount int                `json:"chunk_count"`
	// NotFound are the requested user ids that are not members.
	NotFound []guildkit.Snowflake `json:"not_found,omitzero"`
	// Presences are the members' presences, when the request asked for them.
	Presences []guildkit.Presence `json:"presences,omitzero"`
	// Nonce is the request's nonce, echoed.
	Nonce string `json:"nonce,omitempty"`
}

// EventName returns "GUILD_MEMBERS_CHUNK".
func (*GuildMembersChunk) EventName() string { return "GUILD_MEMBERS_CHUNK" }

// GuildBanAdd is GUILD_BAN_ADD (intent GUILD_MODERATION): a user was banned
// (Create Guild Ban). Only a bot with BAN_MEMBERS or VIEW_AUDIT_LOG in the
// guild receives it. The ban's reason is not in the event: read it with
// [guildkit.BanService.Get].
type GuildBanAdd struct {
	GuildID guildkit.Snowflake `json:"guild_id"`
	User    guildkit.User      `json:"user"`
}

// EventName returns "GUILD_BAN_ADD".
func (*GuildBanAdd) EventName() string { return "GUILD_BAN_ADD" }

// GuildBanRemove is GUILD_BAN_REMOVE (intent GUILD_MODERATION): a user was
// unbanned (Remove Guild Ban). Only a bot with BAN_MEMBERS or VIEW_AUDIT_LOG
// in the guild receives it.
type GuildBanRemove struct {
	GuildID guildkit.Snowflake `json:"guild_id"`
	User    guildkit.User      `json:"user"`
}

// EventName returns "GUILD_BAN_REMOVE".
func (*GuildBanRemove) EventName() string { return "GUILD_BAN_REMOVE" }
