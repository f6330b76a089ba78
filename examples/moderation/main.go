// Command moderation walks through a moderator bot's day: delete a message
// that breaks a rule, tell its author by DM and log it to a moderators'
// channel with an embed; time out a member, ban one user and a raid of
// others in bulk, list every ban, and prune inactive members, each with an
// audit-log reason.
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
	"regexp"
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
	guild := srv.AddGuild(guildkit.Guild{Name: "Gopher Guild", OwnerID: srv.BotID()})
	spammer := srv.AddMember(guild.ID, guildkit.Member{User: &guildkit.User{Username: "spammer"}})
	troll := srv.AddMember(guild.ID, guildkit.Member{User: &guildkit.User{Username: "troll"}})
	idle := srv.AddMember(guild.ID, guildkit.Member{User: &guildkit.User{Username: "idle"}})
	srv.SetLastActive(guild.ID, idle.User.ID, time.Now().AddDate(0, 0, -30))
	var raid []guildkit.Snowflake
	for i := range 3 {
		raid = append(raid, srv.AddUser(guildkit.User{Username: fmt.Sprintf("raider%d", i)}).ID)
	}
	general := srv.AddChannel(guild.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	modLog := srv.AddChannel(guild.ID, guildkit.Channel{Name: "mod-log", Type: guildkit.ChannelTypeGuildText})
	for _, post := range []struct {
		who  guildkit.Member
		text string
	}{{troll, "good morning"}, {spammer, "FREE NITRO at https://free-nitro.example/claim"}, {troll, "anyone up for a game?"}} {
		if _, err := srv.Post(ctx, post.who.User.ID, general.ID, post.text); err != nil {
			return err
		}
	}
	client := srv.Client()

	// Delete what breaks the rule, tell the author why, and log it.
	if err := enforceRule(ctx, out, client, general.ID, modLog.ID); err != nil {
		return err
	}

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

// rule matches the messages the bot deletes: links offering free Nitro.
var rule = regexp.MustCompile(`(?i)free[ -]?nitro`)

// enforceRule walks the channel's recent history (newest first, up to 100
// messages) and, for each message the rule matches, deletes it, sends its
// author a DM saying why, and logs it to logChannel with an embed. Reading
// others' messages needs the MESSAGE_CONTENT intent enabled for the
// application; without it their content comes empty and nothing matches.
func enforceRule(ctx context.Context, out io.Writer, client *guildkit.Client, channelID, logChannel guildkit.Snowflake) error {
	seen := 0
	for m, err := range client.Messages.All(ctx, channelID, nil) {
		if err != nil {
			return err
		}
		if seen++; seen > 100 {
			break // breaking out of the loop stops fetching
		}
		if m.Author == nil || m.Author.Bot || !rule.MatchString(m.Content) {
			continue
		}
		if err := client.Messages.Delete(ctx, channelID, m.ID, guildkit.WithReason("rule: no free-Nitro links")); err != nil {
			return err
		}
		fmt.Fprintf(out, "deleted a message of %s: %q\n", m.Author.Username, m.Content)

		// Tell the author. They may not take DMs from the bot: that is
		// worth a note in the log, not a failure.
		dmNote := "told by DM"
		dm, err := client.Users.CreateDM(ctx, m.Author.ID)
		if err == nil {
			_, err = client.Messages.Create(ctx, dm.ID, &guildkit.MessageCreateParams{
				Content: guildkit.Some("Your message in " + guildkit.MentionChannel(channelID) +
					" was removed: links offering free Nitro are not allowed."),
			})
		}
		switch {
		case errors.Is(err, guildkit.ErrCannotSendToUser):
			dmNote = "does not take DMs"
		case err != nil:
			return err
		}

		// Log it with an embed. The author's text is escaped, so that its
		// markdown and mentions show as typed; no mention in the log pings.
		embed := guildkit.NewEmbed("Message deleted", guildkit.EscapeMentions(guildkit.EscapeMarkdown(m.Content))).
			WithColor(0xE74C3C).
			WithField("Author", m.Author.Mention(), true).
			WithField("Channel", guildkit.MentionChannel(channelID), true).
			WithField("Sent", guildkit.FormatTimestamp(m.Timestamp, guildkit.TimestampRelative), true).
			WithFooter("rule: no free-Nitro links; "+dmNote, "")
		if err := embed.Validate(); err != nil {
			return err
		}
		logged, err := client.Messages.Create(ctx, logChannel, &guildkit.MessageCreateParams{
			Embeds:          []guildkit.Embed{*embed},
			AllowedMentions: guildkit.Some(guildkit.AllowedMentions{Parse: []guildkit.AllowedMentionType{}}),
		})
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "%s (%s); logged: %q\n", m.Author.Username, dmNote, logged.Embeds[0].Title)
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
