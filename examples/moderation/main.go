// Command moderation walks through a moderator bot's day: time out a member,
// ban one user and a raid of others in bulk, list every ban, and prune
// inactive members, each with an audit-log reason.
//
// With no GUILDKIT_TOKEN set it runs against the in-memory server from
// guildkittest, seeded with a small guild, and also prints the gateway
// events the operations emitted:
//
//	go run ./examples/moderation
package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

func main() {
	if os.Getenv("GUILDKIT_TOKEN") != "" {
		log.Fatal("this example changes a guild: it runs only against the in-memory server (unset GUILDKIT_TOKEN)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

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
	check(err)
	fmt.Printf("%s is timed out until %s\n", m.User.Username, m.CommunicationDisabledUntil.Format(time.Kitchen))

	_, err = client.Members.Timeout(ctx, guild.ID, spammer.User.ID, time.Now().AddDate(0, 0, 29))
	var invalid *guildkit.ValidationError
	fmt.Println("a 29-day timeout is refused before sending:", errors.As(err, &invalid))

	// Ban one user, deleting their last hour of messages.
	check(client.Bans.Create(ctx, guild.ID, troll.User.ID,
		&guildkit.BanCreateParams{DeleteMessageSeconds: guildkit.Some(3600)},
		guildkit.WithReason("trolling")))

	// Ban a raid at once: up to 200 users per call.
	res, err := client.Bans.Bulk(ctx, guild.ID, &guildkit.BanBulkParams{UserIDs: raid}, guildkit.WithReason("raid"))
	check(err)
	fmt.Printf("bulk ban: %d banned, %d failed\n", len(res.BannedUsers), len(res.FailedUsers))

	// Every ban, page by page; breaking out of the loop stops fetching.
	for ban, err := range client.Bans.All(ctx, guild.ID, nil) {
		check(err)
		reason := "no reason"
		if ban.Reason != nil {
			reason = *ban.Reason
		}
		fmt.Printf("  banned: %s (%s)\n", ban.User.Username, reason)
	}

	// How many members a 14-day prune would remove, then the prune.
	n, err := client.Members.PruneCount(ctx, guild.ID, &guildkit.MemberPruneCountParams{Days: guildkit.Some(14)})
	check(err)
	fmt.Printf("a 14-day prune would remove %d member(s)\n", n)
	pruned, err := client.Members.Prune(ctx, guild.ID, &guildkit.MemberPruneParams{Days: guildkit.Some(14)},
		guildkit.WithReason("inactive"))
	check(err)
	fmt.Printf("pruned %d member(s)\n", *pruned)

	fmt.Println("events:")
	for _, e := range srv.Events() {
		fmt.Println(" ", e.Name)
	}
}

func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
