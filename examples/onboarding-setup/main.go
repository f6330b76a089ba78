// Command onboarding-setup prepares a community guild for newcomers: it
// creates the channels, sets the welcome screen, writes the onboarding
// questions, and turns onboarding on, showing the rule that enabling meets
// first (at least 7 default channels, at least 5 of which @everyone can
// send messages in) and how to satisfy it.
//
// With no GUILDKIT_TOKEN set it runs against the in-memory server from
// guildkittest, with a fresh community guild:
//
//	go run ./examples/onboarding-setup
//
// Against a real deployment it changes the guild named by
// GUILDKIT_GUILD_ID: it creates seven channels and a role and replaces the
// welcome screen and the onboarding flow, so use a guild meant for trying
// things out. The bot needs MANAGE_CHANNELS, MANAGE_GUILD and MANAGE_ROLES:
//
//	GUILDKIT_BASE_URL=https://chat.example.com/api/v10 GUILDKIT_TOKEN=... GUILDKIT_GUILD_ID=123 go run ./examples/onboarding-setup
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
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
	const reason = "onboarding setup"

	// 1. Channels: four where everyone may talk, and two read-only ones
	// (@everyone, whose role id is the guild's, may not send messages
	// there).
	readOnly := []guildkit.PermissionOverwriteParams{{
		ID: guildID, Type: guildkit.OverwriteTypeRole, Deny: guildkit.Some(guildkit.PermissionSendMessages),
	}}
	specs := []guildkit.ChannelCreateParams{
		{Name: "welcome", Topic: guildkit.Some("Say hello")},
		{Name: "general"},
		{Name: "help", Topic: guildkit.Some("Ask anything")},
		{Name: "showcase"},
		{Name: "rules", PermissionOverwrites: guildkit.Some(readOnly)},
		{Name: "announcements", PermissionOverwrites: guildkit.Some(readOnly)},
	}
	var channels []*guildkit.Channel
	for i := range specs {
		ch, err := client.Channels.Create(ctx, guildID, &specs[i], guildkit.WithReason(reason))
		if err != nil {
			return err
		}
		channels = append(channels, ch)
	}
	fmt.Fprintf(out, "created %d channels\n", len(channels))
	byName := map[string]guildkit.Snowflake{}
	for _, ch := range channels {
		byName[ch.Name] = ch.ID
	}

	// 2. The welcome screen: a description and up to 5 channels.
	emoji := func(s string) *string { return &s }
	ws, err := client.Guilds.ModifyWelcomeScreen(ctx, guildID, &guildkit.GuildWelcomeScreenModifyParams{
		Enabled:     guildkit.Some(true),
		Description: guildkit.Some("A guild for people who write Go"),
		WelcomeChannels: guildkit.Some([]guildkit.WelcomeChannel{
			{ChannelID: byName["welcome"], Description: "Introduce yourself", EmojiName: emoji("👋")},
			{ChannelID: byName["help"], Description: "Stuck? Ask here", EmojiName: emoji("🆘")},
			{ChannelID: byName["announcements"], Description: "News", EmojiName: emoji("📣")},
		}),
	}, guildkit.WithReason(reason))
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "welcome screen: %q with %d channels\n", *ws.Description, len(ws.WelcomeChannels))

	// 3. Onboarding questions. An answer gives a role and opens channels.
	learner, err := client.Roles.Create(ctx, guildID, &guildkit.RoleCreateParams{Name: guildkit.Some("Learner")},
		guildkit.WithReason(reason))
	if err != nil {
		return err
	}
	prompts := []guildkit.OnboardingPromptParams{{
		Type:         guildkit.PromptTypeMultipleChoice,
		Title:        "What brings you here?",
		SingleSelect: guildkit.Some(true),
		Required:     guildkit.Some(true),
		Options: []guildkit.OnboardingPromptOptionParams{
			{Title: "Learning Go", RoleIDs: guildkit.Some([]guildkit.Snowflake{learner.ID}),
				ChannelIDs: guildkit.Some([]guildkit.Snowflake{byName["help"]}), EmojiName: guildkit.Some("📚")},
			{Title: "Showing a project", ChannelIDs: guildkit.Some([]guildkit.Snowflake{byName["showcase"]}),
				EmojiName: guildkit.Some("🚀")},
		},
	}}
	var defaults []guildkit.Snowflake
	for _, ch := range channels {
		defaults = append(defaults, ch.ID)
	}
	onboarding, err := client.Guilds.ModifyOnboarding(ctx, guildID, &guildkit.GuildOnboardingModifyParams{
		Prompts: guildkit.Some(prompts), DefaultChannelIDs: guildkit.Some(defaults),
		Mode: guildkit.Some(guildkit.OnboardingDefault),
	}, guildkit.WithReason(reason))
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "onboarding: %d question(s), %d default channels, enabled: %v\n",
		len(onboarding.Prompts), len(onboarding.DefaultChannelIDs), onboarding.Enabled)

	// 4. Turn it on. With six default channels, four of them writable by
	// @everyone, the service refuses: it checks the rule (at least 7
	// default channels, at least 5 writable), the client does not.
	enable := &guildkit.GuildOnboardingModifyParams{Enabled: guildkit.Some(true)}
	_, err = client.Guilds.ModifyOnboarding(ctx, guildID, enable, guildkit.WithReason(reason))
	var apiErr *guildkit.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != http.StatusBadRequest {
		return fmt.Errorf("enabling onboarding: want the service's 400, got %v", err)
	}
	fmt.Fprintf(out, "enabling refused: %d %s\n", apiErr.Status, http.StatusText(apiErr.Status))
	for _, fe := range apiErr.Errors {
		fmt.Fprintf(out, "  %s: %s\n", fe.Path, fe.Message)
	}

	// The fix: a seventh default channel, the fifth where everyone may
	// talk, sent in the same request that enables onboarding.
	extra, err := client.Channels.Create(ctx, guildID, &guildkit.ChannelCreateParams{Name: "introductions"},
		guildkit.WithReason(reason))
	if err != nil {
		return err
	}
	enable.DefaultChannelIDs = guildkit.Some(append(defaults, extra.ID))
	onboarding, err = client.Guilds.ModifyOnboarding(ctx, guildID, enable, guildkit.WithReason(reason))
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "with #%s added: %d default channels, enabled: %v\n",
		extra.Name, len(onboarding.DefaultChannelIDs), onboarding.Enabled)
	return nil
}

// connect returns a client and the guild to set up: the deployment named by
// the environment, or an in-memory server with a new community guild.
func connect(out io.Writer, getenv func(string) string) (*guildkit.Client, guildkit.Snowflake, func(), error) {
	token := getenv("GUILDKIT_TOKEN")
	if token == "" {
		fmt.Fprintln(out, "GUILDKIT_TOKEN is not set: running against the in-memory server")
		srv := guildkittest.New()
		g := srv.AddGuild(guildkit.Guild{Name: "Gopher Guild", OwnerID: srv.BotID(), Features: []guildkit.GuildFeature{guildkit.FeatureCommunity}})
		return srv.Client(), g.ID, srv.Close, nil
	}
	guildID, err := guildkit.ParseSnowflake(getenv("GUILDKIT_GUILD_ID"))
	if err != nil {
		return nil, 0, nil, fmt.Errorf("GUILDKIT_GUILD_ID: %w", err)
	}
	client, err := guildkit.New(guildkit.BotToken(token), guildkit.WithBaseURL(getenv("GUILDKIT_BASE_URL")))
	if err != nil {
		return nil, 0, nil, err
	}
	return client, guildID, func() {}, nil
}
