package gateway_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/gateway"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// A typed event names itself without a value: the name of a type
// parameter's event is known before any arrives.
func ExampleEvent() {
	var ban *gateway.GuildBanAdd
	fmt.Println(ban.EventName())
	// Output: GUILD_BAN_ADD
}

func ExampleIntents_String() {
	i := gateway.IntentGuilds | gateway.IntentGuildMembers | gateway.IntentGuildModeration
	fmt.Println(i)
	fmt.Println("privileged:", i.Privileged())
	// Output:
	// GUILDS|GUILD_MEMBERS|GUILD_MODERATION
	// privileged: GUILD_MEMBERS
}

// Listening for bans: the handler's event type says which event it takes
// and which intent the shard asks for (GUILD_MODERATION).
func ExampleOn_guildBanAdd() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	srv := guildkittest.New()
	defer srv.Close()
	guild := srv.AddGuild(guildkit.Guild{Name: "Gopher Guild"})
	troll := srv.AddMember(guild.ID, guildkit.Member{User: &guildkit.User{Username: "troll"}})

	shard, err := gateway.NewShard(srv.Token(),
		gateway.WithClient(srv.Client()), gateway.WithURL(srv.GatewayURL()),
		gateway.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	if err != nil {
		panic(err)
	}
	banned := make(chan string)
	gateway.On(shard, func(ctx context.Context, e *gateway.GuildBanAdd) {
		banned <- e.User.Username
	})
	fmt.Println("intents:", shard.Intents())
	if err := shard.Open(ctx); err != nil {
		panic(err)
	}
	defer shard.End(context.Background())

	if err := srv.Client().Bans.Create(ctx, guild.ID, troll.User.ID, nil); err != nil {
		panic(err)
	}
	fmt.Println("banned:", <-banned)
	// Output:
	// intents: GUILD_MODERATION
	// banned: troll
}
