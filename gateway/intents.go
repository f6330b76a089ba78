package gateway

import (
	"strconv"
	"strings"
)

// Intents is the bit set a session sends in IDENTIFY to choose the events it
// receives. An event no intent gates (READY, RESUMED, INTERACTION_CREATE,
// GUILD_MEMBERS_CHUNK, RATE_LIMITED, ...) always arrives.
//
// Three intents are privileged ([PrivilegedIntents]): an application must
// enable them (and, once verified, be approved for them) before it may ask
// for them; asking without that closes the connection with 4014. A value
// with bits outside [AllIntents] closes it with 4013.
type Intents uint64

// The intents of the reference platform's v10 gateway, and the events each
// gates.
const (
	// IntentGuilds: GUILD_CREATE, GUILD_UPDATE, GUILD_DELETE,
	// GUILD_ROLE_CREATE/UPDATE/DELETE, CHANNEL_CREATE/UPDATE/DELETE,
	// CHANNEL_PINS_UPDATE, the thread events (own membership only for
	// THREAD_MEMBERS_UPDATE), the stage instance events,
	// VOICE_CHANNEL_STATUS_UPDATE and VOICE_CHANNEL_START_TIME_UPDATE.
	IntentGuilds Intents = 1 << 0
	// IntentGuildMembers (privileged): GUILD_MEMBER_ADD, GUILD_MEMBER_UPDATE
	// (the bot's own arrives without it), GUILD_MEMBER_REMOVE,
	// THREAD_MEMBERS_UPDATE for other users; also the whole member list of
	// Request Guild Members and the members of a GUILD_CREATE.
	IntentGuildMembers Intents = 1 << 1
	// IntentGuildModeration: GUILD_AUDIT_LOG_ENTRY_CREATE, GUILD_BAN_ADD,
	// GUILD_BAN_REMOVE (the bans only to a bot with BAN_MEMBERS or
	// VIEW_AUDIT_LOG).
	IntentGuildModeration Intents = 1 << 2
	// IntentGuildExpressions: GUILD_EMOJIS_UPDATE, GUILD_STICKERS_UPDATE and
	// the soundboard events.
	IntentGuildExpressions Intents = 1 << 3
	// IntentGuildIntegrations: GUILD_INTEGRATIONS_UPDATE,
	// INTEGRATION_CREATE/UPDATE/DELETE.
	IntentGuildIntegrations Intents = 1 << 4
	// IntentGuildWebhooks: WEBHOOKS_UPDATE.
	IntentGuildWebhooks Intents = 1 << 5
	// IntentGuildInvites: INVITE_CREATE, INVITE_DELETE (only to a bot with
	// MANAGE_CHANNELS on the invite's channel).
	IntentGuildInvites Intents = 1 << 6
	// IntentGuildVoiceStates: VOICE_CHANNEL_EFFECT_SEND, VOICE_STATE_UPDATE.
	IntentGuildVoiceStates Intents = 1 << 7
	// IntentGuildPresences (privileged): PRESENCE_UPDATE; also the members
	// and presences a GUILD_CREATE lists beyond the bot and voice.
	IntentGuildPresences Intents = 1 << 8
	// IntentGuildMessages: MESSAGE_CREATE, MESSAGE_UPDATE, MESSAGE_DELETE,
	// MESSAGE_DELETE_BULK in guilds.
	IntentGuildMessages Intents = 1 << 9
	// IntentGuildMessageReactions: the four reaction events in guilds.
	IntentGuildMessageReactions Intents = 1 << 10
	// IntentGuildMessageTyping: TYPING_START in guilds.
	IntentGuildMessageTyping Intents = 1 << 11
	// IntentDirectMessages: the message events and CHANNEL_PINS_UPDATE in
	// DMs, and ephemeral messages.
	IntentDirectMessages Intents = 1 << 12
	// IntentDirectMessageReactions: the four reaction events in DMs.
	IntentDirectMessageReactions Intents = 1 << 13
	// IntentDirectMessageTyping: TYPING_START in DMs.
	IntentDirectMessageTyping Intents = 1 << 14
	// IntentMessageContent (privileged) gates no event of its own: without
	// it every message received has an empty content, embeds, attachments
	// and components, and no poll, except the bot's own messages, DMs,
	// messages that mention the bot and a context-menu command's target.
	IntentMessageContent Intents = 1 << 15
	// IntentGuildScheduledEvents: the GUILD_SCHEDULED_EVENT_* events.
	IntentGuildScheduledEvents Intents = 1 << 16
	// IntentAutoModerationConfiguration: AUTO_MODERATION_RULE_CREATE/UPDATE/DELETE.
	IntentAutoModerationConfiguration Intents = 1 << 20
	// IntentAutoModerationExecution: AUTO_MODERATION_ACTION_EXECUTION.
	IntentAutoModerationExecution Intents = 1 << 21
	// IntentGuildMessagePolls: MESSAGE_POLL_VOTE_ADD/REMOVE in guilds.
	IntentGuildMessagePolls Intents = 1 << 24
	// IntentDirectMessagePolls: MESSAGE_POLL_VOTE_ADD/REMOVE in DMs.
	IntentDirectMessagePolls Intents = 1 << 25
)

const (
	// AllIntents holds every documented intent (53608447, 0x331FFFF): a
	// value with any other bit is refused with 4013.
	AllIntents Intents = 0x331FFFF
	// PrivilegedIntents holds the intents an application must enable before
	// it asks for them: GUILD_MEMBERS, GUILD_PRESENCES and MESSAGE_CONTENT.
	PrivilegedIntents = IntentGuildMembers | IntentGuildPresences | IntentMessageContent
	// NonPrivilegedIntents holds every documented intent that is not
	// privileged.
	NonPrivilegedIntents = AllIntents &^ PrivilegedIntents
)

var intentNames = [...]string{
	0: "GUILDS", 1: "GUILD_MEMBERS", 2: "GUILD_MODERATION", 3: "GUILD_EXPRESSIONS",
	4: "GUILD_INTEGRATIONS", 5: "GUILD_WEBHOOKS", 6: "GUILD_INVITES", 7: "GUILD_VOICE_STATES",
	8: "GUILD_PRESENCES", 9: "GUILD_MESSAGES", 10: "GUILD_MESSAGE_REACTIONS",
	11: "GUILD_MESSAGE_TYPING", 12: "DIRECT_MESSAGES", 13: "DIRECT_MESSAGE_REACTIONS",
	14: "DIRECT_MESSAGE_TYPING", 15: "MESSAGE_CONTENT", 16: "GUILD_SCHEDULED_EVENTS",
	20: "AUTO_MODERATION_CONFIGURATION", 21: "AUTO_MODERATION_EXECUTION",
	24: "GUILD_MESSAGE_POLLS", 25: "DIRECT_MESSAGE_POLLS",
}

// Has reports whether i holds every intent of j.
func (i Intents) Has(j Intents) bool { return i&j == j }

// Privileged returns the privileged intents i holds.
func (i Intents) Privileged() Intents { return i & PrivilegedIntents }

// Unknown returns the bits of i that name no documented intent; IDENTIFY
// with any of them is refused with 4013.
func (i Intents) Unknown() Intents { return i &^ AllIntents }

// String names the intents, "GUILDS|GUILD_MEMBERS"; a bit that names no
// intent is written in hexadecimal ("GUILDS|0x40000000"), and the empty set
// as "0".
func (i Intents) String() string {
	if i == 0 {
		return "0"
	}
	var b strings.Builder
	for bit := range 64 {
		v := Intents(1) << bit
		if i&v == 0 {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('|')
		}
		if bit < len(intentNames) && intentNames[bit] != "" {
			b.WriteString(intentNames[bit])
		} else {
			b.WriteString("0x")
			b.WriteString(strconv.FormatUint(uint64(v), 16))
		}
	}
	return b.String()
}

// eventIntents holds the intents that gate each event, for the events of
// §5's table. An event absent from it needs none.
var eventIntentTable = map[string]Intents{
	"GUILD_CREATE": IntentGuilds, "GUILD_UPDATE": IntentGuilds, "GUILD_DELETE": IntentGuilds,
	"GUILD_ROLE_CREATE": IntentGuilds, "GUILD_ROLE_UPDATE": IntentGuilds, "GUILD_ROLE_DELETE": IntentGuilds,
	"CHANNEL_CREATE": IntentGuilds, "CHANNEL_UPDATE": IntentGuilds, "CHANNEL_DELETE": IntentGuilds,
	"CHANNEL_PINS_UPDATE": IntentGuilds | IntentDirectMessages,
	"THREAD_CREATE":       IntentGuilds, "THREAD_UPDATE": IntentGuilds, "THREAD_DELETE": IntentGuilds,
	"THREAD_LIST_SYNC": IntentGuilds, "THREAD_MEMBER_UPDATE": IntentGuilds,
	"THREAD_MEMBERS_UPDATE": IntentGuilds | IntentGuildMembers,
	"STAGE_INSTANCE_CREATE": IntentGuilds, "STAGE_INSTANCE_UPDATE": IntentGuilds, "STAGE_INSTANCE_DELETE": IntentGuilds,
	"VOICE_CHANNEL_STATUS_UPDATE": IntentGuilds, "VOICE_CHANNEL_START_TIME_UPDATE": IntentGuilds,

	"GUILD_MEMBER_ADD": IntentGuildMembers, "GUILD_MEMBER_UPDATE": IntentGuildMembers, "GUILD_MEMBER_REMOVE": IntentGuildMembers,

	"GUILD_AUDIT_LOG_ENTRY_CREATE": IntentGuildModeration, "GUILD_BAN_ADD": IntentGuildModeration, "GUILD_BAN_REMOVE": IntentGuildModeration,

	"GUILD_EMOJIS_UPDATE": IntentGuildExpressions, "GUILD_STICKERS_UPDATE": IntentGuildExpressions,
	"GUILD_SOUNDBOARD_SOUND_CREATE": IntentGuildExpressions, "GUILD_SOUNDBOARD_SOUND_UPDATE": IntentGuildExpressions,
	"GUILD_SOUNDBOARD_SOUND_DELETE": IntentGuildExpressions, "GUILD_SOUNDBOARD_SOUNDS_UPDATE": IntentGuildExpressions,

	"GUILD_INTEGRATIONS_UPDATE": IntentGuildIntegrations, "INTEGRATION_CREATE": IntentGuildIntegrations,
	"INTEGRATION_UPDATE": IntentGuildIntegrations, "INTEGRATION_DELETE": IntentGuildIntegrations,

	"WEBHOOKS_UPDATE": IntentGuildWebhooks,

	"INVITE_CREATE": IntentGuildInvites, "INVITE_DELETE": IntentGuildInvites,

	"VOICE_CHANNEL_EFFECT_SEND": IntentGuildVoiceStates, "VOICE_STATE_UPDATE": IntentGuildVoiceStates,

	"PRESENCE_UPDATE": IntentGuildPresences,

	"MESSAGE_CREATE": IntentGuildMessages | IntentDirectMessages, "MESSAGE_UPDATE": IntentGuildMessages | IntentDirectMessages,
	"MESSAGE_DELETE": IntentGuildMessages | IntentDirectMessages, "MESSAGE_DELETE_BULK": IntentGuildMessages,

	"MESSAGE_REACTION_ADD": IntentGuildMessageReactions | IntentDirectMessageReactions, "MESSAGE_REACTION_REMOVE": IntentGuildMessageReactions | IntentDirectMessageReactions,
	"MESSAGE_REACTION_REMOVE_ALL": IntentGuildMessageReactions | IntentDirectMessageReactions, "MESSAGE_REACTION_REMOVE_EMOJI": IntentGuildMessageReactions | IntentDirectMessageReactions,

	"TYPING_START": IntentGuildMessageTyping | IntentDirectMessageTyping,

	"GUILD_SCHEDULED_EVENT_CREATE": IntentGuildScheduledEvents, "GUILD_SCHEDULED_EVENT_UPDATE": IntentGuildScheduledEvents,
	"GUILD_SCHEDULED_EVENT_DELETE": IntentGuildScheduledEvents, "GUILD_SCHEDULED_EVENT_USER_ADD": IntentGuildScheduledEvents,
	"GUILD_SCHEDULED_EVENT_USER_REMOVE": IntentGuildScheduledEvents,

	"AUTO_MODERATION_RULE_CREATE": IntentAutoModerationConfiguration, "AUTO_MODERATION_RULE_UPDATE": IntentAutoModerationConfiguration,
	"AUTO_MODERATION_RULE_DELETE":      IntentAutoModerationConfiguration,
	"AUTO_MODERATION_ACTION_EXECUTION": IntentAutoModerationExecution,

	"MESSAGE_POLL_VOTE_ADD": IntentGuildMessagePolls | IntentDirectMessagePolls, "MESSAGE_POLL_VOTE_REMOVE": IntentGuildMessagePolls | IntentDirectMessagePolls,
}

// eventIntents returns the intents that gate the event name (§5's table),
// 0 for an event that always arrives (READY, RESUMED, INTERACTION_CREATE,
// GUILD_MEMBERS_CHUNK, RATE_LIMITED, an unknown name).
//
// Where an event has one intent in guilds and another in DMs (the message,
// reaction, typing and poll events) the result holds both: any one of them
// lets the event through, and intents derived from handlers ask for both.
// THREAD_MEMBERS_UPDATE holds GUILDS (the bot's own membership) and
// GUILD_MEMBERS (other users'); CHANNEL_PINS_UPDATE GUILDS and
// DIRECT_MESSAGES. MESSAGE_CONTENT is never implied: it fills content but
// gates no event.
func eventIntents(name string) Intents { return eventIntentTable[name] }
