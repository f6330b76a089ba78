package guildkittest_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

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
