// Package state keeps what a bot's guilds look like — guilds, channels and
// threads, roles, members and their users, emojis, stickers, and when asked
// presences and voice states — true from the gateway, and answers "what may
// this member do here" from it.
//
// It is opt-in: a bot that does not attach a cache pays nothing.
//
// # Keeping state
//
// [NewCache] returns an in-memory cache; [Attach] (or [Cache.Attach]) makes
// it follow a [gateway.Shard] or [gateway.Manager]:
//
//	cache := state.NewCache(nil) // default policies
//	cache.Attach(shard, nil)
//	gateway.On(shard, func(ctx context.Context, e *gateway.MessageCreate) {
//		m, err := cache.Member(*e.GuildID, e.Author.ID)
//		...
//	})
//
// What is kept is a [Policy] per kind ([Policies]): [Off], [All], [Guilds]
// (a predicate on the guild), [Bounded] (at most n per guild, least
// recently written out) or [Recent] (members the bot saw act). By default
// members are Recent(100) — the bot's own member and those that posted,
// clicked, typed, reacted or joined voice — emojis and stickers are kept,
// presences and voice states are not. Guilds, their roles and channels and
// the bot's own member are always kept: permissions need them.
//
// # Reads
//
// [Reader] is the read side every cache offers (this package's [Cache],
// and a shared one on Redis in state/redisstate): typed reads by id and
// iterators. Reads return values, copies of compact records, never
// pointers into the cache: nothing a read returned changes afterwards,
// and a read never blocks on the network. Lists inside a value ([IDs],
// [List]) share storage the cache never writes again.
//
// [MemberPermissions], [MemberPermissionsIn], [RawPermissionsIn],
// [HighestRole], [CanManageMember] and [CanManageRole] compute by the
// platform's rules on top of any Reader.
//
// # Applying events
//
// Every event is turned into a short list of [Update]s by [Updates] (one
// function for every store, so that a guild looks the same whichever store
// keeps it); a [Store] applies the list of one event as one change.
// [Attach] registers the cache with [gateway.First], so it applies an event
// before any handler of that event runs: handlers read the state after the
// event, and [Cache.Old] returns what the event replaced or removed (the
// member before its update, the deleted channel).
//
// # After a gap
//
// A resume replays what was missed: nothing to rebuild. A new session
// (a lost session, or a restart without one) rebuilds the shard's guilds
// from its READY and GUILD_CREATEs: guilds of the shard that READY does
// not list are dropped with everything under them; the others read as
// stale ([ErrStale]) until their GUILD_CREATE replaces them; member lists
// are asked for again when the member policy wants them, and refill in
// place. [AttachOptions.OnRebuild] tells the application when a shard's
// rebuild is complete. A guild in an outage keeps its last state, marked
// unavailable and stale, until it comes back; a guild the bot left is
// dropped with everything under it.
package state
