package gateway

import (
	"fmt"
	"io"
	"log/slog"

	"github.com/seed012df1e9/guildkit"
)

// MessageCreate is MESSAGE_CREATE (intent GUILD_MESSAGES in guilds,
// DIRECT_MESSAGES in DMs and for ephemeral messages): a message was sent,
// the bot's own included (Execute Webhook, an interaction's answer or
// follow-up). Without the privileged MESSAGE_CONTENT intent its Content is
// "" and its embeds, attachments and components empty, except for the bot's
// own messages, DMs, and messages that mention the bot.
type MessageCreate struct {
	guildkit.Message
	// GuildID is absent for DMs and ephemeral messages. Nil when absent.
	GuildID *guildkit.Snowflake `json:"guild_id,omitempty"`
	// Member is the author's member, without its user (Message.Author is
	// the user); absent for webhook and ephemeral messages. Nil when absent.
	Member *guildkit.Member `json:"member,omitempty"`
	// ChannelType is the type of the message's channel. Nil when absent.
	ChannelType *guildkit.ChannelType `json:"channel_type,omitempty"`
}

// EventName returns "MESSAGE_CREATE".
func (*MessageCreate) EventName() string { return "MESSAGE_CREATE" }

// MessageUpdate is MESSAGE_UPDATE (intents as [MessageCreate]): a message
// was edited (Edit Webhook Message, an interaction's UPDATE_MESSAGE or an
// edit of its answer). It is the whole message, TTS always false.
type MessageUpdate struct {
	guildkit.Message
	// GuildID is absent for DMs and ephemeral messages. Nil when absent.
	GuildID *guildkit.Snowflake `json:"guild_id,omitempty"`
	// Member is the author's member, without its user. Nil when absent.
	Member *guildkit.Member `json:"member,omitempty"`
	// ChannelType is the type of the message's channel. Nil when absent.
	ChannelType *guildkit.ChannelType `json:"channel_type,omitempty"`
}

// EventName returns "MESSAGE_UPDATE".
func (*MessageUpdate) EventName() string { return "MESSAGE_UPDATE" }

// MessageDelete is MESSAGE_DELETE (intents as [MessageCreate]): a message
// was deleted (Delete Webhook Message, an interaction's answer deleted).
type MessageDelete struct {
	ID        guildkit.Snowflake  `json:"id"`
	ChannelID guildkit.Snowflake  `json:"channel_id"`
	GuildID   *guildkit.Snowflake `json:"guild_id,omitempty"` // nil when absent (DMs)
}

// EventName returns "MESSAGE_DELETE".
func (*MessageDelete) EventName() string { return "MESSAGE_DELETE" }

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
