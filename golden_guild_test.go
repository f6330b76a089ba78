package guildkit_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
)

// testGoldenRoundTrip decodes testdata/name into a new T, encodes it again
// and asserts nothing was lost or added, nulls included.
func testGoldenRoundTrip[T any](t *testing.T, name string) *T {
	t.Helper()
	golden, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	v := new(T)
	require.NoError(t, json.Unmarshal(golden, v))
	again, err := json.Marshal(v)
	require.NoError(t, err)
	assert.JSONEq(t, string(golden), string(again), "%s: decode then encode changed the object", name)
	return v
}

func TestGuildGoldenRoundTrip(t *testing.T) {
	t.Parallel()
	t.Run("guild", func(t *testing.T) {
		t.Parallel()
		g := testGoldenRoundTrip[guildkit.Guild](t, "guild.json")
		assert.True(t, g.IconHash.IsNull(), "icon_hash: null is kept apart from absent")
		assert.True(t, g.WidgetChannelID.IsNull())
		assert.True(t, g.MaxPresences.IsNull())
		assert.True(t, g.HasFeature(guildkit.FeatureVIPRegions))
		assert.Equal(t, "SUPPRESS_JOIN_NOTIFICATIONS|SUPPRESS_GUILD_REMINDER_NOTIFICATIONS", g.SystemChannelFlags.String())
		require.NotNil(t, g.IncidentsData)
		assert.Nil(t, g.IncidentsData.DMsDisabledUntil)
		require.NotNil(t, g.WelcomeScreen)
		assert.Len(t, g.WelcomeScreen.WelcomeChannels, 2)
	})
	t.Run("preview", func(t *testing.T) {
		t.Parallel()
		p := testGoldenRoundTrip[guildkit.GuildPreview](t, "guild_preview.json")
		assert.Equal(t, 318, p.ApproximatePresenceCount)
	})
	t.Run("widget", func(t *testing.T) {
		t.Parallel()
		w := testGoldenRoundTrip[guildkit.GuildWidget](t, "guild_widget.json")
		require.NotNil(t, w.InstantInvite)
		assert.Equal(t, "0000", w.Members[0].Discriminator)
	})
	t.Run("widget settings", func(t *testing.T) {
		t.Parallel()
		ws := testGoldenRoundTrip[guildkit.GuildWidgetSettings](t, "guild_widget_settings.json")
		assert.Nil(t, ws.ChannelID)
	})
	t.Run("onboarding", func(t *testing.T) {
		t.Parallel()
		o := testGoldenRoundTrip[guildkit.Onboarding](t, "onboarding.json")
		assert.Equal(t, guildkit.OnboardingAdvanced, o.Mode)
		require.NotNil(t, o.Prompts[0].Options[0].Emoji)
		assert.Equal(t, "gopher", *o.Prompts[0].Options[0].Emoji.Name)
	})
	t.Run("integration", func(t *testing.T) {
		t.Parallel()
		in := testGoldenRoundTrip[guildkit.Integration](t, "integration.json")
		assert.Equal(t, guildkit.IntegrationTypeTwitch, in.Type)
		assert.Equal(t, guildkit.IntegrationExpireKick, *in.ExpireBehavior)
	})
	t.Run("forum channel", func(t *testing.T) {
		t.Parallel()
		ch := testGoldenRoundTrip[guildkit.Channel](t, "channel_forum.json")
		assert.Equal(t, guildkit.ChannelTypeGuildForum, ch.Type)
		assert.True(t, ch.DefaultSortOrder.IsNull())
		assert.Equal(t, guildkit.ForumLayoutList, ch.DefaultForumLayout)
	})
	t.Run("text channel", func(t *testing.T) {
		t.Parallel()
		ch := testGoldenRoundTrip[guildkit.Channel](t, "channel_text.json")
		assert.True(t, ch.Topic.IsNull(), "topic: null is kept apart from absent")
		assert.True(t, ch.ParentID.IsNull())
		assert.Equal(t, ptr(false), ch.NSFW)
		assert.Equal(t, ptr(0), ch.RateLimitPerUser, "no slow mode is 0, kept")
	})
	t.Run("voice channel", func(t *testing.T) {
		t.Parallel()
		ch := testGoldenRoundTrip[guildkit.Channel](t, "channel_voice.json")
		assert.True(t, ch.Topic.IsZero(), "a voice channel has no topic key")
		assert.True(t, ch.RTCRegion.IsNull(), "null means automatic")
		assert.Equal(t, ptr(0), ch.UserLimit, "no user limit is 0, kept")
		assert.Equal(t, ptr(64000), ch.Bitrate)
	})
	t.Run("thread", func(t *testing.T) {
		t.Parallel()
		ch := testGoldenRoundTrip[guildkit.Channel](t, "channel_thread.json")
		require.NotNil(t, ch.ThreadMetadata)
		assert.True(t, ch.Type.IsThread())
	})
}

func TestUserGoldenRoundTrip(t *testing.T) {
	t.Parallel()
	u := testGoldenRoundTrip[guildkit.User](t, "user.json")
	assert.True(t, u.GlobalName.IsNull(), "global_name: null is kept apart from absent")
	assert.True(t, u.AvatarDecorationData.IsNull())
	assert.True(t, u.Banner.IsZero(), "absent stays absent")
	assert.Equal(t, ptr(0), u.PublicFlags)
}
