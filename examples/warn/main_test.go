package main

import (
	"bytes"
	"context"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// The bot in a guild a person owns: the bot has only what its role gives
// it (Ban Members), morgan moderates, ada is a plain member.
func TestWarn(t *testing.T) {
	srv := guildkittest.NewServer(t)
	ctx := t.Context()
	owner := srv.AddUser(guildkit.User{Username: "owner"})
	g := srv.AddGuild(guildkit.Guild{Name: "Gophers", OwnerID: owner.ID})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general"})
	bots := srv.AddRole(g.ID, guildkit.Role{Name: "Bots", Permissions: guildkit.PermissionBanMembers, Position: 2})
	mods := srv.AddRole(g.ID, guildkit.Role{Name: "Moderators", Permissions: guildkit.PermissionModerateMembers, Position: 1})
	srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{ID: srv.BotID()}, Roles: []guildkit.Snowflake{bots.ID}})
	morgan := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "morgan"}, Roles: []guildkit.Snowflake{mods.ID}}).User
	ada := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "ada"}}).User

	var logs bytes.Buffer // read after Settle: the handlers are done writing
	shard, h, err := newBot(srv.Client(), srv.Token(), slog.New(slog.NewTextHandler(&logs, nil)))
	require.NoError(t, err)
	_, err = h.Sync(ctx, 0, g.ID)
	require.NoError(t, err)
	require.NoError(t, shard.Open(ctx))
	t.Cleanup(func() { _ = shard.End(context.Background()); _ = h.Wait(context.Background()) })

	// A plain member does not even see /warn: the platform refuses it.
	_, err = srv.RunCommand(ctx, ada.ID, ch.ID, "warn", guildkit.UserOption("user", morgan.ID), guildkit.StringOption("reason", "x"))
	require.ErrorIs(t, err, guildkittest.ErrRefused)

	// Morgan warns ada: only morgan sees the answer, with its Undo button.
	out, err := srv.RunCommand(ctx, morgan.ID, ch.ID, "warn", guildkit.UserOption("user", ada.ID), guildkit.StringOption("reason", "spam"))
	require.NoError(t, err)
	assert.Equal(t, "message (ephemeral): Warned "+ada.Mention()+": spam", out.String())
	undo := out.FindButton("Undo")
	require.NotNil(t, undo)

	// Undo edits that answer, and takes the button away.
	out, err = srv.Click(ctx, morgan.ID, out.Message.ID, undo.CustomID)
	require.NoError(t, err)
	assert.Equal(t, "updated (ephemeral): Warning withdrawn: "+ada.Mention(), out.String())
	assert.Nil(t, out.FindButton("Undo"))

	// Joins and bans are logged: Settle waits for the handlers, no sleep.
	troll := srv.JoinMember(g.ID, guildkit.User{Username: "troll"})
	require.NoError(t, srv.Client().Bans.Create(ctx, g.ID, troll.User.ID, nil))
	require.NoError(t, srv.Settle(ctx, shard))
	assert.Contains(t, logs.String(), `msg="member joined" user=troll`)
	assert.Contains(t, logs.String(), `msg="member banned" user=troll`)
}
