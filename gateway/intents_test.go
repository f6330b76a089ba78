package gateway

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

var everyIntent = []Intents{
	IntentGuilds, IntentGuildMembers, IntentGuildModeration, IntentGuildExpressions,
	IntentGuildIntegrations, IntentGuildWebhooks, IntentGuildInvites, IntentGuildVoiceStates,
	IntentGuildPresences, IntentGuildMessages, IntentGuildMessageReactions, IntentGuildMessageTyping,
	IntentDirectMessages, IntentDirectMessageReactions, IntentDirectMessageTyping, IntentMessageContent,
	IntentGuildScheduledEvents, IntentAutoModerationConfiguration, IntentAutoModerationExecution,
	IntentGuildMessagePolls, IntentDirectMessagePolls,
}

func TestIntentsMatchTheTable(t *testing.T) {
	t.Parallel()
	var all Intents
	for _, i := range everyIntent {
		assert.Zero(t, all&i, "%s twice", i)
		all |= i
	}
	assert.Equal(t, AllIntents, all)
	assert.Equal(t, Intents(53608447), AllIntents, "§5: the documented bits make 53608447")
	assert.Equal(t, Intents(117), IntentGuilds|IntentGuildModeration|IntentGuildIntegrations|IntentGuildWebhooks|IntentGuildInvites,
		"§5: every event of the interface documents but the member events")
	assert.Equal(t, IntentGuildMembers|IntentGuildPresences|IntentMessageContent, PrivilegedIntents)
	assert.Equal(t, Intents(1<<1|1<<8|1<<15), PrivilegedIntents, "4014 names bits 1, 8 and 15")
	assert.Zero(t, NonPrivilegedIntents&PrivilegedIntents)
	assert.Equal(t, AllIntents, NonPrivilegedIntents|PrivilegedIntents)
}

func TestIntentsString(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "0", Intents(0).String())
	assert.Equal(t, "GUILDS|GUILD_MEMBERS", (IntentGuilds | IntentGuildMembers).String())
	assert.Equal(t, "MESSAGE_CONTENT|DIRECT_MESSAGE_POLLS", (IntentMessageContent | IntentDirectMessagePolls).String())
	assert.Equal(t, "GUILDS|0x20000|0x8000000000000000", (IntentGuilds | 1<<17 | 1<<63).String())
	for _, i := range everyIntent {
		assert.NotContains(t, i.String(), "0x", "%d has no name", uint64(i))
	}
}

func TestIntentsPrivilegedAndUnknown(t *testing.T) {
	t.Parallel()
	i := IntentGuilds | IntentGuildMembers | IntentMessageContent | 1<<30
	assert.Equal(t, IntentGuildMembers|IntentMessageContent, i.Privileged())
	assert.Equal(t, Intents(1<<30), i.Unknown())
	assert.Zero(t, AllIntents.Unknown())
	assert.True(t, i.Has(IntentGuilds|IntentGuildMembers))
	assert.False(t, i.Has(IntentGuilds|IntentGuildModeration), "Has needs every bit")
}

func TestEventIntents(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]Intents{
		"GUILD_CREATE":              IntentGuilds,
		"GUILD_UPDATE":              IntentGuilds,
		"GUILD_DELETE":              IntentGuilds,
		"CHANNEL_CREATE":            IntentGuilds,
		"CHANNEL_UPDATE":            IntentGuilds,
		"CHANNEL_DELETE":            IntentGuilds,
		"GUILD_ROLE_CREATE":         IntentGuilds,
		"GUILD_ROLE_UPDATE":         IntentGuilds,
		"GUILD_ROLE_DELETE":         IntentGuilds,
		"GUILD_MEMBER_ADD":          IntentGuildMembers,
		"GUILD_MEMBER_UPDATE":       IntentGuildMembers,
		"GUILD_MEMBER_REMOVE":       IntentGuildMembers,
		"GUILD_BAN_ADD":             IntentGuildModeration,
		"GUILD_BAN_REMOVE":          IntentGuildModeration,
		"GUILD_INTEGRATIONS_UPDATE": IntentGuildIntegrations,
		"INTEGRATION_CREATE":        IntentGuildIntegrations,
		"INTEGRATION_UPDATE":        IntentGuildIntegrations,
		"INTEGRATION_DELETE":        IntentGuildIntegrations,
		"WEBHOOKS_UPDATE":           IntentGuildWebhooks,
		"INVITE_CREATE":             IntentGuildInvites,
		"INVITE_DELETE":             IntentGuildInvites,
		"MESSAGE_CREATE":            IntentGuildMessages | IntentDirectMessages,
		"MESSAGE_UPDATE":            IntentGuildMessages | IntentDirectMessages,
		"MESSAGE_DELETE":            IntentGuildMessages | IntentDirectMessages,
		"PRESENCE_UPDATE":           IntentGuildPresences,
		"VOICE_STATE_UPDATE":        IntentGuildVoiceStates,
		"READY":                     0,
		"RESUMED":                   0,
		"INTERACTION_CREATE":        0,
		"GUILD_MEMBERS_CHUNK":       0,
		"RATE_LIMITED":              0,
		"SOMETHING_NEW":             0,
	} {
		assert.Equal(t, want, eventIntents(name), name)
	}
	// Every typed event is in the table or needs nothing; the member events
	// need the privileged GUILD_MEMBERS, as their docs say.
	for _, e := range typedEvents {
		switch e.(type) {
		case *GuildMemberAdd, *GuildMemberUpdate, *GuildMemberRemove:
			assert.Equal(t, IntentGuildMembers, eventIntents(e.EventName()).Privileged(), e.EventName())
		default:
			assert.Zero(t, eventIntents(e.EventName()).Privileged(), e.EventName())
		}
	}
	for name, i := range eventIntentTable {
		assert.Zero(t, i.Unknown(), name)
		assert.NotZero(t, i, name)
	}
}
