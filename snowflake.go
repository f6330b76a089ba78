package guildkit

import "github.com/seed012df1e9/guildkit/wire"

// Snowflake is a 64-bit identifier: a JSON string on the wire (decoding also
// accepts a number), with the creation time in its top bits ([wire.Snowflake.Time]).
// The zero Snowflake means "no id"; methods reject it for a required path id.
// Its methods ([wire.Snowflake.IsZero], [wire.Snowflake.String], ...) are
// listed under package wire, whose type this is.
type Snowflake = wire.Snowflake

// ParseSnowflake parses the decimal form of a snowflake.
func ParseSnowflake(s string) (Snowflake, error) { return wire.ParseSnowflake(s) }

// SnowflakeFromTime returns the smallest snowflake created at t, for use as an
// "after" cursor.
var SnowflakeFromTime = wire.SnowflakeFromTime

// ChannelType is the kind of a channel (text, voice, category, thread, forum,
// ...). Its methods ([wire.ChannelType.String], [wire.ChannelType.Known],
// [wire.ChannelType.IsThread]) are listed under package wire.
type ChannelType = wire.ChannelType

// Channel types.
const (
	ChannelTypeGuildText          = wire.ChannelTypeGuildText
	ChannelTypeDM                 = wire.ChannelTypeDM
	ChannelTypeGuildVoice         = wire.ChannelTypeGuildVoice
	ChannelTypeGroupDM            = wire.ChannelTypeGroupDM
	ChannelTypeGuildCategory      = wire.ChannelTypeGuildCategory
	ChannelTypeGuildAnnouncement  = wire.ChannelTypeGuildAnnouncement
	ChannelTypeAnnouncementThread = wire.ChannelTypeAnnouncementThread
	ChannelTypePublicThread       = wire.ChannelTypePublicThread
	ChannelTypePrivateThread      = wire.ChannelTypePrivateThread
	ChannelTypeGuildStageVoice    = wire.ChannelTypeGuildStageVoice
	ChannelTypeGuildDirectory     = wire.ChannelTypeGuildDirectory
	ChannelTypeGuildForum         = wire.ChannelTypeGuildForum
	ChannelTypeGuildMedia         = wire.ChannelTypeGuildMedia
)
