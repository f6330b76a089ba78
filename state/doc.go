// Package state keeps what a bot's guilds look like — guilds, channels and
// threads, roles, members and their users, emojis, stickers, and when asked
// presences and voice states — true from the gateway, and answers "what may
// this member do here" from it.
//
// It is opt-in: a bot that does not attach a cache pays nothing.
//
// # Keeping state
//
// [NewCache] returns an in-memory cache; [Cache.Attach] (or [Attach]) makes
// it follow a [gateway.Shard] or [gateway.Manager]:
//
//	cache := state.NewCache(nil) // the default policies
//	cache.Attach(shard, nil)
//	gateway.On(shard, func(ctx context.Context, e *gateway.GuildMemberUpdate) {
//		before, _ := cache.OldMember(ctx) // as it was
//		after, _ := cache.Member(e.GuildID, e.User.ID)
//		...
//	})
//
// What is kept is a [Policy] per kind ([Policies]): [Off], [All], [Guilds]
// (a predicate on the guild), [Bounded] (at most n per guild, the least
// recently written out) or [Recent] (members the bot saw act). By default
// members are Recent(100) — the bot's own member and those that posted,
// used an interaction, typed, reacted or joined voice — emojis and stickers
// are kept, presences and voice states are not. Guilds, their roles and
// channels and the bot's own member are always kept: permissions need them.
// [Policies.Intents] says which intents a policy needs; only a member
// policy of All, Guilds or Bounded asks for the privileged GUILD_MEMBERS
// (and then the cache asks for each guild's member list, op 8, after its
// GUILD_CREATE), and presences for GUILD_PRESENCES.
//
// What it costs, measured by state/statebench on a stream of 100
// GUILD_CREATEs of 1,000 members each with every nullable field set
// (nickname, avatars, banners, a timeout, decorations; 20 roles, 30
// channels, 10 emojis per guild), each user a member of two guilds:
//
//	policy                              per guild of 1,000 members   per member
//	members All, presences All          356 KB                       356 B
//	members All                         300 KB                       300 B
//	members Bounded(100)                 66 KB
//	the default (Recent(100))            19 KB (before anyone acts)
//
// With every user in one guild only (no sharing), members and presences
// cost 431 B each. Beside it, on the same stream, discordgo's State holds
// 1,623 B per member and disgo's cache 1,370 B: this cache holds 0.26 of
// the smaller (0.31 without shared users). A member is a 64-byte record
// and one allocation holding its nickname, hashes, flags and bits; its user
// is one 32-byte record and one allocation of its strings and flags,
// shared however many guilds the user is in and found by id (the member
// map's key), so no pointer per member; members with the same roles share
// one list; a presence is 16 bytes held in its guild's map, and the same
// activity is kept once. A string field is kept up to 255 bytes (no field
// the platform sends comes near). Over member churn (joins, updates and leaves at a steady rate) the
// heap stays level: it is bounded by the policy, not by time.
//
// Reproduce with:
//
//	cd state/statebench && go test -run '^$' -bench 'Memory|Policies' -benchtime=1x
//	go test -run '^$' -bench . ./state   # events applied, reads under writes, soak
//
// # Reads
//
// [Reader] is the read side every cache offers (this package's [Cache],
// and a shared one on Redis, state/redisstate): typed reads by id and
// iterators. Reads return values — copies of compact records, built on the
// stack — never pointers into the cache: nothing a read returned changes
// afterwards, and a read never blocks on the network. Lists inside a value
// ([IDs], [List]) are views of storage the cache never writes again. Values
// rather than shared immutable snapshots, because a snapshot per member
// would cost a pointer and an allocation per entry and per update, where a
// value costs a copy on the reader's stack (320 bytes for a Member); a read by
// id allocates nothing (TestReadsDoNotAllocate), and iterators copy the
// guild's entries of their kind once, under its lock, then yield.
//
// Each guild has its own read-write lock: a read holds it to copy one
// value; an event holds it while its changes to that guild are applied, so
// a reader sees an event wholly or not at all. Only the shard's dispatch
// goroutine writes (and a [Fetcher] storing what it fetched).
//
// [MemberPermissions], [MemberPermissionsIn], [RawPermissionsIn],
// [HighestRole], [CanManageMember] and [CanManageRole] compute by the
// platform's rules (permissions.md) on top of any Reader. A thread takes
// its parent's overwrites, and the SEND_MESSAGES implicit denial applies to
// it as to its parent (the spec's worked example); posting in it needs
// SEND_MESSAGES_IN_THREADS, which the result shows as is.
//
// [Fetcher] reads through to REST on a miss, stores what it fetched per
// the policies, and collapses concurrent misses of one entry into one
// request. [Learn] stores what a REST answer or an interaction returned.
//
// # When an event is applied
//
// Every event is turned into a short list of [Update]s by [Updates] (one
// function for every store, so that a guild looks the same whichever store
// keeps it); a [Store] applies the list of one event as one change.
// [Attach] registers the cache with [gateway.First]: it applies each event
// before any function registered with gateway.On or gateway.OnAny sees it,
// whatever the order of registration. A handler therefore reads the state
// after the event; what the event replaced or removed — the member before
// its update, the member who left, the role or channel deleted, the guild
// before its update — is kept for it ([Cache.OldMember], [Cache.OldRole],
// [Cache.OldChannel], [Cache.OldGuild], [Cache.OldUser],
// [Cache.OldPresence], [Cache.OldVoiceState]) until the next event of the
// same shard.
//
// # After a gap
//
// A resume replays what was missed: nothing to rebuild. A new session
// (op 9 false, a 4007 or 4009, a restart without a saved session) rebuilds
// the shard's guilds from its READY and GUILD_CREATEs: guilds of the shard
// that READY does not list are dropped with everything under them; the
// others read as stale ([ErrStale], the last values with the error) until
// their GUILD_CREATE replaces them; member lists are asked for again when
// the member policy keeps members wholesale, and refill in place (members
// the answer does not name are dropped once it is complete; memory never
// doubles). [AttachOptions.OnRebuild] tells the application when a shard's
// guilds are all filled, [AttachOptions.OnMembers] when a guild's member
// list is complete. A guild in an outage keeps its last state, marked
// unavailable and stale, until its GUILD_CREATE; a guild the bot left is
// dropped with everything under it.
//
// An in-memory cache starts empty: a process that starts again and
// resumes a saved session gets no READY or GUILD_CREATE, so its cache
// stays empty until it identifies anew. Keep state that outlives the
// process in a shared store (state/redisstate), or do not resume.
//
// # Sharing through Redis
//
// state/redisstate (a module of its own, on go-redis) is the same
// [Reader] and [Store] on Redis: gateway processes write, any number of
// processes read (an interactions endpoint behind a load balancer, a
// dashboard, a worker). One event is one script, so a reader never sees
// half of it. When Redis cannot be reached, the writer marks the guilds it
// could not write stale and rebuilds them when Redis is back; meanwhile
// readers get [ErrStale] for those guilds rather than wrong answers.
package state
