package guildkit

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strconv"

	"github.com/seed012df1e9/guildkit/components"
)

// The interface's documents say that button, select and modal interactions
// deliver payloads to the application (type 3 for message components), and
// that components structure "messages, modals and interaction replies"; they
// do not show the interaction object, its answers or its routes. Everything
// in this file and in interaction_response.go follows the reference
// platform's v10 interactions API where they are silent.

// InteractionType is the kind of an interaction.
type InteractionType int

// Interaction types, the reference platform's.
const (
	InteractionTypePing               InteractionType = 1 // the platform checking the endpoint
	InteractionTypeApplicationCommand InteractionType = 2 // a slash, user or message command
	InteractionTypeMessageComponent   InteractionType = 3 // a button click or a select choice
	InteractionTypeAutocomplete       InteractionType = 4 // a command option being typed
	InteractionTypeModalSubmit        InteractionType = 5 // a modal's submission
)

var interactionTypeNames = []string{"", "PING", "APPLICATION_COMMAND", "MESSAGE_COMPONENT", "APPLICATION_COMMAND_AUTOCOMPLETE", "MODAL_SUBMIT"}

// String returns the type's name, such as "MESSAGE_COMPONENT".
func (t InteractionType) String() string {
	return enumString("InteractionType", interactionTypeNames, int(t))
}

// InteractionContextType is where an interaction was invoked.
type InteractionContextType int

// Interaction contexts, the reference platform's.
const (
	InteractionContextGuild          InteractionContextType = 0
	InteractionContextBotDM          InteractionContextType = 1
	InteractionContextPrivateChannel InteractionContextType = 2
)

var interactionContextNames = []string{"GUILD", "BOT_DM", "PRIVATE_CHANNEL"}

// String returns the context's name, such as "GUILD".
func (t InteractionContextType) String() string {
	return enumString("InteractionContextType", interactionContextNames, int(t))
}

// InteractionToken is an interaction's continuation token: with it the
// application answers the interaction and sends follow-ups, for 15 minutes.
// It is a secret: fmt (every verb) and slog print "<redacted>". Its JSON
// form is the token itself, as the interface sends it; convert it with
// string() only to hand it to the interface.
type InteractionToken string

// String returns "<redacted>".
func (InteractionToken) String() string { return "<redacted>" }

// GoString returns "<redacted>".
func (InteractionToken) GoString() string { return "<redacted>" }

// Format prints "<redacted>" under every verb.
func (InteractionToken) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, "<redacted>") }

// LogValue hides the token from slog.
func (InteractionToken) LogValue() slog.Value { return slog.StringValue("<redacted>") }

// Interaction is what the platform delivers to the application when a user
// invokes one of its commands, clicks one of its buttons, chooses in one of
// its selects or submits one of its modals. The interface's documents do not
// show the object; these are the reference platform's v10 fields.
//
// Data holds the type's data as received; [Interaction.Component],
// [Interaction.ModalSubmit] and [Interaction.Command] hold it decoded (the
// one matching Type; the others are nil). Raw is the whole body as it was
// delivered, so nothing the SDK does not model is lost.
//
// fmt and slog print an interaction without its token.
type Interaction struct {
	ID            Snowflake       `json:"id"`
	ApplicationID Snowflake       `json:"application_id"`
	Type          InteractionType `json:"type"`
	// Data is the type's data, raw; absent for PING. Nil when absent.
	Data json.RawMessage `json:"data,omitempty"`
	// Guild is the guild it was invoked in (a partial guild: id, locale,
	// features). Nil when absent.
	Guild *InteractionGuild `json:"guild,omitempty"`
	// GuildID is the guild it was invoked in; zero Opt when absent.
	GuildID Opt[Snowflake] `json:"guild_id,omitzero"`
	// Channel is the channel it was invoked in (a partial channel). Nil when absent.
	Channel *Channel `json:"channel,omitempty"`
	// ChannelID is the channel it was invoked in; zero Opt when absent.
	ChannelID Opt[Snowflake] `json:"channel_id,omitzero"`
	// Member is the invoking member, in a guild, with Permissions set (the
	// member's permissions in the channel, overwrites included). Nil when absent.
	Member *Member `json:"member,omitempty"`
	// User is the invoking user in a DM; in a guild, use Member.User (or
	// [Interaction.Invoker]). Nil when absent.
	User *User `json:"user,omitempty"`
	// Token answers the interaction; see [InteractionToken].
	Token   InteractionToken `json:"token"`
	Version int              `json:"version"` // always 1
	// Message is the message the component is on, for component
	// interactions and for modals opened from one. Nil when absent.
	Message *Message `json:"message,omitempty"`
	// AppPermissions are the application's permissions where it was invoked.
	AppPermissions Permissions `json:"app_permissions"`
	// Locale is the invoking user's language; absent for PING. Zero Opt when absent.
	Locale Opt[string] `json:"locale,omitzero"`
	// GuildLocale is the guild's preferred language, in a guild. Zero Opt when absent.
	GuildLocale  Opt[string]      `json:"guild_locale,omitzero"`
	Entitlements []map[string]any `json:"entitlements"`
	// AuthorizingIntegrationOwners maps installation contexts ("0" guild,
	// "1" user) to the id of who installed the application there.
	AuthorizingIntegrationOwners map[string]Snowflake `json:"authorizing_integration_owners"`
	// Context is where it was invoked. Zero Opt when absent.
	Context Opt[InteractionContextType] `json:"context,omitzero"`
	// AttachmentSizeLimit is how many bytes an upload in the answer may have.
	AttachmentSizeLimit int64 `json:"attachment_size_limit"`

	// Component is Data decoded, for MESSAGE_COMPONENT.
	Component *components.InteractionData `json:"-"`
	// ModalSubmit is Data decoded, for MODAL_SUBMIT.
	ModalSubmit *components.ModalSubmitData `json:"-"`
	// Command is Data decoded, for APPLICATION_COMMAND and
	// APPLICATION_COMMAND_AUTOCOMPLETE.
	Command *CommandData `json:"-"`
	// Resolved is the data's resolved entities decoded (users, members,
	// roles, channels, messages, attachments of selects, file uploads and
	// command options); nil when the data has none.
	Resolved *ResolvedData `json:"-"`
	// Raw is the whole delivery as received.
	Raw json.RawMessage `json:"-"`
}

// InteractionGuild is the partial guild an interaction carries.
type InteractionGuild struct {
	ID       Snowflake      `json:"id"`
	Locale   string         `json:"locale"`
	Features []GuildFeature `json:"features"`
}

// ResolvedData holds the entities an interaction's data refers to by id: the
// users, members, roles and channels chosen in a select or a command option,
// and the attachments of a file upload. Members are partial: no user, deaf
// or mute (the user is in Users under the same id).
type ResolvedData struct {
	Users       map[Snowflake]User       `json:"users,omitempty"`
	Members     map[Snowflake]Member     `json:"members,omitempty"`
	Roles       map[Snowflake]Role       `json:"roles,omitempty"`
	Channels    map[Snowflake]Channel    `json:"channels,omitempty"`
	Messages    map[Snowflake]Message    `json:"messages,omitempty"`
	Attachments map[Snowflake]Attachment `json:"attachments,omitempty"`
}

// CommandType is the kind of an application command.
type CommandType int

// Application command types, the reference platform's.
const (
	CommandTypeChatInput CommandType = 1 // a slash command
	CommandTypeUser      CommandType = 2 // from a user's context menu
	CommandTypeMessage   CommandType = 3 // from a message's context menu
	// CommandTypePrimaryEntryPoint launches the application's Activity
	// from the App Launcher.
	CommandTypePrimaryEntryPoint CommandType = 4
)

var commandTypeNames = []string{"", "CHAT_INPUT", "USER", "MESSAGE", "PRIMARY_ENTRY_POINT"}

// String returns the type's name, such as "CHAT_INPUT".
func (t CommandType) String() string { return enumString("CommandType", commandTypeNames, int(t)) }

// CommandData is the data of an APPLICATION_COMMAND or an
// APPLICATION_COMMAND_AUTOCOMPLETE interaction.
type CommandData struct {
	ID   Snowflake   `json:"id"`
	Name string      `json:"name"`
	Type CommandType `json:"type"`
	// Resolved is the data's resolved entities, raw ([Interaction.Resolved]
	// holds them decoded). Nil when absent.
	Resolved json.RawMessage `json:"resolved,omitempty"`
	Options  []CommandOption `json:"options,omitempty"`
	// GuildID is the guild the command is registered in; zero Opt when absent.
	GuildID Opt[Snowflake] `json:"guild_id,omitzero"`
	// TargetID is the user or message a context-menu command was used on;
	// zero Opt when absent.
	TargetID Opt[Snowflake] `json:"target_id,omitzero"`
}

// Option returns the option with name at the top level (or inside the
// sub-command the user chose), and whether there is one.
func (d *CommandData) Option(name string) (*CommandOption, bool) {
	opts := d.Options
	for len(opts) == 1 && (opts[0].Type == CommandOptionSubCommand || opts[0].Type == CommandOptionSubCommandGroup) {
		opts = opts[0].Options
	}
	for i := range opts {
		if opts[i].Name == name {
			return &opts[i], true
		}
	}
	return nil, false
}

// Focused returns the option the user is typing in, in an autocomplete
// interaction.
func (d *CommandData) Focused() (*CommandOption, bool) {
	var find func([]CommandOption) *CommandOption
	find = func(opts []CommandOption) *CommandOption {
		for i := range opts {
			if opts[i].Focused {
				return &opts[i]
			}
			if o := find(opts[i].Options); o != nil {
				return o
			}
		}
		return nil
	}
	o := find(d.Options)
	return o, o != nil
}

// CommandOptionType is the type of a command option's value.
type CommandOptionType int

// Command option types, the reference platform's.
const (
	CommandOptionSubCommand      CommandOptionType = 1
	CommandOptionSubCommandGroup CommandOptionType = 2
	CommandOptionString          CommandOptionType = 3
	CommandOptionInteger         CommandOptionType = 4
	CommandOptionBoolean         CommandOptionType = 5
	CommandOptionUser            CommandOptionType = 6
	CommandOptionChannel         CommandOptionType = 7
	CommandOptionRole            CommandOptionType = 8
	CommandOptionMentionable     CommandOptionType = 9
	CommandOptionNumber          CommandOptionType = 10
	CommandOptionAttachment      CommandOptionType = 11
)

var commandOptionTypeNames = []string{"", "SUB_COMMAND", "SUB_COMMAND_GROUP", "STRING", "INTEGER", "BOOLEAN",
	"USER", "CHANNEL", "ROLE", "MENTIONABLE", "NUMBER", "ATTACHMENT"}

// String returns the type's name, such as "STRING".
func (t CommandOptionType) String() string {
	return enumString("CommandOptionType", commandOptionTypeNames, int(t))
}

// CommandOption is one option the user gave a command. In a test, make
// one with [StringOption], [IntegerOption], [NumberOption],
// [BooleanOption], [UserOption], [ChannelOption], [RoleOption],
// [MentionableOption], [SubCommandOption] or [SubCommandGroupOption]
// rather than writing Value's JSON by hand.
type CommandOption struct {
	Name string `json:"name"`
	// Type is the option's type, as the platform sends it. The in-memory
	// server's RunCommand and Autocomplete take 0 for the type the command
	// declares for the option (any other type must be that one); the
	// constructors above set it.
	Type CommandOptionType `json:"type"`
	// Value is the option's value as JSON (a string, a number, a boolean, or
	// an id as a string); read it with [CommandOption.String],
	// [CommandOption.Int], [CommandOption.Float], [CommandOption.Bool] or
	// [CommandOption.Snowflake]. Nil when absent (sub-commands).
	Value   json.RawMessage `json:"value,omitempty"`
	Options []CommandOption `json:"options,omitempty"` // a sub-command's options
	Focused bool            `json:"focused,omitempty"` // the option being typed (autocomplete)
}

// StringValue returns a string option's value (for an autocomplete, what
// the user has typed so far); "" when the value is not a JSON string.
func (o *CommandOption) StringValue() string {
	var s string
	if json.Unmarshal(o.Value, &s) != nil {
		return ""
	}
	return s
}

// Int returns an integer option's value.
func (o *CommandOption) Int() (int64, error) { return strconv.ParseInt(string(o.Value), 10, 64) }

// Float returns a number option's value.
func (o *CommandOption) Float() (float64, error) { return strconv.ParseFloat(string(o.Value), 64) }

// Bool returns a boolean option's value.
func (o *CommandOption) Bool() (bool, error) { return strconv.ParseBool(string(o.Value)) }

// Snowflake returns a user, channel, role, mentionable or attachment
// option's id.
func (o *CommandOption) Snowflake() (Snowflake, error) {
	var s Snowflake
	err := json.Unmarshal(o.Value, &s)
	return s, err
}

// interactionFields is Interaction without its methods, for decoding.
type interactionFields Interaction

// UnmarshalJSON decodes an interaction and its data by type: a component
// type the SDK does not know (in the message, or in a modal submission)
// never fails the decoding. It keeps b in Raw.
func (it *Interaction) UnmarshalJSON(b []byte) error {
	var f interactionFields
	if err := decodeValue(b, &f); err != nil {
		return err
	}
	*it = Interaction(f)
	it.Raw = append(json.RawMessage(nil), b...)
	if len(it.Data) == 0 || string(it.Data) == "null" {
		return nil
	}
	var resolved json.RawMessage
	switch it.Type {
	case InteractionTypeMessageComponent:
		it.Component = new(components.InteractionData)
		if err := decodeValue(it.Data, it.Component); err != nil {
			return fmt.Errorf("interaction data: %w", err)
		}
		resolved = it.Component.Resolved
	case InteractionTypeModalSubmit:
		it.ModalSubmit = new(components.ModalSubmitData)
		if err := decodeValue(it.Data, it.ModalSubmit); err != nil {
			return fmt.Errorf("interaction data: %w", err)
		}
		resolved = it.ModalSubmit.Resolved
	case InteractionTypeApplicationCommand, InteractionTypeAutocomplete:
		it.Command = new(CommandData)
		if err := decodeValue(it.Data, it.Command); err != nil {
			return fmt.Errorf("interaction data: %w", err)
		}
		resolved = it.Command.Resolved
	}
	if len(resolved) > 0 && string(resolved) != "null" {
		it.Resolved = new(ResolvedData)
		if err := decodeValue(resolved, it.Resolved); err != nil {
			return fmt.Errorf("interaction data: resolved: %w", err)
		}
	}
	return nil
}

// Invoker returns the user who invoked the interaction: the member's user
// in a guild, the user in a DM; nil when the interaction has neither (PING).
func (it *Interaction) Invoker() *User {
	if it.Member != nil && it.Member.User != nil {
		return it.Member.User
	}
	return it.User
}

// CustomID returns the custom_id of a component interaction's component or
// of a submitted modal; "" for other types.
func (it *Interaction) CustomID() string {
	switch {
	case it.Component != nil:
		return it.Component.CustomID
	case it.ModalSubmit != nil:
		return it.ModalSubmit.CustomID
	}
	return ""
}

// String describes the interaction without its token: its type, id, and
// custom_id or command name.
func (it Interaction) String() string {
	s := "interaction " + it.Type.String() + " " + it.ID.String()
	if id := it.CustomID(); id != "" {
		s += " custom_id=" + strconv.Quote(id)
	} else if it.Command != nil {
		s += " command=" + strconv.Quote(it.Command.Name)
	}
	return s
}

// GoString is String: an interaction never prints its token.
func (it Interaction) GoString() string { return it.String() }

// Format prints String under every verb.
func (it Interaction) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, it.String()) }

// LogValue logs the interaction's id, type, application, guild, channel,
// invoker and custom_id or command, never its token.
func (it Interaction) LogValue() slog.Value {
	attrs := []slog.Attr{
		slog.String("id", it.ID.String()),
		slog.String("type", it.Type.String()),
		slog.String("application_id", it.ApplicationID.String()),
	}
	if g, ok := it.GuildID.Get(); ok {
		attrs = append(attrs, slog.String("guild_id", g.String()))
	}
	if c, ok := it.ChannelID.Get(); ok {
		attrs = append(attrs, slog.String("channel_id", c.String()))
	}
	if u := it.Invoker(); u != nil {
		attrs = append(attrs, slog.String("user_id", u.ID.String()))
	}
	if id := it.CustomID(); id != "" {
		attrs = append(attrs, slog.String("custom_id", id))
	}
	if it.Command != nil {
		attrs = append(attrs, slog.String("command", it.Command.Name))
	}
	return slog.GroupValue(attrs...)
}
