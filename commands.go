package guildkit

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
)

// The interface's documents do not cover application commands; this file
// follows the reference platform's v10 application-commands API, as
// spec/commands.md gathers it: the command and option objects, the routes
// and their statuses. commands_validate.go holds the rules every command is
// checked against before it is sent.

// CommandService registers an application's commands, globally or in one
// guild. Reach it through [Client].Commands. Every method takes the
// application's id: on the reference platform it is the bot user's id for
// the applications made today ([Interaction.ApplicationID] carries it too).
//
// Commands are checked before anything is sent ([CommandCreateParams.Validate]):
// a command the platform would refuse with 50035 fails with a
// [*ValidationError] listing every problem with its path, and nothing is
// sent. To keep the registered commands in step with a bot's code, declare
// them on package interactions' Handler and call its Sync.
type CommandService service

// Error codes of application commands (the reference platform's).
const (
	// CodeUnknownApplicationCommand: no such command (10063, with 404).
	CodeUnknownApplicationCommand ErrorCode = 10063
	// CodeUnknownCommandPermissions: the command has no permission
	// overwrites in the guild (10066, with 404).
	CodeUnknownCommandPermissions ErrorCode = 10066
	// CodeMaxApplicationCommands: the application has as many commands of
	// that type in that scope as it may (30032, with 400).
	CodeMaxApplicationCommands ErrorCode = 30032
	// CodeMaxDailyCommandCreates: 200 creates a day in one scope (30034,
	// with 400).
	CodeMaxDailyCommandCreates ErrorCode = 30034
	// CodeApplicationCommandExists: an edit would give two commands one
	// name (40041, with 400).
	CodeApplicationCommandExists ErrorCode = 40041
)

// InstallationContext is a way an application is installed: to a guild,
// or to a user. A command's IntegrationTypes list where it exists.
type InstallationContext int

// Installation contexts, the reference platform's.
const (
	InstallationGuild InstallationContext = 0 // GUILD_INSTALL
	InstallationUser  InstallationContext = 1 // USER_INSTALL
)

var installationContextNames = []string{"GUILD_INSTALL", "USER_INSTALL"}

// String returns the context's name, such as "GUILD_INSTALL".
func (c InstallationContext) String() string {
	return enumString("InstallationContext", installationContextNames, int(c))
}

// EntryPointHandler says who answers a PRIMARY_ENTRY_POINT command.
type EntryPointHandler int

// Entry point handlers, the reference platform's.
const (
	// EntryPointAppHandler: the application answers the interaction
	// (typically with LAUNCH_ACTIVITY).
	EntryPointAppHandler EntryPointHandler = 1
	// EntryPointLaunchActivity: the platform launches the Activity and
	// posts a message, without involving the application.
	EntryPointLaunchActivity EntryPointHandler = 2
)

var entryPointHandlerNames = []string{"", "APP_HANDLER", "DISCORD_LAUNCH_ACTIVITY"}

// String returns the handler's name, such as "APP_HANDLER".
func (h EntryPointHandler) String() string {
	return enumString("EntryPointHandler", entryPointHandlerNames, int(h))
}

// Command is an application command as the platform holds it.
type Command struct {
	ID            Snowflake   `json:"id"`
	Type          CommandType `json:"type"` // CHAT_INPUT when the answer leaves it out
	ApplicationID Snowflake   `json:"application_id"`
	// GuildID is the guild of a guild command; zero Opt when absent (a
	// global command).
	GuildID Opt[Snowflake] `json:"guild_id,omitzero"`
	Name    string         `json:"name"`
	// NameLocalizations maps locales to the name in that language; nil
	// when absent or null. List leaves them out unless asked
	// (CommandListParams.WithLocalizations).
	NameLocalizations map[string]string `json:"name_localizations,omitempty"`
	// NameLocalized is the name in the requester's language, on List
	// without localizations; zero Opt when absent.
	NameLocalized Opt[string] `json:"name_localized,omitzero"`
	// Description is "" for USER and MESSAGE commands.
	Description              string                    `json:"description"`
	DescriptionLocalizations map[string]string         `json:"description_localizations,omitempty"` // nil when absent or null
	DescriptionLocalized     Opt[string]               `json:"description_localized,omitzero"`      // zero Opt when absent
	Options                  []CommandOptionDefinition `json:"options,omitempty"`                   // CHAT_INPUT only
	// DefaultMemberPermissions are the permissions a member needs to use
	// the command; nil when null (no requirement). 0 hides it from all but
	// administrators and explicit overwrites.
	DefaultMemberPermissions *Permissions `json:"default_member_permissions"`
	// DMPermission is deprecated by the platform (use Contexts); zero Opt
	// when absent.
	DMPermission Opt[bool] `json:"dm_permission,omitzero"`
	// DefaultPermission is legacy; zero Opt when absent, Null when null.
	DefaultPermission Opt[bool] `json:"default_permission,omitzero"`
	NSFW              bool      `json:"nsfw,omitempty"` // age-restricted; false when absent
	// IntegrationTypes are where the command exists (global commands);
	// nil when absent.
	IntegrationTypes []InstallationContext `json:"integration_types,omitempty"`
	// Contexts are where it can be run (global commands); nil when absent
	// or null.
	Contexts []InteractionContextType `json:"contexts,omitempty"`
	// Version changes when the command changes substantially.
	Version Snowflake `json:"version"`
	// Handler is a PRIMARY_ENTRY_POINT's; zero Opt when absent.
	Handler Opt[EntryPointHandler] `json:"handler,omitzero"`
}

// commandFields is Command without its methods, for decoding.
type commandFields Command

// UnmarshalJSON decodes a command; a missing type is CHAT_INPUT, as the
// platform documents.
func (c *Command) UnmarshalJSON(b []byte) error {
	var f commandFields
	if err := decodeValue(b, &f); err != nil {
		return err
	}
	if f.Type == 0 {
		f.Type = CommandTypeChatInput
	}
	*c = Command(f)
	return nil
}

// Mention returns the way to mention the command (or one of its
// subcommands) in a message: "</name:id>", "</name sub:id>" or
// "</name group sub:id>".
func (c *Command) Mention(path ...string) string {
	s := "</" + c.Name
	for _, p := range path {
		s += " " + p
	}
	return s + ":" + c.ID.String() + ">"
}

// withoutLocalized returns a copy of opts without the read-only
// NameLocalized and DescriptionLocalized of each option and choice, at
// every depth; nil stays nil.
func withoutLocalized(opts []CommandOptionDefinition) []CommandOptionDefinition {
	if opts == nil {
		return nil
	}
	out := make([]CommandOptionDefinition, len(opts))
	for i, o := range opts {
		o.NameLocalized, o.DescriptionLocalized = Opt[string]{}, Opt[string]{}
		if o.Choices != nil {
			o.Choices = slices.Clone(o.Choices)
			for j := range o.Choices {
				o.Choices[j].NameLocalized = Opt[string]{}
			}
		}
		o.Options = withoutLocalized(o.Options)
		out[i] = o
	}
	return out
}

// Params returns the command as the params that would register it again:
// what [CommandService.BulkOverwrite] takes, without the fields the
// platform fills (id, version, application and guild).
func (c *Command) Params() CommandCreateParams {
	p := CommandCreateParams{
		Type: Some(c.Type), Name: c.Name, NameLocalizations: c.NameLocalizations,
		Description: c.Description, DescriptionLocalizations: c.DescriptionLocalizations,
		Options: withoutLocalized(c.Options), IntegrationTypes: c.IntegrationTypes, Contexts: c.Contexts,
		DMPermission: c.DMPermission, DefaultPermission: c.DefaultPermission, Handler: c.Handler,
	}
	if c.DefaultMemberPermissions != nil {
		p.DefaultMemberPermissions = Some(*c.DefaultMemberPermissions)
	} else {
		p.DefaultMemberPermissions = Null[Permissions]()
	}
	if c.NSFW {
		p.NSFW = Some(true)
	}
	return p
}

// CommandOptionDefinition is one option of a command as it is declared: a
// subcommand, a group of subcommands, or a parameter the user fills. (What
// the user gave arrives as a [CommandOption] in the interaction.) Zero
// values mean absent, and absent means what the zero says (not required,
// no autocomplete, no choices); the bounds are Opts because 0 is a bound.
// Which fields a type accepts is checked by [CommandCreateParams.Validate].
type CommandOptionDefinition struct {
	Type CommandOptionType `json:"type"`
	// Name is 1-32 characters: lower-case letters, digits, '-', '_',
	// apostrophes; unique among its siblings.
	Name              string            `json:"name"`
	NameLocalizations map[string]string `json:"name_localizations,omitempty"`
	// NameLocalized is the name in the requester's language, as List
	// without localizations returns it (read-only: the platform fills it;
	// [Command.Params] leaves it out); zero Opt when absent.
	NameLocalized Opt[string] `json:"name_localized,omitzero"`
	// Description is 1-100 characters.
	Description              string            `json:"description"`
	DescriptionLocalizations map[string]string `json:"description_localizations,omitempty"`
	// DescriptionLocalized is the description in the requester's
	// language, as NameLocalized; zero Opt when absent.
	DescriptionLocalized Opt[string] `json:"description_localized,omitzero"`
	// Required options come before optional ones (value options only).
	Required bool `json:"required,omitempty"`
	// Choices are the only values the user may pick (STRING, INTEGER,
	// NUMBER); at most 25; never with Autocomplete.
	Choices []CommandOptionChoice `json:"choices,omitempty"`
	// Options are a group's subcommands, or a subcommand's parameters; at
	// most 25.
	Options []CommandOptionDefinition `json:"options,omitempty"`
	// ChannelTypes are the channel types the picker offers (CHANNEL).
	ChannelTypes []ChannelType `json:"channel_types,omitempty"`
	// MinValue and MaxValue bound an INTEGER (whole numbers) or NUMBER,
	// inclusive; zero Opt when absent (no bound). Null is not allowed.
	MinValue Opt[float64] `json:"min_value,omitzero"`
	MaxValue Opt[float64] `json:"max_value,omitzero"` // zero Opt when absent
	// MinLength (0-6000) and MaxLength (1-6000) bound a STRING; zero Opt
	// when absent (0 and 6000). Null is not allowed.
	MinLength Opt[int] `json:"min_length,omitzero"`
	MaxLength Opt[int] `json:"max_length,omitzero"` // zero Opt when absent
	// Autocomplete makes the platform ask the application for suggestions
	// as the user types (STRING, INTEGER, NUMBER).
	Autocomplete bool `json:"autocomplete,omitempty"`
	// FileTypes restrict an ATTACHMENT: at most 10 of "image", "video",
	// "audio" or a dot-prefixed extension (".pdf").
	FileTypes []string `json:"file_types,omitempty"`
}

// CommandOptionChoice is one value the user may pick for an option, or one
// suggestion of an autocomplete answer.
type CommandOptionChoice struct {
	Name              string            `json:"name"` // 1-100 characters, shown to the user
	NameLocalizations map[string]string `json:"name_localizations,omitempty"`
	// NameLocalized is the name in the requester's language, as List
	// without localizations returns it (read-only); zero Opt when absent.
	NameLocalized Opt[string] `json:"name_localized,omitzero"`
	// Value is a string (at most 100 characters) for a STRING option, a
	// whole number (any Go integer type) for an INTEGER, a number for a
	// NUMBER. Decoded, it is a string, an int64 or a float64.
	Value any `json:"value"`
}

// choiceFields is CommandOptionChoice without its methods, for decoding.
type choiceFields struct {
	Name              string            `json:"name"`
	NameLocalizations map[string]string `json:"name_localizations,omitempty"`
	NameLocalized     Opt[string]       `json:"name_localized,omitzero"`
	Value             json.RawMessage   `json:"value"`
}

// UnmarshalJSON decodes a choice; its value becomes a string, an int64 (a
// JSON number without fraction or exponent) or a float64.
func (c *CommandOptionChoice) UnmarshalJSON(b []byte) error {
	var f choiceFields
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	v, err := choiceValue(f.Value)
	if err != nil {
		return fmt.Errorf("choice %q: %w", f.Name, err)
	}
	*c = CommandOptionChoice{Name: f.Name, NameLocalizations: f.NameLocalizations, NameLocalized: f.NameLocalized, Value: v}
	return nil
}

// choiceValue decodes a choice's JSON value.
func choiceValue(raw json.RawMessage) (any, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	if raw[0] == '"' {
		var s string
		err := json.Unmarshal(raw, &s)
		return s, err
	}
	if !bytes.ContainsAny(raw, ".eE") {
		if n, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
			return n, nil
		}
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil {
		return nil, fmt.Errorf("a value is a string or a number, got %s", raw)
	}
	return f, nil
}

// numberOf returns v as a float64 when it is a Go number, and whether it is
// a whole number.
func numberOf(v any) (f float64, whole, ok bool) {
	switch n := v.(type) {
	case int:
		return float64(n), true, true
	case int8:
		return float64(n), true, true
	case int16:
		return float64(n), true, true
	case int32:
		return float64(n), true, true
	case int64:
		return float64(n), true, true
	case uint:
		return float64(n), true, true
	case uint8:
		return float64(n), true, true
	case uint16:
		return float64(n), true, true
	case uint32:
		return float64(n), true, true
	case uint64:
		return float64(n), true, true
	case float32:
		f = float64(n)
	case float64:
		f = n
	case json.Number:
		g, err := n.Float64()
		if err != nil {
			return 0, false, false
		}
		f = g
	default:
		return 0, false, false
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return f, false, false
	}
	return f, f == math.Trunc(f), true
}

// CommandCreateParams declares a command: the body of
// [CommandService.Create] and an item of [CommandService.BulkOverwrite],
// and what package interactions' Handler registers. Check it with
// [CommandCreateParams.Validate]; every method does before sending.
type CommandCreateParams struct {
	// ID names the command a bulk overwrite item replaces; bulk overwrite
	// only (not allowed on Create). Zero Opt: matched by name and type.
	ID Opt[Snowflake] `json:"id,omitzero"`
	// Type is the command's type; default CHAT_INPUT. Null is not allowed.
	Type Opt[CommandType] `json:"type,omitzero"`
	// Name is 1-32 characters. CHAT_INPUT: lower-case letters, digits,
	// '-', '_' and apostrophes (any script), no spaces. USER and MESSAGE:
	// any case, spaces allowed. Required.
	Name string `json:"name"`
	// NameLocalizations maps locales ("fr", "pt-BR", ...) to names that
	// obey Name's rules. Nil: none.
	NameLocalizations map[string]string `json:"name_localizations,omitempty"`
	// Description is 1-100 characters for CHAT_INPUT (required); USER and
	// MESSAGE take none ("").
	Description              string            `json:"description,omitempty"`
	DescriptionLocalizations map[string]string `json:"description_localizations,omitempty"`
	// Options are the subcommands and groups, or the parameters, of a
	// CHAT_INPUT command: at most 25, not both kinds.
	Options []CommandOptionDefinition `json:"options,omitempty"`
	// DefaultMemberPermissions are the permissions a member needs to use
	// the command. Some(0): administrators (and explicit overwrites) only.
	// Null or absent: no requirement.
	DefaultMemberPermissions Opt[Permissions] `json:"default_member_permissions,omitzero"`
	// DMPermission: absent means usable in DMs with the application.
	// Global commands only; Null allowed (treated as absent). The platform
	// deprecated it in favour of Contexts; it is here to read and keep
	// what older registrations hold.
	DMPermission Opt[bool] `json:"dm_permission,omitzero"`
	// DefaultPermission defaults to true. Null allowed. Legacy on the
	// platform: prefer DefaultMemberPermissions Some(0).
	DefaultPermission Opt[bool] `json:"default_permission,omitzero"`
	// NSFW makes the command age-restricted; default false. Null is not
	// allowed.
	NSFW Opt[bool] `json:"nsfw,omitzero"`
	// IntegrationTypes are where the command exists (global commands);
	// nil: the application's installation contexts when it is created.
	IntegrationTypes []InstallationContext `json:"integration_types,omitempty"`
	// Contexts are where it can be run (global commands); nil: every
	// context its installation types allow.
	Contexts []InteractionContextType `json:"contexts,omitempty"`
	// Handler says who answers a PRIMARY_ENTRY_POINT (only that type).
	// Null is not allowed.
	Handler Opt[EntryPointHandler] `json:"handler,omitzero"`
}

// CommandEditParams is the body of [CommandService.Edit]: every field is
// optional, and a field sent replaces the stored one whole (Options
// replaces the entire option tree). The type cannot be changed.
type CommandEditParams struct {
	Name                     Opt[string]                    `json:"name,omitzero"`
	NameLocalizations        Opt[map[string]string]         `json:"name_localizations,omitzero"` // Null removes them
	Description              Opt[string]                    `json:"description,omitzero"`
	DescriptionLocalizations Opt[map[string]string]         `json:"description_localizations,omitzero"` // Null removes them
	Options                  Opt[[]CommandOptionDefinition] `json:"options,omitzero"`                   // Null removes them
	// DefaultMemberPermissions: Null removes the requirement.
	DefaultMemberPermissions Opt[Permissions] `json:"default_member_permissions,omitzero"`
	// DMPermission is deprecated by the platform (prefer Contexts).
	DMPermission Opt[bool] `json:"dm_permission,omitzero"`
	// DefaultPermission is legacy (prefer DefaultMemberPermissions).
	DefaultPermission Opt[bool]                     `json:"default_permission,omitzero"`
	NSFW              Opt[bool]                     `json:"nsfw,omitzero"` // Null is not allowed
	IntegrationTypes  Opt[[]InstallationContext]    `json:"integration_types,omitzero"`
	Contexts          Opt[[]InteractionContextType] `json:"contexts,omitzero"`
	Handler           Opt[EntryPointHandler]        `json:"handler,omitzero"` // Null is not allowed
}

// CommandListParams is the query of [CommandService.List] and
// [CommandService.ListGuild].
type CommandListParams struct {
	// WithLocalizations returns the full NameLocalizations and
	// DescriptionLocalizations instead of NameLocalized and
	// DescriptionLocalized (the requester's language only). Default false.
	WithLocalizations Opt[bool] `url:"with_localizations,omitempty"`
}

// Routes of the command operations.
const (
	routeGlobalCommands = "/applications/{application.id}/commands"
	routeGlobalCommand  = "/applications/{application.id}/commands/{command.id}"
	routeGuildCommands  = "/applications/{application.id}/guilds/{guild.id}/commands"
	routeGuildCommand   = "/applications/{application.id}/guilds/{guild.id}/commands/{command.id}"
)

// List returns the application's global commands (every type). Without
// WithLocalizations, each carries its name and description in the
// requester's language (NameLocalized) instead of every localization.
//
// Spec: "Get Global Application Commands" — GET /applications/{application.id}/commands
func (s *CommandService) List(ctx context.Context, applicationID Snowflake, params *CommandListParams, opts ...RequestOption) ([]Command, error) {
	return s.list(ctx, routeGlobalCommands, []any{applicationID}, params, opts)
}

// ListGuild returns the application's commands in the guild guildID (not
// the global ones), as [CommandService.List].
//
// Spec: "Get Guild Application Commands" — GET /applications/{application.id}/guilds/{guild.id}/commands
func (s *CommandService) ListGuild(ctx context.Context, applicationID, guildID Snowflake, params *CommandListParams, opts ...RequestOption) ([]Command, error) {
	return s.list(ctx, routeGuildCommands, []any{applicationID, guildID}, params, opts)
}

func (s *CommandService) list(ctx context.Context, route string, path []any, params *CommandListParams, opts []RequestOption) ([]Command, error) {
	var q any
	if params != nil {
		q = params
	}
	cmds := []Command{}
	if _, err := s.c.do(ctx, &request{method: http.MethodGet, route: route, path: path, query: q, opts: opts}, &cmds); err != nil {
		return nil, err
	}
	return cmds, nil
}

// Create registers a global command and returns it. Create is an upsert: a
// command of the same name and type is replaced (the platform answers 200
// and created is false); a new one answers 201 (created is true). Global
// commands are limited per application (100 CHAT_INPUT, 15 USER, 15
// MESSAGE, 1 PRIMARY_ENTRY_POINT: code 30032) and to 200 creates a day
// (30034). The command is checked before sending ([CommandCreateParams.Validate]).
//
// Spec: "Create Global Application Command" — POST /applications/{application.id}/commands
func (s *CommandService) Create(ctx context.Context, applicationID Snowflake, params *CommandCreateParams, opts ...RequestOption) (cmd *Command, created bool, err error) {
	return s.create(ctx, routeGlobalCommands, []any{applicationID}, CommandScopeGlobal, params, opts)
}

// CreateGuild registers a command in the guild guildID, as
// [CommandService.Create] does globally: an upsert (201 new, 200
// replaced), the same per-type limits per guild, and no
// PRIMARY_ENTRY_POINT. The application must be authorized in the guild
// (the applications.commands scope, which bot includes). Guild commands
// take effect at once.
//
// Spec: "Create Guild Application Command" — POST /applications/{application.id}/guilds/{guild.id}/commands
func (s *CommandService) CreateGuild(ctx context.Context, applicationID, guildID Snowflake, params *CommandCreateParams, opts ...RequestOption) (cmd *Command, created bool, err error) {
	return s.create(ctx, routeGuildCommands, []any{applicationID, guildID}, CommandScopeGuild, params, opts)
}

func (s *CommandService) create(ctx context.Context, route string, path []any, scope CommandScope, params *CommandCreateParams, opts []RequestOption) (*Command, bool, error) {
	if err := params.Validate(scope); err != nil { // nil too: "a command is required"
		return nil, false, err
	}
	var c Command
	res, err := s.c.do(ctx, &request{method: http.MethodPost, route: route, path: path, body: params, opts: opts}, &c)
	if err != nil {
		return nil, false, err
	}
	return &c, res.Status == http.StatusCreated, nil
}

// Get returns the global command commandID; an unknown one gives an
// [*APIError] matching [ErrNotFound] (code [CodeUnknownApplicationCommand]).
//
// Spec: "Get Global Application Command" — GET /applications/{application.id}/commands/{command.id}
func (s *CommandService) Get(ctx context.Context, applicationID, commandID Snowflake, opts ...RequestOption) (*Command, error) {
	return s.get(ctx, routeGlobalCommand, []any{applicationID, commandID}, opts)
}

// GetGuild returns the guild command commandID.
//
// Spec: "Get Guild Application Command" — GET /applications/{application.id}/guilds/{guild.id}/commands/{command.id}
func (s *CommandService) GetGuild(ctx context.Context, applicationID, guildID, commandID Snowflake, opts ...RequestOption) (*Command, error) {
	return s.get(ctx, routeGuildCommand, []any{applicationID, guildID, commandID}, opts)
}

func (s *CommandService) get(ctx context.Context, route string, path []any, opts []RequestOption) (*Command, error) {
	var c Command
	if _, err := s.c.do(ctx, &request{method: http.MethodGet, route: route, path: path, opts: opts}, &c); err != nil {
		return nil, err
	}
	return &c, nil
}

// Edit changes the global command commandID and returns it: each field
// sent replaces the stored one whole. A name another command of its type
// holds fails with code [CodeApplicationCommandExists]. The fields are
// checked before sending as far as they can be without the stored command
// (the platform checks the result whole).
//
// Spec: "Edit Global Application Command" — PATCH /applications/{application.id}/commands/{command.id}
func (s *CommandService) Edit(ctx context.Context, applicationID, commandID Snowflake, params *CommandEditParams, opts ...RequestOption) (*Command, error) {
	return s.edit(ctx, routeGlobalCommand, []any{applicationID, commandID}, CommandScopeGlobal, params, opts)
}

// EditGuild changes the guild command commandID, as [CommandService.Edit].
//
// Spec: "Edit Guild Application Command" — PATCH /applications/{application.id}/guilds/{guild.id}/commands/{command.id}
func (s *CommandService) EditGuild(ctx context.Context, applicationID, guildID, commandID Snowflake, params *CommandEditParams, opts ...RequestOption) (*Command, error) {
	return s.edit(ctx, routeGuildCommand, []any{applicationID, guildID, commandID}, CommandScopeGuild, params, opts)
}

func (s *CommandService) edit(ctx context.Context, route string, path []any, scope CommandScope, params *CommandEditParams, opts []RequestOption) (*Command, error) {
	if err := params.Validate(scope); err != nil {
		return nil, err
	}
	if params == nil {
		params = &CommandEditParams{}
	}
	var c Command
	if _, err := s.c.do(ctx, &request{method: http.MethodPatch, route: route, path: path, body: params, opts: opts}, &c); err != nil {
		return nil, err
	}
	return &c, nil
}

// Delete deletes the global command commandID (answers 204), dropping its
// permission overwrites in every guild.
//
// Spec: "Delete Global Application Command" — DELETE /applications/{application.id}/commands/{command.id}
func (s *CommandService) Delete(ctx context.Context, applicationID, commandID Snowflake, opts ...RequestOption) error {
	_, err := s.c.do(ctx, &request{method: http.MethodDelete, route: routeGlobalCommand, path: []any{applicationID, commandID}, opts: opts}, nil)
	return err
}

// DeleteGuild deletes the guild command commandID (answers 204).
//
// Spec: "Delete Guild Application Command" — DELETE /applications/{application.id}/guilds/{guild.id}/commands/{command.id}
func (s *CommandService) DeleteGuild(ctx context.Context, applicationID, guildID, commandID Snowflake, opts ...RequestOption) error {
	_, err := s.c.do(ctx, &request{method: http.MethodDelete, route: routeGuildCommand, path: []any{applicationID, guildID, commandID}, opts: opts}, nil)
	return err
}

// BulkOverwrite makes cmds the application's complete list of global
// commands, every type together: a command not in it is deleted (an empty
// list deletes them all), one matched by ID (or else by name and type)
// keeps its id. It returns the resulting list. New commands count toward
// the 200 daily creates. The list is checked whole before sending
// ([ValidateCommands]): paths start with the item's index ("[2].name").
//
// Spec: "Bulk Overwrite Global Application Commands" — PUT /applications/{application.id}/commands
func (s *CommandService) BulkOverwrite(ctx context.Context, applicationID Snowflake, cmds []CommandCreateParams, opts ...RequestOption) ([]Command, error) {
	return s.bulk(ctx, routeGlobalCommands, []any{applicationID}, CommandScopeGlobal, cmds, opts)
}

// BulkOverwriteGuild makes cmds the application's complete list of
// commands in the guild guildID, as [CommandService.BulkOverwrite].
//
// Spec: "Bulk Overwrite Guild Application Commands" — PUT /applications/{application.id}/guilds/{guild.id}/commands
func (s *CommandService) BulkOverwriteGuild(ctx context.Context, applicationID, guildID Snowflake, cmds []CommandCreateParams, opts ...RequestOption) ([]Command, error) {
	return s.bulk(ctx, routeGuildCommands, []any{applicationID, guildID}, CommandScopeGuild, cmds, opts)
}

func (s *CommandService) bulk(ctx context.Context, route string, path []any, scope CommandScope, cmds []CommandCreateParams, opts []RequestOption) ([]Command, error) {
	if err := ValidateCommands(scope, cmds); err != nil {
		return nil, err
	}
	if cmds == nil {
		cmds = []CommandCreateParams{} // [] deletes everything; never null
	}
	out := []Command{}
	if _, err := s.c.do(ctx, &request{method: http.MethodPut, route: route, path: path, body: cmds, opts: opts}, &out); err != nil {
		return nil, err
	}
	return out, nil
}
