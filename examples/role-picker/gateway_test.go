package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// TestServeGateway runs the bot with a token and no public key against the
// in-memory server: a member's choice in the picker reaches it over the
// gateway and gets the same answer as through the endpoint.
func TestServeGateway(t *testing.T) {
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "Makers"})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "roles", Type: guildkit.ChannelTypeGuildText})
	botRole := srv.AddRole(g.ID, guildkit.Role{Name: "Role Picker", Permissions: guildkit.PermissionManageRoles, Position: 10})
	srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{ID: srv.BotID()}, Roles: []guildkit.Snowflake{botRole.ID}})
	artist := srv.AddRole(g.ID, guildkit.Role{Name: "Artist", Position: 3})
	ada := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "ada"}}).User
	picker := srv.AddApplicationMessage(ch.ID, guildkit.Message{Content: "Pick", Components: components.List{
		components.NewActionRow(components.NewRoleSelect(pickID).WithValues(0, 10)),
	}})

	env := map[string]string{"GUILDKIT_TOKEN": srv.Token(), "GUILDKIT_BASE_URL": srv.BaseURL()}
	ctx, cancel := context.WithCancel(t.Context())
	connected := make(chan struct{})
	out := writerFunc(func(p []byte) (int, error) {
		if strings.Contains(string(p), "connected to the gateway") {
			close(connected)
		}
		return len(p), nil
	})
	done := make(chan error, 1)
	go func() { done <- serveGateway(ctx, out, func(k string) string { return env[k] }) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	select {
	case <-connected:
	case err := <-done:
		done <- nil
		t.Fatalf("the bot stopped: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("the bot never connected")
	}
	o, err := srv.Select(t.Context(), ada.ID, picker.ID, pickID, artist.ID.String())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(o.String(), "Done: added Artist.") || !o.Ephemeral {
		t.Errorf("the member saw %s", o)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
