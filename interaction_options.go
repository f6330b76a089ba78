package guildkit

import (
	"encoding/json"
	"strconv"
)

// The constructors below make the options a user gives a command, typed,
// as the platform sends them: for the in-memory server's RunCommand and
// Autocomplete in tests, or to build an [Interaction] by hand.
//
//	srv.RunCommand(ctx, mod.ID, ch.ID, "warn",
//		guildkit.UserOption("user", troll.ID), guildkit.StringOption("reason", "spam"))

// StringOption is a STRING option's value.
func StringOption(name, value string) CommandOption {
	b, _ := json.Marshal(value) // a string always encodes
	return CommandOption{Name: name, Type: CommandOptionString, Value: b}
}

// IntegerOption is an INTEGER option's value.
func IntegerOption(name string, value int64) CommandOption {
	return CommandOption{Name: name, Type: CommandOptionInteger, Value: json.RawMessage(strconv.FormatInt(value, 10))}
}

// NumberOption is a NUMBER option's value. NaN and the infinities have no
// JSON form: they are sent as 0.
func NumberOption(name string, value float64) CommandOption {
	b, err := json.Marshal(value)
	if err != nil {
		b = []byte("0")
	}
	return CommandOption{Name: name, Type: CommandOptionNumber, Value: b}
}

// BooleanOption is a BOOLEAN option's value.
func BooleanOption(name string, value bool) CommandOption {
	return CommandOption{Name: name, Type: CommandOptionBoolean, Value: json.RawMessage(strconv.FormatBool(value))}
}

// UserOption is a USER option's value: the user's id (the interaction's
// resolved data carries the user and member).
func UserOption(name string, id Snowflake) CommandOption {
	return idOption(name, CommandOptionUser, id)
}

// ChannelOption is a CHANNEL option's value: the channel's id.
func ChannelOption(name string, id Snowflake) CommandOption {
	return idOption(name, CommandOptionChannel, id)
}

// RoleOption is a ROLE option's value: the role's id.
func RoleOption(name string, id Snowflake) CommandOption {
	return idOption(name, CommandOptionRole, id)
}

// MentionableOption is a MENTIONABLE option's value: a user's or a role's
// id.
func MentionableOption(name string, id Snowflake) CommandOption {
	return idOption(name, CommandOptionMentionable, id)
}

// SubCommandOption is the sub-command the user chose, with its options.
func SubCommandOption(name string, options ...CommandOption) CommandOption {
	return CommandOption{Name: name, Type: CommandOptionSubCommand, Options: options}
}

// SubCommandGroupOption is the sub-command group the user chose, holding
// the one sub-command chosen in it ([SubCommandOption]).
func SubCommandGroupOption(name string, sub CommandOption) CommandOption {
	return CommandOption{Name: name, Type: CommandOptionSubCommandGroup, Options: []CommandOption{sub}}
}

func idOption(name string, t CommandOptionType, id Snowflake) CommandOption {
	return CommandOption{Name: name, Type: t, Value: json.RawMessage(strconv.Quote(id.String()))}
}
