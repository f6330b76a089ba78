package guildkit_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"strings"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

func ExampleInviteService_Get() {
	srv := guildkittest.New() // in a test: guildkittest.NewServer(t)
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{Name: "Gopher Guild"})
	ada := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "ada"}})
	srv.SetOnline(g.ID, ada.User.ID, true)
	lobby := srv.AddChannel(g.ID, guildkit.Channel{Name: "lobby", Type: guildkit.ChannelTypeGuildVoice})
	srv.AddInvite(g.ID, lobby.ID, guildkit.Invite{Code: "gophers", Flags: guildkit.InviteFlagIsGuestInvite})

	client := srv.Client()
	ctx := context.Background()
	inv, err := client.Invites.Get(ctx, "gophers", &guildkit.InviteGetParams{WithCounts: guildkit.Some(true)})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(inv.Code, "→", inv.Guild.Name, "#"+inv.Channel.Name, inv.Flags)
	fmt.Println("members:", *inv.ApproximateMemberCount, "online:", *inv.ApproximatePresenceCount)

	_, err = client.Invites.Get(ctx, "no-such-code", nil)
	fmt.Println(errors.Is(err, guildkit.ErrNotFound))
	fmt.Println(err)
	// Output:
	// gophers → Gopher Guild #lobby IS_GUEST_INVITE
	// members: 2 online: 1
	// true
	// guildkit: GET /invites/{invite.code}: 404 Not Found: Unknown Invite (10006)
}

func ExampleInviteService_UpdateTargetUsers() {
	srv := guildkittest.New()
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{})
	lobby := srv.AddChannel(g.ID, guildkit.Channel{Name: "lobby", Type: guildkit.ChannelTypeGuildVoice})
	srv.AddInvite(g.ID, lobby.ID, guildkit.Invite{Code: "vip"})

	client := srv.Client()
	ctx := context.Background()
	// Restrict the invite to three users. The list is sent as a CSV file
	// generated while the request is written, and processed asynchronously.
	ids := []guildkit.Snowflake{175928847299117063, 175928847299117064, 175928847299117065}
	if err := client.Invites.UpdateTargetUsers(ctx, "vip", ids); err != nil {
		log.Fatal(err)
	}
	waitCtx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	job, err := client.Invites.WaitTargetUsersJob(waitCtx, "vip", 10*time.Millisecond)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(job.Status, job.ProcessedUsers, "of", job.TotalUsers)

	// Read the list back, one id at a time.
	for id, err := range client.Invites.TargetUsers(ctx, "vip") {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(id)
	}

	// A file the service rejects names each bad line.
	err = client.Invites.UpdateTargetUsersCSV(ctx, "vip", strings.NewReader("user_id\n1\nbob\n2\n3x\n"))
	var apiErr *guildkit.APIError
	if errors.As(err, &apiErr) {
		for _, fe := range apiErr.Errors {
			fmt.Println(fe.Path+":", fe.Message)
		}
	}
	// Output:
	// COMPLETED 3 of 3
	// 175928847299117063
	// 175928847299117064
	// 175928847299117065
	// target_users_file: Line 3: "bob" is not a valid user id.
	// target_users_file: Line 5: "3x" is not a valid user id.
}

func ExampleParseTargetUsersCSV() {
	file := strings.NewReader("user_id\r\n\r\n80351110224678912\r\n41771983423143937\r\nnot-an-id\r\n")
	for id, err := range guildkit.ParseTargetUsersCSV(file) {
		if err != nil {
			fmt.Println(err)
			break
		}
		fmt.Println(id)
	}
	// Output:
	// 80351110224678912
	// 41771983423143937
	// guildkit: target users CSV line 5: not a user id: "not-an-id"
}
