package guildkit

// ChannelService handles the operations on guild channels and threads. Reach it through
// [Client].Channels.
type ChannelService service

// Channel is a guild channel or thread. The interface names the fields it
// uses; the rest are the reference platform's.
type Channel struct {
	ID                   Snowflake             `json:"id"`
	Type                 ChannelType           `json:"type"`
	GuildID              Snowflake             `json:"guild_id,omitempty"`
	Position             int                   `json:"position"`
	PermissionOverwrites []PermissionOverwrite `json:"permission_overwrites,omitzero"`
	Name                 string                `json:"name"`
	Topic                *string               `json:"topic,omitempty"`
	NSFW                 bool                  `json:"nsfw,omitempty"`
	Bitrate              int                   `json:"bitrate,omitempty"`
	UserLimit            int                   `json:"user_limit,omitempty"`
	RateLimitPerUser     int                   `json:"rate_limit_per_user,omitempty"`
	ParentID             *Snowflake            `json:"parent_id,omitempty"`
	RTCRegion            *string               `json:"rtc_region,omitempty"`
}

// PermissionOverwrite allows or denies permissions in a channel for a role
// (Type 0) or a member (Type 1).
type PermissionOverwrite struct {
	ID    Snowflake   `json:"id"`
	Type  int         `json:"type"`
	Allow Permissions `json:"allow"`
	Deny  Permissions `json:"deny"`
}
