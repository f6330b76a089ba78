package guildkit_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

func ExampleMemberService_Modify() {
	srv := guildkittest.New() // in a test: guildkittest.NewServer(t)
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{Name: "Gophers"})
	bob := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "bob"}})
	client := srv.Client()
	ctx := context.Background()

	// Set a nickname and time bob out for an hour; other fields stay as they are.
	m, err := client.Members.Modify(ctx, g.ID, bob.User.ID, &guildkit.MemberModifyParams{
		Nick:                       guildkit.Some("Bobby"),
		CommunicationDisabledUntil: guildkit.Some(time.Now().Add(time.Hour)),
	}, guildkit.WithReason("cool down"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(*m.Nick, m.TimedOut(time.Now()))

	// Null clears a field: remove the nickname and lift the timeout.
	m, err = client.Members.Modify(ctx, g.ID, bob.User.ID, &guildkit.MemberModifyParams{
		Nick:                       guildkit.Null[string](),
		CommunicationDisabledUntil: guildkit.Null[time.Time](),
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.Nick == nil, m.TimedOut(time.Now()))

	// Muting needs the member in voice: the service answers 400.
	_, err = client.Members.Modify(ctx, g.ID, bob.User.ID, &guildkit.MemberModifyParams{Mute: guildkit.Some(true)})
	var apiErr *guildkit.APIError
	if errors.As(err, &apiErr) {
		fmt.Println(apiErr.Status, apiErr.Code == guildkit.CodeTargetUserNotInVoice)
	}
	fmt.Println(len(srv.EventsNamed(guildkit.EventGuildMemberUpdate)), "member updates")
	// Output:
	// Bobby true
	// true false
	// 400 true
	// 2 member updates
}

func ExampleBanService_All() {
	srv := guildkittest.New()
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{})
	for _, name := range []string{"ann", "ben", "cat", "dan", "eve"} {
		srv.AddBan(g.ID, guildkit.Ban{User: guildkit.User{Username: name}})
	}
	client := srv.Client()

	// Pages of two bans: three requests, made only as the loop goes on.
	for ban, err := range client.Bans.All(context.Background(), g.ID, &guildkit.BanListParams{Limit: guildkit.Some(2)}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(ban.User.Username)
	}
	fmt.Println(len(srv.Requests()), "requests")
	// Output:
	// ann
	// ben
	// cat
	// dan
	// eve
	// 3 requests
}

func ExampleMemberService_All() {
	srv := guildkittest.New()
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{})
	for _, name := range []string{"ada", "bo", "cy"} {
		srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: name}})
	}

	n := 0
	for m, err := range srv.Client().Members.All(context.Background(), g.ID, nil) {
		if err != nil {
			log.Fatal(err)
		}
		if m.User.Bot {
			continue
		}
		fmt.Println(m.User.Username)
		if n++; n == 2 {
			break // stops fetching
		}
	}
	// Output:
	// ada
	// bo
}

func ExampleMemberService_Add() {
	srv := guildkittest.New()
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{})
	ada := srv.AddUser(guildkit.User{Username: "ada"})
	token := srv.NewAccessToken(ada.ID) // from the user's OAuth2 grant with guilds.join
	client := srv.Client()

	for range 2 {
		res, err := client.Members.Add(context.Background(), g.ID, ada.ID, &guildkit.MemberAddParams{AccessToken: token})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("created:", res.Created)
	}
	// Output:
	// created: true
	// created: false
}

func ExampleBanService_Bulk() {
	srv := guildkittest.New()
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{})
	spammer := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "spammer"}})
	client := srv.Client()
	ctx := context.Background()
	ids := []guildkit.Snowflake{spammer.User.ID}

	res, err := client.Bans.Bulk(ctx, g.ID, &guildkit.BanBulkParams{UserIDs: ids}, guildkit.WithReason("raid"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(res.BannedUsers), "banned,", len(res.FailedUsers), "failed")

	// Again: every user is already banned, so nobody could be banned.
	_, err = client.Bans.Bulk(ctx, g.ID, &guildkit.BanBulkParams{UserIDs: ids})
	fmt.Println(errors.Is(err, guildkit.ErrBulkBanFailed))
	// Output:
	// 1 banned, 0 failed
	// true
}
