package guildkittest_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// greet is the bot code under test: it gives a newcomer the guild's
// "newcomer" role and a nickname.
func greet(ctx context.Context, client *guildkit.Client, guildID, userID guildkit.Snowflake) error {
	roles, err := client.Roles.List(ctx, guildID)
	if err != nil {
		return err
	}
	for _, r := range roles {
		if r.Name == "newcomer" {
			if err := client.Members.AddRole(ctx, guildID, userID, r.ID, guildkit.WithReason("greeting")); err != nil {
				return err
			}
		}
	}
	_, err = client.Members.Modify(ctx, guildID, userID, &guildkit.MemberModifyParams{Nick: guildkit.Some("new here")})
	return err
}

// Test a bot against the in-memory server: seed it, run the bot's code with
// the server's client, then check the server's state, the gateway events the
// calls emitted and the requests it saw.
func Example() {
	// In a test, start the server with NewServer: it closes itself when the
	// test ends.
	//
	//	func TestGreet(t *testing.T) {
	//		srv := guildkittest.NewServer(t)
	//		...
	//	}
	srv := guildkittest.New()
	defer srv.Close()

	g := srv.AddGuild(guildkit.Guild{Name: "Gophers"})
	newcomer := srv.AddRole(g.ID, guildkit.Role{Name: "newcomer", Position: 1})
	ada := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "ada"}})

	ctx := context.Background()
	if err := greet(ctx, srv.Client(), g.ID, ada.User.ID); err != nil {
		log.Fatal(err)
	}

	// The state: what a bot would read back.
	m, _ := srv.Member(g.ID, ada.User.ID)
	fmt.Println(*m.Nick, len(m.Roles) == 1 && m.Roles[0] == newcomer.ID)

	// The events the calls emitted.
	for _, ev := range srv.Events() {
		fmt.Println(ev.Name)
	}

	// The requests, by route template; Authorization is kept as its scheme.
	for _, r := range srv.Requests() {
		fmt.Println(r.Status, r.Method, r.Route)
	}
	last, _ := srv.LastRequest()
	fmt.Println(last.Header.Get("Authorization"))

	// Errors are the interface's: an unknown member is a 404 with its code.
	err := greet(ctx, srv.Client(), g.ID, 42)
	fmt.Println(errors.Is(err, guildkit.ErrNotFound), err)
	// Output:
	// new here true
	// GUILD_MEMBER_UPDATE
	// GUILD_MEMBER_UPDATE
	// 200 GET /guilds/{guild.id}/roles
	// 204 PUT /guilds/{guild.id}/members/{user.id}/roles/{role.id}
	// 200 PATCH /guilds/{guild.id}/members/{user.id}
	// Bot [redacted]
	// true guildkit: PUT /guilds/{guild.id}/members/{user.id}/roles/{role.id}: 404 Not Found: Unknown Member (10007)
}
