package wire

import "strconv"

// ChannelType is the kind of a channel.
type ChannelType int

// Channel types of the reference platform. The interface's documents name
// text, voice, announcement, stage, forum and media channels and threads; the
// values are the platform's.
const (
	ChannelTypeGuildText          ChannelType = 0
	ChannelTypeDM                 ChannelType = 1
	ChannelTypeGuildVoice         ChannelType = 2
	ChannelTypeGroupDM            ChannelType = 3
	ChannelTypeGuildCategory      ChannelType = 4
	ChannelTypeGuildAnnouncement  ChannelType = 5
	ChannelTypeAnnouncementThread ChannelType = 10
	ChannelTypePublicThread       ChannelType = 11
	ChannelTypePrivateThread      ChannelType = 12
	ChannelTypeGuildStageVoice    ChannelType = 13
	ChannelTypeGuildDirectory     ChannelType = 14
	ChannelTypeGuildForum         ChannelType = 15
	ChannelTypeGuildMedia         ChannelType = 16
)

var channelTypeNames = map[ChannelType]string{
	ChannelTypeGuildText:          "GUILD_TEXT",
	ChannelTypeDM:                 "DM",
	ChannelTypeGuildVoice:         "GUILD_VOICE",
	ChannelTypeGroupDM:            "GROUP_DM",
	ChannelTypeGuildCategory:      "GUILD_CATEGORY",
	ChannelTypeGuildAnnouncement:  "GUILD_ANNOUNCEMENT",
	ChannelTypeAnnouncementThread: "ANNOUNCEMENT_THREAD",
	ChannelTypePublicThread:       "PUBLIC_THREAD",
	ChannelTypePrivateThread:      "PRIVATE_THREAD",
	ChannelTypeGuildStageVoice:    "GUILD_STAGE_VOICE",
	ChannelTypeGuildDirectory:     "GUILD_DIRECTORY",
	ChannelTypeGuildForum:         "GUILD_FORUM",
	ChannelTypeGuildMedia:         "GUILD_MEDIA",
}

// String returns the platform's name of t, or "ChannelType(n)".
func (t ChannelType) String() string {
	if s, ok := channelTypeNames[t]; ok {
		return s
	}
	return "ChannelType(" + strconv.Itoa(int(t)) + ")"
}

// Known reports whether t is one of the channel types above.
func (t ChannelType) Known() bool {
	_, ok := channelTypeNames[t]
	return ok
}

// IsThread reports whether t is one of the thread types.
func (t ChannelType) IsThread() bool {
	return t == ChannelTypeAnnouncementThread || t == ChannelTypePublicThread || t == ChannelTypePrivateThread
}
