package guildkit_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

func TestGuildGet(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{
		Name:              "Gophers",
		Features:          []guildkit.GuildFeature{guildkit.FeatureCommunity, guildkit.FeatureVIPRegions},
		VerificationLevel: guildkit.VerificationLevelHigh,
		PremiumTier:       guildkit.PremiumTier2,
		SystemChannelFlags: guildkit.SystemChannelSuppressJoinNotifications |
			guildkit.SystemChannelSuppressGuildReminderNotifications,
	})
	alice := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "alice"}})
	srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "bob"}})
	srv.SetOnline(g.ID, alice.User.ID, true)
	c := srv.Client()
	ctx := context.Background()

	got, err := c.Guilds.Get(ctx, g.ID, nil)
	require.NoError(t, err)
	assert.Equal(t, g.ID, got.ID)
	assert.Equal(t, "Gophers", got.Name)
	assert.Equal(t, srv.BotID(), got.OwnerID)
	assert.True(t, got.HasFeature(guildkit.FeatureVIPRegions))
	assert.False(t, got.HasFeature(guildkit.FeatureDiscoverable))
	assert.Equal(t, guildkit.VerificationLevelHigh, got.VerificationLevel)
	assert.Equal(t, "HIGH", got.VerificationLevel.String())
	assert.Equal(t, guildkit.PremiumTier2, got.PremiumTier)
	assert.True(t, got.SystemChannelFlags.Has(guildkit.SystemChannelSuppressJoinNotifications))
	assert.Equal(t, "SUPPRESS_JOIN_NOTIFICATIONS|SUPPRESS_GUILD_REMINDER_NOTIFICATIONS", got.SystemChannelFlags.String())
	require.Len(t, got.Roles, 1)
	assert.Equal(t, g.ID, got.Roles[0].ID, "@everyone has the guild's id")
	assert.Nil(t, got.ApproximateMemberCount, "no counts without with_counts")
	assert.Equal(t, 300, got.AFKTimeout)
	assert.Equal(t, "en-US", got.PreferredLocale)

	got, err = c.Guilds.Get(ctx, g.ID, &guildkit.GuildGetParams{WithCounts: guildkit.Some(true)})
	require.NoError(t, err)
	require.NotNil(t, got.ApproximateMemberCount)
	assert.Equal(t, 3, *got.ApproximateMemberCount, "bot, alice and bob")
	assert.Equal(t, 1, *got.ApproximatePresenceCount, "only alice is online")
	req, ok := srv.LastRequest()
	require.True(t, ok)
	assert.Equal(t, "/guilds/{guild.id}", req.Route)
	assert.Equal(t, []string{"true"}, req.Query["with_counts"])
}

func TestGuildGetErrors(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	other := srv.AddUser(guildkit.User{Username: "owner"})
	foreign := srv.AddGuild(guildkit.Guild{Name: "Elsewhere", OwnerID: other.ID})
	ctx := context.Background()

	_, err := srv.Client().Guilds.Get(ctx, 12345, nil)
	require.ErrorIs(t, err, guildkit.ErrNotFound)
	var apiErr *guildkit.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, guildkit.CodeUnknownGuild, apiErr.Code)
	assert.Equal(t, "Unknown Guild", apiErr.Message)

	_, err = srv.Client().Guilds.Get(ctx, foreign.ID, nil)
	require.ErrorIs(t, err, guildkit.ErrForbidden, "the bot is not a member")

	bad, err := guildkit.New(guildkit.BotToken("not-a-token"), guildkit.WithBaseURL(srv.BaseURL()))
	require.NoError(t, err)
	_, err = bad.Guilds.Get(ctx, foreign.ID, nil)
	require.ErrorIs(t, err, guildkit.ErrUnauthorized)
	req, _ := srv.LastRequest()
	assert.Equal(t, 401, req.Status)
}

func TestGuildEnumsString(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "ONLY_MENTIONS", guildkit.NotifyOnlyMentions.String())
	assert.Equal(t, "MEMBERS_WITHOUT_ROLES", guildkit.ExplicitContentFilterMembersWithoutRoles.String())
	assert.Equal(t, "ELEVATED", guildkit.MFALevelElevated.String())
	assert.Equal(t, "AGE_RESTRICTED", guildkit.NSFWLevelAgeRestricted.String())
	assert.Equal(t, "TIER_3", guildkit.PremiumTier3.String())
	assert.Equal(t, "VerificationLevel(9)", guildkit.VerificationLevel(9).String())
	assert.Equal(t, "SUPPRESS_ROLE_SUBSCRIPTION_PURCHASE_NOTIFICATION_REPLIES|1<<7", (guildkit.SystemChannelSuppressRoleSubscriptionPurchaseNotificationReplies | 1<<7).String())
	assert.Len(t, guildkit.GuildFeatures, 34)
}
