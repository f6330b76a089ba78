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
