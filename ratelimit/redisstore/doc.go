// Package redisstore is a [ratelimit.Store] in Redis, so that every process
// sending with one token keeps the token's limits together: route buckets,
// the global limit (a sliding window: at most N requests in any window),
// the global pause after a global 429, and the count of invalid requests.
//
//	rdb := redis.NewClient(&redis.Options{
//		Addr: "localhost:6379",
//		// Notice an outage within a round trip: one dial of at most 200ms,
//		// no dial or command retries (the store tries again by itself).
//		DialTimeout: 200 * time.Millisecond, DialerRetries: 1, MaxRetries: -1,
//		ReadTimeout: 500 * time.Millisecond, WriteTimeout: 500 * time.Millisecond,
//	})
//	c, err := guildkit.New(guildkit.BotToken(token), guildkit.WithBaseURL(base),
//		guildkit.WithRateLimitStore(redisstore.New(rdb, redisstore.Options{})))
//
// Each Store operation is one Lua script run with EVALSHA (the script is
// sent once; Redis keeps it), so it is one atomic step in Redis and no lock
// is held across a round trip. Time is Redis's TIME, never a client's clock,
// so processes whose clocks disagree still agree on windows. All keys of a
// token start with "{gk:<hash of the token>}": they share one hash slot,
// every key a script touches is declared to Redis (none is made up inside a
// script), so the store works on a single node, with Sentinel, and on a
// Cluster (its tests run against a three-master one), and no key holds a
// token. Every key has a TTL: a bucket lives its idle TTL past its window's
// end, the global window its length.
//
// # When Redis is unavailable
//
// Redis is unavailable when it cannot be reached, or when it answers but
// refuses for its own state: out of memory under noeviction (OOM), a
// replica after a failover (READONLY), loading its data (LOADING), a
// replica cut from its master (MASTERDOWN), a Cluster down or moving a slot
// (CLUSTERDOWN, TRYAGAIN), or busy with a long script (BUSY). Only errors of
// the store itself (a script or its arguments) are returned as errors.
//
// While Redis is unavailable, the store keeps the limits locally, in a
// [ratelimit.MemoryStore], with a share ([Options.FallbackShare], a quarter
// by default) of the global rate and of every bucket's limit per window
// (at least one request), so that four processes cut off at once still keep
// the token's limits, and tries Redis again every [Options.RetryInterval].
// The client says so once through its rate-limit observer and its logger,
// with the error (an [ErrUnavailable] that names the cause, such as the
// refused connection go-redis retried), and again when Redis serves it
// again. It never fails open at the full rate, and never fails every call.
//
// What an outage costs: first, the time to notice it, which is the time a
// call to Redis takes to fail. With the client above, a refused connection
// fails at once and a silent one within the dial or read timeout; with
// go-redis's defaults (five dials 100ms apart, three command retries,
// seconds of timeouts) every call waits the store's [Options.Timeout] (1s)
// before it falls back. Then, because neither side knows what the other
// admitted, the first global window (about a second) after each change
// admits no new request, on the way down and on the way back. So an outage
// costs about a second without requests at its start, plus the time to
// notice it, and up to a second when Redis is back. In the module's outage
// test (four processes that together ask more than the global limit, so
// that requests go out in bursts a second apart even while Redis serves),
// the longest time without a request was 2.0s after Redis went with the
// client above and 2.9s with go-redis's defaults, against 1.0s while Redis
// served, and 1.0s after Redis came back. A bucket the fallback sent in
// stays held to its share until the window it sent in ends, though Redis
// is back: Redis has not seen those sends (the store remembers up to 4096
// such buckets). Invalid requests counted during the outage are added to
// Redis's count when it is back.
//
// # The gateway's identify budget
//
// [IdentifyLimiter] is the [ratelimit.IdentifyLimiter] in Redis, for
// gateway shards of one token spread over processes: one IDENTIFY per
// rate-limit key (shard_id % max_concurrency) per 5 seconds, callers of a
// key served first come, first served across processes, and the daily
// session-start budget counted in Redis at each take and refused at the
// reserve. A process that dies mid-identify holds its key for the lease
// (15s), no longer; a waiter that dies leaves the queue within about two
// seconds. Its keys are "{gk:<hash of the token>}:id:...", in the token's
// hash slot like the store's, each with a TTL.
//
//	limiter := redisstore.NewIdentifyLimiter(rdb, redisstore.IdentifyOptions{})
//	// give it to every shard (or shard manager) of the token, in every process
//
// What a Redis outage costs it: while Redis is unavailable no process
// starts a new session (Acquire waits, trying Redis every second), and a
// process that saw the outage waits a lease and a window (20s) after it
// began before its next IDENTIFY, in case Redis came back without the keys
// taken just before. SetLimit does not wait: it returns an error wrapping
// [ErrUnavailable] at once, and a gateway shard opened during the outage
// asks it again every second before its first IDENTIFY. Connected shards,
// and shards that resume, go on. So an outage delays new sessions by its length plus up to 20s; it never
// lets two processes identify on one key in one window, and never spends
// the budget blind. A Redis that loses its data also loses the day's
// count: it is learned again from the next GET /gateway/bot (SetLimit).
package redisstore
