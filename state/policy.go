package state

import "github.com/seed012df1e9/guildkit/gateway"

// Policy says which entries of one kind a cache keeps. The zero Policy is
// [Off].
type Policy struct {
	mode   policyMode
	limit  int
	guilds func(guildID Snowflake) bool
}

type policyMode uint8

const (
	modeOff     policyMode = iota
	modeAll                // everything
	modeGuilds             // everything in the guilds a predicate names
	modeBounded            // at most limit per guild, least recently used out
	modeRecent             // at most limit per guild, only those seen acting
)

// Off keeps nothing of the kind.
func Off() Policy { return Policy{} }

// All keeps everything of the kind. For members this means every member of
// every guild: the cache asks for the member lists (op 8) after each
// GUILD_CREATE, which needs the privileged GUILD_MEMBERS intent.
func All() Policy { return Policy{mode: modeAll} }

// Guilds keeps everything of the kind in the guilds keep reports true for.
// keep runs on the shard's dispatch goroutine; it must be fast and must not
// read the cache.
func Guilds(keep func(guildID Snowflake) bool) Policy {
	if keep == nil {
		return Off()
	}
	return Policy{mode: modeGuilds, guilds: keep}
}

// Bounded keeps at most n entries of the kind per guild, from every source;
// past n the least recently written ones go. n < 1 is [Off].
func Bounded(n int) Policy {
	if n < 1 {
		return Off()
	}
	return Policy{mode: modeBounded, limit: n}
}

// Recent keeps, per guild, at most n members the bot has seen act (post a
// message, use an interaction, join voice, react, type), and the updates of
// those; members that only appear in a GUILD_CREATE list or a join are not
// kept. It is the members' default, with n = [DefaultRecentMembers]. For
// other kinds it is [Bounded].
func Recent(n int) Policy {
	if n < 1 {
		return Off()
	}
	return Policy{mode: modeRecent, limit: n}
}

// DefaultRecentMembers is how many recently active members per guild the
// default member policy keeps.
const DefaultRecentMembers = 100

// keeps reports whether an entry of guildID from src may be added.
func (p Policy) keeps(guildID Snowflake, src Source) bool {
	switch p.mode {
	case modeAll, modeBounded:
		return true
	case modeGuilds:
		return p.guilds(guildID)
	case modeRecent:
		return src == SourceActivity || src == SourceREST || src == SourceInteraction
	}
	return false
}

// bound returns the most entries per guild, 0 for no bound.
func (p Policy) bound() int {
	if p.mode == modeBounded || p.mode == modeRecent {
		return p.limit
	}
	return 0
}

// Keeps reports whether the policy lets an entry of guildID that came from
// src be added (an entry already kept is always updated in place).
func (p Policy) Keeps(guildID Snowflake, src Source) bool { return p.keeps(guildID, src) }

// Limit returns the most entries per guild the policy keeps, 0 for no
// bound.
func (p Policy) Limit() int { return p.bound() }

// Wholesale reports whether the policy wants every entry of guildID: for
// members, whether the cache asks for the member list after a GUILD_CREATE.
func (p Policy) Wholesale(guildID Snowflake) bool {
	switch p.mode {
	case modeAll:
		return true
	case modeGuilds:
		return p.guilds(guildID)
	}
	return false
}

// Policies is a policy per kind. Guilds, their roles and channels (threads
// included), the bot's own user and its own member of each guild are
// always kept: permissions need them.
type Policies struct {
	// Members: default Recent(DefaultRecentMembers).
	Members Policy
	// Users not members of a kept member (a message author, a banned
	// user...): they are kept only while a member refers to them; the
	// users of members are always kept with them.
	//
	// Emojis and Stickers: default All.
	Emojis   Policy
	Stickers Policy
	// Presences and VoiceStates: default Off. Presences need the
	// privileged GUILD_PRESENCES intent, voice states GUILD_VOICE_STATES.
	Presences   Policy
	VoiceStates Policy
}

// DefaultPolicies returns the policies a cache has when none are given.
func DefaultPolicies() Policies {
	return Policies{
		Members:  Recent(DefaultRecentMembers),
		Emojis:   All(),
		Stickers: All(),
	}
}

// Intents returns the gateway intents the policies need: GUILDS always;
// GUILD_MEMBERS (privileged) when members are kept wholesale or bounded;
// GUILD_EXPRESSIONS for emojis and stickers; GUILD_PRESENCES (privileged)
// and GUILD_VOICE_STATES when kept. A member policy of [Recent] needs no
// privileged intent: what members do arrives with other intents
// (messages, interactions, voice) that the application asks for.
func (p Policies) Intents() gateway.Intents {
	i := gateway.IntentGuilds
	if p.Members.mode == modeAll || p.Members.mode == modeGuilds || p.Members.mode == modeBounded {
		i |= gateway.IntentGuildMembers
	}
	if p.Emojis.mode != modeOff || p.Stickers.mode != modeOff {
		i |= gateway.IntentGuildExpressions
	}
	if p.Presences.mode != modeOff {
		i |= gateway.IntentGuildPresences
	}
	if p.VoiceStates.mode != modeOff {
		i |= gateway.IntentGuildVoiceStates
	}
	return i
}
