package main

import (
	"bytes"
	"context"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

func TestModerationInMemory(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out, func(string) string { return "" }))
	got := regexp.MustCompile(`until \d{1,2}:\d\d(AM|PM)`).ReplaceAllString(out.String(), "until TIME")
	assert.Equal(t, `GUILDKIT_TOKEN is not set: running against the in-memory server
deleted a message of spammer: "FREE NITRO at https://free-nitro.example/claim"
spammer (told by DM); logged: "Message deleted"
spammer is timed out until TIME
a 29-day timeout is refused before sending: true
bulk ban: 3 banned, 0 failed
  banned: troll (trolling)
  banned: raider0 (raid)
  banned: raider1 (raid)
  banned: raider2 (raid)
a 14-day prune would remove 1 member(s)
pruned 1 member(s)
events:
  MESSAGE_CREATE
  MESSAGE_CREATE
  MESSAGE_CREATE
  MESSAGE_DELETE
  MESSAGE_CREATE
  MESSAGE_CREATE
  GUILD_MEMBER_UPDATE
  GUILD_MEMBER_REMOVE
  GUILD_BAN_ADD
  GUILD_BAN_ADD
  GUILD_BAN_ADD
  GUILD_BAN_ADD
  GUILD_MEMBER_REMOVE
`, got)
}

// With a token the program only reads: the deployment (a guildkittest
// server over HTTP) sees no request that changes anything.
func TestModerationWithTokenOnlyReads(t *testing.T) {
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "Remote"})
	u := srv.AddUser(guildkit.User{Username: "old-troll"})
	require.NoError(t, srv.Client().Bans.Create(context.Background(), g.ID, u.ID, nil, guildkit.WithReason("spam")))
	before := len(srv.Requests())
	env := map[string]string{"GUILDKIT_TOKEN": srv.Token(), "GUILDKIT_BASE_URL": srv.BaseURL(), "GUILDKIT_GUILD_ID": g.ID.String()}
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out, func(k string) string { return env[k] }))
	assert.Equal(t, "guild "+g.ID.String()+`: reading only (bans and a prune count); nothing is changed
  banned: old-troll (spam)
a 14-day prune would remove 0 member(s)
`, out.String())
	require.Greater(t, len(srv.Requests()), before)
	for _, r := range srv.Requests()[before:] {
		assert.Equal(t, "GET", r.Method, r.Route)
	}
}

// TestEnforceRule checks what the rule leaves behind: the matching message
// gone and the others kept, the author's DM, and the log's embed with the
// author's text escaped and no ping; an author who takes no DMs is noted
// in the log, not a failure.
func TestEnforceRule(t *testing.T) {
	ctx := context.Background()
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "G"})
	general := srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	modLog := srv.AddChannel(g.ID, guildkit.Channel{Name: "mod-log", Type: guildkit.ChannelTypeGuildText})
	open := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "open"}})
	closed := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "closed"}})
	srv.SetDirectMessagesOpen(closed.User.ID, false)
	keep, err := srv.Post(ctx, open.User.ID, general.ID, "hello")
	require.NoError(t, err)
	_, err = srv.Post(ctx, open.User.ID, general.ID, "*free nitro* @everyone")
	require.NoError(t, err)
	_, err = srv.Post(ctx, closed.User.ID, general.ID, "Free-Nitro here")
	require.NoError(t, err)

	var out bytes.Buffer
	c := srv.Client()
	require.NoError(t, enforceRule(ctx, &out, c, general.ID, modLog.ID))
	assert.Contains(t, out.String(), "closed (does not take DMs)")
	assert.Contains(t, out.String(), "open (told by DM)")

	left, err := c.Messages.List(ctx, general.ID, nil)
	require.NoError(t, err)
	require.Len(t, left, 1)
	assert.Equal(t, keep.ID, left[0].ID)

	dm, err := c.Users.CreateDM(ctx, open.User.ID)
	require.NoError(t, err)
	dms, err := c.Messages.List(ctx, dm.ID, nil)
	require.NoError(t, err)
	require.Len(t, dms, 1)
	assert.Contains(t, dms[0].Content, "was removed")

	logs, err := c.Messages.List(ctx, modLog.ID, nil)
	require.NoError(t, err)
	require.Len(t, logs, 2)
	var descriptions []string
	for _, l := range logs {
		require.Len(t, l.Embeds, 1)
		descriptions = append(descriptions, l.Embeds[0].Description)
		assert.False(t, l.MentionEveryone)
		assert.Empty(t, l.Mentions)
	}
	assert.Contains(t, descriptions, "\\*free nitro\\* @\u200beveryone")
}
