package gateway

// This file stands in for the typed events of branch gw-events (Event,
// RawEvent, decodeEvent, Intents, eventIntents and the events the shard
// itself reads) until that branch is merged; the merge deletes it.

import (
	"encoding/json"
	"strings"

	"github.com/seed012df1e9/guildkit"
)

type Event interface{ EventName() string }

type RawEvent struct {
	Name string
	Data json.RawMessage
}

func (e *RawEvent) EventName() string {
	if e == nil {
		return ""
	}
	return e.Name
}

type Intents uint64

const (
	IntentGuilds            Intents = 1 << 0
	IntentGuildMembers      Intents = 1 << 1
	IntentGuildModeration   Intents = 1 << 2
	IntentGuildIntegrations Intents = 1 << 4
	IntentGuildWebhooks     Intents = 1 << 5
	IntentGuildInvites      Intents = 1 << 6
	IntentGuildPresences    Intents = 1 << 8
	IntentGuildMessages     Intents = 1 << 9
	IntentMessageContent    Intents = 1 << 15
	PrivilegedIntents               = IntentGuildMembers | IntentGuildPresences | IntentMessageContent
)

func (i Intents) Privileged() Intents { return i & PrivilegedIntents }

func (i Intents) String() string {
	var s []string
	for b, n := range map[Intents]string{IntentGuildMembers: "GUILD_MEMBERS", IntentGuildPresences: "GUILD_PRESENCES", IntentMessageContent: "MESSAGE_CONTENT", IntentGuilds: "GUILDS", IntentGuildModeration: "GUILD_MODERATION"} {
		if i&b != 0 {
			s = append(s, n)
		}
	}
	return strings.Join(s, "|")
}

func eventIntents(name string) Intents {
	switch name {
	case "GUILD_CREATE", "GUILD_ROLE_CREATE":
		return IntentGuilds
	case "GUILD_MEMBER_ADD", "GUILD_MEMBER_REMOVE":
		return IntentGuildMembers
	case "GUILD_BAN_ADD":
		return IntentGuildModeration
	}
	return 0
}

type Ready struct {
	SessionID        string `json:"session_id"`
	ResumeGatewayURL string `json:"resume_gateway_url"`
}

func (*Ready) EventName() string { return "READY" }

type Resumed struct{}

func (*Resumed) EventName() string { return "RESUMED" }

type GuildCreate struct {
	ID guildkit.Snowflake `json:"id"`
}

func (*GuildCreate) EventName() string { return "GUILD_CREATE" }

type GuildBanAdd struct {
	GuildID guildkit.Snowflake `json:"guild_id"`
	User    guildkit.User      `json:"user"`
}

func (*GuildBanAdd) EventName() string { return "GUILD_BAN_ADD" }

type GuildMemberAdd struct {
	GuildID guildkit.Snowflake `json:"guild_id"`
}

func (*GuildMemberAdd) EventName() string { return "GUILD_MEMBER_ADD" }

type GuildMembersChunk struct {
	GuildID    guildkit.Snowflake   `json:"guild_id"`
	Members    []guildkit.Member    `json:"members"`
	ChunkIndex int                  `json:"chunk_index"`
	ChunkCount int                  `json:"chunk_count"`
	NotFound   []guildkit.Snowflake `json:"not_found"`
	Nonce      string               `json:"nonce"`
}

func (*GuildMembersChunk) EventName() string { return "GUILD_MEMBERS_CHUNK" }

type InteractionCreate struct {
	*guildkit.Interaction
}

func (*InteractionCreate) EventName() string { return "INTERACTION_CREATE" }

func decodeEvent(name string, data []byte) (Event, error) {
	var e Event
	switch name {
	case "READY":
		e = new(Ready)
	case "RESUMED":
		return new(Resumed), nil
	case "GUILD_CREATE":
		e = new(GuildCreate)
	case "GUILD_BAN_ADD":
		e = new(GuildBanAdd)
	case "GUILD_MEMBER_ADD":
		e = new(GuildMemberAdd)
	case "GUILD_MEMBERS_CHUNK":
		e = new(GuildMembersChunk)
	case "INTERACTION_CREATE":
		it := new(guildkit.Interaction)
		if err := it.UnmarshalJSON(data); err != nil {
			return nil, err
		}
		return &InteractionCreate{it}, nil
	default:
		return &RawEvent{Name: name, Data: append(json.RawMessage(nil), data...)}, nil
	}
	if err := json.Unmarshal(data, e); err != nil {
		return nil, err
	}
	return e, nil
}
