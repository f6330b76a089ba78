package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

func TestPruneReportInMemory(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out, func(string) string { return "" }))
	assert.Equal(t, `GUILDKIT_TOKEN is not set: running against the in-memory server
inactive for  roles included: none  Lurker  Lurker, Regular
1 day         3                     4       6
7 days        2                     3       5
14 days       1                     2       4
30 days       1                     1       3
pruned 4 member(s) inactive for 14 days, roles included: Lurker, Regular
a second prune would remove 0
`, out.String())
}

// deployment is a guildkittest server reached over HTTP with a token, as a
// real deployment would be.
func deployment(t *testing.T) (*guildkittest.Server, guildkit.Role, map[string]string) {
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "Remote"})
	mod := srv.AddRole(g.ID, guildkit.Role{Name: "Mod", Position: 1})
	for i, idle := range []int{2, 31} {
		m := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "u" + string(rune('a'+i))}})
		srv.SetLastActive(g.ID, m.User.ID, srv.Now().AddDate(0, 0, -idle))
	}
	m := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "modder"}, Roles: []guildkit.Snowflake{mod.ID}})
	srv.SetLastActive(g.ID, m.User.ID, srv.Now().AddDate(0, 0, -31))
	return srv, mod, map[string]string{
		"GUILDKIT_TOKEN": srv.Token(), "GUILDKIT_BASE_URL": srv.BaseURL(), "GUILDKIT_GUILD_ID": g.ID.String(),
	}
}

// Without GUILDKIT_PRUNE_DAYS the program only reports.
func TestPruneReportWithTokenReportsOnly(t *testing.T) {
	srv, _, env := deployment(t)
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out, func(k string) string { return env[k] }))
	assert.Equal(t, `inactive for  roles included: none  Mod
1 day         2                     3
7 days        1                     2
14 days       1                     2
30 days       1                     2
not pruning: set GUILDKIT_PRUNE_DAYS to prune
`, out.String())
	for _, r := range srv.Requests() {
		assert.Equal(t, "GET", r.Method, r.Route)
	}
}

func TestPruneReportWithTokenPrunes(t *testing.T) {
	srv, mod, env := deployment(t)
	env["GUILDKIT_PRUNE_DAYS"] = "30"
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out, func(k string) string { return env[k] }))
	assert.Contains(t, out.String(), "pruned 2 member(s) inactive for 30 days, roles included: Mod\na second prune would remove 0\n")
	last, ok := srv.LastRequest()
	require.True(t, ok)
	assert.Equal(t, "/guilds/{guild.id}/prune", last.Route)
	var prunes int
	for _, r := range srv.Requests() {
		if r.Method == "POST" {
			prunes++
			assert.Equal(t, "inactive%20for%2030%20days", r.Header.Get("X-Audit-Log-Reason"))
			assert.JSONEq(t, `{"days":30,"include_roles":["`+mod.ID.String()+`"]}`, string(r.Body))
		}
	}
	assert.Equal(t, 1, prunes)

	env["GUILDKIT_PRUNE_DAYS"] = "31"
	assert.EqualError(t, run(context.Background(), &out, func(k string) string { return env[k] }),
		`GUILDKIT_PRUNE_DAYS: want 1-30, got "31"`)
}
