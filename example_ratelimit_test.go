package guildkit_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// The client keeps a route's limit before the service enforces it: the
// second call waits for the bucket's reset instead of meeting a 429, and the
// observer is told of the wait.
func ExampleWithRateLimitObserver() {
	srv := guildkittest.New(guildkittest.WithRouteLimit("GET /guilds/{guild.id}", 1, 100*time.Millisecond))
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{Name: "Gopher Guild"})

	client := srv.Client(guildkit.WithRateLimitObserver(func(e guildkit.RateLimitEvent) {
		fmt.Println(e.Kind, e.Route)
	}))
	for range 2 {
		if _, err := client.Guilds.Get(context.Background(), g.ID, nil); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Println("429s served:", srv.RateLimited())
	// Output:
	// wait /guilds/{guild.id}
	// 429s served: 0
}

// A call that would rather fail than wait for a used-up bucket.
func ExampleWithoutRateLimitRetry() {
	srv := guildkittest.New(guildkittest.WithRouteLimit("GET /guilds/{guild.id}", 1, time.Minute))
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{})
	client := srv.Client()

	_, err := client.Guilds.Get(context.Background(), g.ID, nil, guildkit.WithoutRateLimitRetry())
	fmt.Println(err)
	_, err = client.Guilds.Get(context.Background(), g.ID, nil, guildkit.WithoutRateLimitRetry())
	var rl *guildkit.RateLimitError
	if errors.As(err, &rl) {
		fmt.Println("not sent:", rl.NotSent, "wait under a minute:", rl.RetryAfter <= time.Minute)
	}
	// Output:
	// <nil>
	// not sent: true wait under a minute: true
}
