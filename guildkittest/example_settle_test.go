package guildkittest_test

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

// A test waits for the bot's handlers in one line: after the calls,
// Settle returns once the shard's handlers have handled every event they
// caused. No sleep, no polling, no recorder.
func ExampleServer_Settle() {
	srv := guildkittest.New()
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{Name: "Makers"})
	shard, _ := gateway.NewShard(srv.Token(), gateway.WithClient(srv.Client()),
		gateway.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	var joined []string // written by the handler; read after Settle
	gateway.On(shard, func(ctx context.Context, e *gateway.GuildMemberAdd) { joined = append(joined, e.User.Username) })
	ctx := context.Background()
	if err := shard.Open(ctx); err != nil {
		panic(err)
	}
	defer shard.End(ctx)

	srv.JoinMember(g.ID, guildkit.User{Username: "ada"})
	srv.JoinMember(g.ID, guildkit.User{Username: "grace"})
	if err := srv.Settle(ctx, shard); err != nil {
		panic(err)
	}
	fmt.Println(joined)
	// Output:
	// [ada grace]
}

// A test clicks the button a user sees by its label: FindButton looks
// through the rows of the answer, no type assertions.
func ExampleOutcome_FindButton() {
	srv := guildkittest.New()
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{Name: "Makers"})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	ada := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "ada"}}).User
	msg := srv.AddApplicationMessage(ch.ID, guildkit.Message{Content: "Delete everything?", Components: components.List{
		components.NewActionRow(components.DangerButton("delete", "Delete")),
	}})
	h, _ := interactions.NewHandler(srv.Application().PublicKeyHex(), srv.Client(), interactions.WithClock(srv))
	h.HandleComponent("delete", func(ctx context.Context, r *interactions.Request) error {
		return r.ReplyEphemeral(ctx, "Sure?", components.NewActionRow(
			components.DangerButton("delete:yes", "Yes, delete"), components.SecondaryButton("delete:no", "Keep")))
	})
	h.HandleComponent("delete:{answer}", func(ctx context.Context, r *interactions.Request) error {
		return r.Update(ctx, &guildkit.InteractionMessageParams{Content: guildkit.Some("You said " + r.Param("answer")), Components: components.List{}})
	})
	srv.SetInteractionsHandler(h)
	ctx := context.Background()

	out, _ := srv.Click(ctx, ada.ID, msg.ID, "delete")
	keep := out.FindButton("Keep")
	fmt.Println(out, "/", keep.CustomID)
	out, _ = srv.Click(ctx, ada.ID, out.Message.ID, keep.CustomID)
	fmt.Println(out)
	// Output:
	// message (ephemeral): Sure? / delete:no
	// updated (ephemeral): You said no
}
