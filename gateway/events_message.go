package gateway

import (
	"fmt"
	"io"
	"log/slog"
	"reflect"
	"strings"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/internal/jsondec"
	"github.com/seed012df1e9/guildkit/internal/jsonscan"
)

// MessageCreate is MESSAGE_CREATE (intent GUILD_MESSAGES in guilds,
// DIRECT_MESSAGES in DMs and for ephemeral messages): a message was sent,
// the bot's own included (Create Message, Execute Webhook, an
// interaction's answer or follow-up). Without the privileged
// MESSAGE_CONTENT intent its Content is "" and its embeds, attachments and
// components empty, and its poll absent, except for the bot's own
// messages, DMs, and messages that mention the bot: a handler that reads
// them is registered with [ReadsContent]. A DM channel the bot did not
// open becomes known this way (GuildID nil; ChannelType 1 when present):
// no CHANNEL_CREATE announces it.
type MessageCreate struct {
	guildkit.Message
	// GuildID is absent for DMs and ephemeral messages. Nil when absent.
	GuildID *guildkit.Snowflake `json:"guild_id,omitempty"`
	// Member is the author's member, partial and without its user
	// (Message.Author is the user); absent for webhook and ephemeral
	// messages. Nil when absent.
	Member *guildkit.Member `json:"member,omitempty"`
	// ChannelType is the type of the message's channel. Nil when absent.
	ChannelType *guildkit.ChannelType `json:"channel_type,omitempty"`
	// Mentions are the users mentioned, each with their partial member in
	// a guild. It stands for the embedded Message.Mentions, which stays
	// empty in an event: [MessageMention] holds the user.
	Mentions []MessageMention `json:"mentions"`
}

// EventName returns "MESSAGE_CREATE".
func (*MessageCreate) EventName() string { return "MESSAGE_CREATE" }

// MessageMention is a user a message event mentions, with their member in
// the guild (partial, without its user) when the platform sends it.
type MessageMention struct {
	guildkit.User
	// Member is the user's partial member in the message's guild. Nil when
	// absent.
	Member *guildkit.Member `json:"member,omitempty"`
}

// MessageUpdate is MESSAGE_UPDATE (intents as [MessageCreate]): a message
// was edited (Edit Message, Edit Webhook Message, an interaction's
// UPDATE_MESSAGE or an edit of its answer), crossposted, or given a link's
// embed after sending. TTS is always false. The current documents call it
// the whole message; older ones, and what the platform has sent, allow an
// update holding only some fields (ID and ChannelID always): merge what
// [MessageUpdate.Has] reports and keep the rest unchanged. MESSAGE_CONTENT
// applies as for MessageCreate.
type MessageUpdate struct {
	guildkit.Message
	// GuildID is absent for DMs and ephemeral messages. Nil when absent.
	GuildID *guildkit.Snowflake `json:"guild_id,omitempty"`
	// Member is the author's member, partial and without its user. Nil
	// when absent.
	Member *guildkit.Member `json:"member,omitempty"`
	// ChannelType is the type of the message's channel. Nil when absent.
	ChannelType *guildkit.ChannelType `json:"channel_type,omitempty"`
	// Mentions are the users mentioned, with their partial members, as in
	// [MessageCreate].
	Mentions []MessageMention `json:"mentions"`

	present uint64 // bit messageUpdateFieldIndex[key]: key was in the event
}

// EventName returns "MESSAGE_UPDATE".
func (*MessageUpdate) EventName() string { return "MESSAGE_UPDATE" }

// Has reports whether the update carried the field named by its JSON key
// ("content", "embeds", "edited_timestamp", "components", ...): a field
// the update left out is unchanged, not emptied. A key the SDK does not
// model reports false.
func (e *MessageUpdate) Has(field string) bool {
	i, ok := messageUpdateFieldIndex[field]
	return ok && e.present&(1<<i) != 0
}

// messageUpdateFieldIndex gives each key [MessageUpdate.Has] knows, the
// message's and the event's own, its bit in present.
var messageUpdateFieldIndex = messageFieldIndex()

// messageFieldIndex numbers the JSON keys of MessageUpdate's fields, the
// embedded message's included, in the order of the fields.
func messageFieldIndex() map[string]int {
	index := make(map[string]int)
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Anonymous {
				walk(f.Type)
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if _, dup := index[name]; !f.IsExported() || name == "" || name == "-" || dup {
				continue
			}
			index[name] = len(index)
		}
	}
	walk(reflect.TypeFor[MessageUpdate]())
	if len(index) > 64 {
		panic("gateway: MessageUpdate has more than 64 fields")
	}
	return index
}

// decodeMessageUpdate decodes MESSAGE_UPDATE and notes which of its
// fields the data held.
func decodeMessageUpdate(data []byte) (Event, error) {
	e := new(MessageUpdate)
	if err := decodeValue(data, e); err != nil {
		return nil, err
	}
	if err := e.noteFields(data); err != nil {
		return nil, err
	}
	return e, nil
}

// noteFields records which of the known fields data, the event's object,
// holds.
func (e *MessageUpdate) noteFields(data []byte) error {
	return jsonscan.EachMember(data, func(key, _, _ []byte) error {
		e.note(key)
		return nil
	})
}

// decodeMessageUpdateAt is decodeMessageUpdate where the data lies in the
// message (see eventDecoderAt): the fields it holds are noted as they are
// decoded, in one pass.
func decodeMessageUpdateAt(b []byte, i int) (Event, int, bool) {
	e := new(MessageUpdate)
	end, ok := jsondec.DecodeAtNoting(b, i, 1, e, e.note)
	if !ok {
		return nil, 0, false
	}
	return e, end, true
}

// note records that the event holds key, when it is one of the known
// fields.
func (e *MessageUpdate) note(key []byte) {
	if i, ok := messageUpdateFieldIndex[string(key)]; ok {
		e.present |= 1 << i
	}
}

// MessageDelete is MESSAGE_DELETE (intents as [MessageCreate]): a message
// was deleted (Delete Message, Delete Webhook Message, an interaction's
// answer deleted). It does not carry the content: a bot that shows what
// was deleted must have kept it.
type MessageDelete struct {
	ID        guildkit.Snowflake  `json:"id"`
	ChannelID guildkit.Snowflake  `json:"channel_id"`
	GuildID   *guildkit.Snowflake `json:"guild_id,omitempty"` // nil when absent (DMs)
}

// EventName returns "MESSAGE_DELETE".
func (*MessageDelete) EventName() string { return "MESSAGE_DELETE" }

// MessageDeleteBulk is MESSAGE_DELETE_BULK (intent GUILD_MESSAGES; guild
// channels only): Bulk Delete Messages deleted the messages IDs of a
// channel at once, without their content.
type MessageDeleteBulk struct {
	IDs       []guildkit.Snowflake `json:"ids"`
	ChannelID guildkit.Snowflake   `json:"channel_id"`
	GuildID   *guildkit.Snowflake  `json:"guild_id,omitempty"` // nil when absent
}

// EventName returns "MESSAGE_DELETE_BULK".
func (*MessageDeleteBulk) EventName() string { return "MESSAGE_DELETE_BULK" }

// InteractionCreate is INTERACTION_CREATE: a user used a command, a
// component or a modal of the application, which has no interactions
// endpoint URL (with one, interactions go there instead, never both). No
// intent gates it. The interaction is the same object as an HTTP delivery,
// token included; answer it through the callback route within 3 seconds
// ([guildkit.InteractionService]), or hand it to the interactions package's
// router with [OnInteraction], which answers with the same functions as an
// HTTP endpoint.
//
// fmt and slog print it without its token.
type InteractionCreate struct {
	Interaction *guildkit.Interaction
}

// EventName returns "INTERACTION_CREATE".
func (*InteractionCreate) EventName() string { return "INTERACTION_CREATE" }

// String describes the interaction without its token.
func (e *InteractionCreate) String() string {
	if e == nil || e.Interaction == nil {
		return "INTERACTION_CREATE <nil>"
	}
	return "INTERACTION_CREATE " + e.Interaction.String()
}

// GoString is String.
func (e *InteractionCreate) GoString() string { return e.String() }

// Format writes String for every verb, so that no verb prints the token.
func (e *InteractionCreate) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, e.String()) }

// LogValue is the interaction's, without its token.
func (e *InteractionCreate) LogValue() slog.Value {
	if e == nil || e.Interaction == nil {
		return slog.StringValue("<nil>")
	}
	return e.Interaction.LogValue()
}
