package gateway_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/gateway"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// A moderation log: every ban, as it happens. The in-memory server plays
// the platform; with a real token, give NewShard the token and a client of
// the real interface.
func ExampleOn() {
	srv := guildkittest.New()
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{Name: "Makers"})
	u := srv.AddUser(guildkit.User{Username: "mallory"})
	srv.AddMember(g.ID, guildkit.Member{User: &u})

	shard, err := gateway.NewShard(srv.Token(), gateway.WithClient(srv.Client()),
		gateway.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	if err != nil {
		panic(err)
	}
	banned := make(chan string, 1)
	gateway.On(shard, func(ctx context.Context, e *gateway.GuildBanAdd) {
		banned <- e.User.Username
	})
	ctx := context.Background()
	if err := shard.Open(ctx); err != nil {
		panic(err)
	}
	fmt.Println("intents:", shard.Intents())
	if err := srv.Client().Bans.Create(ctx, g.ID, u.ID, nil); err != nil {
		panic(err)
	}
	fmt.Println(<-banned, "was banned")
	if err := shard.End(ctx); err != nil {
		panic(err)
	}
	// Output:
	// intents: GUILD_MODERATION
	// mallory was banned
}

// A restart that costs no IDENTIFY: Close returns the session, and a new
// shard given it resumes, receiving what happened in between.
func ExampleShard_Close() {
	srv := guildkittest.New()
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{Name: "Makers"})
	quiet := gateway.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))
	ctx := context.Background()

	first, _ := gateway.NewShard(srv.Token(), gateway.WithClient(srv.Client()), gateway.WithIntents(gateway.IntentGuilds), quiet)
	if err := first.Open(ctx); err != nil {
		panic(err)
	}
	sess, err := first.Close(ctx) // a deploy: save sess somewhere
	if err != nil {
		panic(err)
	}
	_, _ = srv.Client().Roles.Create(ctx, g.ID, &guildkit.RoleCreateParams{Name: guildkit.Some("Artist")})

	second, _ := gateway.NewShard(srv.Token(), gateway.WithClient(srv.Client()), gateway.WithIntents(gateway.IntentGuilds),
		gateway.WithSession(sess), quiet)
	created := make(chan string, 1)
	gateway.On(second, func(ctx context.Context, e *gateway.GuildRoleCreate) { created <- e.Role.Name })
	if err := second.Open(ctx); err != nil {
		panic(err)
	}
	fmt.Println("while away:", <-created)
	fmt.Println("identifies:", srv.IdentifyStats().Total)
	_ = second.End(ctx)
	// Output:
	// while away: Artist
	// identifies: 1
}
