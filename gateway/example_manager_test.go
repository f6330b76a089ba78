package gateway_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"log/slog"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/gateway"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// A bot's four shards in one process, against the in-memory server at
// max_concurrency 4 (one bucket: they identify together). Every shard's
// events reach the same functions; Close returns the sessions a restart
// resumes with gateway.WithSessions.
func ExampleNewManager() {
	srv := guildkittest.New(guildkittest.WithGateway(guildkittest.GatewaySettings{MaxConcurrency: 4}))
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{Name: "Gopher Guild"})

	m, err := gateway.NewManager(srv.Token(), gateway.WithShardCount(4),
		gateway.WithShardOptions(gateway.WithURL(srv.GatewayURL()), gateway.WithMaxConcurrency(4),
			gateway.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))))
	if err != nil {
		log.Fatal(err)
	}
	banned := make(chan string, 1)
	gateway.On(m, func(ctx context.Context, e *gateway.GuildBanAdd) {
		shard, _ := gateway.ShardOf(ctx)
		banned <- fmt.Sprintf("%s banned, seen by the guild's shard: %v", e.User.Username,
			shard == [2]int{gateway.ShardFor(e.GuildID, 4), 4})
	})
	ctx := context.Background()
	if err := m.Open(ctx); err != nil {
		log.Fatal(err)
	}
	for _, s := range m.States() {
		fmt.Printf("shard %d: %s\n", s.Shard[0], s.Status)
	}
	u := srv.AddUser(guildkit.User{Username: "spammer"})
	if err := srv.Client().Bans.Create(ctx, g.ID, u.ID, nil); err != nil {
		log.Fatal(err)
	}
	fmt.Println(<-banned)
	sessions, err := m.Close(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(sessions), "sessions to resume")
	// Output:
	// shard 0: ready
	// shard 1: ready
	// shard 2: ready
	// shard 3: ready
	// spammer banned, seen by the guild's shard: true
	// 4 sessions to resume
}
