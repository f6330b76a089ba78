package guildkit

import (
	"encoding/json"
	"fmt"
	"math/bits"
	"reflect"
	"strconv"
	"strings"

	"github.com/seed012df1e9/guildkit/internal/jsondec"
)

// Permissions is a bit set of permissions. On the wire it is a JSON string
// holding the decimal value ("8" for ADMINISTRATOR); decoding also accepts a
// number.
type Permissions uint64

// The permissions of the reference platform. The interface names
// CREATE_INSTANT_INVITE, KICK_MEMBERS, BAN_MEMBERS, ADMINISTRATOR,
// MANAGE_CHANNELS, MANAGE_GUILD, VIEW_AUDIT_LOG, MANAGE_MESSAGES, MUTE_MEMBERS,
// DEAFEN_MEMBERS, MOVE_MEMBERS, CHANGE_NICKNAME, MANAGE_NICKNAMES,
// MANAGE_ROLES, MANAGE_WEBHOOKS and MODERATE_MEMBERS; the rest complete the
// platform's set so that every bit a service returns has a name.
const (
	PermissionCreateInstantInvite              Permissions = 1 << 0
	PermissionKickMembers                      Permissions = 1 << 1
	PermissionBanMembers                       Permissions = 1 << 2
	PermissionAdministrator                    Permissions = 1 << 3
	PermissionManageChannels                   Permissions = 1 << 4
	PermissionManageGuild                      Permissions = 1 << 5
	PermissionAddReactions                     Permissions = 1 << 6
	PermissionViewAuditLog                     Permissions = 1 << 7
	PermissionPrioritySpeaker                  Permissions = 1 << 8
	PermissionStream                           Permissions = 1 << 9
	PermissionViewChannel                      Permissions = 1 << 10
	PermissionSendMessages                     Permissions = 1 << 11
	PermissionSendTTSMessages                  Permissions = 1 << 12
	PermissionManageMessages                   Permissions = 1 << 13
	PermissionEmbedLinks                       Permissions = 1 << 14
	PermissionAttachFiles                      Permissions = 1 << 15
	PermissionReadMessageHistory               Permissions = 1 << 16
	PermissionMentionEveryone                  Permissions = 1 << 17
	PermissionUseExternalEmojis                Permissions = 1 << 18
	PermissionViewGuildInsights                Permissions = 1 << 19
	PermissionConnect                          Permissions = 1 << 20
	PermissionSpeak                            Permissions = 1 << 21
	PermissionMuteMembers                      Permissions = 1 << 22
	PermissionDeafenMembers                    Permissions = 1 << 23
	PermissionMoveMembers                      Permissions = 1 << 24
	PermissionUseVAD                           Permissions = 1 << 25
	PermissionChangeNickname                   Permissions = 1 << 26
	PermissionManageNicknames                  Permissions = 1 << 27
	PermissionManageRoles                      Permissions = 1 << 28
	PermissionManageWebhooks                   Permissions = 1 << 29
	PermissionManageGuildExpressions           Permissions = 1 << 30
	PermissionUseApplicationCommands           Permissions = 1 << 31
	PermissionRequestToSpeak                   Permissions = 1 << 32
	PermissionManageEvents                     Permissions = 1 << 33
	PermissionManageThreads                    Permissions = 1 << 34
	PermissionCreatePublicThreads              Permissions = 1 << 35
	PermissionCreatePrivateThreads             Permissions = 1 << 36
	PermissionUseExternalStickers              Permissions = 1 << 37
	PermissionSendMessagesInThreads            Permissions = 1 << 38
	PermissionUseEmbeddedActivities            Permissions = 1 << 39
	PermissionModerateMembers                  Permissions = 1 << 40
	PermissionViewCreatorMonetizationAnalytics Permissions = 1 << 41
	PermissionUseSoundboard                    Permissions = 1 << 42
	PermissionCreateGuildExpressions           Permissions = 1 << 43
	PermissionCreateEvents                     Permissions = 1 << 44
	PermissionUseExternalSounds                Permissions = 1 << 45
	PermissionSendVoiceMessages                Permissions = 1 << 46
	PermissionSetVoiceChannelStatus            Permissions = 1 << 48
	PermissionSendPolls                        Permissions = 1 << 49
	PermissionUseExternalApps                  Permissions = 1 << 50
	PermissionPinMessages                      Permissions = 1 << 51
	PermissionBypassSlowmode                   Permissions = 1 << 52
)

// AllPermissions is every permission the platform defines (permissions.md
// §2; bit 47 is unused): what a guild's owner and holders of ADMINISTRATOR
// have, in the guild and in every channel.
const AllPermissions Permissions = 1<<47 - 1 | 0x1F<<48

var permissionNames = [64]string{
	0: "CREATE_INSTANT_INVITE", 1: "KICK_MEMBERS", 2: "BAN_MEMBERS", 3: "ADMINISTRATOR",
	4: "MANAGE_CHANNELS", 5: "MANAGE_GUILD", 6: "ADD_REACTIONS", 7: "VIEW_AUDIT_LOG",
	8: "PRIORITY_SPEAKER", 9: "STREAM", 10: "VIEW_CHANNEL", 11: "SEND_MESSAGES",
	12: "SEND_TTS_MESSAGES", 13: "MANAGE_MESSAGES", 14: "EMBED_LINKS", 15: "ATTACH_FILES",
	16: "READ_MESSAGE_HISTORY", 17: "MENTION_EVERYONE", 18: "USE_EXTERNAL_EMOJIS",
	19: "VIEW_GUILD_INSIGHTS", 20: "CONNECT", 21: "SPEAK", 22: "MUTE_MEMBERS",
	23: "DEAFEN_MEMBERS", 24: "MOVE_MEMBERS", 25: "USE_VAD", 26: "CHANGE_NICKNAME",
	27: "MANAGE_NICKNAMES", 28: "MANAGE_ROLES", 29: "MANAGE_WEBHOOKS",
	30: "MANAGE_GUILD_EXPRESSIONS", 31: "USE_APPLICATION_COMMANDS", 32: "REQUEST_TO_SPEAK",
	33: "MANAGE_EVENTS", 34: "MANAGE_THREADS", 35: "CREATE_PUBLIC_THREADS",
	36: "CREATE_PRIVATE_THREADS", 37: "USE_EXTERNAL_STICKERS", 38: "SEND_MESSAGES_IN_THREADS",
	39: "USE_EMBEDDED_ACTIVITIES", 40: "MODERATE_MEMBERS", 41: "VIEW_CREATOR_MONETIZATION_ANALYTICS",
	42: "USE_SOUNDBOARD", 43: "CREATE_GUILD_EXPRESSIONS", 44: "CREATE_EVENTS",
	45: "USE_EXTERNAL_SOUNDS", 46: "SEND_VOICE_MESSAGES", 48: "SET_VOICE_CHANNEL_STATUS", 49: "SEND_POLLS",
	50: "USE_EXTERNAL_APPS", 51: "PIN_MESSAGES", 52: "BYPASS_SLOWMODE",
}

// Has reports whether p holds every permission in q.
func (p Permissions) Has(q Permissions) bool { return p&q == q }

// HasAny reports whether p holds at least one permission of q.
func (p Permissions) HasAny(q Permissions) bool { return p&q != 0 }

// String names the permissions in p joined by "|" ("KICK_MEMBERS|BAN_MEMBERS");
// unnamed bits print as "1<<n"; no permission prints as "0".
func (p Permissions) String() string {
	if p == 0 {
		return "0"
	}
	var b strings.Builder
	for rest := uint64(p); rest != 0; rest &= rest - 1 {
		i := bits.TrailingZeros64(rest)
		if b.Len() > 0 {
			b.WriteByte('|')
		}
		if name := permissionNames[i]; name != "" {
			b.WriteString(name)
		} else {
			fmt.Fprintf(&b, "1<<%d", i)
		}
	}
	return b.String()
}

// MarshalJSON encodes p as a JSON string of its decimal value.
func (p Permissions) MarshalJSON() ([]byte, error) {
	return strconv.AppendQuote(nil, strconv.FormatUint(uint64(p), 10)), nil
}

// Answers decode Permissions without calling UnmarshalJSON, which the
// decoder reproduces (and leaves anything else to).
func init() { jsondec.DecodeAsDecimal(reflect.TypeFor[Permissions]()) }

// UnmarshalJSON decodes a JSON string or number; null decodes to 0.
func (p *Permissions) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*p = 0
		return nil
	}
	var s string
	if len(b) > 0 && b[0] == '"' {
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
	} else {
		s = string(b)
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return fmt.Errorf("guildkit: invalid permissions value %q", s)
	}
	*p = Permissions(v)
	return nil
}
