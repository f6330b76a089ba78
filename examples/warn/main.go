// Command warn is a moderation bot: it logs joins and bans, and registers /warn user
// reason for members who may Moderate Members; /warn answers only the moderator, with
// an Undo button that edits the answer (test: main_test.go). With no GUILDKIT_TOKEN it
// tries itself on the in-memory server: go run ./examples/warn. On the emulator, whose
// demo guild has a moderator, morgan: go run ./cmd/guildkit-emulator -- go run ./examples/warn
package main

import (
	"context"
	"fmt"
	"log"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/gateway"
	"github.com/seed012df1e9/guildkit/guildkittest"
	"github.com/seed012df1e9/guildkit/interactions"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	token, baseURL, guild := os.Getenv("GUILDKIT_TOKEN"), os.Getenv("GUILDKIT_BASE_URL"), os.Getenv("GUILDKIT_GUILD_ID")
	var ready func()
	if token == "" { // no token: try it on the in-memory server
		srv := guildkittest.New()
		defer srv.Close()
		token, baseURL = srv.Token(), srv.BaseURL()
		ctx, ready, guild = try(ctx, srv)
	}
	rest, err := guildkit.New(guildkit.BotToken(token), guildkit.WithBaseURL(baseURL))
	if err != nil {
		log.Fatal(err)
	}
	shard, h, err := newBot(rest, token, slog.Default())
	if err != nil {
		log.Fatal(err)
	}
	guildID, _ := guildkit.ParseSnowflake(guild) // 0: register /warn globally
	if _, err := h.Sync(ctx, 0, guildID); err != nil {
		log.Fatal(err)
	}
	if err := shard.Run(ctx, &gateway.RunOptions{Wait: []gateway.Waiter{h}, Ready: ready}); err != nil { // until Ctrl-C
		log.Fatal(err)
	}
}

// newBot makes the bot: a gateway shard for the events, and an
// interactions handler, fed by the shard, for the command and its button.
func newBot(rest *guildkit.Client, token string, logger *slog.Logger) (*gateway.Shard, *interactions.Handler, error) {
	shard, err := gateway.NewShard(token, gateway.WithClient(rest))
	if err != nil {
		return nil, nil, err
	}
	h, err := interactions.NewGatewayHandler(rest)
	if err != nil {
		return nil, nil, err
	}
	gateway.On(shard, func(ctx context.Context, e *gateway.GuildMemberAdd) {
		logger.Info("member joined", "user", e.User.Username)
	})
	gateway.On(shard, func(ctx context.Context, e *gateway.GuildBanAdd) {
		logger.Info("member banned", "user", e.User.Username)
	})
	h.Command(guildkit.CommandCreateParams{Name: "warn", Description: "Warn a member",
		DefaultMemberPermissions: guildkit.Some(guildkit.PermissionModerateMembers), // who sees /warn
		Options: []guildkit.CommandOptionDefinition{
			{Type: guildkit.CommandOptionUser, Name: "user", Description: "Who", Required: true},
			{Type: guildkit.CommandOptionString, Name: "reason", Description: "Why", Required: true},
		}}, func(ctx context.Context, r *interactions.Request) error {
		user, _ := r.Options().User("user")
		reason, _ := r.Options().String("reason")
		return r.ReplyEphemeral(ctx, fmt.Sprintf("Warned %s: %s", user.Mention(), reason),
			components.NewActionRow(components.SecondaryButton("undo:"+user.ID.String(), "Undo")))
	})
	h.HandleComponent("undo:{user}", func(ctx context.Context, r *interactions.Request) error {
		return r.Update(ctx, &guildkit.InteractionMessageParams{Components: components.List{}, // no more button
			Content: guildkit.Some("Warning withdrawn: <@" + r.Param("user") + ">")})
	})
	gateway.OnInteraction(shard, h.ServeInteraction) // interactions come over the gateway: no public key
	return shard, h, nil
}

// try sets a scene: a guild a person owns (the bot has only its roles' rights) where morgan
// moderates; once the bot is connected, ready plays it: a member joins, is warned, undone.
func try(ctx context.Context, srv *guildkittest.Server) (_ context.Context, ready func(), guild string) {
	g := srv.AddGuild(guildkit.Guild{Name: "Gophers", OwnerID: srv.AddUser(guildkit.User{Username: "owner"}).ID})
	srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{ID: srv.BotID()}})
	mods := srv.AddRole(g.ID, guildkit.Role{Name: "Moderators", Permissions: guildkit.PermissionModerateMembers, Position: 1})
	mod := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "morgan"}, Roles: []guildkit.Snowflake{mods.ID}}).User.ID
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general"}).ID
	ctx, done := context.WithCancel(ctx)
	return ctx, func() {
		go func() {
			defer done()
			troll := srv.JoinMember(g.ID, guildkit.User{Username: "troll"})
			out, err := srv.RunCommand(ctx, mod, ch, "warn", guildkit.UserOption("user", troll.User.ID), guildkit.StringOption("reason", "spam"))
			if err != nil || out.FindButton("Undo") == nil {
				log.Fatal("/warn: ", out, err)
			}
			fmt.Println("morgan sees:", out)
			out, err = srv.Click(ctx, mod, out.Message.ID, out.FindButton("Undo").CustomID)
			fmt.Println("after Undo:", out, err)
		}()
	}, g.ID.String()
}
