package guildkittest_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log"
	"strings"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// Faults test a bot's error handling: here two 503s the client retries,
// then a dropped connection on a call the client may not repeat.
func ExampleServer_InjectFault() {
	srv := guildkittest.New()
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{Name: "Gophers"})
	client := srv.Client()
	ctx := context.Background()

	if err := srv.InjectFault("GET /guilds/{guild.id}", 2, guildkittest.Fault{Status: 503}); err != nil {
		log.Fatal(err)
	}
	guild, err := client.Guilds.Get(ctx, g.ID, nil)
	fmt.Println(guild.Name, err)
	for _, r := range srv.Requests() {
		fmt.Println(r.Method, r.Route, r.Status)
	}

	// A POST that may have taken effect is never sent twice.
	if err := srv.InjectFault("POST /guilds/{guild.id}/roles", 1, guildkittest.Fault{Drop: true}); err != nil {
		log.Fatal(err)
	}
	_, err = client.Roles.Create(ctx, g.ID, nil)
	var reqErr *guildkit.RequestError
	fmt.Println(errors.As(err, &reqErr), len(srv.Faults()))
	// Output:
	// Gophers <nil>
	// GET /guilds/{guild.id} 503
	// GET /guilds/{guild.id} 503
	// GET /guilds/{guild.id} 200
	// true 0
}

// ClientAs acts as another user, so a test can check what a member without
// a permission meets.
func ExampleServer_ClientAs() {
	srv := guildkittest.New()
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{})
	bob := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "bob"}})
	eve := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "eve"}})

	err := srv.ClientAs(eve.User.ID).Members.Remove(context.Background(), g.ID, bob.User.ID)
	fmt.Println(errors.Is(err, guildkit.ErrForbidden))
	fmt.Println(srv.Permissions(g.ID, eve.User.ID).Has(guildkit.PermissionKickMembers))
	// Output:
	// true
	// false
}

// A seed file describes a server's starting state in the interface's own
// JSON; the emulator (cmd/guildkit-emulator) reads the same format.
func ExampleParseSeed() {
	seed, err := guildkittest.ParseSeed(strings.NewReader(`{
	  "users":  [{"id": "1001", "username": "alice"}],
	  "guilds": [{
	    "id": "2001", "name": "Test guild",
	    "roles":    [{"id": "2002", "name": "Moderator", "permissions": "2"}],
	    "channels": [{"id": "2003", "name": "general", "type": 0}],
	    "members":  [{"user_id": "1001", "roles": ["2002"], "nick": "Al"}]
	  }]
	}`))
	if err != nil {
		log.Fatal(err)
	}
	srv := guildkittest.New()
	defer srv.Close()
	srv.ApplySeed(seed)

	m, err := srv.Client().Members.Get(context.Background(), 2001, 1001)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.User.Username, *m.Nick, m.Roles)

	// A reference to nothing is refused with its place.
	_, err = guildkittest.ParseSeed(strings.NewReader(`{"guilds": [{"id": "1", "members": [{"user_id": "9"}]}]}`))
	fmt.Println(err)
	// Output:
	// alice Al [2002]
	// guildkittest: seed: guilds[0].members[0].user_id: no user 9 in users
}

// SaveState and LoadState carry a server's state, tokens included, to
// another server: a bot keeps working against it.
func ExampleServer_SaveState() {
	srv := guildkittest.New()
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{Name: "Gophers"})
	var state bytes.Buffer
	if err := srv.SaveState(&state); err != nil {
		log.Fatal(err)
	}

	other := guildkittest.New()
	defer other.Close()
	if err := other.LoadState(&state); err != nil {
		log.Fatal(err)
	}
	bot, err := guildkit.New(guildkit.BotToken(srv.Token()), guildkit.WithBaseURL(other.BaseURL()))
	if err != nil {
		log.Fatal(err)
	}
	guild, err := bot.Guilds.Get(context.Background(), g.ID, nil)
	fmt.Println(guild.Name, err)
	// Output: Gophers <nil>
}

// The server's clock moves only when told, so a test of time-outs, invite
// expiry or prune activity does not wait.
func ExampleServer_AdvanceClock() {
	srv := guildkittest.New()
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	inv := srv.AddInvite(g.ID, ch.ID, guildkit.Invite{ExpiresAt: guildkit.Some(srv.Now().Add(time.Hour))})
	client := srv.Client()
	ctx := context.Background()

	_, err := client.Invites.Get(ctx, inv.Code, nil)
	fmt.Println(err)
	srv.AdvanceClock(2 * time.Hour) // the invite has expired
	_, err = client.Invites.Get(ctx, inv.Code, nil)
	fmt.Println(errors.Is(err, guildkit.ErrNotFound))
	// Output:
	// <nil>
	// true
}
