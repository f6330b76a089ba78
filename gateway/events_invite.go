package gateway

import "github.com/seed012df1e9/guildkit"

// InviteCreate is INVITE_CREATE (intent GUILD_INVITES): an invite was made
// (Get Guild Widget with an invite channel, or a user's invite). Only a bot
// with MANAGE_CHANNELS on the invite's channel receives it.
//
// The invite arrives with its metadata (Uses, always 0, MaxUses, MaxAge,
// Temporary, CreatedAt) and GuildID, Inviter, the targets and ExpiresAt as
// they apply; it has no Guild or Channel object, but ChannelID, and the
// roles given on acceptance as RoleIDs.
type InviteCreate struct {
	guildkit.Invite
	ChannelID guildkit.Snowflake `json:"channel_id"`
	// RoleIDs are the roles given on acceptance.
	RoleIDs []guildkit.Snowflake `json:"role_ids,omitzero"`
}

// EventName returns "INVITE_CREATE".
func (*InviteCreate) EventName() string { return "INVITE_CREATE" }

// InviteDelete is INVITE_DELETE (intent GUILD_INVITES): an invite was
// deleted (Delete Invite) or expired. Only a bot with MANAGE_CHANNELS on the
// invite's channel receives it.
type InviteDelete struct {
	guildkit.InviteDeleteEvent
}

// EventName returns "INVITE_DELETE".
func (*InviteDelete) EventName() string { return "INVITE_DELETE" }
