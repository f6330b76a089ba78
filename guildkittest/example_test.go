package guildkittest_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log"
	"strings"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// promote is bot code under test: it gives a member a role and a nickname.
// It takes a *guildkit.Client, so the same code runs against a deployment
// and against the in-memory server.
func promote(ctx context.Context, c *guildkit.Client, guildID, userID, roleID guildkit.Snowflake) error {
	if err := c.Members.AddRole(ctx, guildID, userID, roleID, guildkit.WithReason("promoted")); err != nil {
		return fmt.Errorf("adding the role: %w", err)
	}
	_, err := c.Members.Modify(ctx, guildID, userID, &guildkit.MemberModifyParams{
		Nick: guildkit.Some("Mod Ann"),
	})
	return err
}

// A test of bot code against the in-memory server: seed the state the code
// needs, run it with the server's client, then check the server's state, the
// requests it received and the gateway events it emitted.
//
// In a test, start the server with guildkittest.NewServer(t): it closes itself
// when the test ends. An Example has no *testing.T, so this one uses New and
// Close.
func Example() {
	srv := guildkittest.New() // in a test: srv := guildkittest.NewServer(t)
	defer srv.Close()

	// Seed: a guild (the bot owns it unless OwnerID says otherwise), a role
	// and a member.
	g := srv.AddGuild(guildkit.Guild{Name: "Gophers"})
	mod := srv.AddRole(g.ID, guildkit.Role{Name: "Moderator"})
	ann := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "ann"}})

	// Run the code under test with a client pointed at the server
	// (srv.BaseURL() and srv.Token() build one by hand).
	ctx := context.Background()
	if err := promote(ctx, srv.Client(), g.ID, ann.User.ID, mod.ID); err != nil {
		log.Fatal(err)
	}

	// Check the state...
	m, _ := srv.Member(g.ID, ann.User.ID)
	fmt.Println(*m.Nick, len(m.Roles) == 1 && m.Roles[0] == mod.ID)

	// ...the requests, by route template...
	for _, r := range srv.Requests() {
		fmt.Println(r.Status, r.Method, r.Route)
	}

	// ...and the gateway events.
	fmt.Println(len(srv.EventsNamed(guildkit.EventGuildMemberUpdate)), "member updates")
	// Output:
	// Mod Ann true
	// 204 PUT /guilds/{guild.id}/members/{user.id}/roles/{role.id}
	// 200 PATCH /guilds/{guild.id}/members/{user.id}
	// 2 member updates
}

// The server enforces permissions and the role hierarchy as the platform
// does: a client acting as a member without MANAGE_ROLES gets the 403 a
// deployment would give.
func ExampleServer_ClientAs() {
	srv := guildkittest.New()
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{Name: "Gophers"})
	mod := srv.AddRole(g.ID, guildkit.Role{Name: "Moderator"})
	ann := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "ann"}})
	ben := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "ben"}})

	asAnn := srv.ClientAs(ann.User.ID)
	err := promote(context.Background(), asAnn, g.ID, ben.User.ID, mod.ID)
	fmt.Println(errors.Is(err, guildkit.ErrForbidden))
	// Output:
	// true
}

// InjectFault makes the server fail the way a deployment can, so the
// bot's error handling is tested too: here one 502 the client retries (a GET
// is safe to repeat), then a 503 on every attempt, which the caller sees.
func ExampleServer_InjectFault() {
	srv := guildkittest.New()
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{Name: "Gophers"})
	client := srv.Client() // quick retries
	ctx := context.Background()

	if err := srv.InjectFault("GET /guilds/{guild.id}", 1, guildkittest.Fault{Status: 502}); err != nil {
		log.Fatal(err)
	}
	got, err := client.Guilds.Get(ctx, g.ID, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(got.Name)

	if err := srv.InjectFault("GET /guilds/{guild.id}", 10, guildkittest.Fault{Status: 503}); err != nil {
		log.Fatal(err)
	}
	_, err = client.Guilds.Get(ctx, g.ID, nil)
	fmt.Println(errors.Is(err, guildkit.ErrServer))
	srv.ClearFaults()
	// Output:
	// Gophers
	// true
}

// A seed file sets up a whole scenario at once, in the interface's own field
// names; the emulator (cmd/guildkit-emulator -seed) reads the same format.
func ExampleParseSeed() {
	seed, err := guildkittest.ParseSeed(strings.NewReader(`{
	  "users":  [{"id": "1001", "username": "alice"}],
	  "guilds": [{
	    "id": "2001", "name": "Test guild",
	    "roles":    [{"id": "2002", "name": "Moderator", "permissions": "2"}],
	    "channels": [{"id": "2003", "name": "general", "type": 0}],
	    "members":  [{"user_id": "1001", "roles": ["2002"], "nick": "Al"}],
	    "webhooks": [{"channel_id": "2003", "name": "CI"}]
	  }]
	}`))
	if err != nil {
		log.Fatal(err)
	}
	srv := guildkittest.New()
	defer srv.Close()
	res := srv.ApplySeed(seed)

	m, err := srv.Client().Members.Get(context.Background(), 2001, 1001)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Guilds[0].Name, *m.Nick, len(res.Webhooks), "webhook")
	// Output:
	// Test guild Al 1 webhook
}

// SaveState and LoadState keep a scenario between runs, or hand one server's
// state to another (the emulator's -state flag uses them).
func ExampleServer_SaveState() {
	srv := guildkittest.New()
	g := srv.AddGuild(guildkit.Guild{Name: "Gophers"})
	var state bytes.Buffer
	if err := srv.SaveState(&state); err != nil {
		log.Fatal(err)
	}
	srv.Close()

	again := guildkittest.New()
	defer again.Close()
	if err := again.LoadState(&state); err != nil {
		log.Fatal(err)
	}
	got, err := again.Client().Guilds.Get(context.Background(), g.ID, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(got.Name)
	// Output:
	// Gophers
}
