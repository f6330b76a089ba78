// Package wire holds the primitives that package guildkit and package
// components share: [Snowflake], the tri-state optional field [Opt], the
// [ChannelType] enumeration and the [ValidationError] reported before a
// request is sent.
//
// Most programs never import wire directly: package guildkit re-exports every
// name here under an alias (guildkit.Snowflake, guildkit.Opt, guildkit.Some,
// ...), and package components does the same for the names it uses.
package wire
