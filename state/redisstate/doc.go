// Package redisstate keeps a bot's guild state in Redis, so that many
// processes share it: the processes that run shards write it (a
// [state.Store]: attach it with [state.Attach] as the in-memory
// [state.Cache] is attached), and any number of processes read it (a
// [state.Reader]: an interactions endpoint behind a load balancer, a web
// dashboard, a worker). Permissions ([state.MemberPermissions] and its
// siblings) compute on it as on the in-memory cache.
//
//	rdb := redis.NewClient(&redis.Options{Addr: "localhost:6379"})
//	st := redisstate.New(rdb, redisstate.Options{Resync: redisstate.RESTResync(client)})
//	defer st.Close()
//	state.Attach(shard, st, nil) // in each gateway process
//
//	st := redisstate.New(rdb, redisstate.Options{}) // in a reader
//	m, err := st.Member(guildID, userID)
//
// # What is kept, and how
//
// Every guild's keys start with "<prefix>:{<guild id>}:", so in a Redis
// Cluster a guild lives on one hash slot, on one master. What one event
// changes in a guild is applied by one Lua script: a reader sees all of
// it or none. Each read is one script or one command, so what it returns
// of a guild is what one moment held. An iterator reads the guild's
// entries of its kind at once, a snapshot.
//
// Three indexes span guilds and are written just after the guild's
// script: the set of guilds, a map of channel ids to their guild, and the
// users (one key per user, kept [Options.UserTTL] after a member event
// last wrote it). A reader may find a channel just created not yet
// indexed (ErrNotFound, for one round trip), never an index entry whose
// value is half written. No token, and nothing secret, is part of any key
// or value.
//
// The writer's [Options.Policies] decide what is kept as they do for the
// in-memory cache: members by [state.Recent] by default, bounded policies
// trimmed per guild by least recent write in the same script. A guild's
// member copies its user (a Redis Cluster cannot update one user shared by
// guilds on other masters in one step); a presence's partial user is
// merged into the member of its guild and into the shared user copy.
//
// # Cost
//
// On one local redis-server (the benchmarks of this package, beside the
// in-memory cache): a member update about 0.1 ms (two round trips: the
// script, then the user and channel indexes), a member read 40 µs, a
// permission computation 0.15 ms (a few reads). A GUILD_CREATE of 1,000
// members is one script of about 50 ms, during which that Redis (that
// master, in a Cluster) serves nothing else. Reads that must not wait on
// the network belong to the in-memory cache; share through Redis what
// other processes need.
//
// # When Redis is unreachable
//
// A write that fails is not lost silently: Apply returns the error, and
// the writer remembers the guilds of the event; the events that follow are
// not held up by Redis (Apply returns [ErrUnavailable] at once) but their
// guilds are remembered too. As soon as Redis answers again (a retry every
// [Options.RetryInterval]), it
// marks them stale in Redis, so readers are told ([state.ErrStale] with
// the last values) rather than given wrong answers, and rebuilds each one
// through [Options.Resync] ([RESTResync] reads the guild, its roles,
// emojis, stickers, channels and active threads through REST); without
// Resync a guild stays stale until its next GUILD_CREATE. Meanwhile
// readers get the Redis client's error: an outage costs readers their
// answers for its length, and the writer one REST resync per guild that
// had an event during it. A writer process that dies loses nothing it has
// written; its shard's next session (READY, then GUILD_CREATEs) marks its
// guilds stale and rebuilds them. A Redis that lost its data (restarted
// empty, or a failover to a replica that was behind) is noticed at the
// next event of each guild the writer had written, and that guild is
// rebuilt as after an outage; a guild with no event stays missing
// (ErrNotFound) until then or its next GUILD_CREATE.
package redisstate
