package interactions_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/gateway"
	"github.com/seed012df1e9/guildkit/guildkittest"
	"github.com/seed012df1e9/guildkit/interactions"
)

// A bot with no interactions endpoint takes its interactions from the
// gateway: NewGatewayHandler needs no public key, and OnInteraction hands
// it every INTERACTION_CREATE. The functions are the ones an endpoint
// (NewHandler) would run. The in-memory server plays the platform: with
// no endpoint set it delivers a click to the bot's gateway session.
func ExampleNewGatewayHandler() {
	srv := guildkittest.New()
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{Name: "Makers", OwnerID: srv.BotID()})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	ada := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "ada"}}).User
	msg := srv.AddApplicationMessage(ch.ID, guildkit.Message{Content: "Ready?", Components: components.List{
		components.NewActionRow(components.PrimaryButton("wave", "Wave")),
	}})
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))

	rest := srv.Client()
	h, err := interactions.NewGatewayHandler(rest, interactions.WithLogger(quiet))
	if err != nil {
		panic(err)
	}
	h.HandleComponent("wave", func(ctx context.Context, r *interactions.Request) error {
		return r.ReplyEphemeral(ctx, "👋 "+r.Interaction.Member.User.Username)
	})
	shard, err := gateway.NewShard(srv.Token(), gateway.WithClient(rest), gateway.WithLogger(quiet))
	if err != nil {
		panic(err)
	}
	gateway.OnInteraction(shard, h.ServeInteraction) // an endpoint would be http.Handle("/interactions", h)
	ctx := context.Background()
	if err := shard.Open(ctx); err != nil {
		panic(err)
	}
	defer func() { _ = shard.End(ctx); _ = h.Wait(ctx) }()

	out, err := srv.Click(ctx, ada.ID, msg.ID, "wave")
	if err != nil {
		panic(err)
	}
	fmt.Println(out)
	// Output:
	// message (ephemeral): 👋 ada
}
