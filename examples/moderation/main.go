// Command moderation walks through a moderator bot's day: time out a member,
// ban one user and a raid of others in bulk, list every ban, and prune
// inactive members, each with an audit-log reason.
//
// With no GUILDKIT_TOKEN set it runs against the in-memory server from
// guildkittest, seeded with a small guild, and also prints the gateway
// events the operations emitted:
//
//	go run ./examples/moderation
//
// Against a real deployment it changes nothing: it lists the guild's bans
// and counts the members a 14-day prune would remove:
//
//	GUILDKIT_BASE_URL=https://chat.example.com/api/v10 GUILDKIT_TOKEN=... GUILDKIT_GUILD_ID=123 go run ./examples/moderation
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
	if token := getenv("GUILDKIT_TOKEN"); token != "" {
		return readOnly(ctx, out, token, getenv)
	}
	fmt.Fprintln(out, "GUILDKIT_TOKEN is not set: running against the in-memory server")
	srv := guildkittest.New()
	defer srv.Close()
	guild := srv.AddGuild(guildkit.Guild{Name: "Gopher Guild"})
	spammer := srv.AddMember(guild.ID, guildkit.Member{User: &guildkit.User{Username: "spammer"}})
	troll := srv.AddMember(guild.ID, guildkit.Member{User: &guildkit.User{Username: "troll"}})
	idle := srv.AddMember(guild.ID, guildkit.Member{User: &guildkit.User{Username: "idle"}})
	srv.SetLastActive(guild.ID, idle.User.ID, time.Now().AddDate(0, 0, -30))
	var raid []guildkit.Snowflake
	for i := range 3 {
		raid = append(raid, srv.AddUser(guildkit.User{Username: fmt.Sprintf("raider%d", i)}).ID)
	}
	client := srv.Client()

	// A ten-minute timeout. Timeouts are limited to 28 days ahead; the
	// client refuses a longer one before sending anything.
	m, err := client.Members.Timeout(ctx, guild.ID, spammer.User.ID, time.Now().Add(10*time.Minute),
		guildkit.WithReason("spamming #general"))
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%s is timed out until %s\n", m.User.Username, m.CommunicationDisabledUntil.Format(time.Kitchen))

	_, err = client.Members.Timeout(ctx, guild.ID, spammer.User.ID, time.Now().AddDate(0, 0, 29))
	var invalid *guildkit.ValidationError
	fmt.Fprintln(out, "a 29-day timeout is refused before sending:", errors.As(err, &invalid))

	// Ban one user, deleting their last hour of messages.
	if err := client.Bans.Create(ctx, guild.ID, troll.User.ID,
		&guildkit.BanCreateParams{DeleteMessageSeconds: guildkit.Some(3600)},
		guildkit.WithReason("trolling")); err != nil {
		return err
	}

	// Ban a raid at once: up to 200 users per call.
	res, err := client.Bans.Bulk(ctx, guild.ID, &guildkit.BanBulkParams{UserIDs: raid}, guildkit.WithReason("raid"))
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "bulk ban: %d banned, %d failed\n", len(res.BannedUsers), len(res.FailedUsers))

	if err := listBans(ctx, out, client, guild.ID); err != nil {
		return err
	}

	// How many members a 14-day prune would remove, then the prune.
	n, err := client.Members.PruneCount(ctx, guild.ID, &guildkit.MemberPruneCountParams{Days: guildkit.Some(14)})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "a 14-day prune would remove %d member(s)\n", n)
	pruned, err := client.Members.Prune(ctx, guild.ID, &guildkit.MemberPruneParams{Days: guildkit.Some(14)},
		guildkit.WithReason("inactive"))
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "pruned %d member(s)\n", *pruned)

	fmt.Fprintln(out, "events:")
	for _, e := range srv.Events() {
		fmt.Fprintln(out, " ", e.Name)
	}
	return nil
}

// listBans prints every ban, page by page; breaking out of the loop would
// stop fetching.
func listBans(ctx context.Context, out io.Writer, client *guildkit.Client, guildID guildkit.Snowflake) error {
	for ban, err := range client.Bans.All(ctx, guildID, nil) {
		if err != nil {
			return err
		}
		reason := "no reason"
		if ban.Reason != nil {
			reason = *ban.Reason
		}
		fmt.Fprintf(out, "  banned: %s (%s)\n", ban.User.Username, reason)
	}
	return nil
}

// readOnly is the program against a real deployment: it reads, and changes
// nothing.
func readOnly(ctx context.Context, out io.Writer, token string, getenv func(string) string) error {
	guildID, err := guildkit.ParseSnowflake(getenv("GUILDKIT_GUILD_ID"))
	if err != nil {
		return fmt.Errorf("GUILDKIT_GUILD_ID: %w", err)
	}
	client, err := guildkit.New(guildkit.BotToken(token), guildkit.WithBaseURL(getenv("GUILDKIT_BASE_URL")))
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "guild %s: reading only (bans and a prune count); nothing is changed\n", guildID)
	if err := listBans(ctx, out, client, guildID); err != nil {
		return err
	}
	n, err := client.Members.PruneCount(ctx, guildID, &guildkit.MemberPruneCountParams{Days: guildkit.Some(14)})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "a 14-day prune would remove %d member(s)\n", n)
	return nil
}
