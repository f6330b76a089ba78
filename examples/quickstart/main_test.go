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

func noEnv(string) string { return "" }

// envOf returns a getenv reading vars.
func envOf(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestQuickstartInMemory(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out, noEnv))
	got := regexp.MustCompile(`id \d+, created \d{4}-\d\d-\d\d`).ReplaceAllString(out.String(), "id ID, created DATE")
	assert.Equal(t, `GUILDKIT_TOKEN is not set: running against the in-memory server, with a demo guild of 3 members and the bot
guild "Gopher Guild" (id ID, created DATE)
  verification level: MEDIUM, boost tier: TIER_1
  features: [COMMUNITY WELCOME_SCREEN_ENABLED]
  roles: 1
  members: about 4 (the bot included), 2 online
`, got)
}

// With a token the program talks to the deployment the environment names;
// here that deployment is a guildkittest server reached over HTTP.
func TestQuickstartWithToken(t *testing.T) {
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "Remote"})
	env := envOf(map[string]string{
		"GUILDKIT_TOKEN": srv.Token(), "GUILDKIT_BASE_URL": srv.BaseURL(), "GUILDKIT_GUILD_ID": g.ID.String(),
	})
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out, env))
	assert.Contains(t, out.String(), `guild "Remote" (id `+g.ID.String())
	assert.NotContains(t, out.String(), "in-memory")

	out.Reset()
	env = envOf(map[string]string{
		"GUILDKIT_TOKEN": srv.Token(), "GUILDKIT_BASE_URL": srv.BaseURL(), "GUILDKIT_GUILD_ID": "12345",
	})
	assert.EqualError(t, run(context.Background(), &out, env), "guild 12345 does not exist")
}
