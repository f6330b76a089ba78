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

const wantOutput = `created 6 channels
welcome screen: "A guild for people who write Go" with 3 channels
onboarding: 1 question(s), 6 default channels, enabled: false
enabling refused: 400 Bad Request
  default_channel_ids: Onboarding needs at least 7 default channels, 5 of them writable by @everyone; got 6, 4 writable
with #introductions added: 7 default channels, enabled: true
`

func TestOnboardingSetupInMemory(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out, func(string) string { return "" }))
	assert.Equal(t, "GUILDKIT_TOKEN is not set: running against the in-memory server\n"+wantOutput, out.String())
}

// With a token the program sets up the guild the environment names, here on
// a guildkittest server reached over HTTP; the result is read back.
func TestOnboardingSetupWithToken(t *testing.T) {
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "Remote", Features: []guildkit.GuildFeature{guildkit.FeatureCommunity}})
	env := map[string]string{"GUILDKIT_TOKEN": srv.Token(), "GUILDKIT_BASE_URL": srv.BaseURL(), "GUILDKIT_GUILD_ID": g.ID.String()}
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out, func(k string) string { return env[k] }))
	assert.Equal(t, wantOutput, out.String())

	ctx := context.Background()
	onboarding, err := srv.Client().Guilds.GetOnboarding(ctx, g.ID)
	require.NoError(t, err)
	assert.True(t, onboarding.Enabled)
	require.Len(t, onboarding.Prompts, 1)
	assert.Equal(t, "What brings you here?", onboarding.Prompts[0].Title)
	require.Len(t, onboarding.Prompts[0].Options, 2)
	assert.Len(t, onboarding.Prompts[0].Options[0].RoleIDs, 1, "answering gives the Learner role")
	ws, err := srv.Client().Guilds.GetWelcomeScreen(ctx, g.ID)
	require.NoError(t, err)
	assert.Len(t, ws.WelcomeChannels, 3)
	var reasons int
	for _, r := range srv.Requests() {
		if r.Method != "GET" {
			reasons++
			assert.Equal(t, "onboarding%20setup", r.Header.Get("X-Audit-Log-Reason"), r.Route)
		}
	}
	assert.Positive(t, reasons)
}
