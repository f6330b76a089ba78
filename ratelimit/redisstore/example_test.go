package redisstore_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
	"github.com/seed012df1e9/guildkit/ratelimit/redisstore"
)

// A client whose rate limits are kept in Redis with every process sharing
// the token. The go-redis options bound how long an outage takes to notice:
// one dial of at most 200ms, no retries of dials or commands (the store
// tries Redis again by itself), and half a second for an answer. Here
// nothing listens at the address, so the store falls back at the first call:
// the calls still succeed, at a share of the limits, and the observer is
// told once, with an error that wraps ErrUnavailable and names the refused
// connection.
func ExampleNew() {
	srv := guildkittest.New()
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{Name: "Gopher Guild"})

	rdb := redis.NewClient(&redis.Options{
		Addr:        "127.0.0.1:1", // nothing listens here
		DialTimeout: 200 * time.Millisecond, DialerRetries: 1, MaxRetries: -1,
		ReadTimeout: 500 * time.Millisecond, WriteTimeout: 500 * time.Millisecond,
	})
	defer rdb.Close()
	client := srv.Client(
		guildkit.WithRateLimitStore(redisstore.New(rdb, redisstore.Options{})),
		guildkit.WithRateLimitObserver(func(e guildkit.RateLimitEvent) {
			if e.Kind == guildkit.RateLimitStoreDown {
				fmt.Println("store down:", errors.Is(e.Err, redisstore.ErrUnavailable))
			}
		}))
	for i := range 2 {
		if _, err := client.Guilds.Get(context.Background(), g.ID, nil); err != nil {
			log.Fatal(err)
		}
		fmt.Println("call", i+1, "sent")
	}
	// Output:
	// store down: true
	// call 1 sent
	// call 2 sent
}

// The identify limiter that gateway shards of one token share across
// processes (give it to gateway.WithIdentifyLimiter, or to a shard
// manager's shard options). Here nothing listens at the address: the
// limiter lets no shard identify while Redis is unavailable; the caller
// gives up when its context ends, and Down says why.
func ExampleNewIdentifyLimiter() {
	rdb := redis.NewClient(&redis.Options{
		Addr:        "127.0.0.1:1", // nothing listens here
		DialTimeout: 200 * time.Millisecond, DialerRetries: 1, MaxRetries: -1,
	})
	defer rdb.Close()
	limiter := redisstore.NewIdentifyLimiter(rdb, redisstore.IdentifyOptions{})

	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err := limiter.Acquire(ctx, "the bot token", 0, 16)
	fmt.Println("identify:", err)
	fmt.Println("redis unavailable:", errors.Is(limiter.Down(), redisstore.ErrUnavailable))
	// Output:
	// identify: context deadline exceeded
	// redis unavailable: true
}
