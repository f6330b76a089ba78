// Command quickstart shows the shape of a guildkit program: build a client,
// call an operation with a context, handle typed errors.
//
// With no GUILDKIT_TOKEN set it starts the in-memory server from
// guildkittest, seeds a demo guild and runs against it, so it needs no
// network and no account:
//
//	go run ./examples/quickstart
//
// Against a real deployment, name the address, the bot token and a guild:
//
//	GUILDKIT_BASE_URL=https://chat.example.com/api/v10 GUILDKIT_TOKEN=... GUILDKIT_GUILD_ID=123 go run ./examples/quickstart
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := run(ctx, os.Stdout, os.Getenv); err != nil {
		log.Fatal(err)
	}
}

// run does the work of the program, writing to out and reading its settings
// through getenv, so that a test can run it.
func run(ctx context.Context, out io.Writer, getenv func(string) string) error {
	client, guildID, cleanup, err := connect(out, getenv)
	if err != nil {
		return err
	}
	defer cleanup()

	// Get Guild, with the approximate member and presence counts.
	guild, err := client.Guilds.Get(ctx, guildID, &guildkit.GuildGetParams{WithCounts: guildkit.Some(true)})
	switch {
	case errors.Is(err, guildkit.ErrNotFound):
		return fmt.Errorf("guild %s does not exist", guildID)
	case errors.Is(err, guildkit.ErrForbidden):
		return fmt.Errorf("the bot is not a member of guild %s", guildID)
	case err != nil:
		return err
	}
	fmt.Fprintf(out, "guild %q (id %s, created %s)\n", guild.Name, guild.ID, guild.ID.Time().Format(time.DateOnly))
	fmt.Fprintf(out, "  verification level: %s, boost tier: %s\n", guild.VerificationLevel, guild.PremiumTier)
	fmt.Fprintf(out, "  features: %v\n", guild.Features)
	fmt.Fprintf(out, "  roles: %d\n", len(guild.Roles))
	if guild.ApproximateMemberCount != nil {
		// The bot is a member of the guild too, so it is in the count.
		fmt.Fprintf(out, "  members: about %d (the bot included), %d online\n",
			*guild.ApproximateMemberCount, *guild.ApproximatePresenceCount)
	}
	return nil
}

// connect returns a client and the guild to look at: the real deployment
// named by the environment, or an in-memory server seeded with a demo guild.
func connect(out io.Writer, getenv func(string) string) (*guildkit.Client, guildkit.Snowflake, func(), error) {
	token := getenv("GUILDKIT_TOKEN")
	if token == "" {
		fmt.Fprintln(out, "GUILDKIT_TOKEN is not set: running against the in-memory server, with a demo guild of 3 members and the bot")
		srv := guildkittest.New()
		demo := srv.AddGuild(guildkit.Guild{
			Name:              "Gopher Guild",
			OwnerID:           srv.BotID(), // the bot owns it: every permission
			Features:          []guildkit.GuildFeature{guildkit.FeatureCommunity, guildkit.FeatureWelcomeScreenEnabled},
			VerificationLevel: guildkit.VerificationLevelMedium,
			PremiumTier:       guildkit.PremiumTier1,
		})
		for _, name := range []string{"ada", "grace", "ken"} {
			m := srv.AddMember(demo.ID, guildkit.Member{User: &guildkit.User{Username: name}})
			srv.SetOnline(demo.ID, m.User.ID, name != "ken")
		}
		return srv.Client(), demo.ID, srv.Close, nil
	}
	baseURL := getenv("GUILDKIT_BASE_URL")
	guildID, err := guildkit.ParseSnowflake(getenv("GUILDKIT_GUILD_ID"))
	if err != nil {
		return nil, 0, nil, fmt.Errorf("GUILDKIT_GUILD_ID: %w", err)
	}
	client, err := guildkit.New(guildkit.BotToken(token), guildkit.WithBaseURL(baseURL))
	if err != nil {
		return nil, 0, nil, err
	}
	return client, guildID, func() {}, nil
}
