package guildkittest_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// The in-memory server in a test's place: seed a guild, point the client
// at it, run the code under test, then check what it sent and the events it
// caused. In a test, NewServer(t) closes the server when the test ends.
func Example() {
	srv := guildkittest.New()
	defer srv.Close()
	guild := srv.AddGuild(guildkit.Guild{Name: "Gopher Guild"})
	spammer := srv.AddMember(guild.ID, guildkit.Member{User: &guildkit.User{Username: "spammer"}})
	client := srv.Client()
	ctx := context.Background()

	// The code under test: ban a spammer, with a reason.
	err := client.Bans.Create(ctx, guild.ID, spammer.User.ID, nil, guildkit.WithReason("spam"))
	if err != nil {
		log.Fatal(err)
	}

	// What the server saw and did.
	req, _ := srv.LastRequest()
	fmt.Println(req.Method, req.Route, req.Header.Get("X-Audit-Log-Reason"))
	for _, e := range srv.Events() {
		fmt.Println(e.Name)
	}
	_, isMember := srv.Member(guild.ID, spammer.User.ID)
	fmt.Println("still a member:", isMember)

	// Errors the platform would give come back as they would.
	_, err = client.Bans.Get(ctx, guild.ID, 42)
	fmt.Println(errors.Is(err, guildkit.ErrNotFound))
	// Output:
	// PUT /guilds/{guild.id}/bans/{user.id} spam
	// GUILD_MEMBER_REMOVE
	// GUILD_BAN_ADD
	// still a member: false
	// true
}

// Faults make the error paths testable: the next answer of a route is a
// 503, which the client retries for a GET.
func ExampleServer_InjectFault() {
	srv := guildkittest.New()
	defer srv.Close()
	guild := srv.AddGuild(guildkit.Guild{Name: "Gopher Guild"})
	if err := srv.InjectFault("GET /guilds/{guild.id}", 1, guildkittest.Fault{Status: 503}); err != nil {
		log.Fatal(err)
	}
	client := srv.Client(guildkit.WithRetry(3, 10*time.Millisecond, 100*time.Millisecond))
	g, err := client.Guilds.Get(context.Background(), guild.ID, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(g.Name, len(srv.Requests()))
	// Output:
	// Gopher Guild 2
}
