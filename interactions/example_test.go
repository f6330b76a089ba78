package interactions_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/guildkittest"
	"github.com/seed012df1e9/guildkit/interactions"
)

// A bot answers the buttons of its message: a click on "role:<id>" is
// routed with the id, and answered with a message only the clicking user
// sees. The in-memory server plays the platform: it signs the delivery and
// shows what the user saw.
func ExampleHandler() {
	srv := guildkittest.New()
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{Name: "Example"})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "roles", Type: guildkit.ChannelTypeGuildText})
	ada := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "ada"}}).User
	msg := srv.AddApplicationMessage(ch.ID, guildkit.Message{Content: "Pick a role", Components: components.List{
		components.NewActionRow(components.PrimaryButton("role:42", "Artist")),
	}})

	// The bot: srv.Application().PublicKeyHex() is what the developer
	// portal shows as the application's public key.
	h, err := interactions.NewHandler(srv.Application().PublicKeyHex(), srv.Client(),
		interactions.WithClock(srv), interactions.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	if err != nil {
		fmt.Println(err)
		return
	}
	h.HandleComponent("role:{id}", func(ctx context.Context, r *interactions.Request) error {
		return r.ReplyEphemeral(ctx, "You picked role "+r.Param("id")+", "+r.Interaction.Invoker().Username)
	})
	srv.SetInteractionsHandler(h) // in a real bot: http.Handle("/interactions", h)

	out, err := srv.Click(context.Background(), ada.ID, msg.ID, "role:42")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out)
	// Output:
	// message (ephemeral): You picked role 42, ada
}

// A function that is still working at the deadline gets a deferral sent
// for it; its answer then edits the message, and the user never sees the
// interaction fail. The server's clock stands in for the slow work.
func ExampleWithDeadline() {
	srv := guildkittest.New()
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "builds", Type: guildkit.ChannelTypeGuildText})
	ada := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "ada"}}).User
	msg := srv.AddApplicationMessage(ch.ID, guildkit.Message{Content: "Build 41", Components: components.List{
		components.NewActionRow(components.PrimaryButton("rebuild", "Rebuild")),
	}})
	h, err := interactions.NewHandler(srv.Application().PublicKeyHex(), srv.Client(), interactions.WithClock(srv),
		interactions.WithDeadline(time.Second), interactions.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	if err != nil {
		fmt.Println(err)
		return
	}
	started := make(chan struct{})
	h.HandleComponent("rebuild", func(ctx context.Context, r *interactions.Request) error {
		close(started)
		srv.AdvanceClock(2 * time.Second) // a slow build: the deadline passes
		return r.Update(ctx, &guildkit.InteractionMessageParams{Content: guildkit.Some("Build 42 started")})
	})
	srv.SetInteractionsHandler(h)

	out, err := srv.Click(context.Background(), ada.ID, msg.ID, "rebuild")
	if err != nil {
		fmt.Println(err)
		return
	}
	<-started
	fmt.Println("the user saw:", out.Kind)
	if err := h.Wait(context.Background()); err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range srv.ChannelMessages(ch.ID, ada.ID) {
		fmt.Println("the message now:", m.Content)
	}
	// Output:
	// the user saw: deferred
	// the message now: Build 42 started
}
