package guildkit

import (
	"encoding/json"
	"strconv"
	"strings"
)

// CommandOptions reads the options a user gave a command, typed and by
// name, with the subcommand (and group) the user chose resolved: the
// values are the chosen leaf's parameters. Users, members, roles,
// channels and attachments come from the interaction's resolved data.
// Get one with [Interaction.CommandOptions]. The zero value has no
// options.
//
// The platform's client checks values against the declaration (required,
// choices, ranges) but the platform does not: a handler should still treat
// them as input (spec/commands.md §5.4).
type CommandOptions struct {
	path     []string
	opts     []CommandOption
	resolved *ResolvedData
}

// CommandOptions returns the options of a command or autocomplete
// interaction; for any other type, none.
func (it *Interaction) CommandOptions() CommandOptions {
	if it == nil || it.Command == nil {
		return CommandOptions{}
	}
	o := CommandOptions{opts: it.Command.Options, resolved: it.Resolved}
	for len(o.opts) == 1 && (o.opts[0].Type == CommandOptionSubCommand || o.opts[0].Type == CommandOptionSubCommandGroup) {
		o.path = append(o.path, o.opts[0].Name)
		o.opts = o.opts[0].Options
	}
	return o
}

// Subcommand returns the chosen group and subcommand, joined by a space
// ("user get", "reset"); "" for a command without subcommands.
func (o CommandOptions) Subcommand() string { return strings.Join(o.path, " ") }

// Has reports whether the user gave the option name.
func (o CommandOptions) Has(name string) bool { return o.find(name) != nil }

// Names returns the names of the options given, in order.
func (o CommandOptions) Names() []string {
	names := make([]string, 0, len(o.opts))
	for _, op := range o.opts {
		names = append(names, op.Name)
	}
	return names
}

func (o CommandOptions) find(name string) *CommandOption {
	for i := range o.opts {
		if o.opts[i].Name == name {
			return &o.opts[i]
		}
	}
	return nil
}

// text returns an option's value as text: a JSON string unquoted, anything
// else as it is.
func (op *CommandOption) text() string {
	var s string
	if len(op.Value) > 0 && op.Value[0] == '"' && json.Unmarshal(op.Value, &s) == nil {
		return s
	}
	return string(op.Value)
}

// String returns the STRING option name's value, and whether it was given.
func (o CommandOptions) String(name string) (string, bool) {
	op := o.find(name)
	if op == nil {
		return "", false
	}
	return op.text(), true
}

// Int returns the INTEGER option name's value, and whether it was given as
// a whole number.
func (o CommandOptions) Int(name string) (int64, bool) {
	op := o.find(name)
	if op == nil {
		return 0, false
	}
	n, err := strconv.ParseInt(op.text(), 10, 64)
	if err != nil {
		f, ferr := strconv.ParseFloat(op.text(), 64)
		if ferr != nil || f != float64(int64(f)) {
			return 0, false
		}
		n = int64(f)
	}
	return n, true
}

// Number returns the NUMBER (or INTEGER) option name's value, and whether
// it was given as a number.
func (o CommandOptions) Number(name string) (float64, bool) {
	op := o.find(name)
	if op == nil {
		return 0, false
	}
	f, err := strconv.ParseFloat(op.text(), 64)
	return f, err == nil
}

// Bool returns the BOOLEAN option name's value, and whether it was given.
func (o CommandOptions) Bool(name string) (bool, bool) {
	op := o.find(name)
	if op == nil {
		return false, false
	}
	b, err := strconv.ParseBool(op.text())
	return b, err == nil
}

// ID returns the id a USER, CHANNEL, ROLE, MENTIONABLE or ATTACHMENT option
// holds, and whether it was given.
func (o CommandOptions) ID(name string) (Snowflake, bool) {
	op := o.find(name)
	if op == nil {
		return 0, false
	}
	id, err := ParseSnowflake(op.text())
	return id, err == nil
}

// User returns the user a USER (or MENTIONABLE) option names, from the
// resolved data.
func (o CommandOptions) User(name string) (*User, bool) {
	return resolvedFor(o, name, func(r *ResolvedData) map[Snowflake]User { return r.Users })
}

// Member returns the member a USER (or MENTIONABLE) option names, with its
// User filled from the resolved users; false outside a guild or when the
// user is not a member.
func (o CommandOptions) Member(name string) (*Member, bool) {
	m, ok := resolvedFor(o, name, func(r *ResolvedData) map[Snowflake]Member { return r.Members })
	if ok && m.User == nil {
		m.User, _ = o.User(name)
	}
	return m, ok
}

// Role returns the role a ROLE (or MENTIONABLE) option names.
func (o CommandOptions) Role(name string) (*Role, bool) {
	return resolvedFor(o, name, func(r *ResolvedData) map[Snowflake]Role { return r.Roles })
}

// Channel returns the (partial) channel a CHANNEL option names.
func (o CommandOptions) Channel(name string) (*Channel, bool) {
	return resolvedFor(o, name, func(r *ResolvedData) map[Snowflake]Channel { return r.Channels })
}

// Attachment returns the file an ATTACHMENT option carries.
func (o CommandOptions) Attachment(name string) (*Attachment, bool) {
	return resolvedFor(o, name, func(r *ResolvedData) map[Snowflake]Attachment { return r.Attachments })
}

// resolvedFor returns a copy of the entry of the resolved data (the map
// of picks) that the option name holds the id of.
func resolvedFor[T any](o CommandOptions, name string, pick func(*ResolvedData) map[Snowflake]T) (*T, bool) {
	id, ok := o.ID(name)
	if !ok || o.resolved == nil {
		return nil, false
	}
	v, ok := pick(o.resolved)[id]
	if !ok {
		return nil, false
	}
	return &v, true
}

// Focused returns, in an autocomplete, the option being typed: its name,
// its type and the text typed so far (numbers arrive as text too, possibly
// ""); ok is false when no option is focused.
func (o CommandOptions) Focused() (name string, t CommandOptionType, text string, ok bool) {
	for i := range o.opts {
		if o.opts[i].Focused {
			return o.opts[i].Name, o.opts[i].Type, o.opts[i].text(), true
		}
	}
	return "", 0, "", false
}
