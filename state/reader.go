package state

import (
	"errors"
	"iter"
)

// Errors a read reports. Match them with errors.Is: an implementation may
// wrap them.
var (
	// ErrNotFound: the cache holds no such entry. Either it does not exist
	// or the policy of its kind does not keep it ([Fetcher] reads through
	// to REST).
	ErrNotFound = errors.New("state: not in the cache")
	// ErrStale: the value returned is the last one known, but the guild's
	// state may be out of date: an outage (the guild is unavailable), a
	// new session whose GUILD_CREATE for the guild has not come yet, or a
	// shared store's writer that lost writes. The value is returned with
	// the error; use it knowing that, or read through REST.
	ErrStale = errors.New("state: the guild's state may be out of date")
)

// Reader is what every cache offers its readers, in memory ([Cache]) or
// shared between processes (state/redisstate): typed reads by id and
// iterators. Every method is safe for concurrent use, also while events are
// applied; a value returned is a copy that never changes afterwards.
//
// A read answers a value and nil, a value and an error matching
// [ErrStale] (the last value known), the zero value and [ErrNotFound], or
// the zero value and the store's own error (a shared store that cannot be
// reached). An in-memory cache never blocks on the network.
//
// An iterator yields the entries of one guild as they are when it starts
// (a snapshot), in no particular order; a store error or [ErrStale] is
// yielded once, first, with a zero value, and for ErrStale iteration goes
// on with the last values known.
type Reader interface {
	// CurrentUser returns the bot's own user, from READY.
	CurrentUser() (User, error)

	// Guild returns the guild's own fields.
	Guild(guildID Snowflake) (Guild, error)
	// Guilds yields every guild kept, unavailable ones included.
	Guilds() iter.Seq2[Guild, error]

	// Channel returns a channel or thread by id.
	Channel(channelID Snowflake) (Channel, error)
	// Channels yields the guild's channels and threads.
	Channels(guildID Snowflake) iter.Seq2[Channel, error]

	// Role returns one of the guild's roles; the @everyone role has the
	// guild's id.
	Role(guildID, roleID Snowflake) (Role, error)
	// Roles yields the guild's roles.
	Roles(guildID Snowflake) iter.Seq2[Role, error]

	// Member returns a member of the guild, with its user.
	Member(guildID, userID Snowflake) (Member, error)
	// Members yields the guild's members the policy keeps.
	Members(guildID Snowflake) iter.Seq2[Member, error]

	// User returns a user the cache holds (a member's, or the bot's own).
	User(userID Snowflake) (User, error)

	// Emoji returns one of the guild's custom emojis.
	Emoji(guildID, emojiID Snowflake) (Emoji, error)
	// Emojis yields the guild's custom emojis.
	Emojis(guildID Snowflake) iter.Seq2[Emoji, error]
	// Sticker returns one of the guild's stickers.
	Sticker(guildID, stickerID Snowflake) (Sticker, error)
	// Stickers yields the guild's stickers.
	Stickers(guildID Snowflake) iter.Seq2[Sticker, error]

	// Presence returns a member's presence, when presences are kept.
	Presence(guildID, userID Snowflake) (Presence, error)
	// VoiceState returns a member's voice state, when voice states are
	// kept; a member not in voice has none.
	VoiceState(guildID, userID Snowflake) (VoiceState, error)
	// VoiceStates yields the guild's voice states.
	VoiceStates(guildID Snowflake) iter.Seq2[VoiceState, error]
}
