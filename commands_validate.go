package guildkit

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/seed012df1e9/guildkit/wire"
)

// The rules of spec/commands.md §3, checked before anything is sent. The
// in-memory server checks what it receives with the same functions, so a
// command the client accepts is one the server stores; the rules are the
// reference platform's, with the gaps spec/commands.md marks "(ours)"
// filled as it says.

// CommandScope is where commands are registered: globally, or in a guild.
// Some rules differ: no PRIMARY_ENTRY_POINT in a guild.
type CommandScope int

// Command scopes.
const (
	CommandScopeGlobal CommandScope = iota
	CommandScopeGuild
)

// Command limits, the reference platform's.
const (
	MaxCommandNameLength        = 32   // characters, commands and options
	MaxCommandDescriptionLength = 100  // characters, commands and options
	MaxCommandOptions           = 25   // options in one array
	MaxCommandChoices           = 25   // choices of an option; suggestions of an autocomplete answer
	MaxCommandChoiceNameLength  = 100  // characters
	MaxCommandChoiceValueLength = 100  // characters of a string choice's value
	MaxCommandOptionLength      = 6000 // the bound of min_length and max_length
	MaxCommandFileTypes         = 10   // file_types entries
	MaxCommandSize              = 8000 // characters of a CHAT_INPUT command's names, descriptions and values
	MaxCommandInteger           = 1<<53 - 1
	MaxCommandNumber            = 1 << 53
)

// MaxCommands is how many commands of a type an application may have in one
// scope (the same globally and per guild, except entry points).
func MaxCommands(scope CommandScope, t CommandType) int {
	switch t {
	case CommandTypeChatInput:
		return 100
	case CommandTypeUser, CommandTypeMessage:
		return 15 // raised from 5 on 2026-03-03
	case CommandTypePrimaryEntryPoint:
		if scope == CommandScopeGlobal {
			return 1
		}
	}
	return 0
}

// commandNameRE is the platform's rule for CHAT_INPUT and option names, in
// Go's RE2 spelling ({1,32} counts runes).
var commandNameRE = regexp.MustCompile(`^[-_'\p{L}\p{N}\p{Devanagari}\p{Thai}]{1,32}$`)

// Locales are the platform's 32 locales, the keys localizations take.
var Locales = []string{"id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl", "no", "pl",
	"pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th", "zh-CN", "ja", "zh-TW", "ko"}

// IsCommandName reports whether name is a valid CHAT_INPUT command or
// option name: 1-32 letters, digits, '-', '_', apostrophes, Devanagari or
// Thai, each letter in its lower-case form where it has one.
func IsCommandName(name string) bool {
	return commandNameRE.MatchString(name) && !hasUpper(name)
}

// hasUpper reports whether a letter of name is not in its lower-case form
// (letters without case pass).
func hasUpper(name string) bool {
	for _, r := range name {
		if unicode.ToLower(r) != r {
			return true
		}
	}
	return false
}

// checkChatName checks a CHAT_INPUT or option name at path.
func checkChatName(v *ValidationError, path, name string) {
	n := utf8.RuneCountInString(name)
	switch {
	case n == 0:
		v.Add(path, wire.CodeRequired, "a name is required")
	case n > MaxCommandNameLength:
		v.Add(path, wire.CodeLength, "1-%d characters, got %d", MaxCommandNameLength, n)
	case !commandNameRE.MatchString(name):
		v.Add(path, wire.CodeInvalid, "%q: only letters, digits, '-', '_' and apostrophes, no spaces", name)
	case hasUpper(name):
		v.Add(path, wire.CodeInvalid, "%q: letters must be lower-case", name)
	}
}

// checkLength checks a text of lo..hi characters at path.
func checkLength(v *ValidationError, path, s string, lo, hi int) {
	n := utf8.RuneCountInString(s)
	if n < lo || n > hi {
		if n == 0 {
			v.Add(path, wire.CodeRequired, "required: %d-%d characters", lo, hi)
			return
		}
		v.Add(path, wire.CodeLength, "%d-%d characters, got %d", lo, hi, n)
	}
}

// checkLocales checks a localization map's keys, and each value with check.
func checkLocales(v *ValidationError, path string, m map[string]string, check func(path, s string)) {
	for _, k := range localeKeys(m) {
		p := path + "." + k
		if !slices.Contains(Locales, k) {
			v.Add(p, wire.CodeInvalid, "%q is not one of the platform's locales", k)
			continue
		}
		check(p, m[k])
	}
}

func localeKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Validate checks a command against every rule of the platform before it
// is created in scope: names (the CHAT_INPUT pattern and lower-case rule),
// lengths, localizations (known locales, values by the same rules), at
// most 25 options and 25 choices, the nesting of subcommands and groups,
// required options before optional ones, unique option names, the fields
// each option type accepts, choices against autocomplete, bounds, and the
// 8000-character total. Every problem is reported with its path
// ("options[2].choices[25]"). ID is not allowed (bulk overwrites only:
// see [ValidateCommands]).
func (p *CommandCreateParams) Validate(scope CommandScope) error {
	if p == nil {
		return problem("", wire.CodeRequired, "a command is required")
	}
	var v ValidationError
	p.check(&v, scope, false)
	return v.Err()
}

// check adds p's problems to v.
func (p *CommandCreateParams) check(v *ValidationError, scope CommandScope, bulk bool) {
	if !bulk && p.ID.IsSet() {
		v.Add("id", wire.CodeNotAllowed, "an id is given only in a bulk overwrite")
	}
	notNull(v, "type", p.Type)
	notNull(v, "nsfw", p.NSFW)
	notNull(v, "handler", p.Handler)
	notNull(v, "id", p.ID)
	t := p.Type.Or(CommandTypeChatInput)
	switch t {
	case CommandTypeChatInput, CommandTypeUser, CommandTypeMessage:
	case CommandTypePrimaryEntryPoint:
		if scope == CommandScopeGuild {
			v.Add("type", wire.CodeNotAllowed, "a PRIMARY_ENTRY_POINT command is global only")
		}
	default:
		v.Add("type", wire.CodeInvalid, "%s is not a command type", t)
		return
	}
	// Names and descriptions.
	if t == CommandTypeChatInput {
		checkChatName(v, "name", p.Name)
		checkLocales(v, "name_localizations", p.NameLocalizations, func(path, s string) { checkChatName(v, path, s) })
		checkLength(v, "description", p.Description, 1, MaxCommandDescriptionLength)
		checkLocales(v, "description_localizations", p.DescriptionLocalizations, func(path, s string) {
			checkLength(v, path, s, 1, MaxCommandDescriptionLength)
		})
	} else {
		checkLength(v, "name", p.Name, 1, MaxCommandNameLength)
		checkLocales(v, "name_localizations", p.NameLocalizations, func(path, s string) { checkLength(v, path, s, 1, MaxCommandNameLength) })
		if t == CommandTypePrimaryEntryPoint {
			checkLength(v, "description", p.Description, 0, MaxCommandDescriptionLength)
			checkLocales(v, "description_localizations", p.DescriptionLocalizations, func(path, s string) {
				checkLength(v, path, s, 0, MaxCommandDescriptionLength)
			})
		} else {
			if p.Description != "" {
				v.Add("description", wire.CodeNotAllowed, "a %s command has no description", t)
			}
			for _, k := range localeKeys(p.DescriptionLocalizations) {
				if p.DescriptionLocalizations[k] != "" {
					v.Add("description_localizations."+k, wire.CodeNotAllowed, "a %s command has no description", t)
				}
			}
		}
	}
	if t != CommandTypeChatInput && len(p.Options) > 0 {
		v.Add("options", wire.CodeNotAllowed, "only a CHAT_INPUT command has options")
	}
	if h, ok := p.Handler.Get(); ok {
		if t != CommandTypePrimaryEntryPoint {
			v.Add("handler", wire.CodeNotAllowed, "only a PRIMARY_ENTRY_POINT command has a handler")
		} else if h != EntryPointAppHandler && h != EntryPointLaunchActivity {
			v.Add("handler", wire.CodeInvalid, "%s is not an entry point handler", h)
		}
	}
	checkInstallation(v, p.IntegrationTypes, p.Contexts)
	if t == CommandTypeChatInput {
		checkOptions(v, "options", p.Options, parentCommand)
		if n := commandSize(p); n > MaxCommandSize {
			v.Add("", wire.CodeLength, "the command's names, descriptions and values are %d characters together, at most %d", n, MaxCommandSize)
		}
	}
}

// checkInstallation checks integration types and contexts. An empty, non-nil
// ctxs is refused, as the platform refuses it: it would be sent as nothing
// and read back absent, which means every context.
func checkInstallation(v *ValidationError, its []InstallationContext, ctxs []InteractionContextType) {
	if ctxs != nil && len(ctxs) == 0 {
		v.Add("contexts", wire.CodeLength, "at least 1 interaction context, got none (leave it unset for every context)")
	}
	for i, it := range its {
		if it != InstallationGuild && it != InstallationUser {
			v.Add("integration_types"+indexPath(i, ""), wire.CodeInvalid, "%s is not an installation context", it)
		} else if slices.Index(its, it) != i {
			v.Add("integration_types"+indexPath(i, ""), wire.CodeDuplicate, "%s twice", it)
		}
	}
	for i, c := range ctxs {
		if c < InteractionContextGuild || c > InteractionContextPrivateChannel {
			v.Add("contexts"+indexPath(i, ""), wire.CodeInvalid, "%s is not an interaction context", c)
		} else if slices.Index(ctxs, c) != i {
			v.Add("contexts"+indexPath(i, ""), wire.CodeDuplicate, "%s twice", c)
		}
	}
}

// optionParent is what holds an options array.
type optionParent int

const (
	parentCommand optionParent = iota
	parentGroup
	parentSubcommand
)

// checkOptions checks an options array held by parent: the count, the
// nesting, required before optional, unique names, and each option.
func checkOptions(v *ValidationError, path string, opts []CommandOptionDefinition, parent optionParent) {
	if len(opts) > MaxCommandOptions {
		v.Add(path, wire.CodeLength, "at most %d options, got %d", MaxCommandOptions, len(opts))
	}
	subs, values := 0, 0
	seenOptional := false
	for i := range opts {
		o := &opts[i]
		op := path + indexPath(i, "")
		isSub := o.Type == CommandOptionSubCommand || o.Type == CommandOptionSubCommandGroup
		if isSub {
			subs++
		} else {
			values++
		}
		switch {
		case parent == parentGroup && o.Type != CommandOptionSubCommand:
			v.Add(op+".type", wire.CodePlacement, "a group holds subcommands only, got %s", o.Type)
		case parent == parentSubcommand && isSub:
			v.Add(op+".type", wire.CodePlacement, "a subcommand holds parameters only, got %s", o.Type)
		}
		checkOption(v, op, o)
		if !isSub {
			if o.Required && seenOptional {
				v.Add(op+".required", wire.CodePlacement, "required options come before optional ones")
			}
			if !o.Required {
				seenOptional = true
			}
		}
		for j := range i {
			if opts[j].Name == o.Name && o.Name != "" {
				v.Add(op+".name", wire.CodeDuplicate, "%q is the name of options[%d] too", o.Name, j)
				break
			}
		}
	}
	if parent == parentCommand && subs > 0 && values > 0 {
		v.Add(path, wire.CodeConflict, "a command has subcommands and groups, or parameters, not both")
	}
	checkLocalizedNames(v, path, opts)
}

// checkOption checks one option's own fields, and its children.
func checkOption(v *ValidationError, path string, o *CommandOptionDefinition) {
	if o.Type < CommandOptionSubCommand || o.Type > CommandOptionAttachment {
		v.Add(path+".type", wire.CodeInvalid, "%s is not an option type", o.Type)
		return
	}
	checkChatName(v, path+".name", o.Name)
	checkLocales(v, path+".name_localizations", o.NameLocalizations, func(p, s string) { checkChatName(v, p, s) })
	checkLength(v, path+".description", o.Description, 1, MaxCommandDescriptionLength)
	checkLocales(v, path+".description_localizations", o.DescriptionLocalizations, func(p, s string) {
		checkLength(v, p, s, 1, MaxCommandDescriptionLength)
	})
	t := o.Type
	isSub := t == CommandOptionSubCommand || t == CommandOptionSubCommandGroup
	notFor := func(field string, present bool, types string) {
		if present {
			v.Add(path+"."+field, wire.CodeNotAllowed, "a %s option has no %s (%s only)", t, field, types)
		}
	}
	notFor("required", isSub && o.Required, "value options")
	choicesOK := t == CommandOptionString || t == CommandOptionInteger || t == CommandOptionNumber
	notFor("choices", !choicesOK && len(o.Choices) > 0, "STRING, INTEGER, NUMBER")
	notFor("autocomplete", !choicesOK && o.Autocomplete, "STRING, INTEGER, NUMBER")
	numeric := t == CommandOptionInteger || t == CommandOptionNumber
	notFor("min_value", !numeric && o.MinValue.IsSet(), "INTEGER, NUMBER")
	notFor("max_value", !numeric && o.MaxValue.IsSet(), "INTEGER, NUMBER")
	notFor("min_length", t != CommandOptionString && o.MinLength.IsSet(), "STRING")
	notFor("max_length", t != CommandOptionString && o.MaxLength.IsSet(), "STRING")
	notFor("channel_types", t != CommandOptionChannel && len(o.ChannelTypes) > 0, "CHANNEL")
	notFor("file_types", t != CommandOptionAttachment && len(o.FileTypes) > 0, "ATTACHMENT")
	notFor("options", !isSub && len(o.Options) > 0, "SUB_COMMAND, SUB_COMMAND_GROUP")
	notNull(v, path+".min_value", o.MinValue)
	notNull(v, path+".max_value", o.MaxValue)
	notNull(v, path+".min_length", o.MinLength)
	notNull(v, path+".max_length", o.MaxLength)
	if o.Autocomplete && len(o.Choices) > 0 {
		v.Add(path+".autocomplete", wire.CodeConflict, "an option has choices or autocomplete, not both")
	}
	// Bounds.
	lo, hasLo := o.MinValue.Get()
	hi, hasHi := o.MaxValue.Get()
	if numeric {
		for _, b := range []struct {
			field string
			val   float64
			set   bool
		}{{"min_value", lo, hasLo}, {"max_value", hi, hasHi}} {
			if b.set {
				checkNumber(v, path+"."+b.field, t, b.val)
			}
		}
		if hasLo && hasHi && lo > hi {
			v.Add(path+".max_value", wire.CodeRange, "max_value %v is below min_value %v", hi, lo)
		}
	}
	minL, hasMinL := o.MinLength.Get()
	maxL, hasMaxL := o.MaxLength.Get()
	if hasMinL && (minL < 0 || minL > MaxCommandOptionLength) {
		v.Add(path+".min_length", wire.CodeRange, "0-%d, got %d", MaxCommandOptionLength, minL)
	}
	if hasMaxL && (maxL < 1 || maxL > MaxCommandOptionLength) {
		v.Add(path+".max_length", wire.CodeRange, "1-%d, got %d", MaxCommandOptionLength, maxL)
	}
	if hasMinL && hasMaxL && minL > maxL {
		v.Add(path+".max_length", wire.CodeRange, "max_length %d is below min_length %d", maxL, minL)
	}
	// Choices.
	if len(o.Choices) > MaxCommandChoices {
		v.Add(path+".choices"+indexPath(MaxCommandChoices, ""), wire.CodeLength, "at most %d choices", MaxCommandChoices)
	}
	if choicesOK {
		for i := range o.Choices {
			cp := path + ".choices" + indexPath(i, "")
			checkChoice(v, cp, t, &o.Choices[i])
			if f, _, ok := numberOf(o.Choices[i].Value); ok && numeric {
				if hasLo && f < lo {
					v.Add(cp+".value", wire.CodeRange, "%v is below min_value %v", f, lo)
				}
				if hasHi && f > hi {
					v.Add(cp+".value", wire.CodeRange, "%v is above max_value %v", f, hi)
				}
			}
		}
	}
	for i, ct := range o.ChannelTypes {
		if _, known := channelTypeKnown[ct]; !known {
			v.Add(path+".channel_types"+indexPath(i, ""), wire.CodeInvalid, "%s is not a channel type", ct)
		}
	}
	if len(o.FileTypes) > MaxCommandFileTypes {
		v.Add(path+".file_types", wire.CodeLength, "at most %d file types, got %d", MaxCommandFileTypes, len(o.FileTypes))
	}
	for i, ft := range o.FileTypes {
		if !validFileType(ft) {
			v.Add(path+".file_types"+indexPath(i, ""), wire.CodeInvalid, "%q: \"image\", \"video\", \"audio\" or an extension such as \".pdf\"", ft)
		}
	}
	// Children.
	switch t {
	case CommandOptionSubCommand:
		checkOptions(v, path+".options", o.Options, parentSubcommand)
	case CommandOptionSubCommandGroup:
		checkOptions(v, path+".options", o.Options, parentGroup)
	}
}

// channelTypeKnown holds the channel types a CHANNEL option may offer.
var channelTypeKnown = map[ChannelType]struct{}{
	ChannelTypeGuildText: {}, ChannelTypeDM: {}, ChannelTypeGuildVoice: {}, ChannelTypeGroupDM: {},
	ChannelTypeGuildCategory: {}, ChannelTypeGuildAnnouncement: {}, ChannelTypeAnnouncementThread: {},
	ChannelTypePublicThread: {}, ChannelTypePrivateThread: {}, ChannelTypeGuildStageVoice: {},
	ChannelTypeGuildDirectory: {}, ChannelTypeGuildForum: {}, ChannelTypeGuildMedia: {},
}

// validFileType accepts "image", "video", "audio" and ".ext".
func validFileType(ft string) bool {
	switch strings.ToLower(ft) {
	case "image", "video", "audio":
		return true
	}
	if len(ft) < 2 || ft[0] != '.' || utf8.RuneCountInString(ft) > 32 {
		return false
	}
	return !strings.ContainsAny(ft[1:], "./\\ \t")
}

// checkNumber checks an INTEGER or NUMBER value (a bound or a choice).
func checkNumber(v *ValidationError, path string, t CommandOptionType, f float64) {
	if t == CommandOptionInteger {
		if f != float64(int64(f)) {
			v.Add(path, wire.CodeInvalid, "an INTEGER option takes whole numbers, got %v", f)
		} else if f < -MaxCommandInteger || f > MaxCommandInteger {
			v.Add(path, wire.CodeRange, "-(2^53-1) to 2^53-1, got %v", f)
		}
		return
	}
	if f < -MaxCommandNumber || f > MaxCommandNumber {
		v.Add(path, wire.CodeRange, "-2^53 to 2^53, got %v", f)
	}
}

// checkChoice checks one choice of an option of type t.
func checkChoice(v *ValidationError, path string, t CommandOptionType, c *CommandOptionChoice) {
	checkLength(v, path+".name", c.Name, 1, MaxCommandChoiceNameLength)
	checkLocales(v, path+".name_localizations", c.NameLocalizations, func(p, s string) {
		checkLength(v, p, s, 1, MaxCommandChoiceNameLength)
	})
	switch t {
	case CommandOptionString:
		s, ok := c.Value.(string)
		if !ok {
			v.Add(path+".value", wire.CodeInvalid, "a STRING option's choice is a string, got %T", c.Value)
		} else if n := utf8.RuneCountInString(s); n > MaxCommandChoiceValueLength {
			v.Add(path+".value", wire.CodeLength, "at most %d characters, got %d", MaxCommandChoiceValueLength, n)
		}
	case CommandOptionInteger, CommandOptionNumber:
		f, _, ok := numberOf(c.Value)
		if !ok {
			v.Add(path+".value", wire.CodeInvalid, "a %s option's choice is a number, got %T", t, c.Value)
			return
		}
		checkNumber(v, path+".value", t, f)
	}
}

// CheckChoices checks the suggestions of an autocomplete answer for an
// option of type t: at most 25, each valid and of the option's type.
func CheckChoices(t CommandOptionType, choices []CommandOptionChoice) error {
	var v ValidationError
	if len(choices) > MaxCommandChoices {
		v.Add("choices"+indexPath(MaxCommandChoices, ""), wire.CodeLength, "at most %d choices", MaxCommandChoices)
	}
	for i := range choices {
		checkChoice(&v, "choices"+indexPath(i, ""), t, &choices[i])
	}
	return v.Err()
}

// checkLocalizedNames applies the rule on localized option names: one
// must differ from every other option's default name in the array, and
// from every other option's name in the same locale.
func checkLocalizedNames(v *ValidationError, path string, opts []CommandOptionDefinition) {
	for i := range opts {
		for _, loc := range localeKeys(opts[i].NameLocalizations) {
			name := opts[i].NameLocalizations[loc]
			for j := range opts {
				if j == i {
					continue
				}
				if opts[j].Name == name || (opts[j].NameLocalizations[loc] == name && j < i) {
					v.Add(path+indexPath(i, "")+".name_localizations."+loc, wire.CodeDuplicate,
						"%q is the name of options[%d] too", name, j)
					break
				}
			}
		}
	}
}

// commandSize adds up a CHAT_INPUT command's names, descriptions and
// values, each field counted at its longest localization.
func commandSize(p *CommandCreateParams) int {
	n := longest(p.Name, p.NameLocalizations) + longest(p.Description, p.DescriptionLocalizations)
	var walk func([]CommandOptionDefinition)
	walk = func(opts []CommandOptionDefinition) {
		for i := range opts {
			o := &opts[i]
			n += longest(o.Name, o.NameLocalizations) + longest(o.Description, o.DescriptionLocalizations)
			for _, c := range o.Choices {
				n += longest(c.Name, c.NameLocalizations) + utf8.RuneCountInString(choiceText(c.Value))
			}
			walk(o.Options)
		}
	}
	walk(p.Options)
	return n
}

// choiceText is a choice value as text: a string itself, a number in its
// decimal form.
func choiceText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	if f, whole, ok := numberOf(v); ok {
		if whole {
			return strconv.FormatInt(int64(f), 10)
		}
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return fmt.Sprint(v)
}

func longest(def string, locs map[string]string) int {
	n := utf8.RuneCountInString(def)
	for _, s := range locs {
		n = max(n, utf8.RuneCountInString(s))
	}
	return n
}

// ValidateCommands checks a bulk overwrite's list: each command as
// [CommandCreateParams.Validate] does (ids allowed), no two of one type with
// one name, no two with one id, and no more of a type than [MaxCommands]
// allows. Paths start with the item's index ("[2].options[0].name").
func ValidateCommands(scope CommandScope, cmds []CommandCreateParams) error {
	var v ValidationError
	counts := map[CommandType]int{}
	type key struct {
		t    CommandType
		name string
	}
	names := map[key]int{}
	ids := map[Snowflake]int{}
	for i := range cmds {
		var item ValidationError
		cmds[i].check(&item, scope, true)
		v.Merge(indexPath(i, ""), &item)
		t := cmds[i].Type.Or(CommandTypeChatInput)
		counts[t]++
		k := key{t, cmds[i].Name}
		if j, dup := names[k]; dup {
			v.Add(indexPath(i, "name"), wire.CodeDuplicate, "%q is the name of the %s command [%d] too", k.name, t, j)
		} else {
			names[k] = i
		}
		if id, ok := cmds[i].ID.Get(); ok {
			if j, dup := ids[id]; dup {
				v.Add(indexPath(i, "id"), wire.CodeDuplicate, "%s is the id of [%d] too", id, j)
			} else {
				ids[id] = i
			}
		}
	}
	for _, t := range []CommandType{CommandTypeChatInput, CommandTypeUser, CommandTypeMessage, CommandTypePrimaryEntryPoint} {
		if limit := MaxCommands(scope, t); counts[t] > limit && (t != CommandTypePrimaryEntryPoint || scope == CommandScopeGlobal) {
			v.Add("", wire.CodeLength, "at most %d %s commands, got %d", limit, t, counts[t])
		}
	}
	return v.Err()
}

// Validate checks an edit's fields as far as they can be checked without
// the stored command: names by the context-menu rule (1-32 characters; the
// CHAT_INPUT pattern too when Options are given, which only CHAT_INPUT
// commands take), descriptions, options, localizations.
func (p *CommandEditParams) Validate(scope CommandScope) error {
	if p == nil {
		return nil
	}
	var v ValidationError
	notNull(&v, "name", p.Name)
	notNull(&v, "description", p.Description)
	notNull(&v, "nsfw", p.NSFW)
	notNull(&v, "handler", p.Handler)
	chat := p.Options.IsSet() && !p.Options.IsNull()
	if name, ok := p.Name.Get(); ok {
		if chat {
			checkChatName(&v, "name", name)
		} else {
			checkLength(&v, "name", name, 1, MaxCommandNameLength)
		}
	}
	if locs, ok := p.NameLocalizations.Get(); ok {
		checkLocales(&v, "name_localizations", locs, func(path, s string) { checkLength(&v, path, s, 1, MaxCommandNameLength) })
	}
	if d, ok := p.Description.Get(); ok {
		checkLength(&v, "description", d, 0, MaxCommandDescriptionLength)
	}
	if locs, ok := p.DescriptionLocalizations.Get(); ok {
		checkLocales(&v, "description_localizations", locs, func(path, s string) { checkLength(&v, path, s, 0, MaxCommandDescriptionLength) })
	}
	if opts, ok := p.Options.Get(); ok {
		checkOptions(&v, "options", opts, parentCommand)
	}
	if h, ok := p.Handler.Get(); ok && h != EntryPointAppHandler && h != EntryPointLaunchActivity {
		v.Add("handler", wire.CodeInvalid, "%s is not an entry point handler", h)
	}
	its, _ := p.IntegrationTypes.Get()
	ctxs, _ := p.Contexts.Get()
	checkInstallation(&v, its, ctxs)
	return v.Err()
}
