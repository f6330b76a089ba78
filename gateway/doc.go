// Package gateway is guildkit's real-time client: it connects to the
// platform's gateway (v10, JSON), keeps the session alive, and hands the
// events the guild interface emits — members joining, bans, role and
// invite changes, messages, interactions — to typed handlers.
//
// The interface documents do not show the gateway; it follows the
// reference platform's v10 gateway, condensed in spec/gateway.md. Where
// that page and the platform differ, the platform wins, and the doc
// comment says so.
//
// # Quick start
//
//	rest, _ := guildkit.New(guildkit.BotToken(token), guildkit.WithBaseURL(base))
//	shard, _ := gateway.NewShard(token, gateway.WithClient(rest))
//	gateway.On(shard, func(ctx context.Context, e *gateway.GuildBanAdd) {
//		log.Printf("%s was banned from %s", e.User.Username, e.GuildID)
//	})
//	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
//	defer stop()
//	err := shard.Run(ctx, nil) // until Ctrl-C: then a resumable close, the handlers waited for
//
// [Shard.Run] (and [Manager.Run]) is a bot's whole life: open, run until
// the context ends or the shard stops by itself, close resumably, wait
// within a bound for the handlers (and for an interactions Handler:
// [RunOptions].Wait), save the session where asked ([RunOptions].Save),
// and return the error that stopped it — nil for the signal. [Shard.Open],
// [Shard.Close] and [Shard.End] are the steps, for programs that need them
// one by one.
//
// In a test against guildkittest's in-memory server, Server.Settle waits
// until the shard's handlers have handled every event a call caused
// ([Shard.WaitHandled]): one line, no sleep.
//
// A [Shard] is one connection and its session. A bot in more guilds than
// one session may carry (2500) runs several, one per shard id; they share
// an identify limiter ([WithIdentifyLimiter]) and a [Mux] ([WithMux]).
//
// # One goroutine per connection
//
// Each shard has an owner goroutine, shaped like golang.org/x/net/http2's
// server connection: it alone holds the session, the heartbeat state, the
// send window and the current connection. A reader goroutine per connection
// reads, inflates and decodes messages and hands them over a channel; dials
// and identify-limiter waits run in helper goroutines that post their
// result back; timers (heartbeat, backoff, HELLO timeout, send window) post
// to a channel too. Public methods talk to the owner through channels. No
// lock is ever held across network I/O, a sleep or a limiter wait, and every
// timer runs on the shard's [Clock] ([WithClock]; guildkittest's Server is
// one), so tests move time instead of sleeping.
//
// # Why github.com/coder/websocket
//
// The shard uses coder/websocket rather than gorilla/websocket:
//   - every call takes a context.Context, so a dial, a read or a write is
//     bounded and cancelled like everything else in guildkit;
//   - it has no dependencies of its own;
//   - concurrent writes are safe (gorilla allows one writer at a time, so
//     a heartbeat racing an application send needs a lock of its own);
//   - CloseNow drops a connection without a close frame, and Close sends
//     exactly the code asked for and waits for the handshake: a shard closes
//     with 4000 and the platform keeps the session for a resume. gorilla's
//     Close sends nothing at all, and a close frame has to be written by
//     hand with WriteControl, whose deadline and concurrency rules differ
//     from the data writes; libraries built on it ended up closing zombies
//     with 1000, which ends the session.
//
// Its read limit (32 KiB by default) is raised to [DefaultReadLimit]: a
// GUILD_CREATE of a large guild is megabytes.
//
// # Transport compression
//
// zlib-stream is on by default ([WithCompression]): one deflate stream for
// the connection, a new inflater for every connection (resumes included),
// each message ended by a sync flush (00 00 ff ff), binary frames appended
// until that suffix. The inflated size of a message is capped
// ([WithReadLimit]) so a hostile stream cannot exhaust memory.
// CompressionNone asks for plain text frames.
//
// # The decision table
//
// Every way a connection ends is decided by one table (table.go): resume,
// identify anew, or stop.
//
//	cause                                  then
//	op 7 Reconnect                         resume
//	op 9 Invalid Session, d true           resume
//	op 9 Invalid Session, d false          identify anew (a gap)
//	no close frame (TCP drop, 1006)        resume
//	zombie (no ACK, nothing else)          close 4000, resume
//	no HELLO in time                       resume
//	4000 4001 4002 4005 4008               resume
//	4003 not authenticated                 identify anew (a gap)
//	4007 invalid seq, 4009 timed out       identify anew (a gap)
//	4004 authentication failed             stop: *CloseError
//	4010 invalid shard                     stop: *CloseError
//	4011 sharding required                 stop: *CloseError
//	4012 invalid API version               stop: *CloseError
//	4013 invalid intents                   stop: *CloseError
//	4014 disallowed intents                stop: *CloseError, naming the privileged intents asked for
//	any other code (1000, 1001, 1011, ...) resume
//
// The platform's table says "reconnect" for 4003 without saying how; the
// session it refers to was never made or was invalidated, so the shard
// identifies. A resume on the platform's say-so that fails anyway ends in
// op 9 false, which identifies. A stop is never retried: a bad token
// retried in a loop gets the token reset. [CloseError]'s text says what to
// do.
//
// Resumes go to READY's resume_gateway_url, with the same query as the
// first connection; new sessions to the gateway's URL. A resume URL that
// does not connect is forgotten (the next resume uses the gateway's URL).
// Reconnects back off exponentially with full jitter, from
// [DefaultBackoffMin] up to [DefaultBackoffMax] ([WithBackoff]); READY or
// RESUMED resets the backoff.
//
// # Heartbeat and liveness
//
// The first beat goes heartbeat_interval × a random fraction after HELLO
// ([WithRandom]), then one every interval, with the last sequence number
// handed to the handlers (null before any). A beat the server asks for (op
// 1) goes at once. A connection is dead when no ACK came for the last beat
// and nothing else came either — a flood of GUILD_CREATEs after READY
// delays the ACK and must not be taken for a dead link — and while the
// queue is full the shard is not reading, so silence proves nothing then.
// (This is looser than gateway.md's rule, no ACK between two beats: a
// connection that keeps delivering events is kept; one that delivers
// nothing and acknowledges nothing is dead after one interval, as there.)
// A dead connection is closed with 4000 (never 1000 or 1001, which end the
// session) and resumed.
//
// # Events and the queue
//
// Register functions by event type with [On] (generics; no reflection per
// event), every event with [OnAny], interactions with [OnInteraction]. An
// event the SDK does not model arrives as a *[RawEvent]; one whose body does
// not decode is logged and skipped, never a disconnect. A panic in a
// function is recovered and logged.
//
// Events go to the functions through a bounded queue per shard
// ([WithQueueSize], [DefaultQueueSize]), in the gateway's order, one at a
// time on the shard's dispatch goroutine: the read loop never waits for
// application code and the heartbeat keeps going while a function is slow.
// When the queue is full the shard stops reading the connection — the
// platform buffers — rather than drop an event; it keeps heartbeating. The
// sequence number a heartbeat carries and a resume asks for is the last one
// handed to the queue, so a resume replays nothing twice and loses nothing:
// replayed events reach the functions once, in order.
//
// When a session is lost and the shard identifies anew, the events in
// between are gone: the functions get a *[SessionLost] (before the new
// READY), and the observer a [guildkit.GatewaySessionLost] signal, so the
// application can reconcile with REST.
//
// # Intents
//
// IDENTIFY asks for the intents the registered functions need, unless
// [WithIntents] sets them by hand. A function for an event whose intent is
// not asked for is a warning in the log when the shard opens, not a silent
// no-op. GUILD_MEMBERS (member events), GUILD_PRESENCES and
// MESSAGE_CONTENT are privileged: the application must have them enabled,
// else the platform closes with 4014.
//
// # Sending
//
// [Shard.UpdatePresence] (op 3) and [Shard.RequestGuildMembers] (op 8,
// whose GUILD_MEMBERS_CHUNK answers it collects) wait for READY and go
// through the connection's limiter: 120 payloads per 60 s, sliding, of
// which 5 are kept for heartbeats, IDENTIFY and RESUME, so a busy
// application never starves them. The platform counts the 60 s between
// the payloads' arrivals, so each payload keeps its place for 61.2 s from
// when it was written (a 2% margin for the transit, as the identify
// limiter keeps one): a burst sent a window after a slow one is not counted
// with it. A payload waiting belongs to the session, not to the
// connection: it goes out on the connection that resumes the session
// (a write that fails drops the connection and keeps the payload first in
// line), or, when the session is lost, fails with an error wrapping
// [ErrSessionLost]; the caller's context bounds the wait. A payload over
// 4096 bytes is refused with a [*PayloadTooLargeError] before it is sent
// (the platform would close with 4002).
//
// IDENTIFYs wait on a [ratelimit.IdentifyLimiter]: one per
// shard_id % max_concurrency per 5 s, in order, and the daily session-start
// budget from GET /gateway/bot ([WithClient]). The wait starts once HELLO
// came, with the connection heartbeating meanwhile (as discord.js does), so
// a connection that fails, or is lost during the wait, spends no session
// start and holds no key. When the budget is down to
// its reserve the shard stops identifying and fails with an error wrapping
// [ratelimit.ErrIdentifyBudget] rather than risk the token being reset.
//
// # Sessions that survive a restart
//
// [Shard.Close] closes with 4000, waits (bounded by its context) for the
// functions to finish the events already received, and returns the
// [Session]; a new shard given it with [WithSession] resumes instead of
// identifying, so a deploy costs no IDENTIFY and loses no event.
// [Shard.End] closes with 1000 and ends the session for good.
//
// # Signals
//
// Operators see connections, READY, RESUMED (with the number of events
// replayed), lost sessions, zombies, backoff and fatal closes in the log
// (slog, [WithLogger]) and through [guildkit.Observer]'s Gateway function
// ([WithObserver]). The token appears in none of them, nor in errors or in
// any fmt verb of a Shard.
//
// # Running many shards
//
// A bot in more guilds than one session may carry (2,500) runs shards: the
// platform sends guild_id's events to shard (guild_id >> 22) % num_shards
// ([ShardFor]) and DMs to shard 0. A [Manager] runs a set of them: all of
// num_shards, or a range when processes split the work ([WithShardIDs],
// [ShardRange]); num_shards is given ([WithShardCount]) or taken from GET
// /gateway/bot. It starts them bucket by bucket as the platform asks
// ([Buckets]: shards [b×max_concurrency, (b+1)×max_concurrency) together,
// a bucket per 5 s, plus a half-second margin for transit), so the last of
// N shards starts (ceil(N / max_concurrency) − 1) × 5.5 s after the first
// (64 at max_concurrency 16: 16.5 s) and no IDENTIFY is refused; hands every
// shard's events to one set of functions (gateway.On(manager, ...)), each
// shard's in order; reports each shard's status ([Manager.States], and
// every change to [WithStatusObserver], the waits for the identify limiter
// and for READY included); and returns every shard's session on
// [Manager.Close] for [WithSessions] to resume on the next start, so a
// redeploy costs no IDENTIFY. [Manager.Sessions] is a checkpoint to save
// now and then, for a process that dies without Close.
//
//	m, err := gateway.NewManager(token,
//		gateway.WithShardCount(16), gateway.WithShardIDs(gateway.ShardRange(4, 8)...), // this process: shards 4-7
//		gateway.WithShardOptions(gateway.WithClient(rest), gateway.WithIdentifyLimiter(limiter)))
//	gateway.On(m, func(ctx context.Context, e *gateway.GuildMemberAdd) { ... })
//	err = m.Open(ctx)
//
// Processes that share a token must share one identify limiter: the Redis
// one (module ratelimit/redisstore, [redisstore.NewIdentifyLimiter]) keeps
// the rate-limit keys, their queues and the daily budget where every
// process sees them. A process that dies mid-identify holds its key for the
// lease (15 s), no longer. What a Redis outage costs: while Redis is
// unavailable no process starts a new session (the limiter waits, and
// tries Redis every second), and a process that saw the outage waits 20 s
// (a lease and a window) after it began before its next IDENTIFY, in case
// Redis came back without its keys. A shard opened during the outage
// waits too (StatusWaiting; Open returns only when it is ready, or with
// ctx's error saying why it waits): the limiter cannot record the budget
// GET /gateway/bot reported, so the shard asks it again every second and
// identifies once it took it. Connected shards, and shards that
// resume, go on. So an outage delays new sessions by its length plus up to
// 20 s; it never lets two processes identify on one key in one window, and
// never spends the daily budget blind.
//
// Resharding without a gap: on a 4011 close (sharding required), or when
// asked ([Manager.Reshard]), the manager starts the new set alongside the
// old one, hands each guild's events to the new set once the new shard
// owning it has it (its GUILD_CREATE came), then ends the old set. Both
// sets receive a guild's events during the overlap: each is delivered once,
// by whichever set had it first, and the other copy is suppressed; one it
// cannot tell apart is delivered and counted ([Manager.Stats]). Resharding
// needs the manager to run every shard.
//
// A 4011 loses events: the platform has ended the shard's session, and its
// guilds are dark until the new shard owning them identifies. So the
// manager does not wait for it ([ReshardPolicy], [WithReshardPolicy]): it
// asks GET /gateway/bot every hour ([DefaultReshardInterval]; with
// [WithClient]) and reshards, without a gap, when the recommendation is
// more shards than run, or as soon as a shard carries more than 90% of the
// 2,500 guilds a session may (counted from READY, and with the GUILDS
// intent from GUILD_CREATE and GUILD_DELETE), to the larger of the
// recommendation and twice the count. 4011 is then the fallback for a bot
// that joins guilds faster than that. The cost: one GET /gateway/bot an
// hour, and per reshard an IDENTIFY per new shard from the daily budget,
// the new set's start (ceil(N / max_concurrency) × 5.5 s) and, during the
// overlap, both sets' connections.
//
// [redisstore.NewIdentifyLimiter]: https://pkg.go.dev/github.com/seed012df1e9/guildkit/ratelimit/redisstore#NewIdentifyLimiter
package gateway
