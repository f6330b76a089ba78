package guildkittest

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/seed012df1e9/guildkit"
)

// CommandRun is a user running one of the application's commands. A
// command runs only as the platform's client lets a user run it
// (spec/commands.md §6): it is registered for the application, globally or
// in the guild it is run in; the member may use it (default member
// permissions; an age-restricted command only in an age-restricted
// channel); the options are those the client would send, with the
// subcommand chosen, required options filled, values of the option's type,
// within its ranges and lengths, one of its choices when it has choices, a
// member, role or channel of the guild (of the channel types given), a file
// of the file types given. Anything else is refused with [ErrRefused]
// before anything is delivered.
type CommandRun struct {
	UserID    guildkit.Snowflake // the member who runs it
	ChannelID guildkit.Snowflake // where; for a MESSAGE command, the message's channel
	Name      string             // the command's default name
	// Type is the command's type; 0 means CHAT_INPUT.
	Type guildkit.CommandType
	// Options are what the user entered (CHAT_INPUT): the chosen
	// subcommand (or group holding one subcommand) with its parameters
	// nested, or the parameters: make them with guildkit.StringOption,
	// guildkit.UserOption and the like. An option's Type may be left 0: it
	// is the declared one. ATTACHMENT values are left empty: Files gives
	// them.
	Options []guildkit.CommandOption
	// Files are the files of ATTACHMENT options, by option name.
	Files map[string]guildkit.File
	// TargetID is the member (USER) or the message (MESSAGE) the context
	// menu was opened on.
	TargetID guildkit.Snowflake
}

// RunCommand runs the application's slash command name (CHAT_INPUT) in a
// channel, as userID, with options, and returns what the user saw: it
// delivers an APPLICATION_COMMAND interaction as [Server.Click] delivers a
// component's. The command must be registered (globally, or in the
// channel's guild: [Server.AddCommand], or the bot's own registration) and
// the options must be what the platform's client would send; see
// [CommandRun]. A command's answer may open a modal.
//
// Make the options with guildkit's typed constructors:
//
//	srv.RunCommand(ctx, mod.ID, ch.ID, "warn",
//		guildkit.UserOption("user", troll.ID), guildkit.StringOption("reason", "spam"))
//
// An option written by hand (guildkit.CommandOption) may leave its Type 0:
// the server takes the type the command declares for it.
func (s *Server) RunCommand(ctx context.Context, userID, channelID guildkit.Snowflake, name string, options ...guildkit.CommandOption) (*Outcome, error) {
	return s.Run(ctx, CommandRun{UserID: userID, ChannelID: channelID, Name: name, Options: options})
}

// RunUserCommand runs the USER command name from the context menu of the
// member targetID, as userID in channelID.
func (s *Server) RunUserCommand(ctx context.Context, userID, channelID guildkit.Snowflake, name string, targetID guildkit.Snowflake) (*Outcome, error) {
	return s.Run(ctx, CommandRun{UserID: userID, ChannelID: channelID, Name: name, Type: guildkit.CommandTypeUser, TargetID: targetID})
}

// RunMessageCommand runs the MESSAGE command name from the context menu of
// the message messageID (one the server holds: an application's or a
// webhook's), as userID.
func (s *Server) RunMessageCommand(ctx context.Context, userID guildkit.Snowflake, name string, messageID guildkit.Snowflake) (*Outcome, error) {
	return s.Run(ctx, CommandRun{UserID: userID, Name: name, Type: guildkit.CommandTypeMessage, TargetID: messageID})
}

// Run runs a command as the platform's client would, and returns what the
// user saw. It is refused ([ErrRefused], nothing delivered) when the
// command is not registered where it is run, when the member may not use
// it, or when the options are not what the client would send (the rules
// are [CommandRun]'s).
func (s *Server) Run(ctx context.Context, run CommandRun) (*Outcome, error) {
	return s.command(ctx, guildkit.InteractionTypeApplicationCommand, run)
}

// Autocomplete sends what userID is typing in an option of the slash
// command name (APPLICATION_COMMAND_AUTOCOMPLETE): options as typed so far,
// the one being typed marked Focused (exactly one, an option declared with
// autocomplete). Its value is sent as the text typed, a string, as the
// platform does for numbers too; required options may be missing. The
// answer offers choices: the Outcome's Kind is [OutcomeAutocomplete] and
// its Response.Choices are the choices.
func (s *Server) Autocomplete(ctx context.Context, userID, channelID guildkit.Snowflake, name string, options ...guildkit.CommandOption) (*Outcome, error) {
	focused := 0
	var count func([]guildkit.CommandOption)
	count = func(opts []guildkit.CommandOption) {
		for _, o := range opts {
			if o.Focused {
				focused++
			}
			count(o.Options)
		}
	}
	count(options)
	if focused != 1 {
		return nil, refused("an autocomplete has exactly one focused option, got %d", focused)
	}
	return s.command(ctx, guildkit.InteractionTypeAutocomplete, CommandRun{UserID: userID, ChannelID: channelID, Name: name, Options: options})
}

func (s *Server) command(ctx context.Context, t guildkit.InteractionType, run CommandRun) (*Outcome, error) {
	if run.Type == 0 {
		run.Type = guildkit.CommandTypeChatInput
	}
	files, err := readModalFiles(commandFiles(run.Files))
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	st, err := s.commandInteractionLocked(t, run, files)
	s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return s.deliver(ctx, st)
}

// commandFiles puts the files of a run in the shape readModalFiles reads.
func commandFiles(files map[string]guildkit.File) ModalValues {
	out := ModalValues{}
	for name, f := range files {
		out[name] = []guildkit.File{f}
	}
	return out
}

// findCommandLocked finds the command a user in guildID can run: the
// guild's command of that name and type, else the global one.
func (s *Server) findCommandLocked(guildID guildkit.Snowflake, t guildkit.CommandType, name string) *guildkit.Command {
	for _, scope := range []guildkit.Snowflake{guildID, 0} {
		for _, c := range s.scopeLocked(s.appID(), scope).list {
			if c.Type == t && c.Name == name {
				return c
			}
		}
	}
	return nil
}

// commandInteractionLocked checks a run and makes its interaction.
func (s *Server) commandInteractionLocked(t guildkit.InteractionType, run CommandRun, files map[string][]webhookFile) (*interactionState, error) {
	var msg *guildkit.Message
	if run.Type == guildkit.CommandTypeMessage {
		wm, ok := s.wh().messages[run.TargetID]
		if !ok {
			return nil, refused("no message %s to open a context menu on", run.TargetID)
		}
		m := shaped(copyWebhookMessage(wm.msg))
		msg = &m
		if run.ChannelID == 0 {
			run.ChannelID = m.ChannelID
		} else if run.ChannelID != m.ChannelID {
			return nil, refused("message %s is in channel %s, not %s", run.TargetID, m.ChannelID, run.ChannelID)
		}
	}
	gs, ch, perms, err := s.userChannelLocked(run.UserID, run.ChannelID)
	if err != nil {
		return nil, err
	}
	cmd := s.findCommandLocked(gs.guild.ID, run.Type, run.Name)
	if cmd == nil {
		return nil, refused("the application has no %s command %q registered in guild %s or globally", run.Type, run.Name, gs.guild.ID)
	}
	if why := s.unusableLocked(cmd, gs, ch, run.UserID, perms); why != "" {
		return nil, refused("user %s cannot use the command %q: %s", run.UserID, run.Name, why)
	}
	data := guildkit.CommandData{ID: cmd.ID, Name: cmd.Name, Type: cmd.Type}
	if g, ok := cmd.GuildID.Get(); ok {
		data.GuildID = guildkit.Some(g)
	}
	res := &resolvedData{}
	rb := resolver{s: s, gs: gs, ch: ch, res: res}
	switch run.Type {
	case guildkit.CommandTypeChatInput:
		opts, err := checkCommandOptions(&rb, cmd, run.Options, files, t == guildkit.InteractionTypeAutocomplete)
		if err != nil {
			return nil, err
		}
		data.Options = opts
	case guildkit.CommandTypeUser:
		if len(run.Options) > 0 {
			return nil, refused("a USER command takes no options")
		}
		if !rb.user(run.TargetID) {
			return nil, refused("user %s is not a member of guild %s", run.TargetID, gs.guild.ID)
		}
		data.TargetID = guildkit.Some(run.TargetID)
	case guildkit.CommandTypeMessage:
		if len(run.Options) > 0 {
			return nil, refused("a MESSAGE command takes no options")
		}
		data.TargetID = guildkit.Some(run.TargetID)
	default:
		return nil, refused("a %s command is not run from the command palette", run.Type)
	}
	if t == guildkit.InteractionTypeAutocomplete && run.Type != guildkit.CommandTypeChatInput {
		return nil, refused("only a CHAT_INPUT command has autocomplete")
	}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if !rb.filesTaken[name] {
			return nil, refused("the file for %q: /%s was given no ATTACHMENT option %q to carry it", name, run.Name, name)
		}
	}
	raw, _ := json.Marshal(data)
	if !res.empty() || msg != nil {
		var m map[string]any
		_ = json.Unmarshal(raw, &m)
		r := map[string]any{}
		b, _ := json.Marshal(res)
		_ = json.Unmarshal(b, &r)
		if msg != nil {
			r["messages"] = map[string]any{msg.ID.String(): msg}
		}
		m["resolved"] = r
		raw, _ = json.Marshal(m)
	}
	st := s.newInteractionLocked(t, raw, gs, ch, run.UserID, perms, nil)
	st.customID = run.Name
	return st, nil
}

// unusableLocked says why the member may not use cmd in ch, or "".
func (s *Server) unusableLocked(cmd *guildkit.Command, gs *guildState, ch *guildkit.Channel, userID guildkit.Snowflake, perms guildkit.Permissions) string {
	admin := perms.Has(guildkit.PermissionAdministrator)
	if !admin && !perms.Has(guildkit.PermissionUseApplicationCommands) {
		return "no USE_APPLICATION_COMMANDS permission in the channel"
	}
	if need := cmd.DefaultMemberPermissions; need != nil && !admin && !gs.permissions(userID).Has(*need) {
		if *need == 0 {
			return "the command is for administrators only (default member permissions 0)"
		}
		return "the member lacks the command's default member permissions " + need.String()
	}
	if cmd.NSFW && (ch.NSFW == nil || !*ch.NSFW) {
		return "an age-restricted command runs only in an age-restricted channel"
	}
	if cmd.Contexts != nil && !slices.Contains(cmd.Contexts, guildkit.InteractionContextGuild) {
		return "the command's contexts do not include GUILD"
	}
	if cmd.Type == guildkit.CommandTypeUser && !perms.Has(guildkit.PermissionSendMessages) && !admin {
		return "Permission Denied: a USER command needs SEND_MESSAGES in the channel"
	}
	return ""
}

// resolver adds the entities option values name to the resolved data.
type resolver struct {
	s   *Server
	gs  *guildState
	ch  *guildkit.Channel
	res *resolvedData
	// filesTaken are the names of the ATTACHMENT options given, whose
	// files the run carries; a file given for no such option is refused.
	filesTaken map[string]bool
}

func (rb *resolver) user(id guildkit.Snowflake) bool {
	ms, ok := rb.gs.members[id]
	if !ok {
		return false
	}
	if rb.res.Users == nil {
		rb.res.Users, rb.res.Members = map[string]guildkit.User{}, map[string]map[string]any{}
	}
	rb.res.Users[id.String()] = shaped(*rb.s.userLocked(id))
	pm := partialMember(ms.member)
	pm["permissions"] = rb.s.channelPermissionsLocked(rb.gs, rb.ch, id)
	rb.res.Members[id.String()] = pm
	return true
}

func (rb *resolver) role(id guildkit.Snowflake) bool {
	r, ok := rb.gs.roles[id]
	if !ok {
		return false
	}
	if rb.res.Roles == nil {
		rb.res.Roles = map[string]guildkit.Role{}
	}
	rb.res.Roles[id.String()] = shaped(*r)
	return true
}

// checkCommandOptions checks a CHAT_INPUT run's options against the
// command's declaration and returns them as the interaction carries them.
func checkCommandOptions(rb *resolver, cmd *guildkit.Command, given []guildkit.CommandOption, files map[string][]webhookFile, autocomplete bool) ([]guildkit.CommandOption, error) {
	defs := cmd.Options
	label := "/" + cmd.Name
	hasSubs := slices.ContainsFunc(defs, func(d guildkit.CommandOptionDefinition) bool {
		return d.Type == guildkit.CommandOptionSubCommand || d.Type == guildkit.CommandOptionSubCommandGroup
	})
	if !hasSubs {
		return checkParams(rb, label, defs, given, files, autocomplete)
	}
	if len(given) != 1 {
		return nil, refused("%s is run through one of its subcommands: give one, got %d options", label, len(given))
	}
	g := given[0]
	def := findDef(defs, g.Name)
	if def == nil || (def.Type != guildkit.CommandOptionSubCommand && def.Type != guildkit.CommandOptionSubCommandGroup) {
		return nil, refused("%s has no subcommand or group %q", label, g.Name)
	}
	if g.Type != 0 && g.Type != def.Type {
		return nil, refused("%s %s is a %s, not a %s", label, g.Name, def.Type, g.Type)
	}
	if len(g.Value) > 0 {
		return nil, refused("%s %s is a %s: it takes options, not a value", label, g.Name, def.Type)
	}
	label += " " + g.Name
	out := guildkit.CommandOption{Name: def.Name, Type: def.Type}
	if def.Type == guildkit.CommandOptionSubCommandGroup {
		if len(g.Options) != 1 {
			return nil, refused("%s is run through one of its subcommands: give one, got %d", label, len(g.Options))
		}
		sg := g.Options[0]
		sub := findDef(def.Options, sg.Name)
		if sub == nil || sub.Type != guildkit.CommandOptionSubCommand {
			return nil, refused("%s has no subcommand %q", label, sg.Name)
		}
		params, err := checkParams(rb, label+" "+sg.Name, sub.Options, sg.Options, files, autocomplete)
		if err != nil {
			return nil, err
		}
		out.Options = []guildkit.CommandOption{{Name: sub.Name, Type: sub.Type, Options: params}}
		return []guildkit.CommandOption{out}, nil
	}
	params, err := checkParams(rb, label, def.Options, g.Options, files, autocomplete)
	if err != nil {
		return nil, err
	}
	out.Options = params
	return []guildkit.CommandOption{out}, nil
}

func findDef(defs []guildkit.CommandOptionDefinition, name string) *guildkit.CommandOptionDefinition {
	for i := range defs {
		if defs[i].Name == name {
			return &defs[i]
		}
	}
	return nil
}

// checkParams checks a leaf's parameters: known, once each, of their
// type and bounds, required ones present (but in an autocomplete).
func checkParams(rb *resolver, label string, defs []guildkit.CommandOptionDefinition, given []guildkit.CommandOption, files map[string][]webhookFile, autocomplete bool) ([]guildkit.CommandOption, error) {
	out := []guildkit.CommandOption{}
	seen := map[string]bool{}
	for _, g := range given {
		def := findDef(defs, g.Name)
		if def == nil || def.Type == guildkit.CommandOptionSubCommand || def.Type == guildkit.CommandOptionSubCommandGroup {
			return nil, refused("%s has no option %q", label, g.Name)
		}
		if seen[g.Name] {
			return nil, refused("%s: option %q given twice", label, g.Name)
		}
		seen[g.Name] = true
		if g.Type != 0 && g.Type != def.Type {
			return nil, refused("%s: option %q is a %s, not a %s", label, g.Name, def.Type, g.Type)
		}
		if len(g.Options) > 0 {
			return nil, refused("%s: option %q takes a value, not options", label, g.Name)
		}
		o := guildkit.CommandOption{Name: def.Name, Type: def.Type}
		if g.Focused {
			if !autocomplete {
				return nil, refused("%s: option %q is focused, but this is not an autocomplete", label, g.Name)
			}
			if !def.Autocomplete {
				return nil, refused("%s: option %q has no autocomplete", label, g.Name)
			}
			// The typed text goes as a string, whatever the type.
			text := string(g.Value)
			var s string
			if json.Unmarshal(g.Value, &s) == nil {
				text = s
			}
			o.Value, _ = json.Marshal(text)
			o.Focused = true
			out = append(out, o)
			continue
		}
		v, err := checkValue(rb, label, def, g.Value, files)
		if err != nil {
			return nil, err
		}
		o.Value = v
		out = append(out, o)
	}
	if !autocomplete {
		for _, d := range defs {
			if d.Required && !seen[d.Name] {
				return nil, refused("%s: option %q is required", label, d.Name)
			}
		}
	}
	return out, nil
}

// checkValue checks one value against its declaration and returns it as
// the interaction carries it.
func checkValue(rb *resolver, label string, def *guildkit.CommandOptionDefinition, raw json.RawMessage, files map[string][]webhookFile) (json.RawMessage, error) {
	bad := func(format string, args ...any) error {
		return refused("%s: option %q: %s", label, def.Name, fmt.Sprintf(format, args...))
	}
	if def.Type != guildkit.CommandOptionAttachment && (len(raw) == 0 || string(raw) == "null") {
		return nil, bad("a %s option needs a value", def.Type)
	}
	idOf := func() (guildkit.Snowflake, error) {
		var id guildkit.Snowflake
		if err := json.Unmarshal(raw, &id); err != nil || id == 0 {
			return 0, bad("takes an id, got %s", raw)
		}
		return id, nil
	}
	switch def.Type {
	case guildkit.CommandOptionString:
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return nil, bad("takes a string, got %s", raw)
		}
		n := utf8.RuneCountInString(s)
		lo, hi := def.MinLength.Or(0), def.MaxLength.Or(guildkit.MaxCommandOptionLength)
		if n < lo || n > hi {
			return nil, bad("takes %d to %d characters, got %d", lo, hi, n)
		}
		if len(def.Choices) > 0 && !slices.ContainsFunc(def.Choices, func(c guildkit.CommandOptionChoice) bool { return c.Value == s }) {
			return nil, bad("%q is not one of its choices", s)
		}
		return json.Marshal(s)
	case guildkit.CommandOptionInteger, guildkit.CommandOptionNumber:
		var f float64
		if json.Unmarshal(raw, &f) != nil || raw[0] == '"' {
			return nil, bad("takes a number, got %s", raw)
		}
		if def.Type == guildkit.CommandOptionInteger {
			if f != math.Trunc(f) || math.Abs(f) > guildkit.MaxCommandInteger {
				return nil, bad("takes a whole number within ±(2^53-1), got %s", raw)
			}
		} else if math.Abs(f) > guildkit.MaxCommandNumber {
			return nil, bad("takes a number within ±2^53, got %s", raw)
		}
		if lo, ok := def.MinValue.Get(); ok && f < lo {
			return nil, bad("%v is below its minimum %v", f, lo)
		}
		if hi, ok := def.MaxValue.Get(); ok && f > hi {
			return nil, bad("%v is above its maximum %v", f, hi)
		}
		if len(def.Choices) > 0 && !slices.ContainsFunc(def.Choices, func(c guildkit.CommandOptionChoice) bool {
			g, ok := choiceNumber(c.Value)
			return ok && g == f
		}) {
			return nil, bad("%v is not one of its choices", f)
		}
		if def.Type == guildkit.CommandOptionInteger {
			return json.RawMessage(strconv.FormatInt(int64(f), 10)), nil
		}
		return json.Marshal(f)
	case guildkit.CommandOptionBoolean:
		var b bool
		if json.Unmarshal(raw, &b) != nil {
			return nil, bad("takes true or false, got %s", raw)
		}
		return json.Marshal(b)
	case guildkit.CommandOptionUser:
		id, err := idOf()
		if err != nil {
			return nil, err
		}
		if !rb.user(id) {
			return nil, bad("%s is not a member of the guild", id)
		}
		return json.Marshal(id)
	case guildkit.CommandOptionRole:
		id, err := idOf()
		if err != nil {
			return nil, err
		}
		if !rb.role(id) {
			return nil, bad("%s is not a role of the guild", id)
		}
		return json.Marshal(id)
	case guildkit.CommandOptionMentionable:
		id, err := idOf()
		if err != nil {
			return nil, err
		}
		if !rb.user(id) && !rb.role(id) {
			return nil, bad("%s is neither a member nor a role of the guild", id)
		}
		return json.Marshal(id)
	case guildkit.CommandOptionChannel:
		id, err := idOf()
		if err != nil {
			return nil, err
		}
		target, ok := rb.gs.channels[id]
		if !ok {
			return nil, bad("%s is not a channel of the guild", id)
		}
		if len(def.ChannelTypes) > 0 && !slices.Contains(def.ChannelTypes, target.Type) {
			return nil, bad("channel %s is a %s, not among the option's channel types", id, target.Type)
		}
		if rb.res.Channels == nil {
			rb.res.Channels = map[string]map[string]any{}
		}
		rb.res.Channels[id.String()] = partialChannel(target, rb.s.channelPermissionsLocked(rb.gs, target, rb.s.bot))
		return json.Marshal(id)
	case guildkit.CommandOptionAttachment:
		fs := files[def.Name]
		if len(fs) != 1 {
			return nil, bad("takes one file (CommandRun.Files)")
		}
		if len(def.FileTypes) > 0 && !fileTypeAllowed(def.FileTypes, fs[0].filename) {
			return nil, bad("%q is not among the option's file types %v", fs[0].filename, def.FileTypes)
		}
		if rb.filesTaken == nil {
			rb.filesTaken = map[string]bool{}
		}
		rb.filesTaken[def.Name] = true
		a := rb.s.newAttachments(rb.ch.ID, nil, nil, fs)[0]
		if rb.res.Attachments == nil {
			rb.res.Attachments = map[string]guildkit.Attachment{}
		}
		rb.res.Attachments[a.ID.String()] = a
		return json.Marshal(a.ID)
	}
	return nil, bad("unknown option type %s", def.Type)
}

// fileGroups are the extensions of the file-type groups as the platform
// counts them today (reference.mdx warns that they change).
var fileGroups = map[string][]string{
	"image": {".png", ".gif", ".jpg", ".jpeg", ".jfif", ".webp", ".avif"},
	"video": {".mp4", ".mov", ".qt", ".webm"},
	"audio": {".mp3", ".m4a", ".wav", ".ogg", ".opus", ".flac"},
}

// fileTypeAllowed reports whether the file's extension is among types.
func fileTypeAllowed(types []string, filename string) bool {
	ext := strings.ToLower(path.Ext(filename))
	for _, t := range types {
		t = strings.ToLower(t)
		if t == ext || slices.Contains(fileGroups[t], ext) {
			return true
		}
	}
	return false
}

// choiceNumber is a choice value as a number, read from its JSON as the
// platform would: a choice declared with any Go number type the SDK's
// rules accept (int32, uint8, float32...) counts, not only int and int64.
func choiceNumber(v any) (float64, bool) {
	if _, isString := v.(string); isString {
		return 0, false
	}
	b, err := json.Marshal(v)
	if err != nil {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(b), 64)
	return f, err == nil
}
